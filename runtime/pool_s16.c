/*
** pool_s16.c: MaxPool, AvgPool and Mean of TFLite's 16x8 scheme (--quantize
** int16x8), as its reference int16 kernels compute them.  Pools keep their
** input's scale (the compiler gives the output the input's): the max of the
** window's valid cells; their sum divided by their number, rounded half away
** from zero.  Mean over a run of axes, x viewed as [outer, r, inner]:
** y = clamp(requant(sum, mult, shift)), in_scale / out_scale / r as (mult,
** shift), QuantizedMeanOrSum's; |sum| <= 32768 * r fits int32 (the
** compiler keeps r < 2^16).  Window parameters p[] as for pool_f32.c.
*/
#include <stddef.h>
#include <stdint.h>

#include "q16_math.h"
#include "q8_math.h"
#include "rt_select.h"
#include "sm2c_rt.h"

#if SM2C_RT_WANT(max_pool_s16) || SM2C_RT_WANT(avg_pool_s16)
static void pool_s16(const int16_t *x, int16_t *y, const int32_t *p, int avg)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < p[SM2C_RT_WIN_OH]; oh++)
            for (int32_t ow = 0; ow < p[SM2C_RT_WIN_OW]; ow++)
                for (int32_t c = 0; c < C; c++) {
                    int32_t acc = avg ? 0 : -32768, count = 0;
                    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++) {
                        const int32_t ih = oh * p[SM2C_RT_WIN_SH] + kh * p[SM2C_RT_WIN_DH] - p[SM2C_RT_WIN_PT];
                        for (int32_t kw = 0; (uint32_t)ih < (uint32_t)H && kw < p[SM2C_RT_WIN_KW]; kw++) {
                            const int32_t iw = ow * p[SM2C_RT_WIN_SW] + kw * p[SM2C_RT_WIN_DW] - p[SM2C_RT_WIN_PL];
                            if ((uint32_t)iw >= (uint32_t)W)
                                continue;
                            const int32_t v = x[(((ptrdiff_t)n * H + ih) * W + iw) * C + c];
                            acc = avg ? acc + v : v > acc ? v : acc;
                            count++;
                        }
                    }
                    if (avg && count > 0)
                        acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
                    y[(((ptrdiff_t)n * p[SM2C_RT_WIN_OH] + oh) * p[SM2C_RT_WIN_OW] + ow) * C + c] =
                        (int16_t)(count > 0 ? acc : 0);
                }
}
#endif

#if SM2C_RT_WANT(max_pool_s16)
void sm2c_rt_max_pool_s16(const int16_t *x, int16_t *y, const int32_t *p)
{
    pool_s16(x, y, p, 0);
}
#endif

#if SM2C_RT_WANT(avg_pool_s16)
void sm2c_rt_avg_pool_s16(const int16_t *x, int16_t *y, const int32_t *p)
{
    pool_s16(x, y, p, 1);
}
#endif

#if SM2C_RT_WANT(mean_s16)
void sm2c_rt_mean_s16(const int16_t *x, int16_t *y, int32_t outer, int32_t r, int32_t inner, int32_t mult,
                      int32_t shift)
{
    for (int32_t o = 0; o < outer; o++)
        for (int32_t i = 0; i < inner; i++) {
            const int16_t *xo = x + (ptrdiff_t)o * r * inner + i;
            int32_t sum = 0;
            for (int32_t k = 0; k < r; k++)
                sum += xo[(ptrdiff_t)k * inner];
            y[(ptrdiff_t)o * inner + i] = sm2c_rt__clamp_s16(sm2c_rt__requant(sum, mult, shift), -32768, 32767);
        }
}
#endif
