/*
** layer_norm_f32.c: layer normalization over the last axis, the one step
** that optimize/pass_lnorm.c makes of the ops Keras 3's LayerNormalization
** exports.  Per row of cols elements, in the graph's own operations and
** order:
**     mean = Mean(x)                 var = Mean(SquaredDifference(x, mean))
**     inv[j] = Rsqrt(var + epsilon) * gamma[j]
**     y[j] = x[j] * inv[j] + (-mean * inv[j] + beta[j])
** The two means sum as the Mean kernel does (row_sum_f32.h), so the step
** gives the bits of the steps it replaces, one read of the row for each
** sum and one for the output instead of a dozen passes over the tensor.
** A layer without center or scale passes zeros or ones, which change no
** bit but the sign of a zero.
**
** The plain C row is what a compiler vectorises as it can; on x86-64,
** layer_norm_x86_f32.h does the same operations in intrinsics, several rows'
** sums at once (gcc kept the plain sums scalar: 15 us for the benchmark's
** 128 x 128, against 4 for the Mean kernel alone).  y may equal x: a row is
** read whole before any of it is written.
*/
#include <math.h>
#include <stddef.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "row_sum_f32.h"
#include "simd_f32.h"

static inline void layer_norm_row(const float *x, const float *gamma, const float *beta,
                                  float epsilon, float *y, int32_t cols)
{
    const float mean = sm2c_rt__row_sum_f32(x, cols) / (float)cols;
    const float var = sm2c_rt__row_sqdiff_sum_f32(x, mean, cols) / (float)cols;
    const float r = 1.0f / sqrtf(var + epsilon), neg_mean = -mean;
    int32_t j;

    for (j = 0; j < cols; j++) {
        const float inv = r * gamma[j];
        y[j] = x[j] * inv + (neg_mean * inv + beta[j]);
    }
}

#include "layer_norm_x86_f32.h" /* the rows in x86 intrinsics, same bits */

SM2C_RT_VECTORISE void sm2c_rt_layer_norm_f32(const float *x, const float *gamma, const float *beta,
                                              float epsilon, float *y, int32_t rows, int32_t cols)
{
    int32_t r = 0;

    if (cols <= 0)
        return;
#if LN_X86
    if (ln_have_x86())
        r = ln_rows256(x, gamma, beta, epsilon, y, rows, cols);
#endif
    for (; r < rows; r++)
        layer_norm_row(x + (ptrdiff_t)r * cols, gamma, beta, epsilon, y + (ptrdiff_t)r * cols, cols);
}
