/*
** rewrite.c: what the rewriting passes (fusion and folding) ask of a graph.
*/
#include <string.h>

#include "passes.h"

/* Where v's producer sits in g->nodes (its users come after it), else 0. */
static int32_t scan_start(const sm2c_graph *g, const sm2c_value *v)
{
    const sm2c_node *p = v->node;
    return p && p->id >= 0 && p->id < g->n_nodes && g->nodes[p->id] == p ? p->id + 1 : 0;
}

/* The live nodes' uses of v, the first of them in *user.  v->uses never
** counts fewer uses than live nodes make (every rewrite that adds a use
** counts it; a dead node's may stay counted), so the walk stops once it has
** found that many: from v's producer on, a chain's user is the next node,
** where walking the whole graph per question made passes quadratic.  Past the
** end it wraps to the start, in case a user precedes its producer. */
static int node_uses(const sm2c_graph *g, const sm2c_value *v, sm2c_node **user)
{
    int count = 0;
    int32_t n = g->n_nodes, start = scan_start(g, v);
    *user = NULL;
    for (int32_t j = 0; j < n && count < v->uses; j++) {
        sm2c_node *u = g->nodes[(start + j) % n];
        for (int32_t k = 0; !u->dead && k < u->n_inputs; k++)
            if (u->inputs[k] == v) {
                if (!*user)
                    *user = u;
                count++;
            }
    }
    return count;
}

int sm2c_uses_of(const sm2c_graph *g, const sm2c_value *v)
{
    sm2c_node *user;
    int count = node_uses(g, v, &user);
    for (int32_t k = 0; k < g->n_outputs; k++)
        count += g->outputs[k].value == v;
    return count;
}

sm2c_node *sm2c_sole_user(const sm2c_graph *g, const sm2c_value *v)
{
    sm2c_node *user;
    int count = node_uses(g, v, &user);
    for (int32_t k = 0; k < g->n_outputs; k++)
        count += g->outputs[k].value == v;
    return count == 1 ? user : NULL;  /* NULL too when its one use is a graph output */
}

int sm2c_scalar_const(const sm2c_value *v, float *f)
{
    if (!v->constant || v->dtype != SM2C_DT_FLOAT || v->constant->nelem != 1)
        return 0;
    memcpy(f, v->constant->data, sizeof *f);
    return 1;
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
