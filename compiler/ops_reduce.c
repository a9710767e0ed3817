/*
** ops_reduce.c: Sum, Mean, Max, Min over constant axes.  Reduced axes that are
** not one contiguous block are first moved last by a strided copy.
*/
#include "ops_common.h"

static sm2c_status reduced_axes(sm2c_ctx *c, const sm2c_node *n, unsigned char *red)
{
    const sm2c_tensor *t = sm2c_op_const_input(c, n, 1, "reduction_indices");
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    int32_t rank = n->inputs[0]->shape.rank;
    memset(red, 0, SM2C_RT_MAX_RANK);
    for (int64_t i = 0; i < t->nelem; i++) {
        int32_t a;
        if (!sm2c_op_axis(c, n, sm2c_tensor_get_i64(t, i), rank, &a))
            return SM2C_ERR_INVALID;
        red[a] = 1;
    }
    return SM2C_OK;
}

sm2c_status shape_reduce(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    unsigned char red[SM2C_RT_MAX_RANK];
    if (st || (st = reduced_axes(c, n, red)))
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    int keep = sm2c_attr_flag(n, "keep_dims");
    int64_t dims[SM2C_RT_MAX_RANK];
    int32_t r = 0;
    for (int32_t i = 0; i < x->rank; i++) {
        if (!red[i])
            dims[r++] = x->dims[i];
        else if (keep)
            dims[r++] = 1;
    }
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, r, dims);
    return SM2C_OK;
}

static const char *reduce_kernel(sm2c_ctx *c, const char *op, int dtype)
{
    const char *name = strcmp(op, "Sum") == 0 ? "sum" : strcmp(op, "Mean") == 0 ? "mean"
                     : strcmp(op, "Max") == 0 ? "max" : "min";
    int is_float = dtype == SM2C_DT_FLOAT;
    int is_int = dtype == SM2C_DT_INT32 || dtype == SM2C_DT_INT64;
    if (!is_float && !(is_int && (name[0] == 's' || name[1] == 'e')))
        return NULL;
    return sm2c_arena_printf(c->arena, "sm2c_rt_reduce_%s_%s", name, sm2c_kernel_suffix(dtype));
}

sm2c_status lower_reduce(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    const char *k = reduce_kernel(l->c, n->op->name, y->dtype);
    unsigned char red[SM2C_RT_MAX_RANK];
    sm2c_status st = reduced_axes(l->c, n, red);
    if (st)
        return st;
    if (!k)
        return sm2c_lower_unsupported(l, n, "%s on %s is not supported", n->op->name, sm2c_dtype_name(y->dtype));
    int32_t rank = x->shape.rank, first = -1, last = -1, blocks = 0;
    for (int32_t i = 0; i < rank; i++) {
        if (red[i] && (i == 0 || !red[i - 1]))
            blocks++, first = i;
        if (red[i])
            last = i;
    }
    int32_t src = sm2c_lower_buf(l, x);
    int64_t outer = 1, reduce = 1, inner = 1;
    if (blocks <= 1) {
        for (int32_t i = 0; i < rank; i++)
            *(first < 0 || i < first ? &outer : i <= last ? &reduce : &inner) *= x->shape.dims[i];
    } else {
        /* Move the kept axes first and the reduced ones last, then reduce the tail. */
        int64_t xs[SM2C_RT_MAX_RANK], src_st[SM2C_RT_MAX_RANK], dims[SM2C_RT_MAX_RANK], dst[SM2C_RT_MAX_RANK];
        sm2c_op_strides(&x->shape, xs);
        int32_t r = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int32_t i = 0; i < rank; i++)
                if (red[i] == pass) {
                    dims[r] = x->shape.dims[i], src_st[r++] = xs[i];
                    *(pass ? &reduce : &outer) *= x->shape.dims[i];
                }
        sm2c_shape moved = sm2c_shape_make(l->c, r, dims);
        sm2c_op_strides(&moved, dst);
        int32_t tmp = sm2c_lower_scratch(l, x->dtype, &moved, "reduce-transpose");
        sm2c_op_copy(l, n, src, 0, src_st, tmp, 0, dst, r, dims, x->dtype);
        src = tmp;
    }
    sm2c_step *s = sm2c_lower_step(l, n, k, 5);
    s->args[0] = sm2c_arg_buf(src);
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[2] = sm2c_arg_int(outer);
    s->args[3] = sm2c_arg_int(reduce);
    s->args[4] = sm2c_arg_int(inner);
    return SM2C_OK;
}
