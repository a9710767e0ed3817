/*
** ops_search.c: UpperBound and LowerBound (tf.searchsorted, and TFT's
** bucketize): sorted_inputs [B, N], values [B, M] -> out_type [B, M], for
** each value the index in its row of sorted_inputs where std::upper_bound /
** std::lower_bound puts it (runtime/search_sorted.c follows their binary
** search step for step, so unsorted rows and NaNs give TensorFlow's answer).
*/
#include "ops_common.h"

static int out_type(const sm2c_node *n)
{
    const Tensorflow__AttrValue *t = sm2c_attr(n, "out_type");
    return t && t->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? sm2c_dtype_base((int)t->type)
                                                                   : SM2C_DT_INT32;
}

sm2c_status shape_search_sorted(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_value *s = n->inputs[0], *v = n->inputs[1];
    if (s->shape.rank != 2 || v->shape.rank != 2 || s->shape.dims[0] != v->shape.dims[0])
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "sorted_inputs %s and values %s must be [B, N] and [B, M]",
                             sm2c_shape_str(c->arena, &s->shape), sm2c_shape_str(c->arena, &v->shape));
    if (s->dtype != v->dtype)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "sorted_inputs is %s but values %s",
                             sm2c_dtype_name(s->dtype), sm2c_dtype_name(v->dtype));
    if (out_type(n) != SM2C_DT_INT32 && out_type(n) != SM2C_DT_INT64)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "out_type must be int32 or int64");
    sm2c_op_set(c, n, 0, out_type(n), 2, v->shape.dims);
    return SM2C_OK;
}

sm2c_status lower_search_sorted(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *s = n->inputs[0], *v = n->inputs[1];
    if (s->dtype != SM2C_DT_FLOAT && s->dtype != SM2C_DT_INT32 && s->dtype != SM2C_DT_INT64)
        return sm2c_lower_unsupported(l, n, "sorted_inputs must be float32, int32 or int64");
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_search_sorted_%s_%s", sm2c_kernel_suffix(s->dtype),
                                           sm2c_kernel_suffix(out_type(n)));
    sm2c_step *st = sm2c_lower_step(l, n, kernel, 7);
    st->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, s));
    st->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, v));
    st->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    st->args[3] = sm2c_arg_int(v->shape.dims[0]);
    st->args[4] = sm2c_arg_int(s->shape.dims[1]);
    st->args[5] = sm2c_arg_int(v->shape.dims[1]);
    st->args[6] = sm2c_arg_int(strcmp(n->op->name, "UpperBound") == 0);
    return SM2C_OK;
}
