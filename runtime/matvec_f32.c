/*
** matvec_f32.c: a one-row MatMul, y[n] = act(x[k] . W + bias[n]), the Dense
** layer of a batch-1 model.  The compiler picks it from the static shapes
** (m == 1) instead of sm2c_rt_matmul_f32: no tiles, no copies, no stack,
** little code; W as stored (k x n) and transposed (n x k) are two kernels,
** so a program links only the one it calls.  Sums run from 0.0f in
** increasing kk, then add the bias: bit for bit the reference semantics of
** matmul_f32.c.  Vector units accumulate whole rows of W across columns; a
** scalar FPU (SM2C_RT_SCALAR_CORE, rt_target.h) sums four columns at a time in
** registers.  On x86-64 W as stored runs through AVX-512 or AVX2+FMA
** intrinsics (simd_f32.h: chosen at run time in a portable build), and on
** AArch64 through NEON ones: up to 8
** vectors of columns accumulate across the rows of W, a multiply and an add
** per step as the reference (written as vector operators: a compiler told to
** contract may fuse them, as it may the C paths).  The loads bound it, so
** FMA would not be faster; the results stay bit-identical to the C path.
** The _small
** kernels, which the compiler picks for layers of few
** multiply-adds, compute the same sums with the least code on a scalar FPU:
** one column at a time.
*/
#include <stddef.h>
#include <string.h>

#include "act_f32.h"
#include "sm2c_rt.h"
#include "rt_select.h"
#include "par_impl.h"
#include "rt_target.h"
#include "simd_act_f32.h"

#if SM2C_RT_SCALAR_CORE
/* The scalar FPU paths.  Column j's weights start at w + j*js and step by ks
** (w[k*n]: js = 1, ks = n; transposed: js = k, ks = 1); each sum runs in a
** register, then takes the bias and the activation.  The loops stop on a
** pointer bound: gcc -Os reloads a count from the stack on every step. */
static SM2C_RT_ALWAYS_INLINE float mv_out(float s, const float *bias, int32_t j, const sm2c_rt__act *act)
{
    if (bias)
        s += bias[j];
    return sm2c_rt__act1(s, act);
}

/* The smallest loop: one column at a time (the _small kernels). */
static SM2C_RT_ALWAYS_INLINE void mv_scalar(const float *x, const float *w, const float *bias, float *y,
                             int32_t k, int32_t n, int32_t js, int32_t ks, const sm2c_rt__act *act)
{
    const float *xe = x + k;
    int32_t j;

    for (j = 0; j < n; j++) {
        const float *wj = w + (ptrdiff_t)j * js, *xp = x;
        float s = 0.0f;
        while (xp < xe) {
            s += *xp++ * wj[0];
            wj += ks;
        }
        y[j] = mv_out(s, bias, j, act);
    }
}

/* Four columns at a time, each x[kk] loaded once for all four.  The last
** block starts at n - 4 and recomputes a few columns (the same sums, so the
** same values) instead of a tail loop; below 4 columns the lanes repeat the
** last one. */
static SM2C_RT_ALWAYS_INLINE void mv_scalar4(const float *x, const float *w, const float *bias, float *y,
                              int32_t k, int32_t n, int32_t js, int32_t ks, const sm2c_rt__act *act)
{
    const float *xe = x + k;
    const int32_t l1 = n > 1 ? 1 : n - 1, l2 = n > 2 ? 2 : n - 1, l3 = n > 3 ? 3 : n - 1;
    const ptrdiff_t d1 = (ptrdiff_t)l1 * js, d2 = (ptrdiff_t)l2 * js, d3 = (ptrdiff_t)l3 * js;
    int32_t j0;

    for (j0 = 0; j0 < n; j0 += 4) {
        const int32_t j = j0 + 4 <= n || n < 4 ? j0 : n - 4;
        const float *wj = w + (ptrdiff_t)j * js, *xp = x;
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        while (xp < xe) {
            const float a = *xp++;
            s0 += a * wj[0];
            s1 += a * wj[d1];
            s2 += a * wj[d2];
            s3 += a * wj[d3];
            wj += ks;
        }
        y[j] = mv_out(s0, bias, j, act);
        y[j + l1] = mv_out(s1, bias, j + l1, act);
        y[j + l2] = mv_out(s2, bias, j + l2, act);
        y[j + l3] = mv_out(s3, bias, j + l3, act);
    }
}

#else

enum { MV_NB = 64 }; /* columns per block of accumulators (256 B of stack) */

/* W is w[k*n]: a block of y's columns accumulates whole rows of W, which are
** contiguous, in a local array (the compiler keeps it in vector registers and
** need not fear it aliases x or w; summing into y itself measured 1.5-2x
** slower on x86-64). */
static inline void mv_rows(const float *x, const float *w, float *y, int32_t k, int32_t n, int32_t ld)
{
    float acc[MV_NB];
    int32_t j0, j, kk;

    for (j0 = 0; j0 < n; j0 += MV_NB) {
        const int32_t nb = n - j0 < MV_NB ? n - j0 : MV_NB;
        memset(acc, 0, sizeof acc);
        /* Four rows of W per pass: acc is loaded and stored a quarter as
        ** often (unvectorised at -O2, each store-load pair on the stack
        ** costs, and more so when acc and w alias modulo 4 KB); each column
        ** still adds its terms in increasing kk. */
        for (kk = 0; kk + 4 <= k; kk += 4) {
            const float x0 = x[kk], x1 = x[kk + 1], x2 = x[kk + 2], x3 = x[kk + 3];
            const float *w0 = w + (ptrdiff_t)kk * ld + j0, *w1 = w0 + ld, *w2 = w1 + ld, *w3 = w2 + ld;
            for (j = 0; j < nb; j++) {
                float a = acc[j];
                a += x0 * w0[j];
                a += x1 * w1[j];
                a += x2 * w2[j];
                a += x3 * w3[j];
                acc[j] = a;
            }
        }
        for (; kk < k; kk++) {
            const float xk = x[kk];
            const float *wk = w + (ptrdiff_t)kk * ld + j0;
            for (j = 0; j < nb; j++)
                acc[j] += xk * wk[j];
        }
        memcpy(y + j0, acc, (size_t)nb * sizeof(float));
    }
}

/* W is transposed, w[n*k]: each y[j] is a dot product with a row of w. */
static inline void mv_dots(const float *x, const float *w, float *y, int32_t k, int32_t n)
{
    int32_t j, kk;

    for (j = 0; j < n; j++) {
        const float *wj = w + (ptrdiff_t)j * k;
        float s = 0.0f;
        for (kk = 0; kk < k; kk++)
            s += x[kk] * wj[kk];
        y[j] = s;
    }
}

/*
** The vector paths of W as stored: a strip of up to R vectors of columns
** (nc columns from column 0 of its w, bias and y), every accumulator a named
** register, summed over kk in increasing order, then the bias and the
** activation.  Lanes past nc are masked: never read, never stored.  One
** macro makes the strips of every ISA P (512, 256, 128) from its steps:
** MV_ZERO##P declares vector v's mask m##v and sum, MV_XK##P broadcasts
** x[kk], MV_MAC##P adds a vector of W's row, MV_STORE##P stores.
*/
#define MV_R8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define MV_R4(M) M(0) M(1) M(2) M(3)
#define MV_R2(M) M(0) M(1)
#define MV_R1(M) M(0)
#define MV_STRIP(P, name, TARGET, R)                                                       \
    TARGET static inline void name(const float *x, const float *w, const float *bias,      \
                                   float *y, int32_t k, int32_t ld, int32_t nc,           \
                                   const sm2c_rt__act *act)                               \
    {                                                                                      \
        int32_t kk;                                                                        \
        R(MV_ZERO##P)                                                                      \
        for (kk = 0; kk < k; kk++) {                                                       \
            MV_XK##P(x[kk])                                                                \
            const float *wk = w + (ptrdiff_t)kk * ld;                                      \
            R(MV_MAC##P)                                                                   \
        }                                                                                  \
        R(MV_STORE##P)                                                                     \
    }

#if SM2C_RT_AVX512
#define MV_ZERO512(v)                                                                      \
    const __mmask16 m##v = sm2c_rt__mask16(nc - 16 * (v));                                 \
    __m512 c##v = _mm512_setzero_ps();
#define MV_MAC512(v) c##v = c##v + xk * _mm512_maskz_loadu_ps(m##v, wk + 16 * (v));
#define MV_STORE512(v)                                                                     \
    if (bias)                                                                              \
        c##v = _mm512_add_ps(c##v, _mm512_maskz_loadu_ps(m##v, bias + 16 * (v)));          \
    _mm512_mask_storeu_ps(y + 16 * (v), m##v, sm2c_rt__act512(c##v, act));
#define MV_XK512(s) const __m512 xk = _mm512_set1_ps(s);
MV_STRIP(512, mv_strip512_8, SM2C_RT_TARGET_AVX512, MV_R8)
MV_STRIP(512, mv_strip512_4, SM2C_RT_TARGET_AVX512, MV_R4)
MV_STRIP(512, mv_strip512_2, SM2C_RT_TARGET_AVX512, MV_R2)
MV_STRIP(512, mv_strip512_1, SM2C_RT_TARGET_AVX512, MV_R1)

/* Strips of 128 columns while more than 64 remain, then 64, 32 and 16 (a
** strip's last vectors may be partly or wholly masked). */
SM2C_RT_TARGET_AVX512 static void mv_rows512(const float *x, const float *w, const float *bias,
                                             float *y, int32_t k, int32_t n, int32_t ld,
                                             const sm2c_rt__act *act)
{
    int32_t j = 0;

    for (; n - j > 64; j += 128)
        mv_strip512_8(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
    for (; n - j > 32; j += 64)
        mv_strip512_4(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
    for (; n - j > 16; j += 32)
        mv_strip512_2(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
    for (; j < n; j += 16)
        mv_strip512_1(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
}
#endif

#if SM2C_RT_AVX2
#define MV_ZERO256(v)                                                                      \
    const __m256i m##v = sm2c_rt__mask8(nc - 8 * (v));                                     \
    __m256 c##v = _mm256_setzero_ps();
#define MV_MAC256(v) c##v = c##v + xk * _mm256_maskload_ps(wk + 8 * (v), m##v);
#define MV_STORE256(v)                                                                     \
    if (bias)                                                                              \
        c##v = _mm256_add_ps(c##v, _mm256_maskload_ps(bias + 8 * (v), m##v));              \
    _mm256_maskstore_ps(y + 8 * (v), m##v, sm2c_rt__act256(c##v, act));
#define MV_XK256(s) const __m256 xk = _mm256_set1_ps(s);
MV_STRIP(256, mv_strip256_8, SM2C_RT_TARGET_AVX2, MV_R8)
MV_STRIP(256, mv_strip256_4, SM2C_RT_TARGET_AVX2, MV_R4)
MV_STRIP(256, mv_strip256_2, SM2C_RT_TARGET_AVX2, MV_R2)
MV_STRIP(256, mv_strip256_1, SM2C_RT_TARGET_AVX2, MV_R1)

/* Strips of 64 columns while more than 32 remain, then 32, 16 and 8. */
SM2C_RT_TARGET_AVX2 static void mv_rows256(const float *x, const float *w, const float *bias,
                                           float *y, int32_t k, int32_t n, int32_t ld,
                                           const sm2c_rt__act *act)
{
    int32_t j = 0;

    for (; n - j > 32; j += 64)
        mv_strip256_8(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
    for (; n - j > 16; j += 32)
        mv_strip256_4(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
    for (; n - j > 8; j += 16)
        mv_strip256_2(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
    for (; j < n; j += 8)
        mv_strip256_1(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
}
#endif

#if SM2C_RT_NEON
/* NEON: strips of up to 8 vectors of 4 columns, a multiply and an add per
** step as above.  NEON has no masked loads: a mask is the count of lanes to
** load (sm2c_rt__load128), a constant 4 in the full strips (128F), whose
** loads are then plain. */
#define MV_ZERO128(v)                                                                      \
    const int32_t m##v = nc - 4 * (v);                                                     \
    float32x4_t c##v = vdupq_n_f32(0.0f);
#define MV_ZERO128F(v)                                                                     \
    enum { m##v = 4 };                                                                     \
    float32x4_t c##v = vdupq_n_f32(0.0f);                                                  \
    (void)nc;
#define MV_XK128(s) const float32x4_t xk = vdupq_n_f32(s);
#define MV_MAC128(v) c##v = vaddq_f32(c##v, vmulq_f32(xk, sm2c_rt__load128(wk + 4 * (v), m##v)));
#define MV_STORE128(v)                                                                     \
    if (bias)                                                                              \
        c##v = vaddq_f32(c##v, sm2c_rt__load128(bias + 4 * (v), m##v));                    \
    sm2c_rt__store128(y + 4 * (v), sm2c_rt__act128(c##v, act), m##v);
#define MV_XK128F MV_XK128
#define MV_MAC128F MV_MAC128
#define MV_STORE128F MV_STORE128
MV_STRIP(128F, mv_strip128_8, , MV_R8)
MV_STRIP(128F, mv_strip128_4, , MV_R4)
MV_STRIP(128F, mv_strip128_2, , MV_R2)
MV_STRIP(128F, mv_strip128_1, , MV_R1)
MV_STRIP(128, mv_strip128_tail, , MV_R1)

/* Strips of 32 columns, then 16, 8 and 4, then the last few. */
static void mv_rows128(const float *x, const float *w, const float *bias, float *y, int32_t k,
                       int32_t n, int32_t ld, const sm2c_rt__act *act)
{
    int32_t j = 0;

    for (; n - j >= 32; j += 32)
        mv_strip128_8(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
    if (n - j >= 16) {
        mv_strip128_4(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
        j += 16;
    }
    if (n - j >= 8) {
        mv_strip128_2(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
        j += 8;
    }
    if (n - j >= 4) {
        mv_strip128_1(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
        j += 4;
    }
    if (j < n)
        mv_strip128_tail(x, w + j, bias ? bias + j : bias, y + j, k, ld, n - j, act);
}
#endif

/* W as stored through a vector path this CPU has; 0 when there is none. */
static inline int mv_rows_simd(const float *x, const float *w, const float *bias, float *y,
                               int32_t k, int32_t n, int32_t ld, const sm2c_rt__act *act)
{
#if SM2C_RT_AVX512
    if (sm2c_rt__have_avx512()) {
        mv_rows512(x, w, bias, y, k, n, ld, act);
        return 1;
    }
#endif
#if SM2C_RT_AVX2
    if (sm2c_rt__have_avx2()) {
        mv_rows256(x, w, bias, y, k, n, ld, act);
        return 1;
    }
#endif
#if SM2C_RT_NEON
    mv_rows128(x, w, bias, y, k, n, ld, act);
    return 1;
#endif
    (void)x, (void)w, (void)bias, (void)y, (void)k, (void)n, (void)ld, (void)act;
    return 0;
}

/* bias (may be NULL) and the activation, in place. */
static inline void mv_finish(const float *bias, float *y, int32_t n, const sm2c_rt__act *act)
{
    int32_t j;

    if (bias) {
        for (j = 0; j < n; j++)
            y[j] += bias[j];
    }
    sm2c_rt__act_f32(y, n, act);
}

#endif

/* The four kernels: W as stored (k x n, its rows ld floats apart: n, or
** more for a band of columns) or transposed (n x k); four columns at a time
** or, for the _small kernels, one (on a scalar FPU; vector units take the
** same path for both).  Every flag is a constant where it is called.  A
** column's sum, bias and activation do not depend on n, ld or where the
** column sits in the band: the same operations in the same order, in a
** vector lane or a scalar, whatever the strips around it. */
static SM2C_RT_ALWAYS_INLINE void matvec_ld(const float *x, const float *w, const float *bias, float *y,
                                            int32_t k, int32_t n, int32_t ld, const sm2c_rt__act *act,
                                            int transposed, int small)
{
#if SM2C_RT_SCALAR_CORE
    const int32_t js = transposed ? k : 1, ks = transposed ? 1 : ld;
    if (small)
        mv_scalar(x, w, bias, y, k, n, js, ks, act);
    else
        mv_scalar4(x, w, bias, y, k, n, js, ks, act);
#else
    (void)small;
    if (!transposed && mv_rows_simd(x, w, bias, y, k, n, ld, act))
        return;
    if (transposed)
        mv_dots(x, w, y, k, n);
    else
        mv_rows(x, w, y, k, n, ld);
    mv_finish(bias, y, n, act);
#endif
}

static SM2C_RT_ALWAYS_INLINE void matvec(const float *x, const float *w, const float *bias, float *y,
                                         int32_t k, int32_t n, const sm2c_rt__act *act, int transposed,
                                         int small)
{
    matvec_ld(x, w, bias, y, k, n, n, act, transposed, small);
}

#if SM2C_RT_WANT(matvec_f32)
void sm2c_rt_matvec_f32(const float *x, const float *w, const float *bias, float *y, int32_t k,
                        int32_t n, int32_t act, float act_a, float act_b)
{
    matvec(x, w, bias, y, k, n, &(const sm2c_rt__act){ act, act_a, act_b }, 0, 0);
}
#endif

#if SM2C_RT_WANT(matvec_t_f32)
void sm2c_rt_matvec_t_f32(const float *x, const float *w, const float *bias, float *y,
                          int32_t k, int32_t n, int32_t act, float act_a, float act_b)
{
    matvec(x, w, bias, y, k, n, &(const sm2c_rt__act){ act, act_a, act_b }, 1, 0);
}
#endif

#if SM2C_RT_WANT(matvec_small_f32)
void sm2c_rt_matvec_small_f32(const float *x, const float *w, const float *bias, float *y,
                              int32_t k, int32_t n, int32_t act, float act_a, float act_b)
{
    matvec(x, w, bias, y, k, n, &(const sm2c_rt__act){ act, act_a, act_b }, 0, 1);
}
#endif

#if SM2C_RT_WANT(matvec_t_small_f32)
void sm2c_rt_matvec_t_small_f32(const float *x, const float *w, const float *bias, float *y,
                                int32_t k, int32_t n, int32_t act, float act_a, float act_b)
{
    matvec(x, w, bias, y, k, n, &(const sm2c_rt__act){ act, act_a, act_b }, 1, 1);
}
#endif

/* Split into tasks (sm2c_rt.h, par_impl.h).  W as stored: bands of whole
** blocks of MV_PAR_COLS columns (a cache line of y and of each row of W), a
** band reading W's rows at their full stride n; transposed: bands of rows
** of W.  Each column is the whole kernel's, bit for bit (matvec_ld). */
#if SM2C_RT_WANT(matvec_f32_par) || SM2C_RT_WANT(matvec_t_f32_par)
enum { MV_PAR_COLS = 16 };

typedef struct mv_task {
    const float *x, *w, *bias;
    float *y;
    int32_t k, n, unit, n_tasks;
    sm2c_rt__act act;
} mv_task;

static void mv_task_fn(void *arg, int32_t t)
{
    const mv_task *a = arg;
    int64_t first, end, j0, j1;

    sm2c_rt__task_range(t, a->n_tasks, ((int64_t)a->n + a->unit - 1) / a->unit, &first, &end);
    j0 = first * a->unit;
    j1 = end * a->unit < a->n ? end * a->unit : a->n;
    if (a->unit == 1) /* transposed: rows j0..j1 of W */
        matvec_ld(a->x, a->w + j0 * a->k, a->bias ? a->bias + j0 : NULL, a->y + j0, a->k,
                  (int32_t)(j1 - j0), a->k, &a->act, 1, 0);
    else
        matvec_ld(a->x, a->w + j0, a->bias ? a->bias + j0 : NULL, a->y + j0, a->k, (int32_t)(j1 - j0),
                  a->n, &a->act, 0, 0);
}

static void mv_par(const sm2c_rt_par *par, int32_t max_tasks, mv_task *s)
{
    s->n_tasks = sm2c_rt__task_count(par, max_tasks, ((int64_t)s->n + s->unit - 1) / s->unit);
    sm2c_rt__run_tasks(par, s->n_tasks, mv_task_fn, s);
}
#endif

#if SM2C_RT_WANT(matvec_f32_par)
void sm2c_rt_matvec_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, const float *w,
                            const float *bias, float *y, int32_t k, int32_t n, int32_t act, float act_a,
                            float act_b)
{
    mv_task s = { x, w, bias, y, k, n, MV_PAR_COLS, 0, { act, act_a, act_b } };
    mv_par(par, max_tasks, &s);
}
#endif

#if SM2C_RT_WANT(matvec_t_f32_par)
void sm2c_rt_matvec_t_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, const float *w,
                              const float *bias, float *y, int32_t k, int32_t n, int32_t act,
                              float act_a, float act_b)
{
    mv_task s = { x, w, bias, y, k, n, 1, 0, { act, act_a, act_b } };
    mv_par(par, max_tasks, &s);
}
#endif

/* Shape-specialised layers (conv_f32.c): on a scalar FPU the loop with the
** layer's k, n and activation folded in. */
#if SM2C_RT_SCALAR_CORE
#define SM2C_RT_SPECIAL_matvec_f32(x, w, bias, y, k, n, act, a, b) \
    matvec(x, w, bias, y, k, n, &(const sm2c_rt__act){ (act), (a), (b) }, 0, 0)
#define SM2C_RT_SPECIAL_matvec_t_f32(x, w, bias, y, k, n, act, a, b) \
    matvec(x, w, bias, y, k, n, &(const sm2c_rt__act){ (act), (a), (b) }, 1, 0)
#define SM2C_RT_SPECIAL_matvec_small_f32(x, w, bias, y, k, n, act, a, b) \
    matvec(x, w, bias, y, k, n, &(const sm2c_rt__act){ (act), (a), (b) }, 0, 1)
#define SM2C_RT_SPECIAL_matvec_t_small_f32(x, w, bias, y, k, n, act, a, b) \
    matvec(x, w, bias, y, k, n, &(const sm2c_rt__act){ (act), (a), (b) }, 1, 1)
#endif
