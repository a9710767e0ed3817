/*
** conv_ohwi_s8.c: int8 Conv2D without groups for a microcontroller, over a
** filter the compiler laid out for SMLAD (ops_q8.c, for Cortex-M targets):
** one row of K = KH*KW*C values per output channel, TFLite's [OC, KH, KW, C]
** order, except that in each group of four values below K & ~3 the middle
** two are swapped: bytes (k, k+2, k+1, k+3).  SXTB16 then turns a word of
** a row into the int16 pairs (k, k+1) and (k+2, k+3) with no packing.
**
** Two output pixels at a time, each pixel's window is copied once into
** col (arena scratch of 2*K + 2 int16, planned by the compiler; the two
** columns interleave by pairs of values) as x - in_zp, taps in the padding
** 0 (padding with the input's zero point); then every
** pair of output channels takes the dot products of its two rows with the
** two columns: four sums in registers, eight SMLADs per four terms
** (CMSIS-NN's mat_mult_kernel_s8_s16 scheme), and the four values are
** requantized through q8_m.h (SMMULR where it is exact).  When every channel
** takes the short requantization, one call (co8_pixels22) runs all the
** channel pairs of a pixel pair, each pair's sums kept in registers from the
** dot products to the stores.  Without the DSP extension the same loops run
** in C.
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

/* A 1x1 window's input pixel (n, oh * SH, ow * SW) of output pixel i. */
static const int8_t *co8_pixel_1x1(const int8_t *x, const int32_t *p, int32_t i)
{
    const int32_t OW = p[SM2C_RT_WIN_OW], per_image = p[SM2C_RT_WIN_OH] * OW;
    const int32_t n = i / per_image, oh = i % per_image / OW, ow = i % OW;
    return x + (((ptrdiff_t)n * p[SM2C_RT_WIN_H] + (ptrdiff_t)oh * p[SM2C_RT_WIN_SH]) * p[SM2C_RT_WIN_W] +
                (ptrdiff_t)ow * p[SM2C_RT_WIN_SW]) * p[SM2C_RT_WIN_C];
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

/* The first value of output pixel i's window when all of it lies inside
** the input (dilation 1), else NULL. */
static const int8_t *co8_inside(const int8_t *x, const int32_t *p, int32_t i)
{
    const int32_t OW = p[SM2C_RT_WIN_OW], per_image = p[SM2C_RT_WIN_OH] * OW;
    const int32_t n = i / per_image, oh = i % per_image / OW, ow = i % OW;
    const int32_t ih = oh * p[SM2C_RT_WIN_SH] - p[SM2C_RT_WIN_PT], iw = ow * p[SM2C_RT_WIN_SW] - p[SM2C_RT_WIN_PL];
    if (ih < 0 || iw < 0 || ih + p[SM2C_RT_WIN_KH] > p[SM2C_RT_WIN_H] || iw + p[SM2C_RT_WIN_KW] > p[SM2C_RT_WIN_W])
        return NULL;
    return x + (((ptrdiff_t)n * p[SM2C_RT_WIN_H] + ih) * p[SM2C_RT_WIN_W] + iw) * p[SM2C_RT_WIN_C];
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

/* Column j (colj = col + 2j) of output pixel i (n, oh, ow in row-major
** order): value (kh*KW + kw)*C + c.  Without dilation along W a filter
** row's taps inside the input are one run of x, widened at once. */
static void co8_im2col(const int8_t *x, const int32_t *p, int32_t i, int32_t zp, int16_t *colj)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW], DW = p[SM2C_RT_WIN_DW];
    const int32_t OW = p[SM2C_RT_WIN_OW], per_image = p[SM2C_RT_WIN_OH] * OW;
    const int32_t n = i / per_image, oh = i % per_image / OW, ow = i % OW;
    const int32_t iw0 = ow * p[SM2C_RT_WIN_SW] - p[SM2C_RT_WIN_PL];
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

/* s[2*r + j] += row r of the filter (w, w + K) . column j of col, for r,
** j < 2: one pointer walks both columns, eight int16 per four terms. */
static SM2C_RT_ALWAYS_INLINE void co8_dot22(const int8_t *w, const int16_t *col, int32_t K, int32_t *s)
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

/* co8_dot22 as a call of its own (the blocks off the common path). */
static SM2C_RT_NOINLINE void co8_dot22_call(const int8_t *w, const int16_t *col, int32_t K, int32_t *s)
{
    co8_dot22(w, col, K, s);
}

/* What the common block's requantization shares across the layer. */
typedef struct {
    ptrdiff_t OC;
    int32_t out_zp, lo, hi;
} co8_out;

/* q8m_fast's output clamped to [lo, hi], written so that gcc selects rather
** than branches. */
static SM2C_RT_ALWAYS_INLINE int32_t co8_rq(int32_t s, int32_t m, int32_t e, int32_t zp, int32_t lo, int32_t hi)
{
    int32_t v = q8m_fast(s, m, e) + zp;
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
}

/* The common blocks of two output pixels (y, y + OC): output channels
** [0, n) by pairs, n even, every channel of the layer taking the short
** requantization (q8m_mode 2).  A pair's sums stay in registers from the
** dot products to the stores, and its constants are read before its first
** store (an int8 store may alias them, as far as C knows). */
static SM2C_RT_NOINLINE void co8_pixels22(const int8_t *w, const int16_t *col, int32_t K, int32_t n,
                                          const int32_t *bias, const int32_t *mult, const int32_t *shift,
                                          const co8_out *q, int8_t *y)
{
    const int32_t zp = q->out_zp, lo = q->lo, hi = q->hi;
    const ptrdiff_t OC = q->OC;
    for (int32_t o = 0; o < n; o += 2, w += 2 * (ptrdiff_t)K) {
        int32_t s[4];
        s[0] = s[1] = bias ? bias[o] : 0;
        s[2] = s[3] = bias ? bias[o + 1] : 0;
        co8_dot22(w, col, K, s);
        const int32_t m0 = mult[o], e0 = -shift[o], m1 = mult[o + 1], e1 = -shift[o + 1];
        const int32_t y00 = co8_rq(s[0], m0, e0, zp, lo, hi), y01 = co8_rq(s[1], m0, e0, zp, lo, hi);
        const int32_t y10 = co8_rq(s[2], m1, e1, zp, lo, hi), y11 = co8_rq(s[3], m1, e1, zp, lo, hi);
        y[o] = (int8_t)y00, y[o + 1] = (int8_t)y10;
        y[OC + o] = (int8_t)y01, y[OC + o + 1] = (int8_t)y11;
    }
}

#if SM2C_RT_DSP_ASM && defined(__thumb2__)
/* co8_pixels22's work as co8_pairs22_asm reads it (the assembly's offsets). */
typedef struct {
    const int8_t *w;               /* 0: the pair's first row; its second K bytes on */
    const int16_t *col;            /* 4 */
    int32_t kq, pairs;             /* 8, 12: K / 4 >= 1; channel pairs left >= 1 */
    const int32_t *bias;           /* 16: the pair's biases */
    int32_t bias_step;             /* 20: 8, or 0 (bias: two zeros) */
    const int32_t *mult, *shift;   /* 24, 28: the pair's */
    int8_t *y;                     /* 32: pixel 0's output of the pair's first channel */
    int32_t OC, zp, lo, hi;        /* 36 .. 48 */
    int32_t tail;                  /* 52: K % 4, the terms past the groups of four */
} co8_job;

/* Four terms of a row pair by a column pair: r6, r7 the rows, r8 the
** columns; sums r2 (row 0, column 0), r3 (0, 1), r4 (1, 0), r5 (1, 1). */
#define CO8_TERMS4                                                                                             \
    "ldr r10, [r6], #4\n\t"                                                                                    \
    "ldr r11, [r7], #4\n\t"                                                                                    \
    "ldr r0, [r8], #4\n\t"                                                                                     \
    "ldr r1, [r8], #4\n\t"                                                                                     \
    "sxtb16 r12, r10\n\t"                                                                                      \
    "sxtb16 lr, r11\n\t"                                                                                       \
    "smlad r2, r12, r0, r2\n\t"                                                                                \
    "smlad r4, lr, r0, r4\n\t"                                                                                 \
    "smlad r3, r12, r1, r3\n\t"                                                                                \
    "smlad r5, lr, r1, r5\n\t"                                                                                 \
    "ldr r0, [r8], #4\n\t"                                                                                     \
    "ldr r1, [r8], #4\n\t"                                                                                     \
    "sxtb16 r10, r10, ror #8\n\t"                                                                              \
    "sxtb16 r11, r11, ror #8\n\t"                                                                              \
    "smlad r2, r10, r0, r2\n\t"                                                                                \
    "smlad r4, r11, r0, r4\n\t"                                                                                \
    "smlad r3, r10, r1, r3\n\t"                                                                                \
    "smlad r5, r11, r1, r5\n\t"

/* co8_pixels22 in assembly: per channel pair, the dot products (eight
** terms a loop, four first when K / 4 is odd, the last K % 4 one by one,
** the filter rows then read at any alignment), the four sums requantized
** (SSAT when the clamp is [-128, 127]) and stored; fourteen registers,
** which inline assembly cannot claim from gcc.  ([sp] the job.) */
SM2C_RT_NAKED_STACK(co8_pairs22_asm, 44) /* r4-r11, lr and two words */
__attribute__((naked, noinline)) static void co8_pairs22_asm(co8_job *j __attribute__((unused)))
{
    __asm__(".syntax unified\n\t"
            "push {r4-r11, lr}\n\t"
            "sub sp, sp, #8\n\t"
            "str r0, [sp]\n"
            "1:\n\t"
            "ldr r1, [sp]\n\t"
            "ldr r6, [r1]\n\t"
            "ldr r9, [r1, #8]\n\t"
            "add r7, r6, r9, lsl #2\n\t"
            "ldr r0, [r1, #52]\n\t"
            "add r7, r7, r0\n\t" /* the second row, K bytes on */
            "ldr r8, [r1, #4]\n\t"
            "ldr r0, [r1, #16]\n\t"
            "ldr r2, [r0]\n\t"
            "ldr r4, [r0, #4]\n\t"
            "ldr r3, [r1, #20]\n\t"
            "add r0, r0, r3\n\t"
            "str r0, [r1, #16]\n\t"
            "mov r3, r2\n\t"
            "mov r5, r4\n\t"
            "tst r9, #1\n\t"
            "beq 2f\n\t" CO8_TERMS4 "2:\n\t"
            "lsrs r9, r9, #1\n\t"
            "beq 4f\n"
            "3:\n\t" CO8_TERMS4 CO8_TERMS4 "subs r9, r9, #1\n\t"
            "bne 3b\n"
            "4:\n\t"
            "ldr r1, [sp]\n\t"
            "ldr r9, [r1, #52]\n\t" /* the last K % 4 terms, one at a time */
            "cmp r9, #0\n\t"
            "beq 7f\n\t"
            "mov lr, #2\n"
            "8:\n\t"
            "ldrsb r10, [r6], #1\n\t"
            "ldrsb r11, [r7], #1\n\t"
            "ldrsh r0, [r8]\n\t"     /* column 0: co8_at's k, k + 1 at 2k, 2k + 1 */
            "ldrsh r12, [r8, #4]\n\t" /* column 1, two values on */
            "mla r2, r10, r0, r2\n\t"
            "mla r4, r11, r0, r4\n\t"
            "mla r3, r10, r12, r3\n\t"
            "mla r5, r11, r12, r5\n\t"
            "add r8, r8, lr\n\t" /* 2 bytes on from an even term, 6 from an odd one */
            "rsb lr, lr, #8\n\t"
            "subs r9, r9, #1\n\t"
            "bne 8b\n"
            "7:\n\t"
            "str r7, [r1]\n\t" /* the next pair's rows */
            "ldr r0, [r1, #24]\n\t"
            "ldr r6, [r0], #4\n\t"
            "ldr r7, [r0], #4\n\t"
            "str r0, [r1, #24]\n\t"
            "ldr r0, [r1, #28]\n\t"
            "ldr r8, [r0], #4\n\t"
            "ldr r9, [r0], #4\n\t"
            "str r0, [r1, #28]\n\t"
            "rsb r8, r8, #0\n\t"
            "rsb r9, r9, #0\n\t"
            "movs r0, #1\n\t"
            "lsl r10, r0, r8\n\t"
            "lsr r10, r10, #1\n\t"
            "lsl r11, r0, r9\n\t"
            "lsr r11, r11, #1\n\t" SM2C_RT_ASM_RQ("r2", "r6", "r10", "r8") SM2C_RT_ASM_RQ("r3", "r6", "r10", "r8")
                SM2C_RT_ASM_RQ("r4", "r7", "r11", "r9") SM2C_RT_ASM_RQ("r5", "r7", "r11", "r9") "add r0, r1, #40\n\t"
            "ldm r0, {r6-r8}\n\t" /* zp, lo, hi */
            "add r2, r2, r6\n\t"
            "add r3, r3, r6\n\t"
            "add r4, r4, r6\n\t"
            "add r5, r5, r6\n\t"
            "cmn r7, #128\n\t"
            "bne 5f\n\t"
            "cmp r8, #127\n\t"
            "bne 5f\n\t"
            "ssat r2, #8, r2\n\t"
            "ssat r3, #8, r3\n\t"
            "ssat r4, #8, r4\n\t"
            "ssat r5, #8, r5\n\t"
            "b 6f\n"
            "5:\n\t" SM2C_RT_ASM_CLAMP("r2", "r7", "r8") SM2C_RT_ASM_CLAMP("r3", "r7", "r8") SM2C_RT_ASM_CLAMP("r4", "r7", "r8") SM2C_RT_ASM_CLAMP("r5", "r7", "r8") "6:\n\t"
            "ldr r0, [r1, #32]\n\t"
            "ldr r6, [r1, #36]\n\t"
            "strb r2, [r0]\n\t"
            "strb r4, [r0, #1]\n\t"
            "add r6, r6, r0\n\t"
            "strb r3, [r6]\n\t"
            "strb r5, [r6, #1]\n\t"
            "add r0, r0, #2\n\t"
            "str r0, [r1, #32]\n\t"
            "ldr r0, [r1, #12]\n\t"
            "subs r0, r0, #1\n\t"
            "str r0, [r1, #12]\n\t"
            "bne 1b\n\t"
            "add sp, sp, #8\n\t"
            "pop {r4-r11, pc}");
}
#undef CO8_TERMS4
#endif

/* The common blocks (co8_pixels22's), in assembly where it is built. */
static void co8_common(const int8_t *w, const int16_t *col, int32_t K, int32_t n, const int32_t *bias,
                       const int32_t *mult, const int32_t *shift, const co8_out *q, int8_t *y)
{
#if SM2C_RT_DSP_ASM && defined(__thumb2__)
    static const int32_t zeros[2] = { 0, 0 };
    if (K > 0 && n >= 2) {
        co8_job j = { w, col, K / 4, n / 2, bias ? bias : zeros, bias ? 8 : 0, mult, shift, y, (int32_t)q->OC,
                      q->out_zp, q->lo, q->hi, K & 3 };
        co8_pairs22_asm(&j);
        return;
    }
#endif
    co8_pixels22(w, col, K, n, bias, mult, shift, q, y);
}

/* s + row w . column colj (col + 2j): an output channel or pixel past the last pair. */
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

void sm2c_rt_conv2d_ohwi_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, const int32_t *p,
                            const int32_t *mult, const int32_t *shift, int32_t in_zp, int32_t out_zp,
                            int32_t act_min, int32_t act_max, int16_t *col)
{
    const int32_t OC = p[SM2C_RT_WIN_OC];
    const int32_t K = p[SM2C_RT_WIN_KH] * p[SM2C_RT_WIN_KW] * p[SM2C_RT_WIN_C];
    const int32_t P = p[SM2C_RT_WIN_N] * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW];
    const int mode = q8m_mode(K, bias, mult, shift, OC);
    const co8_out qo = { OC, out_zp, act_min, act_max };
    const int one = p[SM2C_RT_WIN_KH] == 1 && p[SM2C_RT_WIN_KW] == 1 && p[SM2C_RT_WIN_PT] == 0 &&
                    p[SM2C_RT_WIN_PL] == 0; /* a 1x1 window always inside: the pixel's values */
    /* windows inside the input: a filter row's values one run */
    const int runs = p[SM2C_RT_WIN_DH] == 1 && p[SM2C_RT_WIN_DW] == 1;
    for (int32_t i = 0; i < P; i += 2) {
        /* an odd last pixel pairs with the one before it, which is computed
        ** and stored again with the same values: the blocks' path, not the
        ** single pixel's */
        if (i + 1 == P && i > 0)
            i--;
        const int32_t np = P - i < 2 ? 1 : 2;
        const int8_t *w0 = NULL, *w1 = NULL;
        if (np == 2 && one) { /* co8_inside's case too, without its tests: 0.4% of DS-CNN */
            co8_widen2(co8_pixel_1x1(x, p, i), co8_pixel_1x1(x, p, i + 1), K, in_zp, col, 0);
        } else if (np == 2 && runs && (w0 = co8_inside(x, p, i)) != NULL &&
                   (w1 = co8_inside(x, p, i + 1)) != NULL) {
            co8_im2col2(w0, w1, p, in_zp, col);
        } else {
            co8_im2col(x, p, i, in_zp, col);
            if (np == 2)
                co8_im2col(x, p, i + 1, in_zp, col + 2);
        }
        int8_t *yp = y + (ptrdiff_t)i * OC;
        int32_t o = 0;
        if (np == 2 && mode == 2) { /* the common blocks */
            o = OC & ~1;
            co8_common(w, col, K, o, bias, mult, shift, &qo, yp);
        }
        for (; o < OC; o += 2) {
            const int32_t no = OC - o < 2 ? 1 : 2;
            const int8_t *wo = w + (ptrdiff_t)o * K;
            int32_t s[4];
            s[0] = s[1] = bias ? bias[o] : 0;
            s[2] = s[3] = no == 2 && bias ? bias[o + 1] : 0;
            if (np == 2 && no == 2)
                co8_dot22_call(wo, col, K, s);
            else
                for (int32_t r = 0; r < no; r++)
                    for (int32_t j = 0; j < np; j++)
                        s[2 * r + j] = co8_dot11(wo + (ptrdiff_t)r * K, col + 2 * j, K, s[2 * r + j]);
            for (int32_t r = 0; r < no; r++) {
                int8_t *yo = yp + o + r;
                if (mode == 2) {
                    const int32_t m = mult[o + r], e = -shift[o + r];
                    for (int32_t j = 0; j < np; j++)
                        yo[(ptrdiff_t)j * OC] = sm2c_rt__clamp_s8(q8m_fast(s[2 * r + j], m, e) + out_zp, act_min,
                                                                  act_max);
                    continue;
                }
                q8m_rq rq;
                q8m_prep(&rq, mult[o + r], shift[o + r], mode);
                for (int32_t j = 0; j < np; j++)
                    yo[(ptrdiff_t)j * OC] = q8m_out(&rq, s[2 * r + j], out_zp, act_min, act_max);
            }
        }
    }
}
