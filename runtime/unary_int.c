/*
** unary_int.c: Neg, Abs, Sign, Square, Relu, Relu6 and EuclideanNorm's square
** root on integers with TensorFlow's CPU semantics (issue 33: T5's and
** DeBERTa's relative-position buckets negate int32 and int64); y may equal x.
**
** TensorFlow computes in the type itself and wraps in two's complement:
** -INT_MIN and |INT_MIN| are INT_MIN, a square wraps.  Here the arithmetic is
** done in the unsigned type UT (`0u +` keeps narrow types from promotion to
** int), and the result is brought back without implementation-defined
** conversion (int_wrap.h).  Unsigned types have no Neg, Abs or Sign, as in
** TensorFlow's registrations.
*/
#include <math.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "int_wrap.h"
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

#define SM2C_RT__SIGNED_UNARY(T, UT, TMIN, TMAX, sfx, WRAP, W)                         \
    SM2C_RT__UNARY_INT(neg, T, sfx, SM2C_RT__SWRAP(T, UT, TMAX, 0u - (UT)v))           \
    SM2C_RT__UNARY_INT(abs, T, sfx, v < 0 ? SM2C_RT__SWRAP(T, UT, TMAX, 0u - (UT)v) : v) \
    SM2C_RT__UNARY_INT(sign, T, sfx, (T)((v > 0) - (v < 0)))

/* Every width: Square (wrapping), Relu, Relu6, and the square root
** EuclideanNorm takes of its sum of squares: TensorFlow's (T)std::sqrt(double),
** truncated.  A sum of squares that wrapped negative has a NaN root, which
** TensorFlow converts as x86-64 does (the 32-bit conversion's INT_MIN bits:
** 0 for int8 and int16, INT32_MIN and INT64_MIN for the wider ones); so does
** this, without the undefined conversion. */
#define SM2C_RT__ANY_INT_UNARY(T, UT, TMIN, TMAX, sfx, WRAP, W)                        \
    SM2C_RT__UNARY_INT(square, T, sfx, SM2C_RT__WRAP_MUL(T, UT, TMAX, WRAP, v, v))     \
    SM2C_RT__UNARY_INT(relu, T, sfx, v > 0 ? v : (T)0)                                 \
    SM2C_RT__UNARY_INT(relu6, T, sfx, v > 0 ? (v < 6 ? v : (T)6) : (T)0)               \
    SM2C_RT__UNARY_INT(sqrt, T, sfx, v > 0 ? (T)sqrt((double)v) : v == 0 ? (T)0        \
                                     : (T)(sizeof(T) >= 4 ? TMIN : 0))

SM2C_RT__INTS_32_64(SM2C_RT__SIGNED_UNARY)
SM2C_RT__INTS_OTHER(SM2C_RT__ANY_INT_UNARY)
SM2C_RT__INTS_32_64(SM2C_RT__ANY_INT_UNARY)
SM2C_RT__SIGNED_UNARY(int8_t, uint8_t, INT8_MIN, INT8_MAX, i8, SM2C_RT__SWRAP, int64_t)
SM2C_RT__SIGNED_UNARY(int16_t, uint16_t, INT16_MIN, INT16_MAX, i16, SM2C_RT__SWRAP, int64_t)
