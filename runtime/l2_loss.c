/*
** l2_loss.c: L2Loss on float and double, y[0] = sum(x[i]^2 * 0.5),
** TensorFlow's (t.square() * 0.5).sum(), summed in order in the type.
*/
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SM2C_RT__L2_LOSS(T, sfx)                                                       \
    SM2C_RT_DEFINE(l2_loss_##sfx, void sm2c_rt_l2_loss_##sfx(const T *x, T *y, int32_t n) \
    {                                                                                  \
        T total = 0;                                                                   \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++)                                                        \
            total += x[i] * x[i] * (T)0.5;                                             \
        y[0] = total;                                                                  \
    })

SM2C_RT__L2_LOSS(float, f32)
SM2C_RT__L2_LOSS(double, f64)
