/*
** ops_common.h: helpers shared by the ops_*.c hooks.
*/
#ifndef SM2C_OPS_COMMON_H
#define SM2C_OPS_COMMON_H

#include <string.h>

#include "lower/lower.h"
#include "opdefs.h"
#include "base/shape_math.h"
#include "sm2c_rt.h"
#include "load/tensor_proto.h"

/* A convolution's (pool 0) or pooling's (pool 1) window parameters p[SM2C_RT_WIN_PARAMS],
** folded padding included (ops_nn.c). */
sm2c_status sm2c_window_of(sm2c_ctx *c, const sm2c_node *n, int pool, int64_t *p);
/* An error about node n. */
sm2c_status sm2c_op_error(sm2c_ctx *c, const sm2c_node *n, sm2c_status kind, const char *fmt, ...)
    SM2C_PRINTF(4, 5);
/* Input i when it is a compile-time constant, else reports and returns NULL. */
const sm2c_tensor *sm2c_op_const_input(sm2c_ctx *c, const sm2c_node *n, int32_t i, const char *what);
/* The ints of a constant integer tensor (int32 or int64) into an arena array. */
int64_t *sm2c_op_ints(sm2c_ctx *c, const sm2c_tensor *t);
/* A constant int32 or int64 tensor of n values: a scalar (rank 0, n 1) or a vector (rank 1). */
sm2c_tensor *sm2c_op_int_tensor(sm2c_ctx *c, int dtype, int32_t rank, const int64_t *vals, int64_t n);
/* Output k gets dtype and a copy of shape. */
void sm2c_op_set(sm2c_ctx *c, sm2c_node *n, int32_t k, int dtype, int32_t rank, const int64_t *dims);
/* axis in [-rank, rank) -> [0, rank); reports and returns 0 when out of range. */
int sm2c_op_axis(sm2c_ctx *c, const sm2c_node *n, int64_t axis, int32_t rank, int32_t *out);
/* Row-major strides (in elements) of a shape. */
void sm2c_op_strides(const sm2c_shape *s, int64_t *strides);
/* Every input must have a static shape. */
sm2c_status sm2c_op_need_shapes(sm2c_ctx *c, const sm2c_node *n);

/* Kernel name "sm2c_rt_<op>_<sfx>" in the arena; NULL when dtype has no suffix. */
const char *sm2c_op_kernel(sm2c_ctx *c, const char *op, int dtype);
/* The scratch argument of the float32 matmul kernels (null unless B is transposed). */
sm2c_arg sm2c_lower_matmul_pack(sm2c_lower *l, int dtype, int transpose_b);
/* conv_pad.c: whether a float Conv2D with window parameters p (sm2c_rt.h)
** runs faster on a zero-padded copy of its input; the steps that make the
** copy in arena scratch, p changed to read it with no padding, and its buffer. */
int sm2c_conv_pads_input(const int64_t *p);
int32_t sm2c_conv_pad_input(sm2c_lower *l, const sm2c_node *n, int32_t x, int64_t *p);
/* The same for the int8 packed Conv2D on target t: in_zp in the padding, the
** channels rounded up to a multiple of 4 where a filter row is not whole
** groups of 4 (p's C changed to match). */
int sm2c_conv_pads_input_s8(const sm2c_target *t, const int64_t *p, int depthwise);
int32_t sm2c_conv_pad_input_s8(sm2c_lower *l, const sm2c_node *n, int32_t x, int64_t *p, int32_t in_zp,
                               int depthwise);
/* conv_pack.c: whether a float Conv2D (its residual form when `residual`)
** with filter f and window p takes a filter packed in panels of 16 output
** channels (sm2c_rt_conv2d_packed_f32), and that filter, made from f's
** constant. */
int sm2c_conv_packs_filter(const sm2c_lower *l, const sm2c_value *f, const int64_t *p, int residual);
sm2c_value *sm2c_conv_pack_filter(sm2c_lower *l, const sm2c_value *f);
/* A strided copy step: dims box from src (offset, strides) to dst (offset, strides). */
void sm2c_op_copy(sm2c_lower *l, const sm2c_node *n, int32_t src, int64_t src_off,
                  const int64_t *src_strides, int32_t dst, int64_t dst_off,
                  const int64_t *dst_strides, int32_t rank, const int64_t *dims, int dtype);
/* A scalar constant of `dtype` holding `value` (0 or 1), for fills and pads;
** made during lowering, so it has no value id. */
sm2c_value *sm2c_op_scalar(sm2c_lower *l, int dtype, int value);
/* A constant value made during lowering (no value id) holding t: a filter
** laid out for its kernel, say. */
sm2c_value *sm2c_op_constant(sm2c_lower *l, sm2c_tensor *t, const char *name);
/* A 1-D tensor of n zeroed values of fixed-size `dtype`, its data to be filled
** before sm2c_op_constant makes it a constant (scales, filters laid out for
** a kernel). */
sm2c_tensor *sm2c_op_vector(sm2c_lower *l, int dtype, int64_t n);

/* ---- logic family -------------------------------------------------------- */
/* Dtype sets, for tables of the dtypes an op has kernels for. */
enum { SM2C_OPT_F32 = 1, SM2C_OPT_F64 = 2, SM2C_OPT_I32 = 4, SM2C_OPT_I64 = 8, SM2C_OPT_BOOL = 16,
       SM2C_OPT_I8 = 32, SM2C_OPT_I16 = 64, SM2C_OPT_U8 = 128, SM2C_OPT_U16 = 256, SM2C_OPT_U32 = 512,
       SM2C_OPT_U64 = 1024,
       SM2C_OPT_FLOAT = SM2C_OPT_F32 | SM2C_OPT_F64, SM2C_OPT_INT = SM2C_OPT_I32 | SM2C_OPT_I64,
       SM2C_OPT_NUM = SM2C_OPT_FLOAT | SM2C_OPT_INT,
       /* every integer width, signed and unsigned (the kernels of issue 33's dtype audit) */
       SM2C_OPT_SINT = SM2C_OPT_I8 | SM2C_OPT_I16 | SM2C_OPT_INT,
       SM2C_OPT_UINT = SM2C_OPT_U8 | SM2C_OPT_U16 | SM2C_OPT_U32 | SM2C_OPT_U64,
       SM2C_OPT_INTS = SM2C_OPT_SINT | SM2C_OPT_UINT };
/* The SM2C_OPT_* bit of dtype, 0 for the others. */
unsigned sm2c_op_type_bit(int dtype);
/* Strides of `in` read as the broadcast shape `out` (0 on broadcast dims). */
void sm2c_op_broadcast_strides(const sm2c_shape *in, const sm2c_shape *out, int64_t *strides);
/* A broadcasting binary step (SM2C_RT_BINARY's arguments): a and b into buffer
** y of the given shape. */
sm2c_step *sm2c_op_binary_step(sm2c_lower *l, const sm2c_node *n, const char *kernel,
                               const sm2c_value *a, const sm2c_value *b, int32_t y,
                               const sm2c_shape *shape);

/* ops_image.c: a Resize* node's NHWC input dims, its constant output size and
** align_corners / half_pixel_centers into p[8] (errors name the node). */
sm2c_status sm2c_resize_params(sm2c_ctx *c, const sm2c_node *n, int64_t *p);

/* ops_shape.c: where Slice or StridedSlice node n puts input dim `dim` when it
** keeps it whole (begin 0, step 1, every element), else -1 (ops_dyn.c). */
int32_t sm2c_slice_keeps_dim(sm2c_ctx *c, const sm2c_node *n, int32_t dim);
/* ---- ops_signal.c: complex64 through the elementwise rows -------------- */
sm2c_status sm2c_lower_complex_binary(sm2c_lower *l, const sm2c_node *n);
sm2c_status sm2c_lower_complex_unary(sm2c_lower *l, const sm2c_node *n);

/* ---- ops_text.c: Equal / NotEqual of string tensors (lower_compare), and
** Add of strings, their concatenation into slots of --limit string-bytes
** (shape_binary checks the bound, lower_binary lowers it) -------------- */
sm2c_status sm2c_lower_string_compare(sm2c_lower *l, const sm2c_node *n);
sm2c_status sm2c_shape_string_concat(sm2c_ctx *c, const sm2c_node *n);
sm2c_status sm2c_lower_string_concat(sm2c_lower *l, const sm2c_node *n);
void sm2c_lower_string_text(sm2c_lower *l, const sm2c_node *n, sm2c_step *s, int32_t at);

/* ---- ops_text_bincount.c: Minimum(a, Maximum(b, y)) of integers with
** constant scalars a <= b folded to a (shape_binary); 1 when it was. */
int sm2c_fold_clamped_min(sm2c_ctx *c, sm2c_node *n);

/* ---- ops_dynslice.c: StridedSlice at run-time indices (x[i]) -------------- */
int sm2c_dyn_slice(const sm2c_node *n);
sm2c_status sm2c_shape_dyn_slice(sm2c_ctx *c, sm2c_node *n);
sm2c_status sm2c_lower_dyn_slice(sm2c_lower *l, const sm2c_node *n);

#endif
