/*
** ops_string.c: ops on string tensors (sm2c_string elements).
**
**   StringToHashBucketFast(input; num_buckets): int64 of input's shape, each
**   string's Fingerprint64 (farmhash, runtime/string_hash.c) modulo
**   num_buckets, bit-exact with TensorFlow.
*/
#include "ops_common.h"

sm2c_status shape_string_to_hash_bucket(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    if (x->dtype != SM2C_DT_STRING)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input is %s, not string", sm2c_dtype_name(x->dtype));
    if (sm2c_attr_i(n, "num_buckets") < 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "num_buckets must be at least 1, not %lld",
                             (long long)sm2c_attr_i(n, "num_buckets"));
    sm2c_op_set(c, n, 0, SM2C_DT_INT64, x->shape.rank, x->shape.dims);
    return SM2C_OK;
}

sm2c_status lower_string_to_hash_bucket(sm2c_lower *l, const sm2c_node *n)
{
    /* num_buckets may not fit an int32 argument: its high and low 32 bits,
    ** the low ones as the int32 of the same bit pattern */
    int64_t buckets = sm2c_attr_i(n, "num_buckets"), lo = buckets & 0xffffffff;
    if (lo > INT32_MAX)
        lo -= (int64_t)1 << 32;
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_string_to_hash_bucket", 5);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_int(sm2c_value_elements(n->inputs[0]));
    s->args[3] = sm2c_arg_int(buckets >> 32);
    s->args[4] = sm2c_arg_int(lo);
    return SM2C_OK;
}

/*
**   AsString(input): string of input's shape, TensorFlow's text for each
**   int32, int64 or float32 element with the default attributes (precision
**   -1, not scientific or shortest, no width or fill; others are refused).
**   The text goes into an arena buffer of one fixed slot per element
**   (runtime/as_string.c), kept to the end of the entry: the string elements
**   point into it, wherever they go later (an output included).  Of a
**   string, with those defaults, TensorFlow gives the strings themselves: an
**   alias.
*/
static int64_t as_string_slot(int dtype)
{
    switch (dtype) {
    case SM2C_DT_INT32: return SM2C_RT_AS_STRING_I32_SLOT;
    case SM2C_DT_INT64: return SM2C_RT_AS_STRING_I64_SLOT;
    case SM2C_DT_FLOAT: return SM2C_RT_AS_STRING_F32_SLOT;
    default: return 0;
    }
}

sm2c_status shape_as_string(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    if (!as_string_slot(x->dtype) && x->dtype != SM2C_DT_STRING)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "AsString of %s is not supported (int32, int64, float32, "
                             "string)",
                             sm2c_dtype_name(x->dtype));
    const char *fill = sm2c_attr_str(c, n, "fill");
    if (sm2c_attr_i(n, "precision") != -1 || sm2c_attr_i(n, "width") != -1 || sm2c_attr_flag(n, "scientific") ||
        sm2c_attr_flag(n, "shortest") || (fill && fill[0]))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "AsString with precision, width, fill, scientific or "
                             "shortest set is not supported (only the defaults)");
    sm2c_op_set(c, n, 0, SM2C_DT_STRING, x->shape.rank, x->shape.dims);
    return SM2C_OK;
}

sm2c_status lower_as_string(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    if (x->dtype == SM2C_DT_STRING) {   /* the strings themselves (TensorFlow's defaults) */
        sm2c_lower_alias(l, n->outputs[0], x);
        return SM2C_OK;
    }
    int64_t count = sm2c_value_elements(x), dims[1] = { count * as_string_slot(x->dtype) };
    sm2c_shape text = { 1, dims };
    int32_t buf = sm2c_lower_scratch(l, SM2C_DT_UINT8, &text, "AsString text");
    l->entry->buffers[buf].pinned = 1;
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "as_string", x->dtype), 4);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_buf(buf);
    s->args[3] = sm2c_arg_int(count);
    return SM2C_OK;
}
