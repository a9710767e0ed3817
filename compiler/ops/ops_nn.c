/*
** ops_nn.c: MatMul, BatchMatMul, Softmax, convolutions, pools, batch norm, LRN.
** Convolutions and pools are NHWC (TensorFlow's CPU kernels run nothing
** else); batch norm also takes NCHW.
*/
#include "ops_common.h"

/* ---- MatMul ------------------------------------------------------------------- */

sm2c_status shape_matmul(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_shape *a = &n->inputs[0]->shape, *b = &n->inputs[1]->shape;
    if (a->rank != 2 || b->rank != 2)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects matrices, got %s and %s",
                             sm2c_shape_str(c->arena, a), sm2c_shape_str(c->arena, b));
    int ta = sm2c_attr_flag(n, "transpose_a"), tb = sm2c_attr_flag(n, "transpose_b");
    int64_t m = a->dims[ta ? 1 : 0], k = a->dims[ta ? 0 : 1];
    int64_t k2 = b->dims[tb ? 1 : 0], nn = b->dims[tb ? 0 : 1];
    if (k != k2)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "inner dims differ: %lld and %lld",
                             (long long)k, (long long)k2);
    int64_t dims[2] = { m, nn };
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, 2, dims);
    return SM2C_OK;
}

/* The float32 kernels take scratch for packing a transposed B (sm2c_rt.h),
** planned in the arena so no kernel holds it on the stack; none when B is
** read as it is. */
sm2c_arg sm2c_lower_matmul_pack(sm2c_lower *l, int dtype, int transpose_b)
{
    if (dtype != SM2C_DT_FLOAT || !transpose_b)
        return sm2c_arg_null();
    int64_t dims[1] = { SM2C_RT_MATMUL_PACK_F32 };
    sm2c_shape s = sm2c_shape_make(l->c, 1, dims);
    return sm2c_arg_buf(sm2c_lower_scratch(l, SM2C_DT_FLOAT, &s, "matmul pack"));
}

/* Up to this many multiply-adds a Dense layer takes the _small matvec: on a
** scalar FPU it is the least code (the 1-16-16-1 sine MLP then fits in the
** code of a single-file generator), while larger layers save more
** instructions with four columns at a time than that loop costs in code. */
enum { MATVEC_SMALL_MACS = 256 };

/* One float32 row (a batch-1 Dense layer): the matrix-vector kernel, which
** needs no tiles, no scratch and little code; one kernel per layout of B. */
static void lower_matvec(sm2c_lower *l, const sm2c_node *n, int64_t k, int tb)
{
    static const char *const kernels[2][2] = {
        { "sm2c_rt_matvec_f32", "sm2c_rt_matvec_t_f32" },
        { "sm2c_rt_matvec_small_f32", "sm2c_rt_matvec_t_small_f32" },
    };
    const sm2c_value *y = n->outputs[0];
    int small = k * y->shape.dims[1] <= MATVEC_SMALL_MACS;
    sm2c_step *s = sm2c_lower_step(l, n, kernels[small][tb != 0], 9);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[2] = n->bias ? sm2c_arg_buf(sm2c_lower_buf(l, n->bias)) : sm2c_arg_null();
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[4] = sm2c_arg_int(k);
    s->args[5] = sm2c_arg_int(y->shape.dims[1]);
    sm2c_lower_act(s, 6, n);
}

/* One sm2c_rt_matmul step: n's inputs [m, k] x [k, nn] (as transposed by ta,
** tb) into its output, with n's fused bias and activation. */
static void matmul_step(sm2c_lower *l, const sm2c_node *n, int64_t m, int64_t k, int64_t nn, int ta, int tb)
{
    const sm2c_value *y = n->outputs[0];
    int f32 = y->dtype == SM2C_DT_FLOAT;
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "matmul", y->dtype), f32 ? 13 : 10);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[2] = n->bias ? sm2c_arg_buf(sm2c_lower_buf(l, n->bias)) : sm2c_arg_null();
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[4] = sm2c_arg_int(m);
    s->args[5] = sm2c_arg_int(k);
    s->args[6] = sm2c_arg_int(nn);
    s->args[7] = sm2c_arg_int(ta);
    s->args[8] = sm2c_arg_int(tb);
    s->args[9] = sm2c_arg_int(n->act);
    if (f32) {  /* the float64 kernel takes no activation parameters */
        sm2c_lower_act(s, 9, n);
        s->args[12] = sm2c_lower_matmul_pack(l, y->dtype, tb);
    }
}

sm2c_status lower_matmul(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    if (y->dtype != SM2C_DT_FLOAT && y->dtype != SM2C_DT_DOUBLE)
        return sm2c_lower_unsupported(l, n, "MatMul on %s is not supported", sm2c_dtype_name(y->dtype));
    int ta = sm2c_attr_flag(n, "transpose_a"), tb = sm2c_attr_flag(n, "transpose_b");
    const sm2c_shape *a = &n->inputs[0]->shape;
    int64_t k = a->dims[ta ? 0 : 1];
    if (y->dtype == SM2C_DT_FLOAT && y->shape.dims[0] == 1) {
        lower_matvec(l, n, k, tb);
        return SM2C_OK;
    }
    matmul_step(l, n, y->shape.dims[0], k, y->shape.dims[1], ta, tb);
    return SM2C_OK;
}

/* ---- BatchMatMul (V1 needs equal batch dims; V2/V3 broadcast them) ---------------- */

static int adj(const sm2c_node *n, const char *which)
{
    return sm2c_attr_flag(n, which);
}

sm2c_status shape_batch_matmul(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_shape *a = &n->inputs[0]->shape, *b = &n->inputs[1]->shape;
    if (a->rank < 2 || b->rank < 2)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "needs rank >= 2 inputs");
    int aa = adj(n, "adj_x"), ab = adj(n, "adj_y");
    int64_t m = a->dims[a->rank - (aa ? 1 : 2)], k = a->dims[a->rank - (aa ? 2 : 1)];
    int64_t k2 = b->dims[b->rank - (ab ? 1 : 2)], nn = b->dims[b->rank - (ab ? 2 : 1)];
    if (k != k2)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "inner dims differ: %lld and %lld",
                             (long long)k, (long long)k2);
    int32_t ra = a->rank - 2, rb = b->rank - 2, r = ra > rb ? ra : rb;
    int64_t dims[SM2C_RT_MAX_RANK + 2];
    for (int32_t i = 0; i < r; i++) {
        int32_t ia = i - (r - ra), ib = i - (r - rb);
        int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
        if (da != db && da != 1 && db != 1)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "batch dims do not broadcast");
        dims[i] = da == 1 ? db : da;
    }
    dims[r] = m;
    dims[r + 1] = nn;
    const Tensorflow__AttrValue *tout = sm2c_attr(n, "Tout");
    int dt = tout && tout->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? (int)tout->type
                                                                           : n->inputs[0]->dtype;
    sm2c_op_set(c, n, 0, dt, r + 2, dims);
    return SM2C_OK;
}

sm2c_status lower_batch_matmul(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    if ((y->dtype != SM2C_DT_FLOAT && y->dtype != SM2C_DT_DOUBLE) || n->inputs[0]->dtype != y->dtype ||
        n->inputs[1]->dtype != y->dtype)
        return sm2c_lower_unsupported(l, n, "BatchMatMul from %s to %s is not supported",
                                      sm2c_dtype_name(n->inputs[0]->dtype), sm2c_dtype_name(y->dtype));
    const sm2c_shape *a = &n->inputs[0]->shape, *b = &n->inputs[1]->shape;
    int32_t r = y->shape.rank - 2;
    int64_t m = y->shape.dims[r], nn = y->shape.dims[r + 1];
    int aa = adj(n, "adj_x");
    int64_t k = a->dims[a->rank - (aa ? 2 : 1)];
    int64_t batch = 1;
    for (int32_t i = 0; i < r; i++)
        batch *= y->shape.dims[i];
    if (y->dtype == SM2C_DT_FLOAT && b->rank == 2 && !aa &&
        sm2c_value_elements(n->inputs[0]) == batch * m * k) {
        /* one b for every batch, a not transposed: the batches' rows are
        ** consecutive rows of a and y, so the product is one MatMul of all of
        ** them (one pass over b; pass_hoist.c's whole-sequence projections),
        ** which takes a fused bias and activation (pass_fuse.c) */
        matmul_step(l, n, batch * m, k, nn, 0, adj(n, "adj_y"));
        return SM2C_OK;
    }
    int64_t *aoff = sm2c_arena_array(l->c->arena, (size_t)(batch ? batch : 1), sizeof *aoff);
    int64_t *boff = sm2c_arena_array(l->c->arena, (size_t)(batch ? batch : 1), sizeof *boff);
    /* Offsets of each batch's matrix in a and b, broadcasting size-1 batch dims. */
    for (int64_t j = 0; j < batch; j++) {
        int64_t rem = j, oa = 0, ob = 0;
        int64_t stride_a = a->dims[a->rank - 1] * a->dims[a->rank - 2];
        int64_t stride_b = b->dims[b->rank - 1] * b->dims[b->rank - 2];
        for (int32_t i = r - 1; i >= 0; i--) {
            int64_t idx = rem % y->shape.dims[i];
            rem /= y->shape.dims[i];
            int32_t ia = i - (r - (a->rank - 2)), ib = i - (r - (b->rank - 2));
            if (ia >= 0) {
                if (a->dims[ia] != 1)
                    oa += idx * stride_a;
                stride_a *= a->dims[ia];
            }
            if (ib >= 0) {
                if (b->dims[ib] != 1)
                    ob += idx * stride_b;
                stride_b *= b->dims[ib];
            }
        }
        aoff[j] = oa;
        boff[j] = ob;
    }
    int f32 = y->dtype == SM2C_DT_FLOAT;
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "batch_matmul", y->dtype), f32 ? 12 : 11);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[3] = sm2c_arg_int(batch);
    s->args[4] = sm2c_arg_ints(l, (int32_t)batch, aoff);
    s->args[5] = sm2c_arg_ints(l, (int32_t)batch, boff);
    s->args[6] = sm2c_arg_int(m);
    s->args[7] = sm2c_arg_int(k);
    s->args[8] = sm2c_arg_int(nn);
    s->args[9] = sm2c_arg_int(aa);
    s->args[10] = sm2c_arg_int(adj(n, "adj_y"));
    if (f32)
        s->args[11] = sm2c_lower_matmul_pack(l, y->dtype, adj(n, "adj_y"));
    return SM2C_OK;
}

/* ---- Softmax / LogSoftmax over the last axis --------------------------------------- */

/* A softmax step's arguments from k on: y, rows, cols. */
static sm2c_status softmax_rows_args(sm2c_lower *l, sm2c_step *s, int k, const sm2c_value *y, int64_t rows,
                                     int64_t cols)
{
    s->args[k++] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[k++] = sm2c_arg_int(rows);
    s->args[k] = sm2c_arg_int(cols);
    return SM2C_OK;
}

sm2c_status lower_softmax(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    if (y->dtype != SM2C_DT_FLOAT || y->shape.rank < 1)
        return sm2c_lower_unsupported(l, n, "%s on %s %s is not supported", n->op->name,
                                      sm2c_dtype_name(y->dtype), sm2c_shape_str(l->c->arena, &y->shape));
    int64_t cols = y->shape.dims[y->shape.rank - 1], total = sm2c_value_elements(y);
    int log = strcmp(n->op->name, "LogSoftmax") == 0, k = 0;
    if (n->in_scaled) { /* pass_fuse_scale.c: a Softmax only */
        sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_softmax_scaled_f32", 5);
        s->args[k++] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
        s->args[k++] = sm2c_arg_float(n->in_scale);
        return softmax_rows_args(l, s, k, y, cols ? total / cols : 0, cols);
    }
    sm2c_step *s = sm2c_lower_step(l, n, log ? "sm2c_rt_log_softmax_f32" : "sm2c_rt_softmax_f32", 4);
    s->args[k++] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    return softmax_rows_args(l, s, k, y, cols ? total / cols : 0, cols);
}

/* ---- windows: Conv2D, DepthwiseConv2dNative, MaxPool, AvgPool ------------------------ */

typedef struct window {
    int64_t p[SM2C_RT_WIN_PARAMS];
} window;

/* One spatial dim; attribute values can be anything, so the arithmetic is checked. */
static int out_size(int same, int64_t in, int64_t k, int64_t dil, int64_t stride, int64_t *out,
                    int64_t *pad_before)
{
    return sm2c_window_out_size(same, in, k, dil, stride, out, pad_before) == SM2C_DIMS_OK;
}

/* The window on the input as the node sees it: widened by a folded Pad. */
static sm2c_status window_params_padded(sm2c_ctx *c, const sm2c_node *n, int pool, window *w)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    if (sm2c_attr_str_is(n, "data_format", "NCHW"))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "data_format NCHW is not supported yet");
    if (x->rank != 4)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects a 4-D NHWC input, got %s",
                             sm2c_shape_str(c->arena, x));
    int same = sm2c_attr_str_is(n, "padding", "SAME");
    int explicit_pad = !pool && sm2c_attr_str_is(n, "padding", "EXPLICIT");
    const int64_t *ep = NULL;
    size_t nep = 0;
    if (!same && !explicit_pad && !sm2c_attr_str_is(n, "padding", "VALID"))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "only SAME, VALID and EXPLICIT padding are supported");
    if (explicit_pad && (!sm2c_attr_ints(n, "explicit_paddings", &ep, &nep) || nep != 8 ||
                         ep[0] || ep[1] || ep[6] || ep[7] || ep[2] < 0 || ep[3] < 0 ||
                         ep[4] < 0 || ep[5] < 0 || ep[2] > INT32_MAX || ep[3] > INT32_MAX ||
                         ep[4] > INT32_MAX || ep[5] > INT32_MAX))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "explicit_paddings must be 8 values in "
                             "[0, 2^31) with none on N or C");
    const int64_t *strides, *dil = NULL, *ks = NULL;
    size_t ns, nd = 0, nk = 0;
    if (strcmp(n->op->name, "MaxPoolV2") == 0) {
        /* ksize and strides are inputs 1 and 2, known at compile time. */
        const sm2c_tensor *tk = sm2c_op_const_input(c, n, 1, "ksize");
        const sm2c_tensor *ts = tk ? sm2c_op_const_input(c, n, 2, "strides") : NULL;
        if (!ts)
            return SM2C_ERR_UNSUPPORTED;
        ks = sm2c_op_ints(c, tk), nk = (size_t)tk->nelem;
        strides = sm2c_op_ints(c, ts), ns = (size_t)ts->nelem;
        if (ns != 4)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "needs 4 strides");
    } else if (!sm2c_attr_ints(n, "strides", &strides, &ns) || ns != 4)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "needs 4 strides");
    if (sm2c_attr_ints(n, "dilations", &dil, &nd) && nd != 4)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "needs 4 dilations");
    int64_t *p = w->p;
    p[SM2C_RT_WIN_N] = x->dims[0], p[SM2C_RT_WIN_H] = x->dims[1] + n->pad[0] + n->pad[1];
    p[SM2C_RT_WIN_W] = x->dims[2] + n->pad[2] + n->pad[3], p[SM2C_RT_WIN_C] = x->dims[3];
    if (pool) {
        if ((!ks && !sm2c_attr_ints(n, "ksize", &ks, &nk)) || nk != 4 || ks[0] != 1 || ks[3] != 1)
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "needs ksize [1,kh,kw,1]");
        p[SM2C_RT_WIN_KH] = ks[1], p[SM2C_RT_WIN_KW] = ks[2];
        p[SM2C_RT_WIN_OC] = x->dims[3];
        p[SM2C_RT_WIN_FC] = 1;
    } else {
        const sm2c_shape *f = &n->inputs[1]->shape;
        if (f->rank != 4)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects a 4-D filter");
        int depthwise = strcmp(n->op->name, "DepthwiseConv2dNative") == 0;
        p[SM2C_RT_WIN_KH] = f->dims[0], p[SM2C_RT_WIN_KW] = f->dims[1];
        p[SM2C_RT_WIN_FC] = depthwise ? f->dims[3] : f->dims[2];
        p[SM2C_RT_WIN_OC] = depthwise ? f->dims[2] * f->dims[3] : f->dims[3];
        if ((depthwise && f->dims[2] != x->dims[3]) ||
            (!depthwise && (f->dims[2] <= 0 || x->dims[3] % f->dims[2] != 0)))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "filter %s does not fit input %s",
                                 sm2c_shape_str(c->arena, f), sm2c_shape_str(c->arena, x));
    }
    if (strides[0] != 1 || strides[3] != 1 || (dil && (dil[0] != 1 || dil[3] != 1)))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "strides/dilations on N or C");
    p[SM2C_RT_WIN_SH] = strides[1], p[SM2C_RT_WIN_SW] = strides[2];
    p[SM2C_RT_WIN_DH] = dil ? dil[1] : 1, p[SM2C_RT_WIN_DW] = dil ? dil[2] : 1;
    if (explicit_pad) {
        /* Explicit padding widens the input; then it is a VALID window. */
        if (!out_size(0, p[SM2C_RT_WIN_H] + ep[2] + ep[3], p[SM2C_RT_WIN_KH], p[SM2C_RT_WIN_DH],
                      p[SM2C_RT_WIN_SH], &p[SM2C_RT_WIN_OH], &p[SM2C_RT_WIN_PT]) ||
            !out_size(0, p[SM2C_RT_WIN_W] + ep[4] + ep[5], p[SM2C_RT_WIN_KW], p[SM2C_RT_WIN_DW],
                      p[SM2C_RT_WIN_SW], &p[SM2C_RT_WIN_OW], &p[SM2C_RT_WIN_PL]))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "window does not fit the input");
        p[SM2C_RT_WIN_PT] = ep[2], p[SM2C_RT_WIN_PL] = ep[4];
        return SM2C_OK;
    }
    if (!out_size(same, p[SM2C_RT_WIN_H], p[SM2C_RT_WIN_KH], p[SM2C_RT_WIN_DH], p[SM2C_RT_WIN_SH],
                  &p[SM2C_RT_WIN_OH], &p[SM2C_RT_WIN_PT]) ||
        !out_size(same, p[SM2C_RT_WIN_W], p[SM2C_RT_WIN_KW], p[SM2C_RT_WIN_DW], p[SM2C_RT_WIN_SW],
                  &p[SM2C_RT_WIN_OW], &p[SM2C_RT_WIN_PL]))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "window does not fit the input");
    return SM2C_OK;
}

/* The kernels take the parameters as int32 and compute input coordinates
** out*S + k*D - P in int32 (conv_f32.c, pool_f32.c): every parameter and the
** window's reach, (OH-1)*SH + (KH-1)*DH and the same across, must fit. */
static int window_fits_int32(const int64_t *p)
{
    for (int i = 0; i < SM2C_RT_WIN_PARAMS; i++)
        if (p[i] < 0 || p[i] > INT32_MAX)
            return 0;
    /* Each factor is below 2^31, so these int64 sums cannot overflow. */
    int64_t reach_h = (p[SM2C_RT_WIN_OH] > 0 ? p[SM2C_RT_WIN_OH] - 1 : 0) * p[SM2C_RT_WIN_SH] +
                      (p[SM2C_RT_WIN_KH] - 1) * p[SM2C_RT_WIN_DH];
    int64_t reach_w = (p[SM2C_RT_WIN_OW] > 0 ? p[SM2C_RT_WIN_OW] - 1 : 0) * p[SM2C_RT_WIN_SW] +
                      (p[SM2C_RT_WIN_KW] - 1) * p[SM2C_RT_WIN_DW];
    return reach_h <= INT32_MAX && reach_w <= INT32_MAX;
}

/* The kernel's window parameters: a folded Pad's zeros become padding of the
** real input (the kernels read taps outside it as zero). */
static sm2c_status window_params(sm2c_ctx *c, const sm2c_node *n, int pool, window *w)
{
    sm2c_status st = window_params_padded(c, n, pool, w);
    if (st)
        return st;
    w->p[SM2C_RT_WIN_H] -= n->pad[0] + n->pad[1], w->p[SM2C_RT_WIN_PT] += n->pad[0];
    w->p[SM2C_RT_WIN_W] -= n->pad[2] + n->pad[3], w->p[SM2C_RT_WIN_PL] += n->pad[2];
    if (!window_fits_int32(w->p))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "window on input %s is too large for "
                             "32-bit coordinates", sm2c_shape_str(c->arena, &n->inputs[0]->shape));
    return SM2C_OK;
}

sm2c_status sm2c_window_of(sm2c_ctx *c, const sm2c_node *n, int pool, int64_t *p)
{
    window w;
    sm2c_status st = window_params(c, n, pool, &w);
    if (!st)
        memcpy(p, w.p, sizeof w.p);
    return st;
}

static sm2c_status shape_window(sm2c_ctx *c, sm2c_node *n, int pool)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    window w;
    if (st || (st = window_params(c, n, pool, &w)))
        return st;
    int64_t dims[4] = { w.p[SM2C_RT_WIN_N], w.p[SM2C_RT_WIN_OH], w.p[SM2C_RT_WIN_OW],
                        w.p[SM2C_RT_WIN_OC] };
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, 4, dims);
    return SM2C_OK;
}

sm2c_status shape_conv2d(sm2c_ctx *c, sm2c_node *n) { return shape_window(c, n, 0); }
sm2c_status shape_pool(sm2c_ctx *c, sm2c_node *n) { return shape_window(c, n, 1); }

sm2c_status lower_conv2d(sm2c_lower *l, const sm2c_node *n)
{
    window w;
    sm2c_status st = window_params(l->c, n, 0, &w);
    if (st)
        return st;
    if (n->outputs[0]->dtype != SM2C_DT_FLOAT)
        return sm2c_lower_unsupported(l, n, "convolution on %s is not supported",
                                      sm2c_dtype_name(n->outputs[0]->dtype));
    int depthwise = strcmp(n->op->name, "DepthwiseConv2dNative") == 0;
    int32_t x = sm2c_lower_buf(l, n->inputs[0]);
    if (!depthwise && !l->target->size_level && sm2c_target_has_vectors(l->target) &&
        sm2c_conv_pads_input(w.p))
        x = sm2c_conv_pad_input(l, n, x, w.p);
    const sm2c_value *f = n->inputs[1];
    const int packed = !depthwise && sm2c_conv_packs_filter(l, f, w.p, n->residual != NULL);
    if (packed)
        f = sm2c_conv_pack_filter(l, f);
    if (n->residual) {
        /* Conv2D + bias + a residual Add (pass_fuse.c), then the activation. */
        sm2c_step *s = sm2c_lower_step(l, n, packed ? "sm2c_rt_conv2d_add_packed_f32" : "sm2c_rt_conv2d_add_f32", 9);
        s->args[0] = sm2c_arg_buf(x);
        s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, f));
        s->args[2] = n->bias ? sm2c_arg_buf(sm2c_lower_buf(l, n->bias)) : sm2c_arg_null();
        s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->residual));
        s->args[4] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
        s->args[5] = sm2c_arg_ints(l, SM2C_RT_WIN_PARAMS, w.p);
        sm2c_lower_act(s, 6, n);
        return SM2C_OK;
    }
    sm2c_step *s = sm2c_lower_step(l, n, depthwise ? "sm2c_rt_depthwise_conv2d_f32"
                                         : packed  ? "sm2c_rt_conv2d_packed_f32"
                                                   : "sm2c_rt_conv2d_f32", 8);
    s->args[0] = sm2c_arg_buf(x);
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, f));
    s->args[2] = n->bias ? sm2c_arg_buf(sm2c_lower_buf(l, n->bias)) : sm2c_arg_null();
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[4] = sm2c_arg_ints(l, SM2C_RT_WIN_PARAMS, w.p);
    sm2c_lower_act(s, 5, n);
    return SM2C_OK;
}

sm2c_status lower_pool(sm2c_lower *l, const sm2c_node *n)
{
    window w;
    sm2c_status st = window_params(l->c, n, 1, &w);
    if (st)
        return st;
    if (n->outputs[0]->dtype != SM2C_DT_FLOAT)
        return sm2c_lower_unsupported(l, n, "pooling on %s is not supported",
                                      sm2c_dtype_name(n->outputs[0]->dtype));
    int max = strncmp(n->op->name, "MaxPool", 7) == 0;
    sm2c_step *s = sm2c_lower_step(l, n, max ? "sm2c_rt_max_pool_f32" : "sm2c_rt_avg_pool_f32", 3);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_ints(l, SM2C_RT_WIN_PARAMS, w.p);
    return SM2C_OK;
}

/* ---- FusedBatchNorm(V3): inference (NHWC) and training mode (NHWC, NCHW) ---------------- */

/* Training mode normalizes with the batch's own statistics: tf_keras
** LayerNormalization runs it on NCHW [1, rows, cols, 1] with empty mean and
** variance inputs.  Its statistics outputs are not computed. */
static int batch_norm_training(const sm2c_node *n)
{
    return sm2c_attr_flag(n, "is_training");
}

sm2c_status shape_batch_norm(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || n->n_inputs != 5)
        return st ? st : sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects 5 inputs");
    /* Training mode (tf_keras LayerNormalization) normalises with the batch's
    ** own statistics: its mean and variance inputs are empty. */
    int training = batch_norm_training(n);
    const sm2c_shape *x = &n->inputs[0]->shape;
    int nchw = sm2c_attr_str_is(n, "data_format", "NCHW");
    if (!nchw && !sm2c_attr_str_is(n, "data_format", "NHWC"))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "only data_format NHWC and NCHW are supported");
    int32_t cdim = nchw ? 1 : x->rank - 1;
    if (x->rank < 2 || cdim >= x->rank)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input %s has no channel axis",
                             sm2c_shape_str(c->arena, x));
    for (int32_t i = 1; i < (training ? 3 : 5); i++)
        if (n->inputs[i]->shape.rank != 1 || n->inputs[i]->shape.dims[0] != x->dims[cdim])
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input %d is %s, not [%lld]", i,
                                 sm2c_shape_str(c->arena, &n->inputs[i]->shape),
                                 (long long)x->dims[cdim]);
    for (int32_t k = 0; k < n->n_outputs; k++) {
        if (k == 0)
            sm2c_op_set(c, n, 0, n->inputs[0]->dtype, x->rank, x->dims);
        else
            sm2c_op_set(c, n, k, SM2C_DT_FLOAT, n->inputs[1]->shape.rank, n->inputs[1]->shape.dims);
    }
    return SM2C_OK;
}

/* 1 when a live node or an entry output reads v. */
static int is_read(const sm2c_graph *g, const sm2c_value *v)
{
    for (int32_t i = 0; i < g->n_nodes; i++)
        for (int32_t k = 0; !g->nodes[i]->dead && k < g->nodes[i]->n_inputs; k++)
            if (g->nodes[i]->inputs[k] == v)
                return 1;
    for (int32_t k = 0; k < g->n_outputs; k++)
        if (g->outputs[k].value == v)
            return 1;
    return 0;
}

static sm2c_status lower_batch_norm_train(sm2c_lower *l, const sm2c_node *n, float eps)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    for (int32_t k = 1; k < n->n_outputs; k++)
        if (is_read(l->g, n->outputs[k]))
            return sm2c_lower_unsupported(l, n, "the batch statistics of training-mode batch norm "
                                          "are not computed");
    const sm2c_shape *s = &x->shape;
    int nchw = sm2c_attr_str_is(n, "data_format", "NCHW");
    int64_t ch = s->dims[nchw ? 1 : s->rank - 1], total = sm2c_value_elements(x);
    int64_t outer = nchw ? s->dims[0] : (ch ? total / ch : 0);
    int64_t inner = nchw ? (s->dims[0] > 0 && ch > 0 ? total / (s->dims[0] * ch) : 0) : 1;
    if (sm2c_value_elements(n->inputs[1]) != ch || sm2c_value_elements(n->inputs[2]) != ch)
        return sm2c_lower_unsupported(l, n, "scale and offset must have %lld elements", (long long)ch);
    sm2c_step *st = sm2c_lower_step(l, n, "sm2c_rt_batch_norm_train_f32", 8);
    st->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    st->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    st->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    st->args[3] = sm2c_arg_float(eps);
    st->args[4] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    st->args[5] = sm2c_arg_int(outer);
    st->args[6] = sm2c_arg_int(ch);
    st->args[7] = sm2c_arg_int(inner);
    return SM2C_OK;
}

sm2c_status lower_batch_norm(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    if (x->dtype != SM2C_DT_FLOAT)
        return sm2c_lower_unsupported(l, n, "batch norm on %s is not supported", sm2c_dtype_name(x->dtype));
    float eps = 0.0001f;
    sm2c_attr_float(n, "epsilon", &eps);
    if (batch_norm_training(n))
        return lower_batch_norm_train(l, n, eps);
    int nchw = sm2c_attr_str_is(n, "data_format", "NCHW");
    int64_t ch = x->shape.dims[nchw ? 1 : x->shape.rank - 1], total = sm2c_value_elements(x);
    int64_t inner = 1;
    for (int32_t i = 2; nchw && i < x->shape.rank; i++)
        inner *= x->shape.dims[i];
    sm2c_step *s = sm2c_lower_step(l, n, nchw ? "sm2c_rt_batch_norm_nchw_f32" : "sm2c_rt_batch_norm_f32",
                                   nchw ? 10 : 9);
    for (int32_t i = 0; i < 5; i++)
        s->args[i] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[i]));
    s->args[5] = sm2c_arg_float(eps);
    s->args[6] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[7] = sm2c_arg_int(ch && inner ? total / (ch * inner) : 0);
    s->args[8] = sm2c_arg_int(ch);
    if (nchw)
        s->args[9] = sm2c_arg_int(inner);
    return SM2C_OK;
}

/* ---- LRN over the last axis ------------------------------------------------------------ */

sm2c_status lower_lrn(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    if (x->dtype != SM2C_DT_FLOAT || x->shape.rank != 4)
        return sm2c_lower_unsupported(l, n, "LRN on %s %s is not supported (float32, 4-D)",
                                      sm2c_dtype_name(x->dtype), sm2c_shape_str(l->c->arena, &x->shape));
    int64_t radius = 5;
    float bias = 1.0f, alpha = 1.0f, beta = 0.5f;
    sm2c_attr_int(n, "depth_radius", &radius);
    sm2c_attr_float(n, "bias", &bias);
    sm2c_attr_float(n, "alpha", &alpha);
    sm2c_attr_float(n, "beta", &beta);
    int64_t depth = x->shape.dims[3], total = sm2c_value_elements(x);
    if (radius < 0 || radius > INT32_MAX)
        return sm2c_op_error(l->c, n, SM2C_ERR_INVALID, "depth_radius %lld is out of range",
                             (long long)radius);
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_lrn_f32", 8);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[2] = sm2c_arg_int(depth ? total / depth : 0);
    s->args[3] = sm2c_arg_int(depth);
    s->args[4] = sm2c_arg_int(radius);
    s->args[5] = sm2c_arg_float(bias);
    s->args[6] = sm2c_arg_float(alpha);
    s->args[7] = sm2c_arg_float(beta);
    return SM2C_OK;
}
