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
