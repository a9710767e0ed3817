/*
** import_capture.c: the capture pass, run during import.
** Variables become constants read from the checkpoint: TF2 signature calls
** pass their captures after the user's arguments, in the order of the
** concrete function's bound_inputs (docs/savedmodel-format.md 4.3); TF1 variables
** are the saver graph's (varmap_tf1.c).  A VarHandleOp is a handle whose
** ReadVariableOp yields the tensor.  A variable some entry writes becomes a
** state handle instead (import_state.c).  Captured constants are plain Const nodes.
** Names are never used to match.
*/
#include <string.h>

#include "import_internal.h"

/* The variable's value from the checkpoint; on failure NULL with *st set
** (the problem reported), so that no consumer reports a missing output. */
static sm2c_tensor *variable_value(importer *im, const scope *s, const Tensorflow__NodeDef *nd,
                                   const sm2c_variable *v, sm2c_status *st)
{
    if (!v->checkpoint_key) {
        *st = sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "variable '%s' has no value in the checkpoint",
                              v->path);
        return NULL;
    }
    if (v->slice_spec)
        return sm2c_import_partitioned_part(im, s, nd, v, st);
    sm2c_tensor *t = sm2c_strmap_get(im->var_values, v->checkpoint_key);
    if (t)
        return t;
    const sm2c_bundle_entry *e = sm2c_bundle_find(im->m->bundle, v->checkpoint_key);
    t = sm2c_arena_alloc(im->c->arena, sizeof *t);
    if (!e)
        *st = sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "the checkpoint has no entry '%s'", v->checkpoint_key);
    else
        *st = sm2c_bundle_read(im->c, im->m->bundle, e, t);
    if (*st)
        return NULL;
    sm2c_strmap_put(im->var_values, v->checkpoint_key, t);
    return t;
}

int sm2c_import_variable(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins,
                         sm2c_value **out, sm2c_status *st)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    const char *op = nd->op;
    sm2c_value *v = NULL;
    *out = NULL;
    if (strcmp(op, "VarHandleOp") == 0 || strcmp(op, "VariableV2") == 0 ||
        strcmp(op, "Variable") == 0) {
        const sm2c_variable *var = s->parent ? NULL : sm2c_strmap_get(im->handle_vars, nd->name);
        sm2c_tensor *t = var ? variable_value(im, s, nd, var, st) : NULL;
        if (!var)
            *st = sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "variable node '%s' maps to no saved variable",
                                  nd->name);
        if (!t)
            return 1;
        if (sm2c_import_is_state(im, var->checkpoint_key)) {
            *out = sm2c_import_state_handle(im, nd, var->checkpoint_key, t);
            return 1;
        }
        v = sm2c_value_const(im->c, im->g, t, nd->name);
        if (strcmp(op, "VarHandleOp") == 0)
            v->dtype = SM2C_DT_RESOURCE;  /* a handle: ReadVariableOp yields the tensor */
    } else if (strcmp(op, "ReadVariableOp") == 0 && n_ins == 1 && ins[0]->state) {
        v = sm2c_import_state_read(im, s, nd, ins[0]);
    } else if (strcmp(op, "ReadVariableOp") == 0) {
        if (n_ins != 1 || !ins[0]->constant || ins[0]->dtype != SM2C_DT_RESOURCE) {
            *st = sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED, "%s of a handle that is not a saved variable",
                                  "ReadVariableOp");
            return 1;
        }
        v = sm2c_value_const(im->c, im->g, ins[0]->constant, nd->name);
    } else {
        return 0;
    }
    *out = v;
    return 1;
}

/* TF2: a call node's trailing inputs are its function's captures, in the order
** of bound_inputs; map those main-graph nodes to their variables. */
void sm2c_import_bind_tf2_captures(importer *im)
{
    const Tensorflow__GraphDef *gd = im->m->graph;
    for (size_t i = 0; i < gd->n_node; i++) {
        const Tensorflow__NodeDef *nd = gd->node[i];
        const char *fname;
        if (!sm2c_import_is_call(im, nd, &fname) || !fname)
            continue;
        for (size_t f = 0; f < im->vm->n_fns; f++) {
            const sm2c_concrete_fn *fn = &im->vm->fns[f];
            if (strcmp(fn->name, fname) != 0 || fn->n_captures > nd->n_input)
                continue;
            /* Data inputs are the user's arguments, then the captures; control inputs follow. */
            size_t n_data = 0;
            while (n_data < nd->n_input && nd->input[n_data][0] != '^')
                n_data++;
            if (fn->n_captures > n_data)
                continue;
            size_t first = n_data - fn->n_captures;
            for (size_t j = 0; j < fn->n_captures; j++) {
                const sm2c_variable *v = fn->captures[j].variable;
                long idx;
                const Tensorflow__NodeDef *h = sm2c_model_tensor_node(im->m, nd->input[first + j], &idx);
                if (v && h)
                    sm2c_strmap_put(im->handle_vars, h->name, (void *)v);
            }
        }
    }
}

void sm2c_import_bind_tf1_variables(importer *im)
{
    for (size_t i = 0; i < im->vm->n_vars; i++)
        if (im->vm->vars[i].node)
            sm2c_strmap_put(im->handle_vars, im->vm->vars[i].node->name, (void *)&im->vm->vars[i]);
}
