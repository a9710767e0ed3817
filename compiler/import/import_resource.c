/*
** import_resource.c: reads of saved variables through ops other than
** ReadVariableOp.  ResourceGather(handle, indices) — tf_keras Embedding's
** embedding_lookup — becomes GatherV2(variable value, indices, axis 0) with
** the same batch_dims, so one Gather lowering serves both.
*/
#include <string.h>

#include "import_internal.h"
#include "ops/opdefs.h"

int sm2c_import_resource_supported(const char *op)
{
    return strcmp(op, "ResourceGather") == 0 && sm2c_opdef_find("GatherV2") != NULL;
}

/* An int32 scalar 0, GatherV2's axis. */
static sm2c_value *axis_zero(importer *im, const char *name)
{
    sm2c_tensor *t = sm2c_arena_alloc(im->c->arena, sizeof *t);
    t->dtype = SM2C_DT_INT32;
    t->shape.rank = 0;
    t->shape.dims = NULL;
    t->nelem = 1;
    t->nbytes = sizeof(int32_t);
    t->data = sm2c_arena_alloc(im->c->arena, t->nbytes);
    memset(t->data, 0, t->nbytes);
    return sm2c_value_const(im->c, im->g, t, name);
}

int sm2c_import_resource_op(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins,
                            sm2c_status *st)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    *st = SM2C_OK;
    if (strcmp(nd->op, "ResourceGather") != 0)
        return 0;
    if (n_ins == 2 && ins[0]->state && !ins[0]->state->ref) {
        /* a written variable: gather from its value at this point */
        sm2c_value *args[3] = { sm2c_import_state_read(im, s, nd, ins[0]), ins[1], axis_zero(im, nd->name) };
        const sm2c_opdef *gather = sm2c_opdef_find("GatherV2");
        sm2c_node *n = sm2c_node_new(im->c, im->g, gather, nd, s->path, 3, args, 1);
        sm2c_import_set_outputs(im, s, i, n->outputs, n->n_outputs);
        return 1;
    }
    if (n_ins != 2 || !ins[0]->constant || ins[0]->dtype != SM2C_DT_RESOURCE) {
        *st = sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED, "%s of a handle that is not a saved variable",
                              "ResourceGather");
        return 1;
    }
    const sm2c_opdef *gather = sm2c_opdef_find("GatherV2");
    if (!gather) {
        sm2c_import_unsupported(im, s, i, "GatherV2");
        return 1;
    }
    sm2c_value *args[3] = { sm2c_value_const(im->c, im->g, ins[0]->constant, nd->name), ins[1],
                            axis_zero(im, nd->name) };
    sm2c_node *n = sm2c_node_new(im->c, im->g, gather, nd, s->path, 3, args, 1);
    sm2c_import_set_outputs(im, s, i, n->outputs, n->n_outputs);
    return 1;
}
