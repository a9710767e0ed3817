/*
** npy.h: NumPy .npy files (format 1.0-3.0), for `sm2c run` inputs and outputs.
** Little-endian, C order; dtypes bool, int8/16/32/64, uint8/16/32/64,
** float16/32/64.  Fortran order, big-endian data and object arrays are refused.
*/
#ifndef SM2C_NPY_H
#define SM2C_NPY_H

#include "base/fileio.h"
#include "base/tensor.h"

/* Read `path` (a regular file, symlinks refused) into a tensor in the arena. */
sm2c_status sm2c_npy_read(sm2c_ctx *c, const char *path, sm2c_tensor *out);
/* The bytes of a .npy file into a tensor in the arena; `path` names them in
** diagnostics.  A string tensor's elements may point into `bytes`, which must
** outlive it. */
sm2c_status sm2c_npy_parse(sm2c_ctx *c, const char *path, const uint8_t *bytes, size_t len, sm2c_tensor *out);
/* A tensor as the bytes of a .npy version 1.0 file (the header padded to 64
** bytes), in the arena; `path` names it in diagnostics. */
sm2c_status sm2c_npy_encode(sm2c_ctx *c, const char *path, const sm2c_tensor *t, sm2c_buf *out);
/* Write a tensor as .npy version 1.0 (the header padded to 64 bytes). */
sm2c_status sm2c_npy_write(sm2c_ctx *c, const char *path, const sm2c_tensor *t);

#endif
