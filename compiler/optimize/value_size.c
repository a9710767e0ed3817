/*
** value_size.c: the one size check of every value shape inference types
** (issue 32, class 3).  Whatever op made a shape (a constant, OneHot's depth,
** a resize, a --shape, a TensorList's items), its element count must fit the
** element limit and the int32 element counts of the generated code's kernels;
** the product is computed checked, so no later stage multiplies dims that
** overflow.  Over either: a resource limit (exit 4) naming the node.
*/
#include "passes.h"

#include "lower/program.h"
#include "ops/ops_common.h"

#include <stdint.h>

/* NULL when v's elements fit, else why not ("more than N elements ..."). */
static const char *too_big(sm2c_ctx *c, const sm2c_value *v)
{
    int64_t limit = c->limits->elements, cap = limit < INT32_MAX ? limit : INT32_MAX;
    if (v->shape.rank < 0 || sm2c_shape_elements(&v->shape, cap) != -2)
        return NULL;
    const char *shape = sm2c_shape_str(c->arena, &v->shape);
    if (cap == limit)
        return sm2c_arena_printf(c->arena, "shape %s has more than %lld elements (--limit elements=N)", shape,
                                 (long long)limit);
    return sm2c_arena_printf(c->arena, "shape %s has more than %d elements, the most the generated code's "
                             "int32 element counts hold", shape, INT32_MAX);
}

/* NULL when v's bytes fit the runtime's int32 sizes (sm2c_rt_copy's n_bytes,
** a list's element bytes), else why not. */
static const char *too_many_bytes(sm2c_ctx *c, const sm2c_value *v)
{
    int64_t n = sm2c_shape_elements(&v->shape, INT32_MAX), size = sm2c_abi_elem_size(v->dtype);
    if (n <= 0 || size <= 0 || n <= INT32_MAX / size)
        return NULL;
    return sm2c_arena_printf(c->arena, "shape %s of %s is %lld bytes, more than the %d bytes the runtime's "
                             "int32 sizes hold", sm2c_shape_str(c->arena, &v->shape), sm2c_dtype_name(v->dtype),
                             (long long)(n * size), INT32_MAX);
}

static sm2c_status check_value(sm2c_ctx *c, const sm2c_node *n, int32_t k, const sm2c_value *v)
{
    const char *why = too_big(c, v);
    if (!why)
        why = too_many_bytes(c, v);
    return why ? sm2c_op_error(c, n, SM2C_ERR_LIMIT, "output %d: %s", (int)k, why) : SM2C_OK;
}

sm2c_status sm2c_check_port_sizes(sm2c_ctx *c, const sm2c_graph *g)
{
    for (int32_t i = 0; i < g->n_inputs; i++) {
        const sm2c_value *v = g->inputs[i].value;
        const char *why = v ? too_big(c, v) : NULL;
        if (v && !why)
            why = too_many_bytes(c, v);
        if (why)
            return sm2c_error(c->diag, SM2C_ERR_LIMIT, g->file,
                              sm2c_arena_printf(c->arena, "signature '%s' input '%s'", g->key, g->inputs[i].key),
                              "%s", why);
    }
    return SM2C_OK;
}

sm2c_status sm2c_check_value_sizes(sm2c_ctx *c, const sm2c_node *n)
{
    for (int32_t k = 0; k < n->n_outputs; k++) {
        sm2c_status st = check_value(c, n, k, n->outputs[k]);
        if (st)
            return st;
    }
    return SM2C_OK;
}
