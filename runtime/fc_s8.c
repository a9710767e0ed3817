/*
** fc_s8.c: int8 fully connected (MatMul with a constant [K, N] filter under
** --quantize int8), as TFLite's reference FullyConnectedPerChannel computes it.
** The compiler stores the filter transposed, [N, K], so each output is one
** contiguous dot product:
**
**     y[r, o] = clamp(nearest(bias[o] + sum_k w[o, k] * (x[r, k] - in_zp),
**                             mult[o], shift[o]) + out_zp, act_min, act_max)
**
** TFLite's reference kernel rounds acc * real once (in double), unlike its
** convolutions' two roundings: nearest() is that single rounding in integers
** (q8_math.h).
*/
#include <stddef.h>
#include <stdint.h>

#include "q8_math.h"
#include "simd_f32.h" /* SM2C_RT_VECTORISE: gcc -O2 then vectorises the dot products */
#include "sm2c_rt.h"

SM2C_RT_VECTORISE void sm2c_rt_fully_connected_s8(const int8_t *x, const int8_t *w,
                                                  const int32_t *bias, int8_t *y, int32_t rows,
                                                  int32_t k, int32_t n, const int32_t *mult,
                                                  const int32_t *shift, int32_t in_zp,
                                                  int32_t out_zp, int32_t act_min, int32_t act_max)
{
    for (int32_t r = 0; r < rows; r++) {
        const int8_t *xr = x + (ptrdiff_t)r * k;
        for (int32_t o = 0; o < n; o++) {
            const int8_t *wo = w + (ptrdiff_t)o * k;
            int32_t acc = bias ? bias[o] : 0;
            for (int32_t i = 0; i < k; i++)
                acc += (int32_t)wo[i] * ((int32_t)xr[i] - in_zp);
            acc = sm2c_rt__requant_nearest(acc, mult[o], shift[o]) + out_zp;
            y[(ptrdiff_t)r * n + o] = sm2c_rt__clamp_s8(acc, act_min, act_max);
        }
    }
}
