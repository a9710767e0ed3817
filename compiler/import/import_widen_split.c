/*
** import_widen_split.c: half-type ops TensorFlow rounds to the half type
** between two steps of, split into those steps, each widened to float32 by
** import_widen.c.
**
** TensorFlow's CPU kernels evaluate these as Eigen expressions over the half
** type, each operator rounding its result: AddN adds its inputs left to right
** (((x0 + x1) + x2) + ...), SquaredDifference squares the rounded x - y, and
** TruncateDiv truncates the rounded x / y (sign(q) * floor(|q|)).  One float32
** computation would round once, so it would differ from TensorFlow in the last
** bit (and by one whole unit for TruncateDiv).
*/
#include <string.h>

#include "import_internal.h"
#include "ops/opdefs.h"

/* op on ins (n of them, one output) in the half type dt, named nd's name
** with `suffix`; its output. */
static sm2c_value *half_op(importer *im, scope *s, const Tensorflow__NodeDef *nd, const sm2c_opdef *whole,
                           const char *suffix, const char *op, sm2c_value **ins, int32_t n, int dt)
{
    static const char *const t_key[] = { "T" };
    int t[] = { dt };
    const char *name = sm2c_arena_printf(im->c->arena, "%s/%s", nd->name, suffix);
    Tensorflow__NodeDef *def = sm2c_import_node_like(im->c, nd, name, op, t_key, t, 1);
    return sm2c_import_widen_node(im, s, def, sm2c_opdef_find(op), ins, n, 1, dt, whole)[0];
}

static sm2c_value *add_n(importer *im, scope *s, const Tensorflow__NodeDef *nd, const sm2c_opdef *whole,
                         sm2c_value **ins, int32_t n, int dt)
{
    sm2c_value *acc = ins[0];
    for (int32_t k = 1; k < n; k++) {
        sm2c_value *two[] = { acc, ins[k] };
        acc = half_op(im, s, nd, whole, sm2c_arena_printf(im->c->arena, "sm2c_add_%d", (int)k), "AddV2", two, 2, dt);
    }
    return acc;
}

static sm2c_value *truncate_div(importer *im, scope *s, const Tensorflow__NodeDef *nd,
                                const sm2c_opdef *whole, sm2c_value **ins, int dt)
{
    sm2c_value *q = half_op(im, s, nd, whole, "sm2c_quotient", "RealDiv", ins, 2, dt);
    sm2c_value *a = half_op(im, s, nd, whole, "sm2c_abs", "Abs", &q, 1, dt);
    sm2c_value *parts[] = { half_op(im, s, nd, whole, "sm2c_sign", "Sign", &q, 1, dt),
                            half_op(im, s, nd, whole, "sm2c_floor", "Floor", &a, 1, dt) };
    return half_op(im, s, nd, whole, "sm2c_trunc", "Mul", parts, 2, dt);
}

sm2c_value **sm2c_import_widen_split(importer *im, scope *s, const Tensorflow__NodeDef *nd,
                                     const sm2c_opdef *whole, sm2c_value **ins, int32_t n_ins, int dt)
{
    sm2c_value *out;
    if (!strcmp(nd->op, "AddN") && n_ins > 1)
        out = add_n(im, s, nd, whole, ins, n_ins, dt);
    else if (!strcmp(nd->op, "SquaredDifference")) {
        sm2c_value *d = half_op(im, s, nd, whole, "sm2c_difference", "Sub", ins, 2, dt);
        out = half_op(im, s, nd, whole, "sm2c_square", "Square", &d, 1, dt);
    } else if (!strcmp(nd->op, "TruncateDiv"))
        out = truncate_div(im, s, nd, whole, ins, dt);
    else
        return NULL;
    sm2c_value **outs = sm2c_arena_array(im->c->arena, 2, sizeof *outs);
    outs[0] = out;
    return outs;
}
