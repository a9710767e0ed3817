/*
** ops_segment.c: UnsortedSegmentSum/Prod/Max/Min (data, segment_ids,
** num_segments) and SegmentSum/Max/Min/Mean (data, segment_ids).
** Output: [segments] + data.shape[ids.rank:].  num_segments must be a
** compile-time constant; the sorted ops take their segment count from the last
** id, so their ids must be constants (checked sorted here, as TensorFlow
** checks them).  The ids are checked again at run time by the kernel
** (runtime/segment.c).
*/
#include "ops_common.h"

static int is_sorted_op(const sm2c_node *n)
{
    return strncmp(n->op->name, "Segment", 7) == 0;
}

/* The ids are a prefix of data's shape. */
static sm2c_status check_ids(sm2c_ctx *c, const sm2c_node *n)
{
    const sm2c_shape *x = &n->inputs[0]->shape, *ids = &n->inputs[1]->shape;
    int ok = ids->rank <= x->rank && (!is_sorted_op(n) || ids->rank == 1);
    for (int32_t d = 0; ok && d < ids->rank; d++)
        ok = ids->dims[d] == x->dims[d];
    if (!ok || (n->inputs[1]->dtype != SM2C_DT_INT32 && n->inputs[1]->dtype != SM2C_DT_INT64))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "segment_ids %s (%s) must be %sa prefix of data's shape %s, "
                             "int32 or int64", sm2c_shape_str(c->arena, ids),
                             sm2c_dtype_name(n->inputs[1]->dtype), is_sorted_op(n) ? "1-D and " : "",
                             sm2c_shape_str(c->arena, x));
    return SM2C_OK;
}

/* Sorted ops: the constant ids, non-decreasing and non-negative; the count is
** the last + 1 (0 without ids). */
static sm2c_status sorted_count(sm2c_ctx *c, const sm2c_node *n, int64_t *count)
{
    const sm2c_tensor *t = sm2c_op_const_input(c, n, 1, "segment_ids");
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    int64_t *ids = sm2c_op_ints(c, t);
    for (int64_t i = 0; i < t->nelem; i++)
        if (ids[i] < 0 || (i > 0 && ids[i] < ids[i - 1]))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "segment_ids must be sorted and non-negative "
                                 "(id %lld at %lld)", (long long)ids[i], (long long)i);
    *count = t->nelem ? ids[t->nelem - 1] + 1 : 0;
    return SM2C_OK;
}

static sm2c_status segment_count(sm2c_ctx *c, const sm2c_node *n, int64_t *count)
{
    if (is_sorted_op(n))
        return sorted_count(c, n, count);
    const sm2c_tensor *t = sm2c_op_const_input(c, n, 2, "num_segments");
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    if (t->nelem != 1 || (*count = sm2c_op_ints(c, t)[0]) < 0 || *count > INT32_MAX)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "num_segments must be a scalar in [0, 2^31)");
    return SM2C_OK;
}

sm2c_status shape_segment(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t count = 0, dims[SM2C_RT_MAX_RANK];
    if (st || (st = check_ids(c, n)) || (st = segment_count(c, n, &count)))
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    int32_t k = n->inputs[1]->shape.rank, rank = x->rank - k + 1;
    dims[0] = count;
    for (int32_t d = 1; d < rank; d++)
        dims[d] = x->dims[k + d - 1];
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, rank, dims);
    return SM2C_OK;
}

/* "UnsortedSegmentMax" -> "max", "SegmentMean" -> "mean". */
static const char *fold_name(sm2c_ctx *c, const sm2c_node *n)
{
    const char *op = n->op->name + (is_sorted_op(n) ? 7 : 15);
    char *s = sm2c_arena_strdup(c->arena, op);
    for (char *p = s; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    return s;
}

sm2c_status lower_segment(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *ids = n->inputs[1], *y = n->outputs[0];
    const char *ix = ids->dtype == SM2C_DT_INT64 ? "i64" : "i32";
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_segment_%s_%s_%s", fold_name(l->c, n),
                                           sm2c_kernel_suffix(x->dtype), ix);
    int64_t n_ids = sm2c_value_elements(ids), n_seg = y->shape.dims[0];
    int64_t row = n_seg > 0 ? sm2c_value_elements(y) / n_seg : 0;
    int64_t n_counts = n_seg > 0 ? n_seg : 1;
    sm2c_shape counts_shape = { 1, &n_counts };
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 8);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, ids));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[3] = sm2c_arg_int(n_ids);
    s->args[4] = sm2c_arg_int(row);
    s->args[5] = sm2c_arg_int(n_seg);
    s->args[6] = sm2c_arg_int(is_sorted_op(n));
    s->args[7] = sm2c_arg_buf(sm2c_lower_scratch(l, SM2C_DT_INT32, &counts_shape, n->name));
    return SM2C_OK;
}
