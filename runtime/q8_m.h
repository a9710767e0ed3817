/*
** q8_m.h: q8_math.h's requantization for a scalar core (Cortex-M), private
** to the runtime.  A kernel asks once per layer whether every channel can
** take the short way (q8m_mode), and then requantizes each sum with
** q8m_fast (a multiply, two adds and a shift), or prepares each channel
** once (q8m_prep) and applies that to its sums (q8m_apply).
**
** The bits are sm2c_rt__requant's.  For shift < 0 and a multiplier other
** than INT32_MIN (what TFLite's converter makes for a contraction whose real
** multiplier is below 1/2), there is no left shift and the doubling high
** multiply cannot saturate; when besides every sum the layer can make is
** below 2^30 in magnitude (q8m_small: k terms of at most 128 * 255, plus the
** bias), SaturatingRoundingDoublingHighMul(x, m) = floor((2x * m + 2^31) /
** 2^32) is SMMULR of 2x and m, and RoundingDivideByPOT by e >= 1 is
** floor((h + 2^(e-1) - [h < 0]) / 2^e) with no overflow:
**     h = floor(h / 2^e) * 2^e + rem, 0 <= rem < 2^e, and gemmlowp adds one
**     when rem > 2^(e-1) - 1 + [h < 0], i.e. when rem + 2^(e-1) - [h < 0]
**     reaches 2^e, which is what the floor adds.
** Any other channel takes sm2c_rt__requant itself.
*/
#ifndef SM2C_RT_Q8_M_H
#define SM2C_RT_Q8_M_H

#include <stdint.h>

#include "dsp_s8.h"
#include "q8_math.h"
#include "rt_select.h" /* SM2C_RT_ALWAYS_INLINE */

typedef struct {
    int32_t m, shift;   /* the channel's Q31 multiplier and shift */
    int32_t e;          /* the right shift, -shift in [1, 31] */
    int32_t slow;       /* else: sm2c_rt__requant itself */
} q8m_rq;

/* Whether every sum of k terms (x - zp) * w, int8 x and w, plus a bias of
** bias[0..n) (NULL: none), lies in (-2^30, 2^30). */
static inline int q8m_small(int64_t k, const int32_t *bias, int32_t n)
{
    int64_t most = 0;
    for (int32_t i = 0; bias && i < n; i++) {
        const int64_t b = bias[i] < 0 ? -(int64_t)bias[i] : bias[i];
        most = b > most ? b : most;
    }
    return k * 128 * 255 + most < (INT64_C(1) << 30);
}

/* What a layer's channels take: 2 when every channel takes the short way
** (q8m_fast: sums small, shift in [-31, -1], no multiplier INT32_MIN), else
** 1 when the sums are small (each channel prepared by q8m_prep), else 0. */
static inline int q8m_mode(int64_t k, const int32_t *bias, const int32_t *mult, const int32_t *shift, int32_t n)
{
    if (!q8m_small(k, bias, n))
        return 0;
    for (int32_t i = 0; i < n; i++)
        if (shift[i] >= 0 || shift[i] < -31 || mult[i] == INT32_MIN)
            return 1;
    return 2;
}

/* SaturatingRoundingDoublingHighMul(x, m) for m > INT32_MIN, |x| < 2^30:
** SMMULR of 2x and m (above). */
static SM2C_RT_ALWAYS_INLINE int32_t q8m_high(int32_t x, int32_t m)
{
#if SM2C_RT_DSP_S8
    int32_t h;
    __asm__("smmulr %0, %1, %2" : "=r"(h) : "r"(x * 2), "r"(m));
    return h;
#else
    /* >> of a negative int64 is arithmetic on every compiler sm2c supports. */
    return (int32_t)(((int64_t)x * m + (INT64_C(1) << 30)) >> 31);
#endif
}

/* sm2c_rt__requant(x, m, -e) for e in [1, 31], m > INT32_MIN, |x| < 2^30. */
static SM2C_RT_ALWAYS_INLINE int32_t q8m_fast(int32_t x, int32_t m, int32_t e)
{
    const int32_t h = q8m_high(x, m);
    /* >> of a negative int32 likewise; (2^e) / 2 = 2^(e-1). */
    return (h + (int32_t)((UINT32_C(1) << e) >> 1) - (int32_t)((uint32_t)h >> 31)) >> e;
}

/* small: q8m_small of the layer (q8m_mode >= 1). */
static inline void q8m_prep(q8m_rq *r, int32_t m, int32_t shift, int small)
{
    r->m = m, r->shift = shift;
    r->slow = !small || shift >= 0 || shift < -31 || m == INT32_MIN;
    r->e = r->slow ? 1 : -shift;
}

/* sm2c_rt__requant(x, r->m, r->shift). */
static inline int32_t q8m_apply(const q8m_rq *r, int32_t x)
{
    return r->slow ? sm2c_rt__requant(x, r->m, r->shift) : q8m_fast(x, r->m, r->e);
}

/* The int8 output of sum x of a channel prepared in r. */
static inline int8_t q8m_out(const q8m_rq *r, int32_t x, int32_t out_zp, int32_t lo, int32_t hi)
{
    return sm2c_rt__clamp_s8(q8m_apply(r, x) + out_zp, lo, hi);
}

#endif
