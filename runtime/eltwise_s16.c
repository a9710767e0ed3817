/*
** eltwise_s16.c: the elementwise steps of TFLite's 16x8 scheme (--quantize
** int16x8), symmetric int16 activations (zero point 0), as its reference
** kernels compute them:
**
**   quantize:   y = clamp(roundf(x / scale))             (AffineQuantize)
**   dequantize: y = scale * x                            (one rounding)
**   add:        TFLite's general int16 Add (pot_scale_int16 false): each
**               input lifted by 2^15 and rescaled, the sum rescaled to the
**               output, q[12] as the int8 Add's (eltwise_s8.c)
**   requantize: y = clamp(requant(x, mult, shift))       (an int16 QUANTIZE)
**   clamp:      a Relu or Relu6 keeping its input's scale
*/
#include <stddef.h>
#include <stdint.h>

#include "q16_math.h"
#include "q8_math.h"
#include "rt_select.h"
#include "sm2c_rt.h"

#if SM2C_RT_WANT(quantize_f32_s16)
void sm2c_rt_quantize_f32_s16(const float *x, int16_t *y, int32_t n, float scale, int32_t zero_point)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__clamp_s16(sm2c_rt__round_q(x[i] / scale) + zero_point, -32768, 32767);
}
#endif

#if SM2C_RT_WANT(dequantize_s16_f32)
void sm2c_rt_dequantize_s16_f32(const int16_t *x, float *y, int32_t n, float scale, int32_t zero_point)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = scale * (float)((int32_t)x[i] - zero_point);
}
#endif

#if SM2C_RT_WANT(add_s16) || SM2C_RT_WANT(add_bcast_s16)
/* |a + q[0]| <= 2^16 and q[3] = 15: the lifted value fits int32. */
static inline int16_t add1_s16(int32_t a, int32_t b, const int32_t *q)
{
    const int32_t lift = (int32_t)(UINT32_C(1) << q[3]);
    const int32_t sa = sm2c_rt__requant((q[0] + a) * lift, q[4], q[5]);
    const int32_t sb = sm2c_rt__requant((q[1] + b) * lift, q[6], q[7]);
    return sm2c_rt__clamp_s16(sm2c_rt__requant(sa + sb, q[8], q[9]) + q[2], q[10], q[11]);
}
#endif

#if SM2C_RT_WANT(add_s16)
void sm2c_rt_add_s16(const int16_t *a, const int16_t *b, int16_t *y, int32_t n, const int32_t *q)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = add1_s16(a[i], b[i], q);
}
#endif

#if SM2C_RT_WANT(add_bcast_s16)
/* Broadcasting as the float binary kernels do: y has `rank` dims, the
** operands' strides sa and sb (0 along a broadcast dim), last dim fastest. */
void sm2c_rt_add_bcast_s16(const int16_t *a, const int16_t *b, int16_t *y, int32_t rank, const int32_t *dims,
                           const int32_t *sa, const int32_t *sb, const int32_t *q)
{
    int32_t idx[SM2C_RT_MAX_RANK] = { 0 };
    ptrdiff_t n = 1, oa = 0, ob = 0;
    for (int32_t k = 0; k < rank; k++)
        n *= dims[k];
    const int32_t last = rank - 1, run = rank > 0 ? dims[last] : 1;
    const ptrdiff_t ra = rank > 0 ? sa[last] : 0, rb = rank > 0 ? sb[last] : 0;
    for (ptrdiff_t i = 0; i < n; i += run) {
        for (int32_t j = 0; j < run; j++)
            y[i + j] = add1_s16(a[oa + j * ra], b[ob + j * rb], q);
        for (int32_t k = last - 1; k >= 0; k--) {
            oa += sa[k], ob += sb[k];
            if (++idx[k] < dims[k])
                break;
            oa -= (ptrdiff_t)sa[k] * dims[k], ob -= (ptrdiff_t)sb[k] * dims[k];
            idx[k] = 0;
        }
    }
}
#endif

#if SM2C_RT_WANT(requantize_s16)
void sm2c_rt_requantize_s16(const int16_t *x, int16_t *y, int32_t n, int32_t mult, int32_t shift)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__clamp_s16(sm2c_rt__requant(x[i], mult, shift), -32768, 32767);
}
#endif

#if SM2C_RT_WANT(clamp_s16)
void sm2c_rt_clamp_s16(const int16_t *x, int16_t *y, int32_t n, int32_t lo, int32_t hi)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__clamp_s16(x[i], lo, hi);
}
#endif
