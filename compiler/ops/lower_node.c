/*
** lower_node.c: lowering one node through its op's hook, within the dtypes
** the op table lists.
*/
#include "opdefs.h"
#include "ops_dyn.h"
#include "ops_hybrid.h"
#include "ops_q8.h"

#include <string.h>

/* The random ops whose "T" is their shape input's type: the output's type
** (their "dtype", RandomUniformInt's "Tout") is the one they run on. */
static int t_is_shape(const sm2c_node *n)
{
    static const char *const ops[] = {
        "RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt",
        "StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
        "StatelessRandomUniformInt",
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(n->op->name, ops[i]) == 0)
            return 1;
    return 0;
}

/* The dtype an op runs on: its "T" or "dtype" attr, else its first input, else
** its output. */
int sm2c_node_dtype(const sm2c_node *n)
{
    static const char *const attrs[] = { "T", "dtype" };
    static const char *const random_attrs[] = { "dtype", "Tout" };
    const char *const *names = t_is_shape(n) ? random_attrs : attrs;
    for (size_t i = 0; i < 2; i++) {
        const Tensorflow__AttrValue *t = sm2c_attr(n, names[i]);
        if (t && t->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE)
            return sm2c_dtype_base((int)t->type);
    }
    if (n->n_inputs > 0)
        return n->inputs[0]->dtype;
    return n->n_outputs > 0 ? n->outputs[0]->dtype : SM2C_DT_INVALID;
}

/* The first integer argument of steps first.. of e that is out of int32's
** range (every integer parameter of the runtime is an int32_t), else 0. */
static int64_t int_arg_overflow(const sm2c_entry *e, int32_t first)
{
    for (int32_t s = first; s < e->n_steps; s++)
        for (int32_t a = 0; a < e->steps[s].n_args; a++) {
            const sm2c_arg *ar = &e->steps[s].args[a];
            if (ar->kind == SM2C_ARG_INT && (ar->i < INT32_MIN || ar->i > INT32_MAX))
                return ar->i;
        }
    return 0;
}

sm2c_status sm2c_lower_node(sm2c_lower *l, const sm2c_node *n)
{
    if (n->hybrid) {    /* --quantize dynamic: TFLite's hybrid kernels */
        if (l->c->lowered && sm2c_opdef_in_table(n->op))
            l->c->lowered[sm2c_opdef_index(n->op)] |= UINT64_C(1) << SM2C_DT_FLOAT;
        return sm2c_lower_hybrid(l, n);
    }
    if (n->q) {     /* --quantize int8: the int8 kernels */
        if (l->c->lowered && sm2c_opdef_in_table(n->op))
            l->c->lowered[sm2c_opdef_index(n->op)] |= UINT64_C(1) << SM2C_DT_INT8;
        return sm2c_lower_q8(l, n);
    }
    int dtype = sm2c_node_dtype(n);
    if (!sm2c_opdef_has_dtype(n->op, dtype))
        return sm2c_lower_unsupported(l, n, "%s on %s is not supported (see `sm2c ops`)", n->op->name,
                                      sm2c_dtype_name(dtype));
    if (sm2c_dyn_shape_op(n))   /* not the table's hook: Shape and Size fold otherwise */
        return sm2c_dyn_lower_shape(l, n);
    if (l->c->lowered && sm2c_opdef_in_table(n->op))
        l->c->lowered[sm2c_opdef_index(n->op)] |= UINT64_C(1) << (n->widened_from ? n->widened_from : dtype);
    if (l->c->lowered && n->part_of && sm2c_opdef_in_table(n->part_of))
        l->c->lowered[sm2c_opdef_index(n->part_of)] |= UINT64_C(1) << n->widened_from;
    sm2c_dyn_lower_inputs(l, n);
    l->ints_overflow = 0;
    int32_t first_step = l->entry->n_steps;
    sm2c_status st = n->op->lower(l, n);
    int64_t big = st == SM2C_OK && !l->ints_overflow ? int_arg_overflow(l->entry, first_step) : l->ints_overflow;
    if (st == SM2C_OK && big)   /* a size from the model: a limit, never an internal error */
        return sm2c_error(l->c->diag, SM2C_ERR_LIMIT, n->file, sm2c_node_where(l->c, n), "%s needs the value "
                          "%lld, which does not fit the runtime's int32 parameters", n->op->name, (long long)big);
    return st;
}
