/*
** out_path.c: the pre-flight check of an output path (out_path.h).  What the
** writer would do later is judged now, on what exists: a directory output's
** nearest existing ancestor (publish.c creates the rest), a file output's
** directory; neither may be (inside) the SavedModel directory, and each must
** be a directory sm2c may write.  A file output must be a regular file when
** it exists (a device such as /dev/full, a directory or a symlink is refused).
*/
#define _GNU_SOURCE
#include "out_path.h"
#include "publish.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory above `path` ("." for a plain name), in the arena. */
static char *parent_of(sm2c_arena *a, const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    while (n > 0 && path[n - 1] != '/')
        n--;
    while (n > 1 && path[n - 1] == '/')
        n--;
    return n == 0 ? sm2c_arena_strdup(a, ".") : sm2c_arena_strndup(a, path, n);
}

/* `dir` exists: a directory (not a symlink to one), writable, not (inside) source. */
static sm2c_status check_dir(sm2c_ctx *c, const char *path, const char *dir, const char *source)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot use %s: %s", dir, strerror(errno));
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "%s is not a directory sm2c can open: %s",
                          dir, strerror(errno));
    int inside = sm2c_dir_inside(fd, source);
    close(fd);
    if (inside)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL,
                          "is (inside) the SavedModel directory %s; refusing to write there", source);
    if (access(dir, W_OK | X_OK) != 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot write in %s: %s", dir, strerror(errno));
    return SM2C_OK;
}

/* The nearest ancestor of a missing directory that exists. */
static const char *existing_ancestor(sm2c_ctx *c, const char *path)
{
    struct stat st;
    const char *d = path;
    for (int depth = 0; depth < 4096; depth++) {
        d = parent_of(c->arena, d);
        if (lstat(d, &st) == 0 || errno != ENOENT || !strcmp(d, ".") || !strcmp(d, "/"))
            return d;
    }
    return d;
}

/* The directory `dir` (the output `path` or the one it goes in), which
** publishing creates with its parents when missing. */
static sm2c_status check_dir_output(sm2c_ctx *c, const char *path, const char *dir, const char *source)
{
    struct stat st;
    if (lstat(dir, &st) == 0) {
        if (S_ISLNK(st.st_mode))
            return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "%s%sis a symlink; refusing to follow it",
                              dir == path ? "" : dir, dir == path ? "" : " ");
        if (!S_ISDIR(st.st_mode))
            return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "%s%sexists and is not a directory",
                              dir == path ? "" : dir, dir == path ? "" : " ");
        return check_dir(c, path, dir, source);
    }
    if (errno != ENOENT)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot use%s%s: %s", dir == path ? "" : " ",
                          dir == path ? "" : dir, strerror(errno));
    return check_dir(c, path, existing_ancestor(c, dir), source);
}

static sm2c_status check_file_output(sm2c_ctx *c, const char *path, const char *source, int in_out)
{
    struct stat st;
    size_t n = strlen(path);
    if (path[n - 1] == '/')
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "names a directory, not a file");
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "exists and is %s; refusing to replace it",
                          S_ISDIR(st.st_mode) ? "a directory" : S_ISLNK(st.st_mode) ? "a symlink"
                                                                                   : "not a regular file");
    if (lstat(path, &st) != 0 && errno != ENOENT)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot use: %s", strerror(errno));
    const char *dir = parent_of(c->arena, path);
    if (in_out)
        return check_dir_output(c, path, dir, source);
    if (lstat(dir, &st) != 0 && errno == ENOENT)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "its directory %s does not exist", dir);
    return check_dir(c, path, dir, source);
}

sm2c_status sm2c_out_path_check(sm2c_ctx *c, const char *opt, const char *path, sm2c_out_kind kind,
                                const char *source)
{
    if (!path || !*path)
        return sm2c_error(c->diag, SM2C_ERR_USAGE, opt, NULL, "the path is empty");
    return kind == SM2C_OUT_DIR ? check_dir_output(c, path, path, source)
                                : check_file_output(c, path, source, kind == SM2C_OUT_FILE_IN_OUT);
}
