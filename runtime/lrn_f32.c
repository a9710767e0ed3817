/*
** lrn_f32.c: LRN (local response normalisation) over the last axis of
** [rows, depth], as tensorflow/core/ops/nn_ops.cc defines it:
**     sqr_sum[d] = sum of x[e]^2 for e in [d - radius, d + radius] within [0, depth)
**     y[d] = x[d] / (bias + alpha * sqr_sum[d])^beta
** In float, as TensorFlow (a float band-matrix product, then
** exp(log(.) * -beta)): a float32 model needs no double arithmetic, which a
** single-precision FPU (Cortex-M4F) would do in software.
*/
#include <math.h>
#include <stddef.h>

#include "sm2c_rt.h"

void sm2c_rt_lrn_f32(const float *x, float *y, int32_t rows, int32_t depth, int32_t radius,
                     float bias, float alpha, float beta)
{
    int32_t r, d, e;

    for (r = 0; r < rows; r++) {
        const float *xr = x + (ptrdiff_t)r * depth;
        float *yr = y + (ptrdiff_t)r * depth;
        for (d = 0; d < depth; d++) {
            const int32_t lo = d - radius < 0 ? 0 : d - radius;
            const int32_t hi = depth - 1 - d < radius ? depth - 1 : d + radius;
            float s = 0.0f;
            for (e = lo; e <= hi; e++)
                s += xr[e] * xr[e];
            yr[d] = xr[d] * powf(bias + alpha * s, -beta);
        }
    }
}
