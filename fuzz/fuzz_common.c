/*
** fuzz_common.c: contexts, oracles and scratch files shared by the targets.
*/
#include "fuzz_common.h"

#include <errno.h>
#include <ftw.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fuzz_begin(fuzz_ctx *f)
{
    f->arena = sm2c_arena_new();
    sm2c_diag_init(&f->diag);
    f->diag.fn = sm2c_diag_discard;
    f->diag.quiet_notes = 1;
    sm2c_limits_default(&f->limits);
    f->limits.const_bytes = (int64_t)64 << 20;
    f->limits.block_bytes = (int64_t)16 << 20;
    f->limits.decoded_bytes = (int64_t)256 << 20;
    f->c = (sm2c_ctx){ .arena = f->arena, .diag = &f->diag, .limits = &f->limits };
}

void fuzz_check_status(const fuzz_ctx *f, sm2c_status st)
{
    if (st == SM2C_OK)
        return;
    FUZZ_CHECK(f->diag.errors > 0 && f->diag.first[0], "status %s without an error line",
               sm2c_status_name(st));
    FUZZ_CHECK(st != SM2C_ERR_INTERNAL, "internal error: %s", f->diag.first);
}

void fuzz_end(fuzz_ctx *f, sm2c_status st)
{
    fuzz_check_status(f, st);
    sm2c_arena_free(f->arena);
    f->arena = NULL;
}

uint32_t fuzz_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void fuzz_split(const uint8_t *data, size_t size, const uint8_t **a, size_t *na,
                const uint8_t **b, size_t *nb)
{
    if (size < 4) {
        *a = data, *na = size, *b = data + size, *nb = 0;
        return;
    }
    size_t n = fuzz_u32(data), rest = size - 4;
    if (n > rest)
        n = rest;
    *a = data + 4, *na = n;
    *b = data + 4 + n, *nb = rest - n;
}

char *fuzz_tmpdir(void)
{
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char *path = malloc(strlen(base) + 32);
    FUZZ_CHECK(path, "out of memory");
    sprintf(path, "%s/sm2c-fuzz-XXXXXX", base);
    FUZZ_CHECK(mkdtemp(path), "mkdtemp: %s", strerror(errno));
    return path;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

void fuzz_rmtree(const char *path)
{
    nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

void fuzz_write(const char *dir, const char *rel, const uint8_t *data, size_t len)
{
    char *path = malloc(strlen(dir) + strlen(rel) + 2);
    FUZZ_CHECK(path, "out of memory");
    sprintf(path, "%s/%s", dir, rel);
    for (char *s = strchr(path + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        mkdir(path, 0755);
        *s = '/';
    }
    FILE *fp = fopen(path, "wb");
    FUZZ_CHECK(fp, "%s: %s", path, strerror(errno));
    FUZZ_CHECK(len == 0 || fwrite(data, 1, len, fp) == len, "%s: short write", path);
    fclose(fp);
    free(path);
}
