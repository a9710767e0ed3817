/*
** ops_bincount.c: DenseBincount (Keras CategoryEncoding "multi_hot" and
** "count", tf.math.bincount): a 1-D input into [size] bins, a 2-D one into
** [rows, size].  size must be known at compile time: a constant, or
** tf.math.bincount's Minimum(Maximum(max + 1, minlength), maxlength) with
** minlength >= maxlength (Keras passes both as the number of tokens), which
** is maxlength whatever the data.  The kernel checks the values at run time
** (a negative one is SM2C_RT_ERR_INDEX, as TensorFlow's CPU kernel errors).
*/
#include "ops_common.h"
#include "ops_text.h"

/* The scalar integer constant v holds, in *out. */
static int const_scalar(const sm2c_value *v, int64_t *out)
{
    if (!v || !v->constant || v->constant->nelem != 1 ||
        (v->dtype != SM2C_DT_INT32 && v->dtype != SM2C_DT_INT64))
        return 0;
    *out = sm2c_tensor_get_i64(v->constant, 0);
    return 1;
}

/* One of op's inputs is a scalar constant (into *k): the other input. */
static const sm2c_value *other_of_const(const sm2c_value *v, const char *op, int64_t *k)
{
    const sm2c_node *p = v->node;
    if (!p || p->n_inputs != 2 || strcmp(p->op->name, op) != 0)
        return NULL;
    if (const_scalar(p->inputs[1], k))
        return p->inputs[0];
    return const_scalar(p->inputs[0], k) ? p->inputs[1] : NULL;
}

/* The number of bins: size's constant, or maxlength of min(max(_, minlength), maxlength). */
static sm2c_status bincount_size(sm2c_ctx *c, const sm2c_node *n, int64_t *size)
{
    int64_t lo = 0;
    const sm2c_value *s = n->inputs[1], *m = NULL;
    if (!const_scalar(s, size) &&
        !((m = other_of_const(s, "Minimum", size)) && other_of_const(m, "Maximum", &lo) && lo >= *size))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                             "size must be a scalar known at compile time (or bincount's minlength = maxlength)");
    if (*size < 0 || *size > INT32_MAX)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "size %lld must be in [0, %d]", (long long)*size, INT32_MAX);
    return SM2C_OK;
}

/* DenseBincount(input, size, weights): input 1-D or 2-D int32/int64, weights
** of its shape or empty. */
static sm2c_status bincount_of(sm2c_ctx *c, const sm2c_node *n, int64_t *size)
{
    const sm2c_value *x = n->inputs[0], *w = n->inputs[2];
    if (x->dtype != SM2C_DT_INT32 && x->dtype != SM2C_DT_INT64)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "input of type %s", sm2c_dtype_name(x->dtype));
    if (x->shape.rank < 1 || x->shape.rank > 2)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input %s must be 1-D or 2-D",
                             sm2c_shape_str(c->arena, &x->shape));
    if (sm2c_value_elements(w) != 0 && !sm2c_shape_equal(&w->shape, &x->shape))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "weights %s must be empty or of input's shape %s",
                             sm2c_shape_str(c->arena, &w->shape), sm2c_shape_str(c->arena, &x->shape));
    return bincount_size(c, n, size);
}

sm2c_status shape_bincount(sm2c_ctx *c, sm2c_node *n)
{
    if (n->inputs[0] && n->inputs[0]->dyn)   /* tokens with a count: ops_text_bincount.c */
        return sm2c_shape_bincount_dyn(c, n);
    int64_t size, dims[2];
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = bincount_of(c, n, &size)))
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    dims[0] = x->rank == 2 ? x->dims[0] : size;
    dims[1] = size;
    sm2c_op_set(c, n, 0, n->inputs[2]->dtype, x->rank, dims);
    return SM2C_OK;
}

sm2c_status lower_bincount(sm2c_lower *l, const sm2c_node *n)
{
    if (n->inputs[0]->dyn)
        return sm2c_lower_bincount_dyn(l, n);
    int64_t size;
    sm2c_status st = bincount_of(l->c, n, &size);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0], *w = n->inputs[2], *y = n->outputs[0];
    const char *kernel = sm2c_op_kernel(l->c, "bincount", y->dtype);
    if (!kernel || (y->dtype != SM2C_DT_FLOAT && y->dtype != SM2C_DT_DOUBLE && y->dtype != SM2C_DT_INT32 &&
                    y->dtype != SM2C_DT_INT64))
        return sm2c_lower_unsupported(l, n, "bins of type %s", sm2c_dtype_name(y->dtype));
    kernel = sm2c_arena_printf(l->c->arena, "%s_%s", kernel, x->dtype == SM2C_DT_INT32 ? "i32" : "i64");
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 7);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_value_elements(w) ? sm2c_arg_buf(sm2c_lower_buf(l, w)) : sm2c_arg_null();
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[3] = sm2c_arg_int(x->shape.rank == 2 ? x->shape.dims[0] : 1);
    s->args[4] = sm2c_arg_int(x->shape.dims[x->shape.rank - 1]);
    s->args[5] = sm2c_arg_int(size);
    s->args[6] = sm2c_arg_int(sm2c_attr_flag(n, "binary_output"));
    return SM2C_OK;
}
