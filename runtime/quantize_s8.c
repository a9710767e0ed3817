/*
** quantize_s8.c: float <-> int8 at the edges of the quantized part of a
** program (--quantize int8), as TFLite's reference Quantize and Dequantize
** kernels compute them: q = round(x / scale) + zero_point (half away from
** zero), saturated to int8; x = scale * (q - zero_point).  TFLite multiplies
** in double; q - zero_point has at most 9 bits, so that product is exact and
** rounds to the float product: float arithmetic gives the same bits, and a
** single-precision FPU (Cortex-M4F) no double helpers.
*/
#include <math.h>
#include <stdint.h>

#include "rt_select.h"
#include "sm2c_rt.h"

#if SM2C_RT_WANT(quantize_f32_s8)
void sm2c_rt_quantize_f32_s8(const float *x, int8_t *y, int32_t n, float scale, int32_t zero_point)
{
    for (int32_t i = 0; i < n; i++) {
        float r = roundf(x[i] / scale);
        /* Saturate before converting: a float outside int32 (or NaN) is UB to convert. */
        int32_t q = r != r ? 0 : r > 1e6f ? 1000000 : r < -1e6f ? -1000000 : (int32_t)r;
        q += zero_point;
        y[i] = (int8_t)(q < -128 ? -128 : q > 127 ? 127 : q);
    }
}
#endif

#if SM2C_RT_WANT(dequantize_s8_f32)
void sm2c_rt_dequantize_s8_f32(const int8_t *x, float *y, int32_t n, float scale, int32_t zero_point)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = scale * (float)((int32_t)x[i] - zero_point);
}
#endif
