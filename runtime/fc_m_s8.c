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

static const int8_t *fcm_quads_zp(const int8_t *x, const int8_t *g, int32_t k, int32_t in_zp, int32_t *dot)
{
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

/* One output: bias, TFLite's single rounding, the zero point and the clamp. */
static SM2C_RT_ALWAYS_INLINE int8_t fcm_out(int32_t dot, const int32_t *bias, int32_t o, const int32_t *mult,
                                            const int32_t *shift, int32_t out_zp, int32_t act_min, int32_t act_max)
{
    const int32_t acc = dot + (bias ? bias[o] : 0);
    return sm2c_rt__clamp_s8(sm2c_rt__requant_nearest(acc, mult[o], shift[o]) + out_zp, act_min, act_max);
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
    const int32_t groups = n / 4, t = k & 3;
    for (int32_t r = 0; r < rows; r++, x += k, y += n) {
        const int8_t *g = w;
        int32_t o = 0;
        for (int32_t q = 0; q < groups; q++) {
            int32_t dot[4];
            g = fcm_quads_zp(x, g, k, in_zp, dot);
            for (int32_t j = 0; j < 4; j++, g += t) {
                for (int32_t c = 0; c < t; c++)
                    dot[j] += (int32_t)g[c] * ((int32_t)x[k - t + c] - in_zp);
                y[o] = fcm_out(dot[j], bias, o, mult, shift, out_zp, act_min, act_max);
                o++;
            }
        }
        for (; o < n; o++, g += k)
            y[o] = fcm_out(fcm_row(x, g, k, in_zp), bias, o, mult, shift, out_zp, act_min, act_max);
    }
}
