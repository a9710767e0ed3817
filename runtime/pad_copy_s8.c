/*
** pad_copy_s8.c: the padded copy of an int8 convolution's input that the
** compiler makes for the packed Conv2D (compiler/ops/conv_pad.c): every
** window then lies inside, and each pixel's channels are a whole number of
** 4-byte groups, so conv_packed_s8.c sets each pixel's pointers once instead
** of checking every tap for the padding.  One step rather than a fill and a
** strided copy: a copy of 3 channels into 4 moves 3 bytes per run, which the
** strided walk took 3 ns each for (ResNet-8's 32x32 input: 3.1 us).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pad_s8.h"
#include "sm2c_rt.h"

/* pad_s8.h's pixels for int8 x (ctx unused). */
static void pixels(const void *x, int8_t *y, int32_t n, int32_t c, int32_t cp, int8_t fill, const void *ctx)
{
    (void)ctx;
    sm2c_rt__pad_pixels_s8(x, y, n, c, cp, fill);
}

void sm2c_rt_pad_copy_s8(const int8_t *x, int8_t *y, const int32_t *d, int32_t fill)
{
    sm2c_rt__pad_walk_s8(x, 1, y, d, fill, pixels, NULL);
}
