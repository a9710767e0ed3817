/*
** pass_shape.c: shape and dtype inference, with folding.
** requires: import.  Nodes are in topological order, so one forward walk sees
** every input's shape (and constant value) before its users.
*/
#include "passes.h"

#include "opdefs.h"

static int all_inputs_constant(const sm2c_node *n)
{
    for (int32_t i = 0; i < n->n_inputs; i++)
        if (!n->inputs[i]->constant)
            return 0;
    return n->n_inputs > 0;
}

static int all_outputs_constant(const sm2c_node *n)
{
    for (int32_t i = 0; i < n->n_outputs; i++)
        if (!n->outputs[i]->constant)
            return 0;
    return 1;
}

sm2c_status sm2c_pass_shape(sm2c_ctx *c, sm2c_graph *g)
{
    sm2c_status first = SM2C_OK;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        sm2c_node *n = g->nodes[i];
        sm2c_status st = n->op->shape(c, n);
        if (!st && all_inputs_constant(n) && !all_outputs_constant(n))
            st = sm2c_fold_node(c, g, n);
        if (st && !first)
            first = st;
        if (st)
            break;  /* later shapes depend on this one */
    }
    return first;
}
