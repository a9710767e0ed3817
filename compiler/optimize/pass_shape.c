/*
** pass_shape.c: shape and dtype inference, with folding.
** requires: import.  Nodes are in topological order, so one forward walk sees
** every input's shape (and constant value) before its users.
*/
#include "passes.h"

#include "import/cflow.h"
#include "lower/program.h"
#include "ops/fold.h"
#include "ops/opdefs.h"
#include "ops/ops_common.h"
#include "ops/ops_dyn.h"
#include "load/varmap.h"

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

/* A type attr T must be the dtype of at least one data input (G8): every op
** with a T attr types some of its inputs by it.  The others (condition,
** indices, axis) have attrs of their own. */
static sm2c_status check_type_attr(sm2c_ctx *c, const sm2c_node *n)
{
    const Tensorflow__AttrValue *t = n->def ? sm2c_node_attr(n->def, "T") : NULL;
    if (!t || t->value_case != TENSORFLOW__ATTR_VALUE__VALUE_TYPE || n->n_inputs == 0)
        return SM2C_OK;
    int want = sm2c_dtype_base((int)t->type);
    for (int32_t i = 0; i < n->n_inputs; i++)
        if (n->inputs[i]->dtype == want)
            return SM2C_OK;
    return sm2c_op_error(c, n, SM2C_ERR_INVALID, "attr 'T' is %s but input 0 is %s",
                         sm2c_dtype_name(want), sm2c_dtype_name(n->inputs[0]->dtype));
}

/* Folding inside a branch or loop body that may never run: a kernel error
** (a constant division by zero, say) is not a compile error there; the node
** stays a run-time step, which returns the error only if it runs. */
static void fold_in_region(sm2c_ctx *c, sm2c_graph *g, sm2c_node *n)
{
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(c, &quiet);
    if (sm2c_fold_node(&qc, g, n) != SM2C_OK)
        for (int32_t k = 0; k < n->n_outputs; k++)
            n->outputs[k]->constant = NULL;
}

sm2c_status sm2c_pass_shape(sm2c_ctx *c, sm2c_graph *g)
{
    sm2c_status first = sm2c_check_port_sizes(c, g);
    int32_t depth = 0;   /* control flow regions open (cflow.h) */
    if (first)
        return first;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        sm2c_node *n = g->nodes[i];
        if (n->cflow)
            depth += n == n->cflow->begin ? 1 : n == n->cflow->end ? -1 : 0;
        if (depth > SM2C_CTL_MAX_DEPTH) {
            first = sm2c_op_error(c, n, SM2C_ERR_LIMIT, "control flow nests deeper than %d levels (each Case "
                                  "branch after the first is one more)", SM2C_CTL_MAX_DEPTH);
            break;
        }
        /* Markers and list ops carry the TF node's attrs, not their own. */
        sm2c_status st = n->cflow || n->tlist ? SM2C_OK : check_type_attr(c, n);
        if (!st)
            st = n->op->shape(c, n);
        if (!st)
            st = sm2c_check_value_sizes(c, n);
        if (!st)
            st = sm2c_dyn_node(c, n);   /* data-dependent sizes (ops_dyn.c) */
        if (!st && sm2c_dyn_outputs(n))
            ;                           /* sized at run time even from constants */
        else if (!st && all_inputs_constant(n) && !all_outputs_constant(n) && depth > 0 && !n->cflow)
            fold_in_region(c, g, n);
        else if (!st && all_inputs_constant(n) && !all_outputs_constant(n))
            st = sm2c_fold_node(c, g, n);
        if (st && !first)
            first = st;
        if (st)
            break;  /* later shapes depend on this one */
    }
    return first;
}
