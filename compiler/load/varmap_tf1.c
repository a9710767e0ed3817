/*
** varmap_tf1.c: TF1 (name-based) checkpoints.  A variable's key is found by
** following the graph, never by its name: from the saver's restore op back to
** each Assign(variable, value), then from the value through Identity nodes to
** output k of a RestoreV2, whose `tensor_names` constant holds the key at k
** (docs/savedmodel-format.md 4.4).
*/
#include <string.h>

#include "tensor_proto.h"
#include "varmap_internal.h"

#define MAX_IDENTITY_CHAIN 64

static int is_variable_op(const char *op)
{
    return strcmp(op, "VariableV2") == 0 || strcmp(op, "Variable") == 0 ||
           strcmp(op, "VarHandleOp") == 0;
}

static sm2c_status declared_type(sm2c_ctx *c, const sm2c_model *m, const Tensorflow__NodeDef *n,
                                 sm2c_variable *v)
{
    const Tensorflow__AttrValue *dt = sm2c_node_attr(n, "dtype");
    const Tensorflow__AttrValue *sh = sm2c_node_attr(n, "shape");
    v->dtype = dt && dt->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? (int)dt->type : 0;
    v->shape.rank = -1;
    if (sh && sh->value_case == TENSORFLOW__ATTR_VALUE__VALUE_SHAPE)
        return sm2c_shape_from_proto(c, m->file, sm2c_arena_printf(c->arena, "'%s' (%s) attr shape",
                                     n->name, n->op), sh->shape, &v->shape);
    return SM2C_OK;
}

static sm2c_status collect_variables(sm2c_ctx *c, const sm2c_model *m, sm2c_varmap *vm,
                                     sm2c_strmap *by_name)
{
    const Tensorflow__GraphDef *g = m->graph;
    size_t n = 0;
    for (size_t i = 0; i < g->n_node; i++)
        n += is_variable_op(g->node[i]->op);
    vm->vars = sm2c_arena_array(c->arena, n, sizeof *vm->vars);
    for (size_t i = 0; i < g->n_node; i++) {
        const Tensorflow__NodeDef *node = g->node[i];
        if (!is_variable_op(node->op))
            continue;
        sm2c_variable *v = &vm->vars[vm->n_vars++];
        v->name = v->path = node->name;
        v->object_id = -1;
        v->node = node;
        sm2c_status st = declared_type(c, m, node, v);
        if (st)
            return st;
        sm2c_strmap_put(by_name, node->name, v);
    }
    return SM2C_OK;
}

/* The string list of Const `name` (RestoreV2's tensor_names / shape_and_slices). */
static sm2c_status const_strings(sm2c_ctx *c, const sm2c_model *m, const char *input,
                                 const sm2c_tensor **out)
{
    long idx;
    const Tensorflow__NodeDef *n = sm2c_model_tensor_node(m, input, &idx);
    const Tensorflow__AttrValue *v = n ? sm2c_node_attr(n, "value") : NULL;
    if (!n || strcmp(n->op, "Const") != 0 || !v ||
        v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_TENSOR)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, NULL,
                          "RestoreV2 input '%s' is not a Const", input);
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    const char *where = sm2c_arena_printf(c->arena, "'%s' (Const)", n->name);
    sm2c_status st = sm2c_tensor_from_proto(c, m->file, where, v->tensor, t);
    if (st)
        return st;
    if (t->dtype != SM2C_DT_STRING)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, where, "expected a string list");
    *out = t;
    return SM2C_OK;
}

static sm2c_status key_from_restore(sm2c_ctx *c, const sm2c_model *m,
                                    const Tensorflow__NodeDef *restore, long k, sm2c_variable *v)
{
    const char *where = sm2c_arena_printf(c->arena, "'%s' (RestoreV2)", restore->name);
    if (restore->n_input < 3)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, where,
                          "expects 3 inputs, got %zu", restore->n_input);
    const sm2c_tensor *names, *slices;
    sm2c_status st;
    if ((st = const_strings(c, m, restore->input[1], &names)) ||
        (st = const_strings(c, m, restore->input[2], &slices)))
        return st;
    if (k >= names->nelem)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, where,
                          "output %ld has no tensor_names entry (%lld names)", k,
                          (long long)names->nelem);
    v->checkpoint_key = sm2c_arena_strndup(c->arena, (const char *)names->strings[k].data,
                                           names->strings[k].len);
    if (k < slices->nelem && slices->strings[k].len)
        v->slice_spec = sm2c_arena_strndup(c->arena, (const char *)slices->strings[k].data,
                                           slices->strings[k].len);
    return SM2C_OK;
}

/* value tensor -> Identity* -> RestoreV2:k */
static sm2c_status trace_value(sm2c_ctx *c, const sm2c_model *m, const char *tensor,
                               sm2c_variable *v)
{
    long k;
    const Tensorflow__NodeDef *n = sm2c_model_tensor_node(m, tensor, &k);
    for (int hops = 0; n && hops < MAX_IDENTITY_CHAIN; hops++) {
        if (strcmp(n->op, "RestoreV2") == 0)
            return key_from_restore(c, m, n, k, v);
        if (strcmp(n->op, "Identity") != 0 || n->n_input == 0)
            return SM2C_OK;
        n = sm2c_model_tensor_node(m, n->input[0], &k);
    }
    return SM2C_OK;
}

static int is_assign_op(const char *op)
{
    return strcmp(op, "Assign") == 0 || strcmp(op, "AssignVariableOp") == 0;
}

static sm2c_status visit_restore_node(sm2c_ctx *c, const sm2c_model *m,
                                      const Tensorflow__NodeDef *n, sm2c_strmap *by_name)
{
    if (!is_assign_op(n->op) || n->n_input < 2)
        return SM2C_OK;
    long idx;
    const Tensorflow__NodeDef *var = sm2c_model_tensor_node(m, n->input[0], &idx);
    sm2c_variable *v = var ? sm2c_strmap_get(by_name, var->name) : NULL;
    if (!v || v->checkpoint_key)
        return SM2C_OK;
    return trace_value(c, m, n->input[1], v);
}

/* Walk everything the restore op depends on, data and control edges alike. */
static sm2c_status trace_restore(sm2c_ctx *c, const sm2c_model *m, sm2c_strmap *by_name)
{
    const Tensorflow__SaverDef *saver = m->meta_graph->saver_def;
    long idx;
    const Tensorflow__NodeDef *root =
        saver && saver->restore_op_name[0] ? sm2c_model_tensor_node(m, saver->restore_op_name, &idx)
                                           : NULL;
    if (!root)
        return SM2C_OK;
    size_t n = m->graph->n_node;
    const Tensorflow__NodeDef **stack = sm2c_arena_array(c->arena, n + 1, sizeof *stack);
    sm2c_strmap *seen = sm2c_strmap_new(c->arena, 64);
    size_t top = 0;
    stack[top++] = root;
    sm2c_strmap_put(seen, root->name, (void *)root);
    while (top) {
        const Tensorflow__NodeDef *node = stack[--top];
        sm2c_status st = visit_restore_node(c, m, node, by_name);
        if (st)
            return st;
        for (size_t i = 0; i < node->n_input; i++) {
            const Tensorflow__NodeDef *in = sm2c_model_tensor_node(m, node->input[i], &idx);
            if (in && !sm2c_strmap_put(seen, in->name, (void *)in))
                stack[top++] = in;
        }
    }
    return SM2C_OK;
}

sm2c_status sm2c_varmap_build_tf1(sm2c_ctx *c, const sm2c_model *m, sm2c_varmap *vm)
{
    sm2c_strmap *by_name = sm2c_strmap_new(c->arena, 64);
    sm2c_status st = collect_variables(c, m, vm, by_name);
    if (st)
        return st;
    return trace_restore(c, m, by_name);
}
