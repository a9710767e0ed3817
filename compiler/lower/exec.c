/*
** exec.c: the kernel registry and the step interpreter used for folding.
*/
#include "exec.h"

#include <string.h>

#include "sm2c_rt.h"

typedef union word {
    void *p;
    const int32_t *ints;
    int32_t i;
    float f;
} word;

/* One typed wrapper per kernel: arguments are unpacked from words and passed
** with the kernel's exact prototype (calling through a mismatched function
** pointer type would be undefined behaviour). */
typedef struct kernel {
    const char *name;
    int32_t (*run)(const word *a);      /* 0, or the SM2C_RT_ERR_* a checked kernel returned */
} kernel;

#define W_COPY_STRIDED(fn_) fn_(a[0].p, a[1].i, a[2].ints, a[3].p, a[4].i, a[5].ints, a[6].i, a[7].ints, a[8].i)
#define W_FILL(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i)
#define W_PAD_COPY_F32(fn_) fn_(a[0].p, a[1].p, a[2].ints)
#define W_COPY(fn_) fn_(a[0].p, a[1].p, a[2].i)
#define W_BINARY(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].ints, a[5].ints, a[6].ints)
#define W_UNARY(fn_) fn_(a[0].p, a[1].p, a[2].i)
#define W_UNARY_F(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].f)
#define W_REDUCE(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i, a[4].i)
#define W_MATMUL(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i, a[6].i, a[7].i, a[8].i, a[9].i)
#define W_MATMUL_F32(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i, a[6].i, a[7].i, a[8].i, a[9].i, a[10].f, a[11].f, a[12].p)
#define W_MATVEC(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i, a[6].i, a[7].f, a[8].f)
#define W_BATCH_MATMUL_F32(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].ints, a[5].ints, a[6].i, a[7].i, a[8].i, a[9].i, a[10].i, a[11].p)
#define W_BATCH_MATMUL_STRIDED_F32(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].ints, a[5].ints, a[6].ints, a[7].i, a[8].i, a[9].i, a[10].i, a[11].i, a[12].i, a[13].i, a[14].i, a[15].p)
#define W_BATCH_MATMUL(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].ints, a[5].ints, a[6].i, a[7].i, a[8].i, a[9].i, a[10].i)
#define W_BIAS_ADD(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].i, a[5].i, a[6].i, a[7].f, a[8].f)
#define W_SOFTMAX(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i)
#define W_SOFTMAX_SCALED(fn_) fn_(a[0].p, a[1].f, a[2].p, a[3].i, a[4].i)
#define W_BATCH_NORM(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].p, a[5].f, a[6].p, a[7].i, a[8].i)
#define W_LAYER_NORM(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].f, a[4].p, a[5].i, a[6].i)
#define W_LSTM(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].i)
#define W_CONV(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].ints, a[5].i)
#define W_CONV_F32(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].ints, a[5].i, a[6].f, a[7].f)
#define W_CONV_ADD(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].p, a[5].ints, a[6].i, a[7].f, a[8].f)
#define W_POOL(fn_) fn_(a[0].p, a[1].p, a[2].ints)
#define W_CHECK_INDICES(fn_) fn_(a[0].p, a[1].i, a[2].i, a[3].i)
/* neural network, second slice (nn2) */
#define W_BATCH_NORM_NCHW(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].p, a[5].f, a[6].p, a[7].i, a[8].i, a[9].i)
#define W_CONV_T(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].ints)
#define W_LRN(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i, a[4].i, a[5].f, a[6].f, a[7].f)
#define W_FQ_ARGS(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].f, a[4].f, a[5].i, a[6].i)
#define W_FQ_VARS(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i, a[6].i, a[7].i, a[8].i)
#define W_QDQ(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i, a[6].i, a[7].i, a[8].i, a[9].i)
#define NN2_KERNELS                                                                              \
    WRAP(sm2c_rt_matmul_f64, W_MATMUL) WRAP(sm2c_rt_batch_matmul_f64, W_BATCH_MATMUL)             \
    WRAP(sm2c_rt_batch_norm_nchw_f32, W_BATCH_NORM_NCHW) WRAP(sm2c_rt_conv3d_f32, W_CONV)          \
    WRAP(sm2c_rt_conv3d_transpose_f32, W_CONV_T) WRAP(sm2c_rt_max_pool3d_f32, W_POOL)             \
    WRAP(sm2c_rt_avg_pool3d_f32, W_POOL) WRAP(sm2c_rt_lrn_f32, W_LRN)                             \
    WRAP(sm2c_rt_fake_quant_args_f32, W_FQ_ARGS) WRAP(sm2c_rt_fake_quant_vars_f32, W_FQ_VARS)    \
    WRAP(sm2c_rt_quantize_dequantize_f32, W_QDQ)                                                   \
    WRAP(sm2c_rt_resize_bilinear_f32, W_POOL) WRAP(sm2c_rt_resize_nearest_f32, W_POOL)
/* movement family (ops_movement.c, ops_gather.c) */
#define W_GATHER(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].ints, a[4].i)
#define W_GATHER_ND(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].i, a[5].ints, a[6].i, a[7].i)
#define W_SEGMENT(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].i, a[5].i, a[6].i, a[7].p)
#define W_SCATTER_ND(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].i, a[5].ints, a[6].i)
#define W_UPDATE_SLICE(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].ints, a[5].ints, a[6].i)
#define W_BINCOUNT(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].i, a[5].i, a[6].i)
#define W_RAGGED_TO_TENSOR(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].p, a[4].i, a[5].i, a[6].p, a[7].i, a[8].i, a[9].i, a[10].i, a[11].i, a[12].p)
#define W_ONE_HOT(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i, a[6].i, a[7].i)
#define W_INVERT_PERMUTATION(fn_) fn_(a[0].p, a[1].p, a[2].i)
#define W_REVERSE_SEQUENCE(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].ints, a[4].i)
#define W_SEGMENT(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].i, a[5].i, a[6].i, a[7].p)
#define W_TOP_K(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].i, a[5].i)
#define W_RANGE(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i)
#define W_BAND_PART(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i, a[4].i, a[5].i, a[6].i, a[7].i)
#define W_BN_TRAIN(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].f, a[4].p, a[5].i, a[6].i, a[7].i)

/* random ops (ops_random.c, random.c); bicubic and area resizing (ops_resize.c) */
#define W_KEY_COUNTER(fn_) fn_(a[0].p, a[1].p, a[2].p)
#define W_RANDOM(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i)
#define W_RANDOM_INT(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].p, a[5].i)
#define W_SCALE_TRANSLATE(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].p, a[5].p, a[6].p, a[7].ints)
#define RANDOM_KERNELS                                                                           \
    WRAP(sm2c_rt_random_key_counter_i32, W_KEY_COUNTER) WRAP(sm2c_rt_random_key_counter_i64, W_KEY_COUNTER) \
    WRAP(sm2c_rt_random_uniform_f32, W_RANDOM) WRAP(sm2c_rt_random_uniform_f64, W_RANDOM)         \
    WRAP(sm2c_rt_random_normal_f32, W_RANDOM) WRAP(sm2c_rt_random_normal_f64, W_RANDOM)           \
    WRAP(sm2c_rt_random_truncated_normal_f32, W_RANDOM)                                          \
    WRAP(sm2c_rt_random_truncated_normal_f64, W_RANDOM)                                          \
    WRAP(sm2c_rt_random_uniform_f16, W_RANDOM) WRAP(sm2c_rt_random_normal_f16, W_RANDOM)         \
    WRAP(sm2c_rt_random_truncated_normal_f16, W_RANDOM)                                          \
    WRAP(sm2c_rt_random_full_int_i32, W_RANDOM) WRAP(sm2c_rt_random_full_int_i64, W_RANDOM)       \
    WRAP_CHECKED(sm2c_rt_random_uniform_int_i32, W_RANDOM_INT)                                   \
    WRAP_CHECKED(sm2c_rt_random_uniform_int_i64, W_RANDOM_INT)                                   \
    WRAP(sm2c_rt_resize_bicubic_f32, W_POOL) WRAP(sm2c_rt_resize_area_f32, W_POOL)               \
    WRAP(sm2c_rt_scale_translate_f32, W_SCALE_TRANSLATE)

#define WRAP(name, shape) static int32_t w_##name(const word *a) { shape(name); return 0; }
/* A checked kernel (sm2c_step.checked) returns its status. */
#define WRAP_CHECKED(name, shape) static int32_t w_##name(const word *a) { return shape(name); }
#define BIN(op, sfx) WRAP(sm2c_rt_##op##_##sfx, W_BINARY)
#define BIN4(sfx) BIN(add, sfx) BIN(sub, sfx) BIN(mul, sfx) BIN(maximum, sfx) BIN(minimum, sfx)
#define CAST(f, t) WRAP(sm2c_rt_cast_##f##_##t, W_UNARY)
#define CASTS(f) CAST(f, f16) CAST(f, bf16) CAST(f, f32) CAST(f, f64) CAST(f, i8) CAST(f, i16)      \
    CAST(f, i32) CAST(f, i64) CAST(f, u8) CAST(f, u16) CAST(f, u32) CAST(f, u64) CAST(f, b)
#define UN(op) WRAP(sm2c_rt_##op##_f32, W_UNARY)
#define UN64(op) WRAP(sm2c_rt_##op##_f64, W_UNARY)
#define UNARY_MATH                                                                               \
    UN(floor) UN(ceil) UN(round) UN(rint) UN(sin) UN(cos) UN(tan) UN(asin) UN(acos) UN(atan)      \
    UN(sinh) UN(cosh) UN(asinh) UN(acosh) UN(atanh) UN(erf) UN(erfc) UN(erfinv) UN(expm1)         \
    UN(log1p) UN(sign) UN(reciprocal) UN(softplus) UN(softsign) UN(elu) UN(selu)                  \
    WRAP(sm2c_rt_leaky_relu_f32, W_UNARY_F)                                                      \
    UN64(relu) UN64(relu6) UN64(tanh) UN64(neg) UN64(abs) UN64(square) UN64(sqrt) UN64(rsqrt)    \
    UN64(exp) UN64(log) UN64(floor) UN64(ceil) UN64(round) UN64(rint) UN64(sin) UN64(cos)        \
    UN64(tan) UN64(asin) UN64(acos) UN64(atan) UN64(sinh) UN64(cosh) UN64(asinh) UN64(acosh)     \
    UN64(atanh) UN64(erf) UN64(erfc) UN64(expm1) UN64(log1p) UN64(sign) UN64(reciprocal)         \
    UN64(softsign) UN64(elu) UN64(selu) UN64(sigmoid) UN64(softplus) UN64(lgamma) UN64(erfinv)    \
    UN64(digamma) WRAP(sm2c_rt_leaky_relu_f64, W_UNARY_F)
#define BINARY_MATH                                                                              \
    BIN(pow, f32) BIN(floor_div, f32) BIN(floor_mod, f32) BIN(atan2, f32) BIN(xdivy, f32)         \
    BIN(div_no_nan, f32) BIN(pow, f64) BIN(floor_div, f64) BIN(floor_mod, f64) BIN(atan2, f64)  \
    BIN(xdivy, f64) BIN(div_no_nan, f64) BIN(truncate_div, f64) BIN(xlogy, f64) BIN(xlog1py, f64) \
    BIN(truncate_mod, f64)
#define RED(op, sfx) WRAP(sm2c_rt_reduce_##op##_##sfx, W_REDUCE)
/* movement family (ops_movement.c, ops_gather.c, ops_segment.c); BY_DATA: the
** kernels named by data type, then index type (the segment ops, ScatterNd) */
#define SEGMENT(op, sfx, ix) WRAP_CHECKED(sm2c_rt_segment_##op##_##sfx##_##ix, W_SEGMENT)
#define SEGMENTS(sfx, ix) SEGMENT(sum, sfx, ix) SEGMENT(prod, sfx, ix) SEGMENT(max, sfx, ix)      \
    SEGMENT(min, sfx, ix) SEGMENT(mean, sfx, ix)
#define BY_DATA(sfx, ix) SEGMENTS(sfx, ix) WRAP_CHECKED(sm2c_rt_scatter_nd_##sfx##_##ix, W_SCATTER_ND)
#define MOVE_INDEXED(ix)                                                                         \
    WRAP_CHECKED(sm2c_rt_gather_##ix, W_GATHER) WRAP_CHECKED(sm2c_rt_gather_nd_##ix, W_GATHER_ND) \
    WRAP(sm2c_rt_one_hot_##ix, W_ONE_HOT)                                                         \
    WRAP_CHECKED(sm2c_rt_invert_permutation_##ix, W_INVERT_PERMUTATION)                          \
    WRAP_CHECKED(sm2c_rt_reverse_sequence_##ix, W_REVERSE_SEQUENCE)                               \
    BY_DATA(f32, ix) BY_DATA(f64, ix) BY_DATA(i32, ix) BY_DATA(i64, ix) BY_DATA(i8, ix) BY_DATA(i16, ix)           \
    BY_DATA(u8, ix) BY_DATA(u16, ix) BY_DATA(u32, ix) BY_DATA(u64, ix)                            \
    WRAP_CHECKED(sm2c_rt_scatter_nd_b_##ix, W_SCATTER_ND)                                         \
    SEGMENTS(f16, ix) SEGMENTS(bf16, ix)                                                          \
    WRAP_CHECKED(sm2c_rt_scatter_update_##ix, W_GATHER_ND)                                        \
    WRAP(sm2c_rt_update_slice_##ix, W_UPDATE_SLICE)                                               \
    WRAP_CHECKED(sm2c_rt_bincount_f32_##ix, W_BINCOUNT) WRAP_CHECKED(sm2c_rt_bincount_f64_##ix, W_BINCOUNT) \
    WRAP_CHECKED(sm2c_rt_bincount_i32_##ix, W_BINCOUNT) WRAP_CHECKED(sm2c_rt_bincount_i64_##ix, W_BINCOUNT) \
    WRAP_CHECKED(sm2c_rt_ragged_to_tensor_##ix, W_RAGGED_TO_TENSOR)
#define MOVEMENT_KERNELS                                                                         \
    MOVE_INDEXED(i32) MOVE_INDEXED(i64)                                                           \
    WRAP(sm2c_rt_top_k_f32, W_TOP_K) WRAP(sm2c_rt_top_k_f64, W_TOP_K) WRAP(sm2c_rt_top_k_i32, W_TOP_K) WRAP(sm2c_rt_top_k_i64, W_TOP_K) \
    WRAP(sm2c_rt_range_f32, W_RANGE) WRAP(sm2c_rt_range_f64, W_RANGE)                             \
    WRAP(sm2c_rt_range_i32, W_RANGE) WRAP(sm2c_rt_range_i64, W_RANGE)                             \
    WRAP(sm2c_rt_band_part, W_BAND_PART)
#define KERNELS                                                                                  \
    WRAP(sm2c_rt_copy_strided, W_COPY_STRIDED) WRAP(sm2c_rt_fill, W_FILL) WRAP(sm2c_rt_copy, W_COPY) \
    WRAP(sm2c_rt_pad_copy_f32, W_PAD_COPY_F32)                                                    \
    WRAP_CHECKED(sm2c_rt_check_indices_i32, W_CHECK_INDICES)                                      \
    WRAP_CHECKED(sm2c_rt_check_indices_i64, W_CHECK_INDICES)                                      \
    BIN4(f32) BIN4(f64) BIN4(i32) BIN4(i64) BIN(div, f32) BIN(div, f64) BIN(squared_difference, f32) \
    WRAP(sm2c_rt_relu_f32, W_UNARY) WRAP(sm2c_rt_relu6_f32, W_UNARY)                              \
    WRAP(sm2c_rt_sigmoid_f32, W_UNARY) WRAP(sm2c_rt_tanh_f32, W_UNARY)                            \
    WRAP(sm2c_rt_neg_f32, W_UNARY) WRAP(sm2c_rt_abs_f32, W_UNARY) WRAP(sm2c_rt_square_f32, W_UNARY) WRAP(sm2c_rt_sqrt_f32, W_UNARY) \
    WRAP(sm2c_rt_rsqrt_f32, W_UNARY) WRAP(sm2c_rt_exp_f32, W_UNARY) WRAP(sm2c_rt_log_f32, W_UNARY) \
    UNARY_MATH BINARY_MATH                                                                       \
    CASTS(f16) CASTS(bf16) CASTS(f32) CASTS(f64) CASTS(i8) CASTS(i16) CASTS(i32) CASTS(i64)           \
    CASTS(u8) CASTS(u16) CASTS(u32) CASTS(u64) CASTS(b)                                           \
    RED(sum, f32) RED(mean, f32) RED(max, f32) RED(min, f32) RED(sum, i32) RED(mean, i32)          \
    RED(sum, i64) RED(mean, i64) RED(sum, f64) RED(mean, f64) RED(prod, f64) RED(max, f64)        \
    RED(min, f64)                                                                                 \
    WRAP(sm2c_rt_matmul_f32, W_MATMUL_F32) WRAP(sm2c_rt_matvec_f32, W_MATVEC)                    \
    WRAP(sm2c_rt_matvec_t_f32, W_MATVEC)                                                          \
    WRAP(sm2c_rt_matvec_small_f32, W_MATVEC) WRAP(sm2c_rt_matvec_t_small_f32, W_MATVEC)            \
    WRAP(sm2c_rt_batch_matmul_f32, W_BATCH_MATMUL_F32)                                            \
    WRAP(sm2c_rt_batch_matmul_strided_f32, W_BATCH_MATMUL_STRIDED_F32)                            \
    WRAP(sm2c_rt_bias_add_f32, W_BIAS_ADD) WRAP(sm2c_rt_softmax_f32, W_SOFTMAX)                   \
    WRAP(sm2c_rt_softmax_scaled_f32, W_SOFTMAX_SCALED)                                            \
    WRAP(sm2c_rt_log_softmax_f32, W_SOFTMAX) WRAP(sm2c_rt_batch_norm_f32, W_BATCH_NORM)           \
    WRAP(sm2c_rt_layer_norm_f32, W_LAYER_NORM)                                                   \
    WRAP(sm2c_rt_lstm_state_f32, W_LSTM) WRAP(sm2c_rt_lstm_output_f32, W_LSTM)                   \
    WRAP(sm2c_rt_conv2d_f32, W_CONV_F32) WRAP(sm2c_rt_depthwise_conv2d_f32, W_CONV_F32)                 \
    WRAP(sm2c_rt_conv2d_add_f32, W_CONV_ADD)                                                     \
    WRAP(sm2c_rt_conv2d_packed_f32, W_CONV_F32) WRAP(sm2c_rt_conv2d_add_packed_f32, W_CONV_ADD)  \
    WRAP(sm2c_rt_max_pool_f32, W_POOL) WRAP(sm2c_rt_avg_pool_f32, W_POOL)                       \
    NN2_KERNELS MOVEMENT_KERNELS RANDOM_KERNELS

/* int8 (--quantize int8): calibration never runs them, folding may */
#define W_QUANTIZE(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].f, a[4].i)
#define W_PAD_COPY_S8(fn_) fn_(a[0].p, a[1].p, a[2].ints, a[3].i)
#define W_QUANTIZE_PAD(fn_) fn_(a[0].p, a[1].p, a[2].ints, a[3].f, a[4].i)
#define W_CONV_S8(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].ints, a[5].ints, a[6].ints, a[7].i, a[8].i, a[9].i, a[10].i)
#define W_FC_S8(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i, a[6].i, a[7].ints, a[8].ints, a[9].i, a[10].i, a[11].i, a[12].i)
#define W_CONV_S8_FRQ(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].ints, a[5].p, a[6].i, a[7].i, a[8].i, a[9].i)
#define W_FC_S8_FRQ(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i, a[6].i, a[7].p, a[8].i, a[9].i, a[10].i, a[11].i)
#define W_ADD_S8_FRQ(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].ints, a[5].f, a[6].f)
#define W_ADD_S8(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].ints)
#define W_CLAMP_S8(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i, a[4].i)
#define W_MEAN_S8(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i, a[4].i, a[5].i, a[6].i, a[7].i, a[8].i)
#define W_SOFTMAX_S8(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i, a[4].i, a[5].i, a[6].i)
#define W_LUT_S8(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i)
#define W_BCAST_S8(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].ints, a[5].ints, a[6].ints, a[7].ints)
#define Q8_KERNELS                                                                               \
    WRAP(sm2c_rt_quantize_f32_s8, W_QUANTIZE) WRAP(sm2c_rt_dequantize_s8_f32, W_QUANTIZE)         \
    WRAP(sm2c_rt_conv2d_s8, W_CONV_S8) WRAP(sm2c_rt_depthwise_conv2d_s8, W_CONV_S8)               \
    WRAP(sm2c_rt_conv2d_packed_s8, W_CONV_S8) WRAP(sm2c_rt_conv2d_packed_s8_nearest, W_CONV_S8)    \
    WRAP(sm2c_rt_conv2d_s8_frq, W_CONV_S8_FRQ) WRAP(sm2c_rt_depthwise_conv2d_s8_frq, W_CONV_S8_FRQ)   \
    WRAP(sm2c_rt_conv2d_packed_s8_frq, W_CONV_S8_FRQ) WRAP(sm2c_rt_fully_connected_s8_frq, W_FC_S8_FRQ) \
    WRAP(sm2c_rt_pad_copy_s8, W_PAD_COPY_S8) WRAP(sm2c_rt_quantize_pad_f32_s8, W_QUANTIZE_PAD)    \
    WRAP(sm2c_rt_fully_connected_s8, W_FC_S8) WRAP(sm2c_rt_fully_connected_m_s8, W_FC_S8)         \
    WRAP(sm2c_rt_max_pool_s8, W_POOL)                                                            \
    WRAP(sm2c_rt_avg_pool_s8, W_POOL) WRAP(sm2c_rt_add_s8, W_ADD_S8) WRAP(sm2c_rt_mul_s8, W_ADD_S8)     \
    WRAP(sm2c_rt_add_s8_frq, W_ADD_S8_FRQ)                                                       \
    WRAP(sm2c_rt_clamp_s8, W_CLAMP_S8) WRAP(sm2c_rt_mean_s8, W_MEAN_S8)                          \
    WRAP(sm2c_rt_softmax_s8, W_SOFTMAX_S8) WRAP(sm2c_rt_lut_s8, W_LUT_S8)                      \
    WRAP(sm2c_rt_add_bcast_s8, W_BCAST_S8) WRAP(sm2c_rt_mul_bcast_s8, W_BCAST_S8)                \
    WRAP(sm2c_rt_requantize_s8, W_SOFTMAX_S8)

/* int16x8 (--quantize int16x8): the report runs them beside the float program */
#define W_CONV_S16(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].ints, a[5].ints, a[6].ints, a[7].i, a[8].i)
#define W_FC_S16(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i, a[6].i, a[7].p, a[8].i, a[9].i)
#define W_REQUANT_S16(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i, a[4].i)
#define W_MEAN_S16(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i, a[4].i, a[5].i, a[6].i)
#define W_SOFTMAX_S16(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i, a[4].i, a[5].i, a[6].p, a[7].p)
#define W_CONV_OHWI_S16(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].ints, a[5].ints, a[6].ints, a[7].i, a[8].i, a[9].p)
#define Q16_KERNELS                                                                              \
    WRAP(sm2c_rt_quantize_f32_s16, W_QUANTIZE) WRAP(sm2c_rt_dequantize_s16_f32, W_QUANTIZE)       \
    WRAP(sm2c_rt_conv2d_s16, W_CONV_S16) WRAP(sm2c_rt_depthwise_conv2d_s16, W_CONV_S16)           \
    WRAP(sm2c_rt_fully_connected_s16, W_FC_S16) WRAP(sm2c_rt_add_s16, W_ADD_S8)                   \
    WRAP(sm2c_rt_add_bcast_s16, W_BCAST_S8) WRAP(sm2c_rt_requantize_s16, W_REQUANT_S16)           \
    WRAP(sm2c_rt_clamp_s16, W_CLAMP_S8) WRAP(sm2c_rt_max_pool_s16, W_POOL)                        \
    WRAP(sm2c_rt_avg_pool_s16, W_POOL) WRAP(sm2c_rt_mean_s16, W_MEAN_S16)                         \
    WRAP(sm2c_rt_softmax_s16, W_SOFTMAX_S16) WRAP(sm2c_rt_fully_connected_m_s16, W_FC_S16)         \
    WRAP(sm2c_rt_conv2d_ohwi_s16, W_CONV_OHWI_S16)

/* logic family: comparison, logic, selection, integer arithmetic, reductions, scans. */
#define W_APPROX(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].f)
#define W_SELECT(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i, a[6].ints, a[7].ints, a[8].ints, a[9].ints)
#define W_CLIP(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].p, a[4].i, a[5].i, a[6].i)
#define W_SCAN(fn_) fn_(a[0].p, a[1].p, a[2].i, a[3].i, a[4].i, a[5].i, a[6].i)
#define W_SEGMENT(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].i, a[5].i, a[6].i, a[7].p)
#define CMP(sfx) BIN(equal, sfx) BIN(not_equal, sfx) BIN(less, sfx) BIN(less_equal, sfx) \
    BIN(greater, sfx) BIN(greater_equal, sfx)
#define CLASSIFY(sfx) WRAP(sm2c_rt_is_nan_##sfx, W_UNARY) WRAP(sm2c_rt_is_inf_##sfx, W_UNARY) \
    WRAP(sm2c_rt_is_finite_##sfx, W_UNARY)
#define BIN_CHECKED(op, sfx) WRAP_CHECKED(sm2c_rt_##op##_##sfx, W_BINARY)
#define INT_DIV(sfx) BIN_CHECKED(floor_div, sfx) BIN_CHECKED(floor_mod, sfx) \
    BIN_CHECKED(truncate_div, sfx) BIN_CHECKED(truncate_mod, sfx)
#define BITS(sfx) BIN(bitwise_and, sfx) BIN(bitwise_or, sfx) BIN(bitwise_xor, sfx) \
    BIN(left_shift, sfx) BIN(right_shift, sfx) WRAP(sm2c_rt_invert_##sfx, W_UNARY)
#define ARG(sfx) WRAP(sm2c_rt_arg_max_##sfx##_i32, W_REDUCE) WRAP(sm2c_rt_arg_max_##sfx##_i64, W_REDUCE) \
    WRAP(sm2c_rt_arg_min_##sfx##_i32, W_REDUCE) WRAP(sm2c_rt_arg_min_##sfx##_i64, W_REDUCE)
#define SCAN(sfx) WRAP(sm2c_rt_cumsum_##sfx, W_SCAN) WRAP(sm2c_rt_cumprod_##sfx, W_SCAN)
#define CLIP(sfx) WRAP(sm2c_rt_clip_by_value_##sfx, W_CLIP)
/* issue 33's dtype audit: the other integer widths */
#define UNI(op, sfx) WRAP(sm2c_rt_##op##_##sfx, W_UNARY)
#define INT_UNARY(sfx) UNI(square, sfx) UNI(relu, sfx) UNI(relu6, sfx) UNI(sqrt, sfx)
#define SINT_UNARY(sfx) UNI(neg, sfx) UNI(abs, sfx) UNI(sign, sfx) INT_UNARY(sfx) BIN_CHECKED(pow, sfx)
#define NARROW_INT(sfx) BIN4(sfx) CMP(sfx) INT_DIV(sfx) RED(sum, sfx) RED(prod, sfx) RED(max, sfx) \
    RED(min, sfx) RED(mean, sfx) ARG(sfx) BITS(sfx) SCAN(sfx) WRAP(sm2c_rt_top_k_##sfx, W_TOP_K)
#define INT_WIDTHS                                                                               \
    SINT_UNARY(i8) SINT_UNARY(i16) SINT_UNARY(i32) SINT_UNARY(i64) INT_UNARY(u8)                  \
    INT_UNARY(u16) INT_UNARY(u32) INT_UNARY(u64) NARROW_INT(i8) NARROW_INT(i16)                   \
    NARROW_INT(u8) NARROW_INT(u16) NARROW_INT(u32) NARROW_INT(u64) CLIP(i8) CLIP(i16) CLIP(u8)      \
    CLIP(u16)
#define LOGIC_KERNELS                                                                            \
    INT_WIDTHS CMP(f32) CMP(f64) CMP(i32) CMP(i64) BIN(equal, b) BIN(not_equal, b)                \
    BIN(logical_and, b) BIN(logical_or, b) WRAP(sm2c_rt_logical_not_b, W_UNARY)                   \
    WRAP(sm2c_rt_approximate_equal_f32, W_APPROX) WRAP(sm2c_rt_approximate_equal_f64, W_APPROX)   \
    CLASSIFY(f32) CLASSIFY(f64) WRAP(sm2c_rt_select, W_SELECT)                                    \
    CLIP(f32) CLIP(f64) CLIP(i32) CLIP(i64)                                                       \
    BIN(squared_difference, f64) BIN(squared_difference, i32) BIN(squared_difference, i64)        \
    INT_DIV(i32) INT_DIV(i64) BITS(i32) BITS(i64)                                                 \
    BIN(xlogy, f32) BIN(xlog1py, f32) BIN(truncate_mod, f32) BIN(truncate_div, f32) UN(lgamma) UN(digamma)               \
    RED(prod, f32) RED(prod, i32) RED(prod, i64) RED(max, i32) RED(min, i32) RED(max, i64)        \
    RED(min, i64) RED(all, b) RED(any, b)                                                         \
    ARG(f32) ARG(f64) ARG(i32) ARG(i64) ARG(b) SCAN(f32) SCAN(f64) SCAN(i32) SCAN(i64)                   \
    SCAN(f16) SCAN(bf16)                                                                          \
    WRAP(sm2c_rt_l2_loss_f32, W_UNARY) WRAP(sm2c_rt_l2_loss_f64, W_UNARY) WRAP(sm2c_rt_batch_norm_train_f32, W_BN_TRAIN)               \
    BIN(tanh_grad, f32) BIN(sigmoid_grad, f32) BIN(relu_grad, f32) BIN(relu6_grad, f32)

/* complex64 and signal processing (runtime/complex.c, fft.c) */
#define W_FFT(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].i, a[5].i, a[6].i, a[7].i, a[8].ints, a[9].p)
#define W_RFFT(fn_) fn_(a[0].p, a[1].p, a[2].p, a[3].i, a[4].i, a[5].i, a[6].ints, a[7].p)
#define SIGNAL_KERNELS                                                                           \
    BIN(complex, f32) BIN(add, c64) BIN(sub, c64) BIN(mul, c64)                                   \
    WRAP(sm2c_rt_real_c64, W_UNARY) WRAP(sm2c_rt_imag_c64, W_UNARY) WRAP(sm2c_rt_abs_c64, W_UNARY) \
    WRAP(sm2c_rt_angle_c64, W_UNARY) WRAP(sm2c_rt_conj_c64, W_UNARY) WRAP(sm2c_rt_exp_c64, W_UNARY) \
    WRAP(sm2c_rt_cast_f32_c64, W_UNARY) WRAP(sm2c_rt_fft_c64, W_FFT)                              \
    WRAP(sm2c_rt_rfft_f32, W_RFFT) WRAP(sm2c_rt_irfft_c64, W_RFFT)

KERNELS
LOGIC_KERNELS
SIGNAL_KERNELS
Q8_KERNELS
Q16_KERNELS
#undef WRAP
#undef WRAP_CHECKED
#define WRAP(name, shape) { #name, w_##name },
#define WRAP_CHECKED(name, shape) { #name, w_##name },

static const kernel registry[] = { KERNELS LOGIC_KERNELS SIGNAL_KERNELS Q8_KERNELS Q16_KERNELS };

static const kernel *find(const char *name)
{
    for (size_t i = 0; i < sizeof registry / sizeof *registry; i++)
        if (strcmp(registry[i].name, name) == 0)
            return &registry[i];
    return NULL;
}

int sm2c_exec_knows(const char *name)
{
    return find(name) != NULL;
}

sm2c_status sm2c_exec_steps(sm2c_ctx *c, const sm2c_step *steps, int32_t n, void *const *buffers)
{
    for (int32_t s = 0; s < n; s++) {
        const kernel *k = find(steps[s].kernel);
        word a[16];
        if (!k || steps[s].n_args > 16)
            return sm2c_error(c->diag, SM2C_ERR_INTERNAL, NULL, steps[s].node,
                              "no kernel '%s' to fold with", steps[s].kernel);
        for (int32_t i = 0; i < steps[s].n_args; i++) {
            const sm2c_arg *g = &steps[s].args[i];
            memset(&a[i], 0, sizeof a[i]);
            if (g->kind == SM2C_ARG_BUF)
                a[i].p = buffers[g->buf];
            else if (g->kind == SM2C_ARG_INT)
                a[i].i = (int32_t)g->i;
            else if (g->kind == SM2C_ARG_FLOAT)
                a[i].f = g->f;
            else if (g->kind == SM2C_ARG_INTS)
                a[i].ints = g->ints;
        }
        if (k->run(a) != SM2C_RT_OK)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, NULL, steps[s].node,
                              "%s: an index or value is out of range for this constant input",
                              steps[s].op);
    }
    return SM2C_OK;
}
