/*
** ops_xent.c: SoftmaxCrossEntropyWithLogits(features, labels) and
** SparseSoftmaxCrossEntropyWithLogits(features, labels), what training
** signatures compute a classifier's loss with.  Outputs loss [batch] and
** backprop [batch, classes] (runtime/xent_f32.c).  Dense labels must have the
** features' shape (TensorFlow also broadcasts them; not supported here).
*/
#include "ops_common.h"

static int is_sparse(const sm2c_node *n)
{
    return strncmp(n->op->name, "Sparse", 6) == 0;
}

sm2c_status shape_xent(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0], *p = n->inputs[1];
    if (x->shape.rank != 2 || x->dtype != SM2C_DT_FLOAT)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "features must be float32 [batch, classes], got %s %s",
                             sm2c_dtype_name(x->dtype), sm2c_shape_str(c->arena, &x->shape));
    int ok = is_sparse(n) ? p->shape.rank == 1 && p->shape.dims[0] == x->shape.dims[0] &&
                            (p->dtype == SM2C_DT_INT32 || p->dtype == SM2C_DT_INT64)
                          : p->dtype == x->dtype && sm2c_shape_equal(&p->shape, &x->shape);
    if (!ok)
        return sm2c_op_error(c, n, is_sparse(n) ? SM2C_ERR_INVALID : SM2C_ERR_UNSUPPORTED,
                             "labels %s %s do not fit features %s (%s)", sm2c_dtype_name(p->dtype),
                             sm2c_shape_str(c->arena, &p->shape), sm2c_shape_str(c->arena, &x->shape),
                             is_sparse(n) ? "int32 or int64 [batch]" : "float32 of the same shape; "
                             "broadcasting is not supported");
    sm2c_op_set(c, n, 0, SM2C_DT_FLOAT, 1, x->shape.dims);
    sm2c_op_set(c, n, 1, SM2C_DT_FLOAT, 2, x->shape.dims);
    return SM2C_OK;
}

sm2c_status lower_xent(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *p = n->inputs[1];
    const char *kernel = !is_sparse(n) ? "sm2c_rt_softmax_xent_f32"
                       : p->dtype == SM2C_DT_INT64 ? "sm2c_rt_sparse_softmax_xent_f32_i64"
                                                   : "sm2c_rt_sparse_softmax_xent_f32_i32";
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 6);
    s->checked = is_sparse(n);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, p));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[1]));
    s->args[4] = sm2c_arg_int(x->shape.dims[0]);
    s->args[5] = sm2c_arg_int(x->shape.dims[1]);
    return SM2C_OK;
}
