/*
** q16_math.h: the int64 form of TFLite's MultiplyByQuantizedMultiplier
** (tensorflow/lite/kernels/internal/common.h), which its 16x8 kernels
** (int16 activations, int8 weights, int64 sums) requantize with: the Q31
** multiplier reduced to Q15 (rounded), then one rounding shift.  TFLite's
** single- and double-rounding builds share this form.
*/
#ifndef SM2C_RT_Q16_MATH_H
#define SM2C_RT_Q16_MATH_H

#include <stdint.h>

#include "q8_math.h"   /* sm2c_rt__round_d, and the int32 requantization the 16x8 Add and Mean use */
#include "rt_select.h" /* SM2C_RT_ALWAYS_INLINE: a call per output costs a Cortex-M more than the multiply */

/* x * m * 2^shift with m a Q31 value, for |x| < 2^47 (the compiler proves
** it) and shift in [-31, 7] (clamped here, where TFLite only asserts). */
static SM2C_RT_ALWAYS_INLINE int32_t sm2c_rt__requant64(int64_t x, int32_t m, int32_t shift)
{
    const int64_t reduced = m < 0x7FFF0000 ? ((int64_t)m + (1 << 15)) >> 16 : 0x7FFF;
    const int32_t s = shift < -31 ? -31 : shift > 7 ? 7 : shift;
    const int32_t total = 15 - s;   /* in [8, 46] */
    /* >> of a negative int64 is arithmetic on every compiler sm2c supports. */
    const int64_t r = (x * reduced + (INT64_C(1) << (total - 1))) >> total;
    return r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : (int32_t)r;
}

static inline int16_t sm2c_rt__clamp_s16(int32_t v, int32_t lo, int32_t hi)
{
    return (int16_t)(v < lo ? lo : v > hi ? hi : v);
}

#endif
