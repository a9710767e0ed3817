/*
** mean_s8.c: int8 Mean over a contiguous run of axes (global average pooling
** is Mean over H and W), as TFLite's reference int8 Mean (QuantizedMeanOrSum)
** computes it.  The input is viewed as [outer, r, inner] and reduced over r:
**
**     y[o, i] = clamp(requant(sum_k x[o, k, i] - in_zp * r, mult, shift) + out_zp)
**
** mult and shift are in_scale / out_scale with 1 / r folded in, computed at
** compile time (quant_params.c).  |sum| <= 255 * r: int32 for r < 2^23.
*/
#include <stddef.h>
#include <stdint.h>

#include "q8_math.h"
#include "sm2c_rt.h"

void sm2c_rt_mean_s8(const int8_t *x, int8_t *y, int32_t outer, int32_t r, int32_t inner, int32_t in_zp,
                     int32_t out_zp, int32_t mult, int32_t shift)
{
    for (int32_t o = 0; o < outer; o++)
        for (int32_t i = 0; i < inner; i++) {
            const int8_t *xp = x + (ptrdiff_t)o * r * inner + i;
            int32_t sum = 0;
            for (int32_t k = 0; k < r; k++)
                sum += xp[(ptrdiff_t)k * inner];
            int32_t v = sm2c_rt__requant(sum - in_zp * r, mult, shift) + out_zp;
            y[(ptrdiff_t)o * inner + i] = sm2c_rt__clamp_s8(v, -128, 127);
        }
}
