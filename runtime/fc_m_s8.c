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

/* fcm_asm's arguments past the first three (the assembly's offsets). */
typedef struct {
    int32_t *dot;                       /* 0: where the four sums go, or NULL: outputs */
    const int32_t *bias, *mult, *shift; /* 4, 8, 12: the group's first output's; advanced */
    int8_t *y;                          /* 16: likewise */
    int32_t out_zp, lo, hi;             /* 20, 24, 28 */
} fcm_job;

/* A group's four rows over `quads` groups of four columns, in_zp 0 (r0 x, r1
** the group, r2 quads, r3 the job): eight columns a turn, four first when
** quads is odd.  Then the four sums to j->dot, or, when that is NULL, the
** outputs as fcm_out makes them for shifts in [-31, -1] (fcm_nearest: the
** sign taken off the 64-bit product and put back after the rounding), one a
** turn.  Returns where the group's tails, or the next group, start. */
SM2C_RT_NAKED_STACK(fcm_asm, 60) /* r4-r11, lr, the job, g and the sums */
__attribute__((naked, noinline)) static const int8_t *fcm_asm(const int8_t *x __attribute__((unused)),
                                                               const int8_t *g __attribute__((unused)),
                                                               int32_t quads __attribute__((unused)),
                                                               fcm_job *j __attribute__((unused)))
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
            "ldr r12, [sp]\n\t"
            "ldr r6, [r12]\n\t"
            "cbz r6, 4f\n\t"
            "stm r6, {r2-r5}\n\t"
            "b 6f\n"
            "4:\n\t"
            "push {r1-r5}\n\t" /* g, then the sums */
            "add r0, r12, #4\n\t"
            "ldm r0, {r6-r9}\n\t" /* bias, mult, shift, y */
            "add r0, r12, #20\n\t"
            "ldm r0, {r0-r2}\n\t" /* out_zp, lo, hi */
            "add r5, sp, #4\n\t"
            "movs r3, #4\n"
            "5:\n\t"
            "ldr r4, [r5], #4\n\t"
            "ldr r10, [r6], #4\n\t"
            "ldr r12, [r7], #4\n\t"
            "ldr lr, [r8], #4\n\t"
            "add r4, r4, r10\n\t"
            "smull r10, r11, r4, r12\n\t"
            "asr r4, r11, #31\n\t" /* the sign, 0 or -1 */
            "eor r10, r10, r4\n\t"
            "eor r11, r11, r4\n\t"
            "subs r10, r10, r4\n\t"
            "sbc r11, r11, r4\n\t" /* |x * m| */
            "lsr r10, r10, #31\n\t"
            "orr r10, r10, r11, lsl #1\n\t" /* >> 31 */
            "mvn lr, lr\n\t"                 /* e = -shift - 1 */
            "lsr r10, r10, lr\n\t"
            "add r10, r10, #1\n\t"
            "eor r10, r4, r10, lsr #1\n\t"
            "sub r4, r10, r4\n\t"
            "add r4, r4, r0\n\t" SM2C_RT_ASM_CLAMP("r4", "r1", "r2") "strb r4, [r9], #1\n\t"
            "subs r3, r3, #1\n\t"
            "bne 5b\n\t"
            "ldr r12, [sp, #20]\n\t"
            "add r12, r12, #4\n\t"
            "stm r12, {r6-r9}\n\t"
            "pop {r1-r5}\n"
            "6:\n\t"
            "add sp, sp, #4\n\t"
            "mov r0, r1\n\t"
            "pop {r4-r11, pc}");
}
#undef FCM_QUAD_ASM
#endif

static const int8_t *fcm_quads_zp(const int8_t *x, const int8_t *g, int32_t k, int32_t in_zp, int32_t *dot)
{
#if SM2C_RT_DSP_ASM && defined(__thumb2__)
    fcm_job j = { dot, NULL, NULL, NULL, NULL, 0, 0, 0 };
    if (!in_zp)
        return fcm_asm(x, g, k >> 2, &j);
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

/* Whether fcm_asm requantizes the layer's groups itself: in_zp 0, K a
** multiple of 4, a bias, every shift in [-31, -1] (fcm_nearest's). */
static int fcm_asm_outputs(int32_t k, int32_t n, int32_t in_zp, const int32_t *bias, const int32_t *shift)
{
#if SM2C_RT_DSP_ASM && defined(__thumb2__)
    if (in_zp || (k & 3) || !bias)
        return 0;
    for (int32_t o = 0; o < n; o++)
        if (shift[o] >= 0 || shift[o] < -31)
            return 0;
    return 1;
#else
    (void)k, (void)n, (void)in_zp, (void)bias, (void)shift;
    return 0;
#endif
}

/* A row's outputs in groups of four; returns where the last N % 4 rows start. */
static const int8_t *fcm_groups(const int8_t *x, const int8_t *g, int32_t k, int32_t groups, int32_t in_zp,
                                const fcm_rq *q, int asm_out, int8_t *y)
{
    const int32_t t = k & 3;
#if SM2C_RT_DSP_ASM && defined(__thumb2__)
    if (asm_out) {
        fcm_job j = { NULL, q->bias, q->mult, q->shift, y, q->out_zp, q->lo, q->hi };
        for (int32_t i = 0; i < groups; i++)
            g = fcm_asm(x, g, k >> 2, &j);
        return g;
    }
#else
    (void)asm_out;
#endif
    for (int32_t i = 0, o = 0; i < groups; i++, o += 4) {
        int32_t dot[4];
        g = fcm_quads_zp(x, g, k, in_zp, dot);
        g = fcm_group_out(x + k - t, g, t, in_zp, dot, q, o, y);
    }
    return g;
}

void sm2c_rt_fully_connected_m_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, int32_t rows,
                                  int32_t k, int32_t n, const int32_t *mult, const int32_t *shift, int32_t in_zp,
                                  int32_t out_zp, int32_t act_min, int32_t act_max)
{
    const fcm_rq q = { bias, mult, shift, out_zp, act_min, act_max };
    const int32_t groups = n / 4;
    const int asm_out = fcm_asm_outputs(k, n, in_zp, bias, shift);
    for (int32_t r = 0; r < rows; r++, x += k, y += n) {
        const int8_t *g = fcm_groups(x, w, k, groups, in_zp, &q, asm_out, y);
        for (int32_t o = groups * 4; o < n; o++, g += k)
            y[o] = fcm_out(fcm_row(x, g, k, in_zp), &q, o);
    }
}
