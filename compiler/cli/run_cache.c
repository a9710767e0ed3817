/*
** run_cache.c: the build cache of `sm2c run` (run_cache.h).  Entries are
** written to a temporary name and renamed into place, so a reader sees a
** whole entry or none; the digest in its header catches the rest.
*/
#define _GNU_SOURCE
#include "run_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/toolchain.h"

#define CACHE_MAGIC "sm2c-run-cache 1\n"
#define CACHE_HEADER (sizeof CACHE_MAGIC - 1 + 65)   /* magic, 64 hex digits, '\n' */

#ifndef SM2C_VERSION
#define SM2C_VERSION "unknown"
#endif

const char *sm2c_run_cache_dir(sm2c_ctx *c)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        return sm2c_arena_printf(c->arena, "%s/sm2c", xdg);
    if (home && home[0] == '/')
        return sm2c_arena_printf(c->arena, "%s/.cache/sm2c", home);
    return NULL;
}

void sm2c_run_cache_seed(sm2c_sha256 *s, const char *how)
{
    const char *v = "sm2c " SM2C_VERSION;
    sm2c_sha256_init(s);
    sm2c_sha256_update(s, v, strlen(v) + 1);
    sm2c_sha256_update(s, how, strlen(how) + 1);
}

sm2c_status sm2c_run_cache_key(sm2c_ctx *c, const char *builddir, const char *how, char key[65])
{
    sm2c_sha256 s;
    sm2c_run_cache_seed(&s, how);
    int n;
    char **files = sm2c_list_files(c, builddir, "", &n);
    for (int i = 0; i < n; i++) {
        sm2c_buf b;
        const char *path = sm2c_path_join(c->arena, builddir, files[i]);
        sm2c_status st = sm2c_read_file(c, AT_FDCWD, path, path, INT64_MAX, &b);
        if (st)
            return st;
        uint64_t len = b.len;
        sm2c_sha256_update(&s, files[i], strlen(files[i]) + 1);
        sm2c_sha256_update(&s, &len, sizeof len);
        sm2c_sha256_update(&s, b.data, b.len);
    }
    sm2c_sha256_hex(&s, key);
    return SM2C_OK;
}

static void digest(const void *data, size_t n, char hex[65])
{
    sm2c_sha256 s;
    sm2c_sha256_init(&s);
    sm2c_sha256_update(&s, data, n);
    sm2c_sha256_hex(&s, hex);
}

static int write_whole(const char *path, const void *data, size_t n, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    const char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return close(fd);
}

static const char *kind_dir(sm2c_run_cache_kind kind)
{
    return kind == SM2C_RUN_CACHE_PROGRAM ? "run" : "obj";
}

int sm2c_run_cache_fetch(sm2c_ctx *c, const char *cache, sm2c_run_cache_kind kind, const char *key,
                         const char *dest)
{
    const char *path = sm2c_arena_printf(c->arena, "%s/%s/%s", cache, kind_dir(kind), key);
    if (access(path, F_OK) != 0)
        return 0;
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(c, &quiet);
    sm2c_buf b;
    char want[65];
    int ok = sm2c_read_file(&qc, AT_FDCWD, path, path, INT64_MAX, &b) == SM2C_OK && b.len > CACHE_HEADER &&
             !memcmp(b.data, CACHE_MAGIC, sizeof CACHE_MAGIC - 1) && b.data[CACHE_HEADER - 1] == '\n';
    if (ok) {
        digest(b.data + CACHE_HEADER, b.len - CACHE_HEADER, want);
        ok = !memcmp(want, b.data + sizeof CACHE_MAGIC - 1, 64);
    }
    if (!ok) {
        sm2c_warning(c->diag, path, NULL, "corrupt build cache entry: removed, building again");
        unlink(path);
        return 0;
    }
    mode_t mode = kind == SM2C_RUN_CACHE_PROGRAM ? 0755 : 0644;
    return write_whole(dest, b.data + CACHE_HEADER, b.len - CACHE_HEADER, mode) == 0;
}

/* mkdir -p, owner-only for what it creates. */
static void make_dirs(sm2c_ctx *c, const char *dir)
{
    char *p = sm2c_arena_strdup(c->arena, dir);
    for (char *q = p + 1; *q; q++)
        if (*q == '/') {
            *q = 0;
            mkdir(p, 0700);
            *q = '/';
        }
    mkdir(p, 0700);
}

void sm2c_run_cache_store(sm2c_ctx *c, const char *cache, sm2c_run_cache_kind kind, const char *key,
                          const char *file)
{
    const char *dir = sm2c_arena_printf(c->arena, "%s/%s", cache, kind_dir(kind));
    const char *tmp = sm2c_arena_printf(c->arena, "%s/.%s.%ld", dir, key, (long)getpid());
    const char *path = sm2c_arena_printf(c->arena, "%s/%s", dir, key);
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(c, &quiet);
    sm2c_buf b;
    if (sm2c_read_file(&qc, AT_FDCWD, file, file, INT64_MAX, &b))
        return;
    char hex[65];
    digest(b.data, b.len, hex);
    char *entry = sm2c_arena_alloc(c->arena, CACHE_HEADER + b.len);
    memcpy(entry, CACHE_MAGIC, sizeof CACHE_MAGIC - 1);
    memcpy(entry + sizeof CACHE_MAGIC - 1, hex, 64);
    entry[CACHE_HEADER - 1] = '\n';
    memcpy(entry + CACHE_HEADER, b.data, b.len);
    make_dirs(c, dir);
    if (write_whole(tmp, entry, CACHE_HEADER + b.len, 0600) != 0 || rename(tmp, path) != 0) {
        sm2c_warning(c->diag, dir, NULL, "cannot store the build in the cache: %s", strerror(errno));
        unlink(tmp);
    }
}
