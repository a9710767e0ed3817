/*
** pass_fuse.c: fuse bias and activation into the op before them.
** requires: shape.  MatMul / Conv2D / DepthwiseConv2dNative (and a
** BatchMatMul of rows by one matrix) followed by a BiasAdd on their sole use,
** and then an activation on its sole use, become one node with `bias` and
** `act`; BiasAdd + activation likewise.  A MatMul's bias and activation may
** also come after a Reshape that keeps its rows (Keras's Dense and
** EinsumDense on 3-D inputs), which then stands for them.  A Conv2D's
** bias may be followed by a residual Add of a value computed before it
** (`residual`).  The kernels apply bias, residual and activation in the same
** order TensorFlow does.  Activations (pass_fuse_act.c): Relu, Relu6,
** LeakyRelu, Sigmoid, ClipByValue and Minimum/Maximum with constant scalar
** bounds, and Keras's hard-swish subgraph.  Then a Mul by a constant before
** a Softmax joins the Softmax (pass_fuse_scale.c).
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

/* A BatchMatMul of float rows by one float matrix (Keras's Dense and
** EinsumDense on 3-D inputs): it lowers to one MatMul over all rows
** (ops_nn.c), or a hybrid one (pass_dynamic.c), and both take a bias. */
static int rows_by_matrix(const sm2c_node *n)
{
    const sm2c_value *a = n->inputs[0], *b = n->n_inputs == 2 ? n->inputs[1] : NULL;
    return (op_is(n, "BatchMatMulV2") || op_is(n, "BatchMatMul") || op_is(n, "BatchMatMulV3")) && b &&
           a->dtype == SM2C_DT_FLOAT && b->dtype == SM2C_DT_FLOAT && b->shape.rank == 2 &&
           a->shape.rank >= 2 && !sm2c_attr_flag(n, "adj_x");
}

static int takes_bias(const sm2c_node *n)
{
    return (op_is(n, "MatMul") || op_is(n, "Conv2D") || op_is(n, "DepthwiseConv2dNative") || rows_by_matrix(n)) &&
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

/* The Reshape after n (its sole user) whose output z keeps n's rows: z's
** trailing dims multiply to n's last dim (Keras's Dense on 3-D inputs
** reshapes [rows, N] to [1, rows, N], EinsumDense [1, rows, N] to
** [1, rows, heads, N / heads]), so element c of a row of n's output is
** element c of z's trailing block; else NULL. */
static sm2c_node *row_reshape(const sm2c_graph *g, const sm2c_node *n, int32_t *trailing)
{
    sm2c_node *r = sm2c_sole_user(g, n->outputs[0]);
    const sm2c_shape *y = &n->outputs[0]->shape;
    if (!r || !op_is(r, "Reshape") || r->inputs[0] != n->outputs[0] || r->n_outputs != 1 || y->rank < 1)
        return NULL;
    const sm2c_shape *z = &r->outputs[0]->shape;
    int64_t prod = 1, last = y->dims[y->rank - 1];
    for (int32_t t = 1; t <= z->rank && prod < last; t++) {
        prod *= z->dims[z->rank - t];
        if (prod == last) {
            *trailing = t;
            return last > 0 ? r : NULL;
        }
    }
    return NULL;
}

/* The bias `next` adds to z, whose last `trailing` dims make one row of the
** product before the Reshape: a BiasAdd when that is z's last dim alone,
** or an Add of a float value shaped as those dims (leading 1s allowed),
** which broadcasts exactly as the row's bias; else NULL.  Its elements in
** order are the bias of the row's elements. */
static sm2c_value *bias_through(const sm2c_node *next, const sm2c_value *z, int32_t trailing)
{
    if (op_is(next, "BiasAdd"))
        return trailing == 1 ? bias_of(next, z) : NULL;
    if (!(op_is(next, "AddV2") || op_is(next, "Add")) || next->n_inputs != 2 ||
        !sm2c_shape_equal(&next->outputs[0]->shape, &z->shape))
        return NULL;
    sm2c_value *b = next->inputs[0] == z ? next->inputs[1] : next->inputs[0];
    const sm2c_shape *bs = &b->shape, *zs = &z->shape;
    if (b == z || b->dtype != SM2C_DT_FLOAT || bs->rank < trailing || bs->rank > zs->rank)
        return NULL;
    for (int32_t i = 0; i < bs->rank; i++) {
        int32_t from_end = bs->rank - i;
        if (from_end > trailing ? bs->dims[i] != 1 : bs->dims[i] != zs->dims[zs->rank - from_end])
            return NULL;
    }
    return b;
}

/* A bias (and then an activation) after a Reshape that keeps n's rows: n
** takes them, and the Reshape's output stands for theirs (the epilogue
** runs on n's rows, one addition per element as before). */
static int fuse_through_reshape(sm2c_graph *g, sm2c_node *n, int clamps_only)
{
    int32_t trailing = 0;
    sm2c_node *r = row_reshape(g, n, &trailing);
    sm2c_value *z = r ? r->outputs[0] : NULL;
    sm2c_node *next = z ? sm2c_sole_user(g, z) : NULL;
    sm2c_value *bias = next ? bias_through(next, z, trailing) : NULL;
    if (!bias || !ready_before(g, bias, n))
        return 0;
    n->bias = bias;
    sm2c_absorb_node(n, next);
    r->value_node = next->name;
    sm2c_replace_uses(g, next->outputs[0], z);
    sm2c_fuse_act_after_reshape(g, n, r, clamps_only);
    return 1;
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
    } else if (takes_bias(n) && !n->bias && !op_is(n, "Conv2D") && !op_is(n, "DepthwiseConv2dNative") &&
               fuse_through_reshape(g, n, !residual)) {
        return;
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

sm2c_status sm2c_pass_fuse(sm2c_ctx *c, sm2c_graph *g, int residual, int softmax_scale)
{
    (void)c;
    for (int32_t i = 0; i < g->n_nodes; i++)
        if (!g->nodes[i]->dead && g->nodes[i]->n_outputs > 0 && !g->nodes[i]->outputs[0]->constant)
            fuse_one(g, g->nodes[i], residual);
    if (softmax_scale)
        sm2c_fuse_softmax_scale(g);
    return SM2C_OK;
}
