/*
** matvec_f32.c: a one-row MatMul, y[n] = act(x[k] . W + bias[n]), the Dense
** layer of a batch-1 model.  The compiler picks it from the static shapes
** (m == 1) instead of sm2c_rt_matmul_f32: no tiles, no copies, no stack,
** little code; W as stored (k x n) and transposed (n x k) are two kernels,
** so a program links only the one it calls.  Sums run from 0.0f in
** increasing kk, then add the bias: bit for bit the reference semantics of
** matmul_f32.c.  Vector units accumulate whole rows of W across columns; a
** scalar FPU (SM2C_RT_SCALAR_CORE, rt_target.h) sums four columns at a time in
** registers.  The _small kernels, which the compiler picks for layers of few
** multiply-adds, compute the same sums with the least code on a scalar FPU:
** one column at a time.
*/
#include <stddef.h>
#include <string.h>

#include "act_f32.h"
#include "sm2c_rt.h"
#include "rt_select.h"
#include "rt_target.h"

#if SM2C_RT_SCALAR_CORE
/* The scalar FPU paths.  Column j's weights start at w + j*js and step by ks
** (w[k*n]: js = 1, ks = n; transposed: js = k, ks = 1); each sum runs in a
** register, then takes the bias and the activation.  The loops stop on a
** pointer bound: gcc -Os reloads a count from the stack on every step. */
static inline float mv_out(float s, const float *bias, int32_t j, int32_t act)
{
    if (bias)
        s += bias[j];
    return sm2c_rt__act1(s, act);
}

/* The smallest loop: one column at a time (the _small kernels). */
static SM2C_RT_ALWAYS_INLINE void mv_scalar(const float *x, const float *w, const float *bias, float *y,
                             int32_t k, int32_t n, int32_t js, int32_t ks, int32_t act)
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
                              int32_t k, int32_t n, int32_t js, int32_t ks, int32_t act)
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
static inline void mv_rows(const float *x, const float *w, float *y, int32_t k, int32_t n)
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
            const float *w0 = w + (ptrdiff_t)kk * n + j0, *w1 = w0 + n, *w2 = w1 + n, *w3 = w2 + n;
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
            const float *wk = w + (ptrdiff_t)kk * n + j0;
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

/* bias (may be NULL) and the activation, in place. */
static inline void mv_finish(const float *bias, float *y, int32_t n, int32_t act)
{
    int32_t j;

    if (bias) {
        for (j = 0; j < n; j++)
            y[j] += bias[j];
    }
    sm2c_rt__act_f32(y, n, act);
}

#endif

/* The four kernels: W as stored (k x n) or transposed (n x k); four columns
** at a time or, for the _small kernels, one (on a scalar FPU; vector units
** take the same path for both).  Every flag is a constant where it is called. */
static SM2C_RT_ALWAYS_INLINE void matvec(const float *x, const float *w, const float *bias, float *y,
                                         int32_t k, int32_t n, int32_t act, int transposed,
                                         int small)
{
#if SM2C_RT_SCALAR_CORE
    const int32_t js = transposed ? k : 1, ks = transposed ? 1 : n;
    if (small)
        mv_scalar(x, w, bias, y, k, n, js, ks, act);
    else
        mv_scalar4(x, w, bias, y, k, n, js, ks, act);
#else
    (void)small;
    if (transposed)
        mv_dots(x, w, y, k, n);
    else
        mv_rows(x, w, y, k, n);
    mv_finish(bias, y, n, act);
#endif
}

#if SM2C_RT_WANT(matvec_f32)
void sm2c_rt_matvec_f32(const float *x, const float *w, const float *bias, float *y, int32_t k,
                        int32_t n, int32_t act)
{
    matvec(x, w, bias, y, k, n, act, 0, 0);
}
#endif

#if SM2C_RT_WANT(matvec_t_f32)
void sm2c_rt_matvec_t_f32(const float *x, const float *w, const float *bias, float *y,
                          int32_t k, int32_t n, int32_t act)
{
    matvec(x, w, bias, y, k, n, act, 1, 0);
}
#endif

#if SM2C_RT_WANT(matvec_small_f32)
void sm2c_rt_matvec_small_f32(const float *x, const float *w, const float *bias, float *y,
                              int32_t k, int32_t n, int32_t act)
{
    matvec(x, w, bias, y, k, n, act, 0, 1);
}
#endif

#if SM2C_RT_WANT(matvec_t_small_f32)
void sm2c_rt_matvec_t_small_f32(const float *x, const float *w, const float *bias, float *y,
                                int32_t k, int32_t n, int32_t act)
{
    matvec(x, w, bias, y, k, n, act, 1, 1);
}
#endif

/* Shape-specialised layers (conv_f32.c): on a scalar FPU the loop with the
** layer's k, n and activation folded in. */
#if SM2C_RT_SCALAR_CORE
#define SM2C_RT_SPECIAL_matvec_f32(x, w, bias, y, k, n, act) matvec(x, w, bias, y, k, n, act, 0, 0)
#define SM2C_RT_SPECIAL_matvec_t_f32(x, w, bias, y, k, n, act) matvec(x, w, bias, y, k, n, act, 1, 0)
#define SM2C_RT_SPECIAL_matvec_small_f32(x, w, bias, y, k, n, act) matvec(x, w, bias, y, k, n, act, 0, 1)
#define SM2C_RT_SPECIAL_matvec_t_small_f32(x, w, bias, y, k, n, act) matvec(x, w, bias, y, k, n, act, 1, 1)
#endif
