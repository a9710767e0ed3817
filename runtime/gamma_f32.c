/*
** gamma_f32.c: Lgamma and Digamma on float; y may equal x.
**
** Lgamma is libm's lgammaf (Eigen calls it too).  Digamma is Eigen's
** digamma_impl<float> (Cephes psi): the reflection formula for x <= 0 (NaN at
** the poles 0, -1, -2, ... and at -Inf), the recurrence up to x >= 10, then
** log(x) - 1/(2x) minus an asymptotic polynomial in 1/x^2.
*/
#include <math.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#if SM2C_RT_WANT(lgamma_f32)
void sm2c_rt_lgamma_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = lgammaf(x[i]);
}
#endif

/* Eigen's digamma_impl_maybe_poly<float>. */
static float sm2c_rt__digamma_poly(float s)
{
    if (s < 1.0e8f) {
        const float z = 1.0f / (s * s);
        return z * (((-4.16666666666666666667E-3f * z + 3.96825396825396825397E-3f) * z +
                     -8.33333333333333333333E-3f) * z + 8.33333333333333333333E-2f);
    }
    return 0.0f;
}

static inline float sm2c_rt__digamma(float x)
{
    const float pi = 3.14159265358979323846f;
    float s = 0.0f, nz = 0.0f;
    int negative = 0;

    if (x <= 0.0f) {
        const float q = x;
        float p = floorf(q);
        negative = 1;
        if (p == q)
            return NAN;
        /* Remove the zeros of tan(pi x) by subtracting the nearest integer. */
        nz = q - p;
        if (nz != 0.5f) {
            if (nz > 0.5f) {
                p += 1.0f;
                nz = q - p;
            }
            nz = pi / tanf(pi * nz);
        } else {
            nz = 0.0f;
        }
        x = 1.0f - x;
    }
    while (x < 10.0f) {
        s += 1.0f / x;
        x += 1.0f;
    }
    {
        float y = logf(x) - (0.5f / x) - sm2c_rt__digamma_poly(x) - s;
        return negative ? y - nz : y;
    }
}

#if SM2C_RT_WANT(digamma_f32)
void sm2c_rt_digamma_f32(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = sm2c_rt__digamma(x[i]);
}
#endif
