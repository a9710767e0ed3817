/*
** pass_quantize.c: --quantize int8, TFLite's full-integer scheme on the IR.
** requires: fuse, dce, and a float range per value (calibration,
** driver/calibrate.c) or FakeQuant nodes (quantization-aware models).
**
** 1. FakeQuant ranges: an 8-bit per-tensor FakeQuant gives its input and
**    output its nudged range (overriding calibration) and goes away: the
**    quantization it models is what the int8 program does.
** 2. Nodes with an int8 kernel, in order, become int8 when the ranges they
**    need are known: their output value turns int8 with per-tensor asymmetric
**    parameters, a float input gets a QuantizeS8 node (once per value), the
**    constant filter becomes int8 per output channel (symmetric, [-127, 127]),
**    the bias int32, and the requantization multipliers are computed here.
** 3. Every float consumer of an int8 value (and each graph output) reads it
**    through a DequantizeS8 node, so the entry points keep float I/O; with
**    --io int8, graph inputs and outputs with a range are int8 instead: an
**    input's QuantizeS8 goes away, an output gets one if it is float.
** A node whose accumulator could overflow int32 (docs/reliability.md 6.5) stays float.
*/
#include <math.h>
#include <string.h>

#include "load/tensor_proto.h"
#include "ops/opdefs.h"
#include "ops/ops_q8.h"
#include "passes.h"
#include "quant.h"
#include "sm2c_rt.h"

typedef struct qstate {
    sm2c_ctx *c;
    sm2c_graph *g;
    sm2c_range *ranges;         /* [n_ranges], by value id */
    int32_t n_ranges;
    sm2c_value **as_q8;         /* [n_ranges]: a float value's QuantizeS8 output */
    sm2c_value **as_f32;        /* [n_values]: an int8 value's DequantizeS8 output */
    sm2c_node **order;          /* the node list being rebuilt */
    int32_t n_order;
    sm2c_quant_summary *sum;
    unsigned char *propagated;  /* [n_ranges]: range set by same_scale_ranges */
    sm2c_value *fixed_out;      /* the node just rewritten has fixed output parameters */
    int32_t float_requant;      /* --requantize float */
    const sm2c_quant_skip *skip; /* --quantize-skip */
    int32_t s16;                /* --quantize int16x8: activations int16, zero point 0 */
    int32_t qmin, qmax;         /* the activations' integer range */
    int act_dtype;              /* SM2C_DT_INT8 or SM2C_DT_INT16 */
    int32_t weights_bits;       /* --weights-bits */
} qstate;

static const sm2c_qnode convert_q = { 0, NULL, NULL, NULL, NULL, -128, 127, { 0 } };

static sm2c_qnode *new_qnode(qstate *q)
{
    return sm2c_arena_alloc(q->c->arena, sizeof(sm2c_qnode));
}

static int op_is(const sm2c_node *n, const char *name)
{
    return strcmp(n->op->name, name) == 0;
}

static const sm2c_range *range_of(const qstate *q, const sm2c_value *v)
{
    return v->id >= 0 && v->id < q->n_ranges && q->ranges[v->id].known ? &q->ranges[v->id] : NULL;
}

static const sm2c_qparam *qparam_of(qstate *q, const sm2c_value *v)
{
    const sm2c_range *r = range_of(q, v);
    sm2c_qparam p;
    if (!r || !(q->s16 ? sm2c_qparam16_from_range(r->min, r->max, &p) : sm2c_qparam_from_range(r->min, r->max, &p)))
        return NULL;
    sm2c_qparam *out = sm2c_arena_alloc(q->c->arena, sizeof *out);
    *out = p;
    return out;
}

/* Whether v can be read as int8: it is int8, or a computed float with a range. */
static int can_q8(const qstate *q, const sm2c_value *v)
{
    return v->quant || (v->dtype == SM2C_DT_FLOAT && !v->constant && !v->state && range_of(q, v));
}

/* ---- node list surgery ------------------------------------------------------- */

/* The node sm2c_node_new just appended moves to the rebuilt order. */
static sm2c_node *take_new(qstate *q)
{
    sm2c_node *n = q->g->nodes[--q->g->n_nodes];
    q->order[q->n_order++] = n;
    return n;
}

static void set_input(sm2c_node *n, int32_t k, sm2c_value *v)
{
    n->inputs[k]->uses--;
    n->inputs[k] = v;
    v->uses++;
}

/* A QuantizeS8 or DequantizeS8 of v, placed before the node now being visited. */
static sm2c_value *convert(qstate *q, sm2c_value *v, const sm2c_opdef *op, int dtype, const sm2c_qparam *qp)
{
    sm2c_node_new(q->c, q->g, op, NULL, "", 1, &v, 1);
    sm2c_node *n = take_new(q);
    const char *what = op == &sm2c_op_quantize_s8 ? "quantize" : "dequantize";
    n->name = sm2c_arena_printf(q->c->arena, "%s/%s", v->name, what);
    n->function = v->node ? v->node->function : "";
    n->q = &convert_q;
    sm2c_value *out = n->outputs[0];
    out->dtype = dtype;
    out->shape = v->shape;
    out->quant = op == &sm2c_op_quantize_s8 ? qp : NULL;   /* a dequantized value is float */
    out->name = n->name;
    return out;
}

static sm2c_value *q8_input(qstate *q, sm2c_value *v)
{
    if (v->quant)
        return v;
    if (!q->as_q8[v->id])
        q->as_q8[v->id] = convert(q, v, &sm2c_op_quantize_s8, q->act_dtype, qparam_of(q, v));
    return q->as_q8[v->id];
}

static sm2c_value *f32_output(qstate *q, sm2c_value *v)
{
    if (!q->as_f32[v->id])
        q->as_f32[v->id] = convert(q, v, &sm2c_op_dequantize_s8, SM2C_DT_FLOAT, v->quant);
    return q->as_f32[v->id];
}

/* ---- constants --------------------------------------------------------------- */

static sm2c_value *new_const(qstate *q, int dtype, const sm2c_shape *shape, void *data, const char *name)
{
    sm2c_tensor *t = sm2c_arena_alloc(q->c->arena, sizeof *t);
    t->dtype = dtype;
    t->shape = sm2c_shape_make(q->c, shape->rank, shape->dims);
    t->nelem = sm2c_shape_elements(shape, INT64_MAX);
    t->nbytes = (size_t)t->nelem * sm2c_dtype_size(dtype);
    t->data = data;
    return sm2c_new_const(q->c, q->g, t, name);
}

/* The int32 bias: round(b / (in_scale * w_scale[o])), saturated; NULL without one.
** *max_abs gets the largest magnitude, for the overflow proof. */
static int32_t *quantize_bias(qstate *q, const sm2c_value *bias, float in_scale, const float *w_scales,
                              int32_t n_ch, int64_t *max_abs)
{
    *max_abs = 0;
    if (!bias)
        return NULL;
    const float *b = bias->constant->data;
    int32_t *out = sm2c_arena_array(q->c->arena, (size_t)n_ch, sizeof *out);
    for (int32_t o = 0; o < n_ch; o++) {
        double r = round((double)b[o] / ((double)in_scale * (double)w_scales[o]));
        out[o] = r != r ? 0 : r > INT32_MAX ? INT32_MAX : r < -(double)INT32_MAX ? -INT32_MAX : (int32_t)r;
        int64_t a = out[o] < 0 ? -(int64_t)out[o] : out[o];
        if (a > *max_abs)
            *max_abs = a;
    }
    return out;
}

/* The int64 bias of the 16x8 scheme, as TFLite's quantizer computes it
** (SymmetricPerChannelBiasQuantize<int64_t>): in float, b times the float
** inverse of in_scale * w_scale[o], rounded half away from zero. */
static int64_t *quantize_bias64(qstate *q, const sm2c_value *bias, float in_scale, const float *w_scales,
                                int32_t n_ch, int64_t *max_abs)
{
    *max_abs = 0;
    if (!bias)
        return NULL;
    const float *b = bias->constant->data;
    int64_t *out = sm2c_arena_array(q->c->arena, (size_t)n_ch, sizeof *out);
    for (int32_t o = 0; o < n_ch; o++) {
        const float scale = in_scale * w_scales[o];
        const float inv = scale == 0.0f ? 0.0f : (float)(1.0 / (double)scale);
        const float r = roundf(b[o] * inv);
        out[o] = r != r ? 0 : r > 9e18f ? INT64_C(9000000000000000000) : r < -9e18f ? -INT64_C(9000000000000000000)
                                                                                   : (int64_t)r;
        int64_t a = out[o] < 0 ? -out[o] : out[o];
        if (a > *max_abs)
            *max_abs = a;
    }
    return out;
}

/* ---- int8 nodes ---------------------------------------------------------------- */

/* The output clamp of a fused activation, TFLite's CalculateActivationRangeQuantized;
** a clip is a clamp to its bounds. */
static void act_range(const qstate *q, int32_t act, float act_lo, float act_hi, const sm2c_qparam *out,
                      int32_t *lo, int32_t *hi)
{
    const int32_t qmin = q->qmin, qmax = q->qmax;
    *lo = qmin, *hi = qmax;
    if (act == SM2C_RT_ACT_RELU || act == SM2C_RT_ACT_RELU6)
        *lo = out->zero_point > qmin ? out->zero_point : qmin;
    if (act == SM2C_RT_ACT_RELU6) {
        int32_t six = sm2c_quantize_one_in(6.0f, out, qmin, qmax);
        *hi = six < qmax ? six : qmax;
    }
    if (act == SM2C_RT_ACT_CLIP) {
        int32_t l = sm2c_quantize_one_in(act_lo, out, qmin, qmax), h = sm2c_quantize_one_in(act_hi, out, qmin, qmax);
        *lo = l > qmin ? l : qmin;
        *hi = h < qmax ? h : qmax;
    }
}

/* Whether int8 can apply act: the clamps can; LeakyRelu, Sigmoid and
** hard-swish are not clamps, so their kernel stays float. */
static int act_is_clamp(int32_t act)
{
    return act == SM2C_RT_ACT_NONE || act == SM2C_RT_ACT_RELU || act == SM2C_RT_ACT_RELU6 ||
           act == SM2C_RT_ACT_CLIP;
}

/* A contraction's weights, given as float w[n] with channel (i / inner) % n_ch. */
typedef struct contraction {
    const float *w;
    int64_t n, inner;
    int32_t n_ch;
    int64_t k;                  /* products per output, for the overflow proof */
    const sm2c_shape *w_shape;  /* of the int8 filter */
} contraction;

/* Conv2D, DepthwiseConv2dNative or MatMul n becomes int8 (0 when it cannot). */
static int q8_contraction(qstate *q, sm2c_node *n, const contraction *ct)
{
    sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    const sm2c_qparam *out = qparam_of(q, y);
    if (!out || !can_q8(q, x) || n->residual || !act_is_clamp(n->act) ||
        (n->bias && (!n->bias->constant || n->bias->dtype != SM2C_DT_FLOAT ||
                     sm2c_value_elements(n->bias) != ct->n_ch)))
        return 0;
    const sm2c_qparam *in = x->quant ? x->quant : qparam_of(q, x);
    int8_t *wq = sm2c_arena_alloc(q->c->arena, (size_t)ct->n + 1);
    float *scales = sm2c_arena_array(q->c->arena, (size_t)ct->n_ch, sizeof *scales);
    if (q->weights_bits == 4)
        sm2c_quantize_weights_s4(ct->w, ct->n, ct->n_ch, ct->inner, wq, scales);
    else
        sm2c_quantize_weights(ct->w, ct->n, ct->n_ch, ct->inner, wq, scales);
    int64_t bias_max;
    void *bq;
    if (q->s16) {   /* |acc| <= k * 127 * 32768 + |bias| must stay below 2^47 (requant64) */
        bq = quantize_bias64(q, n->bias, in->scale, scales, ct->n_ch, &bias_max);
        if (bias_max >= (INT64_C(1) << 46) || ct->k > ((INT64_C(1) << 46) - bias_max) / (127 * 32768))
            return 0;
    } else {        /* |acc| <= k * 127 * 255 + |bias| must fit int32 */
        bq = quantize_bias(q, n->bias, in->scale, scales, ct->n_ch, &bias_max);
        if (ct->k > (INT32_MAX - bias_max) / (127 * 255))
            return 0;
    }
    sm2c_qnode *qn = sm2c_arena_alloc(q->c->arena, sizeof *qn);
    qn->n_channels = ct->n_ch;
    qn->multiplier = sm2c_arena_array(q->c->arena, (size_t)ct->n_ch, sizeof *qn->multiplier);
    qn->shift = sm2c_arena_array(q->c->arena, (size_t)ct->n_ch, sizeof *qn->shift);
    if (q->s16)
        qn->real = sm2c_arena_array(q->c->arena, (size_t)ct->n_ch, sizeof *qn->real);
    for (int32_t o = 0; o < ct->n_ch; o++) {
        const double real = (double)in->scale * (double)scales[o] / (double)out->scale;
        sm2c_quantize_multiplier(real, &qn->multiplier[o], &qn->shift[o]);
        if (qn->real)
            qn->real[o] = real;
    }
    if (q->float_requant) { /* in float arithmetic, as XNNPACK computes it */
        qn->scale = sm2c_arena_array(q->c->arena, (size_t)ct->n_ch, sizeof *qn->scale);
        for (int32_t o = 0; o < ct->n_ch; o++)
            qn->scale[o] = in->scale * scales[o] / out->scale;
    }
    act_range(q, n->act, n->act_a, n->act_b, out, &qn->act_min, &qn->act_max);
    set_input(n, 0, q8_input(q, x));
    const char *wname = n->inputs[1]->name;
    set_input(n, 1, new_const(q, SM2C_DT_INT8, ct->w_shape, wq, wname));
    n->inputs[1]->uses--;   /* new_const counted the use set_input counts */
    if (bq) {
        sm2c_shape bs = { 1, (int64_t[]){ ct->n_ch } };
        n->bias = new_const(q, q->s16 ? SM2C_DT_INT64 : SM2C_DT_INT32, &bs, bq, n->bias->name);
    }
    y->dtype = q->act_dtype;
    y->quant = out;
    n->q = qn;
    return 1;
}

static int q8_conv(qstate *q, sm2c_node *n)
{
    const sm2c_value *f = n->inputs[1];
    if (!f->constant || f->dtype != SM2C_DT_FLOAT || f->shape.rank != 4)
        return 0;
    int depthwise = op_is(n, "DepthwiseConv2dNative");
    const int64_t *d = f->shape.dims;
    contraction ct = { f->constant->data, sm2c_value_elements(f), 1,
                       (int32_t)(depthwise ? d[2] * d[3] : d[3]), d[0] * d[1] * (depthwise ? 1 : d[2]), &f->shape };
    return q8_contraction(q, n, &ct);
}

/* MatMul x[rows, k] by a constant [k, n]: the int8 filter is stored [n, k]. */
static int q8_matmul(qstate *q, sm2c_node *n)
{
    const sm2c_value *f = n->inputs[1];
    if (!f->constant || f->dtype != SM2C_DT_FLOAT || f->shape.rank != 2 || n->inputs[0]->shape.rank != 2 ||
        sm2c_attr_flag(n, "transpose_a"))
        return 0;
    int tb = sm2c_attr_flag(n, "transpose_b");
    int64_t k = f->shape.dims[tb ? 1 : 0], cols = f->shape.dims[tb ? 0 : 1];
    const float *w = f->constant->data;
    float *wt = sm2c_arena_array(q->c->arena, (size_t)(k * cols) + 1, sizeof *wt);
    for (int64_t i = 0; i < k; i++)
        for (int64_t o = 0; o < cols; o++)
            wt[o * k + i] = tb ? w[o * k + i] : w[i * cols + o];
    sm2c_shape *ws = sm2c_arena_alloc(q->c->arena, sizeof *ws);
    *ws = sm2c_shape_make(q->c, 2, (int64_t[]){ cols, k });
    contraction ct = { wt, k * cols, k, (int32_t)cols, k, ws };
    return q8_contraction(q, n, &ct);
}

/* The Relu or Relu6 that alone reads an Add's output, or NULL.  TFLite's
** converter fuses such an activation into the ADD: the ADD's output takes
** the activation's range (half of it or less, for a Relu after a residual
** Add), and its calibrator logs an in-place input after the fused op ran. */
static sm2c_node *fused_relu_of(const qstate *q, const sm2c_node *add)
{
    if (add->dead || add->act || add->n_outputs != 1 || !(op_is(add, "Add") || op_is(add, "AddV2")))
        return NULL;
    sm2c_node *r = sm2c_sole_user(q->g, add->outputs[0]);
    if (!r || r->act || r->n_inputs != 1 || r->n_outputs != 1 || !(op_is(r, "Relu") || op_is(r, "Relu6")) ||
        !range_of(q, r->outputs[0]) || add->outputs[0]->id >= q->n_ranges)
        return NULL;
    return r;
}

/* TFLite's int8 Add parameters (add.cc, Prepare), its float and double steps kept. */
static int add_params(const qstate *q, const sm2c_qparam *a, const sm2c_qparam *b, const sm2c_qparam *y,
                      int32_t *p)
{
    const int left_shift = q->s16 ? 15 : 20;   /* TFLite's general int16 Add lifts by 2^15 */
    const double twice_max = (double)(2.0f * (a->scale > b->scale ? a->scale : b->scale));
    const double real_out = twice_max / (double)((float)(1 << left_shift) * y->scale);
    if (!(real_out < 1.0))
        return 0;
    p[0] = -a->zero_point, p[1] = -b->zero_point, p[2] = y->zero_point, p[3] = left_shift;
    sm2c_quantize_multiplier((double)a->scale / twice_max, &p[4], &p[5]);
    sm2c_quantize_multiplier((double)b->scale / twice_max, &p[6], &p[7]);
    sm2c_quantize_multiplier(real_out, &p[8], &p[9]);
    p[10] = q->qmin, p[11] = q->qmax;
    return 1;
}

/* TFLite's int8 Mul parameters (mul.cc, Prepare: the real multiplier in float). */
static int mul_params(const sm2c_qparam *a, const sm2c_qparam *b, const sm2c_qparam *y, int32_t *p)
{
    const float real = a->scale * b->scale / y->scale;
    p[0] = -a->zero_point, p[1] = -b->zero_point, p[2] = y->zero_point;
    sm2c_quantize_multiplier((double)real, &p[3], &p[4]);
    p[5] = -128, p[6] = 127;
    return p[3] != 0 && p[4] <= 15;     /* |a * b| < 2^16: lifted by 2^15 at most, it fits int32 */
}

/* A float constant operand's per-tensor parameters, from its own min and max
** (as TFLite's converter quantizes a constant operand); NULL if not finite. */
static const sm2c_qparam *const_qparam(qstate *q, const sm2c_value *v)
{
    const sm2c_tensor *t = v->constant;
    if (!t || t->dtype != SM2C_DT_FLOAT || t->nelem < 1)
        return NULL;
    const float *x = t->data;
    float lo = x[0], hi = x[0];
    for (int64_t i = 1; i < t->nelem; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    sm2c_qparam p;
    if (!sm2c_qparam_from_range(lo, hi, &p))
        return NULL;
    sm2c_qparam *out = sm2c_arena_alloc(q->c->arena, sizeof *out);
    *out = p;
    return out;
}

/* The operand's int8 parameters: its own, its range's, or a constant's. */
static const sm2c_qparam *operand_qparam(qstate *q, const sm2c_value *v)
{
    if (v->quant)
        return v->quant;
    return v->constant ? const_qparam(q, v) : can_q8(q, v) ? qparam_of(q, v) : NULL;
}

/* Operand k of n as int8: a float constant becomes an int8 constant. */
static void q8_operand(qstate *q, sm2c_node *n, int32_t k, const sm2c_qparam *qp)
{
    sm2c_value *v = n->inputs[k];
    if (!v->constant) {
        set_input(n, k, q8_input(q, v));
        return;
    }
    const float *x = v->constant->data;
    int8_t *d = sm2c_arena_alloc(q->c->arena, (size_t)v->constant->nelem);
    for (int64_t i = 0; i < v->constant->nelem; i++)
        d[i] = (int8_t)sm2c_quantize_one(x[i], qp);
    set_input(n, k, new_const(q, SM2C_DT_INT8, &v->shape, d, v->name));
    n->inputs[k]->uses--;   /* new_const counted the use set_input counts */
    n->inputs[k]->quant = qp;
}

/* The Relu or Relu6 after an int8 Add, whose range the Add took
** (fused_relu_ranges), becomes the Add's output clamp (elt[10], elt[11]):
** the activation's readers read the Add. */
static void fuse_relu(qstate *q, sm2c_node *add, sm2c_qnode *qn)
{
    sm2c_node *r = q->sum->fake_quant ? NULL : fused_relu_of(q, add);
    if (!r)
        return;
    act_range(q, op_is(r, "Relu6") ? SM2C_RT_ACT_RELU6 : SM2C_RT_ACT_RELU, 0.0f, 0.0f, add->outputs[0]->quant,
              &qn->elt[10], &qn->elt[11]);
    r->dead = 1;
    add->outputs[0]->uses--;
    sm2c_replace_uses(q->g, r->outputs[0], add->outputs[0]);
}

/* x rounded to 15 significant bits: the float Add's scales, whose products
** with a 9-bit integer are then exact (sm2c_rt_add_s8_frq). */
static float round15(double x)
{
    int e;
    const double m = frexp(x, &e);
    return (float)ldexp(nearbyint(ldexp(m, 15)), e - 15);
}

/* Add or Mul of two values, broadcasting; a constant operand is quantized
** per tensor.  Two constants were folded.  With --requantize float an Add's
** scale[] holds its two inputs' in_scale / out_scale (the float Add). */
static int q8_eltwise(qstate *q, sm2c_node *n, int mul)
{
    sm2c_value *a = n->inputs[0], *b = n->inputs[1], *y = n->outputs[0];
    const sm2c_qparam *out = qparam_of(q, y);
    if (n->n_inputs != 2 || !out || n->act || n->bias || (a->constant && b->constant))
        return 0;
    /* 16x8: Add of two computed values (TFLite's int16 Mul and constant
    ** operands are not done: they stay float) */
    if (q->s16 && (mul || a->constant || b->constant))
        return 0;
    const sm2c_qparam *pa = operand_qparam(q, a), *pb = operand_qparam(q, b);
    if (!pa || !pb)
        return 0;
    sm2c_qnode *qn = sm2c_arena_alloc(q->c->arena, sizeof *qn);
    if (!(mul ? mul_params(pa, pb, out, qn->elt) : add_params(q, pa, pb, out, qn->elt)))
        return 0;
    if (!mul && q->float_requant) {
        qn->scale = sm2c_arena_array(q->c->arena, 2, sizeof *qn->scale);
        qn->scale[0] = round15((double)pa->scale / (double)out->scale);
        qn->scale[1] = round15((double)pb->scale / (double)out->scale);
    }
    q8_operand(q, n, 0, pa);
    q8_operand(q, n, 1, pb);
    y->dtype = q->act_dtype;
    y->quant = out;
    n->q = qn;
    fuse_relu(q, n, qn);
    return 1;
}

/* Data movement that keeps the values (Q8(MOVE) in ops.def): its int8 output
** takes its inputs' parameters, which must all be the same (else it runs in
** float), and the op's own lowering copies bytes.  Pad pads with the pad value
** quantized: Pad gets PadV2's third input for it. */
static int is_movement(const sm2c_node *n)
{
    return n->op->q8 == SM2C_Q8_MOVE;
}

static int same_qparam(const sm2c_qparam *a, const sm2c_qparam *b)
{
    return a && b && a->scale == b->scale && a->zero_point == b->zero_point;
}

/* v (int8) under the parameters out: a RequantizeS8 node, as TFLite's
** converter puts an int8 QUANTIZE before such a Concat input. */
static sm2c_value *requantize(qstate *q, sm2c_value *v, const sm2c_qparam *out)
{
    sm2c_node_new(q->c, q->g, &sm2c_op_requantize_s8, NULL, "", 1, &v, 1);
    sm2c_node *r = take_new(q);
    r->name = sm2c_arena_printf(q->c->arena, "%s/requantize", v->name);
    r->function = v->node ? v->node->function : "";
    sm2c_qnode *qn = new_qnode(q);
    sm2c_quantize_multiplier((double)v->quant->scale / (double)out->scale, &qn->elt[0], &qn->elt[1]);
    r->q = qn;
    sm2c_value *y = r->outputs[0];
    y->dtype = q->act_dtype;
    y->shape = v->shape;
    y->quant = out;
    y->name = r->name;
    return y;
}

/* A Softmax, Sigmoid or Tanh output, whose parameters are fixed, that a
** Concat after it wants under other ones: as TFLite's converter does, one
** requantization right after the op, which every reader reads. */
static void requantize_fixed_output(qstate *q, sm2c_value *y)
{
    const sm2c_qparam *want = y->id < q->n_ranges && q->propagated[y->id] ? qparam_of(q, y) : NULL;
    if (!want || same_qparam(want, y->quant))
        return;
    sm2c_value *r = requantize(q, y, want);
    sm2c_replace_uses(q->g, y, r);   /* the requantization itself is no longer in g->nodes */
    y->uses = 1;
}

/* A Concat of inputs with different parameters: each takes the output's
** calibrated ones, through a requantization where they differ. */
static int q8_concat_requantized(qstate *q, sm2c_node *n)
{
    const sm2c_qparam *out = qparam_of(q, n->outputs[0]);
    if (!out || !n->inputs[n->n_inputs - 1]->constant)
        return 0;
    for (int32_t k = 0; k + 1 < n->n_inputs; k++)
        if (!can_q8(q, n->inputs[k]))
            return 0;
    for (int32_t k = 0; k + 1 < n->n_inputs; k++) {
        sm2c_value *v = q8_input(q, n->inputs[k]);
        set_input(n, k, same_qparam(v->quant, out) ? v : requantize(q, v, out));
    }
    n->outputs[0]->dtype = q->act_dtype;
    n->outputs[0]->quant = out;
    n->q = &convert_q;
    return 1;
}

static int q8_movement(qstate *q, sm2c_node *n)
{
    int32_t n_data = op_is(n, "ConcatV2") ? n->n_inputs - 1 : 1;
    const sm2c_qparam *qp = n->inputs[0]->quant;
    for (int32_t k = 0; k < n_data; k++)
        if (!same_qparam(n->inputs[k]->quant, qp))
            return op_is(n, "ConcatV2") ? q8_concat_requantized(q, n) : 0;
    for (int32_t k = n_data; k < n->n_inputs; k++)
        if (!n->inputs[k]->constant)
            return 0;
    if (op_is(n, "Pad") || op_is(n, "PadV2")) {
        float pad = 0.0f;
        if (n->n_inputs > 2 && (n->inputs[2]->dtype != SM2C_DT_FLOAT || n->inputs[2]->constant->nelem != 1))
            return 0;
        if (n->n_inputs > 2)
            pad = *(const float *)n->inputs[2]->constant->data;
        const int32_t pq = sm2c_quantize_one_in(pad, qp, q->qmin, q->qmax);
        void *v = sm2c_arena_alloc(q->c->arena, 2);
        if (q->s16)
            *(int16_t *)v = (int16_t)pq;
        else
            *(int8_t *)v = (int8_t)pq;
        sm2c_shape scalar = { 0, NULL };
        sm2c_value **in = sm2c_arena_array(q->c->arena, 3, sizeof *in);
        in[0] = n->inputs[0], in[1] = n->inputs[1];
        in[2] = new_const(q, q->act_dtype, &scalar, v, "pad_value");
        if (n->n_inputs > 2)
            n->inputs[2]->uses--;
        n->inputs = in, n->n_inputs = 3;
    }
    n->outputs[0]->dtype = q->act_dtype;
    n->outputs[0]->quant = qp;
    n->q = &convert_q;
    return 1;
}

/* Ops whose output keeps the input's scale and zero point: pools, and Relu
** and Relu6 (a clamp). */
static int q8_same_scale(qstate *q, sm2c_node *n)
{
    sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    if (!can_q8(q, x))
        return 0;
    if (y->shape.rank != 4 && !(op_is(n, "Relu") || op_is(n, "Relu6")))
        return 0;
    set_input(n, 0, q8_input(q, x));
    sm2c_qnode *qn = sm2c_arena_alloc(q->c->arena, sizeof *qn);
    const sm2c_qparam *in = n->inputs[0]->quant;
    int32_t act = op_is(n, "Relu") ? SM2C_RT_ACT_RELU : op_is(n, "Relu6") ? SM2C_RT_ACT_RELU6 : SM2C_RT_ACT_NONE;
    act_range(q, act, 0.0f, 0.0f, in, &qn->act_min, &qn->act_max);
    y->dtype = q->act_dtype;
    y->quant = in;
    n->q = qn;
    return 1;
}

/* ---- activations and reductions with int8 kernels of their own -------------------- */

/* Output parameters TFLite fixes for an op, whatever the calibration saw. */
static const sm2c_qparam *fixed_qparam(qstate *q, float scale, int32_t zero_point)
{
    sm2c_qparam *p = sm2c_arena_alloc(q->c->arena, sizeof *p);
    p->scale = scale;
    p->zero_point = zero_point;
    p->min = scale * (float)(q->qmin - zero_point);
    p->max = scale * (float)(q->qmax - zero_point);
    return p;
}

/* Softmax along the last axis: TFLite's reference int8 Softmax, output 1/256
** zero point -128.  Rows of 512 or more would overflow its Q12.19 sum's
** reciprocal, so they stay float. */
/* Softmax of the 16x8 scheme: TFLite's reference SoftmaxInt16, output 1/32768
** zero point 0, its two interpolated tables (exp on [-10, 0], 1 / (1 + x)
** on [0, 1]) int16 constants appended as the node's inputs 1 and 2. */
static int q16_softmax(qstate *q, sm2c_node *n)
{
    sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    if (!can_q8(q, x) || y->shape.rank < 1)
        return 0;
    const sm2c_qparam *in = x->quant ? x->quant : qparam_of(q, x);
    sm2c_qnode *qn = new_qnode(q);
    sm2c_quantize_multiplier((double)in->scale / (10.0 / 65535.0), &qn->elt[0], &qn->elt[1]);
    if (qn->elt[0] == 0 || qn->elt[1] > 15)
        return 0;
    set_input(n, 0, q8_input(q, x));
    sm2c_shape ts = { 1, (int64_t[]){ SM2C_LUT16_SIZE } };
    sm2c_value **inputs = sm2c_arena_array(q->c->arena, 3, sizeof *inputs);
    inputs[0] = n->inputs[0];
    for (int32_t k = 0; k < 2; k++) {
        int16_t *t = sm2c_arena_array(q->c->arena, SM2C_LUT16_SIZE, sizeof *t);
        sm2c_lut16_table(k ? SM2C_LUT16_RECIP : SM2C_LUT16_EXP, t);
        inputs[1 + k] = new_const(q, SM2C_DT_INT16, &ts, t,
                                  sm2c_arena_printf(q->c->arena, "%s/%s", n->name, k ? "recip_lut" : "exp_lut"));
    }
    n->inputs = inputs, n->n_inputs = 3;
    y->dtype = SM2C_DT_INT16;
    y->quant = fixed_qparam(q, 1.0f / 32768.0f, 0);
    n->q = qn;
    q->fixed_out = y;
    return 1;
}

static int q8_softmax(qstate *q, sm2c_node *n)
{
    sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    if (q->s16)
        return q16_softmax(q, n);
    if (!can_q8(q, x) || y->shape.rank < 1 || y->shape.dims[y->shape.rank - 1] >= 512)
        return 0;
    const sm2c_qparam *in = x->quant ? x->quant : qparam_of(q, x);
    sm2c_qnode *qn = new_qnode(q);
    if (!sm2c_softmax_params(in->scale, &qn->elt[0], &qn->elt[1], &qn->elt[2]))
        return 0;
    set_input(n, 0, q8_input(q, x));
    y->dtype = SM2C_DT_INT8;
    y->quant = fixed_qparam(q, 1.0f / 256.0f, -128);
    n->q = qn;
    q->fixed_out = y;
    return 1;
}

/* n (its input 0 already int8) computes y = table[x]: the table is an int8
** constant appended as its second input. */
static void attach_table(qstate *q, sm2c_node *n, int8_t *table, const sm2c_qparam *out)
{
    sm2c_shape ts = { 1, (int64_t[]){ 256 } };
    sm2c_value **inputs = sm2c_arena_array(q->c->arena, 2, sizeof *inputs);
    inputs[0] = n->inputs[0];
    inputs[1] = new_const(q, SM2C_DT_INT8, &ts, table, sm2c_arena_printf(q->c->arena, "%s/table", n->name));
    n->inputs = inputs, n->n_inputs = 2;
    n->outputs[0]->dtype = SM2C_DT_INT8;
    n->outputs[0]->quant = out;
    n->q = new_qnode(q);
}

/* Sigmoid and Tanh: TFLite's int8 table of the float function, outputs 1/256
** zero point -128 and 1/128 zero point 0.  The table is an int8 constant
** appended as the node's second input. */
static int q8_lut(qstate *q, sm2c_node *n, int fn)
{
    sm2c_value *x = n->inputs[0];
    if (q->s16 || !can_q8(q, x))   /* TFLite's int16 Logistic and Tanh are not done: float */
        return 0;
    const sm2c_qparam *in = x->quant ? x->quant : qparam_of(q, x);
    const sm2c_qparam *out = fn == SM2C_LUT_TANH ? fixed_qparam(q, 1.0f / 128.0f, 0)
                                                 : fixed_qparam(q, 1.0f / 256.0f, -128);
    set_input(n, 0, q8_input(q, x));
    int8_t *table = sm2c_arena_alloc(q->c->arena, 256);
    sm2c_lut_table(fn, in, out, table);
    attach_table(q, n, table, out);
    q->fixed_out = n->outputs[0];
    return 1;
}

/* ---- hard-swish ------------------------------------------------------------------ */

static int scalar_is(const sm2c_value *v, float want)
{
    const sm2c_tensor *t = v->constant;
    return t && t->dtype == SM2C_DT_FLOAT && t->nelem == 1 &&
           fabsf(*(const float *)t->data - want) <= 1e-6f * want;
}

/* The operand of a two-input node beside the constant scalar c, or NULL. */
static sm2c_value *beside_scalar(const sm2c_node *n, float c)
{
    if (n->n_inputs != 2)
        return NULL;
    return scalar_is(n->inputs[1], c) ? n->inputs[0] : scalar_is(n->inputs[0], c) ? n->inputs[1] : NULL;
}

/* The node computing v, when v is read only once (by the pattern). */
static sm2c_node *sole_producer(const qstate *q, const sm2c_value *v, const char *op)
{
    sm2c_node *p = v->node;
    return p && !p->dead && op_is(p, op) && p->n_outputs == 1 && sm2c_uses_of(q->g, v) == 1 ? p : NULL;
}

/* Keras' hard_silu, x * (relu6(x + 3) / 6) (or * (1/6)), the operands in
** either order: x, and the three nodes before the Mul in chain[]. */
static sm2c_value *hard_swish_of(const qstate *q, const sm2c_node *mul, sm2c_node **chain)
{
    for (int32_t k = 0; mul->n_inputs == 2 && k < 2; k++) {
        sm2c_value *x = mul->inputs[k], *r = NULL;
        sm2c_node *d = sole_producer(q, mul->inputs[1 - k], "RealDiv");
        if (d && scalar_is(d->inputs[1], 6.0f))
            r = d->inputs[0];
        if (!d && (d = sole_producer(q, mul->inputs[1 - k], "Mul")) != NULL)
            r = beside_scalar(d, 1.0f / 6.0f);
        sm2c_node *relu = r ? sole_producer(q, r, "Relu6") : NULL;
        sm2c_node *add = relu ? sole_producer(q, relu->inputs[0], "AddV2") : NULL;
        if (relu && !add)
            add = sole_producer(q, relu->inputs[0], "Add");
        if (!add || relu->act || add->act || beside_scalar(add, 3.0f) != x)
            continue;
        chain[0] = add, chain[1] = relu, chain[2] = d;
        return x;
    }
    return NULL;
}

/* Each hard-swish whose ends have ranges becomes one HardSwishS8 node reading
** x (before the int8 rewrite, which visits it like any other node). */
static void find_hard_swish(qstate *q)
{
    for (int32_t i = 0; !q->s16 && i < q->g->n_nodes; i++) {   /* TFLite's 16x8 has no HardSwish */
        sm2c_node *n = q->g->nodes[i], *chain[3];
        int8_t table[256];
        if (n->dead || !op_is(n, "Mul") || n->n_outputs != 1 || n->outputs[0]->dtype != SM2C_DT_FLOAT)
            continue;
        sm2c_value *x = hard_swish_of(q, n, chain);
        const sm2c_qparam *in = x && can_q8(q, x) ? qparam_of(q, x) : NULL, *out = qparam_of(q, n->outputs[0]);
        if (!in || !out || !sm2c_hard_swish_table(in, out, table))
            continue;
        for (int32_t k = 0; k < 3; k++)
            chain[k]->dead = 1;
        n->inputs[0]->uses--, n->inputs[1]->uses--;
        n->inputs = sm2c_arena_array(q->c->arena, 1, sizeof *n->inputs);
        n->inputs[0] = x, n->n_inputs = 1;   /* x keeps the use the dead Add had */
        n->op = &sm2c_op_hard_swish_s8;
    }
}

static int q8_hard_swish(qstate *q, sm2c_node *n)
{
    sm2c_value *x = n->inputs[0];
    const sm2c_qparam *in = x->quant ? x->quant : qparam_of(q, x), *out = qparam_of(q, n->outputs[0]);
    int8_t *table = sm2c_arena_alloc(q->c->arena, 256);
    if (!in || !out || !sm2c_hard_swish_table(in, out, table))
        return 0;   /* find_hard_swish checked both */
    set_input(n, 0, q8_input(q, x));
    attach_table(q, n, table, out);
    return 1;
}

/* Mean over one run of adjacent axes (global average pooling: H and W), as
** TFLite's int8 Mean: elt[] = { mult, shift, outer, reduced, inner }. */
static int q8_mean(qstate *q, sm2c_node *n)
{
    sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    const sm2c_tensor *axes = n->inputs[1]->constant;
    const sm2c_qparam *out = qparam_of(q, y);
    int32_t rank = x->shape.rank;
    if (!out || !can_q8(q, x) || !axes || rank < 1 || rank > 8 || axes->nelem < 1)
        return 0;
    unsigned char red[8] = { 0 };
    for (int64_t i = 0; i < axes->nelem; i++) {
        int64_t a = sm2c_tensor_get_i64(axes, i);
        if (a < -rank || a >= rank)
            return 0;
        red[a < 0 ? a + rank : a] = 1;
    }
    int64_t part[3] = { 1, 1, 1 };   /* outer, reduced, inner */
    int32_t at = 0;
    for (int32_t i = 0; i < rank; i++) {
        if ((at == 0 && red[i]) || (at == 1 && !red[i]))
            at++;
        if (at > 2 || (at == 2 && red[i]))
            return 0;   /* more than one run of reduced axes */
        part[at] *= x->shape.dims[i];
    }
    if (part[1] < 1 || part[1] >= (1 << 23) || part[0] * part[2] > INT32_MAX)
        return 0;
    if (q->s16 && part[1] >= (1 << 16))
        return 0;   /* the int32 sum of r int16 values */
    const sm2c_qparam *in = x->quant ? x->quant : qparam_of(q, x);
    sm2c_qnode *qn = new_qnode(q);
    sm2c_mean_params(in->scale, out->scale, part[1], &qn->elt[0], &qn->elt[1]);
    qn->elt[2] = (int32_t)part[0], qn->elt[3] = (int32_t)part[1], qn->elt[4] = (int32_t)part[2];
    set_input(n, 0, q8_input(q, x));
    y->dtype = q->act_dtype;
    y->quant = out;
    n->q = qn;
    return 1;
}

static int quantize_node(qstate *q, sm2c_node *n)
{
    if (n->n_outputs != 1 || n->outputs[0]->dtype != SM2C_DT_FLOAT || n->outputs[0]->constant ||
        n->widened_from || n->outputs[0]->dyn || sm2c_quant_skipped(q->skip, n))
        return 0;
    switch (n->op->q8) {
    case SM2C_Q8_CONV: return q8_conv(q, n);
    case SM2C_Q8_MATMUL: return q8_matmul(q, n);
    case SM2C_Q8_ADD: return q8_eltwise(q, n, 0);
    case SM2C_Q8_MUL: return q8_eltwise(q, n, 1);
    case SM2C_Q8_POOL:
    case SM2C_Q8_CLAMP: return q8_same_scale(q, n);
    case SM2C_Q8_MOVE: return q8_movement(q, n);
    case SM2C_Q8_SOFTMAX: return q8_softmax(q, n);
    case SM2C_Q8_LOGISTIC: return q8_lut(q, n, SM2C_LUT_LOGISTIC);
    case SM2C_Q8_TANH: return q8_lut(q, n, SM2C_LUT_TANH);
    case SM2C_Q8_MEAN: return q8_mean(q, n);
    case SM2C_Q8_HARD_SWISH: return q8_hard_swish(q, n);
    default: return 0;
    }
}

/* ---- FakeQuant ranges ------------------------------------------------------------ */

/* TensorFlow's nudged range of an 8-bit FakeQuant (fake_quant_ops_functor.h), in float. */
static void nudged(float min, float max, int narrow, sm2c_range *r)
{
    const float qmin = narrow ? 1.0f : 0.0f, qmax = 255.0f;
    const float scale = (max - min) / (qmax - qmin);
    const float zf = qmin - min / scale;
    const float zero = zf < qmin ? qmin : zf > qmax ? qmax : roundf(zf);
    r->min = (qmin - zero) * scale;
    r->max = (qmax - zero) * scale;
    r->known = 1;
}

/* An 8-bit per-tensor FakeQuant's range, 0 when it is not one. */
static int fake_quant_range(const sm2c_node *n, sm2c_range *r)
{
    int64_t bits = 8;
    float lo, hi;
    sm2c_attr_int(n, "num_bits", &bits);
    if (bits != 8 || n->inputs[0]->dtype != SM2C_DT_FLOAT)
        return 0;
    if (op_is(n, "FakeQuantWithMinMaxArgs")) {
        if (!sm2c_attr_float(n, "min", &lo) || !sm2c_attr_float(n, "max", &hi))
            return 0;
    } else if (op_is(n, "FakeQuantWithMinMaxVars")) {
        const sm2c_tensor *a = n->inputs[1]->constant, *b = n->inputs[2]->constant;
        if (!a || !b || a->nelem != 1 || b->nelem != 1 || a->dtype != SM2C_DT_FLOAT || b->dtype != SM2C_DT_FLOAT)
            return 0;
        lo = *(const float *)a->data, hi = *(const float *)b->data;
    } else
        return 0;
    if (!(lo < hi) || !isfinite(lo) || !isfinite(hi))
        return 0;
    nudged(lo, hi, sm2c_attr_flag(n, "narrow_range"), r);
    return 1;
}

static void take_fake_quant_ranges(qstate *q)
{
    for (int32_t i = 0; i < q->g->n_nodes; i++) {
        sm2c_node *n = q->g->nodes[i];
        sm2c_range r;
        /* A FakeQuant of a constant (a weight) was folded: its grid is in the weight. */
        if (n->dead || n->outputs[0]->constant || !fake_quant_range(n, &r) ||
            n->inputs[0]->id >= q->n_ranges || n->outputs[0]->id >= q->n_ranges)
            continue;
        q->ranges[n->inputs[0]->id] = r;
        q->ranges[n->outputs[0]->id] = r;
        n->dead = 1;
        sm2c_replace_uses(q->g, n->outputs[0], n->inputs[0]);
        q->sum->fake_quant++;
    }
}

/* ---- TFLite's choice of ranges ---------------------------------------------------- */

/* Each Add read only by a Relu or Relu6 takes the activation's range. */
static void fused_relu_ranges(qstate *q)
{
    for (int32_t i = 0; i < q->g->n_nodes; i++) {
        const sm2c_node *n = q->g->nodes[i], *r = fused_relu_of(q, n);
        if (r)
            q->ranges[n->outputs[0]->id] = *range_of(q, r->outputs[0]);
    }
}

/* TFLite runs an Add or Mul in place over an input of the output's shape that
** nothing else reads, and its calibrator logs that input after the op ran: the
** input's range becomes the union with the output's.  Doing the same gives
** that value TFLite's parameters (the first such input, as TFLite picks). */
static int shares_output(const qstate *q, const sm2c_node *n, const sm2c_value *v)
{
    const sm2c_value *y = n->outputs[0];
    return v->dtype == SM2C_DT_FLOAT && !v->constant && !v->state && v->node &&
           sm2c_shape_equal(&v->shape, &y->shape) && sm2c_uses_of(q->g, v) == 1;
}

static void inplace_ranges(qstate *q)
{
    for (int32_t i = 0; i < q->g->n_nodes; i++) {
        const sm2c_node *n = q->g->nodes[i];
        if (n->dead || n->n_inputs != 2 || n->n_outputs != 1 || n->outputs[0]->dtype != SM2C_DT_FLOAT ||
            !(op_is(n, "Add") || op_is(n, "AddV2") || op_is(n, "Mul")) || n->inputs[0] == n->inputs[1])
            continue;
        const sm2c_range *out = range_of(q, n->outputs[0]);
        for (int32_t k = 0; out && k < 2; k++) {
            const sm2c_value *v = n->inputs[k];
            if (!shares_output(q, n, v) || !range_of(q, v))
                continue;
            sm2c_range *r = &q->ranges[v->id];
            r->min = out->min < r->min ? out->min : r->min;
            r->max = out->max > r->max ? out->max : r->max;
            break;
        }
    }
}

/* Whether v's int8 parameters are fixed by the op computing it (TFLite's). */
static int fixed_output(const sm2c_value *v)
{
    const sm2c_node *p = v->node;
    return p && (op_is(p, "Softmax") || op_is(p, "Sigmoid") || op_is(p, "Tanh"));
}

/* TFLite's converter gives the ops that must keep their input's parameters
** (pools, Pad, Concat, Reshape and the like) one set, taken downstream: the
** last such op's calibrated range goes back up the chain to the value that
** starts it.  Walking the nodes backwards does the same. */
static void same_scale_ranges(qstate *q)
{
    for (int32_t i = q->g->n_nodes - 1; i >= 0; i--) {
        const sm2c_node *n = q->g->nodes[i];
        if (n->dead || n->n_outputs != 1 || !(is_movement(n) || n->op->q8 == SM2C_Q8_POOL))
            continue;
        const sm2c_range *out = range_of(q, n->outputs[0]);
        int32_t n_data = op_is(n, "ConcatV2") ? n->n_inputs - 1 : 1;
        for (int32_t k = 0; out && k < n_data; k++) {
            const sm2c_value *v = n->inputs[k];
            /* One input with fixed parameters keeps them (they go forward);
            ** a Concat's own parameters win over its inputs'. */
            if (fixed_output(v) && !op_is(n, "ConcatV2"))
                continue;
            if (v->dtype == SM2C_DT_FLOAT && !v->constant && !v->state && range_of(q, v)) {
                q->ranges[v->id] = *out;
                q->propagated[v->id] = 1;
            }
        }
    }
}

/* ---- the pass -------------------------------------------------------------------- */

static int is_convert(const sm2c_node *n)
{
    return n->op == &sm2c_op_quantize_s8 || n->op == &sm2c_op_dequantize_s8 || n->op == &sm2c_op_requantize_s8;
}

/* --io int8: each float graph input with a range is int8 itself; the
** QuantizeS8 that read it goes away. */
static void int8_inputs(qstate *q)
{
    for (int32_t k = 0; k < q->g->n_inputs; k++) {
        sm2c_value *v = q->g->inputs[k].value;
        if (v->dtype != SM2C_DT_FLOAT || v->id >= q->n_ranges || !range_of(q, v))
            continue;
        sm2c_value *qv = q->as_q8[v->id];
        v->quant = qv ? qv->quant : qparam_of(q, v);
        v->dtype = SM2C_DT_INT8;
        if (!v->quant) {
            v->dtype = SM2C_DT_FLOAT;
            continue;
        }
        if (qv) {
            qv->node->dead = 1;
            v->uses--;
            sm2c_replace_uses(q->g, qv, v);
        }
    }
}

/* --io int8: a float graph output with a range gets a QuantizeS8. */
static void int8_outputs(qstate *q)
{
    for (int32_t k = 0; k < q->g->n_outputs; k++) {
        sm2c_value *v = q->g->outputs[k].value;
        if (v->dtype == SM2C_DT_FLOAT && !v->constant && can_q8(q, v))
            q->g->outputs[k].value = q8_input(q, v);
    }
}

/* Float nodes and graph outputs read int8 values through a DequantizeS8. */
static void dequantize_uses(qstate *q, sm2c_node **old, int32_t n_old, int io_int8)
{
    q->n_order = 0;
    for (int32_t i = 0; i < n_old; i++) {
        sm2c_node *n = old[i];
        for (int32_t k = 0; !n->dead && !n->q && k < n->n_inputs; k++)
            if (n->inputs[k]->quant)
                set_input(n, k, f32_output(q, n->inputs[k]));
        if (!n->dead && !n->q && n->residual && n->residual->quant)
            n->residual = f32_output(q, n->residual);
        q->order[q->n_order++] = n;
    }
    if (io_int8) {
        int8_outputs(q);
        return;
    }
    for (int32_t k = 0; k < q->g->n_outputs; k++)
        if (q->g->outputs[k].value->quant)
            q->g->outputs[k].value = f32_output(q, q->g->outputs[k].value);
}

static void install_order(qstate *q)
{
    q->g->nodes = sm2c_arena_array(q->c->arena, (size_t)q->n_order + 1, sizeof *q->g->nodes);
    memcpy(q->g->nodes, q->order, (size_t)q->n_order * sizeof *q->order);
    q->g->n_nodes = q->n_order;
    q->g->cap_nodes = q->n_order + 1;
    for (int32_t i = 0; i < q->n_order; i++)
        q->g->nodes[i]->id = i;
}

static void count(qstate *q)
{
    for (int32_t i = 0; i < q->g->n_nodes; i++) {
        const sm2c_node *n = q->g->nodes[i];
        if (n->dead || is_convert(n))
            continue;
        if (n->q)
            q->sum->int8_nodes++;
        else
            q->sum->float_nodes++;
    }
}

sm2c_status sm2c_pass_quantize(sm2c_ctx *c, sm2c_graph *g, sm2c_range *ranges, int32_t n_ranges,
                               const sm2c_quant_opts *qo, sm2c_quant_summary *sum)
{
    const int io_int8 = qo->io_int8;
    qstate q = { c, g, ranges, n_ranges, NULL, NULL, NULL, 0, sum, NULL, NULL, qo->float_requant, &qo->skip,
                 qo->int16, qo->int16 ? -32768 : -128, qo->int16 ? 32767 : 127,
                 qo->int16 ? SM2C_DT_INT16 : SM2C_DT_INT8,
                 qo->weights_bits };
    q.propagated = sm2c_arena_alloc(c->arena, (size_t)n_ranges + 1);
    memset(q.propagated, 0, (size_t)n_ranges + 1);
    take_fake_quant_ranges(&q);
    if (!sum->fake_quant) {
        fused_relu_ranges(&q);
        inplace_ranges(&q);
        if (!q.s16)   /* the 16x8 quantizer gives those ops their input's parameters */
            same_scale_ranges(&q);
    }
    find_hard_swish(&q);
    int32_t n_old = g->n_nodes;
    /* Each node gains at most one converter per input and output. */
    int32_t cap = 0;
    for (int32_t i = 0; i < n_old; i++)
        cap += 1 + g->nodes[i]->n_inputs + g->nodes[i]->n_outputs;
    cap += g->n_outputs + 1;
    sm2c_node **old = sm2c_arena_array(c->arena, (size_t)n_old + 1, sizeof *old);
    memcpy(old, g->nodes, (size_t)n_old * sizeof *old);
    q.order = sm2c_arena_array(c->arena, (size_t)cap, sizeof *q.order);
    q.as_q8 = sm2c_arena_array(c->arena, (size_t)n_ranges + 1, sizeof *q.as_q8);
    for (int32_t i = 0; i < n_old; i++) {
        if (!old[i]->dead)
            quantize_node(&q, old[i]);
        q.order[q.n_order++] = old[i];
        if (q.fixed_out)
            requantize_fixed_output(&q, q.fixed_out);   /* after the node, before its readers */
        q.fixed_out = NULL;
    }
    install_order(&q);
    if (io_int8)
        int8_inputs(&q);
    n_old = g->n_nodes;
    old = sm2c_arena_array(c->arena, (size_t)n_old + 1, sizeof *old);
    memcpy(old, g->nodes, (size_t)n_old * sizeof *old);
    q.as_f32 = sm2c_arena_array(c->arena, (size_t)g->n_values + 1, sizeof *q.as_f32);
    dequantize_uses(&q, old, n_old, io_int8);
    install_order(&q);
    count(&q);
    return SM2C_OK;
}
