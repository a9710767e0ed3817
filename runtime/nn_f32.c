/*
** nn_f32.c: BiasAdd, Softmax, LogSoftmax and inference BatchNorm.
**
** LogSoftmax follows TensorFlow's SoftmaxEigenImpl
** (tensorflow/core/kernels/softmax_op_functor.h), per row:
**     shifted = x - max(x)
**     log_softmax = shifted - log(sum(exp(shifted)))
** so a NaN anywhere in a row, a +Inf, or a row that is all -Inf (-Inf - -Inf
** is NaN) makes the whole row NaN; a -Inf among finite values gives -Inf.
**
** Softmax: TensorFlow 2.21's CPU build runs it through oneDNN (the default,
** TF_ENABLE_ONEDNN_OPTS), whose special values differ from Eigen's.  Measured
** (tf.nn.softmax, eager and in graphs, rank 2 and 3), they are what this
** model gives: m = max over the non-NaN elements; e = exp(x - m), except that
** a NaN difference gives +Inf; y = e * (1 / sum(e)).  So a row with a NaN or a
** +Inf has NaN there and 0 elsewhere ([1, NaN, 2] -> [0, NaN, 0]), an all -Inf
** row is NaN, and a -Inf among finite values gives 0.  Its zeros for tiny
** values are sm2c's too (softmax_exp).  Sums are float, as
** in TensorFlow's kernels: a float32 model must not need double arithmetic,
** which a single-precision FPU (Cortex-M4F) does in software.  exp is the
** polynomial of vmath_f32.h (about 1 ulp from libm's, and Eigen's own
** vectorised exp is one too) where it vectorises or saves a firmware image
** libm's expf; see softmax_exp.
**
** BatchNorm (FusedBatchNorm with is_training=false) is, as in
** tensorflow/core/kernels/fused_batch_norm_op.cc,
**     y = (x - mean) * (scale * rsqrt(var + eps)) + offset.
*/
#include <math.h>
#include <stddef.h>

#include "act_f32.h"
#include "sm2c_rt.h"
#include "vmath_f32.h"
#include "rt_select.h"
#include "rt_target.h"
#include "simd_f32.h"

#if SM2C_RT_WANT(bias_add_f32)
static SM2C_RT_ALWAYS_INLINE void bias_add_body(const float *x, const float *bias, float *y,
                                                int32_t outer, int32_t channels, int32_t inner,
                                                const sm2c_rt__act *act)
{
    int32_t o, c, i;

    /* y may equal x: every element is read once, then written in place. */
    if (inner == 1) {
        for (o = 0; o < outer; o++) {
            const float *xr = x + (ptrdiff_t)o * channels;
            float *yr = y + (ptrdiff_t)o * channels;
            for (c = 0; c < channels; c++)
                yr[c] = xr[c] + bias[c];
            sm2c_rt__act_f32(yr, channels, act);
        }
        return;
    }
    for (o = 0; o < outer; o++) {
        for (c = 0; c < channels; c++) {
            const ptrdiff_t base = ((ptrdiff_t)o * channels + c) * inner;
            const float bc = bias[c];
            for (i = 0; i < inner; i++)
                y[base + i] = x[base + i] + bc;
            sm2c_rt__act_f32(y + base, inner, act);
        }
    }
}

SM2C_RT_CLONES(bias_add, (const float *x, const float *bias, float *y, int32_t outer,
                          int32_t channels, int32_t inner, const sm2c_rt__act *act),
               (x, bias, y, outer, channels, inner, act))

SM2C_RT_VECTORISE void sm2c_rt_bias_add_f32(const float *x, const float *bias, float *y,
                                            int32_t outer, int32_t channels, int32_t inner,
                                            int32_t kind, float act_a, float act_b)
{
    const sm2c_rt__act av = { kind, act_a, act_b }, *act = &av;

    SM2C_RT_PICK(bias_add, (x, bias, y, outer, channels, inner, act))
    bias_add_body(x, bias, y, outer, channels, inner, act);
}

#endif

/* The row maximum; NaN if the first element is NaN (the row is NaN anyway). */
static inline float row_max(const float *x, int32_t cols)
{
    float mx = x[0];
    int32_t j;

    for (j = 1; j < cols; j++)
        if (x[j] > mx)
            mx = x[j];
    return mx;
}

#if SM2C_RT_WANT(softmax_f32) || SM2C_RT_WANT(softmax_scaled_f32)
/* The vector form of a row (16 running maxima and sums) where the compiler
** vectorises it: NEON's; x86 has its own rows (softmax_simd_f32.h). */
#if !SM2C_RT_SCALAR_CORE && (defined(__AVX2__) || defined(__ARM_NEON))
#define SOFTMAX_VECTOR 1
#else
#define SOFTMAX_VECTOR 0
#endif

/* TensorFlow's CPU Softmax gives 0 where exp(x - max) would be below
** 2^-125, x - max <= -86.6434 (measured on TF 2.21: oneDNN's exp stops
** there).  So does sm2c's: the same zeros, and no subnormal exp, whose
** arithmetic's assists made rows of widely spread scores 60% slower. */
#define SOFTMAX_CUT (-86.643394f) /* the least x - max whose exp TF keeps */

/* a * b + c rounded once.  A core without FMA (Cortex-M0/M3, whose libm
** fmaf would be large and slow) rounds the product too: its softmax can
** differ from other targets' in the last bit. */
static SM2C_RT_ALWAYS_INLINE float softmax_fma(float a, float b, float c)
{
#if SM2C_RT_SCALAR_CORE && !defined(__ARM_FEATURE_FMA) && !defined(__FP_FAST_FMAF) && \
    !defined(SM2C_RT_SCALAR_ONLY)
    return a * b + c;
#else
    return fmaf(a, b, c);
#endif
}

/* exp(d) for d in [SOFTMAX_CUT, 0]: vmath_f32.h's reduction and polynomial
** with fused multiply-adds, on every path (the vector ones in
** softmax_simd_f32.h and softmax_exp16, their operations in this order):
** on AVX-512 a third less time than separate products and sums, the
** polynomial being most of a row's work, and at least as accurate.  Its
** results are normal, so p * 2^n1 * 2^(n - n1) rounds once, as AVX-512's
** scalef does. */
static SM2C_RT_ALWAYS_INLINE float softmax_exp_poly(float d)
{
    const float fn = softmax_fma(d, 1.44269504088896341f, 12582912.0f) - 12582912.0f;
    const int32_t n = (int32_t)fn, n1 = n / 2;
    const float r = softmax_fma(-fn, -2.12194440e-4f, softmax_fma(-fn, 0.693359375f, d));
    float p = 1.9875691500e-4f;
    p = softmax_fma(p, r, 1.3981999507e-3f);
    p = softmax_fma(p, r, 8.3334519073e-3f);
    p = softmax_fma(p, r, 4.1665795894e-2f);
    p = softmax_fma(p, r, 1.6666665459e-1f);
    p = softmax_fma(p, r, 5.0000001201e-1f);
    p = softmax_fma(p, r * r, r) + 1.0f;
    return p * sm2c_rt__pow2i(n1) * sm2c_rt__pow2i(n - n1);
}

/* exp(x - max): a NaN difference gives +Inf (see above), one below
** SOFTMAX_CUT 0. */
static SM2C_RT_ALWAYS_INLINE float softmax_exp(float d)
{
    if (isnan(d))
        return INFINITY;
    return d < SOFTMAX_CUT ? 0.0f : softmax_exp_poly(d);
}

enum { SM_L = 16 }; /* lanes of the vector form */

#include "softmax_simd_f32.h" /* the lane maxima and sums finished, and the x86 rows */

#if SM2C_RT_NEON
/* softmax_exp_poly on four lanes (AArch64 always has FMA). */
static SM2C_RT_ALWAYS_INLINE float32x4_t softmax_exp_poly128(float32x4_t d)
{
    const float32x4_t magic = vdupq_n_f32(12582912.0f);
    const float32x4_t fn = vsubq_f32(vfmaq_f32(magic, d, vdupq_n_f32(1.44269504088896341f)), magic);
    const int32x4_t n = vcvtq_s32_f32(fn);
    const int32x4_t n1 = vshrq_n_s32(vaddq_s32(n, vreinterpretq_s32_u32(vshrq_n_u32(vreinterpretq_u32_s32(n), 31))), 1);
    const float32x4_t r = vfmsq_f32(vfmsq_f32(d, fn, vdupq_n_f32(0.693359375f)), fn, vdupq_n_f32(-2.12194440e-4f));
    float32x4_t p = vdupq_n_f32(1.9875691500e-4f);
    p = vfmaq_f32(vdupq_n_f32(1.3981999507e-3f), p, r);
    p = vfmaq_f32(vdupq_n_f32(8.3334519073e-3f), p, r);
    p = vfmaq_f32(vdupq_n_f32(4.1665795894e-2f), p, r);
    p = vfmaq_f32(vdupq_n_f32(1.6666665459e-1f), p, r);
    p = vfmaq_f32(vdupq_n_f32(5.0000001201e-1f), p, r);
    p = vaddq_f32(vfmaq_f32(r, p, vmulq_f32(r, r)), vdupq_n_f32(1.0f));
    return vmulq_f32(vmulq_f32(p, sm2c_rt__pow2i128(n1)), sm2c_rt__pow2i128(vsubq_s32(n, n1)));
}
#endif

/* yr[i] = softmax_exp(xr[i] * scale - mx), and ls[i] += yr[i], for
** i < SM_L.  NEON runs softmax_exp_poly on four lanes, the same operations:
** gcc does not vectorise the scalar one. */
static SM2C_RT_ALWAYS_INLINE void softmax_exp16(const float *xr, float *yr, float mx, float *ls, float scale)
{
    int32_t i;

#if SM2C_RT_NEON
    for (i = 0; i < SM_L; i += 4) {
        const float32x4_t d = vsubq_f32(vmulq_n_f32(vld1q_f32(xr + i), scale), vdupq_n_f32(mx));
        const uint32x4_t kept = vcgeq_f32(d, vdupq_n_f32(SOFTMAX_CUT)); /* false for NaN */
        float32x4_t e = softmax_exp_poly128(vmaxq_f32(d, vdupq_n_f32(SOFTMAX_CUT)));
        e = vreinterpretq_f32_u32(vandq_u32(kept, vreinterpretq_u32_f32(e)));
        e = vbslq_f32(vceqq_f32(d, d), e, vdupq_n_f32(INFINITY));
        vst1q_f32(yr + i, e);
        vst1q_f32(ls + i, vaddq_f32(vld1q_f32(ls + i), e));
    }
#else
    for (i = 0; i < SM_L; i++) {
        yr[i] = softmax_exp(xr[i] * scale - mx);
        ls[i] += yr[i];
    }
#endif
}

/* One row.  The vector form keeps 16 running maxima and 16 partial sums
** (constant trip counts, so the compiler vectorises them) and combines them
** at the end: the same maximum (NaN never compares greater, so it is
** skipped either way), and the sum in a different order, within
** reliability.md's tolerance for reductions.  Elements are xr[j] * scale
** when scaled (softmax_tail); the scalar form multiplies only then. */
static SM2C_RT_ALWAYS_INLINE void softmax_row(const float *xr, float *yr, int32_t cols, int vector, float scale,
                                              int scaled)
{
    float mx = -INFINITY, sum = 0.0f, inv;
    int32_t j = 0, i;

    if (vector) {
        float lm[SM_L], ls[SM_L];
        for (i = 0; i < SM_L; i++)
            lm[i] = -INFINITY, ls[i] = 0.0f;
        for (; j + SM_L <= cols; j += SM_L)
            for (i = 0; i < SM_L; i++)
                lm[i] = xr[j + i] * scale > lm[i] ? xr[j + i] * scale : lm[i];
        mx = softmax_tail_max(xr, j, cols, lm, scale);
        for (j = 0; j + SM_L <= cols; j += SM_L)
            softmax_exp16(xr + j, yr + j, mx, ls, scale);
        softmax_row_finish(xr, yr, cols, j, mx, ls, scale);
        return;
    }
    for (j = 0; j < cols; j++) {
        const float v = scaled ? xr[j] * scale : xr[j];
        if (v > mx)
            mx = v;            /* NaN never compares greater: skipped */
    }
    for (j = 0; j < cols; j++) {
        yr[j] = softmax_exp((scaled ? xr[j] * scale : xr[j]) - mx);
        sum += yr[j];
    }
    inv = 1.0f / sum;
    for (j = 0; j < cols; j++)
        yr[j] *= inv;
}

static SM2C_RT_ALWAYS_INLINE void softmax_body(const float *x, float *y, int32_t rows, int32_t cols, float scale,
                                               int scaled)
{
    int32_t r;

    if (cols <= 0)
        return;
#if SM2C_RT_AVX512
    if (sm2c_rt__have_avx512()) {
        softmax_rows512(x, y, rows, cols, scale, scaled);
        return;
    }
#endif
#if SM2C_RT_AVX2
    if (sm2c_rt__have_avx2()) {
        for (r = 0; r < rows; r++)
            softmax_row256(x + (ptrdiff_t)r * cols, y + (ptrdiff_t)r * cols, cols, scale, scaled);
        return;
    }
#endif
    for (r = 0; r < rows; r++)
        softmax_row(x + (ptrdiff_t)r * cols, y + (ptrdiff_t)r * cols, cols, SOFTMAX_VECTOR, scale, scaled);
}
#endif

#if SM2C_RT_WANT(softmax_f32)
SM2C_RT_VECTORISE void sm2c_rt_softmax_f32(const float *x, float *y, int32_t rows, int32_t cols)
{
    softmax_body(x, y, rows, cols, 1.0f, 0);
}
#endif

#if SM2C_RT_WANT(softmax_scaled_f32)
/* Softmax(scale * x), for a Mul by a constant before a Softmax
** (pass_fuse_scale.c): each element's product rounds as the Mul's did,
** so the output is what the two steps give, without the Mul's pass. */
SM2C_RT_VECTORISE void sm2c_rt_softmax_scaled_f32(const float *x, float scale, float *y, int32_t rows,
                                                  int32_t cols)
{
    softmax_body(x, y, rows, cols, scale, 1);
}
#endif

#if SM2C_RT_WANT(log_softmax_f32)
void sm2c_rt_log_softmax_f32(const float *x, float *y, int32_t rows, int32_t cols)
{
    int32_t r, j;

    if (cols <= 0)
        return;
    for (r = 0; r < rows; r++) {
        const float *xr = x + (ptrdiff_t)r * cols;
        float *yr = y + (ptrdiff_t)r * cols;
        const float mx = row_max(xr, cols);
        float sum = 0.0f, lse;

        for (j = 0; j < cols; j++)
            sum += expf(xr[j] - mx);
        lse = logf(sum);
        for (j = 0; j < cols; j++)
            yr[j] = (xr[j] - mx) - lse;
    }
}
#endif

enum { BN_CB = 64 }; /* channels per block of precomputed factors (256 B of stack) */

#if SM2C_RT_WANT(batch_norm_f32)
void sm2c_rt_batch_norm_f32(const float *x, const float *scale, const float *offset,
                            const float *mean, const float *var, float epsilon, float *y,
                            int32_t outer, int32_t channels)
{
    float factor[BN_CB];
    int32_t c0, c, o;

    for (c0 = 0; c0 < channels; c0 += BN_CB) {
        const int32_t cb = channels - c0 < BN_CB ? channels - c0 : BN_CB;

        for (c = 0; c < cb; c++)
            factor[c] = scale[c0 + c] * (1.0f / sqrtf(var[c0 + c] + epsilon));
        for (o = 0; o < outer; o++) {
            const ptrdiff_t base = (ptrdiff_t)o * channels + c0;
            for (c = 0; c < cb; c++)
                y[base + c] = (x[base + c] - mean[c0 + c]) * factor[c] + offset[c0 + c];
        }
    }
}
#endif

#if SM2C_RT_WANT(batch_norm_nchw_f32)
/* Channels first: x viewed as [outer, channels, inner]. */
void sm2c_rt_batch_norm_nchw_f32(const float *x, const float *scale, const float *offset,
                                 const float *mean, const float *var, float epsilon, float *y,
                                 int32_t outer, int32_t channels, int32_t inner)
{
    int32_t o, c, i;

    for (c = 0; c < channels; c++) {
        const float factor = scale[c] * (1.0f / sqrtf(var[c] + epsilon));
        for (o = 0; o < outer; o++) {
            const ptrdiff_t base = ((ptrdiff_t)o * channels + c) * inner;
            for (i = 0; i < inner; i++)
                y[base + i] = (x[base + i] - mean[c]) * factor + offset[c];
        }
    }
}
#endif
