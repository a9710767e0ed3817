/*
** binary_math_impl.h: private to the runtime.  The float Pow, FloorDiv,
** TruncateDiv, FloorMod, Atan2, Xdivy, DivNoNan, Xlogy, Xlog1py and
** Mod/TruncateMod with TensorFlow's CPU semantics, for binary_math_f32.c and
** binary_math_f64.c: T the element type, sfx its kernel suffix, F the suffix
** of its libm functions (f for float, empty for double).
*/
#ifndef SM2C_RT_BINARY_MATH_IMPL_H
#define SM2C_RT_BINARY_MATH_IMPL_H

#include "binary_impl.h"

#define SM2C_RT__FLOAT_MATH_OPS(T, sfx, F)                                             \
    static inline T sm2c_rt__pow_##sfx(T a, T b) { return pow##F(a, b); }              \
    /* TF's google_floor_div_real: floor(x / y). */                                    \
    static inline T sm2c_rt__floor_div_##sfx(T a, T b) { return floor##F(a / b); }     \
    /* TF's truncate_div on floats: trunc(x / y) (a zero divisor gives inf or NaN). */ \
    static inline T sm2c_rt__truncate_div_##sfx(T a, T b) { return trunc##F(a / b); }   \
    /* TF's google_floor_fmod: fmod, then moved to the divisor's sign. */              \
    static inline T sm2c_rt__floor_mod_##sfx(T a, T b)                                 \
    {                                                                                  \
        const T t = fmod##F(a, b);                                                     \
        return t != (T)0 && ((b < (T)0) != (t < (T)0)) ? t + b : t;                    \
    }                                                                                  \
    static inline T sm2c_rt__atan2_##sfx(T a, T b) { return atan2##F(a, b); }          \
    /* x == 0 ? 0 : x / y. */                                                          \
    static inline T sm2c_rt__xdivy_##sfx(T a, T b) { return a == (T)0 ? (T)0 : a / b; } \
    /* y == 0 ? 0 : x / y. */                                                          \
    static inline T sm2c_rt__div_no_nan_##sfx(T a, T b) { return b == (T)0 ? (T)0 : a / b; } \
    /* TF's xlogy_op: x where x == 0 (NaN y included), else x * log(y).  The          \
    ** vectorised path returns x itself (so -0 stays -0); Eigen's scalar tail         \
    ** returns +0 there, TF is not consistent. */                                     \
    static inline T sm2c_rt__xlogy_##sfx(T a, T b) { return a == (T)0 ? a : a * log##F(b); } \
    static inline T sm2c_rt__xlog1py_##sfx(T a, T b) { return a == (T)0 ? a : a * log1p##F(b); } \
    /* Float Mod and TruncateMod: C's fmod (the sign of the dividend). */              \
    static inline T sm2c_rt__truncate_mod_##sfx(T a, T b) { return fmod##F(a, b); }

/* The kernels of the ops above. */
#define SM2C_RT__FLOAT_MATH_KERNELS(T, sfx)                                            \
    SM2C_RT__BINARY_KERNEL(pow, T, sfx, sm2c_rt__pow_##sfx)                             \
    SM2C_RT__BINARY_KERNEL(floor_div, T, sfx, sm2c_rt__floor_div_##sfx)                 \
    SM2C_RT__BINARY_KERNEL(floor_mod, T, sfx, sm2c_rt__floor_mod_##sfx)                 \
    SM2C_RT__BINARY_KERNEL(truncate_div, T, sfx, sm2c_rt__truncate_div_##sfx)           \
    SM2C_RT__BINARY_KERNEL(atan2, T, sfx, sm2c_rt__atan2_##sfx)                         \
    SM2C_RT__BINARY_KERNEL(xdivy, T, sfx, sm2c_rt__xdivy_##sfx)                         \
    SM2C_RT__BINARY_KERNEL(div_no_nan, T, sfx, sm2c_rt__div_no_nan_##sfx)               \
    SM2C_RT__BINARY_KERNEL(xlogy, T, sfx, sm2c_rt__xlogy_##sfx)                         \
    SM2C_RT__BINARY_KERNEL(xlog1py, T, sfx, sm2c_rt__xlog1py_##sfx)                     \
    SM2C_RT__BINARY_KERNEL(truncate_mod, T, sfx, sm2c_rt__truncate_mod_##sfx)

#endif
