/*
** fast_pool.c: which arena buffers go to the fast pool (--fast-arena).
** requires: lower, the in-place merges (plan.c).  The measure is traffic per
** byte (fast_pool.h): a small buffer that big steps read and write is where
** a fast bank pays most; the greedy order fills the pool with the best ones
** that fit, and the rest stay in the arena, placed as before.
*/
#include "fast_pool.h"

#include <stdlib.h>

#include "first_fit.h"

/* Whether argument a of st is the first to pass its buffer. */
static int first_pass(const sm2c_step *st, int32_t a)
{
    for (int32_t k = 0; k < a; k++)
        if (st->args[k].kind == SM2C_ARG_BUF && st->args[k].buf == st->args[a].buf)
            return 0;
    return 1;
}

static int64_t step_traffic(const sm2c_entry *e, const sm2c_step *st)
{
    int64_t bytes = 0;
    for (int32_t a = 0; a < st->n_args; a++) {
        if (st->args[a].kind != SM2C_ARG_BUF)
            continue;
        if (first_pass(st, a))   /* a buffer passed twice is read once */
            bytes += e->buffers[st->args[a].buf].nbytes;
    }
    return bytes;
}

void sm2c_fast_pool_scores(const sm2c_entry *e, double *score)
{
    for (int32_t b = 0; b < e->n_buffers; b++)
        score[b] = 0;
    for (int32_t s = 0; s < e->n_steps; s++) {
        const sm2c_step *st = &e->steps[s];
        double traffic = (double)step_traffic(e, st);
        for (int32_t a = 0; a < st->n_args; a++)
            if (st->args[a].kind == SM2C_ARG_BUF && first_pass(st, a))
                score[st->args[a].buf] += traffic;
    }
    for (int32_t b = 0; b < e->n_buffers; b++)
        score[b] /= (double)(e->buffers[b].nbytes > 0 ? e->buffers[b].nbytes : 1);
}

typedef struct ranked {
    const sm2c_span *span;
    double score;
} ranked;

static int by_score_desc(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? 1 : -1;
    return x->span->buf - y->span->buf;
}

int64_t sm2c_fast_pool_place(sm2c_ctx *c, sm2c_entry *e, const sm2c_span *spans, int32_t n, int32_t max_step,
                             int64_t limit)
{
    double *score = sm2c_arena_array(c->arena, (size_t)e->n_buffers + 1, sizeof *score);
    sm2c_fast_pool_scores(e, score);
    ranked *r = sm2c_arena_array(c->arena, (size_t)n + 1, sizeof *r);
    for (int32_t i = 0; i < n; i++)
        r[i] = (ranked){ &spans[i], score[spans[i].buf] };
    qsort(r, (size_t)n, sizeof *r, by_score_desc);
    sm2c_first_fit *pool = sm2c_first_fit_new(c->arena, max_step, n);
    for (int32_t i = 0; i < n; i++) {
        const sm2c_span *sp = r[i].span;
        if (sp->size > limit)
            continue;
        int64_t off = sm2c_first_fit_offset(pool, sp->first, sp->last, sp->size);
        if (off + sp->size > limit)
            continue;
        sm2c_first_fit_add(pool, sp->first, sp->last, sp->size, off);
        e->buffers[sp->buf].fast = 1;
        e->buffers[sp->buf].offset = off;
    }
    return sm2c_first_fit_end(pool);
}
