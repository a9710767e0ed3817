/*
** conv_m_s8.h: the int8 Conv2D and multiplier-1 depthwise of a scalar core
** (SM2C_RT_SCALAR_CORE: Cortex-M), private to conv_s8.c.
**
** conv_s8.c's blocks keep 64 sums in memory, shaped for vectors; a scalar
** core then loads and stores a sum around every multiply.  Here four output
** channels' sums stay in registers across the whole window, in a function
** of their own (cm8_quad, not inlined, so the loop nest around it does not
** take their registers), and a filter row inside the input is one
** reduction of KW*C terms: contiguous in x, strided by OC in the filter
** ([KH, KW, C, OC]).
**
** With the DSP extension (dsp_s8.h) four terms at a time take four SMLADs
** per output quad: x's word gives the pairs (x0, x2) and (x1, x3), less
** in_zp; the filter's words of terms 0 and 2 (1 and 3) give each output's
** matching pair by PKHBT/PKHTB.  Depthwise multiplies channel by channel,
** so it takes SMLABB/SMLATT, one product each, but loads four channels'
** x and w in one word each.  Sums are requantized through q8_m.h (SMMULR
** where it is exact).  Integer sums are exact: every path gives the
** C path's bits (tests/kernels/q8_m4.sh runs test_q8.c both ways).  With a
** Cortex-M --target the compiler sends Conv2D to conv_ohwi_s8.c instead.
*/
#ifndef SM2C_RT_CONV_M_S8_H
#define SM2C_RT_CONV_M_S8_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dsp_s8.h"
#include "q8_m.h"
#include "q8_vec.h"
#include "rt_select.h" /* SM2C_RT_ALWAYS_INLINE */
#include "sm2c_rt.h"

/* q8_store_c's bits: y[j] for j < n from the sums s[j] of channels o0 + j,
** through q8_m.h (mode: q8m_mode of the layer). */
static inline void cm8_store(const int32_t *s, int32_t o0, int32_t n, const q8_out *q, int mode, int8_t *y)
{
    for (int32_t j = 0; j < n; j++) {
        const int32_t o = o0 + j, a = s[j] + (q->bias ? q->bias[o] : 0);
        if (mode == 2) {
            y[j] = sm2c_rt__clamp_s8(q8m_fast(a, q->mult[o], -q->shift[o]) + q->out_zp, q->act_min, q->act_max);
            continue;
        }
        q8m_rq r;
        q8m_prep(&r, q->mult[o], q->shift[o], mode);
        y[j] = q8m_out(&r, a, q->out_zp, q->act_min, q->act_max);
    }
}

/* s[j] = sum over rows r < R, i < L of w[r*wrow + i*OC + j] * (x[r*xrow + i] - zp),
** for j < 4: a window's filter rows, each L contiguous terms of x. */
static SM2C_RT_NOINLINE void cm8_quad(const int8_t *x, const int8_t *w, int32_t R, int32_t L, ptrdiff_t xrow,
                                      ptrdiff_t wrow, int32_t OC, int32_t zp, int32_t *s)
{
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#if SM2C_RT_DSP_S8
    const int16x2_t off = dsp8_splat(-zp);
#endif
    for (; R > 0; R--, x += xrow, w += wrow) {
        const int8_t *xi = x, *wi = w, *const end = x + L;
#if SM2C_RT_DSP_S8
        for (const int8_t *const quads = x + (L & ~3); xi < quads; xi += 4, wi += 4 * OC) {
            const uint32_t xw = dsp8_load(xi);
            const int16x2_t xe = __sadd16(dsp8_even(xw), off), xo = __sadd16(dsp8_odd(xw), off);
            const uint32_t r0 = dsp8_load(wi), r2 = dsp8_load(wi + 2 * OC);
            int16x2_t a = dsp8_even(r0), b = dsp8_even(r2);    /* outputs 0, 2 of terms 0, 2 */
            s0 = __smlad(xe, dsp8_pack_lo(a, b), s0);
            s2 = __smlad(xe, dsp8_pack_hi(a, b), s2);
            a = dsp8_odd(r0), b = dsp8_odd(r2);                 /* outputs 1, 3 */
            s1 = __smlad(xe, dsp8_pack_lo(a, b), s1);
            s3 = __smlad(xe, dsp8_pack_hi(a, b), s3);
            const uint32_t r1 = dsp8_load(wi + OC), r3 = dsp8_load(wi + 3 * OC);
            a = dsp8_even(r1), b = dsp8_even(r3);               /* terms 1, 3 */
            s0 = __smlad(xo, dsp8_pack_lo(a, b), s0);
            s2 = __smlad(xo, dsp8_pack_hi(a, b), s2);
            a = dsp8_odd(r1), b = dsp8_odd(r3);
            s1 = __smlad(xo, dsp8_pack_lo(a, b), s1);
            s3 = __smlad(xo, dsp8_pack_hi(a, b), s3);
        }
#endif
        for (; xi < end; xi++, wi += OC) {
            const int32_t xv = (int32_t)*xi - zp;
            s0 += (int32_t)wi[0] * xv;
            s1 += (int32_t)wi[1] * xv;
            s2 += (int32_t)wi[2] * xv;
            s3 += (int32_t)wi[3] * xv;
        }
    }
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
}

/* s[0] += sum over i < L of w[i*OC] * (x[i] - zp): an output past the last quad. */
static inline int32_t cm8_row1(const int8_t *x, const int8_t *w, int32_t L, int32_t OC, int32_t zp, int32_t s)
{
    for (int32_t i = 0; i < L; i++)
        s += (int32_t)w[(ptrdiff_t)i * OC] * ((int32_t)x[i] - zp);
    return s;
}

/* The terms of R rows of a reduction for ob (<= 4) outputs, added to s. */
static inline void cm8_terms(const int8_t *x, const int8_t *w, int32_t R, int32_t L, ptrdiff_t xrow, ptrdiff_t wrow,
                             int32_t OC, int32_t zp, int32_t ob, int32_t *s)
{
    if (ob == 4) {
        int32_t t[4];
        cm8_quad(x, w, R, L, xrow, wrow, OC, zp, t);
        s[0] += t[0], s[1] += t[1], s[2] += t[2], s[3] += t[3];
        return;
    }
    for (int32_t r = 0; r < R; r++)
        for (int32_t j = 0; j < ob; j++)
            s[j] = cm8_row1(x + r * xrow, w + r * wrow + j, L, OC, zp, s[j]);
}

/* The taps [t0, t1) of a window axis inside [0, size), dilation 1. */
static inline void cm8_axis(int32_t o, int32_t stride, int32_t pad, int32_t k, int32_t size, int32_t *t0,
                            int32_t *t1)
{
    const int32_t first = pad - o * stride;
    *t0 = first > 0 ? first : 0;
    *t1 = size + first < k ? size + first : k;
}

/* s[j] for j < ob: output (n, oh, ow), channels o0 + j of group g, tap by
** tap (groups, or dilation along W). */
static inline void cm8_taps(const int8_t *x, const int8_t *w, const int32_t *p, int32_t n, int32_t oh, int32_t ow,
                            int32_t g, int32_t o0, int32_t ob, int32_t in_zp, int32_t *s)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t KW = p[SM2C_RT_WIN_KW], OC = p[SM2C_RT_WIN_OC], FC = p[SM2C_RT_WIN_FC];
    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++) {
        const int32_t ih = oh * p[SM2C_RT_WIN_SH] + kh * p[SM2C_RT_WIN_DH] - p[SM2C_RT_WIN_PT];
        if ((uint32_t)ih >= (uint32_t)H)
            continue;
        const int8_t *xr = x + ((ptrdiff_t)n * H + ih) * W * C + (ptrdiff_t)g * FC;
        const int8_t *wr = w + (ptrdiff_t)kh * KW * FC * OC + o0;
        for (int32_t kw = 0; kw < KW; kw++) {
            const int32_t iw = ow * p[SM2C_RT_WIN_SW] + kw * p[SM2C_RT_WIN_DW] - p[SM2C_RT_WIN_PL];
            if ((uint32_t)iw < (uint32_t)W)
                cm8_terms(xr + (ptrdiff_t)iw * C, wr + (ptrdiff_t)kw * FC * OC, 1, FC, 0, 0, OC, in_zp, ob, s);
        }
    }
}

/* One output pixel without groups, dilation 1: the window's inside rows
** [kh0, kh1), each a run of L = (kw1 - kw0) * C terms; x from xc (the
** pixel's first inside column, row 0), the filter from wc (tap kw0, row 0). */
static inline void cm8_pixel(const int8_t *xc, const int8_t *wc, const int32_t *p, int32_t oh, int32_t L,
                             int32_t in_zp, const q8_out *q, int mode, int8_t *yp)
{
    const int32_t OC = p[SM2C_RT_WIN_OC];
    const ptrdiff_t xrow = (ptrdiff_t)p[SM2C_RT_WIN_W] * p[SM2C_RT_WIN_C];
    const ptrdiff_t wrow = (ptrdiff_t)p[SM2C_RT_WIN_KW] * p[SM2C_RT_WIN_C] * OC;
    int32_t kh0, kh1, s[4];
    cm8_axis(oh, p[SM2C_RT_WIN_SH], p[SM2C_RT_WIN_PT], p[SM2C_RT_WIN_KH], p[SM2C_RT_WIN_H], &kh0, &kh1);
    const int32_t R = kh1 > kh0 && L > 0 ? kh1 - kh0 : 0;
    const int32_t ih0 = oh * p[SM2C_RT_WIN_SH] + kh0 - p[SM2C_RT_WIN_PT];
    for (int32_t o0 = 0; o0 < OC; o0 += 4) {
        const int32_t ob = OC - o0 < 4 ? OC - o0 : 4;
        s[0] = s[1] = s[2] = s[3] = 0;
        cm8_terms(xc + ih0 * xrow, wc + kh0 * wrow + o0, R, L, xrow, wrow, OC, in_zp, ob, s);
        cm8_store(s, o0, ob, q, mode, yp + o0);
    }
}

static inline void cm8_conv(const int8_t *x, const int8_t *w, int8_t *y, const int32_t *p, int32_t in_zp,
                            const q8_out *q)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W];
    const int32_t C = p[SM2C_RT_WIN_C], OC = p[SM2C_RT_WIN_OC], FC = p[SM2C_RT_WIN_FC];
    const int32_t G = FC > 0 && C / FC > 0 ? C / FC : 1, OG = OC / G;
    /* One group, dilation 1: a row's inside taps are contiguous in x, and the
** inside rows are one span. */
    const int rows = FC == C && p[SM2C_RT_WIN_DW] == 1 && p[SM2C_RT_WIN_DH] == 1;
    const int mode = q8m_mode((int64_t)p[SM2C_RT_WIN_KH] * p[SM2C_RT_WIN_KW] * FC, q->bias, q->mult, q->shift, OC);
    int32_t s[4];
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < p[SM2C_RT_WIN_OH]; oh++)
            for (int32_t ow = 0; ow < p[SM2C_RT_WIN_OW]; ow++) {
                int8_t *yp = y + (((ptrdiff_t)n * p[SM2C_RT_WIN_OH] + oh) * p[SM2C_RT_WIN_OW] + ow) * OC;
                if (rows) {
                    int32_t kw0, kw1;
                    cm8_axis(ow, p[SM2C_RT_WIN_SW], p[SM2C_RT_WIN_PL], p[SM2C_RT_WIN_KW], W, &kw0, &kw1);
                    const int32_t iw0 = ow * p[SM2C_RT_WIN_SW] + kw0 - p[SM2C_RT_WIN_PL];
                    cm8_pixel(x + ((ptrdiff_t)n * H * W + iw0) * C, w + (ptrdiff_t)kw0 * C * OC, p, oh,
                              (kw1 - kw0) * C, in_zp, q, mode, yp);
                    continue;
                }
                for (int32_t g = 0; g < G; g++)
                    for (int32_t o0 = g * OG; o0 < (g + 1) * OG; o0 += 4) {
                        const int32_t ob = (g + 1) * OG - o0 < 4 ? (g + 1) * OG - o0 : 4;
                        s[0] = s[1] = s[2] = s[3] = 0;
                        cm8_taps(x, w, p, n, oh, ow, g, o0, ob, in_zp, s);
                        cm8_store(s, o0, ob, q, mode, yp + o0);
                    }
            }
}

/* The inside of one pixel's depthwise window: rows x cols taps, rows xrow
** and wrow bytes apart in x and the filter, taps C apart; what the rows'
** ends skip (xskip, wskip), and -zp in both halves of a word (off). */
typedef struct {
    int32_t rows, cols, C, zp;
    ptrdiff_t xrow, wrow, xskip, wskip;
    uint32_t off;
} cm8_dw_win;

/* s[j] for j < 4: four channels' sums over the window's taps, xp and wp at
** the first tap's channel c0. */
static SM2C_RT_ALWAYS_INLINE void cm8_dw_quad(const int8_t *xp, const int8_t *wp, const cm8_dw_win *win, int32_t *s)
{
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    const int32_t C = win->C;
#if SM2C_RT_DSP_ASM
    /* One product per channel: SMLABB and SMLATT on the even and odd pairs;
    ** the whole window in assembly (gcc 12 at -Os spills the sums around a
    ** loop over rows), what it needs per row in memory operands. */
    if (win->rows > 0 && win->cols > 0) {
        const int8_t *xk = xp, *wk = wp;
        int32_t k, r = win->rows;
        uint32_t xw, ww, t, u;
#define CM8_DW_TAP                                                                                             \
    "ldr %[xw], [%[xk]]\n\t"                                                                                   \
    "ldr %[ww], [%[wk]]\n\t"                                                                                   \
    "add %[xk], %[xk], %[C]\n\t"                                                                               \
    "add %[wk], %[wk], %[C]\n\t"                                                                               \
    "sxtb16 %[t], %[xw]\n\t" /* x of channels 0, 2 */                                                         \
    "sadd16 %[t], %[t], %[off]\n\t"                                                                           \
    "sxtb16 %[u], %[ww]\n\t"                                                                                  \
    "smlabb %[s0], %[t], %[u], %[s0]\n\t"                                                                     \
    "smlatt %[s2], %[t], %[u], %[s2]\n\t"                                                                     \
    "sxtb16 %[xw], %[xw], ror #8\n\t" /* channels 1, 3 */                                                     \
    "sadd16 %[xw], %[xw], %[off]\n\t"                                                                         \
    "sxtb16 %[ww], %[ww], ror #8\n\t"                                                                         \
    "smlabb %[s1], %[xw], %[ww], %[s1]\n\t"                                                                   \
    "smlatt %[s3], %[xw], %[ww], %[s3]\n\t"
#define CM8_DW_NEXT_ROW                                                                                        \
    "ldr %[t], %[xskip]\n\t"                                                                                   \
    "ldr %[u], %[wskip]\n\t"                                                                                   \
    "add %[xk], %[xk], %[t]\n\t"                                                                               \
    "add %[wk], %[wk], %[u]\n\t"                                                                               \
    "ldr %[t], %[r]\n\t"                                                                                       \
    "subs %[t], %[t], #1\n\t"                                                                                  \
    "str %[t], %[r]\n\t"                                                                                       \
    "bne 1b"
#define CM8_DW_OPERANDS                                                                                        \
    : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [xk] "+r"(xk), [wk] "+r"(wk), [k] "=&r"(k),   \
      [xw] "=&r"(xw), [ww] "=&r"(ww), [t] "=&r"(t), [u] "=&r"(u), [r] "+m"(r)                                 \
    : [C] "r"(C), [off] "r"(win->off), [cols] "m"(win->cols), [xskip] "m"(win->xskip), [wskip] "m"(win->wskip) \
    : "cc", "memory"
        if (win->cols == 3) /* a 3x3 window's rows inside: three taps unrolled, no branch between them */
            __asm__("1:\n\t" CM8_DW_TAP CM8_DW_TAP CM8_DW_TAP CM8_DW_NEXT_ROW CM8_DW_OPERANDS);
        else
            __asm__("1:\n\t"
                    "ldr %[k], %[cols]\n"
                    "2:\n\t" CM8_DW_TAP "subs %[k], %[k], #1\n\t"
                    "bne 2b\n\t" CM8_DW_NEXT_ROW CM8_DW_OPERANDS);
#undef CM8_DW_TAP
#undef CM8_DW_NEXT_ROW
#undef CM8_DW_OPERANDS
    }
#else
    const int32_t zp = win->zp;
    for (int32_t r = 0; r < win->rows; r++, xp += win->xrow, wp += win->wrow) {
        const int8_t *xk = xp, *wk = wp;
        for (int32_t k = win->cols; k > 0; k--, xk += C, wk += C) {
            s0 += (int32_t)wk[0] * ((int32_t)xk[0] - zp);
            s1 += (int32_t)wk[1] * ((int32_t)xk[1] - zp);
            s2 += (int32_t)wk[2] * ((int32_t)xk[2] - zp);
            s3 += (int32_t)wk[3] * ((int32_t)xk[3] - zp);
        }
    }
#endif
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
}

/* The same for cb < 4 channels: the last, past the quads. */
static inline void cm8_dw_tail(const int8_t *xp, const int8_t *wp, const cm8_dw_win *win, int32_t cb, int32_t *s)
{
    const ptrdiff_t C = win->C;
    for (int32_t j = 0; j < cb; j++)
        s[j] = 0;
    for (int32_t r = 0; r < win->rows; r++, xp += win->xrow, wp += win->wrow)
        for (int32_t k = 0; k < win->cols; k++)
            for (int32_t j = 0; j < cb; j++)
                s[j] += (int32_t)wp[k * C + j] * ((int32_t)xp[k * C + j] - win->zp);
}

/* What every pixel of a depthwise layer shares (cm8_dw_pixel). */
typedef struct {
    ptrdiff_t xrow, wrow;   /* an input row and a filter row, in bytes */
    int32_t C, zp, mode;    /* channels, the input zero point, q8m_mode of the layer */
    const q8_out *q;
} cm8_dw_layer;

/* v clamped to [lo, hi], written so that gcc selects rather than branches. */
static SM2C_RT_ALWAYS_INLINE int32_t cm8_clamp(int32_t v, int32_t lo, int32_t hi)
{
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
}

/* Four channels' requantized outputs from their sums s[0..4) (bias not yet
** added); the short way inline when every channel takes it (mode 2), every
** value computed before the first store (an int8 store may alias the
** constants, as far as C knows). */
static SM2C_RT_ALWAYS_INLINE void cm8_dw_store4(const int32_t *s, int32_t c0, const cm8_dw_layer *g, int8_t *y)
{
    const q8_out *q = g->q;
    if (g->mode != 2) {
        cm8_store(s, c0, 4, q, g->mode, y);
        return;
    }
    const int32_t *m = q->mult + c0, *sh = q->shift + c0, *b = q->bias ? q->bias + c0 : NULL;
    const int32_t zp = q->out_zp, lo = q->act_min, hi = q->act_max;
#define CM8_DW_OUT(j) ((uint8_t)cm8_clamp(q8m_fast(s[j] + (b ? b[j] : 0), m[j], -sh[j]) + zp, lo, hi))
    const uint8_t v0 = CM8_DW_OUT(0), v1 = CM8_DW_OUT(1), v2 = CM8_DW_OUT(2), v3 = CM8_DW_OUT(3);
#undef CM8_DW_OUT
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* one word store, byte j channel c0 + j (Armv7-M stores a word at any address) */
    const uint32_t word = v0 | (uint32_t)v1 << 8 | (uint32_t)v2 << 16 | (uint32_t)v3 << 24;
    memcpy(y, &word, sizeof word);
#else
    y[0] = (int8_t)v0, y[1] = (int8_t)v1, y[2] = (int8_t)v2, y[3] = (int8_t)v3;
#endif
}

/* One output pixel, every channel: the window's inside taps, `rows` rows of
** `cols` taps from xp and wp (the first inside tap's channel 0, taps C
** apart).  Not inlined, so that the layer's loops around it do not take
** the registers its sums live in. */
static SM2C_RT_NOINLINE void cm8_dw_pixel(const int8_t *xp, const int8_t *wp, int32_t rows, int32_t cols,
                                          const cm8_dw_layer *g, int8_t *y)
{
    const int32_t C = g->C;
    const cm8_dw_win win = { rows, cols, C, g->zp, g->xrow, g->wrow, g->xrow - (ptrdiff_t)cols * C,
                             g->wrow - (ptrdiff_t)cols * C, (uint32_t)(uint16_t)-g->zp * 0x10001u };
    int32_t s[4], c0 = 0;
    for (; c0 + 4 <= C; c0 += 4) {
        cm8_dw_quad(xp + c0, wp + c0, &win, s);
        cm8_dw_store4(s, c0, g, y + c0);
    }
    if (c0 < C) {
        cm8_dw_tail(xp + c0, wp + c0, &win, C - c0, s);
        cm8_store(s, c0, C - c0, g->q, g->mode, y + c0);
    }
}

/* Depthwise of multiplier 1 and dilation 1: output channel c reads input
** channel c alone; four channels' sums in registers over the window's
** inside taps, which the span bounds, so no tap is tested. */
static inline void cm8_depthwise(const int8_t *x, const int8_t *w, int8_t *y, const int32_t *p, int32_t in_zp,
                                 const q8_out *q)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C], KW = p[SM2C_RT_WIN_KW];
    const cm8_dw_layer g = { (ptrdiff_t)W * C, (ptrdiff_t)KW * C, C, in_zp,
                             q8m_mode((int64_t)p[SM2C_RT_WIN_KH] * KW, q->bias, q->mult, q->shift, C), q };
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < p[SM2C_RT_WIN_OH]; oh++) {
            int32_t kh0, kh1;
            cm8_axis(oh, p[SM2C_RT_WIN_SH], p[SM2C_RT_WIN_PT], p[SM2C_RT_WIN_KH], H, &kh0, &kh1);
            const int32_t ih = oh * p[SM2C_RT_WIN_SH] + kh0 - p[SM2C_RT_WIN_PT];
            const int32_t rows = kh1 > kh0 ? kh1 - kh0 : 0;
            for (int32_t ow = 0; ow < p[SM2C_RT_WIN_OW]; ow++) {
                int8_t *yp = y + (((ptrdiff_t)n * p[SM2C_RT_WIN_OH] + oh) * p[SM2C_RT_WIN_OW] + ow) * C;
                int32_t kw0, kw1;
                cm8_axis(ow, p[SM2C_RT_WIN_SW], p[SM2C_RT_WIN_PL], KW, W, &kw0, &kw1);
                const int32_t iw = ow * p[SM2C_RT_WIN_SW] + kw0 - p[SM2C_RT_WIN_PL];
                cm8_dw_pixel(x + (((ptrdiff_t)n * H + ih) * W + iw) * C, w + ((ptrdiff_t)kh0 * KW + kw0) * C,
                             rows, kw1 > kw0 ? kw1 - kw0 : 0, &g, yp);
            }
        }
}

#endif
