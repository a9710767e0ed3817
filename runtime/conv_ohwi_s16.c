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

/* a += row w0 . x, b += row w1 . x over the n4 groups of four values that
** start at w0, w1 and x (the rows in the swapped order), in int32: pointers
** walk the rows, so that the loop keeps its dozen values in registers. */
static SM2C_RT_ALWAYS_INLINE void co16_quads(const int8_t *w0, const int8_t *w1, const int16_t *x, int32_t n4,
                                             int32_t *a, int32_t *b)
{
    int32_t sa = *a, sb = *b;
    const int16_t *const xe = x + 4 * (ptrdiff_t)n4;
#if SM2C_RT_DSP_ASM
    /* The loop as gcc -Os would not keep it: every value in a register, one
    ** branch, 14 instructions per 8 products. */
    if (n4 > 0) {
        uint32_t u, v, x01, x23, t;
        __asm__ volatile("1:\n\t"
                         "ldr %[u], [%[w0]], #4\n\t"
                         "ldr %[v], [%[w1]], #4\n\t"
                         "ldr %[x01], [%[x]], #4\n\t"
                         "ldr %[x23], [%[x]], #4\n\t"
                         "sxtb16 %[t], %[u]\n\t"
                         "smlad %[sa], %[t], %[x01], %[sa]\n\t"
                         "sxtb16 %[t], %[u], ror #8\n\t"
                         "smlad %[sa], %[t], %[x23], %[sa]\n\t"
                         "sxtb16 %[t], %[v]\n\t"
                         "smlad %[sb], %[t], %[x01], %[sb]\n\t"
                         "sxtb16 %[t], %[v], ror #8\n\t"
                         "smlad %[sb], %[t], %[x23], %[sb]\n\t"
                         "cmp %[x], %[xe]\n\t"
                         "blo 1b"
                         : [sa] "+r"(sa), [sb] "+r"(sb), [w0] "+r"(w0), [w1] "+r"(w1), [x] "+r"(x), [u] "=&r"(u),
                           [v] "=&r"(v), [x01] "=&r"(x01), [x23] "=&r"(x23), [t] "=&r"(t)
                         : [xe] "r"(xe)
                         : "cc", "memory");
    }
#elif SM2C_RT_DSP_S8
    for (; x < xe; x += 4, w0 += 4, w1 += 4) {
        int16x2_t x01, x23;
        memcpy(&x01, x, sizeof x01);
        memcpy(&x23, x + 2, sizeof x23);
        const uint32_t u = dsp8_load(w0), v = dsp8_load(w1);
        sa = __smlad(dsp8_even(u), x01, sa);   /* the swap makes the even bytes (k, k+1) */
        sa = __smlad(dsp8_odd(u), x23, sa);
        sb = __smlad(dsp8_even(v), x01, sb);
        sb = __smlad(dsp8_odd(v), x23, sb);
    }
#else
    for (; x < xe; x += 4, w0 += 4, w1 += 4) {   /* bytes (k, k+2, k+1, k+3) */
        sa += w0[0] * x[0] + w0[2] * x[1] + w0[1] * x[2] + w0[3] * x[3];
        sb += w1[0] * x[0] + w1[2] * x[1] + w1[1] * x[2] + w1[3] * x[3];
    }
#endif
    *a = sa, *b = sb;
}

/* The int64 dot products of rows o and o + 1 (o + 1 < n, else row o twice)
** with x: runs of 512 products in int32, the K % 4 tail in order. */
static void co16_pair(const int8_t *w, int32_t K, int32_t o, int32_t n, const int16_t *x, int64_t *d)
{
    const int8_t *w0 = w + (ptrdiff_t)o * K, *w1 = o + 1 < n ? w0 + K : w0;
    const int32_t quads = K & ~3;
    d[0] = d[1] = 0;
    for (int32_t k0 = 0; k0 < quads; k0 += CO16_RUN) {
        int32_t a = 0, b = 0;
        const int32_t k1 = quads - k0 < CO16_RUN ? quads : k0 + CO16_RUN;
        co16_quads(w0 + k0, w1 + k0, x + k0, (k1 - k0) / 4, &a, &b);
        d[0] += a, d[1] += b;
    }
    for (int32_t k = quads; k < K; k++) {   /* fewer than four: int32 is plenty */
        d[0] += (int32_t)w0[k] * x[k];
        d[1] += (int32_t)w1[k] * x[k];
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
