/*
** op_support.h: what sm2c knows about TensorFlow ops.
*/
#ifndef SM2C_OP_SUPPORT_H
#define SM2C_OP_SUPPORT_H

#include <stddef.h>

#include "load/savedmodel.h"

/* 1 when sm2c can compile op `name` (it has a lowering and a kernel). */
int sm2c_op_supported(const char *name);

/* U3 of docs/reliability.md: no library function takes the name of an op sm2c
** handles (a node calling it would be ambiguous). */
sm2c_status sm2c_check_function_names(sm2c_ctx *c, const sm2c_model *m);

typedef struct sm2c_op_count {
    const char *op;
    size_t count;
} sm2c_op_count;

/* Histogram of the ops reachable from the model's signatures (all but
** __saved_model_init_op): main-graph nodes the outputs depend on, through
** data and control edges, and every library function they call, directly or
** through function-valued attrs (f, body, cond, branches, ...).  Sorted by op. */
sm2c_status sm2c_reachable_ops(sm2c_ctx *c, const sm2c_model *m, sm2c_op_count **out,
                               size_t *count);

#endif
