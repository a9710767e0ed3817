/*
** conv_pack_vnni_s8.h: sm2c_rt_conv2d_packed_s8 on AVX-512 VNNI (private to
** the runtime; conv_packed_s8.c includes it).  Everything is static inline.
**
** conv_block_s8.h's blocks (6 pixels x 64 channels; 12 pixels x 16 or 32
** for a last block of at most 32) with the filter read as it is stored
** (conv_pack_s8.h): each group of 4 reduction values is one 64-byte load per
** 16 channels (a set's four in a row), the operand vpdpbusd takes, so
** nothing is interleaved and the sums come out in channel order.  The input goes in as x + 128 and a tap in
** the padding as in_zp + 128 (conv_block_s8.h's c8_tap and c8_gather), which
** the compiler's folded bias takes back: nothing is subtracted here.
**
** A row of taps is read as conv_block_s8.h reads it: one run of KW * C
** values (in the input, or gathered when C leaves words part empty), or tap
** by tap when C is a multiple of 4, where each tap starts a group.  Layers of
** neither kind (C not a multiple of 4, KW * C > C8_GATHER) go elsewhere.
*/
#ifndef SM2C_RT_CONV_PACK_VNNI_S8_H
#define SM2C_RT_CONV_PACK_VNNI_S8_H

#include "conv_block_s8.h"
#include "conv_pack_s8.h"
#include "q8_vec.h"
#include "simd_s8.h"

#if SM2C_RT_VNNI
/* The 64-byte groups at wt of a set's blocks 0 .. 3; a set of 3 reads its
** last again for the fourth (last3 128 bytes, else 192; never stored). */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void c8p_load4(const int8_t *wt, ptrdiff_t last3, __m512i *p)
{
    p[0] = _mm512_loadu_si512((const void *)wt);
    p[1] = _mm512_loadu_si512((const void *)(wt + 64));
    p[2] = _mm512_loadu_si512((const void *)(wt + 128));
    p[3] = _mm512_loadu_si512((const void *)(wt + last3));
}

/* How a block of pixels reads its rows of taps: *steps runs of *len values
** each, gathered when *gather; 0 when the layer has no such way. */
static inline void c8p_steps(const c8_geom *g, const int64_t *iw, int32_t n, int32_t *steps, int32_t *len,
                             int *gather)
{
    c8_kw_steps(g, iw, n, steps, len);
    *gather = *steps > 1 && (g->C & 3);
    if (*gather)
        *steps = 1, *len = g->KW * g->C;
}

/* What both kernels do per pixel r: its row of taps (C8_PTR: in place, a
** tap in the padding read as in_zp; C8_GATHER_ROW: gathered) and its four
** input bytes + 128 into its sums (C8_DOTA, each kernel's own). */
#define C8_PTR(r) x##r = c8_tap(g, ih[r] + khd, iw[r] + kwd, pad, &s##r);
#define C8_GATHER_ROW(r) x##r = c8_gather(g, ih[r] + khd, iw[r], gx[r]), s##r = 1;
#define C8_DOT(r) C8_DOTA(r, c8_bcast4(x##r + k * s##r, flipv))
#define C8_DOT_TAIL(r) \
    C8_DOTA(r, _mm512_set1_epi32((int32_t)(c8_word(x##r + k * s##r, s##r ? len - k : 4) ^ flip)))

/* What C8P_WINDOW and the per-pixel macros read, for a kernel from block b0. */
#define C8P_LOCALS                                                                         \
    const uint32_t flip = 0x80808080u;                                                     \
    const __m512i flipv = _mm512_set1_epi8((char)0x80);                                    \
    const int8_t pad[4] = {(int8_t)g->in_zp, (int8_t)g->in_zp, (int8_t)g->in_zp, (int8_t)g->in_zp}; \
    const __m512i z = _mm512_setzero_si512();                                              \
    const int32_t G = c8p_groups(g);                                                       \
    ptrdiff_t step;                                                                        \
    const int8_t *const w0 = c8p_block(g, b0, &step);

/* The window loop both kernels run, over REP's n pixels: each row of taps
** one run (in the input or gathered) or tap by tap, each group of 4 values
** loaded (C8_LOAD) and multiplied into every pixel's sums (C8_DOT; C8_DOT_TAIL
** for a last group part past the run). */
#define C8P_WINDOW(REP, n)                                                                 \
    c8_positions(g, p0, rows, n, ih, iw);                                                  \
    c8p_steps(g, iw, n, &steps, &len, &gather);                                            \
    for (int32_t kh = 0; kh < g->KH; kh++) {                                               \
        for (int32_t kw = 0; kw < steps; kw++) {                                           \
            const int64_t khd = (int64_t)kh * g->DH, kwd = (int64_t)kw * g->DW;            \
            const int8_t *wt = w0 + ((ptrdiff_t)kh * G + (ptrdiff_t)kw * (len / 4)) * step; \
            int32_t k = 0;                                                                 \
            if (gather) {                                                                  \
                REP(C8_GATHER_ROW)                                                         \
            } else {                                                                       \
                REP(C8_PTR)                                                                \
            }                                                                              \
            for (; k + 4 <= len; k += 4, wt += step) {                                     \
                C8_LOAD()                                                                  \
                REP(C8_DOT)                                                                \
            }                                                                              \
            if (k < len) {                                                                 \
                C8_LOAD()                                                                  \
                REP(C8_DOT_TAIL)                                                           \
            }                                                                              \
        }                                                                                  \
    }

/* The window loop of a layer whose every window lies inside the input
** (c8p_inside): each pixel's row kh one run of KW * C values at the same
** offset from its tap (0, 0), so the pixels' pointers are set once and the
** loop is the loads and the dot products. */
#define C8_BASE(r) x##r = g->x + ((ptrdiff_t)ih[r] * g->W + (ptrdiff_t)iw[r]) * g->C;
#define C8_DOT_IN(r) C8_DOTA(r, c8_bcast4(x##r + off + k, flipv))
#define C8P_INSIDE(REP, n)                                                                 \
    c8_positions(g, p0, rows, n, ih, iw);                                                  \
    REP(C8_BASE)                                                                           \
    for (int32_t kh = 0; kh < g->KH; kh++) {                                               \
        const ptrdiff_t off = (ptrdiff_t)kh * g->DH * g->W * g->C;                          \
        const int8_t *wt = w0 + (ptrdiff_t)kh * G * step;                                  \
        for (int32_t k = 0; k < len; k += 4, wt += step) {                                 \
            C8_LOAD()                                                                      \
            REP(C8_DOT_IN)                                                                 \
        }                                                                                  \
    }

/* 6 pixels x up to 64 channels (blocks b0 .. b0 + 3): 24 accumulators. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void c8p_vnni_64(const c8_geom *g, int32_t p0, int32_t rows,
                                                                  int32_t b0, int32_t nr, int inside,
                                                                  const q8_prep512 *rq, const q8_out *q,
                                                                  int8_t *y)
{
#define C8_ZERO(r) __m512i c##r##0 = bv[0], c##r##1 = bv[1], c##r##2 = bv[2], c##r##3 = bv[3];
#define C8_DOTA(r, a)                                                                      \
    {                                                                                      \
        c##r##0 = _mm512_dpbusd_epi32(c##r##0, a, p[0]);                                   \
        c##r##1 = _mm512_dpbusd_epi32(c##r##1, a, p[1]);                                   \
        c##r##2 = _mm512_dpbusd_epi32(c##r##2, a, p[2]);                                   \
        c##r##3 = _mm512_dpbusd_epi32(c##r##3, a, p[3]);                                   \
    }
#define C8_LOAD() c8p_load4(wt, last3, p);
#define C8_STORE(r) acc[r][0] = c##r##0, acc[r][1] = c##r##1, acc[r][2] = c##r##2, acc[r][3] = c##r##3;
    C8P_LOCALS
    const ptrdiff_t last3 = nr > 48 ? 192 : 128;
    int32_t s0, s1, s2, s3, s4, s5, steps, len;
    int gather;
    const int8_t *x0, *x1, *x2, *x3, *x4, *x5;
    int64_t ih[6], iw[6];
    int8_t gx[6][C8_GATHER];
    __m512i p[4];
    /* the sums start at the bias: q8_apply512_n then adds none */
    const __m512i bv[4] = {rq[0].bias, nr > 16 ? rq[1].bias : z, nr > 32 ? rq[2].bias : z, nr > 48 ? rq[3].bias : z};
    C8_R6(C8_ZERO)

    if (inside) {
        len = g->KW * g->C;
        C8P_INSIDE(C8_R6, 6)
    } else {
        C8P_WINDOW(C8_R6, 6)
    }
    __m512i acc[6][4];
    C8_R6(C8_STORE)
    for (int j = 0; j * 16 < nr; j++)
        q8_apply512_n(&acc[0][j], 4, rows, &rq[j], 1, q, y + 16 * j, g->OC);
#undef C8_ZERO
#undef C8_DOTA
#undef C8_LOAD
#undef C8_STORE
}

/* The first `rows` of a 12-pixel block's sums acc[r][0 .. nv - 1] (bias
** included) requantized through rq and stored, pixel r at y + r * OC. */
SM2C_RT_TARGET_VNNI static inline void c8p_store12(__m512i (*acc)[2], int32_t rows, int nv, int32_t nr,
                                                   const q8_prep512 *rq, const q8_out *q, int8_t *y, ptrdiff_t OC)
{
    q8_apply512_n(&acc[0][0], 2, rows, &rq[0], 1, q, y, OC);
    if (nv > 1 && nr > 16)
        q8_apply512_n(&acc[0][1], 2, rows, &rq[1], 1, q, y + 16, OC);
}

/* 12 pixels x up to 16 (nv 1) or 32 (nv 2) channels from block b0. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void c8p_vnni_narrow(const c8_geom *g, int32_t p0,
                                                                      int32_t rows, int32_t b0, int32_t nr,
                                                                      int nv, int inside, const q8_prep512 *rq,
                                                                      const q8_out *q, int8_t *y)
{
#define C8_ZERO(r) __m512i c##r##0 = bv[0], c##r##1 = bv[1];
#define C8_DOTA(r, a)                                                                      \
    {                                                                                      \
        c##r##0 = _mm512_dpbusd_epi32(c##r##0, a, v[0]);                                   \
        if (nv > 1)                                                                        \
            c##r##1 = _mm512_dpbusd_epi32(c##r##1, a, v[1]);                               \
    }
#define C8_STORE(r) acc[r][0] = c##r##0, acc[r][1] = c##r##1;
#define C8_LOAD()                                                                          \
    {                                                                                      \
        v[0] = _mm512_loadu_si512((const void *)wt);                                      \
        if (nv > 1)                                                                        \
            v[1] = _mm512_loadu_si512((const void *)(wt + 64));                           \
    }
    C8P_LOCALS
    int32_t s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, steps, len;
    int gather;
    const int8_t *x0, *x1, *x2, *x3, *x4, *x5, *x6, *x7, *x8, *x9, *x10, *x11;
    int64_t ih[12], iw[12];
    int8_t gx[12][C8_GATHER];
    __m512i v[2];
    const __m512i bv[2] = {rq[0].bias, nv > 1 && nr > 16 ? rq[1].bias : z}; /* as c8p_vnni_64 */
    C8_R12(C8_ZERO)

    if (inside) {
        len = g->KW * g->C;
        C8P_INSIDE(C8_R12, 12)
    } else {
        C8P_WINDOW(C8_R12, 12)
    }
    __m512i acc[12][2];
    C8_R12(C8_STORE)
    c8p_store12(acc, rows, nv, nr, rq, q, y, g->OC);
#undef C8_ZERO
#undef C8_DOTA
#undef C8_LOAD
#undef C8_STORE
}

/* Pixel r (a literal) of a row block: b0 + r * s, from four bases and the
** multiples of s that x86 addressing scales by (1, 2, 4, 8), so twelve
** pixels take four pointers and no register each (c8p_vnni_row). */
#define C8_ROW_AT(r)                                                                       \
    ((r) == 0 ? b0 : (r) == 1 ? b0 + s : (r) == 2 ? b0 + 2 * s : (r) == 3 ? b3 : (r) == 4 ? b0 + 4 * s \
     : (r) == 5 ? b3 + 2 * s : (r) == 6 ? b6 : (r) == 7 ? b3 + 4 * s : (r) == 8 ? b0 + 8 * s      \
     : (r) == 9 ? b1 + 8 * s : (r) == 10 ? b6 + 4 * s : b3 + 8 * s)

/* n (12, 8 or 4) pixels of one output row from p0, `rows` of them stored,
** x 16 (nv 1) or 32 (nv 2) channels from block b0, every window inside
** (c8p_inside) and pixel n - 1's window too (c8p_row_fits).  Pixel r reads
** at a fixed distance r * SW * C from pixel 0, which C8_ROW_AT turns into
** addressing: the window loop of c8p_vnni_narrow keeps twelve pointers,
** more than x86-64 has registers for beside the loop's own. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void c8p_vnni_row(const c8_geom *g, int32_t p0, int32_t rows,
                                                                   int32_t b0i, int32_t nr, int nv, int n,
                                                                   const q8_prep512 *rq, const q8_out *q,
                                                                   int8_t *y)
{
#define C8_ZERO(r) __m512i c##r##0 = bv[0], c##r##1 = bv[1];
#define C8_DOTA(r, a)                                                                      \
    {                                                                                      \
        c##r##0 = _mm512_dpbusd_epi32(c##r##0, a, v[0]);                                   \
        if (nv > 1)                                                                        \
            c##r##1 = _mm512_dpbusd_epi32(c##r##1, a, v[1]);                               \
    }
#define C8_ROW_DOT(r)                                                                      \
    if ((r) < n)                                                                           \
        C8_DOTA(r, c8_bcast4(C8_ROW_AT(r), flipv))
#define C8_STORE(r)                                                                        \
    if ((r) < n)                                                                           \
        acc[r][0] = c##r##0, acc[r][1] = c##r##1;
    const __m512i flipv = _mm512_set1_epi8((char)0x80);
    const __m512i z = _mm512_setzero_si512();
    const int32_t G = c8p_groups(g), len = g->KW * g->C;
    const ptrdiff_t s = (ptrdiff_t)g->SW * g->C;
    ptrdiff_t step;
    const int8_t *const w0 = c8p_block(g, b0i, &step);
    int64_t ih, iw;
    __m512i v[2];
    const __m512i bv[2] = {rq[0].bias, nv > 1 && nr > 16 ? rq[1].bias : z}; /* as c8p_vnni_64 */
    C8_R12(C8_ZERO)

    c8_positions(g, p0, 1, 1, &ih, &iw);
    const int8_t *const x0 = g->x + ((ptrdiff_t)ih * g->W + (ptrdiff_t)iw) * g->C;
    for (int32_t kh = 0; kh < g->KH; kh++) {
        const int8_t *b0 = x0 + (ptrdiff_t)kh * g->DH * g->W * g->C;
        const int8_t *b1 = b0 + s, *b3 = b0 + 3 * s, *b6 = b0 + 6 * s;
        const int8_t *const end = b0 + len;
        const int8_t *wt = w0 + (ptrdiff_t)kh * G * step;
        for (; b0 < end; b0 += 4, b1 += 4, b3 += 4, b6 += 4, wt += step) {
            v[0] = _mm512_loadu_si512((const void *)wt);
            if (nv > 1)
                v[1] = _mm512_loadu_si512((const void *)(wt + 64));
            C8_R12(C8_ROW_DOT)
        }
    }
    __m512i acc[12][2];
    C8_R12(C8_STORE)
    c8p_store12(acc, rows, nv, nr, rq, q, y, g->OC);
#undef C8_ZERO
#undef C8_DOTA
#undef C8_ROW_DOT
#undef C8_STORE
}

/* c8p_vnni_row for a layer of exactly 8 output channels: two pixels to a
** vector (pixel 2i in lanes 0-7, 2i + 1 in lanes 8-15), so no lane is empty
** and a vector's 16 outputs are the two pixels' 8 bytes in a row.  The
** filter's group (8 channels, 32 bytes) goes into both halves; the pixels'
** words each into one.  rq is prepared for the 8 channels twice over
** (c8p_vnni_rows8). */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void c8p_vnni_pairs(const c8_geom *g, int32_t p0, int32_t rows,
                                                                     int n, const q8_prep512 *rq,
                                                                     const q8_out *q, int8_t *y)
{
#define C8_PAIR_DOT(i)                                                                     \
    if (2 * (i) < n) {                                                                     \
        int32_t lo_w, hi_w;                                                                \
        memcpy(&lo_w, C8_ROW_AT(2 * (i)), 4);                                              \
        memcpy(&hi_w, C8_ROW_AT(2 * (i) + 1), 4);                                          \
        const __m512i a = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_set1_epi32(lo_w)), \
                                             _mm256_set1_epi32(hi_w), 1);                  \
        c##i = _mm512_dpbusd_epi32(c##i, _mm512_xor_si512(a, flipv), wv);                  \
    }
    const __m512i flipv = _mm512_set1_epi8((char)0x80);
    const int32_t G = c8p_groups(g), len = g->KW * g->C;
    const ptrdiff_t s = (ptrdiff_t)g->SW * g->C;
    ptrdiff_t step;
    const int8_t *const w0 = c8p_block(g, 0, &step);
    int64_t ih, iw;
    __m512i c0 = rq->bias, c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0; /* q8_apply512_n adds none */

    c8_positions(g, p0, 1, 1, &ih, &iw);
    const int8_t *const x0 = g->x + ((ptrdiff_t)ih * g->W + (ptrdiff_t)iw) * g->C;
    for (int32_t kh = 0; kh < g->KH; kh++) {
        const int8_t *b0 = x0 + (ptrdiff_t)kh * g->DH * g->W * g->C;
        const int8_t *b1 = b0 + s, *b3 = b0 + 3 * s, *b6 = b0 + 6 * s;
        const int8_t *const end = b0 + len;
        const int8_t *wt = w0 + (ptrdiff_t)kh * G * step;
        for (; b0 < end; b0 += 4, b1 += 4, b3 += 4, b6 += 4, wt += step) {
            const __m512i wv = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(const void *)wt));
            C8_R6(C8_PAIR_DOT)
        }
    }
    const __m512i acc[6] = {c0, c1, c2, c3, c4, c5};
    q8_apply512_n(acc, 1, rows / 2, rq, 1, q, y, 16);
    if (rows & 1) { /* the last pixel alone: lanes 0-7 */
        q8_prep512 half = *rq;
        half.k = 0xFF;
        q8_apply512_n(&acc[rows / 2], 1, 1, &half, 1, q, y + 8 * (rows - 1), 16);
    }
#undef C8_PAIR_DOT
}

/* Whether pixel n - 1 of the row block from (oh, ow) has its window inside
** the image, so c8p_vnni_row may compute it (stored or not): the blocks of
** the last row stop short of the end otherwise. */
static inline int c8p_row_fits(const c8_geom *g, int32_t oh, int32_t ow, int32_t n)
{
    const int64_t last = (((int64_t)oh * g->SH + (int64_t)(g->KH - 1) * g->DH) * g->W +
                          (int64_t)(ow + n - 1) * g->SW) * g->C + (int64_t)g->KW * g->C;
    return last <= (int64_t)g->H * g->W * g->C;
}

/* Each kernel twice, for layers with and without padding taps (c8p_inside),
** so that neither carries the other's pointers. */
#define C8P_KERNEL(name, call)                                                             \
    SM2C_RT_TARGET_VNNI static void name(const c8_geom *g, int32_t p0, int32_t rows, int32_t b0, int32_t nr, \
                                         const q8_prep512 *rq, const q8_out *q, int8_t *y)  \
    {                                                                                      \
        call;                                                                              \
    }
C8P_KERNEL(c8p_vnni_16, c8p_vnni_narrow(g, p0, rows, b0, nr, 1, 0, rq, q, y))
C8P_KERNEL(c8p_vnni_32, c8p_vnni_narrow(g, p0, rows, b0, nr, 2, 0, rq, q, y))
C8P_KERNEL(c8p_vnni_64w, c8p_vnni_64(g, p0, rows, b0, nr, 0, rq, q, y))
C8P_KERNEL(c8p_vnni_16in, c8p_vnni_narrow(g, p0, rows, b0, nr, 1, 1, rq, q, y))
C8P_KERNEL(c8p_vnni_32in, c8p_vnni_narrow(g, p0, rows, b0, nr, 2, 1, rq, q, y))
C8P_KERNEL(c8p_vnni_64in, c8p_vnni_64(g, p0, rows, b0, nr, 1, rq, q, y))
C8P_KERNEL(c8p_vnni_row16_12, c8p_vnni_row(g, p0, rows, b0, nr, 1, 12, rq, q, y))
C8P_KERNEL(c8p_vnni_row16_8, c8p_vnni_row(g, p0, rows, b0, nr, 1, 8, rq, q, y))
C8P_KERNEL(c8p_vnni_row16_4, c8p_vnni_row(g, p0, rows, b0, nr, 1, 4, rq, q, y))
C8P_KERNEL(c8p_vnni_row32_12, c8p_vnni_row(g, p0, rows, b0, nr, 2, 12, rq, q, y))
C8P_KERNEL(c8p_vnni_row32_8, c8p_vnni_row(g, p0, rows, b0, nr, 2, 8, rq, q, y))
C8P_KERNEL(c8p_vnni_row32_4, c8p_vnni_row(g, p0, rows, b0, nr, 2, 4, rq, q, y))
#undef C8P_KERNEL

#define C8P_PAIRS(name, n)                                                                 \
    SM2C_RT_TARGET_VNNI static void name(const c8_geom *g, int32_t p0, int32_t rows, const q8_prep512 *rq, \
                                         const q8_out *q, int8_t *y)                        \
    {                                                                                      \
        c8p_vnni_pairs(g, p0, rows, n, rq, q, y);                                          \
    }
C8P_PAIRS(c8p_vnni_pairs_12, 12)
C8P_PAIRS(c8p_vnni_pairs_8, 8)
C8P_PAIRS(c8p_vnni_pairs_4, 4)
#undef C8P_PAIRS
#undef C8_ROW_AT

/* c8p_vnni_rows for a layer of exactly 8 output channels, on c8p_vnni_pairs:
** rq8 is the 8 channels' requantization twice over. */
SM2C_RT_TARGET_VNNI static void c8p_vnni_rows8(const c8_geom *g, int32_t OH, const q8_prep512 *rq,
                                               const q8_out *q, int8_t *y)
{
    typedef void kernel(const c8_geom *, int32_t, int32_t, const q8_prep512 *, const q8_out *, int8_t *);
    static kernel *const pairs[3] = {c8p_vnni_pairs_12, c8p_vnni_pairs_8, c8p_vnni_pairs_4};
    int32_t bias[16], mult[16], shift[16];
    float scale[16];
    for (int j = 0; j < 16; j++) {
        bias[j] = q->bias ? q->bias[j % 8] : 0;
        mult[j] = q->mult ? q->mult[j % 8] : 0;
        shift[j] = q->shift ? q->shift[j % 8] : 0;
        scale[j] = q->scale ? q->scale[j % 8] : 0.0f;
    }
    const q8_out q2 = {bias, q->scale ? NULL : mult, q->scale ? NULL : shift, q->out_zp, q->act_min, q->act_max,
                       q->scale ? scale : NULL, q->nearest};
    q8_prep512 rq8;
    q8_prep(&rq8, 0, 16, &q2);
    for (int32_t oh = 0; oh < OH; oh++)
        for (int32_t ow = 0; ow < g->OW;) {
            const int32_t left = g->OW - ow, rows = left < 12 ? left : 12;
            const int size = rows > 8 ? 0 : rows > 4 ? 1 : 2, n = 12 - 4 * size;
            const int32_t p0 = oh * g->OW + ow;
            int8_t *yb = y + (ptrdiff_t)p0 * 8;
            if (c8p_row_fits(g, oh, ow, n))
                pairs[size](g, p0, rows, &rq8, &q2, yb);
            else
                c8p_vnni_16in(g, p0, rows, 0, 8, rq, q, yb);
            ow += rows;
        }
}

/* A layer's last block of at most 32 channels (nr of them, from oc0), every
** window inside: output row by output row, in blocks of 12 pixels and one
** of 8 or 4 for what is left of a row, on c8p_vnni_row, and where pixel
** n - 1 would read past the image, on c8p_vnni_narrow's. */
SM2C_RT_TARGET_VNNI static void c8p_vnni_rows(const c8_geom *g, int32_t OH, int32_t oc0, int32_t nr,
                                              const q8_prep512 *rq, const q8_out *q, int8_t *y)
{
    typedef void kernel(const c8_geom *, int32_t, int32_t, int32_t, int32_t, const q8_prep512 *,
                        const q8_out *, int8_t *);
    static kernel *const narrow[2][3] = {{c8p_vnni_row16_12, c8p_vnni_row16_8, c8p_vnni_row16_4},
                                         {c8p_vnni_row32_12, c8p_vnni_row32_8, c8p_vnni_row32_4}};
    const int wide = nr > 16;
    for (int32_t oh = 0; oh < OH; oh++)
        for (int32_t ow = 0; ow < g->OW;) {
            const int32_t left = g->OW - ow, rows = left < 12 ? left : 12;
            const int size = rows > 8 ? 0 : rows > 4 ? 1 : 2, n = 12 - 4 * size;
            const int32_t p0 = oh * g->OW + ow;
            int8_t *yb = y + (ptrdiff_t)p0 * g->OC + oc0;
            if (c8p_row_fits(g, oh, ow, n))
                narrow[wide][size](g, p0, rows, oc0 / 16, nr, rq, q, yb);
            else
                (wide ? c8p_vnni_32in : c8p_vnni_16in)(g, p0, rows, oc0 / 16, nr, rq, q, yb);
            ow += rows;
        }
}

/* One pixel whose window lies inside (c8p_inside) by every channel, sets of up
** to 64 channels: a matrix-vector product (the FullyConnected of one row,
** lowered as this 1x1 Conv2D), where the 6-pixel kernel would compute five
** copies of it.  Each group of 4 values is one broadcast into up to 4 dot
** products. */
SM2C_RT_TARGET_VNNI static void c8p_vnni_1(const c8_geom *g, int32_t p0, const q8_out *q, int8_t *y)
{
    const __m512i flip = _mm512_set1_epi8((char)0x80), z = _mm512_setzero_si512();
    const int32_t G = c8p_groups(g), L = g->KW * g->C;
    int64_t ih, iw;
    c8_positions(g, p0, 1, 1, &ih, &iw);
    const int8_t *x0 = g->x + ((ptrdiff_t)ih * g->W + (ptrdiff_t)iw) * g->C;
    for (int32_t b0 = 0; 16 * b0 < g->OC; b0 += 4) {
        const int32_t oc0 = 16 * b0, nr = g->OC - oc0 < 64 ? g->OC - oc0 : 64, nb = c8p_set_blocks(g, b0);
        ptrdiff_t step;
        const int8_t *w0 = c8p_block(g, b0, &step);
        /* two sums per block, of alternate groups: half the chain of
        ** dependent dot products (the latency, not the count, bounds a row) */
        __m512i c0 = z, c1 = z, c2 = z, c3 = z, d0 = z, d1 = z, d2 = z, d3 = z;
#define C8P_DOT1(c0, c1, c2, c3, k, wt)                                                    \
    {                                                                                      \
        const __m512i a = c8_bcast4(xr + (k), flip);                                       \
        c0 = _mm512_dpbusd_epi32(c0, a, _mm512_loadu_si512((const void *)(wt)));          \
        if (nb > 1)                                                                        \
            c1 = _mm512_dpbusd_epi32(c1, a, _mm512_loadu_si512((const void *)((wt) + 64))); \
        if (nb > 2)                                                                        \
            c2 = _mm512_dpbusd_epi32(c2, a, _mm512_loadu_si512((const void *)((wt) + 128))); \
        if (nb > 3)                                                                        \
            c3 = _mm512_dpbusd_epi32(c3, a, _mm512_loadu_si512((const void *)((wt) + 192))); \
    }
        for (int32_t kh = 0; kh < g->KH; kh++) {
            const int8_t *xr = x0 + (ptrdiff_t)kh * g->DH * g->W * g->C;
            const int8_t *wt = w0 + (ptrdiff_t)kh * G * step;
            int32_t k = 0;
            for (; k + 8 <= L; k += 8, wt += 2 * step) {
                C8P_DOT1(c0, c1, c2, c3, k, wt)
                C8P_DOT1(d0, d1, d2, d3, k + 4, wt + step)
            }
            if (k < L)
                C8P_DOT1(c0, c1, c2, c3, k, wt)
        }
#undef C8P_DOT1
        const __m512i c[4] = {_mm512_add_epi32(c0, d0), _mm512_add_epi32(c1, d1), _mm512_add_epi32(c2, d2),
                              _mm512_add_epi32(c3, d3)};
        for (int j = 0; 16 * j < nr; j++) /* one pixel: no prep (the one floor's took longer than the sums) */
            q8_out512(c[j], oc0 + 16 * j, nr - 16 * j, q, y + oc0 + 16 * j);
    }
}

/* One image on the VNNI kernels: blocks of 64 channels, 6 pixels each, and
** a last block of at most 32 channels, 12 pixels each, or a single pixel on
** c8p_vnni_1; `inside` is c8p_inside's answer for the layer. */
SM2C_RT_TARGET_VNNI static inline void c8p_vnni(const c8_geom *g, int32_t M, int inside, const q8_out *q,
                                                int8_t *y)
{
    if (M == 1 && inside) {
        c8p_vnni_1(g, 0, q, y);
        return;
    }
    for (int32_t oc0 = 0; oc0 < g->OC; oc0 += 64) {
        const int32_t nr = g->OC - oc0 < 64 ? g->OC - oc0 : 64;
        q8_prep512 rq[4];
        for (int j = 0; j * 16 < nr; j++)
            q8_prep(&rq[j], oc0 + 16 * j, nr - 16 * j, q);
        if (inside && g->OC == 8) {
            c8p_vnni_rows8(g, M / g->OW, rq, q, y);
            continue;
        }
        if (inside && nr <= 32) {
            c8p_vnni_rows(g, M / g->OW, oc0, nr, rq, q, y);
            continue;
        }
        for (int32_t p0 = 0; p0 < M; p0 += nr <= 32 ? 12 : 6) {
            int8_t *yb = y + (ptrdiff_t)p0 * g->OC + oc0;
            const int32_t rows = M - p0 < (nr <= 32 ? 12 : 6) ? M - p0 : (nr <= 32 ? 12 : 6);
            if (nr <= 16)
                (inside ? c8p_vnni_16in : c8p_vnni_16)(g, p0, rows, oc0 / 16, nr, rq, q, yb);
            else if (nr <= 32)
                (inside ? c8p_vnni_32in : c8p_vnni_32)(g, p0, rows, oc0 / 16, nr, rq, q, yb);
            else
                (inside ? c8p_vnni_64in : c8p_vnni_64w)(g, p0, rows, oc0 / 16, nr, rq, q, yb);
        }
    }
}
#endif

#undef C8_PTR
#undef C8_GATHER_ROW
#undef C8_DOT
#undef C8_DOT_TAIL
#undef C8P_WINDOW
#undef C8P_LOCALS
#undef C8_BASE
#undef C8_DOT_IN
#undef C8P_INSIDE

/* Whether this CPU and layer take the VNNI kernels. */
static inline int c8p_vnni_fits(const c8_geom *g)
{
#if SM2C_RT_VNNI
    return sm2c_rt__have_vnni() && (!(g->C & 3) || g->KW * g->C <= C8_GATHER);
#else
    (void)g;
    return 0;
#endif
}

#endif
