/*
** test_fs.h: scratch directories for tests that need files on disk.
*/
#ifndef SM2C_TEST_FS_H
#define SM2C_TEST_FS_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A new empty directory under $TMPDIR; the caller frees the string. */
static inline char *fs_tmpdir(void)
{
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char *path = malloc(strlen(base) + 32);
    sprintf(path, "%s/sm2c-test-XXXXXX", base);
    if (!mkdtemp(path)) {
        perror("mkdtemp");
        abort();
    }
    return path;
}

static inline char *fs_path(const char *dir, const char *rel)
{
    char *p = malloc(strlen(dir) + strlen(rel) + 2);
    sprintf(p, "%s/%s", dir, rel);
    return p;
}

static inline void fs_mkdir(const char *dir, const char *rel)
{
    char *p = fs_path(dir, rel);
    mkdir(p, 0755);
    free(p);
}

static inline void fs_write(const char *dir, const char *rel, const void *data, size_t len)
{
    char *p = fs_path(dir, rel);
    FILE *f = fopen(p, "wb");
    if (!f || (len && fwrite(data, 1, len, f) != len)) {
        perror(p);
        abort();
    }
    fclose(f);
    free(p);
}

/* Whole file into a malloc'd buffer. */
static inline unsigned char *fs_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        abort();
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n)
        abort();
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static inline void fs_copy(const char *src, const char *dir, const char *rel)
{
    size_t len;
    unsigned char *buf = fs_read(src, &len);
    fs_write(dir, rel, buf, len);
    free(buf);
}

/* Copy a SavedModel directory's usual files (saved_model.pb, variables/). */
static inline void fs_copy_model(const char *src_dir, const char *dst)
{
    char *pb = fs_path(src_dir, "saved_model.pb");
    fs_copy(pb, dst, "saved_model.pb");
    free(pb);
    char *idx = fs_path(src_dir, "variables/variables.index");
    if (access(idx, F_OK) == 0) {
        fs_mkdir(dst, "variables");
        fs_copy(idx, dst, "variables/variables.index");
        char *data = fs_path(src_dir, "variables/variables.data-00000-of-00001");
        fs_copy(data, dst, "variables/variables.data-00000-of-00001");
        free(data);
    }
    free(idx);
}

static int fs_rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(p);
}

static inline void fs_rm_rf(char *dir)
{
    nftw(dir, fs_rm_one, 16, FTW_DEPTH | FTW_PHYS);
    free(dir);
}

#endif
