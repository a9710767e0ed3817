/*
** ktest.h: helpers shared by the runtime kernel tests (tests/kernels/).
** Include after "sm2c_test.h".  A fixed-seed generator, bit views, ULP
** distance and the numpy-style closeness check of docs/reliability.md section 9.
*/
#ifndef SM2C_KTEST_H
#define SM2C_KTEST_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* xorshift64*: deterministic, seeded per test. */
typedef struct ktest_rng {
    uint64_t s;
} ktest_rng;

static inline uint64_t ktest_next(ktest_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

/* Uniform integer in [lo, hi]. */
static inline int32_t ktest_int(ktest_rng *r, int32_t lo, int32_t hi)
{
    return lo + (int32_t)(ktest_next(r) % (uint64_t)(hi - lo + 1));
}

/* Uniform float in [lo, hi). */
static inline float ktest_f32(ktest_rng *r, float lo, float hi)
{
    double u = (double)(ktest_next(r) >> 11) / 9007199254740992.0;
    return (float)(lo + (hi - lo) * u);
}

static inline uint32_t ktest_bits32(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline float ktest_from_bits32(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static inline uint64_t ktest_bits64(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline double ktest_from_bits64(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Distance in units in the last place between two finite floats (or equal
** infinities); +0 and -0 are 0 apart. */
static inline uint32_t ktest_ulp32(float a, float b)
{
    int64_t ia = ktest_bits32(a), ib = ktest_bits32(b);
    if (ia & 0x80000000) ia = 0x80000000LL - ia;
    if (ib & 0x80000000) ib = 0x80000000LL - ib;
    return (uint32_t)(ia > ib ? ia - ib : ib - ia);
}

static inline uint64_t ktest_ulp64(double a, double b)
{
    const uint64_t ua = ktest_bits64(a), ub = ktest_bits64(b);
    const uint64_t sign = 0x8000000000000000ull;
    const uint64_t ma = (ua & sign) ? sign - (ua & ~sign) : sign + ua;
    const uint64_t mb = (ub & sign) ? sign - (ub & ~sign) : sign + ub;
    return ma > mb ? ma - mb : mb - ma;
}

/* Fails unless got matches want within ulps: NaN only against NaN, infinities
** exactly.  Returns the distance seen. */
static inline uint32_t ktest_check_ulp32(float want, float got, uint32_t ulps, const char *what,
                                         long idx)
{
    uint32_t d;
    if (isnan(want) || isnan(got)) {
        if (!(isnan(want) && isnan(got)))
            fail_msg("%s[%ld]: want %a got %a (NaN mismatch)", what, idx, (double)want, (double)got);
        return 0;
    }
    if (isinf(want) || isinf(got)) {
        if (want != got)
            fail_msg("%s[%ld]: want %a got %a (Inf mismatch)", what, idx, (double)want, (double)got);
        return 0;
    }
    d = ktest_ulp32(want, got);
    if (d > ulps)
        fail_msg("%s[%ld]: want %a got %a (%u ulp)", what, idx, (double)want, (double)got, (unsigned)d);
    return d;
}

/* |got - want| <= atol + rtol*|want|, NaN and Inf exact (section 9). */
static inline void ktest_check_close(double want, double got, double atol, double rtol,
                                     const char *what, long idx)
{
    if (isnan(want) || isnan(got)) {
        if (!(isnan(want) && isnan(got)))
            fail_msg("%s[%ld]: want %.9g got %.9g (NaN mismatch)", what, idx, want, got);
        return;
    }
    if (isinf(want) || isinf(got)) {
        if (want != got)
            fail_msg("%s[%ld]: want %.9g got %.9g (Inf mismatch)", what, idx, want, got);
        return;
    }
    if (fabs(got - want) > atol + rtol * fabs(want))
        fail_msg("%s[%ld]: want %.9g got %.9g (diff %.3g > %.3g)", what, idx, want, got,
                 fabs(got - want), atol + rtol * fabs(want));
}

/* Bit-exact float comparison. */
static inline void ktest_check_bits32(float want, float got, const char *what, long idx)
{
    if (ktest_bits32(want) != ktest_bits32(got))
        fail_msg("%s[%ld]: want %a (0x%08x) got %a (0x%08x)", what, idx, (double)want,
                 (unsigned)ktest_bits32(want), (double)got, (unsigned)ktest_bits32(got));
}

/* Special values of XLA's boundary sets, float32. */
static const uint32_t ktest_special32[] = {
    0x00000000u, 0x80000000u, /* +-0 */
    0x00000001u, 0x80000001u, /* +-smallest subnormal */
    0x007fffffu, 0x807fffffu, /* +-largest subnormal */
    0x00800000u, 0x80800000u, /* +-FLT_MIN */
    0x7f7fffffu, 0xff7fffffu, /* +-FLT_MAX */
    0x7f800000u, 0xff800000u, /* +-Inf */
    0x7fc00000u, 0xffc00000u, /* +-quiet NaN */
    0x7fc00001u,              /* NaN with payload */
    0x3f800000u, 0xbfc00000u, /* 1, -1.5 */
    0x40c00000u, 0x40bfffffu, /* 6, just below 6 */
};
#define KTEST_NSPECIAL32 ((int)(sizeof ktest_special32 / sizeof ktest_special32[0]))

#endif
