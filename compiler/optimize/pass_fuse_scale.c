/*
** pass_fuse_scale.c: fold a Mul by a constant scalar into the Softmax that
** reads it.  Keras's attention scales its scores by 1/sqrt(key_dim) this way
** (MultiHeadAttention, Attention(use_scale)), and the Mul was a pass over the
** scores of its own (a fiftieth of a transformer block's time).  The Softmax
** takes the Mul's other input and the scale (sm2c_node.in_scale), and its
** kernel multiplies each element as it reads it (sm2c_rt_softmax_scaled_f32):
** the same products, rounded once each as the Mul rounds them, so the same
** bits.  Float activations only: --quantize int8 keeps both ops, as TFLite's
** converter does.
*/
#include <string.h>

#include "ops/opdefs.h"
#include "passes.h"

static int live_op(const sm2c_node *n, const char *name)
{
    return n && !n->dead && strcmp(n->op->name, name) == 0;
}

static void fold_one(sm2c_graph *g, sm2c_node *softmax)
{
    sm2c_node *mul = softmax->inputs[0]->node;
    float k;
    if (softmax->in_scaled || softmax->outputs[0]->dtype != SM2C_DT_FLOAT || !live_op(mul, "Mul") ||
        mul->n_inputs != 2 || sm2c_sole_user(g, mul->outputs[0]) != softmax)
        return;
    int which = sm2c_scalar_const(mul->inputs[1], &k) ? 0 : sm2c_scalar_const(mul->inputs[0], &k) ? 1 : -1;
    if (which < 0)
        return;
    sm2c_value *x = mul->inputs[which];
    /* The scalar must not widen x: the Mul's output is x's shape. */
    if (x->dtype != SM2C_DT_FLOAT || !sm2c_shape_equal(&x->shape, &mul->outputs[0]->shape))
        return;
    softmax->inputs[0] = x;
    x->uses++;
    softmax->in_scaled = 1;
    softmax->in_scale = k;
    sm2c_absorb_node(softmax, mul);
}

void sm2c_fuse_softmax_scale(sm2c_graph *g)
{
    for (int32_t i = 0; i < g->n_nodes; i++)
        if (live_op(g->nodes[i], "Softmax"))
            fold_one(g, g->nodes[i]);
}
