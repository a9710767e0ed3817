/*
** ops_quant.c: quantization-aware training's float ops: FakeQuantWithMinMaxArgs,
** FakeQuantWithMinMaxVars and FakeQuantWithMinMaxVarsPerChannel, computed as
** TensorFlow does in float (runtime/fake_quant_f32.c).  On constant inputs
** (the weights of a quantization-aware layer) they fold.
*/
#include "ops_common.h"

#include <string.h>

/* num_bits and narrow_range, checked as TF's kernels check them. */
static sm2c_status quant_attrs(sm2c_ctx *c, const sm2c_node *n, int64_t *bits, int *narrow)
{
    *bits = sm2c_attr_i(n, "num_bits");
    *narrow = sm2c_attr_flag(n, "narrow_range");
    if (*bits < 2 || *bits > 16)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "num_bits is %lld; it must be between 2 and 16 inclusive",
                             (long long)*bits);
    return SM2C_OK;
}

static int per_channel(const sm2c_node *n)
{
    return strcmp(n->op->name, "FakeQuantWithMinMaxVarsPerChannel") == 0;
}

sm2c_status shape_fake_quant(sm2c_ctx *c, sm2c_node *n)
{
    int64_t bits;
    int narrow;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (!st)
        st = quant_attrs(c, n, &bits, &narrow);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    if (x->dtype != SM2C_DT_FLOAT)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "%s on %s is not supported (float32)", n->op->name,
                             sm2c_dtype_name(x->dtype));
    if (n->n_inputs == 1) {  /* Args: the range is two attrs */
        float min = -6.0f, max = 6.0f;
        sm2c_attr_float(n, "min", &min);
        sm2c_attr_float(n, "max", &max);
        if (!(min < max))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "min (%g) must be smaller than max (%g)", min, max);
    } else {
        int64_t want = 1;
        if (per_channel(n)) {
            if (x->shape.rank < 1 || x->shape.rank > 4)
                return sm2c_op_error(c, n, SM2C_ERR_INVALID, "inputs must have rank 1 to 4 (it is %s)",
                                     sm2c_shape_str(c->arena, &x->shape));
            want = x->shape.dims[x->shape.rank - 1];
        }
        for (int32_t i = 1; i < 3; i++) {
            const sm2c_value *b = n->inputs[i];
            if (b->dtype != SM2C_DT_FLOAT || sm2c_value_elements(b) != want || b->shape.rank != per_channel(n))
                return sm2c_op_error(c, n, SM2C_ERR_INVALID, "%s must be %s float32, not %s %s",
                                     i == 1 ? "min" : "max", per_channel(n) ? "a vector of one per channel of" : "a",
                                     sm2c_dtype_name(b->dtype), sm2c_shape_str(c->arena, &b->shape));
        }
    }
    sm2c_op_set(c, n, 0, x->dtype, x->shape.rank, x->shape.dims);
    return SM2C_OK;
}

static sm2c_status lower_fake_quant_args(sm2c_lower *l, const sm2c_node *n, int64_t bits, int narrow)
{
    float min = -6.0f, max = 6.0f;
    sm2c_attr_float(n, "min", &min);
    sm2c_attr_float(n, "max", &max);
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_fake_quant_args_f32", 7);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_int(sm2c_value_elements(n->inputs[0]));
    s->args[3] = sm2c_arg_float(min);
    s->args[4] = sm2c_arg_float(max);
    s->args[5] = sm2c_arg_int(bits);
    s->args[6] = sm2c_arg_int(narrow);
    return SM2C_OK;
}

sm2c_status lower_fake_quant(sm2c_lower *l, const sm2c_node *n)
{
    int64_t bits;
    int narrow;
    sm2c_status st = quant_attrs(l->c, n, &bits, &narrow);
    if (st)
        return st;
    if (n->n_inputs == 1)
        return lower_fake_quant_args(l, n, bits, narrow);
    const sm2c_value *x = n->inputs[0];
    int64_t channels = per_channel(n) ? x->shape.dims[x->shape.rank - 1] : 1;
    int64_t count = sm2c_value_elements(x);
    /* TF multiplies by 1/scale per channel and divides per tensor: the level
    ** can differ at a rounding tie (fake_quant_f32.c). */
    int mode = per_channel(n) ? 0 : 1;
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_fake_quant_vars_f32", 9);
    for (int32_t i = 0; i < 3; i++)
        s->args[i] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[i]));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[4] = sm2c_arg_int(channels ? count / channels : 0);
    s->args[5] = sm2c_arg_int(channels);
    s->args[6] = sm2c_arg_int(bits);
    s->args[7] = sm2c_arg_int(narrow);
    s->args[8] = sm2c_arg_int(mode);
    return SM2C_OK;
}
