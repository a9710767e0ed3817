/*
** cast.c: sm2c_rt_cast_<from>_<to> for every pair of f16 bf16 f32 f64 i8 i16
** i32 i64 u8 u16 u32 u64 b (169 kernels, made by the macros at the end).
**
** What TensorFlow 2.21 returns on x86-64 CPU (measured by running tf.cast on
** special values, alone and inside 4099-element tensors):
**  - float -> int32: truncation toward zero when the result fits, otherwise
**    (NaN, +-Inf, out of range) INT32_MIN, the x86 "integer indefinite" value
**    of cvttss2si/cvttps2dq.  float -> int64: likewise, INT64_MIN.
**  - float -> uint64: truncation in [0, 2^64); elsewhere the int64 rule's
**    result read as unsigned (NaN -> 2^63, -1.5 -> 2^64 - 1).
**  - float -> int8, int16, uint8, uint16, uint32 outside the target's range:
**    TF disagrees with itself.  Eigen's vectorised path saturates (truncate
**    to int32 as above, then clamp to the target's range; uint32: values in
**    (-2^31 - 1, 2^32) wrap, others give 2^31) while its scalar path (single
**    elements, tails) wraps the low bits.  We implement the vectorised rule,
**    which is what most of any tensor gets.  In range, both agree with us.
**    float16 and float64 -> uint8 have their own vectorised rule
**    (sm2c_rt__h_u8).
**  - float -> bool: x != 0, so NaN is true.  (TF runs with DAZ, so it maps
**    subnormals to false; we follow IEEE and give true.)
**  - float64 -> float32: IEEE round to nearest, overflow to +-Inf.
**  - anything -> float16/bfloat16: through float32 (Eigen's half(T) and
**    bfloat16(T) constructors do static_cast<float> first, so float64 ->
**    float16 rounds twice, as TF does), then round to nearest even
**    (half_impl.h).  TF's Truncate=true is not supported (the compiler
**    refuses it).
**  - int -> narrower int: two's complement wraparound (low bits).
**  - int -> float: one rounding to nearest (int64 -> float32 directly, not
**    through double).
**  - bool input: any nonzero byte is true.
** No out-of-range float ever reaches a C conversion (reliability.md rule 6),
** and no signed conversion is implementation-defined.
*/
#include <math.h>
#include <stdint.h>

#include "half_impl.h"
#include "sm2c_rt.h"
#include "rt_select.h"

/* ---- float (widened exactly to double) to each type -------------------------------- */

static inline int32_t sm2c_rt__f_i32(double x)
{
    return x > -2147483649.0 && x < 2147483648.0 ? (int32_t)x : INT32_MIN;
}

static inline int64_t sm2c_rt__f_i64(double x)
{
    return x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? (int64_t)x : INT64_MIN;
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

/* The vectorised saturating rule for narrow targets: int32 truncation, clamped. */
static inline int32_t sm2c_rt__f_sat(double x, int32_t lo, int32_t hi)
{
    const int32_t v = sm2c_rt__f_i32(x);
    return v < lo ? lo : v > hi ? hi : v;
}

static inline uint32_t sm2c_rt__f_u32(double x)
{
    return x > -2147483649.0 && x < 4294967296.0 ? (uint32_t)sm2c_rt__f_i64(x) : 0x80000000u;
}

static inline uint64_t sm2c_rt__f_u64(double x)
{
    if (x >= 9223372036854775808.0 && x < 18446744073709551616.0)
        return (uint64_t)x;
    return (uint64_t)sm2c_rt__f_i64(x);
}

/* float16 and float64 -> uint8: TF's vectorised path clamps the int32
** truncation to [0, 65535], then reads it as int16 before saturating to uint8
** (measured: 300 and 32767.5 -> 255, but 32768 and Inf -> 0).  Other targets
** treat these sources as F. */
static inline uint8_t sm2c_rt__h_u8(double x)
{
    const int32_t v = sm2c_rt__f_i32(x);
    return v < 0 || v >= 32768 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

/* ---- integers, by their low bits (two's complement) ------------------------------ */

static inline int8_t sm2c_rt__s8(uint64_t u)
{
    const uint8_t b = (uint8_t)u;
    return b < 128u ? (int8_t)b : (int8_t)((int)b - 256);
}

static inline int16_t sm2c_rt__s16(uint64_t u)
{
    const uint16_t b = (uint16_t)u;
    return b < 32768u ? (int16_t)b : (int16_t)((int32_t)b - 65536);
}

static inline int32_t sm2c_rt__s32(uint64_t u)
{
    const uint32_t b = (uint32_t)u;
    return b <= (uint32_t)INT32_MAX ? (int32_t)b : -(int32_t)(~b) - 1;
}

static inline int64_t sm2c_rt__s64(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

/* ---- conversions by source kind: F float (as double), S signed, U unsigned ------------
** sm2c_rt__to_<dst>_<kind>(v); kind H is a float16 or float64 source, which
** differs from F only for uint8 (sm2c_rt__h_u8).  Signed sources go to integers through their
** unsigned image (well defined), and to floats directly (one rounding). */
#define SM2C_RT__TO(dst, TT, F_EXPR, S_EXPR, U_EXPR)                                    \
    SM2C_RT__TO_H(dst, TT, F_EXPR, F_EXPR, S_EXPR, U_EXPR)
#define SM2C_RT__TO_H(dst, TT, F_EXPR, H_EXPR, S_EXPR, U_EXPR)                           \
    static inline TT sm2c_rt__to_##dst##_F(double v) { return (F_EXPR); }               \
    static inline TT sm2c_rt__to_##dst##_H(double v) { return (H_EXPR); }               \
    static inline TT sm2c_rt__to_##dst##_S(int64_t v) { return (S_EXPR); }              \
    static inline TT sm2c_rt__to_##dst##_U(uint64_t v) { return (U_EXPR); }

SM2C_RT__TO(f16, uint16_t, sm2c_rt__f32_to_f16(sm2c_rt__d_f32(v)), sm2c_rt__f32_to_f16((float)v),
            sm2c_rt__f32_to_f16((float)v))
SM2C_RT__TO(bf16, uint16_t, sm2c_rt__f32_to_bf16(sm2c_rt__d_f32(v)), sm2c_rt__f32_to_bf16((float)v),
            sm2c_rt__f32_to_bf16((float)v))
SM2C_RT__TO(f32, float, sm2c_rt__d_f32(v), (float)v, (float)v)
SM2C_RT__TO(f64, double, v, (double)v, (double)v)
SM2C_RT__TO(i8, int8_t, (int8_t)sm2c_rt__f_sat(v, -128, 127), sm2c_rt__s8((uint64_t)v), sm2c_rt__s8(v))
SM2C_RT__TO(i16, int16_t, (int16_t)sm2c_rt__f_sat(v, -32768, 32767), sm2c_rt__s16((uint64_t)v),
            sm2c_rt__s16(v))
SM2C_RT__TO(i32, int32_t, sm2c_rt__f_i32(v), sm2c_rt__s32((uint64_t)v), sm2c_rt__s32(v))
SM2C_RT__TO(i64, int64_t, sm2c_rt__f_i64(v), v, sm2c_rt__s64(v))
SM2C_RT__TO_H(u8, uint8_t, (uint8_t)sm2c_rt__f_sat(v, 0, 255), sm2c_rt__h_u8(v), (uint8_t)v, (uint8_t)v)
SM2C_RT__TO(u16, uint16_t, (uint16_t)sm2c_rt__f_sat(v, 0, 65535), (uint16_t)v, (uint16_t)v)
SM2C_RT__TO(u32, uint32_t, sm2c_rt__f_u32(v), (uint32_t)v, (uint32_t)v)
SM2C_RT__TO(u64, uint64_t, sm2c_rt__f_u64(v), (uint64_t)v, v)
SM2C_RT__TO(b, uint8_t, (uint8_t)(v != 0.0), (uint8_t)(v != 0), (uint8_t)(v != 0))

/* ---- the kernels ----------------------------------------------------------------- */

#define SM2C_RT__CAST_DEF(F, TF, T, TT, KIND, LOAD)                                     \
    SM2C_RT_DEFINE(cast_##F##_##T, void sm2c_rt_cast_##F##_##T(const TF *x, TT *y, int32_t n)                         \
    {                                                                                  \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++) {                                                      \
            const TF v = x[i];                                                         \
            y[i] = sm2c_rt__to_##T##_##KIND(LOAD);                                     \
        }                                                                              \
    })

#define SM2C_RT__CAST_FROM(F, TF, KIND, LOAD)                                           \
    SM2C_RT__CAST_DEF(F, TF, f16, uint16_t, KIND, LOAD)                                 \
    SM2C_RT__CAST_DEF(F, TF, bf16, uint16_t, KIND, LOAD)                                \
    SM2C_RT__CAST_DEF(F, TF, f32, float, KIND, LOAD)                                    \
    SM2C_RT__CAST_DEF(F, TF, f64, double, KIND, LOAD)                                   \
    SM2C_RT__CAST_DEF(F, TF, i8, int8_t, KIND, LOAD)                                    \
    SM2C_RT__CAST_DEF(F, TF, i16, int16_t, KIND, LOAD)                                  \
    SM2C_RT__CAST_DEF(F, TF, i32, int32_t, KIND, LOAD)                                  \
    SM2C_RT__CAST_DEF(F, TF, i64, int64_t, KIND, LOAD)                                  \
    SM2C_RT__CAST_DEF(F, TF, u8, uint8_t, KIND, LOAD)                                   \
    SM2C_RT__CAST_DEF(F, TF, u16, uint16_t, KIND, LOAD)                                 \
    SM2C_RT__CAST_DEF(F, TF, u32, uint32_t, KIND, LOAD)                                 \
    SM2C_RT__CAST_DEF(F, TF, u64, uint64_t, KIND, LOAD)                                 \
    SM2C_RT__CAST_DEF(F, TF, b, uint8_t, KIND, LOAD)

SM2C_RT__CAST_FROM(f16, uint16_t, H, (double)sm2c_rt__f16_to_f32(v))
SM2C_RT__CAST_FROM(bf16, uint16_t, F, (double)sm2c_rt__bf16_to_f32(v))
SM2C_RT__CAST_FROM(f32, float, F, (double)v)
SM2C_RT__CAST_FROM(f64, double, H, v)
SM2C_RT__CAST_FROM(i8, int8_t, S, (int64_t)v)
SM2C_RT__CAST_FROM(i16, int16_t, S, (int64_t)v)
SM2C_RT__CAST_FROM(i32, int32_t, S, (int64_t)v)
SM2C_RT__CAST_FROM(i64, int64_t, S, v)
SM2C_RT__CAST_FROM(u8, uint8_t, U, (uint64_t)v)
SM2C_RT__CAST_FROM(u16, uint16_t, U, (uint64_t)v)
SM2C_RT__CAST_FROM(u32, uint32_t, U, (uint64_t)v)
SM2C_RT__CAST_FROM(u64, uint64_t, U, v)
SM2C_RT__CAST_FROM(b, uint8_t, U, (uint64_t)(v != 0))
