/*
** simd_act_f32.h: lane masks and the fused activations of act_f32.h on
** vectors, for the kernels' AVX-512, AVX2 and NEON paths (private to the
** runtime).
*/
#ifndef SM2C_RT_SIMD_ACT_F32_H
#define SM2C_RT_SIMD_ACT_F32_H

#include <stdint.h>

#include "act_f32.h"
#include "simd_f32.h"
#include "sm2c_rt.h"

#if SM2C_RT_AVX512
static inline __mmask16 sm2c_rt__mask16(int32_t n)
{
    return n >= 16 ? (__mmask16)0xffff : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << n) - 1u);
}

/* act(v) as act_f32.h: NaN stays NaN (the unordered compare keeps it),
** -0 becomes +0, Relu6 clamps +Inf to 6.  Sigmoid goes through memory to
** act_f32.h's loop, which the compiler vectorises with vmath_f32.h's exp
** (the same polynomial as the scalar paths, so the same bits). */
SM2C_RT_TARGET_AVX512 static inline __m512 sm2c_rt__relu6_512(__m512 v)
{
    const __m512 six = _mm512_set1_ps(6.0f);
    v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_NLE_UQ), v);
    return _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, six, _CMP_GT_OQ), six);
}

/* One helper per kind: at -O0 every intrinsic's temporaries sit in the
** frame of the function using it, so one function for all kinds would sum
** them (2 KB) on the AVX-512 convolution's deepest stack chain. */
SM2C_RT_TARGET_AVX512 static inline __m512 sm2c_rt__leaky512(__m512 v, float alpha)
{
    return _mm512_mask_mov_ps(_mm512_mul_ps(v, _mm512_set1_ps(alpha)),
                              _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_GT_OQ), v);
}

SM2C_RT_TARGET_AVX512 static inline __m512 sm2c_rt__clip512(__m512 v, float lo, float hi)
{
    const __mmask16 below = _mm512_cmp_ps_mask(v, _mm512_set1_ps(lo), _CMP_LT_OQ);
    v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, _mm512_set1_ps(hi), _CMP_GT_OQ), _mm512_set1_ps(hi));
    return _mm512_mask_mov_ps(v, below, _mm512_set1_ps(lo));
}

/* relu6 written out, not called: one frame less on that chain at -O0. */
SM2C_RT_TARGET_AVX512 static inline __m512 sm2c_rt__hard_swish512(__m512 v)
{
    const __m512 six = _mm512_set1_ps(6.0f);
    __m512 r = _mm512_add_ps(v, _mm512_set1_ps(3.0f));
    r = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(r, _mm512_setzero_ps(), _CMP_NLE_UQ), r);
    r = _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(r, six, _CMP_GT_OQ), six);
    return _mm512_mul_ps(v, _mm512_div_ps(r, six));
}

SM2C_RT_TARGET_AVX512 static inline __m512 sm2c_rt__act_sigmoid512(__m512 v, const sm2c_rt__act *act)
{
    float t[16];
    _mm512_storeu_ps(t, v);
    sm2c_rt__act_f32(t, 16, act);
    return _mm512_loadu_ps(t);
}

SM2C_RT_TARGET_AVX512 static inline __m512 sm2c_rt__act512(__m512 v, const sm2c_rt__act *act)
{
    switch (act->kind) {
    case SM2C_RT_ACT_RELU:
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_NLE_UQ), v);
    case SM2C_RT_ACT_RELU6:
        return sm2c_rt__relu6_512(v);
    case SM2C_RT_ACT_LEAKY_RELU:
        return sm2c_rt__leaky512(v, act->a);
    case SM2C_RT_ACT_CLIP:
        return sm2c_rt__clip512(v, act->a, act->b);
    case SM2C_RT_ACT_SIGMOID:
        return sm2c_rt__act_sigmoid512(v, act);
    case SM2C_RT_ACT_HARD_SWISH:
        return sm2c_rt__hard_swish512(v);
    default:
        return v;
    }
}
#endif

#if SM2C_RT_AVX2
/* Lanes j < n of 8 (maskload/maskstore take the sign bit of each lane). */
SM2C_RT_TARGET_AVX2 static inline __m256i sm2c_rt__mask8(int32_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

SM2C_RT_TARGET_AVX2 static inline __m256 sm2c_rt__relu6_256(__m256 v)
{
    const __m256 six = _mm256_set1_ps(6.0f);
    v = _mm256_and_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_NLE_UQ), v);
    return _mm256_blendv_ps(v, six, _mm256_cmp_ps(v, six, _CMP_GT_OQ));
}

SM2C_RT_TARGET_AVX2 static inline __m256 sm2c_rt__leaky256(__m256 v, float alpha)
{
    return _mm256_blendv_ps(_mm256_mul_ps(v, _mm256_set1_ps(alpha)), v,
                            _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GT_OQ));
}

SM2C_RT_TARGET_AVX2 static inline __m256 sm2c_rt__clip256(__m256 v, float lo, float hi)
{
    const __m256 below = _mm256_cmp_ps(v, _mm256_set1_ps(lo), _CMP_LT_OQ);
    v = _mm256_blendv_ps(v, _mm256_set1_ps(hi), _mm256_cmp_ps(v, _mm256_set1_ps(hi), _CMP_GT_OQ));
    return _mm256_blendv_ps(v, _mm256_set1_ps(lo), below);
}

SM2C_RT_TARGET_AVX2 static inline __m256 sm2c_rt__hard_swish256(__m256 v)
{
    const __m256 six = _mm256_set1_ps(6.0f);
    __m256 r = _mm256_add_ps(v, _mm256_set1_ps(3.0f));
    r = _mm256_and_ps(_mm256_cmp_ps(r, _mm256_setzero_ps(), _CMP_NLE_UQ), r);
    r = _mm256_blendv_ps(r, six, _mm256_cmp_ps(r, six, _CMP_GT_OQ));
    return _mm256_mul_ps(v, _mm256_div_ps(r, six));
}

SM2C_RT_TARGET_AVX2 static inline __m256 sm2c_rt__act_sigmoid256(__m256 v, const sm2c_rt__act *act)
{
    float t[8];
    _mm256_storeu_ps(t, v);
    sm2c_rt__act_f32(t, 8, act);
    return _mm256_loadu_ps(t);
}

/* act(v) as act_f32.h (see sm2c_rt__act512). */
SM2C_RT_TARGET_AVX2 static inline __m256 sm2c_rt__act256(__m256 v, const sm2c_rt__act *act)
{
    switch (act->kind) {
    case SM2C_RT_ACT_RELU:
        return _mm256_and_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_NLE_UQ), v);
    case SM2C_RT_ACT_RELU6:
        return sm2c_rt__relu6_256(v);
    case SM2C_RT_ACT_LEAKY_RELU:
        return sm2c_rt__leaky256(v, act->a);
    case SM2C_RT_ACT_CLIP:
        return sm2c_rt__clip256(v, act->a, act->b);
    case SM2C_RT_ACT_SIGMOID:
        return sm2c_rt__act_sigmoid256(v, act);
    case SM2C_RT_ACT_HARD_SWISH:
        return sm2c_rt__hard_swish256(v);
    default:
        return v;
    }
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

/* act(v) as act_f32.h (see sm2c_rt__act512): Relu and Relu6 clear lanes
** <= 0 (NaN fails the compare) and set lanes > 6 to 6; the other kinds go
** through memory to act_f32.h's loop (the same bits). */
static inline float32x4_t sm2c_rt__act128(float32x4_t v, const sm2c_rt__act *act)
{
    if (act->kind == SM2C_RT_ACT_NONE)
        return v;
    if (act->kind != SM2C_RT_ACT_RELU && act->kind != SM2C_RT_ACT_RELU6) {
        float t[4];
        vst1q_f32(t, v);
        sm2c_rt__act_f32(t, 4, act);
        return vld1q_f32(t);
    }
    v = vreinterpretq_f32_u32(
        vbicq_u32(vreinterpretq_u32_f32(v), vcleq_f32(v, vdupq_n_f32(0.0f))));
    if (act->kind == SM2C_RT_ACT_RELU6) {
        const float32x4_t six = vdupq_n_f32(6.0f);
        v = vbslq_f32(vcgtq_f32(v, six), six, v);
    }
    return v;
}
#endif

#endif
