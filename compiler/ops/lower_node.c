/*
** lower_node.c: lowering one node through its op's hook, within the dtypes
** the op table lists.
*/
#include "opdefs.h"
#include "ops_dyn.h"

/* The dtype an op runs on: its "T" or "dtype" attr, else its first input, else
** its output. */
int sm2c_node_dtype(const sm2c_node *n)
{
    static const char *const attrs[] = { "T", "dtype" };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        const Tensorflow__AttrValue *t = sm2c_attr(n, attrs[i]);
        if (t && t->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE)
            return sm2c_dtype_base((int)t->type);
    }
    if (n->n_inputs > 0)
        return n->inputs[0]->dtype;
    return n->n_outputs > 0 ? n->outputs[0]->dtype : SM2C_DT_INVALID;
}

sm2c_status sm2c_lower_node(sm2c_lower *l, const sm2c_node *n)
{
    int dtype = sm2c_node_dtype(n);
    if (!sm2c_opdef_has_dtype(n->op, dtype))
        return sm2c_lower_unsupported(l, n, "%s on %s is not supported (see `sm2c ops`)", n->op->name,
                                      sm2c_dtype_name(dtype));
    if (sm2c_dyn_shape_op(n))   /* not the table's hook: Shape and Size fold otherwise */
        return sm2c_dyn_lower_shape(l, n);
    if (l->c->lowered && sm2c_opdef_in_table(n->op))
        l->c->lowered[sm2c_opdef_index(n->op)] |= UINT64_C(1) << (n->widened_from ? n->widened_from : dtype);
    sm2c_dyn_lower_inputs(l, n);
    l->ints_overflow = 0;
    sm2c_status st = n->op->lower(l, n);
    if (st == SM2C_OK && l->ints_overflow)
        return sm2c_lower_unsupported(l, n, "%s needs the value %lld, which does not fit the runtime's "
                                      "int32 parameters", n->op->name, (long long)l->ints_overflow);
    return st;
}
