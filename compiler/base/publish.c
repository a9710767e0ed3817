/*
** publish.c: writing a set of output files safely (docs/reliability.md F7, issue 7
** "safe output").  Files are written into a fresh temporary directory inside
** the output directory, each created O_EXCL|O_NOFOLLOW, then renamed into
** place; a failure removes what it wrote and leaves earlier output untouched.
** Symlinks are never followed, non-regular files are never replaced, and the
** output directory may not be (inside) the SavedModel directory.
*/
#define _GNU_SOURCE
#include "publish.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
static sm2c_status fs_error(sm2c_ctx *c, const char *outdir, const char *what, const char *name)
{
    int err = errno;
    return sm2c_error(c->diag, SM2C_ERR_INVALID, outdir, NULL, "%s%s%s: %s", what,
                      name ? " " : "", name ? name : "", strerror(err));
}

int sm2c_write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int sm2c_dir_inside(int fd, const char *src)
{
    struct stat s, d;
    if (!src || !*src || stat(src, &s) != 0 || !S_ISDIR(s.st_mode))
        return 0;
    int cur = dup(fd);
    for (int depth = 0; cur >= 0 && depth < 256; depth++) {
        if (fstat(cur, &d) != 0)
            break;
        if (d.st_dev == s.st_dev && d.st_ino == s.st_ino) {
            close(cur);
            return 1;
        }
        int up = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        struct stat u;
        if (up < 0 || fstat(up, &u) != 0 || (u.st_dev == d.st_dev && u.st_ino == d.st_ino)) {
            if (up >= 0)
                close(up);
            break;          /* reached the root */
        }
        close(cur);
        cur = up;
    }
    if (cur >= 0)
        close(cur);
    return 0;
}

/* mkdtemp relative to a directory descriptor. */
static int make_tmpdir(int dirfd, char *name, size_t cap)
{
    static unsigned counter;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t x = (uint64_t)getpid() * 0x9e3779b97f4a7c15u ^ (uint64_t)ts.tv_nsec ^
                 ((uint64_t)ts.tv_sec << 32);
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (int attempt = 0; attempt < 100; attempt++) {
        x ^= (uint64_t)++counter * 0xbf58476d1ce4e5b9u;
        x ^= x >> 31;
        x *= 0x94d049bb133111ebu;
        char suffix[7];
        uint64_t y = x;
        for (int i = 0; i < 6; i++, y /= 36)
            suffix[i] = digits[y % 36];
        suffix[6] = 0;
        snprintf(name, cap, ".sm2c-tmp-%s", suffix);
        if (mkdirat(dirfd, name, 0700) == 0)
            return 0;
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

/* `mkdir -p` for the directories above outdir (as cc -o and cmake do); a
** component that exists is fine, whatever it is: the final checks judge it. */
static void make_parents(sm2c_ctx *c, const char *outdir)
{
    char *path = sm2c_arena_strdup(c->arena, outdir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/' || p[-1] == '/')
            continue;
        *p = 0;
        (void)mkdir(path, 0777);
        *p = '/';
    }
}

/* Write the files into a fresh temporary directory inside dirfd, then rename
** each into place; whatever is left of the temporary directory is removed. */
static sm2c_status write_files(sm2c_ctx *c, int dirfd, const char *outdir, const sm2c_outfile *files,
                               size_t nfiles)
{
    struct stat st;
    char tmp[64];
    if (make_tmpdir(dirfd, tmp, sizeof tmp) != 0)
        return fs_error(c, outdir, "cannot create a temporary directory", NULL);
    sm2c_status status = SM2C_OK;
    size_t written = 0, renamed = 0;
    int tmpfd = openat(dirfd, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (tmpfd < 0)
        status = fs_error(c, outdir, "cannot open", tmp);
    for (size_t i = 0; !status && i < nfiles; i++) {
        int fd = openat(tmpfd, files[i].name,
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0) {
            status = fs_error(c, outdir, "cannot create", files[i].name);
            break;
        }
        written = i + 1;
        int bad = sm2c_write_all(fd, files[i].data, files[i].len);
        if (close(fd) != 0 || bad)
            status = fs_error(c, outdir, "cannot write", files[i].name);
    }
    for (size_t i = 0; !status && i < nfiles; i++) {
        if (fstatat(dirfd, files[i].name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
            errno = EEXIST;
            status = fs_error(c, outdir, "refusing to replace non-regular file", files[i].name);
        } else if (renameat(tmpfd, files[i].name, dirfd, files[i].name) != 0) {
            status = fs_error(c, outdir, "cannot rename into place", files[i].name);
        } else {
            renamed = i + 1;
        }
    }
    if (tmpfd >= 0) {
        for (size_t i = renamed; i < written; i++)
            unlinkat(tmpfd, files[i].name, 0);
        close(tmpfd);
    }
    if (unlinkat(dirfd, tmp, AT_REMOVEDIR) != 0 && !status)
        status = fs_error(c, outdir, "cannot remove", tmp);
    return status;
}

sm2c_status sm2c_publish(sm2c_ctx *c, const char *outdir, const char *source,
                         const sm2c_outfile *files, size_t nfiles)
{
    return sm2c_publish_hooked(c, outdir, source, files, nfiles, NULL);
}

sm2c_status sm2c_publish_hooked(sm2c_ctx *c, const char *outdir, const char *source,
                                const sm2c_outfile *files, size_t nfiles, const sm2c_publish_hooks *hooks)
{
    struct stat st;
    int created = 0;
    if (lstat(outdir, &st) != 0 && errno == ENOENT)
        make_parents(c, outdir);
    if (lstat(outdir, &st) != 0) {
        if (errno != ENOENT || mkdir(outdir, 0777) != 0)
            return fs_error(c, outdir, "cannot create the output directory", NULL);
        created = 1;
    } else if (S_ISLNK(st.st_mode)) {
        return sm2c_error(c->diag, SM2C_ERR_INVALID, outdir, NULL,
                          "the output directory is a symlink; refusing to follow it");
    } else if (!S_ISDIR(st.st_mode)) {
        return sm2c_error(c->diag, SM2C_ERR_INVALID, outdir, NULL,
                          "the output path exists and is not a directory");
    }
    int dirfd = open(outdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dirfd < 0)
        return fs_error(c, outdir, "cannot open the output directory", NULL);
    if (sm2c_dir_inside(dirfd, source)) {
        close(dirfd);
        if (created)
            rmdir(outdir);  /* leave nothing behind */
        return sm2c_error(c->diag, SM2C_ERR_INVALID, outdir, NULL,
                          "the output directory is (inside) the SavedModel directory %s", source);
    }
    /* Nothing may stand where an output goes but an older regular file. */
    for (size_t i = 0; i < nfiles; i++) {
        if (fstatat(dirfd, files[i].name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
            close(dirfd);
            return sm2c_error(c->diag, SM2C_ERR_INVALID, outdir, NULL,
                              "%s exists and is %s; refusing to replace it", files[i].name,
                              S_ISLNK(st.st_mode) ? "a symlink" : S_ISDIR(st.st_mode) ? "a directory"
                                                                                     : "not a regular file");
        }
    }
    sm2c_status status = hooks && hooks->before ? hooks->before(c, dirfd, outdir, hooks->user) : SM2C_OK;
    if (!status)
        status = write_files(c, dirfd, outdir, files, nfiles);
    if (!status && hooks && hooks->after)
        hooks->after(c, dirfd, hooks->user);
    close(dirfd);
    if (status && created)
        rmdir(outdir);  /* only succeeds when nothing was published */
    return status;
}
