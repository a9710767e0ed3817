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
** On vector units the loop order keeps the output channel innermost: for one
** output pixel and one tap, y[o] += x[c] * w[kh, kw, ic, o] runs over
** contiguous filter and output memory, which the compiler vectorises.  On a
** scalar FPU (SM2C_RT_SCALAR_CORE, rt_target.h) four output channels sum in
** registers across every tap instead, in one small loop nest.
**
** Coordinates are int32: the compiler refuses windows whose reach
** (OH-1)*SH + (KH-1)*DH, or the same across, exceeds INT32_MAX, and a tensor
** the target cannot address does not compile, so no sum here overflows.  A
** coordinate outside [0, H) fails one unsigned comparison.
**
** Shape-specialised layers: the C backend writes one small function per
** distinct layer shape.  On a scalar FPU it calls SM2C_RT_SPECIAL_<kernel>
** (defined at the end) with the window as a constant array: the loop nest
** itself, inlined, so the compiler folds the shape in and emits the short
** loops a single-file generator writes (the code size of issue 15).
** Elsewhere it calls the kernel.
*/
#include <stddef.h>
#include <string.h>

#include "act_f32.h"
#include "conv_block_f32.h"
#include "dw_block_f32.h"
#include "sm2c_rt.h"
#include "rt_select.h"

#if SM2C_RT_SCALAR_CORE
/* Output channel o + lane j, j < 4, of a block in a group of og channels: the
** last block of a group starts at og - 4, recomputing a few channels (the same
** sums, so the same values) instead of running a tail loop; below 4 channels
** the lanes repeat the last one. */
static inline int32_t lane(int32_t og, int32_t j)
{
    return j < og ? j : og - 1;
}

static inline int32_t block_start(int32_t o0, int32_t og)
{
    return o0 + 4 <= og || og < 4 ? o0 : og - 4;
}

/* y[o] = act(s + bias[o] + r[o]), in that order (BiasAdd, Add, activation). */
static SM2C_RT_ALWAYS_INLINE void put(float *y, const float *bias, const float *r, int32_t o, float s, const sm2c_rt__act *act)
{
    if (bias)
        s += bias[o];
    if (r)
        s += r[o];
    y[o] = sm2c_rt__act1(s, act);
}

/* Conv2D (groups too) on a scalar FPU: per output pixel, blocks of four
** output channels of a group, summed in kh, kw, ic order as the reference. */
static SM2C_RT_ALWAYS_INLINE void conv_scalar(const float *x, const float *w, const float *bias, const float *r,
                               float *y, const int32_t *p, const sm2c_rt__act *act)
{
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W];
    const int32_t C = p[SM2C_RT_WIN_C], KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW];
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], OC = p[SM2C_RT_WIN_OC];
    const int32_t SH = p[SM2C_RT_WIN_SH], SW = p[SM2C_RT_WIN_SW];
    const int32_t DH = p[SM2C_RT_WIN_DH], DW = p[SM2C_RT_WIN_DW];
    const int32_t PT = p[SM2C_RT_WIN_PT], PL = p[SM2C_RT_WIN_PL], FC = p[SM2C_RT_WIN_FC];
    const int32_t G = FC > 0 && C / FC > 0 ? C / FC : 1, OG = OC / G, NB = (OG + 3) / 4;
    const int32_t d1 = lane(OG, 1), d2 = lane(OG, 2), d3 = lane(OG, 3);
    int32_t n, oh, ow, b, kh, kw, ic;

    for (n = 0; n < N; n++) {
        for (oh = 0; oh < OH; oh++) {
            for (ow = 0; ow < OW; ow++) {
                const ptrdiff_t at = (((ptrdiff_t)n * OH + oh) * OW + ow) * OC;
                /* block b: group b / NB, its channels from 4 * (b % NB) */
                for (b = 0; b < G * NB; b++) {
                    const int32_t g = b / NB, o = g * OG + block_start(b % NB * 4, OG);
                    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
                    for (kh = 0; kh < KH; kh++) {
                        const int32_t ih = oh * SH + kh * DH - PT;
                        if ((uint32_t)ih >= (uint32_t)H)
                            continue;
                        for (kw = 0; kw < KW; kw++) {
                            const int32_t iw = ow * SW + kw * DW - PL;
                            const float *xp, *wp;
                            if ((uint32_t)iw >= (uint32_t)W)
                                continue;
                            xp = x + (((ptrdiff_t)n * H + ih) * W + iw) * C + g * FC;
                            wp = w + ((ptrdiff_t)kh * KW + kw) * FC * OC + o;
                            for (ic = 0; ic < FC; ic++, wp += OC) {
                                const float a = xp[ic];
                                s0 += a * wp[0];
                                s1 += a * wp[d1];
                                s2 += a * wp[d2];
                                s3 += a * wp[d3];
                            }
                        }
                    }
                    put(y + at, bias, r ? r + at : NULL, o, s0, act);
                    put(y + at, bias, r ? r + at : NULL, o + d1, s1, act);
                    put(y + at, bias, r ? r + at : NULL, o + d2, s2, act);
                    put(y + at, bias, r ? r + at : NULL, o + d3, s3, act);
                }
            }
        }
    }
}

/* DepthwiseConv2dNative on a scalar FPU: per output pixel, blocks of four
** output channels c*M + m summed over the taps in kh, kw order. */
static SM2C_RT_ALWAYS_INLINE void depthwise_scalar(const float *x, const float *w, const float *bias, float *y,
                                    const int32_t *p, const sm2c_rt__act *act)
{
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W];
    const int32_t C = p[SM2C_RT_WIN_C], KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW];
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], OC = p[SM2C_RT_WIN_OC];
    const int32_t SH = p[SM2C_RT_WIN_SH], SW = p[SM2C_RT_WIN_SW];
    const int32_t DH = p[SM2C_RT_WIN_DH], DW = p[SM2C_RT_WIN_DW];
    const int32_t PT = p[SM2C_RT_WIN_PT], PL = p[SM2C_RT_WIN_PL], M = p[SM2C_RT_WIN_FC];
    const int32_t d1 = lane(OC, 1), d2 = lane(OC, 2), d3 = lane(OC, 3);
    int32_t n, oh, ow, o0, kh, kw;

    for (n = 0; n < N; n++) {
        for (oh = 0; oh < OH; oh++) {
            for (ow = 0; ow < OW; ow++) {
                const ptrdiff_t at = (((ptrdiff_t)n * OH + oh) * OW + ow) * OC;
                for (o0 = 0; o0 < OC; o0 += 4) {
                    const int32_t o = block_start(o0, OC);
                    /* the input channel of each lane */
                    const int32_t c0 = o / M, c1 = (o + d1) / M, c2 = (o + d2) / M, c3 = (o + d3) / M;
                    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
                    for (kh = 0; kh < KH; kh++) {
                        const int32_t ih = oh * SH + kh * DH - PT;
                        if ((uint32_t)ih >= (uint32_t)H)
                            continue;
                        for (kw = 0; kw < KW; kw++) {
                            const int32_t iw = ow * SW + kw * DW - PL;
                            const float *xp, *wp;
                            if ((uint32_t)iw >= (uint32_t)W)
                                continue;
                            xp = x + (((ptrdiff_t)n * H + ih) * W + iw) * C;
                            wp = w + ((ptrdiff_t)kh * KW + kw) * OC + o;
                            s0 += xp[c0] * wp[0];
                            s1 += xp[c1] * wp[d1];
                            s2 += xp[c2] * wp[d2];
                            s3 += xp[c3] * wp[d3];
                        }
                    }
                    put(y + at, bias, NULL, o, s0, act);
                    put(y + at, bias, NULL, o + d1, s1, act);
                    put(y + at, bias, NULL, o + d2, s2, act);
                    put(y + at, bias, NULL, o + d3, s3, act);
                }
            }
        }
    }
}
#else

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
                        const int32_t *p, const sm2c_rt__act *act)
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
                    const int32_t ih = oh * SH + kh * DH - PT;
                    if ((uint32_t)ih >= (uint32_t)H)
                        continue;
                    for (kw = 0; kw < KW; kw++) {
                        const int32_t iw = ow * SW + kw * DW - PL;
                        const float *xp, *wp;
                        if ((uint32_t)iw >= (uint32_t)W)
                            continue;
                        xp = x + (((ptrdiff_t)n * H + ih) * W + iw) * C;
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

/* Any DepthwiseConv2dNative, one output pixel at a time. */
static inline void depthwise_direct(const float *x, const float *w, const float *bias, float *y,
                             const int32_t *p, const sm2c_rt__act *act)
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
                    const int32_t ih = oh * SH + kh * DH - PT;
                    if ((uint32_t)ih >= (uint32_t)H)
                        continue;
                    for (kw = 0; kw < KW; kw++) {
                        const int32_t iw = ow * SW + kw * DW - PL;
                        const float *restrict xp;
                        const float *restrict wp;
                        if ((uint32_t)iw >= (uint32_t)W)
                            continue;
                        xp = x + (((ptrdiff_t)n * H + ih) * W + iw) * C;
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
#endif

#if !SM2C_RT_SCALAR_CORE && (SM2C_RT_WANT(conv2d_f32) || SM2C_RT_WANT(conv2d_f32_packs))
enum { CONV_MATMUL_MAX_C = 320, CONV_STREAM_BYTES = 512 * 1024 };

/* A 1x1 convolution with stride 1 and no padding or groups is the matmul
** [N*H*W, C] x [C, OC] of its input and HWIO filter, and matmul_f32.c's tiles
** (4 rows x 4 vectors) run such shapes with up to 320 input channels 10-40%
** faster than the conv blocks (bench_kernels' 1x1 layers; from 1024 the
** blocks win).  The residual form keeps the conv blocks, whose epilogue adds
** it.  So does a layer whose filter streams from memory: half a megabyte or
** more, over 256 weights per pixel (MobileNetV2's and ResNet50's last
** stages), as the blocks prefetch the next panels while the pixels compute
** (simd_f32.h): 1.6x the matmul's rate on a [49, 320] x [320, 1280] product
** with the filter in DRAM. */
static int conv_filter_streams(const int32_t *p) /* of a 1x1 layer */
{
    const int64_t filter = (int64_t)p[SM2C_RT_WIN_C] * p[SM2C_RT_WIN_OC];
    const int64_t pixels = (int64_t)p[SM2C_RT_WIN_N] * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW];

    return filter * (int64_t)sizeof(float) >= CONV_STREAM_BYTES && filter >= 256 * pixels;
}

static int conv_is_matmul(const int32_t *p)
{
    return p[SM2C_RT_WIN_KH] == 1 && p[SM2C_RT_WIN_KW] == 1 && p[SM2C_RT_WIN_SH] == 1 &&
           p[SM2C_RT_WIN_SW] == 1 && p[SM2C_RT_WIN_PT] == 0 && p[SM2C_RT_WIN_PL] == 0 &&
           p[SM2C_RT_WIN_OH] == p[SM2C_RT_WIN_H] && p[SM2C_RT_WIN_OW] == p[SM2C_RT_WIN_W] &&
           p[SM2C_RT_WIN_FC] == p[SM2C_RT_WIN_C] && p[SM2C_RT_WIN_C] <= CONV_MATMUL_MAX_C &&
           (int64_t)p[SM2C_RT_WIN_N] * p[SM2C_RT_WIN_H] * p[SM2C_RT_WIN_W] <= INT32_MAX &&
           !conv_filter_streams(p);
}
#endif

#if SM2C_RT_WANT(conv2d_f32)
void sm2c_rt_conv2d_f32(const float *x, const float *w, const float *bias, float *y,
                        const int32_t *p, int32_t kind, float act_a, float act_b)
{
    const sm2c_rt__act av = { kind, act_a, act_b }, *act = &av;

#if SM2C_RT_SCALAR_CORE
    conv_scalar(x, w, bias, NULL, y, p, act);
#else
    if (conv_is_matmul(p)) {
        sm2c_rt_matmul_f32(x, w, bias, y, p[SM2C_RT_WIN_N] * p[SM2C_RT_WIN_H] * p[SM2C_RT_WIN_W],
                           p[SM2C_RT_WIN_C], p[SM2C_RT_WIN_OC], 0, 0, kind, act_a, act_b, NULL);
        return;
    }
    if (!sm2c_rt__conv_blocked(x, w, bias, NULL, y, p, act, 0))
        conv_direct(x, w, bias, y, p, act);
#endif
}
#endif

#if SM2C_RT_WANT(conv2d_add_f32)
void sm2c_rt_conv2d_add_f32(const float *x, const float *w, const float *bias, const float *r,
                            float *y, const int32_t *p, int32_t kind, float act_a, float act_b)
{
    const sm2c_rt__act av = { kind, act_a, act_b }, *act = &av;

#if SM2C_RT_SCALAR_CORE
    conv_scalar(x, w, bias, r, y, p, act);
#else
    const ptrdiff_t n = (ptrdiff_t)p[SM2C_RT_WIN_N] * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW] *
                        p[SM2C_RT_WIN_OC];
    ptrdiff_t i;

    if (sm2c_rt__conv_blocked(x, w, bias, r, y, p, act, 0))
        return;
    /* Groups: the direct path, then the residual and the activation. */
    conv_direct(x, w, bias, y, p, &(const sm2c_rt__act){ SM2C_RT_ACT_NONE, 0.0f, 0.0f });
    for (i = 0; i < n; i++)
        y[i] = y[i] + r[i];
    for (i = 0; i < n; i += 1 << 20)
        sm2c_rt__act_f32(y + i, (int32_t)(n - i < (1 << 20) ? n - i : (1 << 20)), act);
#endif
}
#endif

/* Conv2D on a packed filter (sm2c_rt.h): the blocked kernels read it where
** they take the layer, as the compiler arranges; anywhere else (a scalar FPU
** given a vector target's code) these loops, in the reference's order. */
static inline void conv_packed_direct(const float *x, const float *w, const float *bias, const float *r,
                                      float *y, const int32_t *p, const sm2c_rt__act *act)
{
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W];
    const int32_t C = p[SM2C_RT_WIN_C], KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW];
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], OC = p[SM2C_RT_WIN_OC];
    const int32_t FC = p[SM2C_RT_WIN_FC], OG = FC > 0 && C / FC > 0 ? OC / (C / FC) : OC;
    const ptrdiff_t panel = (ptrdiff_t)KH * KW * FC * 16;
    int32_t n, oh, ow, o, kh, kw, ic;

    for (n = 0; n < N; n++)
        for (oh = 0; oh < OH; oh++)
            for (ow = 0; ow < OW; ow++) {
                const ptrdiff_t at = (((ptrdiff_t)n * OH + oh) * OW + ow) * OC;
                for (o = 0; o < OC; o++) {
                    const float *wo = w + o / 16 * panel + o % 16;
                    float s = 0.0f;
                    for (kh = 0; kh < KH; kh++) {
                        const int32_t ih = oh * p[SM2C_RT_WIN_SH] + kh * p[SM2C_RT_WIN_DH] - p[SM2C_RT_WIN_PT];
                        for (kw = 0; kw < KW && (uint32_t)ih < (uint32_t)H; kw++) {
                            const int32_t iw = ow * p[SM2C_RT_WIN_SW] + kw * p[SM2C_RT_WIN_DW] - p[SM2C_RT_WIN_PL];
                            const float *xp = x + (((ptrdiff_t)n * H + ih) * W + iw) * C + o / OG * FC;
                            const float *wp = wo + ((ptrdiff_t)kh * KW + kw) * FC * 16;
                            for (ic = 0; ic < FC && (uint32_t)iw < (uint32_t)W; ic++)
                                s += xp[ic] * wp[(ptrdiff_t)ic * 16];
                        }
                    }
                    if (bias)
                        s += bias[o];
                    if (r)
                        s += r[at + o];
                    y[at + o] = sm2c_rt__act1(s, act);
                }
            }
}

#if SM2C_RT_WANT(conv2d_packed_f32)
void sm2c_rt_conv2d_packed_f32(const float *x, const float *w, const float *bias, float *y,
                               const int32_t *p, int32_t kind, float act_a, float act_b)
{
    const sm2c_rt__act av = { kind, act_a, act_b };

#if !SM2C_RT_SCALAR_CORE
    if (sm2c_rt__conv_blocked(x, w, bias, NULL, y, p, &av, 1))
        return;
#endif
    conv_packed_direct(x, w, bias, NULL, y, p, &av);
}
#endif

#if SM2C_RT_WANT(conv2d_add_packed_f32)
void sm2c_rt_conv2d_add_packed_f32(const float *x, const float *w, const float *bias, const float *r,
                                   float *y, const int32_t *p, int32_t kind, float act_a, float act_b)
{
    const sm2c_rt__act av = { kind, act_a, act_b };

#if !SM2C_RT_SCALAR_CORE
    if (sm2c_rt__conv_blocked(x, w, bias, r, y, p, &av, 1))
        return;
#endif
    conv_packed_direct(x, w, bias, r, y, p, &av);
}
#endif

#if SM2C_RT_WANT(conv2d_packed_f32_channels)
/* Output channels [c0, c1) of a packed Conv2D (r: its residual, or NULL),
** as the whole kernel computes them; c0 a multiple of 32, c1 one or OC.
** Returns 0, writing nothing, where the kernel does not run the blocks. */
int32_t sm2c_rt_conv2d_packed_f32_channels(const float *x, const float *w, const float *bias, const float *r,
                                           float *y, const int32_t *p, int32_t kind, float act_a, float act_b,
                                           int32_t c0, int32_t c1)
{
#if SM2C_RT_SCALAR_CORE
    (void)x, (void)w, (void)bias, (void)r, (void)y, (void)p, (void)kind, (void)act_a, (void)act_b, (void)c0, (void)c1;
    return 0;
#else
    const sm2c_rt__act av = { kind, act_a, act_b };

    if (c0 % 32 || (c1 % 32 && c1 != p[SM2C_RT_WIN_OC]) || c0 < 0 || c1 > p[SM2C_RT_WIN_OC] || c0 >= c1)
        return 0;
    return sm2c_rt__conv_blocked_range(x, w, bias, r, y, p, &av, 1, c0, c1);
#endif
}
#endif

#if SM2C_RT_WANT(conv2d_f32_packs)
#if !SM2C_RT_SCALAR_CORE
/* A 1x1 layer of at most 16 pixels and a filter of 64 KB or more (VWW's last
** two: 9 pixels, 128 and 256 KB) reads each weight for a few multiply-adds:
** its time is the filter's.  Split into tasks by pixels, every task streams
** the whole filter; the packed conv blocks split it by output channels
** instead (par_f32.c's conv_slices), half the filter a task on two threads
** (VWW's 256 KB layer 11.1 -> 8.2 us on 2 threads; 14.7 -> 15.1 on one). */
static int conv_filter_bound(const int32_t *p) /* of a 1x1 layer */
{
    const int64_t pixels = (int64_t)p[SM2C_RT_WIN_N] * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW];

    return pixels <= 16 && p[SM2C_RT_WIN_OC] > 32 &&
           (int64_t)p[SM2C_RT_WIN_C] * p[SM2C_RT_WIN_OC] * (int64_t)sizeof(float) >= 64 * 1024;
}
#endif

/* Whether the conv blocks run this layer (the residual form's when
** `residual`) on a vector unit, so that a packed filter pays: not 1x1 layers
** the plain form runs as a matmul (but for those whose filter bounds their
** time, conv_filter_bound), not where the blocks refuse. */
int32_t sm2c_rt_conv2d_f32_packs(const int32_t *p, int32_t residual)
{
#if SM2C_RT_SCALAR_CORE
    (void)p, (void)residual;
    return 0;
#else
    return sm2c_rt__conv_blocks_take(p) && (residual || !conv_is_matmul(p) || conv_filter_bound(p));
#endif
}
#endif

#if SM2C_RT_WANT(depthwise_conv2d_f32)
void sm2c_rt_depthwise_conv2d_f32(const float *x, const float *w, const float *bias, float *y,
                                  const int32_t *p, int32_t kind, float act_a, float act_b)
{
    const sm2c_rt__act av = { kind, act_a, act_b }, *act = &av;

#if SM2C_RT_SCALAR_CORE
    depthwise_scalar(x, w, bias, y, p, act);
#else
    if (!sm2c_rt__depthwise_blocked(x, w, bias, y, p, act))
        depthwise_direct(x, w, bias, y, p, act);
#endif
}
#endif

#if SM2C_RT_WANT(depthwise_conv2d_f32_channels)
/* Output channels [c0, c1) of a depthwise layer with multiplier 1 (all
** strides the whole layer's), as the whole kernel computes them; c0 and c1
** multiples of 32 (c1 may be C).  Returns 0, writing nothing, where the
** kernel has no such path: a scalar FPU or a multiplier above 1. */
int32_t sm2c_rt_depthwise_conv2d_f32_channels(const float *x, const float *w, const float *bias, float *y,
                                              const int32_t *p, int32_t kind, float act_a, float act_b,
                                              int32_t c0, int32_t c1)
{
#if SM2C_RT_SCALAR_CORE
    (void)x, (void)w, (void)bias, (void)y, (void)p, (void)kind, (void)act_a, (void)act_b, (void)c0, (void)c1;
    return 0;
#else
    const sm2c_rt__act av = { kind, act_a, act_b };

    if (c0 % DB_SLICE || (c1 % DB_SLICE && c1 != p[SM2C_RT_WIN_C]) || c0 < 0 || c1 > p[SM2C_RT_WIN_C] ||
        c0 >= c1)
        return 0;
    return sm2c_rt__depthwise_blocked_range(x, w, bias, y, p, &av, c0, c1);
#endif
}
#endif

#if SM2C_RT_WANT(depthwise_conv2d_f32_row_tile)
/* The output rows the depthwise kernel sums at once (a column tile, as
** dw_block_f32.h takes them), and in *first the first row of its tiles:
** from there on it takes interior rows that many at a time, so a band whose
** interior is a multiple of it leaves no row to be taken alone.  1 where it
** has no tiles (a scalar FPU, a multiplier above 1). */
int32_t sm2c_rt_depthwise_conv2d_f32_row_tile(const int32_t *p, int32_t *first)
{
    int32_t hi;

    *first = 0;
#if SM2C_RT_SCALAR_CORE
    (void)p, (void)hi;
    return 1;
#else
    if (!SM2C_RT_BLOCK_PORTABLE || p[SM2C_RT_WIN_FC] != 1 || p[SM2C_RT_WIN_C] <= 0)
        return 1;
    db_rows_inside(p, first, &hi);
    return db_choose(p[SM2C_RT_WIN_C], hi - *first).pixels;
#endif
}
#endif

#if SM2C_RT_SCALAR_CORE
#define SM2C_RT_SPECIAL_conv2d_f32(x, w, bias, y, p, act, a, b) \
    conv_scalar(x, w, bias, NULL, y, p, &(const sm2c_rt__act){ (act), (a), (b) })
#define SM2C_RT_SPECIAL_conv2d_add_f32(x, w, bias, r, y, p, act, a, b) \
    conv_scalar(x, w, bias, r, y, p, &(const sm2c_rt__act){ (act), (a), (b) })
#define SM2C_RT_SPECIAL_depthwise_conv2d_f32(x, w, bias, y, p, act, a, b) \
    depthwise_scalar(x, w, bias, y, p, &(const sm2c_rt__act){ (act), (a), (b) })
#endif
