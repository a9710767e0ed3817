/*
** xent_f32.c: SoftmaxCrossEntropyWithLogits and its Sparse form, as
** TensorFlow's XentEigenImpl (tensorflow/core/kernels/xent_op.h) computes
** them per row of `cols` logits:
**     shifted = logits - max(logits)
**     loss    = sum(labels * (log(sum(exp(shifted))) - shifted))
**     backprop = exp(shifted) / sum(exp(shifted)) - labels
** The sparse form's labels are class indices: loss = log(sum) - shifted[label],
** backprop subtracts 1 at the label.  A label outside [0, cols) is an error
** (SM2C_RT_ERR_INDEX, nothing written), as on TensorFlow's CPU.  Sums are in
** float, as Eigen's: a Cortex-M4F has no double unit.
*/
#include <math.h>
#include <stddef.h>

#include "sm2c_rt.h"
#include "rt_select.h"

/* max and sum(exp(x - max)) of one row; e[j] = exp(x[j] - max). */
static float row_sum(const float *x, float *e, int32_t cols, float *max)
{
    float m = x[0];
    float sum = 0.0f;
    int32_t j;
    for (j = 1; j < cols; j++)
        if (x[j] > m)
            m = x[j];
    for (j = 0; j < cols; j++) {
        e[j] = expf(x[j] - m);
        sum += e[j];
    }
    *max = m;
    return sum;
}

#if SM2C_RT_WANT(softmax_xent_f32)
void sm2c_rt_softmax_xent_f32(const float *logits, const float *labels, float *loss, float *backprop,
                              int32_t rows, int32_t cols)
{
    int32_t i, j;
    for (i = 0; i < rows; i++) {
        const float *x = logits + (size_t)i * (size_t)cols, *p = labels + (size_t)i * (size_t)cols;
        float *g = backprop + (size_t)i * (size_t)cols, max, l = 0.0f;
        float sum = row_sum(x, g, cols, &max), log_sum = logf(sum);
        for (j = 0; j < cols; j++) {
            l += p[j] * (log_sum - (x[j] - max));
            g[j] = g[j] / sum - p[j];
        }
        loss[i] = l;
    }
}
#endif

#define SPARSE_XENT(ix, I)                                                                      \
    SM2C_RT_DEFINE(sparse_softmax_xent_f32_##ix, int32_t sm2c_rt_sparse_softmax_xent_f32_##ix(const float *logits, const I *labels, float *loss, \
                                                 float *backprop, int32_t rows, int32_t cols)   \
    {                                                                                           \
        int32_t i, j;                                                                           \
        for (i = 0; i < rows; i++)                                                              \
            if (labels[i] < 0 || labels[i] >= (I)cols)                                          \
                return SM2C_RT_ERR_INDEX;                                                       \
        for (i = 0; i < rows; i++) {                                                            \
            const float *x = logits + (size_t)i * (size_t)cols;                                 \
            float *g = backprop + (size_t)i * (size_t)cols, max;                                \
            float sum = row_sum(x, g, cols, &max), log_sum = logf(sum);                         \
            for (j = 0; j < cols; j++)                                                          \
                g[j] = g[j] / sum - (labels[i] == (I)j ? 1.0f : 0.0f);                          \
            loss[i] = log_sum - (x[labels[i]] - max);                                           \
        }                                                                                       \
        return SM2C_RT_OK;                                                                      \
    })

SPARSE_XENT(i32, int32_t)
SPARSE_XENT(i64, int64_t)
