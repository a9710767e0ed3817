/*
** fast_pool.h: --fast-arena: a small second pool (a fast SRAM bank) for the
** arena buffers with the most traffic per byte (plan.c calls it before
** placing the rest in the arena).
*/
#ifndef SM2C_FAST_POOL_H
#define SM2C_FAST_POOL_H

#include "lower/program.h"

/* One arena buffer's lifetime and its bytes rounded up to 64. */
typedef struct sm2c_span {
    int32_t buf;
    int32_t first, last;   /* step indices; -1: no step touches it */
    int64_t size;
} sm2c_span;

/* Each buffer's traffic per byte into score[0..n_buffers): the bytes the
** steps that touch it pass (every distinct buffer argument of each such step,
** read or written, whole), summed, over its own bytes.  A step inside a loop
** counts once (the count of iterations is not known). */
void sm2c_fast_pool_scores(const sm2c_entry *e, double *score);

/* Takes the n arena spans by descending score (ties: the lower buffer id)
** and puts each in the fast pool when it fits within `limit` bytes there
** beside those placed before it (lifetimes apart share bytes, as in the
** arena): the buffer's `fast` is set and `offset` is into the fast pool.
** Returns the fast pool's size. */
int64_t sm2c_fast_pool_place(sm2c_ctx *c, sm2c_entry *e, const sm2c_span *spans, int32_t n, int32_t max_step,
                             int64_t limit);

#endif
