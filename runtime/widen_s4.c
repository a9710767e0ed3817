/*
** widen_s4.c: int4 weights widened to int8 before the step that reads them
** (--weights-bits 4, compiler/lower/half_weights.c), TFLite's INT4 layout
** (UnpackDenseInt4IntoInt8): element 2i in the low nibble of byte i, 2i+1 in
** the high one, each a two's complement nibble.  Paths: AVX-512BW (64 bytes
** to 128 values), AVX2 (32 to 64), NEON (16 to 32) and C; all exact, the
** same bytes.  A nibble v sign-extends as (v ^ 8) - 8.
*/
#include <stdint.h>

#include "simd_f32.h"
#include "sm2c_rt.h"

/* AVX-512 needs BW for bytes, its own feature bit, asked for by name.  As
** in simd_f32.h: a build for AVX2 (and not AVX-512) takes that path alone;
** a build for AVX-512F without BW asks the CPU for BW; a portable build
** (x86-64 ELF, GCC or clang) asks for either. */
#if defined(SM2C_RT_PORTABLE_ONLY) || !defined(__x86_64__)
#define WIDEN_512 0
#define WIDEN_256 0
#elif defined(__AVX512BW__)
#define WIDEN_512 1
#define WIDEN_256 0
#define WIDEN_TARGET_512
#define have_512() 1
#elif defined(__AVX2__) && !defined(__AVX512F__)
#define WIDEN_512 0
#define WIDEN_256 1
#define WIDEN_TARGET_256
#define have_256() 1
#elif SM2C_RT_X86_DISPATCH
#define WIDEN_512 1
#define WIDEN_256 1
#define WIDEN_TARGET_512 __attribute__((target("avx512f,avx512bw,avx2")))
#define have_512() __builtin_cpu_supports("avx512bw")
#define WIDEN_TARGET_256 __attribute__((target("avx2")))
#define have_256() __builtin_cpu_supports("avx2")
#else
#define WIDEN_512 0
#define WIDEN_256 0
#endif

#if WIDEN_512 || WIDEN_256
#include <immintrin.h>
#endif

static void widen_c(const uint8_t *x, int8_t *y, int32_t n)
{
    int32_t i = 0;
    for (; i + 1 < n; i += 2) {
        int32_t b = x[i / 2];
        y[i] = (int8_t)(((b & 15) ^ 8) - 8);
        y[i + 1] = (int8_t)(((b >> 4) ^ 8) - 8);
    }
    if (i < n)
        y[i] = (int8_t)(((x[i / 2] & 15) ^ 8) - 8);
}

#if WIDEN_512
/* 64 bytes to 128 values; unpacking interleaves within 128-bit lanes, and
** the two permutes put the lanes back in order.  The tail in C. */
WIDEN_TARGET_512 static void widen_512(const uint8_t *x, int8_t *y, int32_t n)
{
    const __m512i mask = _mm512_set1_epi8(15), eight = _mm512_set1_epi8(8);
    const __m512i first = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
    const __m512i second = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
    int32_t i = 0;
    for (; i + 128 <= n; i += 128) {
        __m512i b = _mm512_loadu_si512((const void *)(x + i / 2));
        __m512i lo = _mm512_sub_epi8(_mm512_xor_si512(_mm512_and_si512(b, mask), eight), eight);
        __m512i hi = _mm512_sub_epi8(_mm512_xor_si512(_mm512_and_si512(_mm512_srli_epi16(b, 4), mask), eight), eight);
        __m512i a = _mm512_unpacklo_epi8(lo, hi), c = _mm512_unpackhi_epi8(lo, hi);
        _mm512_storeu_si512((void *)(y + i), _mm512_permutex2var_epi64(a, first, c));
        _mm512_storeu_si512((void *)(y + i + 64), _mm512_permutex2var_epi64(a, second, c));
    }
    widen_c(x + i / 2, y + i, n - i);
}
#endif

#if WIDEN_256
/* 32 bytes to 64 values; the tail in C. */
WIDEN_TARGET_256 static void widen_256(const uint8_t *x, int8_t *y, int32_t n)
{
    const __m256i mask = _mm256_set1_epi8(15), eight = _mm256_set1_epi8(8);
    int32_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(x + i / 2));
        __m256i lo = _mm256_sub_epi8(_mm256_xor_si256(_mm256_and_si256(b, mask), eight), eight);
        __m256i hi = _mm256_sub_epi8(_mm256_xor_si256(_mm256_and_si256(_mm256_srli_epi16(b, 4), mask), eight), eight);
        __m256i a = _mm256_unpacklo_epi8(lo, hi), c = _mm256_unpackhi_epi8(lo, hi);
        _mm256_storeu_si256((__m256i *)(void *)(y + i), _mm256_permute2x128_si256(a, c, 0x20));
        _mm256_storeu_si256((__m256i *)(void *)(y + i + 32), _mm256_permute2x128_si256(a, c, 0x31));
    }
    widen_c(x + i / 2, y + i, n - i);
}
#endif

#if SM2C_RT_NEON
/* 16 bytes to 32 values (vzip keeps the order); the tail in C. */
static void widen_neon(const uint8_t *x, int8_t *y, int32_t n)
{
    int32_t i = 0;
    for (; i + 32 <= n; i += 32) {
        int8x16_t b = vreinterpretq_s8_u8(vld1q_u8(x + i / 2));
        int8x16x2_t z = vzipq_s8(vshrq_n_s8(vshlq_n_s8(b, 4), 4), vshrq_n_s8(b, 4));
        vst1q_s8(y + i, z.val[0]);
        vst1q_s8(y + i + 16, z.val[1]);
    }
    widen_c(x + i / 2, y + i, n - i);
}
#endif

void sm2c_rt_widen_s4_s8(const uint8_t *x, int8_t *y, int32_t n)
{
#if WIDEN_512
    if (have_512()) {
        widen_512(x, y, n);
        return;
    }
#endif
#if WIDEN_256
    if (have_256()) {
        widen_256(x, y, n);
        return;
    }
#endif
#if SM2C_RT_NEON
    widen_neon(x, y, n);
#else
    widen_c(x, y, n);
#endif
}
