/*
** ops_volume.c: 3-D windows and transposed convolutions: Conv3D, MaxPool3D,
** AvgPool3D, Conv2DBackpropInput, Conv3DBackpropInputV2 and
** DepthwiseConv2dNativeBackpropInput.  All lower to the volume kernels of
** sm2c_rt.h (SM2C_RT_VOL_*); 2-D ops are volumes of depth 1.  Layouts are
** NHWC / NDHWC, the only ones TensorFlow's CPU kernels run.
*/
#include "ops_common.h"

/* What a window op says about its geometry, as 5-D NDHWC values. */
typedef struct volume {
    int64_t x[5];       /* input (or, for the transposed ops, the result) N D H W C */
    int64_t k[3];       /* window KD KH KW */
    int64_t fc, oc;     /* filter input channels, output channels (pools: 1, C) */
    int64_t s[3], d[3]; /* strides, dilations over D H W */
    int64_t pad[6];     /* explicit padding before/after over D H W */
    int mode;           /* 0 VALID, 1 SAME, 2 EXPLICIT */
} volume;

static int is_op(const sm2c_node *n, const char *name)
{
    return strcmp(n->op->name, name) == 0;
}

static int is_2d(const sm2c_node *n)
{
    return is_op(n, "Conv2DBackpropInput") || is_op(n, "DepthwiseConv2dNativeBackpropInput");
}

static int is_transposed(const sm2c_node *n)
{
    return strstr(n->op->name, "BackpropInput") != NULL;
}

/* A 4- or 5-entry attr list (N, [D,] H, W, C) as D H W, defaulting to 1s. */
static sm2c_status spatial_attr(sm2c_ctx *c, const sm2c_node *n, const char *name, int rank,
                                int64_t *out)
{
    const int64_t *v;
    size_t nv;
    out[0] = out[1] = out[2] = 1;
    if (!sm2c_attr_ints(n, name, &v, &nv))
        return strcmp(name, "dilations") == 0 ? SM2C_OK
             : sm2c_op_error(c, n, SM2C_ERR_INVALID, "has no %s attr", name);
    if (nv == 0 && strcmp(name, "dilations") == 0)
        return SM2C_OK;
    if ((int)nv != rank || v[0] != 1 || v[rank - 1] != 1)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "%s must have %d entries with 1 on N "
                             "and C", name, rank);
    for (int i = 0; i < rank - 2; i++) {
        if (v[1 + i] <= 0)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "%s must be positive", name);
        out[3 - (rank - 2) + i] = v[1 + i];
    }
    return SM2C_OK;
}

static sm2c_status padding_attr(sm2c_ctx *c, const sm2c_node *n, int rank, volume *v)
{
    memset(v->pad, 0, sizeof v->pad);
    if (sm2c_attr_str_is(n, "padding", "VALID")) {
        v->mode = 0;
        return SM2C_OK;
    }
    if (sm2c_attr_str_is(n, "padding", "SAME")) {
        v->mode = 1;
        return SM2C_OK;
    }
    const int64_t *ep;
    size_t nep;
    if (!sm2c_attr_str_is(n, "padding", "EXPLICIT") || !sm2c_attr_ints(n, "explicit_paddings", &ep, &nep))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "only SAME, VALID and EXPLICIT padding are supported");
    if ((int)nep != 2 * rank || ep[0] || ep[1] || ep[2 * rank - 2] || ep[2 * rank - 1])
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "explicit_paddings must have %d values, none "
                             "on N or C", 2 * rank);
    for (int i = 0; i < 2 * (rank - 2); i++) {
        if (ep[2 + i] < 0)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "explicit_paddings must not be negative");
        v->pad[6 - 2 * (rank - 2) + i] = ep[2 + i];
    }
    v->mode = 2;
    return SM2C_OK;
}

/* Input/result shape, filter or ksize, strides, dilations and padding of node n. */
static sm2c_status read_volume(sm2c_ctx *c, const sm2c_node *n, volume *v)
{
    int two = is_2d(n), pool = strstr(n->op->name, "Pool3D") != NULL, rank = two ? 4 : 5;
    if (!sm2c_attr_str_is(n, "data_format", two ? "NHWC" : "NDHWC"))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "only data_format %s is supported",
                             two ? "NHWC" : "NDHWC");
    const sm2c_shape *xs = NULL;
    const int64_t *xd;
    if (is_transposed(n)) {
        const sm2c_tensor *t = sm2c_op_const_input(c, n, 0, "input_sizes");
        if (!t)
            return SM2C_ERR_UNSUPPORTED;
        if (t->nelem != rank)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input_sizes must have %d values", rank);
        xd = sm2c_op_ints(c, t);
    } else {
        xs = &n->inputs[0]->shape;
        if (xs->rank != rank)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects a %d-D input, got %s", rank,
                                 sm2c_shape_str(c->arena, xs));
        xd = xs->dims;
    }
    v->x[0] = xd[0], v->x[4] = xd[rank - 1];
    v->x[1] = two ? 1 : xd[1], v->x[2] = xd[rank - 3], v->x[3] = xd[rank - 2];
    for (int i = 0; i < 5; i++)
        if (v->x[i] < 0)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input_sizes must not be negative");
    sm2c_status st = spatial_attr(c, n, "strides", rank, v->s);
    if (!st && !pool)
        st = spatial_attr(c, n, "dilations", rank, v->d);
    else
        v->d[0] = v->d[1] = v->d[2] = 1;
    if (!st && pool)
        st = spatial_attr(c, n, "ksize", rank, v->k);
    if (!st)
        st = padding_attr(c, n, rank, v);
    if (st || pool) {
        v->fc = 1, v->oc = v->x[4];
        return st;
    }
    const sm2c_shape *f = &n->inputs[1]->shape;
    if (f->rank != rank)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects a %d-D filter", rank);
    v->k[0] = two ? 1 : f->dims[0], v->k[1] = f->dims[rank - 4], v->k[2] = f->dims[rank - 3];
    int depthwise = is_op(n, "DepthwiseConv2dNativeBackpropInput");
    v->fc = depthwise ? 1 : f->dims[rank - 2];
    v->oc = depthwise ? f->dims[2] * f->dims[3] : f->dims[rank - 1];
    if ((depthwise && f->dims[2] != v->x[4]) ||
        (!depthwise && (v->fc <= 0 || v->x[4] % v->fc != 0 || v->oc % (v->x[4] / v->fc) != 0)))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "filter %s does not fit the input channels %lld",
                             sm2c_shape_str(c->arena, f), (long long)v->x[4]);
    return SM2C_OK;
}

/* TensorFlow's GetWindowedOutputSizeVerbose for one spatial dim. */
static int out_dim(const volume *v, int i, int64_t *out, int64_t *before)
{
    int64_t in = v->x[1 + i], eff = (v->k[i] - 1) * v->d[i] + 1, s = v->s[i];
    if (v->k[i] <= 0)
        return 0;
    if (v->mode == 1) {
        *out = (in + s - 1) / s;
        int64_t need = (*out - 1) * s + eff - in;
        *before = need > 0 ? need / 2 : 0;
    } else {
        in += v->pad[2 * i] + v->pad[2 * i + 1];
        *out = (in - eff + s) / s;
        *before = v->pad[2 * i];
    }
    return *out >= 0;
}

static sm2c_status volume_params(sm2c_ctx *c, const sm2c_node *n, int64_t *p)
{
    volume v;
    sm2c_status st = read_volume(c, n, &v);
    if (st)
        return st;
    p[SM2C_RT_VOL_N] = v.x[0], p[SM2C_RT_VOL_D] = v.x[1], p[SM2C_RT_VOL_H] = v.x[2];
    p[SM2C_RT_VOL_W] = v.x[3], p[SM2C_RT_VOL_C] = v.x[4];
    for (int i = 0; i < 3; i++) {
        p[SM2C_RT_VOL_KD + i] = v.k[i];
        p[SM2C_RT_VOL_SD + i] = v.s[i];
        p[SM2C_RT_VOL_DD + i] = v.d[i];
        if (!out_dim(&v, i, &p[SM2C_RT_VOL_OD + i], &p[SM2C_RT_VOL_PF + i]))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "window does not fit the input");
    }
    p[SM2C_RT_VOL_OC] = v.oc, p[SM2C_RT_VOL_FC] = v.fc;
    return SM2C_OK;
}

/* The forward op's output shape (NDHWC, or NHWC for the 2-D ops). */
static int32_t window_out_dims(const sm2c_node *n, const int64_t *p, int64_t *dims)
{
    int32_t r = 0;
    dims[r++] = p[SM2C_RT_VOL_N];
    if (!is_2d(n))
        dims[r++] = p[SM2C_RT_VOL_OD];
    dims[r++] = p[SM2C_RT_VOL_OH];
    dims[r++] = p[SM2C_RT_VOL_OW];
    dims[r++] = p[SM2C_RT_VOL_OC];
    return r;
}

sm2c_status shape_volume(sm2c_ctx *c, sm2c_node *n)
{
    int64_t p[SM2C_RT_VOL_PARAMS], dims[5];
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = volume_params(c, n, p)))
        return st;
    int32_t r = window_out_dims(n, p, dims);
    if (!is_transposed(n)) {
        sm2c_op_set(c, n, 0, n->inputs[0]->dtype, r, dims);
        return SM2C_OK;
    }
    const sm2c_shape *dy = &n->inputs[2]->shape;
    int ok = dy->rank == r;
    for (int32_t i = 0; ok && i < r; i++)
        ok = dy->dims[i] == dims[i];
    if (!ok)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "out_backprop is %s; the convolution gives %s",
                             sm2c_shape_str(c->arena, dy),
                             sm2c_shape_str(c->arena, &(sm2c_shape){ r, dims }));
    const sm2c_tensor *t = n->inputs[0]->constant;
    int64_t *xd = sm2c_op_ints(c, t);
    sm2c_op_set(c, n, 0, n->inputs[2]->dtype, (int32_t)t->nelem, xd);
    return SM2C_OK;
}

sm2c_status lower_volume(sm2c_lower *l, const sm2c_node *n)
{
    int64_t p[SM2C_RT_VOL_PARAMS];
    sm2c_status st = volume_params(l->c, n, p);
    if (st)
        return st;
    const sm2c_value *y = n->outputs[0];
    if (y->dtype != SM2C_DT_FLOAT)
        return sm2c_lower_unsupported(l, n, "%s on %s is not supported", n->op->name,
                                      sm2c_dtype_name(y->dtype));
    sm2c_step *s;
    if (is_transposed(n)) {
        s = sm2c_lower_step(l, n, "sm2c_rt_conv3d_transpose_f32", 4);
        s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
        s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
        s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, y));
        s->args[3] = sm2c_arg_ints(l, SM2C_RT_VOL_PARAMS, p);
    } else if (is_op(n, "Conv3D")) {
        s = sm2c_lower_step(l, n, "sm2c_rt_conv3d_f32", 6);
        s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
        s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
        s->args[2] = sm2c_arg_null();
        s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, y));
        s->args[4] = sm2c_arg_ints(l, SM2C_RT_VOL_PARAMS, p);
        s->args[5] = sm2c_arg_int(SM2C_RT_ACT_NONE);
    } else {
        s = sm2c_lower_step(l, n, is_op(n, "MaxPool3D") ? "sm2c_rt_max_pool3d_f32"
                                                        : "sm2c_rt_avg_pool3d_f32", 3);
        s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
        s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, y));
        s->args[2] = sm2c_arg_ints(l, SM2C_RT_VOL_PARAMS, p);
    }
    return SM2C_OK;
}
