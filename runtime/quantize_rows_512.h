/*
** quantize_rows_512.h: --quantize dynamic's row quantization on AVX-512
** (private to quantize_s8.c, which includes it after its C definition and
** simd_s8.h).  The same operations as qrow, arranged for a CPU that can
** overlap them:
**
** - eight rows at a time: their ranges, then the scale, zero point and
**   inverse scale of all eight in the lanes of double vectors (the same IEEE
**   divisions, differences and comparisons as qrow_zero_point: the same
**   bits), where one row at a time spent most of its time in four dependent
**   scalar divisions;
** - a row whose values and inverse scale are all finite (the range pass
**   tells of NaN) needs neither qrow_vec512's NaN step nor its clamp, since
**   |x * inv| is at most about 256 there (0 is in the range); the rounding's +-0.5 is 0.5 with the product's sign
**   (-0 takes -0.5 where qrow takes +0.5: both truncate to 0), and four
**   vectors saturate to 64 bytes by two packs and one permutation;
** - other rows take qrow_vec512.
**
** 128 rows of 128 values: 4.5 us before, 1.9 us after (128 of 512: 9.5, 5.0).
*/
#ifndef SM2C_RT_QUANTIZE_ROWS_512_H
#define SM2C_RT_QUANTIZE_ROWS_512_H

#if SM2C_RT_VNNI

enum { QR_ROWS = 8 }; /* rows per block: the lanes of a double vector */

/* rmin and rmax of x[0..n) as qrow_range_c (min and max are exact: any
** order gives C's; a NaN lane keeps the running value, as the second
** operand wins), and whether a NaN is among them. */
SM2C_RT_TARGET_VNNI static int qrow_range_nan512(const float *x, int32_t n, float *lo, float *hi)
{
    __m512 mn = _mm512_setzero_ps(), mx = _mm512_setzero_ps();
    __mmask16 nan = 0;
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512 v = _mm512_loadu_ps(x + i);
        mn = _mm512_min_ps(v, mn);
        mx = _mm512_max_ps(v, mx);
        nan |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    }
    float rmin = _mm512_reduce_min_ps(mn), rmax = _mm512_reduce_max_ps(mx);
    int tail_nan = 0;
    for (; i < n; i++) {
        rmin = x[i] < rmin ? x[i] : rmin;
        rmax = x[i] > rmax ? x[i] : rmax;
        tail_nan |= x[i] != x[i];
    }
    *lo = rmin, *hi = rmax;
    return nan != 0 || tail_nan;
}

/* qrow's parameters for eight rows: from lo[r] and hi[r], scale (float),
** inverse scale and zero point, each lane as qrow and qrow_zero_point
** compute them (rows with lo == hi are the caller's). */
SM2C_RT_TARGET_VNNI static void qrow_params512(const float *lo, const float *hi, float *scale, float *inv,
                                               int32_t *zp)
{
    const __m256 l = _mm256_loadu_ps(lo), h = _mm256_loadu_ps(hi);
    const __m512d s = _mm512_div_pd(_mm512_cvtps_pd(_mm256_sub_ps(h, l)), _mm512_set1_pd(255.0));
    const __m512d a = _mm512_div_pd(_mm512_cvtps_pd(l), s), b = _mm512_div_pd(_mm512_cvtps_pd(h), s);
    const __m512d zmin = _mm512_sub_pd(_mm512_set1_pd(-128.0), a);
    const __m512d zmax = _mm512_sub_pd(_mm512_set1_pd(127.0), b);
    const __m512d emin = _mm512_add_pd(_mm512_set1_pd(128.0), _mm512_abs_pd(a));
    const __m512d emax = _mm512_add_pd(_mm512_set1_pd(127.0), _mm512_abs_pd(b));
    const __m512d z = _mm512_mask_mov_pd(zmax, _mm512_cmp_pd_mask(emin, emax, _CMP_LT_OQ), zmin);
    /* sm2c_rt__round_d inside (-128, 127) on integral doubles, then the
    ** clamps, then NaN to 0 (512-bit operations only: the dispatching
    ** build's target has no AVX-512VL) */
    const __m512d t = _mm512_roundscale_pd(z, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m512d f = _mm512_sub_pd(z, t), one = _mm512_set1_pd(1.0);
    __m512d r = _mm512_mask_add_pd(t, _mm512_cmp_pd_mask(f, _mm512_set1_pd(0.5), _CMP_GE_OQ), t, one);
    r = _mm512_mask_sub_pd(r, _mm512_cmp_pd_mask(f, _mm512_set1_pd(-0.5), _CMP_LE_OQ), r, one);
    r = _mm512_mask_mov_pd(r, _mm512_cmp_pd_mask(z, _mm512_set1_pd(-128.0), _CMP_LE_OQ), _mm512_set1_pd(-128.0));
    r = _mm512_mask_mov_pd(r, _mm512_cmp_pd_mask(z, _mm512_set1_pd(127.0), _CMP_GE_OQ), _mm512_set1_pd(127.0));
    r = _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(z, z, _CMP_ORD_Q), r);
    const __m256 sf = _mm512_cvtpd_ps(s);
    _mm256_storeu_ps(scale, sf);
    _mm256_storeu_ps(inv, _mm512_cvtpd_ps(_mm512_div_pd(_mm512_set1_pd(1.0), _mm512_cvtps_pd(sf))));
    _mm256_storeu_si256((__m256i *)zp, _mm512_cvttpd_epi32(r));
}

/* 16 lanes of a finite row: truncate(v + 0.5 with v's sign) + zp. */
SM2C_RT_TARGET_VNNI static inline __m512i qrow_lanes512(__m512 x, __m512 s, __m512i z)
{
    const __m512 v = _mm512_mul_ps(x, s);
    const __m512i half = _mm512_set1_epi32(0x3F000000), sign = _mm512_set1_epi32(INT32_MIN);
    /* (v & sign) | 0.5 */
    const __m512 h = _mm512_castsi512_ps(_mm512_ternarylogic_epi32(_mm512_castps_si512(v), sign, half, 0xEA));
    return _mm512_add_epi32(_mm512_cvttps_epi32(_mm512_add_ps(v, h)), z);
}

/* q[i] for i < n of a finite row, 64 at a time: packs saturate as the C
** loop's clamp does, and interleave 4-byte groups, which the permutation
** puts back in order. */
SM2C_RT_TARGET_VNNI static void qrow_finite512(const float *x, int8_t *q, int32_t n, float inv, int32_t zp)
{
    const __m512 s = _mm512_set1_ps(inv);
    const __m512i z = _mm512_set1_epi32(zp);
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    for (int32_t i = 0; i < n; i += 64) {
        const int32_t left = n - i;
        __m512i r[4];
        for (int32_t k = 0; k < 4; k++) {
            const int32_t m = left - 16 * k;
            const __mmask16 mk = m >= 16 ? (__mmask16)0xFFFF : m <= 0 ? 0 : (__mmask16)((1u << m) - 1u);
            r[k] = qrow_lanes512(_mm512_maskz_loadu_ps(mk, x + i + 16 * k), s, z);
        }
        const __m512i b = _mm512_packs_epi16(_mm512_packs_epi32(r[0], r[1]), _mm512_packs_epi32(r[2], r[3]));
        const __mmask64 mb = left >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << left) - 1;
        _mm512_mask_storeu_epi8(q + i, mb, _mm512_permutexvar_epi32(order, b));
    }
}

/* One row from its parameters, as qrow's end. */
SM2C_RT_TARGET_VNNI static void qrow_store512(const float *x, int8_t *q, int32_t n, float inv, int32_t zp,
                                              int finite)
{
    const int32_t nv = n & ~7;
    (finite ? qrow_finite512 : qrow_vec512)(x, q, nv, inv, zp);
    qrow_tail(x, q, nv, n, inv, zp);
}

SM2C_RT_TARGET_VNNI static void qrows512(const float *x, int8_t *q, float *scale, int32_t *zero_point,
                                         int32_t rows, int32_t n)
{
    for (int32_t r0 = 0; r0 < rows; r0 += QR_ROWS) {
        const int32_t nr = rows - r0 < QR_ROWS ? rows - r0 : QR_ROWS;
        float lo[QR_ROWS] = { 0 }, hi[QR_ROWS] = { 0 }, sf[QR_ROWS], inv[QR_ROWS];
        int32_t zp[QR_ROWS];
        int nan[QR_ROWS] = { 0 };
        for (int32_t r = 0; r < nr; r++)
            nan[r] = qrow_range_nan512(x + (ptrdiff_t)(r0 + r) * n, n, lo + r, hi + r);
        qrow_params512(lo, hi, sf, inv, zp);
        for (int32_t r = 0; r < nr; r++) {
            const ptrdiff_t at = (ptrdiff_t)(r0 + r) * n;
            if (lo[r] == hi[r]) {
                qrow_constant(q + at, n, scale + r0 + r, zero_point + r0 + r);
                continue;
            }
            const int finite = !nan[r] && lo[r] > -INFINITY && hi[r] < INFINITY && inv[r] < INFINITY;
            qrow_store512(x + at, q + at, n, inv[r], zp[r], finite);
            scale[r0 + r] = sf[r], zero_point[r0 + r] = zp[r];
        }
    }
}

#endif

#endif
