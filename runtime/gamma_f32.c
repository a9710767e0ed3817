/*
** gamma_f32.c: Lgamma and Digamma on float; y may equal x.
**
** Lgamma is libm's lgammaf (Eigen calls it too).  Digamma is Eigen's
** digamma_impl<float> (digamma_impl.h).
*/
#include <math.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "digamma_impl.h"

#if SM2C_RT_WANT(lgamma_f32)
void sm2c_rt_lgamma_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = lgammaf(x[i]);
}
#endif

/* Eigen's digamma_impl_maybe_poly<float>. */
static inline float sm2c_rt__digamma_poly_f32(float s)
{
    if (s < 1.0e8f) {
        const float z = 1.0f / (s * s);
        return z * (((-4.16666666666666666667E-3f * z + 3.96825396825396825397E-3f) * z +
                     -8.33333333333333333333E-3f) * z + 8.33333333333333333333E-2f);
    }
    return 0.0f;
}

SM2C_RT__DIGAMMA(float, f32, f, sm2c_rt__digamma_poly_f32)
