/* binary_f64.c: broadcasting binary ops on double (template in binary_impl.h). */
#include "binary_impl.h"

SM2C_RT__FLOAT_OPS(double, f64)
SM2C_RT__BINARY_COMMON(double, f64)
SM2C_RT__BINARY_KERNEL(div, double, f64, sm2c_rt__div_f64)
