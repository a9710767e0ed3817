/*
** q8_lanes.c: q8_vec.h's 16- and 8-lane requantization gives the bits of
** q8_math.h's sm2c_rt__requant on every combination of edge values and
** random ones: sums near 0 and at both int32 limits, multipliers of either
** sign (INT32_MIN among them), shifts from -40 to 40 (counts past 31
** included); on AVX-512, q8_apply512 against q8_out512.  The float scheme
** (q8_out.scale): q8_float_c against rintf of the clamped product, and every
** vector form (q8_out512, q8_apply512, q8_out256) against q8_float_c.  Built for one ISA (tests/CMakeLists.txt): AVX-512 with VNNI, or
** AVX2; exits 77 on a CPU without it.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "q8_vec.h"

#if SM2C_RT_VNNI
enum { LANES = 16 };
#define HAVE_ISA() sm2c_rt__have_vnni()
#define VEC_REQUANT(x, m, s, y)                                                            \
    _mm512_storeu_si512((void *)(y), q8_requant512(_mm512_loadu_si512((const void *)(x)),  \
                                                   _mm512_loadu_si512((const void *)(m)),  \
                                                   _mm512_loadu_si512((const void *)(s))))
#elif SM2C_RT_S8_AVX2
enum { LANES = 8 };
#define HAVE_ISA() sm2c_rt__have_s8_avx2()
#define VEC_REQUANT(x, m, s, y)                                                            \
    _mm256_storeu_si256((__m256i *)(void *)(y),                                            \
                        q8_requant256(_mm256_loadu_si256((const __m256i *)(const void *)(x)), \
                                      _mm256_loadu_si256((const __m256i *)(const void *)(m)), \
                                      _mm256_loadu_si256((const __m256i *)(const void *)(s))))
#else
#error "q8_lanes.c: build for AVX-512 VNNI or AVX2"
#endif

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static int32_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (int32_t)(uint32_t)rng;
}

static const int32_t EDGE[] = {0, 1, -1, 2, -2, 3, 1 << 15, -(1 << 15), (1 << 30) - 1, 1 << 30, -(1 << 30),
                               INT32_MAX, INT32_MAX - 1, INT32_MIN, INT32_MIN + 1, 12345, -54321};
enum { NEDGE = sizeof EDGE / sizeof EDGE[0] };

int main(void)
{
    static int32_t x[LANES], m[LANES], s[LANES], y[LANES];
    long checked = 0, bad = 0;
    if (!HAVE_ISA())
        return 77;
    for (int round = 0; round < 200000; round++) {
        for (int i = 0; i < LANES; i++) {
            const int pick = next() & 3;
            x[i] = pick == 0 ? EDGE[(uint32_t)next() % NEDGE] : pick == 1 ? next() % 4096 : next();
            m[i] = (next() & 1) ? EDGE[(uint32_t)next() % NEDGE] : next();
            s[i] = (int32_t)((uint32_t)next() % 81) - 40;
        }
        VEC_REQUANT(x, m, s, y);
        for (int i = 0; i < LANES; i++, checked++) {
            const int32_t want = sm2c_rt__requant(x[i], m[i], s[i]);
            if (y[i] != want && bad++ < 10)
                printf("requant(%d, %d, %d): got %d want %d\n", x[i], m[i], s[i], y[i], want);
        }
    }
#if SM2C_RT_VNNI
    /* q8_apply512 through q8_prep stores what q8_out512 stores: blocks with
    ** and without a positive shift and an INT32_MIN multiplier, tails; and
    ** (kind 8) right shifts of 1 .. 23 only, q8_prep's one-floor form, with
    ** the clamp's low end below the zero point or at it (a ReLU), its high end
    ** 110 or 127.  Every other round takes TFLite FullyConnected's one rounding
    ** (q8_out.nearest, shifts -31 .. 30 as its multipliers have); where the
    ** sums are below 2^24 and no shift is left (no int32 overflow in C), both
    ** vector forms against q8_store_c's sm2c_rt__requant_nearest too. */
    for (int round = 0; round < 200000; round++) {
        static int32_t b[16];
        int8_t got[16], want[16];
        const int n = 1 + (int)((uint32_t)next() % 16), kind = round & 11, relu = round & 16, nearest = round & 64;
        for (int i = 0; i < 16; i++) {
            const int pick = next() & 3;
            x[i] = pick == 0 ? EDGE[(uint32_t)next() % NEDGE] : pick == 1 ? next() % 100000 : next();
            b[i] = next() % 100000;
            m[i] = kind & 1 ? next() : (next() & 1) ? EDGE[(uint32_t)next() % NEDGE] : next();
            if (kind & 1 && m[i] == INT32_MIN)
                m[i] = 1;
            s[i] = kind & 8   ? -1 - (int32_t)((uint32_t)next() % 23)
                   : kind & 2 ? -(int32_t)((uint32_t)next() % 41)
                              : (int32_t)((uint32_t)next() % 81) - 40;
            if (nearest && !(kind & 8))
                s[i] = (int32_t)((uint32_t)next() % 62) - 31;
            if (nearest && !(round & 128)) /* no int32 overflow in the C reference's sums */
                x[i] = next() % (1 << 24), s[i] = s[i] > 0 ? 0 : s[i];
        }
        const int32_t zp = kind & 8 ? (int32_t)((uint32_t)next() % 256) - 128 : (int32_t)(next() % 50);
        /* act_max 127 on every other ReLU round: the saturating store is the clamp */
        const int32_t hi = round & 32 ? 127 : 110;
        const q8_out q = {(round & 4) ? b : NULL, m, s, zp, relu && zp < 110 ? zp : -100, hi, NULL, nearest != 0};
        q8_prep512 r;
        memset(got, 7, sizeof got), memset(want, 7, sizeof want);
        q8_prep(&r, 0, n, &q);
        if ((kind & 9) == 9 && !r.fast && bad++ < 10)
            printf("q8_prep round %d: right shifts of 1 .. 23 not on the one-floor form\n", round);
        q8_apply512(_mm512_loadu_si512((const void *)x), &r, &q, got);
        q8_out512(_mm512_loadu_si512((const void *)x), 0, n, &q, want);
        checked += 16;
        if (memcmp(got, want, sizeof got) != 0 && bad++ < 10)
            printf("q8_apply512 round %d differs from q8_out512\n", round);
        if (nearest && !(round & 128)) {
            int8_t ref[16];
            memset(ref, 7, sizeof ref);
            q8_store_c(x, 0, n, &q, ref);
            if (memcmp(ref, want, (size_t)n) != 0 && bad++ < 10)
                printf("q8_out512 round %d (nearest) differs from sm2c_rt__requant_nearest\n", round);
        }
    }
#endif
    /* the float scheme: scales over 2^-20 .. 2^4, sums anywhere, halves included
    ** (a sum of 2k + 1 at scale 0.5), tails of 1..LANES lanes, with and without bias */
    for (int round = 0; round < 100000; round++) {
        static int32_t b[16];
        static float sc[16];
        int8_t got[16], want[16];
        const int n = 1 + (int)((uint32_t)next() % LANES), half = round % 5 == 0;
        for (int i = 0; i < LANES; i++) {
            x[i] = half ? (int32_t)((uint32_t)next() % 1001) - 500 : (next() & 1) ? EDGE[(uint32_t)next() % NEDGE] / 2 : next() >> (1 + (next() & 15));
            b[i] = next() >> 8;
            sc[i] = half ? 0.5f : ldexpf(1.0f + (float)((uint32_t)next() % 1000) / 1000.0f, -20 + (int)((uint32_t)next() % 25));
        }
        const int32_t zp = (int32_t)(next() % 100), lo = -128 + (int32_t)((uint32_t)next() % 3) * 20, hi = 127 - (round & 1) * 30;
        const q8_out q = {(round & 2) ? b : NULL, NULL, NULL, zp, lo, hi, sc, 0};
        int32_t acc[16] = {0};
        memcpy(acc, x, sizeof x);
        /* q8_float_c against an independent rounding */
        for (int i = 0; i < n; i++, checked++) {
            const int32_t a = x[i] + (q.bias ? b[i] : 0);
            float f = (float)a * sc[i];
            f = fminf(fmaxf(f, (float)(lo - zp)), (float)(hi - zp));
            want[i] = (int8_t)((int32_t)rintf(f) + zp);
            if (q8_float_c(a, sc[i], &q) != want[i] && bad++ < 10)
                printf("q8_float_c(%d, %g): got %d want %d\n", a, (double)sc[i], q8_float_c(a, sc[i], &q), want[i]);
        }
        memset(got, 7, sizeof got);
        q8_store_c(acc, 0, n, &q, got);
        if (memcmp(got, want, (size_t)n) != 0 && bad++ < 10)
            printf("q8_store_c float round %d differs\n", round);
#if SM2C_RT_VNNI
        q8_prep512 r;
        memset(got, 7, sizeof got);
        q8_out512(_mm512_loadu_si512((const void *)acc), 0, n, &q, got);
        if (memcmp(got, want, (size_t)n) != 0 && bad++ < 10)
            printf("q8_out512 float round %d differs\n", round);
        memset(got, 7, sizeof got);
        q8_prep(&r, 0, n, &q);
        q8_apply512(_mm512_loadu_si512((const void *)acc), &r, &q, got);
        if (memcmp(got, want, (size_t)n) != 0 && bad++ < 10)
            printf("q8_apply512 float round %d differs\n", round);
#else
        memset(got, 7, sizeof got);
        q8_out256(_mm256_loadu_si256((const __m256i *)(const void *)acc), 0, n, &q, got);
        if (memcmp(got, want, (size_t)n) != 0 && bad++ < 10)
            printf("q8_out256 float round %d differs\n", round);
#endif
        checked += n;
    }
    printf("q8_lanes: %ld values, %ld differ\n", checked, bad);
    return bad != 0;
}
