/*
** pad_copy_f32.c: the zero-padded copy of a float convolution's input that
** the compiler makes where the kernel's edge pixels cost more than the copy
** (compiler/ops/conv_pad.c).  One pass, each line of the copy written once:
** a fill of the whole copy and a strided copy over it wrote the interior
** twice (ResNet-8's first layer: 0.38 us against 0.62 on one thread).
** sm2c_rt_pad_copy_f32_par (par_f32.c) splits the copy's rows, as the
** convolution after it splits (compiler/lower/split.c).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"

static void zeros(float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = 0.0f;
}

void sm2c_rt_pad_copy_f32(const float *x, float *y, const int32_t *d)
{
    const int32_t N = d[0], H = d[1], W = d[2], C = d[3], HP = d[4], WP = d[5], PT = d[6], PL = d[7];
    /* the columns the windows reach (a VALID window may leave some unread) */
    const int32_t w_end = W < WP - PL ? W : WP - PL;
    const size_t row = (size_t)WP * (size_t)C, left = (size_t)PL * (size_t)C;
    const size_t inner = w_end > 0 ? (size_t)w_end * (size_t)C : 0;

    for (int32_t n = 0; n < N; n++)
        for (int32_t r = 0; r < HP; r++) {
            float *yr = y + ((ptrdiff_t)n * HP + r) * (ptrdiff_t)row;
            const int64_t ih = (int64_t)r - PT;
            if (ih < 0 || ih >= H) {
                zeros(yr, row);
                continue;
            }
            zeros(yr, left);
            memcpy(yr + left, x + ((ptrdiff_t)n * H + ih) * W * C, inner * sizeof(float));
            zeros(yr + left + inner, row - left - inner);
        }
}
