/*
** ops_hybrid.c: the steps of a hybrid contraction (ops_hybrid.h).  The input
** is quantized per row of a MatMul and per image of a convolution (TFLite's
** FULLY_CONNECTED and CONV_2D do so), into arena scratch the plan frees
** after the contraction: the int8 copy, and each row's scale and zero point.
*/
#include "ops_hybrid.h"

#include <string.h>

#include "ops_common.h"

static sm2c_arg buf_of(sm2c_lower *l, const sm2c_value *v)
{
    return sm2c_arg_buf(sm2c_lower_buf(l, v));
}

/* The filter's scales as a float constant buffer (float arrays have no argument form). */
static sm2c_arg scales_of(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_tensor *t = sm2c_op_vector(l, SM2C_DT_FLOAT, n->hybrid->n_channels);
    memcpy(t->data, n->hybrid->scale, t->nbytes);
    return buf_of(l, sm2c_op_constant(l, t, sm2c_arena_printf(l->c->arena, "%s/weight_scale", n->name)));
}

typedef struct quantized {
    int32_t q, scale, zero_point;   /* scratch buffers */
} quantized;

/* A value quantized as `rows` rows, kept for the hybrid nodes that read it
** next (a transformer's query, key and value projections of one input):
** TFLite quantizes it once per FULLY_CONNECTED, to the same bytes. */
typedef struct sm2c_quantized_input {
    const sm2c_value *x;
    int64_t rows;
    quantized bufs;
    struct sm2c_quantized_input *next;
} sm2c_quantized_input;

/* Input x as `rows` rows of `cols` values, quantized into scratch (once per entry). */
static quantized quantize_rows(sm2c_lower *l, const sm2c_node *n, int64_t rows, int64_t cols)
{
    const sm2c_value *x = n->inputs[0];
    for (const sm2c_quantized_input *d = l->quantized; d; d = d->next)
        if (d->x == x && d->rows == rows)
            return d->bufs;
    quantized r;
    r.q = sm2c_lower_scratch(l, SM2C_DT_INT8, &x->shape, sm2c_arena_printf(l->c->arena, "%s/quantized", x->name));
    sm2c_shape per_row = sm2c_shape_make(l->c, 1, &rows);
    r.scale = sm2c_lower_scratch(l, SM2C_DT_FLOAT, &per_row, "input_scale");
    r.zero_point = sm2c_lower_scratch(l, SM2C_DT_INT32, &per_row, "input_zero_point");
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_quantize_rows_s8", 6);
    s->args[0] = buf_of(l, x);
    s->args[1] = sm2c_arg_buf(r.q);
    s->args[2] = sm2c_arg_buf(r.scale);
    s->args[3] = sm2c_arg_buf(r.zero_point);
    s->args[4] = sm2c_arg_int(rows);
    s->args[5] = sm2c_arg_int(cols);
    sm2c_quantized_input *d = sm2c_arena_alloc(l->c->arena, sizeof *d);
    *d = (sm2c_quantized_input){ x, rows, r, l->quantized };
    l->quantized = d;
    return r;
}

static void quantized_args(sm2c_step *s, const quantized *r)
{
    s->args[0] = sm2c_arg_buf(r->q);
    s->args[1] = sm2c_arg_buf(r->scale);
    s->args[2] = sm2c_arg_buf(r->zero_point);
}

/* Whether the packed forms (VNNI's layout) suit a contraction of depth k here. */
static int packs(const sm2c_lower *l, int64_t k)
{
    return !l->target->cortex_m && !l->target->size_level && k % 4 == 0;
}

/* Int8 filter f, output o's value i at o * o_step + i * i_step, laid out for
** the packed hybrid kernels: blocks of 16 outputs, each [k/4][16][4],
** outputs past n zero. */
static sm2c_value *packed_filter(sm2c_lower *l, const sm2c_value *f, int64_t n, int64_t k, int64_t o_step,
                                 int64_t i_step)
{
    sm2c_tensor *t = sm2c_op_vector(l, SM2C_DT_INT8, (n + 15) / 16 * 16 * k);
    int8_t *d = t->data;
    const int8_t *src = f->constant->data;
    for (int64_t o = 0; o < n; o++)
        for (int64_t i = 0; i < k; i++)
            d[(o / 16) * k * 16 + (i / 4) * 64 + (o % 16) * 4 + i % 4] = src[o * o_step + i * i_step];
    return sm2c_op_constant(l, t, sm2c_arena_printf(l->c->arena, "%s/packed", f->name));
}

/* MatMul x[rows, k] (or BatchMatMul x[..., k], its rows all of them) by the
** int8 filter [n, k]; on a vector core (not at Os/Oz), with k a multiple of
** 4, the filter laid out for VNNI's 4-row tiles. */
static sm2c_status lower_fully_connected(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    const int64_t k = x->dims[x->rank - 1], rows = k ? sm2c_value_elements(n->inputs[0]) / k : 0;
    const int64_t cols = n->hybrid->n_channels;
    quantized r = quantize_rows(l, n, rows, k);
    int64_t *sums = sm2c_arena_array(l->c->arena, (size_t)cols + 1, sizeof *sums);
    for (int64_t o = 0; o < cols; o++)
        sums[o] = n->hybrid->sum[o];
    const int packed = packs(l, k);
    sm2c_step *s = sm2c_lower_step(l, n, packed ? "sm2c_rt_fully_connected_hybrid_packed"
                                                : "sm2c_rt_fully_connected_hybrid", 14);
    quantized_args(s, &r);
    s->args[3] = buf_of(l, packed ? packed_filter(l, n->inputs[1], cols, k, k, 1) : n->inputs[1]);
    s->args[4] = sm2c_arg_ints(l, (int32_t)cols, sums);
    s->args[5] = scales_of(l, n);
    s->args[6] = n->bias ? buf_of(l, n->bias) : sm2c_arg_null();
    s->args[7] = buf_of(l, n->outputs[0]);
    s->args[8] = sm2c_arg_int(rows);
    s->args[9] = sm2c_arg_int(k);
    s->args[10] = sm2c_arg_int(cols);
    sm2c_lower_act(s, 11, n);
    return SM2C_OK;
}

/* A 1x1 Conv2D of stride 1 and no padding, [images, pixels, k] by [k, oc]:
** the packed FullyConnected's product over the pixels, its filter [1, 1, k,
** oc] laid out as that kernel's, with each output's sum. */
static sm2c_status lower_conv_1x1(sm2c_lower *l, const sm2c_node *n, const quantized *r, int64_t images,
                                  const int64_t *p)
{
    const int64_t k = p[SM2C_RT_WIN_C], oc = p[SM2C_RT_WIN_OC];
    const int8_t *f = n->inputs[1]->constant->data;
    int64_t *sums = sm2c_arena_array(l->c->arena, (size_t)oc + 1, sizeof *sums);
    for (int64_t i = 0; i < k; i++)
        for (int64_t o = 0; o < oc; o++)
            sums[o] += f[i * oc + o];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_conv2d_1x1_hybrid_packed", 15);
    quantized_args(s, r);
    s->args[3] = buf_of(l, packed_filter(l, n->inputs[1], oc, k, 1, oc));
    s->args[4] = sm2c_arg_ints(l, (int32_t)oc, sums);
    s->args[5] = scales_of(l, n);
    s->args[6] = n->bias ? buf_of(l, n->bias) : sm2c_arg_null();
    s->args[7] = buf_of(l, n->outputs[0]);
    s->args[8] = sm2c_arg_int(images);
    s->args[9] = sm2c_arg_int(p[SM2C_RT_WIN_H] * p[SM2C_RT_WIN_W]);
    s->args[10] = sm2c_arg_int(k);
    s->args[11] = sm2c_arg_int(oc);
    sm2c_lower_act(s, 12, n);
    return SM2C_OK;
}

static int is_1x1(const int64_t *p)
{
    return p[SM2C_RT_WIN_KH] == 1 && p[SM2C_RT_WIN_KW] == 1 && p[SM2C_RT_WIN_SH] == 1 && p[SM2C_RT_WIN_SW] == 1 &&
           p[SM2C_RT_WIN_PT] == 0 && p[SM2C_RT_WIN_PL] == 0 && p[SM2C_RT_WIN_OH] == p[SM2C_RT_WIN_H] &&
           p[SM2C_RT_WIN_OW] == p[SM2C_RT_WIN_W] && p[SM2C_RT_WIN_FC] == p[SM2C_RT_WIN_C];
}

/* Conv2D or depthwise, each image of the batch quantized as a whole. */
static sm2c_status lower_conv(sm2c_lower *l, const sm2c_node *n)
{
    int64_t p[SM2C_RT_WIN_PARAMS];
    sm2c_status st = sm2c_window_of(l->c, n, 0, p);
    if (st)
        return st;
    const int64_t images = n->inputs[0]->shape.dims[0];
    quantized r = quantize_rows(l, n, images, images ? sm2c_value_elements(n->inputs[0]) / images : 0);
    int depthwise = strcmp(n->op->name, "DepthwiseConv2dNative") == 0;
    if (!depthwise && is_1x1(p) && packs(l, p[SM2C_RT_WIN_C]))
        return lower_conv_1x1(l, n, &r, images, p);
    sm2c_step *s = sm2c_lower_step(l, n, depthwise ? "sm2c_rt_depthwise_conv2d_hybrid" : "sm2c_rt_conv2d_hybrid", 11);
    quantized_args(s, &r);
    s->args[3] = buf_of(l, n->inputs[1]);
    s->args[4] = scales_of(l, n);
    s->args[5] = n->bias ? buf_of(l, n->bias) : sm2c_arg_null();
    s->args[6] = buf_of(l, n->outputs[0]);
    s->args[7] = sm2c_arg_ints(l, SM2C_RT_WIN_PARAMS, p);
    sm2c_lower_act(s, 8, n);
    return SM2C_OK;
}

sm2c_status sm2c_lower_hybrid(sm2c_lower *l, const sm2c_node *n)
{
    if (n->hybrid->sum)
        return lower_fully_connected(l, n);
    return lower_conv(l, n);
}
