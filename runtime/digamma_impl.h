/*
** digamma_impl.h: private to the runtime.  Eigen's digamma_impl<T> (Cephes
** psi) for gamma_f32.c and gamma_f64.c: the reflection formula for x <= 0
** (NaN at the poles 0, -1, -2, ... and at -Inf), the recurrence up to
** x >= 10, then log(x) - 1/(2x) minus POLY(x), the type's asymptotic
** polynomial in 1/x^2.  F is the suffix of T's libm functions.
*/
#ifndef SM2C_RT_DIGAMMA_IMPL_H
#define SM2C_RT_DIGAMMA_IMPL_H

#include <math.h>

#define SM2C_RT__DIGAMMA(T, sfx, F, POLY)                                              \
    static inline T sm2c_rt__digamma_##sfx(T x)                                        \
    {                                                                                  \
        const T pi = (T)3.14159265358979323846;                                        \
        T s = 0, nz = 0;                                                               \
        int negative = 0;                                                              \
        if (x <= (T)0) {                                                               \
            const T q = x;                                                             \
            T p = floor##F(q);                                                         \
            negative = 1;                                                              \
            if (p == q)                                                                \
                return (T)NAN;                                                         \
            /* Remove the zeros of tan(pi x) by subtracting the nearest integer. */    \
            nz = q - p;                                                                \
            if (nz != (T)0.5) {                                                        \
                if (nz > (T)0.5) {                                                     \
                    p += (T)1;                                                         \
                    nz = q - p;                                                        \
                }                                                                      \
                nz = pi / tan##F(pi * nz);                                             \
            } else {                                                                   \
                nz = 0;                                                                \
            }                                                                          \
            x = (T)1 - x;                                                              \
        }                                                                              \
        while (x < (T)10) {                                                            \
            s += (T)1 / x;                                                             \
            x += (T)1;                                                                 \
        }                                                                              \
        {                                                                              \
            const T y = log##F(x) - ((T)0.5 / x) - POLY(x) - s;                        \
            return negative ? y - nz : y;                                              \
        }                                                                              \
    }                                                                                  \
    SM2C_RT_DEFINE(digamma_##sfx, void sm2c_rt_digamma_##sfx(const T *x, T *y, int32_t n) \
    {                                                                                  \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++)                                                        \
            y[i] = sm2c_rt__digamma_##sfx(x[i]);                                       \
    })

#endif
