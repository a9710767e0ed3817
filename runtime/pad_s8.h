/*
** pad_s8.h: the walk over an int8 convolution's padded input copy
** (compiler/ops/conv_pad.c), shared by sm2c_rt_pad_copy_s8 (pad_copy_s8.c)
** and sm2c_rt_quantize_pad_f32_s8 (quantize_s8.c), which differ only in how
** a row's pixels reach the copy.  Private to the runtime.
**
** d = {N, H, W, C, HP, WP, PT, PL, CP}: x [N, H, W, C] (elements of `elem`
** bytes) into y [N, HP, WP, CP], x's pixel (h, w) at (h + PT, w + PL), fill
** elsewhere and in the channels past C.
*/
#ifndef SM2C_RT_PAD_S8_H
#define SM2C_RT_PAD_S8_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* n pixels of c channels from x into pixels of cp >= c channels at y, the
** channels past c set to fill. */
static inline void sm2c_rt__pad_pixels_s8(const int8_t *x, int8_t *y, int32_t n, int32_t c, int32_t cp, int8_t fill)
{
    if (c == cp) {
        memcpy(y, x, (size_t)n * (size_t)c);
        return;
    }
    if (c == 3 && cp == 4 && n > 0) { /* a first layer's RGB: a word per pixel */
        int32_t i = 0;
        for (; i + 1 < n; i++, x += 3, y += 4) { /* the word's 4th byte is the next pixel's */
            int8_t v[4];
            memcpy(v, x, 4);
            v[3] = fill;
            memcpy(y, v, 4);
        }
        y[0] = x[0], y[1] = x[1], y[2] = x[2], y[3] = fill;
        return;
    }
    for (int32_t i = 0; i < n; i++, x += c, y += cp) {
        memcpy(y, x, (size_t)c);
        memset(y + c, fill, (size_t)(cp - c));
    }
}

/* sm2c_rt__pad_pixels_s8's job for the walk's caller: x's elements are the
** caller's, as is ctx. */
typedef void (*sm2c_rt__pad_pixels_fn)(const void *x, int8_t *y, int32_t n, int32_t c, int32_t cp, int8_t fill,
                                       const void *ctx);

static inline void sm2c_rt__pad_walk_s8(const void *x, size_t elem, int8_t *y, const int32_t *d, int32_t fill,
                                        sm2c_rt__pad_pixels_fn pixels, const void *ctx)
{
    const int32_t N = d[0], H = d[1], W = d[2], C = d[3], HP = d[4], WP = d[5], PT = d[6], PL = d[7];
    const int32_t CP = d[8];
    /* the rows and columns the windows reach (VALID may leave some unread) */
    const int32_t h_end = H < HP - PT ? H : HP - PT, w_end = W < WP - PL ? W : WP - PL;
    const size_t row = (size_t)WP * (size_t)CP;
    const int8_t f = (int8_t)fill;
    for (int32_t n = 0; n < N; n++)
        for (int32_t r = 0; r < HP; r++) {
            int8_t *yr = y + ((ptrdiff_t)n * HP + r) * (ptrdiff_t)row;
            const int32_t ih = r - PT;
            if (ih < 0 || ih >= h_end) {
                memset(yr, f, row);
                continue;
            }
            memset(yr, f, (size_t)PL * (size_t)CP);
            pixels((const char *)x + (((ptrdiff_t)n * H + ih) * W * C) * (ptrdiff_t)elem, yr + (ptrdiff_t)PL * CP,
                   w_end, C, CP, f, ctx);
            memset(yr + (ptrdiff_t)(PL + w_end) * CP, f, (size_t)(WP - PL - w_end) * (size_t)CP);
        }
}

#endif
