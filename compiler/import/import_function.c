/*
** import_function.c: a concrete function of a tf.function (polymorphic
** functions: one per traced input signature) as an entry point.
**
** The function is called the way a signature wrapper would call it: the entry
** adds a Placeholder per user argument, a handle per captured variable, and a
** StatefulPartitionedCall of the function after them (captures by
** bound_inputs, constants through the main graph's Const), and then imports
** like a signature whose inputs and outputs name those nodes.  Input keys are
** the function's argument names, shapes their _output_shapes; output keys are
** those of the function's output dict, else output_0, output_1, ...
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_internal.h"

typedef struct builder {
    sm2c_ctx *c;
    const sm2c_model *m;
    const char *key;
    sm2c_entry_nodes nodes;
    Tensorflow__SignatureDef *sd;
} builder;

Tensorflow__AttrValue *sm2c_import_type_attr(sm2c_ctx *c, int dtype)
{
    Tensorflow__AttrValue *v = sm2c_arena_alloc(c->arena, sizeof *v);
    tensorflow__attr_value__init(v);
    v->value_case = TENSORFLOW__ATTR_VALUE__VALUE_TYPE;
    v->type = (Tensorflow__DataType)dtype;
    return v;
}

/* A new node of the entry with room for n_inputs inputs and one attr. */
static Tensorflow__NodeDef *add_node(builder *b, const char *name, const char *op, size_t n_inputs,
                                     const char *attr, Tensorflow__AttrValue *value,
                                     const sm2c_variable *var)
{
    sm2c_ctx *c = b->c;
    Tensorflow__NodeDef *nd = sm2c_arena_alloc(c->arena, sizeof *nd);
    tensorflow__node_def__init(nd);
    nd->name = sm2c_arena_printf(c->arena, "%s/%s", b->key, name);
    nd->op = (char *)op;
    nd->input = sm2c_arena_array(c->arena, n_inputs + 1, sizeof *nd->input);
    if (attr) {
        Tensorflow__NodeDef__AttrEntry *e = sm2c_arena_alloc(c->arena, sizeof *e);
        tensorflow__node_def__attr_entry__init(e);
        e->key = (char *)attr;
        e->value = value;
        nd->attr = sm2c_arena_array(c->arena, 1, sizeof *nd->attr);
        nd->attr[0] = e;
        nd->n_attr = 1;
    }
    b->nodes.nodes[b->nodes.n_nodes] = nd;
    b->nodes.vars[b->nodes.n_nodes++] = var;
    return nd;
}

static Tensorflow__TensorInfo *tensor_info(sm2c_ctx *c, const char *name, Tensorflow__DataType t,
                                           Tensorflow__TensorShapeProto *shape)
{
    Tensorflow__TensorInfo *ti = sm2c_arena_alloc(c->arena, sizeof *ti);
    tensorflow__tensor_info__init(ti);
    ti->encoding_case = TENSORFLOW__TENSOR_INFO__ENCODING_NAME;
    ti->name = (char *)name;
    ti->dtype = t;
    ti->tensor_shape = shape;
    return ti;
}

/* Argument k's traced shape (_output_shapes in its arg_attr), or NULL. */
static Tensorflow__TensorShapeProto *arg_shape(const Tensorflow__FunctionDef *f, size_t k)
{
    for (size_t i = 0; i < f->n_arg_attr; i++) {
        if (f->arg_attr[i]->key != k || !f->arg_attr[i]->value)
            continue;
        const Tensorflow__FunctionDef__ArgAttrs *a = f->arg_attr[i]->value;
        for (size_t j = 0; j < a->n_attr; j++)
            if (!strcmp(a->attr[j]->key, "_output_shapes") && a->attr[j]->value &&
                a->attr[j]->value->value_case == TENSORFLOW__ATTR_VALUE__VALUE_LIST &&
                a->attr[j]->value->list->n_shape == 1)
                return a->attr[j]->value->list->shape[0];
    }
    return NULL;
}

static int cmp_field(const void *a, const void *b)
{
    return strcmp((*(Tensorflow__DictValue__FieldsEntry *const *)a)->key,
                  (*(Tensorflow__DictValue__FieldsEntry *const *)b)->key);
}

/* Output keys: a dict of n tensors gives its keys in sorted order (the
** order TF flattens it in), anything else output_0, output_1, ... */
static const char **output_keys(sm2c_ctx *c, const Tensorflow__SavedConcreteFunction *scf, size_t n)
{
    const char **keys = sm2c_arena_array(c->arena, n + 1, sizeof *keys);
    const Tensorflow__StructuredValue *o = scf ? scf->output_signature : NULL;
    int dict = o && o->kind_case == TENSORFLOW__STRUCTURED_VALUE__KIND_DICT_VALUE && o->dict_value &&
               o->dict_value->n_fields == n;
    for (size_t k = 0; dict && k < n; k++)
        dict = o->dict_value->fields[k]->value &&
               o->dict_value->fields[k]->value->kind_case == TENSORFLOW__STRUCTURED_VALUE__KIND_TENSOR_SPEC_VALUE;
    if (dict) {
        Tensorflow__DictValue__FieldsEntry **fields = sm2c_arena_array(c->arena, n, sizeof *fields);
        memcpy(fields, o->dict_value->fields, n * sizeof *fields);
        qsort(fields, n, sizeof *fields, cmp_field);
        for (size_t k = 0; k < n; k++)
            keys[k] = fields[k]->key;
        for (size_t k = 1; k < n; k++)
            if (!strcmp(keys[k], keys[k - 1]))
                dict = 0;
    }
    for (size_t k = 0; !dict && k < n; k++)
        keys[k] = sm2c_arena_printf(c->arena, "output_%zu", k);
    return keys;
}

static const Tensorflow__SavedConcreteFunction *saved_concrete(const sm2c_model *m, const char *name)
{
    const Tensorflow__SavedObjectGraph *og = m->meta_graph->object_graph_def;
    for (size_t i = 0; og && i < og->n_concrete_functions; i++)
        if (!strcmp(og->concrete_functions[i]->key, name))
            return og->concrete_functions[i]->value;
    return NULL;
}

/* A Placeholder and a signature input per user argument. */
static void add_arguments(builder *b, const Tensorflow__FunctionDef *f, size_t n_args,
                          Tensorflow__NodeDef *call)
{
    sm2c_ctx *c = b->c;
    b->sd->inputs = sm2c_arena_array(c->arena, n_args + 1, sizeof *b->sd->inputs);
    for (size_t k = 0; k < n_args; k++) {
        const Tensorflow__OpDef__ArgDef *a = f->signature->input_arg[k];
        Tensorflow__NodeDef *ph = add_node(b, a->name, "Placeholder", 0, "dtype", sm2c_import_type_attr(c, (int)a->type), NULL);
        Tensorflow__SignatureDef__InputsEntry *e = sm2c_arena_alloc(c->arena, sizeof *e);
        tensorflow__signature_def__inputs_entry__init(e);
        e->key = a->name;
        e->value = tensor_info(c, sm2c_arena_printf(c->arena, "%s:0", ph->name), a->type, arg_shape(f, k));
        b->sd->inputs[b->sd->n_inputs++] = e;
        call->input[call->n_input++] = ph->name;
    }
}

/* The captured values, after the arguments: variables through a handle of
** their own, constants through the main graph's Const. */
static sm2c_status add_captures(builder *b, const sm2c_concrete_fn *fn, Tensorflow__NodeDef *call)
{
    for (size_t j = 0; j < fn->n_captures; j++) {
        const sm2c_capture *cap = &fn->captures[j];
        if (cap->variable) {
            char name[32];
            snprintf(name, sizeof name, "capture_%zu", j);
            call->input[call->n_input++] = add_node(b, name, "VarHandleOp", 0, NULL, NULL, cap->variable)->name;
        } else if (cap->constant_op) {
            call->input[call->n_input++] = (char *)cap->constant_op;
        } else {
            return sm2c_error(b->c->diag, SM2C_ERR_UNSUPPORTED, b->m->file,
                              sm2c_arena_printf(b->c->arena, "function '%s'", b->key),
                              "capture %zu is a %s, which sm2c cannot pass to a function entry", j,
                              cap->kind ? cap->kind : "value of unknown kind");
        }
    }
    return SM2C_OK;
}

static void add_outputs(builder *b, const Tensorflow__FunctionDef *f, const Tensorflow__NodeDef *call,
                        const sm2c_concrete_fn *fn)
{
    sm2c_ctx *c = b->c;
    size_t n = f->signature->n_output_arg;
    const char **keys = output_keys(c, saved_concrete(b->m, fn->name), n);
    b->sd->outputs = sm2c_arena_array(c->arena, n + 1, sizeof *b->sd->outputs);
    for (size_t k = 0; k < n; k++) {
        Tensorflow__SignatureDef__OutputsEntry *e = sm2c_arena_alloc(c->arena, sizeof *e);
        tensorflow__signature_def__outputs_entry__init(e);
        e->key = (char *)keys[k];
        e->value = tensor_info(c, sm2c_arena_printf(c->arena, "%s:%zu", call->name, k),
                               f->signature->output_arg[k]->type, NULL);
        b->sd->outputs[b->sd->n_outputs++] = e;
    }
}

sm2c_status sm2c_import_function(sm2c_ctx *c, const sm2c_model *m, const sm2c_varmap *vm,
                                 const sm2c_concrete_fn *fn, const char *key,
                                 const sm2c_import_opts *opts, sm2c_graph **out)
{
    const Tensorflow__FunctionDef *f = sm2c_strmap_get(m->functions, fn->name);
    const char *w = sm2c_arena_printf(c->arena, "function '%s'", key);
    if (!f || !f->signature || f->signature->n_input_arg < fn->n_captures)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, w,
                          "concrete function '%s' is not in the library or takes fewer inputs than it "
                          "captures", fn->name);
    size_t n_args = f->signature->n_input_arg - fn->n_captures, n_nodes = n_args + fn->n_captures + 1;
    builder b = { .c = c, .m = m, .key = key };
    b.nodes.nodes = sm2c_arena_array(c->arena, n_nodes, sizeof *b.nodes.nodes);
    b.nodes.vars = sm2c_arena_array(c->arena, n_nodes, sizeof *b.nodes.vars);
    b.sd = sm2c_arena_alloc(c->arena, sizeof *b.sd);
    tensorflow__signature_def__init(b.sd);
    Tensorflow__AttrValue *fv = sm2c_arena_alloc(c->arena, sizeof *fv);
    tensorflow__attr_value__init(fv);
    fv->value_case = TENSORFLOW__ATTR_VALUE__VALUE_FUNC;
    fv->func = sm2c_arena_alloc(c->arena, sizeof *fv->func);
    tensorflow__name_attr_list__init(fv->func);
    fv->func->name = (char *)fn->name;
    Tensorflow__NodeDef *call = add_node(&b, "call", "StatefulPartitionedCall", f->signature->n_input_arg, "f",
                                         fv, NULL);
    add_arguments(&b, f, n_args, call);
    sm2c_status st = add_captures(&b, fn, call);
    if (st)
        return st;
    add_outputs(&b, f, call, fn);
    return sm2c_import_entry(c, m, vm, key, b.sd, &b.nodes, opts, out);
}
