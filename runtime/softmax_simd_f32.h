/*
** softmax_simd_f32.h: one softmax row in AVX-512 and in AVX2 intrinsics
** (private to nn_f32.c, which includes it after simd_f32.h and
** vmath_f32.h).
**
** gcc vectorises the plain C row (nn_f32.c, softmax_row) only in part: the
** 16 running maxima and the exp's integer steps stay in scalar registers,
** and a 128-wide row took 1.1 ns per element.  These are the same
** operations in the same order: the maximum, exp(x - max) by lanes of
** nn_f32.c's softmax_exp (its fused polynomial, its zeros below
** SOFTMAX_CUT), the sum as 16 lane sums added pairwise
** (softmax_lane_sum), the tail in scalar code, then the scale.  So every
** path gives the same bits.
*/
#ifndef SM2C_RT_SOFTMAX_SIMD_F32_H
#define SM2C_RT_SOFTMAX_SIMD_F32_H

/* The 16 lane sums added pairwise, lane i and lane i + 8, then i + 4, i + 2
** and i + 1: four dependent additions where lane order made sixteen (a
** quarter of a 128-wide row's time).  Every path adds in this order. */
static inline float softmax_lane_sum(float *ls)
{
    int32_t w, i;
    for (w = 8; w > 0; w >>= 1)
        for (i = 0; i < w; i++)
            ls[i] += ls[i + w];
    return ls[0];
}

/* The row's tail from column j: its exps, added to sum; the row's sum.
** Every path reads an element as xr[j] * scale, the product a Mul before the
** Softmax would have rounded (sm2c_rt_softmax_scaled_f32); the plain
** kernel's scale 1 leaves every value as it is. */
static inline float softmax_tail(const float *xr, float *yr, int32_t cols, int32_t j, float mx, float sum,
                                 float scale)
{
    for (; j < cols; j++) {
        yr[j] = softmax_exp(xr[j] * scale - mx);
        sum += yr[j];
    }
    return sum;
}

/* Finish a row from the 16 lane sums ls and the maximum mx: the tail from
** column j, then the scale. */
static inline void softmax_row_finish(const float *xr, float *yr, int32_t cols, int32_t j,
                                      float mx, float *ls, float scale)
{
    const float inv = 1.0f / softmax_tail(xr, yr, cols, j, mx, softmax_lane_sum(ls), scale);
    for (j = 0; j < cols; j++)
        yr[j] *= inv;
}

/* mx and the row's elements from column j: their maximum (NaN never
** compares greater, so it is skipped). */
static inline float softmax_scan_max(const float *xr, int32_t j, int32_t cols, float mx, float scale)
{
    for (; j < cols; j++)
        if (xr[j] * scale > mx)
            mx = xr[j] * scale;
    return mx;
}

/* The maximum over the non-NaN elements (max(x, m) keeps m when x is NaN),
** -Inf if there is none; the 16-lane maxima, then the tail. */
static inline float softmax_tail_max(const float *xr, int32_t j, int32_t cols, const float *lm, float scale)
{
    float mx = -INFINITY;
    int32_t i;
    for (i = 0; i < 16; i++)
        if (lm[i] > mx)
            mx = lm[i];
    return softmax_scan_max(xr, j, cols, mx, scale);
}

#if SM2C_RT_AVX512
/* softmax_exp_poly on 16 lanes for d in [SOFTMAX_CUT, 0], in the lanes of
** k (0 in the others: scalef's zeroing mask). */
SM2C_RT_TARGET_AVX512 static inline __m512 softmax_exp_poly512(__mmask16 k, __m512 d)
{
    const __m512 magic = _mm512_set1_ps(12582912.0f);
    const __m512 fn = _mm512_sub_ps(_mm512_fmadd_ps(d, _mm512_set1_ps(1.44269504088896341f), magic), magic);
    const __m512 r = _mm512_fnmadd_ps(fn, _mm512_set1_ps(-2.12194440e-4f),
                                      _mm512_fnmadd_ps(fn, _mm512_set1_ps(0.693359375f), d));
    __m512 p = _mm512_set1_ps(1.9875691500e-4f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
    p = _mm512_add_ps(_mm512_fmadd_ps(p, _mm512_mul_ps(r, r), r), _mm512_set1_ps(1.0f));
    return _mm512_maskz_scalef_ps(k, p, fn);
}

/* softmax_exp(d) for d = x - max(x): d <= 0, or NaN.  So the general
** exp's range checks come down to a clamp at SOFTMAX_CUT (max gives it for
** NaN too) and the zeros below it. */
SM2C_RT_TARGET_AVX512 static inline __m512 softmax_exp512(__m512 d)
{
    const __m512 cut = _mm512_set1_ps(SOFTMAX_CUT);
    const __m512 e = softmax_exp_poly512(_mm512_cmp_ps_mask(d, cut, _CMP_GE_OQ), _mm512_max_ps(d, cut));
    return _mm512_mask_mov_ps(e, _mm512_cmp_ps_mask(d, d, _CMP_UNORD_Q), _mm512_set1_ps(INFINITY));
}

/* 16 elements at p, times vc when scaled (softmax_tail). */
SM2C_RT_TARGET_AVX512 static inline __m512 softmax_in512(const float *p, __m512 vc, int scaled)
{
    return scaled ? _mm512_mul_ps(_mm512_loadu_ps(p), vc) : _mm512_loadu_ps(p);
}

/* softmax_lane_sum's order on 16 lanes. */
SM2C_RT_TARGET_AVX512 static inline float softmax_lane_sum512(__m512 v)
{
    const __m256 s8 = _mm256_add_ps(_mm512_castps512_ps256(v),
                                    _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
    const __m128 s4 = _mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps(s8, 1));
    const __m128 s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
    return _mm_cvtss_f32(_mm_add_ss(s2, _mm_shuffle_ps(s2, s2, 1)));
}

/* The row's maximum from its 16 lane maxima vm and its tail from column j.
** The lanes hold no NaN (max(x, m) keeps m), so a tree of maxima gives the
** lanes' maximum in 4 dependent steps where softmax_tail_max's scan took 16
** (a sixth of a 128-wide row's time); only the sign of a zero maximum can
** differ from the scan's, and x - (+0) and x - (-0) are the same value for
** every x but a zero, whose exp is 1 either way. */
SM2C_RT_TARGET_AVX512 static inline float softmax_max512(const float *xr, int32_t j, int32_t cols, __m512 vm,
                                                         float scale)
{
    const __m256 m8 = _mm256_max_ps(_mm512_castps512_ps256(vm),
                                    _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(vm), 1)));
    const __m128 m4 = _mm_max_ps(_mm256_castps256_ps128(m8), _mm256_extractf128_ps(m8, 1));
    const __m128 m2 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
    return softmax_scan_max(xr, j, cols, _mm_cvtss_f32(_mm_max_ss(m2, _mm_shuffle_ps(m2, m2, 1))), scale);
}

/* 1 / the row's sum, from its 16 lane sums vs and its tail's exps. */
SM2C_RT_TARGET_AVX512 static inline float softmax_inv512(const float *xr, float *yr, int32_t cols, int32_t j,
                                                         float mx, __m512 vs, float scale)
{
    return 1.0f / softmax_tail(xr, yr, cols, j, mx, softmax_lane_sum512(vs), scale);
}

SM2C_RT_TARGET_AVX512 static inline void softmax_times512(float *yr, int32_t cols, float inv)
{
    const __m512 vinv = _mm512_set1_ps(inv);
    int32_t j;
    for (j = 0; j + 16 <= cols; j += 16)
        _mm512_storeu_ps(yr + j, _mm512_mul_ps(_mm512_loadu_ps(yr + j), vinv));
    for (; j < cols; j++)
        yr[j] *= inv;
}

SM2C_RT_TARGET_AVX512 static void softmax_row512(const float *xr, float *yr, int32_t cols, float scale,
                                                 int scaled)
{
    const __m512 vc = _mm512_set1_ps(scale);
    __m512 vm = _mm512_set1_ps(-INFINITY), vs = _mm512_setzero_ps(), vmx;
    float mx;
    int32_t j;
    for (j = 0; j + 16 <= cols; j += 16)
        vm = _mm512_max_ps(softmax_in512(xr + j, vc, scaled), vm);
    mx = softmax_max512(xr, j, cols, vm, scale);
    vmx = _mm512_set1_ps(mx);
    for (j = 0; j + 16 <= cols; j += 16) {
        const __m512 e = softmax_exp512(_mm512_sub_ps(softmax_in512(xr + j, vc, scaled), vmx));
        _mm512_storeu_ps(yr + j, e);
        vs = _mm512_add_ps(vs, e);
    }
    softmax_times512(yr, cols, softmax_inv512(xr, yr, cols, j, mx, vs, scale));
}

/* Rows x0 and the next, as softmax_row512 does each: a row is a chain of
** dependent steps (its maximum, its exps' sum, a division), and two
** independent chains keep the vector units busy (128-wide rows: a fifth
** less time). */
SM2C_RT_TARGET_AVX512 static void softmax_pair512(const float *x0, float *y0, int32_t cols, float scale,
                                                  int scaled)
{
    const float *x1 = x0 + cols;
    float *y1 = y0 + cols;
    const __m512 vc = _mm512_set1_ps(scale);
    __m512 vm0 = _mm512_set1_ps(-INFINITY), vm1 = vm0, vs0 = _mm512_setzero_ps(), vs1 = vs0, vmx0, vmx1;
    float mx0, mx1, inv0, inv1;
    int32_t j;
    for (j = 0; j + 16 <= cols; j += 16) {
        vm0 = _mm512_max_ps(softmax_in512(x0 + j, vc, scaled), vm0);
        vm1 = _mm512_max_ps(softmax_in512(x1 + j, vc, scaled), vm1);
    }
    mx0 = softmax_max512(x0, j, cols, vm0, scale);
    mx1 = softmax_max512(x1, j, cols, vm1, scale);
    vmx0 = _mm512_set1_ps(mx0);
    vmx1 = _mm512_set1_ps(mx1);
    for (j = 0; j + 16 <= cols; j += 16) {
        const __m512 e0 = softmax_exp512(_mm512_sub_ps(softmax_in512(x0 + j, vc, scaled), vmx0));
        const __m512 e1 = softmax_exp512(_mm512_sub_ps(softmax_in512(x1 + j, vc, scaled), vmx1));
        _mm512_storeu_ps(y0 + j, e0);
        _mm512_storeu_ps(y1 + j, e1);
        vs0 = _mm512_add_ps(vs0, e0);
        vs1 = _mm512_add_ps(vs1, e1);
    }
    inv0 = softmax_inv512(x0, y0, cols, j, mx0, vs0, scale);
    inv1 = softmax_inv512(x1, y1, cols, j, mx1, vs1, scale);
    softmax_times512(y0, cols, inv0);
    softmax_times512(y1, cols, inv1);
}

SM2C_RT_TARGET_AVX512 static void softmax_rows512(const float *x, float *y, int32_t rows, int32_t cols,
                                                  float scale, int scaled)
{
    int32_t r;
    for (r = 0; r + 2 <= rows; r += 2)
        softmax_pair512(x + (ptrdiff_t)r * cols, y + (ptrdiff_t)r * cols, cols, scale, scaled);
    if (r < rows)
        softmax_row512(x + (ptrdiff_t)r * cols, y + (ptrdiff_t)r * cols, cols, scale, scaled);
}
#endif

#if SM2C_RT_AVX2
/* softmax_exp_poly on 8 lanes: 2^n in two exact products, as the scalar
** form. */
SM2C_RT_TARGET_AVX2 static inline __m256 softmax_exp_poly256(__m256 d)
{
    const __m256 magic = _mm256_set1_ps(12582912.0f);
    const __m256 fn = _mm256_sub_ps(_mm256_fmadd_ps(d, _mm256_set1_ps(1.44269504088896341f), magic), magic);
    const __m256i n = _mm256_cvttps_epi32(fn);
    const __m256i n1 = _mm256_srai_epi32(_mm256_add_epi32(n, _mm256_srli_epi32(n, 31)), 1);
    const __m256 r = _mm256_fnmadd_ps(fn, _mm256_set1_ps(-2.12194440e-4f),
                                      _mm256_fnmadd_ps(fn, _mm256_set1_ps(0.693359375f), d));
    __m256 p = _mm256_set1_ps(1.9875691500e-4f);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
    p = _mm256_add_ps(_mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r), _mm256_set1_ps(1.0f));
    return _mm256_mul_ps(_mm256_mul_ps(p, sm2c_rt__pow2i256(n1)), sm2c_rt__pow2i256(_mm256_sub_epi32(n, n1)));
}

/* softmax_exp512 on 8 lanes. */
SM2C_RT_TARGET_AVX2 static inline __m256 softmax_exp256(__m256 d)
{
    const __m256 cut = _mm256_set1_ps(SOFTMAX_CUT);
    const __m256 e = _mm256_and_ps(_mm256_cmp_ps(d, cut, _CMP_GE_OQ), softmax_exp_poly256(_mm256_max_ps(d, cut)));
    return _mm256_blendv_ps(e, _mm256_set1_ps(INFINITY), _mm256_cmp_ps(d, d, _CMP_UNORD_Q));
}

SM2C_RT_TARGET_AVX2 static inline __m256 softmax_in256(const float *p, __m256 vc, int scaled)
{
    return scaled ? _mm256_mul_ps(_mm256_loadu_ps(p), vc) : _mm256_loadu_ps(p);
}

/* Two 8-lane halves make the 16 lanes of the other paths. */
SM2C_RT_TARGET_AVX2 static void softmax_row256(const float *xr, float *yr, int32_t cols, float scale, int scaled)
{
    const __m256 vc = _mm256_set1_ps(scale);
    __m256 m0 = _mm256_set1_ps(-INFINITY), m1 = m0, s0 = _mm256_setzero_ps(), s1 = s0, vmx;
    float lm[16], ls[16], mx;
    int32_t j;
    for (j = 0; j + 16 <= cols; j += 16) {
        m0 = _mm256_max_ps(softmax_in256(xr + j, vc, scaled), m0);
        m1 = _mm256_max_ps(softmax_in256(xr + j + 8, vc, scaled), m1);
    }
    _mm256_storeu_ps(lm, m0);
    _mm256_storeu_ps(lm + 8, m1);
    mx = softmax_tail_max(xr, j, cols, lm, scale);
    vmx = _mm256_set1_ps(mx);
    for (j = 0; j + 16 <= cols; j += 16) {
        const __m256 e0 = softmax_exp256(_mm256_sub_ps(softmax_in256(xr + j, vc, scaled), vmx));
        const __m256 e1 = softmax_exp256(_mm256_sub_ps(softmax_in256(xr + j + 8, vc, scaled), vmx));
        _mm256_storeu_ps(yr + j, e0);
        _mm256_storeu_ps(yr + j + 8, e1);
        s0 = _mm256_add_ps(s0, e0);
        s1 = _mm256_add_ps(s1, e1);
    }
    _mm256_storeu_ps(ls, s0);
    _mm256_storeu_ps(ls + 8, s1);
    softmax_row_finish(xr, yr, cols, j, mx, ls, scale);
}
#endif

#endif
