/*
** vmath_f32.h: exp, tanh and sigmoid as branch-free polynomials (private to the
** runtime), so that loops over them vectorise; libm's expf and tanhf are
** calls the compiler cannot vectorise.
**
** exp: Cephes' expf.  x = n ln2 + r with n = round(x / ln2) (the 1.5 * 2^23
** trick, exact under IEEE round-to-nearest), ln2 split in two so r is exact,
** exp(r) by a degree-6 polynomial on |r| <= ln2 / 2, and 2^n built in two
** halves from exponent bits so that subnormal results round once.  About 1 ulp
** from libm's; NaN stays NaN, exp(x) = +Inf above 88.7228394 and 0 below -104
** (Eigen's vectorised cut-off, which TensorFlow uses).
** tanh: Cephes' tanhf.  An odd polynomial for |x| < 0.625, else
** 1 - 2 / (exp(2|x|) + 1) with the sign of x; +-1 past |x| = 9.  Within a few
** ulp of libm, inside reliability.md's transcendental tolerance.
*/
#ifndef SM2C_RT_VMATH_F32_H
#define SM2C_RT_VMATH_F32_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "rt_select.h"
#include "simd_f32.h" /* before the polynomials: its no-contraction pragma */

/* 2^k for k in [-126, 127], from its exponent bits. */
static SM2C_RT_ALWAYS_INLINE float sm2c_rt__pow2i(int32_t k)
{
    const uint32_t bits = (uint32_t)(k + 127) << 23;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static SM2C_RT_ALWAYS_INLINE float sm2c_rt__exp(float x)
{
    const float hi = 88.72283935546875f, lo = -104.0f;
    /* NaN and out-of-range inputs compute on 0 and are replaced at the end. */
    const float xc = x > lo && x <= hi ? x : 0.0f;
    const float t = xc * 1.44269504088896341f + 12582912.0f; /* round(x / ln2) + 1.5 * 2^23 */
    const float fn = t - 12582912.0f;
    const int32_t n = (int32_t)fn, n1 = n / 2;
    const float r = (xc - fn * 0.693359375f) - fn * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * (r * r) + r + 1.0f;
    p = p * sm2c_rt__pow2i(n1) * sm2c_rt__pow2i(n - n1);
    return isnan(x) ? x : x > hi ? INFINITY : x <= lo ? 0.0f : p;
}

static SM2C_RT_ALWAYS_INLINE float sm2c_rt__tanh(float x)
{
    const float a = x < 0.0f ? -x : x;
    const float z = x * x;
    float small = -5.70498872745e-3f;
    small = small * z + 2.06390887954e-2f;
    small = small * z - 5.37397155531e-2f;
    small = small * z + 1.33314422036e-1f;
    small = small * z - 3.33332819422e-1f;
    small = small * z * x + x;
    const float e = sm2c_rt__exp(2.0f * (a < 9.0f ? a : 9.0f));
    const float big = a < 9.0f ? 1.0f - 2.0f / (e + 1.0f) : 1.0f;
    /* a == 0 returns x itself: tanh(-0) is -0 */
    return isnan(x) || a == 0.0f ? x : a < 0.625f ? small : x < 0.0f ? -big : big;
}

/* Eigen's scalar_logistic_op<float>: e / (1 + e) with e = exp(min(x, hi)),
** where hi = 16.6355324 is the first x at which the result rounds to 1, and
** exactly 0 below -104 (Eigen's vectorised cut-off).  Between -104 and about
** -87 the result is subnormal; TF flushes it to zero (FTZ), we do not.  The
** Sigmoid kernel and the fused sigmoid activation share it. */
static SM2C_RT_ALWAYS_INLINE float sm2c_rt__sigmoid(float v)
{
    const float e = sm2c_rt__exp(v < 16.6355324f ? v : 16.6355324f);
    return isnan(v) ? v : v < -104.0f ? 0.0f : e / (1.0f + e);
}

#endif
