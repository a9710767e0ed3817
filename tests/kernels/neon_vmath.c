/*
** neon_vmath.c: vmath_f32.h's four-lane NEON exp and tanh give the bits of
** its scalar forms, on inputs spread over every float bit pattern (NaNs,
** infinities, subnormals, the range cut-offs).  AArch64 only: rt_neon.sh
** builds it and runs it under qemu-aarch64.
*/
#include <stdio.h>

#include "vmath_f32.h"

/* The lanes of one vector result against the scalar form; 1 if they differ. */
static int differs(const char *what, const float *x, const float *got, float (*scalar)(float))
{
    int i, bad = 0;

    for (i = 0; i < 4; i++) {
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

/* exp and tanh of four inputs; the number of results that differ (0 or 1). */
static unsigned long check4(const float *x)
{
    float y[4];

    vst1q_f32(y, sm2c_rt__exp128(vld1q_f32(x)));
    if (differs("exp", x, y, scalar_exp))
        return 1;
    vst1q_f32(y, sm2c_rt__tanh128(vld1q_f32(x)));
    return (unsigned long)differs("tanh", x, y, scalar_tanh);
}

int main(void)
{
    /* +-0, exp's upper cut-off and the next float, its lower cut-off and the
    ** next one up, tanh's polynomial edge 0.625 and its saturation at 9 */
    static const uint32_t edges[8] = {0x00000000u, 0x80000000u, 0x42b17218u, 0x42b17219u,
                                      0xc2d00000u, 0xc2cfffffu, 0x3f200000u, 0x41100000u};
    enum { STEP = 16411 }; /* odd: lanes and steps reach every exponent and low bits */
    unsigned long n = 8, bad = 0;
    float x[4];
    uint64_t b;
    int i;

    memcpy(x, edges, sizeof x);
    bad += check4(x);
    memcpy(x, edges + 4, sizeof x);
    bad += check4(x);
    for (b = 0; b <= 0xffffffffu; b += 4 * STEP, n += 4) {
        for (i = 0; i < 4; i++) {
            const uint32_t u = (uint32_t)b + (uint32_t)i * STEP;
            memcpy(&x[i], &u, sizeof u);
        }
        bad += check4(x);
    }
    printf("vmath: %lu inputs, %lu vectors differ\n", n, bad);
    return bad != 0;
}
