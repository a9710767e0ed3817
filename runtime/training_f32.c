/*
** training_f32.c: the optimizer updates training signatures apply to their
** variables, written as TensorFlow's CPU functors compute them
** (tensorflow/core/kernels/training_ops.cc), operation for operation in
** float32, so the same inputs give the same bits.  Scalars (learning rate,
** momentum, ...) arrive as pointers: they are tensors computed at run time.
** Every array has n elements; var, accum, m and v are updated in place.
*/
#include <math.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#if SM2C_RT_WANT(apply_gradient_descent_f32)
/* ApplyGradientDescent: var -= grad * lr. */
void sm2c_rt_apply_gradient_descent_f32(float *var, const float *lr, const float *grad, int32_t n)
{
    const float a = *lr;
    for (int32_t i = 0; i < n; i++)
        var[i] = var[i] - grad[i] * a;
}
#endif

#if SM2C_RT_WANT(apply_momentum_f32)
/* ApplyMomentum: accum = accum * momentum + grad; then
** var -= grad * lr + accum * momentum * lr (Nesterov), else var -= accum * lr. */
void sm2c_rt_apply_momentum_f32(float *var, float *accum, const float *lr, const float *grad,
                                const float *momentum, int32_t n, int32_t use_nesterov)
{
    const float a = *lr, mu = *momentum;
    for (int32_t i = 0; i < n; i++) {
        accum[i] = accum[i] * mu + grad[i];
        if (use_nesterov)
            var[i] = var[i] - (grad[i] * a + accum[i] * mu * a);
        else
            var[i] = var[i] - accum[i] * a;
    }
}
#endif

#if SM2C_RT_WANT(apply_adam_f32)
/* ApplyAdam: alpha = lr * sqrt(1 - beta2_power) / (1 - beta1_power);
** m += (g - m) * (1 - beta1); v += (g*g - v) * (1 - beta2);
** var -= ((g * (1 - beta1) + beta1 * m) * alpha) / (sqrt(v) + epsilon) (Nesterov),
** else var -= (m * alpha) / (sqrt(v) + epsilon). */
void sm2c_rt_apply_adam_f32(float *var, float *m, float *v, const float *beta1_power,
                            const float *beta2_power, const float *lr, const float *beta1,
                            const float *beta2, const float *epsilon, const float *grad, int32_t n,
                            int32_t use_nesterov)
{
    const float alpha = *lr * sqrtf(1.0f - *beta2_power) / (1.0f - *beta1_power);
    const float b1 = *beta1, one_b1 = 1.0f - *beta1, one_b2 = 1.0f - *beta2, eps = *epsilon;
    for (int32_t i = 0; i < n; i++) {
        const float g = grad[i];
        m[i] = m[i] + (g - m[i]) * one_b1;
        v[i] = v[i] + (g * g - v[i]) * one_b2;
        if (use_nesterov)
            var[i] = var[i] - ((g * one_b1 + b1 * m[i]) * alpha) / (sqrtf(v[i]) + eps);
        else
            var[i] = var[i] - (m[i] * alpha) / (sqrtf(v[i]) + eps);
    }
}
#endif

/* ResourceScatterUpdate / ResourceScatterAdd on rows: for each j < n,
** row idx[j] of var (`row` elements) = (or +=) row j of updates, in order.
** Every index is checked first: one outside [0, rows) changes nothing and
** returns SM2C_RT_ERR_INDEX, as TensorFlow's kernel refuses it. */
#define SCATTER_ROWS(ix, I)                                                                    \
    SM2C_RT_DEFINE(scatter_update_rows_##ix, int32_t sm2c_rt_scatter_update_rows_##ix(void *var, int32_t rows, int32_t row_bytes,       \
                                             const I *idx, int32_t n, const void *updates)    \
    {                                                                                          \
        unsigned char *y = var;                                                                \
        const unsigned char *u = updates;                                                      \
        for (int32_t j = 0; j < n; j++)                                                        \
            if (idx[j] < 0 || idx[j] >= rows)                                                  \
                return SM2C_RT_ERR_INDEX;                                                      \
        for (int32_t j = 0; j < n; j++)                                                        \
            for (int32_t b = 0; b < row_bytes; b++)                                            \
                y[(int64_t)idx[j] * row_bytes + b] = u[(int64_t)j * row_bytes + b];            \
        return SM2C_RT_OK;                                                                     \
    })                                                                                          \
    SM2C_RT_DEFINE(scatter_add_rows_f32_##ix, int32_t sm2c_rt_scatter_add_rows_f32_##ix(float *var, int32_t rows, int32_t row,           \
                                              const I *idx, int32_t n, const float *updates)  \
    {                                                                                          \
        for (int32_t j = 0; j < n; j++)                                                        \
            if (idx[j] < 0 || idx[j] >= rows)                                                  \
                return SM2C_RT_ERR_INDEX;                                                      \
        for (int32_t j = 0; j < n; j++)                                                        \
            for (int32_t e = 0; e < row; e++)                                                  \
                var[(int64_t)idx[j] * row + e] = var[(int64_t)idx[j] * row + e] +             \
                                                 updates[(int64_t)j * row + e];                \
        return SM2C_RT_OK;                                                                     \
    })

SCATTER_ROWS(i32, int32_t)
SCATTER_ROWS(i64, int64_t)
