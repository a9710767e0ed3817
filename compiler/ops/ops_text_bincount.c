/*
** ops_text_bincount.c: the bincounts Keras TextVectorization exports (its
** ragged row partition and its multi_hot / count / tf_idf modes), and the
** folding that makes their lengths static.
**
**   DenseBincount(input, size, weights): a vector input (static or with a
**     data-dependent count), a constant size, no weights (an empty tensor):
**     int64 counts [size] (binary_output: 0/1).  Only this case, which
**     RowPartitionFromValueRowIds computes its row lengths with.
**   RaggedBincount(splits, values, size, weights): int64 splits [rows + 1],
**     int64 values (static or data-dependent), a constant size, no weights:
**     int64 [rows, size].
**   Minimum(a, Maximum(b, y)) of integers with constant scalars a <= b is a:
**     tf.math.bincount's length clamp(max(values) + 1, minlength, maxlength)
**     with minlength == maxlength, which TextVectorization always passes, so
**     the result's length is a constant although max(values) is not.
** Weights, other dtypes and ranks are refused with the node's name.
*/
#include "ops_common.h"
#include "ops_text.h"

int sm2c_fold_clamped_min(sm2c_ctx *c, sm2c_node *n)
{
    const sm2c_value *a = n->inputs[0], *m = n->inputs[1];
    if (strcmp(n->op->name, "Minimum") != 0 || !a->constant || a->constant->nelem != 1 || m->constant ||
        (a->dtype != SM2C_DT_INT32 && a->dtype != SM2C_DT_INT64) || !m->node ||
        strcmp(m->node->op->name, "Maximum") != 0 || n->outputs[0]->shape.rank != 0)
        return 0;
    const sm2c_value *b = m->node->inputs[0];
    if (!b->constant || b->constant->nelem != 1 || sm2c_op_ints(c, a->constant)[0] > sm2c_op_ints(c, b->constant)[0])
        return 0;
    n->outputs[0]->constant = a->constant;
    return 1;
}

static sm2c_status size_of(sm2c_ctx *c, const sm2c_node *n, int32_t i, int64_t *size)
{
    const sm2c_tensor *t = sm2c_op_const_input(c, n, i, "size");
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    if (t->nelem != 1 || sm2c_op_ints(c, t)[0] < 0 || sm2c_op_ints(c, t)[0] > INT32_MAX)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "size must be a scalar in [0, %d]", INT32_MAX);
    *size = sm2c_op_ints(c, t)[0];
    return SM2C_OK;
}

static sm2c_status no_weights(sm2c_ctx *c, const sm2c_node *n, int32_t i)
{
    const sm2c_value *w = n->inputs[i];
    if (sm2c_value_elements(w) != 0)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "%s with weights is not supported here (only the "
                             "unweighted counts of TextVectorization)", n->op->name);
    if (w->dtype != SM2C_DT_INT64)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "%s into %s is not supported here (int64)", n->op->name,
                             sm2c_dtype_name(w->dtype));
    return SM2C_OK;
}

sm2c_status sm2c_shape_bincount_dyn(sm2c_ctx *c, sm2c_node *n)
{
    int64_t size;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = size_of(c, n, 1, &size)) || (st = no_weights(c, n, 2)))
        return st;
    const sm2c_value *x = n->inputs[0];
    if (x->shape.rank != 1 || (x->dtype != SM2C_DT_INT32 && x->dtype != SM2C_DT_INT64))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "DenseBincount of %s %s is not supported here (an int32 "
                             "or int64 vector)", sm2c_dtype_name(x->dtype), sm2c_shape_str(c->arena, &x->shape));
    sm2c_op_set(c, n, 0, SM2C_DT_INT64, 1, &size);
    return SM2C_OK;
}

sm2c_status sm2c_lower_bincount_dyn(sm2c_lower *l, const sm2c_node *n)
{
    int64_t size;
    sm2c_status st = size_of(l->c, n, 1, &size);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "text_bincount", x->dtype), 6);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_int(x->shape.dims[0]);
    s->args[2] = x->dyn ? sm2c_arg_buf(sm2c_lower_count(l, x)) : sm2c_arg_null();
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[4] = sm2c_arg_int(size);
    s->args[5] = sm2c_arg_int(sm2c_attr_flag(n, "binary_output"));
    return SM2C_OK;
}

sm2c_status shape_ragged_bincount(sm2c_ctx *c, sm2c_node *n)
{
    int64_t size;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = size_of(c, n, 2, &size)) || (st = no_weights(c, n, 3)))
        return st;
    const sm2c_value *sp = n->inputs[0], *v = n->inputs[1];
    if (sp->dtype != SM2C_DT_INT64 || sp->shape.rank != 1 || sp->shape.dims[0] < 1 || sp->dyn ||
        v->dtype != SM2C_DT_INT64 || v->shape.rank != 1)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "RaggedBincount is supported of int64 splits of a static "
                             "size and an int64 vector of values only");
    int64_t rows = sp->shape.dims[0] - 1, dims[2] = { rows, size };
    if (rows > INT32_MAX || (size && rows > INT32_MAX / size))
        return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "the result [%lld, %lld] is too large", (long long)rows,
                             (long long)size);
    sm2c_op_set(c, n, 0, SM2C_DT_INT64, 2, dims);
    return SM2C_OK;
}

sm2c_status lower_ragged_bincount(sm2c_lower *l, const sm2c_node *n)
{
    int64_t size;
    sm2c_status st = size_of(l->c, n, 2, &size);
    if (st)
        return st;
    const sm2c_value *sp = n->inputs[0], *v = n->inputs[1];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_ragged_bincount_i64", 8);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, sp));
    s->args[1] = sm2c_arg_int(sp->shape.dims[0] - 1);
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, v));
    s->args[3] = sm2c_arg_int(v->shape.dims[0]);
    s->args[4] = v->dyn ? sm2c_arg_buf(sm2c_lower_count(l, v)) : sm2c_arg_null();
    s->args[5] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[6] = sm2c_arg_int(size);
    s->args[7] = sm2c_arg_int(sm2c_attr_flag(n, "binary_output"));
    return SM2C_OK;
}
