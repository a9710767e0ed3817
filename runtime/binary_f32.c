/* binary_f32.c: broadcasting binary ops on float (template in binary_impl.h). */
#include "binary_impl.h"

SM2C_RT__FLOAT_OPS(float, f32)

/* TF's SquaredDifference: (a - b) * (a - b), so Inf - Inf gives NaN. */
static inline float sm2c_rt__squared_difference_f32(float a, float b)
{
    const float d = a - b;
    return d * d;
}

SM2C_RT__BINARY_COMMON(float, f32)
SM2C_RT__BINARY_KERNEL(div, float, f32, sm2c_rt__div_f32)
SM2C_RT__BINARY_KERNEL(squared_difference, float, f32, sm2c_rt__squared_difference_f32)
