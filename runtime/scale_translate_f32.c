/*
** scale_translate_f32.c: ScaleAndTranslate (what tf.image.resize emits with
** antialias, or for the lanczos, gaussian and mitchellcubic methods), NHWC
** float32, as TensorFlow's CPU kernel computes it
** (core/kernels/image/scale_and_translate_op.cc, sampling_kernels.h).
**
** p[] = [N, H, W, C, OH, OW, kernel, antialias]; kernel: 0 lanczos1,
** 1 lanczos3, 2 lanczos5, 3 gaussian, 4 box, 5 triangle, 6 keyscubic,
** 7 mitchellcubic.  scale and translation are float[2] (rows, columns).
** For each output index i of a dimension, the sample point is
** s = (i + 0.5) / scale - translation / scale; the span is the input cells
** within the kernel's radius (times 1/scale when antialiasing a downscale),
** clamped to the image, weighted by the kernel at (cell + 0.5 - s) and
** normalised to sum 1 (or all 0 when the sum is tiny or s is outside the
** image).  Rows are gathered first into tmp [OH, W, C], then columns.
** starts holds OH + OW span starts, weights OH * H + OW * W floats (a span is
** at most the input size), tmp OH * W * C floats: all from the arena.
*/
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "sm2c_rt.h"

static float st_radius(int32_t kernel)
{
    static const float radius[8] = { 1.0f, 3.0f, 5.0f, 1.5f, 1.0f, 1.0f, 2.0f, 2.0f };
    return kernel >= 0 && kernel < 8 ? radius[kernel] : 1.0f;
}

static float st_kernel(int32_t kernel, float x)
{
    const float kpi = 3.14159265359f;
    x = fabsf(x);
    switch (kernel) {
    case 0: case 1: case 2: {
        const float r = st_radius(kernel);
        if (x > r)
            return 0.0f;
        if (x < 0.001f)     /* TF's x <= 1e-3 in double: 0.001f is just above 1e-3 */
            return 1.0f;
        return r * sinf(kpi * x) * sinf(kpi * x / r) / (kpi * kpi * x * x);
    }
    case 3: {
        const float sigma = 1.5f / 3.0f;
        if (x >= 1.5f)
            return 0.0f;
        /* TF evaluates exp in double here (its formula mixes in 2.0). */
        return (float)exp((double)(-x * x) / (2.0 * sigma * sigma));
    }
    case 4:
        return x < 0.5f ? 1.0f : x == 0.5f ? 0.5f : 0.0f;
    case 5:
        return x < 1.0f ? 1.0f - x : 0.0f;
    case 6:
        if (x >= 2.0f)
            return 0.0f;
        if (x >= 1.0f)
            return ((-0.5f * x + 2.5f) * x - 4.0f) * x + 2.0f;
        return ((1.5f * x - 2.5f) * x) * x + 1.0f;
    default:
        if (x >= 2.0f)
            return 0.0f;
        if (x >= 1.0f)
            return (((-7.0f / 18.0f) * x + 2.0f) * x - 10.0f / 3.0f) * x + 16.0f / 9.0f;
        return (((7.0f / 6.0f) * x - 2.0f) * x) * x + 8.0f / 9.0f;
    }
}

/* ComputeSpansCore: starts[out], weights[out * span]; returns the span size. */
static int32_t st_spans(int32_t kernel, int32_t antialias, int32_t out, int32_t in, float scale,
                        float translate, int32_t *starts, float *weights)
{
    /* TF's 1.0 / scale in double, rounded to float: the float quotient itself. */
    const float inv_scale = 1.0f / scale;
    const float inv_translate = -inv_scale * translate;
    const float kernel_scale = antialias ? (inv_scale > 1.0f ? inv_scale : 1.0f) : 1.0f;
    const float reach = st_radius(kernel) * kernel_scale;
    const float one_over_kernel_scale = 1.0f / kernel_scale;
    /* min(2 * ceil(reach) + 1, in), without converting a huge reach. */
    const float half_reach = ceilf(reach);
    const int32_t span = half_reach < (float)(in - 1) * 0.5f ? 2 * (int32_t)half_reach + 1 : in;
    int32_t i, k;

    for (i = 0; i < out * span; i++)
        weights[i] = 0.0f;
    for (i = 0; i < out; i++) {
        const float sample = ((float)i + 0.5f) * inv_scale + inv_translate;
        float *w = weights + (ptrdiff_t)i * span;
        float total = 0.0f;
        float lo, hi;
        int32_t first, last;
        starts[i] = 0;
        if (!(sample >= 0.0f) || sample > (float)in)
            continue;
        lo = ceilf(sample - reach - 0.5f);
        hi = floorf(sample + reach - 0.5f);
        first = lo < 0.0f ? 0 : lo > (float)(in - 1) ? in - 1 : (int32_t)lo;
        last = (hi < 0.0f ? 0 : hi > (float)(in - 1) ? in - 1 : (int32_t)hi) + 1;
        if (last - first > span)
            last = first + span;     /* TF reports an internal error here; never reached */
        for (k = first; k < last; k++) {
            const float pos = (float)k + 0.5f - sample;
            w[k - first] = st_kernel(kernel, fabsf(pos * one_over_kernel_scale));
            total += w[k - first];
        }
        if (fabsf(total) >= 1000.0f * FLT_MIN) {
            const float inv = 1.0f / total;
            for (k = first; k < last; k++)
                w[k - first] *= inv;
        } else {
            for (k = first; k < last; k++)
                w[k - first] = 0.0f;
        }
        starts[i] = first;
    }
    return span;
}

void sm2c_rt_scale_translate_f32(const float *x, const float *scale, const float *translation, float *y,
                                 int32_t *starts, float *weights, float *tmp, const int32_t *p)
{
    const int32_t N = p[0], H = p[1], W = p[2], C = p[3], OH = p[4], OW = p[5];
    const int32_t kernel = p[6], antialias = p[7];
    int32_t *row_starts = starts, *col_starts = starts + OH;
    float *row_w = weights, *col_w = weights + (ptrdiff_t)OH * H;
    const int32_t rspan = st_spans(kernel, antialias, OH, H, scale[0], translation[0], row_starts, row_w);
    const int32_t cspan = st_spans(kernel, antialias, OW, W, scale[1], translation[1], col_starts, col_w);
    const ptrdiff_t in_row = (ptrdiff_t)W * C, out_row = (ptrdiff_t)OW * C;
    int32_t n, i, j, k, c;

    for (n = 0; n < N; n++) {
        const float *img = x + (ptrdiff_t)n * H * in_row;
        float *out = y + (ptrdiff_t)n * OH * out_row;
        /* GatherRows: tmp row i = sum over the span of weight * input row. */
        for (i = 0; i < OH; i++) {
            float *t = tmp + (ptrdiff_t)i * in_row;
            const int32_t s = row_starts[i];
            const int32_t real = (s + rspan < H ? s + rspan : H) - s;
            for (j = 0; j < in_row; j++)
                t[j] = 0.0f;
            for (k = 0; k < real; k++) {
                const float w = row_w[(ptrdiff_t)i * rspan + k];
                const float *r = img + (ptrdiff_t)(s + k) * in_row;
                for (j = 0; j < in_row; j++)
                    t[j] += w * r[j];
            }
        }
        /* GatherColumns over tmp. */
        for (i = 0; i < OH; i++)
            for (j = 0; j < OW; j++) {
                const int32_t s = col_starts[j];
                const int32_t real = (s + cspan < W ? s + cspan : W) - s;
                const float *t = tmp + (ptrdiff_t)i * in_row + (ptrdiff_t)s * C;
                float *o = out + (ptrdiff_t)i * out_row + (ptrdiff_t)j * C;
                for (c = 0; c < C; c++)
                    o[c] = 0.0f;
                for (k = 0; k < real; k++) {
                    const float w = col_w[(ptrdiff_t)j * cspan + k];
                    for (c = 0; c < C; c++)
                        o[c] += w * t[(ptrdiff_t)k * C + c];
                }
            }
    }
}
