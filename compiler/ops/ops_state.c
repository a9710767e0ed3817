/*
** ops_state.c: hooks of the ops that read and write state (import_state.c
** makes them).  Input 0 (and the slots of Momentum and Adam) are handles of
** written variables, lowered to SM2C_BUF_STATE buffers.  A read that a later
** write of the same variable follows copies the variable into a buffer of its
** own (a snapshot): the write cannot change a value already read (program
** order, as TF2's automatic control dependencies say).
** Writes update the state buffer in place.
*/
#include "ops_common.h"

static const sm2c_tensor *var_of(const sm2c_node *n, int32_t i)
{
    return n->inputs[i]->state ? n->inputs[i]->state->init : NULL;
}

sm2c_status shape_read_variable(sm2c_ctx *c, sm2c_node *n)
{
    const sm2c_tensor *v = var_of(n, 0);
    if (!v)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "reads a handle that is not a saved variable");
    sm2c_op_set(c, n, 0, v->dtype, v->shape.rank, v->shape.dims);
    return SM2C_OK;
}

/* Whether a live node after n writes the variable n reads. */
static int written_later(const sm2c_graph *g, const sm2c_node *n)
{
    const char *key = n->inputs[0]->state->key;
    int32_t i = 0;
    while (i < g->n_nodes && g->nodes[i] != n)
        i++;
    for (i++; i < g->n_nodes; i++) {
        const sm2c_node *w = g->nodes[i];
        if (w->dead || !sm2c_op_writes_state(w->op))
            continue;
        for (int32_t k = 0; k < w->n_inputs; k++)
            if (w->inputs[k]->state && strcmp(w->inputs[k]->state->key, key) == 0)
                return 1;
    }
    return 0;
}

/* A read copies the variable only when a later step writes it: otherwise the
** state buffer itself is the value (no arena copy of read-only state). */
sm2c_status lower_read_variable(sm2c_lower *l, const sm2c_node *n)
{
    if (!written_later(l->g, n)) {
        sm2c_lower_alias(l, n->outputs[0], n->inputs[0]);
        return SM2C_OK;
    }
    int32_t src = sm2c_lower_buf(l, n->inputs[0]);
    int32_t dst = sm2c_lower_buf(l, n->outputs[0]);
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_copy", 3);
    s->args[0] = sm2c_arg_buf(dst);
    s->args[1] = sm2c_arg_buf(src);
    s->args[2] = sm2c_arg_int(l->entry->buffers[dst].nbytes);
    return SM2C_OK;
}

/* Input i must have the dtype and shape of variable `v`. */
static sm2c_status check_like(sm2c_ctx *c, const sm2c_node *n, int32_t i, const sm2c_tensor *v,
                              const char *what)
{
    const sm2c_value *x = n->inputs[i];
    if (x->dtype != v->dtype || !sm2c_shape_equal(&x->shape, &v->shape))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "%s is %s %s but the variable is %s %s", what,
                             sm2c_dtype_name(x->dtype), sm2c_shape_str(c->arena, &x->shape),
                             sm2c_dtype_name(v->dtype), sm2c_shape_str(c->arena, &v->shape));
    return SM2C_OK;
}

/* Input i must be a scalar of dtype `dt`. */
static sm2c_status check_scalar(sm2c_ctx *c, const sm2c_node *n, int32_t i, int dt)
{
    const sm2c_value *x = n->inputs[i];
    if (x->dtype != dt || sm2c_value_elements(x) != 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input %d must be a %s scalar", (int)i,
                             sm2c_dtype_name(dt));
    return SM2C_OK;
}

/* Handles 0..handles-1, then the others: the variable's dtype and shape
** (`like` bits) or a scalar of its dtype. */
static sm2c_status check_write(sm2c_ctx *c, const sm2c_node *n, int32_t handles, unsigned like)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_tensor *v = var_of(n, 0);
    for (int32_t h = 0; !st && h < handles; h++) {
        const sm2c_tensor *slot = var_of(n, h);
        if (!slot)
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "writes a handle that is not a saved variable");
        if (slot->dtype != v->dtype || !sm2c_shape_equal(&slot->shape, &v->shape))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "slot variable %d does not match the variable",
                                 (int)h);
    }
    for (int32_t i = handles; !st && i < n->n_inputs; i++)
        st = like >> i & 1 ? check_like(c, n, i, v, "the value") : check_scalar(c, n, i, v->dtype);
    return st;
}

sm2c_status shape_assign_variable(sm2c_ctx *c, sm2c_node *n)
{
    return check_write(c, n, 1, 2u);
}

sm2c_status shape_apply_gradient_descent(sm2c_ctx *c, sm2c_node *n)
{
    return check_write(c, n, 1, 4u);                /* var, alpha, delta */
}

sm2c_status shape_apply_momentum(sm2c_ctx *c, sm2c_node *n)
{
    return check_write(c, n, 2, 8u);                /* var, accum, lr, grad, momentum */
}

sm2c_status shape_apply_adam(sm2c_ctx *c, sm2c_node *n)
{
    return check_write(c, n, 3, 1u << 9);           /* var, m, v, 6 scalars, grad */
}

sm2c_status shape_scatter_variable(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_tensor *v = var_of(n, 0);
    if (st)
        return st;
    if (!v)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "writes a handle that is not a saved variable");
    const sm2c_value *idx = n->inputs[1], *u = n->inputs[2];
    int ok = v->shape.rank >= 1 && (idx->dtype == SM2C_DT_INT32 || idx->dtype == SM2C_DT_INT64) &&
             u->dtype == v->dtype && u->shape.rank == idx->shape.rank + v->shape.rank - 1;
    for (int32_t d = 0; ok && d < idx->shape.rank; d++)
        ok = u->shape.dims[d] == idx->shape.dims[d];
    for (int32_t d = 1; ok && d < v->shape.rank; d++)
        ok = u->shape.dims[idx->shape.rank + d - 1] == v->shape.dims[d];
    if (!ok)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID,
                             "updates must be indices.shape + variable.shape[1:] of the variable's "
                             "dtype, with int32 or int64 indices");
    return SM2C_OK;
}

static void wrote(sm2c_lower *l)
{
    l->entry->writes_state = 1;
}

static int32_t elements(const sm2c_tensor *v)
{
    return (int32_t)v->nelem;
}

sm2c_status lower_assign_variable(sm2c_lower *l, const sm2c_node *n)
{
    int32_t dst = sm2c_lower_buf(l, n->inputs[0]);
    const char *op = n->op->name;
    wrote(l);
    if (strcmp(op, "AssignVariableOp") == 0) {
        sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_copy", 3);
        s->args[0] = sm2c_arg_buf(dst);
        s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
        s->args[2] = sm2c_arg_int(l->entry->buffers[dst].nbytes);
        return SM2C_OK;
    }
    const char *kernel = sm2c_op_kernel(l->c, strcmp(op, "AssignAddVariableOp") == 0 ? "add" : "sub",
                                        n->inputs[1]->dtype);
    if (!kernel)
        return sm2c_lower_unsupported(l, n, "%s on %s is not supported", op,
                                      sm2c_dtype_name(n->inputs[1]->dtype));
    sm2c_op_binary_step(l, n, kernel, n->inputs[0], n->inputs[1], dst, &n->inputs[1]->shape);
    return SM2C_OK;
}

/* Arguments in input order: buffers, scalars as pointers too. */
static sm2c_step *apply_step(sm2c_lower *l, const sm2c_node *n, const char *kernel, int32_t extra)
{
    sm2c_step *s = sm2c_lower_step(l, n, kernel, n->n_inputs + extra);
    for (int32_t i = 0; i < n->n_inputs; i++)
        s->args[i] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[i]));
    wrote(l);
    return s;
}

sm2c_status lower_apply_gradient_descent(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_step *s = apply_step(l, n, "sm2c_rt_apply_gradient_descent_f32", 1);
    s->args[3] = sm2c_arg_int(elements(var_of(n, 0)));
    return SM2C_OK;
}

sm2c_status lower_apply_momentum(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_step *s = apply_step(l, n, "sm2c_rt_apply_momentum_f32", 2);
    s->args[5] = sm2c_arg_int(elements(var_of(n, 0)));
    s->args[6] = sm2c_arg_int(sm2c_attr_flag(n, "use_nesterov"));
    return SM2C_OK;
}

sm2c_status lower_apply_adam(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_step *s = apply_step(l, n, "sm2c_rt_apply_adam_f32", 2);
    s->args[10] = sm2c_arg_int(elements(var_of(n, 0)));
    s->args[11] = sm2c_arg_int(sm2c_attr_flag(n, "use_nesterov"));
    return SM2C_OK;
}

/* var, rows, row (bytes for update, elements for add), idx, n, updates. */
sm2c_status lower_scatter_variable(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_tensor *v = var_of(n, 0);
    int add = strcmp(n->op->name, "ResourceScatterAdd") == 0;
    const char *ix = n->inputs[1]->dtype == SM2C_DT_INT64 ? "i64" : "i32";
    int32_t row = (int32_t)(v->nelem / (v->shape.dims[0] > 0 ? v->shape.dims[0] : 1));
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_arena_printf(l->c->arena, add ? "sm2c_rt_scatter_add_rows_f32_%s"
                                                           : "sm2c_rt_scatter_update_rows_%s", ix), 6);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_int(v->shape.dims[0]);
    s->args[2] = sm2c_arg_int(add ? row : row * (int32_t)sm2c_dtype_size(v->dtype));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[4] = sm2c_arg_int(sm2c_value_elements(n->inputs[1]));
    s->args[5] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->checked = 1;
    wrote(l);
    return SM2C_OK;
}
