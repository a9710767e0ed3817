/*
** output_manifest.c: a compile's output replaces the previous one whole
** (output_manifest.h).  What sm2c wrote is known from the manifest it wrote
** with it, so only those files are ever removed, and a directory without one
** is never written into unless it is empty.
*/
#define _GNU_SOURCE
#include "output_manifest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

#define MANIFEST_HEAD "# sm2c output: the next sm2c compile into this directory replaces these files\n"
#define MANIFEST_MAX (1 << 20)

/* A name sm2c could have written: a plain file name in the directory. */
static int plain_name(const char *s, size_t n)
{
    if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
        return 0;
    return memchr(s, '/', n) == NULL && memchr(s, 0, n) == NULL;
}

static char *manifest_text(sm2c_ctx *c, const char *name, const sm2c_outfile *files, size_t n)
{
    char *t = sm2c_arena_printf(c->arena, MANIFEST_HEAD "name %s\n", name);
    for (size_t i = 0; i < n; i++)
        t = sm2c_arena_printf(c->arena, "%sfile %s\n", t, files[i].name);
    return t;
}

/* The old manifest's text (NULL: none, and then nothing is removed: the
** output goes beside the files there, as a user's build directory or an
** output of an sm2c before manifests), or an error for one not sm2c's. */
static sm2c_status read_manifest(sm2c_ctx *c, int dirfd, const char *outdir, const char **text)
{
    *text = NULL;
    (void)outdir;
    if (!sm2c_exists(dirfd, SM2C_MANIFEST))
        return SM2C_OK;
    sm2c_buf b;
    const char *path = sm2c_path_join(c->arena, outdir, SM2C_MANIFEST);
    sm2c_status st = sm2c_read_file(c, dirfd, SM2C_MANIFEST, path, MANIFEST_MAX, &b);
    if (st)
        return st;
    if (strncmp((const char *)b.data, MANIFEST_HEAD, strlen(MANIFEST_HEAD)))
        return sm2c_error(c->diag, SM2C_ERR_USAGE, path, NULL,
                          "not a manifest sm2c wrote; refusing to replace this directory");
    *text = (const char *)b.data;
    return SM2C_OK;
}

static int is_new(const char *name, size_t n, const sm2c_outfile *files, size_t nfiles)
{
    if (n == strlen(SM2C_MANIFEST) && !strncmp(name, SM2C_MANIFEST, n))
        return 1;
    for (size_t i = 0; i < nfiles; i++)
        if (strlen(files[i].name) == n && !strncmp(files[i].name, name, n))
            return 1;
    return 0;
}

/* Remove the regular files the old manifest lists that the new output lacks. */
static void remove_stale(sm2c_ctx *c, int dirfd, const char *old, const sm2c_outfile *files, size_t nfiles)
{
    for (const char *l = old; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (len > 5 && !strncmp(l, "file ", 5) && plain_name(l + 5, len - 5) &&
            !is_new(l + 5, len - 5, files, nfiles)) {
            char *name = sm2c_arena_strndup(c->arena, l + 5, len - 5);
            struct stat st;
            if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
                (void)unlinkat(dirfd, name, 0);
        }
        l += len + (nl != NULL);
    }
}

typedef struct replace {
    const char *old;               /* the previous manifest's text, or NULL */
    const sm2c_outfile *files;     /* the new output, without the manifest */
    size_t nfiles;
} replace;

static sm2c_status before(sm2c_ctx *c, int dirfd, const char *outdir, void *user)
{
    return read_manifest(c, dirfd, outdir, &((replace *)user)->old);
}

static void after(sm2c_ctx *c, int dirfd, void *user)
{
    const replace *r = user;
    if (r->old)
        remove_stale(c, dirfd, r->old, r->files, r->nfiles);
}

sm2c_status sm2c_publish_output(sm2c_ctx *c, const char *outdir, const char *source, const char *name,
                                const sm2c_outfile *files, size_t nfiles)
{
    sm2c_outfile *all = sm2c_arena_array(c->arena, nfiles + 1, sizeof *all);
    memcpy(all, files, nfiles * sizeof *all);
    const char *text = manifest_text(c, name, files, nfiles);
    all[nfiles] = (sm2c_outfile){ SM2C_MANIFEST, text, strlen(text) };
    replace r = { NULL, files, nfiles };
    sm2c_publish_hooks hooks = { before, after, &r };
    return sm2c_publish_hooked(c, outdir, source, all, nfiles + 1, &hooks);
}
