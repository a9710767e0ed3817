/*
** ir_verify.c: the graph IR's invariants, checked after every pass in debug
** builds (driver/pipeline.c), as QBE and LLVM check theirs.
**
** Dead nodes keep their place in the list and are only checked for
** well-formedness: what they read no longer matters.  A value known at
** compile time may be read before the node that made it (fusion takes a
** Keras 3 bias read after its convolution; that node dies in dce).
*/
#include "ir_print.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct verifier {
    sm2c_ctx *c;
    const sm2c_graph *g;
    const char *after;
    int flags;
    const sm2c_value **by_id;   /* each id's value, to catch two values with one id */
    int32_t *at;                /* 1 + position of the node defining the value, 0: none yet */
    int32_t *region;            /* the region it was defined in */
    int32_t *parent;            /* each region's enclosing one, -1 for the entry's */
    int32_t n_regions;
} verifier;

static sm2c_status fail(verifier *v, const sm2c_node *n, const char *fmt, ...) SM2C_PRINTF(3, 4);

static sm2c_status fail(verifier *v, const sm2c_node *n, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *where = sm2c_arena_printf(v->c->arena, "signature '%s'%s%s", v->g->key,
                                          n ? ": node " : "", n ? sm2c_node_where(v->c, n) : "");
    /* A bug: never demoted to a warning that skips the signature (pipeline.c). */
    v->c->diag->corrupt++;
    sm2c_status st = sm2c_error(v->c->diag, SM2C_ERR_INTERNAL, v->g->file, where,
                                "IR verifier, after pass '%s': %s", v->after ? v->after : "?", what);
    v->c->diag->corrupt--;
    return st;
}

/* v is a value with an id in range, the only value with that id. */
static sm2c_status known(verifier *v, const sm2c_node *n, const sm2c_value *x, const char *role)
{
    if (!x)
        return fail(v, n, "%s is NULL", role);
    if (x->id < 0 || x->id >= v->g->n_values)
        return fail(v, n, "%s %%%d: id out of range (the graph has %d values)", role, (int)x->id,
                    (int)v->g->n_values);
    if (v->by_id[x->id] && v->by_id[x->id] != x)
        return fail(v, n, "%s %%%d: two values have this id", role, (int)x->id);
    v->by_id[x->id] = x;
    return SM2C_OK;
}

static int in_region(const verifier *v, int32_t inner, int32_t outer)
{
    for (int32_t r = inner; r >= 0; r = v->parent[r])
        if (r == outer)
            return 1;
    return 0;
}

/* x may be read in `region`: made by a live node before (in that region or
** one around it), or an entry input, a state handle or a constant. */
static sm2c_status readable(verifier *v, const sm2c_node *n, const sm2c_value *x, const char *role,
                            int32_t region)
{
    sm2c_status st = known(v, n, x, role);
    if (!st && (v->flags & SM2C_VERIFY_TYPED) && (!x->dtype || x->shape.rank < 0))
        return fail(v, n, "%s %%%d has no %s after shape inference", role, (int)x->id,
                    x->dtype ? "shape" : "dtype");
    if (st || x->constant)
        return st;
    if (!x->node) {
        if (x->input < 0 && !x->state)
            return fail(v, n, "%s %%%d has no producer and is no input, state or constant", role, (int)x->id);
        return SM2C_OK;
    }
    if (!v->at[x->id])
        return fail(v, n, "%s %%%d is used before it is defined (or its node '%s' is not in the graph)", role,
                    (int)x->id, x->node->name);
    if (x->node->dead)
        return fail(v, n, "%s %%%d is made by dead node '%s'", role, (int)x->id, x->node->name);
    if (!in_region(v, region, v->region[x->id]))
        return fail(v, n, "%s %%%d is defined inside a control-flow region that does not hold this use",
                    role, (int)x->id);
    return SM2C_OK;
}

static int op_is(const sm2c_node *n, const char *name)
{
    return strcmp(n->op->name, name) == 0;
}

/* The markers nest: Begin, then its middle, then its End, all one cflow. */
static sm2c_status check_marker(verifier *v, const sm2c_node *n, const sm2c_node **open, int32_t *depth,
                                int *middled)
{
    int begin = op_is(n, "IfBegin") || op_is(n, "LoopBegin");
    int mid = op_is(n, "IfElse") || op_is(n, "LoopCond");
    int end = op_is(n, "IfEnd") || op_is(n, "LoopEnd");
    if (!n->cflow)
        return begin || mid || end ? fail(v, n, "a control-flow marker without its construct") : SM2C_OK;
    if (!begin && !mid && !end)
        return fail(v, n, "a construct on a node that is no control-flow marker");
    if (begin) {
        middled[*depth] = 0;
        open[(*depth)++] = n;
        return SM2C_OK;
    }
    const sm2c_node *b = *depth ? open[*depth - 1] : NULL;
    if (!b || b->cflow != n->cflow)
        return fail(v, n, "a control-flow marker outside its construct");
    int loop = op_is(b, "LoopBegin");
    if (mid && (middled[*depth - 1] || loop != op_is(n, "LoopCond")))
        return fail(v, n, "a middle marker out of place");
    if (end && (!middled[*depth - 1] || loop != op_is(n, "LoopEnd")))
        return fail(v, n, "an end marker out of place");
    if (mid)
        middled[*depth - 1] = 1;
    else
        (*depth)--;
    return SM2C_OK;
}

/* Each output links back to n and is defined once, in `region`. */
static sm2c_status define(verifier *v, const sm2c_node *n, int32_t pos, int32_t region)
{
    for (int32_t k = 0; k < n->n_outputs; k++) {
        const sm2c_value *x = n->outputs[k];
        sm2c_status st = known(v, n, x, "output");
        if (st)
            return st;
        if (x->node != n || x->index != k)
            return fail(v, n, "output %d (%%%d) does not name this node as its producer", (int)k, (int)x->id);
        if (v->at[x->id])
            return fail(v, n, "output %%%d is defined twice", (int)x->id);
        v->at[x->id] = pos + 1;
        v->region[x->id] = region;
    }
    return SM2C_OK;
}

static sm2c_status check_node(verifier *v, const sm2c_node *n, int32_t pos, int32_t *region)
{
    sm2c_status st = SM2C_OK;
    if (!n->op || n->n_inputs < 0 || n->n_outputs < 0)
        return fail(v, n, "malformed node");
    for (int32_t k = 0; !st && k < n->n_inputs; k++)
        st = n->dead ? known(v, n, n->inputs[k], "input") : readable(v, n, n->inputs[k], "input", *region);
    if (!st && !n->dead && n->bias)
        st = readable(v, n, n->bias, "bias", *region);
    if (!st && !n->dead && n->residual)
        st = readable(v, n, n->residual, "residual", *region);
    if (st)
        return st;
    /* Markers: a Begin's outputs belong around the construct and opens a region,
    ** a middle one ends a region and opens its sibling, an End closes it. */
    int begin = n->cflow && (op_is(n, "IfBegin") || op_is(n, "LoopBegin"));
    int mid = n->cflow && (op_is(n, "IfElse") || op_is(n, "LoopCond"));
    int end = n->cflow && (op_is(n, "IfEnd") || op_is(n, "LoopEnd"));
    if (mid || end)
        *region = v->parent[*region] >= 0 ? v->parent[*region] : *region;
    if ((st = define(v, n, pos, *region)))
        return st;
    if (begin || mid) {
        v->parent[v->n_regions] = *region;
        *region = v->n_regions++;
    }
    return SM2C_OK;
}

/* No value is read by more live nodes than its `uses` counts: the passes'
** users walk (optimize/rewrite.c) stops after that many. */
static sm2c_status check_use_counts(verifier *v)
{
    const sm2c_graph *g = v->g;
    int32_t *reads = sm2c_arena_array(v->c->arena, (size_t)g->n_values + 1, sizeof *reads);
    for (int32_t i = 0; i < g->n_nodes; i++)
        for (int32_t k = 0; !g->nodes[i]->dead && k < g->nodes[i]->n_inputs; k++)
            reads[g->nodes[i]->inputs[k]->id]++;
    for (int32_t i = 0; i < g->n_nodes; i++)
        for (int32_t k = 0; !g->nodes[i]->dead && k < g->nodes[i]->n_inputs; k++) {
            const sm2c_value *x = g->nodes[i]->inputs[k];
            if (reads[x->id] > x->uses)
                return fail(v, g->nodes[i], "value '%s' is read by %d live nodes but counts %d uses", x->name,
                            (int)reads[x->id], (int)x->uses);
        }
    return SM2C_OK;
}

sm2c_status sm2c_ir_verify(sm2c_ctx *c, const sm2c_graph *g, const char *after, int flags)
{
    verifier v = { c, g, after, flags, NULL, NULL, NULL, NULL, 1 };
    size_t n_values = (size_t)g->n_values + 1, n_nodes = (size_t)g->n_nodes + 1;
    v.by_id = sm2c_arena_array(c->arena, n_values, sizeof *v.by_id);
    v.at = sm2c_arena_array(c->arena, n_values, sizeof *v.at);
    v.region = sm2c_arena_array(c->arena, n_values, sizeof *v.region);
    v.parent = sm2c_arena_array(c->arena, 2 * n_nodes + 1, sizeof *v.parent);
    const sm2c_node **open = sm2c_arena_array(c->arena, n_nodes, sizeof *open);
    int *middled = sm2c_arena_array(c->arena, n_nodes, sizeof *middled);
    v.parent[0] = -1;
    int32_t depth = 0, region = 0;
    sm2c_status st = SM2C_OK;
    for (int32_t k = 0; !st && k < g->n_inputs; k++)
        st = known(&v, NULL, g->inputs[k].value, "entry input");
    for (int32_t i = 0; !st && i < g->n_nodes; i++) {
        const sm2c_node *n = g->nodes[i];
        if (!n)
            return fail(&v, NULL, "node %d of the list is NULL", (int)i);
        if (!(st = check_marker(&v, n, open, &depth, middled)))
            st = check_node(&v, n, i, &region);
    }
    if (!st && depth)
        st = fail(&v, open[depth - 1], "a control-flow construct is not closed");
    if (!st)
        st = check_use_counts(&v);
    for (int32_t k = 0; !st && k < g->n_outputs; k++)
        st = readable(&v, NULL, g->outputs[k].value,
                      sm2c_arena_printf(c->arena, "entry output '%s'", g->outputs[k].key), 0);
    return st;
}
