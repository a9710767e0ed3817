/*
** eltwise_s8.c: int8 elementwise kernels (--quantize int8).
**
** Add of two same-shaped int8 tensors, as TFLite's reference int8 Add computes
** it (both inputs rescaled to twice the larger input scale, lifted by 2^20,
** summed, rescaled to the output).  q[] holds TFLite's ArithmeticParams:
**   [0] -in1_zp  [1] -in2_zp  [2] out_zp  [3] left_shift (20)
**   [4] in1_mult [5] in1_shift [6] in2_mult [7] in2_shift [8] out_mult [9] out_shift
**   [10] act_min [11] act_max
** |x - zp| <= 255, so the lifted value stays below 2^28 and the sum below 2^29.
**
** Mul, as TFLite's reference int8 Mul: y = requant((a - a_zp) * (b - b_zp)) + out_zp.
** q[]: [0] -a_zp [1] -b_zp [2] out_zp [3] mult [4] shift [5] act_min [6] act_max.
** |product| <= 256 * 256 = 2^16 and the compiler keeps shift <= 15, so the
** lifted product fits int32 (TFLite's form would overflow beyond).
**
** Clamp: Relu and Relu6 on an int8 value whose output keeps its scale and
** zero point, y = min(max(x, lo), hi).
*/
#include <stdint.h>

#include "q8_math.h"
#include "rt_select.h"
#include "sm2c_rt.h"

#if SM2C_RT_WANT(add_s8)
void sm2c_rt_add_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *q)
{
    const int32_t lift = (int32_t)(UINT32_C(1) << q[3]);
    for (int32_t i = 0; i < n; i++) {
        const int32_t va = (q[0] + a[i]) * lift, vb = (q[1] + b[i]) * lift;
        const int32_t sa = sm2c_rt__requant(va, q[4], q[5]), sb = sm2c_rt__requant(vb, q[6], q[7]);
        const int32_t out = sm2c_rt__requant(sa + sb, q[8], q[9]) + q[2];
        y[i] = sm2c_rt__clamp_s8(out, q[10], q[11]);
    }
}
#endif

#if SM2C_RT_WANT(mul_s8)
void sm2c_rt_mul_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *q)
{
    for (int32_t i = 0; i < n; i++) {
        const int32_t prod = (q[0] + a[i]) * (q[1] + b[i]);
        y[i] = sm2c_rt__clamp_s8(sm2c_rt__requant(prod, q[3], q[4]) + q[2], q[5], q[6]);
    }
}
#endif

#if SM2C_RT_WANT(clamp_s8)
void sm2c_rt_clamp_s8(const int8_t *x, int8_t *y, int32_t n, int32_t lo, int32_t hi)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__clamp_s8(x[i], lo, hi);
}
#endif
