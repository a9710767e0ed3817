/*
** random.c: TensorFlow's Philox-4x32-10 stream and its distributions, bit for
** bit as TensorFlow's CPU kernels compute them (core/lib/random/
** philox_random.h, random_distributions(_utils).h, core/kernels/
** random_op_cpu.h, stateless_random_ops(_v2).cc).
**
** A generator is a 64-bit key (two uint32) and a 128-bit counter (four
** uint32); each call enciphers the counter (ten rounds) into four uint32
** samples and adds one to the counter.  The key and counter travel as
** uint64 arrays, key[1] and counter[2], low word first (TF's
** StatelessRandomGetKeyCounter outputs).  A seed pair becomes a key and
** counter by one Philox call on the seed (GenerateKey).
**
** An output of n values is filled in groups: the uniform, normal and
** integer distributions take one Philox call per group of 4 (float32, int32)
** or 2 (float64, int64) values, in order; the truncated normal's group i
** (4 floats or 2 doubles) starts at counter + i * 256 (or 128) and draws
** single samples until the group is full, rejecting |x| >= 2.
** Normals are Box-Muller in float (float32) or double (float64), with libm's
** logf/sqrtf/sinf/cosf (log/sqrt/sin/cos); TF uses glibc's sincosf, so the
** results are bit-exact against TF on glibc and within libm's error elsewhere.
*/
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "half_impl.h"
#include "rt_select.h"

typedef struct philox {
    uint32_t key[2], ctr[4];
} philox;

static inline philox philox_load(const uint64_t *key, const uint64_t *counter)
{
    philox g;
    g.key[0] = (uint32_t)key[0];
    g.key[1] = (uint32_t)(key[0] >> 32);
    g.ctr[0] = (uint32_t)counter[0];
    g.ctr[1] = (uint32_t)(counter[0] >> 32);
    g.ctr[2] = (uint32_t)counter[1];
    g.ctr[3] = (uint32_t)(counter[1] >> 32);
    return g;
}

/* Four samples, and the counter moves on by one. */
static inline void philox_next(philox *g, uint32_t *out)
{
    uint32_t c0 = g->ctr[0], c1 = g->ctr[1], c2 = g->ctr[2], c3 = g->ctr[3];
    uint32_t k0 = g->key[0], k1 = g->key[1];
    int r;
    for (r = 0; r < 10; r++) {
        const uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
        const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)p1;
        c3 = (uint32_t)p0;
        c0 = n0;
        c2 = n2;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
    if (++g->ctr[0] == 0 && ++g->ctr[1] == 0 && ++g->ctr[2] == 0)
        ++g->ctr[3];
}

/* Skip `count` calls (PhiloxRandom::Skip). */
static inline void philox_skip(philox *g, uint64_t count)
{
    const uint32_t lo = (uint32_t)count;
    uint32_t hi = (uint32_t)(count >> 32);
    g->ctr[0] += lo;
    if (g->ctr[0] < lo)
        ++hi;
    g->ctr[1] += hi;
    if (g->ctr[1] < hi && ++g->ctr[2] == 0)
        ++g->ctr[3];
}

static inline float u32_to_float(uint32_t x)
{
    const uint32_t bits = (UINT32_C(127) << 23) | (x & 0x7fffffu);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f - 1.0f;
}

static inline double u64_to_double(uint32_t x0, uint32_t x1)
{
    const uint64_t bits = (UINT64_C(1023) << 52) | ((uint64_t)(x0 & 0xfffffu) << 32) | x1;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d - 1.0;
}

#define RANDOM_2PI 6.283185307179586476925286766559

static inline void box_muller_f32(uint32_t x0, uint32_t x1, float *f0, float *f1)
{
    float u1 = u32_to_float(x0);
    if (u1 < 1.0e-7f)
        u1 = 1.0e-7f;
    /* 2.0f * M_PI * u: double, as in TF, then rounded to float. */
    const float v1 = (float)(RANDOM_2PI * (double)u32_to_float(x1));
    const float u2 = sqrtf(-2.0f * logf(u1));
    *f0 = sinf(v1) * u2;
    *f1 = cosf(v1) * u2;
}

static inline void box_muller_f64(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3, double *d0,
                                  double *d1)
{
    double u1 = u64_to_double(x0, x1);
    if (u1 < 1.0e-7)
        u1 = 1.0e-7;
    const double v1 = RANDOM_2PI * u64_to_double(x2, x3);
    const double u2 = sqrt(-2.0 * log(u1));
    *d0 = sin(v1) * u2;
    *d1 = cos(v1) * u2;
}

/* SingleSampleAdapter: one uint32 at a time. */
typedef struct single {
    philox g;
    uint32_t buf[4];
    int32_t used;
} single;

static inline uint32_t single_next(single *s)
{
    if (s->used == 4) {
        philox_next(&s->g, s->buf);
        s->used = 0;
    }
    return s->buf[s->used++];
}

/* The truncated normal's draws per group are unbounded in TF; this bound
** (pairs of draws) is never reached with Philox (each pair passes with
** probability 0.95), it only keeps the loop finite. */
#define RANDOM_MAX_DRAWS 65536

#if SM2C_RT_WANT(random_key_counter_i32) || SM2C_RT_WANT(random_key_counter_i64)
/* GenerateKey: the seed pair enciphered under a fixed key. */
static inline void random_key_counter(uint64_t s0, uint64_t s1, uint64_t *key, uint64_t *counter)
{
    philox g;
    uint32_t mix[4];
    g.key[0] = 0x3ec8f720u;
    g.key[1] = 0x02461e29u;
    g.ctr[0] = (uint32_t)s0, g.ctr[1] = (uint32_t)(s0 >> 32);
    g.ctr[2] = (uint32_t)s1, g.ctr[3] = (uint32_t)(s1 >> 32);
    philox_next(&g, mix);
    key[0] = (uint64_t)mix[0] | (uint64_t)mix[1] << 32;
    counter[0] = 0;
    counter[1] = (uint64_t)mix[2] | (uint64_t)mix[3] << 32;
}
#endif

#if SM2C_RT_WANT(random_key_counter_i32)
void sm2c_rt_random_key_counter_i32(const int32_t *seed, uint64_t *key, uint64_t *counter)
{
    /* int32 -> uint64 sign-extends, as TF's seed0 = seed_vals(0) does. */
    random_key_counter((uint64_t)(int64_t)seed[0], (uint64_t)(int64_t)seed[1], key, counter);
}
#endif

#if SM2C_RT_WANT(random_key_counter_i64)
void sm2c_rt_random_key_counter_i64(const int64_t *seed, uint64_t *key, uint64_t *counter)
{
    random_key_counter((uint64_t)seed[0], (uint64_t)seed[1], key, counter);
}
#endif

#if SM2C_RT_WANT(random_uniform_f32)
void sm2c_rt_random_uniform_f32(const uint64_t *key, const uint64_t *counter, float *y, int32_t n)
{
    philox g = philox_load(key, counter);
    uint32_t s[4];
    int32_t i, k;
    for (i = 0; i < n; i += 4) {
        philox_next(&g, s);
        for (k = 0; k < 4 && i + k < n; k++)
            y[i + k] = u32_to_float(s[k]);
    }
}
#endif

#if SM2C_RT_WANT(random_uniform_f64)
void sm2c_rt_random_uniform_f64(const uint64_t *key, const uint64_t *counter, double *y, int32_t n)
{
    philox g = philox_load(key, counter);
    uint32_t s[4];
    int32_t i;
    for (i = 0; i < n; i += 2) {
        philox_next(&g, s);
        y[i] = u64_to_double(s[0], s[1]);
        if (i + 1 < n)
            y[i + 1] = u64_to_double(s[2], s[3]);
    }
}
#endif

#if SM2C_RT_WANT(random_normal_f32)
void sm2c_rt_random_normal_f32(const uint64_t *key, const uint64_t *counter, float *y, int32_t n)
{
    philox g = philox_load(key, counter);
    uint32_t s[4];
    float f[4];
    int32_t i, k;
    for (i = 0; i < n; i += 4) {
        philox_next(&g, s);
        box_muller_f32(s[0], s[1], &f[0], &f[1]);
        box_muller_f32(s[2], s[3], &f[2], &f[3]);
        for (k = 0; k < 4 && i + k < n; k++)
            y[i + k] = f[k];
    }
}
#endif

#if SM2C_RT_WANT(random_normal_f64)
void sm2c_rt_random_normal_f64(const uint64_t *key, const uint64_t *counter, double *y, int32_t n)
{
    philox g = philox_load(key, counter);
    uint32_t s[4];
    double d[2];
    int32_t i;
    for (i = 0; i < n; i += 2) {
        philox_next(&g, s);
        box_muller_f64(s[0], s[1], s[2], s[3], &d[0], &d[1]);
        y[i] = d[0];
        if (i + 1 < n)
            y[i + 1] = d[1];
    }
}
#endif

/* Group `group` of a float (or half) truncated normal: up to 4 values in out. */
static inline void truncated_group_f32(const philox *base, int32_t group, float *out, int32_t left)
{
    single s;
    int32_t got = 0, d;
    s.g = *base;
    s.used = 4;
    philox_skip(&s.g, (uint64_t)group * 256u);
    for (d = 0; d < RANDOM_MAX_DRAWS && got < left; d++) {
        const uint32_t x0 = single_next(&s), x1 = single_next(&s);
        float f[2];
        int k;
        box_muller_f32(x0, x1, &f[0], &f[1]);
        for (k = 0; k < 2 && got < left; k++)
            if (fabsf(f[k]) < 2.0f)
                out[got++] = f[k];
    }
    while (got < left)
        out[got++] = 0.0f;
}

#if SM2C_RT_WANT(random_truncated_normal_f32)
void sm2c_rt_random_truncated_normal_f32(const uint64_t *key, const uint64_t *counter, float *y,
                                         int32_t n)
{
    const philox base = philox_load(key, counter);
    int32_t group;
    for (group = 0; group * 4 < n; group++)
        truncated_group_f32(&base, group, y + group * 4, n - group * 4 < 4 ? n - group * 4 : 4);
}
#endif

/* float16 (TF's Eigen::half): uniform takes the low 10 bits of each sample as
** the mantissa of [1, 2) less 1 (exact); the normals are the float ones
** rounded to nearest even. */
#if SM2C_RT_WANT(random_uniform_f16)
void sm2c_rt_random_uniform_f16(const uint64_t *key, const uint64_t *counter, uint16_t *y, int32_t n)
{
    philox g = philox_load(key, counter);
    uint32_t s[4];
    int32_t i, k;
    for (i = 0; i < n; i += 4) {
        philox_next(&g, s);
        for (k = 0; k < 4 && i + k < n; k++)
            y[i + k] = sm2c_rt__f32_to_f16((float)(s[k] & 0x3ffu) * (1.0f / 1024.0f));
    }
}
#endif

#if SM2C_RT_WANT(random_normal_f16)
void sm2c_rt_random_normal_f16(const uint64_t *key, const uint64_t *counter, uint16_t *y, int32_t n)
{
    philox g = philox_load(key, counter);
    uint32_t s[4];
    float f[4];
    int32_t i, k;
    for (i = 0; i < n; i += 4) {
        philox_next(&g, s);
        box_muller_f32(s[0], s[1], &f[0], &f[1]);
        box_muller_f32(s[2], s[3], &f[2], &f[3]);
        for (k = 0; k < 4 && i + k < n; k++)
            y[i + k] = sm2c_rt__f32_to_f16(f[k]);
    }
}
#endif

#if SM2C_RT_WANT(random_truncated_normal_f16)
void sm2c_rt_random_truncated_normal_f16(const uint64_t *key, const uint64_t *counter, uint16_t *y,
                                         int32_t n)
{
    const philox base = philox_load(key, counter);
    int32_t group, k;
    for (group = 0; group * 4 < n; group++) {
        const int32_t left = n - group * 4 < 4 ? n - group * 4 : 4;
        float f[4];
        truncated_group_f32(&base, group, f, left);
        for (k = 0; k < left; k++)
            y[group * 4 + k] = sm2c_rt__f32_to_f16(f[k]);
    }
}
#endif

#if SM2C_RT_WANT(random_truncated_normal_f64)
void sm2c_rt_random_truncated_normal_f64(const uint64_t *key, const uint64_t *counter, double *y,
                                         int32_t n)
{
    const philox base = philox_load(key, counter);
    int32_t group, d;
    for (group = 0; group * 2 < n; group++) {
        single s;
        int32_t got = 0, left = n - group * 2 < 2 ? n - group * 2 : 2;
        double *out = y + group * 2;
        s.g = base;
        s.used = 4;
        philox_skip(&s.g, (uint64_t)group * 128u);
        for (d = 0; d < RANDOM_MAX_DRAWS && got < left; d++) {
            const uint32_t x0 = single_next(&s), x1 = single_next(&s);
            const uint32_t x2 = single_next(&s), x3 = single_next(&s);
            double v[2];
            int k;
            box_muller_f64(x0, x1, x2, x3, &v[0], &v[1]);
            for (k = 0; k < 2 && got < left; k++)
                if (fabs(v[k]) < 2.0)
                    out[got++] = v[k];
        }
        while (got < left)
            out[got++] = 0.0;
    }
}
#endif

#if SM2C_RT_WANT(random_uniform_int_i32)
int32_t sm2c_rt_random_uniform_int_i32(const uint64_t *key, const uint64_t *counter,
                                       const int32_t *lo, const int32_t *hi, int32_t *y, int32_t n)
{
    if (*lo >= *hi)
        return SM2C_RT_ERR_VALUE;
    philox g = philox_load(key, counter);
    const uint32_t range = (uint32_t)*hi - (uint32_t)*lo;
    uint32_t s[4];
    int32_t i, k;
    for (i = 0; i < n; i += 4) {
        philox_next(&g, s);
        /* lo + s % range wraps into [lo, hi) (TF's SignedAdd), in unsigned. */
        for (k = 0; k < 4 && i + k < n; k++) {
            const uint32_t v = (uint32_t)*lo + s[k] % range;
            y[i + k] = v > INT32_MAX ? (int32_t)(v - 0x80000000u) - INT32_MAX - 1 : (int32_t)v;
        }
    }
    return 0;
}
#endif

#if SM2C_RT_WANT(random_uniform_int_i64)
int32_t sm2c_rt_random_uniform_int_i64(const uint64_t *key, const uint64_t *counter,
                                       const int64_t *lo, const int64_t *hi, int64_t *y, int32_t n)
{
    if (*lo >= *hi)
        return SM2C_RT_ERR_VALUE;
    philox g = philox_load(key, counter);
    const uint64_t range = (uint64_t)*hi - (uint64_t)*lo;
    uint32_t s[4];
    int32_t i, k;
    for (i = 0; i < n; i += 2) {
        philox_next(&g, s);
        for (k = 0; k < 2 && i + k < n; k++) {
            const uint64_t bits = s[2 * k] | (uint64_t)s[2 * k + 1] << 32;
            const uint64_t v = (uint64_t)*lo + bits % range;
            y[i + k] = v > INT64_MAX ? (int64_t)(v - UINT64_C(0x8000000000000000)) - INT64_MAX - 1
                                     : (int64_t)v;
        }
    }
    return 0;
}
#endif

#if SM2C_RT_WANT(random_full_int_i32)
void sm2c_rt_random_full_int_i32(const uint64_t *key, const uint64_t *counter, int32_t *y, int32_t n)
{
    philox g = philox_load(key, counter);
    uint32_t s[4];
    int32_t i, k;
    for (i = 0; i < n; i += 4) {
        philox_next(&g, s);
        for (k = 0; k < 4 && i + k < n; k++)
            y[i + k] = s[k] > INT32_MAX ? (int32_t)(s[k] - 0x80000000u) - INT32_MAX - 1 : (int32_t)s[k];
    }
}
#endif

#if SM2C_RT_WANT(random_full_int_i64)
void sm2c_rt_random_full_int_i64(const uint64_t *key, const uint64_t *counter, int64_t *y, int32_t n)
{
    philox g = philox_load(key, counter);
    uint32_t s[4];
    int32_t i, k;
    for (i = 0; i < n; i += 2) {
        philox_next(&g, s);
        for (k = 0; k < 2 && i + k < n; k++) {
            const uint64_t v = s[2 * k] | (uint64_t)s[2 * k + 1] << 32;
            y[i + k] = v > INT64_MAX ? (int64_t)(v - UINT64_C(0x8000000000000000)) - INT64_MAX - 1
                                     : (int64_t)v;
        }
    }
}
#endif

#if SM2C_RT_WANT(random_reserve)
/* A stateful random op's generator, state = [key, counter low, counter high]
** (GuardedPhiloxRandom): key and counter get the stream for n outputs, and the
** state moves on by n * 256 calls (ReserveRandomOutputs(n, 256)), a 128-bit add. */
void sm2c_rt_random_reserve(uint64_t *state, uint64_t *key, uint64_t *counter, int32_t n)
{
    const uint64_t skip = (uint64_t)(n > 0 ? n : 0) * 256u;
    key[0] = state[0];
    counter[0] = state[1];
    counter[1] = state[2];
    state[1] += skip;
    if (state[1] < skip)
        state[2]++;
}
#endif
