/*
** conv_sdot_s8.h: int8 Conv2D without groups on AArch64's dot-product
** instructions (SDOT, the DotProd extension of Armv8.2-A and later; private
** to the runtime, conv_s8.c includes it).  Everything is static inline.
**
** SDOT multiplies signed bytes by signed bytes, four into each int32 lane,
** so the input goes in as it is and a tap in the padding reads in_zp:
**
**     sum over the window of w * (x - in_zp) = sum w * x' - in_zp * sum w
**
** where x' is x inside the input and in_zp in the padding; the second term
** is one filter-column sum per output channel, taken once per block of
** channels.  Vector sums wrap exactly, and the true sum and both terms fit
** int32 (reliability.md 6.5: |x'| <= 128), so the result is the C path's.
**
** A block is 4 output pixels (row-major over OH x OW) x 16 output channels,
** 16 int32x4 accumulators.  Per tap and group of 4 input channels, the 4
** filter rows of the block's channels are interleaved in registers (two
** rounds of ZIP) into the layout SDOT reads, 4 inputs per channel, and serve
** all 4 pixels; each pixel's 4 input bytes are broadcast to every lane.
** Filters keep TensorFlow's layout [KH, KW, C, OC].  simd_s8.h compiles the
** path where the compiler targets DotProd.
*/
#ifndef SM2C_RT_CONV_SDOT_S8_H
#define SM2C_RT_CONV_SDOT_S8_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "conv_block_s8.h" /* c8_geom, c8_positions, c8_word, C8_R4 */
#include "q8_vec.h"
#include "simd_s8.h" /* SM2C_RT_SDOT */
#include "sm2c_rt.h"

#if SM2C_RT_SDOT
/* The first n (<= 16) bytes of a filter row, the rest zero. */
static inline int8x16_t sd8_row(const int8_t *p, int32_t n)
{
    int8_t b[16] = { 0 };
    if (n >= 16)
        return vld1q_s8(p);
    for (int32_t i = 0; i < n; i++)
        b[i] = p[i];
    return vld1q_s8(b);
}

/* in_zp times the sum of each filter column oc0 + j (j < nr; zero past nr),
** over every tap and input channel. */
static inline void sd8_zp_sums(const c8_geom *g, int32_t oc0, int32_t nr, int32x4_t *zs)
{
    int32_t s[16] = { 0 };
    const int64_t rows = (int64_t)g->KH * g->KW * g->C;
    for (int64_t t = 0; t < rows; t++) {
        const int8_t *wt = g->w + (ptrdiff_t)t * g->OC + oc0;
        for (int32_t j = 0; j < nr; j++)
            s[j] += wt[j];
    }
    for (int32_t j = 0; j < 4; j++)
        zs[j] = vmulq_n_s32(vld1q_s32(s + 4 * j), g->in_zp);
}

/* Filter rows k .. k + 3 (those at or past nk as zeros) of channels from wt,
** nr of them: four vectors, vector j holding in lane i the four rows' values
** of channel 4j + i, as SDOT reads them. */
static inline void sd8_interleave(const int8_t *wt, ptrdiff_t OC, int32_t nk, int32_t nr, int8x16_t *wv)
{
    const int8x16_t z = vdupq_n_s8(0);
    const int8x16_t r0 = sd8_row(wt, nr);
    const int8x16_t r1 = nk > 1 ? sd8_row(wt + OC, nr) : z;
    const int8x16_t r2 = nk > 2 ? sd8_row(wt + 2 * OC, nr) : z;
    const int8x16_t r3 = nk > 3 ? sd8_row(wt + 3 * OC, nr) : z;
    const int16x8_t t0 = vreinterpretq_s16_s8(vzip1q_s8(r0, r1)), t1 = vreinterpretq_s16_s8(vzip2q_s8(r0, r1));
    const int16x8_t t2 = vreinterpretq_s16_s8(vzip1q_s8(r2, r3)), t3 = vreinterpretq_s16_s8(vzip2q_s8(r2, r3));
    wv[0] = vreinterpretq_s8_s16(vzip1q_s16(t0, t2));
    wv[1] = vreinterpretq_s8_s16(vzip2q_s16(t0, t2));
    wv[2] = vreinterpretq_s8_s16(vzip1q_s16(t1, t3));
    wv[3] = vreinterpretq_s8_s16(vzip2q_s16(t1, t3));
}

/* Output pixels p0 .. p0 + np - 1 (np <= 4) x channels oc0 .. oc0 + nr - 1
** (nr <= 16) into y (pixel p0's channel oc0).  Pixels past np repeat the
** last one's position and are not stored. */
static inline void sd8_block(const c8_geom *g, int32_t p0, int32_t np, int32_t oc0, int32_t nr,
                             const int32x4_t *zs, const q8_out *q, int8_t *y)
{
    int64_t ih[4], iw[4];
    c8_positions(g, p0, np, 4, ih, iw);
    const uint32_t pad = (uint32_t)(uint8_t)g->in_zp * 0x01010101u;
#define SD8_ZERO(r) int32x4_t a##r##0 = vdupq_n_s32(0), a##r##1 = a##r##0, a##r##2 = a##r##0, a##r##3 = a##r##0;
    C8_R4(SD8_ZERO)
#undef SD8_ZERO
    for (int32_t kh = 0; kh < g->KH; kh++)
        for (int32_t kw = 0; kw < g->KW; kw++) {
            const int8_t *xp[4];
            for (int32_t r = 0; r < 4; r++) {
                const int64_t h = ih[r] + (int64_t)kh * g->DH, c = iw[r] + (int64_t)kw * g->DW;
                xp[r] = (uint64_t)h < (uint64_t)g->H && (uint64_t)c < (uint64_t)g->W
                            ? g->x + ((ptrdiff_t)h * g->W + (ptrdiff_t)c) * g->C
                            : NULL;
            }
            const int8_t *wt = g->w + ((ptrdiff_t)kh * g->KW + kw) * g->C * g->OC + oc0;
            for (int32_t k = 0; k < g->C; k += 4, wt += 4 * (ptrdiff_t)g->OC) {
                const int32_t nk = g->C - k < 4 ? g->C - k : 4;
                int8x16_t wv[4];
                sd8_interleave(wt, g->OC, nk, nr, wv);
#define SD8_DOT(r)                                                                                 \
    {                                                                                              \
        const int8x16_t xb = vreinterpretq_s8_u32(vdupq_n_u32(xp[r] ? c8_word(xp[r] + k, nk) : pad)); \
        a##r##0 = vdotq_s32(a##r##0, wv[0], xb);                                                   \
        a##r##1 = vdotq_s32(a##r##1, wv[1], xb);                                                   \
        a##r##2 = vdotq_s32(a##r##2, wv[2], xb);                                                   \
        a##r##3 = vdotq_s32(a##r##3, wv[3], xb);                                                   \
    }
                C8_R4(SD8_DOT)
#undef SD8_DOT
            }
        }
    int32_t s[16];
#define SD8_STORE(r)                                                                               \
    if (r < np) {                                                                                  \
        vst1q_s32(s, vsubq_s32(a##r##0, zs[0]));                                                   \
        vst1q_s32(s + 4, vsubq_s32(a##r##1, zs[1]));                                               \
        vst1q_s32(s + 8, vsubq_s32(a##r##2, zs[2]));                                               \
        vst1q_s32(s + 12, vsubq_s32(a##r##3, zs[3]));                                              \
        q8_store_c(s, oc0, nr, q, y + (ptrdiff_t)r * g->OC);                                       \
    }
    C8_R4(SD8_STORE)
#undef SD8_STORE
}
#endif

/* Conv2D without groups on SDOT; 0 when the build has no such path, and
** nothing is written then. */
static inline int sm2c_rt__conv_s8_sdot(const int8_t *x, const int8_t *w, int8_t *y, const int32_t *p,
                                        int32_t in_zp, const q8_out *q)
{
#if SM2C_RT_SDOT
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t M = p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW], OC = p[SM2C_RT_WIN_OC];
    if (p[SM2C_RT_WIN_FC] != C || C <= 0)
        return 0;
    c8_geom g = { x, w, H, W, C, p[SM2C_RT_WIN_KH], p[SM2C_RT_WIN_KW], p[SM2C_RT_WIN_SH], p[SM2C_RT_WIN_SW],
                  p[SM2C_RT_WIN_DH], p[SM2C_RT_WIN_DW], p[SM2C_RT_WIN_PT], p[SM2C_RT_WIN_PL],
                  p[SM2C_RT_WIN_OW], OC, in_zp };
    for (int32_t n = 0; n < N; n++) {
        g.x = x + (ptrdiff_t)n * H * W * C;
        for (int32_t oc0 = 0; oc0 < OC; oc0 += 16) {
            const int32_t nr = OC - oc0 < 16 ? OC - oc0 : 16;
            int32x4_t zs[4];
            sd8_zp_sums(&g, oc0, nr, zs);
            for (int32_t p0 = 0; p0 < M; p0 += 4)
                sd8_block(&g, p0, M - p0 < 4 ? M - p0 : 4, oc0, nr, zs, q,
                          y + ((ptrdiff_t)n * M + p0) * OC + oc0);
        }
    }
    return 1;
#else
    (void)x, (void)w, (void)y, (void)p, (void)in_zp, (void)q;
    return 0;
#endif
}

#endif
