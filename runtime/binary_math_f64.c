/* binary_math_f64.c: the ops of binary_math_f32.c in double, with TensorFlow's CPU semantics (binary_math_impl.h). */
#include "binary_math_impl.h"

SM2C_RT__FLOAT_MATH_OPS(double, f64, )
SM2C_RT__FLOAT_MATH_KERNELS(double, f64)
