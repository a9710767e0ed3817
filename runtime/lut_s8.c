/*
** lut_s8.c: an int8 elementwise function by table, y = table[x + 128].
** TFLite's reference int8 Logistic and Tanh are such tables, which its
** Prepare fills from the float function on every input value; the compiler
** fills them the same way (quant_params.c).
*/
#include <stdint.h>

#include "sm2c_rt.h"

void sm2c_rt_lut_s8(const int8_t *x, const int8_t *table, int8_t *y, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = table[(int32_t)x[i] + 128];
}
