/*
** ops_update.c: ops whose result is an input with some of it overwritten:
** TensorScatterUpdate (slices written at run-time index tuples, each checked
** by the kernel: SM2C_RT_ERR_INDEX, as TensorFlow's CPU kernel errors) and
** XlaDynamicUpdateSlice (keras.ops.slice_update: a box written at run-time
** start indices, clamped as XLA defines).  Each lowers to a copy of the
** input into the output and one kernel that writes the update over it.
*/
#include "ops_common.h"

/* Product of dims[from, to). */
static int64_t span(const sm2c_shape *s, int32_t from, int32_t to)
{
    int64_t p = 1;
    for (int32_t i = from; i < to; i++)
        p *= s->dims[i];
    return p;
}

/* "i32" or "i64" for int32 and int64 indices, else reports and returns NULL. */
static const char *index_suffix(sm2c_ctx *c, const sm2c_node *n, const sm2c_value *idx, const char *what)
{
    if (idx->dtype == SM2C_DT_INT32)
        return "i32";
    if (idx->dtype == SM2C_DT_INT64)
        return "i64";
    sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "%s of type %s", what, sm2c_dtype_name(idx->dtype));
    return NULL;
}

/* The whole of x into buffer yb (same shape and type). */
static void copy_whole(sm2c_lower *l, const sm2c_node *n, const sm2c_value *x, int32_t yb)
{
    int64_t count = sm2c_value_elements(x), one = 1;
    if (count > 0)
        sm2c_op_copy(l, n, sm2c_lower_buf(l, x), 0, &one, yb, 0, &one, 1, &count, x->dtype);
}

/* ---- TensorScatterUpdate ----------------------------------------------------------- */

/* TensorScatterUpdate(tensor, indices, updates): indices [..., k] with k <=
** rank, updates = indices.shape[:-1] + tensor.shape[k:]. */
static sm2c_status scatter_update_of(sm2c_ctx *c, const sm2c_node *n, int32_t *k)
{
    const sm2c_shape *t = &n->inputs[0]->shape, *x = &n->inputs[1]->shape, *u = &n->inputs[2]->shape;
    if (!index_suffix(c, n, n->inputs[1], "indices"))
        return SM2C_ERR_UNSUPPORTED;
    if (x->rank < 1 || x->dims[x->rank - 1] > t->rank || n->inputs[2]->dtype != n->inputs[0]->dtype)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "indices %s do not index tensor %s",
                             sm2c_shape_str(c->arena, x), sm2c_shape_str(c->arena, t));
    *k = (int32_t)x->dims[x->rank - 1];
    int ok = u->rank == x->rank - 1 + t->rank - *k;
    for (int32_t i = 0; ok && i < u->rank; i++)
        ok = u->dims[i] == (i < x->rank - 1 ? x->dims[i] : t->dims[i - (x->rank - 1) + *k]);
    if (!ok)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "updates %s do not match indices %s into tensor %s",
                             sm2c_shape_str(c->arena, u), sm2c_shape_str(c->arena, x),
                             sm2c_shape_str(c->arena, t));
    return SM2C_OK;
}

sm2c_status shape_scatter_update(sm2c_ctx *c, sm2c_node *n)
{
    int32_t k;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = scatter_update_of(c, n, &k)))
        return st;
    const sm2c_value *t = n->inputs[0], *idx = n->inputs[1];
    if (idx->constant)
        for (int64_t i = 0; i < idx->constant->nelem; i++) {
            int64_t v = sm2c_tensor_get_i64(idx->constant, i), hi = t->shape.dims[i % k];
            if (v < 0 || v >= hi)
                return sm2c_op_error(c, n, SM2C_ERR_INVALID, "constant index %lld (element %lld) is not in [0, %lld)",
                                     (long long)v, (long long)i, (long long)hi);
        }
    sm2c_op_set(c, n, 0, t->dtype, t->shape.rank, t->shape.dims);
    return SM2C_OK;
}

sm2c_status lower_scatter_update(sm2c_lower *l, const sm2c_node *n)
{
    int32_t k;
    sm2c_status st = scatter_update_of(l->c, n, &k);
    if (st)
        return st;
    const sm2c_value *t = n->inputs[0], *idx = n->inputs[1], *y = n->outputs[0];
    int32_t yb = sm2c_lower_buf(l, y);
    copy_whole(l, n, t, yb);
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_scatter_update_%s",
                                           index_suffix(l->c, n, idx, "indices"));
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 8);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, idx));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->args[2] = sm2c_arg_buf(yb);
    s->args[3] = sm2c_arg_int(span(&idx->shape, 0, idx->shape.rank - 1));
    s->args[4] = sm2c_arg_int(k);
    s->args[5] = sm2c_arg_ints(l, k > 0 ? k : 1, k > 0 ? t->shape.dims : (const int64_t[]){ 1 });
    s->args[6] = sm2c_arg_int(span(&t->shape, k, t->shape.rank));
    s->args[7] = sm2c_arg_int((int64_t)sm2c_abi_elem_size(t->dtype));
    return SM2C_OK;
}

/* ---- XlaDynamicUpdateSlice --------------------------------------------------------- */

/* XlaDynamicUpdateSlice(input, update, indices): update of input's rank,
** each dim at most input's; indices a vector of rank int32 or int64 starts. */
static sm2c_status update_slice_of(sm2c_ctx *c, const sm2c_node *n)
{
    const sm2c_shape *x = &n->inputs[0]->shape, *u = &n->inputs[1]->shape, *i = &n->inputs[2]->shape;
    if (!index_suffix(c, n, n->inputs[2], "start indices"))
        return SM2C_ERR_UNSUPPORTED;
    int ok = u->rank == x->rank && n->inputs[1]->dtype == n->inputs[0]->dtype && i->rank == 1 &&
             i->dims[0] == x->rank;
    for (int32_t d = 0; ok && d < x->rank; d++)
        ok = u->dims[d] <= x->dims[d];
    if (!ok)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "update %s with indices %s does not fit input %s",
                             sm2c_shape_str(c->arena, u), sm2c_shape_str(c->arena, i),
                             sm2c_shape_str(c->arena, x));
    return SM2C_OK;
}

sm2c_status shape_update_slice(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = update_slice_of(c, n)))
        return st;
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, n->inputs[0]->shape.rank, n->inputs[0]->shape.dims);
    return SM2C_OK;
}

sm2c_status lower_update_slice(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_status st = update_slice_of(l->c, n);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0], *u = n->inputs[1];
    int32_t yb = sm2c_lower_buf(l, n->outputs[0]), rank = x->shape.rank;
    copy_whole(l, n, x, yb);
    if (sm2c_value_elements(u) == 0)
        return SM2C_OK;
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_update_slice_%s",
                                           index_suffix(l->c, n, n->inputs[2], "start indices"));
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 7);
    s->args[0] = sm2c_arg_buf(yb);
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, u));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->args[3] = sm2c_arg_int(rank);
    s->args[4] = sm2c_arg_ints(l, rank > 0 ? rank : 1, rank > 0 ? x->shape.dims : (const int64_t[]){ 1 });
    s->args[5] = sm2c_arg_ints(l, rank > 0 ? rank : 1, rank > 0 ? u->shape.dims : (const int64_t[]){ 1 });
    s->args[6] = sm2c_arg_int((int64_t)sm2c_abi_elem_size(x->dtype));
    return SM2C_OK;
}
