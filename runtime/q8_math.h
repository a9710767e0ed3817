/*
** q8_math.h: TFLite's fixed-point requantization (tensorflow/lite/kernels/
** internal/common.h, the default double-rounding form), written without
** undefined behaviour: products in int64, no left shift of a negative value,
** shift counts in [0, 31].
*/
#ifndef SM2C_RT_Q8_MATH_H
#define SM2C_RT_Q8_MATH_H

#include <stdint.h>

/* gemmlowp's SaturatingRoundingDoublingHighMul: round(a * b / 2^31), the one
** overflowing case (INT32_MIN * INT32_MIN) saturated.  gemmlowp truncates
** (ab + nudge) / 2^31 with a nudge of 2^30 or 1 - 2^30 by sign; that is
** floor((ab + 2^30) / 2^31) for both signs (q8_vec.h), an add and a shift
** where a 32-bit core would otherwise fix up a 64-bit division's sign. */
static inline int32_t sm2c_rt__rdhm(int32_t a, int32_t b)
{
    if (a == INT32_MIN && b == INT32_MIN)
        return INT32_MAX;
    const int64_t ab = (int64_t)a * (int64_t)b;
    /* >> of a negative int64 is arithmetic on every compiler sm2c supports. */
    return (int32_t)((ab + (INT64_C(1) << 30)) >> 31);
}

/* gemmlowp's RoundingDivideByPOT: x / 2^e rounded half away from zero. */
static inline int32_t sm2c_rt__rdbpot(int32_t x, int32_t e)
{
    const int32_t mask = (int32_t)((UINT32_C(1) << e) - 1u);
    const int32_t remainder = x & mask;
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    /* >> of a negative int32 is arithmetic on every compiler sm2c supports. */
    return (x >> e) + (remainder > threshold ? 1 : 0);
}

/* TFLite's MultiplyByQuantizedMultiplier: x * m * 2^shift, m a Q31 value.  The
** left shift saturates to int32 (TFLite's would
** overflow there; the compiler keeps |shift| small enough that it does not). */
static inline int32_t sm2c_rt__requant(int32_t x, int32_t m, int32_t shift)
{
    int32_t lifted = x;
    if (shift > 0) {
        /* x * 2^s saturated, in 32 bits: the bounds are x's that fit. */
        const int32_t s = shift > 31 ? 31 : shift;
        lifted = x > (INT32_MAX >> s) ? INT32_MAX : x < (INT32_MIN >> s) ? INT32_MIN : (int32_t)((uint32_t)x << s);
    }
    const int32_t right = shift > 0 ? 0 : (shift < -31 ? 31 : -shift);
    return sm2c_rt__rdbpot(sm2c_rt__rdhm(lifted, m), right);
}

/* TFLite's reference int8 FullyConnected requantizes in double,
** round(x * real) with halves away from zero.  This is that rounding done
** once on x * m * 2^(shift - 31) in int64: m carries real to 2^-31 relative,
** so the two differ only when x * real lies within about 2^-23 of a half
** (|result| < 2^8).  shift in [-31, 30]. */
static inline int32_t sm2c_rt__requant_nearest(int32_t x, int32_t m, int32_t shift)
{
    const int32_t total = 31 - shift;
    const int64_t p = (int64_t)x * (int64_t)m, half = INT64_C(1) << (total - 1);
    const int64_t q = p >= 0 ? (p + half) >> total : -((half - p) >> total);
    return q > INT32_MAX ? INT32_MAX : q < INT32_MIN ? INT32_MIN : (int32_t)q;
}

/* roundf(v) (halves away from zero) as an int, NaN as 0, saturated at
** +-10^6 (a float outside int32, or NaN, is UB to convert): the truncation,
** then one away from zero when the dropped fraction, exact below 2^24, is at
** least a half.  No libm call: on a Cortex-M4F roundf is a library routine. */
static inline int32_t sm2c_rt__round_q(float v)
{
    if (v != v)
        return 0;
    if (v > 1e6f || v < -1e6f)
        return v > 0 ? 1000000 : -1000000;
    const int32_t t = (int32_t)v;
    const float f = v - (float)t;
    return t + (f >= 0.5f) - (f <= -0.5f);
}

/* round(v) halves away from zero in double, saturated to int32 (v finite):
** the truncation, then one away from zero when the dropped fraction, exact,
** is at least a half (the 16x8 FullyConnected's scaling, a zero point). */
static inline int32_t sm2c_rt__round_d(double v)
{
    if (v >= 2147483647.0)
        return INT32_MAX;
    if (v <= -2147483648.0)
        return INT32_MIN;
    const int32_t t = (int32_t)v;
    const double f = v - (double)t;
    return t + (f >= 0.5) - (f <= -0.5);
}

static inline int8_t sm2c_rt__clamp_s8(int32_t v, int32_t lo, int32_t hi)
{
    return (int8_t)(v < lo ? lo : v > hi ? hi : v);
}

#endif
