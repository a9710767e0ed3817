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
** The loops are plain C that the compilers vectorise (the sums as eight
** lanes, the output across j), cloned per x86 ISA (simd_f32.h).  y may equal
** x: a row is read whole before any of it is written.
*/
#include <math.h>
#include <stddef.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "row_sum_f32.h"
#include "simd_f32.h"

static SM2C_RT_ALWAYS_INLINE void layer_norm_row(const float *x, const float *gamma,
                                                 const float *beta, float epsilon, float *y,
                                                 int32_t cols)
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

static SM2C_RT_ALWAYS_INLINE void layer_norm_body(const float *x, const float *gamma,
                                                  const float *beta, float epsilon, float *y,
                                                  int32_t rows, int32_t cols)
{
    int32_t r;

    for (r = 0; r < rows; r++)
        layer_norm_row(x + (ptrdiff_t)r * cols, gamma, beta, epsilon, y + (ptrdiff_t)r * cols, cols);
}

SM2C_RT_CLONES(layer_norm, (const float *x, const float *gamma, const float *beta, float epsilon,
                            float *y, int32_t rows, int32_t cols),
               (x, gamma, beta, epsilon, y, rows, cols))

SM2C_RT_VECTORISE void sm2c_rt_layer_norm_f32(const float *x, const float *gamma, const float *beta,
                                              float epsilon, float *y, int32_t rows, int32_t cols)
{
    if (cols <= 0)
        return;
    SM2C_RT_PICK(layer_norm, (x, gamma, beta, epsilon, y, rows, cols))
    layer_norm_body(x, gamma, beta, epsilon, y, rows, cols);
}
