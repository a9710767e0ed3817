/*
** fileio.h: reading input files safely.
**
** Every input is opened with openat() relative to a directory descriptor,
** without following symlinks and without blocking (a FIFO must not hang us),
** checked to be a regular file, size-capped, and read once into an owned
** buffer.  See docs/reliability.md F2, F3.
*/
#ifndef SM2C_FILEIO_H
#define SM2C_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "tensor.h"

typedef struct sm2c_buf {
    uint8_t *data;   /* NUL-terminated for convenience; the NUL is not counted */
    size_t len;
} sm2c_buf;

/* "dir/name" in the arena, without doubling a trailing '/' of dir (paths in
** diagnostics read as the user would write them). */
const char *sm2c_path_join(sm2c_arena *a, const char *dir, const char *name);

/* The last component of a path ("a/b/model/" -> "model"), in the arena. */
const char *sm2c_path_base(sm2c_arena *a, const char *path);

/* Open directory `name` under `dirfd` (AT_FDCWD for a path); refuses symlinks.
** Returns the fd, or -1 with errno set (ENOENT when it does not exist). */
int sm2c_open_dir(int dirfd, const char *name);

/* 1 if `name` exists under `dirfd` (any type, symlinks not followed), else 0. */
int sm2c_exists(int dirfd, const char *name);

/* Read regular file `name` under `dirfd` into the arena, refusing anything
** larger than `max_bytes`.  `display` is the path used in diagnostics. */
sm2c_status sm2c_read_file(sm2c_ctx *c, int dirfd, const char *name, const char *display,
                           int64_t max_bytes, sm2c_buf *out);

/* Open regular file `name` under `dirfd` for reading at offsets (shards);
** fills *size.  Returns the fd or -1 after reporting an error. */
int sm2c_open_file(sm2c_ctx *c, int dirfd, const char *name, const char *display,
                   int64_t *size);

/* Read exactly `len` bytes at `offset` of `fd`; reports short reads. */
sm2c_status sm2c_pread_exact(sm2c_ctx *c, int fd, const char *display, void *buf,
                             size_t len, int64_t offset);

#endif
