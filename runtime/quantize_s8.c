/*
** quantize_s8.c: float <-> int8 at the edges of the quantized part of a
** program (--quantize int8), as TFLite's reference Quantize and Dequantize
** kernels compute them: q = round(x / scale) + zero_point (half away from
** zero), saturated to int8; x = scale * (q - zero_point).  TFLite multiplies
** in double; q - zero_point has at most 9 bits, so that product is exact and
** rounds to the float product: float arithmetic gives the same bits, and a
** single-precision FPU (Cortex-M4F) no double helpers.
**
** On x86-64 (simd_s8.h) both run on 16 lanes (AVX-512) or 8 (AVX2) with the C
** loop's operations: an IEEE division, roundf as the truncation
** plus one away from zero when the dropped fraction (exact) is at least a
** half, NaN to 0, and the same saturation; so every path gives the C path's
** bits.  sm2c_rt_quantize_pad_f32_s8 quantizes a first convolution's input
** straight into its padded copy (pad_s8.h).
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "pad_s8.h"
#include "q8_math.h"
#include "rt_select.h"
#include "simd_s8.h"
#include "sm2c_rt.h"


#if SM2C_RT_WANT(quantize_f32_s8) || SM2C_RT_WANT(quantize_pad_f32_s8)
typedef struct qs8_params {
    float scale;
    int32_t zero_point;
} qs8_params;

/* y[i] for i < n, in C. */
static void qs8_c(const float *x, int8_t *y, int32_t n, const qs8_params *q)
{
    for (int32_t i = 0; i < n; i++) {
        const int32_t v = sm2c_rt__round_q(x[i] / q->scale) + q->zero_point;
        y[i] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
    }
}

#if SM2C_RT_VNNI
/* The int8 values of 16 lanes as int32, the zero point added, not yet
** saturated: the quotient clamped to +-10^6 (as sm2c_rt__round_q), plus
** 0.5 - 2^-25 with its sign, truncated, which is roundf's rounding for every
** float below 10^6 (checked over all of them, outside the tree; 0.5 itself
** would take 0.5 - 2^-25 to 1); NaN to 0.  Seven operations where the C
** loop's (the fraction, compared, then one away from zero) took eleven. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE __m512i qs8_lanes512(__m512 x, float scale, int32_t zero_point)
{
    const __m512 v = _mm512_div_ps(x, _mm512_set1_ps(scale));
    const __m512 c = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(-1e6f)), _mm512_set1_ps(1e6f));
    const __m512i h = _mm512_ternarylogic_epi32(_mm512_castps_si512(c), _mm512_set1_epi32(INT32_MIN), /* c's sign */
                                                _mm512_castps_si512(_mm512_set1_ps(0x1.fffffep-2f)), 0xEA);
    const __m512i t = _mm512_cvttps_epi32(_mm512_add_ps(c, _mm512_castsi512_ps(h)));
    const __m512i zp = _mm512_set1_epi32(zero_point);
    return _mm512_mask_add_epi32(zp, _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), t, zp);
}

/* 16 lanes; the last block masked. */
SM2C_RT_TARGET_VNNI static void qs8_512(const float *x, int8_t *y, int32_t n, const qs8_params *q)
{
    const float scale = q->scale;
    const int32_t zero_point = q->zero_point;
    for (int32_t i = 0; i < n; i += 16) {
        const __mmask16 m = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1u);
        _mm512_mask_cvtsepi32_storeu_epi8(y + i, m, qs8_lanes512(_mm512_maskz_loadu_ps(m, x + i), scale, zero_point));
    }
}
#endif

#if SM2C_RT_S8_AVX2
/* 8 lanes; the tail in C. */
SM2C_RT_TARGET_S8_AVX2 static void qs8_256(const float *x, int8_t *y, int32_t n, const qs8_params *q)
{
    const __m256 s = _mm256_set1_ps(q->scale), h = _mm256_set1_ps(0x1.fffffep-2f);
    const __m256 lo = _mm256_set1_ps(-1e6f), hi = _mm256_set1_ps(1e6f);
    const __m256 sign = _mm256_castsi256_ps(_mm256_set1_epi32(INT32_MIN));
    const __m256i zp = _mm256_set1_epi32(q->zero_point);
    int32_t i = 0;
    for (; i + 8 <= n; i += 8) { /* qs8_lanes512's operations; the packs saturate */
        const __m256 v = _mm256_div_ps(_mm256_loadu_ps(x + i), s);
        const __m256 c = _mm256_min_ps(_mm256_max_ps(v, lo), hi);
        const __m256i t = _mm256_cvttps_epi32(_mm256_add_ps(c, _mm256_or_ps(_mm256_and_ps(c, sign), h)));
        const __m256i ord = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_ORD_Q));
        __m256i qv = _mm256_add_epi32(_mm256_and_si256(t, ord), zp);
        qv = _mm256_packs_epi16(_mm256_packs_epi32(qv, qv), _mm256_setzero_si256());
        /* bytes 0-3 of each 128-bit half: elements 0-3 and 4-7 */
        const __m128i b = _mm_unpacklo_epi32(_mm256_castsi256_si128(qv), _mm256_extracti128_si256(qv, 1));
        _mm_storel_epi64((__m128i *)(void *)(y + i), b);
    }
    qs8_c(x + i, y + i, n - i, q);
}
#endif

/* y[i] for i < n on the widest path this CPU runs. */
static void qs8_run(const float *x, int8_t *y, int32_t n, const qs8_params *q)
{
#if SM2C_RT_VNNI
    if (sm2c_rt__have_vnni()) {
        qs8_512(x, y, n, q);
        return;
    }
#endif
#if SM2C_RT_S8_AVX2
    if (sm2c_rt__have_s8_avx2()) {
        qs8_256(x, y, n, q);
        return;
    }
#endif
    qs8_c(x, y, n, q);
}
#endif

#if SM2C_RT_WANT(quantize_f32_s8)
void sm2c_rt_quantize_f32_s8(const float *x, int8_t *y, int32_t n, float scale, int32_t zero_point)
{
    const qs8_params q = { scale, zero_point };
    qs8_run(x, y, n, &q);
}
#endif

#if SM2C_RT_WANT(quantize_pad_f32_s8)
#if SM2C_RT_VNNI
/* The first n & ~15 pixels of 3 channels into pixels of 4, the fourth byte
** fill: 16 pixels' 48 values to 48 bytes, each 128-bit lane then gathering
** its 4 pixels' 12 bytes (vpermd) and spreading them over 16 (vpshufb, the
** fill merged in).  Returns the pixels done. */
SM2C_RT_TARGET_VNNI static int32_t qs8_rgb512(const float *x, int8_t *y, int32_t n, int8_t fill,
                                              const qs8_params *q)
{
    const __m512i dwords = _mm512_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0, 9, 10, 11, 0);
    const __m512i bytes = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0, 9, 10, 11, 0));
    const __m512i f = _mm512_set1_epi8(fill);
    const float scale = q->scale;
    const int32_t zp = q->zero_point;
    int32_t i = 0;
    for (; i + 16 <= n; i += 16, x += 48, y += 64) {
        const __m128i b0 = _mm512_cvtsepi32_epi8(qs8_lanes512(_mm512_loadu_ps(x), scale, zp));
        const __m128i b1 = _mm512_cvtsepi32_epi8(qs8_lanes512(_mm512_loadu_ps(x + 16), scale, zp));
        const __m128i b2 = _mm512_cvtsepi32_epi8(qs8_lanes512(_mm512_loadu_ps(x + 32), scale, zp));
        const __m512i v = _mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(b0), b1, 1), b2, 2);
        const __m512i w = _mm512_mask_shuffle_epi8(f, (__mmask64)0x7777777777777777ull,
                                                   _mm512_permutexvar_epi32(dwords, v), bytes);
        _mm512_storeu_si512((void *)y, w);
    }
    return i;
}
#endif

enum { QS8_CHUNK = 768 }; /* bytes of int8 pixels qs8_pixels spreads at once */

/* n pixels of c float channels quantized into pixels of cp >= c, the
** channels past c set to fill (pad_s8.h's pixels; ctx the qs8_params). */
static void qs8_pixels(const void *xv, int8_t *y, int32_t n, int32_t c, int32_t cp, int8_t fill, const void *ctx)
{
    const float *x = xv;
    const qs8_params *q = ctx;
    int32_t i = 0;
#if SM2C_RT_VNNI
    if (c == 3 && cp == 4 && sm2c_rt__have_vnni())
        i = qs8_rgb512(x, y, n, fill, q);
#endif
    if (c == cp) {
        qs8_run(x + (ptrdiff_t)i * c, y + (ptrdiff_t)i * cp, (n - i) * c, q);
        return;
    }
    /* else by chunks quantized to the stack, then spread as the int8 copy is;
    ** a pixel wider than a chunk straight into place */
    int8_t t[QS8_CHUNK];
    const int32_t per = c > QS8_CHUNK ? 1 : QS8_CHUNK / c;
    for (; i < n; i += per) {
        const int32_t k = n - i < per ? n - i : per;
        const float *xi = x + (ptrdiff_t)i * c;
        int8_t *yi = y + (ptrdiff_t)i * cp;
        if (c > QS8_CHUNK) {
            qs8_run(xi, yi, c, q);
            memset(yi + c, fill, (size_t)(cp - c));
        } else {
            qs8_run(xi, t, k * c, q);
            sm2c_rt__pad_pixels_s8(t, yi, k, c, cp, fill);
        }
    }
}

void sm2c_rt_quantize_pad_f32_s8(const float *x, int8_t *y, const int32_t *d, float scale, int32_t zero_point)
{
    const qs8_params q = { scale, zero_point };
    sm2c_rt__pad_walk_s8(x, sizeof *x, y, d, zero_point, qs8_pixels, &q);
}
#endif

#if SM2C_RT_WANT(dequantize_s8_f32)
#if SM2C_RT_VNNI
/* 16 lanes: q - zero_point is exact in float, and so one rounded product. */
SM2C_RT_TARGET_VNNI static void dqs8_512(const int8_t *x, float *y, int32_t n, float scale, int32_t zero_point)
{
    const __m512 s = _mm512_set1_ps(scale);
    const __m512i zp = _mm512_set1_epi32(zero_point);
    for (int32_t i = 0; i < n; i += 16) {
        const int32_t left = n - i >= 16 ? 16 : n - i;
        const __m128i b = _mm512_castsi512_si128(_mm512_maskz_loadu_epi8(((__mmask64)1 << left) - 1, x + i));
        const __m512 v = _mm512_cvtepi32_ps(_mm512_sub_epi32(_mm512_cvtepi8_epi32(b), zp));
        _mm512_mask_storeu_ps(y + i, (__mmask16)((1u << left) - 1u), _mm512_mul_ps(s, v));
    }
}
#endif

void sm2c_rt_dequantize_s8_f32(const int8_t *x, float *y, int32_t n, float scale, int32_t zero_point)
{
#if SM2C_RT_VNNI
    if (sm2c_rt__have_vnni()) {
        dqs8_512(x, y, n, scale, zero_point);
        return;
    }
#endif
    for (int32_t i = 0; i < n; i++)
        y[i] = scale * (float)((int32_t)x[i] - zero_point);
}
#endif

#if SM2C_RT_WANT(quantize_rows_s8)
/* The input zero point TFLite picks for [rmin, rmax] at `scale`: from the
** end whose error is smaller, rounded, within int8. */
static int32_t qrow_zero_point(float rmin, float rmax, double scale)
{
    const double zmin = -128.0 - rmin / scale, zmax = 127.0 - rmax / scale;
    const double emin = 128.0 + (rmin / scale < 0 ? -rmin / scale : rmin / scale);
    const double emax = 127.0 + (rmax / scale < 0 ? -rmax / scale : rmax / scale);
    const double zp = emin < emax ? zmin : zmax;
    if (zp != zp)
        return 0;
    return zp <= -128.0 ? -128 : zp >= 127.0 ? 127 : sm2c_rt__round_d(zp);
}

/* v + 0.5 toward v's sign, in float, then truncated: TFLite's vector
** rounding (RoundToNearest off ARM64), which differs from roundf where the
** float sum itself rounds up (0.5 - 2^-25 gives 1).  Clamped first to
** +-10^6, which keeps NaN and infinities out of the conversion (UB) and
** stands between the product and the add, so no compiler contracts them. */
static int32_t qrow_round_vec(float v)
{
    v = v != v ? 0.0f : v > 1e6f ? 1e6f : v < -1e6f ? -1e6f : v;
    return (int32_t)(v + (v < 0.0f ? -0.5f : 0.5f));
}

/* rmin and rmax of x[0..n), 0 included; NaN skipped (it fails both tests). */
static void qrow_range_c(const float *x, int32_t n, float *lo, float *hi)
{
    float rmin = 0.0f, rmax = 0.0f;
    for (int32_t i = 0; i < n; i++) {
        rmin = x[i] < rmin ? x[i] : rmin;
        rmax = x[i] > rmax ? x[i] : rmax;
    }
    *lo = rmin, *hi = rmax;
}

/* q[i] for i < n by the vector loop's rounding (qrow_round_vec), in C. */
static void qrow_vec_c(const float *x, int8_t *q, int32_t n, float inv, int32_t zp)
{
    for (int32_t i = 0; i < n; i++) {
        const int32_t r = qrow_round_vec(x[i] * inv) + zp;
        q[i] = (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
    }
}

#if SM2C_RT_VNNI
/* qrow_vec_c on 16 lanes, the last block masked: the same product, NaN to 0,
** clamp, +-0.5 by the sign (-0 takes +0.5, as v < 0 is false), sum, truncation,
** zero point, and saturation. */
SM2C_RT_TARGET_VNNI static void qrow_vec512(const float *x, int8_t *q, int32_t n, float inv, int32_t zp)
{
    const __m512 s = _mm512_set1_ps(inv), lo = _mm512_set1_ps(-1e6f), hi = _mm512_set1_ps(1e6f);
    const __m512 up = _mm512_set1_ps(0.5f), down = _mm512_set1_ps(-0.5f);
    const __m512i z = _mm512_set1_epi32(zp);
    for (int32_t i = 0; i < n; i += 16) {
        const __mmask16 m = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1u);
        __m512 v = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + i), s);
        v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v);
        v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
        const __m512 h = _mm512_mask_mov_ps(up, _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ), down);
        const __m512i r = _mm512_add_epi32(_mm512_cvttps_epi32(_mm512_add_ps(v, h)), z);
        _mm512_mask_cvtsepi32_storeu_epi8(q + i, m, r);
    }
}
#endif

/* q[i] for nv <= i < n: the row's tail, by roundf's rounding. */
static void qrow_tail(const float *x, int8_t *q, int32_t nv, int32_t n, float inv, int32_t zp)
{
    for (int32_t i = nv; i < n; i++) {
        const int32_t r = sm2c_rt__round_q(x[i] * inv) + zp;
        q[i] = (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
    }
}

/* A row whose range is one value: zeros, scale 1, zero point 0. */
static void qrow_constant(int8_t *q, int32_t n, float *scale, int32_t *zero_point)
{
    for (int32_t i = 0; i < n; i++)
        q[i] = 0;
    *scale = 1.0f, *zero_point = 0;
}

#include "quantize_rows_512.h" /* the AVX-512 rows (empty without SM2C_RT_VNNI) */

/* One row of n values, as TFLite's NeonAsymmetricQuantizeFloats (the one its
** x86-64 build runs): its min and max (0 included) in float, the scale their
** float difference over 255 in double, the zero point from it, the inverse
** scale 1 / (float)scale in double then float; the values times it in float,
** the first n & ~7 rounded as its vector loop rounds, the rest by roundf, each
** plus the zero point, saturated.  The C path; quantize_rows_512.h is the
** same on AVX-512. */
static void qrow(const float *x, int8_t *q, float *scale, int32_t *zero_point, int32_t n)
{
    float rmin, rmax;
    qrow_range_c(x, n, &rmin, &rmax);
    if (rmin == rmax) {
        qrow_constant(q, n, scale, zero_point);
        return;
    }
    const double s = (double)(rmax - rmin) / 255.0;
    const int32_t zp = qrow_zero_point(rmin, rmax, s);
    const float sf = (float)s, inv = (float)(1.0 / (double)sf);
    const int32_t nv = n & ~7;
    qrow_vec_c(x, q, nv, inv, zp);
    qrow_tail(x, q, nv, n, inv, zp);
    *scale = sf, *zero_point = zp;
}

void sm2c_rt_quantize_rows_s8(const float *x, int8_t *q, float *scale, int32_t *zero_point, int32_t rows,
                              int32_t cols)
{
#if SM2C_RT_VNNI
    if (sm2c_rt__have_vnni()) {
        qrows512(x, q, scale, zero_point, rows, cols);
        return;
    }
#endif
    for (int32_t r = 0; r < rows; r++)
        qrow(x + (ptrdiff_t)r * cols, q + (ptrdiff_t)r * cols, scale + r, zero_point + r, cols);
}
#endif
