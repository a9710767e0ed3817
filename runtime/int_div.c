/*
** int_div.c: integer FloorDiv, FloorMod, TruncateDiv (Div) and TruncateMod
** (Mod) with TensorFlow's CPU semantics, checked (binary_impl.h).
**
** The results are the mathematical ones (floor or truncation of the exact
** quotient), as measured on TF 2.21: INT_MIN / -1 wraps to INT_MIN and its
** remainder is 0.  C's `/` and `%` overflow there (undefined behaviour), so
** b == -1 is handled apart.  A zero divisor makes the kernel return
** SM2C_RT_ERR_VALUE, where TensorFlow raises "Integer division by zero".
*/
#include "binary_impl.h"

#define SM2C_RT__INT_DIV_OPS(T, UT, TMAX, sfx)                                         \
    /* -a, wrapping: 0 - a computed unsigned. */                                   \
    static inline T sm2c_rt__negate_##sfx(T a)                                         \
    {                                                                                  \
        const UT v = (UT)(0u - (UT)a);                                                 \
        return v <= (UT)TMAX ? (T)v : (T)(v - (UT)TMAX - 1u) - TMAX - 1;               \
    }                                                                                  \
    static inline T sm2c_rt__truncate_div_##sfx(T a, T b)                              \
    {                                                                                  \
        return b == -1 ? sm2c_rt__negate_##sfx(a) : a / b;                             \
    }                                                                                  \
    static inline T sm2c_rt__truncate_mod_##sfx(T a, T b)                              \
    {                                                                                  \
        return b == -1 ? 0 : a % b;                                                    \
    }                                                                                  \
    /* One less than the truncated quotient when the remainder is nonzero and the  \
    ** operands' signs differ (then |quotient| < TMAX: no overflow). */            \
    static inline T sm2c_rt__floor_div_##sfx(T a, T b)                                 \
    {                                                                                  \
        const T q = sm2c_rt__truncate_div_##sfx(a, b);                                 \
        return sm2c_rt__truncate_mod_##sfx(a, b) != 0 && ((a < 0) != (b < 0)) ? q - 1 : q; \
    }                                                                                  \
    /* The remainder takes the divisor's sign; r and b then have opposite signs,   \
    ** so r + b cannot overflow. */                                                \
    static inline T sm2c_rt__floor_mod_##sfx(T a, T b)                                 \
    {                                                                                  \
        const T r = sm2c_rt__truncate_mod_##sfx(a, b);                                 \
        return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;                             \
    }                                                                                  \
    SM2C_RT__BINARY_KERNEL_CHECKED(floor_div, T, sfx, sm2c_rt__floor_div_##sfx)        \
    SM2C_RT__BINARY_KERNEL_CHECKED(floor_mod, T, sfx, sm2c_rt__floor_mod_##sfx)        \
    SM2C_RT__BINARY_KERNEL_CHECKED(truncate_div, T, sfx, sm2c_rt__truncate_div_##sfx)  \
    SM2C_RT__BINARY_KERNEL_CHECKED(truncate_mod, T, sfx, sm2c_rt__truncate_mod_##sfx)

SM2C_RT__INT_DIV_OPS(int32_t, uint32_t, INT32_MAX, i32)
SM2C_RT__INT_DIV_OPS(int64_t, uint64_t, INT64_MAX, i64)
SM2C_RT__INT_DIV_OPS(int8_t, uint8_t, INT8_MAX, i8)
SM2C_RT__INT_DIV_OPS(int16_t, uint16_t, INT16_MAX, i16)

/* Unsigned: floor and truncation agree, and nothing overflows.  `0u +` keeps
** the narrow types unsigned through promotion. */
#define SM2C_RT__UINT_DIV_OPS(T, sfx)                                                  \
    static inline T sm2c_rt__udiv_##sfx(T a, T b) { return (T)((0u + a) / b); }        \
    static inline T sm2c_rt__umod_##sfx(T a, T b) { return (T)((0u + a) % b); }        \
    SM2C_RT__BINARY_KERNEL_CHECKED(floor_div, T, sfx, sm2c_rt__udiv_##sfx)             \
    SM2C_RT__BINARY_KERNEL_CHECKED(floor_mod, T, sfx, sm2c_rt__umod_##sfx)             \
    SM2C_RT__BINARY_KERNEL_CHECKED(truncate_div, T, sfx, sm2c_rt__udiv_##sfx)          \
    SM2C_RT__BINARY_KERNEL_CHECKED(truncate_mod, T, sfx, sm2c_rt__umod_##sfx)

SM2C_RT__UINT_DIV_OPS(uint8_t, u8)
SM2C_RT__UINT_DIV_OPS(uint16_t, u16)
SM2C_RT__UINT_DIV_OPS(uint32_t, u32)
SM2C_RT__UINT_DIV_OPS(uint64_t, u64)
