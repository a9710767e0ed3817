/*
** pass_fuse.c: fuse bias and activation into the op before them.
** requires: shape.  MatMul / Conv2D / DepthwiseConv2dNative followed by a
** BiasAdd on their sole use, and then an activation on its sole use, become
** one node with `bias` and `act`; BiasAdd + activation likewise.  A Conv2D's
** bias may be followed by a residual Add of a value computed before it
** (`residual`).  The kernels apply bias, residual and activation in the same
** order TensorFlow does.  Activations (pass_fuse_act.c): Relu, Relu6,
** LeakyRelu, Sigmoid, ClipByValue and Minimum/Maximum with constant scalar
** bounds, and Keras's hard-swish subgraph.
*/
#include <string.h>

#include "ops/opdefs.h"
#include "passes.h"
#include "sm2c_rt.h"

static int op_is(const sm2c_node *n, const char *name)
{
    return strcmp(n->op->name, name) == 0;
}

/* `next` computes from n's output alone: absorb it and take over its output. */
static void absorb(sm2c_graph *g, sm2c_node *n, sm2c_node *next)
{
    sm2c_absorb_node(n, next);
    n->value_node = next->name;
    sm2c_replace_uses(g, next->outputs[0], n->outputs[0]);
}

static int takes_bias(const sm2c_node *n)
{
    return (op_is(n, "MatMul") || op_is(n, "Conv2D") || op_is(n, "DepthwiseConv2dNative")) &&
           n->outputs[0]->dtype == SM2C_DT_FLOAT;
}

/* Whether v is ready when n runs: a constant or input, or made by a node
** before n (a bias read from state after the MatMul would be dead by then).
** A value known at compile time is ready whatever node made it (Keras 3 reads
** a layer's bias variable after its convolution). */
static int ready_before(const sm2c_graph *g, const sm2c_value *v, const sm2c_node *n)
{
    if (v->constant)
        return 1;
    for (int32_t i = 0; v->node && i < g->n_nodes && g->nodes[i] != n; i++)
        if (g->nodes[i] == v->node)
            return 1;
    return !v->node;
}

/* The bias `next` adds to n's output y, or NULL: a BiasAdd (NHWC), or an
** Add of a float vector as long as y's last dim, possibly with leading 1 dims
** (Keras 3 writes a one-unit Dense layer's bias and its batch norm's offset
** that way), which broadcasts exactly as a bias does. */
static sm2c_value *bias_of(const sm2c_node *next, const sm2c_value *y)
{
    if (op_is(next, "BiasAdd"))
        return next->inputs[0] == y && !sm2c_attr_str_is(next, "data_format", "NCHW")
                   ? next->inputs[1] : NULL;
    if (!(op_is(next, "AddV2") || op_is(next, "Add")) || next->n_inputs != 2)
        return NULL;
    sm2c_value *b = next->inputs[0] == y ? next->inputs[1] : next->inputs[0];
    const sm2c_shape *out = &next->outputs[0]->shape;
    if (b == y || b->dtype != SM2C_DT_FLOAT || b->shape.rank < 1 || y->shape.rank < 1 ||
        b->shape.rank > y->shape.rank ||
        b->shape.dims[b->shape.rank - 1] != y->shape.dims[y->shape.rank - 1] ||
        out->rank != y->shape.rank)
        return NULL;
    for (int32_t i = 0; i + 1 < b->shape.rank; i++)      /* [n] or [1, ..., 1, n] */
        if (b->shape.dims[i] != 1)
            return NULL;
    for (int32_t i = 0; i < out->rank; i++)
        if (out->dims[i] != y->shape.dims[i])
            return NULL;
    return b;
}

/* An Add after Conv2D (+ bias) whose other operand has the output's shape and
** is computed before the convolution: the kernel adds it before the
** activation (sm2c_rt_conv2d_add_f32). */
static int takes_residual(sm2c_graph *g, const sm2c_node *n, const sm2c_node *next)
{
    if (!op_is(n, "Conv2D") || n->residual || n->act != SM2C_RT_ACT_NONE || !next ||
        n->outputs[0]->dtype != SM2C_DT_FLOAT || !(op_is(next, "AddV2") || op_is(next, "Add")) ||
        next->n_inputs != 2 || next->inputs[0] == next->inputs[1])
        return 0;
    const sm2c_value *r = next->inputs[0] == n->outputs[0] ? next->inputs[1] : next->inputs[0];
    return r->dtype == SM2C_DT_FLOAT && sm2c_shape_equal(&r->shape, &n->outputs[0]->shape) &&
           sm2c_shape_equal(&next->outputs[0]->shape, &n->outputs[0]->shape) &&
           ready_before(g, r, n);
}

static void fuse_one(sm2c_graph *g, sm2c_node *n, int residual)
{
    /* Only these take a bias, a residual or an activation: ask for the user
    ** (a walk over the graph) of nothing else. */
    if (!takes_bias(n) && !op_is(n, "BiasAdd") && !op_is(n, "Conv2D"))
        return;
    sm2c_node *next = sm2c_sole_user(g, n->outputs[0]);
    sm2c_value *bias = takes_bias(n) && !n->bias && next ? bias_of(next, n->outputs[0]) : NULL;
    if (bias && ready_before(g, bias, n)) {
        n->bias = bias;
        absorb(g, n, next);
        next = sm2c_sole_user(g, n->outputs[0]);
    }
    if (residual && takes_residual(g, n, next)) {
        n->residual = next->inputs[0] == n->outputs[0] ? next->inputs[1] : next->inputs[0];
        absorb(g, n, next);
        next = sm2c_sole_user(g, n->outputs[0]);
    }
    if ((takes_bias(n) || op_is(n, "BiasAdd")) && n->act == SM2C_RT_ACT_NONE &&
        n->outputs[0]->dtype == SM2C_DT_FLOAT)
        sm2c_fuse_act(g, n, !residual); /* residual 0: --quantize int8 */
}

sm2c_status sm2c_pass_fuse(sm2c_ctx *c, sm2c_graph *g, int residual)
{
    (void)c;
    for (int32_t i = 0; i < g->n_nodes; i++)
        if (!g->nodes[i]->dead && g->nodes[i]->n_outputs > 0 && !g->nodes[i]->outputs[0]->constant)
            fuse_one(g, g->nodes[i], residual);
    return SM2C_OK;
}
