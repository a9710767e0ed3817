/*
** cast.c: sm2c_rt_cast_<from>_<to> for every pair among f32 f64 i32 i64 u8 b.
**
** What TensorFlow 2.21 returns on x86-64 CPU (measured by running tf.cast on
** every special value, alone and inside 4099-element tensors):
**  - float -> int32: truncation toward zero when the result fits, otherwise
**    (NaN, +-Inf, out of range) INT32_MIN, the x86 "integer indefinite" value
**    of cvttss2si/cvttps2dq.
**  - float -> int64: likewise, INT64_MIN.
**  - float -> uint8: truncation when in [0, 256); NaN, +-Inf and |x| >= 2^31
**    give 0.  Elsewhere TF disagrees with itself: Eigen's vectorised path
**    saturates (f32: truncate to int32, clamp to [0, 255]) while its scalar
**    tail keeps the low byte.  We implement the f32 vectorised rule for both
**    float types.
**  - float -> bool: x != 0, so NaN is true.  (TF runs with DAZ, so it also
**    maps subnormals to false; we follow IEEE and give true.)
**  - f64 -> f32: IEEE round to nearest, overflow to +-Inf, NaN stays NaN.
**  - int -> narrower int or uint8: two's complement wraparound (low bits).
**  - int -> float: round to nearest.
**  - bool input: any nonzero byte is true.
** No out-of-range float ever reaches a C conversion (reliability.md rule 6).
*/
#include <math.h>
#include <stdint.h>

#include "sm2c_rt.h"

/* Float to integer; x is a float or double widened exactly to double. */
static inline int32_t sm2c_rt__f_i32(double x)
{
    return x > -2147483649.0 && x < 2147483648.0 ? (int32_t)x : INT32_MIN;
}

static inline int64_t sm2c_rt__f_i64(double x)
{
    return x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? (int64_t)x : INT64_MIN;
}

static inline uint8_t sm2c_rt__f_u8(double x)
{
    const int32_t v = sm2c_rt__f_i32(x);
    return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

/* double to float: values at or beyond FLT_MAX + half an ulp (2^128 - 2^103)
** round to Inf; converting them in C would be undefined outside Annex F. */
static inline float sm2c_rt__d_f32(double x)
{
    if (x >= 0x1.ffffffp127)
        return INFINITY;
    if (x <= -0x1.ffffffp127)
        return -INFINITY;
    return (float)x;
}

/* int64 to int32 by wraparound, without implementation-defined conversion. */
static inline int32_t sm2c_rt__wrap_i32(int64_t x)
{
    const uint32_t v = (uint32_t)x;
    return v <= (uint32_t)INT32_MAX ? (int32_t)v : (int32_t)(v - (uint32_t)INT32_MAX - 1u) - INT32_MAX - 1;
}

#define SM2C_RT__CAST_DEF(F, TF, T, TT, EXPR)                                          \
    void sm2c_rt_cast_##F##_##T(const TF *x, TT *y, int32_t n)                         \
    {                                                                                  \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++) {                                                      \
            const TF v = x[i];                                                         \
            y[i] = (EXPR);                                                             \
        }                                                                              \
    }

/* from float */
SM2C_RT__CAST_DEF(f32, float, f32, float, v)
SM2C_RT__CAST_DEF(f32, float, f64, double, (double)v)
SM2C_RT__CAST_DEF(f32, float, i32, int32_t, sm2c_rt__f_i32(v))
SM2C_RT__CAST_DEF(f32, float, i64, int64_t, sm2c_rt__f_i64(v))
SM2C_RT__CAST_DEF(f32, float, u8, uint8_t, sm2c_rt__f_u8(v))
SM2C_RT__CAST_DEF(f32, float, b, uint8_t, (uint8_t)(v != 0.0f))

/* from double */
SM2C_RT__CAST_DEF(f64, double, f32, float, sm2c_rt__d_f32(v))
SM2C_RT__CAST_DEF(f64, double, f64, double, v)
SM2C_RT__CAST_DEF(f64, double, i32, int32_t, sm2c_rt__f_i32(v))
SM2C_RT__CAST_DEF(f64, double, i64, int64_t, sm2c_rt__f_i64(v))
SM2C_RT__CAST_DEF(f64, double, u8, uint8_t, sm2c_rt__f_u8(v))
SM2C_RT__CAST_DEF(f64, double, b, uint8_t, (uint8_t)(v != 0.0))

/* from int32 */
SM2C_RT__CAST_DEF(i32, int32_t, f32, float, (float)v)
SM2C_RT__CAST_DEF(i32, int32_t, f64, double, (double)v)
SM2C_RT__CAST_DEF(i32, int32_t, i32, int32_t, v)
SM2C_RT__CAST_DEF(i32, int32_t, i64, int64_t, (int64_t)v)
SM2C_RT__CAST_DEF(i32, int32_t, u8, uint8_t, (uint8_t)v)
SM2C_RT__CAST_DEF(i32, int32_t, b, uint8_t, (uint8_t)(v != 0))

/* from int64 */
SM2C_RT__CAST_DEF(i64, int64_t, f32, float, (float)v)
SM2C_RT__CAST_DEF(i64, int64_t, f64, double, (double)v)
SM2C_RT__CAST_DEF(i64, int64_t, i32, int32_t, sm2c_rt__wrap_i32(v))
SM2C_RT__CAST_DEF(i64, int64_t, i64, int64_t, v)
SM2C_RT__CAST_DEF(i64, int64_t, u8, uint8_t, (uint8_t)v)
SM2C_RT__CAST_DEF(i64, int64_t, b, uint8_t, (uint8_t)(v != 0))

/* from uint8 */
SM2C_RT__CAST_DEF(u8, uint8_t, f32, float, (float)v)
SM2C_RT__CAST_DEF(u8, uint8_t, f64, double, (double)v)
SM2C_RT__CAST_DEF(u8, uint8_t, i32, int32_t, (int32_t)v)
SM2C_RT__CAST_DEF(u8, uint8_t, i64, int64_t, (int64_t)v)
SM2C_RT__CAST_DEF(u8, uint8_t, u8, uint8_t, v)
SM2C_RT__CAST_DEF(u8, uint8_t, b, uint8_t, (uint8_t)(v != 0))

/* from bool (uint8_t; nonzero is true) */
SM2C_RT__CAST_DEF(b, uint8_t, f32, float, v != 0 ? 1.0f : 0.0f)
SM2C_RT__CAST_DEF(b, uint8_t, f64, double, v != 0 ? 1.0 : 0.0)
SM2C_RT__CAST_DEF(b, uint8_t, i32, int32_t, (int32_t)(v != 0))
SM2C_RT__CAST_DEF(b, uint8_t, i64, int64_t, (int64_t)(v != 0))
SM2C_RT__CAST_DEF(b, uint8_t, u8, uint8_t, (uint8_t)(v != 0))
SM2C_RT__CAST_DEF(b, uint8_t, b, uint8_t, (uint8_t)(v != 0))
