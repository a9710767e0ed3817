/*
** unary_int.c: Neg, Abs, Sign and Square on integers with TensorFlow's CPU
** semantics (issue 33: T5's and DeBERTa's relative-position buckets negate
** int32 and int64); y may equal x.
**
** TensorFlow computes in the type itself and wraps in two's complement:
** -INT_MIN and |INT_MIN| are INT_MIN, a square wraps.  Here the arithmetic is
** done in the unsigned type UT (`0u +` keeps narrow types from promotion to
** int), and the result is brought back without implementation-defined
** conversion, as binary_impl.h does.  Unsigned types have Square only, as in
** TensorFlow's registrations.
*/
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SM2C_RT__UNARY_INT(name, T, sfx, expr)                                         \
    SM2C_RT_DEFINE(name##_##sfx, void sm2c_rt_##name##_##sfx(const T *x, T *y, int32_t n) \
    {                                                                                  \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++) {                                                      \
            const T v = x[i];                                                          \
            y[i] = (expr);                                                             \
        }                                                                              \
    })

/* The signed value of the two's complement bits u. */
#define SM2C_RT__WRAP(T, UT, TMAX, u)                                                  \
    ((UT)(u) <= (UT)(TMAX) ? (T)(UT)(u) : (T)((T)((UT)(u) - (UT)(TMAX) - 1u) - (TMAX) - 1))

#define SM2C_RT__SIGNED_UNARY(T, UT, TMAX, sfx)                                        \
    SM2C_RT__UNARY_INT(neg, T, sfx, SM2C_RT__WRAP(T, UT, TMAX, 0u - (UT)v))             \
    SM2C_RT__UNARY_INT(abs, T, sfx, v < 0 ? SM2C_RT__WRAP(T, UT, TMAX, 0u - (UT)v) : v)  \
    SM2C_RT__UNARY_INT(sign, T, sfx, (T)((v > 0) - (v < 0)))                           \
    SM2C_RT__UNARY_INT(square, T, sfx, SM2C_RT__WRAP(T, UT, TMAX, (0u + (UT)v) * (UT)v))

SM2C_RT__SIGNED_UNARY(int8_t, uint8_t, INT8_MAX, i8)
SM2C_RT__SIGNED_UNARY(int16_t, uint16_t, INT16_MAX, i16)
SM2C_RT__SIGNED_UNARY(int32_t, uint32_t, INT32_MAX, i32)
SM2C_RT__SIGNED_UNARY(int64_t, uint64_t, INT64_MAX, i64)

SM2C_RT__UNARY_INT(square, uint8_t, u8, (uint8_t)((0u + v) * v))
SM2C_RT__UNARY_INT(square, uint16_t, u16, (uint16_t)((0u + v) * v))
SM2C_RT__UNARY_INT(square, uint32_t, u32, (uint32_t)((0u + v) * v))
SM2C_RT__UNARY_INT(square, uint64_t, u64, (uint64_t)((0u + v) * v))
