/* binary_math_f64.c: the ops of binary_math_f32.c in double, and TruncateDiv
** (trunc(x / y)), with TensorFlow's CPU semantics (binary_math_impl.h). */
#include "binary_math_impl.h"

SM2C_RT__FLOAT_MATH_OPS(double, f64, )
SM2C_RT__FLOAT_MATH_KERNELS(double, f64)

/* TF's truncate_div_real: trunc(x / y). */
static inline double sm2c_rt__truncate_div_f64(double a, double b)
{
    return trunc(a / b);
}

SM2C_RT__BINARY_KERNEL(truncate_div, double, f64, sm2c_rt__truncate_div_f64)
