/*
** unary_math_f32.c: float rounding, trigonometric, hyperbolic, error-function
** and activation kernels with TensorFlow's CPU (Eigen) semantics; y may equal x.
**
** Rounding ops are exact.  Erf is in unary_f32.c, vectorised.  Transcendentals use libm (correctly rounded or
** within a few ulp); TF uses Eigen's polynomials or std:: functions, which
** agree within reliability.md section 9's rtol 1e-5.
*/
#include <math.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "erfinv_giles.h"

#define SM2C_RT__UNARY_MAP(name, expr)                                   \
    SM2C_RT_DEFINE(name##_f32, void sm2c_rt_##name##_f32(const float *x, float *y, int32_t n)      \
    {                                                                   \
        int32_t i;                                                      \
        for (i = 0; i < n; i++) {                                       \
            const float v = x[i];                                       \
            y[i] = (expr);                                              \
        }                                                               \
    })

SM2C_RT__UNARY_MAP(floor, floorf(v))
SM2C_RT__UNARY_MAP(ceil, ceilf(v))
/* Round and Rint are both half to even in TF; rintf under the default
** round-to-nearest-even mode is exactly that. */
SM2C_RT__UNARY_MAP(round, rintf(v))
SM2C_RT__UNARY_MAP(rint, rintf(v))
SM2C_RT__UNARY_MAP(sin, sinf(v))
SM2C_RT__UNARY_MAP(cos, cosf(v))
SM2C_RT__UNARY_MAP(tan, tanf(v))
SM2C_RT__UNARY_MAP(asin, asinf(v))
SM2C_RT__UNARY_MAP(acos, acosf(v))
SM2C_RT__UNARY_MAP(atan, atanf(v))
SM2C_RT__UNARY_MAP(sinh, sinhf(v))
SM2C_RT__UNARY_MAP(cosh, coshf(v))
SM2C_RT__UNARY_MAP(asinh, asinhf(v))
SM2C_RT__UNARY_MAP(acosh, acoshf(v))
SM2C_RT__UNARY_MAP(atanh, atanhf(v))
SM2C_RT__UNARY_MAP(erfc, erfcf(v))
SM2C_RT__UNARY_MAP(expm1, expm1f(v))
SM2C_RT__UNARY_MAP(log1p, log1pf(v))
/* TF Sign: NaN stays NaN, +-0 gives +0.  TF runs with denormals-are-zero and
** returns a subnormal input as is; we give +-1 for it. */
SM2C_RT__UNARY_MAP(sign, isnan(v) ? v : v > 0.0f ? 1.0f : v < 0.0f ? -1.0f : 0.0f)
SM2C_RT__UNARY_MAP(reciprocal, 1.0f / v)
/* x / (1 + |x|). */
SM2C_RT__UNARY_MAP(softsign, v / (1.0f + fabsf(v)))
/* TF's Elu: x < 0 ? expm1(x) : x. */
SM2C_RT__UNARY_MAP(elu, v < 0.0f ? expm1f(v) : v)
/* TF's Selu: scale * alpha * expm1(x) below 0, scale * x otherwise. */
SM2C_RT__UNARY_MAP(selu, v < 0.0f ? 1.7580993408473768599402175208123f * expm1f(v)
                                  : 1.0507009873554804934193349852946f * v)

#if SM2C_RT_WANT(erfinv_f32)
/* The inverse of erf on (-1, 1), +-Inf at +-1, NaN outside: Giles' float
** approximation ("Approximating the erfinv function", 2010), in float (a
** Cortex-M4F has no double unit).  Within 1.2e-7 of TensorFlow on random
** inputs; near +-1 TensorFlow itself loses digits (1.2e-5 at 0.999), and a
** Newton step on erf would need double: in float its cancellation costs more
** than it gains there. */
SM2C_RT__ERFINV_GILES(float, f32, f)

void sm2c_rt_erfinv_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        const float v = x[i];
        if (!(fabsf(v) < 1.0f))
            y[i] = fabsf(v) == 1.0f ? v * HUGE_VALF : NAN;
        else
            y[i] = sm2c_rt__erfinv_giles_f32(v);
    }
}
#endif

#if SM2C_RT_WANT(softplus_f32)
/* TF's softplus_op.h: threshold = log(FLT_EPSILON) + 2; x > -threshold gives
** x, x < threshold gives exp(x), otherwise log1p(exp(x)). */
void sm2c_rt_softplus_f32(const float *x, float *y, int32_t n)
{
    const float threshold = -15.9423847f + 2.0f; /* logf(FLT_EPSILON) + 2 */
    int32_t i;
    for (i = 0; i < n; i++) {
        const float v = x[i];
        y[i] = v > -threshold ? v : v < threshold ? expf(v) : log1pf(expf(v));
    }
}
#endif

#if SM2C_RT_WANT(leaky_relu_f32)
/* TF's LeakyRelu: x > 0 ? x : alpha * x (NaN gives alpha * NaN, a NaN). */
void sm2c_rt_leaky_relu_f32(const float *x, float *y, int32_t n, float alpha)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        const float v = x[i];
        y[i] = v > 0.0f ? v : v * alpha;
    }
}
#endif
