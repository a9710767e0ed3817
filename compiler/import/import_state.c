/*
** import_state.c: writable variables, during import (docs/design.md, "Import").
** A variable that some compiled entry writes is *state*: its handle value
** carries an sm2c_state_var instead of a constant, every ReadVariableOp of it
** becomes a node (a snapshot at its point in program order, never folded),
** and every write op becomes a node DCE keeps.  Which variables are state is
** decided before the real import by a discovery import of every entry
** (opts->written); the real import gets the answer in opts->state_keys.
** TF1 ref variables (VariableV2) have no reads: every use of the ref other
** than as the target of Assign/AssignAdd/AssignSub/ApplyGradientDescent reads it
** there.  A resource written by any other op is refused, never dropped.
*/
#include <string.h>

#include "import_internal.h"
#include "ops/opdefs.h"

/* Resource write ops and how many leading inputs are written handles. */
static const struct {
    const char *op;
    int handles;
} write_ops[] = {
    { "AssignVariableOp", 1 },  { "AssignAddVariableOp", 1 },          { "AssignSubVariableOp", 1 },
    { "ResourceScatterUpdate", 1 }, { "ResourceScatterAdd", 1 },       { "ResourceApplyGradientDescent", 1 },
    { "ResourceApplyMomentum", 2 }, { "ResourceApplyAdam", 3 },
};

/* TF1 ref forms: the resource op that computes each (its output is the ref). */
static const struct {
    const char *tf1, *as;
} ref_ops[] = {
    { "Assign", "AssignVariableOp" },
    { "AssignAdd", "AssignAddVariableOp" },
    { "AssignSub", "AssignSubVariableOp" },
    { "ApplyGradientDescent", "ResourceApplyGradientDescent" },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The resource op node nd computes, and its written handles; NULL when nd
** writes no variable in a form sm2c knows. */
static const char *write_form(const char *op, int *handles, int *ref)
{
    *ref = 0;
    for (size_t k = 0; k < COUNT(write_ops); k++)
        if (strcmp(op, write_ops[k].op) == 0)
            return *handles = write_ops[k].handles, write_ops[k].op;
    for (size_t k = 0; k < COUNT(ref_ops); k++)
        if (strcmp(op, ref_ops[k].tf1) == 0)
            return *handles = 1, *ref = 1, ref_ops[k].as;
    return NULL;
}

int sm2c_import_state_supported(const char *op)
{
    int handles, ref;
    return write_form(op, &handles, &ref) != NULL;
}

int sm2c_import_is_state_op(const char *op)
{
    int handles, ref;
    return strcmp(op, "ReadVariableOp") == 0 || write_form(op, &handles, &ref) != NULL;
}

int sm2c_import_is_state(importer *im, const char *key)
{
    const sm2c_import_opts *o = im->opts;
    return o && key && (o->written || (o->state_keys && sm2c_strmap_get(o->state_keys, key)));
}

sm2c_value *sm2c_import_state_handle(importer *im, const Tensorflow__NodeDef *nd, const char *key,
                                     sm2c_tensor *init)
{
    sm2c_state_var *sv = sm2c_strmap_get(im->state_vars, key);
    if (!sv) {
        sv = sm2c_arena_alloc(im->c->arena, sizeof *sv);
        sv->key = key;
        sv->init = init;
        sv->ref = strcmp(nd->op, "VarHandleOp") != 0;
        sm2c_strmap_put(im->state_vars, key, sv);
    }
    sm2c_value *v = sm2c_value_new(im->c, im->g, SM2C_DT_RESOURCE, nd->name);
    v->shape = init->shape;
    v->state = sv;
    return v;
}

/* A ReadVariableOp node of state handle h: the value at this point. */
sm2c_value *sm2c_import_state_read(importer *im, scope *s, const Tensorflow__NodeDef *nd, sm2c_value *h)
{
    sm2c_value *in[1] = { h };
    sm2c_node *n = sm2c_node_new(im->c, im->g, sm2c_opdef_find("ReadVariableOp"), nd, s->path, 1, in, 1);
    return n->outputs[0];
}

/* A ReadVariableOp NodeDef named `name` reading a variable of `dtype`. */
static const Tensorflow__NodeDef *read_def(importer *im, const char *name, int dtype)
{
    Tensorflow__NodeDef *d = sm2c_arena_alloc(im->c->arena, sizeof *d);
    tensorflow__node_def__init(d);
    d->name = (char *)name;
    d->op = (char *)"ReadVariableOp";
    d->attr = sm2c_arena_array(im->c->arena, 1, sizeof *d->attr);
    Tensorflow__NodeDef__AttrEntry *e = sm2c_arena_alloc(im->c->arena, sizeof *e);
    tensorflow__node_def__attr_entry__init(e);
    e->key = (char *)"dtype";
    e->value = sm2c_import_type_attr(im->c, dtype);
    d->attr[d->n_attr++] = e;
    return d;
}

sm2c_value *sm2c_import_ref_value(importer *im, scope *s, const char *name, sm2c_value *v)
{
    if (!v || !v->state || !v->state->ref)
        return v;
    return sm2c_import_state_read(im, s, read_def(im, name, v->state->init->dtype), v);
}

/* A ref variable used by anything but a write's target is read there. */
void sm2c_import_ref_reads(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    int handles, ref;
    int target = write_form(nd->op, &handles, &ref) && ref;
    for (int32_t k = target ? 1 : 0; k < n_ins; k++)
        ins[k] = sm2c_import_ref_value(im, s, nd->name, ins[k]);
}

/* Write ops: 1 when node i is one (a node of the resource form, or an error in *st). */
int sm2c_import_state_op(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins,
                         sm2c_status *st)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    int handles, ref;
    const char *as = write_form(nd->op, &handles, &ref);
    if (!as)
        return 0;
    const sm2c_opdef *op = sm2c_opdef_find(as);
    if (!op || n_ins != op->n_inputs) {
        *st = sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "has the wrong number of inputs for %s", as);
        return 1;
    }
    for (int k = 0; k < handles; k++) {
        if (!ins[k]->state) {
            *st = sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED,
                                  "writes input %s, which is not a saved variable", k ? "slot" : "0");
            return 1;
        }
        if (im->opts && im->opts->written)
            sm2c_strmap_put(im->opts->written, ins[k]->state->key, (void *)ins[k]->state);
    }
    /* one output, never used: the passes expect every node to have one */
    sm2c_node_new(im->c, im->g, op, nd, s->path, n_ins, ins, 1);
    sm2c_import_set_outputs(im, s, i, ins, ref ? 1 : 0);  /* TF1 forms output the ref */
    return 1;
}

/* Ops that write a resource and that sm2c cannot compile (their error says
** the write would be lost).  Known by the names of TF's write families. */
int sm2c_import_is_other_write(const char *op)
{
    return (strncmp(op, "ResourceApply", 13) == 0 || strncmp(op, "ResourceSparseApply", 19) == 0 ||
            strncmp(op, "ResourceScatter", 15) == 0 || strncmp(op, "Scatter", 7) == 0 ||
            strncmp(op, "Apply", 5) == 0 || strncmp(op, "SparseApply", 11) == 0 ||
            strcmp(op, "ResourceStridedSliceAssign") == 0 || strcmp(op, "StridedSliceAssign") == 0) &&
           !sm2c_import_state_supported(op) && strcmp(op, "ScatterNd") != 0 &&
           strstr(op, "NonAliasing") == NULL;   /* ScatterNd(NonAliasingAdd) make new tensors */
}

/* Control edges order side effects: follow one unless its node only checks
** or prints, or is pure (an op of the table that writes nothing, a constant)
** and has no control inputs of its own (through which a write may hang: TF1's
** tf.control_dependencies([assign]) around a plain op). */
int sm2c_import_follow_control(const Tensorflow__NodeDef *nd)
{
    static const char *const skip[] = { "Print", "PrintV2", "Const", "Placeholder", NULL };
    if (strcmp(nd->op, "Assert") == 0 || sm2c_import_is_table_init(nd->op))
        return 1;   /* a check that must run (ops_check.c); a table filled (import_table.c) */
    for (size_t k = 0; skip[k]; k++)
        if (strcmp(nd->op, skip[k]) == 0)
            return 0;
    for (size_t k = 0; k < nd->n_input; k++)
        if (nd->input[k][0] == '^')
            return 1;
    return !sm2c_opdef_find(nd->op) || sm2c_import_is_state_op(nd->op);
}
