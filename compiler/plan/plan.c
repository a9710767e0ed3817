/*
** plan.c: static memory plan.
** requires: lower.  First, kernels that may write over their input do so when
** that input dies at the step and the output is born there (same size).  Then
** every arena buffer lives from the first step that touches it to the last;
** buffers are placed largest first at the lowest 64-byte aligned offset that
** no overlapping-lifetime buffer occupies (first_fit.c).  The arena is the
** highest end; the report compares it with the naive sum of all
** intermediates.  With --fast-arena, the buffers with the most traffic per
** byte go to the fast pool first, as long as they fit (fast_pool.c).
*/
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "fast_pool.h"
#include "first_fit.h"
#include "ops/opdefs.h"

#define ALIGN 64

typedef sm2c_span span;

static int by_size_desc(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? 1 : -1;
    return x->buf - y->buf;  /* stable: deterministic output */
}

/* A buffer live when a loop starts and used inside it (an outer value, a
** carried value, the counter) must survive every iteration: it lives to the
** loop's end.  Buffers born inside an iteration and dead within it stay
** short: the next iteration writes them again before reading. */
static void extend_over_loops(const sm2c_entry *e, span *spans)
{
    int32_t open[SM2C_CTL_MAX_DEPTH], depth = 0;
    for (int32_t s = 0; s < e->n_steps; s++) {
        int32_t ctl = e->steps[s].control;
        if (ctl == SM2C_CTL_LOOP && depth < SM2C_CTL_MAX_DEPTH)
            open[depth++] = s;
        if (ctl != SM2C_CTL_END_LOOP || depth == 0)
            continue;
        int32_t start = open[--depth];
        for (int32_t b = 0; b < e->n_buffers; b++)
            if (spans[b].first >= 0 && spans[b].first <= start && spans[b].last >= start &&
                spans[b].last < s)
                spans[b].last = s;
    }
}

static void lifetimes(const sm2c_entry *e, span *spans)
{
    for (int32_t b = 0; b < e->n_buffers; b++)
        spans[b] = (span){ b, -1, -1, (e->buffers[b].nbytes + ALIGN - 1) / ALIGN * ALIGN };
    for (int32_t s = 0; s < e->n_steps; s++)
        for (int32_t a = 0; a < e->steps[s].n_args; a++) {
            const sm2c_arg *arg = &e->steps[s].args[a];
            if (arg->kind != SM2C_ARG_BUF)
                continue;
            span *sp = &spans[arg->buf];
            if (sp->first < 0)
                sp->first = s;
            sp->last = s;
        }
    for (int32_t b = 0; b < e->n_buffers; b++)
        if (e->buffers[b].pinned && spans[b].first >= 0)
            spans[b].last = e->n_steps;
    extend_over_loops(e, spans);
}

/* Which argument a kernel may overwrite in place with which output: the
** runtime header says y may equal x for these. */
static int in_place_args(const char *kernel, int *in, int *out)
{
    static const char *const unary[] = { "relu_f32", "relu6_f32", "sigmoid_f32", "tanh_f32",
                                         "neg_f32", "abs_f32", "square_f32", "sqrt_f32",
                                         "rsqrt_f32", "exp_f32", "log_f32", NULL };
    const char *k = strncmp(kernel, "sm2c_rt_", 8) == 0 ? kernel + 8 : kernel;
    for (size_t i = 0; unary[i]; i++)
        if (strcmp(k, unary[i]) == 0)
            return *in = 0, *out = 1, 1;
    if (strcmp(k, "bias_add_f32") == 0)
        return *in = 0, *out = 2, 1;
    if (strcmp(k, "layer_norm_f32") == 0)
        return *in = 0, *out = 4, 1;
    if (strcmp(k, "lstm_state_f32") == 0 || strcmp(k, "lstm_output_f32") == 0)
        return *in = 1, *out = 2, 1;
    return 0;
}

/* The buffer b was merged into (itself when none), halving the path. */
static int32_t merged(int32_t *into, int32_t b)
{
    while (into[b] != b)
        b = into[b] = into[into[b]];
    return b;
}

/* Steps write in place where they may: a merged output is renamed to its
** input.  A merged buffer's first use is the merging step, so renaming it
** everywhere equals renaming it from there on; the renames are recorded and
** applied in one walk at the end (one walk per merge was quadratic in the
** length of a chain). */
static void merge_in_place(sm2c_ctx *c, sm2c_entry *e)
{
    span *spans = sm2c_arena_array(c->arena, (size_t)e->n_buffers + 1, sizeof *spans);
    int32_t *into = sm2c_arena_array(c->arena, (size_t)e->n_buffers + 1, sizeof *into);
    for (int32_t b = 0; b < e->n_buffers; b++)
        into[b] = b;
    lifetimes(e, spans);
    for (int32_t s = 0; s < e->n_steps; s++) {
        int in, out;
        const sm2c_step *st = &e->steps[s];
        if (!in_place_args(st->kernel, &in, &out))
            continue;
        int32_t x = merged(into, st->args[in].buf), y = merged(into, st->args[out].buf);
        if (x == y || e->buffers[x].kind != SM2C_BUF_ARENA || e->buffers[y].kind != SM2C_BUF_ARENA ||
            e->buffers[x].nbytes != e->buffers[y].nbytes || spans[x].last != s || spans[y].first != s)
            continue;
        into[y] = x;
        spans[x].last = spans[y].last;
        spans[y].first = spans[y].last = -1;
    }
    for (int32_t s = 0; s < e->n_steps; s++)
        for (int32_t a = 0; a < e->steps[s].n_args; a++)
            if (e->steps[s].args[a].kind == SM2C_ARG_BUF)
                e->steps[s].args[a].buf = merged(into, e->steps[s].args[a].buf);
}

sm2c_status sm2c_pass_plan(sm2c_ctx *c, sm2c_entry *e)
{
    return sm2c_pass_plan_pools(c, e, 0);
}

sm2c_status sm2c_pass_plan_pools(sm2c_ctx *c, sm2c_entry *e, int64_t fast_limit)
{
    merge_in_place(c, e);
    span *spans = sm2c_arena_array(c->arena, (size_t)e->n_buffers + 1, sizeof *spans);
    lifetimes(e, spans);
    span *arena = sm2c_arena_array(c->arena, (size_t)e->n_buffers + 1, sizeof *arena);
    int32_t n = 0, max_step = 0;
    for (int32_t b = 0; b < e->n_buffers; b++)
        if (e->buffers[b].kind == SM2C_BUF_ARENA && spans[b].first >= 0) {
            arena[n++] = spans[b];
            max_step = spans[b].last > max_step ? spans[b].last : max_step;
        }
    e->naive_bytes = 0;
    for (int32_t i = 0; i < n; i++)
        e->naive_bytes += arena[i].size;
    e->fast_arena_bytes = fast_limit > 0 ? sm2c_fast_pool_place(c, e, arena, n, max_step, fast_limit) : 0;
    int32_t kept = 0;   /* the rest go to the arena */
    for (int32_t i = 0; i < n; i++)
        if (!e->buffers[arena[i].buf].fast)
            arena[kept++] = arena[i];
    qsort(arena, (size_t)kept, sizeof *arena, by_size_desc);
    sm2c_first_fit *pool = sm2c_first_fit_new(c->arena, max_step, kept);
    for (int32_t i = 0; i < kept; i++) {
        int64_t off = sm2c_first_fit_offset(pool, arena[i].first, arena[i].last, arena[i].size);
        sm2c_first_fit_add(pool, arena[i].first, arena[i].last, arena[i].size, off);
        e->buffers[arena[i].buf].offset = off;
    }
    e->arena_bytes = sm2c_first_fit_end(pool);
    return SM2C_OK;
}
