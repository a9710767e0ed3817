/*
** ir.c: constructors and attribute access for the IR.
*/
#include "ir.h"

#include <string.h>

#include "load/varmap.h"

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
