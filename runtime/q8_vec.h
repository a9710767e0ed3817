/*
** q8_vec.h: q8_math.h's requantization on 16 lanes (AVX-512) and 8 lanes
** (AVX2), bit for bit, and the store of a block of int32 sums through it
** (private to the runtime).  Everything is static inline.
**
** sm2c_rt__requant(x, m, shift) in vector form: the left shift saturates as
** the int64 product does; SaturatingRoundingDoublingHighMul is
** floor((a * b + 2^30) / 2^31), which is gemmlowp's nudged truncation in one
** form for both signs (for a * b < 0, trunc((ab + 1 - 2^30) / 2^31) equals
** floor((ab + 2^30) / 2^31)), taken from the 64-bit products of the even and
** the odd lanes; RoundingDivideByPOT as in q8_math.h.
**
** The float scheme (q8_out.scale set: the _frq kernels, --requantize float)
** is XNNPACK's "fp32" requantization: (float)sum * scale, clamped to the
** output range less the zero point, rounded to nearest even, plus the zero
** point.  Not TFLite's reference bits (an output may differ by one), but
** six operations per 16 outputs where the fixed-point form takes about 18;
** every path here gives the same bits as q8_float_c (in the default
** rounding mode: products and conversions round to nearest).
*/
#ifndef SM2C_RT_Q8_VEC_H
#define SM2C_RT_Q8_VEC_H

#include <stdint.h>
#include <string.h>

#include "q8_math.h"
#include "rt_select.h" /* SM2C_RT_ALWAYS_INLINE */
#include "simd_s8.h"

/* What the store of one output pixel's block needs besides the sums. */
typedef struct {
    const int32_t *bias; /* may be NULL */
    const int32_t *mult, *shift;
    int32_t out_zp, act_min, act_max;
    const float *scale;  /* non-NULL: the float scheme (mult, shift unused) */
    int nearest;         /* mult, shift: TFLite FullyConnected's one rounding (sm2c_rt__requant_nearest),
                         ** else its convolutions' two */
} q8_out;

/* The float scheme's rounding of f, clamped to the output range less the
** zero point (q8_float_c, the float Add): the rounding by the magic
** number 1.5 * 2^23, exact for the clamped |f| <= 255, as XNNPACK's scalar
** "fmagic" kernels; the clamp comes between the product and the add, so no
** compiler contracts them into one fused operation. */
static inline int8_t q8_round_c(float f, int32_t zp, int32_t act_min, int32_t act_max)
{
    const float lo = (float)(act_min - zp), hi = (float)(act_max - zp);
    f = f < lo ? lo : f;
    f = f > hi ? hi : f;
    const float r = f + 12582912.0f;
    int32_t bits;
    memcpy(&bits, &r, sizeof bits);
    return (int8_t)(bits - 0x4B400000 + zp);
}

static inline int8_t q8_float_c(int32_t a, float scale, const q8_out *q)
{
    return q8_round_c((float)a * scale, q->out_zp, q->act_min, q->act_max);
}

/* y[j] for j < n from the sums acc[j] of output channels o0 + j, in C. */
static inline void q8_store_c(const int32_t *acc, int32_t o0, int32_t n, const q8_out *q, int8_t *y)
{
    for (int32_t j = 0; j < n; j++) {
        const int32_t o = o0 + j;
        const int32_t a = acc[j] + (q->bias ? q->bias[o] : 0);
        if (q->scale) {
            y[j] = q8_float_c(a, q->scale[o], q);
            continue;
        }
        const int32_t v = q->nearest ? sm2c_rt__requant_nearest(a, q->mult[o], q->shift[o])
                                     : sm2c_rt__requant(a, q->mult[o], q->shift[o]);
        y[j] = sm2c_rt__clamp_s8(v + q->out_zp, q->act_min, q->act_max);
    }
}

#if SM2C_RT_VNNI
SM2C_RT_TARGET_VNNI static inline __m512i q8_requant512(__m512i x, __m512i m, __m512i shift)
{
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
    const __m512i imax = _mm512_set1_epi32(INT32_MAX), imin = _mm512_set1_epi32(INT32_MIN);
    const __m512i left = _mm512_min_epi32(_mm512_max_epi32(shift, zero), _mm512_set1_epi32(31));
    const __m512i right = _mm512_max_epi32(
        _mm512_sub_epi32(zero, _mm512_max_epi32(shift, _mm512_set1_epi32(-31))), zero);
    /* x * 2^left, saturated */
    const __m512i sh = _mm512_sllv_epi32(x, left);
    const __mmask16 ovf = _mm512_cmpneq_epi32_mask(_mm512_srav_epi32(sh, left), x);
    const __m512i sat = _mm512_mask_blend_epi32(_mm512_cmplt_epi32_mask(x, zero), imax, imin);
    const __m512i a = _mm512_mask_blend_epi32(ovf, sh, sat);
    /* the doubling high multiply */
    const __m512i nudge = _mm512_set1_epi64(INT64_C(1) << 30);
    const __m512i ev = _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epi32(a, m), nudge), 31);
    const __m512i od = _mm512_slli_epi64(
        _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(m, 32)), nudge), 1);
    __m512i h = _mm512_mask_blend_epi32(0xAAAA, ev, od);
    h = _mm512_mask_mov_epi32(h, _mm512_cmpeq_epi32_mask(a, imin) & _mm512_cmpeq_epi32_mask(m, imin), imax);
    /* the rounding shift right */
    const __m512i mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, right), one);
    const __m512i rem = _mm512_and_si512(h, mask);
    __m512i thr = _mm512_srai_epi32(mask, 1);
    thr = _mm512_mask_add_epi32(thr, _mm512_cmplt_epi32_mask(h, zero), thr, one);
    const __m512i r = _mm512_srav_epi32(h, right);
    return _mm512_mask_add_epi32(r, _mm512_cmpgt_epi32_mask(rem, thr), r, one);
}

/* sm2c_rt__requant_nearest on 8 lanes of int64: x * m rounded half away
** from zero at bit 31 - shift, saturated to int32. */
SM2C_RT_TARGET_VNNI static inline __m256i q8_nearest8(__m256i x, __m256i m, __m256i shift)
{
    const __m512i p = _mm512_mul_epi32(_mm512_cvtepi32_epi64(x), _mm512_cvtepi32_epi64(m));
    const __m512i total = _mm512_sub_epi64(_mm512_set1_epi64(31), _mm512_cvtepi32_epi64(shift));
    const __m512i half = _mm512_sllv_epi64(_mm512_set1_epi64(1), _mm512_sub_epi64(total, _mm512_set1_epi64(1)));
    const __m512i q = _mm512_srlv_epi64(_mm512_add_epi64(_mm512_abs_epi64(p), half), total);
    const __mmask8 neg = _mm512_cmplt_epi64_mask(p, _mm512_setzero_si512());
    return _mm512_cvtsepi64_epi32(_mm512_mask_sub_epi64(q, neg, _mm512_setzero_si512(), q));
}

/* q8_nearest8 on 16 lanes. */
SM2C_RT_TARGET_VNNI static inline __m512i q8_nearest512(__m512i x, __m512i m, __m512i shift)
{
    const __m256i lo = q8_nearest8(_mm512_castsi512_si256(x), _mm512_castsi512_si256(m), _mm512_castsi512_si256(shift));
    const __m256i hi = q8_nearest8(_mm512_extracti64x4_epi64(x, 1), _mm512_extracti64x4_epi64(m, 1),
                                   _mm512_extracti64x4_epi64(shift, 1));
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

/* q8_round_c on 16 lanes: clamped outputs as int32. */
SM2C_RT_TARGET_VNNI static inline __m512i q8_round512(__m512 f, int32_t zp, int32_t act_min, int32_t act_max)
{
    f = _mm512_max_ps(f, _mm512_set1_ps((float)(act_min - zp)));
    f = _mm512_min_ps(f, _mm512_set1_ps((float)(act_max - zp)));
    return _mm512_add_epi32(_mm512_cvtps_epi32(f), _mm512_set1_epi32(zp));
}

/* q8_float_c on 16 lanes of sums v (bias added): clamped outputs as int32. */
SM2C_RT_TARGET_VNNI static inline __m512i q8_float512(__m512i v, __m512 scale, const q8_out *q)
{
    return q8_round512(_mm512_mul_ps(_mm512_cvtepi32_ps(v), scale), q->out_zp, q->act_min, q->act_max);
}

/* Channels o0 .. o0 + min(n, 16) - 1 of the sums v: bias, requantization,
** zero point, clamp and store. */
SM2C_RT_TARGET_VNNI static inline void q8_out512(__m512i v, int32_t o0, int32_t n, const q8_out *q,
                                                 int8_t *y)
{
    const __mmask16 k = (__mmask16)(n >= 16 ? 0xFFFFu : (1u << n) - 1u);
    if (q->bias)
        v = _mm512_add_epi32(v, _mm512_maskz_loadu_epi32(k, q->bias + o0));
    if (q->scale) {
        v = q8_float512(v, _mm512_maskz_loadu_ps(k, q->scale + o0), q);
    } else {
        const __m512i m = _mm512_maskz_loadu_epi32(k, q->mult + o0), s = _mm512_maskz_loadu_epi32(k, q->shift + o0);
        v = q->nearest ? q8_nearest512(v, m, s) : q8_requant512(v, m, s);
        v = _mm512_add_epi32(v, _mm512_set1_epi32(q->out_zp));
        v = _mm512_max_epi32(_mm512_min_epi32(v, _mm512_set1_epi32(q->act_max)), _mm512_set1_epi32(q->act_min));
    }
    _mm512_mask_cvtepi32_storeu_epi8(y, k, v);
}

/* q8_out512's per-channel values for channels o0 .. o0 + min(n, 16) - 1,
** prepared once for a block of channels that many pixels store through
** q8_apply512: the same operations on the same values, so the same bits;
** the saturating left shift and the INT32_MIN * INT32_MIN case are left out
** where no lane can need them (no positive shift; no multiplier INT32_MIN).
**
** When every channel shifts right by r in [1, 23] (no multiplier INT32_MIN),
** the two roundings and the zero point are one floor in 64 bits (`fast`):
**
**     y = (a * m + K - [a * m < 0] * 2^31) >> (31 + r),
**     K = 2^30 + 2^(30 + r) + out_zp * 2^(31 + r)
**
** since floor((floor(x) + c) / 2^r) = floor((x + c) / 2^r), and the
** rounding's sign, the doubling product's, is that of a * m + 2^30 but where
** both give 0 (a * m in [-2^30, 0), r >= 1).  With the clamp's low end at
** or above the zero point (`sign` 0: a ReLU) every a * m < 0 clamps to it
** either way, so the sign term is left out.  |y - out_zp| <= 2^30, so the
** low word of each 64-bit lane is y; r <= 23 keeps every term in int64.
** TFLite FullyConnected's one rounding (q->nearest), half away from zero at
** bit 31 + r, is the same floor with K = 2^(30 + r) + out_zp * 2^(31 + r)
** and 1 for the sign term: for a * m < 0, -floor((2^(30+r) - a * m) /
** 2^(31+r)) = floor((a * m + 2^(30+r) - 1) / 2^(31+r)); with a ReLU it goes
** too (a * m < 0 gives at most out_zp either way). */
typedef struct {
    __m512i bias, m, m_odd;
    union { /* the double rounding's (d), or the one floor's (f, fast); a kernel keeps four preps */
        struct {
            __m512i left, right, mask, thr;
        } d;
        struct {
            __m512i k_even, k_odd, s_even, s_odd; /* K and 31 + r of channels 2i, 2i + 1 */
        } f;
    } u;
    __m512 scale;           /* the float scheme's */
    int32_t zp, lo, hi;     /* q's out_zp, act_min, act_max: an int8 store may alias q */
    float flo, fhi;         /* the float scheme's clamp less the zero point */
    __mmask16 k;
    int64_t neg;            /* the fast form's sign term: 2^31, or 1 for nearest */
    int has_left, has_min, is_float, fast, sign;
    int nearest;            /* q->nearest outside the fast form: u.d.right holds the shifts */
    int hi_open; /* act_max 127: q8_apply512's saturating store is the clamp's high end */
} q8_prep512;

/* q8_prep512's fast form for channels o0 .. o0 + n - 1 (n <= 16), or 0
** when a channel's shift is outside [-23, -1] or its multiplier INT32_MIN.
** On vectors: every kernel preps each block of 16 channels it stores, and
** a layer of few pixels per channel (a depthwise's, a 6x6 image's) spends
** as long on the preps as on its sums when they loop over the lanes. */
SM2C_RT_TARGET_VNNI static inline int q8_prep_fast(q8_prep512 *r, int32_t o0, int32_t n, const q8_out *q)
{
    const __mmask16 k = (__mmask16)(n >= 16 ? 0xFFFFu : (1u << n) - 1u);
    if (q->out_zp < -128 || q->out_zp > 127)
        return 0;
    /* lanes past n take shift -1, as one in range */
    const __m512i sh = _mm512_mask_loadu_epi32(_mm512_set1_epi32(-1), k, q->shift + o0);
    const __m512i mult = _mm512_maskz_loadu_epi32(k, q->mult + o0);
    if (_mm512_cmplt_epi32_mask(sh, _mm512_set1_epi32(-23)) | _mm512_cmpgt_epi32_mask(sh, _mm512_set1_epi32(-1)) |
        _mm512_mask_cmpeq_epi32_mask(k, mult, _mm512_set1_epi32(INT32_MIN)))
        return 0;
    /* channels 2i (even) and 2i + 1 (odd) as int64: ss = 31 - sh, K =
    ** [2^30] + 2^(30 - sh) + out_zp * 2^ss (the product as a shift of its
    ** two's complement) */
    const __m512i sh_e = _mm512_srai_epi64(_mm512_slli_epi64(sh, 32), 32), sh_o = _mm512_srai_epi64(sh, 32);
    const __m512i c31 = _mm512_set1_epi64(31), c30 = _mm512_set1_epi64(30), one = _mm512_set1_epi64(1);
    const __m512i base = _mm512_set1_epi64(q->nearest ? 0 : INT64_C(1) << 30), zp = _mm512_set1_epi64(q->out_zp);
    r->u.f.s_even = _mm512_sub_epi64(c31, sh_e), r->u.f.s_odd = _mm512_sub_epi64(c31, sh_o);
    r->u.f.k_even = _mm512_add_epi64(_mm512_add_epi64(base, _mm512_sllv_epi64(one, _mm512_sub_epi64(c30, sh_e))),
                                     _mm512_sllv_epi64(zp, r->u.f.s_even));
    r->u.f.k_odd = _mm512_add_epi64(_mm512_add_epi64(base, _mm512_sllv_epi64(one, _mm512_sub_epi64(c30, sh_o))),
                                    _mm512_sllv_epi64(zp, r->u.f.s_odd));
    r->sign = q->act_min < q->out_zp;
    r->neg = q->nearest ? 1 : INT64_C(1) << 31;
    return 1;
}

SM2C_RT_TARGET_VNNI static inline void q8_prep(q8_prep512 *r, int32_t o0, int32_t n, const q8_out *q)
{
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
    r->k = (__mmask16)(n >= 16 ? 0xFFFFu : (1u << n) - 1u);
    r->bias = q->bias ? _mm512_maskz_loadu_epi32(r->k, q->bias + o0) : zero;
    r->is_float = q->scale != NULL;
    r->zp = q->out_zp, r->lo = q->act_min, r->hi = q->act_max;
    r->fast = r->sign = r->nearest = 0;
    r->neg = 0;
    r->hi_open = q->act_max >= 127;
    r->flo = (float)(q->act_min - q->out_zp), r->fhi = (float)(q->act_max - q->out_zp);
    if (r->is_float) {
        r->scale = _mm512_maskz_loadu_ps(r->k, q->scale + o0);
        r->m = r->m_odd = r->u.d.left = r->u.d.right = r->u.d.mask = r->u.d.thr = zero;
        r->has_left = r->has_min = 0;
        return;
    }
    r->scale = _mm512_setzero_ps();
    r->fast = q8_prep_fast(r, o0, n, q);
    r->m = _mm512_maskz_loadu_epi32(r->k, q->mult + o0);
    r->m_odd = _mm512_srli_epi64(r->m, 32);
    r->has_min = _mm512_cmpeq_epi32_mask(r->m, _mm512_set1_epi32(INT32_MIN)) != 0;
    if (r->fast) { /* k_even .. s_odd share left .. thr's place */
        r->has_left = 0;
        return;
    }
    const __m512i shift = _mm512_maskz_loadu_epi32(r->k, q->shift + o0);
    if (q->nearest) { /* the general one rounding (q8_nearest512) */
        r->nearest = 1;
        r->has_left = 0;
        r->u.d.left = r->u.d.mask = r->u.d.thr = zero;
        r->u.d.right = shift;
        return;
    }
    r->u.d.left = _mm512_min_epi32(_mm512_max_epi32(shift, zero), _mm512_set1_epi32(31));
    r->u.d.right = _mm512_max_epi32(_mm512_sub_epi32(zero, _mm512_max_epi32(shift, _mm512_set1_epi32(-31))), zero);
    r->u.d.mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, r->u.d.right), one);
    r->u.d.thr = _mm512_srai_epi32(r->u.d.mask, 1);
    r->has_left = _mm512_cmpgt_epi32_mask(r->u.d.left, zero) != 0;
}

/* q8_out512's outputs through r = q8_prep(o0, n, q), as int32 lanes, the
** fixed-point forms' clamp at act_max left out when hi_open (a saturating
** narrowing then does it).  Inlined always: a block's stores call it once
** per pixel and vector, and r's fields then stay in registers (a kernel
** keeps r in a local). */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE __m512i q8_apply512_lanes(__m512i v, const q8_prep512 *r,
                                                                          const q8_out *q, int hi_open)
{
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
    const __m512i imax = _mm512_set1_epi32(INT32_MAX), imin = _mm512_set1_epi32(INT32_MIN);
    __m512i a = _mm512_add_epi32(v, r->bias);
    (void)q;
    if (r->is_float) {
        const __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(a), r->scale);
        return _mm512_add_epi32(
            _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f, _mm512_set1_ps(r->flo)), _mm512_set1_ps(r->fhi))),
            _mm512_set1_epi32(r->zp));
    }
    if (r->fast) {
        const __m512i idx = _mm512_setr_epi32(0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
        const __m512i ze = _mm512_mul_epi32(a, r->m), zo = _mm512_mul_epi32(_mm512_srli_epi64(a, 32), r->m_odd);
        __m512i ye = _mm512_add_epi64(ze, r->u.f.k_even), yo = _mm512_add_epi64(zo, r->u.f.k_odd);
        if (r->sign) {
            const __m512i c31 = _mm512_set1_epi64(r->neg);
            ye = _mm512_mask_sub_epi64(ye, _mm512_cmplt_epi64_mask(ze, zero), ye, c31);
            yo = _mm512_mask_sub_epi64(yo, _mm512_cmplt_epi64_mask(zo, zero), yo, c31);
        }
        const __m512i y = _mm512_max_epi32(
            _mm512_permutex2var_epi32(_mm512_srav_epi64(ye, r->u.f.s_even), idx, _mm512_srav_epi64(yo, r->u.f.s_odd)),
            _mm512_set1_epi32(r->lo));
        return hi_open ? y : _mm512_min_epi32(y, _mm512_set1_epi32(r->hi));
    }
    if (r->nearest) {
        const __m512i y = _mm512_max_epi32(_mm512_add_epi32(q8_nearest512(a, r->m, r->u.d.right), _mm512_set1_epi32(r->zp)),
                                           _mm512_set1_epi32(r->lo));
        return hi_open ? y : _mm512_min_epi32(y, _mm512_set1_epi32(r->hi));
    }
    if (r->has_left) {
        const __m512i sh = _mm512_sllv_epi32(a, r->u.d.left);
        const __mmask16 ovf = _mm512_cmpneq_epi32_mask(_mm512_srav_epi32(sh, r->u.d.left), a);
        const __m512i sat = _mm512_mask_blend_epi32(_mm512_cmplt_epi32_mask(a, zero), imax, imin);
        a = _mm512_mask_blend_epi32(ovf, sh, sat);
    }
    const __m512i nudge = _mm512_set1_epi64(INT64_C(1) << 30);
    const __m512i ev = _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epi32(a, r->m), nudge), 31);
    const __m512i od =
        _mm512_slli_epi64(_mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(a, 32), r->m_odd), nudge), 1);
    __m512i h = _mm512_mask_blend_epi32(0xAAAA, ev, od);
    if (r->has_min)
        h = _mm512_mask_mov_epi32(
            h, _mm512_cmpeq_epi32_mask(a, imin) & _mm512_cmpeq_epi32_mask(r->m, imin), imax);
    const __m512i rem = _mm512_and_si512(h, r->u.d.mask);
    const __m512i thr = _mm512_mask_add_epi32(r->u.d.thr, _mm512_cmplt_epi32_mask(h, zero), r->u.d.thr, one);
    __m512i x = _mm512_srav_epi32(h, r->u.d.right);
    x = _mm512_mask_add_epi32(x, _mm512_cmpgt_epi32_mask(rem, thr), x, one);
    x = _mm512_max_epi32(_mm512_add_epi32(x, _mm512_set1_epi32(r->zp)), _mm512_set1_epi32(r->lo));
    return hi_open ? x : _mm512_min_epi32(x, _mm512_set1_epi32(r->hi));
}

/* q8_apply512_lanes clamped at both ends. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE __m512i q8_apply512_v(__m512i v, const q8_prep512 *r,
                                                                      const q8_out *q)
{
    return q8_apply512_lanes(v, r, q, 0);
}

/* q8_out512(v, o0, n, q, y) through r = q8_prep(o0, n, q). */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void q8_apply512(__m512i v, const q8_prep512 *r, const q8_out *q,
                                                                 int8_t *y)
{
    _mm512_mask_cvtsepi32_storeu_epi8(y, r->k, q8_apply512_lanes(v, r, q, r->hi_open));
}

/* A prep's form, which a kernel fixes once for many stores (q8_form_fix), so
** that q8_apply512_v folds to its operations alone: the float scheme, the
** one floor with and without the sign term, or any (the flags as they are). */
enum { Q8_FORM_ANY, Q8_FORM_FAST, Q8_FORM_FAST_RELU, Q8_FORM_FLOAT };

SM2C_RT_TARGET_VNNI static inline int q8_form512(const q8_prep512 *r)
{
    return r->is_float ? Q8_FORM_FLOAT : !r->fast ? Q8_FORM_ANY : r->sign ? Q8_FORM_FAST : Q8_FORM_FAST_RELU;
}

/* r's flags set to `form`'s constants (q8_form512(r) is form, or ANY). */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void q8_form_fix(q8_prep512 *r, int form)
{
    if (form == Q8_FORM_ANY)
        return;
    r->is_float = form == Q8_FORM_FLOAT;
    r->fast = form != Q8_FORM_FLOAT;
    r->sign = form == Q8_FORM_FAST;
}

/* q8_apply512 of n vectors v[0], v[vs], v[2 vs] .. into y, y + ys, y + 2 ys ..:
** a block's stores, with the requantization's form chosen once, not per
** vector (each loop's q8_apply512_v folds to one form, its constants hoisted).
** With biased, the sums hold the bias already (the kernel started them at it). */
SM2C_RT_TARGET_VNNI static inline void q8_apply512_n(const __m512i *v, ptrdiff_t vs, int32_t n, const q8_prep512 *rp,
                                                     int biased, const q8_out *q, int8_t *y, ptrdiff_t ys)
{
    q8_prep512 r = *rp;
    if (biased)
        r.bias = _mm512_setzero_si512();
#define Q8_APPLY_N(form)                                                                   \
    q8_form_fix(&r, form);                                                                 \
    if (r.hi_open) {                                                                       \
        r.hi_open = 1;                                                                     \
        for (int32_t i = 0; i < n; i++)                                                    \
            q8_apply512(v[i * vs], &r, q, y + i * ys);                                     \
    } else {                                                                               \
        r.hi_open = 0;                                                                     \
        for (int32_t i = 0; i < n; i++)                                                    \
            q8_apply512(v[i * vs], &r, q, y + i * ys);                                     \
    }
    switch (q8_form512(&r)) {
    case Q8_FORM_FLOAT:
        Q8_APPLY_N(Q8_FORM_FLOAT)
        break;
    case Q8_FORM_FAST:
        Q8_APPLY_N(Q8_FORM_FAST)
        break;
    case Q8_FORM_FAST_RELU:
        Q8_APPLY_N(Q8_FORM_FAST_RELU)
        break;
    default:
        Q8_APPLY_N(Q8_FORM_ANY)
    }
#undef Q8_APPLY_N
}

SM2C_RT_TARGET_VNNI static inline void q8_store512(const int32_t *acc, int32_t o0, int32_t n, const q8_out *q,
                                                   int8_t *y)
{
    for (int32_t j = 0; j < n; j += 16) {
        const int32_t m = n - j < 16 ? n - j : 16;
        const __mmask16 k = (__mmask16)(m >= 16 ? 0xFFFFu : (1u << m) - 1u);
        q8_out512(_mm512_maskz_loadu_epi32(k, acc + j), o0 + j, m, q, y + j);
    }
}
#endif

#if SM2C_RT_S8_AVX2
SM2C_RT_TARGET_S8_AVX2 static inline __m256i q8_requant256(__m256i x, __m256i m, __m256i shift)
{
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const __m256i imax = _mm256_set1_epi32(INT32_MAX), imin = _mm256_set1_epi32(INT32_MIN);
    const __m256i left = _mm256_min_epi32(_mm256_max_epi32(shift, zero), _mm256_set1_epi32(31));
    const __m256i right = _mm256_max_epi32(
        _mm256_sub_epi32(zero, _mm256_max_epi32(shift, _mm256_set1_epi32(-31))), zero);
    const __m256i sh = _mm256_sllv_epi32(x, left);
    const __m256i same = _mm256_cmpeq_epi32(_mm256_srav_epi32(sh, left), x);
    const __m256i sat = _mm256_blendv_epi8(imax, imin, _mm256_cmpgt_epi32(zero, x));
    const __m256i a = _mm256_blendv_epi8(sat, sh, same);
    const __m256i nudge = _mm256_set1_epi64x(INT64_C(1) << 30);
    const __m256i ev = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(a, m), nudge), 31);
    const __m256i od = _mm256_slli_epi64(
        _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(m, 32)), nudge), 1);
    __m256i h = _mm256_blend_epi32(ev, od, 0xAA);
    h = _mm256_blendv_epi8(h, imax,
                           _mm256_and_si256(_mm256_cmpeq_epi32(a, imin), _mm256_cmpeq_epi32(m, imin)));
    const __m256i mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, right), one);
    const __m256i rem = _mm256_and_si256(h, mask);
    const __m256i thr = _mm256_sub_epi32(_mm256_srai_epi32(mask, 1), _mm256_cmpgt_epi32(zero, h));
    const __m256i r = _mm256_srav_epi32(h, right);
    return _mm256_sub_epi32(r, _mm256_cmpgt_epi32(rem, thr));
}

/* The first n (<= 8) lanes of a vector, whole when n is 8 (no read past). */
SM2C_RT_TARGET_S8_AVX2 static inline __m256i q8_load256(const int32_t *p, int32_t n)
{
    int32_t t[8] = {0};
    if (n >= 8)
        return _mm256_loadu_si256((const __m256i *)(const void *)p);
    memcpy(t, p, (size_t)n * sizeof *t);
    return _mm256_loadu_si256((const __m256i *)(const void *)t);
}

SM2C_RT_TARGET_S8_AVX2 static inline __m256 q8_load256_ps(const float *p, int32_t n)
{
    float t[8] = {0};
    if (n >= 8)
        return _mm256_loadu_ps(p);
    memcpy(t, p, (size_t)n * sizeof *t);
    return _mm256_loadu_ps(t);
}

/* Channels o0 .. o0 + min(n, 8) - 1's requantization, loaded once for
** many pixels: the multipliers and shifts, or the float scheme's scales. */
typedef struct {
    __m256i m, shift;
    __m256 scale;
    int is_float;
} q8_prep256;

SM2C_RT_TARGET_S8_AVX2 static inline q8_prep256 q8_rq_prep256(int32_t o0, int32_t n, const q8_out *q)
{
    q8_prep256 r;
    r.is_float = q->scale != NULL;
    r.scale = r.is_float ? q8_load256_ps(q->scale + o0, n) : _mm256_setzero_ps();
    r.m = r.is_float ? _mm256_setzero_si256() : q8_load256(q->mult + o0, n);
    r.shift = r.is_float ? _mm256_setzero_si256() : q8_load256(q->shift + o0, n);
    return r;
}

/* q8_round_c on 8 lanes: clamped outputs as int32. */
SM2C_RT_TARGET_S8_AVX2 static inline __m256i q8_round256(__m256 f, int32_t zp, int32_t act_min, int32_t act_max)
{
    f = _mm256_max_ps(f, _mm256_set1_ps((float)(act_min - zp)));
    f = _mm256_min_ps(f, _mm256_set1_ps((float)(act_max - zp)));
    return _mm256_add_epi32(_mm256_cvtps_epi32(f), _mm256_set1_epi32(zp));
}

/* The sums v (bias added) requantized through r: zero point added and
** clamped, as int32 lanes. */
SM2C_RT_TARGET_S8_AVX2 static inline __m256i q8_rq256(__m256i v, const q8_prep256 *r, const q8_out *q)
{
    if (r->is_float)
        return q8_round256(_mm256_mul_ps(_mm256_cvtepi32_ps(v), r->scale), q->out_zp, q->act_min, q->act_max);
    v = _mm256_add_epi32(q8_requant256(v, r->m, r->shift), _mm256_set1_epi32(q->out_zp));
    return _mm256_max_epi32(_mm256_min_epi32(v, _mm256_set1_epi32(q->act_max)), _mm256_set1_epi32(q->act_min));
}

/* q8_out512 on 8 lanes: the first min(n, 8). */
SM2C_RT_TARGET_S8_AVX2 static inline void q8_out256(__m256i v, int32_t o0, int32_t n, const q8_out *q,
                                                    int8_t *y)
{
    const __m256i bytes = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                           0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    int8_t t[32];
    n = n < 8 ? n : 8;
    if (q->nearest) { /* FullyConnected's one rounding: in C (q8_store_c adds the bias) */
        int32_t s[8];
        _mm256_storeu_si256((__m256i *)(void *)s, v);
        q8_store_c(s, o0, n, q, y);
        return;
    }
    if (q->bias)
        v = _mm256_add_epi32(v, q8_load256(q->bias + o0, n));
    const q8_prep256 r = q8_rq_prep256(o0, n, q);
    v = q8_rq256(v, &r, q);
    _mm256_storeu_si256((__m256i *)(void *)t, _mm256_shuffle_epi8(v, bytes));
    memcpy(y, t, (size_t)(n < 4 ? n : 4));
    if (n > 4)
        memcpy(y + 4, t + 16, (size_t)(n - 4));
}

SM2C_RT_TARGET_S8_AVX2 static inline void q8_store256(const int32_t *acc, int32_t o0, int32_t n,
                                                      const q8_out *q, int8_t *y)
{
    for (int32_t j = 0; j < n; j += 8) {
        const int32_t m = n - j < 8 ? n - j : 8;
        q8_out256(q8_load256(acc + j, m), o0 + j, m, q, y + j);
    }
}
#endif

/* y[j] for j < n from the sums acc[j] of output channels o0 + j, on the
** widest path this CPU runs. */
static inline void q8_store(const int32_t *acc, int32_t o0, int32_t n, const q8_out *q, int8_t *y)
{
#if SM2C_RT_VNNI
    if (sm2c_rt__have_vnni()) {
        q8_store512(acc, o0, n, q, y);
        return;
    }
#endif
#if SM2C_RT_S8_AVX2
    if (sm2c_rt__have_s8_avx2()) {
        q8_store256(acc, o0, n, q, y);
        return;
    }
#endif
    q8_store_c(acc, o0, n, q, y);
}

#endif
