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
** path gives the C path's bits.  With VNNI, blocks of 16 outputs take one
** vector of x against 16 filter rows each step into 16 accumulators, reduce
** them to one vector of 16 sums at the end, and requantize on vectors.  The
** compiler passes in_zp -128 with (in_zp + 128) * sum(w) taken from the bias
** (ops_q8.c): the same integers, and VNNI then has nothing to subtract.
** sm2c_rt_fully_connected_s8_frq requantizes in float instead (q8_vec.h;
** --requantize float).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "act_f32.h"
#include "dsp_s8.h"
#include "q8_math.h"
#include "q8_vec.h"
#include "rt_select.h" /* SM2C_RT_ALWAYS_INLINE, SM2C_RT_WANT */
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
            if (in_zp != -128) /* else the compiler folded it into the bias */
                pz[j] = _mm512_dpbusd_epi32(pz[j], zpv, wv);
        }
    }
    for (int32_t j = 0; j < J; j++)
        dot[j] = _mm512_reduce_add_epi32(_mm512_sub_epi32(acc[j], pz[j]));
}

#define FC8_R16(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)

/* The sums of 16 vectors' dwords, vector j's in dword j: three rounds of
** pairwise adds of interleaved halves. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE __m512i fc8_pair32(__m512i a, __m512i b)
{
    return _mm512_add_epi32(_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
}

SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE __m512i fc8_pair64(__m512i a, __m512i b)
{
    return _mm512_add_epi32(_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b));
}

SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE __m512i fc8_pair128(__m512i a, __m512i b)
{
    return _mm512_add_epi32(_mm512_shuffle_i32x4(a, b, 0x88), _mm512_shuffle_i32x4(a, b, 0xDD));
}

/* Dword j: sum_i w[j * k + i] * a_i over i < k, where a is x + 128 (x not
** NULL) or the byte zpu repeated: 16 rows of the filter against one vector
** each step, one accumulator per row, no reduction until the end. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE __m512i fc8_rows16(const int8_t *x, const int8_t *w, int32_t k,
                                                                     __m512i zpu)
{
#define FC8_ZERO(j) __m512i a##j = _mm512_setzero_si512();
#define FC8_DOT(j) a##j = _mm512_dpbusd_epi32(a##j, xu, _mm512_maskz_loadu_epi8(m, w + (ptrdiff_t)(j) * k + i));
    const __m512i flip = _mm512_set1_epi8((char)0x80);
    FC8_R16(FC8_ZERO)
    for (int32_t i = 0; i < k; i += 64) {
        const __mmask64 m = k - i >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (k - i)) - 1);
        const __m512i xu = x ? _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + i), flip) : zpu;
        FC8_R16(FC8_DOT)
    }
#undef FC8_ZERO
#undef FC8_DOT
    const __m512i b0 = fc8_pair32(a0, a1), b1 = fc8_pair32(a2, a3), b2 = fc8_pair32(a4, a5);
    const __m512i b3 = fc8_pair32(a6, a7), b4 = fc8_pair32(a8, a9), b5 = fc8_pair32(a10, a11);
    const __m512i b6 = fc8_pair32(a12, a13), b7 = fc8_pair32(a14, a15);
    const __m512i c0 = fc8_pair64(b0, b1), c1 = fc8_pair64(b2, b3), c2 = fc8_pair64(b4, b5);
    const __m512i c3 = fc8_pair64(b6, b7);
    return fc8_pair128(fc8_pair128(c0, c1), fc8_pair128(c2, c3));
}

#if SM2C_RT_WANT(fully_connected_s8) || SM2C_RT_WANT(fully_connected_s8_frq)
/* Outputs o .. o + 15 of one row: the sums on 16 rows at once, less
** (in_zp + 128) * the rows' sums unless in_zp is -128 (the compiler folds
** that into the bias), then bias and the single rounding (or the float
** scheme) on vectors. */
SM2C_RT_TARGET_VNNI static void fc8_vnni16(const int8_t *x, const int8_t *w, int8_t *y, int32_t k, int32_t o,
                                           int32_t in_zp, const q8_out *q)
{
    __m512i acc = fc8_rows16(x, w, k, _mm512_setzero_si512());
    if (in_zp != -128)
        acc = _mm512_sub_epi32(acc, fc8_rows16(NULL, w, k, _mm512_set1_epi8((char)(uint8_t)(in_zp + 128))));
    if (q->bias)
        acc = _mm512_add_epi32(acc, _mm512_loadu_si512((const void *)(q->bias + o)));
    __m512i v;
    if (q->scale) {
        v = q8_float512(acc, _mm512_loadu_ps(q->scale + o), q);
    } else {
        const __m512i m = _mm512_loadu_si512((const void *)(q->mult + o));
        const __m512i s = _mm512_loadu_si512((const void *)(q->shift + o));
        v = _mm512_add_epi32(q8_nearest512(acc, m, s), _mm512_set1_epi32(q->out_zp));
        v = _mm512_min_epi32(_mm512_max_epi32(v, _mm512_set1_epi32(q->act_min)), _mm512_set1_epi32(q->act_max));
    }
    _mm_storeu_si128((__m128i *)(void *)y, _mm512_cvtepi32_epi8(v));
}

#endif

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
/* One output's sum over four terms: two SMLADs of x's int16 pairs (xe, xo)
** by the filter word's. */
static SM2C_RT_ALWAYS_INLINE int32_t fc8_dsp_step(int32_t acc, int16x2_t xe, int16x2_t xo, const int8_t *w)
{
    const uint32_t ww = dsp8_load(w);
    return __smlad(xo, dsp8_odd(ww), __smlad(xe, dsp8_even(ww), acc));
}

/* dot[0..3]: four outputs, their sums in registers, x's pairs shared. */
static void fc8_dsp4(const int8_t *x, const int8_t *w, int32_t k, int32_t in_zp, int32_t *dot)
{
    const int16x2_t off = dsp8_splat(-in_zp);
    const int8_t *w0 = w, *w1 = w + k, *w2 = w1 + k, *w3 = w2 + k;
    int32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0, i = 0;
    for (; i + 4 <= k; i += 4) {
        const uint32_t xw = dsp8_load(x + i);
        const int16x2_t xe = __sadd16(dsp8_even(xw), off), xo = __sadd16(dsp8_odd(xw), off);
        d0 = fc8_dsp_step(d0, xe, xo, w0 + i);
        d1 = fc8_dsp_step(d1, xe, xo, w1 + i);
        d2 = fc8_dsp_step(d2, xe, xo, w2 + i);
        d3 = fc8_dsp_step(d3, xe, xo, w3 + i);
    }
    for (; i < k; i++) {
        const int32_t xv = (int32_t)x[i] - in_zp;
        d0 += (int32_t)w0[i] * xv, d1 += (int32_t)w1[i] * xv;
        d2 += (int32_t)w2[i] * xv, d3 += (int32_t)w3[i] * xv;
    }
    dot[0] = d0, dot[1] = d1, dot[2] = d2, dot[3] = d3;
}

static void fc8_dsp1(const int8_t *x, const int8_t *w, int32_t k, int32_t in_zp, int32_t *dot)
{
    const int16x2_t off = dsp8_splat(-in_zp);
    int32_t d = 0, i = 0;
    for (; i + 4 <= k; i += 4) {
        const uint32_t xw = dsp8_load(x + i);
        d = fc8_dsp_step(d, __sadd16(dsp8_even(xw), off), __sadd16(dsp8_odd(xw), off), w + i);
    }
    for (; i < k; i++)
        d += (int32_t)w[i] * ((int32_t)x[i] - in_zp);
    *dot = d;
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
    (J == 4 ? fc8_dsp4 : fc8_dsp1)(x, w, k, in_zp, dot);
    return;
#endif
#if SM2C_RT_SDOT
    fc8_sdot(x, w, k, in_zp, J, dot);
    return;
#endif
    fc8_c(x, w, k, in_zp, J, dot);
}

#if SM2C_RT_WANT(fully_connected_s8) || SM2C_RT_WANT(fully_connected_s8_frq)
static void fc8_run(const int8_t *x, const int8_t *w, int8_t *y, int32_t rows, int32_t k, int32_t n,
                    int32_t in_zp, const q8_out *q)
{
#if SM2C_RT_VNNI
    const int vnni = sm2c_rt__have_vnni();
#endif
    for (int32_t r = 0; r < rows; r++) {
        const int8_t *xr = x + (ptrdiff_t)r * k;
        int32_t o = 0;
#if SM2C_RT_VNNI
        if (vnni)
            for (; o + 16 <= n; o += 16)
                fc8_vnni16(xr, w + (ptrdiff_t)o * k, y + (ptrdiff_t)r * n + o, k, o, in_zp, q);
#endif
        while (o < n) {
            const int32_t J = n - o >= 4 ? 4 : 1;
            int32_t dot[4];
            fc8_dot(xr, w + (ptrdiff_t)o * k, k, in_zp, J, dot);
            for (int32_t j = 0; j < J; j++, o++) {
                const int32_t acc = dot[j] + (q->bias ? q->bias[o] : 0);
                if (q->scale) {
                    y[(ptrdiff_t)r * n + o] = q8_float_c(acc, q->scale[o], q);
                    continue;
                }
                const int32_t v = sm2c_rt__requant_nearest(acc, q->mult[o], q->shift[o]) + q->out_zp;
                y[(ptrdiff_t)r * n + o] = sm2c_rt__clamp_s8(v, q->act_min, q->act_max);
            }
        }
    }
}

#endif

#if SM2C_RT_WANT(fully_connected_s8)
void sm2c_rt_fully_connected_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, int32_t rows,
                                int32_t k, int32_t n, const int32_t *mult, const int32_t *shift, int32_t in_zp,
                                int32_t out_zp, int32_t act_min, int32_t act_max)
{
    const q8_out q = {bias, mult, shift, out_zp, act_min, act_max, NULL, 0};
    fc8_run(x, w, y, rows, k, n, in_zp, &q);
}
#endif

#if SM2C_RT_WANT(fully_connected_s8_frq)
void sm2c_rt_fully_connected_s8_frq(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                    int32_t rows, int32_t k, int32_t n, const float *scale, int32_t in_zp,
                                    int32_t out_zp, int32_t act_min, int32_t act_max)
{
    const q8_out q = {bias, NULL, NULL, out_zp, act_min, act_max, scale, 0};
    fc8_run(x, w, y, rows, k, n, in_zp, &q);
}
#endif

#if SM2C_RT_WANT(fully_connected_hybrid)
#if SM2C_RT_VNNI
/* Outputs o .. o + 15 of one row (y, w_sum, w_scale and bias at o): the
** sums on 16 rows at once, less zu times the rows' sums, then the C
** epilogue's two roundings on vectors. */
SM2C_RT_TARGET_VNNI static void fch_vnni16(const int8_t *x, const int8_t *w, int32_t k, int32_t zu,
                                           const int32_t *w_sum, float s_row, const float *w_scale,
                                           const float *bias, float *y)
{
    __m512i acc = fc8_rows16(x, w, k, _mm512_setzero_si512());
    acc = _mm512_sub_epi32(acc, _mm512_mullo_epi32(_mm512_set1_epi32(zu), _mm512_loadu_si512((const void *)w_sum)));
    const __m512 s = _mm512_mul_ps(_mm512_set1_ps(s_row), _mm512_loadu_ps(w_scale));
    const __m512 b = bias ? _mm512_loadu_ps(bias) : _mm512_setzero_ps();
    _mm512_storeu_ps(y, _mm512_add_ps(b, _mm512_mul_ps(_mm512_cvtepi32_ps(acc), s)));
}
#endif

/* y[r, o] = act(bias[o] + (float)acc * (scale[r] * w_scale[o])), acc the
** int32 sum of w[o, k] * (x[r, k] - zero_point[r]): TFLite's hybrid
** FULLY_CONNECTED (EvalHybridDense), whose epilogue adds to the bias (0
** without one) one product rounded on its own.  The dot products take
** fc8_dot's widest path at zero point -128 (VNNI's, nothing to subtract per
** step), and (zero_point[r] + 128) * w_sum[o] comes off after: the same
** integers.  The compiler proves k * 127 * 255 fits int32. */
void sm2c_rt_fully_connected_hybrid(const int8_t *x, const float *scale, const int32_t *zero_point,
                                    const int8_t *w, const int32_t *w_sum, const float *w_scale,
                                    const float *bias, float *y, int32_t rows, int32_t k, int32_t n,
                                    int32_t act, float act_a, float act_b)
{
    const sm2c_rt__act a = {act, act_a, act_b};
    for (int32_t r = 0; r < rows; r++) {
        const int8_t *xr = x + (ptrdiff_t)r * k;
        float *yr = y + (ptrdiff_t)r * n;
        const int32_t zu = zero_point[r] + 128;
        int32_t o = 0;
#if SM2C_RT_VNNI
        if (sm2c_rt__have_vnni())
            for (; o + 16 <= n; o += 16)
                fch_vnni16(xr, w + (ptrdiff_t)o * k, k, zu, w_sum + o, scale[r], w_scale + o, bias ? bias + o : NULL,
                           yr + o);
#endif
        while (o < n) {
            const int32_t J = n - o >= 4 ? 4 : 1;
            int32_t dot[4];
            fc8_dot(xr, w + (ptrdiff_t)o * k, k, -128, J, dot);
            for (int32_t j = 0; j < J; j++, o++) {
                const float s = scale[r] * w_scale[o];
                yr[o] = (bias ? bias[o] : 0.0f) + (float)(dot[j] - zu * w_sum[o]) * s;
            }
        }
        sm2c_rt__act_f32(yr, n, &a);
    }
}
#endif
