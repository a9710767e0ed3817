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
**
** The _bcast forms broadcast as the float binary kernels do (y has `rank` dims
** `dims`, a read at sum(i[k] * sa[k]), b at sum(i[k] * sb[k])), with the same
** arithmetic per element, as TFLite's BroadcastAdd6DSlow and BroadcastMul6DSlow.
*/
#include <stddef.h>
#include <stdint.h>

#include "q8_math.h"
#include "rt_select.h"
#include "sm2c_rt.h"

static inline int8_t sm2c_rt__add1_s8(int32_t a, int32_t b, const int32_t *q)
{
    const int32_t lift = (int32_t)(UINT32_C(1) << q[3]);
    const int32_t sa = sm2c_rt__requant((q[0] + a) * lift, q[4], q[5]);
    const int32_t sb = sm2c_rt__requant((q[1] + b) * lift, q[6], q[7]);
    return sm2c_rt__clamp_s8(sm2c_rt__requant(sa + sb, q[8], q[9]) + q[2], q[10], q[11]);
}

static inline int8_t sm2c_rt__mul1_s8(int32_t a, int32_t b, const int32_t *q)
{
    return sm2c_rt__clamp_s8(sm2c_rt__requant((q[0] + a) * (q[1] + b), q[3], q[4]) + q[2], q[5], q[6]);
}

/* y[i] = f(a[.], b[.]) over the broadcast index space, last dim fastest. */
static inline void sm2c_rt__bcast_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t rank,
                                     const int32_t *dims, const int32_t *sa, const int32_t *sb,
                                     const int32_t *q, int mul)
{
    int32_t idx[SM2C_RT_MAX_RANK] = { 0 };
    ptrdiff_t n = 1, oa = 0, ob = 0;
    for (int32_t k = 0; k < rank; k++)
        n *= dims[k];
    for (ptrdiff_t i = 0; i < n; i++) {
        y[i] = mul ? sm2c_rt__mul1_s8(a[oa], b[ob], q) : sm2c_rt__add1_s8(a[oa], b[ob], q);
        for (int32_t k = rank - 1; k >= 0; k--) {
            oa += sa[k], ob += sb[k];
            if (++idx[k] < dims[k])
                break;
            oa -= (ptrdiff_t)sa[k] * dims[k], ob -= (ptrdiff_t)sb[k] * dims[k];
            idx[k] = 0;
        }
    }
}

#if SM2C_RT_WANT(add_s8)
void sm2c_rt_add_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *q)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__add1_s8(a[i], b[i], q);
}
#endif

#if SM2C_RT_WANT(mul_s8)
void sm2c_rt_mul_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *q)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__mul1_s8(a[i], b[i], q);
}
#endif

#if SM2C_RT_WANT(add_bcast_s8)
void sm2c_rt_add_bcast_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t rank, const int32_t *dims,
                          const int32_t *sa, const int32_t *sb, const int32_t *q)
{
    sm2c_rt__bcast_s8(a, b, y, rank, dims, sa, sb, q, 0);
}
#endif

#if SM2C_RT_WANT(mul_bcast_s8)
void sm2c_rt_mul_bcast_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t rank, const int32_t *dims,
                          const int32_t *sa, const int32_t *sb, const int32_t *q)
{
    sm2c_rt__bcast_s8(a, b, y, rank, dims, sa, sb, q, 1);
}
#endif

#if SM2C_RT_WANT(clamp_s8)
void sm2c_rt_clamp_s8(const int8_t *x, int8_t *y, int32_t n, int32_t lo, int32_t hi)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__clamp_s8(x[i], lo, hi);
}
#endif
