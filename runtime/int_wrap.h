/*
** int_wrap.h: private to the runtime.  Integer results that wrap in two's
** complement as TensorFlow's do, without undefined behaviour or
** implementation-defined conversion: the arithmetic is done in the unsigned
** type UT (`0u +` keeps types narrower than int from promotion to signed
** int), and WRAP brings the bits back.
**
** SM2C_RT__SWRAP(T, UT, TMAX, u): the signed T whose two's complement bits are
** u; SM2C_RT__UWRAP: the same for an unsigned T (the bits themselves), so one
** template takes either.  SM2C_RT__WRAP_ADD and _MUL: a + b and a * b in T.
*/
#ifndef SM2C_RT_INT_WRAP_H
#define SM2C_RT_INT_WRAP_H

#define SM2C_RT__SWRAP(T, UT, TMAX, u)                                                 \
    ((UT)(u) <= (UT)(TMAX) ? (T)(UT)(u) : (T)((T)((UT)(u) - (UT)(TMAX) - 1u) - (TMAX) - 1))
#define SM2C_RT__UWRAP(T, UT, TMAX, u) ((T)(u))

#define SM2C_RT__WRAP_ADD(T, UT, TMAX, WRAP, a, b) WRAP(T, UT, TMAX, 0u + (UT)(a) + (UT)(b))
#define SM2C_RT__WRAP_MUL(T, UT, TMAX, WRAP, a, b) WRAP(T, UT, TMAX, (0u + (UT)(a)) * (UT)(b))

/* X(T, UT, TMIN, TMAX, sfx, WRAP, W) for each integer width, W the 64-bit type
** of T's signedness: int32 and int64, and the widths issue 33's dtype audit
** added. */
#define SM2C_RT__INTS_32_64(X)                                                         \
    X(int32_t, uint32_t, INT32_MIN, INT32_MAX, i32, SM2C_RT__SWRAP, int64_t)           \
    X(int64_t, uint64_t, INT64_MIN, INT64_MAX, i64, SM2C_RT__SWRAP, int64_t)
#define SM2C_RT__INTS_OTHER(X)                                                         \
    X(int8_t, uint8_t, INT8_MIN, INT8_MAX, i8, SM2C_RT__SWRAP, int64_t)                \
    X(int16_t, uint16_t, INT16_MIN, INT16_MAX, i16, SM2C_RT__SWRAP, int64_t)           \
    X(uint8_t, uint8_t, 0, UINT8_MAX, u8, SM2C_RT__UWRAP, uint64_t)                    \
    X(uint16_t, uint16_t, 0, UINT16_MAX, u16, SM2C_RT__UWRAP, uint64_t)                \
    X(uint32_t, uint32_t, 0, UINT32_MAX, u32, SM2C_RT__UWRAP, uint64_t)                \
    X(uint64_t, uint64_t, 0, UINT64_MAX, u64, SM2C_RT__UWRAP, uint64_t)

#endif
