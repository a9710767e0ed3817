/*
** half_weights.c: --quantize float16 (half_weights.h).  TFLite's float16
** quantization stores each float32 constant as binary16 and dequantizes it to
** float32 once before any kernel runs, so its model computes in float32 on
** weights rounded to binary16.  sm2c computes the same, on the lowered
** program: every layout the lowering chose (packed filters, folded batch
** norm) is float32 values in some order, and rounding commutes with that.  A
** widening step per use (rather than once, at start) keeps the RAM to the
** largest weight in use at a time, which the arena plan reuses.
**
** --weights-bits 4 (sm2c_entry_int4_weights) reuses the same rewrite: an
** int8 weight whose values all lie in [-8, 7] is stored two to a byte, as
** TFLite stores an INT4 tensor (element 2i in the low nibble, 2i+1 in the high
** one), and a sm2c_rt_widen_s4_s8 step widens it into an int8 arena buffer.
** Packed layouts (conv_pack_s8.h's blocks, the hybrid VNNI filter) are int8
** values in some order too, so no kernel sees the difference.
*/
#include "lower/half_weights.h"

#include <string.h>

#include "lower/lower.h"
#include "sm2c_rt.h"

#define HALF_MAX 65504.0f   /* the largest finite binary16 */

/* t's values clamped to binary16's finite range and rounded to it (to
** nearest even), as TFLite's converter rounds them (convertToFloat16Constant:
** 1e6 becomes 65504, not an infinity): binary16 (dtype HALF), or those values
** in float32. */
static sm2c_tensor rounded(sm2c_arena *a, const sm2c_tensor *t, int store_half)
{
    sm2c_tensor r = *t;
    const float *x = t->data;
    float *v = sm2c_arena_array(a, (size_t)t->nelem + 1, sizeof *v);
    uint16_t *h = sm2c_arena_array(a, (size_t)t->nelem + 1, sizeof *h);
    for (int64_t i = 0; i < t->nelem; i++)
        v[i] = x[i] > HALF_MAX ? HALF_MAX : x[i] < -HALF_MAX ? -HALF_MAX : x[i];
    sm2c_rt_cast_f32_f16(v, h, (int32_t)t->nelem);
    if (store_half) {
        r.dtype = SM2C_DT_HALF;
        r.nbytes = (size_t)t->nelem * sizeof *h;
        r.data = h;
    } else {
        sm2c_rt_cast_f16_f32(h, v, (int32_t)t->nelem);
        r.data = v;
    }
    return r;
}

/* Points weight buffer b at t's rounded copy; returns 1 when it is binary16. */
static int round_buffer(sm2c_ctx *c, sm2c_program *p, sm2c_buffer *b)
{
    const sm2c_weight *w = &p->weights[b->index];
    int store_half = w->value.nelem >= SM2C_HALF_STORE_MIN;
    sm2c_tensor r = rounded(c->arena, &w->value, store_half);
    b->index = sm2c_program_weight(c->arena, p, &r, &r.shape, w->name);
    if (store_half) {
        b->dtype = SM2C_DT_HALF;
        b->nbytes = (int64_t)r.nbytes;
    }
    return store_half;
}

/* A widening to insert before step `at`: half buffer `from` into `to`. */
typedef struct widening {
    int32_t at, from, to;
} widening;

typedef struct rewrite {
    sm2c_ctx *c;
    sm2c_entry *e;
    int s4;                 /* int4 weights (widen to int8), else binary16 (to float) */
    sm2c_buffer *wide;      /* [buffer]: the widened buffer's shape and size (s4) */
    int32_t *widened;       /* half buffer -> its float buffer for the current top step, -1 none */
    int32_t *widened_at;    /* ... and the top step it was made for */
    widening *w;
    int32_t n_w;
} rewrite;

static int32_t new_arena_float(rewrite *r, int32_t h)
{
    sm2c_entry *e = r->e;
    const sm2c_buffer narrow = r->s4 ? r->wide[h] : e->buffers[h];
    sm2c_buffer *b = sm2c_arena_array(r->c->arena, (size_t)e->n_buffers + 1, sizeof *b);
    memcpy(b, e->buffers, (size_t)e->n_buffers * sizeof *b);
    e->buffers = b;
    sm2c_buffer *f = &b[e->n_buffers];
    *f = narrow;
    f->kind = SM2C_BUF_ARENA;
    f->dtype = r->s4 ? SM2C_DT_INT8 : SM2C_DT_FLOAT;
    f->nbytes = r->s4 ? narrow.nbytes : narrow.nbytes * 2;
    f->index = -1;
    f->offset = 0;
    f->pinned = 0;
    return e->n_buffers++;
}

/* The float buffer step `top` (a top-level step, or the loop or branch that
** holds the reading step) reads half buffer h through. */
static int32_t float_of(rewrite *r, int32_t h, int32_t top)
{
    if (r->widened[h] >= 0 && r->widened_at[h] == top)
        return r->widened[h];
    int32_t f = new_arena_float(r, h);
    r->widened[h] = f, r->widened_at[h] = top;
    r->w[r->n_w++] = (widening){ top, h, f };
    return f;
}

static sm2c_step widen_step(const rewrite *r, const sm2c_step *reader, const widening *w)
{
    sm2c_step s;
    memset(&s, 0, sizeof s);
    s.kernel = r->s4 ? "sm2c_rt_widen_s4_s8" : "sm2c_rt_widen_f16_f32";
    s.n_args = 3;
    s.args = sm2c_arena_array(r->c->arena, 3, sizeof *s.args);
    s.args[0] = sm2c_arg_buf(w->from);
    s.args[1] = sm2c_arg_buf(w->to);
    s.args[2] = sm2c_arg_int(r->s4 ? r->wide[w->from].nbytes : r->e->buffers[w->from].nbytes / 2);
    s.node = reader->node;
    s.op = r->s4 ? "Int4Weight" : "Float16Weight";
    s.function = reader->function;
    return s;
}

/* The steps with the widenings (in the order they were made) before their steps. */
static void insert_widenings(rewrite *r)
{
    sm2c_entry *e = r->e;
    sm2c_step *s = sm2c_arena_array(r->c->arena, (size_t)(e->n_steps + r->n_w) + 1, sizeof *s);
    int32_t n = 0, k = 0;
    for (int32_t i = 0; i < e->n_steps; i++) {
        for (; k < r->n_w && r->w[k].at == i; k++)
            s[n++] = widen_step(r, &e->steps[i], &r->w[k]);
        s[n++] = e->steps[i];
    }
    e->steps = s;
    e->n_steps = n;
}

/* The weight buffers an entry output is a copy of: TFLite's converter leaves
** a constant that feeds the function's return as it is. */
static int8_t *returned_weights(sm2c_ctx *c, const sm2c_entry *e)
{
    int8_t *out = sm2c_arena_array(c->arena, (size_t)e->n_buffers + 1, 1);
    for (int32_t i = 0; i < e->n_steps; i++)
        if (!strcmp(e->steps[i].op, "output") && e->steps[i].args[1].kind == SM2C_ARG_BUF)
            out[e->steps[i].args[1].buf] = 1;
    return out;
}

/* Every read of a buffer marked in narrow[] goes through its widened copy,
** made before the reading step or the outermost loop or branch holding it. */
static void widen_reads(rewrite *r, const int8_t *narrow, int32_t n_bufs)
{
    sm2c_entry *e = r->e;
    int32_t n_args = 0;
    for (int32_t i = 0; i < e->n_steps; i++)
        n_args += e->steps[i].n_args;
    r->widened = sm2c_arena_array(r->c->arena, (size_t)n_bufs + 1, sizeof *r->widened);
    r->widened_at = sm2c_arena_array(r->c->arena, (size_t)n_bufs + 1, sizeof *r->widened_at);
    r->w = sm2c_arena_array(r->c->arena, (size_t)n_args + 1, sizeof *r->w);
    for (int32_t b = 0; b < n_bufs; b++)
        r->widened[b] = -1;
    int32_t depth = 0, top = 0;
    for (int32_t i = 0; i < e->n_steps; i++) {
        sm2c_step *s = &e->steps[i];
        if (depth == 0)
            top = i;
        for (int32_t a = 0; a < s->n_args; a++)
            if (s->args[a].kind == SM2C_ARG_BUF && s->args[a].buf < n_bufs && narrow[s->args[a].buf])
                s->args[a].buf = float_of(r, s->args[a].buf, top);
        depth += s->control == SM2C_CTL_IF || s->control == SM2C_CTL_LOOP;
        depth -= s->control == SM2C_CTL_END_IF || s->control == SM2C_CTL_END_LOOP;
    }
    if (r->n_w)
        insert_widenings(r);
}

void sm2c_entry_half_weights(sm2c_ctx *c, sm2c_program *p, sm2c_entry *e)
{
    int32_t n_bufs = e->n_buffers;
    int8_t *half = sm2c_arena_array(c->arena, (size_t)n_bufs + 1, 1), *returned = returned_weights(c, e);
    for (int32_t b = 0; b < n_bufs; b++) {
        sm2c_buffer *buf = &e->buffers[b];
        if (buf->kind == SM2C_BUF_WEIGHT && buf->dtype == SM2C_DT_FLOAT && !returned[b] &&
            p->weights[buf->index].value.dtype == SM2C_DT_FLOAT)
            half[b] = (int8_t)round_buffer(c, p, buf);
    }
    rewrite r = { .c = c, .e = e };
    widen_reads(&r, half, n_bufs);
}

/* x[0..n) in [-8, 7] two to a byte, as TFLite's INT4 tensors (and
** sm2c_rt_widen_s4_s8) have them: x[2i] in the low nibble of y[i], x[2i+1] in
** the high one; an odd n's last high nibble is 0. */
static void pack_s4(const int8_t *x, uint8_t *y, int64_t n)
{
    for (int64_t i = 0; i < n; i += 2)
        y[i / 2] = (uint8_t)(((uint32_t)x[i] & 15) | (i + 1 < n ? ((uint32_t)x[i + 1] & 15) << 4 : 0));
}

/* Whether int8 weight t's values all lie in [-8, 7]: then it packs with no loss. */
static int fits_s4(const sm2c_tensor *t)
{
    const int8_t *v = t->data;
    for (int64_t i = 0; i < t->nelem; i++)
        if (v[i] < -8 || v[i] > 7)
            return 0;
    return 1;
}

void sm2c_entry_int4_weights(sm2c_ctx *c, sm2c_program *p, sm2c_entry *e)
{
    int32_t n_bufs = e->n_buffers;
    int8_t *narrow = sm2c_arena_array(c->arena, (size_t)n_bufs + 1, 1), *returned = returned_weights(c, e);
    rewrite r = { .c = c, .e = e, .s4 = 1 };
    r.wide = sm2c_arena_array(c->arena, (size_t)n_bufs + 1, sizeof *r.wide);
    for (int32_t b = 0; b < n_bufs; b++) {
        sm2c_buffer *buf = &e->buffers[b];
        if (buf->kind != SM2C_BUF_WEIGHT || buf->dtype != SM2C_DT_INT8 || returned[b])
            continue;
        const sm2c_weight *w = &p->weights[buf->index];
        if (w->value.dtype != SM2C_DT_INT8 || w->value.nelem < SM2C_INT4_STORE_MIN ||
            w->value.nelem > INT32_MAX || (int64_t)w->value.nbytes != w->value.nelem || !fits_s4(&w->value))
            continue;
        r.wide[b] = *buf;
        r.wide[b].nbytes = w->value.nelem;
        int64_t n = (w->value.nelem + 1) / 2;
        uint8_t *packed = sm2c_arena_alloc(c->arena, (size_t)n + 1);
        pack_s4(w->value.data, packed, w->value.nelem);
        sm2c_tensor t = w->value;
        t.dtype = SM2C_DT_UINT8;
        t.shape = sm2c_shape_make(c, 1, &n);
        t.nelem = n;
        t.nbytes = (size_t)n;
        t.data = packed;
        buf->index = sm2c_program_weight(c->arena, p, &t, &t.shape, w->name);
        buf->dtype = SM2C_DT_UINT8;
        buf->shape = t.shape;
        buf->nbytes = n;
        narrow[b] = 1;
    }
    widen_reads(&r, narrow, n_bufs);
}
