/*
** conv_packed_s8.c: int8 Conv2D without groups (--quantize int8) whose
** filter the compiler stored in the layout the dot-product kernels read
** (conv_pack_s8.h: blocks of 16 output channels, groups of 4 reduction
** values, 64 bytes each, sets of 4 blocks' groups together) and whose bias it folded:
**
**     bias'[o] = bias[o] - (in_zp + 128) * (sum of filter column o)
**     acc      = bias'[o] + sum over every tap of w * (x' + 128)
**
** x' the input inside and in_zp in the padding, so a tap in the padding adds
** what the folded bias takes back, and acc is TFLite's bias + sum over the
** taps inside of w * (x - in_zp), the same integer: every path gives
** sm2c_rt_conv2d_s8's bits (tests/kernels/test_q8.c).  Nothing is repacked
** or summed per call but SDOT's filter sums (conv_pack_sdot_s8.h).
**
** Paths: AVX-512 VNNI (conv_pack_vnni_s8.h), AVX2 (conv_pack_avx2_s8.h),
** AArch64 SDOT (conv_pack_sdot_s8.h), and this file's portable loops, one
** pixel by 16 channels, which compilers vectorise.  Cortex-M targets get
** conv2d_ohwi_s8 instead (ops_q8.c); the portable loops serve them all the
** same.  The compiler proves that acc fits in int32 (reliability.md 6.5),
** w * (x' + 128) is within its k * 127 * 255, and so is every partial sum.
** sm2c_rt_conv2d_packed_s8_frq is the same with the float requantization
** (q8_vec.h; --requantize float), and sm2c_rt_conv2d_packed_s8_nearest with
** TFLite FullyConnected's one rounding: the compiler lowers a quantized
** MatMul to it as a 1x1 convolution (ops_q8.c).
*/
#include <stddef.h>
#include <stdint.h>

#include "conv_block_s8.h"
#include "conv_pack_avx2_s8.h"
#include "conv_pack_s8.h"
#include "conv_pack_sdot_s8.h"
#include "conv_pack_vnni_s8.h"
#include "q8_vec.h"
#include "rt_select.h"
#include "simd_f32.h" /* SM2C_RT_VECTORISE */
#include "sm2c_rt.h"

/* acc[j] = sum over every tap of w * (x' + 128) for the 16 channels of
** block b at the pixel whose tap (0, 0) is (ih, iw). */
SM2C_RT_VECTORISE static void c8p_pixel(const c8_geom *g, int32_t b, int64_t ih, int64_t iw,
                                        int32_t *restrict acc)
{
    const int32_t L = g->KW * g->C;
    ptrdiff_t step;
    const int8_t *blk = c8p_block(g, b, &step);
    for (int32_t j = 0; j < 16; j++)
        acc[j] = 0;
    for (int32_t kh = 0; kh < g->KH; kh++) {
        const int64_t h = ih + (int64_t)kh * g->DH;
        const int8_t *run = c8p_row(g, h, iw);
        for (int32_t k = 0; k < L; k += 4, blk += step) {
            const uint32_t v = c8p_word(g, run, h, iw, k);
            const int32_t x0 = (int32_t)((v & 0xFFu) ^ 0x80u), x1 = (int32_t)(((v >> 8) & 0xFFu) ^ 0x80u);
            const int32_t x2 = (int32_t)(((v >> 16) & 0xFFu) ^ 0x80u), x3 = (int32_t)((v >> 24) ^ 0x80u);
            for (int32_t j = 0; j < 16; j++)
                acc[j] += blk[4 * j] * x0 + blk[4 * j + 1] * x1 + blk[4 * j + 2] * x2 + blk[4 * j + 3] * x3;
        }
    }
}

/* One image, pixel by pixel, block by block. */
static void c8p_portable(const c8_geom *g, int32_t OH, const q8_out *q, int8_t *y)
{
    int32_t acc[16];
    for (int32_t oh = 0; oh < OH; oh++)
        for (int32_t ow = 0; ow < g->OW; ow++, y += g->OC)
            for (int32_t o0 = 0; o0 < g->OC; o0 += 16) {
                c8p_pixel(g, o0 / 16, (int64_t)oh * g->SH - g->PT, (int64_t)ow * g->SW - g->PL,
                          acc);
                q8_store(acc, o0, g->OC - o0 < 16 ? g->OC - o0 : 16, q, y + o0);
            }
}

static void c8p_conv(const int8_t *x, const int8_t *w, int8_t *y, const int32_t *p, int32_t in_zp,
                     const q8_out *q)
{
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t OH = p[SM2C_RT_WIN_OH], M = OH * p[SM2C_RT_WIN_OW], OC = p[SM2C_RT_WIN_OC];
    c8_geom g = {x, w, H, W, C, p[SM2C_RT_WIN_KH], p[SM2C_RT_WIN_KW], p[SM2C_RT_WIN_SH], p[SM2C_RT_WIN_SW],
                 p[SM2C_RT_WIN_DH], p[SM2C_RT_WIN_DW], p[SM2C_RT_WIN_PT], p[SM2C_RT_WIN_PL],
                 p[SM2C_RT_WIN_OW], OC, in_zp};
    for (int32_t n = 0; n < N; n++) {
        int8_t *yn = y + (ptrdiff_t)n * M * OC;
        g.x = x + (ptrdiff_t)n * H * W * C;
#if SM2C_RT_VNNI
        if (c8p_vnni_fits(&g)) {
            c8p_vnni(&g, M, c8p_inside(p), q, yn);
            continue;
        }
#endif
        if (!c8p_avx2(&g, M, q, yn) && !c8p_sdot(&g, M, q, yn))
            c8p_portable(&g, OH, q, yn);
    }
}

#if SM2C_RT_WANT(conv2d_packed_s8)
void sm2c_rt_conv2d_packed_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                              const int32_t *p, const int32_t *mult, const int32_t *shift, int32_t in_zp,
                              int32_t out_zp, int32_t act_min, int32_t act_max)
{
    const q8_out q = {bias, mult, shift, out_zp, act_min, act_max, NULL, 0};
    c8p_conv(x, w, y, p, in_zp, &q);
}
#endif

#if SM2C_RT_WANT(conv2d_packed_s8_nearest)
void sm2c_rt_conv2d_packed_s8_nearest(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                      const int32_t *p, const int32_t *mult, const int32_t *shift, int32_t in_zp,
                                      int32_t out_zp, int32_t act_min, int32_t act_max)
{
    const q8_out q = {bias, mult, shift, out_zp, act_min, act_max, NULL, 1};
    c8p_conv(x, w, y, p, in_zp, &q);
}
#endif

#if SM2C_RT_WANT(conv2d_packed_s8_frq)
void sm2c_rt_conv2d_packed_s8_frq(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                  const int32_t *p, const float *scale, int32_t in_zp, int32_t out_zp,
                                  int32_t act_min, int32_t act_max)
{
    const q8_out q = {bias, NULL, NULL, out_zp, act_min, act_max, scale, 0};
    c8p_conv(x, w, y, p, in_zp, &q);
}
#endif
