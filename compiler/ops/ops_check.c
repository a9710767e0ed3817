/*
** ops_check.c: CheckNumerics and Assert, checked at run time.  TensorFlow
** raises an error where these fail; the generated entry point returns
** SM2C_RT_ERR_NUMERICS or SM2C_RT_ERR_ASSERT instead (runtime/check.c).
** CheckNumerics passes its input through (an alias) after the check.  Assert
** keeps only its condition (import.c drops the message data) and is a side
** effect: never dead, whatever uses it.
*/
#include "ops_common.h"

sm2c_status shape_check_numerics(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, n->inputs[0]->shape.rank, n->inputs[0]->shape.dims);
    return SM2C_OK;
}

static void check_step(sm2c_lower *l, const sm2c_node *n, const char *kernel, const sm2c_value *x)
{
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 2);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_int(sm2c_value_elements(x));
}

sm2c_status lower_check_numerics(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    check_step(l, n, sm2c_op_kernel(l->c, "check_finite", x->dtype), x);
    sm2c_lower_alias(l, n->outputs[0], x);
    return SM2C_OK;
}

sm2c_status shape_assert(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    if (n->n_inputs < 1 || n->inputs[0]->dtype != SM2C_DT_BOOL)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "Assert needs a bool condition");
    return SM2C_OK;
}

sm2c_status lower_assert(sm2c_lower *l, const sm2c_node *n)
{
    check_step(l, n, "sm2c_rt_check_true_b", n->inputs[0]);
    return SM2C_OK;
}
