/*
** rewrite.c: what the rewriting passes (fusion and folding) ask of a graph.
*/
#include "passes.h"

int sm2c_uses_of(const sm2c_graph *g, const sm2c_value *v)
{
    int count = 0;
    for (int32_t i = 0; i < g->n_nodes; i++)
        for (int32_t k = 0; !g->nodes[i]->dead && k < g->nodes[i]->n_inputs; k++)
            count += g->nodes[i]->inputs[k] == v;
    for (int32_t k = 0; k < g->n_outputs; k++)
        count += g->outputs[k].value == v;
    return count;
}

sm2c_node *sm2c_sole_user(const sm2c_graph *g, const sm2c_value *v)
{
    if (sm2c_uses_of(g, v) != 1)
        return NULL;
    for (int32_t i = 0; i < g->n_nodes; i++)
        for (int32_t k = 0; !g->nodes[i]->dead && k < g->nodes[i]->n_inputs; k++)
            if (g->nodes[i]->inputs[k] == v)
                return g->nodes[i];
    return NULL;  /* its one use is a graph output */
}

sm2c_value *sm2c_new_const(sm2c_ctx *c, sm2c_graph *g, sm2c_tensor *t, const char *name)
{
    sm2c_value *v = sm2c_value_const(c, g, t, name);
    v->uses = 1;
    return v;
}

void sm2c_replace_uses(sm2c_graph *g, sm2c_value *from, sm2c_value *to)
{
    for (int32_t i = 0; i < g->n_nodes; i++)
        for (int32_t k = 0; k < g->nodes[i]->n_inputs; k++)
            if (g->nodes[i]->inputs[k] == from) {
                g->nodes[i]->inputs[k] = to;
                to->uses++;
            }
    for (int32_t k = 0; k < g->n_outputs; k++)
        if (g->outputs[k].value == from)
            g->outputs[k].value = to;
    from->uses = 0;
}

void sm2c_absorb_node(sm2c_node *n, sm2c_node *dead)
{
    sm2c_node **tail = &n->absorbed;
    while (*tail)
        tail = &(*tail)->absorbed;
    *tail = dead;
    dead->dead = 1;
}
