/*
** digest.c: SHA-256 of the input files, streamed in blocks through the same
** no-symlink opens the loader uses.
*/
#include "digest.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/sha256.h"

enum { CHUNK = 1 << 16 };

/* Appends "rel <hex>\n" to *text. */
static sm2c_status hash_file(sm2c_ctx *c, int dirfd, const char *name, const char *rel,
                             const char *display, const char **text)
{
    int64_t size;
    int fd = sm2c_open_file(c, dirfd, name, display, &size);
    if (fd < 0)
        return SM2C_ERR_INVALID;
    unsigned char *buf = malloc(CHUNK);
    SM2C_ASSERT(buf != NULL);
    sm2c_sha256 s;
    sm2c_sha256_init(&s);
    sm2c_status st = SM2C_OK;
    for (int64_t off = 0; off < size && !st; off += CHUNK) {
        size_t n = size - off < CHUNK ? (size_t)(size - off) : CHUNK;
        if (!(st = sm2c_pread_exact(c, fd, display, buf, n, off)))
            sm2c_sha256_update(&s, buf, n);
    }
    free(buf);
    close(fd);
    char hex[65];
    sm2c_sha256_hex(&s, hex);
    *text = sm2c_arena_printf(c->arena, "%s%s %s\n", *text, rel, hex);
    return st;
}

sm2c_status sm2c_input_digests(sm2c_ctx *c, const sm2c_model *m, const char **out)
{
    const char *name = m->text_format ? "saved_model.pbtxt" : "saved_model.pb";
    *out = "";
    sm2c_status st = hash_file(c, m->dirfd, name, name, m->file, out);
    if (st || !m->bundle || !m->bundle->present)
        return st;
    const char *vdir = sm2c_path_join(c->arena, m->dir, "variables");
    int vfd = sm2c_open_dir(m->dirfd, "variables");
    if (vfd < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, vdir, NULL, "cannot open the directory");
    st = hash_file(c, vfd, "variables.index", "variables/variables.index",
                   sm2c_path_join(c->arena, vdir, "variables.index"), out);
    for (int32_t i = 0; !st && i < m->bundle->num_shards; i++) {
        char shard[64];
        snprintf(shard, sizeof shard, "variables.data-%05d-of-%05d", (int)i, (int)m->bundle->num_shards);
        st = hash_file(c, vfd, shard, sm2c_arena_printf(c->arena, "variables/%s", shard),
                       sm2c_path_join(c->arena, vdir, shard), out);
    }
    close(vfd);
    return st;
}
