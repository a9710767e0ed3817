/*
** fake_quant_f32.c: TensorFlow's FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars
** and FakeQuantWithMinMaxVarsPerChannel, operation for operation as its
** fake_quant_ops_functor.h computes them in float: the range is nudged so that
** 0 is exactly representable, x is clamped to it and rounded to one of the
** 2^num_bits levels (the lowest one dropped with narrow_range).
*/
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
