/*
** matvec_f32.c: a one-row MatMul, y[n] = act(x[k] . W + bias[n]), the Dense
** layer of a batch-1 model.  The compiler picks it from the static shapes
** (m == 1) instead of sm2c_rt_matmul_f32: no tiles, no copies, no stack, a
** few dozen instructions of code.  Sums run from 0.0f in increasing kk, then
** add the bias: bit for bit the reference semantics of matmul_f32.c.
*/
#include <stddef.h>

#include "act_f32.h"
#include "sm2c_rt.h"

/* W is w[k*n]: y accumulates whole rows of W, which are contiguous. */
static void mv_rows(const float *x, const float *w, float *y, int32_t k, int32_t n)
{
    int32_t j, kk;

    for (j = 0; j < n; j++)
        y[j] = 0.0f;
    for (kk = 0; kk < k; kk++) {
        const float xk = x[kk];
        const float *wk = w + (ptrdiff_t)kk * n;
        for (j = 0; j < n; j++)
            y[j] += xk * wk[j];
    }
}

/* W is transposed, w[n*k]: each y[j] is a dot product with a row of w. */
static void mv_dots(const float *x, const float *w, float *y, int32_t k, int32_t n)
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

void sm2c_rt_matvec_f32(const float *x, const float *w, const float *bias, float *y, int32_t k,
                        int32_t n, int32_t transpose_w, int32_t act)
{
    int32_t j;

    if (transpose_w)
        mv_dots(x, w, y, k, n);
    else
        mv_rows(x, w, y, k, n);
    if (bias) {
        for (j = 0; j < n; j++)
            y[j] += bias[j];
    }
    sm2c_rt__act_f32(y, n, act);
}
