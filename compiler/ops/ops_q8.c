/*
** ops_q8.c: lowering of the nodes pass_quantize.c made int8.  Everything the
** kernels need was computed at compile time (sm2c_node.q, sm2c_value.quant);
** this only picks the kernel and lays out its arguments.
*/
#include "ops_q8.h"

#include "ops_common.h"
#include "ops_q16.h"

static sm2c_status lower_none(sm2c_lower *l, const sm2c_node *n)
{
    return sm2c_lower_unsupported(l, n, "internal op lowered without its int8 parameters");
}

const sm2c_opdef sm2c_op_quantize_s8 = { "QuantizeS8", 1, "output", "", NULL, lower_none, UINT64_MAX, 0, 0 };
const sm2c_opdef sm2c_op_dequantize_s8 = { "DequantizeS8", 1, "output", "", NULL, lower_none, UINT64_MAX, 0, 0 };
const sm2c_opdef sm2c_op_hard_swish_s8 = { "HardSwishS8", 1, "output", "", NULL, lower_none, UINT64_MAX, 0, SM2C_Q8_HARD_SWISH };
const sm2c_opdef sm2c_op_requantize_s8 = { "RequantizeS8", 1, "output", "", NULL, lower_none, UINT64_MAX, 0, 0 };

static int op_is(const sm2c_node *n, const char *name)
{
    return strcmp(n->op->name, name) == 0;
}

static sm2c_arg buf_of(sm2c_lower *l, const sm2c_value *v)
{
    return sm2c_arg_buf(sm2c_lower_buf(l, v));
}

sm2c_arg sm2c_q8_int32s(sm2c_lower *l, int32_t n, const int32_t *v)
{
    int64_t *wide = sm2c_arena_array(l->c->arena, (size_t)n + 1, sizeof *wide);
    for (int32_t i = 0; i < n; i++)
        wide[i] = v[i];
    return sm2c_arg_ints(l, n, wide);
}

/* Quantize (to the output's parameters) or dequantize (from the input's),
** int8 or (--quantize int16x8) int16. */
static sm2c_status lower_convert(sm2c_lower *l, const sm2c_node *n, int to_int)
{
    const sm2c_value *q = to_int ? n->outputs[0] : n->inputs[0];
    const sm2c_qparam *qp = q->quant;
    const char *kernel = q->dtype == SM2C_DT_INT16 ? (to_int ? "sm2c_rt_quantize_f32_s16" : "sm2c_rt_dequantize_s16_f32")
                                                   : (to_int ? "sm2c_rt_quantize_f32_s8" : "sm2c_rt_dequantize_s8_f32");
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 5);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->outputs[0]);
    s->args[2] = sm2c_arg_int(sm2c_value_elements(n->outputs[0]));
    s->args[3] = sm2c_arg_float(qp->scale);
    s->args[4] = sm2c_arg_int(qp->zero_point);
    return SM2C_OK;
}

/* A step of int8 contraction `kernel`: `before` arguments, then
** requant_args's; the kernel's _frq form when n requantizes in float
** (--requantize float: one float scale per channel for a multiplier and a
** shift). */
static sm2c_step *contraction_step(sm2c_lower *l, const sm2c_node *n, const char *kernel, int32_t before)
{
    if (n->q->scale)
        return sm2c_lower_step(l, n, sm2c_arena_printf(l->c->arena, "%s_frq", kernel), before + 5);
    return sm2c_lower_step(l, n, kernel, before + 6);
}

/* The float scales as a constant buffer (a buffer: float arrays have no
** argument form), channel o's at o, n of them (one per-tensor scale repeated). */
static sm2c_arg scales_of(sm2c_lower *l, const sm2c_node *n, int64_t count)
{
    sm2c_tensor *t = sm2c_op_vector(l, SM2C_DT_FLOAT, count);
    float *d = t->data;
    for (int64_t o = 0; o < count; o++)
        d[o] = n->q->scale[n->q->n_channels == count ? o : 0];
    const char *name = sm2c_arena_printf(l->c->arena, "%s/requant_scale", n->name ? n->name : "contraction");
    return buf_of(l, sm2c_op_constant(l, t, name));
}

/* The requantization and output clamp every int8 contraction ends with, for
** `count` output channels (n's own per-tensor multiplier repeated where n has
** one and count is more): from args[at] of a contraction_step.  Returns the
** index of the input zero point's argument. */
static int32_t requant_args(sm2c_lower *l, const sm2c_node *n, sm2c_step *s, int32_t at, int32_t count)
{
    if (n->q->scale) {
        s->args[at++] = scales_of(l, n, count);
    } else {
        int32_t *m = n->q->multiplier, *sh = n->q->shift;
        if (n->q->n_channels != count) {
            m = sm2c_arena_array(l->c->arena, (size_t)count + 1, sizeof *m);
            sh = sm2c_arena_array(l->c->arena, (size_t)count + 1, sizeof *sh);
            for (int32_t o = 0; o < count; o++)
                m[o] = n->q->multiplier[0], sh[o] = n->q->shift[0];
        }
        s->args[at++] = sm2c_q8_int32s(l, count, m);
        s->args[at++] = sm2c_q8_int32s(l, count, sh);
    }
    s->args[at] = sm2c_arg_int(n->inputs[0]->quant->zero_point);
    s->args[at + 1] = sm2c_arg_int(n->outputs[0]->quant->zero_point);
    s->args[at + 2] = sm2c_arg_int(n->q->act_min);
    s->args[at + 3] = sm2c_arg_int(n->q->act_max);
    return at;
}

/*
** bias[o] - zu * (sum of filter column o), o < n_out, the column's k values
** at w[o * o_step + i * i_step]; NULL when the filter or bias is not a
** constant here or a result leaves int32.  With zu = in_zp - to_zp, a kernel
** that sums w * (x - to_zp) then gives what sum w * (x - in_zp) gives: the
** same integers, so the same bits on every path.
*/
static const int64_t *bias_less_col_sums(sm2c_lower *l, const sm2c_node *n, int64_t n_out, int64_t k,
                                         int64_t o_step, int64_t i_step, int64_t zu)
{
    const sm2c_tensor *w = n->inputs[1]->constant;
    const sm2c_tensor *b = n->bias ? n->bias->constant : NULL;
    if (!w || w->dtype != SM2C_DT_INT8 || w->nelem != n_out * k || (n->bias && !b) ||
        (b && (b->dtype != SM2C_DT_INT32 || b->nelem != n_out)))
        return NULL;
    int64_t *nb = sm2c_arena_array(l->c->arena, (size_t)n_out + 1, sizeof *nb);
    for (int64_t o = 0; o < n_out; o++) {
        int64_t sum = 0;
        for (int64_t i = 0; i < k; i++)
            sum += ((const int8_t *)w->data)[o * o_step + i * i_step];
        nb[o] = (b ? ((const int32_t *)b->data)[o] : 0) - zu * sum;
        if (nb[o] < INT32_MIN || nb[o] > INT32_MAX)
            return NULL;
    }
    return nb;
}

/* Where value i of a row of K lies in SMLAD's order: the middle two of
** each four values below quads = K & ~3 swapped. */
static int64_t smlad_at(int64_t i, int64_t quads)
{
    return i < quads ? (i & ~(int64_t)3) | ((i & 1) << 1) | ((i >> 1) & 1) : i;
}

/* A Conv2D filter [KH, KW, C, OC] (rows_first: a FullyConnected's [OC, K])
** as sm2c_rt_conv2d_ohwi_s8 reads it: rows
** [OC, K], K = KH*KW*C, in [OC, KH, KW, C] order with the middle two of each
** four values below K & ~3 swapped, so that SXTB16 makes the int16 pairs
** (k, k+1) and (k+2, k+3) of a word.  Made at compile time, so the kernel
** repacks nothing; the same bytes as the filter, in another order. */
sm2c_value *sm2c_q8_ohwi_filter(sm2c_lower *l, const sm2c_value *f, int rows_first)
{
    const sm2c_tensor *t = f->constant;
    const int64_t oc = t->shape.dims[rows_first ? 0 : t->shape.rank - 1], k = oc > 0 ? t->nelem / oc : 0;
    const int64_t quads = k & ~(int64_t)3, dims[2] = { oc, k };
    sm2c_tensor *r = sm2c_arena_alloc(l->c->arena, sizeof *r);
    r->dtype = SM2C_DT_INT8;
    r->shape = sm2c_shape_make(l->c, 2, dims);
    r->nelem = t->nelem;
    r->nbytes = t->nbytes;
    r->data = sm2c_arena_alloc(l->c->arena, t->nbytes + 1);
    const int8_t *src = t->data;
    int8_t *dst = r->data;
    for (int64_t o = 0; o < oc; o++)
        for (int64_t i = 0; i < k; i++)
            dst[o * k + smlad_at(i, quads)] = src[rows_first ? o * k + i : i * oc + o];
    return sm2c_op_constant(l, r, sm2c_arena_printf(l->c->arena, "%s/ohwi", f->name ? f->name : "filter"));
}

/* A fully connected filter [N, K] as sm2c_rt_fully_connected_m_s8 reads it:
** groups of four rows, each four columns' 16 bytes (row by row) together,
** then the group's rows' last K % 4 bytes; the last N % 4 rows as they are. */
static sm2c_value *fc_m_filter(sm2c_lower *l, const sm2c_value *f, int64_t n, int64_t k)
{
    const sm2c_tensor *t = f->constant;
    sm2c_tensor *r = sm2c_arena_alloc(l->c->arena, sizeof *r);
    *r = *t;
    r->data = sm2c_arena_alloc(l->c->arena, t->nbytes + 1);
    const int8_t *src = t->data;
    int8_t *dst = r->data;
    const int64_t quads = k & ~(int64_t)3;
    for (int64_t g = 0; g + 4 <= n; g += 4) {
        for (int64_t c = 0; c < quads; c += 4)
            for (int64_t j = 0; j < 4; j++)
                for (int64_t b = 0; b < 4; b++)
                    *dst++ = src[(g + j) * k + c + b];
        for (int64_t j = 0; j < 4; j++)
            for (int64_t c = quads; c < k; c++)
                *dst++ = src[(g + j) * k + c];
    }
    for (int64_t o = n & ~(int64_t)3; o < n; o++)
        for (int64_t c = 0; c < k; c++)
            *dst++ = src[o * k + c];
    return sm2c_op_constant(l, r, sm2c_arena_printf(l->c->arena, "%s/fc_m", f->name ? f->name : "filter"));
}

/* A Conv2D filter [KH, KW, C, OC] as sm2c_rt_conv2d_ohwi_s8 reads it
** (conv_ohwi_s8.c): the channels by groups of four, per pair of values (k,
** k+1) of K = KH*KW*C two words (c0 k, c1 k, c0 k+1, c1 k+1) and the same of
** c2, c3, 0 past an odd K; then the last OC % 4 channels as rows of
** sm2c_q8_ohwi_filter's.  So one load and two SXTB16s give two channels'
** int16 pairs, and the kernel's one pointer walks four channels. */
static sm2c_value *conv_m_filter(sm2c_lower *l, const sm2c_value *f)
{
    const sm2c_tensor *t = f->constant;
    const int64_t oc = t->shape.dims[t->shape.rank - 1], k = oc > 0 ? t->nelem / oc : 0;
    const int64_t kp = k + (k & 1), groups = oc / 4, quads = k & ~(int64_t)3;
    const int64_t size = groups * 4 * kp + (oc - 4 * groups) * k;
    sm2c_tensor *r = sm2c_arena_alloc(l->c->arena, sizeof *r);
    r->dtype = SM2C_DT_INT8;
    r->shape = sm2c_shape_make(l->c, 1, &size);
    r->nelem = size;
    r->nbytes = (size_t)size;
    r->data = sm2c_arena_alloc(l->c->arena, (size_t)size + 1);
    const int8_t *src = t->data;
    int8_t *dst = r->data;
    for (int64_t g = 0; g < groups; g++)
        for (int64_t i = 0; i < kp; i += 2)
            for (int64_t o = 4 * g; o < 4 * g + 4; o += 2) {
                *dst++ = src[i * oc + o];
                *dst++ = src[i * oc + o + 1];
                *dst++ = i + 1 < k ? src[(i + 1) * oc + o] : 0;
                *dst++ = i + 1 < k ? src[(i + 1) * oc + o + 1] : 0;
            }
    for (int64_t o = 4 * groups; o < oc; o++, dst += k)
        for (int64_t i = 0; i < k; i++)
            dst[smlad_at(i, quads)] = src[i * oc + o];
    return sm2c_op_constant(l, r, sm2c_arena_printf(l->c->arena, "%s/ohwi", f->name ? f->name : "filter"));
}

/* A Cortex-M form's step: node n's int8 contraction with filter f, window
** p, its requantization, and `scratch` int16 of planned arena scratch (never
** the stack, which stays small) as the last argument. */
static void cortex_m_step(sm2c_lower *l, const sm2c_node *n, const char *kernel, const sm2c_value *f,
                          const int64_t *p, int64_t scratch, const char *what)
{
    sm2c_shape cs = sm2c_shape_make(l->c, 1, &scratch);
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 12);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, f);
    s->args[2] = n->bias ? buf_of(l, n->bias) : sm2c_arg_null();
    s->args[3] = buf_of(l, n->outputs[0]);
    s->args[4] = sm2c_arg_ints(l, SM2C_RT_WIN_PARAMS, p);
    requant_args(l, n, s, 5, n->q->n_channels);
    s->args[11] = sm2c_arg_buf(sm2c_lower_scratch(l, SM2C_DT_INT16, &cs, what));
}

/* The Cortex-M form of a Conv2D without groups: the filter laid out at
** compile time and the two pixels' windows in scratch. */
static sm2c_status lower_conv_ohwi(sm2c_lower *l, const sm2c_node *n, const int64_t *p)
{
    const int64_t k = p[SM2C_RT_WIN_KH] * p[SM2C_RT_WIN_KW] * p[SM2C_RT_WIN_C];
    cortex_m_step(l, n, "sm2c_rt_conv2d_ohwi_s8", conv_m_filter(l, n->inputs[1]), p, 2 * k + 2,
                  "conv windows");
    return SM2C_OK;
}

/* Whether a depthwise takes the Cortex-M plane form (dw_plane_s8.c):
** multiplier 1, a 3x3 window, dilation 1, stride 1 or 2 along W. */
static int dw_plane_fits(const int64_t *p)
{
    return p[SM2C_RT_WIN_FC] == 1 && p[SM2C_RT_WIN_OC] == p[SM2C_RT_WIN_C] && p[SM2C_RT_WIN_KH] == 3 &&
           p[SM2C_RT_WIN_KW] == 3 && p[SM2C_RT_WIN_DH] == 1 && p[SM2C_RT_WIN_DW] == 1 &&
           (p[SM2C_RT_WIN_SW] == 1 || p[SM2C_RT_WIN_SW] == 2);
}

/* The Cortex-M form of such a depthwise: one channel at a time copied into
** a zero-padded int16 plane in scratch, with the row sums before it. */
static sm2c_status lower_dw_plane(sm2c_lower *l, const sm2c_node *n, const int64_t *p)
{
    const int64_t pairs = (p[SM2C_RT_WIN_OW] + 1) / 2, wp = 2 * p[SM2C_RT_WIN_SW] * pairs + 4;
    const int64_t hp = (p[SM2C_RT_WIN_OH] - 1) * p[SM2C_RT_WIN_SH] + 3;
    cortex_m_step(l, n, "sm2c_rt_depthwise_plane_s8", n->inputs[1], p, 4 * pairs + hp * wp, "depthwise plane");
    return SM2C_OK;
}

/*
** A Conv2D filter [KH, KW, C, OC] as sm2c_rt_conv2d_packed_s8 reads it
** (runtime/conv_pack_s8.h): blocks of 16 output channels, the last padded
** with zeros, in sets of up to 4; per filter row kh, its KW * C values in
** TensorFlow's order in groups of 4, the last padded with zeros; each
** block's group [16 channels][4 values], the 64 bytes one vpdpbusd (four
** SDOT, four vpmaddwd widened) reads, a set's blocks' groups together.  Made
** at compile time, so no kernel interleaves filter rows per call.  The
** filter has c_src channels; p's C may be more (a padded copy's channels
** rounded up to 4), whose filter values are zeros.  A FullyConnected's
** filter comes transposed, [OC, C] (lower_fc_packed).
*/
static sm2c_value *packed_filter(sm2c_lower *l, const sm2c_value *f, const int64_t *p, int64_t c_src,
                                 int transposed)
{
    const sm2c_tensor *t = f->constant;
    const int64_t KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW], C = p[SM2C_RT_WIN_C];
    const int64_t L = KW * C, OC = p[SM2C_RT_WIN_OC];
    const int64_t G = (L + 3) / 4, blocks = (OC + 15) / 16, bytes = blocks * KH * G * 64;
    sm2c_tensor *r = sm2c_arena_alloc(l->c->arena, sizeof *r);
    r->dtype = SM2C_DT_INT8;
    r->shape = sm2c_shape_make(l->c, 1, &bytes);
    r->nelem = r->nbytes = bytes;
    r->data = sm2c_arena_alloc(l->c->arena, (size_t)bytes + 1);
    memset(r->data, 0, (size_t)bytes);
    const int8_t *src = t->data;
    int8_t *dst = r->data;
    for (int64_t o = 0; o < OC; o++) {
        const int64_t set = o / 64, in_set = blocks - 4 * set < 4 ? blocks - 4 * set : 4;
        int8_t *s = dst + set * KH * G * 256 + (o % 64 / 16) * 64 + (o % 16) * 4;
        for (int64_t kh = 0; kh < KH; kh++)
            for (int64_t kw = 0; kw < KW; kw++)
                for (int64_t c = 0; c < c_src; c++) {
                    const int64_t k = kw * C + c;
                    const int64_t i = (kh * KW + kw) * c_src + c;
                    s[(kh * G + k / 4) * in_set * 64 + k % 4] = src[transposed ? o * KH * KW * c_src + i : i * OC + o];
                }
    }
    return sm2c_op_constant(l, r, sm2c_arena_printf(l->c->arena, "%s/packed", f->name ? f->name : "filter"));
}

/* n int32 values as a constant buffer (a bias the compiler computed): a
** buffer rather than an ints argument, so that the window parameters stay
** the step's first ints argument (split.c reads the MACs from them). */
static sm2c_value *int32_constant(sm2c_lower *l, const int64_t *v, int64_t n, const char *name)
{
    sm2c_tensor *t = sm2c_op_vector(l, SM2C_DT_INT32, n);
    int32_t *d = t->data;
    for (int64_t i = 0; i < n; i++)
        d[i] = (int32_t)v[i];
    return sm2c_op_constant(l, t, name);
}

/* The sm2c_rt_conv2d_packed_s8 step of node n on input buffer x, window p:
** its filter (c_src channels; transposed: [OC, C]) packed, its folded bias
** (oc values) a constant buffer. */
static sm2c_step *packed_step(sm2c_lower *l, const sm2c_node *n, int32_t x, const int64_t *p, int64_t c_src,
                              int transposed, const int64_t *bias, const char *what)
{
    const int64_t oc = p[SM2C_RT_WIN_OC];
    /* a MatMul rounds once in fixed point, as TFLite's FullyConnected */
    const int nearest = transposed && !n->q->scale;
    sm2c_step *s = contraction_step(l, n, nearest ? "sm2c_rt_conv2d_packed_s8_nearest" : "sm2c_rt_conv2d_packed_s8", 5);
    s->args[0] = sm2c_arg_buf(x);
    s->args[1] = buf_of(l, packed_filter(l, n->inputs[1], p, c_src, transposed));
    s->args[2] = buf_of(l, int32_constant(l, bias, oc, sm2c_arena_printf(l->c->arena, "%s/folded_bias",
                                                                         n->name ? n->name : what)));
    s->args[3] = buf_of(l, n->outputs[0]);
    s->args[4] = sm2c_arg_ints(l, SM2C_RT_WIN_PARAMS, p);
    requant_args(l, n, s, 5, (int32_t)oc);
    return s;
}

/* The vector cores' form of a Conv2D without groups: the filter packed and
** (in_zp + 128) times its column sums taken out of the bias at compile time
** (conv_packed_s8.c); 0 (lower as given) when the bias does not fold. */
static int lower_conv_packed(sm2c_lower *l, const sm2c_node *n, int64_t *p)
{
    const int64_t c = p[SM2C_RT_WIN_C], k = p[SM2C_RT_WIN_KH] * p[SM2C_RT_WIN_KW] * c, oc = p[SM2C_RT_WIN_OC];
    const int32_t in_zp = n->inputs[0]->quant->zero_point;
    const int64_t *bias = bias_less_col_sums(l, n, oc, k, 1, oc, (int64_t)in_zp + 128);
    if (!bias)
        return 0;
    /* The folded bias takes back in_zp + 128 times every filter value, so the
    ** copy's padding holds in_zp; its extra channels meet zero filter values. */
    int32_t x = sm2c_lower_buf(l, n->inputs[0]);
    if (sm2c_conv_pads_input_s8(l->target, p, 0))
        x = sm2c_conv_pad_input_s8(l, n, x, p, in_zp, 0);
    packed_step(l, n, x, p, c, 0, bias, "conv");
    return 1;
}

static sm2c_status lower_conv(sm2c_lower *l, const sm2c_node *n)
{
    int64_t p[SM2C_RT_WIN_PARAMS];
    sm2c_status st = sm2c_window_of(l->c, n, 0, p);
    if (st)
        return st;
    int depthwise = op_is(n, "DepthwiseConv2dNative");
    const sm2c_value *f = n->inputs[1];
    const int whole = !depthwise && p[SM2C_RT_WIN_FC] == p[SM2C_RT_WIN_C] && f->constant &&
                      f->constant->dtype == SM2C_DT_INT8 && f->shape.rank == 4;
    /* the Cortex-M form requantizes in fixed point only */
    if (whole && l->target->cortex_m && !n->q->scale)
        return lower_conv_ohwi(l, n, p);
    if (depthwise && l->target->cortex_m && !n->q->scale && f->constant && dw_plane_fits(p))
        return lower_dw_plane(l, n, p);
    /* Not at Os/Oz: the padding of channels to 16 and of rows to groups of 4 costs bytes. */
    if (whole && !l->target->size_level && lower_conv_packed(l, n, p))
        return SM2C_OK;
    int32_t x = sm2c_lower_buf(l, n->inputs[0]);
    if (depthwise && p[SM2C_RT_WIN_FC] == 1 && sm2c_conv_pads_input_s8(l->target, p, 1))
        x = sm2c_conv_pad_input_s8(l, n, x, p, n->inputs[0]->quant->zero_point, 1);
    sm2c_step *s = contraction_step(l, n, depthwise ? "sm2c_rt_depthwise_conv2d_s8" : "sm2c_rt_conv2d_s8", 5);
    s->args[0] = sm2c_arg_buf(x);
    s->args[1] = buf_of(l, n->inputs[1]);
    s->args[2] = n->bias ? buf_of(l, n->bias) : sm2c_arg_null();
    s->args[3] = buf_of(l, n->outputs[0]);
    s->args[4] = sm2c_arg_ints(l, SM2C_RT_WIN_PARAMS, p);
    requant_args(l, n, s, 5, n->q->n_channels);
    return SM2C_OK;
}

/*
** The bias that lets the fully connected kernels take the input zero point as
** to_zp (-128 for VNNI, 0 for the Cortex-M form), the filter [N, K].  VNNI,
** which multiplies x + 128, then subtracts nothing per call, nor does SMLAD
** offset x's pairs.  Every partial sum stays within the overflow proof's
** k * 127 * 255 + |bias| (pass_quantize.c), and so does the new bias; NULL
** (lower as given) when the zero point is to_zp already or the filter or bias
** is not a constant here.
*/
static const int64_t *fc_bias_at_zp(sm2c_lower *l, const sm2c_node *n, int64_t rows_n, int64_t k, int32_t to_zp)
{
    const int64_t zu = (int64_t)n->inputs[0]->quant->zero_point - to_zp;
    return zu == 0 ? NULL : bias_less_col_sums(l, n, rows_n, k, k, 1, zu);
}

/*
** MatMul [rows, k] x [k, n] on the vector cores (not at Os/Oz) as the packed
** Conv2D's 1x1 form over `rows` pixels of k channels: the filter [n, k]
** stored in its layout, so the kernels broadcast four input values to 16
** outputs' sums per vpdpbusd and reduce nothing across lanes, where
** sm2c_rt_fully_connected_s8 sums each output's row in 16 lanes and adds
** them up (one row: runtime/conv_pack_vnni_s8.h's c8p_vnni_1), and reads
** the filter as one stream rather than 16.  The FC autoencoder's int8 time
** went from 2.5 to 2.3 us with --requantize float (bench/run_bench_int8.py,
** same run).  TFLite's FullyConnected rounds once where its convolutions
** round twice (fc_s8.c), so the fixed-point scheme takes the packed kernel's
** _nearest form (packed_step).  0 (lower as given) when k is not a multiple
** of 4 (a row would not be whole groups) or the bias does not fold.
*/
static int lower_fc_packed(sm2c_lower *l, const sm2c_node *n, int64_t rows, int64_t k, int64_t nout)
{
    const int32_t in_zp = n->inputs[0]->quant->zero_point;
    const int64_t *bias = k % 4 ? NULL : bias_less_col_sums(l, n, nout, k, k, 1, (int64_t)in_zp + 128);
    if (!bias || nout > INT32_MAX || rows > INT32_MAX)
        return 0;
    int64_t p[SM2C_RT_WIN_PARAMS] = { 0 };
    p[SM2C_RT_WIN_N] = p[SM2C_RT_WIN_H] = p[SM2C_RT_WIN_OH] = 1;
    p[SM2C_RT_WIN_W] = p[SM2C_RT_WIN_OW] = rows;
    p[SM2C_RT_WIN_C] = p[SM2C_RT_WIN_FC] = k;
    p[SM2C_RT_WIN_KH] = p[SM2C_RT_WIN_KW] = p[SM2C_RT_WIN_SH] = p[SM2C_RT_WIN_SW] = 1;
    p[SM2C_RT_WIN_DH] = p[SM2C_RT_WIN_DW] = 1;
    p[SM2C_RT_WIN_OC] = nout;
    packed_step(l, n, sm2c_lower_buf(l, n->inputs[0]), p, k, 1, bias, "matmul");
    return 1;
}

/* MatMul [rows, k] x [k, n]: the filter was stored transposed, [n, k].  For
** a Cortex-M, with a constant filter, the form that reads it in SMLAD's order
** with the input zero point folded to 0 (fc_m_s8.c); else the input zero
** point folded to -128 (VNNI's). */
static sm2c_status lower_fully_connected(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_shape *x = &n->inputs[0]->shape, *y = &n->outputs[0]->shape;
    const sm2c_tensor *w = n->inputs[1]->constant;
    const int m_form = l->target->cortex_m && !n->q->scale && w && w->dtype == SM2C_DT_INT8 &&
                       w->nelem == y->dims[1] * x->dims[1];
    const int32_t to_zp = m_form ? 0 : -128;
    if (!m_form && !l->target->cortex_m && !l->target->size_level && w && w->dtype == SM2C_DT_INT8 &&
        w->nelem == y->dims[1] * x->dims[1] && lower_fc_packed(l, n, x->dims[0], x->dims[1], y->dims[1]))
        return SM2C_OK;
    const int64_t *bias = fc_bias_at_zp(l, n, y->dims[1], x->dims[1], to_zp);
    sm2c_step *s = contraction_step(l, n, m_form ? "sm2c_rt_fully_connected_m_s8" : "sm2c_rt_fully_connected_s8", 7);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, m_form ? fc_m_filter(l, n->inputs[1], y->dims[1], x->dims[1]) : n->inputs[1]);
    s->args[2] = bias ? sm2c_arg_ints(l, (int32_t)y->dims[1], bias)
                      : n->bias ? buf_of(l, n->bias) : sm2c_arg_null();
    s->args[3] = buf_of(l, n->outputs[0]);
    s->args[4] = sm2c_arg_int(x->dims[0]);
    s->args[5] = sm2c_arg_int(x->dims[1]);
    s->args[6] = sm2c_arg_int(y->dims[1]);
    const int32_t at_zp = requant_args(l, n, s, 7, (int32_t)y->dims[1]);
    if (bias)
        s->args[at_zp] = sm2c_arg_int(to_zp);
    return SM2C_OK;
}

sm2c_status sm2c_q8_lower_pool(sm2c_lower *l, const sm2c_node *n, const char *max_kernel, const char *avg_kernel)
{
    int64_t p[SM2C_RT_WIN_PARAMS];
    sm2c_status st = sm2c_window_of(l->c, n, 1, p);
    if (st)
        return st;
    sm2c_step *s = sm2c_lower_step(l, n, op_is(n, "AvgPool") ? avg_kernel : max_kernel, 3);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->outputs[0]);
    s->args[2] = sm2c_arg_ints(l, SM2C_RT_WIN_PARAMS, p);
    return SM2C_OK;
}

/* Add or Mul with broadcasting: the float binary kernels' strides. */
sm2c_status sm2c_q8_lower_bcast(sm2c_lower *l, const sm2c_node *n, const char *kernel)
{
    const sm2c_shape *y = &n->outputs[0]->shape;
    int32_t rank = y->rank > 0 ? y->rank : 1;
    int64_t *dims = sm2c_arena_array(l->c->arena, (size_t)rank, sizeof *dims);
    int64_t *sa = sm2c_arena_array(l->c->arena, (size_t)rank, sizeof *sa);
    int64_t *sb = sm2c_arena_array(l->c->arena, (size_t)rank, sizeof *sb);
    dims[0] = 1, sa[0] = sb[0] = 0;
    for (int32_t i = 0; i < y->rank; i++)
        dims[i] = y->dims[i];
    if (y->rank > 0) {
        sm2c_op_broadcast_strides(&n->inputs[0]->shape, y, sa);
        sm2c_op_broadcast_strides(&n->inputs[1]->shape, y, sb);
    }
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 8);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->inputs[1]);
    s->args[2] = buf_of(l, n->outputs[0]);
    s->args[3] = sm2c_arg_int(rank);
    s->args[4] = sm2c_arg_ints(l, rank, dims);
    s->args[5] = sm2c_arg_ints(l, rank, sa);
    s->args[6] = sm2c_arg_ints(l, rank, sb);
    s->args[7] = sm2c_q8_int32s(l, 12, n->q->elt);
    return SM2C_OK;
}

/* An Add of two same-shaped tensors on Cortex-M (sm2c_rt_add_lut_s8): each
** input's rescaling a table of its 256 values, made now by the runtime's
** own function, so that the kernel computes the sum's alone (about 62 est.
** cycles an element -> 20 on a Cortex-M4, for 2 KB of flash).  At Os too:
** constant data, a few percent of a residual network's weights for two
** thirds of its Adds' time; Oz keeps the bytes. */
static sm2c_status lower_add_lut(sm2c_lower *l, const sm2c_node *n)
{
    int32_t t[256];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_add_lut_s8", 7);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->inputs[1]);
    s->args[2] = buf_of(l, n->outputs[0]);
    s->args[3] = sm2c_arg_int(sm2c_value_elements(n->outputs[0]));
    for (int32_t which = 0; which < 2; which++) {
        sm2c_rt_add_table_s8(n->q->elt, which, t);
        s->args[4 + which] = sm2c_q8_int32s(l, 256, t);
    }
    s->args[6] = sm2c_q8_int32s(l, 12, n->q->elt);
    return SM2C_OK;
}

static sm2c_status lower_eltwise(sm2c_lower *l, const sm2c_node *n, const char *kernel)
{
    const sm2c_shape *y = &n->outputs[0]->shape;
    if (!sm2c_shape_equal(&n->inputs[0]->shape, y) || !sm2c_shape_equal(&n->inputs[1]->shape, y))
        return sm2c_q8_lower_bcast(l, n, strcmp(kernel, "sm2c_rt_mul_s8") ? "sm2c_rt_add_bcast_s8"
                                                                          : "sm2c_rt_mul_bcast_s8");
    /* --requantize float: an Add of two same-shaped tensors in float (scale[] its two scales) */
    const int frq = n->q->scale && strcmp(kernel, "sm2c_rt_add_s8") == 0;
    /* not at Oz, which keeps the 2 KB */
    if (!frq && l->target->cortex_m && l->target->size_level < 2 && strcmp(kernel, "sm2c_rt_add_s8") == 0)
        return lower_add_lut(l, n);
    sm2c_step *s = sm2c_lower_step(l, n, frq ? "sm2c_rt_add_s8_frq" : kernel, frq ? 7 : 5);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->inputs[1]);
    s->args[2] = buf_of(l, n->outputs[0]);
    s->args[3] = sm2c_arg_int(sm2c_value_elements(n->outputs[0]));
    s->args[4] = sm2c_q8_int32s(l, 12, n->q->elt);
    if (frq) {
        s->args[5] = sm2c_arg_float(n->q->scale[0]);
        s->args[6] = sm2c_arg_float(n->q->scale[1]);
    }
    return SM2C_OK;
}

sm2c_status sm2c_q8_lower_clamp(sm2c_lower *l, const sm2c_node *n, const char *kernel)
{
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 5);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->outputs[0]);
    s->args[2] = sm2c_arg_int(sm2c_value_elements(n->outputs[0]));
    s->args[3] = sm2c_arg_int(n->q->act_min);
    s->args[4] = sm2c_arg_int(n->q->act_max);
    return SM2C_OK;
}

/* Mean over [outer, reduced, inner]: elt[] = { mult, shift, outer, reduced, inner }. */
static sm2c_status lower_mean(sm2c_lower *l, const sm2c_node *n)
{
    const int32_t *e = n->q->elt;
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_mean_s8", 9);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->outputs[0]);
    s->args[2] = sm2c_arg_int(e[2]);
    s->args[3] = sm2c_arg_int(e[3]);
    s->args[4] = sm2c_arg_int(e[4]);
    s->args[5] = sm2c_arg_int(n->inputs[0]->quant->zero_point);
    s->args[6] = sm2c_arg_int(n->outputs[0]->quant->zero_point);
    s->args[7] = sm2c_arg_int(e[0]);
    s->args[8] = sm2c_arg_int(e[1]);
    return SM2C_OK;
}

/* Softmax along the last axis: elt[] = { mult, left_shift, diff_min }. */
static sm2c_status lower_softmax_s8(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_shape *y = &n->outputs[0]->shape;
    int64_t depth = y->dims[y->rank - 1];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_softmax_s8", 7);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->outputs[0]);
    s->args[2] = sm2c_arg_int(depth ? sm2c_value_elements(n->outputs[0]) / depth : 0);
    s->args[3] = sm2c_arg_int(depth);
    for (int32_t k = 0; k < 3; k++)
        s->args[4 + k] = sm2c_arg_int(n->q->elt[k]);
    return SM2C_OK;
}

/* Sigmoid, Tanh and hard-swish by their table, the node's second input. */
static sm2c_status lower_lut(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_lut_s8", 4);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->inputs[1]);
    s->args[2] = buf_of(l, n->outputs[0]);
    s->args[3] = sm2c_arg_int(sm2c_value_elements(n->outputs[0]));
    return SM2C_OK;
}

/* int8 under new parameters: elt[] = { mult, shift }. */
static sm2c_status lower_requantize(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_requantize_s8", 7);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->outputs[0]);
    s->args[2] = sm2c_arg_int(sm2c_value_elements(n->outputs[0]));
    s->args[3] = sm2c_arg_int(n->inputs[0]->quant->zero_point);
    s->args[4] = sm2c_arg_int(n->outputs[0]->quant->zero_point);
    s->args[5] = sm2c_arg_int(n->q->elt[0]);
    s->args[6] = sm2c_arg_int(n->q->elt[1]);
    return SM2C_OK;
}

sm2c_status sm2c_lower_q8(sm2c_lower *l, const sm2c_node *n)
{
    if (n->op == &sm2c_op_quantize_s8 || n->op == &sm2c_op_dequantize_s8)
        return lower_convert(l, n, n->op == &sm2c_op_quantize_s8);
    if (sm2c_node_is_s16(n))
        return sm2c_lower_q16(l, n);
    if (n->op == &sm2c_op_requantize_s8)
        return lower_requantize(l, n);
    switch (n->op->q8) {
    case SM2C_Q8_CONV: return lower_conv(l, n);
    case SM2C_Q8_MATMUL: return lower_fully_connected(l, n);
    case SM2C_Q8_POOL: return sm2c_q8_lower_pool(l, n, "sm2c_rt_max_pool_s8", "sm2c_rt_avg_pool_s8");
    case SM2C_Q8_ADD: return lower_eltwise(l, n, "sm2c_rt_add_s8");
    case SM2C_Q8_MUL: return lower_eltwise(l, n, "sm2c_rt_mul_s8");
    case SM2C_Q8_CLAMP: return sm2c_q8_lower_clamp(l, n, "sm2c_rt_clamp_s8");
    case SM2C_Q8_MEAN: return lower_mean(l, n);
    case SM2C_Q8_SOFTMAX: return lower_softmax_s8(l, n);
    case SM2C_Q8_LOGISTIC:
    case SM2C_Q8_TANH:
    case SM2C_Q8_HARD_SWISH: return lower_lut(l, n);
    default: break;
    }
    /* Data movement (Reshape, Transpose, ConcatV2, Pad with its quantized pad
    ** value, ...): the op's own lowering copies int8 bytes. */
    if (n->n_outputs == 1 && n->outputs[0]->quant && n->op->lower)
        return n->op->lower(l, n);
    return sm2c_lower_unsupported(l, n, "%s has no int8 kernel", n->op->name);
}
