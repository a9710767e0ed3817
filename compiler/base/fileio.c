/*
** fileio.c: openat()-based, symlink-refusing, FIFO-safe file reading.
*/
#define _GNU_SOURCE
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *sm2c_path_join(sm2c_arena *a, const char *dir, const char *name)
{
    size_t n = strlen(dir);
    return sm2c_arena_printf(a, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

const char *sm2c_path_base(sm2c_arena *a, const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    size_t start = n;
    while (start > 0 && path[start - 1] != '/')
        start--;
    return sm2c_arena_strndup(a, path + start, n - start);
}

int sm2c_open_dir(int dirfd, const char *name)
{
    return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int sm2c_exists(int dirfd, const char *name)
{
    struct stat st;
    return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISLNK(m)) return "a symlink";
    return "not a regular file";
}

int sm2c_open_file(sm2c_ctx *c, int dirfd, const char *name, const char *display,
                   int64_t *size)
{
    struct stat st;
    /* Look first, so a symlink or FIFO gets a precise message and is never opened. */
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        sm2c_error(c->diag, SM2C_ERR_INVALID, display, NULL, "cannot open: %s", strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        sm2c_error(c->diag, SM2C_ERR_INVALID, display, NULL,
                   "is %s; only regular files are read", kind_of(st.st_mode));
        return -1;
    }
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        sm2c_error(c->diag, SM2C_ERR_INVALID, display, NULL, "cannot open: %s", strerror(errno));
        return -1;
    }
    /* It may have been swapped between the look and the open: check the fd itself. */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        sm2c_error(c->diag, SM2C_ERR_INVALID, display, NULL, "is not a regular file");
        return -1;
    }
    *size = (int64_t)st.st_size;
    return fd;
}

sm2c_status sm2c_pread_exact(sm2c_ctx *c, int fd, const char *display, void *buf,
                             size_t len, int64_t offset)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(offset + (int64_t)got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, display, NULL, "read error: %s",
                              strerror(errno));
        if (n == 0)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, display, NULL,
                              "truncated: wanted %zu bytes at offset %lld, file ends after %zu",
                              len, (long long)offset, got);
        got += (size_t)n;
    }
    return SM2C_OK;
}

sm2c_status sm2c_read_file(sm2c_ctx *c, int dirfd, const char *name, const char *display,
                           int64_t max_bytes, sm2c_buf *out)
{
    int64_t size;
    int fd = sm2c_open_file(c, dirfd, name, display, &size);
    if (fd < 0)
        return SM2C_ERR_INVALID;
    if (size > max_bytes) {
        close(fd);
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, display, NULL,
                          "file has %lld bytes, more than the limit of %lld (--limit %s=N raises it)",
                          (long long)size, (long long)max_bytes,
                          max_bytes == c->limits->model_bytes ? "model-bytes" : "file-bytes");
    }
    out->len = (size_t)size;
    out->data = sm2c_arena_alloc(c->arena, out->len + 1);
    sm2c_status st = sm2c_pread_exact(c, fd, display, out->data, out->len, 0);
    if (st == SM2C_OK) {
        /* A file that grew while we read it is refused too (F3). */
        char extra;
        ssize_t n = pread(fd, &extra, 1, (off_t)size);
        if (n > 0)
            st = sm2c_error(c->diag, SM2C_ERR_INVALID, display, NULL,
                            "changed size while being read");
    }
    close(fd);
    return st;
}
