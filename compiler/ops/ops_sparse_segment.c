/*
** ops_sparse_segment.c: SparseSegmentSum, SparseSegmentMean and
** SparseSegmentSqrtN(data float [D0, ...], indices [K], segment_ids [K]):
** rows data[indices[i]] summed into rows segment_ids[i] (then divided by the
** segment's count, or its square root) of a result of last id + 1 rows.
** That row count is known before the run when
**   - the ids are constants (checked sorted here, as TensorFlow does), or
**   - they are column 0 of SparseFillEmptyRows' indices (every row of its
**     constant dense_shape[0] has an entry, in order: the count is D0),
** and the result is static; otherwise it depends on the data: laid out at
** the bound K with a count of its own (ops_dyn.c).  The kernel
** (runtime/sparse_segment.c) checks at run time every index against data's
** rows (their count, when data has one: Unique's ResourceGather), the ids
** sorted and within the rows, and a static count.
*/
#include "ops_common.h"

static int mode_of(const sm2c_node *n)
{
    const char *op = n->op->name;
    return strcmp(op, "SparseSegmentMean") == 0 ? 1 : strcmp(op, "SparseSegmentSqrtN") == 0 ? 2 : 0;
}

static int const_is(sm2c_ctx *c, const sm2c_value *v, int64_t n, const int64_t *want)
{
    if (!v->constant || v->constant->nelem != n)
        return 0;
    int64_t *got = sm2c_op_ints(c, v->constant);
    for (int64_t i = 0; i < n; i++)
        if (got[i] != want[i])
            return 0;
    return 1;
}

/* Rows D0 when ids is column 0 of a SparseFillEmptyRows' output_indices
** (through Cast): StridedSlice [:, 0] of it.  -1 otherwise. */
static int64_t filled_rows(sm2c_ctx *c, const sm2c_value *ids)
{
    static const int64_t zero2[2] = { 0, 0 }, col1[2] = { 0, 1 }, ones[2] = { 1, 1 };
    while (ids->node && strcmp(ids->node->op->name, "Cast") == 0)
        ids = ids->node->inputs[0];
    const sm2c_node *s = ids->node;
    if (!s || strcmp(s->op->name, "StridedSlice") != 0 || s->n_inputs != 4)
        return -1;
    const sm2c_value *x = s->inputs[0];
    if (!x->node || strcmp(x->node->op->name, "SparseFillEmptyRows") != 0 || x->index != 0 ||
        !x->node->inputs[2]->constant)
        return -1;
    if (!const_is(c, s->inputs[1], 2, zero2) || !const_is(c, s->inputs[2], 2, col1) ||
        !const_is(c, s->inputs[3], 2, ones) || sm2c_attr_i(s, "shrink_axis_mask") != 2 ||
        (sm2c_attr_i(s, "begin_mask") & 2) || (sm2c_attr_i(s, "end_mask") & 2) ||
        sm2c_attr_i(s, "ellipsis_mask") || sm2c_attr_i(s, "new_axis_mask"))
        return -1;
    return sm2c_op_ints(c, x->node->inputs[2]->constant)[0];
}

/* The result's rows: exact (*exact 1) or a bound on them. */
static sm2c_status segment_rows(sm2c_ctx *c, const sm2c_node *n, int64_t *rows, int *exact)
{
    const sm2c_value *x = n->inputs[0], *ix = n->inputs[1], *ids = n->inputs[2];
    if (x->dtype != SM2C_DT_FLOAT || x->shape.rank < 1)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "data must be float32 of rank 1 or more");
    if (ix->shape.rank != 1 || ids->shape.rank != 1 || ix->shape.dims[0] != ids->shape.dims[0] ||
        (ix->dtype != SM2C_DT_INT32 && ix->dtype != SM2C_DT_INT64) ||
        (ids->dtype != SM2C_DT_INT32 && ids->dtype != SM2C_DT_INT64))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "indices and segment_ids must be int32 or int64 vectors of "
                             "one length");
    *exact = 1;
    if (ids->constant) {
        int64_t *v = sm2c_op_ints(c, ids->constant), k = ids->constant->nelem;
        for (int64_t i = 0; i < k; i++)
            if (v[i] < 0 || (i > 0 && v[i] < v[i - 1]))
                return sm2c_op_error(c, n, SM2C_ERR_INVALID, "segment_ids must be sorted and non-negative "
                                     "(id %lld at %lld)", (long long)v[i], (long long)i);
        *rows = k ? v[k - 1] + 1 : 0;
    } else if ((*rows = filled_rows(c, ids)) < 0) {
        *exact = 0;
        *rows = ids->shape.dims[0];
    }
    if (*rows > INT32_MAX)
        return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "%lld segments are too many", (long long)*rows);
    return SM2C_OK;
}

sm2c_status shape_sparse_segment(sm2c_ctx *c, sm2c_node *n)
{
    int64_t rows, dims[SM2C_RT_MAX_RANK];
    int exact;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = segment_rows(c, n, &rows, &exact)))
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    dims[0] = rows;
    for (int32_t d = 1; d < x->rank; d++)
        dims[d] = x->dims[d];
    sm2c_op_set(c, n, 0, SM2C_DT_FLOAT, x->rank, dims);
    if (!exact) {
        n->outputs[0]->dyn = n->outputs[0];
        n->outputs[0]->dyn_dim = 0;
    }
    return SM2C_OK;
}

sm2c_status lower_sparse_segment(sm2c_lower *l, const sm2c_node *n)
{
    int64_t rows;
    int exact;
    sm2c_status st = segment_rows(l->c, n, &rows, &exact);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0], *ix = n->inputs[1], *ids = n->inputs[2], *y = n->outputs[0];
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_sparse_segment_f32_%s_%s",
                                           sm2c_kernel_suffix(ix->dtype), sm2c_kernel_suffix(ids->dtype));
    const sm2c_value *cnt = ix->dyn ? ix : ids->dyn ? ids : NULL;
    int64_t row = 1;
    for (int32_t d = 1; d < x->shape.rank; d++)
        row *= x->shape.dims[d];
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 12);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_int(x->shape.dims[0]);
    s->args[2] = x->dyn ? sm2c_arg_buf(sm2c_lower_count(l, x)) : sm2c_arg_null();
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, ix));
    s->args[4] = sm2c_arg_buf(sm2c_lower_buf(l, ids));
    s->args[5] = sm2c_arg_int(ids->shape.dims[0]);
    s->args[6] = cnt ? sm2c_arg_buf(sm2c_lower_count(l, cnt)) : sm2c_arg_null();
    s->args[7] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[8] = sm2c_arg_int(rows);
    s->args[9] = exact ? sm2c_arg_null() : sm2c_arg_buf(sm2c_lower_count(l, y));
    s->args[10] = sm2c_arg_int(row);
    s->args[11] = sm2c_arg_int(mode_of(n));
    return SM2C_OK;
}
