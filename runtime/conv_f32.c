/*
** conv_f32.c: Conv2D (grouped, dilated) and DepthwiseConv2dNative, NHWC.
**
** Window parameters p[] as in sm2c_rt.h.  Output pixel (oh, ow) reads input
** row ih = oh*SH - PT + kh*DH and column iw = ow*SW - PL + kw*DW; taps outside
** the input are padding (zero) and are skipped.  Reference semantics, for
** Conv2D with G = C / FC groups and OG = OC / G output channels per group:
**
**     y[n, oh, ow, o] = act(sum over valid (kh, kw), ic < FC of
**                           x[n, ih, iw, g*FC + ic] * w[kh, kw, ic, o] + bias[o]),
**     g = o / OG,
**
** summed in the order kh, kw, ic.  DepthwiseConv2dNative (filter [KH, KW, C, M])
** has y[n, oh, ow, c*M + m] = sum x[n, ih, iw, c] * w[kh, kw, c, m] (+ bias).
**
** The loop order keeps the output channel innermost: for one output pixel and
** one tap, y[o] += x[c] * w[kh, kw, ic, o] runs over contiguous filter and
** output memory, which the compiler vectorises.
*/
#include <stddef.h>
#include <string.h>

#include "act_f32.h"
#include "conv_block_f32.h"
#include "sm2c_rt.h"
#include "rt_select.h"

/* y[0..n) += s * w[0..n).  Blocks of 16 with a constant trip count, so that
** even a cautious vectoriser (gcc -O2) takes them, then the rest. */
static inline void axpy(float *restrict y, float s, const float *restrict w, int32_t n)
{
    int32_t i = 0, j;

    for (; i + 16 <= n; i += 16)
        for (j = 0; j < 16; j++)
            y[i + j] += s * w[i + j];
    for (; i < n; i++)
        y[i] += s * w[i];
}

/* Any Conv2D (groups included), one output pixel at a time. */
static inline void conv_direct(const float *x, const float *w, const float *bias, float *y,
                        const int32_t *p, int32_t act)
{
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W];
    const int32_t C = p[SM2C_RT_WIN_C], KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW];
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], OC = p[SM2C_RT_WIN_OC];
    const int32_t SH = p[SM2C_RT_WIN_SH], SW = p[SM2C_RT_WIN_SW];
    const int32_t DH = p[SM2C_RT_WIN_DH], DW = p[SM2C_RT_WIN_DW];
    const int32_t PT = p[SM2C_RT_WIN_PT], PL = p[SM2C_RT_WIN_PL], FC = p[SM2C_RT_WIN_FC];
    const int32_t G = FC > 0 ? C / FC : 1;
    const int32_t OG = G > 0 ? OC / G : OC;
    int32_t n, oh, ow, kh, kw, g, ic;

    for (n = 0; n < N; n++) {
        for (oh = 0; oh < OH; oh++) {
            for (ow = 0; ow < OW; ow++) {
                float *yp = y + (((ptrdiff_t)n * OH + oh) * OW + ow) * OC;

                /* The sum starts at 0; the bias is added after it, as BiasAdd. */
                memset(yp, 0, (size_t)OC * sizeof(float));
                for (kh = 0; kh < KH; kh++) {
                    const int64_t ih = (int64_t)oh * SH - PT + (int64_t)kh * DH;
                    if (ih < 0 || ih >= H)
                        continue;
                    for (kw = 0; kw < KW; kw++) {
                        const int64_t iw = (int64_t)ow * SW - PL + (int64_t)kw * DW;
                        const float *xp, *wp;
                        if (iw < 0 || iw >= W)
                            continue;
                        xp = x + (((ptrdiff_t)n * H + (ptrdiff_t)ih) * W + (ptrdiff_t)iw) * C;
                        wp = w + ((ptrdiff_t)kh * KW + kw) * FC * OC;
                        for (g = 0; g < G; g++) {
                            for (ic = 0; ic < FC; ic++)
                                axpy(yp + (ptrdiff_t)g * OG, xp[(ptrdiff_t)g * FC + ic],
                                     wp + (ptrdiff_t)ic * OC + (ptrdiff_t)g * OG, OG);
                        }
                    }
                }
                if (bias) {
                    for (g = 0; g < OC; g++)
                        yp[g] += bias[g];
                }
                sm2c_rt__act_f32(yp, OC, act);
            }
        }
    }
}

#if SM2C_RT_WANT(conv2d_f32)
void sm2c_rt_conv2d_f32(const float *x, const float *w, const float *bias, float *y,
                        const int32_t *p, int32_t act)
{
    if (!sm2c_rt__conv_blocked(x, w, bias, NULL, y, p, act))
        conv_direct(x, w, bias, y, p, act);
}
#endif

#if SM2C_RT_WANT(conv2d_add_f32)
void sm2c_rt_conv2d_add_f32(const float *x, const float *w, const float *bias, const float *r,
                            float *y, const int32_t *p, int32_t act)
{
    const ptrdiff_t n = (ptrdiff_t)p[SM2C_RT_WIN_N] * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW] *
                        p[SM2C_RT_WIN_OC];
    ptrdiff_t i;

    if (sm2c_rt__conv_blocked(x, w, bias, r, y, p, act))
        return;
    /* Groups: the direct path, then the residual and the activation. */
    conv_direct(x, w, bias, y, p, SM2C_RT_ACT_NONE);
    for (i = 0; i < n; i++)
        y[i] = y[i] + r[i];
    for (i = 0; i < n; i += 1 << 20)
        sm2c_rt__act_f32(y + i, (int32_t)(n - i < (1 << 20) ? n - i : (1 << 20)), act);
}
#endif

/* Any DepthwiseConv2dNative, one output pixel at a time. */
static inline void depthwise_direct(const float *x, const float *w, const float *bias, float *y,
                             const int32_t *p, int32_t act)
{
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W];
    const int32_t C = p[SM2C_RT_WIN_C], KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW];
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], OC = p[SM2C_RT_WIN_OC];
    const int32_t SH = p[SM2C_RT_WIN_SH], SW = p[SM2C_RT_WIN_SW];
    const int32_t DH = p[SM2C_RT_WIN_DH], DW = p[SM2C_RT_WIN_DW];
    const int32_t PT = p[SM2C_RT_WIN_PT], PL = p[SM2C_RT_WIN_PL], M = p[SM2C_RT_WIN_FC];
    int32_t n, oh, ow, kh, kw, c, i;

    for (n = 0; n < N; n++) {
        for (oh = 0; oh < OH; oh++) {
            for (ow = 0; ow < OW; ow++) {
                float *restrict yp = y + (((ptrdiff_t)n * OH + oh) * OW + ow) * OC;

                memset(yp, 0, (size_t)OC * sizeof(float));
                for (kh = 0; kh < KH; kh++) {
                    const int64_t ih = (int64_t)oh * SH - PT + (int64_t)kh * DH;
                    if (ih < 0 || ih >= H)
                        continue;
                    for (kw = 0; kw < KW; kw++) {
                        const int64_t iw = (int64_t)ow * SW - PL + (int64_t)kw * DW;
                        const float *restrict xp;
                        const float *restrict wp;
                        if (iw < 0 || iw >= W)
                            continue;
                        xp = x + (((ptrdiff_t)n * H + (ptrdiff_t)ih) * W + (ptrdiff_t)iw) * C;
                        /* w[kh, kw, c, m] sits at the output channel c*M + m. */
                        wp = w + ((ptrdiff_t)kh * KW + kw) * OC;
                        if (M == 1) {
                            for (c = 0; c < C; c++)
                                yp[c] += xp[c] * wp[c];
                        } else {
                            for (c = 0; c < C; c++)
                                axpy(yp + (ptrdiff_t)c * M, xp[c], wp + (ptrdiff_t)c * M, M);
                        }
                    }
                }
                if (bias) {
                    for (i = 0; i < OC; i++)
                        yp[i] += bias[i];
                }
                sm2c_rt__act_f32(yp, OC, act);
            }
        }
    }
}

#if SM2C_RT_WANT(depthwise_conv2d_f32)
void sm2c_rt_depthwise_conv2d_f32(const float *x, const float *w, const float *bias, float *y,
                                  const int32_t *p, int32_t act)
{
    if (!sm2c_rt__depthwise_blocked(x, w, bias, y, p, act))
        depthwise_direct(x, w, bias, y, p, act);
}
#endif
