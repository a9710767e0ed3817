/*
** pool_s8.c: int8 MaxPool and AvgPool, NHWC, window parameters p[] as for
** pool_f32.c.  Input and output share scale and zero point (the compiler
** gives the output the input's), as TFLite requires, so both work on the raw
** int8 values, as its reference kernels do: the max of the valid cells; the
** sum of the valid cells divided by their number, rounded half away from zero.
*/
#include <stddef.h>
#include <stdint.h>

#include "rt_select.h"
#include "sm2c_rt.h"

/* Whether input cell (ih, iw) exists; its offset in *at. */
static inline int sm2c_rt__pool_cell(const int32_t *p, int32_t n, int32_t oh, int32_t ow, int32_t kh,
                                     int32_t kw, ptrdiff_t *at)
{
    const int32_t ih = oh * p[SM2C_RT_WIN_SH] + kh * p[SM2C_RT_WIN_DH] - p[SM2C_RT_WIN_PT];
    const int32_t iw = ow * p[SM2C_RT_WIN_SW] + kw * p[SM2C_RT_WIN_DW] - p[SM2C_RT_WIN_PL];
    if ((uint32_t)ih >= (uint32_t)p[SM2C_RT_WIN_H] || (uint32_t)iw >= (uint32_t)p[SM2C_RT_WIN_W])
        return 0;
    *at = (((ptrdiff_t)n * p[SM2C_RT_WIN_H] + ih) * p[SM2C_RT_WIN_W] + iw) * p[SM2C_RT_WIN_C];
    return 1;
}

/* One output pixel's channels: max (avg 0) or the rounded mean (avg 1). */
static inline void sm2c_rt__pool_pixel(const int8_t *x, int8_t *yp, const int32_t *p, int32_t n, int32_t oh,
                                       int32_t ow, int avg)
{
    for (int32_t c = 0; c < p[SM2C_RT_WIN_C]; c++) {
        int32_t acc = avg ? 0 : -128, count = 0;
        for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++)
            for (int32_t kw = 0; kw < p[SM2C_RT_WIN_KW]; kw++) {
                ptrdiff_t at;
                if (!sm2c_rt__pool_cell(p, n, oh, ow, kh, kw, &at))
                    continue;
                int32_t v = x[at + c];
                acc = avg ? acc + v : (v > acc ? v : acc);
                count++;
            }
        if (avg && count > 0)
            acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
        yp[c] = (int8_t)acc;
    }
}

static inline void sm2c_rt__pool_s8(const int8_t *x, int8_t *y, const int32_t *p, int avg)
{
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], C = p[SM2C_RT_WIN_C];
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < OH; oh++)
            for (int32_t ow = 0; ow < OW; ow++)
                sm2c_rt__pool_pixel(x, y + (((ptrdiff_t)n * OH + oh) * OW + ow) * C, p, n, oh, ow, avg);
}

#if SM2C_RT_WANT(max_pool_s8)
void sm2c_rt_max_pool_s8(const int8_t *x, int8_t *y, const int32_t *p)
{
    sm2c_rt__pool_s8(x, y, p, 0);
}
#endif

#if SM2C_RT_WANT(avg_pool_s8)
void sm2c_rt_avg_pool_s8(const int8_t *x, int8_t *y, const int32_t *p)
{
    sm2c_rt__pool_s8(x, y, p, 1);
}
#endif
