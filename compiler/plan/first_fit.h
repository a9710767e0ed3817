/*
** first_fit.h: buffers with lifetimes placed one by one in one pool (the
** arena, or the fast arena), each at the lowest 64-byte aligned offset that
** no placed buffer of an overlapping lifetime occupies (plan.c, fast_pool.c).
*/
#ifndef SM2C_FIRST_FIT_H
#define SM2C_FIRST_FIT_H

#include <stdint.h>

#include "base/arena.h"

typedef struct sm2c_first_fit sm2c_first_fit;

/* Room for `cap` buffers living within steps 0..max_step. */
sm2c_first_fit *sm2c_first_fit_new(sm2c_arena *a, int32_t max_step, int32_t cap);
/* Where a buffer of `size` bytes living over steps [first, last] would go. */
int64_t sm2c_first_fit_offset(sm2c_first_fit *f, int32_t first, int32_t last, int64_t size);
/* Places it there (at most cap times). */
void sm2c_first_fit_add(sm2c_first_fit *f, int32_t first, int32_t last, int64_t size, int64_t off);
/* The pool's size: the highest end of a placed buffer. */
int64_t sm2c_first_fit_end(const sm2c_first_fit *f);

#endif
