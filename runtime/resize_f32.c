/*
** resize_f32.c: ResizeBilinear and ResizeNearestNeighbor, NHWC, parameters
** p[] = [N, H, W, C, OH, OW, align_corners, half_pixel_centers].
**
** Both follow TensorFlow's CPU kernels (core/kernels/image/resize_*_op.cc and
** core/util/image_resizer_state.h), in float as they are:
**     scale = align_corners && out > 1 ? (in - 1) / (float)(out - 1) : in / (float)out
**  - bilinear: src = half_pixel ? (i + 0.5f) * scale - 0.5f : i * scale;
**    lower = max(floor(src), 0), upper = min(ceil(src), in - 1),
**    lerp = src - floor(src); top = tl + (tr - tl) * xl,
**    bottom = bl + (br - bl) * xl, y = top + (bottom - top) * yl.
**    An unchanged size copies the input.
**  - nearest: src = half_pixel ? (i + 0.5f) * scale : i * scale;
**    index = min(align_corners ? roundf(src) : floorf(src), in - 1), and
**    max(index, 0) with half_pixel.
** Source indices are bounded by the clamps before any float-to-int
** conversion can overflow (reliability.md rule 6): |src| <= in.
*/
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

static float resize_scale(int32_t in, int32_t out, int32_t align)
{
    return align && out > 1 ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
}

typedef struct lerp_at {
    int32_t lower, upper;
    float lerp;
} lerp_at;

static inline lerp_at bilinear_at(int32_t i, float scale, int32_t in, int32_t half)
{
    const float src = half ? ((float)i + 0.5f) * scale - 0.5f : (float)i * scale;
    const float fl = floorf(src);
    const float ce = ceilf(src);
    lerp_at a;
    a.lower = fl > 0.0f ? (int32_t)fl : 0;
    a.upper = ce < (float)(in - 1) ? (int32_t)ce : in - 1;
    a.lerp = src - fl;
    return a;
}

#if SM2C_RT_WANT(resize_bilinear_f32)
void sm2c_rt_resize_bilinear_f32(const float *x, float *y, const int32_t *p)
{
    const int32_t N = p[0], H = p[1], W = p[2], C = p[3], OH = p[4], OW = p[5];
    const int32_t half = p[7];
    const float sh = resize_scale(H, OH, p[6]), sw = resize_scale(W, OW, p[6]);
    int32_t n, oy, ox, c;

    if (OH == H && OW == W) {
        memcpy(y, x, (size_t)N * H * W * C * sizeof(float));
        return;
    }
    for (n = 0; n < N; n++)
        for (oy = 0; oy < OH; oy++) {
            const lerp_at ya = bilinear_at(oy, sh, H, half);
            const float *top = x + (((ptrdiff_t)n * H + ya.lower) * W) * C;
            const float *bot = x + (((ptrdiff_t)n * H + ya.upper) * W) * C;
            for (ox = 0; ox < OW; ox++) {
                const lerp_at xa = bilinear_at(ox, sw, W, half);
                float *yp = y + (((ptrdiff_t)n * OH + oy) * OW + ox) * C;
                for (c = 0; c < C; c++) {
                    const float tl = top[(ptrdiff_t)xa.lower * C + c], tr = top[(ptrdiff_t)xa.upper * C + c];
                    const float bl = bot[(ptrdiff_t)xa.lower * C + c], br = bot[(ptrdiff_t)xa.upper * C + c];
                    const float t = tl + (tr - tl) * xa.lerp;
                    const float b = bl + (br - bl) * xa.lerp;
                    yp[c] = t + (b - t) * ya.lerp;
                }
            }
        }
}
#endif

static inline int32_t nearest_at(int32_t i, float scale, int32_t in, int32_t align, int32_t half)
{
    const float src = half ? ((float)i + 0.5f) * scale : (float)i * scale;
    const float r = align ? roundf(src) : floorf(src);
    int32_t k = r < (float)(in - 1) ? (int32_t)r : in - 1;
    return half && k < 0 ? 0 : k;
}

#if SM2C_RT_WANT(resize_nearest_f32)
void sm2c_rt_resize_nearest_f32(const float *x, float *y, const int32_t *p)
{
    const int32_t N = p[0], H = p[1], W = p[2], C = p[3], OH = p[4], OW = p[5];
    const float sh = resize_scale(H, OH, p[6]), sw = resize_scale(W, OW, p[6]);
    int32_t n, oy, ox;

    for (n = 0; n < N; n++)
        for (oy = 0; oy < OH; oy++) {
            const int32_t iy = nearest_at(oy, sh, H, p[6], p[7]);
            for (ox = 0; ox < OW; ox++) {
                const int32_t ix = nearest_at(ox, sw, W, p[6], p[7]);
                memcpy(y + (((ptrdiff_t)n * OH + oy) * OW + ox) * C,
                       x + (((ptrdiff_t)n * H + iy) * W + ix) * C, (size_t)C * sizeof(float));
            }
        }
}
#endif
