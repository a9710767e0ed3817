/*
** pass_bnfold.c: fold inference-mode batch normalization into the convolution
** before it.
** requires: shape.  Pattern: Conv2D or DepthwiseConv2dNative with a constant
** filter, optionally a BiasAdd with a constant bias, then FusedBatchNorm(V3)
** (is_training false, NHWC) with constant scale, offset, mean and variance,
** each the sole user of the previous value.  With s = scale / sqrt(var + eps)
** per output channel, the filter becomes w * s and the bias (b - mean) * s +
** offset; the BatchNorm disappears.  s is computed as the batch-norm kernel
** computes it; the rewrite changes rounding within the tolerance policy.
** Keras 3 writes inference batch norm as arithmetic instead, x * s + t with s
** and t constant once folded: pass_affinefold.c folds that form.
*/
#include <math.h>
#include <string.h>

#include "ops/opdefs.h"
#include "passes.h"

static int op_is(const sm2c_node *n, const char *name)
{
    return n && strcmp(n->op->name, name) == 0;
}

static sm2c_tensor *float_copy(sm2c_ctx *c, const sm2c_tensor *t)
{
    sm2c_tensor *r = sm2c_arena_alloc(c->arena, sizeof *r);
    *r = *t;
    r->data = sm2c_arena_alloc(c->arena, t->nbytes + 1);
    memcpy(r->data, t->data, t->nbytes);
    return r;
}

static int const_float(const sm2c_value *v)
{
    return v->constant && v->constant->dtype == SM2C_DT_FLOAT;
}

/* The parameters are constant, per-channel, and unused BN outputs 1.. are dead. */
static int foldable_bn(const sm2c_graph *g, const sm2c_node *bn, int64_t channels)
{
    int training = sm2c_attr_flag(bn, "is_training");
    if (training || sm2c_attr_str_is(bn, "data_format", "NCHW") || bn->n_inputs != 5)
        return 0;
    for (int32_t i = 1; i < 5; i++)
        if (!const_float(bn->inputs[i]) || bn->inputs[i]->constant->nelem != channels)
            return 0;
    for (int32_t k = 1; k < bn->n_outputs; k++)
        if (sm2c_uses_of(g, bn->outputs[k]))
            return 0;
    return 1;
}

/* s[oc] = scale / sqrt(var + eps), as sm2c_rt_batch_norm_f32 computes it. */
static float *bn_scales(sm2c_ctx *c, const sm2c_node *bn, int64_t channels)
{
    float eps = 0.0001f;
    sm2c_attr_float(bn, "epsilon", &eps);
    const float *scale = bn->inputs[1]->constant->data, *var = bn->inputs[4]->constant->data;
    float *s = sm2c_arena_array(c->arena, (size_t)channels, sizeof *s);
    for (int64_t i = 0; i < channels; i++)
        s[i] = scale[i] * (1.0f / sqrtf(var[i] + eps));
    return s;
}

/* Conv (+ BiasAdd) -> BN, or NULL. */
static sm2c_node *conv_before(const sm2c_graph *g, const sm2c_node *bn, sm2c_node **bias_add)
{
    sm2c_node *p = bn->inputs[0]->node;
    *bias_add = NULL;
    if (op_is(p, "BiasAdd") && const_float(p->inputs[1]) && sm2c_uses_of(g, p->outputs[0]) == 1 &&
        !sm2c_attr_str_is(p, "data_format", "NCHW")) {
        *bias_add = p;
        p = p->inputs[0]->node;
    }
    if (!(op_is(p, "Conv2D") || op_is(p, "DepthwiseConv2dNative")) || p->dead ||
        !const_float(p->inputs[1]) || sm2c_uses_of(g, p->outputs[0]) != 1 || p->bias ||
        p->outputs[0]->shape.rank != 4)
        return NULL;
    return p;
}

static void fold_one(sm2c_ctx *c, sm2c_graph *g, sm2c_node *bn)
{
    sm2c_node *bias_add, *conv = conv_before(g, bn, &bias_add);
    if (!conv)
        return;
    int64_t oc = conv->outputs[0]->shape.dims[3];
    if (!foldable_bn(g, bn, oc))
        return;
    const float *s = bn_scales(c, bn, oc);
    const float *offset = bn->inputs[2]->constant->data, *mean = bn->inputs[3]->constant->data;
    sm2c_tensor *w = float_copy(c, conv->inputs[1]->constant);
    float *wd = w->data;
    /* HWIO and depthwise [kh,kw,C,M] both keep output channel oc = i % OC innermost. */
    for (int64_t i = 0; i < w->nelem; i++)
        wd[i] = wd[i] * s[i % oc];
    sm2c_tensor *b = sm2c_arena_alloc(c->arena, sizeof *b);
    int64_t dim = oc;
    b->dtype = SM2C_DT_FLOAT;
    b->shape = sm2c_shape_make(c, 1, &dim);
    b->nelem = oc;
    b->nbytes = (size_t)oc * sizeof(float);
    b->data = sm2c_arena_alloc(c->arena, b->nbytes + 1);
    const float *old = bias_add ? bias_add->inputs[1]->constant->data : NULL;
    for (int64_t i = 0; i < oc; i++)
        ((float *)b->data)[i] = ((old ? old[i] : 0.0f) - mean[i]) * s[i] + offset[i];
    conv->inputs[1] = sm2c_new_const(c, g, w, sm2c_arena_printf(c->arena, "%s (batch norm folded)",
                                                             conv->inputs[1]->name));
    sm2c_value *bias = sm2c_new_const(c, g, b, sm2c_arena_printf(c->arena, "%s (folded bias)", bn->name));
    if (bias_add) {
        bias_add->inputs[1] = bias;
        sm2c_replace_uses(g, bn->outputs[0], bias_add->outputs[0]);
    } else {
        conv->bias = bias;
        sm2c_replace_uses(g, bn->outputs[0], conv->outputs[0]);
    }
    bn->dead = 1;
}

sm2c_status sm2c_pass_bnfold(sm2c_ctx *c, sm2c_graph *g)
{
    for (int32_t i = 0; i < g->n_nodes; i++) {
        if (g->nodes[i]->dead)
            continue;
        if (op_is(g->nodes[i], "FusedBatchNormV3") || op_is(g->nodes[i], "FusedBatchNorm"))
            fold_one(c, g, g->nodes[i]);
    }
    return SM2C_OK;
}
