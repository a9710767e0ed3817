/*
** conv_ohwi_s8.c: int8 Conv2D without groups for a microcontroller, over a
** filter the compiler laid out for SMLAD (ops_q8.c, for Cortex-M targets).
** K = KH*KW*C values per output channel in TFLite's [OC, KH, KW, C] order;
** the channels by groups of four: for each pair of values (k,
** k+1), KP = K rounded up to even, two words, bytes (c0 k, c1 k, c0 k+1,
** c1 k+1) and the same of c2, c3, value K of an odd K 0.  SXTB16 turns a word
** into channel c0's int16 pair (k, k+1), and with its rotation into c1's.
** The last OC % 4 channels follow as rows of K, the middle two of each four
** values below K & ~3 swapped: bytes (k, k+2, k+1, k+3), whose SXTB16s are
** the pairs (k, k+1) and (k+2, k+3).
**
** Two output pixels at a time, each pixel's window is copied once into
** col (arena scratch of 2*K + 2 int16, planned by the compiler; the two
** columns interleave by pairs of values) as x - in_zp, taps in the padding
** 0 (padding with the input's zero point); then every group of four
** channels takes its eight dot products with the two columns in registers:
** per pair of values four loads, four SXTB16 and eight SMLADs, against six
** loads for the same sixteen products by pairs of channels (CMSIS-NN's
** mat_mult_kernel_s8_s16).  The sums are requantized through q8_m.h (SMMULR
** where it is exact); when every channel takes that short way, one call
** (co8_groups_asm) runs all the groups of a pixel pair from the biases to
** the stores.  Without the DSP extension the same loops run in C.
**
** The sums are TFLite's reference ConvPerChannel's (conv_s8.c): integer sums
** are exact, and the compiler proves that every partial sum, the bias
** included, fits int32 (reliability.md, section 6.5).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dsp_s8.h"
#include "q8_m.h"
#include "rt_select.h" /* SM2C_RT_NOINLINE */
#include "sm2c_rt.h"

/* Where column j's value k lies in col, relative to col + 2j: the columns
** interleave by pairs, (k, k+1) of column 0 then of column 1 for even k, so
** that one pointer walks both. */
static inline int32_t co8_at(int32_t k)
{
    return 2 * k - (k & 1);
}

/* Values k .. k+n-1 of a column (colj = col + 2j): x[c] - zp as int16. */
static inline void co8_widen(const int8_t *x, int32_t n, int32_t zp, int16_t *colj, int32_t k)
{
    int32_t c = 0;
#if SM2C_RT_DSP_S8
    const int16x2_t off = dsp8_splat(-zp);
    for (; (k & 1) == 0 && c + 4 <= n; c += 4) {
        const uint32_t v = dsp8_load(x + c);
        const int16x2_t e = __sadd16(dsp8_even(v), off), o = __sadd16(dsp8_odd(v), off); /* (0, 2), (1, 3) */
        const int16x2_t lo = dsp8_pack_lo(e, o), hi = dsp8_pack_hi(e, o);                /* (0, 1), (2, 3) */
        memcpy(colj + co8_at(k + c), &lo, sizeof lo);
        memcpy(colj + co8_at(k + c + 2), &hi, sizeof hi);
    }
#endif
    for (; c < n; c++)
        colj[co8_at(k + c)] = (int16_t)((int32_t)x[c] - zp);
}

static inline void co8_zero(int16_t *colj, int32_t k, int32_t n)
{
    for (int32_t i = k; i < k + n; i++)
        colj[co8_at(i)] = 0;
}

/* An output pixel's place: image n, row oh, column ow. */
typedef struct {
    int32_t n, oh, ow;
} co8_pos;

/* The place of the pixel after a, in row-major order: a step instead of
** three divisions a pixel. */
static SM2C_RT_ALWAYS_INLINE co8_pos co8_next(co8_pos a, const int32_t *p)
{
    if (++a.ow == p[SM2C_RT_WIN_OW]) {
        a.ow = 0;
        if (++a.oh == p[SM2C_RT_WIN_OH])
            a.oh = 0, a.n++;
    }
    return a;
}

/* A 1x1 window's input pixel (n, oh * SH, ow * SW) of output pixel a. */
static const int8_t *co8_pixel_1x1(const int8_t *x, const int32_t *p, co8_pos a)
{
    return x + (((ptrdiff_t)a.n * p[SM2C_RT_WIN_H] + (ptrdiff_t)a.oh * p[SM2C_RT_WIN_SH]) * p[SM2C_RT_WIN_W] +
                (ptrdiff_t)a.ow * p[SM2C_RT_WIN_SW]) * p[SM2C_RT_WIN_C];
}

/* Values k .. k+n-1 of both columns (col: the columns' start) from n
** values of pixels x0 and x1 at once (a 1x1 window, or a row of taps inside
** the input): from an even value on, per four values, the four words of col
** (co8_at's order) from one word of each pixel.  Not inlined: a loop of few
** live values, which gcc keeps in registers. */
static SM2C_RT_NOINLINE void co8_widen2(const int8_t *x0, const int8_t *x1, int32_t n, int32_t zp, int16_t *col,
                                        int32_t k)
{
    int32_t c = 0;
#if SM2C_RT_DSP_S8
    if (k & 1) {
        col[co8_at(k)] = (int16_t)((int32_t)x0[0] - zp);
        col[co8_at(k) + 2] = (int16_t)((int32_t)x1[0] - zp);
        c = 1;
    }
    const int16x2_t off = dsp8_splat(-zp);
    for (int16_t *cp = col + co8_at(k + c); c + 4 <= n; c += 4, cp += 8) {
        const uint32_t a = dsp8_load(x0 + c), b = dsp8_load(x1 + c);
        const int16x2_t ae = __sadd16(dsp8_even(a), off), ao = __sadd16(dsp8_odd(a), off);
        const int16x2_t be = __sadd16(dsp8_even(b), off), bo = __sadd16(dsp8_odd(b), off);
        const int16x2_t v0 = dsp8_pack_lo(ae, ao), v1 = dsp8_pack_lo(be, bo);
        const int16x2_t v2 = dsp8_pack_hi(ae, ao), v3 = dsp8_pack_hi(be, bo);
        memcpy(cp, &v0, sizeof v0);
        memcpy(cp + 2, &v1, sizeof v1);
        memcpy(cp + 4, &v2, sizeof v2);
        memcpy(cp + 6, &v3, sizeof v3);
    }
#endif
    for (; c < n; c++) {
        col[co8_at(k + c)] = (int16_t)((int32_t)x0[c] - zp);
        col[co8_at(k + c) + 2] = (int16_t)((int32_t)x1[c] - zp);
    }
}

/* The first value of output pixel a's window when all of it lies inside
** the input (dilation 1), else NULL. */
static const int8_t *co8_inside(const int8_t *x, const int32_t *p, co8_pos a)
{
    const int32_t ih = a.oh * p[SM2C_RT_WIN_SH] - p[SM2C_RT_WIN_PT];
    const int32_t iw = a.ow * p[SM2C_RT_WIN_SW] - p[SM2C_RT_WIN_PL];
    if (ih < 0 || iw < 0 || ih + p[SM2C_RT_WIN_KH] > p[SM2C_RT_WIN_H] || iw + p[SM2C_RT_WIN_KW] > p[SM2C_RT_WIN_W])
        return NULL;
    return x + (((ptrdiff_t)a.n * p[SM2C_RT_WIN_H] + ih) * p[SM2C_RT_WIN_W] + iw) * p[SM2C_RT_WIN_C];
}

/* Both columns of two windows inside the input (x0, x1 at their first
** values, dilation 1): each filter row's KW * C values a run of x. */
static void co8_im2col2(const int8_t *x0, const int8_t *x1, const int32_t *p, int32_t zp, int16_t *col)
{
    const int32_t L = p[SM2C_RT_WIN_KW] * p[SM2C_RT_WIN_C];
    const ptrdiff_t xrow = (ptrdiff_t)p[SM2C_RT_WIN_W] * p[SM2C_RT_WIN_C];
    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++, x0 += xrow, x1 += xrow)
        co8_widen2(x0, x1, L, zp, col, kh * L);
}

/* Column j (colj = col + 2j) of output pixel a: value (kh*KW + kw)*C + c.
** Without dilation along W a filter row's taps inside the input are one run
** of x, widened at once. */
static void co8_im2col(const int8_t *x, const int32_t *p, co8_pos a, int32_t zp, int16_t *colj)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW], DW = p[SM2C_RT_WIN_DW];
    const int32_t n = a.n, oh = a.oh, iw0 = a.ow * p[SM2C_RT_WIN_SW] - p[SM2C_RT_WIN_PL];
    /* the taps [kw0, kw1) inside the input, dilation 1 */
    const int32_t kw0 = iw0 < 0 ? -iw0 : 0, kw1 = W - iw0 < KW ? W - iw0 : KW;
    for (int32_t kh = 0, k = 0; kh < KH; kh++, k += KW * C) {
        const int32_t ih = oh * p[SM2C_RT_WIN_SH] + kh * p[SM2C_RT_WIN_DH] - p[SM2C_RT_WIN_PT];
        if ((uint32_t)ih >= (uint32_t)H) {
            co8_zero(colj, k, KW * C);
            continue;
        }
        const int8_t *xr = x + ((ptrdiff_t)n * H + ih) * W * C;
        if (DW == 1) {
            if (kw1 <= kw0) {
                co8_zero(colj, k, KW * C);
                continue;
            }
            co8_zero(colj, k, kw0 * C);
            co8_widen(xr + (ptrdiff_t)(iw0 + kw0) * C, (kw1 - kw0) * C, zp, colj, k + kw0 * C);
            co8_zero(colj, k + kw1 * C, (KW - kw1) * C);
            continue;
        }
        for (int32_t kw = 0; kw < KW; kw++) {
            const int32_t iw = iw0 + kw * DW;
            if ((uint32_t)iw < (uint32_t)W)
                co8_widen(xr + (ptrdiff_t)iw * C, C, zp, colj, k + kw * C);
            else
                co8_zero(colj, k + kw * C, C);
        }
    }
}

/* Values k .. k+n-1 of both columns 0: from an even value on, the pairs'
** four int16 lie together. */
static void co8_zero2(int16_t *col, int32_t k, int32_t n)
{
    if (n > 0 && (k & 1)) {
        col[co8_at(k)] = col[co8_at(k) + 2] = 0;
        k++, n--;
    }
    memset(col + 2 * k, 0, (size_t)(n & ~1) * 2 * sizeof *col);
    if (n & 1)
        col[co8_at(k + n - 1)] = col[co8_at(k + n - 1) + 2] = 0;
}

/* Both columns of pixels a and a + 1 of one output row at the border
** (dilation 1 along W): per filter row the taps inside both windows
** widened together, the others a column at a time, rows outside zeros.
** For taps of 8 channels or more (few values a call cost more than the
** pixels' own runs, co8_im2col's). */
static SM2C_RT_NOINLINE void co8_im2col_row2(const int8_t *x, const int32_t *p, co8_pos a, int32_t zp, int16_t *col)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW];
    const int32_t iw[2] = { a.ow * p[SM2C_RT_WIN_SW] - p[SM2C_RT_WIN_PL],
                            (a.ow + 1) * p[SM2C_RT_WIN_SW] - p[SM2C_RT_WIN_PL] };
    int32_t lo = 0, hi = KW; /* the taps both windows have inside */
    for (int32_t j = 0; j < 2; j++) {
        lo = -iw[j] > lo ? -iw[j] : lo;
        hi = W - iw[j] < hi ? W - iw[j] : hi;
    }
    hi = hi < lo ? lo : hi;
    for (int32_t kh = 0, k = 0; kh < KH; kh++, k += KW * C) {
        const int32_t ih = a.oh * p[SM2C_RT_WIN_SH] + kh * p[SM2C_RT_WIN_DH] - p[SM2C_RT_WIN_PT];
        if ((uint32_t)ih >= (uint32_t)H) {
            co8_zero2(col, k, KW * C);
            continue;
        }
        const int8_t *xr = x + ((ptrdiff_t)a.n * H + ih) * W * C;
        if (hi > lo)
            co8_widen2(xr + (ptrdiff_t)(iw[0] + lo) * C, xr + (ptrdiff_t)(iw[1] + lo) * C, (hi - lo) * C, zp, col,
                       k + lo * C);
        for (int32_t j = 0; j < 2; j++)
            for (int32_t kw = 0; kw < KW; kw++) {
                if (kw >= lo && kw < hi)
                    continue;
                if ((uint32_t)(iw[j] + kw) < (uint32_t)W)
                    co8_widen(xr + (ptrdiff_t)(iw[j] + kw) * C, C, zp, col + 2 * j, k + kw * C);
                else
                    co8_zero(col + 2 * j, k + kw * C, C);
            }
    }
}

/* s[2*r + j] += row r of the filter (w, w + K) . column j of col, for r,
** j < 2: one pointer walks both columns, eight int16 per four terms. */
static SM2C_RT_NOINLINE void co8_dot22(const int8_t *w, const int16_t *col, int32_t K, int32_t *s)
{
    const int8_t *w0 = w, *w1 = w + K, *const end = w + K;
    const int16_t *c = col;
    int32_t s00 = s[0], s01 = s[1], s10 = s[2], s11 = s[3];
#if SM2C_RT_DSP_ASM
    /* The loop in assembly: gcc 12 at -Os spills its thirteen registers.
    ** Per four terms: two filter words, each SXTB16'd into the pairs
    ** (k, k+1) and (k+2, k+3); four column words; eight SMLADs. */
    int32_t n = K >> 2;
    if (n > 0) {
        uint32_t a, b, alo, blo, xv;
        __asm__("1:\n\t"
                "ldr %[a], [%[w0]], #4\n\t"
                "ldr %[b], [%[w1]], #4\n\t"
                "ldr %[x], [%[c]], #4\n\t" /* column 0, terms k, k+1 */
                "sxtb16 %[alo], %[a]\n\t"
                "sxtb16 %[blo], %[b]\n\t"
                "smlad %[s00], %[alo], %[x], %[s00]\n\t"
                "smlad %[s10], %[blo], %[x], %[s10]\n\t"
                "ldr %[x], [%[c]], #4\n\t" /* column 1 */
                "smlad %[s01], %[alo], %[x], %[s01]\n\t"
                "smlad %[s11], %[blo], %[x], %[s11]\n\t"
                "sxtb16 %[a], %[a], ror #8\n\t"
                "sxtb16 %[b], %[b], ror #8\n\t"
                "ldr %[x], [%[c]], #4\n\t" /* column 0, terms k+2, k+3 */
                "smlad %[s00], %[a], %[x], %[s00]\n\t"
                "smlad %[s10], %[b], %[x], %[s10]\n\t"
                "ldr %[x], [%[c]], #4\n\t" /* column 1 */
                "smlad %[s01], %[a], %[x], %[s01]\n\t"
                "smlad %[s11], %[b], %[x], %[s11]\n\t"
                "subs %[n], %[n], #1\n\t"
                "bne 1b"
                : [s00] "+r"(s00), [s01] "+r"(s01), [s10] "+r"(s10), [s11] "+r"(s11), [w0] "+r"(w0),
                  [w1] "+r"(w1), [c] "+r"(c), [n] "+r"(n), [a] "=&r"(a), [b] "=&r"(b), [alo] "=&r"(alo),
                  [blo] "=&r"(blo), [x] "=&r"(xv)
                :
                : "cc", "memory");
    }
#else
    for (const int8_t *const quads = w + (K & ~3); w0 < quads; w0 += 4, w1 += 4, c += 8) {
        /* filter bytes (k, k+2, k+1, k+3); columns (k, k+1) of 0, of 1, (k+2, k+3) of 0, of 1 */
        s00 += w0[0] * c[0] + w0[2] * c[1] + w0[1] * c[4] + w0[3] * c[5];
        s01 += w0[0] * c[2] + w0[2] * c[3] + w0[1] * c[6] + w0[3] * c[7];
        s10 += w1[0] * c[0] + w1[2] * c[1] + w1[1] * c[4] + w1[3] * c[5];
        s11 += w1[0] * c[2] + w1[2] * c[3] + w1[1] * c[6] + w1[3] * c[7];
    }
#endif
    for (int32_t k = K & ~3; w0 < end; w0++, w1++, k++) {
        const int32_t x0 = col[co8_at(k)], x1 = col[co8_at(k) + 2];
        s00 += *w0 * x0, s01 += *w0 * x1;
        s10 += *w1 * x0, s11 += *w1 * x1;
    }
    s[0] = s00, s[1] = s01, s[2] = s10, s[3] = s11;
}

/* What the requantization shares across the layer; y1: where pixel 1's
** outputs lie from pixel 0's (OC, or 0 when the pair's two columns are one
** pixel's). */
typedef struct {
    ptrdiff_t y1;
    int32_t out_zp, lo, hi;
    int mode;
    const int32_t *mult, *shift;
} co8_out;

/* Channel o's outputs of sums s0 (pixel 0's, at y) and s1 (at y + y1),
** its requantization prepared once. */
static void co8_rq2(int32_t s0, int32_t s1, int32_t o, const co8_out *q, int8_t *y)
{
    if (q->mode == 2) {
        const int32_t m = q->mult[o], e = -q->shift[o];
        y[0] = sm2c_rt__clamp_s8(q8m_fast(s0, m, e) + q->out_zp, q->lo, q->hi);
        y[q->y1] = sm2c_rt__clamp_s8(q8m_fast(s1, m, e) + q->out_zp, q->lo, q->hi);
        return;
    }
    q8m_rq rq;
    q8m_prep(&rq, q->mult[o], q->shift[o], q->mode);
    y[0] = q8m_out(&rq, s0, q->out_zp, q->lo, q->hi);
    y[q->y1] = q8m_out(&rq, s1, q->out_zp, q->lo, q->hi);
}

/* s[2*r + j] += channel r of a group (wg, the layout above) . column j,
** r < 4, j < 2: per pair of values (k, k+1) the group's two words, bytes
** (c0 k, c1 k, c0 k+1, c1 k+1) and the same of c2, c3, against col's four
** int16 (k, k+1) of column 0 then of column 1. */
static void co8_dot42(const int8_t *wg, const int16_t *col, int32_t pairs, int32_t *s)
{
    /* channels 2h and 2h + 1 (word h of each pair) at a time: four sums, as
    ** a core without the DSP extension keeps them in registers */
    for (int32_t h = 0; h < 2; h++) {
        const int8_t *v = wg + 4 * h; /* v[0], v[2]: channel 2h's values k, k + 1; v[1], v[3]: 2h + 1's */
        const int16_t *c = col;
        int32_t a0 = s[4 * h], a1 = s[4 * h + 1], b0 = s[4 * h + 2], b1 = s[4 * h + 3];
        for (int32_t t = 0; t < pairs; t++, v += 8, c += 4) {
            a0 += v[0] * c[0] + v[2] * c[1];
            a1 += v[0] * c[2] + v[2] * c[3];
            b0 += v[1] * c[0] + v[3] * c[1];
            b1 += v[1] * c[2] + v[3] * c[3];
        }
        s[4 * h] = a0, s[4 * h + 1] = a1, s[4 * h + 2] = b0, s[4 * h + 3] = b1;
    }
}

/* The groups of four channels in C: sums, requantization, stores. */
static SM2C_RT_NOINLINE void co8_groups_c(const int8_t *w, const int16_t *col, int32_t pairs, int32_t groups,
                                          const int32_t *bias, const co8_out *q, int8_t *y)
{
    for (int32_t g = 0; g < groups; g++, w += 8 * (ptrdiff_t)pairs, y += 4) {
        int32_t s[8];
        for (int32_t r = 0; r < 4; r++)
            s[2 * r] = s[2 * r + 1] = bias ? bias[4 * g + r] : 0;
        co8_dot42(w, col, pairs, s);
        for (int32_t r = 0; r < 4; r++)
            co8_rq2(s[2 * r], s[2 * r + 1], 4 * g + r, q, y + r);
    }
}

#if SM2C_RT_DSP_ASM && defined(__thumb2__)
/* co8_groups_c's work as co8_groups_asm reads it (the assembly's offsets). */
typedef struct {
    const int8_t *w;               /* 0: the group's words */
    const int16_t *col;            /* 4 */
    int32_t pairs, groups;         /* 8, 12: pairs of values >= 0; groups left >= 1 */
    const int32_t *bias;           /* 16: the group's biases */
    int32_t bias_step;             /* 20: 16, or 0 (bias: four zeros) */
    const int32_t *mult, *shift;   /* 24, 28: the group's */
    int8_t *y;                     /* 32: pixel 0's output of the group's first channel */
    int32_t y1, zp21, lo, hi;      /* 36 .. 48: zp21 2 * out_zp + 1 */
} co8_job;

/* A pair of values of a group by a column pair: r10 the group's words, r11
** the columns; sums r2 r3 (channel 0, columns 0 and 1) .. r8 r9 (channel 3).
** Three loads in a row (the second and third pipelined), then the fourth. */
#define CO8_PAIR                                                                                               \
    "ldr r0, [r11], #4\n\t"                                                                                    \
    "ldr r1, [r11], #4\n\t"                                                                                    \
    "ldr r12, [r10], #4\n\t"                                                                                   \
    "sxtb16 lr, r12\n\t"                                                                                       \
    "smlad r2, lr, r0, r2\n\t"                                                                                 \
    "smlad r3, lr, r1, r3\n\t"                                                                                 \
    "sxtb16 lr, r12, ror #8\n\t"                                                                               \
    "smlad r4, lr, r0, r4\n\t"                                                                                 \
    "smlad r5, lr, r1, r5\n\t"                                                                                 \
    "ldr r12, [r10], #4\n\t"                                                                                   \
    "sxtb16 lr, r12\n\t"                                                                                       \
    "smlad r6, lr, r0, r6\n\t"                                                                                 \
    "smlad r7, lr, r1, r7\n\t"                                                                                 \
    "sxtb16 lr, r12, ror #8\n\t"                                                                               \
    "smlad r8, lr, r0, r8\n\t"                                                                                 \
    "smlad r9, lr, r1, r9\n\t"

/* Sum S requantized with the output's zero point added, r0 the multiplier,
** r12 e - 1 (e the right shift, 1 to 31), lr 2 * zp + 1: q8m_fast's (h +
** 2^(e-1)) >> e is ((h >> (e-1)) + 1) >> 1 (floors), and + zp joins the
** + 1 as 2 * zp before the last shift, so no channel needs its 2^(e-1). */
#define CO8_RQZ(S)                                                                                             \
    "lsls " S ", " S ", #1\n\t"                                                                                \
    "smmulr " S ", " S ", r0\n\t"                                                                              \
    "sub " S ", " S ", " S ", lsr #31\n\t"                                                                     \
    "asr " S ", " S ", r12\n\t"                                                                                \
    "add " S ", " S ", lr\n\t"                                                                                 \
    "asr " S ", " S ", #1\n\t"

/* A channel's two sums (S0, S1) requantized: its multiplier and shift from
** r10, r11 (post-incremented); -shift - 1 = ~shift. */
#define CO8_RQ2(S0, S1)                                                                                        \
    "ldr r0, [r10], #4\n\t"                                                                                    \
    "ldr r12, [r11], #4\n\t"                                                                                   \
    "mvn r12, r12\n\t" CO8_RQZ(S0) CO8_RQZ(S1)

/* co8_groups_c in assembly when every channel takes the short
** requantization: per group, the eight sums in registers from the bias to
** the stores, the pairs of values eight a turn (first the pairs % 4 one by
** one, then four if pairs % 8 >= 4), their ends compared on the stack; every
** register but sp and pc.  ([sp] the job, [sp, #4] the columns' end, [sp, #8]
** the single pairs', [sp, #12] the four's.) */
SM2C_RT_NAKED_STACK(co8_groups_asm, 52) /* r4-r11, lr and four words */
__attribute__((naked, noinline)) static void co8_groups_asm(co8_job *j __attribute__((unused)))
{
    __asm__(".syntax unified\n\t"
            "push {r4-r11, lr}\n\t"
            "sub sp, sp, #16\n\t"
            "str r0, [sp]\n\t"
            "ldr r1, [r0, #4]\n\t"
            "ldr r2, [r0, #8]\n\t"
            "add r3, r1, r2, lsl #3\n\t"
            "str r3, [sp, #4]\n\t"
            "and r3, r2, #7\n\t"
            "add r3, r1, r3, lsl #3\n\t"
            "str r3, [sp, #12]\n\t"
            "and r2, r2, #3\n\t"
            "add r3, r1, r2, lsl #3\n\t"
            "str r3, [sp, #8]\n"
            "1:\n\t"
            "ldr r1, [sp]\n\t"
            "ldr r10, [r1]\n\t"
            "ldr r11, [r1, #4]\n\t"
            "ldr r0, [r1, #16]\n\t"
            "ldm r0, {r2, r4, r6, r8}\n\t"
            "ldr r3, [r1, #20]\n\t"
            "add r0, r0, r3\n\t"
            "str r0, [r1, #16]\n\t"
            "mov r3, r2\n\t"
            "mov r5, r4\n\t"
            "mov r7, r6\n\t"
            "mov r9, r8\n\t"
            "ldr lr, [sp, #8]\n\t"
            "cmp r11, lr\n\t"
            "beq 3f\n"
            "2:\n\t" CO8_PAIR "ldr lr, [sp, #8]\n\t"
            "cmp r11, lr\n\t"
            "bne 2b\n"
            "3:\n\t"
            "ldr lr, [sp, #12]\n\t"
            "cmp r11, lr\n\t"
            "beq 4f\n\t" CO8_PAIR CO8_PAIR CO8_PAIR CO8_PAIR "4:\n\t"
            "ldr lr, [sp, #4]\n\t"
            "cmp r11, lr\n\t"
            "beq 5f\n"
            "9:\n\t" CO8_PAIR CO8_PAIR CO8_PAIR CO8_PAIR CO8_PAIR CO8_PAIR CO8_PAIR CO8_PAIR "ldr lr, [sp, #4]\n\t"
            "cmp r11, lr\n\t"
            "bne 9b\n"
            "5:\n\t"
            "ldr r1, [sp]\n\t"
            "str r10, [r1]\n\t" /* the next group's words */
            "ldr r10, [r1, #24]\n\t"
            "ldr r11, [r1, #28]\n\t"
            "ldr lr, [r1, #40]\n\t" CO8_RQ2("r2", "r3") CO8_RQ2("r4", "r5") CO8_RQ2("r6", "r7")
                CO8_RQ2("r8", "r9") "str r10, [r1, #24]\n\t"
            "str r11, [r1, #28]\n\t"
            "ldrd r11, r12, [r1, #44]\n\t" /* lo, hi */
            "cmn r11, #128\n\t"
            "bne 6f\n\t"
            "cmp r12, #127\n\t"
            "bne 6f\n\t"
            "ssat r2, #8, r2\n\t"
            "ssat r3, #8, r3\n\t"
            "ssat r4, #8, r4\n\t"
            "ssat r5, #8, r5\n\t"
            "ssat r6, #8, r6\n\t"
            "ssat r7, #8, r7\n\t"
            "ssat r8, #8, r8\n\t"
            "ssat r9, #8, r9\n\t"
            "b 7f\n"
            "6:\n\t" SM2C_RT_ASM_CLAMP("r2", "r11", "r12") SM2C_RT_ASM_CLAMP("r3", "r11", "r12")
                SM2C_RT_ASM_CLAMP("r4", "r11", "r12") SM2C_RT_ASM_CLAMP("r5", "r11", "r12")
                    SM2C_RT_ASM_CLAMP("r6", "r11", "r12") SM2C_RT_ASM_CLAMP("r7", "r11", "r12")
                        SM2C_RT_ASM_CLAMP("r8", "r11", "r12") SM2C_RT_ASM_CLAMP("r9", "r11", "r12") "7:\n\t"
            "ldr r0, [r1, #32]\n\t"
            "ldr r10, [r1, #36]\n\t"
            "strb r2, [r0]\n\t"
            "strb r4, [r0, #1]\n\t"
            "strb r6, [r0, #2]\n\t"
            "strb r8, [r0, #3]\n\t"
            "add r10, r10, r0\n\t"
            "strb r3, [r10]\n\t"
            "strb r5, [r10, #1]\n\t"
            "strb r7, [r10, #2]\n\t"
            "strb r9, [r10, #3]\n\t"
            "add r0, r0, #4\n\t"
            "str r0, [r1, #32]\n\t"
            "ldr r0, [r1, #12]\n\t"
            "subs r0, r0, #1\n\t"
            "str r0, [r1, #12]\n\t"
            "bne 1b\n\t"
            "add sp, sp, #16\n\t"
            "pop {r4-r11, pc}");
}
#undef CO8_PAIR
#undef CO8_RQ2
#undef CO8_RQZ
#endif

/* The groups of four channels, in assembly where it is built. */
static void co8_groups(const int8_t *w, const int16_t *col, int32_t pairs, int32_t groups, const int32_t *bias,
                       const co8_out *q, int8_t *y)
{
    if (groups <= 0)
        return;
#if SM2C_RT_DSP_ASM && defined(__thumb2__)
    static const int32_t zeros[4] = { 0, 0, 0, 0 };
    if (q->mode == 2) {
        co8_job j = { w, col, pairs, groups, bias ? bias : zeros, bias ? 16 : 0, q->mult, q->shift, y,
                      (int32_t)q->y1, 2 * q->out_zp + 1, q->lo, q->hi };
        co8_groups_asm(&j);
        return;
    }
#endif
    co8_groups_c(w, col, pairs, groups, bias, q, y);
}

/* s + row w . column colj (col + 2j): a last channel past the pairs. */
static int32_t co8_dot11(const int8_t *w, const int16_t *colj, int32_t K, int32_t s)
{
    int32_t k = 0;
#if SM2C_RT_DSP_S8
    for (; k + 4 <= (K & ~3); k += 4) {
        int16x2_t xa, xb;
        const uint32_t a = dsp8_load(w + k);
        memcpy(&xa, colj + 2 * k, sizeof xa);
        memcpy(&xb, colj + 2 * k + 4, sizeof xb);
        s = __smlad(dsp8_even(a), xa, s);
        s = __smlad(dsp8_odd(a), xb, s);
    }
#else
    for (; k + 4 <= (K & ~3); k += 4) {
        const int16_t *c = colj + 2 * k;
        s += w[k] * c[0] + w[k + 2] * c[1] + w[k + 1] * c[4] + w[k + 3] * c[5];
    }
#endif
    for (; k < K; k++)
        s += w[k] * colj[co8_at(k)];
    return s;
}

/* The last OC % 4 channels (w: their rows, o0 the first's index), both
** columns: by a pair of rows, then one. */
static SM2C_RT_NOINLINE void co8_rows(const int8_t *w, const int16_t *col, int32_t K, int32_t o0, int32_t OC,
                                      const int32_t *bias, const co8_out *q, int8_t *y)
{
    for (int32_t o = o0; o < OC; o += 2, w += 2 * (ptrdiff_t)K) {
        const int32_t no = OC - o < 2 ? 1 : 2;
        int32_t s[4];
        s[0] = s[1] = bias ? bias[o] : 0;
        s[2] = s[3] = no == 2 && bias ? bias[o + 1] : 0;
        if (no == 2) {
            co8_dot22(w, col, K, s);
        } else {
            s[0] = co8_dot11(w, col, K, s[0]);
            s[1] = co8_dot11(w, col + 2, K, s[1]);
        }
        for (int32_t r = 0; r < no; r++)
            co8_rq2(s[2 * r], s[2 * r + 1], o + r, q, y + o + r);
    }
}

void sm2c_rt_conv2d_ohwi_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, const int32_t *p,
                            const int32_t *mult, const int32_t *shift, int32_t in_zp, int32_t out_zp,
                            int32_t act_min, int32_t act_max, int16_t *col)
{
    const int32_t OC = p[SM2C_RT_WIN_OC];
    const int32_t K = p[SM2C_RT_WIN_KH] * p[SM2C_RT_WIN_KW] * p[SM2C_RT_WIN_C];
    const int32_t P = p[SM2C_RT_WIN_N] * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW];
    const int32_t pairs = (K + 1) / 2, groups = OC / 4;
    const int8_t *rows = w + (ptrdiff_t)groups * 8 * pairs; /* the last OC % 4 channels */
    co8_out q = { OC, out_zp, act_min, act_max, q8m_mode(K, bias, mult, shift, OC), mult, shift };
    const int one = p[SM2C_RT_WIN_KH] == 1 && p[SM2C_RT_WIN_KW] == 1 && p[SM2C_RT_WIN_PT] == 0 &&
                    p[SM2C_RT_WIN_PL] == 0; /* a 1x1 window always inside: the pixel's values */
    /* windows inside the input: a filter row's values one run */
    const int runs = p[SM2C_RT_WIN_DH] == 1 && p[SM2C_RT_WIN_DW] == 1;
    if (K & 1) /* value K of both columns, which the groups' zero padding multiplies */
        col[co8_at(K)] = col[co8_at(K) + 2] = 0;
    co8_pos a = { 0, 0, 0 }, b = a; /* pixels i and i + 1 */
    for (int32_t i = 0; i < P; i += 2, a = co8_next(b, p)) {
        /* an odd last pixel pairs with the one before it (b, the last pair's
        ** second), which is computed and stored again with the same values; a
        ** single pixel's two columns are its own, and both its outputs land
        ** on one place */
        if (i + 1 == P && i > 0)
            i--, a = b;
        const int32_t np = P - i < 2 ? 1 : 2;
        b = np == 2 ? co8_next(a, p) : a;
        const int8_t *w0 = NULL, *w1 = NULL;
        if (np == 2 && one) { /* co8_inside's case too, without its tests: 0.4% of DS-CNN */
            co8_widen2(co8_pixel_1x1(x, p, a), co8_pixel_1x1(x, p, b), K, in_zp, col, 0);
        } else if (np == 2 && runs && (w0 = co8_inside(x, p, a)) != NULL && (w1 = co8_inside(x, p, b)) != NULL) {
            co8_im2col2(w0, w1, p, in_zp, col);
        } else if (np == 2 && runs && p[SM2C_RT_WIN_C] >= 8 && a.oh == b.oh && a.n == b.n) {
            co8_im2col_row2(x, p, a, in_zp, col);
        } else {
            co8_im2col(x, p, a, in_zp, col);
            co8_im2col(x, p, b, in_zp, col + 2);
        }
        q.y1 = np == 2 ? OC : 0;
        int8_t *yp = y + (ptrdiff_t)i * OC;
        co8_groups(w, col, pairs, groups, bias, &q, yp);
        if (4 * groups < OC)
            co8_rows(rows, col, K, 4 * groups, OC, bias, &q, yp);
    }
}
