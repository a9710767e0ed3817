/*
** pool_f32.c: MaxPool and AvgPool, NHWC, window parameters p[] as in sm2c_rt.h
** (OC = C; FC unused).  Output (oh, ow) covers input rows
** ih = oh*SH - PT + kh*DH and columns iw = ow*SW - PL + kw*DW; cells outside
** the input are padding and are ignored.
**
** Both follow TensorFlow's CPU kernels, SpatialMaxPool and SpatialAvgPool in
** tensorflow/core/kernels/pooling_ops_common.h:
**  - MaxPool starts every output at the lowest finite float (-FLT_MAX, Eigen's
**    NumTraits<float>::lowest()) and folds in each valid cell with Eigen's
**    scalar max, (acc < v) ? v : acc.  So a NaN input never wins (it is
**    skipped), and a window of only -Inf or NaN cells gives -FLT_MAX, exactly
**    as TensorFlow returns.
**  - AvgPool sums the valid cells in row-major window order, starting at 0, and
**    divides by their number.  A window with no valid cell (impossible with
**    SAME or VALID) gives 0/0 = NaN, as TensorFlow would.
**
** Coordinates are int32, as in conv_f32.c (the compiler bounds the window's
** reach); one unsigned comparison rejects both sides of the input.
*/
#include <math.h>
#include <stddef.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "rt_target.h"

/* -FLT_MAX, Eigen::NumTraits<float>::lowest(), without <float.h>. */
#define POOL_LOWEST (-0x1.fffffep+127f)

static SM2C_RT_ALWAYS_INLINE void max_pool(const float *x, float *y, const int32_t *p)
{
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W];
    const int32_t C = p[SM2C_RT_WIN_C], KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW];
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW];
    const int32_t SH = p[SM2C_RT_WIN_SH], SW = p[SM2C_RT_WIN_SW];
    const int32_t DH = p[SM2C_RT_WIN_DH], DW = p[SM2C_RT_WIN_DW];
    const int32_t PT = p[SM2C_RT_WIN_PT], PL = p[SM2C_RT_WIN_PL];
    int32_t n, oh, ow, kh, kw, c;

    for (n = 0; n < N; n++) {
        for (oh = 0; oh < OH; oh++) {
            for (ow = 0; ow < OW; ow++) {
                float *restrict yp = y + (((ptrdiff_t)n * OH + oh) * OW + ow) * C;

                for (c = 0; c < C; c++)
                    yp[c] = POOL_LOWEST;
                for (kh = 0; kh < KH; kh++) {
                    const int32_t ih = oh * SH + kh * DH - PT;
                    if ((uint32_t)ih >= (uint32_t)H)
                        continue;
                    for (kw = 0; kw < KW; kw++) {
                        const int32_t iw = ow * SW + kw * DW - PL;
                        const float *restrict xp;
                        if ((uint32_t)iw >= (uint32_t)W)
                            continue;
                        xp = x + (((ptrdiff_t)n * H + ih) * W + iw) * C;
                        for (c = 0; c < C; c++)
                            yp[c] = yp[c] < xp[c] ? xp[c] : yp[c];
                    }
                }
            }
        }
    }
}

static SM2C_RT_ALWAYS_INLINE void avg_pool(const float *x, float *y, const int32_t *p)
{
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W];
    const int32_t C = p[SM2C_RT_WIN_C], KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW];
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW];
    const int32_t SH = p[SM2C_RT_WIN_SH], SW = p[SM2C_RT_WIN_SW];
    const int32_t DH = p[SM2C_RT_WIN_DH], DW = p[SM2C_RT_WIN_DW];
    const int32_t PT = p[SM2C_RT_WIN_PT], PL = p[SM2C_RT_WIN_PL];
    int32_t n, oh, ow, kh, kw, c;

    for (n = 0; n < N; n++) {
        for (oh = 0; oh < OH; oh++) {
            for (ow = 0; ow < OW; ow++) {
                float *restrict yp = y + (((ptrdiff_t)n * OH + oh) * OW + ow) * C;
                float count = 0.0f;

                for (c = 0; c < C; c++)
                    yp[c] = 0.0f;
                for (kh = 0; kh < KH; kh++) {
                    const int32_t ih = oh * SH + kh * DH - PT;
                    if ((uint32_t)ih >= (uint32_t)H)
                        continue;
                    for (kw = 0; kw < KW; kw++) {
                        const int32_t iw = ow * SW + kw * DW - PL;
                        const float *restrict xp;
                        if ((uint32_t)iw >= (uint32_t)W)
                            continue;
                        xp = x + (((ptrdiff_t)n * H + ih) * W + iw) * C;
                        for (c = 0; c < C; c++)
                            yp[c] += xp[c];
                        count += 1.0f;
                    }
                }
                if (count > 0.0f) {
                    for (c = 0; c < C; c++)
                        yp[c] /= count;
                } else {
                    for (c = 0; c < C; c++)
                        yp[c] = NAN;
                }
            }
        }
    }
}

#if SM2C_RT_WANT(max_pool_f32)
void sm2c_rt_max_pool_f32(const float *x, float *y, const int32_t *p)
{
    max_pool(x, y, p);
}
#endif

#if SM2C_RT_WANT(avg_pool_f32)
void sm2c_rt_avg_pool_f32(const float *x, float *y, const int32_t *p)
{
    avg_pool(x, y, p);
}
#endif

/* Shape-specialised layers (conv_f32.c): on a scalar FPU the loop nest,
** inlined with the layer's window folded in. */
#if SM2C_RT_SCALAR_CORE
#define SM2C_RT_SPECIAL_max_pool_f32 max_pool
#define SM2C_RT_SPECIAL_avg_pool_f32 avg_pool
#endif
