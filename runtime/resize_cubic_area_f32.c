/*
** resize_cubic_area_f32.c: ResizeBicubic and ResizeArea, NHWC float32, with
** resize_f32.c's parameters p[] = [N, H, W, C, OH, OW, align_corners,
** half_pixel_centers] (ResizeArea has no half_pixel_centers: 0).
**
** Both follow TensorFlow's CPU kernels (core/kernels/image/resize_bicubic_op.cc,
** resize_area_op.cc), in float as they are, with
**     scale = align_corners && out > 1 ? (in - 1) / (float)(out - 1) : in / (float)out.
**  - bicubic: src = half_pixel ? (i + 0.5f) * scale - 0.5f : i * scale;
**    k = floor(src), offset = lrintf((src - k) * 1024); the four taps k-1..k+2
**    (clamped into the image) weigh the cubic-convolution coefficients TF
**    tabulates at offset / 1024, recomputed here by its formula in double:
**    Keys' a = -0.5 with half_pixel_centers, where taps outside the image
**    weigh 0 and the weights are renormalised to sum 1; else the legacy
**    a = -0.75 with clamped taps.  Each column of taps is interpolated down
**    first (v = sum of rows times row weights), then across.
**  - area: output pixel (y, x) averages the input cells its box
**    [y * scale, (y + 1) * scale) x [...] covers, each weighted by the part it
**    covers: per row, first cell * its x part + the whole cells + last cell
**    * its x part, that times the row's y part, summed over rows, times
**    1 / (scale_h * scale_w) (a double division, as TF's).
** Tap and cell indices are clamped before use; float-to-int conversions see
** only values bounded by the image size (reliability.md rule 6).
*/
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "sm2c_rt.h"
#include "rt_select.h"

static inline float rs_scale(int32_t in, int32_t out, int32_t align)
{
    return align && out > 1 ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
}

static inline int32_t rs_bound(int64_t v, int32_t limit)
{
    return v < 0 ? 0 : v > limit - 1 ? limit - 1 : (int32_t)v;
}

#if SM2C_RT_WANT(resize_bicubic_f32)
#define CUBIC_TABLE 1024

/* TF's coefficient table entries 2*i and 2*i+1 (InitCoeffsTable). */
static float cubic_near(double a, int32_t i)
{
    const float x = (float)(i * 1.0 / CUBIC_TABLE);
    return (float)(((a + 2) * x - (a + 3)) * x * x + 1);
}

static float cubic_far(double a, int32_t i)
{
    float x = (float)(i * 1.0 / CUBIC_TABLE);
    x = (float)(x + 1.0);
    return (float)(((a * x - 5 * a) * x + 8 * a) * x - 4 * a);
}

typedef struct taps {
    int32_t at[4];
    float w[4];
} taps;

static taps cubic_taps(int32_t i, float scale, int32_t limit, int32_t half)
{
    taps t;
    const float src = half ? ((float)i + 0.5f) * scale - 0.5f : (float)i * scale;
    const float fl = floorf(src);
    /* |src| <= limit: the conversion is defined. */
    const int64_t k = (int64_t)fl;
    const float delta = src - (float)k;
    int32_t off = (int32_t)lrintf(delta * CUBIC_TABLE);
    int j;
    if (off < 0)
        off = 0;
    if (off > CUBIC_TABLE)
        off = CUBIC_TABLE;
    const double a = half ? -0.5 : -0.75;
    t.w[0] = cubic_far(a, off);
    t.w[1] = cubic_near(a, off);
    t.w[2] = cubic_near(a, CUBIC_TABLE - off);
    t.w[3] = cubic_far(a, CUBIC_TABLE - off);
    for (j = 0; j < 4; j++)
        t.at[j] = rs_bound(k - 1 + j, limit);
    if (half) {
        float sum;
        for (j = 0; j < 4; j++)
            if (t.at[j] != k - 1 + j)
                t.w[j] = 0.0f;
        sum = t.w[0] + t.w[1] + t.w[2] + t.w[3];
        if (fabsf(sum) >= 1000.0f * FLT_MIN) {
            const float inv = 1.0f / sum;
            for (j = 0; j < 4; j++)
                t.w[j] *= inv;
        }
    }
    return t;
}

void sm2c_rt_resize_bicubic_f32(const float *x, float *y, const int32_t *p)
{
    const int32_t N = p[0], H = p[1], W = p[2], C = p[3], OH = p[4], OW = p[5];
    const int32_t half = p[7];
    const float sh = rs_scale(H, OH, p[6]), sw = rs_scale(W, OW, p[6]);
    int32_t n, oy, ox, c, j;

    for (n = 0; n < N; n++)
        for (oy = 0; oy < OH; oy++) {
            const taps ty = cubic_taps(oy, sh, H, half);
            const float *row[4];
            for (j = 0; j < 4; j++)
                row[j] = x + ((ptrdiff_t)n * H + ty.at[j]) * W * C;
            for (ox = 0; ox < OW; ox++) {
                const taps tx = cubic_taps(ox, sw, W, half);
                float *yp = y + (((ptrdiff_t)n * OH + oy) * OW + ox) * C;
                for (c = 0; c < C; c++) {
                    float v[4];
                    for (j = 0; j < 4; j++) {
                        const ptrdiff_t at = (ptrdiff_t)tx.at[j] * C + c;
                        v[j] = row[0][at] * ty.w[0] + row[1][at] * ty.w[1] + row[2][at] * ty.w[2] +
                               row[3][at] * ty.w[3];
                    }
                    yp[c] = v[0] * tx.w[0] + v[1] * tx.w[1] + v[2] * tx.w[2] + v[3] * tx.w[3];
                }
            }
        }
}
#endif

#if SM2C_RT_WANT(resize_area_f32)
/* The part of cell i inside [lo, hi) (TF's start_scale / scale_y). */
static inline float area_part(int64_t i, float lo, float hi, float scale)
{
    if ((float)i < lo)
        return (float)(i + 1) > hi ? scale : (float)(i + 1) - lo;
    return (float)(i + 1) > hi ? hi - (float)i : 1.0f;
}

void sm2c_rt_resize_area_f32(const float *x, float *y, const int32_t *p)
{
    const int32_t N = p[0], H = p[1], W = p[2], C = p[3], OH = p[4], OW = p[5];
    const float sh = rs_scale(H, OH, p[6]), sw = rs_scale(W, OW, p[6]);
    const float scale = (float)(1.0 / (double)(sh * sw));
    int32_t n, oy, ox, c;

    for (n = 0; n < N; n++)
        for (oy = 0; oy < OH; oy++) {
            const float in_y = (float)oy * sh, in_y1 = (float)(oy + 1) * sh;
            /* 0 <= in_y < in_y1 <= H + 1 (float rounding): bounded conversions. */
            const int64_t y0 = (int64_t)floorf(in_y), y1 = (int64_t)ceilf(in_y1);
            for (ox = 0; ox < OW; ox++) {
                const float in_x = (float)ox * sw, in_x1 = (float)(ox + 1) * sw;
                const int64_t x0 = (int64_t)floorf(in_x), x1 = (int64_t)ceilf(in_x1);
                const float first = area_part(x0, in_x, in_x1, sw);
                const float last = area_part(x1 - 1, in_x, in_x1, sw);
                float *yp = y + (((ptrdiff_t)n * OH + oy) * OW + ox) * C;
                for (c = 0; c < C; c++) {
                    float sum = 0.0f;
                    int64_t i, k;
                    for (i = y0; i < y1; i++) {
                        const float *r = x + ((ptrdiff_t)n * H + rs_bound(i, H)) * W * C + c;
                        float sum_y = r[(ptrdiff_t)rs_bound(x0, W) * C] * first;
                        if (x0 + 1 != x1) {
                            for (k = x0 + 1; k < x1 - 1; k++)
                                sum_y += r[(ptrdiff_t)rs_bound(k, W) * C];
                            sum_y += r[(ptrdiff_t)rs_bound(x1 - 1, W) * C] * last;
                        }
                        sum += sum_y * area_part(i, in_y, in_y1, sh);
                    }
                    yp[c] = sum * scale;
                }
            }
        }
}
#endif
