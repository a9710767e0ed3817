/*
** report_costs.c: the analysis behind --report (report.h): per step its
** multiply-accumulates and bytes moved, per buffer its lifetime.
*/
#include "cli/report.h"

#include <string.h>

sm2c_report_format sm2c_report_format_of(const char *path)
{
    size_t n = strlen(path);
    if (n >= 5 && !strcmp(path + n - 5, ".json"))
        return SM2C_REPORT_JSON;
    if (n >= 5 && !strcmp(path + n - 5, ".html"))
        return SM2C_REPORT_HTML;
    return SM2C_REPORT_TEXT;
}

/* The k-th argument of `kind` (INT or INTS), or NULL. */
static const sm2c_arg *nth_arg(const sm2c_step *s, sm2c_argkind kind, int k)
{
    for (int32_t i = 0; i < s->n_args; i++)
        if (s->args[i].kind == kind && k-- == 0)
            return &s->args[i];
    return NULL;
}

static int64_t product(const int32_t *v, const int *idx, int n)
{
    int64_t r = 1;
    for (int i = 0; i < n; i++)
        r *= v[idx[i]];
    return r;
}

/* The window parameters (SM2C_RT_WIN_* / SM2C_RT_VOL_* order, sm2c_rt.h). */
static int64_t conv_macs(const sm2c_step *s, int volume, int depthwise)
{
    static const int win[] = { 0, 6, 7, 8, 4, 5, 15 };           /* N OH OW OC KH KW FC */
    static const int vol[] = { 0, 8, 9, 10, 11, 5, 6, 7, 21 };   /* N OD OH OW OC KD KH KW FC */
    const sm2c_arg *p = nth_arg(s, SM2C_ARG_INTS, 0);
    if (!p || p->n < (volume ? 22 : 16))
        return 0;
    const int *idx = volume ? vol : win;
    int n = volume ? 9 : 7;
    return product(p->ints, idx, depthwise ? n - 1 : n);  /* depthwise: no FC sum */
}

/* The product of the kernel's first `count` integer arguments: m * k * n
** (times the batch) for matmul, k * n for matvec. */
static int64_t int_product(const sm2c_step *s, int count)
{
    int64_t r = 1;
    for (int k = 0; k < count; k++) {
        const sm2c_arg *v = nth_arg(s, SM2C_ARG_INT, k);
        if (!v)
            return 0;
        r *= v->i;
    }
    return r;
}

int64_t sm2c_step_macs(const sm2c_step *s)
{
    const char *k = s->control ? NULL : s->kernel;
    if (!k)
        return 0;
    if (strstr(k, "batch_matmul_"))
        return int_product(s, 4);
    if (strstr(k, "matmul_"))
        return int_product(s, 3);
    if (strstr(k, "matvec"))
        return int_product(s, 2);
    if (strstr(k, "depthwise_conv2d_"))
        return conv_macs(s, 0, 1);
    if (strstr(k, "conv2d_"))
        return conv_macs(s, 0, 0);
    if (strstr(k, "conv3d_"))
        return conv_macs(s, 1, 0);
    return 0;
}

static int written_by_first_use(const sm2c_buffer *b)
{
    return b->kind == SM2C_BUF_ARENA || b->kind == SM2C_BUF_OUTPUT;
}

/* A step that writes no new buffer works in place (y may equal x): by the
** runtime's argument order, its output is its last arena, output or state
** buffer argument. */
static void in_place_output(const sm2c_entry *e, const sm2c_step *s, sm2c_step_cost *c)
{
    for (int32_t k = s->n_args - 1; k >= 0; k--) {
        if (s->args[k].kind != SM2C_ARG_BUF)
            continue;
        const sm2c_buffer *buf = &e->buffers[s->args[k].buf];
        if (buf->kind == SM2C_BUF_ARENA || buf->kind == SM2C_BUF_OUTPUT || buf->kind == SM2C_BUF_STATE) {
            c->out_buf = s->args[k].buf;
            c->bytes_written += buf->nbytes;
            c->bytes_read -= buf->nbytes;  /* counted as read above: it is the kernel's y */
            return;
        }
    }
}

void sm2c_entry_costs_compute(sm2c_arena *a, const sm2c_entry *e, sm2c_entry_costs *out)
{
    memset(out, 0, sizeof *out);
    size_t nb = e->n_buffers > 0 ? (size_t)e->n_buffers : 1;
    out->steps = sm2c_arena_array(a, e->n_steps > 0 ? (size_t)e->n_steps : 1, sizeof *out->steps);
    out->first = sm2c_arena_array(a, nb, sizeof *out->first);
    out->last = sm2c_arena_array(a, nb, sizeof *out->last);
    for (int32_t b = 0; b < e->n_buffers; b++)
        out->first[b] = out->last[b] = -1;
    for (int32_t i = 0; i < e->n_steps; i++) {
        const sm2c_step *s = &e->steps[i];
        sm2c_step_cost *c = &out->steps[i];
        c->out_buf = -1;
        c->macs = sm2c_step_macs(s);
        out->macs += c->macs;
        for (int32_t k = 0; k < s->n_args; k++) {
            if (s->args[k].kind != SM2C_ARG_BUF)
                continue;
            int32_t b = s->args[k].buf;
            const sm2c_buffer *buf = &e->buffers[b];
            int first_use = out->first[b] < 0;
            if (first_use)
                out->first[b] = i;
            out->last[b] = i;
            if (first_use && written_by_first_use(buf)) {
                c->bytes_written += buf->nbytes;
                if (c->out_buf < 0)
                    c->out_buf = b;
            } else {
                c->bytes_read += buf->nbytes;
            }
        }
        if (c->out_buf < 0)
            in_place_output(e, s, c);
    }
    for (int32_t b = 0; b < e->n_buffers; b++) {
        if (out->first[b] < 0)
            continue;
        if (e->buffers[b].kind == SM2C_BUF_WEIGHT)
            out->weight_bytes += e->buffers[b].nbytes;
        else if (e->buffers[b].kind == SM2C_BUF_STATE)
            out->state_bytes += e->buffers[b].nbytes;
    }
}
