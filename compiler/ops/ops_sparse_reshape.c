/*
** ops_sparse_reshape.c: SparseReshape(input_indices [N, R_in], input_shape
** [R_in], new_shape [R_out]) -> output_indices [N, R_out], output_shape
** [R_out], all int64.  Both shapes must be constants: new_shape's one -1 is
** resolved and the element counts compared here (TensorFlow's errors), so
** output_shape is a constant and the kernel (runtime/sparse_reshape.c) moves
** each index row through its row-major position, checking it against
** input_shape.  Index rows with a data-dependent count (Where's, a sparse
** feature's) keep it (ops_dyn.c).
*/
#include "ops_common.h"

/* The constant shape input i as int32-sized dims; its rank in *rank. */
static sm2c_status shape_input(sm2c_ctx *c, const sm2c_node *n, int32_t i, const char *what, int64_t **dims,
                               int32_t *rank)
{
    const sm2c_tensor *t = sm2c_op_const_input(c, n, i, what);
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    if (t->shape.rank != 1 || t->nelem < 1 || t->nelem > SM2C_RT_MAX_RANK)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "%s must be a vector of 1 to %d dims", what,
                             SM2C_RT_MAX_RANK);
    *dims = sm2c_op_ints(c, t);
    *rank = (int32_t)t->nelem;
    return SM2C_OK;
}

/* new_shape with its -1 resolved against the input's element count. */
static sm2c_status resolve(sm2c_ctx *c, const sm2c_node *n, const int64_t *in, int32_t r_in, int64_t *out,
                           int32_t r_out)
{
    int64_t total = 1, known = 1;
    int32_t unknown = -1;
    for (int32_t d = 0; d < r_in; d++) {
        if (in[d] < 0 || in[d] > INT32_MAX || (in[d] && total > INT64_MAX / in[d]))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input_shape dim %d (%lld) is negative or too large",
                                 (int)d, (long long)in[d]);
        total *= in[d];
    }
    for (int32_t d = 0; d < r_out; d++) {
        if (out[d] == -1 && unknown < 0) {
            unknown = d;
            continue;
        }
        if (out[d] < 0 || out[d] > INT32_MAX || (out[d] && known > INT64_MAX / out[d]))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "new_shape dim %d (%lld) is invalid", (int)d,
                                 (long long)out[d]);
        known *= out[d];
    }
    if (unknown >= 0) {
        if (known == 0 || total % known)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "cannot infer the -1 of new_shape: %lld values over "
                                 "%lld", (long long)total, (long long)known);
        out[unknown] = total / known;
        known = total;
    }
    if (known != total || out[unknown >= 0 ? unknown : 0] > INT32_MAX)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input_shape has %lld dense values, new_shape %lld",
                             (long long)total, (long long)known);
    return SM2C_OK;
}

static sm2c_status reshape_dims(sm2c_ctx *c, const sm2c_node *n, int64_t **in, int32_t *r_in, int64_t **out,
                                int32_t *r_out)
{
    const sm2c_value *ix = n->inputs[0];
    int64_t *ns = NULL;
    sm2c_status st = shape_input(c, n, 1, "input_shape", in, r_in);
    if (st || (st = shape_input(c, n, 2, "new_shape", &ns, r_out)))
        return st;
    if (ix->dtype != SM2C_DT_INT64 || ix->shape.rank != 2 || ix->shape.dims[1] != *r_in)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input_indices must be int64 [N, %d], not %s %s", (int)*r_in,
                             sm2c_dtype_name(ix->dtype), sm2c_shape_str(c->arena, &ix->shape));
    *out = sm2c_arena_array(c->arena, (size_t)*r_out, sizeof **out);
    memcpy(*out, ns, (size_t)*r_out * sizeof **out);
    return resolve(c, n, *in, *r_in, *out, *r_out);
}

sm2c_status shape_sparse_reshape(sm2c_ctx *c, sm2c_node *n)
{
    int64_t *in, *out;
    int32_t r_in, r_out;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = reshape_dims(c, n, &in, &r_in, &out, &r_out)))
        return st;
    int64_t dims[2] = { n->inputs[0]->shape.dims[0], r_out }, len = r_out;
    sm2c_op_set(c, n, 0, SM2C_DT_INT64, 2, dims);
    sm2c_op_set(c, n, 1, SM2C_DT_INT64, 1, &len);
    n->outputs[1]->constant = sm2c_op_int_tensor(c, SM2C_DT_INT64, 1, out, r_out);
    return SM2C_OK;
}

sm2c_status lower_sparse_reshape(sm2c_lower *l, const sm2c_node *n)
{
    int64_t *in, *out;
    int32_t r_in, r_out;
    sm2c_status st = reshape_dims(l->c, n, &in, &r_in, &out, &r_out);
    if (st)
        return st;
    const sm2c_value *ix = n->inputs[0];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_sparse_reshape", 8);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, ix));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_int(ix->shape.dims[0]);
    s->args[3] = ix->dyn ? sm2c_arg_buf(sm2c_lower_count(l, ix)) : sm2c_arg_null();
    s->args[4] = sm2c_arg_int(r_in);
    s->args[5] = sm2c_arg_ints(l, r_in, in);
    s->args[6] = sm2c_arg_int(r_out);
    s->args[7] = sm2c_arg_ints(l, r_out, out);
    return SM2C_OK;
}
