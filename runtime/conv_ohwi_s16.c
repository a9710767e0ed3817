/*
** conv_ohwi_s16.c: the 16x8 scheme's Conv2D (without groups) and
** FullyConnected for a microcontroller (--quantize int16x8 with a Cortex-M
** target), over filters the compiler laid out as conv_ohwi_s8.c's: one row
** of K values per output channel, TFLite's [OC, KH, KW, C] order (a
** FullyConnected's [N, K]), the middle two of each four values below K & ~3
** swapped, so that SXTB16 turns a word of a row into the int16 pairs (k,
** k+1) and (k+2, k+3).  The int16 input needs no widening: two of its values
** are one word, and SMLAD takes a word of each.
**
** Conv2D copies each output pixel's window into col (arena scratch of K + 2
** int16, planned by the compiler; taps in the padding 0), except a 1x1
** stride-1 unpadded one, whose window is the input pixel itself; then each
** pair of output channels takes the dot products of its two rows with it.
** A product is at most 127 * 32768 < 2^22 in magnitude, so runs of 512 sum
** exactly in int32 and add into int64 (conv_s16.c's sums, so TFLite's);
** requantization is conv_s16.c's (requant64 for Conv2D, double for
** FullyConnected, as TFLite's reference kernels).  Without the DSP
** extension the same loops run in C.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dsp_s8.h"
#include "q16_math.h"
#include "rt_select.h"
#include "sm2c_rt.h"

enum { CO16_RUN = 512 };   /* products summed in int32 before int64 */

/* Where value k of a row lies (the middle two of each four swapped below quads). */
static inline int32_t co16_at(int32_t k, int32_t quads)
{
    return k < quads ? (k & ~3) | ((k & 1) << 1) | ((k >> 1) & 1) : k;
}

/* s[0] += row w0 . x, s[1] += row w1 . x over k in [k0, k1), k0 a multiple of 4, in int32. */
static inline void co16_dot2(const int8_t *w0, const int8_t *w1, const int16_t *x, int32_t k0, int32_t k1,
                             int32_t quads, int32_t *s)
{
    int32_t a = 0, b = 0, k = k0;
#if SM2C_RT_DSP_S8
    for (; k + 4 <= k1 && k + 4 <= quads; k += 4) {
        int16x2_t x01, x23;
        memcpy(&x01, x + k, sizeof x01);
        memcpy(&x23, x + k + 2, sizeof x23);
        const uint32_t u = dsp8_load(w0 + k), v = dsp8_load(w1 + k);
        a = __smlad(dsp8_even(u), x01, a);   /* the swap makes the even bytes (k, k+1) */
        a = __smlad(dsp8_odd(u), x23, a);
        b = __smlad(dsp8_even(v), x01, b);
        b = __smlad(dsp8_odd(v), x23, b);
    }
#endif
    for (; k < k1; k++) {
        const int32_t at = co16_at(k, quads);
        a += (int32_t)w0[at] * x[k];
        b += (int32_t)w1[at] * x[k];
    }
    s[0] = a, s[1] = b;
}

/* The int64 dot products of rows o and o + 1 (o + 1 < n, else row o twice) with x. */
static void co16_pair(const int8_t *w, int32_t K, int32_t o, int32_t n, const int16_t *x, int64_t *d)
{
    const int8_t *w0 = w + (ptrdiff_t)o * K, *w1 = o + 1 < n ? w0 + K : w0;
    const int32_t quads = K & ~3;
    d[0] = d[1] = 0;
    for (int32_t k0 = 0; k0 < K; k0 += CO16_RUN) {
        int32_t s[2];
        co16_dot2(w0, w1, x, k0, K - k0 < CO16_RUN ? K : k0 + CO16_RUN, quads, s);
        d[0] += s[0], d[1] += s[1];
    }
}

#if SM2C_RT_WANT(conv2d_ohwi_s16)
/* Pixel i's window into col (K values, zeros in the padding). */
static void co16_window(const int16_t *x, const int32_t *p, int32_t i, int16_t *col)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW], OW = p[SM2C_RT_WIN_OW];
    const int32_t per_image = p[SM2C_RT_WIN_OH] * OW, n = i / per_image, oh = i % per_image / OW, ow = i % OW;
    for (int32_t kh = 0; kh < KH; kh++) {
        const int32_t ih = oh * p[SM2C_RT_WIN_SH] + kh * p[SM2C_RT_WIN_DH] - p[SM2C_RT_WIN_PT];
        for (int32_t kw = 0; kw < KW; kw++) {
            const int32_t iw = ow * p[SM2C_RT_WIN_SW] + kw * p[SM2C_RT_WIN_DW] - p[SM2C_RT_WIN_PL];
            int16_t *dst = col + ((ptrdiff_t)kh * KW + kw) * C;
            if ((uint32_t)ih >= (uint32_t)H || (uint32_t)iw >= (uint32_t)W)
                memset(dst, 0, (size_t)C * sizeof *dst);
            else
                memcpy(dst, x + (((ptrdiff_t)n * H + ih) * W + iw) * C, (size_t)C * sizeof *dst);
        }
    }
}

void sm2c_rt_conv2d_ohwi_s16(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y, const int32_t *p,
                             const int32_t *mult, const int32_t *shift, int32_t act_min, int32_t act_max,
                             int16_t *col)
{
    const int32_t C = p[SM2C_RT_WIN_C], OC = p[SM2C_RT_WIN_OC];
    const int32_t K = p[SM2C_RT_WIN_KH] * p[SM2C_RT_WIN_KW] * C;
    const int32_t pixels = p[SM2C_RT_WIN_N] * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW];
    const int direct = K == C && p[SM2C_RT_WIN_SH] == 1 && p[SM2C_RT_WIN_SW] == 1 && p[SM2C_RT_WIN_PT] == 0 &&
                       p[SM2C_RT_WIN_PL] == 0 && p[SM2C_RT_WIN_H] == p[SM2C_RT_WIN_OH] &&
                       p[SM2C_RT_WIN_W] == p[SM2C_RT_WIN_OW];
    for (int32_t i = 0; i < pixels; i++) {
        const int16_t *win = x + (ptrdiff_t)i * C;
        if (!direct) {
            co16_window(x, p, i, col);
            win = col;
        }
        int16_t *yp = y + (ptrdiff_t)i * OC;
        for (int32_t o = 0; o < OC; o += 2) {
            int64_t d[2];
            co16_pair(w, K, o, OC, win, d);
            for (int32_t j = 0; j < 2 && o + j < OC; j++) {
                const int64_t acc = d[j] + (bias ? bias[o + j] : 0);
                yp[o + j] = sm2c_rt__clamp_s16(sm2c_rt__requant64(acc, mult[o + j], shift[o + j]), act_min, act_max);
            }
        }
    }
}
#endif

#if SM2C_RT_WANT(fully_connected_m_s16)
void sm2c_rt_fully_connected_m_s16(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y,
                                   int32_t rows, int32_t k, int32_t n, const double *scale, int32_t act_min,
                                   int32_t act_max)
{
    for (int32_t r = 0; r < rows; r++)
        for (int32_t o = 0; o < n; o += 2) {
            int64_t d[2];
            co16_pair(w, k, o, n, x + (ptrdiff_t)r * k, d);
            for (int32_t j = 0; j < 2 && o + j < n; j++) {
                const int64_t acc = d[j] + (bias ? bias[o + j] : 0);
                y[(ptrdiff_t)r * n + o + j] =
                    sm2c_rt__clamp_s16(sm2c_rt__round_d((double)acc * scale[o + j]), act_min, act_max);
            }
        }
}
#endif
