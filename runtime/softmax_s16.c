/*
** softmax_s16.c: Softmax of TFLite's 16x8 scheme (--quantize int16x8), its
** reference SoftmaxInt16: along rows of `depth` values, input zero point 0,
** output 1/32768 zero point 0.  Each x - max is rescaled by (mult, shift)
** (in_scale * beta / (10 / 65535): [-65535, 0] is [-10, 0]) and looked up
** in exp_lut; the sum's reciprocal comes from recip_lut (1 / (1 + x) on
** [0, 1]); both tables of 513 values TFLite's Prepare fills, computed by
** the compiler (quant_params.c), the lookups interpolating between entries.
*/
#include <stddef.h>
#include <stdint.h>

#include "q16_math.h"
#include "q8_math.h"
#include "sm2c_rt.h"

/* TFLite's lut_lookup_with_interpolation: 512 intervals, value >> 7 picks one. */
static inline int16_t lut16(int32_t value, const int16_t *lut)
{
    const int32_t index = 256 + (value >> 7), offset = value & 0x7f;
    const int32_t base = lut[index];
    const int16_t slope = (int16_t)(lut[index + 1] - lut[index]);
    return (int16_t)(base + ((slope * offset + 64) >> 7));
}

static inline int32_t clz32(uint32_t v)
{
    int32_t n = 0;
    if (!v)
        return 32;
    while (!(v & UINT32_C(0x80000000)))
        v <<= 1, n++;
    return n;
}

void sm2c_rt_softmax_s16(const int16_t *x, int16_t *y, int32_t rows, int32_t depth, int32_t mult, int32_t shift,
                         const int16_t *exp_lut, const int16_t *recip_lut)
{
    for (int32_t i = 0; i < rows; i++) {
        const int16_t *xr = x + (ptrdiff_t)i * depth;
        int16_t *yr = y + (ptrdiff_t)i * depth;
        int32_t max = -32768, sum = 0;
        for (int32_t c = 0; c < depth; c++)
            max = xr[c] > max ? xr[c] : max;
        for (int32_t c = 0; c < depth; c++) {   /* y holds exp(x - max) in Q0.15 */
            const int32_t scaled = sm2c_rt__requant(xr[c] - max, mult, shift) + 32767;
            yr[c] = lut16(sm2c_rt__clamp_s16(scaled, -32768, 32767), exp_lut);
            sum += yr[c];
        }
        const int32_t headroom = clz32((uint32_t)sum);
        const int32_t shifted = (int32_t)((((int64_t)sum << (headroom - 1)) + (1 << 13)) >> 14);
        const int32_t recip = lut16(sm2c_rt__clamp_s16(shifted - ((1 << 15) + (1 << 16)), -32768, 32767),
                                    recip_lut);
        const int32_t right = 31 - headroom > 0 ? 31 - headroom : 1;   /* sum >= exp(0) = 32767 */
        const int64_t round = (int64_t)1 << (right - 1);
        for (int32_t c = 0; c < depth; c++) {
            const int32_t v = (int32_t)(((int64_t)yr[c] * recip + round) >> right);
            yr[c] = sm2c_rt__clamp_s16(v, 0, 32767);
        }
    }
}
