/*
** varmap.c: variables to checkpoint keys, and concrete-function captures.
** TF2 (object graph) here; TF1 (saver graph) in varmap_tf1.c.
*/
#include "varmap.h"

#include <stdlib.h>
#include <string.h>

#include "pbwire.h"
#include "tensor_proto.h"
#include "varmap_internal.h"

const Tensorflow__AttrValue *sm2c_node_attr(const Tensorflow__NodeDef *n, const char *name)
{
    for (size_t i = 0; i < n->n_attr; i++)
        if (n->attr[i]->key && strcmp(n->attr[i]->key, name) == 0)
            return n->attr[i]->value;
    return NULL;
}

/* ---- validation of object graph ids (docs/reliability.md U6) ------------------- */

static sm2c_status check_ref(sm2c_ctx *c, const char *file, const char *where, int32_t id,
                             size_t n)
{
    if (id < 0 || (size_t)id >= n)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                          "node id %d out of range (the graph has %zu nodes)", id, n);
    return SM2C_OK;
}

/* Every concrete function an object names is in concrete_functions (U6). */
static sm2c_status check_function_names(sm2c_ctx *c, const char *file,
                                        const Tensorflow__SavedObjectGraph *g)
{
    sm2c_strmap *keys = sm2c_strmap_new(c->arena, g->n_concrete_functions);
    for (size_t i = 0; i < g->n_concrete_functions; i++)
        sm2c_strmap_put(keys, g->concrete_functions[i]->key, g->concrete_functions[i]);
    for (size_t i = 0; i < g->n_nodes; i++) {
        const Tensorflow__SavedObject *o = g->nodes[i];
        const char *const *names = NULL;
        size_t n = 0;
        const char *bare[1];
        if (o->kind_case == TENSORFLOW__SAVED_OBJECT__KIND_FUNCTION && o->function) {
            names = (const char *const *)o->function->concrete_functions;
            n = o->function->n_concrete_functions;
        } else if (o->kind_case == TENSORFLOW__SAVED_OBJECT__KIND_BARE_CONCRETE_FUNCTION &&
                   o->bare_concrete_function) {
            bare[0] = o->bare_concrete_function->concrete_function_name;
            names = bare;
            n = 1;
        }
        for (size_t k = 0; k < n; k++)
            if (!names[k] || !sm2c_strmap_get(keys, names[k]))
                return sm2c_error(c->diag, SM2C_ERR_INVALID, file,
                                  sm2c_arena_printf(c->arena, "object_graph_def.nodes[%zu]", i),
                                  "names concrete function '%s', which is not in concrete_functions",
                                  names[k] ? names[k] : "");
    }
    return SM2C_OK;
}

static sm2c_status check_saved_graph(sm2c_ctx *c, const char *file,
                                     const Tensorflow__SavedObjectGraph *g)
{
    sm2c_status st = SM2C_OK;
    for (size_t i = 0; i < g->n_nodes && !st; i++) {
        const Tensorflow__SavedObject *o = g->nodes[i];
        for (size_t k = 0; k < o->n_children && !st; k++)
            st = check_ref(c, file, sm2c_arena_printf(c->arena,
                           "object_graph_def.nodes[%zu].children[%zu]", i, k),
                           o->children[k]->node_id, g->n_nodes);
        for (size_t k = 0; k < o->n_slot_variables && !st; k++) {
            const Tensorflow__SlotVariableReference *s = o->slot_variables[k];
            const char *w = sm2c_arena_printf(c->arena,
                                              "object_graph_def.nodes[%zu].slot_variables[%zu]", i, k);
            if (!(st = check_ref(c, file, w, s->original_variable_node_id, g->n_nodes)))
                st = check_ref(c, file, w, s->slot_variable_node_id, g->n_nodes);
        }
    }
    if (!st)
        st = check_function_names(c, file, g);
    for (size_t i = 0; i < g->n_concrete_functions && !st; i++) {
        const Tensorflow__SavedConcreteFunction *f = g->concrete_functions[i]->value;
        for (size_t k = 0; f && k < f->n_bound_inputs && !st; k++)
            st = check_ref(c, file, sm2c_arena_printf(c->arena,
                           "object_graph_def.concrete_functions['%s'].bound_inputs[%zu]",
                           g->concrete_functions[i]->key, k),
                           f->bound_inputs[k], g->n_nodes);
    }
    return st;
}

static sm2c_status check_trackable_graph(sm2c_ctx *c, const char *file,
                                         const Tensorflow__TrackableObjectGraph *g)
{
    for (size_t i = 0; i < g->n_nodes; i++) {
        const Tensorflow__TrackableObjectGraph__TrackableObject *o = g->nodes[i];
        for (size_t k = 0; k < o->n_children; k++) {
            sm2c_status st = check_ref(c, file, sm2c_arena_printf(c->arena,
                                       "_CHECKPOINTABLE_OBJECT_GRAPH.nodes[%zu].children[%zu]", i, k),
                                       o->children[k]->node_id, g->n_nodes);
            if (st)
                return st;
        }
    }
    return SM2C_OK;
}

/* ---- object paths ----------------------------------------------------------- */

/* First breadth-first path from the root to every node: the saver's key path. */
static const char **object_paths(sm2c_ctx *c, const Tensorflow__SavedObjectGraph *g)
{
    const char **paths = sm2c_arena_array(c->arena, g->n_nodes, sizeof *paths);
    int32_t *queue = sm2c_arena_array(c->arena, g->n_nodes, sizeof *queue);
    size_t head = 0, tail = 0;
    if (g->n_nodes == 0)
        return paths;
    paths[0] = "";
    queue[tail++] = 0;
    while (head < tail) {
        int32_t id = queue[head++];
        const Tensorflow__SavedObject *o = g->nodes[id];
        for (size_t k = 0; k < o->n_children; k++) {
            int32_t child = o->children[k]->node_id;
            if (paths[child])
                continue;
            const char *local = o->children[k]->local_name;
            paths[child] = paths[id][0] ? sm2c_arena_printf(c->arena, "%s/%s", paths[id], local)
                                        : sm2c_arena_strdup(c->arena, local);
            queue[tail++] = child;
        }
    }
    return paths;
}

/* ---- the checkpoint's own object graph -------------------------------------- */

static sm2c_status read_trackable_graph(sm2c_ctx *c, const sm2c_model *m,
                                        Tensorflow__TrackableObjectGraph **out)
{
    *out = NULL;
    const sm2c_bundle_entry *e = m->bundle && m->bundle->present
        ? sm2c_bundle_find(m->bundle, "_CHECKPOINTABLE_OBJECT_GRAPH") : NULL;
    if (!e)
        return SM2C_OK;
    const char *where = "_CHECKPOINTABLE_OBJECT_GRAPH";
    sm2c_tensor t;
    sm2c_status st = sm2c_bundle_read(c, m->bundle, e, &t);
    if (st)
        return st;
    if (t.dtype != SM2C_DT_STRING || t.nelem != 1)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->bundle->index_path, where,
                          "expected one string, got %s with %lld elements",
                          sm2c_dtype_name(t.dtype), (long long)t.nelem);
    const char *display = sm2c_arena_printf(c->arena, "%s: %s", m->bundle->index_path, where);
    ProtobufCMessage *msg;
    st = sm2c_pb_unpack(c, display, &tensorflow__trackable_object_graph__descriptor,
                        t.strings[0].data, t.strings[0].len, &msg);
    *out = (Tensorflow__TrackableObjectGraph *)msg;
    if (st)
        return st;
    return check_trackable_graph(c, m->bundle->index_path, *out);
}

/* ---- matching the two graphs by child path (bundle_v2.cc) --------------------- */

static int32_t saved_child(const Tensorflow__SavedObject *o, const char *local_name)
{
    for (size_t k = 0; k < o->n_children; k++)
        if (strcmp(o->children[k]->local_name, local_name) == 0)
            return o->children[k]->node_id;
    return -1;
}

/* Optimizer slot variables (Adam's m and v) are no children: both graphs list
** them on the optimizer as (original variable, slot name) -> slot variable.
** A saved slot matches the trackable one of the same name whose original
** variable is the match of its own. */
static void match_slots(const Tensorflow__SavedObjectGraph *sg, const Tensorflow__TrackableObjectGraph *tg,
                        const int32_t *all, int32_t *s2t)
{
    for (size_t s = 0; s < sg->n_nodes; s++) {
        int32_t t = all[s];
        if (t < 0)
            continue;
        const Tensorflow__SavedObject *so = sg->nodes[s];
        const Tensorflow__TrackableObjectGraph__TrackableObject *to = tg->nodes[t];
        for (size_t i = 0; i < so->n_slot_variables; i++) {
            const Tensorflow__SlotVariableReference *a = so->slot_variables[i];
            if (a->original_variable_node_id < 0 || (size_t)a->original_variable_node_id >= sg->n_nodes ||
                a->slot_variable_node_id < 0 || (size_t)a->slot_variable_node_id >= sg->n_nodes)
                continue;
            for (size_t j = 0; j < to->n_slot_variables; j++) {
                const Tensorflow__SlotVariableReference *b = to->slot_variables[j];
                if (strcmp(a->slot_name, b->slot_name) == 0 &&
                    all[a->original_variable_node_id] == b->original_variable_node_id &&
                    b->slot_variable_node_id >= 0 && (size_t)b->slot_variable_node_id < tg->n_nodes &&
                    s2t[a->slot_variable_node_id] < 0)
                    s2t[a->slot_variable_node_id] = b->slot_variable_node_id;
            }
        }
    }
}

/* saved_to_trackable[s] = the trackable node restored into SavedObject s, or -1. */
static int32_t *match_graphs(sm2c_ctx *c, const Tensorflow__SavedObjectGraph *sg,
                             const Tensorflow__TrackableObjectGraph *tg)
{
    int32_t *s2t = sm2c_arena_array(c->arena, sg->n_nodes, sizeof *s2t);
    int32_t *all = sm2c_arena_array(c->arena, sg->n_nodes, sizeof *all);  /* every matched pair */
    for (size_t i = 0; i < sg->n_nodes; i++)
        s2t[i] = all[i] = -1;
    if (!tg || tg->n_nodes == 0 || sg->n_nodes == 0)
        return s2t;
    size_t cap = 1;
    for (size_t i = 0; i < tg->n_nodes; i++)
        cap += tg->nodes[i]->n_children;
    int32_t (*stack)[2] = sm2c_arena_array(c->arena, cap, sizeof *stack);
    unsigned char *seen = sm2c_arena_alloc(c->arena, tg->n_nodes);
    size_t top = 0;
    stack[top][0] = 0, stack[top][1] = 0, top++;
    while (top) {
        top--;
        int32_t t = stack[top][0], s = stack[top][1];
        if (seen[t])
            continue;
        seen[t] = 1;
        if (tg->nodes[t]->n_attributes && s2t[s] < 0)
            s2t[s] = t;
        if (all[s] < 0)
            all[s] = t;
        const Tensorflow__TrackableObjectGraph__TrackableObject *to = tg->nodes[t];
        for (size_t k = 0; k < to->n_children; k++) {
            int32_t sc = saved_child(sg->nodes[s], to->children[k]->local_name);
            if (sc < 0 || seen[to->children[k]->node_id])
                continue;
            stack[top][0] = to->children[k]->node_id, stack[top][1] = sc, top++;
        }
    }
    match_slots(sg, tg, all, s2t);
    return s2t;
}

static const char *variable_key(const Tensorflow__TrackableObjectGraph *tg, int32_t t)
{
    if (t < 0)
        return NULL;
    const Tensorflow__TrackableObjectGraph__TrackableObject *o = tg->nodes[t];
    for (size_t i = 0; i < o->n_attributes; i++)
        if (strcmp(o->attributes[i]->name, "VARIABLE_VALUE") == 0)
            return o->attributes[i]->checkpoint_key;
    return NULL;
}

static sm2c_status collect_tf2_variables(sm2c_ctx *c, const sm2c_model *m, sm2c_varmap *vm,
                                         const Tensorflow__TrackableObjectGraph *tg,
                                         const int32_t *s2t, sm2c_variable **by_object)
{
    const Tensorflow__SavedObjectGraph *sg = m->meta_graph->object_graph_def;
    size_t n = 0;
    for (size_t i = 0; i < sg->n_nodes; i++)
        n += sg->nodes[i]->kind_case == TENSORFLOW__SAVED_OBJECT__KIND_VARIABLE;
    vm->vars = sm2c_arena_array(c->arena, n, sizeof *vm->vars);
    for (size_t i = 0; i < sg->n_nodes; i++) {
        const Tensorflow__SavedObject *o = sg->nodes[i];
        if (o->kind_case != TENSORFLOW__SAVED_OBJECT__KIND_VARIABLE)
            continue;
        sm2c_variable *v = &vm->vars[vm->n_vars++];
        by_object[i] = v;
        v->name = o->variable->name;
        v->path = vm->object_paths[i] ? vm->object_paths[i] : "";
        v->object_id = (int32_t)i;
        v->dtype = (int)o->variable->dtype;
        v->shape.rank = -1;
        if (o->variable->shape) {
            const char *where = sm2c_arena_printf(c->arena, "object_graph_def.nodes[%zu].variable", i);
            sm2c_status st = sm2c_shape_from_proto(c, m->file, where, o->variable->shape, &v->shape);
            if (st)
                return st;
        }
        v->checkpoint_key = tg ? variable_key(tg, s2t[i]) : NULL;
    }
    return SM2C_OK;
}

/* ---- concrete functions ------------------------------------------------------ */

static sm2c_concrete_fn *find_fn(sm2c_varmap *vm, const char *name)
{
    for (size_t i = 0; i < vm->n_fns; i++)
        if (strcmp(vm->fns[i].name, name) == 0)
            return &vm->fns[i];
    return NULL;
}

int sm2c_concrete_fn_is_function(const sm2c_concrete_fn *fn)
{
    return fn->owner_kind && strcmp(fn->owner_kind, "function") == 0;
}

const char *sm2c_concrete_fn_entry_key(sm2c_arena *a, const sm2c_concrete_fn *fn)
{
    return sm2c_arena_printf(a, "%s_%d", fn->owner, (int)fn->owner_index);
}

static void set_owner(sm2c_varmap *vm, const char *fn, const char *kind, const char *owner, size_t index)
{
    sm2c_concrete_fn *f = find_fn(vm, fn);
    if (f && !f->owner_kind) {
        f->owner_kind = kind;
        f->owner = owner;
        f->owner_index = (int32_t)index;
    }
}

/* Signatures are bare concrete functions under the root's `signatures` child. */
static void assign_owners(const Tensorflow__SavedObjectGraph *sg, sm2c_varmap *vm)
{
    int32_t sigs = sg->n_nodes ? saved_child(sg->nodes[0], "signatures") : -1;
    if (sigs >= 0) {
        const Tensorflow__SavedObject *so = sg->nodes[sigs];
        for (size_t k = 0; k < so->n_children; k++) {
            const Tensorflow__SavedObject *b = sg->nodes[so->children[k]->node_id];
            if (b->kind_case == TENSORFLOW__SAVED_OBJECT__KIND_BARE_CONCRETE_FUNCTION)
                set_owner(vm, b->bare_concrete_function->concrete_function_name, "signature",
                          so->children[k]->local_name, 0);
        }
    }
    for (size_t i = 0; i < sg->n_nodes; i++) {
        const Tensorflow__SavedObject *o = sg->nodes[i];
        const char *path = vm->object_paths[i] ? vm->object_paths[i] : "";
        if (o->kind_case == TENSORFLOW__SAVED_OBJECT__KIND_FUNCTION)
            for (size_t k = 0; k < o->function->n_concrete_functions; k++)
                set_owner(vm, o->function->concrete_functions[k], "function", path, k);
        if (o->kind_case == TENSORFLOW__SAVED_OBJECT__KIND_BARE_CONCRETE_FUNCTION)
            set_owner(vm, o->bare_concrete_function->concrete_function_name, "function", path, 0);
    }
}

static const char *object_kind(const Tensorflow__SavedObject *o)
{
    switch (o->kind_case) {
    case TENSORFLOW__SAVED_OBJECT__KIND_USER_OBJECT: return "user_object";
    case TENSORFLOW__SAVED_OBJECT__KIND_ASSET: return "asset";
    case TENSORFLOW__SAVED_OBJECT__KIND_FUNCTION: return "function";
    case TENSORFLOW__SAVED_OBJECT__KIND_VARIABLE: return "variable";
    case TENSORFLOW__SAVED_OBJECT__KIND_BARE_CONCRETE_FUNCTION: return "bare_concrete_function";
    case TENSORFLOW__SAVED_OBJECT__KIND_CONSTANT: return "constant";
    case TENSORFLOW__SAVED_OBJECT__KIND_RESOURCE: return "resource";
    case TENSORFLOW__SAVED_OBJECT__KIND_CAPTURED_TENSOR: return "captured_tensor";
    default: return "unknown";
    }
}

static int cmp_entry_key(const void *a, const void *b)
{
    const Tensorflow__SavedObjectGraph__ConcreteFunctionsEntry *const *x = a, *const *y = b;
    return strcmp((*x)->key, (*y)->key);
}

static void collect_fns(sm2c_ctx *c, const Tensorflow__SavedObjectGraph *sg, sm2c_varmap *vm,
                        sm2c_variable **by_object)
{
    size_t n = sg->n_concrete_functions;
    Tensorflow__SavedObjectGraph__ConcreteFunctionsEntry **sorted =
        sm2c_arena_array(c->arena, n, sizeof *sorted);
    if (n)
        memcpy(sorted, sg->concrete_functions, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_entry_key);
    vm->fns = sm2c_arena_array(c->arena, n, sizeof *vm->fns);
    for (size_t i = 0; i < n; i++) {
        const Tensorflow__SavedConcreteFunction *p = sorted[i]->value;
        sm2c_concrete_fn *f = &vm->fns[vm->n_fns++];
        f->name = sorted[i]->key;
        if (!p)
            continue;
        f->input_signature = p->canonicalized_input_signature
            ? sm2c_structured_str(c, p->canonicalized_input_signature) : NULL;
        f->n_captures = p->n_bound_inputs;
        f->captures = sm2c_arena_array(c->arena, p->n_bound_inputs, sizeof *f->captures);
        for (size_t k = 0; k < p->n_bound_inputs; k++) {
            int32_t id = p->bound_inputs[k];
            const Tensorflow__SavedObject *o = sg->nodes[id];
            f->captures[k].object_id = id;
            f->captures[k].kind = object_kind(o);
            f->captures[k].variable = by_object[id];
            if (o->kind_case == TENSORFLOW__SAVED_OBJECT__KIND_CONSTANT)
                f->captures[k].constant_op = o->constant->operation;
        }
    }
    assign_owners(sg, vm);
}

/* Both object graphs checked (tg may be NULL): variables, paths, functions. */
static sm2c_status map_objects(sm2c_ctx *c, const sm2c_model *m, sm2c_varmap *vm,
                               const Tensorflow__TrackableObjectGraph *tg)
{
    const Tensorflow__SavedObjectGraph *sg = m->meta_graph->object_graph_def;
    sm2c_status st;
    vm->object_based = 1;
    vm->n_objects = sg->n_nodes;
    vm->object_paths = object_paths(c, sg);
    int32_t *s2t = match_graphs(c, sg, tg);
    sm2c_variable **by_object = sm2c_arena_array(c->arena, sg->n_nodes, sizeof *by_object);
    if ((st = collect_tf2_variables(c, m, vm, tg, s2t, by_object)))
        return st;
    if (vm->n_vars && !tg)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->dir, NULL,
                          "the object graph has %zu variables but %s", vm->n_vars,
                          m->bundle && m->bundle->present
                              ? "the checkpoint has no _CHECKPOINTABLE_OBJECT_GRAPH"
                              : "there is no variables/ directory");
    collect_fns(c, sg, vm, by_object);
    return SM2C_OK;
}

static sm2c_status build_tf2(sm2c_ctx *c, const sm2c_model *m, sm2c_varmap *vm)
{
    sm2c_status st = check_saved_graph(c, m->file, m->meta_graph->object_graph_def);
    if (st)
        return st;
    Tensorflow__TrackableObjectGraph *tg;
    if ((st = read_trackable_graph(c, m, &tg)))
        return st;
    return map_objects(c, m, vm, tg);
}

/* Declared and saved dtype/shape must agree; unknown dims match anything (C10). */
static sm2c_status check_against_bundle(sm2c_ctx *c, const sm2c_model *m, const sm2c_variable *v)
{
    const char *where = sm2c_arena_printf(c->arena, "variable '%s'", v->path);
    const sm2c_bundle_entry *e = sm2c_bundle_find(m->bundle, v->checkpoint_key);
    if (!e)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->bundle->index_path, where,
                          "the checkpoint has no entry '%s'", v->checkpoint_key);
    if (v->slice_spec)
        return SM2C_OK; /* a part of a partitioned variable: its shape is the slice's */
    if (v->dtype && sm2c_dtype_base(v->dtype) != e->dtype)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->bundle->index_path, where,
                          "has dtype %s in the checkpoint but %s in the graph",
                          sm2c_dtype_name(e->dtype), sm2c_dtype_name(v->dtype));
    int same = v->shape.rank < 0 || v->shape.rank == e->shape.rank;
    for (int32_t i = 0; same && v->shape.rank >= 0 && i < v->shape.rank; i++)
        same = v->shape.dims[i] < 0 || v->shape.dims[i] == e->shape.dims[i];
    if (!same)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->bundle->index_path, where,
                          "has shape %s in the checkpoint but %s in the graph",
                          sm2c_shape_str(c->arena, &e->shape), sm2c_shape_str(c->arena, &v->shape));
    return SM2C_OK;
}

static sm2c_status check_variables(sm2c_ctx *c, const sm2c_model *m, const sm2c_varmap *vm)
{
    int present = m->bundle && m->bundle->present;
    for (size_t i = 0; i < vm->n_vars; i++) {
        const sm2c_variable *v = &vm->vars[i];
        if (!v->checkpoint_key)
            continue;
        if (!present)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, m->dir, NULL,
                              "variable '%s' is restored from the checkpoint, but there is no "
                              "variables/ directory", v->path);
        sm2c_status st = check_against_bundle(c, m, v);
        if (st)
            return st;
    }
    return SM2C_OK;
}

sm2c_status sm2c_varmap_build(sm2c_ctx *c, const sm2c_model *m, sm2c_varmap **out)
{
    sm2c_varmap *vm = sm2c_arena_alloc(c->arena, sizeof *vm);
    *out = vm;
    const Tensorflow__SavedObjectGraph *sg = m->meta_graph->object_graph_def;
    sm2c_status st;
    if (sg && sg->n_nodes > 0) {
        st = build_tf2(c, m, vm);
    } else {
        st = sm2c_varmap_build_tf1(c, m, vm);
    }
    return st ? st : check_variables(c, m, vm);
}

sm2c_status sm2c_varmap_build_objects(sm2c_ctx *c, const sm2c_model *m,
                                      const Tensorflow__TrackableObjectGraph *tg,
                                      sm2c_varmap **out)
{
    sm2c_varmap *vm = sm2c_arena_alloc(c->arena, sizeof *vm);
    *out = vm;
    const Tensorflow__SavedObjectGraph *sg = m->meta_graph->object_graph_def;
    if (!sg || sg->n_nodes == 0)
        return sm2c_varmap_build_tf1(c, m, vm);
    sm2c_status st = check_saved_graph(c, m->file, sg);
    if (!st && tg)
        st = check_trackable_graph(c, m->file, tg);
    if (!st)
        st = map_objects(c, m, vm, tg);
    return st ? st : check_variables(c, m, vm);
}
