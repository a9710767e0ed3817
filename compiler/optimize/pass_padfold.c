/*
** pass_padfold.c: fold a zero Pad into the convolution that reads it.
** requires: shape.  Pad (or PadV2 with a constant 0) of a float NHWC tensor by
** constant amounts on H and W only, whose sole user is a Conv2D or
** DepthwiseConv2dNative reading it as its input: the convolution reads the
** unpadded tensor and records the amounts (sm2c_node.pad); lowering turns them
** into window padding, which the kernels read as zeros.  Exact: the same
** products are summed in the same order.  Keras' ZeroPadding2D before a
** strided convolution (MobileNet, ResNet) is this pattern.
*/
#include <string.h>

#include "ops/ops_common.h"
#include "passes.h"

static int op_is(const sm2c_node *n, const char *name)
{
    return n && !n->dead && strcmp(n->op->name, name) == 0;
}

/* PadV2's pad value is a constant zero (Pad's always is). */
static int pads_with_zero(const sm2c_node *pad)
{
    const sm2c_tensor *t = pad->n_inputs == 3 ? pad->inputs[2]->constant : NULL;
    if (pad->n_inputs == 2)
        return 1;
    return t && t->dtype == SM2C_DT_FLOAT && t->nelem == 1 && ((const float *)t->data)[0] == 0.0f;
}

static void fold_one(sm2c_ctx *c, sm2c_graph *g, sm2c_node *pad)
{
    const sm2c_tensor *pt = pad->inputs[1]->constant;
    sm2c_node *conv = sm2c_sole_user(g, pad->outputs[0]);
    if (!pt || pt->nelem != 8 || pad->outputs[0]->dtype != SM2C_DT_FLOAT ||
        pad->outputs[0]->shape.rank != 4 || !pads_with_zero(pad) ||
        !(op_is(conv, "Conv2D") || op_is(conv, "DepthwiseConv2dNative")) ||
        conv->inputs[0] != pad->outputs[0] || conv->inputs[1] == pad->outputs[0] ||
        sm2c_attr_str_is(conv, "data_format", "NCHW") ||
        (conv->pad[0] | conv->pad[1] | conv->pad[2] | conv->pad[3]))
        return;
    const int64_t *a = sm2c_op_ints(c, pt); /* [[N0,N1],[H0,H1],[W0,W1],[C0,C1]] */
    if (a[0] || a[1] || a[6] || a[7] || a[2] < 0 || a[3] < 0 || a[4] < 0 || a[5] < 0 ||
        a[2] > INT32_MAX / 4 || a[3] > INT32_MAX / 4 || a[4] > INT32_MAX / 4 ||
        a[5] > INT32_MAX / 4)
        return;
    conv->pad[0] = a[2], conv->pad[1] = a[3], conv->pad[2] = a[4], conv->pad[3] = a[5];
    conv->inputs[0] = pad->inputs[0];
    pad->inputs[0]->uses++;
    pad->dead = 1;
}

sm2c_status sm2c_pass_padfold(sm2c_ctx *c, sm2c_graph *g)
{
    for (int32_t i = 0; i < g->n_nodes; i++)
        if (op_is(g->nodes[i], "Pad") || op_is(g->nodes[i], "PadV2"))
            fold_one(c, g, g->nodes[i]);
    return SM2C_OK;
}
