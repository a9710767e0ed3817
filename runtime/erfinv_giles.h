/*
** erfinv_giles.h: private to the runtime.  Giles' single-precision erfinv
** approximation ("Approximating the erfinv function", 2010) evaluated in T
** (F the suffix of T's libm functions): x * p(w), w = -log((1 - x)(1 + x)),
** for x in (-1, 1).  erfinv_f32 returns it; erfinv_f64 refines it.
*/
#ifndef SM2C_RT_ERFINV_GILES_H
#define SM2C_RT_ERFINV_GILES_H

#include <math.h>

#define SM2C_RT__ERFINV_GILES(T, sfx, F)                                               \
    static T sm2c_rt__erfinv_giles_##sfx(T x)                                          \
    {                                                                                  \
        T w = -log##F(((T)1 - x) * ((T)1 + x)), p;                                     \
        if (w < (T)5) {                                                                \
            w -= (T)2.5;                                                               \
            p = (T)2.81022636e-08;                                                     \
            p = (T)3.43273939e-07 + p * w;                                             \
            p = (T)-3.5233877e-06 + p * w;                                             \
            p = (T)-4.39150654e-06 + p * w;                                            \
            p = (T)0.00021858087 + p * w;                                              \
            p = (T)-0.00125372503 + p * w;                                             \
            p = (T)-0.00417768164 + p * w;                                             \
            p = (T)0.246640727 + p * w;                                                \
            p = (T)1.50140941 + p * w;                                                 \
        } else {                                                                       \
            w = sqrt##F(w) - (T)3;                                                     \
            p = (T)-0.000200214257;                                                    \
            p = (T)0.000100950558 + p * w;                                             \
            p = (T)0.00134934322 + p * w;                                              \
            p = (T)-0.00367342844 + p * w;                                             \
            p = (T)0.00573950773 + p * w;                                              \
            p = (T)-0.0076224613 + p * w;                                              \
            p = (T)0.00943887047 + p * w;                                              \
            p = (T)1.00167406 + p * w;                                                 \
            p = (T)2.83297682 + p * w;                                                 \
        }                                                                              \
        return p * x;                                                                  \
    }

#endif
