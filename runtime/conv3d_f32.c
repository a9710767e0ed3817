/*
** conv3d_f32.c: Conv3D and the input gradient of convolutions (the
** "transposed convolution": Conv2DBackpropInput, Conv3DBackpropInputV2,
** DepthwiseConv2dNativeBackpropInput), NDHWC, volume parameters p[] as in
** sm2c_rt.h (2-D ops pass D = KD = OD = 1).
**
** Forward, with G = C / FC groups and OG = OC / G output channels per group:
**     y[n, od, oh, ow, o] = act(sum over valid (kd, kh, kw), ic < FC of
**                               x[n, id, ih, iw, g*FC + ic] * w[kd, kh, kw, ic, o] + bias[o]),
**     g = o / OG, id = od*SD - PF + kd*DD (likewise h, w),
** summed in the order kd, kh, kw, ic.  Taps in the padding are skipped.
**
** The transposed kernel computes dx, the input-shaped result, from dy, the
** output-shaped one, by the same index relation read backwards:
**     dx[n, id, ih, iw, c] = sum over (kd, kh, kw) with an integral, in-range
**         od = (id + PF - kd*DD) / SD (likewise h, w), and o in c's group, of
**         dy[n, od, oh, ow, o] * w[kd, kh, kw, c % FC, o],
** summed in the order kd, kh, kw, o.  A depthwise filter [KH, KW, C, M] is the
** grouped filter with FC = 1 and G = C, so one kernel serves all three ops.
*/
#include <stddef.h>
#include <string.h>

#include "act_f32.h"
#include "sm2c_rt.h"
#include "rt_select.h"

typedef struct vol {
    int32_t N, D, H, W, C, KD, KH, KW, OD, OH, OW, OC, SD, SH, SW, DD, DH, DW, PF, PT, PL, FC;
} vol;

static vol vol_of(const int32_t *p)
{
    vol v;
    v.N = p[SM2C_RT_VOL_N], v.D = p[SM2C_RT_VOL_D], v.H = p[SM2C_RT_VOL_H];
    v.W = p[SM2C_RT_VOL_W], v.C = p[SM2C_RT_VOL_C];
    v.KD = p[SM2C_RT_VOL_KD], v.KH = p[SM2C_RT_VOL_KH], v.KW = p[SM2C_RT_VOL_KW];
    v.OD = p[SM2C_RT_VOL_OD], v.OH = p[SM2C_RT_VOL_OH], v.OW = p[SM2C_RT_VOL_OW];
    v.OC = p[SM2C_RT_VOL_OC];
    v.SD = p[SM2C_RT_VOL_SD], v.SH = p[SM2C_RT_VOL_SH], v.SW = p[SM2C_RT_VOL_SW];
    v.DD = p[SM2C_RT_VOL_DD], v.DH = p[SM2C_RT_VOL_DH], v.DW = p[SM2C_RT_VOL_DW];
    v.PF = p[SM2C_RT_VOL_PF], v.PT = p[SM2C_RT_VOL_PT], v.PL = p[SM2C_RT_VOL_PL];
    v.FC = p[SM2C_RT_VOL_FC];
    return v;
}

#if SM2C_RT_WANT(conv3d_f32)
void sm2c_rt_conv3d_f32(const float *x, const float *w, const float *bias, float *y,
                        const int32_t *p, int32_t act)
{
    const vol v = vol_of(p);
    const int32_t G = v.FC > 0 ? v.C / v.FC : 1, OG = G > 0 ? v.OC / G : v.OC;
    int32_t n, od, oh, ow, kd, kh, kw, ic, o;

    for (n = 0; n < v.N; n++)
        for (od = 0; od < v.OD; od++)
            for (oh = 0; oh < v.OH; oh++)
                for (ow = 0; ow < v.OW; ow++) {
                    float *yp = y + ((((ptrdiff_t)n * v.OD + od) * v.OH + oh) * v.OW + ow) * v.OC;
                    memset(yp, 0, (size_t)v.OC * sizeof(float));
                    for (kd = 0; kd < v.KD; kd++) {
                        const int64_t id = (int64_t)od * v.SD - v.PF + (int64_t)kd * v.DD;
                        if (id < 0 || id >= v.D)
                            continue;
                        for (kh = 0; kh < v.KH; kh++) {
                            const int64_t ih = (int64_t)oh * v.SH - v.PT + (int64_t)kh * v.DH;
                            if (ih < 0 || ih >= v.H)
                                continue;
                            for (kw = 0; kw < v.KW; kw++) {
                                const int64_t iw = (int64_t)ow * v.SW - v.PL + (int64_t)kw * v.DW;
                                const float *xp, *wp;
                                if (iw < 0 || iw >= v.W)
                                    continue;
                                xp = x + ((((ptrdiff_t)n * v.D + (ptrdiff_t)id) * v.H + (ptrdiff_t)ih) * v.W
                                          + (ptrdiff_t)iw) * v.C;
                                wp = w + (((ptrdiff_t)kd * v.KH + kh) * v.KW + kw) * v.FC * v.OC;
                                for (ic = 0; ic < v.FC; ic++)
                                    for (o = 0; o < v.OC; o++)
                                        yp[o] += xp[(ptrdiff_t)(o / OG) * v.FC + ic] * wp[(ptrdiff_t)ic * v.OC + o];
                            }
                        }
                    }
                    if (bias)
                        for (o = 0; o < v.OC; o++)
                            yp[o] += bias[o];
                    sm2c_rt__act_f32(yp, v.OC, &(const sm2c_rt__act){ act, 0.0f, 0.0f });
                }
}
#endif

/* The output index that input index i meets through tap k, or -1. */
static inline int64_t tap_source(int64_t i, int32_t pad, int32_t k, int32_t dil, int32_t stride, int32_t out)
{
    const int64_t t = i + pad - (int64_t)k * dil;
    if (t < 0 || t % stride != 0 || t / stride >= out)
        return -1;
    return t / stride;
}

#if SM2C_RT_WANT(conv3d_transpose_f32)
void sm2c_rt_conv3d_transpose_f32(const float *dy, const float *w, float *dx, const int32_t *p)
{
    const vol v = vol_of(p);
    const int32_t G = v.FC > 0 ? v.C / v.FC : 1, OG = G > 0 ? v.OC / G : v.OC;
    int32_t n, id, ih, iw, kd, kh, kw, c, o;

    for (n = 0; n < v.N; n++)
        for (id = 0; id < v.D; id++)
            for (ih = 0; ih < v.H; ih++)
                for (iw = 0; iw < v.W; iw++) {
                    float *xp = dx + ((((ptrdiff_t)n * v.D + id) * v.H + ih) * v.W + iw) * v.C;
                    memset(xp, 0, (size_t)v.C * sizeof(float));
                    for (kd = 0; kd < v.KD; kd++) {
                        const int64_t od = tap_source(id, v.PF, kd, v.DD, v.SD, v.OD);
                        if (od < 0)
                            continue;
                        for (kh = 0; kh < v.KH; kh++) {
                            const int64_t oh = tap_source(ih, v.PT, kh, v.DH, v.SH, v.OH);
                            if (oh < 0)
                                continue;
                            for (kw = 0; kw < v.KW; kw++) {
                                const int64_t ow = tap_source(iw, v.PL, kw, v.DW, v.SW, v.OW);
                                const float *yp, *wp;
                                if (ow < 0)
                                    continue;
                                yp = dy + ((((ptrdiff_t)n * v.OD + (ptrdiff_t)od) * v.OH + (ptrdiff_t)oh) * v.OW
                                           + (ptrdiff_t)ow) * v.OC;
                                wp = w + (((ptrdiff_t)kd * v.KH + kh) * v.KW + kw) * v.FC * v.OC;
                                for (c = 0; c < v.C; c++) {
                                    const int32_t g = c / v.FC;
                                    const float *wr = wp + (ptrdiff_t)(c % v.FC) * v.OC;
                                    float s = xp[c];
                                    for (o = g * OG; o < (g + 1) * OG; o++)
                                        s += yp[o] * wr[o];
                                    xp[c] = s;
                                }
                            }
                        }
                    }
                }
}
#endif
