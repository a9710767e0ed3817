/*
** ir.c: constructors and attribute access for the IR.
*/
#include "ir.h"

#include <string.h>

#include "opdefs.h"
#include "varmap.h"

sm2c_value *sm2c_value_new(sm2c_ctx *c, sm2c_graph *g, int dtype, const char *name)
{
    sm2c_value *v = sm2c_arena_alloc(c->arena, sizeof *v);
    v->id = g->n_values++;
    v->dtype = dtype;
    v->shape.rank = -1;
    v->name = name;
    v->input = -1;
    return v;
}

sm2c_value *sm2c_value_const(sm2c_ctx *c, sm2c_graph *g, sm2c_tensor *t, const char *name)
{
    sm2c_value *v = sm2c_value_new(c, g, t->dtype, name);
    v->shape = t->shape;
    v->constant = t;
    return v;
}

sm2c_node *sm2c_node_new(sm2c_ctx *c, sm2c_graph *g, const struct sm2c_opdef *op,
                         const Tensorflow__NodeDef *def, const char *function,
                         int32_t n_inputs, sm2c_value **inputs, int32_t n_outputs)
{
    sm2c_node *n = sm2c_arena_alloc(c->arena, sizeof *n);
    n->id = g->n_nodes;
    n->op = op;
    n->def = def;
    n->name = def ? def->name : "";
    n->function = function ? function : "";
    n->file = g->file;
    n->n_inputs = n_inputs;
    n->inputs = sm2c_arena_array(c->arena, (size_t)n_inputs, sizeof *n->inputs);
    for (int32_t i = 0; i < n_inputs; i++) {
        n->inputs[i] = inputs[i];
        inputs[i]->uses++;
    }
    n->n_outputs = n_outputs;
    n->outputs = sm2c_arena_array(c->arena, (size_t)n_outputs, sizeof *n->outputs);
    for (int32_t i = 0; i < n_outputs; i++) {
        const char *name = i ? sm2c_arena_printf(c->arena, "%s:%d", n->name, i) : n->name;
        sm2c_value *v = sm2c_value_new(c, g, 0, name);
        v->node = n;
        v->index = i;
        n->outputs[i] = v;
    }
    if (g->n_nodes == g->cap_nodes) {
        int32_t cap = g->cap_nodes ? g->cap_nodes * 2 : 64;
        sm2c_node **nodes = sm2c_arena_array(c->arena, (size_t)cap, sizeof *nodes);
        if (g->n_nodes)
            memcpy(nodes, g->nodes, (size_t)g->n_nodes * sizeof *nodes);
        g->nodes = nodes;
        g->cap_nodes = cap;
    }
    g->nodes[g->n_nodes++] = n;
    return n;
}

const char *sm2c_node_where(sm2c_ctx *c, const sm2c_node *n)
{
    if (n->function && n->function[0])
        return sm2c_arena_printf(c->arena, "%s: '%s' (%s)", n->function, n->name,
                                 n->def ? n->def->op : n->op->name);
    return sm2c_arena_printf(c->arena, "'%s' (%s)", n->name, n->def ? n->def->op : n->op->name);
}

/* The node's attr, else the op table's default (TF2 files strip defaults). */
const Tensorflow__AttrValue *sm2c_attr(const sm2c_node *n, const char *name)
{
    const Tensorflow__AttrValue *v = n->def ? sm2c_node_attr(n->def, name) : NULL;
    return v ? v : sm2c_opdef_default(n->op, name);
}

int sm2c_attr_int(const sm2c_node *n, const char *name, int64_t *out)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_I)
        return 0;
    *out = v->i;
    return 1;
}

int64_t sm2c_attr_i(const sm2c_node *n, const char *name)
{
    int64_t v;
    return sm2c_attr_int(n, name, &v) ? v : 0;
}

int sm2c_attr_flag(const sm2c_node *n, const char *name)
{
    int v;
    return sm2c_attr_bool(n, name, &v) ? v : 0;
}

int sm2c_attr_float(const sm2c_node *n, const char *name, float *out)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_F)
        return 0;
    *out = v->f;
    return 1;
}

int sm2c_attr_bool(const sm2c_node *n, const char *name, int *out)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_B)
        return 0;
    *out = v->b != 0;
    return 1;
}

int sm2c_attr_str_is(const sm2c_node *n, const char *name, const char *s)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_S)
        return 0;
    size_t len = strlen(s);
    return v->s.len == len && memcmp(v->s.data, s, len) == 0;
}

const char *sm2c_attr_str(sm2c_ctx *c, const sm2c_node *n, const char *name)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_S)
        return NULL;
    return sm2c_arena_strndup(c->arena, (const char *)v->s.data, v->s.len);
}

int sm2c_attr_ints(const sm2c_node *n, const char *name, const int64_t **vals, size_t *count)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !v->list)
        return 0;
    *vals = v->list->i;
    *count = v->list->n_i;
    return 1;
}

int64_t sm2c_value_elements(const sm2c_value *v)
{
    return sm2c_shape_elements(&v->shape, INT64_MAX);
}

int sm2c_shape_equal(const sm2c_shape *a, const sm2c_shape *b)
{
    if (a->rank != b->rank)
        return 0;
    for (int32_t i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i])
            return 0;
    return 1;
}

sm2c_shape sm2c_shape_make(sm2c_ctx *c, int32_t rank, const int64_t *dims)
{
    sm2c_shape s;
    s.rank = rank;
    s.dims = sm2c_arena_array(c->arena, rank > 0 ? (size_t)rank : 1, sizeof *s.dims);
    if (rank > 0 && dims)
        memcpy(s.dims, dims, (size_t)rank * sizeof *s.dims);
    return s;
}
