/*
** conv_block_s8.h: int8 Conv2D without groups through register-blocked
** micro-kernels on x86-64 (private to the runtime; conv_s8.c includes it).
** Everything is static inline.
**
** As conv_block_f32.h: a GEMM whose rows are output pixels (row-major over
** OH x OW, so a block runs on across output rows), whose columns are output
** channels and whose reduction runs over the taps and the input channels; a
** filter row whose taps all lie inside the input for every pixel of a block
** is one run of KW * C values, in the input as in the filter.  The filter
** keeps TensorFlow's layout [KH, KW, C, OC]: the kernels interleave four (or
** two) consecutive filter rows in registers into the layout their dot-product
** instructions read, once per block of pixels.  Compiled programs store that
** layout instead where they can (conv_pack_s8.h, conv_pack_vnni_s8.h), and
** come here for the rest (conv_s8.c); the helpers up to the VNNI kernels
** (geometry, positions, taps, words) serve both.
**
**   VNNI (6 pixels x 64 channels): vpdpbusd multiplies unsigned by signed
**     bytes, so the input goes in as x + 128 and a tap in the padding as
**     in_zp + 128; what that adds, (in_zp + 128) * (the sum of the filter
**     column), is summed once per block of channels (a pixel wholly in the
**     padding) and subtracted.  Sums wrap exactly as int32, and the true sum
**     fits (reliability.md 6.5), so the result is the C path's.
**     The last block of a layer, when it has at most 32 channels, runs on
**     a narrow kernel (12 pixels x 16 or 32 channels), and a row of taps
**     that is not one run in the input and whose C leaves words part empty
**     (first layers of 1 or 3 channels) is gathered into one run of KW * C
**     values first, the padding as in_zp (c8_gather).
**   AVX2 (4 pixels x 16 channels): vpmaddwd on int16 pairs (x - in_zp, and
**     the filter widened); a tap in the padding is a pair of zeros.
**
** Sums are exact, so both give the C path's bits; requantization is q8_vec.h.
*/
#ifndef SM2C_RT_CONV_BLOCK_S8_H
#define SM2C_RT_CONV_BLOCK_S8_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "q8_vec.h"
#include "rt_select.h"
#include "simd_s8.h"
#include "sm2c_rt.h"

/* What every vector path's blocks share (AArch64's SDOT too, conv_sdot_s8.h),
** and conv_packed_s8.c's portable path besides: plain C. */

/* A layer's geometry for one image. */
typedef struct {
    const int8_t *x; /* image n */
    const int8_t *w; /* [KH, KW, C, OC], or conv_pack_s8.h's blocks */
    int32_t H, W, C, KH, KW, SH, SW, DH, DW, PT, PL, OW, OC;
    int32_t in_zp;
} c8_geom;

/* Each pixel's input row and column of tap (0, 0), for a block of `rows`
** pixels from p0; entries past `rows` repeat the last (computed, never stored). */
static inline void c8_positions(const c8_geom *g, int32_t p0, int32_t rows, int32_t n, int64_t *ih,
                                int64_t *iw)
{
    int32_t oh = p0 / g->OW, ow = p0 % g->OW;
    for (int32_t r = 0; r < n; r++) {
        ih[r] = (int64_t)oh * g->SH - g->PT;
        iw[r] = (int64_t)ow * g->SW - g->PL;
        if (r + 1 < rows && ++ow == g->OW)
            ow = 0, oh++;
    }
}

/* The kw loop of a block: *steps runs of *len values (conv_block_f32.h). */
static inline void c8_kw_steps(const c8_geom *g, const int64_t *iw, int32_t n, int32_t *steps, int32_t *len)
{
    int64_t lo = iw[0], hi = iw[0];
    for (int32_t r = 1; r < n; r++) {
        lo = iw[r] < lo ? iw[r] : lo;
        hi = iw[r] > hi ? iw[r] : hi;
    }
    if (g->DW == 1 && lo >= 0 && hi + g->KW <= g->W) {
        *steps = 1, *len = g->KW * g->C;
        return;
    }
    *steps = g->KW, *len = g->C;
}

/* Where pixel (ih, iw) reads tap (kh, kw): the input and a step of 1, or, in
** the padding, `pad` (in_zp repeated) and a step of 0. */
static inline const int8_t *c8_tap(const c8_geom *g, int64_t ih, int64_t iw, const int8_t *pad,
                                   int32_t *step)
{
    if ((uint64_t)ih >= (uint64_t)g->H || (uint64_t)iw >= (uint64_t)g->W) {
        *step = 0;
        return pad;
    }
    *step = 1;
    return g->x + ((ptrdiff_t)ih * g->W + (ptrdiff_t)iw) * g->C;
}

/* Rows of taps gathered into a buffer when they are not one run in the input
** (VNNI): a row of KW taps of C values each, KW * C at most this. */
enum { C8_GATHER = 64 };

/* Up to 4 bytes from p (n of them, the rest zero) as a little-endian word:
** one load when n is 4, else a byte loop (a memcpy of n bytes would be a
** library call). */
static inline uint32_t c8_word(const int8_t *p, int32_t n)
{
    uint32_t v = 0;
    if (n >= 4) {
        uint8_t b[4];
        memcpy(b, p, 4);
        return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    }
    for (int32_t i = 0; i < n; i++)
        v |= (uint32_t)(uint8_t)p[i] << (8 * i);
    return v;
}

#define C8_R4(M) M(0) M(1) M(2) M(3)
#define C8_R6(M) M(0) M(1) M(2) M(3) M(4) M(5)

#if SM2C_RT_VNNI
/* The KW taps of input row ih from column iw (every DW) as one run of KW * C
** values: in the input where they are one there, else copied into buf, C
** values each (C < 64), a tap in the padding as C values in_zp, which the
** padding sums take back out as they do for c8_tap's `pad`.  Masked byte moves: a
** copy loop of a few bytes would become a library call per tap. */
SM2C_RT_TARGET_VNNI static inline const int8_t *c8_gather(const c8_geom *g, int64_t ih, int64_t iw, int8_t *buf)
{
    /* A row wholly inside, of adjacent taps, is one run in the input already. */
    if (g->DW == 1 && (uint64_t)ih < (uint64_t)g->H && iw >= 0 && iw + g->KW <= g->W)
        return g->x + ((ptrdiff_t)ih * g->W + (ptrdiff_t)iw) * g->C;
    const __mmask64 m = ((__mmask64)1 << g->C) - 1;
    const __m512i pad = _mm512_set1_epi8((char)g->in_zp);
    int8_t *const run = buf;
    for (int32_t kw = 0; kw < g->KW; kw++, buf += g->C) {
        const int64_t c = iw + (int64_t)kw * g->DW;
        if ((uint64_t)ih >= (uint64_t)g->H || (uint64_t)c >= (uint64_t)g->W)
            _mm512_mask_storeu_epi8(buf, m, pad);
        else
            _mm512_mask_storeu_epi8(
                buf, m, _mm512_maskz_loadu_epi8(m, g->x + ((ptrdiff_t)ih * g->W + (ptrdiff_t)c) * g->C));
    }
    return run;
}

/* Rows k .. k + 3 of the filter (those at or past `left` as zeros), channels
** from wt: four vectors whose dword 4L + i holds the four rows' values of
** channel 16L + 4j + i (vector j), as vpdpbusd reads them. */
SM2C_RT_TARGET_VNNI static inline void c8_pack4(const int8_t *wt, ptrdiff_t OC, int32_t left, __mmask64 m,
                                                __m512i *p)
{
    const __m512i z = _mm512_setzero_si512();
    const __m512i r0 = _mm512_maskz_loadu_epi8(m, wt);
    const __m512i r1 = left > 1 ? _mm512_maskz_loadu_epi8(m, wt + OC) : z;
    const __m512i r2 = left > 2 ? _mm512_maskz_loadu_epi8(m, wt + 2 * OC) : z;
    const __m512i r3 = left > 3 ? _mm512_maskz_loadu_epi8(m, wt + 3 * OC) : z;
    const __m512i a = _mm512_unpacklo_epi8(r0, r1), b = _mm512_unpackhi_epi8(r0, r1);
    const __m512i c = _mm512_unpacklo_epi8(r2, r3), d = _mm512_unpackhi_epi8(r2, r3);
    p[0] = _mm512_unpacklo_epi16(a, c);
    p[1] = _mm512_unpackhi_epi16(a, c);
    p[2] = _mm512_unpacklo_epi16(b, d);
    p[3] = _mm512_unpackhi_epi16(b, d);
}

/* c8_pack4's channel order back to channels 0-15, 16-31, 32-47, 48-63. */
SM2C_RT_TARGET_VNNI static inline void c8_unpermute(__m512i *v)
{
    const __m512i t0 = _mm512_shuffle_i32x4(v[0], v[1], 0x44), t1 = _mm512_shuffle_i32x4(v[2], v[3], 0x44);
    const __m512i t2 = _mm512_shuffle_i32x4(v[0], v[1], 0xEE), t3 = _mm512_shuffle_i32x4(v[2], v[3], 0xEE);
    v[0] = _mm512_shuffle_i32x4(t0, t1, 0x88);
    v[1] = _mm512_shuffle_i32x4(t0, t1, 0xDD);
    v[2] = _mm512_shuffle_i32x4(t2, t3, 0x88);
    v[3] = _mm512_shuffle_i32x4(t2, t3, 0xDD);
}

/* (in_zp + 128) times the sum of every filter column oc0 + j, j < nr, in
** c8_pack4's order: what the padding words add to a pixel's sums. */
SM2C_RT_TARGET_VNNI static inline void c8_vnni_pad(const c8_geom *g, int32_t oc0, __mmask64 m, __m512i *s)
{
    const int32_t K = g->KH * g->KW * g->C;
    const __m512i a = _mm512_set1_epi32((int32_t)(0x01010101u * (uint32_t)(g->in_zp + 128)));
    const int8_t *wt = g->w + oc0;
    __m512i p[4];
    s[0] = s[1] = s[2] = s[3] = _mm512_setzero_si512();
    for (int32_t k = 0; k < K; k += 4, wt += 4 * (ptrdiff_t)g->OC) {
        c8_pack4(wt, g->OC, K - k, m, p);
        for (int j = 0; j < 4; j++)
            s[j] = _mm512_dpbusd_epi32(s[j], a, p[j]);
    }
}

/* Four input bytes at p, each + 128 (as unsigned), in every dword: a load
** broadcast and one xor, which compilers fold into one instruction
** (vpxord with a broadcast memory operand). */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE __m512i c8_bcast4(const int8_t *p, __m512i flipv)
{
    int32_t v;
    memcpy(&v, p, 4);
    return _mm512_xor_si512(_mm512_set1_epi32(v), flipv);
}

/* 6 pixels x up to 64 channels: 24 accumulators.  bc[j] is bias - padding
** sum of channel oc0 + j, in natural order. */
SM2C_RT_TARGET_VNNI static inline void c8_vnni_64(const c8_geom *g, int32_t p0, int32_t rows, int32_t oc0,
                                                  int32_t nr, const __m512i *pad_sum, const q8_prep512 *rq,
                                                  const q8_out *q, int8_t *y)
{
#define C8_ZERO(r) __m512i c##r##0 = z, c##r##1 = z, c##r##2 = z, c##r##3 = z;
#define C8_PTR(r) x##r = c8_tap(g, ih[r] + khd, iw[r] + kwd, pad, &s##r);
#define C8_GATHER_ROW(r) x##r = c8_gather(g, ih[r] + khd, iw[r], gx[r]), s##r = 1;
#define C8_DOT(r)                                                                          \
    {                                                                                      \
        const __m512i a = c8_bcast4(x##r + k * s##r, flipv);                               \
        c##r##0 = _mm512_dpbusd_epi32(c##r##0, a, p[0]);                                   \
        c##r##1 = _mm512_dpbusd_epi32(c##r##1, a, p[1]);                                   \
        c##r##2 = _mm512_dpbusd_epi32(c##r##2, a, p[2]);                                   \
        c##r##3 = _mm512_dpbusd_epi32(c##r##3, a, p[3]);                                   \
    }
#define C8_DOT_TAIL(r)                                                                     \
    {                                                                                      \
        const __m512i a = _mm512_set1_epi32(                                               \
            (int32_t)(c8_word(x##r + k * s##r, s##r ? len - k : 4) ^ flip));              \
        c##r##0 = _mm512_dpbusd_epi32(c##r##0, a, p[0]);                                   \
        c##r##1 = _mm512_dpbusd_epi32(c##r##1, a, p[1]);                                   \
        c##r##2 = _mm512_dpbusd_epi32(c##r##2, a, p[2]);                                   \
        c##r##3 = _mm512_dpbusd_epi32(c##r##3, a, p[3]);                                   \
    }
#define C8_STORE(r)                                                                        \
    if (r < rows) {                                                                        \
        __m512i v[4] = {_mm512_sub_epi32(c##r##0, pad_sum[0]), _mm512_sub_epi32(c##r##1, pad_sum[1]), \
                        _mm512_sub_epi32(c##r##2, pad_sum[2]), _mm512_sub_epi32(c##r##3, pad_sum[3])}; \
        c8_unpermute(v);                                                                   \
        for (int j = 0; j * 16 < nr; j++)                                                  \
            q8_apply512(v[j], &rq[j], q, y + r * (ptrdiff_t)g->OC + 16 * j);                \
    }
    const uint32_t flip = 0x80808080u;
    const __m512i flipv = _mm512_set1_epi8((char)0x80);
    const __mmask64 m = nr >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << nr) - 1);
    const int8_t pad[4] = {(int8_t)g->in_zp, (int8_t)g->in_zp, (int8_t)g->in_zp, (int8_t)g->in_zp};
    const __m512i z = _mm512_setzero_si512();
    int32_t s0, s1, s2, s3, s4, s5, steps, len;
    const int8_t *x0, *x1, *x2, *x3, *x4, *x5;
    int64_t ih[6], iw[6];
    int8_t gx[6][C8_GATHER];
    __m512i p[4];
    C8_R6(C8_ZERO)

    c8_positions(g, p0, rows, 6, ih, iw);
    c8_kw_steps(g, iw, 6, &steps, &len);
    /* A row of taps that is not one run for every pixel, short, and of runs
    ** of C values that leave words part empty (a first layer of 1 or 3
    ** channels): gathered, one run of KW * C values. */
    const int gather = steps > 1 && (g->C & 3) && g->KW * g->C <= C8_GATHER;
    if (gather)
        steps = 1, len = g->KW * g->C;
    for (int32_t kh = 0; kh < g->KH; kh++) {
        for (int32_t kw = 0; kw < steps; kw++) {
            const int64_t khd = (int64_t)kh * g->DH, kwd = (int64_t)kw * g->DW;
            const int8_t *wt = g->w + ((ptrdiff_t)kh * g->KW + kw) * g->C * g->OC + oc0;
            int32_t k = 0;
            if (gather) {
                C8_R6(C8_GATHER_ROW)
            } else {
                C8_R6(C8_PTR)
            }
            for (; k + 4 <= len; k += 4, wt += 4 * (ptrdiff_t)g->OC) {
                c8_pack4(wt, g->OC, 4, m, p);
                C8_R6(C8_DOT)
            }
            if (k < len) {
                c8_pack4(wt, g->OC, len - k, m, p);
                C8_R6(C8_DOT_TAIL)
            }
        }
    }
    C8_R6(C8_STORE)
#undef C8_ZERO
#undef C8_PTR
#undef C8_GATHER_ROW
#undef C8_DOT
#undef C8_DOT_TAIL
#undef C8_STORE
}

#define C8_R12(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11)

/* c8_pack4 for 16 (nv 1) or 32 (nv 2) channels, in natural order: dword i
** of v[j] holds rows k .. k + 3 of channel 16j + i. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void c8_pack4_narrow(const int8_t *wt, ptrdiff_t OC,
                                                                      int32_t left, __mmask64 m, int nv,
                                                                      __m512i *v)
{
    if (nv == 1) {
        const __m128i z = _mm_setzero_si128();
        const __m128i r0 = _mm512_castsi512_si128(_mm512_maskz_loadu_epi8(m, wt));
        const __m128i r1 = left > 1 ? _mm512_castsi512_si128(_mm512_maskz_loadu_epi8(m, wt + OC)) : z;
        const __m128i r2 = left > 2 ? _mm512_castsi512_si128(_mm512_maskz_loadu_epi8(m, wt + 2 * OC)) : z;
        const __m128i r3 = left > 3 ? _mm512_castsi512_si128(_mm512_maskz_loadu_epi8(m, wt + 3 * OC)) : z;
        const __m128i a = _mm_unpacklo_epi8(r0, r1), b = _mm_unpackhi_epi8(r0, r1);
        const __m128i c = _mm_unpacklo_epi8(r2, r3), d = _mm_unpackhi_epi8(r2, r3);
        __m512i t = _mm512_castsi128_si512(_mm_unpacklo_epi16(a, c));
        t = _mm512_inserti32x4(t, _mm_unpackhi_epi16(a, c), 1);
        t = _mm512_inserti32x4(t, _mm_unpacklo_epi16(b, d), 2);
        v[0] = _mm512_inserti32x4(t, _mm_unpackhi_epi16(b, d), 3);
        return;
    }
    const __m256i z = _mm256_setzero_si256();
    const __m256i r0 = _mm512_castsi512_si256(_mm512_maskz_loadu_epi8(m, wt));
    const __m256i r1 = left > 1 ? _mm512_castsi512_si256(_mm512_maskz_loadu_epi8(m, wt + OC)) : z;
    const __m256i r2 = left > 2 ? _mm512_castsi512_si256(_mm512_maskz_loadu_epi8(m, wt + 2 * OC)) : z;
    const __m256i r3 = left > 3 ? _mm512_castsi512_si256(_mm512_maskz_loadu_epi8(m, wt + 3 * OC)) : z;
    const __m256i a = _mm256_unpacklo_epi8(r0, r1), b = _mm256_unpackhi_epi8(r0, r1);
    const __m256i c = _mm256_unpacklo_epi8(r2, r3), d = _mm256_unpackhi_epi8(r2, r3);
    /* 128-bit lanes: channels 0-3 | 16-19, 4-7 | 20-23, 8-11 | 24-27, 12-15 | 28-31 */
    const __m512i lo = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_unpacklo_epi16(a, c)),
                                          _mm256_unpackhi_epi16(a, c), 1);
    const __m512i hi = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_unpacklo_epi16(b, d)),
                                          _mm256_unpackhi_epi16(b, d), 1);
    v[0] = _mm512_shuffle_i32x4(lo, hi, 0x88);
    v[1] = _mm512_shuffle_i32x4(lo, hi, 0xDD);
}

/* c8_vnni_pad for nr <= 32 channels in natural order: two vectors.  A
** filter column sums exactly in int32 (at most K * 128 in size), and the
** product wraps as the vector sums do; the true sums fit. */
SM2C_RT_TARGET_VNNI static inline void c8_colsums(const c8_geom *g, int32_t oc0, int32_t nr, __m512i *s)
{
    const int32_t K = g->KH * g->KW * g->C;
    const __mmask64 m = nr >= 32 ? (__mmask64)0xFFFFFFFFu : (((__mmask64)1 << nr) - 1);
    const int8_t *wt = g->w + oc0;
    __m512i lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512();
    for (int32_t k = 0; k < K; k++, wt += g->OC) {
        const __m256i r = _mm512_castsi512_si256(_mm512_maskz_loadu_epi8(m, wt));
        lo = _mm512_add_epi32(lo, _mm512_cvtepi8_epi32(_mm256_castsi256_si128(r)));
        hi = _mm512_add_epi32(hi, _mm512_cvtepi8_epi32(_mm256_extracti128_si256(r, 1)));
    }
    const __m512i a = _mm512_set1_epi32(g->in_zp + 128);
    s[0] = _mm512_mullo_epi32(lo, a);
    s[1] = _mm512_mullo_epi32(hi, a);
}

/* 12 pixels x up to 16 (nv 1) or 32 (nv 2) channels: 12 or 24 accumulators,
** for layers of few channels, where the 64-channel kernel would waste lanes. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void c8_vnni_narrow(const c8_geom *g, int32_t p0, int32_t rows,
                                                                     int32_t oc0, int32_t nr, int nv,
                                                                     const __m512i *pad_sum,
                                                                     const q8_prep512 *rq, const q8_out *q,
                                                                     int8_t *y)
{
#define C8_ZERO(r) __m512i c##r##0 = z, c##r##1 = z;
#define C8_PTR(r) x##r = c8_tap(g, ih[r] + khd, iw[r] + kwd, pad, &s##r);
#define C8_GATHER_ROW(r) x##r = c8_gather(g, ih[r] + khd, iw[r], gx[r]), s##r = 1;
#define C8_DOTN(r, n)                                                                      \
    {                                                                                      \
        const __m512i a = _mm512_set1_epi32((int32_t)(c8_word(x##r + k * s##r, n) ^ flip)); \
        c##r##0 = _mm512_dpbusd_epi32(c##r##0, a, v[0]);                                   \
        if (nv > 1)                                                                        \
            c##r##1 = _mm512_dpbusd_epi32(c##r##1, a, v[1]);                               \
    }
#define C8_DOT(r)                                                                          \
    {                                                                                      \
        const __m512i a = c8_bcast4(x##r + k * s##r, flipv);                               \
        c##r##0 = _mm512_dpbusd_epi32(c##r##0, a, v[0]);                                   \
        if (nv > 1)                                                                        \
            c##r##1 = _mm512_dpbusd_epi32(c##r##1, a, v[1]);                               \
    }
#define C8_DOT_TAIL(r) C8_DOTN(r, s##r ? len - k : 4)
#define C8_STORE(r)                                                                        \
    if (r < rows) {                                                                        \
        q8_apply512(_mm512_sub_epi32(c##r##0, pad_sum[0]), &rq[0], q, y + r * (ptrdiff_t)g->OC); \
        if (nv > 1 && nr > 16)                                                             \
            q8_apply512(_mm512_sub_epi32(c##r##1, pad_sum[1]), &rq[1], q,                   \
                        y + r * (ptrdiff_t)g->OC + 16);                                    \
    }
    const uint32_t flip = 0x80808080u;
    const __m512i flipv = _mm512_set1_epi8((char)0x80);
    const __mmask64 m = (((__mmask64)1 << nr) - 1);
    const int8_t pad[4] = {(int8_t)g->in_zp, (int8_t)g->in_zp, (int8_t)g->in_zp, (int8_t)g->in_zp};
    const __m512i z = _mm512_setzero_si512();
    int32_t s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, steps, len;
    const int8_t *x0, *x1, *x2, *x3, *x4, *x5, *x6, *x7, *x8, *x9, *x10, *x11;
    int64_t ih[12], iw[12];
    int8_t gx[12][C8_GATHER];
    __m512i v[2];
    C8_R12(C8_ZERO)

    c8_positions(g, p0, rows, 12, ih, iw);
    c8_kw_steps(g, iw, 12, &steps, &len);
    const int gather = steps > 1 && (g->C & 3) && g->KW * g->C <= C8_GATHER;
    if (gather)
        steps = 1, len = g->KW * g->C;
    for (int32_t kh = 0; kh < g->KH; kh++) {
        for (int32_t kw = 0; kw < steps; kw++) {
            const int64_t khd = (int64_t)kh * g->DH, kwd = (int64_t)kw * g->DW;
            const int8_t *wt = g->w + ((ptrdiff_t)kh * g->KW + kw) * g->C * g->OC + oc0;
            int32_t k = 0;
            if (gather) {
                C8_R12(C8_GATHER_ROW)
            } else {
                C8_R12(C8_PTR)
            }
            for (; k + 4 <= len; k += 4, wt += 4 * (ptrdiff_t)g->OC) {
                c8_pack4_narrow(wt, g->OC, 4, m, nv, v);
                C8_R12(C8_DOT)
            }
            if (k < len) {
                c8_pack4_narrow(wt, g->OC, len - k, m, nv, v);
                C8_R12(C8_DOT_TAIL)
            }
        }
    }
    C8_R12(C8_STORE)
#undef C8_ZERO
#undef C8_PTR
#undef C8_GATHER_ROW
#undef C8_DOTN
#undef C8_DOT
#undef C8_DOT_TAIL
#undef C8_STORE
}

SM2C_RT_TARGET_VNNI static inline void c8_vnni_16(const c8_geom *g, int32_t p0, int32_t rows, int32_t oc0,
                                                  int32_t nr, const __m512i *pad_sum, const q8_prep512 *rq,
                                                  const q8_out *q, int8_t *y)
{
    c8_vnni_narrow(g, p0, rows, oc0, nr, 1, pad_sum, rq, q, y);
}

SM2C_RT_TARGET_VNNI static inline void c8_vnni_32(const c8_geom *g, int32_t p0, int32_t rows, int32_t oc0,
                                                  int32_t nr, const __m512i *pad_sum, const q8_prep512 *rq,
                                                  const q8_out *q, int8_t *y)
{
    c8_vnni_narrow(g, p0, rows, oc0, nr, 2, pad_sum, rq, q, y);
}

/* The layer on the VNNI kernels: blocks of 64 channels, 6 pixels each, and
** a last block of at most 32 channels on the narrow kernels, 12 pixels each. */
SM2C_RT_TARGET_VNNI static inline void c8_vnni(const c8_geom *g, int32_t M, const q8_out *q, int8_t *y)
{
    for (int32_t oc0 = 0; oc0 < g->OC; oc0 += 64) {
        const int32_t nr = g->OC - oc0 < 64 ? g->OC - oc0 : 64;
        __m512i pad_sum[4];
        q8_prep512 rq[4];
        for (int j = 0; j * 16 < nr; j++)
            q8_prep(&rq[j], oc0 + 16 * j, nr - 16 * j, q);
        if (nr <= 32) {
            c8_colsums(g, oc0, nr, pad_sum);
            for (int32_t p0 = 0; p0 < M; p0 += 12) {
                int8_t *yb = y + (ptrdiff_t)p0 * g->OC + oc0;
                if (nr <= 16)
                    c8_vnni_16(g, p0, M - p0 < 12 ? M - p0 : 12, oc0, nr, pad_sum, rq, q, yb);
                else
                    c8_vnni_32(g, p0, M - p0 < 12 ? M - p0 : 12, oc0, nr, pad_sum, rq, q, yb);
            }
            continue;
        }
        const __mmask64 m = nr >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << nr) - 1);
        c8_vnni_pad(g, oc0, m, pad_sum);
        for (int32_t p0 = 0; p0 < M; p0 += 6)
            c8_vnni_64(g, p0, M - p0 < 6 ? M - p0 : 6, oc0, nr, pad_sum, rq, q,
                       y + (ptrdiff_t)p0 * g->OC + oc0);
    }
}
#endif

#if SM2C_RT_S8_AVX2
/* Up to 16 bytes (n of them, the rest zero) as a vector; whole when n is 16. */
SM2C_RT_TARGET_S8_AVX2 static inline __m128i c8_load16(const int8_t *p, int32_t n)
{
    int8_t t[16] = {0};
    if (n >= 16)
        return _mm_loadu_si128((const __m128i *)(const void *)p);
    memcpy(t, p, (size_t)n);
    return _mm_loadu_si128((const __m128i *)(const void *)t);
}

/* (p[0] - zp, p[1] - zp) as an int16 pair (the second 0 when n is 1). */
static inline int32_t c8_pair(const int8_t *p, int32_t n, int32_t zp)
{
    const uint32_t lo = (uint16_t)(p[0] - zp), hi = n > 1 ? (uint16_t)(p[1] - zp) : 0u;
    return (int32_t)(lo | hi << 16);
}

/* 4 pixels x up to 16 channels: 8 accumulators. */
SM2C_RT_TARGET_S8_AVX2 static inline void c8_avx2_16(const c8_geom *g, int32_t p0, int32_t rows, int32_t oc0,
                                                     int32_t nr, const q8_out *q, int8_t *y)
{
#define C8_ZERO(r) __m256i c##r##0 = z, c##r##1 = z;
#define C8_PTR(r) const int8_t *x##r = c8_tap(g, ih[r] + khd, iw[r] + kwd, pad, &s##r);
#define C8_MADD(r)                                                                         \
    {                                                                                      \
        const __m256i a = _mm256_set1_epi32(c8_pair(x##r + k * s##r, s##r ? len - k : 2, g->in_zp)); \
        c##r##0 = _mm256_add_epi32(c##r##0, _mm256_madd_epi16(a, w0));                     \
        c##r##1 = _mm256_add_epi32(c##r##1, _mm256_madd_epi16(a, w1));                     \
    }
#define C8_STORE(r)                                                                        \
    if (r < rows) {                                                                        \
        q8_out256(c##r##0, oc0, nr, q, y + r * (ptrdiff_t)g->OC);                          \
        if (nr > 8)                                                                        \
            q8_out256(c##r##1, oc0 + 8, nr - 8, q, y + r * (ptrdiff_t)g->OC + 8);          \
    }
    const int8_t pad[2] = {(int8_t)g->in_zp, (int8_t)g->in_zp};
    const __m256i z = _mm256_setzero_si256();
    int32_t s0, s1, s2, s3, steps, len;
    int64_t ih[4], iw[4];
    C8_R4(C8_ZERO)

    c8_positions(g, p0, rows, 4, ih, iw);
    c8_kw_steps(g, iw, 4, &steps, &len);
    for (int32_t kh = 0; kh < g->KH; kh++) {
        for (int32_t kw = 0; kw < steps; kw++) {
            const int64_t khd = (int64_t)kh * g->DH, kwd = (int64_t)kw * g->DW;
            const int8_t *wt = g->w + ((ptrdiff_t)kh * g->KW + kw) * g->C * g->OC + oc0;
            C8_R4(C8_PTR)
            for (int32_t k = 0; k < len; k += 2, wt += 2 * (ptrdiff_t)g->OC) {
                const __m128i r0 = c8_load16(wt, nr);
                const __m128i r1 = k + 1 < len ? c8_load16(wt + g->OC, nr) : _mm_setzero_si128();
                const __m256i w0 = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(r0, r1));
                const __m256i w1 = _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(r0, r1));
                C8_R4(C8_MADD)
            }
        }
    }
    C8_R4(C8_STORE)
#undef C8_ZERO
#undef C8_PTR
#undef C8_MADD
#undef C8_STORE
}

/* The layer on the AVX2 kernel: blocks of 16 channels, 4 pixels each. */
SM2C_RT_TARGET_S8_AVX2 static inline void c8_avx2(const c8_geom *g, int32_t M, const q8_out *q, int8_t *y)
{
    for (int32_t oc0 = 0; oc0 < g->OC; oc0 += 16) {
        const int32_t nr = g->OC - oc0 < 16 ? g->OC - oc0 : 16;
        for (int32_t p0 = 0; p0 < M; p0 += 4)
            c8_avx2_16(g, p0, M - p0 < 4 ? M - p0 : 4, oc0, nr, q, y + (ptrdiff_t)p0 * g->OC + oc0);
    }
}
#endif

/* Conv2D without groups on a SIMD kernel; 0 when there is none for this
** CPU or shape, and nothing is written then. */
static inline int sm2c_rt__conv_s8_blocked(const int8_t *x, const int8_t *w, int8_t *y, const int32_t *p,
                                           int32_t in_zp, const q8_out *q)
{
#if SM2C_RT_VNNI || SM2C_RT_S8_AVX2
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t M = p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW], OC = p[SM2C_RT_WIN_OC];
    int vnni = 0;
    c8_geom g;
#if SM2C_RT_VNNI
    vnni = sm2c_rt__have_vnni();
#endif
    if (p[SM2C_RT_WIN_FC] != C || C <= 0)
        return 0;
#if SM2C_RT_S8_AVX2
    if (!vnni && !sm2c_rt__have_s8_avx2())
        return 0;
#else
    if (!vnni)
        return 0;
#endif
    g.w = w, g.H = H, g.W = W, g.C = C, g.KH = p[SM2C_RT_WIN_KH], g.KW = p[SM2C_RT_WIN_KW];
    g.SH = p[SM2C_RT_WIN_SH], g.SW = p[SM2C_RT_WIN_SW], g.DH = p[SM2C_RT_WIN_DH];
    g.DW = p[SM2C_RT_WIN_DW], g.PT = p[SM2C_RT_WIN_PT], g.PL = p[SM2C_RT_WIN_PL];
    g.OW = p[SM2C_RT_WIN_OW], g.OC = OC, g.in_zp = in_zp;
    for (int32_t n = 0; n < N; n++) {
        int8_t *yn = y + (ptrdiff_t)n * M * OC;
        g.x = x + (ptrdiff_t)n * H * W * C;
#if SM2C_RT_VNNI
        if (vnni) {
            c8_vnni(&g, M, q, yn);
            continue;
        }
#endif
#if SM2C_RT_S8_AVX2
        c8_avx2(&g, M, q, yn);
#endif
    }
    return 1;
#else
    (void)x, (void)w, (void)y, (void)p, (void)in_zp, (void)q;
    return 0;
#endif
}

#endif
