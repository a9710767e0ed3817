/*
** conv_pack_sdot_s8.h: sm2c_rt_conv2d_packed_s8 on AArch64's SDOT (the
** DotProd extension; private to the runtime, conv_packed_s8.c includes it).
** Everything is static inline.
**
** 4 pixels x 16 channels, as conv_sdot_s8.h, but each 64-byte group of the
** packed filter (conv_pack_s8.h) is four SDOT operands as stored: nothing is
** interleaved.  SDOT multiplies signed bytes, so it sums w * x' and adds 128
** times each channel's filter sum (once per block of channels) to give the
** w * (x' + 128) the folded bias expects; vector sums wrap exactly and the
** true sum fits (reliability.md 6.5).
*/
#ifndef SM2C_RT_CONV_PACK_SDOT_S8_H
#define SM2C_RT_CONV_PACK_SDOT_S8_H

#include "conv_block_s8.h"
#include "conv_pack_s8.h"
#include "q8_vec.h"
#include "simd_s8.h"

#if SM2C_RT_SDOT
/* Pixels p0 .. p0 + np - 1 (np <= 4) x channels of block b (nr <= 16); lift
** is 128 times the block's filter sums. */
static inline void c8p_sdot_16(const c8_geom *g, int32_t p0, int32_t np, int32_t b, int32_t nr,
                               const int32_t *lift, const q8_out *q, int8_t *y)
{
#define C8_ZERO(r) int32x4_t a##r##0 = vdupq_n_s32(0), a##r##1 = a##r##0, a##r##2 = a##r##0, a##r##3 = a##r##0;
#define C8_RUN(r) const int8_t *run##r = c8p_row(g, ih[r] + khd, iw[r]);
#define C8_DOT(r)                                                                                  \
    {                                                                                              \
        const int8x16_t xb = vreinterpretq_s8_u32(vdupq_n_u32(c8p_word(g, run##r, ih[r] + khd, iw[r], k))); \
        a##r##0 = vdotq_s32(a##r##0, w0, xb);                                                      \
        a##r##1 = vdotq_s32(a##r##1, w1, xb);                                                      \
        a##r##2 = vdotq_s32(a##r##2, w2, xb);                                                      \
        a##r##3 = vdotq_s32(a##r##3, w3, xb);                                                      \
    }
#define C8_STORE(r)                                                                                \
    if (r < np) {                                                                                  \
        vst1q_s32(s, vaddq_s32(a##r##0, vld1q_s32(lift)));                                         \
        vst1q_s32(s + 4, vaddq_s32(a##r##1, vld1q_s32(lift + 4)));                                 \
        vst1q_s32(s + 8, vaddq_s32(a##r##2, vld1q_s32(lift + 8)));                                 \
        vst1q_s32(s + 12, vaddq_s32(a##r##3, vld1q_s32(lift + 12)));                               \
        q8_store_c(s, 16 * b, nr, q, y + (ptrdiff_t)r * g->OC);                                    \
    }
    const int32_t L = g->KW * g->C;
    ptrdiff_t step;
    const int8_t *wt = c8p_block(g, b, &step);
    int64_t ih[4], iw[4];
    int32_t s[16];
    C8_R4(C8_ZERO)

    c8_positions(g, p0, np, 4, ih, iw);
    for (int32_t kh = 0; kh < g->KH; kh++) {
        const int64_t khd = (int64_t)kh * g->DH;
        C8_R4(C8_RUN)
        for (int32_t k = 0; k < L; k += 4, wt += step) {
            const int8x16_t w0 = vld1q_s8(wt), w1 = vld1q_s8(wt + 16), w2 = vld1q_s8(wt + 32),
                            w3 = vld1q_s8(wt + 48);
            C8_R4(C8_DOT)
        }
    }
    C8_R4(C8_STORE)
#undef C8_ZERO
#undef C8_RUN
#undef C8_DOT
#undef C8_STORE
}
#endif

/* One image on SDOT; 0 when this build has no such path. */
static inline int c8p_sdot(const c8_geom *g, int32_t M, const q8_out *q, int8_t *y)
{
#if SM2C_RT_SDOT
    for (int32_t oc0 = 0; oc0 < g->OC; oc0 += 16) {
        int32_t lift[16];
        c8p_colsums(g, oc0 / 16, lift);
        for (int j = 0; j < 16; j++)
            lift[j] *= 128;
        for (int32_t p0 = 0; p0 < M; p0 += 4)
            c8p_sdot_16(g, p0, M - p0 < 4 ? M - p0 : 4, oc0 / 16, g->OC - oc0 < 16 ? g->OC - oc0 : 16, lift, q,
                        y + (ptrdiff_t)p0 * g->OC + oc0);
    }
    return 1;
#else
    (void)g, (void)M, (void)q, (void)y;
    return 0;
#endif
}

#endif
