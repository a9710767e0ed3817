/*
** conv_s16.c: the contractions of TFLite's 16x8 scheme (--quantize int16x8):
** int16 activations (symmetric, zero point 0), int8 filters per output
** channel, int64 biases, as TFLite's reference ConvPerChannel,
** DepthwiseConvPerChannel and FullyConnectedPerChannel compute them for
** int16 input:
**
**     acc = bias[o] + sum over taps inside the input of w * x     (int64)
**     y   = clamp(requant64(acc, mult[o], shift[o]), act_min, act_max)
**
** except that FullyConnected, as TFLite's reference kernel, scales in
** double: y = clamp(round(acc * scale[o])), scale[o] = in_scale *
** w_scale[o] / out_scale in double, halves away from zero.
**
** Taps outside the input are skipped (padding with zero).  Each product
** fits in 23 bits, so runs of up to 256 of them sum in int32 and add into
** int64 (the compiler keeps |acc| below 2^47, requant64's bound); integer
** sums are exact, so the order gives TFLite's result.  Filters keep TensorFlow's layout: Conv2D [KH, KW,
** C, OC], depthwise [KH, KW, C, M] with output c*M + m; FullyConnected's
** is transposed, [N, K].
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dsp_s8.h"
#include "q16_math.h"
#include "rt_select.h"
#include "rt_target.h" /* SM2C_RT_SCALAR_CORE */
#include "simd_f32.h" /* SM2C_RT_VECTORISE */
#include "sm2c_rt.h"

/* Output channels summed together; products summed in int32 before int64. */
enum { CS16_OB = 32, CS16_K = 256 };

#if SM2C_RT_WANT(conv2d_s16) || SM2C_RT_WANT(depthwise_conv2d_s16)
static inline int32_t cs16_in(const int32_t *p, int32_t o, int32_t k, int32_t s, int32_t d, int32_t pad)
{
    return o * p[s] + k * p[d] - p[pad];
}

static void cs16_store(const int64_t *acc, int32_t o0, int32_t ob, const int64_t *bias, const int32_t *mult,
                       const int32_t *shift, int32_t act_min, int32_t act_max, int16_t *y)
{
    for (int32_t j = 0; j < ob; j++) {
        const int32_t o = o0 + j;
        const int64_t a = acc[j] + (bias ? bias[o] : 0);
        y[j] = sm2c_rt__clamp_s16(sm2c_rt__requant64(a, mult[o], shift[o]), act_min, act_max);
    }
}

/* acc[j] += part[j] and part[j] = 0, j < ob: the int32 partial sums flushed. */
static inline void cs16_flush(int64_t *acc, int32_t *part, int32_t ob)
{
    for (int32_t j = 0; j < ob; j++) {
        acc[j] += part[j];
        part[j] = 0;
    }
}

/* acc[j] = the sum for output channel o0 + j, j < ob, of pixel (n, oh, ow):
** products summed in int32 (vectorised across j), flushed into int64 before
** a run passes CS16_K * 2 products (each below 2^22 in magnitude). */
SM2C_RT_VECTORISE static void cs16_block(const int16_t *x, const int8_t *w, const int32_t *p, int32_t n, int32_t oh,
                                         int32_t ow, int32_t o0, int32_t ob, int depthwise, int64_t *acc)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t KW = p[SM2C_RT_WIN_KW], OC = p[SM2C_RT_WIN_OC];
    const int32_t M = p[SM2C_RT_WIN_FC] > 0 ? p[SM2C_RT_WIN_FC] : 1;
    int32_t part[CS16_OB], run = 0;
    for (int32_t j = 0; j < ob; j++)
        acc[j] = 0, part[j] = 0;
    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++) {
        const int32_t ih = cs16_in(p, oh, kh, SM2C_RT_WIN_SH, SM2C_RT_WIN_DH, SM2C_RT_WIN_PT);
        if ((uint32_t)ih >= (uint32_t)H)
            continue;
        for (int32_t kw = 0; kw < KW; kw++) {
            const int32_t iw = cs16_in(p, ow, kw, SM2C_RT_WIN_SW, SM2C_RT_WIN_DW, SM2C_RT_WIN_PL);
            if ((uint32_t)iw >= (uint32_t)W)
                continue;
            const int16_t *xp = x + (((ptrdiff_t)n * H + ih) * W + iw) * C;
            if (depthwise) {   /* output o reads input channel o / M */
                const int8_t *wp = w + ((ptrdiff_t)kh * KW + kw) * OC + o0;
                if (++run > 2 * CS16_K)
                    cs16_flush(acc, part, ob), run = 1;
                if (M == 1)
                    for (int32_t j = 0; j < ob; j++)
                        part[j] += (int32_t)wp[j] * xp[o0 + j];
                else
                    for (int32_t j = 0; j < ob; j++)
                        part[j] += (int32_t)wp[j] * xp[(o0 + j) / M];
                continue;
            }
            const int8_t *wp = w + ((ptrdiff_t)kh * KW + kw) * C * OC + o0;
            for (int32_t c0 = 0; c0 < C; c0 += CS16_K) {
                const int32_t end = C - c0 < CS16_K ? C : c0 + CS16_K;
                if (run + (end - c0) > 2 * CS16_K)
                    cs16_flush(acc, part, ob), run = 0;
                run += end - c0;
                for (int32_t c = c0; c < end; c++)
                    for (int32_t j = 0; j < ob; j++)
                        part[j] += (int32_t)wp[(ptrdiff_t)c * OC + j] * xp[c];
            }
        }
    }
    cs16_flush(acc, part, ob);
}

/* Depthwise on a scalar core: per output pixel the taps inside the input
** listed once (at most CS16_TAPS: their int32 sums then stay below 2^28),
** then each output channel's sum over them in a register; with the DSP
** extension and multiplier 1, four channels at a time: two words of int16
** inputs, one of int8 filter values split by SXTB16 into (w0, w2) and (w1,
** w3), and SMLAxy's halfword products, one per channel. */
enum { CS16_TAPS = 64 };

static SM2C_RT_ALWAYS_INLINE void cs16_dw_store(int64_t acc, int32_t o, const int64_t *bias, const int32_t *mult,
                                 const int32_t *shift, int32_t act_min, int32_t act_max, int16_t *yp)
{
    acc += bias ? bias[o] : 0;
    yp[o] = sm2c_rt__clamp_s16(sm2c_rt__requant64(acc, mult[o], shift[o]), act_min, act_max);
}

static int cs16_depthwise_scalar(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y,
                                 const int32_t *p, const int32_t *mult, const int32_t *shift, int32_t act_min,
                                 int32_t act_max)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW], OC = p[SM2C_RT_WIN_OC];
    const int32_t M = p[SM2C_RT_WIN_FC] > 0 ? p[SM2C_RT_WIN_FC] : 1;
    int32_t xo[CS16_TAPS], wo[CS16_TAPS];
    if (!SM2C_RT_SCALAR_CORE || KH * KW > CS16_TAPS)
        return 0;
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < p[SM2C_RT_WIN_OH]; oh++)
            for (int32_t ow = 0; ow < p[SM2C_RT_WIN_OW]; ow++) {
                int16_t *yp = y + (((ptrdiff_t)n * p[SM2C_RT_WIN_OH] + oh) * p[SM2C_RT_WIN_OW] + ow) * OC;
                int32_t taps = 0;
                for (int32_t kh = 0; kh < KH; kh++) {
                    const int32_t ih = cs16_in(p, oh, kh, SM2C_RT_WIN_SH, SM2C_RT_WIN_DH, SM2C_RT_WIN_PT);
                    for (int32_t kw = 0; (uint32_t)ih < (uint32_t)H && kw < KW; kw++) {
                        const int32_t iw = cs16_in(p, ow, kw, SM2C_RT_WIN_SW, SM2C_RT_WIN_DW, SM2C_RT_WIN_PL);
                        if ((uint32_t)iw >= (uint32_t)W)
                            continue;
                        xo[taps] = ((n * H + ih) * W + iw) * C;
                        wo[taps++] = (kh * KW + kw) * OC;
                    }
                }
                int32_t o = 0;
#if SM2C_RT_DSP_S8
                for (; M == 1 && o + 4 <= OC; o += 4) {
                    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
                    for (int32_t t = 0; t < taps; t++) {
                        int32_t x01, x23;
                        memcpy(&x01, x + xo[t] + o, sizeof x01);
                        memcpy(&x23, x + xo[t] + o + 2, sizeof x23);
                        const uint32_t wv = dsp8_load(w + wo[t] + o);
                        const int32_t w02 = (int32_t)dsp8_even(wv), w13 = (int32_t)dsp8_odd(wv);
                        a0 = __smlabb(x01, w02, a0);
                        a1 = __smlatb(x01, w13, a1);
                        a2 = __smlabt(x23, w02, a2);
                        a3 = __smlatt(x23, w13, a3);
                    }
                    cs16_dw_store(a0, o, bias, mult, shift, act_min, act_max, yp);
                    cs16_dw_store(a1, o + 1, bias, mult, shift, act_min, act_max, yp);
                    cs16_dw_store(a2, o + 2, bias, mult, shift, act_min, act_max, yp);
                    cs16_dw_store(a3, o + 3, bias, mult, shift, act_min, act_max, yp);
                }
#endif
                for (; o < OC; o++) {
                    const int32_t c = o / M;
                    int32_t acc = 0;
                    for (int32_t t = 0; t < taps; t++)
                        acc += (int32_t)w[wo[t] + o] * x[xo[t] + c];
                    cs16_dw_store(acc, o, bias, mult, shift, act_min, act_max, yp);
                }
            }
    return 1;
}

static void cs16_conv(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y, const int32_t *p,
                      const int32_t *mult, const int32_t *shift, int32_t act_min, int32_t act_max, int depthwise)
{
    const int32_t OC = p[SM2C_RT_WIN_OC];
    int64_t acc[CS16_OB];
    if (depthwise && cs16_depthwise_scalar(x, w, bias, y, p, mult, shift, act_min, act_max))
        return;
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < p[SM2C_RT_WIN_OH]; oh++)
            for (int32_t ow = 0; ow < p[SM2C_RT_WIN_OW]; ow++) {
                int16_t *yp = y + (((ptrdiff_t)n * p[SM2C_RT_WIN_OH] + oh) * p[SM2C_RT_WIN_OW] + ow) * OC;
                for (int32_t o0 = 0; o0 < OC; o0 += CS16_OB) {
                    const int32_t ob = OC - o0 < CS16_OB ? OC - o0 : CS16_OB;
                    cs16_block(x, w, p, n, oh, ow, o0, ob, depthwise, acc);
                    cs16_store(acc, o0, ob, bias, mult, shift, act_min, act_max, yp + o0);
                }
            }
}
#endif

#if SM2C_RT_WANT(conv2d_s16)
void sm2c_rt_conv2d_s16(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y, const int32_t *p,
                        const int32_t *mult, const int32_t *shift, int32_t act_min, int32_t act_max)
{
    cs16_conv(x, w, bias, y, p, mult, shift, act_min, act_max, 0);
}
#endif

#if SM2C_RT_WANT(depthwise_conv2d_s16)
void sm2c_rt_depthwise_conv2d_s16(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y,
                                  const int32_t *p, const int32_t *mult, const int32_t *shift, int32_t act_min,
                                  int32_t act_max)
{
    cs16_conv(x, w, bias, y, p, mult, shift, act_min, act_max, 1);
}
#endif

#if SM2C_RT_WANT(fully_connected_s16)

void sm2c_rt_fully_connected_s16(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y,
                                 int32_t rows, int32_t k, int32_t n, const double *scale, int32_t act_min,
                                 int32_t act_max)
{
    for (int32_t r = 0; r < rows; r++) {
        const int16_t *xr = x + (ptrdiff_t)r * k;
        for (int32_t o = 0; o < n; o++) {
            const int8_t *wo = w + (ptrdiff_t)o * k;
            int64_t acc = bias ? bias[o] : 0;
            for (int32_t i0 = 0; i0 < k; i0 += CS16_K) {
                const int32_t end = k - i0 < CS16_K ? k : i0 + CS16_K;
                int32_t part = 0;
                for (int32_t i = i0; i < end; i++)
                    part += (int32_t)wo[i] * xr[i];
                acc += part;
            }
            y[(ptrdiff_t)r * n + o] = sm2c_rt__clamp_s16(sm2c_rt__round_d((double)acc * scale[o]), act_min, act_max);
        }
    }
}
#endif
