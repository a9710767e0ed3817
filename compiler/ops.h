/*
** ops.h: what sm2c knows about TensorFlow ops.
*/
#ifndef SM2C_OPS_H
#define SM2C_OPS_H

#include <stddef.h>

#include "savedmodel.h"

/* 1 when sm2c can compile op `name` (it has a lowering and a kernel). */
int sm2c_op_supported(const char *name);

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
