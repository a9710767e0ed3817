/*
** requantize_s8.c: int8 to int8 under other parameters, as TFLite's reference
** Requantize (an int8 QUANTIZE op) computes it: y = clamp(requant(x - in_zp,
** mult, shift) + out_zp), mult and shift in_scale / out_scale.  The compiler
** puts one before a Concat input whose parameters are not the output's.
*/
#include <stdint.h>

#include "q8_math.h"
#include "sm2c_rt.h"

void sm2c_rt_requantize_s8(const int8_t *x, int8_t *y, int32_t n, int32_t in_zp, int32_t out_zp, int32_t mult,
                           int32_t shift)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__clamp_s8(sm2c_rt__requant((int32_t)x[i] - in_zp, mult, shift) + out_zp, -128, 127);
}
