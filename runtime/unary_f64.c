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
#include "erfinv_giles.h"

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
/* Eigen's scalar_logistic_op<double>: 1 / (1 + exp(-x)). */
SM2C_RT__UNARY_F64(sigmoid, 1.0 / (1.0 + exp(-v)))
/* TF's softplus_op.h with threshold = log(DBL_EPSILON) + 2: x above -threshold
** gives x, below threshold exp(x), otherwise log1p(exp(x)). */
SM2C_RT__UNARY_F64(softplus, v > 34.04365338911715 ? v : v < -34.04365338911715 ? exp(v) : log1p(exp(v)))
SM2C_RT__UNARY_F64(lgamma, lgamma(v))

#if SM2C_RT_WANT(leaky_relu_f64)
/* TF's LeakyRelu: x > 0 ? x : T(alpha) * x, alpha the float attr widened. */
void sm2c_rt_leaky_relu_f64(const double *x, double *y, int32_t n, float alpha)
{
    const double a = (double)alpha;
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = x[i] > 0.0 ? x[i] : x[i] * a;
}
#endif

#if SM2C_RT_WANT(erfinv_f64)
/* Refines p, near erfinv(t) for t in [0, 1) (Giles' start, erfinv_giles.h): Halley steps on erf(x) - t below
** 0.5 (cubic: 1e-7 becomes below double's rounding in two), Newton steps on
** log(erfc(x)) - log(1 - t) above it (1 - t is exact there, and the log keeps
** the steps good in the far tail, where the float start is rough). */
static double sm2c_rt__erfinv_refine(double p, double t)
{
    const double two_over_sqrt_pi = 1.1283791670955125739;
    int k;
    if (t < 0.5) {
        for (k = 0; k < 2; k++) {
            const double f = erf(p) - t;
            p -= f / (two_over_sqrt_pi * exp(-p * p) + p * f);
        }
        return p;
    }
    {
        const double target = log(1.0 - t);
        for (k = 0; k < 4; k++) {
            const double e = erfc(p);
            p += (log(e) - target) * e / (two_over_sqrt_pi * exp(-p * p));
        }
    }
    return p;
}

SM2C_RT__ERFINV_GILES(double, f64, )

/* The inverse of erf on (-1, 1), +-Inf at +-1, NaN outside.  TensorFlow
** computes it as ndtri(x / 2 + 1 / 2) / sqrt(2), so x / 2 + 1 / 2 is rounded
** first (which loses digits near +1, not near -1): this takes the same rounded
** z and inverts erf at 2z - 1 (exact) to double's rounding. */
void sm2c_rt_erfinv_f64(const double *x, double *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        const double v = x[i], z = 0.5 * v + 0.5;
        const double t = z >= 0.5 ? 2.0 * z - 1.0 : 1.0 - 2.0 * z;
        if (!(fabs(v) <= 1.0))
            y[i] = NAN;
        else if (t >= 1.0)
            y[i] = z >= 0.5 ? HUGE_VAL : -HUGE_VAL;
        else if (t == 0.0)
            y[i] = 0.0;
        else
            y[i] = z >= 0.5 ? sm2c_rt__erfinv_refine(sm2c_rt__erfinv_giles_f64(t), t)
                            : -sm2c_rt__erfinv_refine(sm2c_rt__erfinv_giles_f64(t), t);
    }
}
#endif
