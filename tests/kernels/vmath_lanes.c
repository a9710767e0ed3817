/*
** vmath_lanes.c: the vector forms of vmath_f32.h's exp, tanh and erf give the
** bits of its scalar forms, on inputs spread over every float bit pattern
** (NaNs, infinities, subnormals, the range cut-offs).  Built for one ISA:
** AArch64 NEON (4 lanes; rt_neon.sh runs it under qemu-aarch64), x86-64
** AVX-512 (16) or AVX2 (8) (tests/CMakeLists.txt; exits 77 on a CPU
** without the ISA).
*/
#include <stdio.h>

#include "vmath_f32.h"

#if SM2C_RT_NEON
enum { LANES = 4 };
#define VEC_MAP(f, x, y) vst1q_f32(y, f##128(vld1q_f32(x)))
#define HAVE_ISA() 1
#elif SM2C_RT_AVX512
enum { LANES = 16 };
#define VEC_MAP(f, x, y) _mm512_storeu_ps(y, f##512(_mm512_loadu_ps(x)))
#define HAVE_ISA() __builtin_cpu_supports("avx512f")
#elif SM2C_RT_AVX2
enum { LANES = 8 };
#define VEC_MAP(f, x, y) _mm256_storeu_ps(y, f##256(_mm256_loadu_ps(x)))
#define HAVE_ISA() (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
#else
#error "vmath_lanes.c: build for NEON, AVX-512 or AVX2"
#endif

/* The lanes of one vector result against the scalar form; 1 if they differ. */
static int differs(const char *what, const float *x, const float *got, float (*scalar)(float))
{
    int i, bad = 0;

    for (i = 0; i < LANES; i++) {
        const float want = scalar(x[i]);
        if (memcmp(&want, &got[i], sizeof want) != 0 && !(isnan(want) && isnan(got[i]))) {
            printf("%s(%a): got %a want %a\n", what, (double)x[i], (double)got[i], (double)want);
            bad = 1;
        }
    }
    return bad;
}

static float scalar_exp(float x)
{
    return sm2c_rt__exp(x);
}

static float scalar_tanh(float x)
{
    return sm2c_rt__tanh(x);
}

static float scalar_erf(float x)
{
    return sm2c_rt__erf(x);
}

/* exp, tanh and erf of LANES inputs; the number of results that differ (0 or 1). */
static unsigned long check(const float *x)
{
    float y[LANES];

    VEC_MAP(sm2c_rt__exp, x, y);
    if (differs("exp", x, y, scalar_exp))
        return 1;
    VEC_MAP(sm2c_rt__tanh, x, y);
    if (differs("tanh", x, y, scalar_tanh))
        return 1;
    VEC_MAP(sm2c_rt__erf, x, y);
    return (unsigned long)differs("erf", x, y, scalar_erf);
}

int main(void)
{
    /* +-0, exp's upper cut-off and the next float, its lower cut-off and the
    ** next one up, tanh's polynomial edge 0.625 and its saturation at 9, and
    ** erf's clamp at +-4 and the floats beside it */
    static const uint32_t edges[16] = {0x00000000u, 0x80000000u, 0x42b17218u, 0x42b17219u,
                                       0xc2d00000u, 0xc2cfffffu, 0x3f200000u, 0x41100000u,
                                       0x40800000u, 0xc0800000u, 0x407fffffu, 0x40800001u,
                                       0x7fc00000u, 0x7f800000u, 0xff800000u, 0x00000001u};
    enum { STEP = 16411 }; /* odd: lanes and steps reach every exponent and low bits */
    unsigned long n = 16, bad = 0;
    float x[LANES];
    uint64_t b;
    int i, k;

    if (!HAVE_ISA()) {
        printf("vmath: this CPU lacks the ISA: skipped\n");
        return 77;
    }
    for (k = 0; k < 16; k += LANES < 16 ? LANES : 16) {
        memcpy(x, edges + k, sizeof x);
        bad += check(x);
    }
    for (b = 0; b <= 0xffffffffu; b += (uint64_t)LANES * STEP, n += LANES) {
        for (i = 0; i < LANES; i++) {
            const uint32_t u = (uint32_t)b + (uint32_t)i * STEP;
            memcpy(&x[i], &u, sizeof u);
        }
        bad += check(x);
    }
    printf("vmath: %lu inputs, %lu vectors differ\n", n, bad);
    return bad != 0;
}
