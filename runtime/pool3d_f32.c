/*
** pool3d_f32.c: MaxPool3D and AvgPool3D, NDHWC, volume parameters p[] as in
** sm2c_rt.h (OC = C; FC unused).  The same rules as the 2-D pools
** (pool_f32.c): padding cells are ignored; max starts at -FLT_MAX and folds
** with (acc < v) ? v : acc; average divides the sum of the valid cells, taken
** in window order, by their number.
*/
#include <math.h>
#include <stddef.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define POOL3_LOWEST (-0x1.fffffep+127f)

static void pool3d(const float *x, float *y, const int32_t *p, int is_max)
{
    const int32_t N = p[SM2C_RT_VOL_N], D = p[SM2C_RT_VOL_D], H = p[SM2C_RT_VOL_H];
    const int32_t W = p[SM2C_RT_VOL_W], C = p[SM2C_RT_VOL_C];
    const int32_t KD = p[SM2C_RT_VOL_KD], KH = p[SM2C_RT_VOL_KH], KW = p[SM2C_RT_VOL_KW];
    const int32_t OD = p[SM2C_RT_VOL_OD], OH = p[SM2C_RT_VOL_OH], OW = p[SM2C_RT_VOL_OW];
    const int32_t SD = p[SM2C_RT_VOL_SD], SH = p[SM2C_RT_VOL_SH], SW = p[SM2C_RT_VOL_SW];
    const int32_t PF = p[SM2C_RT_VOL_PF], PT = p[SM2C_RT_VOL_PT], PL = p[SM2C_RT_VOL_PL];
    int32_t n, od, oh, ow, kd, kh, kw, c;

    for (n = 0; n < N; n++)
        for (od = 0; od < OD; od++)
            for (oh = 0; oh < OH; oh++)
                for (ow = 0; ow < OW; ow++) {
                    float *yp = y + ((((ptrdiff_t)n * OD + od) * OH + oh) * OW + ow) * C;
                    float count = 0.0f;
                    for (c = 0; c < C; c++)
                        yp[c] = is_max ? POOL3_LOWEST : 0.0f;
                    for (kd = 0; kd < KD; kd++) {
                        const int64_t id = (int64_t)od * SD - PF + kd;
                        if (id < 0 || id >= D)
                            continue;
                        for (kh = 0; kh < KH; kh++) {
                            const int64_t ih = (int64_t)oh * SH - PT + kh;
                            if (ih < 0 || ih >= H)
                                continue;
                            for (kw = 0; kw < KW; kw++) {
                                const int64_t iw = (int64_t)ow * SW - PL + kw;
                                const float *xp;
                                if (iw < 0 || iw >= W)
                                    continue;
                                xp = x + ((((ptrdiff_t)n * D + (ptrdiff_t)id) * H + (ptrdiff_t)ih) * W
                                          + (ptrdiff_t)iw) * C;
                                for (c = 0; c < C; c++)
                                    yp[c] = is_max ? (yp[c] < xp[c] ? xp[c] : yp[c]) : yp[c] + xp[c];
                                count += 1.0f;
                            }
                        }
                    }
                    if (!is_max)
                        for (c = 0; c < C; c++)
                            yp[c] = count > 0.0f ? yp[c] / count : NAN;
                }
}

#if SM2C_RT_WANT(max_pool3d_f32)
void sm2c_rt_max_pool3d_f32(const float *x, float *y, const int32_t *p)
{
    pool3d(x, y, p, 1);
}
#endif

#if SM2C_RT_WANT(avg_pool3d_f32)
void sm2c_rt_avg_pool3d_f32(const float *x, float *y, const int32_t *p)
{
    pool3d(x, y, p, 0);
}
#endif
