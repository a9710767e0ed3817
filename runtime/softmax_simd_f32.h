/*
** softmax_simd_f32.h: one softmax row in AVX-512 and in AVX2 intrinsics
** (private to nn_f32.c, which includes it after simd_f32.h and
** vmath_f32.h).
**
** gcc vectorises the plain C row (nn_f32.c, softmax_row) only in part: the
** 16 running maxima and the exp's integer steps stay in scalar registers,
** and a 128-wide row took 1.1 ns per element.  These are the same
** operations in the same order: the maximum, exp(x - max) by
** vmath_x86_f32.h's lanes of vmath_f32.h's polynomial, the sum as 16 lane
** sums added pairwise (softmax_lane_sum), the tail in scalar code, then the
** scale.  So every path gives the same bits.
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

/* The row's tail from column j: its exps, added to sum; the row's sum. */
static inline float softmax_tail(const float *xr, float *yr, int32_t cols, int32_t j, float mx, float sum)
{
    for (; j < cols; j++) {
        const float d = xr[j] - mx;
        yr[j] = isnan(d) ? INFINITY : sm2c_rt__exp(d);
        sum += yr[j];
    }
    return sum;
}

/* Finish a row from the 16 lane sums ls and the maximum mx: the tail from
** column j, then the scale. */
static inline void softmax_row_finish(const float *xr, float *yr, int32_t cols, int32_t j,
                                      float mx, float *ls)
{
    const float inv = 1.0f / softmax_tail(xr, yr, cols, j, mx, softmax_lane_sum(ls));
    for (j = 0; j < cols; j++)
        yr[j] *= inv;
}

/* The maximum over the non-NaN elements (max(x, m) keeps m when x is NaN),
** -Inf if there is none; the 16-lane maxima, then the tail. */
static inline float softmax_tail_max(const float *xr, int32_t j, int32_t cols, const float *lm)
{
    float mx = -INFINITY;
    int32_t i;
    for (i = 0; i < 16; i++)
        if (lm[i] > mx)
            mx = lm[i];
    for (; j < cols; j++)
        if (xr[j] > mx)
            mx = xr[j];
    return mx;
}

#if SM2C_RT_AVX512
/* exp(d), NaN gives +Inf (softmax_exp). */
SM2C_RT_TARGET_AVX512 static inline __m512 softmax_exp512(__m512 d)
{
    return _mm512_mask_mov_ps(sm2c_rt__exp512(d), _mm512_cmp_ps_mask(d, d, _CMP_UNORD_Q),
                              _mm512_set1_ps(INFINITY));
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

SM2C_RT_TARGET_AVX512 static void softmax_row512(const float *xr, float *yr, int32_t cols)
{
    __m512 vm = _mm512_set1_ps(-INFINITY), vs = _mm512_setzero_ps(), vmx, vinv;
    float lm[16], mx;
    int32_t j;
    for (j = 0; j + 16 <= cols; j += 16)
        vm = _mm512_max_ps(_mm512_loadu_ps(xr + j), vm);
    _mm512_storeu_ps(lm, vm);
    mx = softmax_tail_max(xr, j, cols, lm);
    vmx = _mm512_set1_ps(mx);
    for (j = 0; j + 16 <= cols; j += 16) {
        const __m512 e = softmax_exp512(_mm512_sub_ps(_mm512_loadu_ps(xr + j), vmx));
        _mm512_storeu_ps(yr + j, e);
        vs = _mm512_add_ps(vs, e);
    }
    vinv = _mm512_set1_ps(1.0f / softmax_tail(xr, yr, cols, j, mx, softmax_lane_sum512(vs)));
    for (j = 0; j + 16 <= cols; j += 16)
        _mm512_storeu_ps(yr + j, _mm512_mul_ps(_mm512_loadu_ps(yr + j), vinv));
    for (; j < cols; j++)
        yr[j] *= _mm512_cvtss_f32(vinv);
}
#endif

#if SM2C_RT_AVX2
SM2C_RT_TARGET_AVX2 static inline __m256 softmax_exp256(__m256 d)
{
    return _mm256_blendv_ps(sm2c_rt__exp256(d), _mm256_set1_ps(INFINITY), _mm256_cmp_ps(d, d, _CMP_UNORD_Q));
}

/* Two 8-lane halves make the 16 lanes of the other paths. */
SM2C_RT_TARGET_AVX2 static void softmax_row256(const float *xr, float *yr, int32_t cols)
{
    __m256 m0 = _mm256_set1_ps(-INFINITY), m1 = m0, s0 = _mm256_setzero_ps(), s1 = s0, vmx;
    float lm[16], ls[16], mx;
    int32_t j;
    for (j = 0; j + 16 <= cols; j += 16) {
        m0 = _mm256_max_ps(_mm256_loadu_ps(xr + j), m0);
        m1 = _mm256_max_ps(_mm256_loadu_ps(xr + j + 8), m1);
    }
    _mm256_storeu_ps(lm, m0);
    _mm256_storeu_ps(lm + 8, m1);
    mx = softmax_tail_max(xr, j, cols, lm);
    vmx = _mm256_set1_ps(mx);
    for (j = 0; j + 16 <= cols; j += 16) {
        const __m256 e0 = softmax_exp256(_mm256_sub_ps(_mm256_loadu_ps(xr + j), vmx));
        const __m256 e1 = softmax_exp256(_mm256_sub_ps(_mm256_loadu_ps(xr + j + 8), vmx));
        _mm256_storeu_ps(yr + j, e0);
        _mm256_storeu_ps(yr + j + 8, e1);
        s0 = _mm256_add_ps(s0, e0);
        s1 = _mm256_add_ps(s1, e1);
    }
    _mm256_storeu_ps(ls, s0);
    _mm256_storeu_ps(ls + 8, s1);
    softmax_row_finish(xr, yr, cols, j, mx, ls);
}
#endif

#endif
