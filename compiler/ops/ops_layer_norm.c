/*
** ops_layer_norm.c: lowering of the internal LayerNorm op to one
** sm2c_rt_layer_norm_f32 step over the rows of its last axis.  The op exists
** only after pass_lnorm.c, which runs after shape inference and checks the
** shapes and constants, so it has no shape hook.
*/
#include "ops_layer_norm.h"

#include "ops_common.h"

static sm2c_status lower_layer_norm(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    const sm2c_tensor *eps = n->inputs[3]->constant;
    if (y->dtype != SM2C_DT_FLOAT || x->shape.rank < 1 || !eps || eps->dtype != SM2C_DT_FLOAT ||
        eps->nelem != 1)
        return sm2c_lower_unsupported(l, n, "internal LayerNorm on %s %s", sm2c_dtype_name(y->dtype),
                                      sm2c_shape_str(l->c->arena, &x->shape));
    const int64_t cols = x->shape.dims[x->shape.rank - 1], total = sm2c_value_elements(x);
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_layer_norm_f32", 7);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->args[3] = sm2c_arg_float(*(const float *)eps->data);
    s->args[4] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[5] = sm2c_arg_int(cols ? total / cols : 0);
    s->args[6] = sm2c_arg_int(cols);
    return SM2C_OK;
}

const sm2c_opdef sm2c_op_layer_norm = { "LayerNorm", 4, "y", "", NULL, lower_layer_norm, UINT64_MAX, 0, 0 };
