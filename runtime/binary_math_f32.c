/* binary_math_f32.c: float Pow, FloorDiv, TruncateDiv, FloorMod, Atan2, Xdivy, DivNoNan,
** Xlogy, Xlog1py and Mod/TruncateMod with TensorFlow's CPU semantics
** (templates in binary_math_impl.h and binary_impl.h). */
#include "binary_math_impl.h"

SM2C_RT__FLOAT_MATH_OPS(float, f32, f)
SM2C_RT__FLOAT_MATH_KERNELS(float, f32)
