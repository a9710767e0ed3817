/*
** op_support.c: which ops compile, function names that clash with them, and
** the reachable-op histogram.
*/
#include "op_support.h"

#include <stdlib.h>
#include <string.h>

#include "functionalize.h"
#include "import.h"
#include "ops/opdefs.h"
#include "load/varmap.h"

/* An op is compilable when the op table has it (a lowering and a kernel) or
** the importer resolves it itself (constants, placeholders, variables, calls,
** Identity-like aliases). */
int sm2c_op_supported(const char *name)
{
    return sm2c_opdef_find(name) != NULL || sm2c_import_handles(name) || sm2c_functionalize_handles(name);
}

sm2c_status sm2c_check_function_names(sm2c_ctx *c, const sm2c_model *m)
{
    const Tensorflow__FunctionDefLibrary *lib = m->graph->library;
    for (size_t i = 0; lib && i < lib->n_function; i++) {
        const char *name = lib->function[i]->signature->name;
        if (sm2c_opdef_find(name) || sm2c_import_handles(name))
            return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file,
                              sm2c_arena_printf(c->arena, "function '%s'", name), "has the name of the op '%s'",
                              name);
    }
    return SM2C_OK;
}

typedef struct walk {
    sm2c_ctx *c;
    const sm2c_model *m;
    sm2c_strmap *counts;          /* op -> sm2c_op_count */
    sm2c_op_count **order;        /* the same counts, in first-seen order */
    size_t n_ops, ops_cap;
    sm2c_strmap *seen_nodes;      /* main-graph node name -> node */
    sm2c_strmap *seen_fns;        /* function name -> FunctionDef */
    const Tensorflow__NodeDef **stack;
    size_t top, cap;
    const Tensorflow__FunctionDef **fstack;
    size_t ftop, fcap;
} walk;

static void count_op(walk *w, const char *op)
{
    sm2c_op_count *e = sm2c_strmap_get(w->counts, op);
    if (!e) {
        e = sm2c_arena_alloc(w->c->arena, sizeof *e);
        e->op = op;
        sm2c_strmap_put(w->counts, op, e);
        if (w->n_ops == w->ops_cap) {
            size_t cap = w->ops_cap ? w->ops_cap * 2 : 32;
            sm2c_op_count **o = sm2c_arena_array(w->c->arena, cap, sizeof *o);
            if (w->n_ops)
                memcpy(o, w->order, w->n_ops * sizeof *o);
            w->order = o;
            w->ops_cap = cap;
        }
        w->order[w->n_ops++] = e;
    }
    e->count++;
}

static void push_fn(walk *w, const char *name)
{
    Tensorflow__FunctionDef *f = sm2c_strmap_get(w->m->functions, name);
    if (!f || sm2c_strmap_put(w->seen_fns, name, f))
        return;
    if (w->ftop == w->fcap) {
        size_t cap = w->fcap ? w->fcap * 2 : 16;
        const Tensorflow__FunctionDef **s = sm2c_arena_array(w->c->arena, cap, sizeof *s);
        if (w->ftop)
            memcpy(s, w->fstack, w->ftop * sizeof *s);
        w->fstack = s;
        w->fcap = cap;
    }
    w->fstack[w->ftop++] = f;
}

static void attr_functions(walk *w, const Tensorflow__AttrValue *v)
{
    if (v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_FUNC && v->func)
        push_fn(w, v->func->name);
    if (v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_LIST && v->list)
        for (size_t i = 0; i < v->list->n_func; i++)
            push_fn(w, v->list->func[i]->name);
}

/* Count a node and queue the functions it calls. */
static void visit(walk *w, const Tensorflow__NodeDef *n)
{
    count_op(w, n->op);
    push_fn(w, n->op);
    for (size_t i = 0; i < n->n_attr; i++)
        if (n->attr[i]->value)
            attr_functions(w, n->attr[i]->value);
}

static void push_node(walk *w, const char *tensor)
{
    long idx;
    const Tensorflow__NodeDef *n = sm2c_model_tensor_node(w->m, tensor, &idx);
    if (!n || sm2c_strmap_put(w->seen_nodes, n->name, (void *)n))
        return;
    w->stack[w->top++] = n;
}

static void walk_graph(walk *w)
{
    while (w->top) {
        const Tensorflow__NodeDef *n = w->stack[--w->top];
        visit(w, n);
        for (size_t i = 0; i < n->n_input; i++)
            push_node(w, n->input[i]);
    }
}

static void walk_functions(walk *w)
{
    while (w->ftop) {
        const Tensorflow__FunctionDef *f = w->fstack[--w->ftop];
        for (size_t i = 0; i < f->n_node_def; i++)
            visit(w, f->node_def[i]);
    }
}

static void push_signature_outputs(walk *w)
{
    const Tensorflow__MetaGraphDef *mg = w->m->meta_graph;
    for (size_t i = 0; i < mg->n_signature_def; i++) {
        const Tensorflow__MetaGraphDef__SignatureDefEntry *e = mg->signature_def[i];
        if (!e->value || strcmp(e->key, "__saved_model_init_op") == 0)
            continue;
        for (size_t k = 0; k < e->value->n_outputs; k++) {
            const Tensorflow__TensorInfo *ti = e->value->outputs[k]->value;
            if (ti && ti->encoding_case == TENSORFLOW__TENSOR_INFO__ENCODING_NAME)
                push_node(w, ti->name);
            if (ti && ti->encoding_case == TENSORFLOW__TENSOR_INFO__ENCODING_COO_SPARSE) {
                push_node(w, ti->coo_sparse->values_tensor_name);
                push_node(w, ti->coo_sparse->indices_tensor_name);
                push_node(w, ti->coo_sparse->dense_shape_tensor_name);
            }
        }
    }
}

static int cmp_count(const void *a, const void *b)
{
    const sm2c_op_count *x = a, *y = b;
    return strcmp(x->op, y->op);
}

sm2c_status sm2c_reachable_ops(sm2c_ctx *c, const sm2c_model *m, sm2c_op_count **out,
                               size_t *count)
{
    walk w = { .c = c, .m = m };
    w.counts = sm2c_strmap_new(c->arena, 64);
    w.seen_nodes = sm2c_strmap_new(c->arena, m->graph->n_node);
    w.seen_fns = sm2c_strmap_new(c->arena, 64);
    w.cap = m->graph->n_node + 1;
    w.stack = sm2c_arena_array(c->arena, w.cap, sizeof *w.stack);
    push_signature_outputs(&w);
    walk_graph(&w);
    walk_functions(&w);
    sm2c_op_count *list = sm2c_arena_array(c->arena, w.n_ops, sizeof *list);
    for (size_t i = 0; i < w.n_ops; i++)
        list[i] = *w.order[i];
    qsort(list, w.n_ops, sizeof *list, cmp_count);
    *out = list;
    *count = w.n_ops;
    return SM2C_OK;
}
