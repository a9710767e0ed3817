/*
** pass_dce.c: dead-code elimination.
** requires: shape (and fold).  A node is live when it is not computed at
** compile time and an entry output depends on it.  Import already pulled in
** only what the outputs need; this removes what folding and fusion made dead.
** Variable writes and Asserts, and the branches and loops around them, always live.
*/
#include <string.h>

#include "import/cflow.h"
#include "ops/opdefs.h"
#include "passes.h"

static int all_outputs_constant(const sm2c_node *n)
{
    for (int32_t i = 0; i < n->n_outputs; i++)
        if (!n->outputs[i]->constant)
            return 0;
    return 1;
}

/* Marks every construct around a variable write: the write is a side effect,
** so the branch or loop that runs it lives whatever its outputs are used for. */
static void mark_writing_constructs(sm2c_ctx *c, const sm2c_graph *g)
{
    sm2c_cflow **open = sm2c_arena_array(c->arena, (size_t)g->n_nodes + 1, sizeof *open);
    int32_t depth = 0;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const sm2c_node *n = g->nodes[i];
        if (n->cflow && n == n->cflow->begin)
            open[depth++] = n->cflow;
        else if (n->cflow && n == n->cflow->end && depth > 0)
            depth--;
        else if (sm2c_op_has_side_effect(n->op))
            for (int32_t d = 0; d < depth; d++)
                open[d]->writes = 1;
    }
}

sm2c_status sm2c_pass_dce(sm2c_ctx *c, sm2c_graph *g)
{
    mark_writing_constructs(c, g);
    unsigned char *needed = sm2c_arena_alloc(c->arena, (size_t)g->n_values + 1);
    for (int32_t k = 0; k < g->n_outputs; k++)
        needed[g->outputs[k].value->id] = 1;
    for (int32_t i = g->n_nodes - 1; i >= 0; i--) {
        sm2c_node *n = g->nodes[i];
        int live = 0;
        for (int32_t k = 0; k < n->n_outputs; k++)
            live |= needed[n->outputs[k]->id];
        /* A construct lives when its end does; then all its markers do. */
        if (n->cflow && n == n->cflow->end)
            live = n->cflow->live = live || n->cflow->writes;
        else if (n->cflow)
            live = n->cflow->live;
        if (sm2c_op_has_side_effect(n->op))
            live = 1;   /* a side effect: kept whatever the outputs need */
        else if (!live || (all_outputs_constant(n) && !n->cflow)) {
            n->dead = 1;
            continue;
        }
        for (int32_t k = 0; k < n->n_inputs; k++)
            needed[n->inputs[k]->id] = 1;
        if (n->bias)
            needed[n->bias->id] = 1;
        if (n->residual)
            needed[n->residual->id] = 1;
    }
    return SM2C_OK;
}
