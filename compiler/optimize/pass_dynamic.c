/*
** pass_dynamic.c: --quantize dynamic, TFLite's dynamic-range quantization
** (optimizations=[DEFAULT] with no representative dataset) on the IR.
** requires: fuse (without residual Adds, which TFLite keeps as ADD ops), dce.
**
** A MatMul (or BatchMatMul) by a constant [K, N], a Conv2D without groups and a
** DepthwiseConv2dNative whose constant filter has at least
** SM2C_DYNAMIC_MIN_WEIGHTS elements (TFLite's converter keeps smaller ones
** float) gets an int8 filter, symmetric per output channel as the converter
** computes it (quant_params.c), and an sm2c_hybrid: its input and output stay
** float, and the lowering (ops/ops_hybrid.c) quantizes the input per call and
** computes the output from the int32 sums as TFLite's hybrid kernels do.
** Everything else stays float, and so do the nodes --quantize-skip names.  A node whose int32 sums could overflow
** (docs/reliability.md 6.5) stays float too.
*/
#include <string.h>

#include "ops/opdefs.h"
#include "passes.h"
#include "quant.h"

/* |sum| <= k * 127 * 255 must fit int32 (the input less its zero point is
** at most 255 in magnitude; the FC kernels sum w * (x + 128), also 255). */
#define MAX_PRODUCTS (INT32_MAX / (127 * 255))

static int op_is(const sm2c_node *n, const char *name)
{
    return strcmp(n->op->name, name) == 0;
}

/* The float constant filter of n with at least the converter's element count, else NULL. */
static const sm2c_value *big_filter(const sm2c_node *n, int32_t rank)
{
    const sm2c_value *f = n->n_inputs > 1 ? n->inputs[1] : NULL;
    if (!f || !f->constant || f->dtype != SM2C_DT_FLOAT || f->constant->dtype != SM2C_DT_FLOAT ||
        f->shape.rank != rank || sm2c_value_elements(f) < SM2C_DYNAMIC_MIN_WEIGHTS)
        return NULL;
    return f;
}

static sm2c_value *int8_const(sm2c_ctx *c, sm2c_graph *g, const sm2c_shape *shape, int8_t *data,
                              const char *name)
{
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    t->dtype = SM2C_DT_INT8;
    t->shape = sm2c_shape_make(c, shape->rank, shape->dims);
    t->nelem = sm2c_shape_elements(shape, INT64_MAX);
    t->nbytes = (size_t)t->nelem;
    t->data = data;
    return sm2c_new_const(c, g, t, name);
}

/* n's filter becomes int8 w (of `shape`), with n_ch scales. */
static void make_hybrid(sm2c_ctx *c, sm2c_graph *g, sm2c_node *n, const sm2c_shape *shape, int8_t *w,
                        float *scales, int32_t n_ch, int32_t *sums)
{
    sm2c_hybrid *h = sm2c_arena_alloc(c->arena, sizeof *h);
    h->n_channels = n_ch;
    h->scale = scales;
    h->sum = sums;
    sm2c_value *q = int8_const(c, g, shape, w, n->inputs[1]->name);
    n->inputs[1]->uses--;
    n->inputs[1] = q;   /* sm2c_new_const counted this use */
    n->hybrid = h;
}

/* Conv2D [KH, KW, C, OC] (no groups) or depthwise [KH, KW, C, M]: the int8
** filter keeps TensorFlow's layout, channel o = the last index (depthwise:
** c * M + m over the last two). */
static int hybrid_conv(sm2c_ctx *c, sm2c_graph *g, sm2c_node *n, int32_t bits)
{
    const sm2c_value *f = big_filter(n, 4);
    int depthwise = op_is(n, "DepthwiseConv2dNative");
    if (!f || n->inputs[0]->shape.rank != 4 || (!depthwise && f->shape.dims[2] != n->inputs[0]->shape.dims[3]))
        return 0;
    const int64_t *d = f->shape.dims;
    int64_t n_ch = depthwise ? d[2] * d[3] : d[3], k = d[0] * d[1] * (depthwise ? 1 : d[2]);
    if (k > MAX_PRODUCTS || n_ch > INT32_MAX || (n->bias && sm2c_value_elements(n->bias) != n_ch))
        return 0;
    int64_t n_w = sm2c_value_elements(f);
    int8_t *w = sm2c_arena_alloc(c->arena, (size_t)n_w + 1);
    float *scales = sm2c_arena_array(c->arena, (size_t)n_ch + 1, sizeof *scales);
    if (bits == 4 && !depthwise)
        sm2c_quantize_weights_s4(f->constant->data, n_w, (int32_t)n_ch, 1, w, scales);
    else
        sm2c_quantize_weights_drq(f->constant->data, n_w, (int32_t)n_ch, 1, w, scales);
    make_hybrid(c, g, n, &f->shape, w, scales, (int32_t)n_ch, NULL);
    return 1;
}

/* MatMul x[rows, k] by a constant [k, n] (or [n, k] with transpose_b), or a
** BatchMatMul of x[..., rows, k] by one (TFLite's converter makes both a
** FULLY_CONNECTED, the second keeping x's leading dims): the int8 filter is
** stored [n, k], as FULLY_CONNECTED holds it, with each row's sum; a fused
** bias must be one value per output. */
static int hybrid_matmul(sm2c_ctx *c, sm2c_graph *g, sm2c_node *n, int32_t bits)
{
    const sm2c_value *f = big_filter(n, 2);
    int batch = !op_is(n, "MatMul");
    if (!f || n->inputs[0]->shape.rank < 2 || (!batch && n->inputs[0]->shape.rank != 2) ||
        sm2c_attr_flag(n, batch ? "adj_x" : "transpose_a"))
        return 0;
    int tb = sm2c_attr_flag(n, batch ? "adj_y" : "transpose_b");
    int64_t k = f->shape.dims[tb ? 1 : 0], cols = f->shape.dims[tb ? 0 : 1];
    if (k > MAX_PRODUCTS || cols > INT32_MAX || (n->bias && sm2c_value_elements(n->bias) != cols))
        return 0;
    const float *src = f->constant->data;
    float *wt = sm2c_arena_array(c->arena, (size_t)(k * cols) + 1, sizeof *wt);
    for (int64_t i = 0; i < k; i++)
        for (int64_t o = 0; o < cols; o++)
            wt[o * k + i] = tb ? src[o * k + i] : src[i * cols + o];
    int8_t *w = sm2c_arena_alloc(c->arena, (size_t)(k * cols) + 1);
    float *scales = sm2c_arena_array(c->arena, (size_t)cols + 1, sizeof *scales);
    if (bits == 4)
        sm2c_quantize_weights_s4(wt, k * cols, (int32_t)cols, k, w, scales);
    else
        sm2c_quantize_weights_drq(wt, k * cols, (int32_t)cols, k, w, scales);
    int32_t *sums = sm2c_arena_array(c->arena, (size_t)cols + 1, sizeof *sums);
    for (int64_t o = 0; o < cols; o++)
        for (int64_t i = 0; i < k; i++)
            sums[o] += w[o * k + i];
    sm2c_shape shape = sm2c_shape_make(c, 2, (int64_t[]){ cols, k });
    make_hybrid(c, g, n, &shape, w, scales, (int32_t)cols, sums);
    return 1;
}

sm2c_status sm2c_pass_dynamic(sm2c_ctx *c, sm2c_graph *g, const sm2c_quant_skip *skip, int32_t weights_bits,
                              int32_t *n_hybrid)
{
    *n_hybrid = 0;
    int32_t n_nodes = g->n_nodes;   /* the new constants are not nodes */
    for (int32_t i = 0; i < n_nodes; i++) {
        sm2c_node *n = g->nodes[i];
        if (n->dead || n->q || n->hybrid || n->residual || n->n_outputs != 1 ||
            n->outputs[0]->dtype != SM2C_DT_FLOAT || n->inputs[0]->dtype != SM2C_DT_FLOAT ||
            (n->bias && n->bias->dtype != SM2C_DT_FLOAT) || sm2c_quant_skipped(skip, n))
            continue;
        if (op_is(n, "Conv2D") || op_is(n, "DepthwiseConv2dNative"))
            *n_hybrid += hybrid_conv(c, g, n, weights_bits);
        else if (op_is(n, "MatMul") || op_is(n, "BatchMatMulV2") || op_is(n, "BatchMatMul"))
            *n_hybrid += hybrid_matmul(c, g, n, weights_bits);
    }
    return SM2C_OK;
}
