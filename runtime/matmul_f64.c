/*
** matmul_f64.c: float64 MatMul and BatchMatMul, plain reference loops.
**
** Same contract as the float32 kernels (sm2c_rt.h): each output is summed
** from 0 in increasing k, then the bias is added and the activation applied
** (Relu and Relu6 keep NaN, as TensorFlow's kernels do).
*/
#include <stddef.h>

#include "sm2c_rt.h"
#include "rt_select.h"

static inline double act_f64(double v, int32_t act)
{
    if (act == SM2C_RT_ACT_NONE || v != v)
        return v;
    v = v > 0.0 ? v : 0.0;
    return act == SM2C_RT_ACT_RELU6 && v > 6.0 ? 6.0 : v;
}

#if SM2C_RT_WANT(matmul_f64)
void sm2c_rt_matmul_f64(const double *a, const double *b, const double *bias, double *y,
                        int32_t m, int32_t k, int32_t n, int32_t transpose_a,
                        int32_t transpose_b, int32_t act)
{
    const ptrdiff_t a_rs = transpose_a ? 1 : k, a_cs = transpose_a ? m : 1;
    const ptrdiff_t b_rs = transpose_b ? 1 : n, b_cs = transpose_b ? k : 1;
    int32_t i, j, kk;

    for (i = 0; i < m; i++) {
        for (j = 0; j < n; j++) {
            double s = 0.0;
            for (kk = 0; kk < k; kk++)
                s += a[i * a_rs + kk * a_cs] * b[kk * b_rs + j * b_cs];
            if (bias)
                s += bias[j];
            y[(ptrdiff_t)i * n + j] = act_f64(s, act);
        }
    }
}
#endif

#if SM2C_RT_WANT(batch_matmul_f64)
void sm2c_rt_batch_matmul_f64(const double *a, const double *b, double *y, int32_t batch,
                              const int32_t *a_off, const int32_t *b_off, int32_t m, int32_t k,
                              int32_t n, int32_t adj_a, int32_t adj_b)
{
    int32_t j;

    for (j = 0; j < batch; j++)
        sm2c_rt_matmul_f64(a + a_off[j], b + b_off[j], NULL, y + (ptrdiff_t)j * m * n, m, k, n,
                           adj_a, adj_b, SM2C_RT_ACT_NONE);
}
#endif
