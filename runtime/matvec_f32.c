/*
** matvec_f32.c: a one-row MatMul, y[n] = act(x[k] . W + bias[n]), the Dense
** layer of a batch-1 model.  The compiler picks it from the static shapes
** (m == 1) instead of sm2c_rt_matmul_f32: no tiles, no copies, no stack,
** little code; W as stored (k x n) and transposed (n x k) are two kernels,
** so a program links only the one it calls.  Sums run from 0.0f in
** increasing kk, then add the bias: bit for bit the reference semantics of
** matmul_f32.c.
*/
#include <stddef.h>
#include <string.h>

#include "act_f32.h"
#include "sm2c_rt.h"
#include "rt_select.h"

#if defined(__SSE2__) || defined(__ARM_NEON) || defined(__ALTIVEC__) || defined(__riscv_vector)
/* Vector units: y accumulates whole rows of W, which are contiguous, so the
** compiler vectorises across columns. */
#define MV_BY_ROWS 1
#else
/* A scalar FPU (Cortex-M4F): four columns at a time, their sums held in
** registers across kk, so y is not reloaded and stored on every step. */
#define MV_BY_ROWS 0
#endif

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
        for (kk = 0; kk < k; kk++) {
            const float xk = x[kk];
            const float *wk = w + (ptrdiff_t)kk * n + j0;
            for (j = 0; j < nb; j++)
                acc[j] += xk * wk[j];
        }
        memcpy(y + j0, acc, (size_t)nb * sizeof(float));
    }
}

/* W is w[k*n], four columns at a time (each column still sums in kk order). */
static inline void mv_cols(const float *x, const float *w, float *y, int32_t k, int32_t n)
{
    int32_t j, kk;

    for (j = 0; j + 4 <= n; j += 4) {
        const float *wk = w + j;
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        for (kk = 0; kk < k; kk++, wk += n) {
            const float xk = x[kk];
            s0 += xk * wk[0];
            s1 += xk * wk[1];
            s2 += xk * wk[2];
            s3 += xk * wk[3];
        }
        y[j] = s0;
        y[j + 1] = s1;
        y[j + 2] = s2;
        y[j + 3] = s3;
    }
    for (; j < n; j++) {
        const float *wk = w + j;
        float s = 0.0f;
        for (kk = 0; kk < k; kk++, wk += n)
            s += x[kk] * wk[0];
        y[j] = s;
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

#if SM2C_RT_WANT(matvec_f32)
void sm2c_rt_matvec_f32(const float *x, const float *w, const float *bias, float *y, int32_t k,
                        int32_t n, int32_t act)
{
    if (MV_BY_ROWS)
        mv_rows(x, w, y, k, n);
    else
        mv_cols(x, w, y, k, n);
    mv_finish(bias, y, n, act);
}
#endif

#if SM2C_RT_WANT(matvec_t_f32)
void sm2c_rt_matvec_t_f32(const float *x, const float *w, const float *bias, float *y,
                          int32_t k, int32_t n, int32_t act)
{
    mv_dots(x, w, y, k, n);
    mv_finish(bias, y, n, act);
}
#endif
