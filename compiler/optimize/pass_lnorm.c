/*
** pass_lnorm.c: Keras 3's LayerNormalization over the last axis into one
** LayerNorm node (ops/ops_layer_norm.h), one runtime step instead of eleven.
** requires: shape.  Keras 3 (keras/src/ops/nn.py, _layer_normalization)
** writes, with `mean` and `var` from tf.nn.moments:
**     mean = Mean(x, [-1], keep_dims)        var = Mean(SquaredDifference(x, mean), [-1], keep_dims)
**     inv  = Rsqrt(AddV2(var, eps)) [* gamma]
**     res  = Neg(mean) * inv [+ beta]
**     y    = x * inv + res
** with gamma (scale), beta (center) and eps constant, gamma and beta one per
** channel of the last axis.  Every value between x and y must be read only
** inside the pattern; the final AddV2 node becomes the LayerNorm node
** [x, gamma, beta, eps] (ones or zeros for a missing gamma or beta, which
** change no bit but the sign of a zero), the others die.  The kernel does the
** pattern's operations in its order with Mean's summation, so the rewrite
** changes no result.  Other forms (several axes, rms_scaling, tf_keras's
** FusedBatchNormV3) are left as they are.
*/
#include <string.h>

#include "load/tensor_proto.h"
#include "ops/opdefs.h"
#include "ops/ops_layer_norm.h"
#include "passes.h"

enum { LN_MAX_NODES = 12 };

typedef struct ln_match {
    sm2c_value *x;
    const sm2c_value *gamma, *beta, *eps;   /* gamma, beta NULL when absent */
    sm2c_node *dies[LN_MAX_NODES];          /* the nodes the LayerNorm replaces */
    int32_t n_dies;
} ln_match;

static int op_is(const sm2c_node *n, const char *name)
{
    return n && !n->dead && strcmp(n->op->name, name) == 0;
}

static int is_add(const sm2c_node *n)
{
    return op_is(n, "AddV2") || op_is(n, "Add");
}

/* The node making v when it is op `name`, a float node not widened from
** half precision, whose output nothing outside the pattern reads (`uses`
** readers in all); else NULL. */
static sm2c_node *made_by(const sm2c_graph *g, const sm2c_value *v, const char *name, int uses)
{
    sm2c_node *n = v ? v->node : NULL;
    if (!n || v->index != 0 || v->constant || v->dtype != SM2C_DT_FLOAT || n->widened_from ||
        sm2c_uses_of(g, v) != uses)
        return NULL;
    if (strcmp(name, "Add") == 0 ? !is_add(n) : !op_is(n, name))
        return NULL;
    return n;
}

/* The operand of binary node n that is not v, or NULL when v is not one. */
static sm2c_value *other_operand(const sm2c_node *n, const sm2c_value *v)
{
    if (n->n_inputs != 2)
        return NULL;
    return n->inputs[0] == v ? n->inputs[1] : n->inputs[1] == v ? n->inputs[0] : NULL;
}

static void dies(ln_match *m, sm2c_node *n)
{
    if (m->n_dies < LN_MAX_NODES)
        m->dies[m->n_dies++] = n;
}

/* A constant float with one value per channel of the last axis (every other
** dim 1), or one value for all. */
static int per_channel(const sm2c_value *v, int64_t channels)
{
    const sm2c_tensor *t = v->constant;
    if (!t || t->dtype != SM2C_DT_FLOAT || (t->nelem != 1 && t->nelem != channels))
        return 0;
    return t->nelem == 1 || (v->shape.rank >= 1 && v->shape.dims[v->shape.rank - 1] == channels);
}

/* Mean of `in` over its last axis only, keeping it: the output is in's shape
** with the last dim 1. */
static int mean_of_last(const sm2c_node *mean, const sm2c_value *in)
{
    const sm2c_shape *x = &in->shape, *y = &mean->outputs[0]->shape;
    const sm2c_tensor *axes = mean->n_inputs == 2 ? mean->inputs[1]->constant : NULL;
    if (mean->inputs[0] != in || !axes || axes->nelem != 1 || x->rank < 1 || y->rank != x->rank)
        return 0;
    int64_t a = sm2c_tensor_get_i64(axes, 0);
    if (a != -1 && a != x->rank - 1)
        return 0;
    for (int32_t i = 0; i + 1 < x->rank; i++)
        if (y->dims[i] != x->dims[i])
            return 0;
    return y->dims[x->rank - 1] == 1;
}

/* inv = Rsqrt(var + eps) [* gamma], var = Mean(SquaredDifference(x, mean)):
** the mean value, or NULL.  inv has `uses` readers (the two Muls). */
static sm2c_value *match_inv(const sm2c_graph *g, ln_match *m, sm2c_value *inv, int64_t channels)
{
    sm2c_node *scale = made_by(g, inv, "Mul", 2), *rsqrt;
    sm2c_value *r = inv;
    if (scale) {
        sm2c_value *a = scale->inputs[0], *b = scale->inputs[1];
        r = per_channel(b, channels) ? a : per_channel(a, channels) ? b : NULL;
        if (!r)
            return NULL;
        m->gamma = r == a ? b : a;
        dies(m, scale);
    }
    if (!(rsqrt = made_by(g, r, "Rsqrt", scale ? 1 : 2)))
        return NULL;
    sm2c_node *add = made_by(g, rsqrt->inputs[0], "Add", 1), *var, *sqd;
    sm2c_value *v = NULL;
    if (!add)
        return NULL;
    for (int32_t k = 0; k < 2 && !v; k++) {
        const sm2c_value *e = add->inputs[1 - k];
        if (e->constant && e->constant->dtype == SM2C_DT_FLOAT && e->constant->nelem == 1)
            v = add->inputs[k], m->eps = e;
    }
    if (!v || !(var = made_by(g, v, "Mean", 1)) ||
        !(sqd = made_by(g, var->inputs[0], "SquaredDifference", 1)) || !mean_of_last(var, sqd->outputs[0]))
        return NULL;
    sm2c_value *mean = other_operand(sqd, m->x);
    if (!mean || mean == m->x)
        return NULL;
    dies(m, rsqrt), dies(m, add), dies(m, var), dies(m, sqd);
    return mean;
}

/* res = Neg(mean) * inv [+ beta]. */
static int match_res(const sm2c_graph *g, ln_match *m, sm2c_value *res, const sm2c_value *mean,
                     const sm2c_value *inv, int64_t channels)
{
    sm2c_node *center = made_by(g, res, "Add", 1), *mul, *neg;
    sm2c_value *prod = res;
    if (center) {
        sm2c_value *a = center->inputs[0], *b = center->inputs[1];
        prod = per_channel(b, channels) ? a : per_channel(a, channels) ? b : NULL;
        if (!prod)
            return 0;
        m->beta = prod == a ? b : a;
        dies(m, center);
    }
    if (!(mul = made_by(g, prod, "Mul", 1)) || !(neg = made_by(g, other_operand(mul, inv), "Neg", 1)) ||
        neg->inputs[0] != mean)
        return 0;
    dies(m, mul), dies(m, neg);
    return 1;
}

/* y = x * inv + res, at the final Add `out`. */
static int match_at(const sm2c_graph *g, sm2c_node *out, ln_match *m)
{
    const sm2c_value *y = out->outputs[0];
    if (!is_add(out) || out->n_inputs != 2 || y->dtype != SM2C_DT_FLOAT || y->constant ||
        out->widened_from || y->shape.rank < 1)
        return 0;
    const int64_t channels = y->shape.dims[y->shape.rank - 1];
    for (int32_t k = 0; k < 2; k++) {
        sm2c_node *mul = made_by(g, out->inputs[k], "Mul", 1), *mean;
        for (int32_t side = 0; mul && side < 2; side++) {
            memset(m, 0, sizeof *m);
            m->x = mul->inputs[side];
            sm2c_value *inv = mul->inputs[1 - side], *meanv;
            if (!sm2c_shape_equal(&m->x->shape, &y->shape) || m->x->dtype != SM2C_DT_FLOAT ||
                !(meanv = match_inv(g, m, inv, channels)) || !(mean = made_by(g, meanv, "Mean", 2)) ||
                !mean_of_last(mean, m->x) || !match_res(g, m, out->inputs[1 - k], meanv, inv, channels))
                continue;
            dies(m, mul), dies(m, mean);
            return m->n_dies < LN_MAX_NODES;
        }
    }
    return 0;
}

/* gamma or beta as a [channels] constant; `fill` when the layer has none. */
static sm2c_value *channel_const(sm2c_ctx *c, sm2c_graph *g, const sm2c_value *v, int64_t channels,
                                 float fill, const char *name)
{
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    memset(t, 0, sizeof *t);
    t->dtype = SM2C_DT_FLOAT;
    t->shape = sm2c_shape_make(c, 1, &channels);
    t->nelem = channels;
    t->nbytes = (size_t)channels * sizeof(float);
    t->data = sm2c_arena_alloc(c->arena, t->nbytes + 1);
    float *d = t->data;
    const float *src = v ? v->constant->data : NULL;
    for (int64_t i = 0; i < channels; i++)
        d[i] = src ? src[v->constant->nelem == 1 ? 0 : i] : fill;
    return sm2c_new_const(c, g, t, v ? v->name : name);
}

static void rewrite(sm2c_ctx *c, sm2c_graph *g, sm2c_node *out, const ln_match *m)
{
    const int64_t channels = m->x->shape.dims[m->x->shape.rank - 1];
    sm2c_value **in = sm2c_arena_array(c->arena, 4, sizeof *in);
    for (int32_t i = 0; i < m->n_dies; i++)
        m->dies[i]->dead = 1;
    for (int32_t k = 0; k < out->n_inputs; k++)
        out->inputs[k]->uses--;
    in[0] = m->x;
    in[1] = channel_const(c, g, m->gamma, channels, 1.0f, sm2c_arena_printf(c->arena, "%s (gamma)", out->name));
    in[2] = channel_const(c, g, m->beta, channels, 0.0f, sm2c_arena_printf(c->arena, "%s (beta)", out->name));
    in[3] = (sm2c_value *)m->eps;
    m->x->uses++;
    in[3]->uses++;
    out->inputs = in;
    out->n_inputs = 4;
    out->op = &sm2c_op_layer_norm;
}

sm2c_status sm2c_pass_lnorm(sm2c_ctx *c, sm2c_graph *g)
{
    for (int32_t i = 0; i < g->n_nodes; i++) {
        ln_match m;
        sm2c_node *n = g->nodes[i];
        if (!n->dead && n->n_outputs == 1 && match_at(g, n, &m))
            rewrite(c, g, n, &m);
    }
    return SM2C_OK;
}
