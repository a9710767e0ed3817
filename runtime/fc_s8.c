/*
** fc_s8.c: int8 fully connected (MatMul with a constant [K, N] filter under
** --quantize int8), as TFLite's reference FullyConnectedPerChannel computes it.
** The compiler stores the filter transposed, [N, K], so each output is one
** contiguous dot product:
**
**     y[r, o] = clamp(nearest(bias[o] + sum_k w[o, k] * (x[r, k] - in_zp),
**                             mult[o], shift[o]) + out_zp, act_min, act_max)
**
** TFLite's reference kernel rounds acc * real once (in double), unlike its
** convolutions' two roundings: nearest() is that single rounding in integers
** (q8_math.h).
**
** On x86-64 the dot products of four outputs at a time run on vectors
** (simd_s8.h): with VNNI, vpdpbusd over x + 128 (unsigned) and w, less
** (in_zp + 128) * sum(w) summed the same way; with AVX2, vpmaddwd over int16
** x - in_zp and w.  With the Arm DSP extension (Cortex-M4 and up,
** dsp_s8.h), SMLAD: two products per instruction from words of four x and
** four w split into int16 pairs, x's shared by the four outputs.  On AArch64
** with DotProd (simd_s8.h), SDOT: sixteen products of signed bytes a step,
** less sum(w) * in_zp summed the same way.  Sums wrap
** exactly in int32 and the true sum fits (reliability.md 6.5), so every
** path gives the C path's bits.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dsp_s8.h"
#include "q8_math.h"
#include "rt_select.h" /* SM2C_RT_ALWAYS_INLINE */
#include "simd_f32.h" /* SM2C_RT_VECTORISE: gcc -O2 then vectorises the dot products */
#include "simd_s8.h"
#include "sm2c_rt.h"

#if SM2C_RT_VNNI
/* dot[j] = sum_i w[(o + j) * k + i] * (x[i] - in_zp) for j < J. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void fc8_vnni(const int8_t *x, const int8_t *w, int32_t k,
                                                               int32_t in_zp, int32_t J, int32_t *dot)
{
    const __m512i flip = _mm512_set1_epi8((char)0x80);
    const __m512i zpv = _mm512_set1_epi8((char)(uint8_t)(in_zp + 128));
    __m512i acc[4], pz[4];
    for (int32_t j = 0; j < J; j++)
        acc[j] = pz[j] = _mm512_setzero_si512();
    for (int32_t i = 0; i < k; i += 64) {
        const __mmask64 m = k - i >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (k - i)) - 1);
        const __m512i xu = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + i), flip);
        for (int32_t j = 0; j < J; j++) {
            const __m512i wv = _mm512_maskz_loadu_epi8(m, w + (ptrdiff_t)j * k + i);
            acc[j] = _mm512_dpbusd_epi32(acc[j], xu, wv);
            pz[j] = _mm512_dpbusd_epi32(pz[j], zpv, wv);
        }
    }
    for (int32_t j = 0; j < J; j++)
        dot[j] = _mm512_reduce_add_epi32(_mm512_sub_epi32(acc[j], pz[j]));
}

SM2C_RT_TARGET_VNNI static void fc8_vnni4(const int8_t *x, const int8_t *w, int32_t k, int32_t in_zp,
                                          int32_t *dot)
{
    fc8_vnni(x, w, k, in_zp, 4, dot);
}

SM2C_RT_TARGET_VNNI static void fc8_vnni1(const int8_t *x, const int8_t *w, int32_t k, int32_t in_zp,
                                          int32_t *dot)
{
    fc8_vnni(x, w, k, in_zp, 1, dot);
}
#endif

#if SM2C_RT_S8_AVX2
/* n (< 16) bytes from p and zeros as int16. */
SM2C_RT_TARGET_S8_AVX2 static inline __m256i fc8_widen_tail(const int8_t *p, int32_t n)
{
    int8_t t[16] = {0};
    memcpy(t, p, (size_t)n);
    return _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)t));
}

SM2C_RT_TARGET_S8_AVX2 static SM2C_RT_ALWAYS_INLINE void fc8_avx2(const int8_t *x, const int8_t *w, int32_t k,
                                                                  int32_t in_zp, int32_t J, int32_t *dot)
{
    const __m256i zp = _mm256_set1_epi16((short)in_zp);
    __m256i acc[4];
    int32_t i = 0;
    for (int32_t j = 0; j < J; j++)
        acc[j] = _mm256_setzero_si256();
    for (; i + 16 <= k; i += 16) {
        const __m256i xs = _mm256_sub_epi16(
            _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(x + i))), zp);
        for (int32_t j = 0; j < J; j++) {
            const __m128i wb = _mm_loadu_si128((const __m128i *)(const void *)(w + (ptrdiff_t)j * k + i));
            acc[j] = _mm256_add_epi32(acc[j], _mm256_madd_epi16(xs, _mm256_cvtepi8_epi16(wb)));
        }
    }
    if (i < k) {
        const __m256i xs = _mm256_sub_epi16(fc8_widen_tail(x + i, k - i), zp);
        for (int32_t j = 0; j < J; j++)
            acc[j] = _mm256_add_epi32(acc[j],
                                      _mm256_madd_epi16(xs, fc8_widen_tail(w + (ptrdiff_t)j * k + i, k - i)));
    }
    for (int32_t j = 0; j < J; j++) {
        __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc[j]), _mm256_extracti128_si256(acc[j], 1));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
        dot[j] = _mm_cvtsi128_si32(s);
    }
}

SM2C_RT_TARGET_S8_AVX2 static void fc8_avx2_4(const int8_t *x, const int8_t *w, int32_t k, int32_t in_zp,
                                              int32_t *dot)
{
    fc8_avx2(x, w, k, in_zp, 4, dot);
}

SM2C_RT_TARGET_S8_AVX2 static void fc8_avx2_1(const int8_t *x, const int8_t *w, int32_t k, int32_t in_zp,
                                              int32_t *dot)
{
    fc8_avx2(x, w, k, in_zp, 1, dot);
}
#endif

#if SM2C_RT_DSP_S8
/* dot[j] for the J outputs (4 or 1): four terms at a time, two SMLADs each. */
static void fc8_dsp(const int8_t *x, const int8_t *w, int32_t k, int32_t in_zp, int32_t J, int32_t *dot)
{
    const int16x2_t off = dsp8_splat(-in_zp);
    int32_t i = 0;
    for (int32_t j = 0; j < J; j++)
        dot[j] = 0;
    for (; i + 4 <= k; i += 4) {
        const uint32_t xw = dsp8_load(x + i);
        const int16x2_t xe = __sadd16(dsp8_even(xw), off), xo = __sadd16(dsp8_odd(xw), off);
        for (int32_t j = 0; j < J; j++) {
            const uint32_t ww = dsp8_load(w + (ptrdiff_t)j * k + i);
            dot[j] = __smlad(xo, dsp8_odd(ww), __smlad(xe, dsp8_even(ww), dot[j]));
        }
    }
    for (; i < k; i++)
        for (int32_t j = 0; j < J; j++)
            dot[j] += (int32_t)w[(ptrdiff_t)j * k + i] * ((int32_t)x[i] - in_zp);
}
#endif

#if SM2C_RT_SDOT
/* The first n (<= 16) bytes at p, the rest zero. */
static inline int8x16_t fc8_tail16(const int8_t *p, int32_t n)
{
    int8_t b[16] = { 0 };
    for (int32_t i = 0; i < n; i++)
        b[i] = p[i];
    return vld1q_s8(b);
}

/* dot[j] for the J outputs (4 or 1) on AArch64's SDOT (signed bytes by signed
** bytes): sum w * x less sum w * in_zp, 16 terms a step; past k, zeros. */
static void fc8_sdot(const int8_t *x, const int8_t *w, int32_t k, int32_t in_zp, int32_t J, int32_t *dot)
{
    const int8x16_t zpv = vdupq_n_s8((int8_t)in_zp);
    int32x4_t acc[4], pz[4];
    for (int32_t j = 0; j < J; j++)
        acc[j] = pz[j] = vdupq_n_s32(0);
    for (int32_t i = 0; i < k; i += 16) {
        const int32_t n = k - i < 16 ? k - i : 16;
        const int8x16_t xv = n == 16 ? vld1q_s8(x + i) : fc8_tail16(x + i, n);
        for (int32_t j = 0; j < J; j++) {
            const int8_t *wj = w + (ptrdiff_t)j * k + i;
            const int8x16_t wv = n == 16 ? vld1q_s8(wj) : fc8_tail16(wj, n);
            acc[j] = vdotq_s32(acc[j], wv, xv);
            pz[j] = vdotq_s32(pz[j], wv, zpv);
        }
    }
    for (int32_t j = 0; j < J; j++)
        dot[j] = vaddvq_s32(vsubq_s32(acc[j], pz[j]));
}
#endif

/* dot[j] for the J outputs (4 or 1) from w: the sums over k, in C. */
SM2C_RT_VECTORISE static void fc8_c(const int8_t *x, const int8_t *w, int32_t k, int32_t in_zp, int32_t J,
                                    int32_t *dot)
{
    for (int32_t j = 0; j < J; j++) {
        const int8_t *wo = w + (ptrdiff_t)j * k;
        int32_t acc = 0;
        for (int32_t i = 0; i < k; i++)
            acc += (int32_t)wo[i] * ((int32_t)x[i] - in_zp);
        dot[j] = acc;
    }
}

/* The dot products of J (4 or 1) outputs on the widest path this CPU runs. */
static void fc8_dot(const int8_t *x, const int8_t *w, int32_t k, int32_t in_zp, int32_t J, int32_t *dot)
{
#if SM2C_RT_VNNI
    if (sm2c_rt__have_vnni()) {
        (J == 4 ? fc8_vnni4 : fc8_vnni1)(x, w, k, in_zp, dot);
        return;
    }
#endif
#if SM2C_RT_S8_AVX2
    if (sm2c_rt__have_s8_avx2()) {
        (J == 4 ? fc8_avx2_4 : fc8_avx2_1)(x, w, k, in_zp, dot);
        return;
    }
#endif
#if SM2C_RT_DSP_S8
    fc8_dsp(x, w, k, in_zp, J, dot);
    return;
#endif
#if SM2C_RT_SDOT
    fc8_sdot(x, w, k, in_zp, J, dot);
    return;
#endif
    fc8_c(x, w, k, in_zp, J, dot);
}

void sm2c_rt_fully_connected_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, int32_t rows,
                                int32_t k, int32_t n, const int32_t *mult, const int32_t *shift, int32_t in_zp,
                                int32_t out_zp, int32_t act_min, int32_t act_max)
{
    for (int32_t r = 0; r < rows; r++) {
        const int8_t *xr = x + (ptrdiff_t)r * k;
        for (int32_t o = 0; o < n;) {
            const int32_t J = n - o >= 4 ? 4 : 1;
            int32_t dot[4];
            fc8_dot(xr, w + (ptrdiff_t)o * k, k, in_zp, J, dot);
            for (int32_t j = 0; j < J; j++, o++) {
                const int32_t acc = dot[j] + (bias ? bias[o] : 0);
                const int32_t v = sm2c_rt__requant_nearest(acc, mult[o], shift[o]) + out_zp;
                y[(ptrdiff_t)r * n + o] = sm2c_rt__clamp_s8(v, act_min, act_max);
            }
        }
    }
}
