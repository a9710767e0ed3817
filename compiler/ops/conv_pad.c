/*
** conv_pad.c: a zero-padded copy of a convolution's input, in arena scratch,
** for the layers where the kernel's edge pixels cost more than the copy.
**
** The float Conv2D kernel (runtime/conv_f32.c) treats a pixel whose window
** crosses the padding one tap at a time, and inside pixels a whole filter
** row (KW*C channels) at a time.  On first layers (1-4 input channels) of
** small images a large share of the pixels are edge pixels: DS-CNN's
** 10x4 stride-2 layer on 49x10 audio features has 2 of every 5 columns at
** the edge and ran at 40 GFLOP/s; on a padded copy every pixel is inside and
** it runs at 67 (bench/bench_kernels.c, this machine, AVX-512).  ResNet-8's
** 3->16 layer on 32x32 goes from 58 to 66.  Layers with wide windows
** (C*KW > 32) or few edge pixels gain nothing or lose the copy (MobileNetV2's
** 3->32 on 224x224: -5%), and depthwise layers lose 20%, so only this case
** takes it.  Not at --opt Os/Oz nor for a scalar core (the target's
** size_level and isa): a scalar core's loops gain nothing from the copy, and it costs the copy kernel's code
** (about 900 bytes on a Cortex-M4) and the scratch.
*/
#include "ops_common.h"

enum {
    PAD_MAX_TAP_ROW = 32,           /* C*KW: taps of one filter row */
    PAD_MIN_EDGE_PERCENT = 10,      /* pixels whose window crosses the padding */
    PAD_MAX_SCRATCH = 64 * 1024 / 4, /* floats of the padded copy */
    PAD_S8_MAX_SCRATCH = 4 << 20     /* bytes of an int8 copy (conv_pad_input_s8) */
};

/* Output positions along one axis whose window lies inside [0, size). */
static int64_t inside(int64_t out, int64_t stride, int64_t pad, int64_t reach, int64_t size)
{
    int64_t n = 0;
    for (int64_t o = 0; o < out; o++)
        n += o * stride - pad >= 0 && o * stride - pad + reach < size;
    return n;
}

/* Rows (or columns) the windows read, counting the padding: the copy's size. */
static int64_t padded_extent(const int64_t *p, int axis)
{
    int64_t o = p[axis ? SM2C_RT_WIN_OW : SM2C_RT_WIN_OH], s = p[axis ? SM2C_RT_WIN_SW : SM2C_RT_WIN_SH];
    int64_t k = p[axis ? SM2C_RT_WIN_KW : SM2C_RT_WIN_KH], d = p[axis ? SM2C_RT_WIN_DW : SM2C_RT_WIN_DH];
    return (o - 1) * s + (k - 1) * d + 1;
}

int sm2c_conv_pads_input(const int64_t *p)
{
    const int64_t oh = p[SM2C_RT_WIN_OH], ow = p[SM2C_RT_WIN_OW];
    if (oh <= 0 || ow <= 0 || p[SM2C_RT_WIN_C] * p[SM2C_RT_WIN_KW] > PAD_MAX_TAP_ROW)
        return 0;
    int64_t hp = padded_extent(p, 0), wp = padded_extent(p, 1);
    if (p[SM2C_RT_WIN_N] * hp * wp * p[SM2C_RT_WIN_C] > PAD_MAX_SCRATCH)
        return 0;
    int64_t rows = inside(oh, p[SM2C_RT_WIN_SH], p[SM2C_RT_WIN_PT],
                          (p[SM2C_RT_WIN_KH] - 1) * p[SM2C_RT_WIN_DH], p[SM2C_RT_WIN_H]);
    int64_t cols = inside(ow, p[SM2C_RT_WIN_SW], p[SM2C_RT_WIN_PL],
                          (p[SM2C_RT_WIN_KW] - 1) * p[SM2C_RT_WIN_DW], p[SM2C_RT_WIN_W]);
    return (oh * ow - rows * cols) * 100 >= PAD_MIN_EDGE_PERCENT * oh * ow;
}

int32_t sm2c_conv_pad_input(sm2c_lower *l, const sm2c_node *n, int32_t x, int64_t *p)
{
    const int64_t d[8] = { p[SM2C_RT_WIN_N], p[SM2C_RT_WIN_H], p[SM2C_RT_WIN_W], p[SM2C_RT_WIN_C],
                           padded_extent(p, 0), padded_extent(p, 1), p[SM2C_RT_WIN_PT], p[SM2C_RT_WIN_PL] };
    int64_t dims[4] = { d[0], d[4], d[5], d[3] };
    sm2c_shape ps = sm2c_shape_make(l->c, 4, dims);
    int32_t pb = sm2c_lower_scratch(l, SM2C_DT_FLOAT, &ps, "conv padded input");

    /* one pass (runtime/pad_copy_f32.c); the rows and columns the windows
    ** reach (a VALID window may leave some of the input's last ones unread) */
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_pad_copy_f32", 3);
    s->args[0] = sm2c_arg_buf(x);
    s->args[1] = sm2c_arg_buf(pb);
    s->args[2] = sm2c_arg_ints(l, 8, d);
    p[SM2C_RT_WIN_H] = d[4], p[SM2C_RT_WIN_W] = d[5];
    p[SM2C_RT_WIN_PT] = 0, p[SM2C_RT_WIN_PL] = 0;
    return pb;
}

/*
** int8 (ops_q8.c).  The packed Conv2D (runtime/conv_packed_s8.c) sets each
** pixel's pointers once when every window lies inside the input and each
** filter row (KW * C values) is whole groups of 4 (c8p_inside); else it checks
** every tap of every row for the padding and gathers rows of C not a multiple
** of 4.  The depthwise kernels check each tap of a pixel whose window
** crosses the padding, and on AVX-512 VNNI take four taps to a dot product
** when no window does (runtime/dw_block_s8.h).  With the copy (in_zp in the
** padding), on this machine, ResNet-8's 16-channel layers went from 17.4 to
** 10.6 us, its first layer (3 channels read as 4) from 9.3 to 6.9 with the
** copy, DS-CNN's depthwise layers from 4.05 to 1.9 with the copy: the whole
** int8 model 0.74x (ResNet-8), 0.64x (DS-CNN) and 0.85x (VWW) the time at
** -O3, the same bits.  The copy rounds C up to a multiple
** of 4 when KW * C is not one, unless that adds more than half the row's
** groups (1 channel, 3 taps: 3 groups for 1; the gather is cheaper).  A layer
** already inside needs no copy, nor does a dilated row (DW > 1), which the
** kernels read tap by tap either way.  Vector cores only: the portable loops
** read the padding no slower than the copy, and a Cortex-M's RAM is short.
*/
static int64_t s8_copy_channels(const int64_t *p, int depthwise)
{
    const int64_t c = p[SM2C_RT_WIN_C], kw = p[SM2C_RT_WIN_KW];
    if (depthwise || kw * c % 4 == 0)
        return c;
    const int64_t groups = (kw * c + 3) / 4, c4 = (c + 3) & ~(int64_t)3;
    return kw * c4 / 4 <= groups + groups / 2 ? c4 : 0;
}

int sm2c_conv_pads_input_s8(const sm2c_target *t, const int64_t *p, int depthwise)
{
    if (t->size_level || !sm2c_target_has_vectors(t) || p[SM2C_RT_WIN_DW] != 1)
        return 0;
    const int64_t hp = padded_extent(p, 0), wp = padded_extent(p, 1), cp = s8_copy_channels(p, depthwise);
    const int inside = p[SM2C_RT_WIN_PT] == 0 && p[SM2C_RT_WIN_PL] == 0 && hp <= p[SM2C_RT_WIN_H] &&
                       wp <= p[SM2C_RT_WIN_W];
    return cp && !(inside && cp == p[SM2C_RT_WIN_C]) &&
           p[SM2C_RT_WIN_N] * hp * wp * cp <= PAD_S8_MAX_SCRATCH;
}

/*
** The step that quantizes the float input into x, when it is the last step so
** far, x is arena scratch and the convolution is x's only reader, and its
** zero point is the copy's fill: the copy then quantizes on the way
** (sm2c_rt_quantize_pad_f32_s8) and x is never written.  A first layer's
** input: VWW's 96x96x3 took 6.3 us to quantize and 4.5 to copy 3 channels
** into 4.  NULL otherwise.
*/
static const sm2c_step *quantize_into_copy(sm2c_lower *l, const sm2c_node *n, int32_t x, int32_t in_zp)
{
    sm2c_entry *e = l->entry;
    sm2c_step *q = e->n_steps ? &e->steps[e->n_steps - 1] : NULL;
    if (!q || q->control || strcmp(q->kernel, "sm2c_rt_quantize_f32_s8") || q->args[1].kind != SM2C_ARG_BUF ||
        q->args[1].buf != x || e->buffers[x].kind != SM2C_BUF_ARENA || n->inputs[0]->uses != 1 ||
        q->args[4].kind != SM2C_ARG_INT || q->args[4].i != in_zp)
        return NULL;
    return q;
}

int32_t sm2c_conv_pad_input_s8(sm2c_lower *l, const sm2c_node *n, int32_t x, int64_t *p, int32_t in_zp,
                               int depthwise)
{
    const int64_t cp = s8_copy_channels(p, depthwise);
    const int64_t d[9] = { p[SM2C_RT_WIN_N], p[SM2C_RT_WIN_H], p[SM2C_RT_WIN_W], p[SM2C_RT_WIN_C],
                           padded_extent(p, 0), padded_extent(p, 1), p[SM2C_RT_WIN_PT], p[SM2C_RT_WIN_PL], cp };
    int64_t dims[4] = { d[0], d[4], d[5], cp };
    sm2c_shape ps = sm2c_shape_make(l->c, 4, dims);
    int32_t pb = sm2c_lower_scratch(l, SM2C_DT_INT8, &ps, "conv padded input");
    /* With the Quantize folded in, its step gives way to the copy's, a helper of n
    ** as the copy is: the float input, the copy, d, scale, zero point. */
    const sm2c_step *q = quantize_into_copy(l, n, x, in_zp);
    const sm2c_arg src = q ? q->args[0] : sm2c_arg_buf(x), scale = q ? q->args[3] : sm2c_arg_null();
    const char *quantize = q ? sm2c_arena_printf(l->c->arena, "%s %s", q->op, q->node) : NULL;
    if (q)
        l->entry->n_steps--;
    sm2c_step *s = sm2c_lower_step(l, n, q ? "sm2c_rt_quantize_pad_f32_s8" : "sm2c_rt_pad_copy_s8", q ? 5 : 4);
    s->args[0] = src;
    s->args[1] = sm2c_arg_buf(pb);
    s->args[2] = sm2c_arg_ints(l, 9, d);
    s->args[q ? 4 : 3] = sm2c_arg_int(in_zp);
    if (q) {
        s->args[3] = scale;
        s->fused = s->fused ? sm2c_arena_printf(l->c->arena, "%s;%s", quantize, s->fused) : quantize;
    }
    p[SM2C_RT_WIN_H] = d[4], p[SM2C_RT_WIN_W] = d[5], p[SM2C_RT_WIN_C] = cp;
    p[SM2C_RT_WIN_PT] = 0, p[SM2C_RT_WIN_PL] = 0;
    return pb;
}
