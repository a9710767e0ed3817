/*
** ops_q16.c: lowering of the nodes pass_quantize.c made int16 (--quantize
** int16x8, TFLite's 16x8 scheme).  The nodes are the int8 ones (RequantizeS8
** at the seams, the same sm2c_qnode parameters; ops_q8.c lowers QuantizeS8
** and DequantizeS8 for both widths) with int16 values; this picks the _s16
** kernels, which take no zero points (they are 0) and int64 biases.  The filters keep
** TensorFlow's layout, except for a Cortex-M, whose Conv2D and
** FullyConnected read them as the int8 SMLAD kernels do (conv_ohwi_s16.c).
*/
#include "ops_q16.h"

#include "ops_common.h"
#include "ops_q8.h"

static int op_is(const sm2c_node *n, const char *name)
{
    return strcmp(n->op->name, name) == 0;
}

static sm2c_arg buf_of(sm2c_lower *l, const sm2c_value *v)
{
    return sm2c_arg_buf(sm2c_lower_buf(l, v));
}

int sm2c_node_is_s16(const sm2c_node *n)
{
    return n->n_outputs == 1 && n->outputs[0]->dtype == SM2C_DT_INT16;
}

/* The requantization and clamp a contraction ends with, from args[at]. */
static void requant_args(sm2c_lower *l, const sm2c_node *n, sm2c_step *s, int32_t at)
{
    s->args[at] = sm2c_q8_int32s(l, n->q->n_channels, n->q->multiplier);
    s->args[at + 1] = sm2c_q8_int32s(l, n->q->n_channels, n->q->shift);
    s->args[at + 2] = sm2c_arg_int(n->q->act_min);
    s->args[at + 3] = sm2c_arg_int(n->q->act_max);
}

static sm2c_status lower_conv(sm2c_lower *l, const sm2c_node *n)
{
    int64_t p[SM2C_RT_WIN_PARAMS];
    sm2c_status st = sm2c_window_of(l->c, n, 0, p);
    if (st)
        return st;
    const int depthwise = op_is(n, "DepthwiseConv2dNative");
    if (!depthwise && p[SM2C_RT_WIN_FC] != p[SM2C_RT_WIN_C])
        return sm2c_lower_unsupported(l, n, "grouped Conv2D has no int16 kernel");
    if (!depthwise && l->target->cortex_m && n->inputs[1]->constant) {
        const int64_t k = p[SM2C_RT_WIN_KH] * p[SM2C_RT_WIN_KW] * p[SM2C_RT_WIN_C], dims[1] = { k + 2 };
        sm2c_shape cs = sm2c_shape_make(l->c, 1, dims);
        sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_conv2d_ohwi_s16", 10);
        s->args[0] = buf_of(l, n->inputs[0]);
        s->args[1] = buf_of(l, sm2c_q8_ohwi_filter(l, n->inputs[1], 0));
        s->args[2] = n->bias ? buf_of(l, n->bias) : sm2c_arg_null();
        s->args[3] = buf_of(l, n->outputs[0]);
        s->args[4] = sm2c_arg_ints(l, SM2C_RT_WIN_PARAMS, p);
        requant_args(l, n, s, 5);
        s->args[9] = sm2c_arg_buf(sm2c_lower_scratch(l, SM2C_DT_INT16, &cs, "conv window"));
        return SM2C_OK;
    }
    sm2c_step *s = sm2c_lower_step(l, n, depthwise ? "sm2c_rt_depthwise_conv2d_s16" : "sm2c_rt_conv2d_s16", 9);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->inputs[1]);
    s->args[2] = n->bias ? buf_of(l, n->bias) : sm2c_arg_null();
    s->args[3] = buf_of(l, n->outputs[0]);
    s->args[4] = sm2c_arg_ints(l, SM2C_RT_WIN_PARAMS, p);
    requant_args(l, n, s, 5);
    return SM2C_OK;
}

/* MatMul [rows, k] x [k, n]: the filter was stored transposed, [n, k]; the
** scales in double a constant buffer. */
static sm2c_status lower_fully_connected(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_shape *x = &n->inputs[0]->shape, *y = &n->outputs[0]->shape;
    sm2c_tensor *t = sm2c_op_vector(l, SM2C_DT_DOUBLE, n->q->n_channels);
    memcpy(t->data, n->q->real, (size_t)n->q->n_channels * sizeof *n->q->real);
    const sm2c_value *scale = sm2c_op_constant(l, t, sm2c_arena_printf(l->c->arena, "%s/requant_scale", n->name));
    const int m_form = l->target->cortex_m && n->inputs[1]->constant;
    sm2c_step *s = sm2c_lower_step(l, n, m_form ? "sm2c_rt_fully_connected_m_s16" : "sm2c_rt_fully_connected_s16", 10);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, m_form ? sm2c_q8_ohwi_filter(l, n->inputs[1], 1) : n->inputs[1]);
    s->args[2] = n->bias ? buf_of(l, n->bias) : sm2c_arg_null();
    s->args[3] = buf_of(l, n->outputs[0]);
    s->args[4] = sm2c_arg_int(x->dims[0]);
    s->args[5] = sm2c_arg_int(x->dims[1]);
    s->args[6] = sm2c_arg_int(y->dims[1]);
    s->args[7] = buf_of(l, scale);
    s->args[8] = sm2c_arg_int(n->q->act_min);
    s->args[9] = sm2c_arg_int(n->q->act_max);
    return SM2C_OK;
}

/* Add of two computed values, broadcasting as the float binary kernels. */
static sm2c_status lower_add(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_shape *y = &n->outputs[0]->shape;
    if (sm2c_shape_equal(&n->inputs[0]->shape, y) && sm2c_shape_equal(&n->inputs[1]->shape, y)) {
        sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_add_s16", 5);
        s->args[0] = buf_of(l, n->inputs[0]);
        s->args[1] = buf_of(l, n->inputs[1]);
        s->args[2] = buf_of(l, n->outputs[0]);
        s->args[3] = sm2c_arg_int(sm2c_value_elements(n->outputs[0]));
        s->args[4] = sm2c_q8_int32s(l, 12, n->q->elt);
        return SM2C_OK;
    }
    return sm2c_q8_lower_bcast(l, n, "sm2c_rt_add_bcast_s16");
}

/* Mean over [outer, reduced, inner]: elt[] = { mult, shift, outer, reduced, inner }. */
static sm2c_status lower_mean(sm2c_lower *l, const sm2c_node *n)
{
    const int32_t *e = n->q->elt;
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_mean_s16", 7);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->outputs[0]);
    s->args[2] = sm2c_arg_int(e[2]);
    s->args[3] = sm2c_arg_int(e[3]);
    s->args[4] = sm2c_arg_int(e[4]);
    s->args[5] = sm2c_arg_int(e[0]);
    s->args[6] = sm2c_arg_int(e[1]);
    return SM2C_OK;
}

/* Softmax along the last axis: elt[] = { mult, shift }, the tables inputs 1 and 2. */
static sm2c_status lower_softmax_s16(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_shape *y = &n->outputs[0]->shape;
    const int64_t depth = y->dims[y->rank - 1];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_softmax_s16", 8);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->outputs[0]);
    s->args[2] = sm2c_arg_int(depth ? sm2c_value_elements(n->outputs[0]) / depth : 0);
    s->args[3] = sm2c_arg_int(depth);
    s->args[4] = sm2c_arg_int(n->q->elt[0]);
    s->args[5] = sm2c_arg_int(n->q->elt[1]);
    s->args[6] = buf_of(l, n->inputs[1]);
    s->args[7] = buf_of(l, n->inputs[2]);
    return SM2C_OK;
}

static sm2c_status lower_requantize(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_requantize_s16", 5);
    s->args[0] = buf_of(l, n->inputs[0]);
    s->args[1] = buf_of(l, n->outputs[0]);
    s->args[2] = sm2c_arg_int(sm2c_value_elements(n->outputs[0]));
    s->args[3] = sm2c_arg_int(n->q->elt[0]);
    s->args[4] = sm2c_arg_int(n->q->elt[1]);
    return SM2C_OK;
}

sm2c_status sm2c_lower_q16(sm2c_lower *l, const sm2c_node *n)
{
    if (n->op == &sm2c_op_requantize_s8)
        return lower_requantize(l, n);
    switch (n->op->q8) {
    case SM2C_Q8_CONV: return lower_conv(l, n);
    case SM2C_Q8_MATMUL: return lower_fully_connected(l, n);
    case SM2C_Q8_POOL: return sm2c_q8_lower_pool(l, n, "sm2c_rt_max_pool_s16", "sm2c_rt_avg_pool_s16");
    case SM2C_Q8_ADD: return lower_add(l, n);
    case SM2C_Q8_CLAMP: return sm2c_q8_lower_clamp(l, n, "sm2c_rt_clamp_s16");
    case SM2C_Q8_MEAN: return lower_mean(l, n);
    case SM2C_Q8_SOFTMAX: return lower_softmax_s16(l, n);
    default: break;
    }
    /* Data movement (Reshape, Transpose, ConcatV2, Pad with its quantized pad
    ** value, ...): the op's own lowering copies int16 values. */
    if (n->n_outputs == 1 && n->outputs[0]->quant && n->op->lower)
        return n->op->lower(l, n);
    return sm2c_lower_unsupported(l, n, "%s has no int16 kernel", n->op->name);
}
