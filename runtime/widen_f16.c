/*
** widen_f16.c: float16 weights widened to float32 before the step that reads
** them (--quantize float16, compiler/lower/half_weights.c).  Every binary16
** value is a float32 exactly, so every path gives the same bits: AVX-512's and
** F16C's vcvtph2ps, AArch64's fcvtl, and the C conversion (half_impl.h).
*/
#include <stdint.h>

#include "half_impl.h"
#include "simd_f32.h"
#include "sm2c_rt.h"


/* F16C is its own feature bit, but every x86-64 core with AVX2 has it (Intel
** from Ivy Bridge, AMD from Piledriver), and clang 14's cpu-supports builtin
** does not know the name: a run-time pick asks for AVX2. */
#if SM2C_RT_AVX2 && defined(__F16C__)
#define WIDEN_F16C 1
#define WIDEN_TARGET_F16C
#define have_f16c() 1
#elif SM2C_RT_AVX2 && SM2C_RT_X86_DISPATCH
#define WIDEN_F16C 1
#define WIDEN_TARGET_F16C __attribute__((target("avx2,f16c")))
#define have_f16c() __builtin_cpu_supports("avx2")
#else
#define WIDEN_F16C 0
#endif

static void widen_c(const uint16_t *x, float *y, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__f16_to_f32(x[i]);
}

#if SM2C_RT_AVX512
/* 16 lanes; the tail in C. */
SM2C_RT_TARGET_AVX512 static void widen_512(const uint16_t *x, float *y, int32_t n)
{
    int32_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(y + i, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(x + i))));
    widen_c(x + i, y + i, n - i);
}
#endif

#if WIDEN_F16C
/* 8 lanes; the tail in C. */
WIDEN_TARGET_F16C static void widen_256(const uint16_t *x, float *y, int32_t n)
{
    int32_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(y + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(x + i))));
    widen_c(x + i, y + i, n - i);
}
#endif

#if SM2C_RT_NEON
/* 4 lanes; the tail in C. */
static void widen_neon(const uint16_t *x, float *y, int32_t n)
{
    int32_t i = 0;
    for (; i + 4 <= n; i += 4)
        vst1q_f32(y + i, vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(x + i))));
    widen_c(x + i, y + i, n - i);
}
#endif

void sm2c_rt_widen_f16_f32(const uint16_t *x, float *y, int32_t n)
{
#if SM2C_RT_AVX512
    if (sm2c_rt__have_avx512()) {
        widen_512(x, y, n);
        return;
    }
#endif
#if WIDEN_F16C
    if (have_f16c()) {
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
