/*
** import_widen.c: elementwise ops on float16 and bfloat16 run in float32.
**
** TensorFlow's CPU kernels compute half types the same way (Eigen converts
** each element to float, applies the float function, rounds back), so the
** node becomes Cast(to float32) per input, the op on float32, and Cast back
** per output (comparisons give bool and need none).  Only ops whose dtypes
** column lists the half type are widened; the others are refused as usual.
*/
#include <string.h>

#include "import_internal.h"
#include "ops/opdefs.h"

/* The float16/bfloat16 dtype an elementwise node computes in, or 0. */
static int half_dtype(const sm2c_opdef *op, const Tensorflow__NodeDef *nd)
{
    const Tensorflow__AttrValue *t = sm2c_node_attr(nd, "T");
    if (!t || t->value_case != TENSORFLOW__ATTR_VALUE__VALUE_TYPE)
        return 0;
    int dt = (int)t->type;
    if ((dt != SM2C_DT_HALF && dt != SM2C_DT_BFLOAT16) || !sm2c_opdef_has_dtype(op, dt) ||
        !sm2c_opdef_has_dtype(op, SM2C_DT_FLOAT))
        return 0;
    return op->lower == lower_unary || op->lower == lower_binary || op->lower == lower_compare ? dt : 0;
}

/* A copy of nd named `name` with `op` and its type attrs `keys` set to `types`
** (the others kept). */
static Tensorflow__NodeDef *node_like(sm2c_ctx *c, const Tensorflow__NodeDef *nd, const char *name,
                                      const char *op, const char *const *keys, const int *types, size_t n)
{
    Tensorflow__NodeDef *out = sm2c_arena_alloc(c->arena, sizeof *out);
    tensorflow__node_def__init(out);
    out->name = (char *)name;
    out->op = (char *)op;
    out->attr = sm2c_arena_array(c->arena, nd->n_attr + n + 1, sizeof *out->attr);
    for (size_t k = 0; k < nd->n_attr && !strcmp(op, nd->op); k++) {
        int replaced = 0;
        for (size_t j = 0; j < n; j++)
            replaced |= !strcmp(nd->attr[k]->key, keys[j]);
        if (!replaced)
            out->attr[out->n_attr++] = nd->attr[k];
    }
    for (size_t j = 0; j < n; j++) {
        Tensorflow__NodeDef__AttrEntry *e = sm2c_arena_alloc(c->arena, sizeof *e);
        tensorflow__node_def__attr_entry__init(e);
        e->key = (char *)keys[j];
        e->value = sm2c_import_type_attr(c, types[j]);
        out->attr[out->n_attr++] = e;
    }
    return out;
}

static sm2c_value *cast(importer *im, scope *s, const Tensorflow__NodeDef *nd, const char *suffix,
                        sm2c_value *in, int from, int to)
{
    static const char *const keys[] = { "SrcT", "DstT" };
    int types[] = { from, to };
    const char *name = sm2c_arena_printf(im->c->arena, "%s/%s", nd->name, suffix);
    Tensorflow__NodeDef *def = node_like(im->c, nd, name, "Cast", keys, types, 2);
    return sm2c_node_new(im->c, im->g, sm2c_opdef_find("Cast"), def, s->path, 1, &in, 1)->outputs[0];
}

int sm2c_import_widen(importer *im, scope *s, int32_t i, const sm2c_opdef *op, sm2c_value **ins,
                      int32_t n_ins, int32_t n_outs)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    int dt = half_dtype(op, nd);
    if (!dt)
        return 0;
    sm2c_ctx *c = im->c;
    sm2c_value **wide = sm2c_arena_array(c->arena, (size_t)n_ins + 1, sizeof *wide);
    for (int32_t k = 0; k < n_ins; k++)
        wide[k] = cast(im, s, nd, sm2c_arena_printf(c->arena, "sm2c_widen_%d", (int)k), ins[k], dt,
                       SM2C_DT_FLOAT);
    static const char *const t_key[] = { "T" };
    static const int t_float[] = { SM2C_DT_FLOAT };
    Tensorflow__NodeDef *def = node_like(c, nd, nd->name, nd->op, t_key, t_float, 1);
    sm2c_node *n = sm2c_node_new(c, im->g, op, def, s->path, n_ins, wide, n_outs);
    n->widened_from = dt;
    sm2c_value **outs = n->outputs;
    if (op->lower != lower_compare) {
        outs = sm2c_arena_array(c->arena, (size_t)n_outs + 1, sizeof *outs);
        for (int32_t k = 0; k < n_outs; k++)
            outs[k] = cast(im, s, nd, sm2c_arena_printf(c->arena, "sm2c_narrow_%d", (int)k), n->outputs[k],
                           SM2C_DT_FLOAT, dt);
    }
    sm2c_import_set_outputs(im, s, i, outs, n_outs);
    return 1;
}
