/*
** unary_f32.c: elementwise float activations and math; y may equal x.
**
** NaN semantics are TensorFlow's, measured on TF 2.21 x86-64: Relu and Relu6
** return a NaN input unchanged (payload and sign included), and map -0 to +0
** like TF's vectorised path (Eigen's scalar tail keeps -0; TF is not
** consistent there).  Exp, Tanh, Sigmoid and Erf use the polynomials of
** vmath_f32.h: their NEON, AVX-512 and AVX2 forms where the CPU has one (the
** same bits), else the scalar form in blocks of 16 with a constant trip count,
** which compilers vectorise where they can.  TF uses Eigen's polynomial
** approximations: all agree within a few ulp.
*/
#include <math.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "simd_f32.h"
#include "vmath_f32.h"

/* y[i] = f(x[i]): blocks of 16 (vectorised), then the rest. */
#define SM2C_RT__MAP16_BODY(f)                                                             \
    {                                                                                      \
        int32_t i = 0, j;                                                                  \
        for (; i + 16 <= n; i += 16)                                                       \
            for (j = 0; j < 16; j++)                                                       \
                y[i + j] = f(x[i + j]);                                                    \
        for (; i < n; i++)                                                                 \
            y[i] = f(x[i]);                                                                \
    }

/* On AArch64 f's four-lane NEON form f##128 (the same bits; gcc does not
** vectorise f), then the rest. */
#if SM2C_RT_NEON
#define SM2C_RT__MAP_BODY(f)                                                               \
    {                                                                                      \
        int32_t i = 0;                                                                     \
        for (; i + 4 <= n; i += 4)                                                         \
            vst1q_f32(y + i, f##128(vld1q_f32(x + i)));                                    \
        for (; i < n; i++)                                                                 \
            y[i] = f(x[i]);                                                                \
    }
#else
#define SM2C_RT__MAP_BODY(f) SM2C_RT__MAP16_BODY(f)
#endif

/* On x86-64 f's 16- and 8-lane forms f##512 and f##256 (vmath_x86_f32.h;
** the same bits, and gcc does not vectorise f) are compiled for AVX-512 and
** for AVX2+FMA (simd_f32.h) and picked at run time, in native and portable
** builds alike. */
/* Unoptimised builds (-O0) keep every intrinsic's result in the frame: the
** vector tanh (with its exp) took 8.5 KB of stack there, over
** SM2C_RT_STACK_BYTES, so they map the scalar form (the same bits). */
#if defined(__OPTIMIZE__)
#define SM2C_RT__LANES(w, f, v) f##w(v)
#else
#define SM2C_RT__LANES(w, f, v) sm2c_rt__lanes##w(f, v)
#endif

#if SM2C_RT_AVX512
#if !defined(__OPTIMIZE__)
#define sm2c_rt__lanes512(f, v) sm2c_rt__map_scalar512(f, v)
SM2C_RT_TARGET_AVX512 static inline __m512 sm2c_rt__map_scalar512(float (*f)(float), __m512 v)
{
    float t[16];
    int32_t j;
    _mm512_storeu_ps(t, v);
    for (j = 0; j < 16; j++)
        t[j] = f(t[j]);
    return _mm512_loadu_ps(t);
}
#endif
#define SM2C_RT__MAP_AVX512(name, f)                                                       \
    SM2C_RT_TARGET_AVX512 static void name##_avx512(const float *x, float *y, int32_t n)    \
    {                                                                                      \
        int32_t i = 0;                                                                     \
        for (; i + 16 <= n; i += 16)                                                       \
            _mm512_storeu_ps(y + i, SM2C_RT__LANES(512, f, _mm512_loadu_ps(x + i)));       \
        for (; i < n; i++)                                                                 \
            y[i] = f(x[i]);                                                                \
    }
#define SM2C_RT__CALL_AVX512(name)                                                         \
    if (sm2c_rt__have_avx512()) {                                                          \
        name##_avx512(x, y, n);                                                            \
        return;                                                                            \
    }
#else
#define SM2C_RT__MAP_AVX512(name, f)
#define SM2C_RT__CALL_AVX512(name)
#endif
#if SM2C_RT_AVX2
#if !defined(__OPTIMIZE__)
#define sm2c_rt__lanes256(f, v) sm2c_rt__map_scalar256(f, v)
SM2C_RT_TARGET_AVX2 static inline __m256 sm2c_rt__map_scalar256(float (*f)(float), __m256 v)
{
    float t[8];
    int32_t j;
    _mm256_storeu_ps(t, v);
    for (j = 0; j < 8; j++)
        t[j] = f(t[j]);
    return _mm256_loadu_ps(t);
}
#endif
#define SM2C_RT__MAP_AVX2(name, f)                                                         \
    SM2C_RT_TARGET_AVX2 static void name##_avx2(const float *x, float *y, int32_t n)        \
    {                                                                                      \
        int32_t i = 0;                                                                     \
        for (; i + 8 <= n; i += 8)                                                         \
            _mm256_storeu_ps(y + i, SM2C_RT__LANES(256, f, _mm256_loadu_ps(x + i)));       \
        for (; i < n; i++)                                                                 \
            y[i] = f(x[i]);                                                                \
    }
#define SM2C_RT__CALL_AVX2(name)                                                           \
    if (sm2c_rt__have_avx2()) {                                                            \
        name##_avx2(x, y, n);                                                              \
        return;                                                                            \
    }
#else
#define SM2C_RT__MAP_AVX2(name, f)
#define SM2C_RT__CALL_AVX2(name)
#endif

/* The kernel sm2c_rt_<name>(x, y, n), y[i] = f(x[i]). */
#define SM2C_RT__MAP16(name, f)                                                            \
    SM2C_RT__MAP_AVX512(name, f)                                                           \
    SM2C_RT__MAP_AVX2(name, f)                                                             \
    void sm2c_rt_##name(const float *x, float *y, int32_t n)                               \
    {                                                                                      \
        SM2C_RT__CALL_AVX512(name)                                                         \
        SM2C_RT__CALL_AVX2(name)                                                           \
        SM2C_RT__MAP_BODY(f)                                                               \
    }

#if SM2C_RT_WANT(relu_f32)
void sm2c_rt_relu_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        const float v = x[i];
        y[i] = isnan(v) ? v : v > 0.0f ? v : 0.0f;
    }
}
#endif

#if SM2C_RT_WANT(relu6_f32)
void sm2c_rt_relu6_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        const float v = x[i];
        y[i] = isnan(v) ? v : v > 0.0f ? (v < 6.0f ? v : 6.0f) : 0.0f;
    }
}
#endif

#if SM2C_RT_WANT(sigmoid_f32)
SM2C_RT__MAP16(sigmoid_f32, sm2c_rt__sigmoid)
#endif

#if SM2C_RT_WANT(tanh_f32)
SM2C_RT__MAP16(tanh_f32, sm2c_rt__tanh)
#endif

#if SM2C_RT_WANT(erf_f32)
SM2C_RT__MAP16(erf_f32, sm2c_rt__erf)
#endif

#if SM2C_RT_WANT(neg_f32)
void sm2c_rt_neg_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = -x[i];
}
#endif

#if SM2C_RT_WANT(abs_f32)
/* fabsf clears the sign bit only: NaN payloads survive, as in TensorFlow. */
void sm2c_rt_abs_f32(const float *x, float *y, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = fabsf(x[i]);
}
#endif

#if SM2C_RT_WANT(square_f32)
void sm2c_rt_square_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = x[i] * x[i];
}
#endif

#if SM2C_RT_WANT(sqrt_f32)
void sm2c_rt_sqrt_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = sqrtf(x[i]);
}
#endif

#if SM2C_RT_WANT(rsqrt_f32)
/* 1 / sqrt(x): +-0 gives +-Inf, +Inf gives 0, negatives NaN. */
void sm2c_rt_rsqrt_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = 1.0f / sqrtf(x[i]);
}
#endif

#if SM2C_RT_WANT(exp_f32)
SM2C_RT__MAP16(exp_f32, sm2c_rt__exp)
#endif

#if SM2C_RT_WANT(log_f32)
void sm2c_rt_log_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = logf(x[i]);
}
#endif
