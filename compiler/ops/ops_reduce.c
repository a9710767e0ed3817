/*
** ops_reduce.c: Sum, Mean, Max, Min, Prod, All, Any and EuclideanNorm over
** constant axes.  Reduced axes that are not one contiguous block are first
** moved last by a strided copy.  Also ArgMax/ArgMin, Cumsum/Cumprod (one
** axis: [outer, len, inner] needs no copy) and L2Loss.
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

/* The dtypes each reduction has kernels for; EuclideanNorm is a Sum of squares. */
static const struct {
    const char *tf, *kernel;
    unsigned types;
} reduce_ops[] = {
    { "Sum", "sum", SM2C_OPT_FLOAT | SM2C_OPT_INTS }, { "Mean", "mean", SM2C_OPT_FLOAT | SM2C_OPT_INTS },
    { "Max", "max", SM2C_OPT_FLOAT | SM2C_OPT_INTS }, { "Min", "min", SM2C_OPT_FLOAT | SM2C_OPT_INTS },
    { "Prod", "prod", SM2C_OPT_FLOAT | SM2C_OPT_INTS }, { "All", "all", SM2C_OPT_BOOL },
    { "Any", "any", SM2C_OPT_BOOL }, { "EuclideanNorm", "sum", SM2C_OPT_FLOAT | SM2C_OPT_INTS },
};

static const char *reduce_kernel(sm2c_ctx *c, const char *op, int dtype)
{
    for (size_t i = 0; i < sizeof reduce_ops / sizeof *reduce_ops; i++)
        if (strcmp(reduce_ops[i].tf, op) == 0)
            return (reduce_ops[i].types & sm2c_op_type_bit(dtype))
                       ? sm2c_arena_printf(c->arena, "sm2c_rt_reduce_%s_%s", reduce_ops[i].kernel,
                                           sm2c_kernel_suffix(dtype))
                       : NULL;
    return NULL;
}

/* An elementwise step kernel(x -> y, n) (EuclideanNorm's square and sqrt: an
** integer's square wraps, its root is truncated, as TensorFlow's). */
static void map_step(sm2c_lower *l, const sm2c_node *n, const char *kernel, int32_t x, int32_t y,
                     int64_t count)
{
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 3);
    s->args[0] = sm2c_arg_buf(x);
    s->args[1] = sm2c_arg_buf(y);
    s->args[2] = sm2c_arg_int(count);
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
    int norm = strcmp(n->op->name, "EuclideanNorm") == 0;
    if (norm) {
        int32_t sq = sm2c_lower_scratch(l, x->dtype, &x->shape, "euclidean-norm-square");
        map_step(l, n, sm2c_op_kernel(l->c, "square", x->dtype), src, sq, sm2c_value_elements(x));
        src = sq;
    }
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
    if (norm)
        map_step(l, n, sm2c_op_kernel(l->c, "sqrt", y->dtype), s->args[1].buf, s->args[1].buf,
                 sm2c_value_elements(y));
    return SM2C_OK;
}

/* ---- logic family: ArgMax/ArgMin, Cumsum/Cumprod, L2Loss --------------------- */

/* The constant axis input 1 of n, in [0, rank). */
static sm2c_status one_axis(sm2c_ctx *c, const sm2c_node *n, int32_t *axis)
{
    const sm2c_tensor *t = sm2c_op_const_input(c, n, 1, "axis");
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    if (t->nelem != 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "axis must be a scalar");
    return sm2c_op_axis(c, n, sm2c_tensor_get_i64(t, 0), n->inputs[0]->shape.rank, axis)
               ? SM2C_OK : SM2C_ERR_INVALID;
}

/* [outer, dims[axis], inner] of the input of n. */
static void split_at(const sm2c_shape *s, int32_t axis, int64_t *outer, int64_t *len, int64_t *inner)
{
    *outer = *len = *inner = 1;
    for (int32_t i = 0; i < s->rank; i++)
        *(i < axis ? outer : i > axis ? inner : len) *= s->dims[i];
}

sm2c_status shape_arg(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int32_t axis, r = 0;
    if (st || (st = one_axis(c, n, &axis)))
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    int64_t dims[SM2C_RT_MAX_RANK], type = SM2C_DT_INT64;
    if (x->dims[axis] == 0)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "reduces an empty axis");
    for (int32_t i = 0; i < x->rank; i++)
        if (i != axis)
            dims[r++] = x->dims[i];
    const Tensorflow__AttrValue *ot = sm2c_attr(n, "output_type");
    if (ot && ot->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE)
        type = sm2c_dtype_base((int)ot->type);
    if (type != SM2C_DT_INT32 && type != SM2C_DT_INT64)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "output_type %s is not supported",
                             sm2c_dtype_name((int)type));
    sm2c_op_set(c, n, 0, (int)type, r, dims);
    return SM2C_OK;
}

sm2c_status lower_arg(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    int32_t axis;
    sm2c_status st = one_axis(l->c, n, &axis);
    if (st)
        return st;
    if (!(sm2c_op_type_bit(x->dtype) & (SM2C_OPT_NUM | SM2C_OPT_INTS | SM2C_OPT_BOOL)))
        return sm2c_lower_unsupported(l, n, "%s on %s is not supported", n->op->name,
                                      sm2c_dtype_name(x->dtype));
    int64_t outer, len, inner;
    split_at(&x->shape, axis, &outer, &len, &inner);
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_arena_printf(l->c->arena, "sm2c_rt_arg_%s_%s_%s",
                                   strcmp(n->op->name, "ArgMax") == 0 ? "max" : "min",
                                   sm2c_kernel_suffix(x->dtype), sm2c_kernel_suffix(y->dtype)), 5);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[2] = sm2c_arg_int(outer);
    s->args[3] = sm2c_arg_int(len);
    s->args[4] = sm2c_arg_int(inner);
    return SM2C_OK;
}

sm2c_status shape_scan(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int32_t axis;
    if (st || (st = one_axis(c, n, &axis)))
        return st;
    return shape_unary(c, n);
}

sm2c_status lower_scan(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    int32_t axis;
    sm2c_status st = one_axis(l->c, n, &axis);
    if (st)
        return st;
    int half = x->dtype == SM2C_DT_HALF || x->dtype == SM2C_DT_BFLOAT16;   /* scan.c rounds each step */
    if (!(sm2c_op_type_bit(x->dtype) & (SM2C_OPT_NUM | SM2C_OPT_INTS)) && !half)
        return sm2c_lower_unsupported(l, n, "%s on %s is not supported", n->op->name,
                                      sm2c_dtype_name(x->dtype));
    int64_t outer, len, inner;
    split_at(&x->shape, axis, &outer, &len, &inner);
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, strcmp(n->op->name, "Cumsum") == 0
                                                                  ? "cumsum" : "cumprod", x->dtype), 7);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[2] = sm2c_arg_int(outer);
    s->args[3] = sm2c_arg_int(len);
    s->args[4] = sm2c_arg_int(inner);
    s->args[5] = sm2c_arg_int(sm2c_attr_flag(n, "exclusive"));
    s->args[6] = sm2c_arg_int(sm2c_attr_flag(n, "reverse"));
    return SM2C_OK;
}

sm2c_status shape_l2_loss(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (!st)
        sm2c_op_set(c, n, 0, n->inputs[0]->dtype, 0, NULL);
    return st;
}

sm2c_status lower_l2_loss(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    if (x->dtype != SM2C_DT_FLOAT && x->dtype != SM2C_DT_DOUBLE)
        return sm2c_lower_unsupported(l, n, "L2Loss on %s is not supported", sm2c_dtype_name(x->dtype));
    map_step(l, n, sm2c_op_kernel(l->c, "l2_loss", x->dtype), sm2c_lower_buf(l, x), sm2c_lower_buf(l, n->outputs[0]),
             sm2c_value_elements(x));
    return SM2C_OK;
}
