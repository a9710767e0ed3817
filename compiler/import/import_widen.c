/*
** import_widen.c: ops on float16 and bfloat16 that run in float32.
**
** TensorFlow's CPU kernels compute most half-type ops the same way (Eigen
** converts each element to float, applies the float function, rounds back;
** Sum accumulates in float; Max/Min, ArgMax/ArgMin, TopKV2, OneHot and the
** classifications are exact either way), so the node becomes Cast(to
** float32) per half input, the op on float32, and Cast back per half output.
** A few round in the half type inside the op and stay within the half types'
** tolerance (docs/reliability.md) rather than bit for bit: Prod, Mean (and
** EuclideanNorm) on float16, which TensorFlow lets overflow to inf where
** float32 does not, Range (start + i * delta rounded twice), ScatterNd's
** duplicate indices, Xlogy/Xlog1py (log rounded before the product).  This file is the one
** place that decides it: an op is widened when its dtypes column lists the
** half type and float32 and it is an elementwise unary/binary/comparison op
** or one of `forms` below, which say which inputs and outputs carry the half
** type (the others, indices, axes and counts, pass through).
**
** Where TensorFlow rounds to the half type between two steps of one op, the
** node is split into the ops it rounds between (import_widen_split.c), each
** widened: AddN (a chain of adds), SquaredDifference (a difference, then its
** square), TruncateDiv (a quotient, then truncated).
*/
#include <string.h>

#include "import_internal.h"
#include "ops/opdefs.h"

#define ALL 0xffffffffu

/* Which inputs (bit k: input k) and outputs carry the half type, read from
** attr `attr`. */
typedef struct {
    const char *op, *attr;
    uint32_t ins, outs;
} half_form;

static const half_form forms[] = {
    { "AddN", "T", ALL, ALL }, { "ClipByValue", "T", ALL, ALL }, { "BiasAdd", "T", ALL, ALL },
    { "L2Loss", "T", 1, 1 },
    { "IsNan", "T", 1, 0 }, { "IsInf", "T", 1, 0 }, { "IsFinite", "T", 1, 0 },
    { "Sum", "T", 1, 1 }, { "Mean", "T", 1, 1 }, { "Max", "T", 1, 1 }, { "Min", "T", 1, 1 },
    { "Prod", "T", 1, 1 }, { "EuclideanNorm", "T", 1, 1 },
    { "ArgMax", "T", 1, 0 }, { "ArgMin", "T", 1, 0 }, { "TopKV2", "T", 1, 1 },
    { "OneHot", "T", 12, 1 }, { "ScatterNd", "T", 2, 1 },
    { "Range", "Tidx", ALL, ALL },
};

/* How op runs on a half type: from `forms`, or every input and output of an
** elementwise op (none of a comparison's outputs); NULL for neither. */
static const half_form *form_of(const sm2c_opdef *op, half_form *tmp)
{
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++)
        if (!strcmp(forms[k].op, op->name))
            return &forms[k];
    if (op->lower != lower_unary && op->lower != lower_binary && op->lower != lower_compare)
        return NULL;
    *tmp = (half_form){ op->name, "T", ALL, op->lower == lower_compare ? 0 : ALL };
    return tmp;
}

/* The float16/bfloat16 dtype node nd of op computes in (the op lists it), or 0. */
static int half_dtype(const sm2c_opdef *op, const Tensorflow__NodeDef *nd, const half_form *f)
{
    const Tensorflow__AttrValue *t = sm2c_node_attr(nd, f->attr);
    if (!t || t->value_case != TENSORFLOW__ATTR_VALUE__VALUE_TYPE)
        return 0;
    int dt = (int)t->type;
    return (dt == SM2C_DT_HALF || dt == SM2C_DT_BFLOAT16) && sm2c_opdef_has_dtype(op, dt) ? dt : 0;
}

Tensorflow__NodeDef *sm2c_import_node_like(sm2c_ctx *c, const Tensorflow__NodeDef *nd, const char *name,
                                           const char *op, const char *const *keys, const int *types,
                                           size_t n)
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
    Tensorflow__NodeDef *def = sm2c_import_node_like(im->c, nd, name, "Cast", keys, types, 2);
    return sm2c_node_new(im->c, im->g, sm2c_opdef_find("Cast"), def, s->path, 1, &in, 1)->outputs[0];
}

sm2c_value **sm2c_import_widen_node(importer *im, scope *s, const Tensorflow__NodeDef *nd,
                                    const sm2c_opdef *op, sm2c_value **ins, int32_t n_ins, int32_t n_outs,
                                    int dt, const sm2c_opdef *part_of)
{
    half_form tmp;
    const half_form *f = form_of(op, &tmp);
    sm2c_ctx *c = im->c;
    sm2c_value **wide = sm2c_arena_array(c->arena, (size_t)n_ins + 1, sizeof *wide);
    for (int32_t k = 0; k < n_ins; k++)
        wide[k] = k < 32 && !(f->ins >> k & 1) ? ins[k] :
            cast(im, s, nd, sm2c_arena_printf(c->arena, "sm2c_widen_%d", (int)k), ins[k], dt, SM2C_DT_FLOAT);
    const char *t_key[] = { f->attr };
    static const int t_float[] = { SM2C_DT_FLOAT };
    Tensorflow__NodeDef *def = sm2c_import_node_like(c, nd, nd->name, nd->op, t_key, t_float, 1);
    sm2c_node *n = sm2c_node_new(c, im->g, op, def, s->path, n_ins, wide, n_outs);
    n->widened_from = dt;
    n->part_of = part_of;
    sm2c_value **outs = sm2c_arena_array(c->arena, (size_t)n_outs + 1, sizeof *outs);
    for (int32_t k = 0; k < n_outs; k++)
        outs[k] = k < 32 && !(f->outs >> k & 1) ? n->outputs[k] :
            cast(im, s, nd, sm2c_arena_printf(c->arena, "sm2c_narrow_%d", (int)k), n->outputs[k],
                 SM2C_DT_FLOAT, dt);
    return outs;
}

int sm2c_import_widen(importer *im, scope *s, int32_t i, const sm2c_opdef *op, sm2c_value **ins,
                      int32_t n_ins, int32_t n_outs)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    half_form tmp;
    const half_form *f = form_of(op, &tmp);
    int dt = f ? half_dtype(op, nd, f) : 0;
    if (!dt)
        return 0;
    sm2c_value **outs = sm2c_import_widen_split(im, s, nd, op, ins, n_ins, dt);
    if (!outs && !sm2c_opdef_has_dtype(op, SM2C_DT_FLOAT))
        return 0;
    if (!outs)
        outs = sm2c_import_widen_node(im, s, nd, op, ins, n_ins, n_outs, dt, NULL);
    sm2c_import_set_outputs(im, s, i, outs, n_outs);
    return 1;
}
