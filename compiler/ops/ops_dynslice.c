/*
** ops_dynslice.c: StridedSlice whose begin (and end) are computed at run time,
** the x[i] that loops over tf.range index with.  Supported: every indexed dim
** is a shrink (one element, chosen at run time and bounds-checked by the
** kernel); every other dim is taken whole; no ellipsis or new axes.
*/
#include "ops_common.h"

int sm2c_dyn_slice(const sm2c_node *n)
{
    return strcmp(n->op->name, "StridedSlice") == 0 && n->n_inputs == 4 && n->inputs[3]->constant &&
           (!n->inputs[1]->constant || !n->inputs[2]->constant);
}

/* Per input dim: whether a run-time index picks it (else it is whole). */
static sm2c_status indexed_dims(sm2c_ctx *c, const sm2c_node *n, unsigned char *indexed, int32_t *n_begin)
{
    const sm2c_value *x = n->inputs[0], *b = n->inputs[1];
    const sm2c_tensor *ts = n->inputs[3]->constant;
    int64_t bmask = sm2c_attr_i(n, "begin_mask"), emask = sm2c_attr_i(n, "end_mask");
    int64_t shrink = sm2c_attr_i(n, "shrink_axis_mask");
    if (sm2c_attr_i(n, "ellipsis_mask") || sm2c_attr_i(n, "new_axis_mask"))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                             "a StridedSlice with run-time begin cannot also use ellipsis or new axes");
    if (b->dtype != SM2C_DT_INT32 || b->shape.rank != 1 || b->shape.dims[0] != ts->nelem ||
        ts->nelem > x->shape.rank)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                             "a StridedSlice with run-time begin needs int32 begin with at most one entry per dim");
    *n_begin = (int32_t)ts->nelem;
    for (int32_t i = 0; i < x->shape.rank; i++) {
        indexed[i] = i < *n_begin && ((shrink >> i) & 1);
        int whole = i >= *n_begin || (((bmask >> i) & 1) && ((emask >> i) & 1));
        if ((i < *n_begin && sm2c_tensor_get_i64(ts, i) != 1) || (!indexed[i] && !whole))
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                                 "a StridedSlice with run-time begin must take single elements (x[i]) or "
                                 "whole dims with stride 1 (dim %d does not)", i);
    }
    return SM2C_OK;
}

sm2c_status sm2c_shape_dyn_slice(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    unsigned char indexed[SM2C_RT_MAX_RANK];
    int32_t n_begin;
    if (st || (st = indexed_dims(c, n, indexed, &n_begin)))
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    int64_t dims[SM2C_RT_MAX_RANK];
    int32_t r = 0;
    for (int32_t i = 0; i < x->rank; i++)
        if (!indexed[i])
            dims[r++] = x->dims[i];
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, r, dims);
    return SM2C_OK;
}

sm2c_status sm2c_lower_dyn_slice(sm2c_lower *l, const sm2c_node *n)
{
    unsigned char indexed[SM2C_RT_MAX_RANK];
    int32_t n_begin;
    sm2c_status st = indexed_dims(l->c, n, indexed, &n_begin);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    int64_t xs[SM2C_RT_MAX_RANK], sel_dims[SM2C_RT_MAX_RANK], sel_strides[SM2C_RT_MAX_RANK];
    int64_t dims[SM2C_RT_MAX_RANK], strides[SM2C_RT_MAX_RANK];
    sm2c_op_strides(&x->shape, xs);
    int32_t r = 0;
    for (int32_t i = 0; i < x->shape.rank; i++) {
        if (i < n_begin) {
            sel_dims[i] = indexed[i] ? x->shape.dims[i] : 0;
            sel_strides[i] = xs[i];
        }
        if (!indexed[i]) {
            dims[r] = x->shape.dims[i];
            strides[r++] = xs[i];
        }
    }
    if (r == 0)   /* a single element: a box of one */
        dims[r] = 1, strides[r++] = 1;
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_slice_at", 10);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[2] = sm2c_arg_int(n_begin);
    s->args[3] = sm2c_arg_ints(l, n_begin, sel_dims);
    s->args[4] = sm2c_arg_ints(l, n_begin, sel_strides);
    s->args[5] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[6] = sm2c_arg_int(r);
    s->args[7] = sm2c_arg_ints(l, r, dims);
    s->args[8] = sm2c_arg_ints(l, r, strides);
    s->args[9] = sm2c_arg_int((int64_t)sm2c_dtype_size(x->dtype));
    return SM2C_OK;
}
