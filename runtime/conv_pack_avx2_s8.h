/*
** conv_pack_avx2_s8.h: sm2c_rt_conv2d_packed_s8 on AVX2 (private to the
** runtime; conv_packed_s8.c includes it).  Everything is static inline.
**
** 4 pixels x 16 channels.  A 64-byte group of the packed filter
** (conv_pack_s8.h) widens to four int16 vectors of 4 channels x 4 values;
** vpmaddwd against a pixel's 4 values x' + 128 (0 .. 255, broadcast) gives
** each channel's two pair sums in adjacent lanes, added at the end (hadd).
** x' is in_zp in the padding, which the folded bias takes back.
*/
#ifndef SM2C_RT_CONV_PACK_AVX2_S8_H
#define SM2C_RT_CONV_PACK_AVX2_S8_H

#include "conv_block_s8.h"
#include "conv_pack_s8.h"
#include "q8_vec.h"
#include "simd_s8.h"

#if SM2C_RT_S8_AVX2
/* A word of 4 x' bytes as x' + 128 in int16, in each 64-bit lane. */
SM2C_RT_TARGET_S8_AVX2 static inline __m256i c8p_lift4(uint32_t v)
{
    return _mm256_broadcastq_epi64(_mm_cvtepu8_epi16(_mm_cvtsi32_si128((int32_t)(v ^ 0x80808080u))));
}

/* Channels 8h .. 8h + 7 in order from the pair sums of channels 4 at a time. */
SM2C_RT_TARGET_S8_AVX2 static inline __m256i c8p_pairs(__m256i a, __m256i b)
{
    return _mm256_permute4x64_epi64(_mm256_hadd_epi32(a, b), 0xD8);
}

/* Pixels p0 .. p0 + rows - 1 (rows <= 4) x channels of block b (nr <= 16). */
SM2C_RT_TARGET_S8_AVX2 static inline void c8p_avx2_16(const c8_geom *g, int32_t p0, int32_t rows, int32_t b,
                                                      int32_t nr, const q8_out *q, int8_t *y)
{
#define C8_ZERO(r) __m256i c##r##0 = z, c##r##1 = z, c##r##2 = z, c##r##3 = z;
#define C8_RUN(r) const int8_t *run##r = c8p_row(g, ih[r] + khd, iw[r]);
#define C8_MADD(r)                                                                         \
    {                                                                                      \
        const __m256i a = c8p_lift4(c8p_word(g, run##r, ih[r] + khd, iw[r], k));           \
        c##r##0 = _mm256_add_epi32(c##r##0, _mm256_madd_epi16(a, w0));                     \
        c##r##1 = _mm256_add_epi32(c##r##1, _mm256_madd_epi16(a, w1));                     \
        c##r##2 = _mm256_add_epi32(c##r##2, _mm256_madd_epi16(a, w2));                     \
        c##r##3 = _mm256_add_epi32(c##r##3, _mm256_madd_epi16(a, w3));                     \
    }
#define C8_STORE(r)                                                                        \
    if (r < rows) {                                                                        \
        q8_out256(c8p_pairs(c##r##0, c##r##1), 16 * b, nr, q, y + r * (ptrdiff_t)g->OC);   \
        if (nr > 8)                                                                        \
            q8_out256(c8p_pairs(c##r##2, c##r##3), 16 * b + 8, nr - 8, q,                  \
                      y + r * (ptrdiff_t)g->OC + 8);                                       \
    }
    const __m256i z = _mm256_setzero_si256();
    const int32_t L = g->KW * g->C;
    ptrdiff_t step;
    const int8_t *wt = c8p_block(g, b, &step);
    int64_t ih[4], iw[4];
    C8_R4(C8_ZERO)

    c8_positions(g, p0, rows, 4, ih, iw);
    for (int32_t kh = 0; kh < g->KH; kh++) {
        const int64_t khd = (int64_t)kh * g->DH;
        C8_R4(C8_RUN)
        for (int32_t k = 0; k < L; k += 4, wt += step) {
            const __m256i w0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)wt));
            const __m256i w1 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(wt + 16)));
            const __m256i w2 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(wt + 32)));
            const __m256i w3 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(wt + 48)));
            C8_R4(C8_MADD)
        }
    }
    C8_R4(C8_STORE)
#undef C8_ZERO
#undef C8_RUN
#undef C8_MADD
#undef C8_STORE
}
#endif

/* One image on the AVX2 kernel; 0 when this build or CPU has none. */
static inline int c8p_avx2(const c8_geom *g, int32_t M, const q8_out *q, int8_t *y)
{
#if SM2C_RT_S8_AVX2
    if (!sm2c_rt__have_s8_avx2())
        return 0;
    for (int32_t oc0 = 0; oc0 < g->OC; oc0 += 16)
        for (int32_t p0 = 0; p0 < M; p0 += 4)
            c8p_avx2_16(g, p0, M - p0 < 4 ? M - p0 : 4, oc0 / 16, g->OC - oc0 < 16 ? g->OC - oc0 : 16, q,
                        y + (ptrdiff_t)p0 * g->OC + oc0);
    return 1;
#else
    (void)g, (void)M, (void)q, (void)y;
    return 0;
#endif
}

#endif
