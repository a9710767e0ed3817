/*
** conv_s8.c: int8 Conv2D and DepthwiseConv2dNative (--quantize int8), NHWC,
** window parameters p[] as for the float kernels (sm2c_rt.h), written as
** TFLite's reference ConvPerChannel and DepthwiseConvPerChannel compute them:
**
**     acc = bias[o] + sum over taps inside the input of w * (x - in_zp)
**     y   = clamp(requant(acc, mult[o], shift[o]) + out_zp, act_min, act_max)
**
** Taps outside the input are skipped, which is padding with the input's zero
** point.  Each output pixel sums a block of up to 64 output channels at once,
** tap by tap, so the innermost loop runs over contiguous filter values and
** vectorises; integer sums are exact, so the order does not change a bit.
** Filters keep TensorFlow's layout: Conv2D [KH, KW, FC, OC] (groups of FC
** input channels), depthwise [KH, KW, C, M] with output c*M + m.  The
** compiler proves that acc fits in int32 (reliability.md, section 6.5), and
** every partial sum is bounded by the same proof.
**
** Compiled programs call this Conv2D only where the compiler did not lay the
** filter out for conv_packed_s8.c (groups, --opt Os/Oz, a filter or bias
** not constant, a folded bias past int32) or for conv_ohwi_s8.c (Cortex-M).
**
** On x86-64, Conv2D without groups runs on conv_block_s8.h's register-blocked
** AVX-512 VNNI or AVX2 kernels, depthwise of multiplier 1 on dw_block_s8.h's,
** and every path requantizes a block of sums on vectors where it can
** (q8_vec.h); on AArch64 with DotProd, Conv2D runs on conv_sdot_s8.h's SDOT
** blocks; on a scalar core (Cortex-M) both run conv_m_s8.h's loops,
** sums in registers, with SMLAD where the core has the DSP extension.  All
** give the C path's bits.  The _frq forms requantize in float (q8_vec.h;
** --requantize float); a scalar core then takes the vector-shaped C loops.
*/
#include <stddef.h>
#include <stdint.h>

#include "act_f32.h"
#include "conv_block_s8.h"
#include "conv_m_s8.h"
#include "conv_sdot_s8.h"
#include "dw_block_s8.h"
#include "q8_math.h"
#include "q8_vec.h"
#include "rt_select.h"
#include "rt_target.h" /* SM2C_RT_SCALAR_CORE */
#include "simd_f32.h" /* SM2C_RT_VECTORISE */
#include "sm2c_rt.h"

/* Output channels summed together: int32 sums in a 256-byte array, small
** enough for a microcontroller's stack. */
enum { CS8_OB = 64 };

/* The input row (or column) of output position o at tap k. */
static inline int32_t cs8_row_base(const int32_t *p, int32_t o, int32_t k, int32_t s, int32_t d,
                                   int32_t pad)
{
    return o * p[s] + k * p[d] - p[pad];
}

/* acc[j] += w[j] * xv for j < ob; restrict: int8 filter values may alias
** anything as far as C knows, and the compiler must not fear they are sums. */
static inline void cs8_axpy(int32_t *restrict acc, const int8_t *restrict w, int32_t xv, int32_t ob)
{
    if (ob == CS8_OB) { /* a constant trip count: no remainder loop */
        for (int32_t j = 0; j < CS8_OB; j++)
            acc[j] += (int32_t)w[j] * xv;
        return;
    }
    for (int32_t j = 0; j < ob; j++)
        acc[j] += (int32_t)w[j] * xv;
}

/* acc[j] += w[j] * (x[j] - in_zp) for j < cb: multiplier-1 depthwise, where
** output channel c reads input channel c alone. */
static inline void cs8_mac(int32_t *restrict acc, const int8_t *restrict w, const int8_t *x,
                           int32_t in_zp, int32_t cb)
{
    for (int32_t j = 0; j < cb; j++)
        acc[j] += (int32_t)w[j] * ((int32_t)x[j] - in_zp);
}

/*
** acc[j] = sum over the taps inside of, for j < ob,
**     conv:      sum over ic < nc of w[tap, ic, o0 + j] * (x[tap, ic0 + ic] - in_zp)
**     depthwise: w[tap, o0 + j] * (x[tap, ic0 + j] - in_zp)   (multiplier 1)
** The innermost loops run over contiguous filter values, which compilers
** vectorise (int8 widened to int32).  Integer sums are exact, so any order
** gives TFLite's result.
*/
SM2C_RT_VECTORISE static void cs8_block(const int8_t *x, const int8_t *w, const int32_t *p, int32_t n,
                                        int32_t oh, int32_t ow, int32_t ic0, int32_t nc, int32_t o0,
                                        int32_t ob, int32_t in_zp, int depthwise, int32_t *acc)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t KW = p[SM2C_RT_WIN_KW], OC = p[SM2C_RT_WIN_OC];
    for (int32_t j = 0; j < ob; j++)
        acc[j] = 0;
    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++) {
        const int32_t ih = cs8_row_base(p, oh, kh, SM2C_RT_WIN_SH, SM2C_RT_WIN_DH, SM2C_RT_WIN_PT);
        if ((uint32_t)ih >= (uint32_t)H)
            continue;
        for (int32_t kw = 0; kw < KW; kw++) {
            const int32_t iw = cs8_row_base(p, ow, kw, SM2C_RT_WIN_SW, SM2C_RT_WIN_DW, SM2C_RT_WIN_PL);
            if ((uint32_t)iw >= (uint32_t)W)
                continue;
            const int8_t *xp = x + (((ptrdiff_t)n * H + ih) * W + iw) * C + ic0;
            const int8_t *wp = w + ((ptrdiff_t)kh * KW + kw) * nc * OC + o0;
            if (depthwise) {
                cs8_mac(acc, wp, xp, in_zp, ob);
                continue;
            }
            for (int32_t ic = 0; ic < nc; ic++)
                cs8_axpy(acc, wp + (ptrdiff_t)ic * OC, (int32_t)xp[ic] - in_zp, ob);
        }
    }
}

#if SM2C_RT_WANT(conv2d_s8) || SM2C_RT_WANT(conv2d_s8_frq)
static void cs8_conv(const int8_t *x, const int8_t *w, int8_t *y, const int32_t *p, int32_t in_zp, const q8_out *q)
{
    const int32_t C = p[SM2C_RT_WIN_C], OC = p[SM2C_RT_WIN_OC], FC = p[SM2C_RT_WIN_FC];
    const int32_t G = FC > 0 && C / FC > 0 ? C / FC : 1, OG = OC / G;
    int32_t acc[CS8_OB];
    /* conv_m_s8.h requantizes in fixed point only */
    if (SM2C_RT_SCALAR_CORE && !q->scale) {
        cm8_conv(x, w, y, p, in_zp, q);
        return;
    }
    if (sm2c_rt__conv_s8_blocked(x, w, y, p, in_zp, q) || sm2c_rt__conv_s8_sdot(x, w, y, p, in_zp, q))
        return;
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < p[SM2C_RT_WIN_OH]; oh++)
            for (int32_t ow = 0; ow < p[SM2C_RT_WIN_OW]; ow++) {
                int8_t *yp = y + (((ptrdiff_t)n * p[SM2C_RT_WIN_OH] + oh) * p[SM2C_RT_WIN_OW] + ow) * OC;
                /* Blocks stay inside a group: its outputs read its FC input channels. */
                for (int32_t g = 0; g < G; g++)
                    for (int32_t o0 = g * OG; o0 < (g + 1) * OG; o0 += CS8_OB) {
                        const int32_t ob = (g + 1) * OG - o0 < CS8_OB ? (g + 1) * OG - o0 : CS8_OB;
                        cs8_block(x, w, p, n, oh, ow, g * FC, FC, o0, ob, in_zp, 0, acc);
                        q8_store(acc, o0, ob, q, yp + o0);
                    }
            }
}
#endif

#if SM2C_RT_WANT(conv2d_s8)
void sm2c_rt_conv2d_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, const int32_t *p,
                       const int32_t *mult, const int32_t *shift, int32_t in_zp, int32_t out_zp,
                       int32_t act_min, int32_t act_max)
{
    const q8_out q = {bias, mult, shift, out_zp, act_min, act_max, NULL, 0};
    cs8_conv(x, w, y, p, in_zp, &q);
}
#endif

#if SM2C_RT_WANT(conv2d_s8_frq)
void sm2c_rt_conv2d_s8_frq(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, const int32_t *p,
                           const float *scale, int32_t in_zp, int32_t out_zp, int32_t act_min, int32_t act_max)
{
    const q8_out q = {bias, NULL, NULL, out_zp, act_min, act_max, scale, 0};
    cs8_conv(x, w, y, p, in_zp, &q);
}
#endif

#if SM2C_RT_WANT(depthwise_conv2d_s8) || SM2C_RT_WANT(depthwise_conv2d_s8_frq)
static void cs8_depthwise(const int8_t *x, const int8_t *w, int8_t *y, const int32_t *p, int32_t in_zp,
                          const q8_out *q)
{
    const int32_t OC = p[SM2C_RT_WIN_OC], M = p[SM2C_RT_WIN_FC] > 0 ? p[SM2C_RT_WIN_FC] : 1;
    int32_t acc[CS8_OB];
    if (SM2C_RT_SCALAR_CORE && !q->scale && M == 1 && p[SM2C_RT_WIN_DH] == 1 && p[SM2C_RT_WIN_DW] == 1) {
        cm8_depthwise(x, w, y, p, in_zp, q);
        return;
    }
    if (M == 1 && sm2c_rt__dw_s8_blocked(x, w, y, p, in_zp, q))
        return;
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < p[SM2C_RT_WIN_OH]; oh++)
            for (int32_t ow = 0; ow < p[SM2C_RT_WIN_OW]; ow++) {
                int8_t *yp = y + (((ptrdiff_t)n * p[SM2C_RT_WIN_OH] + oh) * p[SM2C_RT_WIN_OW] + ow) * OC;
                for (int32_t o0 = 0; o0 < OC; o0 += M == 1 ? CS8_OB : 1) {
                    const int32_t ob = M > 1 ? 1 : OC - o0 < CS8_OB ? OC - o0 : CS8_OB;
                    /* Multiplier 1: a block of channels against themselves.  Else output
                    ** o = c*M + m reads input channel c alone: filter column o of the
                    ** [KH, KW, C*M] view, one "input channel". */
                    cs8_block(x, w, p, n, oh, ow, M == 1 ? o0 : o0 / M, 1, o0, ob, in_zp, M == 1, acc);
                    q8_store(acc, o0, ob, q, yp + o0);
                }
            }
}
#endif

#if SM2C_RT_WANT(depthwise_conv2d_s8)
void sm2c_rt_depthwise_conv2d_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                 const int32_t *p, const int32_t *mult, const int32_t *shift, int32_t in_zp,
                                 int32_t out_zp, int32_t act_min, int32_t act_max)
{
    const q8_out q = {bias, mult, shift, out_zp, act_min, act_max, NULL, 0};
    cs8_depthwise(x, w, y, p, in_zp, &q);
}
#endif

#if SM2C_RT_WANT(depthwise_conv2d_s8_frq)
void sm2c_rt_depthwise_conv2d_s8_frq(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                     const int32_t *p, const float *scale, int32_t in_zp, int32_t out_zp,
                                     int32_t act_min, int32_t act_max)
{
    const q8_out q = {bias, NULL, NULL, out_zp, act_min, act_max, scale, 0};
    cs8_depthwise(x, w, y, p, in_zp, &q);
}
#endif

#if SM2C_RT_WANT(conv2d_hybrid) || SM2C_RT_WANT(depthwise_conv2d_hybrid)
/*
** TFLite's hybrid CONV_2D and DEPTHWISE_CONV_2D (reference kernels
** HybridConvPerChannel, DepthwiseConvHybridPerChannel): image n quantized
** as a whole (scale[n], zero_point[n]), acc the int32 sum over the taps
** inside the input of w * (x - zero_point[n]) (padding adds nothing), then
**
**     conv:      y = act(((float)acc * w_scale[o]) * scale[n] + bias[o])
**     depthwise: y = act((float)acc * (w_scale[o] * scale[n]) + bias[o])
**
** rounded as written (the two kernels multiply in different orders).  The
** sums are cs8_block's, so any path's integers; the filter keeps
** TensorFlow's layout.
*/
static void hyb_store(const int32_t *acc, int32_t o0, int32_t ob, float sn, const float *w_scale,
                      const float *bias, int depthwise, const sm2c_rt__act *a, float *y)
{
    for (int32_t j = 0; j < ob; j++) {
        const int32_t o = o0 + j;
        float v = depthwise ? (float)acc[j] * (w_scale[o] * sn) : (float)acc[j] * w_scale[o] * sn;
        if (bias)
            v += bias[o];
        y[j] = sm2c_rt__act1(v, a);
    }
}

static void hyb_conv(const int8_t *x, const float *scale, const int32_t *zero_point, const int8_t *w,
                     const float *w_scale, const float *bias, float *y, const int32_t *p, int depthwise,
                     const sm2c_rt__act *a)
{
    const int32_t OC = p[SM2C_RT_WIN_OC];
    const int32_t M = depthwise ? (p[SM2C_RT_WIN_FC] > 0 ? p[SM2C_RT_WIN_FC] : 1) : 0;
    const int32_t FC = depthwise ? 1 : p[SM2C_RT_WIN_C];
    int32_t acc[CS8_OB];
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < p[SM2C_RT_WIN_OH]; oh++)
            for (int32_t ow = 0; ow < p[SM2C_RT_WIN_OW]; ow++) {
                float *yp = y + (((ptrdiff_t)n * p[SM2C_RT_WIN_OH] + oh) * p[SM2C_RT_WIN_OW] + ow) * OC;
                for (int32_t o0 = 0; o0 < OC; o0 += M > 1 ? 1 : CS8_OB) {
                    const int32_t ob = M > 1 ? 1 : OC - o0 < CS8_OB ? OC - o0 : CS8_OB;
                    /* depthwise as cs8_depthwise reads it; Conv2D has no groups here */
                    const int32_t ic0 = !depthwise ? 0 : M == 1 ? o0 : o0 / M;
                    cs8_block(x, w, p, n, oh, ow, ic0, FC, o0, ob, zero_point[n], depthwise && M == 1, acc);
                    hyb_store(acc, o0, ob, scale[n], w_scale, bias, depthwise, a, yp + o0);
                }
            }
}
#endif

#if SM2C_RT_WANT(conv2d_hybrid)
void sm2c_rt_conv2d_hybrid(const int8_t *x, const float *scale, const int32_t *zero_point, const int8_t *w,
                           const float *w_scale, const float *bias, float *y, const int32_t *p, int32_t act,
                           float act_a, float act_b)
{
    const sm2c_rt__act a = {act, act_a, act_b};
    hyb_conv(x, scale, zero_point, w, w_scale, bias, y, p, 0, &a);
}
#endif

#if SM2C_RT_WANT(depthwise_conv2d_hybrid)
void sm2c_rt_depthwise_conv2d_hybrid(const int8_t *x, const float *scale, const int32_t *zero_point,
                                     const int8_t *w, const float *w_scale, const float *bias, float *y,
                                     const int32_t *p, int32_t act, float act_a, float act_b)
{
    const sm2c_rt__act a = {act, act_a, act_b};
    hyb_conv(x, scale, zero_point, w, w_scale, bias, y, p, 1, &a);
}
#endif
