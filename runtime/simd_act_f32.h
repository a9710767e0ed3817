/*
** simd_act_f32.h: lane masks and the fused activations of act_f32.h on
** vectors, for the kernels' AVX-512, AVX2 and NEON paths (private to the
** runtime).
*/
#ifndef SM2C_RT_SIMD_ACT_F32_H
#define SM2C_RT_SIMD_ACT_F32_H

#include <stdint.h>

#include "simd_f32.h"
#include "sm2c_rt.h"

#if SM2C_RT_AVX512
static inline __mmask16 sm2c_rt__mask16(int32_t n)
{
    return n >= 16 ? (__mmask16)0xffff : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << n) - 1u);
}

/* act(v) as act_f32.h: NaN stays NaN (the unordered compare keeps it),
** -0 becomes +0, Relu6 clamps +Inf to 6. */
SM2C_RT_TARGET_AVX512 static inline __m512 sm2c_rt__act512(__m512 v, int32_t act)
{
    if (act == SM2C_RT_ACT_NONE)
        return v;
    v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_NLE_UQ), v);
    if (act == SM2C_RT_ACT_RELU6) {
        const __m512 six = _mm512_set1_ps(6.0f);
        v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, six, _CMP_GT_OQ), six);
    }
    return v;
}
#endif

#if SM2C_RT_AVX2
/* Lanes j < n of 8 (maskload/maskstore take the sign bit of each lane). */
SM2C_RT_TARGET_AVX2 static inline __m256i sm2c_rt__mask8(int32_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/* act(v) as act_f32.h (see sm2c_rt__act512). */
SM2C_RT_TARGET_AVX2 static inline __m256 sm2c_rt__act256(__m256 v, int32_t act)
{
    if (act == SM2C_RT_ACT_NONE)
        return v;
    v = _mm256_and_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_NLE_UQ), v);
    if (act == SM2C_RT_ACT_RELU6) {
        const __m256 six = _mm256_set1_ps(6.0f);
        v = _mm256_blendv_ps(v, six, _mm256_cmp_ps(v, six, _CMP_GT_OQ));
    }
    return v;
}
#endif

#if SM2C_RT_NEON
/* NEON has no masked loads: the first n of 4 lanes (n <= 0: none), the
** others 0, never reading past p + n. */
static inline float32x4_t sm2c_rt__load128(const float *p, int32_t n)
{
    float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int32_t i;

    if (n >= 4)
        return vld1q_f32(p);
    for (i = 0; i < n; i++)
        t[i] = p[i];
    return vld1q_f32(t);
}

/* Stores the first n of 4 lanes of v. */
static inline void sm2c_rt__store128(float *p, float32x4_t v, int32_t n)
{
    float t[4];
    int32_t i;

    if (n >= 4) {
        vst1q_f32(p, v);
        return;
    }
    vst1q_f32(t, v);
    for (i = 0; i < n; i++)
        p[i] = t[i];
}

/* act(v) as act_f32.h (see sm2c_rt__act512): lanes <= 0 cleared (NaN fails
** the compare), lanes > 6 set to 6. */
static inline float32x4_t sm2c_rt__act128(float32x4_t v, int32_t act)
{
    if (act == SM2C_RT_ACT_NONE)
        return v;
    v = vreinterpretq_f32_u32(
        vbicq_u32(vreinterpretq_u32_f32(v), vcleq_f32(v, vdupq_n_f32(0.0f))));
    if (act == SM2C_RT_ACT_RELU6) {
        const float32x4_t six = vdupq_n_f32(6.0f);
        v = vbslq_f32(vcgtq_f32(v, six), six, v);
    }
    return v;
}
#endif

#endif
