/*
** bits.c: BitwiseAnd, BitwiseOr, BitwiseXor, LeftShift, RightShift (binary,
** broadcasting, binary_impl.h) and Invert on every integer width.
**
** Shifts follow TensorFlow's CPU kernels (measured on TF 2.21): the count is
** clamped to [0, bits - 1], so a count of 40 on int32 shifts by 31 and a
** negative count by 0.  LeftShift keeps the low bits (computed unsigned, no
** undefined behaviour on negative values); RightShift is arithmetic (sign
** filling), written without C's implementation-defined `>>` of negatives.
*/
#include "binary_impl.h"
#include "rt_select.h"

#define SM2C_RT__BITS_OPS(T, UT, TMAX, BITS, sfx)                                      \
    static inline T sm2c_rt__u2s_##sfx(UT v)                                           \
    {                                                                                  \
        return v <= (UT)TMAX ? (T)v : (T)(v - (UT)TMAX - 1u) - TMAX - 1;               \
    }                                                                                  \
    static inline T sm2c_rt__bitwise_and_##sfx(T a, T b)                               \
    {                                                                                  \
        return sm2c_rt__u2s_##sfx((UT)((UT)a & (UT)b));                                \
    }                                                                                  \
    static inline T sm2c_rt__bitwise_or_##sfx(T a, T b)                                \
    {                                                                                  \
        return sm2c_rt__u2s_##sfx((UT)((UT)a | (UT)b));                                \
    }                                                                                  \
    static inline T sm2c_rt__bitwise_xor_##sfx(T a, T b)                               \
    {                                                                                  \
        return sm2c_rt__u2s_##sfx((UT)((UT)a ^ (UT)b));                                \
    }                                                                                  \
    static inline int sm2c_rt__count_##sfx(T b)                                        \
    {                                                                                  \
        return b < 0 ? 0 : b > (BITS) - 1 ? (BITS) - 1 : (int)b;                       \
    }                                                                                  \
    static inline T sm2c_rt__left_shift_##sfx(T a, T b)                                \
    {                                                                                  \
        return sm2c_rt__u2s_##sfx((UT)((UT)a << sm2c_rt__count_##sfx(b)));             \
    }                                                                                  \
    static inline T sm2c_rt__right_shift_##sfx(T a, T b)                               \
    {                                                                                  \
        const int s = sm2c_rt__count_##sfx(b);                                         \
        return a < 0 ? (T)(-1 - (T)((UT)(-1 - a) >> s)) : (T)((UT)a >> s);             \
    }                                                                                  \
    SM2C_RT__BINARY_KERNEL(bitwise_and, T, sfx, sm2c_rt__bitwise_and_##sfx)            \
    SM2C_RT__BINARY_KERNEL(bitwise_or, T, sfx, sm2c_rt__bitwise_or_##sfx)              \
    SM2C_RT__BINARY_KERNEL(bitwise_xor, T, sfx, sm2c_rt__bitwise_xor_##sfx)            \
    SM2C_RT__BINARY_KERNEL(left_shift, T, sfx, sm2c_rt__left_shift_##sfx)              \
    SM2C_RT__BINARY_KERNEL(right_shift, T, sfx, sm2c_rt__right_shift_##sfx)            \
    SM2C_RT_DEFINE(invert_##sfx, void sm2c_rt_invert_##sfx(const T *x, T *y, int32_t n)                             \
    {                                                                                  \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++)                                                        \
            y[i] = (T)(-1 - x[i]);                                                     \
    })

SM2C_RT__BITS_OPS(int32_t, uint32_t, INT32_MAX, 32, i32)
SM2C_RT__BITS_OPS(int64_t, uint64_t, INT64_MAX, 64, i64)
SM2C_RT__BITS_OPS(int8_t, uint8_t, INT8_MAX, 8, i8)
SM2C_RT__BITS_OPS(int16_t, uint16_t, INT16_MAX, 16, i16)

/* Unsigned: the same clamped counts; RightShift is logical.  `0u +` keeps the
** narrow types unsigned through promotion. */
#define SM2C_RT__UBITS_OPS(T, BITS, sfx)                                               \
    static inline T sm2c_rt__bitwise_and_##sfx(T a, T b) { return (T)(a & b); }        \
    static inline T sm2c_rt__bitwise_or_##sfx(T a, T b) { return (T)(a | b); }         \
    static inline T sm2c_rt__bitwise_xor_##sfx(T a, T b) { return (T)(a ^ b); }        \
    static inline int sm2c_rt__count_##sfx(T b) { return b > (BITS) - 1 ? (BITS) - 1 : (int)b; } \
    static inline T sm2c_rt__left_shift_##sfx(T a, T b)                                \
    {                                                                                  \
        return (T)((0u + a) << sm2c_rt__count_##sfx(b));                               \
    }                                                                                  \
    static inline T sm2c_rt__right_shift_##sfx(T a, T b)                               \
    {                                                                                  \
        return (T)((0u + a) >> sm2c_rt__count_##sfx(b));                               \
    }                                                                                  \
    SM2C_RT__BINARY_KERNEL(bitwise_and, T, sfx, sm2c_rt__bitwise_and_##sfx)            \
    SM2C_RT__BINARY_KERNEL(bitwise_or, T, sfx, sm2c_rt__bitwise_or_##sfx)              \
    SM2C_RT__BINARY_KERNEL(bitwise_xor, T, sfx, sm2c_rt__bitwise_xor_##sfx)            \
    SM2C_RT__BINARY_KERNEL(left_shift, T, sfx, sm2c_rt__left_shift_##sfx)              \
    SM2C_RT__BINARY_KERNEL(right_shift, T, sfx, sm2c_rt__right_shift_##sfx)            \
    SM2C_RT_DEFINE(invert_##sfx, void sm2c_rt_invert_##sfx(const T *x, T *y, int32_t n) \
    {                                                                                  \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++)                                                        \
            y[i] = (T)~(0u + x[i]);                                                    \
    })

SM2C_RT__UBITS_OPS(uint8_t, 8, u8)
SM2C_RT__UBITS_OPS(uint16_t, 16, u16)
SM2C_RT__UBITS_OPS(uint32_t, 32, u32)
SM2C_RT__UBITS_OPS(uint64_t, 64, u64)
