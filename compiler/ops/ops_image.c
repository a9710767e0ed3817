/*
** ops_image.c: ResizeBilinear and ResizeNearestNeighbor (NHWC, float32),
** with align_corners and half_pixel_centers; the size is a compile-time
** constant input.
*/
#include "ops_common.h"

sm2c_status sm2c_resize_params(sm2c_ctx *c, const sm2c_node *n, int64_t *p)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    if (x->rank != 4)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects a 4-D NHWC input, got %s",
                             sm2c_shape_str(c->arena, x));
    const sm2c_tensor *size = sm2c_op_const_input(c, n, 1, "size");
    if (!size)
        return SM2C_ERR_UNSUPPORTED;
    int64_t *hw = sm2c_op_ints(c, size);
    if (size->nelem != 2 || hw[0] <= 0 || hw[1] <= 0 || x->dims[1] <= 0 || x->dims[2] <= 0)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "size must be 2 positive values and the "
                             "input image not empty");
    int align = sm2c_attr_flag(n, "align_corners"), half = sm2c_attr_flag(n, "half_pixel_centers");
    if (align && half)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "align_corners and half_pixel_centers "
                             "cannot both be true");
    p[0] = x->dims[0], p[1] = x->dims[1], p[2] = x->dims[2], p[3] = x->dims[3];
    p[4] = hw[0], p[5] = hw[1], p[6] = align, p[7] = half;
    return SM2C_OK;
}

sm2c_status shape_resize(sm2c_ctx *c, sm2c_node *n)
{
    int64_t p[8];
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = sm2c_resize_params(c, n, p)))
        return st;
    int64_t dims[4] = { p[0], p[4], p[5], p[3] };
    /* ResizeBilinear always returns float32; nearest keeps the input's type. */
    int bilinear = strcmp(n->op->name, "ResizeBilinear") == 0;
    sm2c_op_set(c, n, 0, bilinear ? SM2C_DT_FLOAT : n->inputs[0]->dtype, 4, dims);
    return SM2C_OK;
}

sm2c_status lower_resize(sm2c_lower *l, const sm2c_node *n)
{
    int64_t p[8];
    sm2c_status st = sm2c_resize_params(l->c, n, p);
    if (st)
        return st;
    if (n->inputs[0]->dtype != SM2C_DT_FLOAT)
        return sm2c_lower_unsupported(l, n, "%s on %s is not supported", n->op->name,
                                      sm2c_dtype_name(n->inputs[0]->dtype));
    int bilinear = strcmp(n->op->name, "ResizeBilinear") == 0;
    sm2c_step *s = sm2c_lower_step(l, n, bilinear ? "sm2c_rt_resize_bilinear_f32"
                                                  : "sm2c_rt_resize_nearest_f32", 3);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_ints(l, 8, p);
    return SM2C_OK;
}
