/*
** unary_f64.c: elementwise double activations and math with TensorFlow's CPU
** semantics (as unary_f32.c and unary_math_f32.c, in double); y may equal x.
** Transcendentals use libm; TF uses Eigen's or std:: double functions, which
** agree within a few ulp.
*/
#include <math.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SM2C_RT__UNARY_F64(name, expr)                                  \
    SM2C_RT_DEFINE(name##_f64, void sm2c_rt_##name##_f64(const double *x, double *y, int32_t n)    \
    {                                                                   \
        int32_t i;                                                      \
        for (i = 0; i < n; i++) {                                       \
            const double v = x[i];                                      \
            y[i] = (expr);                                              \
        }                                                               \
    })

SM2C_RT__UNARY_F64(relu, isnan(v) ? v : v > 0.0 ? v : 0.0)
SM2C_RT__UNARY_F64(relu6, isnan(v) ? v : v > 0.0 ? (v < 6.0 ? v : 6.0) : 0.0)
SM2C_RT__UNARY_F64(tanh, tanh(v))
SM2C_RT__UNARY_F64(neg, -v)
SM2C_RT__UNARY_F64(abs, fabs(v))
SM2C_RT__UNARY_F64(square, v * v)
SM2C_RT__UNARY_F64(sqrt, sqrt(v))
SM2C_RT__UNARY_F64(rsqrt, 1.0 / sqrt(v))
SM2C_RT__UNARY_F64(exp, exp(v))
SM2C_RT__UNARY_F64(log, log(v))
SM2C_RT__UNARY_F64(floor, floor(v))
SM2C_RT__UNARY_F64(ceil, ceil(v))
/* Round and Rint are half to even: rint under the default rounding mode. */
SM2C_RT__UNARY_F64(round, rint(v))
SM2C_RT__UNARY_F64(rint, rint(v))
SM2C_RT__UNARY_F64(sin, sin(v))
SM2C_RT__UNARY_F64(cos, cos(v))
SM2C_RT__UNARY_F64(tan, tan(v))
SM2C_RT__UNARY_F64(asin, asin(v))
SM2C_RT__UNARY_F64(acos, acos(v))
SM2C_RT__UNARY_F64(atan, atan(v))
SM2C_RT__UNARY_F64(sinh, sinh(v))
SM2C_RT__UNARY_F64(cosh, cosh(v))
SM2C_RT__UNARY_F64(asinh, asinh(v))
SM2C_RT__UNARY_F64(acosh, acosh(v))
SM2C_RT__UNARY_F64(atanh, atanh(v))
SM2C_RT__UNARY_F64(erf, erf(v))
SM2C_RT__UNARY_F64(erfc, erfc(v))
SM2C_RT__UNARY_F64(expm1, expm1(v))
SM2C_RT__UNARY_F64(log1p, log1p(v))
SM2C_RT__UNARY_F64(sign, isnan(v) ? v : v > 0.0 ? 1.0 : v < 0.0 ? -1.0 : 0.0)
SM2C_RT__UNARY_F64(reciprocal, 1.0 / v)
SM2C_RT__UNARY_F64(softsign, v / (1.0 + fabs(v)))
SM2C_RT__UNARY_F64(elu, v < 0.0 ? expm1(v) : v)
SM2C_RT__UNARY_F64(selu, v < 0.0 ? 1.7580993408473768599402175208123 * expm1(v)
                                 : 1.0507009873554804934193349852946 * v)
