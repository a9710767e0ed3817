/*
** conv_s8.c: int8 Conv2D and DepthwiseConv2dNative (--quantize int8), NHWC,
** window parameters p[] as for the float kernels (sm2c_rt.h), written as
** TFLite's reference ConvPerChannel and DepthwiseConvPerChannel compute them:
**
**     acc = bias[o] + sum over taps inside the input of w * (x - in_zp)
**     y   = clamp(requant(acc, mult[o], shift[o]) + out_zp, act_min, act_max)
**
** Taps outside the input are skipped, which is padding with the input's zero
** point.  Filters keep TensorFlow's layout: Conv2D [KH, KW, FC, OC] (groups
** of FC input channels), depthwise [KH, KW, C, M] with output c*M + m.  The
** compiler proves that acc fits in int32 (reliability.md, section 6.5).
*/
#include <stddef.h>
#include <stdint.h>

#include "q8_math.h"
#include "rt_select.h"
#include "sm2c_rt.h"

/* The sum over one output pixel and channel o, taps of input channel ic0 (+ic
** for ic < nc) against filter column o, filter stride fs per tap row. */
static inline int32_t sm2c_rt__window_acc(const int8_t *x, const int8_t *w, const int32_t *p, int32_t n,
                                          int32_t oh, int32_t ow, int32_t ic0, int32_t nc, int32_t o,
                                          int32_t in_zp)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t KW = p[SM2C_RT_WIN_KW], OC = p[SM2C_RT_WIN_OC];
    const int32_t FC = nc;
    int32_t acc = 0;
    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++) {
        const int32_t ih = oh * p[SM2C_RT_WIN_SH] + kh * p[SM2C_RT_WIN_DH] - p[SM2C_RT_WIN_PT];
        if ((uint32_t)ih >= (uint32_t)H)
            continue;
        for (int32_t kw = 0; kw < KW; kw++) {
            const int32_t iw = ow * p[SM2C_RT_WIN_SW] + kw * p[SM2C_RT_WIN_DW] - p[SM2C_RT_WIN_PL];
            if ((uint32_t)iw >= (uint32_t)W)
                continue;
            const int8_t *xp = x + (((ptrdiff_t)n * H + ih) * W + iw) * C + ic0;
            const int8_t *wp = w + ((ptrdiff_t)kh * KW + kw) * FC * OC + o;
            for (int32_t ic = 0; ic < nc; ic++)
                acc += (int32_t)wp[(ptrdiff_t)ic * OC] * ((int32_t)xp[ic] - in_zp);
        }
    }
    return acc;
}

#if SM2C_RT_WANT(conv2d_s8)
void sm2c_rt_conv2d_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, const int32_t *p,
                       const int32_t *mult, const int32_t *shift, int32_t in_zp, int32_t out_zp,
                       int32_t act_min, int32_t act_max)
{
    const int32_t C = p[SM2C_RT_WIN_C], OC = p[SM2C_RT_WIN_OC], FC = p[SM2C_RT_WIN_FC];
    const int32_t G = FC > 0 && C / FC > 0 ? C / FC : 1, OG = OC / G;
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < p[SM2C_RT_WIN_OH]; oh++)
            for (int32_t ow = 0; ow < p[SM2C_RT_WIN_OW]; ow++) {
                int8_t *yp = y + (((ptrdiff_t)n * p[SM2C_RT_WIN_OH] + oh) * p[SM2C_RT_WIN_OW] + ow) * OC;
                for (int32_t o = 0; o < OC; o++) {
                    int32_t acc = sm2c_rt__window_acc(x, w, p, n, oh, ow, (o / OG) * FC, FC, o, in_zp);
                    if (bias)
                        acc += bias[o];
                    acc = sm2c_rt__requant(acc, mult[o], shift[o]) + out_zp;
                    yp[o] = sm2c_rt__clamp_s8(acc, act_min, act_max);
                }
            }
}
#endif

#if SM2C_RT_WANT(depthwise_conv2d_s8)
void sm2c_rt_depthwise_conv2d_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                 const int32_t *p, const int32_t *mult, const int32_t *shift, int32_t in_zp,
                                 int32_t out_zp, int32_t act_min, int32_t act_max)
{
    const int32_t OC = p[SM2C_RT_WIN_OC], M = p[SM2C_RT_WIN_FC] > 0 ? p[SM2C_RT_WIN_FC] : 1;
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < p[SM2C_RT_WIN_OH]; oh++)
            for (int32_t ow = 0; ow < p[SM2C_RT_WIN_OW]; ow++) {
                int8_t *yp = y + (((ptrdiff_t)n * p[SM2C_RT_WIN_OH] + oh) * p[SM2C_RT_WIN_OW] + ow) * OC;
                for (int32_t o = 0; o < OC; o++) {
                    /* Output o = c*M + m reads input channel c alone: one "input channel"
                    ** whose filter column is o in the [KH, KW, C*M] view. */
                    int32_t acc = sm2c_rt__window_acc(x, w, p, n, oh, ow, o / M, 1, o, in_zp);
                    if (bias)
                        acc += bias[o];
                    acc = sm2c_rt__requant(acc, mult[o], shift[o]) + out_zp;
                    yp[o] = sm2c_rt__clamp_s8(acc, act_min, act_max);
                }
            }
}
#endif
