/*
** layer_norm_x86_f32.h: the layer norm's rows in 8-lane x86 intrinsics
** (private to layer_norm_f32.c, which includes it after simd_f32.h and
** row_sum_f32.h).
**
** gcc leaves most of the plain C row's eight-lane sums in scalar registers,
** and each row's sum is one chain of dependent additions anyway.  This path
** keeps the sums' order (row_sum_f32.h: eight lanes per block of 256, the
** lanes combined pairwise, then the tail) in one __m256 per row, and runs
** LN_ROWS rows at once so that their chains overlap; the output is the
** same operations as the plain row, eight at a time.  So every path gives
** the same bits.  AVX2 and AVX-512 CPUs both run it (one 256-bit
** accumulator is a whole row's lanes).
*/
#ifndef SM2C_RT_LAYER_NORM_X86_F32_H
#define SM2C_RT_LAYER_NORM_X86_F32_H

#if SM2C_RT_AVX512 && !SM2C_RT_AVX2     /* built with -mavx512f: the only path */
#define LN_X86 1
#define LN_TARGET SM2C_RT_TARGET_AVX512
#define ln_have_x86() sm2c_rt__have_avx512()
#elif SM2C_RT_AVX2                      /* -mavx2, or a portable build's dispatch */
#define LN_X86 1
#define LN_TARGET SM2C_RT_TARGET_AVX2
#define ln_have_x86() sm2c_rt__have_avx2()
#else
#define LN_X86 0
#endif

#if LN_X86
enum { LN_ROWS = 4 }; /* rows whose sums run at once (ln_sums256 names them) */

/* sm2c_rt__lanes_total of the eight lanes in acc: ((a0 + a4) + (a2 + a6)) +
** ((a1 + a5) + (a3 + a7)) + tail. */
LN_TARGET static inline float ln_total256(__m256 acc, float tail)
{
    const __m128 s = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
    const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_shuffle_ps(t, t, 1))) + tail;
}

/* x, or (x - m)^2 when sq: one term of a sum. */
LN_TARGET static SM2C_RT_ALWAYS_INLINE __m256 ln_term256(const float *p, float m, int sq)
{
    const __m256 v = _mm256_loadu_ps(p);
    if (!sq)
        return v;
    const __m256 d = _mm256_sub_ps(v, _mm256_set1_ps(m));
    return _mm256_mul_ps(d, d);
}

/* The tail of one block, in order, as row_sum_f32.h. */
static SM2C_RT_ALWAYS_INLINE float ln_tail(const float *p, int32_t k, int32_t len, float m, int sq)
{
    float tail = 0.0f;
    for (; k < len; k++) {
        const float d = sq ? p[k] - m : p[k];
        tail += sq ? d * d : d;
    }
    return tail;
}

/* For LN_ROWS rows of x (cols apart): sum[r] = the row's sum (sq 0) or the
** sum of its squared deviations from m[r] (sq 1), each in the order of
** row_sum_f32.h.  Four accumulators in named variables: gcc -O2 keeps an
** array of them in memory. */
LN_TARGET static SM2C_RT_ALWAYS_INLINE void ln_sums256(const float *x, int32_t cols, const float *m,
                                                       int sq, float *sum)
{
    const float m0 = sq ? m[0] : 0.0f, m1 = sq ? m[1] : 0.0f, m2 = sq ? m[2] : 0.0f,
                m3 = sq ? m[3] : 0.0f;
    int32_t b, k;

    sum[0] = sum[1] = sum[2] = sum[3] = 0.0f;
    for (b = 0; b < cols; b += SM2C_RT__SUM_BLOCK) {
        const int32_t len = cols - b < SM2C_RT__SUM_BLOCK ? cols - b : SM2C_RT__SUM_BLOCK;
        const float *p0 = x + b, *p1 = p0 + cols, *p2 = p1 + cols, *p3 = p2 + cols;
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (k = 0; k + SM2C_RT__SUM_LANES <= len; k += SM2C_RT__SUM_LANES) {
            a0 = _mm256_add_ps(a0, ln_term256(p0 + k, m0, sq));
            a1 = _mm256_add_ps(a1, ln_term256(p1 + k, m1, sq));
            a2 = _mm256_add_ps(a2, ln_term256(p2 + k, m2, sq));
            a3 = _mm256_add_ps(a3, ln_term256(p3 + k, m3, sq));
        }
        sum[0] += ln_total256(a0, ln_tail(p0, k, len, m0, sq));
        sum[1] += ln_total256(a1, ln_tail(p1, k, len, m1, sq));
        sum[2] += ln_total256(a2, ln_tail(p2, k, len, m2, sq));
        sum[3] += ln_total256(a3, ln_tail(p3, k, len, m3, sq));
    }
}

/* One row's output from its mean and variance, as layer_norm_row. */
LN_TARGET static void ln_out256(const float *x, const float *gamma, const float *beta, float mean,
                                float var, float epsilon, float *y, int32_t cols)
{
    const float r = 1.0f / sqrtf(var + epsilon), neg_mean = -mean;
    const __m256 vr = _mm256_set1_ps(r), vn = _mm256_set1_ps(neg_mean);
    int32_t j;

    for (j = 0; j + 8 <= cols; j += 8) {
        const __m256 inv = _mm256_mul_ps(vr, _mm256_loadu_ps(gamma + j));
        const __m256 res = _mm256_add_ps(_mm256_mul_ps(vn, inv), _mm256_loadu_ps(beta + j));
        _mm256_storeu_ps(y + j, _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(x + j), inv), res));
    }
    for (; j < cols; j++) {
        const float inv = r * gamma[j];
        y[j] = x[j] * inv + (neg_mean * inv + beta[j]);
    }
}

/* The rows in whole groups of LN_ROWS; returns how many it did.  A group is
** read whole before any of it is written (y may equal x). */
LN_TARGET static int32_t ln_rows256(const float *x, const float *gamma, const float *beta,
                                    float epsilon, float *y, int32_t rows, int32_t cols)
{
    int32_t r0, r;

    for (r0 = 0; r0 + LN_ROWS <= rows; r0 += LN_ROWS) {
        const float *xg = x + (ptrdiff_t)r0 * cols;
        float mean[LN_ROWS], var[LN_ROWS];
        ln_sums256(xg, cols, NULL, 0, mean);
        for (r = 0; r < LN_ROWS; r++)
            mean[r] /= (float)cols;
        ln_sums256(xg, cols, mean, 1, var);
        for (r = 0; r < LN_ROWS; r++)
            ln_out256(xg + (ptrdiff_t)r * cols, gamma, beta, mean[r], var[r] / (float)cols, epsilon,
                      y + (ptrdiff_t)(r0 + r) * cols, cols);
    }
    return r0;
}
#endif

#endif
