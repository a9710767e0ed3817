/*
** ops_sparse_fill.c: SparseFillEmptyRows(indices int64 [N, R], values [N],
** dense_shape int64 [R], default_value []) -> output_indices [N + D0, R],
** output_values [N + D0], empty_row_indicator bool [D0], reverse_index_map
** int64 [N], D0 = dense_shape[0], a constant.  The outputs' entry count
** depends on the data (N plus the empty rows): indices and values are laid
** out at the bound N + D0 with a count of their own (ops_dyn.c); the reverse
** map shares the input's count when it has one.  The kernel
** (runtime/sparse_fill_rows.c) checks every row index against D0.
*/
#include "ops_common.h"

static sm2c_status fill_dims(sm2c_ctx *c, const sm2c_node *n, int64_t *rows, int64_t *ndims, int64_t *dense_rows)
{
    const sm2c_value *ix = n->inputs[0], *v = n->inputs[1], *d = n->inputs[3];
    const sm2c_tensor *ds = sm2c_op_const_input(c, n, 2, "dense_shape");
    if (!ds)
        return SM2C_ERR_UNSUPPORTED;
    if (ix->dtype != SM2C_DT_INT64 || ix->shape.rank != 2 || ix->shape.dims[1] < 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "indices must be int64 [N, R], not %s %s",
                             sm2c_dtype_name(ix->dtype), sm2c_shape_str(c->arena, &ix->shape));
    *rows = ix->shape.dims[0];
    *ndims = ix->shape.dims[1];
    if (v->shape.rank != 1 || v->shape.dims[0] != *rows || d->shape.rank != 0 || d->dtype != v->dtype)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "values must be [%lld] and default_value a scalar of its "
                             "dtype", (long long)*rows);
    if (ds->shape.rank != 1 || ds->nelem != *ndims)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "dense_shape must have %lld dims", (long long)*ndims);
    *dense_rows = sm2c_op_ints(c, ds)[0];
    if (*dense_rows < 0 || *dense_rows > INT32_MAX - *rows)
        return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "dense_shape[0] %lld is negative or too large",
                             (long long)*dense_rows);
    return SM2C_OK;
}

sm2c_status shape_sparse_fill_empty_rows(sm2c_ctx *c, sm2c_node *n)
{
    int64_t rows, ndims, dense_rows;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = fill_dims(c, n, &rows, &ndims, &dense_rows)))
        return st;
    int64_t dims[2] = { rows + dense_rows, ndims };
    sm2c_op_set(c, n, 0, SM2C_DT_INT64, 2, dims);
    sm2c_op_set(c, n, 1, n->inputs[1]->dtype, 1, dims);
    sm2c_op_set(c, n, 2, SM2C_DT_BOOL, 1, &dense_rows);
    sm2c_op_set(c, n, 3, SM2C_DT_INT64, 1, &rows);
    n->outputs[0]->dyn = n->outputs[1]->dyn = n->outputs[0];
    n->outputs[0]->dyn_dim = n->outputs[1]->dyn_dim = 0;
    if (n->inputs[0]->dyn) {
        n->outputs[3]->dyn = n->inputs[0]->dyn;
        n->outputs[3]->dyn_dim = 0;
    }
    return SM2C_OK;
}

sm2c_status lower_sparse_fill_empty_rows(sm2c_lower *l, const sm2c_node *n)
{
    int64_t rows, ndims, dense_rows;
    sm2c_status st = fill_dims(l->c, n, &rows, &ndims, &dense_rows);
    if (st)
        return st;
    const sm2c_value *ix = n->inputs[0];
    int64_t scratch_len = dense_rows ? 2 * dense_rows : 1;
    sm2c_shape scratch = { 1, &scratch_len };
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_sparse_fill_empty_rows", 14);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, ix));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[2] = sm2c_arg_int(rows);
    s->args[3] = ix->dyn ? sm2c_arg_buf(sm2c_lower_count(l, ix)) : sm2c_arg_null();
    s->args[4] = sm2c_arg_int(ndims);
    s->args[5] = sm2c_arg_int(dense_rows);
    s->args[6] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[3]));
    s->args[7] = sm2c_arg_int(sm2c_abi_elem_size(n->inputs[1]->dtype));
    s->args[8] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[9] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[1]));
    s->args[10] = sm2c_arg_buf(sm2c_lower_count(l, n->outputs[0]));
    s->args[11] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[2]));
    s->args[12] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[3]));
    s->args[13] = sm2c_arg_buf(sm2c_lower_scratch(l, SM2C_DT_INT64, &scratch, n->name));
    return SM2C_OK;
}
