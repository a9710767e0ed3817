/*
** kref.h: helpers shared by the kernel tests (tests/kernels/test_*.c): a fixed
** seed generator, the comparison rule of docs/reliability.md section 9, and the
** TensorFlow SAME/VALID window arithmetic.  Include after "sm2c_test.h".
*/
#ifndef SM2C_KREF_H
#define SM2C_KREF_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* xorshift64*: the same numbers on every platform. */
typedef struct krng {
    uint64_t s;
} krng;

static inline krng krng_new(uint64_t seed)
{
    krng r;
    r.s = seed * 0x9E3779B97F4A7C15ull + 1;
    return r;
}

static inline uint32_t krng_u32(krng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545F4914F6CDD1Dull) >> 32);
}

/* Uniform in [lo, hi). */
static inline float krng_f32(krng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)((double)(krng_u32(r) >> 8) / 16777216.0);
}

static inline void krng_fill(krng *r, float *x, size_t n, float lo, float hi)
{
    size_t i;
    for (i = 0; i < n; i++)
        x[i] = krng_f32(r, lo, hi);
}

/* Contraction tolerance: rtol = atol = max(1e-5, 2*K*FLT_EPSILON). */
static inline double ktol_contraction(long k)
{
    double t = 2.0 * (double)k * FLT_EPSILON;
    return t > 1e-5 ? t : 1e-5;
}

/*
** |got - want| <= atol + rtol*|want| element-wise, NaN positions equal and
** infinities equal (sign included).  Fails the test with the first offender.
*/
static inline void kassert_close_impl(const double *want, const float *got, size_t n,
                                      double atol, double rtol, const char *what,
                                      const char *file, int line)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const double w = want[i], g = got[i];
        int ok;
        if (isnan(w) || isnan(g))
            ok = isnan(w) && isnan(g);
        else if (isinf(w) || isinf(g))
            ok = w == g;
        else
            ok = fabs(g - w) <= atol + rtol * fabs(w);
        if (!ok) {
            print_error("%s:%d: ", file, line);
            fail_msg("%s: element %zu: got %.9g want %.9g (atol %g rtol %g)", what, i, g, w,
                     atol, rtol);
        }
    }
}
#define kassert_close(want, got, n, atol, rtol, what)                                    \
    kassert_close_impl((want), (got), (n), (atol), (rtol), (what), __FILE__, __LINE__)

/* Bit-exact equality of float arrays (NaNs equal if both NaN). */
static inline void kassert_same(const float *want, const float *got, size_t n, const char *what)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (isnan(want[i]) && isnan(got[i]))
            continue;
        if (memcmp(&want[i], &got[i], sizeof(float)) != 0)
            fail_msg("%s: element %zu: got %.9g want %.9g (bits differ)", what, i,
                     (double)got[i], (double)want[i]);
    }
}

/* TensorFlow's output size and padding before, for SAME (same != 0) or VALID. */
static inline void kwin_dim(int32_t in, int32_t k, int32_t stride, int32_t dil, int same,
                            int32_t *out, int32_t *pad_before)
{
    const int32_t eff = (k - 1) * dil + 1;
    if (same) {
        int32_t total;
        *out = (in + stride - 1) / stride;
        total = (*out - 1) * stride + eff - in;
        if (total < 0)
            total = 0;
        *pad_before = total / 2;
    } else {
        *out = (in - eff + stride) / stride;
        *pad_before = 0;
    }
}

/* Fill a window parameter array (sm2c_rt.h) from TF-style arguments. */
static inline void kwin_params(int32_t *p, int32_t n, int32_t h, int32_t w, int32_t c,
                               int32_t kh, int32_t kw, int32_t oc, int32_t sh, int32_t sw,
                               int32_t dh, int32_t dw, int same, int32_t fc)
{
    memset(p, 0, SM2C_RT_WIN_PARAMS * sizeof *p);
    p[SM2C_RT_WIN_N] = n;
    p[SM2C_RT_WIN_H] = h;
    p[SM2C_RT_WIN_W] = w;
    p[SM2C_RT_WIN_C] = c;
    p[SM2C_RT_WIN_KH] = kh;
    p[SM2C_RT_WIN_KW] = kw;
    p[SM2C_RT_WIN_OC] = oc;
    p[SM2C_RT_WIN_SH] = sh;
    p[SM2C_RT_WIN_SW] = sw;
    p[SM2C_RT_WIN_DH] = dh;
    p[SM2C_RT_WIN_DW] = dw;
    p[SM2C_RT_WIN_FC] = fc;
    kwin_dim(h, kh, sh, dh, same, &p[SM2C_RT_WIN_OH], &p[SM2C_RT_WIN_PT]);
    kwin_dim(w, kw, sw, dw, same, &p[SM2C_RT_WIN_OW], &p[SM2C_RT_WIN_PL]);
}

/* The fused activations the tests sweep, indexed by kind (SM2C_RT_ACT_*),
** each with the parameters it is tested with: LeakyRelu's alpha, clip's
** bounds (inside the data's range so both clamp). */
typedef struct kact_params {
    int32_t kind;
    float a, b;
} kact_params;
static const kact_params kacts[] = {
    {SM2C_RT_ACT_NONE, 0.0f, 0.0f},       {SM2C_RT_ACT_RELU, 0.0f, 0.0f},
    {SM2C_RT_ACT_RELU6, 0.0f, 0.0f},      {SM2C_RT_ACT_LEAKY_RELU, 0.2f, 0.0f},
    {SM2C_RT_ACT_CLIP, -0.5f, 0.75f},     {SM2C_RT_ACT_SIGMOID, 0.0f, 0.0f},
    {SM2C_RT_ACT_HARD_SWISH, 0.0f, 0.0f},
};
#define KACT_LAST SM2C_RT_ACT_HARD_SWISH
/* A kernel's act arguments for kind k: act, act_a, act_b. */
#define KACT(k) kacts[k].kind, kacts[k].a, kacts[k].b

/* Activation in double, TensorFlow's NaN semantics. */
static inline double kact(double v, int32_t act)
{
    const double a = kacts[act].a, b = kacts[act].b;
    double r;
    if (isnan(v) || act == SM2C_RT_ACT_NONE)
        return v;
    switch (act) {
    case SM2C_RT_ACT_LEAKY_RELU:
        return v > 0.0 ? v : v * a;
    case SM2C_RT_ACT_CLIP:
        return v < a ? a : v > b ? b : v;
    case SM2C_RT_ACT_SIGMOID:
        return 1.0 / (1.0 + exp(-v));
    case SM2C_RT_ACT_HARD_SWISH:
        r = v + 3.0 < 0.0 ? 0.0 : v + 3.0 > 6.0 ? 6.0 : v + 3.0;
        return v * r / 6.0;
    default:
        break;
    }
    if (v < 0.0)
        v = 0.0;
    if (act == SM2C_RT_ACT_RELU6 && v > 6.0)
        v = 6.0;
    return v;
}

/* The same in float, as the kernels round it, for the bit-exact checks of
** every kind but the sigmoid (a polynomial: checked within tolerance). */
static inline float kactf(float v, int32_t act)
{
    float r;
    switch (act) {
    case SM2C_RT_ACT_LEAKY_RELU:
        return v > 0.0f ? v : v * kacts[act].a;
    case SM2C_RT_ACT_HARD_SWISH:
        r = v + 3.0f;
        r = r <= 0.0f ? 0.0f : r > 6.0f ? 6.0f : r;
        return v * (r / 6.0f);
    default:
        return (float)kact(v, act);
    }
}

#endif
