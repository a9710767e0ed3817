/*
** fc_m_s8.c: int8 fully connected, the form for Cortex-M (--target
** thumbv7em...): fc_s8.c's sums and rounding, with the filter laid out at
** compile time (fc_m_filter in compiler/ops/ops_q8.c) so that one pointer walks
** it in order:
**
**   rows in groups of four; a group holds, for each four columns c .. c + 3
**   below K & ~3, the four rows' four bytes one after another (16 bytes),
**   then each of its rows' last K % 4 bytes;
**   the last N % 4 rows follow as they are, K bytes each.
**
** The same N * K bytes as the [N, K] filter.  With the Arm DSP extension
** (dsp_s8.h) x's four bytes become two int16 pairs once for the four rows,
** and each row's word gives two SMLADs; the sums stay in registers.  The
** compiler folds in_zp * sum(w) into the bias where it fits and passes in_zp
** 0, which spares the pairs' offset.  Sums wrap exactly in int32 and the true
** sum fits (reliability.md 6.5), so every path gives the C path's bits.
*/
#include <stddef.h>
#include <stdint.h>

#include "dsp_s8.h"
#include "q8_math.h"
#include "rt_select.h" /* SM2C_RT_ALWAYS_INLINE */
#include "sm2c_rt.h"

#if SM2C_RT_DSP_S8
/* One row's sum over four columns: two SMLADs of x's pairs by the row's word. */
static SM2C_RT_ALWAYS_INLINE int32_t fcm_step(int32_t acc, int16x2_t xe, int16x2_t xo, const int8_t *w)
{
    const uint32_t ww = dsp8_load(w);
    return __smlad(xo, dsp8_odd(ww), __smlad(xe, dsp8_even(ww), acc));
}

/* Four columns of the group's four rows: x's word as pairs (less in_zp when
** zp), then two SMLADs a row. */
#define FCM_QUAD(xp, g)                                                                                        \
    do {                                                                                                       \
        const uint32_t xw_ = dsp8_load(xp);                                                                    \
        int16x2_t xe_ = dsp8_even(xw_), xo_ = dsp8_odd(xw_);                                                   \
        if (zp)                                                                                                \
            xe_ = __sadd16(xe_, off), xo_ = __sadd16(xo_, off);                                                \
        d0 = fcm_step(d0, xe_, xo_, (g));                                                                      \
        d1 = fcm_step(d1, xe_, xo_, (g) + 4);                                                                  \
        d2 = fcm_step(d2, xe_, xo_, (g) + 8);                                                                  \
        d3 = fcm_step(d3, xe_, xo_, (g) + 12);                                                                 \
    } while (0)

/* The four rows of group g over the columns below k & ~3; zp: whether x's
** pairs take -in_zp (off) first.  Eight columns a turn of a counted loop (one
** branch), four more when k & 4.  Returns where the group's tails start. */
static SM2C_RT_ALWAYS_INLINE const int8_t *fcm_quads(const int8_t *x, const int8_t *g, int32_t k, int16x2_t off,
                                                     int zp, int32_t *dot)
{
    int32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (int32_t turns = k >> 3; turns > 0; turns--, x += 8, g += 32) {
        FCM_QUAD(x, g);
        FCM_QUAD(x + 4, g + 16);
    }
    if (k & 4) {
        FCM_QUAD(x, g);
        g += 16;
    }
    dot[0] = d0, dot[1] = d1, dot[2] = d2, dot[3] = d3;
    return g;
}
#undef FCM_QUAD

#if SM2C_RT_DSP_ASM && defined(__thumb2__)
/* Four columns of the four rows (in_zp 0): x's word as its even and odd pairs,
** the rows' four words by one LDM (1 + 4 cycles, where four LDRs apart would
** take 2 each), two SMLADs a row. */
#define FCM_QUAD_ASM                                                                                           \
    "ldr r6, [r0], #4\n\t"                                                                                     \
    "ldm r1!, {r8-r11}\n\t"                                                                                   \
    "sxtb16 r7, r6, ror #8\n\t"                                                                               \
    "sxtb16 r6, r6\n\t"                                                                                       \
    "sxtb16 r12, r8\n\t"                                                                                      \
    "sxtb16 r8, r8, ror #8\n\t"                                                                               \
    "smlad r2, r6, r12, r2\n\t"                                                                               \
    "smlad r2, r7, r8, r2\n\t"                                                                                \
    "sxtb16 r12, r9\n\t"                                                                                      \
    "sxtb16 r9, r9, ror #8\n\t"                                                                               \
    "smlad r3, r6, r12, r3\n\t"                                                                               \
    "smlad r3, r7, r9, r3\n\t"                                                                                \
    "sxtb16 r12, r10\n\t"                                                                                     \
    "sxtb16 r10, r10, ror #8\n\t"                                                                             \
    "smlad r4, r6, r12, r4\n\t"                                                                               \
    "smlad r4, r7, r10, r4\n\t"                                                                               \
    "sxtb16 r12, r11\n\t"                                                                                     \
    "sxtb16 r11, r11, ror #8\n\t"                                                                             \
    "smlad r5, r6, r12, r5\n\t"                                                                               \
    "smlad r5, r7, r11, r5\n\t"

/* fcm_quads with in_zp 0 over `quads` groups of four columns (r0 x, r1 the
** group, r2 quads, r3 dot): eight columns a turn, four first when quads is
** odd.  Returns where the group's tails start. */
SM2C_RT_NAKED_STACK(fcm_quads_asm, 40) /* r4-r11, lr and dot */
__attribute__((naked, noinline)) static const int8_t *fcm_quads_asm(const int8_t *x __attribute__((unused)),
                                                                     const int8_t *g __attribute__((unused)),
                                                                     int32_t quads __attribute__((unused)),
                                                                     int32_t *dot __attribute__((unused)))
{
    __asm__(".syntax unified\n\t"
            "push {r4-r11, lr}\n\t"
            "push {r3}\n\t"
            "mov lr, r2\n\t"
            "movs r2, #0\n\t"
            "movs r3, #0\n\t"
            "movs r4, #0\n\t"
            "movs r5, #0\n\t"
            "tst lr, #1\n\t"
            "beq 1f\n\t" FCM_QUAD_ASM "1:\n\t"
            "lsrs lr, lr, #1\n\t"
            "beq 3f\n"
            "2:\n\t" FCM_QUAD_ASM FCM_QUAD_ASM "subs lr, lr, #1\n\t"
            "bne 2b\n"
            "3:\n\t"
            "pop {r12}\n\t"
            "stm r12, {r2-r5}\n\t"
            "mov r0, r1\n\t"
            "pop {r4-r11, pc}");
}
#undef FCM_QUAD_ASM
#endif

static const int8_t *fcm_quads_zp(const int8_t *x, const int8_t *g, int32_t k, int32_t in_zp, int32_t *dot)
{
#if SM2C_RT_DSP_ASM && defined(__thumb2__)
    if (!in_zp)
        return fcm_quads_asm(x, g, k >> 2, dot);
#endif
    return in_zp ? fcm_quads(x, g, k, dsp8_splat(-in_zp), 1, dot) : fcm_quads(x, g, k, 0, 0, dot);
}
#else
/* The C path of the same sums. */
static const int8_t *fcm_quads_zp(const int8_t *x, const int8_t *g, int32_t k, int32_t in_zp, int32_t *dot)
{
    int32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (int32_t c = 0; c + 4 <= k; c += 4, g += 16)
        for (int32_t b = 0; b < 4; b++) {
            const int32_t xv = (int32_t)x[c + b] - in_zp;
            d0 += (int32_t)g[b] * xv, d1 += (int32_t)g[4 + b] * xv;
            d2 += (int32_t)g[8 + b] * xv, d3 += (int32_t)g[12 + b] * xv;
        }
    dot[0] = d0, dot[1] = d1, dot[2] = d2, dot[3] = d3;
    return g;
}
#endif

/* sm2c_rt__requant_nearest(x, m, shift) for shift in [-31, -1], i.e. a right
** shift by 32 + e, e = -shift - 1 in [0, 30], of |x * m| < 2^62 or at most
** 2^62: round half up of a / 2^(32+e) is floor((floor(a / 2^(31+e)) + 1) / 2),
** and a >> 31 fits in 32 bits, so only 32-bit shifts by a variable amount
** remain (an int64 one is a library call on a Cortex-M). */
static SM2C_RT_ALWAYS_INLINE int32_t fcm_nearest(int32_t x, int32_t m, int32_t e)
{
    const int64_t p = (int64_t)x * m;
    const uint64_t a = p < 0 ? 0 - (uint64_t)p : (uint64_t)p;
    const uint32_t q = (((uint32_t)(a >> 31) >> e) + 1) >> 1;
    return p < 0 ? -(int32_t)q : (int32_t)q;
}

/* A layer's requantization, read once per output. */
typedef struct {
    const int32_t *bias, *mult, *shift;
    int32_t out_zp, lo, hi;
} fcm_rq;

/* Output o of sum dot: bias, TFLite's single rounding, the zero point and the clamp. */
static SM2C_RT_ALWAYS_INLINE int8_t fcm_out(int32_t dot, const fcm_rq *q, int32_t o)
{
    const int32_t acc = dot + (q->bias ? q->bias[o] : 0), s = q->shift[o], m = q->mult[o];
    const int32_t v = s < 0 && s >= -31 ? fcm_nearest(acc, m, -s - 1) : sm2c_rt__requant_nearest(acc, m, s);
    return sm2c_rt__clamp_s8(v + q->out_zp, q->lo, q->hi);
}

/* A group's four outputs from o on: each row's last t terms (x's at xt), then
** the output.  Returns the next group. */
static const int8_t *fcm_group_out(const int8_t *xt, const int8_t *g, int32_t t, int32_t in_zp, const int32_t *dot,
                                   const fcm_rq *q, int32_t o, int8_t *y)
{
    for (int32_t j = 0; j < 4; j++, g += t) {
        int32_t d = dot[j];
        for (int32_t c = 0; c < t; c++)
            d += (int32_t)g[c] * ((int32_t)xt[c] - in_zp);
        y[o + j] = fcm_out(d, q, o + j);
    }
    return g;
}

/* The sum of one plain row. */
static int32_t fcm_row(const int8_t *x, const int8_t *w, int32_t k, int32_t in_zp)
{
    int32_t d = 0;
    for (int32_t c = 0; c < k; c++)
        d += (int32_t)w[c] * ((int32_t)x[c] - in_zp);
    return d;
}

void sm2c_rt_fully_connected_m_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, int32_t rows,
                                  int32_t k, int32_t n, const int32_t *mult, const int32_t *shift, int32_t in_zp,
                                  int32_t out_zp, int32_t act_min, int32_t act_max)
{
    const fcm_rq q = { bias, mult, shift, out_zp, act_min, act_max };
    const int32_t groups = n / 4, t = k & 3;
    for (int32_t r = 0; r < rows; r++, x += k, y += n) {
        const int8_t *g = w;
        int32_t o = 0;
        for (int32_t i = 0; i < groups; i++, o += 4) {
            int32_t dot[4];
            g = fcm_quads_zp(x, g, k, in_zp, dot);
            g = fcm_group_out(x + k - t, g, t, in_zp, dot, &q, o, y);
        }
        for (; o < n; o++, g += k)
            y[o] = fcm_out(fcm_row(x, g, k, in_zp), &q, o);
    }
}
