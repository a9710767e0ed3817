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
** erf: below.
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

/* erf: Eigen's rational approximation, which TensorFlow's CPU kernel runs:
** x clamped to [-4, 4] (erf rounds to +-1 past it), then x P(x^2) / Q(x^2)
** with an odd numerator of degree 13 and an even denominator of degree 8.
** Within 4.5e-7 of erf in double for |x| >= 1e-30; NaN stays NaN (the
** clamp's comparisons are false for it). */
static SM2C_RT_ALWAYS_INLINE float sm2c_rt__erf(float x)
{
    const float xc = x < -4.0f ? -4.0f : x > 4.0f ? 4.0f : x, x2 = xc * xc;
    float p = -2.72614225801306e-10f, q = -1.45660718464996e-05f;
    p = p * x2 + 2.77068142495902e-08f;
    p = p * x2 - 2.10102402082508e-06f;
    p = p * x2 - 5.69250639462346e-05f;
    p = p * x2 - 7.34990630326855e-04f;
    p = p * x2 - 2.95459980854025e-03f;
    p = p * x2 - 1.60960333262415e-02f;
    q = q * x2 - 2.13374055278905e-04f;
    q = q * x2 - 1.68282697438203e-03f;
    q = q * x2 - 7.37332916720468e-03f;
    q = q * x2 - 1.42647390514189e-02f;
    return xc * p / q;
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

#if SM2C_RT_NEON
/*
** The same on four lanes in NEON: gcc does not vectorise the scalar forms
** (it turns their selects into branches around the float-to-int conversion,
** which may trap, and then cannot if-convert them).  The same operations in
** the same order, a multiply and an add where the scalar form has them, so
** the same bits.
*/
static SM2C_RT_ALWAYS_INLINE float32x4_t sm2c_rt__mul_add128(float32x4_t a, float32x4_t b, float c)
{
    return vaddq_f32(vmulq_f32(a, b), vdupq_n_f32(c));
}

static SM2C_RT_ALWAYS_INLINE float32x4_t sm2c_rt__pow2i128(int32x4_t k)
{
    return vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(k, vdupq_n_s32(127)), 23));
}

static SM2C_RT_ALWAYS_INLINE float32x4_t sm2c_rt__exp128(float32x4_t x)
{
    const float32x4_t hi = vdupq_n_f32(88.72283935546875f), lo = vdupq_n_f32(-104.0f);
    const float32x4_t zero = vdupq_n_f32(0.0f), shift = vdupq_n_f32(12582912.0f);
    const float32x4_t xc = vbslq_f32(vandq_u32(vcgtq_f32(x, lo), vcleq_f32(x, hi)), x, zero);
    const float32x4_t t = vaddq_f32(vmulq_f32(xc, vdupq_n_f32(1.44269504088896341f)), shift);
    const float32x4_t fn = vsubq_f32(t, shift);
    const int32x4_t n = vcvtq_s32_f32(fn);
    /* n / 2, rounded toward 0 as C's division */
    const int32x4_t neg = vreinterpretq_s32_u32(vshrq_n_u32(vreinterpretq_u32_s32(n), 31));
    const int32x4_t n1 = vshrq_n_s32(vaddq_s32(n, neg), 1);
    const float32x4_t r = vsubq_f32(vsubq_f32(xc, vmulq_f32(fn, vdupq_n_f32(0.693359375f))),
                                    vmulq_f32(fn, vdupq_n_f32(-2.12194440e-4f)));
    float32x4_t p = vdupq_n_f32(1.9875691500e-4f), y;
    p = sm2c_rt__mul_add128(p, r, 1.3981999507e-3f);
    p = sm2c_rt__mul_add128(p, r, 8.3334519073e-3f);
    p = sm2c_rt__mul_add128(p, r, 4.1665795894e-2f);
    p = sm2c_rt__mul_add128(p, r, 1.6666665459e-1f);
    p = sm2c_rt__mul_add128(p, r, 5.0000001201e-1f);
    p = vaddq_f32(vaddq_f32(vmulq_f32(p, vmulq_f32(r, r)), r), vdupq_n_f32(1.0f));
    p = vmulq_f32(vmulq_f32(p, sm2c_rt__pow2i128(n1)), sm2c_rt__pow2i128(vsubq_s32(n, n1)));
    y = vbslq_f32(vcleq_f32(x, lo), zero, p);
    y = vbslq_f32(vcgtq_f32(x, hi), vdupq_n_f32(INFINITY), y);
    return vbslq_f32(vceqq_f32(x, x), y, x); /* NaN stays NaN */
}

static SM2C_RT_ALWAYS_INLINE float32x4_t sm2c_rt__erf128(float32x4_t x)
{
    const float32x4_t xc = vminq_f32(vmaxq_f32(x, vdupq_n_f32(-4.0f)), vdupq_n_f32(4.0f));
    const float32x4_t x2 = vmulq_f32(xc, xc);
    float32x4_t p = vdupq_n_f32(-2.72614225801306e-10f), q = vdupq_n_f32(-1.45660718464996e-05f);
    p = sm2c_rt__mul_add128(p, x2, 2.77068142495902e-08f);
    p = sm2c_rt__mul_add128(p, x2, -2.10102402082508e-06f);
    p = sm2c_rt__mul_add128(p, x2, -5.69250639462346e-05f);
    p = sm2c_rt__mul_add128(p, x2, -7.34990630326855e-04f);
    p = sm2c_rt__mul_add128(p, x2, -2.95459980854025e-03f);
    p = sm2c_rt__mul_add128(p, x2, -1.60960333262415e-02f);
    q = sm2c_rt__mul_add128(q, x2, -2.13374055278905e-04f);
    q = sm2c_rt__mul_add128(q, x2, -1.68282697438203e-03f);
    q = sm2c_rt__mul_add128(q, x2, -7.37332916720468e-03f);
    q = sm2c_rt__mul_add128(q, x2, -1.42647390514189e-02f);
    return vbslq_f32(vceqq_f32(x, x), vdivq_f32(vmulq_f32(xc, p), q), x); /* NaN stays NaN */
}

static SM2C_RT_ALWAYS_INLINE float32x4_t sm2c_rt__tanh128(float32x4_t x)
{
    const float32x4_t a = vabsq_f32(x), z = vmulq_f32(x, x), nine = vdupq_n_f32(9.0f);
    const float32x4_t one = vdupq_n_f32(1.0f);
    const uint32x4_t below9 = vcltq_f32(a, nine);
    float32x4_t small = vdupq_n_f32(-5.70498872745e-3f), e, big, y;
    small = sm2c_rt__mul_add128(small, z, 2.06390887954e-2f);
    small = sm2c_rt__mul_add128(small, z, -5.37397155531e-2f);
    small = sm2c_rt__mul_add128(small, z, 1.33314422036e-1f);
    small = sm2c_rt__mul_add128(small, z, -3.33332819422e-1f);
    small = vaddq_f32(vmulq_f32(vmulq_f32(small, z), x), x);
    e = sm2c_rt__exp128(vmulq_f32(vdupq_n_f32(2.0f), vbslq_f32(below9, a, nine)));
    big = vbslq_f32(below9, vsubq_f32(one, vdivq_f32(vdupq_n_f32(2.0f), vaddq_f32(e, one))), one);
    y = vbslq_f32(vcltq_f32(x, vdupq_n_f32(0.0f)), vnegq_f32(big), big);
    y = vbslq_f32(vcltq_f32(a, vdupq_n_f32(0.625f)), small, y);
    /* NaN, and a == 0 (tanh(-0) is -0), return x itself */
    return vbslq_f32(vandq_u32(vceqq_f32(x, x), vmvnq_u32(vceqzq_f32(a))), y, x);
}
static SM2C_RT_ALWAYS_INLINE float32x4_t sm2c_rt__sigmoid128(float32x4_t v)
{
    const float32x4_t hi = vdupq_n_f32(16.6355324f), one = vdupq_n_f32(1.0f);
    const float32x4_t e = sm2c_rt__exp128(vbslq_f32(vcltq_f32(v, hi), v, hi));
    const float32x4_t y = vbslq_f32(vcltq_f32(v, vdupq_n_f32(-104.0f)), vdupq_n_f32(0.0f),
                                    vdivq_f32(e, vaddq_f32(one, e)));
    return vbslq_f32(vceqq_f32(v, v), y, v);
}
#endif

#include "vmath_x86_f32.h"

#endif
