/*
** ops_resize.c: ResizeBicubic (align_corners, half_pixel_centers),
** ResizeArea (align_corners) and ScaleAndTranslate (every sampling kernel,
** antialias), NHWC, output float32 as in TF (runtime/resize_cubic_area_f32.c,
** scale_translate_f32.c).  The size (and ScaleAndTranslate's scale and
** translation) are compile-time constant inputs.  Inputs of other real types are cast to float32 first (a Cast step
** into scratch), which is TF's static_cast<float> of every value it reads.
*/
#include <float.h>
#include <math.h>

#include "ops_common.h"

/* The buffer of input 0 as float32: a Cast step into scratch for other types. */
static int32_t float_input(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    int32_t in = sm2c_lower_buf(l, x);
    if (x->dtype == SM2C_DT_FLOAT)
        return in;
    const char *cast = sm2c_op_kernel(l->c, sm2c_arena_printf(l->c->arena, "cast_%s",
                                                              sm2c_kernel_suffix(x->dtype)), SM2C_DT_FLOAT);
    int32_t f = sm2c_lower_scratch(l, SM2C_DT_FLOAT, &x->shape, "resize_input");
    sm2c_step *s = sm2c_lower_step(l, n, cast, 3);
    s->args[0] = sm2c_arg_buf(in);
    s->args[1] = sm2c_arg_buf(f);
    s->args[2] = sm2c_arg_int(sm2c_value_elements(x));
    return f;
}

sm2c_status shape_resize_cubic_area(sm2c_ctx *c, sm2c_node *n)
{
    int64_t p[8];
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = sm2c_resize_params(c, n, p)))
        return st;
    int64_t dims[4] = { p[0], p[4], p[5], p[3] };
    sm2c_op_set(c, n, 0, SM2C_DT_FLOAT, 4, dims);
    return SM2C_OK;
}

sm2c_status lower_resize_cubic_area(sm2c_lower *l, const sm2c_node *n)
{
    int64_t p[8];
    sm2c_status st = sm2c_resize_params(l->c, n, p);
    if (st)
        return st;
    int32_t in = float_input(l, n);
    int bicubic = strcmp(n->op->name, "ResizeBicubic") == 0;
    sm2c_step *s = sm2c_lower_step(l, n, bicubic ? "sm2c_rt_resize_bicubic_f32" : "sm2c_rt_resize_area_f32", 3);
    s->args[0] = sm2c_arg_buf(in);
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_ints(l, 8, p);
    return SM2C_OK;
}

/* ---- ScaleAndTranslate (runtime/scale_translate_f32.c) ---------------------- */

static const char *const sampling_kernels[] = {
    "lanczos1", "lanczos3", "lanczos5", "gaussian", "box", "triangle", "keyscubic", "mitchellcubic",
};

/* p = [N, H, W, C, OH, OW, kernel, antialias]; scale and translation must be
** constant float[2] (tf.image.resize's are, for a static input shape). */
static sm2c_status scale_translate_params(sm2c_ctx *c, const sm2c_node *n, int64_t *p)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    if (x->rank != 4)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects a 4-D NHWC input, got %s",
                             sm2c_shape_str(c->arena, x));
    const sm2c_tensor *size = sm2c_op_const_input(c, n, 1, "size");
    const sm2c_tensor *scale = size ? sm2c_op_const_input(c, n, 2, "scale") : NULL;
    const sm2c_tensor *shift = scale ? sm2c_op_const_input(c, n, 3, "translation") : NULL;
    if (!shift)
        return SM2C_ERR_UNSUPPORTED;
    int64_t *hw = sm2c_op_ints(c, size);
    if (size->nelem != 2 || hw[0] <= 0 || hw[1] <= 0 || x->dims[1] <= 0 || x->dims[2] <= 0 ||
        x->dims[3] <= 0)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "size must be 2 positive values and the "
                             "input image not empty");
    if (scale->dtype != SM2C_DT_FLOAT || scale->nelem != 2 || shift->dtype != SM2C_DT_FLOAT ||
        shift->nelem != 2)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "scale and translation must be 2 float32 values");
    const float *s = scale->data, *t = shift->data;
    if (!(s[0] > 0.0f && s[1] > 0.0f && s[0] <= FLT_MAX && s[1] <= FLT_MAX) || !isfinite(t[0]) ||
        !isfinite(t[1]))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "scale must be positive and finite, "
                             "translation finite");
    int64_t k = -1;
    for (size_t i = 0; i < sizeof sampling_kernels / sizeof *sampling_kernels; i++)
        if (sm2c_attr_str_is(n, "kernel_type", sampling_kernels[i]))
            k = (int64_t)i;
    if (k < 0)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "kernel_type '%s' is not one of TF's sampling kernels",
                             sm2c_attr_str(c, n, "kernel_type"));
    p[0] = x->dims[0], p[1] = x->dims[1], p[2] = x->dims[2], p[3] = x->dims[3];
    p[4] = hw[0], p[5] = hw[1], p[6] = k, p[7] = sm2c_attr_flag(n, "antialias");
    return SM2C_OK;
}

sm2c_status shape_scale_translate(sm2c_ctx *c, sm2c_node *n)
{
    int64_t p[8];
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = scale_translate_params(c, n, p)))
        return st;
    int64_t dims[4] = { p[0], p[4], p[5], p[3] };
    sm2c_op_set(c, n, 0, SM2C_DT_FLOAT, 4, dims);
    return SM2C_OK;
}

sm2c_status lower_scale_translate(sm2c_lower *l, const sm2c_node *n)
{
    int64_t p[8];
    sm2c_status st = scale_translate_params(l->c, n, p);
    if (st)
        return st;
    int32_t in = float_input(l, n);
    int64_t n_starts = p[4] + p[5], n_weights = p[4] * p[1] + p[5] * p[2], n_tmp = p[4] * p[2] * p[3];
    sm2c_shape s_starts = sm2c_shape_make(l->c, 1, &n_starts), s_weights = sm2c_shape_make(l->c, 1, &n_weights);
    sm2c_shape s_tmp = sm2c_shape_make(l->c, 1, &n_tmp);
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_scale_translate_f32", 8);
    s->args[0] = sm2c_arg_buf(in);
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[3]));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[4] = sm2c_arg_buf(sm2c_lower_scratch(l, SM2C_DT_INT32, &s_starts, "span_starts"));
    s->args[5] = sm2c_arg_buf(sm2c_lower_scratch(l, SM2C_DT_FLOAT, &s_weights, "span_weights"));
    s->args[6] = sm2c_arg_buf(sm2c_lower_scratch(l, SM2C_DT_FLOAT, &s_tmp, "rows_gathered"));
    s->args[7] = sm2c_arg_ints(l, 8, p);
    return SM2C_OK;
}
