/*
** ops_lstm.c: lowering of the internal LstmState and LstmOutput ops to one
** sm2c_rt_lstm_state_f32 or sm2c_rt_lstm_output_f32 step over the rows of
** the last axis.  The ops exist only after pass_lstm.c, which runs after
** shape inference and checks the shapes, so they have no shape hook.
*/
#include "ops_lstm.h"

#include "ops_common.h"

static sm2c_status lower_lstm(sm2c_lower *l, const sm2c_node *n, const char *kernel)
{
    const sm2c_value *z = n->inputs[0], *c = n->inputs[1], *y = n->outputs[0];
    const int64_t units = c->shape.rank >= 1 ? c->shape.dims[c->shape.rank - 1] : 0;
    if (y->dtype != SM2C_DT_FLOAT || units <= 0 || sm2c_value_elements(z) != 4 * sm2c_value_elements(c))
        return sm2c_lower_unsupported(l, n, "internal %s on %s %s", n->op->name, sm2c_dtype_name(y->dtype),
                                      sm2c_shape_str(l->c->arena, &c->shape));
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 5);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, z));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, c));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[3] = sm2c_arg_int(sm2c_value_elements(c) / units);
    s->args[4] = sm2c_arg_int(units);
    return SM2C_OK;
}

static sm2c_status lower_lstm_state(sm2c_lower *l, const sm2c_node *n)
{
    return lower_lstm(l, n, "sm2c_rt_lstm_state_f32");
}

static sm2c_status lower_lstm_output(sm2c_lower *l, const sm2c_node *n)
{
    return lower_lstm(l, n, "sm2c_rt_lstm_output_f32");
}

const sm2c_opdef sm2c_op_lstm_state = { "LstmState", 2, "y", "", NULL, lower_lstm_state, UINT64_MAX, 0, 0 };
const sm2c_opdef sm2c_op_lstm_output = { "LstmOutput", 2, "y", "", NULL, lower_lstm_output, UINT64_MAX, 0, 0 };
