/*
** pass_affinefold.c: fold a per-channel Mul and Add after a contraction into
** its weights and bias.
** requires: shape.  Keras 3 exports inference BatchNormalization as
** x * s + t with s, t constant per channel (not FusedBatchNorm, which
** pass_bnfold.c folds).  Pattern: Conv2D, DepthwiseConv2dNative or MatMul
** (transpose_b false) with a constant float filter, optionally a BiasAdd with a
** constant bias, then Mul by a constant s, then Add/AddV2 of a constant t,
** each the sole user of the value before it; s and t hold one value per output
** channel (or one for all).  The filter becomes w * s and the bias b * s + t,
** and the Mul and Add disappear.  The rewrite changes rounding within the
** tolerance policy (docs/reliability.md section 9), as TFLite's converter does.
*/
#include <string.h>

#include "ops/opdefs.h"
#include "passes.h"
#include "sm2c_rt.h"

static int op_is(const sm2c_node *n, const char *name)
{
    return n && !n->dead && strcmp(n->op->name, name) == 0;
}

/* A constant float with one value, or one per channel along the last dim
** (every other dim 1): what x * s or x + t broadcasts per output channel. */
static const float *per_channel(const sm2c_value *v, int64_t channels)
{
    const sm2c_tensor *t = v->constant;
    if (!t || t->dtype != SM2C_DT_FLOAT || (t->nelem != 1 && t->nelem != channels))
        return NULL;
    if (v->shape.rank > 0 && t->nelem != 1 && v->shape.dims[v->shape.rank - 1] != channels)
        return NULL;
    return t->data;
}

/* The other operand of a binary node that reads x, if it is per channel and
** the result has x's shape (no broadcast beyond it). */
static const float *channel_operand(const sm2c_node *n, const sm2c_value *x, int64_t channels,
                                    int64_t *count)
{
    if (n->n_inputs != 2 || n->outputs[0]->dtype != SM2C_DT_FLOAT ||
        !sm2c_shape_equal(&n->outputs[0]->shape, &x->shape))
        return NULL;
    const sm2c_value *other = n->inputs[0] == x ? n->inputs[1] : n->inputs[0];
    if (other == x || (n->inputs[0] != x && n->inputs[1] != x))
        return NULL;
    *count = other->constant ? other->constant->nelem : 0;
    return per_channel(other, channels);
}

static sm2c_tensor *float_tensor(sm2c_ctx *c, int32_t rank, const int64_t *dims, int64_t nelem)
{
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    memset(t, 0, sizeof *t);
    t->dtype = SM2C_DT_FLOAT;
    t->shape = sm2c_shape_make(c, rank, dims);
    t->nelem = nelem;
    t->nbytes = (size_t)nelem * sizeof(float);
    t->data = sm2c_arena_alloc(c->arena, t->nbytes + 1);
    return t;
}

/* A contraction whose output channel is the filter's innermost index. */
static int foldable_producer(const sm2c_node *p)
{
    const sm2c_value *w = p->n_inputs >= 2 ? p->inputs[1] : NULL;
    if (!w || !w->constant || w->constant->dtype != SM2C_DT_FLOAT || p->bias ||
        p->act != SM2C_RT_ACT_NONE || p->outputs[0]->dtype != SM2C_DT_FLOAT)
        return 0;
    if (op_is(p, "MatMul"))
        return !sm2c_attr_flag(p, "transpose_b") && p->outputs[0]->shape.rank == 2;
    return (op_is(p, "Conv2D") || op_is(p, "DepthwiseConv2dNative")) &&
           !sm2c_attr_str_is(p, "data_format", "NCHW") && p->outputs[0]->shape.rank == 4;
}

/* Fold what follows producer p; returns the number of nodes removed. */
static int fold_after(sm2c_ctx *c, sm2c_graph *g, sm2c_node *p)
{
    const int32_t rank = p->outputs[0]->shape.rank;
    const int64_t oc = p->outputs[0]->shape.dims[rank - 1];
    sm2c_node *bias_add = sm2c_sole_user(g, p->outputs[0]);
    sm2c_value *y = p->outputs[0];
    const float *s = NULL, *t = NULL, *b = NULL;
    int64_t ns = 0, nt = 0;

    if (op_is(bias_add, "BiasAdd") && bias_add->inputs[0] == y &&
        !sm2c_attr_str_is(bias_add, "data_format", "NCHW") &&
        (b = per_channel(bias_add->inputs[1], oc)) && bias_add->inputs[1]->constant->nelem == oc)
        y = bias_add->outputs[0];
    else
        bias_add = NULL, b = NULL;
    sm2c_node *mul = sm2c_sole_user(g, y), *add;
    if (op_is(mul, "Mul") && (s = channel_operand(mul, y, oc, &ns)))
        y = mul->outputs[0];
    else
        mul = NULL;
    add = sm2c_sole_user(g, y);
    if ((op_is(add, "AddV2") || op_is(add, "Add")) && (t = channel_operand(add, y, oc, &nt)))
        y = add->outputs[0];
    else
        add = NULL;
    if (!mul && !add)
        return 0;

    if (mul) {
        sm2c_tensor *w = float_tensor(c, p->inputs[1]->constant->shape.rank,
                                      p->inputs[1]->constant->shape.dims,
                                      p->inputs[1]->constant->nelem);
        const float *w0 = p->inputs[1]->constant->data;
        float *wd = w->data;
        /* HWIO, depthwise [kh,kw,C,M] and [K,N] keep the output channel innermost. */
        for (int64_t i = 0; i < w->nelem; i++)
            wd[i] = w0[i] * s[ns == 1 ? 0 : i % oc];
        p->inputs[1] = sm2c_new_const(c, g, w, sm2c_arena_printf(c->arena, "%s (scale folded)",
                                                              p->inputs[1]->name));
    }
    sm2c_tensor *bt = float_tensor(c, 1, &oc, oc);
    float *bd = bt->data;
    for (int64_t i = 0; i < oc; i++) {
        float v = b ? b[i] : 0.0f;
        if (mul)
            v = v * s[ns == 1 ? 0 : i];
        if (add)
            v = v + t[nt == 1 ? 0 : i];
        bd[i] = v;
    }
    p->bias = sm2c_new_const(c, g, bt, sm2c_arena_printf(c->arena, "%s (folded bias)",
                                                    (add ? add : mul)->name));
    sm2c_replace_uses(g, y, p->outputs[0]);
    if (bias_add)
        bias_add->dead = 1;
    if (mul)
        mul->dead = 1;
    if (add)
        add->dead = 1;
    return !!bias_add + !!mul + !!add;
}

sm2c_status sm2c_pass_affinefold(sm2c_ctx *c, sm2c_graph *g)
{
    for (int32_t i = 0; i < g->n_nodes; i++)
        if (!g->nodes[i]->dead && g->nodes[i]->n_outputs > 0 && foldable_producer(g->nodes[i]))
            fold_after(c, g, g->nodes[i]);
    return SM2C_OK;
}
