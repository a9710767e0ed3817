/*
** vmath_x86_f32.h: vmath_f32.h's exp, tanh, erf and sigmoid on
** 16 lanes (AVX-512) and on 8 (AVX2), for the x86 clones of the kernels
** (private to the runtime; vmath_f32.h includes it).
**
** gcc 12 does not vectorise the scalar forms: it turns their selects into
** branches around the float-to-int conversion and then cannot if-convert the
** loop ("control flow in loop"), so the clones ran one element at a time.
** These are the same operations in the same order, a multiply and an add
** where the scalar form has them (no FMA), so every lane gives the scalar
** form's bits.
*/
#ifndef SM2C_RT_VMATH_X86_F32_H
#define SM2C_RT_VMATH_X86_F32_H

#if SM2C_RT_AVX512
#define V16 __m512
#define S16 _mm512_set1_ps

SM2C_RT_TARGET_AVX512 static inline V16 sm2c_rt__mul_add512(V16 a, V16 b, float c)
{
    return _mm512_add_ps(_mm512_mul_ps(a, b), S16(c));
}

SM2C_RT_TARGET_AVX512 static inline V16 sm2c_rt__exp512(V16 x)
{
    const V16 hi = S16(88.72283935546875f), lo = S16(-104.0f), magic = S16(12582912.0f);
    const __mmask16 in = _mm512_cmp_ps_mask(x, lo, _CMP_GT_OQ) & _mm512_cmp_ps_mask(x, hi, _CMP_LE_OQ);
    const V16 xc = _mm512_maskz_mov_ps(in, x);
    const V16 fn = _mm512_sub_ps(_mm512_add_ps(_mm512_mul_ps(xc, S16(1.44269504088896341f)), magic), magic);
    const V16 r = _mm512_sub_ps(_mm512_sub_ps(xc, _mm512_mul_ps(fn, S16(0.693359375f))),
                                _mm512_mul_ps(fn, S16(-2.12194440e-4f)));
    V16 p = S16(1.9875691500e-4f);
    p = sm2c_rt__mul_add512(p, r, 1.3981999507e-3f);
    p = sm2c_rt__mul_add512(p, r, 8.3334519073e-3f);
    p = sm2c_rt__mul_add512(p, r, 4.1665795894e-2f);
    p = sm2c_rt__mul_add512(p, r, 1.6666665459e-1f);
    p = sm2c_rt__mul_add512(p, r, 5.0000001201e-1f);
    p = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(p, _mm512_mul_ps(r, r)), r), S16(1.0f));
    /* p * 2^n in one rounding: what the scalar form's two products give,
    ** the first exact (n / 2 keeps it normal), the second rounding once */
    p = _mm512_scalef_ps(p, fn);
    p = _mm512_mask_mov_ps(p, _mm512_cmp_ps_mask(x, lo, _CMP_LE_OQ), _mm512_setzero_ps());
    p = _mm512_mask_mov_ps(p, _mm512_cmp_ps_mask(x, hi, _CMP_GT_OQ), S16(INFINITY));
    return _mm512_mask_mov_ps(p, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), x); /* NaN stays NaN */
}

SM2C_RT_TARGET_AVX512 static inline V16 sm2c_rt__tanh512(V16 x)
{
    const V16 a = _mm512_abs_ps(x), z = _mm512_mul_ps(x, x), nine = S16(9.0f), one = S16(1.0f);
    const __mmask16 below9 = _mm512_cmp_ps_mask(a, nine, _CMP_LT_OQ);
    V16 small = S16(-5.70498872745e-3f), e, big, y;
    small = sm2c_rt__mul_add512(small, z, 2.06390887954e-2f);
    small = sm2c_rt__mul_add512(small, z, -5.37397155531e-2f);
    small = sm2c_rt__mul_add512(small, z, 1.33314422036e-1f);
    small = sm2c_rt__mul_add512(small, z, -3.33332819422e-1f);
    small = _mm512_add_ps(_mm512_mul_ps(_mm512_mul_ps(small, z), x), x);
    e = sm2c_rt__exp512(_mm512_mul_ps(S16(2.0f), _mm512_mask_mov_ps(nine, below9, a)));
    big = _mm512_mask_mov_ps(one, below9, _mm512_sub_ps(one, _mm512_div_ps(S16(2.0f), _mm512_add_ps(e, one))));
    y = _mm512_mask_mov_ps(big, _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ),
                           _mm512_sub_ps(_mm512_setzero_ps(), big));
    y = _mm512_mask_mov_ps(y, _mm512_cmp_ps_mask(a, S16(0.625f), _CMP_LT_OQ), small);
    /* NaN, and a == 0 (tanh(-0) is -0), return x itself */
    return _mm512_mask_mov_ps(y, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q) |
                                     _mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_EQ_OQ), x);
}

SM2C_RT_TARGET_AVX512 static inline V16 sm2c_rt__erf512(V16 x)
{
    const V16 xc = _mm512_min_ps(_mm512_max_ps(x, S16(-4.0f)), S16(4.0f)), x2 = _mm512_mul_ps(xc, xc);
    V16 p = S16(-2.72614225801306e-10f), q = S16(-1.45660718464996e-05f);
    p = sm2c_rt__mul_add512(p, x2, 2.77068142495902e-08f);
    p = sm2c_rt__mul_add512(p, x2, -2.10102402082508e-06f);
    p = sm2c_rt__mul_add512(p, x2, -5.69250639462346e-05f);
    p = sm2c_rt__mul_add512(p, x2, -7.34990630326855e-04f);
    p = sm2c_rt__mul_add512(p, x2, -2.95459980854025e-03f);
    p = sm2c_rt__mul_add512(p, x2, -1.60960333262415e-02f);
    q = sm2c_rt__mul_add512(q, x2, -2.13374055278905e-04f);
    q = sm2c_rt__mul_add512(q, x2, -1.68282697438203e-03f);
    q = sm2c_rt__mul_add512(q, x2, -7.37332916720468e-03f);
    q = sm2c_rt__mul_add512(q, x2, -1.42647390514189e-02f);
    return _mm512_mask_mov_ps(_mm512_div_ps(_mm512_mul_ps(xc, p), q),
                              _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), x);
}
/* vmath_f32.h's sm2c_rt__sigmoid. */
SM2C_RT_TARGET_AVX512 static inline V16 sm2c_rt__sigmoid512(V16 v)
{
    const V16 hi = S16(16.6355324f), one = S16(1.0f);
    const V16 e = sm2c_rt__exp512(_mm512_mask_mov_ps(hi, _mm512_cmp_ps_mask(v, hi, _CMP_LT_OQ), v));
    V16 y = _mm512_div_ps(e, _mm512_add_ps(one, e));
    y = _mm512_mask_mov_ps(y, _mm512_cmp_ps_mask(v, S16(-104.0f), _CMP_LT_OQ), _mm512_setzero_ps());
    return _mm512_mask_mov_ps(y, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), v);
}
#undef V16
#undef S16
#endif

#if SM2C_RT_AVX2
#define V8 __m256
#define S8 _mm256_set1_ps

SM2C_RT_TARGET_AVX2 static inline V8 sm2c_rt__mul_add256(V8 a, V8 b, float c)
{
    return _mm256_add_ps(_mm256_mul_ps(a, b), S8(c));
}

SM2C_RT_TARGET_AVX2 static inline V8 sm2c_rt__pow2i256(__m256i k)
{
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k, _mm256_set1_epi32(127)), 23));
}

/* m ? b : a */
SM2C_RT_TARGET_AVX2 static inline V8 sm2c_rt__sel256(V8 m, V8 b, V8 a)
{
    return _mm256_blendv_ps(a, b, m);
}

SM2C_RT_TARGET_AVX2 static inline V8 sm2c_rt__exp256(V8 x)
{
    const V8 hi = S8(88.72283935546875f), lo = S8(-104.0f), magic = S8(12582912.0f);
    const V8 in = _mm256_and_ps(_mm256_cmp_ps(x, lo, _CMP_GT_OQ), _mm256_cmp_ps(x, hi, _CMP_LE_OQ));
    const V8 xc = _mm256_and_ps(in, x);
    const V8 fn = _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(xc, S8(1.44269504088896341f)), magic), magic);
    const __m256i n = _mm256_cvttps_epi32(fn);
    const __m256i n1 = _mm256_srai_epi32(_mm256_add_epi32(n, _mm256_srli_epi32(n, 31)), 1);
    const V8 r = _mm256_sub_ps(_mm256_sub_ps(xc, _mm256_mul_ps(fn, S8(0.693359375f))),
                               _mm256_mul_ps(fn, S8(-2.12194440e-4f)));
    V8 p = S8(1.9875691500e-4f);
    p = sm2c_rt__mul_add256(p, r, 1.3981999507e-3f);
    p = sm2c_rt__mul_add256(p, r, 8.3334519073e-3f);
    p = sm2c_rt__mul_add256(p, r, 4.1665795894e-2f);
    p = sm2c_rt__mul_add256(p, r, 1.6666665459e-1f);
    p = sm2c_rt__mul_add256(p, r, 5.0000001201e-1f);
    p = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(p, _mm256_mul_ps(r, r)), r), S8(1.0f));
    p = _mm256_mul_ps(_mm256_mul_ps(p, sm2c_rt__pow2i256(n1)), sm2c_rt__pow2i256(_mm256_sub_epi32(n, n1)));
    p = sm2c_rt__sel256(_mm256_cmp_ps(x, lo, _CMP_LE_OQ), _mm256_setzero_ps(), p);
    p = sm2c_rt__sel256(_mm256_cmp_ps(x, hi, _CMP_GT_OQ), S8(INFINITY), p);
    return sm2c_rt__sel256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q), x, p);
}

SM2C_RT_TARGET_AVX2 static inline V8 sm2c_rt__tanh256(V8 x)
{
    const V8 sign = S8(-0.0f), zero = _mm256_setzero_ps(), nine = S8(9.0f), one = S8(1.0f);
    const V8 a = _mm256_andnot_ps(sign, x), z = _mm256_mul_ps(x, x);
    const V8 below9 = _mm256_cmp_ps(a, nine, _CMP_LT_OQ);
    V8 small = S8(-5.70498872745e-3f), e, big, y;
    small = sm2c_rt__mul_add256(small, z, 2.06390887954e-2f);
    small = sm2c_rt__mul_add256(small, z, -5.37397155531e-2f);
    small = sm2c_rt__mul_add256(small, z, 1.33314422036e-1f);
    small = sm2c_rt__mul_add256(small, z, -3.33332819422e-1f);
    small = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(small, z), x), x);
    e = sm2c_rt__exp256(_mm256_mul_ps(S8(2.0f), sm2c_rt__sel256(below9, a, nine)));
    big = sm2c_rt__sel256(below9, _mm256_sub_ps(one, _mm256_div_ps(S8(2.0f), _mm256_add_ps(e, one))), one);
    y = sm2c_rt__sel256(_mm256_cmp_ps(x, zero, _CMP_LT_OQ), _mm256_sub_ps(zero, big), big);
    y = sm2c_rt__sel256(_mm256_cmp_ps(a, S8(0.625f), _CMP_LT_OQ), small, y);
    return sm2c_rt__sel256(_mm256_or_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q), _mm256_cmp_ps(a, zero, _CMP_EQ_OQ)),
                           x, y);
}

SM2C_RT_TARGET_AVX2 static inline V8 sm2c_rt__erf256(V8 x)
{
    const V8 xc = _mm256_min_ps(_mm256_max_ps(x, S8(-4.0f)), S8(4.0f)), x2 = _mm256_mul_ps(xc, xc);
    V8 p = S8(-2.72614225801306e-10f), q = S8(-1.45660718464996e-05f);
    p = sm2c_rt__mul_add256(p, x2, 2.77068142495902e-08f);
    p = sm2c_rt__mul_add256(p, x2, -2.10102402082508e-06f);
    p = sm2c_rt__mul_add256(p, x2, -5.69250639462346e-05f);
    p = sm2c_rt__mul_add256(p, x2, -7.34990630326855e-04f);
    p = sm2c_rt__mul_add256(p, x2, -2.95459980854025e-03f);
    p = sm2c_rt__mul_add256(p, x2, -1.60960333262415e-02f);
    q = sm2c_rt__mul_add256(q, x2, -2.13374055278905e-04f);
    q = sm2c_rt__mul_add256(q, x2, -1.68282697438203e-03f);
    q = sm2c_rt__mul_add256(q, x2, -7.37332916720468e-03f);
    q = sm2c_rt__mul_add256(q, x2, -1.42647390514189e-02f);
    return sm2c_rt__sel256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q), x, _mm256_div_ps(_mm256_mul_ps(xc, p), q));
}
SM2C_RT_TARGET_AVX2 static inline V8 sm2c_rt__sigmoid256(V8 v)
{
    const V8 hi = S8(16.6355324f), one = S8(1.0f);
    const V8 e = sm2c_rt__exp256(sm2c_rt__sel256(_mm256_cmp_ps(v, hi, _CMP_LT_OQ), v, hi));
    V8 y = _mm256_div_ps(e, _mm256_add_ps(one, e));
    y = sm2c_rt__sel256(_mm256_cmp_ps(v, S8(-104.0f), _CMP_LT_OQ), _mm256_setzero_ps(), y);
    return sm2c_rt__sel256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q), v, y);
}
#undef V8
#undef S8
#endif

#endif
