/* binary_math_f32.c: float Pow, FloorDiv, TruncateDiv, FloorMod, Atan2, Xdivy and DivNoNan
** with TensorFlow's CPU semantics (template in binary_impl.h). */
#include "binary_impl.h"

static inline float sm2c_rt__pow_f32(float a, float b)
{
    return powf(a, b);
}

/* TF's google_floor_div_real: floor(x / y). */
static inline float sm2c_rt__floor_div_f32(float a, float b)
{
    return floorf(a / b);
}

/* TF's truncate_div on floats: trunc(x / y) (a zero divisor gives inf or NaN). */
static inline float sm2c_rt__truncate_div_f32(float a, float b)
{
    return truncf(a / b);
}

/* TF's google_floor_fmod: fmod, then moved to the divisor's sign. */
static inline float sm2c_rt__floor_mod_f32(float a, float b)
{
    const float t = fmodf(a, b);
    return t != 0.0f && ((b < 0.0f) != (t < 0.0f)) ? t + b : t;
}

static inline float sm2c_rt__atan2_f32(float a, float b)
{
    return atan2f(a, b);
}

/* x == 0 ? 0 : x / y. */
static inline float sm2c_rt__xdivy_f32(float a, float b)
{
    return a == 0.0f ? 0.0f : a / b;
}

/* y == 0 ? 0 : x / y. */
static inline float sm2c_rt__div_no_nan_f32(float a, float b)
{
    return b == 0.0f ? 0.0f : a / b;
}

SM2C_RT__BINARY_KERNEL(pow, float, f32, sm2c_rt__pow_f32)
SM2C_RT__BINARY_KERNEL(floor_div, float, f32, sm2c_rt__floor_div_f32)
SM2C_RT__BINARY_KERNEL(floor_mod, float, f32, sm2c_rt__floor_mod_f32)
SM2C_RT__BINARY_KERNEL(truncate_div, float, f32, sm2c_rt__truncate_div_f32)
SM2C_RT__BINARY_KERNEL(atan2, float, f32, sm2c_rt__atan2_f32)
SM2C_RT__BINARY_KERNEL(xdivy, float, f32, sm2c_rt__xdivy_f32)
SM2C_RT__BINARY_KERNEL(div_no_nan, float, f32, sm2c_rt__div_no_nan_f32)

/* ---- logic family: Xlogy, Xlog1py, Mod/TruncateMod ------------------------ */

/* TF's xlogy_op: x where x == 0 (NaN y included), else x * log(y).  The
** vectorised path returns x itself (so -0 stays -0); Eigen's scalar tail
** returns +0 there, TF is not consistent. */
static inline float sm2c_rt__xlogy_f32(float a, float b)
{
    return a == 0.0f ? a : a * logf(b);
}

static inline float sm2c_rt__xlog1py_f32(float a, float b)
{
    return a == 0.0f ? a : a * log1pf(b);
}

/* Float Mod and TruncateMod: C's fmod (the sign of the dividend). */
static inline float sm2c_rt__truncate_mod_f32(float a, float b)
{
    return fmodf(a, b);
}

SM2C_RT__BINARY_KERNEL(xlogy, float, f32, sm2c_rt__xlogy_f32)
SM2C_RT__BINARY_KERNEL(xlog1py, float, f32, sm2c_rt__xlog1py_f32)
SM2C_RT__BINARY_KERNEL(truncate_mod, float, f32, sm2c_rt__truncate_mod_f32)
