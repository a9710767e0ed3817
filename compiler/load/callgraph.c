/*
** callgraph.c: the function library's call graph, checked once at load
** (docs/reliability.md U1-U4; that no function takes an op's name is checked by
** import/op_support.c, which knows the ops).
**
** A function calls another through a node whose op is the callee's name, or
** through any function-valued attr: PartitionedCall's `f`, While's `cond` and
** `body`, If's branches, Case's `branches` list, and funcs nested in the attrs
** of a NameAttrList.  Recursion through any of these paths is an error, found
** by an iterative depth-first search (no C recursion on model data).  Also:
** a type_attr must name one of the function's attrs, and an arg's own type
** must be a real dtype.
*/
#include "callgraph.h"

#include <stdint.h>
#include <string.h>


typedef struct graph {
    sm2c_ctx *c;
    const sm2c_model *m;
    size_t n;                       /* functions */
    const Tensorflow__FunctionDef **fn;
    sm2c_strmap *index;             /* name -> position + 1 */
    int32_t **out;                  /* callee indices per function */
    size_t *n_out, *cap_out;
} graph;

static int32_t fn_index(const graph *g, const char *name)
{
    void *v = sm2c_strmap_get(g->index, name);
    return v ? (int32_t)((intptr_t)v - 1) : -1;
}

static void add_edge(graph *g, size_t from, const char *name)
{
    int32_t to = fn_index(g, name);
    if (to < 0)
        return;     /* a missing callee is reported where it is called */
    for (size_t k = 0; k < g->n_out[from]; k++)
        if (g->out[from][k] == to)
            return;
    if (g->n_out[from] == g->cap_out[from]) {
        size_t cap = g->cap_out[from] ? 2 * g->cap_out[from] : 4;
        int32_t *grown = sm2c_arena_array(g->c->arena, cap, sizeof *grown);
        if (g->n_out[from])
            memcpy(grown, g->out[from], g->n_out[from] * sizeof *grown);
        g->out[from] = grown;
        g->cap_out[from] = cap;
    }
    g->out[from][g->n_out[from]++] = to;
}

/* Every function named by an attr value, including inside NameAttrLists,
** with an explicit stack (nesting is already capped by the parser). */
static void add_attr_edges(graph *g, size_t from, const Tensorflow__AttrValue *root)
{
    size_t cap = 16, top = 0;
    const Tensorflow__AttrValue **stack = sm2c_arena_array(g->c->arena, cap, sizeof *stack);
    stack[top++] = root;
    while (top) {
        const Tensorflow__AttrValue *v = stack[--top];
        const Tensorflow__NameAttrList *single[1];
        Tensorflow__NameAttrList *const *funcs = NULL;
        size_t n_funcs = 0;
        if (v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_FUNC && v->func) {
            single[0] = v->func;
            funcs = (Tensorflow__NameAttrList *const *)single;
            n_funcs = 1;
        } else if (v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_LIST && v->list) {
            funcs = v->list->func;
            n_funcs = v->list->n_func;
        }
        for (size_t i = 0; i < n_funcs; i++) {
            const Tensorflow__NameAttrList *f = funcs[i];
            if (!f)
                continue;
            if (f->name)
                add_edge(g, from, f->name);
            for (size_t a = 0; a < f->n_attr; a++) {
                if (!f->attr[a] || !f->attr[a]->value)
                    continue;
                if (top == cap) {
                    const Tensorflow__AttrValue **grown = sm2c_arena_array(g->c->arena, 2 * cap,
                                                                           sizeof *grown);
                    memcpy(grown, stack, cap * sizeof *grown);
                    stack = grown;
                    cap *= 2;
                }
                stack[top++] = f->attr[a]->value;
            }
        }
    }
}

static void add_function_edges(graph *g, size_t i)
{
    const Tensorflow__FunctionDef *f = g->fn[i];
    for (size_t k = 0; k < f->n_node_def; k++) {
        const Tensorflow__NodeDef *nd = f->node_def[k];
        if (nd->op)
            add_edge(g, i, nd->op);
        for (size_t a = 0; a < nd->n_attr; a++)
            if (nd->attr[a] && nd->attr[a]->value)
                add_attr_edges(g, i, nd->attr[a]->value);
    }
}

/* "f -> g -> f" from the DFS stack positions [from, top) plus the repeat. */
static const char *cycle_path(const graph *g, const int32_t *stack, size_t from, size_t top)
{
    const char *t = "";
    for (size_t k = from; k < top; k++)
        t = sm2c_arena_printf(g->c->arena, "%s%s -> ", t, g->fn[stack[k]]->signature->name);
    return sm2c_arena_printf(g->c->arena, "%s%s", t, g->fn[stack[from]]->signature->name);
}

/* Iterative DFS over the call graph; the first back edge is the error. */
static sm2c_status find_cycle(graph *g)
{
    unsigned char *color = sm2c_arena_alloc(g->c->arena, g->n + 1);
    int32_t *stack = sm2c_arena_array(g->c->arena, g->n + 1, sizeof *stack);
    size_t *next = sm2c_arena_array(g->c->arena, g->n + 1, sizeof *next);
    for (size_t r = 0; r < g->n; r++) {
        if (color[r])
            continue;
        size_t top = 0;
        stack[top] = (int32_t)r;
        next[top++] = 0;
        color[r] = 1;
        while (top) {
            int32_t v = stack[top - 1];
            if (next[top - 1] == g->n_out[v]) {
                color[v] = 2;
                top--;
                continue;
            }
            int32_t w = g->out[v][next[top - 1]++];
            if (color[w] == 1) {
                size_t from = top - 1;
                while (stack[from] != w)
                    from--;
                return sm2c_error(g->c->diag, SM2C_ERR_INVALID, g->m->file,
                                  sm2c_arena_printf(g->c->arena, "function '%s'",
                                                    g->fn[w]->signature->name),
                                  "is recursive (%s)", cycle_path(g, stack, from, top));
            }
            if (color[w] == 0) {
                color[w] = 1;
                stack[top] = w;
                next[top++] = 0;
            }
        }
    }
    return SM2C_OK;
}

static int has_attr(const Tensorflow__OpDef *sig, const char *name)
{
    for (size_t i = 0; i < sig->n_attr; i++)
        if (sig->attr[i] && sig->attr[i]->name && strcmp(sig->attr[i]->name, name) == 0)
            return 1;
    return 0;
}

/* U4: a type_attr naming no attr; an arg of no real dtype. */
static sm2c_status check_signature(graph *g, const Tensorflow__FunctionDef *f)
{
    const Tensorflow__OpDef *sig = f->signature;
    const char *where = sm2c_arena_printf(g->c->arena, "function '%s'", sig->name);
    for (int pass = 0; pass < 2; pass++) {
        Tensorflow__OpDef__ArgDef **args = pass ? sig->output_arg : sig->input_arg;
        size_t n = pass ? sig->n_output_arg : sig->n_input_arg;
        for (size_t i = 0; i < n; i++) {
            const char *ta = args[i]->type_attr, *tl = args[i]->type_list_attr;
            int dt = (int)args[i]->type;
            if (ta && ta[0] && !has_attr(sig, ta))
                return sm2c_error(g->c->diag, SM2C_ERR_INVALID, g->m->file, where,
                                  "%s '%s' has type_attr '%s', which is not an attr of the function",
                                  pass ? "output" : "input", args[i]->name, ta);
            if (!(ta && ta[0]) && !(tl && tl[0]) && (!sm2c_dtype_known(dt) || dt == 0 || dt >= 100))
                return sm2c_error(g->c->diag, SM2C_ERR_INVALID, g->m->file, where,
                                  "%s '%s' has type %s, not a valid dtype", pass ? "output" : "input",
                                  args[i]->name, sm2c_dtype_enum_name(dt));
        }
    }
    return SM2C_OK;
}

sm2c_status sm2c_check_call_graph(sm2c_ctx *c, const sm2c_model *m)
{
    const Tensorflow__FunctionDefLibrary *lib = m->graph->library;
    graph g = { .c = c, .m = m, .n = lib ? lib->n_function : 0 };
    if (g.n == 0)
        return SM2C_OK;
    g.fn = sm2c_arena_array(c->arena, g.n, sizeof *g.fn);
    g.out = sm2c_arena_array(c->arena, g.n, sizeof *g.out);
    g.n_out = sm2c_arena_array(c->arena, g.n, sizeof *g.n_out);
    g.cap_out = sm2c_arena_array(c->arena, g.n, sizeof *g.cap_out);
    g.index = sm2c_strmap_new(c->arena, g.n);
    for (size_t i = 0; i < g.n; i++) {
        g.fn[i] = lib->function[i];
        sm2c_strmap_put(g.index, g.fn[i]->signature->name, (void *)(intptr_t)(i + 1));
    }
    for (size_t i = 0; i < g.n; i++) {
        sm2c_status st = check_signature(&g, g.fn[i]);
        if (st)
            return st;
    }
    for (size_t i = 0; i < g.n; i++)
        add_function_edges(&g, i);
    return find_cycle(&g);
}
