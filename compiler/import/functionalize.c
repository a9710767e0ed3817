/*
** functionalize.c: TF1 dataflow control flow -> functional If and While.
**
** TF1 graphs (control flow v1) write tf.while_loop as a frame of
** Enter/Merge/Switch/LoopCond/NextIteration/Exit nodes and tf.cond as
** Switch/Merge pairs routed by a predicate.  Like XLA's
** FunctionalizeControlFlow, this stage rewrites every frame into a While node
** whose cond and body are new library functions, and every cond into an If
** node with then and else functions, innermost first, so that import only ever
** sees functional control flow.  The Exit and Merge nodes become Identity nodes
** of the new node's outputs, so every tensor name a signature can use keeps its
** meaning.  It runs on the main graph, then on each function it made (a cond
** inside a loop body).  Only the shapes tf.compat.v1 writes are recognised; any
** other use of these ops gets an error naming the frame or cond and the node.
*/
#include "functionalize.h"
#include "base/grow.h"

#include <stdlib.h>
#include <string.h>

typedef Tensorflow__NodeDef node_def;

/* A node list being rewritten: the main graph or a function made here. */
typedef struct nodelist {
    node_def **v;
    size_t n, cap;
    sm2c_strmap *index;         /* name -> node_def */
    sm2c_strmap *consumers;     /* name -> users (data and control) */
} nodelist;

typedef struct users {
    node_def **v;
    size_t n, cap;
} users;

typedef struct fz {
    sm2c_ctx *c;
    sm2c_model *m;
    int made_count;             /* numbers the functions made */
    Tensorflow__FunctionDef **made;
    size_t n_made, cap_made;
} fz;

/* A closure: the nodes one function of a frame or cond is made of. */
typedef struct closure {
    sm2c_strmap *args;          /* boundary tensor "node:k" -> arg index + 1 */
    sm2c_strmap *pivots;        /* boundary node names: control edges to them are dropped */
    sm2c_strmap *member;        /* names of nodes taken in */
    node_def **v;
    size_t n, cap;
} closure;

enum { CL_OK = 0, CL_NESTED = 1, CL_ERROR = 2 };

static void *grow(sm2c_arena *a, void *v, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return v;
    size_t cap2 = sm2c_grow_cap(*cap, need, elem);
    void *w = sm2c_arena_array(a, cap2, elem);
    if (v)
        memcpy(w, v, *cap * elem);
    *cap = cap2;
    return w;
}

/* ---- references ------------------------------------------------------------------ */

/* "^a" -> a (control); "a:3" -> a, 3; "a" -> a, 0. */
static const char *ref_node(sm2c_arena *a, const char *ref, int32_t *index, int *control)
{
    *control = ref[0] == '^';
    *index = 0;
    const char *s = ref + *control, *colon = strrchr(s, ':');
    if (!colon || *control)
        return s;
    *index = atoi(colon + 1);
    return sm2c_arena_strndup(a, s, (size_t)(colon - s));
}

static const char *tensor_key(sm2c_arena *a, const char *node, int32_t index)
{
    return sm2c_arena_printf(a, "%s:%d", node, index);
}

/* ---- node lists -------------------------------------------------------------------- */

static const Tensorflow__AttrValue *attr(const node_def *nd, const char *name)
{
    for (size_t i = 0; i < nd->n_attr; i++)
        if (!strcmp(nd->attr[i]->key, name))
            return nd->attr[i]->value;
    return NULL;
}

static int attr_type(const node_def *nd, const char *name)
{
    const Tensorflow__AttrValue *v = attr(nd, name);
    return v && v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? (int)v->type : 0;
}

static int is_op(const node_def *nd, const char *op)
{
    return nd && !strcmp(nd->op, op);
}

static void list_add(fz *f, nodelist *l, node_def *nd)
{
    l->v = grow(f->c->arena, l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = nd;
}

/* The name index and the consumer lists, rebuilt after every rewrite. */
static void list_index(fz *f, nodelist *l)
{
    sm2c_arena *a = f->c->arena;
    l->index = sm2c_strmap_new(a, l->n + 1);
    l->consumers = sm2c_strmap_new(a, l->n + 1);
    for (size_t i = 0; i < l->n; i++)
        sm2c_strmap_put(l->index, l->v[i]->name, l->v[i]);
    for (size_t i = 0; i < l->n; i++)
        for (size_t k = 0; k < l->v[i]->n_input; k++) {
            int32_t idx;
            int ctl;
            const char *name = ref_node(a, l->v[i]->input[k], &idx, &ctl);
            users *u = sm2c_strmap_get(l->consumers, name);
            if (!u) {
                u = sm2c_arena_alloc(a, sizeof *u);
                sm2c_strmap_put(l->consumers, name, u);
            }
            if (u->n && u->v[u->n - 1] == l->v[i])
                continue;
            u->v = grow(a, u->v, &u->cap, u->n + 1, sizeof *u->v);
            u->v[u->n++] = l->v[i];
        }
}

static node_def *lookup(const nodelist *l, const char *name)
{
    return sm2c_strmap_get(l->index, name);
}

/* The first consumer of `name` with op `op` reading its output `index`. */
static node_def *consumer(fz *f, const nodelist *l, const char *name, const char *op, int32_t index)
{
    users *u = sm2c_strmap_get(l->consumers, name);
    for (size_t i = 0; u && i < u->n; i++) {
        if (!is_op(u->v[i], op))
            continue;
        for (size_t k = 0; k < u->v[i]->n_input; k++) {
            int32_t idx;
            int ctl;
            const char *n = ref_node(f->c->arena, u->v[i]->input[k], &idx, &ctl);
            if (!ctl && idx == index && !strcmp(n, name))
                return u->v[i];
        }
    }
    return NULL;
}

static node_def *input_node(fz *f, const nodelist *l, const node_def *nd, size_t k)
{
    int32_t idx;
    int ctl;
    return k < nd->n_input ? lookup(l, ref_node(f->c->arena, nd->input[k], &idx, &ctl)) : NULL;
}

static sm2c_status fail(fz *f, const char *where, const node_def *nd, const char *what)
{
    return sm2c_error(f->c->diag, SM2C_ERR_UNSUPPORTED, f->m->file,
                      sm2c_arena_printf(f->c->arena, "%s, node '%s' (%s)", where, nd->name, nd->op),
                      "%s", what);
}

/* ---- closures ------------------------------------------------------------------------ */

static closure *closure_new(fz *f)
{
    closure *cl = sm2c_arena_alloc(f->c->arena, sizeof *cl);
    cl->args = sm2c_strmap_new(f->c->arena, 16);
    cl->pivots = sm2c_strmap_new(f->c->arena, 16);
    cl->member = sm2c_strmap_new(f->c->arena, 64);
    return cl;
}

static void closure_arg(closure *cl, sm2c_arena *a, const char *node, int32_t index, int32_t arg)
{
    sm2c_strmap_put(cl->args, tensor_key(a, node, index), (void *)(intptr_t)(arg + 1));
    sm2c_strmap_put(cl->pivots, node, (void *)1);
}

/* Ops that never belong inside a frame's or cond's function. */
static int is_source_op(const char *op)
{
    static const char *const ops[] = { "Placeholder", "PlaceholderWithDefault", "VariableV2", "Variable",
                                       "VarHandleOp", "NextIteration", "LoopCond" };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strcmp(op, ops[i]))
            return 1;
    return 0;
}

/* Takes in every node the tensor `ref` depends on, up to the closure's
** boundary tensors.  `nested` ops (another frame's Enter/Exit, or another
** cond's Merge: found by is_nested) mean an inner construct comes first. */
static int closure_walk(fz *f, const nodelist *l, closure *cl, const char *ref,
                        int (*is_nested)(const node_def *, void *), void *ctx, const char *where)
{
    sm2c_arena *a = f->c->arena;
    const char **stack = NULL;
    size_t top = 0, cap = 0;
    stack = grow(a, stack, &cap, 1, sizeof *stack);
    stack[top++] = ref;
    while (top) {
        int32_t idx;
        int ctl;
        const char *name = ref_node(a, stack[--top], &idx, &ctl);
        if (!ctl && sm2c_strmap_get(cl->args, tensor_key(a, name, idx)))
            continue;
        node_def *nd = lookup(l, name);
        if (!ctl && nd && sm2c_strmap_get(cl->pivots, name)) {
            fail(f, where, nd, sm2c_arena_printf(a, "output %d is read on the wrong side of it", (int)idx));
            return CL_ERROR;
        }
        if (sm2c_strmap_get(cl->pivots, name) || sm2c_strmap_get(cl->member, name))
            continue;
        if (!nd)
            continue;   /* an argument of the enclosing function */
        if (is_nested(nd, ctx))
            return CL_NESTED;
        if (is_source_op(nd->op) || is_op(nd, "Enter") || is_op(nd, "Exit")) {
            fail(f, where, nd, "is used inside it without passing through its Switch or Enter nodes");
            return CL_ERROR;
        }
        sm2c_strmap_put(cl->member, name, (void *)1);
        cl->v = grow(a, cl->v, &cl->cap, cl->n + 1, sizeof *cl->v);
        cl->v[cl->n++] = nd;
        stack = grow(a, stack, &cap, top + nd->n_input, sizeof *stack);
        for (size_t k = 0; k < nd->n_input; k++)
            stack[top++] = nd->input[k];
    }
    return CL_OK;
}

/* The input reference `ref` as seen inside the function: a boundary tensor
** becomes its argument's name, a control edge to a boundary is dropped (NULL). */
static const char *inside_ref(fz *f, const closure *cl, const char *ref)
{
    sm2c_arena *a = f->c->arena;
    int32_t idx;
    int ctl;
    const char *name = ref_node(a, ref, &idx, &ctl);
    if (ctl)
        return sm2c_strmap_get(cl->member, name) ? ref : NULL;
    intptr_t arg = (intptr_t)sm2c_strmap_get(cl->args, tensor_key(a, name, idx));
    return arg ? sm2c_arena_printf(a, "arg%d", (int)(arg - 1)) : ref;
}

/* ---- making functions ------------------------------------------------------------------- */

static Tensorflow__OpDef__ArgDef *arg_def(sm2c_arena *a, const char *name, int dtype)
{
    Tensorflow__OpDef__ArgDef *d = sm2c_arena_alloc(a, sizeof *d);
    tensorflow__op_def__arg_def__init(d);
    d->name = (char *)name;
    d->type = (Tensorflow__DataType)dtype;
    return d;
}

/* A library function over the closure: arguments arg0.. of types `in`,
** results out0.. of types `out` given by the references `rets`. */
static Tensorflow__FunctionDef *make_function(fz *f, const char *name, const closure *cl, const int *in,
                                              size_t n_in, const int *out, const char *const *rets,
                                              size_t n_out)
{
    sm2c_arena *a = f->c->arena;
    Tensorflow__FunctionDef *fd = sm2c_arena_alloc(a, sizeof *fd);
    tensorflow__function_def__init(fd);
    fd->signature = sm2c_arena_alloc(a, sizeof *fd->signature);
    tensorflow__op_def__init(fd->signature);
    fd->signature->name = (char *)name;
    fd->signature->input_arg = sm2c_arena_array(a, n_in + 1, sizeof *fd->signature->input_arg);
    for (size_t i = 0; i < n_in; i++)
        fd->signature->input_arg[i] = arg_def(a, sm2c_arena_printf(a, "arg%zu", i), in[i]);
    fd->signature->n_input_arg = n_in;
    fd->signature->output_arg = sm2c_arena_array(a, n_out + 1, sizeof *fd->signature->output_arg);
    fd->ret = sm2c_arena_array(a, n_out + 1, sizeof *fd->ret);
    for (size_t i = 0; i < n_out; i++) {
        const char *o = sm2c_arena_printf(a, "out%zu", i);
        fd->signature->output_arg[i] = arg_def(a, o, out[i]);
        fd->ret[i] = sm2c_arena_alloc(a, sizeof *fd->ret[i]);
        tensorflow__function_def__ret_entry__init(fd->ret[i]);
        fd->ret[i]->key = (char *)o;
        fd->ret[i]->value = (char *)inside_ref(f, cl, rets[i]);
    }
    fd->signature->n_output_arg = n_out;
    fd->n_ret = n_out;
    /* Body nodes in their graph order (the closure found them backwards). */
    fd->node_def = sm2c_arena_array(a, cl->n + 1, sizeof *fd->node_def);
    for (size_t i = cl->n; i-- > 0;) {
        node_def *copy = sm2c_arena_alloc(a, sizeof *copy);
        *copy = *cl->v[i];
        copy->input = sm2c_arena_array(a, copy->n_input + 1, sizeof *copy->input);
        copy->n_input = 0;
        for (size_t k = 0; k < cl->v[i]->n_input; k++) {
            const char *r = inside_ref(f, cl, cl->v[i]->input[k]);
            if (r)
                copy->input[copy->n_input++] = (char *)r;
        }
        fd->node_def[fd->n_node_def++] = copy;
    }
    f->made = grow(a, f->made, &f->cap_made, f->n_made + 1, sizeof *f->made);
    f->made[f->n_made++] = fd;
    return fd;
}

/* A fresh function name; the library's names are never reused. */
static const char *function_name(fz *f, const char *kind, const char *part)
{
    for (;;) {
        const char *name = sm2c_arena_printf(f->c->arena, "sm2c_v1_%s_%d_%s", kind, f->made_count, part);
        if (!sm2c_strmap_get(f->m->functions, name))
            return name;
        f->made_count++;
    }
}

static void add_to_library(fz *f, Tensorflow__FunctionDef *fd)
{
    sm2c_arena *a = f->c->arena;
    Tensorflow__GraphDef *g = f->m->graph;
    if (!g->library) {
        g->library = sm2c_arena_alloc(a, sizeof *g->library);
        tensorflow__function_def_library__init(g->library);
    }
    Tensorflow__FunctionDef **fns = sm2c_arena_array(a, g->library->n_function + 2, sizeof *fns);
    if (g->library->n_function)
        memcpy(fns, g->library->function, g->library->n_function * sizeof *fns);
    fns[g->library->n_function++] = fd;
    g->library->function = fns;
    sm2c_strmap_put(f->m->functions, fd->signature->name, fd);
}

static Tensorflow__AttrValue *func_attr(sm2c_arena *a, const char *name)
{
    Tensorflow__AttrValue *v = sm2c_arena_alloc(a, sizeof *v);
    tensorflow__attr_value__init(v);
    v->value_case = TENSORFLOW__ATTR_VALUE__VALUE_FUNC;
    v->func = sm2c_arena_alloc(a, sizeof *v->func);
    tensorflow__name_attr_list__init(v->func);
    v->func->name = (char *)name;
    return v;
}

static Tensorflow__AttrValue *types_attr(sm2c_arena *a, const int *types, size_t n)
{
    Tensorflow__AttrValue *v = sm2c_arena_alloc(a, sizeof *v);
    tensorflow__attr_value__init(v);
    v->value_case = TENSORFLOW__ATTR_VALUE__VALUE_LIST;
    v->list = sm2c_arena_alloc(a, sizeof *v->list);
    tensorflow__attr_value__list_value__init(v->list);
    v->list->type = sm2c_arena_array(a, n + 1, sizeof *v->list->type);
    for (size_t i = 0; i < n; i++)
        v->list->type[i] = (Tensorflow__DataType)types[i];
    v->list->n_type = n;
    return v;
}

static Tensorflow__AttrValue *type_attr(sm2c_arena *a, int dtype)
{
    Tensorflow__AttrValue *v = sm2c_arena_alloc(a, sizeof *v);
    tensorflow__attr_value__init(v);
    v->value_case = TENSORFLOW__ATTR_VALUE__VALUE_TYPE;
    v->type = (Tensorflow__DataType)dtype;
    return v;
}

static void node_attr(sm2c_arena *a, node_def *nd, const char *key, Tensorflow__AttrValue *value)
{
    Tensorflow__NodeDef__AttrEntry **at = sm2c_arena_array(a, nd->n_attr + 2, sizeof *at);
    if (nd->n_attr)
        memcpy(at, nd->attr, nd->n_attr * sizeof *at);
    at[nd->n_attr] = sm2c_arena_alloc(a, sizeof *at[nd->n_attr]);
    tensorflow__node_def__attr_entry__init(at[nd->n_attr]);
    at[nd->n_attr]->key = (char *)key;
    at[nd->n_attr]->value = value;
    nd->attr = at;
    nd->n_attr++;
}

/* A new node of the list (If or While) named after `base`, unique. */
static node_def *new_node(fz *f, nodelist *l, const char *base, const char *op, char **inputs, size_t n_inputs)
{
    sm2c_arena *a = f->c->arena;
    node_def *nd = sm2c_arena_alloc(a, sizeof *nd);
    tensorflow__node_def__init(nd);
    const char *name = base;
    for (int k = 1; lookup(l, name); k++)
        name = sm2c_arena_printf(a, "%s_%d", base, k);
    nd->name = (char *)name;
    nd->op = (char *)op;
    nd->input = inputs;
    nd->n_input = n_inputs;
    list_add(f, l, nd);
    sm2c_strmap_put(l->index, nd->name, nd);
    return nd;
}

/* Node `nd` (an Exit or a Merge) becomes Identity(src:k) with type T. */
static void becomes_identity(fz *f, node_def *nd, const char *src, size_t k, int dtype)
{
    sm2c_arena *a = f->c->arena;
    node_def *id = nd;
    id->op = "Identity";
    id->input = sm2c_arena_array(a, 2, sizeof *id->input);
    id->input[0] = sm2c_arena_printf(a, "%s:%zu", src, k);
    id->n_input = 1;
    id->attr = NULL;
    id->n_attr = 0;
    node_attr(a, id, "T", type_attr(a, dtype));
}

/* Drops the nodes marked in `gone` and, to a fixed point, every node that
** still reads a dropped one.  TF1 reads a frame's or a cond's insides only
** through its Exit or Merge nodes, which now read the new node instead, so
** what is left reading them is dead (an unused Exit of an inner loop). */
static void list_remove(fz *f, nodelist *l, sm2c_strmap *gone)
{
    sm2c_arena *a = f->c->arena;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < l->n; i++) {
            if (sm2c_strmap_get(gone, l->v[i]->name))
                continue;
            for (size_t k = 0; k < l->v[i]->n_input; k++) {
                int32_t idx;
                int ctl;
                if (sm2c_strmap_get(gone, ref_node(a, l->v[i]->input[k], &idx, &ctl))) {
                    sm2c_strmap_put(gone, l->v[i]->name, (void *)1);
                    changed = 1;
                    break;
                }
            }
        }
    }
    size_t w = 0;
    for (size_t i = 0; i < l->n; i++)
        if (!sm2c_strmap_get(gone, l->v[i]->name))
            l->v[w++] = l->v[i];
    l->n = w;
    list_index(f, l);
}

/* ---- while frames ------------------------------------------------------------------------ */

typedef struct frame {
    const char *name;           /* the Enter nodes' frame_name */
    node_def **enter, **merge, **sw, **next, **exit;    /* per loop variable (exit may be NULL) */
    node_def **inv;             /* loop invariants: Enter with is_constant */
    size_t n_vars, n_inv, cap_vars, cap_inv;
    node_def *loop_cond;
} frame;

static const char *frame_name(sm2c_arena *a, const node_def *nd)
{
    const Tensorflow__AttrValue *v = attr(nd, "frame_name");
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_S)
        return "";
    return sm2c_arena_strndup(a, (const char *)v->s.data, v->s.len);
}

static int is_invariant(const node_def *nd)
{
    const Tensorflow__AttrValue *v = attr(nd, "is_constant");
    return v && v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_B && v->b;
}

/* The frames of the list, in the order of their first Enter. */
static frame *find_frames(fz *f, const nodelist *l, size_t *n)
{
    sm2c_arena *a = f->c->arena;
    sm2c_strmap *by_name = sm2c_strmap_new(a, 8);
    frame *frs = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t i = 0; i < l->n; i++) {
        node_def *nd = l->v[i];
        if (!is_op(nd, "Enter"))
            continue;
        const char *name = frame_name(a, nd);
        intptr_t k = (intptr_t)sm2c_strmap_get(by_name, name);
        if (!k) {
            frs = grow(a, frs, &cap, *n + 1, sizeof *frs);
            memset(&frs[*n], 0, sizeof frs[*n]);
            frs[*n].name = name;
            k = (intptr_t)++*n;
            sm2c_strmap_put(by_name, name, (void *)k);
        }
        frame *fr = &frs[k - 1];
        if (is_invariant(nd)) {
            fr->inv = grow(a, fr->inv, &fr->cap_inv, fr->n_inv + 1, sizeof *fr->inv);
            fr->inv[fr->n_inv++] = nd;
        } else {
            fr->enter = grow(a, fr->enter, &fr->cap_vars, fr->n_vars + 1, sizeof *fr->enter);
            fr->enter[fr->n_vars++] = nd;
        }
    }
    return frs;
}

/* Each loop variable's Merge, Switch, NextIteration and Exit, and the LoopCond. */
static sm2c_status complete_frame(fz *f, const nodelist *l, frame *fr, const char *where)
{
    sm2c_arena *a = f->c->arena;
    size_t n = fr->n_vars + 1;
    fr->merge = sm2c_arena_array(a, n, sizeof *fr->merge);
    fr->sw = sm2c_arena_array(a, n, sizeof *fr->sw);
    fr->next = sm2c_arena_array(a, n, sizeof *fr->next);
    fr->exit = sm2c_arena_array(a, n, sizeof *fr->exit);
    if (!fr->n_vars)
        return fail(f, where, fr->inv[0], "the frame has no loop variable");
    for (size_t i = 0; i < fr->n_vars; i++) {
        node_def *m = consumer(f, l, fr->enter[i]->name, "Merge", 0);
        node_def *sw = m ? consumer(f, l, m->name, "Switch", 0) : NULL;
        node_def *next = m ? input_node(f, l, m, 1) : NULL;
        node_def *lc = sw ? input_node(f, l, sw, 1) : NULL;
        if (!m || !sw || !is_op(next, "NextIteration") || !is_op(lc, "LoopCond") ||
            (fr->loop_cond && fr->loop_cond != lc) || m->n_input != 2 || next->n_input < 1 || lc->n_input < 1)
            return fail(f, where, fr->enter[i], "is not a loop variable of the tf.while_loop form "
                                                "(Enter, Merge with NextIteration, Switch on one LoopCond)");
        fr->merge[i] = m;
        fr->sw[i] = sw;
        fr->next[i] = next;
        fr->loop_cond = lc;
        fr->exit[i] = consumer(f, l, sw->name, "Exit", 0);
    }
    return SM2C_OK;
}

/* Inside a frame, another frame's Enter or Exit means that frame goes first. */
static int other_frame(const node_def *nd, void *ctx)
{
    (void)ctx;
    return is_op(nd, "Enter") || is_op(nd, "Exit");
}

/* cond (from the Merges) or body (from the Switches' true side) of a frame. */
static int frame_closure(fz *f, const nodelist *l, const frame *fr, int body, closure *cl, const char *where)
{
    sm2c_arena *a = f->c->arena;
    for (size_t i = 0; i < fr->n_vars; i++) {
        if (body)
            closure_arg(cl, a, fr->sw[i]->name, 1, (int32_t)i);
        else
            closure_arg(cl, a, fr->merge[i]->name, 0, (int32_t)i);
    }
    for (size_t j = 0; j < fr->n_inv; j++)
        closure_arg(cl, a, fr->inv[j]->name, 0, (int32_t)(fr->n_vars + j));
    if (!body)
        return closure_walk(f, l, cl, fr->loop_cond->input[0], other_frame, NULL, where);
    for (size_t i = 0; i < fr->n_vars; i++) {
        int rc = closure_walk(f, l, cl, fr->next[i]->input[0], other_frame, NULL, where);
        if (rc != CL_OK)
            return rc;
    }
    return CL_OK;
}

static void mark_gone(sm2c_strmap *gone, node_def **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i])
            sm2c_strmap_put(gone, v[i]->name, (void *)1);
}

/* The While node replacing the frame; its outputs feed the Exits. */
static void replace_frame(fz *f, nodelist *l, const frame *fr, const int *types, const char *cond,
                          const char *body)
{
    sm2c_arena *a = f->c->arena;
    size_t n = fr->n_vars + fr->n_inv;
    char **in = sm2c_arena_array(a, n + 1, sizeof *in);
    for (size_t i = 0; i < n; i++) {
        const node_def *e = i < fr->n_vars ? fr->enter[i] : fr->inv[i - fr->n_vars];
        in[i] = e->input[0];
    }
    const char *base = fr->loop_cond->name, *slash = strrchr(base, '/');
    base = slash ? sm2c_arena_printf(a, "%.*s/While", (int)(slash - base), base) : "While";
    node_def *w = new_node(f, l, base, "While", in, n);
    node_attr(a, w, "T", types_attr(a, types, n));
    node_attr(a, w, "cond", func_attr(a, cond));
    node_attr(a, w, "body", func_attr(a, body));
    const Tensorflow__AttrValue *pi = attr(fr->enter[0], "parallel_iterations");
    if (pi)
        node_attr(a, w, "parallel_iterations", (Tensorflow__AttrValue *)pi);
    for (size_t i = 0; i < fr->n_vars; i++)
        if (fr->exit[i])
            becomes_identity(f, fr->exit[i], w->name, i, types[i]);
}

/* One frame into a While, its nodes marked in `gone`; *nested when a frame
** inside it must go first. */
static sm2c_status functionalize_frame(fz *f, nodelist *l, frame *fr, sm2c_strmap *gone, int *nested)
{
    sm2c_arena *a = f->c->arena;
    const char *where = sm2c_arena_printf(a, "TF1 while frame '%s'", fr->name);
    sm2c_status st = complete_frame(f, l, fr, where);
    if (st)
        return st;
    closure *cc = closure_new(f), *bc = closure_new(f);
    int rc = frame_closure(f, l, fr, 0, cc, where);
    if (rc == CL_OK)
        rc = frame_closure(f, l, fr, 1, bc, where);
    *nested = rc == CL_NESTED;
    if (rc != CL_OK)
        return rc == CL_NESTED ? SM2C_OK : SM2C_ERR_UNSUPPORTED;
    size_t n = fr->n_vars + fr->n_inv;
    int *types = sm2c_arena_array(a, n + 1, sizeof *types);
    const char **rets = sm2c_arena_array(a, n + 1, sizeof *rets);
    for (size_t i = 0; i < n; i++) {
        node_def *e = i < fr->n_vars ? fr->enter[i] : fr->inv[i - fr->n_vars];
        types[i] = attr_type(e, "T");
        rets[i] = i < fr->n_vars ? fr->next[i]->input[0] : e->name;
    }
    int bool_type = TENSORFLOW__DATA_TYPE__DT_BOOL;
    const char *cond = function_name(f, "while", "cond"), *body = function_name(f, "while", "body");
    f->made_count++;
    add_to_library(f, make_function(f, cond, cc, types, n, &bool_type, (const char *const *)&fr->loop_cond->input[0], 1));
    add_to_library(f, make_function(f, body, bc, types, n, types, rets, n));
    replace_frame(f, l, fr, types, cond, body);
    mark_gone(gone, cc->v, cc->n);
    mark_gone(gone, bc->v, bc->n);
    mark_gone(gone, fr->enter, fr->n_vars);
    mark_gone(gone, fr->inv, fr->n_inv);
    mark_gone(gone, fr->merge, fr->n_vars);
    mark_gone(gone, fr->sw, fr->n_vars);
    mark_gone(gone, fr->next, fr->n_vars);
    mark_gone(gone, &fr->loop_cond, 1);
    return SM2C_OK;
}

/* Every frame of the list, innermost first: a round rewrites every frame with
** no other frame inside, so there are as many rounds as nesting levels. */
static sm2c_status loops(fz *f, nodelist *l)
{
    for (;;) {
        size_t n;
        frame *frs = find_frames(f, l, &n);
        if (!n)
            return SM2C_OK;
        sm2c_strmap *gone = sm2c_strmap_new(f->c->arena, l->n + 1);
        int done = 0;
        for (size_t i = 0; i < n; i++) {
            int nested = 0;
            sm2c_status st = functionalize_frame(f, l, &frs[i], gone, &nested);
            if (st)
                return st;
            done += !nested;
        }
        if (!done)
            return fail(f, sm2c_arena_printf(f->c->arena, "TF1 while frame '%s'", frs[0].name), frs[0].enter[0],
                        "the frames nest in a cycle");
        list_remove(f, l, gone);
    }
}

/* ---- conds ----------------------------------------------------------------------------- */

/* The predicate a cond Switch routes on: its input 1 with Identity nodes
** looked through, as "node:k"; NULL for a loop's Switch (on a LoopCond). */
static const char *switch_key(fz *f, const nodelist *l, const node_def *sw)
{
    sm2c_arena *a = f->c->arena;
    if (sw->n_input < 2)
        return NULL;
    const char *ref = sw->input[1];
    for (int hops = 0; hops < 64; hops++) {
        int32_t idx;
        int ctl;
        const char *name = ref_node(a, ref, &idx, &ctl);
        const node_def *nd = lookup(l, name);
        if (is_op(nd, "LoopCond"))
            return NULL;
        if (!is_op(nd, "Identity") || nd->n_input < 1)
            return tensor_key(a, name, idx);
        ref = nd->input[0];
    }
    return NULL;
}

/* The cond a Merge belongs to (its Switches' predicate) when no other Merge
** lies between it and them; NULL when one does (*why stays NULL) or when it
** joins no cond (*why says so). */
static const char *merge_key(fz *f, const nodelist *l, const node_def *m, const char **why)
{
    sm2c_arena *a = f->c->arena;
    sm2c_strmap *seen = sm2c_strmap_new(a, 64);
    const char **stack = NULL, *key = NULL;
    size_t top = 0, cap = 0;
    *why = NULL;
    stack = grow(a, stack, &cap, m->n_input, sizeof *stack);
    for (size_t k = 0; k < m->n_input; k++)
        stack[top++] = m->input[k];
    while (top) {
        int32_t idx;
        int ctl;
        const char *name = ref_node(a, stack[--top], &idx, &ctl);
        node_def *nd = lookup(l, name);
        if (!nd || sm2c_strmap_put(seen, name, (void *)1))
            continue;
        if (is_op(nd, "Merge"))
            return NULL;
        if (is_op(nd, "Switch")) {
            const char *k = switch_key(f, l, nd);
            if (!k || (key && strcmp(k, key))) {
                *why = "its branches are routed by more than one predicate";
                return NULL;
            }
            key = k;
            continue;
        }
        stack = grow(a, stack, &cap, top + nd->n_input, sizeof *stack);
        for (size_t k = 0; k < nd->n_input; k++)
            stack[top++] = nd->input[k];
    }
    if (!key)
        *why = "it joins no Switch (not a tf.cond)";
    return key;
}

typedef struct cond {
    const char *key;
    node_def **merge, **sw;
    size_t n_merge, n_sw, cap_merge, cap_sw;
    unsigned char *then_in;     /* per Merge, which input (0 or 1) the true branch gives */
} cond;

/* Which Switch outputs the tensor `ref` depends on, walking back (data and
** control edges) to the nearest Switches: bit 0 for an output 0 (false),
** bit 1 for an output 1 (true). */
static int switch_sides(fz *f, const nodelist *l, const char *ref)
{
    sm2c_arena *a = f->c->arena;
    sm2c_strmap *seen = sm2c_strmap_new(a, 64);
    const char **stack = NULL;
    size_t top = 0, cap = 0;
    int sides = 0;
    stack = grow(a, stack, &cap, 1, sizeof *stack);
    stack[top++] = ref;
    while (top) {
        int32_t idx;
        int ctl;
        const char *r = stack[--top], *name = ref_node(a, r, &idx, &ctl);
        node_def *nd = lookup(l, name);
        if (!nd)
            continue;
        if (is_op(nd, "Switch")) {
            if (!ctl && (idx == 0 || idx == 1))
                sides |= 1 << idx;
            continue;
        }
        if (is_op(nd, "Merge") || sm2c_strmap_put(seen, name, (void *)1))
            continue;
        stack = grow(a, stack, &cap, top + nd->n_input, sizeof *stack);
        for (size_t k = 0; k < nd->n_input; k++)
            stack[top++] = nd->input[k];
    }
    return sides;
}

/* Merge's inputs are unordered: the true branch is the input that reads a
** Switch's output 1 (tf.cond writes Merge(false, true), which is the default). */
static unsigned char merge_then_input(fz *f, const nodelist *l, const node_def *m)
{
    int s0 = switch_sides(f, l, m->input[0]), s1 = switch_sides(f, l, m->input[1]);
    return (unsigned char)(s0 == 2 || s1 == 1 ? 0 : 1);
}

static int any_merge(const node_def *nd, void *ctx)
{
    (void)ctx;
    return is_op(nd, "Merge");
}

/* The Switches of a cond, then its then (1) or else (0) closure. */
static int cond_closure(fz *f, const nodelist *l, const cond *cd, int side, closure *cl, const char *where)
{
    sm2c_arena *a = f->c->arena;
    for (size_t i = 0; i < cd->n_sw; i++)
        closure_arg(cl, a, cd->sw[i]->name, side, (int32_t)i);
    for (size_t i = 0; i < cd->n_merge; i++) {
        int in = side ? cd->then_in[i] : !cd->then_in[i];
        int rc = closure_walk(f, l, cl, cd->merge[i]->input[in], any_merge, NULL, where);
        if (rc != CL_OK)
            return rc;
    }
    return CL_OK;
}

static void replace_cond(fz *f, nodelist *l, const cond *cd, const int *tin, const int *tout, const char *then_fn,
                         const char *else_fn)
{
    sm2c_arena *a = f->c->arena;
    char **in = sm2c_arena_array(a, cd->n_sw + 2, sizeof *in);
    in[0] = cd->sw[0]->input[1];
    for (size_t i = 0; i < cd->n_sw; i++)
        in[i + 1] = cd->sw[i]->input[0];
    const char *base = cd->merge[0]->name, *slash = strrchr(base, '/');
    base = slash ? sm2c_arena_printf(a, "%.*s/If", (int)(slash - base), base) : "If";
    node_def *nd = new_node(f, l, base, "If", in, cd->n_sw + 1);
    node_attr(a, nd, "Tcond", type_attr(a, TENSORFLOW__DATA_TYPE__DT_BOOL));
    node_attr(a, nd, "Tin", types_attr(a, tin, cd->n_sw));
    node_attr(a, nd, "Tout", types_attr(a, tout, cd->n_merge));
    node_attr(a, nd, "then_branch", func_attr(a, then_fn));
    node_attr(a, nd, "else_branch", func_attr(a, else_fn));
    for (size_t i = 0; i < cd->n_merge; i++)
        becomes_identity(f, cd->merge[i], nd->name, i, tout[i]);
}

/* One cond into an If, its nodes marked in `gone`. */
static sm2c_status functionalize_cond(fz *f, nodelist *l, cond *cd, sm2c_strmap *gone)
{
    sm2c_arena *a = f->c->arena;
    const char *where = sm2c_arena_printf(a, "TF1 cond on '%s'", cd->key);
    for (size_t i = 0; i < cd->n_merge; i++)
        if (cd->merge[i]->n_input != 2)
            return fail(f, where, cd->merge[i], "a cond's Merge must join two branches");
    for (size_t i = 0; i < cd->n_merge; i++) {
        users *u = sm2c_strmap_get(l->consumers, cd->merge[i]->name);
        for (size_t k = 0; u && k < u->n; k++)
            for (size_t j = 0; j < u->v[k]->n_input; j++) {
                int32_t idx;
                int ctl;
                const char *n = ref_node(a, u->v[k]->input[j], &idx, &ctl);
                if (!ctl && idx == 1 && !strcmp(n, cd->merge[i]->name))
                    return fail(f, where, u->v[k], "reads the Merge's value_index, which sm2c does not compile");
            }
    }
    cd->then_in = sm2c_arena_array(a, cd->n_merge + 1, sizeof *cd->then_in);
    for (size_t i = 0; i < cd->n_merge; i++)
        cd->then_in[i] = merge_then_input(f, l, cd->merge[i]);
    closure *tc = closure_new(f), *ec = closure_new(f);
    int rc = cond_closure(f, l, cd, 1, tc, where);
    if (rc == CL_OK)
        rc = cond_closure(f, l, cd, 0, ec, where);
    if (rc != CL_OK)
        return rc == CL_NESTED ? fail(f, where, cd->merge[0], "another cond's Merge lies inside a branch")
                               : SM2C_ERR_UNSUPPORTED;
    int *tin = sm2c_arena_array(a, cd->n_sw + 1, sizeof *tin), *tout = sm2c_arena_array(a, cd->n_merge + 1, sizeof *tout);
    const char **then_rets = sm2c_arena_array(a, cd->n_merge + 1, sizeof *then_rets);
    const char **else_rets = sm2c_arena_array(a, cd->n_merge + 1, sizeof *else_rets);
    for (size_t i = 0; i < cd->n_sw; i++)
        tin[i] = attr_type(cd->sw[i], "T");
    for (size_t i = 0; i < cd->n_merge; i++) {
        tout[i] = attr_type(cd->merge[i], "T");
        then_rets[i] = cd->merge[i]->input[cd->then_in[i]];
        else_rets[i] = cd->merge[i]->input[!cd->then_in[i]];
    }
    const char *then_fn = function_name(f, "cond", "then"), *else_fn = function_name(f, "cond", "else");
    f->made_count++;
    add_to_library(f, make_function(f, then_fn, tc, tin, cd->n_sw, tout, then_rets, cd->n_merge));
    add_to_library(f, make_function(f, else_fn, ec, tin, cd->n_sw, tout, else_rets, cd->n_merge));
    replace_cond(f, l, cd, tin, tout, then_fn, else_fn);
    mark_gone(gone, tc->v, tc->n);
    mark_gone(gone, ec->v, ec->n);
    mark_gone(gone, cd->sw, cd->n_sw);
    return SM2C_OK;
}

/* The conds whose Merges have no other Merge inside, one per predicate, in
** the order of their first Merge; *merges_left counts every Merge. */
static sm2c_status ready_conds(fz *f, const nodelist *l, cond **out, size_t *n, int *merges_left)
{
    sm2c_arena *a = f->c->arena;
    sm2c_strmap *by_key = sm2c_strmap_new(a, 16);
    cond *cds = NULL;
    size_t cap = 0;
    *n = 0;
    *merges_left = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (!is_op(l->v[i], "Merge"))
            continue;
        (*merges_left)++;
        const char *why, *key = merge_key(f, l, l->v[i], &why);
        if (why)
            return fail(f, "TF1 cond", l->v[i], why);
        if (!key)
            continue;
        intptr_t k = (intptr_t)sm2c_strmap_get(by_key, key);
        if (!k) {
            cds = grow(a, cds, &cap, *n + 1, sizeof *cds);
            memset(&cds[*n], 0, sizeof cds[*n]);
            cds[*n].key = key;
            k = (intptr_t)++*n;
            sm2c_strmap_put(by_key, key, (void *)k);
        }
        cond *cd = &cds[k - 1];
        cd->merge = grow(a, cd->merge, &cd->cap_merge, cd->n_merge + 1, sizeof *cd->merge);
        cd->merge[cd->n_merge++] = l->v[i];
    }
    for (size_t i = 0; *n && i < l->n; i++) {
        const char *key = is_op(l->v[i], "Switch") ? switch_key(f, l, l->v[i]) : NULL;
        intptr_t k = key ? (intptr_t)sm2c_strmap_get(by_key, key) : 0;
        if (k) {
            cond *cd = &cds[k - 1];
            cd->sw = grow(a, cd->sw, &cd->cap_sw, cd->n_sw + 1, sizeof *cd->sw);
            cd->sw[cd->n_sw++] = l->v[i];
        }
    }
    *out = cds;
    return SM2C_OK;
}

/* Every cond of the list, innermost first, a nesting level per round. */
static sm2c_status conds(fz *f, nodelist *l)
{
    for (;;) {
        cond *cds = NULL;
        size_t n;
        int left;
        sm2c_status st = ready_conds(f, l, &cds, &n, &left);
        if (st || !left)
            return st;
        if (!n)
            return fail(f, "TF1 cond", l->v[0], "its Merge nodes nest in a cycle");
        sm2c_strmap *gone = sm2c_strmap_new(f->c->arena, l->n + 1);
        for (size_t i = 0; i < n; i++)
            if ((st = functionalize_cond(f, l, &cds[i], gone)))
                return st;
        list_remove(f, l, gone);
    }
}

/* ---- the stage ----------------------------------------------------------------------------- */

int sm2c_functionalize_handles(const char *op)
{
    static const char *const ops[] = { "Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond" };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strcmp(op, ops[i]))
            return 1;
    return 0;
}


static int has_v1_control_flow(node_def **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (is_op(v[i], "Switch") || is_op(v[i], "Merge") || is_op(v[i], "Enter"))
            return 1;
    return 0;
}

static sm2c_status functionalize_list(fz *f, node_def ***v, size_t *n)
{
    nodelist l = { 0 };
    l.v = sm2c_arena_array(f->c->arena, *n + 1, sizeof *l.v);
    memcpy(l.v, *v, *n * sizeof *l.v);
    l.n = l.cap = *n;
    list_index(f, &l);
    sm2c_status st = loops(f, &l);
    if (!st)
        st = conds(f, &l);
    *v = l.v;
    *n = l.n;
    return st;
}

sm2c_status sm2c_functionalize(sm2c_ctx *c, sm2c_model *m)
{
    Tensorflow__GraphDef *g = m->graph;
    if (!has_v1_control_flow(g->node, g->n_node))
        return SM2C_OK;
    fz f = { .c = c, .m = m };
    sm2c_status st = functionalize_list(&f, &g->node, &g->n_node);
    for (size_t i = 0; !st && i < f.n_made; i++)
        if (has_v1_control_flow(f.made[i]->node_def, f.made[i]->n_node_def))
            st = functionalize_list(&f, &f.made[i]->node_def, &f.made[i]->n_node_def);
    m->nodes = sm2c_strmap_new(c->arena, g->n_node + 1);
    m->node_index = sm2c_strmap_new(c->arena, g->n_node + 1);
    for (size_t i = 0; i < g->n_node; i++) {
        sm2c_strmap_put(m->nodes, g->node[i]->name, g->node[i]);
        sm2c_strmap_put(m->node_index, g->node[i]->name, (void *)(intptr_t)(i + 1));
    }
    return st;
}
