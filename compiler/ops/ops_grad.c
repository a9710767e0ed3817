/*
** ops_grad.c: the gradient ops tf.GradientTape puts in training signatures.
** BroadcastGradientArgs folds (its inputs are the static shapes of the two
** operands); BiasAddGrad is a sum over every axis but the channel one.  The
** elementwise gradients (TanhGrad, SigmoidGrad, ReluGrad, Relu6Grad) are
** binary ops of ops_elementwise.c's table with kernels in runtime/grad_f32.c.
*/
#include "ops_common.h"

/* TensorFlow's BCast reduction indices: none when the shapes are equal; else
** every output axis where an operand (padded with leading 1s) has size 1,
** also where both do. */
static int64_t reduce_axes(const int64_t *s, int64_t ls, const int64_t *other, int64_t lo, int64_t *axes)
{
    int64_t rank = ls > lo ? ls : lo, n = 0;
    if (ls == lo && memcmp(s, other, (size_t)ls * sizeof *s) == 0)
        return 0;
    for (int64_t i = 0; i < rank; i++) {
        int64_t k = i - (rank - ls);
        if (k < 0 || s[k] == 1)
            axes[n++] = i;
    }
    return n;
}

sm2c_status shape_broadcast_gradient_args(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_tensor *t0 = st ? NULL : sm2c_op_const_input(c, n, 0, "s0");
    const sm2c_tensor *t1 = t0 ? sm2c_op_const_input(c, n, 1, "s1") : NULL;
    if (!t1)
        return st ? st : SM2C_ERR_UNSUPPORTED;
    int64_t *s0 = sm2c_op_ints(c, t0), *s1 = sm2c_op_ints(c, t1), l0 = t0->nelem, l1 = t1->nelem;
    int64_t rank = l0 > l1 ? l0 : l1, out[SM2C_RT_MAX_RANK];
    if (n->inputs[0]->shape.rank != 1 || n->inputs[1]->shape.rank != 1 || rank > SM2C_RT_MAX_RANK)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "s0 and s1 must be shapes (vectors of at most %d dims)",
                             SM2C_RT_MAX_RANK);
    if (sm2c_broadcast_dims((int32_t)l0, s0, (int32_t)l1, s1, out))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "shapes of %lld and %lld dims do not broadcast",
                             (long long)l0, (long long)l1);
    int dt = n->inputs[0]->dtype;
    int64_t axes[SM2C_RT_MAX_RANK];
    for (int32_t k = 0; k < 2; k++) {
        int64_t len = k == 0 ? reduce_axes(s0, l0, s1, l1, axes) : reduce_axes(s1, l1, s0, l0, axes);
        sm2c_op_set(c, n, k, dt, 1, &len);
        n->outputs[k]->constant = sm2c_op_int_tensor(c, dt, 1, axes, len);
    }
    return SM2C_OK;
}

/* ---- BiasAddGrad ---------------------------------------------------------------------- */

static int32_t channel_axis(const sm2c_node *n, int32_t rank)
{
    return sm2c_attr_str_is(n, "data_format", "NCHW") ? 1 : rank - 1;
}

sm2c_status shape_bias_add_grad(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    if (x->rank < 2)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "out_backprop %s must have at least 2 dims",
                             sm2c_shape_str(c->arena, x));
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, 1, &x->dims[channel_axis(n, x->rank)]);
    return SM2C_OK;
}

static void sum_step(sm2c_lower *l, const sm2c_node *n, int32_t x, int32_t y, int64_t outer, int64_t reduce,
                     int64_t inner)
{
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_reduce_sum_f32", 5);
    s->args[0] = sm2c_arg_buf(x);
    s->args[1] = sm2c_arg_buf(y);
    s->args[2] = sm2c_arg_int(outer);
    s->args[3] = sm2c_arg_int(reduce);
    s->args[4] = sm2c_arg_int(inner);
}

/* [outer, C, inner] summed to [C]: over inner first (into [outer, C]), then over outer. */
sm2c_status lower_bias_add_grad(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    if (y->dtype != SM2C_DT_FLOAT)
        return sm2c_lower_unsupported(l, n, "BiasAddGrad on %s is not supported", sm2c_dtype_name(y->dtype));
    int32_t axis = channel_axis(n, x->shape.rank);
    int64_t outer = 1, inner = 1, ch = x->shape.dims[axis];
    for (int32_t i = 0; i < axis; i++)
        outer *= x->shape.dims[i];
    for (int32_t i = axis + 1; i < x->shape.rank; i++)
        inner *= x->shape.dims[i];
    int32_t xb = sm2c_lower_buf(l, x), yb = sm2c_lower_buf(l, y);
    if (inner == 1) {
        sum_step(l, n, xb, yb, 1, outer, ch);
        return SM2C_OK;
    }
    int64_t rows[2] = { outer, ch };
    sm2c_shape tmp_shape = sm2c_shape_make(l->c, 2, rows);
    int32_t tmp = sm2c_lower_scratch(l, SM2C_DT_FLOAT, &tmp_shape, "bias_add_grad_rows");
    sum_step(l, n, xb, tmp, outer * ch, inner, 1);
    sum_step(l, n, tmp, yb, 1, outer, ch);
    return SM2C_OK;
}
