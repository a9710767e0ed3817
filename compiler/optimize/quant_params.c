/*
** quant_params.c: scales, zero points and multipliers for --quantize int8,
** computed as TFLite's converter and kernels' Prepare compute them, so that
** the int8 program matches TFLite's bit for bit given the same ranges.
*/
#include "quant.h"

#include <math.h>
#include <stdlib.h>

#include "base/grow.h"

int sm2c_qparam_from_range(float min, float max, sm2c_qparam *out)
{
    if (!isfinite(min) || !isfinite(max) || min > max)
        return 0;
    double lo = min < 0 ? min : 0, hi = max > 0 ? max : 0;
    double scale = (hi - lo) / 255.0;
    if (!(scale > 0))
        scale = 1.0 / 255.0;   /* an all-zero value: any scale represents it */
    double zp_from_min = -128.0 - lo / scale;
    int32_t zp = zp_from_min <= -128.0 ? -128 : zp_from_min >= 127.0 ? 127 : (int32_t)round(zp_from_min);
    out->scale = (float)scale;
    out->zero_point = zp;
    out->min = min;
    out->max = max;
    return isfinite(out->scale) && out->scale > 0;
}

void sm2c_quantize_multiplier(double real, int32_t *m, int32_t *shift)
{
    if (real == 0.0 || !isfinite(real)) {
        *m = 0, *shift = 0;
        return;
    }
    int e;
    double q = frexp(real, &e);
    int64_t fixed = (int64_t)round(q * 2147483648.0);
    if (fixed == (INT64_C(1) << 31)) {
        fixed /= 2;
        e++;
    }
    if (e < -31) {
        e = 0;
        fixed = 0;
    }
    *m = (int32_t)fixed;
    *shift = e;
}

/* amax[ch] = max |w| over channel ch (the channel of flat index i being
** (i / inner) % n_channels), in float; NaN is skipped, an empty range 0. */
static void channel_amax(const float *w, int64_t n, int32_t n_channels, int64_t inner, float *amax)
{
    for (int32_t ch = 0; ch < n_channels; ch++)
        amax[ch] = 0.0f;
    for (int64_t i = 0; i < n; i++) {
        float a = fabsf(w[i]);
        int32_t ch = (int32_t)((i / inner) % n_channels);
        if (a > amax[ch])   /* NaN fails */
            amax[ch] = a;
    }
}

void sm2c_quantize_weights(const float *w, int64_t n, int32_t n_channels, int64_t inner, int8_t *q,
                           float *scales)
{
    channel_amax(w, n, n_channels, inner, scales);
    for (int32_t ch = 0; ch < n_channels; ch++)
        scales[ch] = scales[ch] > 0 && isfinite(scales[ch]) ? scales[ch] / 127.0f : 1.0f;
    /* TFLite's SymmetricPerChannelQuantizeValues: the inverse scale in double
    ** rounded to float, and the float product rounded; dividing by the scale
    ** instead differs on weights near a half step (88 of 2048 such weights). */
    for (int64_t i = 0; i < n; i++) {
        const float inv = (float)(1.0 / (double)scales[(i / inner) % n_channels]);
        float r = roundf(w[i] * inv);
        q[i] = (int8_t)(r != r ? 0 : r > 127.0f ? 127 : r < -127.0f ? -127 : (int32_t)r);
    }
}

void sm2c_quantize_weights_drq(const float *w, int64_t n, int32_t n_channels, int64_t inner, int8_t *q,
                               float *scales)
{
    double *amax = calloc((size_t)n_channels + 1, sizeof *amax);
    if (!amax)
        sm2c_out_of_memory();
    for (int64_t i = 0; i < n; i++) {
        double a = fabs((double)w[i]);
        int32_t ch = (int32_t)((i / inner) % n_channels);
        if (a > amax[ch])   /* NaN fails: an empty range stays 0 */
            amax[ch] = a;
    }
    for (int32_t ch = 0; ch < n_channels; ch++) {
        if (!isfinite(amax[ch]))
            amax[ch] = 0;
        if (2.0 * amax[ch] < 1e-6)  /* ExpandVerySmallRange */
            amax[ch] = 5e-7;
        amax[ch] = 2.0 * amax[ch] / 254.0;   /* the scale, in double */
        scales[ch] = (float)amax[ch];
    }
    for (int64_t i = 0; i < n; i++) {
        double r = round((double)w[i] / amax[(i / inner) % n_channels]);
        q[i] = (int8_t)(r != r ? 0 : r > 127.0 ? 127 : r < -127.0 ? -127 : (int32_t)r);
    }
    free(amax);
}

void sm2c_quantize_weights_s4(const float *w, int64_t n, int32_t n_channels, int64_t inner, int8_t *q,
                              float *scales)
{
    channel_amax(w, n, n_channels, inner, scales);
    for (int32_t ch = 0; ch < n_channels; ch++) {
        float a = isfinite(scales[ch]) ? scales[ch] : 0.0f;
        scales[ch] = (a > 1e-9f ? a : 1e-9f) / 7.0f;   /* np.maximum(bound, 1e-9) / qmax, float32 */
    }
    for (int64_t i = 0; i < n; i++) {
        float r = nearbyintf(w[i] / scales[(i / inner) % n_channels]);  /* np.rint: ties to even */
        q[i] = (int8_t)(r != r ? 0 : r > 7.0f ? 7 : r < -8.0f ? -8 : (int32_t)r);
    }
}

int32_t sm2c_quantize_one_in(float x, const sm2c_qparam *p, int32_t lo, int32_t hi)
{
    float r = roundf(x / p->scale);
    int32_t v = r != r ? 0 : r > 1e6f ? 1000000 : r < -1e6f ? -1000000 : (int32_t)r;
    v += p->zero_point;
    return v < lo ? lo : v > hi ? hi : v;
}

int32_t sm2c_quantize_one(float x, const sm2c_qparam *p)
{
    return sm2c_quantize_one_in(x, p, -128, 127);
}

int sm2c_qparam16_from_range(float min, float max, sm2c_qparam *out)
{
    if (!isfinite(min) || !isfinite(max) || min > max)
        return 0;
    const float lo = min < 0.0f ? min : 0.0f, hi = max > 0.0f ? max : 0.0f;
    float scale = (fabsf(hi) > fabsf(lo) ? fabsf(hi) : fabsf(lo)) / 32767.0f;
    if (!(scale > 0.0f))
        scale = 1.0f / 32767.0f;   /* an all-zero value: any scale represents it */
    out->scale = scale;
    out->zero_point = 0;
    out->min = min;
    out->max = max;
    return isfinite(out->scale) && out->scale > 0;
}

/* LUTPopulate<int16_t>'s input and output ranges: input_scale * (int16
** bounds - input_zero_point), output_scale * int16 bounds, in double. */
static double lut16_fn(int fn, double v)
{
    return fn == SM2C_LUT16_EXP ? exp(v) : 1.0 / (1.0 + v);
}

void sm2c_lut16_table(int fn, int16_t *table)
{
    const double range = 65535.0;
    const double in_scale = fn == SM2C_LUT16_EXP ? 10.0 / range : 1.0 / range;
    const double in_zp = fn == SM2C_LUT16_EXP ? 32767.0 : -32768.0, out_scale = 2.0 / range;
    const double in_min = in_scale * (-32768.0 - in_zp), in_max = in_scale * (32767.0 - in_zp);
    const double out_min = out_scale * -32768.0, out_max = out_scale * 32767.0;
    const int steps = 512;
    const double step = (in_max - in_min) / steps, half = step / 2;
    const double inv = 65536.0 / (out_max - out_min);
    for (int i = 0; i < steps; i++) {
        const double val = lut16_fn(fn, in_min + i * step);
        const double mid = lut16_fn(fn, in_min + i * step + half);
        const double next = lut16_fn(fn, in_min + (i + 1) * step);
        const double sample = round(val * inv);
        const double interp = round((next * inv + round(val * inv)) / 2);
        const double bias = round((interp - round(mid * inv)) / 2);
        const double v = sample - bias;
        table[i] = (int16_t)(v < -32768.0 ? -32768.0 : v > 32767.0 ? 32767.0 : v);
    }
    const double last = round(lut16_fn(fn, in_max) * inv);
    table[steps] = (int16_t)(last < -32768.0 ? -32768.0 : last > 32767.0 ? 32767.0 : last);
}

void sm2c_mean_params(float in_scale, float out_scale, int64_t r, int32_t *m, int32_t *shift)
{
    sm2c_quantize_multiplier((double)in_scale / (double)out_scale, m, shift);
    if (r <= 0)
        return;
    int32_t bits = 0;   /* floor(log2(r)), at most 32 and 31 + shift */
    while (bits < 62 && (INT64_C(1) << (bits + 1)) <= r)
        bits++;
    bits = bits < 32 ? bits : 32;
    bits = bits < 31 + *shift ? bits : 31 + *shift;
    *m = (int32_t)(((int64_t)*m * (INT64_C(1) << bits)) / r);
    *shift -= bits;
}

int sm2c_softmax_params(float in_scale, int32_t *m, int32_t *left_shift, int32_t *diff_min)
{
    const int integer_bits = 5;
    double real = (double)in_scale * (double)(INT64_C(1) << (31 - integer_bits));
    if (real > (double)INT32_MAX)
        real = (double)INT32_MAX;
    sm2c_quantize_multiplier(real, m, left_shift);
    if (*left_shift < 0 || *left_shift > 31 || *m == 0)
        return 0;
    /* The largest |x - max| whose rescaled value fits Q5.26. */
    double radius = (double)((1 << integer_bits) - 1) * (double)(INT64_C(1) << (31 - integer_bits)) /
                    (double)(INT64_C(1) << *left_shift);
    *diff_min = -(int32_t)floor(radius);
    return 1;
}

static float lut_fn(int fn, float x)
{
    return fn == SM2C_LUT_TANH ? tanhf(x) : 1.0f / (1.0f + expf(-x));
}

void sm2c_lut_table(int fn, const sm2c_qparam *in, const sm2c_qparam *out, int8_t *table)
{
    const float inverse_scale = 1.0f / out->scale;
    for (int32_t q = -128; q <= 127; q++) {
        const float real = in->scale * (float)(q - in->zero_point);
        const float r = roundf(lut_fn(fn, real) * inverse_scale);
        float v = r + (float)out->zero_point;
        v = v < -128.0f ? -128.0f : v > 127.0f ? 127.0f : v;
        table[q + 128] = (int8_t)(int32_t)v;
    }
}

/* ---- HardSwish: TFLite's 16-bit fixed point, one input value at a time ---------- */

static int32_t q15_mul_round(int32_t a, int32_t b)   /* gemmlowp's int16 SaturatingRoundingDoublingHighMul */
{
    if (a == INT16_MIN && b == INT16_MIN)
        return INT16_MAX;
    int32_t ab = a * b;
    return (ab + (ab >= 0 ? (1 << 14) : 1 - (1 << 14))) / (1 << 15);
}

static int32_t q15_mul_trunc(int32_t a, int32_t b)   /* SaturatingDoublingHighMul: rounds toward zero */
{
    if (a == INT16_MIN && b == INT16_MIN)
        return INT16_MAX;
    return (int16_t)((a * b) / (1 << 15));
}

static int32_t shl16_sat(int32_t v, int32_t amount)
{
    int64_t r = (int64_t)v * ((int64_t)1 << amount);
    return r > INT16_MAX ? INT16_MAX : r < INT16_MIN ? INT16_MIN : (int32_t)r;
}

static int32_t rdbpot(int32_t x, int32_t e)
{
    const int32_t mask = (int32_t)((UINT32_C(1) << e) - 1u);
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> e) + ((x & mask) > threshold ? 1 : 0);
}

/* TFLite's DownScaleInt32ToInt16Multiplier. */
static int32_t q31_to_q15(int32_t m)
{
    return m >= INT32_MAX - (1 << 15) ? INT16_MAX : (m + (1 << 15)) >> 16;
}

int sm2c_hard_swish_table(const sm2c_qparam *in, const sm2c_qparam *out, int8_t *table)
{
    const float hires_scale = (1.0f / 128.0f) * in->scale;
    int32_t out_m, out_exp, relu_m, relu_exp;
    sm2c_quantize_multiplier((double)(hires_scale / out->scale), &out_m, &out_exp);
    sm2c_quantize_multiplier((double)(hires_scale / (3.0f / 32768.0f)), &relu_m, &relu_exp);
    if (out_exp > 0 || out_exp < -15 || relu_exp < -15 || relu_exp > 16)   /* int16 shifts */
        return 0;
    out_m = q31_to_q15(out_m), relu_m = q31_to_q15(relu_m);
    for (int32_t q = -128; q <= 127; q++) {
        const int32_t hires = (int16_t)((q - in->zero_point) * 128);
        const int32_t preshift = q15_mul_round(hires, out_m);
        int32_t relu = hires;
        if (relu_exp > 0)
            relu = shl16_sat(relu, relu_exp - 1);
        relu = q15_mul_round(relu, relu_m);
        if (relu_exp > 0)
            relu = shl16_sat(relu, 1);
        if (relu_exp < 0)
            relu = rdbpot(relu, -relu_exp);
        relu = (int16_t)((relu + (1 << 15)) >> 1);
        int32_t v = rdbpot(q15_mul_trunc(relu, preshift), -out_exp) + out->zero_point;
        table[q + 128] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
    }
    return 1;
}
