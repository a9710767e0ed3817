/*
** fuzz_common.h: what every fuzz target shares.
**
** Each target is a libFuzzer LLVMFuzzerTestOneInput; the same source also links
** with replay_main.c, which runs it over a corpus directory in the normal
** build (ctest).  A target checks its oracle with FUZZ_CHECK, which aborts, so
** that both libFuzzer and the replay report the input as a failure.
*/
#ifndef SM2C_FUZZ_COMMON_H
#define SM2C_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tensor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)                                                   \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "%s:%d: fuzz oracle failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
            abort();                                                            \
        }                                                                       \
    } while (0)

/* One input's context: a fresh arena, a silent diagnostic sink that still
** records the first error, and the default limits except where a default
** would let a tiny input allocate more than libFuzzer's -malloc_limit_mb
** (a one-value list standing for a 1 GiB constant is allowed by design). */
typedef struct fuzz_ctx {
    sm2c_arena *arena;
    sm2c_diag diag;
    sm2c_limits limits;
    sm2c_ctx c;
} fuzz_ctx;

void fuzz_begin(fuzz_ctx *f);
/* The library's contract for every result: an error status comes with at
** least one non-empty error line, success with none.  Frees the arena. */
void fuzz_end(fuzz_ctx *f, sm2c_status st);
/* Check the contract for one result without ending. */
void fuzz_check_status(const fuzz_ctx *f, sm2c_status st);

/* Little-endian u32 at p (no alignment needed). */
uint32_t fuzz_u32(const uint8_t *p);

/* Split data at a u32 length prefix: *a = the first min(prefix, rest) bytes
** after the prefix, *b = the remainder.  Inputs shorter than 4 bytes give
** a = everything, b = nothing. */
void fuzz_split(const uint8_t *data, size_t size, const uint8_t **a, size_t *na,
                const uint8_t **b, size_t *nb);

/* A new private directory under $TMPDIR (malloc'd path), and its removal. */
char *fuzz_tmpdir(void);
void fuzz_rmtree(const char *path);
/* Write `rel` (parent directories created) under dir. */
void fuzz_write(const char *dir, const char *rel, const uint8_t *data, size_t len);

#endif
