/*
** unary_f32.c: elementwise float activations and math; y may equal x.
**
** NaN semantics are TensorFlow's, measured on TF 2.21 x86-64: Relu and Relu6
** return a NaN input unchanged (payload and sign included), and map -0 to +0
** like TF's vectorised path (Eigen's scalar tail keeps -0; TF is not
** consistent there).  Transcendentals use libm; TF uses Eigen's polynomial
** approximations, which agree within a few ulp.
*/
#include <math.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

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
/* Eigen's scalar_logistic_op<float>: e / (1 + e) with e = exp(min(x, hi)),
** where hi = 16.6355324 is the first x at which the result rounds to 1, and
** exactly 0 below -104 (Eigen's vectorised cut-off).  Between -104 and about
** -87 the result is subnormal; TF flushes it to zero (FTZ), we do not. */
void sm2c_rt_sigmoid_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        const float v = x[i];
        if (isnan(v)) {
            y[i] = v;
        } else if (v < -104.0f) {
            y[i] = 0.0f;
        } else {
            const float e = expf(v < 16.6355324f ? v : 16.6355324f);
            y[i] = e / (1.0f + e);
        }
    }
}
#endif

#if SM2C_RT_WANT(tanh_f32)
void sm2c_rt_tanh_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = tanhf(x[i]);
}
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
void sm2c_rt_exp_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = expf(x[i]);
}
#endif

#if SM2C_RT_WANT(log_f32)
void sm2c_rt_log_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = logf(x[i]);
}
#endif
