/*
** fake_quant_f32.c: TensorFlow's FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars
** and FakeQuantWithMinMaxVarsPerChannel, operation for operation as its
** fake_quant_ops_functor.h computes them in float: the range is nudged so that
** 0 is exactly representable, x is clamped to it and rounded to one of the
** 2^num_bits levels (the lowest one dropped with narrow_range).  And
** QuantizeAndDequantizeV2/V3/V4 (quantize_and_dequantize_op.h): a symmetric
** scale that keeps 0 fixed, from the given range or the input's own.
*/
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "rt_select.h"
#include "sm2c_rt.h"

typedef struct sm2c_rt__nudged {
    float min, max, scale;
    float inv;          /* levels per unit: (qmax - qmin) / (max - min), not 1 / scale */
} sm2c_rt__nudged;

static inline sm2c_rt__nudged sm2c_rt__nudge(float min, float max, int32_t num_bits, int32_t narrow_range)
{
    const float qmin = narrow_range ? 1.0f : 0.0f;
    const float qmax = (float)((1 << num_bits) - 1);
    sm2c_rt__nudged r;
    r.scale = (max - min) / (qmax - qmin);
    r.inv = (qmax - qmin) / (max - min);
    const float zero_from_min = qmin - min / r.scale;
    float zero;
    if (zero_from_min < qmin)
        zero = qmin;
    else if (zero_from_min > qmax)
        zero = qmax;
    else if (zero_from_min == zero_from_min)
        zero = roundf(zero_from_min);
    else
        zero = 0.0f;  /* NaN (an infinite or NaN bound): TF's integer cast gives 0 on x86 */
    r.min = (qmin - zero) * r.scale;
    r.max = (qmax - zero) * r.scale;
    return r;
}

/* How the level is found: x * (1 / scale) + 0.5 floored (Args and per
** channel), or x / scale + 0.5 floored (Vars), as TF 2.21 computes them. */
enum { SM2C_RT__FQ_INV = 0, SM2C_RT__FQ_DIV = 1 };

static inline float sm2c_rt__fake_quant(float x, sm2c_rt__nudged r, int32_t mode)
{
    const float clamped = fmaxf(fminf(x, r.max), r.min);
    const float shifted = clamped - r.min;
    float level;
    if (mode == SM2C_RT__FQ_INV)
        level = floorf(shifted * r.inv + 0.5f);
    else
        level = floorf(shifted / r.scale + 0.5f);
    /* TF's build fuses this multiply-add in some lanes of its vector loop
    ** and not in others: the results differ in the last bit at most. */
    return level * r.scale + r.min;
}

#if SM2C_RT_WANT(fake_quant_args_f32)
void sm2c_rt_fake_quant_args_f32(const float *x, float *y, int32_t n, float min, float max, int32_t num_bits,
                                 int32_t narrow_range)
{
    const sm2c_rt__nudged r = sm2c_rt__nudge(min, max, num_bits, narrow_range);
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__fake_quant(x[i], r, SM2C_RT__FQ_INV);
}
#endif

#if SM2C_RT_WANT(fake_quant_vars_f32)
/* x viewed as [outer, channels]; min and max hold `channels` values (1 for
** per-tensor).  A channel whose min and max are both 0 gives 0, as TF does. */
void sm2c_rt_fake_quant_vars_f32(const float *x, const float *min, const float *max, float *y, int32_t outer,
                                 int32_t channels, int32_t num_bits, int32_t narrow_range, int32_t mode)
{
    for (int32_t c = 0; c < channels; c++) {
        const sm2c_rt__nudged r = sm2c_rt__nudge(min[c], max[c], num_bits, narrow_range);
        const int zero_range = min[c] == 0.0f && max[c] == 0.0f;
        for (int32_t o = 0; o < outer; o++) {
            const int64_t i = (int64_t)o * channels + c;
            y[i] = zero_range ? 0.0f : sm2c_rt__fake_quant(x[i], r, mode);
        }
    }
}
#endif

#if SM2C_RT_WANT(quantize_dequantize_f32)
/* TF's round-half-to-even and round-half-up functors, exactly (they differ
** from rintf and roundf where x + 0.5 rounds). */
static inline float sm2c_rt__round_half_even(float x)
{
    const float r = floorf(x + 0.5f);
    if (r - x == 0.5f)
        return 2.0f * floorf(0.5f * x + 0.5f);
    return r;
}

/* QuantizeAndDequantizeV2/V3/V4 over n values, per tensor.  The range is
** *min_in, *max_in when range_given, else the input's minimum and maximum. */
void sm2c_rt_quantize_dequantize_f32(const float *x, const float *min_in, const float *max_in, float *y,
                                     int32_t n, int32_t num_bits, int32_t signed_input, int32_t narrow_range,
                                     int32_t range_given, int32_t half_up)
{
    float lo = 0.0f, hi = 0.0f;
    if (range_given) {
        lo = *min_in;
        hi = *max_in;
    } else if (n > 0) {
        lo = hi = x[0];
        for (int32_t i = 1; i < n; i++) {
            lo = fminf(lo, x[i]);
            hi = fmaxf(hi, x[i]);
        }
    }
    const int64_t top = (int64_t)1 << (num_bits - 1);
    const float qmin = (float)(signed_input ? (narrow_range ? -top + 1 : -top) : 0);
    const float qmax = (float)(signed_input ? top - 1 : 2 * top - 1);
    const float from_min = qmin * lo > 0.0f ? qmin / lo : FLT_MAX;
    const float from_max = qmax * hi > 0.0f ? qmax / hi : FLT_MAX;
    float scale, inverse;
    if (from_min < from_max) {  /* the side that sets the scale keeps its bound */
        scale = from_min;
        inverse = lo / qmin;
        hi = qmax * inverse;
    } else {
        scale = from_max;
        inverse = hi / qmax;
        lo = qmin * inverse;
    }
    for (int32_t i = 0; i < n; i++) {
        const float v = fmaxf(fminf(x[i], hi), lo) * scale;
        y[i] = (half_up ? floorf(v + 0.5f) : sm2c_rt__round_half_even(v)) * inverse;
    }
}
#endif
