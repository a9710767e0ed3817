/*
** dw_block_s8.h: int8 DepthwiseConv2dNative of multiplier 1 with its sums in
** vector registers on x86-64 (private to the runtime; conv_s8.c includes it).
** Everything is static inline.
**
** Per output pixel and block of channels (64 on AVX-512 VNNI, 32 on AVX2),
** each tap inside the input adds w * (x - in_zp) lane by lane: int8 widened
** to int32, vpmulld, vpaddd; taps in the padding are skipped, as the C path
** skips them.  On AVX-512 VNNI a window of up to 25 taps runs by blocks of
** 16 channels over every pixel instead (dw8_vnni_16): the block's filter is
** widened once, and a pixel inside the input sums x * w and takes in_zp
** times the filter's sum off at the end, one load, multiply and add per tap.
** When every window lies inside the input (the compiler's padded copy), blocks
** of 64 channels go four taps to a vpdpbusd (dw8_vnni_taps4): on DS-CNN's
** 25x5x64 layers 1.7 us against 4.1 for the tap-by-tap kernel.  The sums are
** exact, so the result is the C path's bits; the block is requantized on the
** vectors it was summed in (q8_vec.h).
*/
#ifndef SM2C_RT_DW_BLOCK_S8_H
#define SM2C_RT_DW_BLOCK_S8_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "q8_vec.h"
#include "simd_s8.h"
#include "sm2c_rt.h"
#include "win_inside.h"

/* Tap t (kh * KW + kw) of output pixel (oh, ow): its offset into the image
** (x) and the filter (w) at channel 0, or 0 when the tap lies in the padding.
** Both ISA blocks walk the window through it. */
#if SM2C_RT_VNNI || SM2C_RT_S8_AVX2
static inline int dw8_tap(const int32_t *p, int32_t oh, int32_t ow, int32_t kh, int32_t kw,
                          ptrdiff_t *x_at, ptrdiff_t *w_at)
{
    const int32_t ih = oh * p[SM2C_RT_WIN_SH] + kh * p[SM2C_RT_WIN_DH] - p[SM2C_RT_WIN_PT];
    const int32_t iw = ow * p[SM2C_RT_WIN_SW] + kw * p[SM2C_RT_WIN_DW] - p[SM2C_RT_WIN_PL];
    if ((uint32_t)ih >= (uint32_t)p[SM2C_RT_WIN_H] || (uint32_t)iw >= (uint32_t)p[SM2C_RT_WIN_W])
        return 0;
    *x_at = ((ptrdiff_t)ih * p[SM2C_RT_WIN_W] + iw) * p[SM2C_RT_WIN_C];
    *w_at = ((ptrdiff_t)kh * p[SM2C_RT_WIN_KW] + kw) * p[SM2C_RT_WIN_C];
    return 1;
}
#endif

#if SM2C_RT_VNNI
/* Channels c0 .. c0 + nr - 1 (nr <= 64) of output pixel (oh, ow) of image x. */
SM2C_RT_TARGET_VNNI static inline void dw8_vnni_64(const int8_t *x, const int8_t *w, const int32_t *p,
                                                   int32_t oh, int32_t ow, int32_t c0, int32_t nr,
                                                   int32_t in_zp, const q8_out *q, int8_t *y)
{
    const __mmask64 m = nr >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << nr) - 1);
    const __m512i zp = _mm512_set1_epi32(in_zp);
    __m512i acc[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                      _mm512_setzero_si512()};
    ptrdiff_t xa, wa;
    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++) {
        for (int32_t kw = 0; kw < p[SM2C_RT_WIN_KW]; kw++) {
            if (!dw8_tap(p, oh, ow, kh, kw, &xa, &wa))
                continue;
            const __m512i xb = _mm512_maskz_loadu_epi8(m, x + xa + c0);
            const __m512i wb = _mm512_maskz_loadu_epi8(m, w + wa + c0);
#define DW8_MAC(j)                                                                         \
    acc[j] = _mm512_add_epi32(                                                             \
        acc[j], _mm512_mullo_epi32(                                                        \
                    _mm512_sub_epi32(_mm512_cvtepi8_epi32(_mm512_extracti32x4_epi32(xb, j)), zp), \
                    _mm512_cvtepi8_epi32(_mm512_extracti32x4_epi32(wb, j))));
            DW8_MAC(0) DW8_MAC(1) DW8_MAC(2) DW8_MAC(3)
#undef DW8_MAC
        }
    }
    for (int j = 0; j * 16 < nr; j++)
        q8_out512(acc[j], c0 + 16 * j, nr - 16 * j, q, y + 16 * j);
}
#endif

/* Windows of up to this many taps keep the filter of a block of 16 channels
** (AVX2: 8) widened to int32 in registers or on the stack (1.6 KB); larger
** ones take dw8_vnni_64 (dw8_avx2_32). */
enum { DW8_TAPS = 25 };

#if SM2C_RT_VNNI

/* 16 int8 values from p (the first nr when nr < 16, the rest 0) widened. */
SM2C_RT_TARGET_VNNI static inline __m512i dw8_widen16(const int8_t *p, int32_t nr, __mmask64 m)
{
    if (nr >= 16)
        return _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
    return _mm512_cvtepi8_epi32(_mm512_castsi512_si128(_mm512_maskz_loadu_epi8(m, p)));
}

/* Channels c0 .. c0 + nr - 1 (nr <= 16) of every output pixel of image x,
** the window of KH * KW <= DW8_TAPS taps.  The block's filter is widened
** once; a pixel whose window lies inside the input then adds x * w per tap
** and subtracts in_zp times the filter's sum at the end (the same exact
** sum), a pixel at the border adds (x - in_zp) * w over the taps inside. */
SM2C_RT_TARGET_VNNI static inline void dw8_vnni_16(const int8_t *x, const int8_t *w, const int32_t *p,
                                                   int32_t c0, int32_t nr, int32_t in_zp, const q8_out *q,
                                                   int8_t *y)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW], T = KH * KW;
    const int32_t SH = p[SM2C_RT_WIN_SH], SW = p[SM2C_RT_WIN_SW], DH = p[SM2C_RT_WIN_DH];
    const int32_t DW = p[SM2C_RT_WIN_DW], PT = p[SM2C_RT_WIN_PT], PL = p[SM2C_RT_WIN_PL];
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW];
    const __mmask64 m = nr >= 16 ? (__mmask64)0xFFFF : (((__mmask64)1 << nr) - 1);
    const __m512i zp = _mm512_set1_epi32(in_zp);
    __m512i wv[DW8_TAPS], wsum = _mm512_setzero_si512();
    ptrdiff_t xo[DW8_TAPS];
    for (int32_t t = 0; t < T; t++) {
        wv[t] = dw8_widen16(w + (ptrdiff_t)t * C + c0, nr, m);
        wsum = _mm512_add_epi32(wsum, wv[t]);
        xo[t] = ((ptrdiff_t)(t / KW) * DH * W + (ptrdiff_t)(t % KW) * DW) * C;
    }
    const __m512i zsum = _mm512_mullo_epi32(wsum, zp);
    q8_prep512 rq;
    q8_prep(&rq, c0, nr, q);
    for (int32_t oh = 0; oh < OH; oh++) {
        const int32_t ih0 = oh * SH - PT;
        const int rows_in = ih0 >= 0 && ih0 + (KH - 1) * DH < H;
        for (int32_t ow = 0; ow < OW; ow++) {
            const int32_t iw0 = ow * SW - PL;
            __m512i acc = _mm512_setzero_si512();
            if (rows_in && iw0 >= 0 && iw0 + (KW - 1) * DW < W) {
                /* two chains of sums, kept in registers */
                const int8_t *xp = x + ((ptrdiff_t)ih0 * W + iw0) * C + c0;
                __m512i a0 = _mm512_setzero_si512(), a1 = _mm512_setzero_si512();
                int32_t t = 0;
                for (; t + 2 <= T; t += 2) {
                    a0 = _mm512_add_epi32(a0, _mm512_mullo_epi32(dw8_widen16(xp + xo[t], nr, m), wv[t]));
                    a1 = _mm512_add_epi32(a1,
                                          _mm512_mullo_epi32(dw8_widen16(xp + xo[t + 1], nr, m), wv[t + 1]));
                }
                if (t < T)
                    a0 = _mm512_add_epi32(a0, _mm512_mullo_epi32(dw8_widen16(xp + xo[t], nr, m), wv[t]));
                acc = _mm512_sub_epi32(_mm512_add_epi32(a0, a1), zsum);
            } else {
                for (int32_t kh = 0; kh < KH; kh++) {
                    const int32_t ih = ih0 + kh * DH;
                    if ((uint32_t)ih >= (uint32_t)H)
                        continue;
                    for (int32_t kw = 0; kw < KW; kw++) {
                        const int32_t iw = iw0 + kw * DW;
                        if ((uint32_t)iw >= (uint32_t)W)
                            continue;
                        const int8_t *xp = x + ((ptrdiff_t)ih * W + iw) * C + c0;
                        const __m512i xv = _mm512_sub_epi32(dw8_widen16(xp, nr, m), zp);
                        acc = _mm512_add_epi32(acc, _mm512_mullo_epi32(xv, wv[kh * KW + kw]));
                    }
                }
            }
            q8_apply512(acc, &rq, q, y + ((ptrdiff_t)oh * OW + ow) * C);
        }
    }
}
#endif

#if SM2C_RT_VNNI
/* Four taps' 64 channels t[0..3] as vpdpbusd operands: q[i] dword 4L + m
** holds the four taps of channel 16L + 4i + m (L the 128-bit lane), the
** order the byte and word unpacks give. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void dw8_taps4(const __m512i *t, __m512i *q)
{
    const __m512i a = _mm512_unpacklo_epi8(t[0], t[1]), b = _mm512_unpackhi_epi8(t[0], t[1]);
    const __m512i c = _mm512_unpacklo_epi8(t[2], t[3]), d = _mm512_unpackhi_epi8(t[2], t[3]);
    q[0] = _mm512_unpacklo_epi16(a, c);
    q[1] = _mm512_unpackhi_epi16(a, c);
    q[2] = _mm512_unpacklo_epi16(b, d);
    q[3] = _mm512_unpackhi_epi16(b, d);
}

/* The 4x4 transpose of a, b, c, d's 128-bit lanes. */
SM2C_RT_TARGET_VNNI static inline void dw8_lanes4(__m512i *a, __m512i *b, __m512i *c, __m512i *d)
{
    const __m512i t0 = _mm512_shuffle_i64x2(*a, *b, 0x44), t1 = _mm512_shuffle_i64x2(*a, *b, 0xEE);
    const __m512i t2 = _mm512_shuffle_i64x2(*c, *d, 0x44), t3 = _mm512_shuffle_i64x2(*c, *d, 0xEE);
    *a = _mm512_shuffle_i64x2(t0, t2, 0x88), *b = _mm512_shuffle_i64x2(t0, t2, 0xDD);
    *c = _mm512_shuffle_i64x2(t1, t3, 0x88), *d = _mm512_shuffle_i64x2(t1, t3, 0xDD);
}

/* The requantization of dw8_vnni_taps4's lanes (lane 16L + 4i + m in dword
** 4L + m of sum i; with px > 1 the lane's channel is c0 + lane % nr): each
** 16 lanes prepared in order (rq[L] holds lanes 16L ..), then every field
** moved to the interleaved order.  That order is lane i of rq[L] into lane
** L of rq[i], a transpose of 128-bit lanes that keeps each pair of
** channels, so the 64-bit fields of the fast form move as the 32-bit ones
** do.  The four must share a form (the scalars stay rq[0]'s): when they do
** not, the lanes are gathered one by one instead. */
SM2C_RT_TARGET_VNNI static inline void dw8_prep_interleaved(const q8_out *q, int32_t c0, int32_t nr, int32_t px,
                                                            q8_prep512 *rq)
{
    int32_t lb[64], lm[64], ls[64];
    float lf[64];
    /* lane k's channel (interleaved: k's lane in channel order) */
#define DW8_LANE_CH(lane) (c0 + (px > 1 ? (lane) % nr : (lane)))
#define DW8_LANES(at)                                                                      \
    for (int32_t k = 0; k < 64; k++) {                                                     \
        const int32_t lane = (at), on = lane < px * nr;                                    \
        lb[k] = on && q->bias ? q->bias[DW8_LANE_CH(lane)] : 0;                            \
        lm[k] = on && !q->scale ? q->mult[DW8_LANE_CH(lane)] : 0;                          \
        ls[k] = on && !q->scale ? q->shift[DW8_LANE_CH(lane)] : 0;                         \
        lf[k] = on && q->scale ? q->scale[DW8_LANE_CH(lane)] : 0.0f;                       \
    }
    q8_out ql = *q;
    int32_t o0 = c0, n = nr;
    if (px > 1) { /* the C = nr values px times over */
        DW8_LANES(k)
        ql.bias = lb, ql.mult = lm, ql.shift = ls, ql.scale = q->scale ? lf : NULL;
        o0 = 0, n = 64;
    }
    for (int L = 0; L < 4; L++)
        q8_prep(&rq[L], o0 + 16 * L, n > 16 * L ? n - 16 * L : 0, &ql);
    int same = 1;
    for (int L = 1; L < 4; L++)
        same &= rq[L].is_float == rq[0].is_float && rq[L].fast == rq[0].fast && rq[L].sign == rq[0].sign &&
                rq[L].nearest == rq[0].nearest;
    if (!same) { /* lane by lane, in the interleaved order */
        DW8_LANES(16 * (k % 16 / 4) + 4 * (k / 16) + k % 4)
        const q8_out qp = {lb, lm, ls, q->out_zp, q->act_min, q->act_max, q->scale ? lf : NULL, 0};
        for (int i = 0; i < 4; i++)
            q8_prep(&rq[i], 16 * i, 16, &qp);
        return;
    }
#undef DW8_LANES
#undef DW8_LANE_CH
    dw8_lanes4(&rq[0].bias, &rq[1].bias, &rq[2].bias, &rq[3].bias);
    dw8_lanes4(&rq[0].m, &rq[1].m, &rq[2].m, &rq[3].m);
    dw8_lanes4(&rq[0].m_odd, &rq[1].m_odd, &rq[2].m_odd, &rq[3].m_odd);
    dw8_lanes4(&rq[0].u.d.left, &rq[1].u.d.left, &rq[2].u.d.left, &rq[3].u.d.left);
    dw8_lanes4(&rq[0].u.d.right, &rq[1].u.d.right, &rq[2].u.d.right, &rq[3].u.d.right);
    dw8_lanes4(&rq[0].u.d.mask, &rq[1].u.d.mask, &rq[2].u.d.mask, &rq[3].u.d.mask);
    dw8_lanes4(&rq[0].u.d.thr, &rq[1].u.d.thr, &rq[2].u.d.thr, &rq[3].u.d.thr);
    __m512i sc[4];
    for (int L = 0; L < 4; L++)
        sc[L] = _mm512_castps_si512(rq[L].scale);
    dw8_lanes4(&sc[0], &sc[1], &sc[2], &sc[3]);
    /* the masks: bit 4L + m of rq[i]'s is bit 4i + m of rq[L]'s */
    const uint64_t kall = (uint64_t)rq[0].k | (uint64_t)rq[1].k << 16 | (uint64_t)rq[2].k << 32 |
                          (uint64_t)rq[3].k << 48;
    int has_left = 0, has_min = 0;
    for (int L = 0; L < 4; L++)
        has_left |= rq[L].has_left, has_min |= rq[L].has_min;
    for (int i = 0; i < 4; i++) {
        unsigned k = 0;
        for (int L = 0; L < 4; L++)
            k |= (unsigned)((kall >> (16 * L + 4 * i)) & 0xFu) << (4 * L);
        rq[i].k = (__mmask16)k;
        rq[i].scale = _mm512_castsi512_ps(sc[i]);
        rq[i].has_left = has_left, rq[i].has_min = has_min;
    }
}

/* One output vector of dw8_vnni_taps4's sums acc[0..3] (lane 16L + 4i + m
** in dword 4L + m of acc[i]) requantized and stored: the saturating packs of
** the clamped lanes, (acc 0, 1) and (acc 2, 3) to words, then to bytes, put
** each 128-bit lane's 16 bytes back in order. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void dw8_store4(const __m512i *acc, const q8_prep512 *rq,
                                                                const q8_out *q, __mmask64 m, int8_t *y)
{
    const __m512i lo = _mm512_packs_epi32(q8_apply512_v(acc[0], &rq[0], q), q8_apply512_v(acc[1], &rq[1], q));
    const __m512i hi = _mm512_packs_epi32(q8_apply512_v(acc[2], &rq[2], q), q8_apply512_v(acc[3], &rq[3], q));
    _mm512_mask_storeu_epi8(y, m, _mm512_packs_epi16(lo, hi));
}

/* Where a block of dw8_rows3's at stride 2 along W reads: the pixel of each
** of its px (8, 4 or 2) lanes' C = 64 / px values is every other one of
** 2 px pixels, the first px of them at a tap (lo) and the next px 64 bytes
** on (hi), which a permute of quadwords gathers.  Only the n pixels of the
** block load, so no read goes past the image. */
typedef struct {
    __mmask64 lo, hi;
    __m512i idx;
} dw8_gather;

SM2C_RT_TARGET_VNNI static inline dw8_gather dw8_gather_of(int32_t C, int32_t n)
{
    const int32_t px = 64 / C, q = C / 8;
    const uint64_t chunk = C >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << C) - 1;
    int64_t idx[8];
    dw8_gather g = {0, 0, _mm512_setzero_si512()};
    for (int32_t j = 0; j < 8; j++)
        idx[j] = 2 * (j / q) * q + j % q;
    for (int32_t p = 0; p < n; p++) {
        if (2 * p < px)
            g.lo |= chunk << (2 * p * C);
        else
            g.hi |= chunk << ((2 * p - px) * C);
    }
    g.idx = _mm512_loadu_si512((const void *)idx);
    return g;
}

/* R (a literal, 1 to 4) output rows of a 3-row window with one row of
** dilation, stride SH (a literal, 1 or 2), at one block of columns: input
** row r from xp + r * rowx, its taps at xo[0..3] interleaved once
** (dw8_taps4) and multiplied into every output row whose window holds it,
** where the per-pixel loop interleaves each row of taps for each output row
** it reads (three times at stride 1).  Row i goes to yp + i * rowy.  The
** filter wf[kh] is row kh's quad.  With GATHER (a literal), each tap's
** lanes come through gt (stride 2 along W, dw8_gather). */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void dw8_rows3(const int8_t *xp, ptrdiff_t rowx,
                                                               const ptrdiff_t *xo, __mmask64 m,
                                                               const dw8_gather *gt,
                                                               const __m512i (*wf)[4], const q8_prep512 *rq,
                                                               const q8_out *q, int8_t *yp, ptrdiff_t rowy,
                                                               const int R, const int SH, const int GATHER)
{
    const __m512i flip = _mm512_set1_epi8((char)0x80), zero = _mm512_setzero_si512();
/* tap k of input row xr: x + 128 in the lanes' order */
#define DW8_TAP(k)                                                                         \
    _mm512_xor_si512(GATHER ? _mm512_permutex2var_epi64(_mm512_maskz_loadu_epi8(gt->lo, xr + xo[k]), gt->idx, \
                                                        _mm512_maskz_loadu_epi8(gt->hi, xr + xo[k] + 64)) \
                            : _mm512_maskz_loadu_epi8(m, xr + xo[k]),                      \
                     flip)
    __m512i a0[4] = {zero, zero, zero, zero}, a1[4] = {zero, zero, zero, zero};
    __m512i a2[4] = {zero, zero, zero, zero}, a3[4] = {zero, zero, zero, zero};
/* the filter row of output row i's window that input row r is (0 outside) */
#define DW8_KH(i, r) ((unsigned)((r) - (i) * SH) < 3u ? (r) - (i) * SH : 0)
#define DW8_INTO(i, r)                                                                     \
    if ((i) < R && (unsigned)((r) - (i) * SH) < 3u) {                                      \
        a##i[0] = _mm512_dpbusd_epi32(a##i[0], v[0], wf[DW8_KH(i, r)][0]);                 \
        a##i[1] = _mm512_dpbusd_epi32(a##i[1], v[1], wf[DW8_KH(i, r)][1]);                 \
        a##i[2] = _mm512_dpbusd_epi32(a##i[2], v[2], wf[DW8_KH(i, r)][2]);                 \
        a##i[3] = _mm512_dpbusd_epi32(a##i[3], v[3], wf[DW8_KH(i, r)][3]);                 \
    }
#define DW8_ROW(r)                                                                         \
    if ((r) < (R - 1) * SH + 3) {                                                          \
        const int8_t *xr = xp + (r) * rowx;                                                \
        __m512i t[4], v[4];                                                                \
        t[0] = DW8_TAP(0), t[1] = DW8_TAP(1), t[2] = DW8_TAP(2), t[3] = DW8_TAP(3);        \
        dw8_taps4(t, v);                                                                   \
        DW8_INTO(0, r) DW8_INTO(1, r) DW8_INTO(2, r) DW8_INTO(3, r)                        \
    }
    DW8_ROW(0) DW8_ROW(1) DW8_ROW(2) DW8_ROW(3) DW8_ROW(4) DW8_ROW(5) DW8_ROW(6) DW8_ROW(7) DW8_ROW(8)
#undef DW8_ROW
#undef DW8_INTO
#undef DW8_KH
#undef DW8_TAP
    dw8_store4(a0, rq, q, m, yp);
    if (R > 1)
        dw8_store4(a1, rq, q, m, yp + rowy);
    if (R > 2)
        dw8_store4(a2, rq, q, m, yp + 2 * rowy);
    if (R > 3)
        dw8_store4(a3, rq, q, m, yp + 3 * rowy);
}

#define DW8_ROWS(name, R, SH, GATHER)                                                      \
    SM2C_RT_TARGET_VNNI static void name(const int8_t *xp, ptrdiff_t rowx, const ptrdiff_t *xo, __mmask64 m, \
                                         const dw8_gather *gt, const __m512i (*wf)[4],      \
                                         const q8_prep512 *rq, const q8_out *q, int8_t *yp, ptrdiff_t rowy) \
    {                                                                                      \
        dw8_rows3(xp, rowx, xo, m, gt, wf, rq, q, yp, rowy, R, SH, GATHER);                \
    }
DW8_ROWS(dw8_rows3_x1, 1, 1, 0)
DW8_ROWS(dw8_rows3_s1x2, 2, 1, 0)
DW8_ROWS(dw8_rows3_s1x3, 3, 1, 0)
DW8_ROWS(dw8_rows3_s1x4, 4, 1, 0)
DW8_ROWS(dw8_rows3_s2x2, 2, 2, 0)
DW8_ROWS(dw8_rows3_s2x3, 3, 2, 0)
DW8_ROWS(dw8_rows3_s2x4, 4, 2, 0)
DW8_ROWS(dw8_rows3_g1, 1, 2, 1)
DW8_ROWS(dw8_rows3_g2, 2, 2, 1)
DW8_ROWS(dw8_rows3_g3, 3, 2, 1)
DW8_ROWS(dw8_rows3_g4, 4, 2, 1)
#undef DW8_ROWS

/* dw8_rows3 of R = 1 .. 4 rows (kind 0: stride 1, 1: stride 2, 2: stride 2
** by both, gathered).  Direct calls, not a table of pointers: the stack
** check (tests/stack) then knows every frame of the chain. */
SM2C_RT_TARGET_VNNI static void dw8_rows3_call(int kind, int32_t R, const int8_t *xp, ptrdiff_t rowx,
                                               const ptrdiff_t *xo, __mmask64 m, const dw8_gather *gt,
                                               const __m512i (*wf)[4], const q8_prep512 *rq, const q8_out *q,
                                               int8_t *yp, ptrdiff_t rowy)
{
#define DW8_CALL(fn) fn(xp, rowx, xo, m, gt, wf, rq, q, yp, rowy)
    switch (kind * 4 + R - 1) {
    case 1: DW8_CALL(dw8_rows3_s1x2); break;
    case 2: DW8_CALL(dw8_rows3_s1x3); break;
    case 3: DW8_CALL(dw8_rows3_s1x4); break;
    case 5: DW8_CALL(dw8_rows3_s2x2); break;
    case 6: DW8_CALL(dw8_rows3_s2x3); break;
    case 7: DW8_CALL(dw8_rows3_s2x4); break;
    case 8: DW8_CALL(dw8_rows3_g1); break;
    case 9: DW8_CALL(dw8_rows3_g2); break;
    case 10: DW8_CALL(dw8_rows3_g3); break;
    case 11: DW8_CALL(dw8_rows3_g4); break;
    default: DW8_CALL(dw8_rows3_x1); /* one row, not gathered: either stride */
    }
#undef DW8_CALL
}

/* Whether dw8_vnni_taps4 takes a layer four output rows at a time
** (dw8_rows3): rows of 3 or 4 taps, 3 rows, no dilation along H, stride 1
** or 2 along H. */
static inline int dw8_rows3_fits(const int32_t *p)
{
    return (p[SM2C_RT_WIN_KW] == 3 || p[SM2C_RT_WIN_KW] == 4) && p[SM2C_RT_WIN_KH] == 3 &&
           p[SM2C_RT_WIN_DH] == 1 && (p[SM2C_RT_WIN_SH] == 1 || p[SM2C_RT_WIN_SH] == 2);
}

/* Channels c0 .. c0 + nr - 1 (nr <= 64) of every output pixel of image x, a
** layer whose every window lies inside (sm2c_rt__win_inside) and has at most DW8_TAPS
** taps; with px > 1 (all nr = C channels, C * px = 64, stride 1, or 2 by
** both H and W, gathered), px pixels of a row to a vector, its lanes the px
** pixels' channels as they lie in the output.  Four taps at a time go into one vpdpbusd per 16
** lanes: the taps' bytes (x + 128) interleaved by dw8_taps4, the filter the
** same way once, so a vector costs per 4 taps 4 loads, 8 unpacks and 4 dot
** products, where dw8_vnni_16 widens and multiplies tap by tap.  A window
** of 3 or 4 taps a row takes them a row at a time (a quad each, the fourth
** tap of 3 against a zero filter), and with 3 rows, no dilation and stride
** 1 or 2, four output rows at once (dw8_rows3), each input row interleaved
** once for all four.  The filter's sums times in_zp + 128 come off the bias
** once: the same exact sum, so the same bits. */
SM2C_RT_TARGET_VNNI static inline void dw8_vnni_taps4(const int8_t *x, const int8_t *w, const int32_t *p,
                                                      int32_t c0, int32_t nr, int32_t px, int32_t in_zp,
                                                      const q8_out *q, int8_t *y)
{
    const int32_t W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C], KW = p[SM2C_RT_WIN_KW], KH = p[SM2C_RT_WIN_KH];
    const int32_t T = KH * KW;
    const int32_t SH = p[SM2C_RT_WIN_SH], SW = p[SM2C_RT_WIN_SW], DH = p[SM2C_RT_WIN_DH];
    const int32_t DW = p[SM2C_RT_WIN_DW], OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW];
    /* by rows of taps (group g is row g) or four taps of the window in turn */
    const int by_row = (KW == 3 || KW == 4) && KH <= (DW8_TAPS + 3) / 4;
    const int32_t G = by_row ? KH : (T + 3) / 4;
    const __m512i flip = _mm512_set1_epi8((char)0x80), zero = _mm512_setzero_si512();
    __m512i wf[(DW8_TAPS + 3) / 4][4], wsum[4] = {zero, zero, zero, zero};
    ptrdiff_t xo[(DW8_TAPS + 3) / 4 * 4];
    int8_t lane_w[64];
    const __mmask64 m_nr = nr >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << nr) - 1);
    for (int32_t g = 0; g < G; g++) {
        __m512i t[4];
        for (int32_t b = 0; b < 4; b++) {
            const int32_t tap = by_row ? g * KW + b : 4 * g + b;
            const int on = by_row ? b < KW : tap < T;
            /* a tap past the window (or its row) reads tap 0's input against a zero filter */
            if (!on) {
                t[b] = zero;
            } else if (px == 1) {
                t[b] = _mm512_maskz_loadu_epi8(m_nr, w + (ptrdiff_t)tap * C + c0);
            } else { /* the C values px times (C a power of 2 here) */
                for (int32_t k = 0; k < 64; k += nr)
                    memcpy(lane_w + k, w + (ptrdiff_t)tap * C, (size_t)nr);
                t[b] = _mm512_loadu_si512((const void *)lane_w);
            }
            xo[4 * g + b] = on ? ((ptrdiff_t)(tap / KW) * DH * W + (ptrdiff_t)(tap % KW) * DW) * C : 0;
        }
        dw8_taps4(t, wf[g]);
        for (int i = 0; i < 4; i++)
            wsum[i] = _mm512_dpbusd_epi32(wsum[i], _mm512_set1_epi8(1), wf[g][i]);
    }
    q8_prep512 rq[4];
    dw8_prep_interleaved(q, c0, nr, px, rq);
    for (int i = 0; i < 4; i++)
        rq[i].bias = _mm512_sub_epi32(rq[i].bias, _mm512_mullo_epi32(wsum[i], _mm512_set1_epi32(in_zp + 128)));
    int32_t oh = 0;
    if (dw8_rows3_fits(p)) {
        const ptrdiff_t rowx = (ptrdiff_t)W * C, rowy = (ptrdiff_t)OW * C;
        const int gather = px > 1 && SW == 2;
        for (int32_t R; oh < OH; oh += R) {
            R = OH - oh < 4 ? OH - oh : 4;
            for (int32_t ow = 0; ow < OW; ow += px) {
                const int32_t n = OW - ow < px ? OW - ow : px, on = n * nr;
                const __mmask64 m = on >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << on) - 1);
                const dw8_gather gt = gather ? dw8_gather_of(C, n) : (dw8_gather){0, 0, zero};
                dw8_rows3_call(gather ? 2 : SH - 1, R, x + ((ptrdiff_t)oh * SH * W + (ptrdiff_t)ow * SW) * C + c0,
                               rowx, xo, m, &gt, (const __m512i(*)[4])wf, rq, q,
                               y + ((ptrdiff_t)oh * OW + ow) * C, rowy);
            }
        }
    }
    /* no loops over the four taps or sums: -O2 then keeps them in registers */
    for (; oh < OH; oh++)
        for (int32_t ow = 0; ow < OW; ow += px) {
            const int32_t on = (OW - ow < px ? OW - ow : px) * nr;
            const __mmask64 m = on >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << on) - 1);
            const int8_t *xp = x + ((ptrdiff_t)oh * SH * W + (ptrdiff_t)ow * SW) * C + c0;
            __m512i acc[4] = {zero, zero, zero, zero};
            for (int32_t g = 0; g < G; g++) {
                const ptrdiff_t *o = xo + 4 * g;
                __m512i t[4], v[4];
                t[0] = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, xp + o[0]), flip);
                t[1] = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, xp + o[1]), flip);
                t[2] = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, xp + o[2]), flip);
                t[3] = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, xp + o[3]), flip);
                dw8_taps4(t, v);
                acc[0] = _mm512_dpbusd_epi32(acc[0], v[0], wf[g][0]);
                acc[1] = _mm512_dpbusd_epi32(acc[1], v[1], wf[g][1]);
                acc[2] = _mm512_dpbusd_epi32(acc[2], v[2], wf[g][2]);
                acc[3] = _mm512_dpbusd_epi32(acc[3], v[3], wf[g][3]);
            }
            dw8_store4(acc, rq, q, m, y + ((ptrdiff_t)oh * OW + ow) * C);
        }
}
#endif

#if SM2C_RT_S8_AVX2
/* n (<= 8) int8 values from p widened to int32; a whole load when n is 8. */
SM2C_RT_TARGET_S8_AVX2 static inline __m256i dw8_widen8(const int8_t *p, int32_t n)
{
    if (n >= 8)
        return _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
    int8_t t[8] = {0};
    memcpy(t, p, (size_t)(n < 8 ? n : 8));
    return _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)t));
}

/* dw8_vnni_64 on AVX2: up to 32 channels. */
SM2C_RT_TARGET_S8_AVX2 static inline void dw8_avx2_32(const int8_t *x, const int8_t *w, const int32_t *p,
                                                      int32_t oh, int32_t ow, int32_t c0, int32_t nr,
                                                      int32_t in_zp, const q8_out *q, int8_t *y)
{
    const __m256i zp = _mm256_set1_epi32(in_zp);
    __m256i acc[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
                      _mm256_setzero_si256()};
    ptrdiff_t xa, wa;
    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++) {
        for (int32_t kw = 0; kw < p[SM2C_RT_WIN_KW]; kw++) {
            if (!dw8_tap(p, oh, ow, kh, kw, &xa, &wa))
                continue;
            const int8_t *xp = x + xa + c0;
            const int8_t *wp = w + wa + c0;
            for (int j = 0; j * 8 < nr; j++) {
                const __m256i xv = _mm256_sub_epi32(dw8_widen8(xp + 8 * j, nr - 8 * j), zp);
                acc[j] = _mm256_add_epi32(acc[j], _mm256_mullo_epi32(xv, dw8_widen8(wp + 8 * j, nr - 8 * j)));
            }
        }
    }
    for (int j = 0; j * 8 < nr; j++)
        q8_out256(acc[j], c0 + 8 * j, nr - 8 * j, q, y + 8 * j);
}
#endif

#if SM2C_RT_S8_AVX2
/* dw8_vnni_16 on AVX2 for a layer whose every window lies inside
** (sm2c_rt__win_inside): channels c0 .. c0 + nr - 1 (nr <= 8) of every output pixel,
** the block's filter widened and its sum times in_zp taken off once, each
** pixel one load, multiply and add per tap, and requantized with the
** block's multipliers loaded once (dw8_avx2_32 looks each tap up and
** reloads them per pixel: 32.6 us per DS-CNN layer, 10x the VNNI time). */
SM2C_RT_TARGET_S8_AVX2 static inline void dw8_avx2_in8(const int8_t *x, const int8_t *w, const int32_t *p,
                                                      int32_t c0, int32_t nr, int32_t in_zp, const q8_out *q,
                                                      int8_t *y)
{
    const int32_t W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C], KW = p[SM2C_RT_WIN_KW];
    const int32_t T = p[SM2C_RT_WIN_KH] * KW, SH = p[SM2C_RT_WIN_SH], SW = p[SM2C_RT_WIN_SW];
    const int32_t DH = p[SM2C_RT_WIN_DH], DW = p[SM2C_RT_WIN_DW], OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW];
    __m256i wv[DW8_TAPS], wsum = _mm256_setzero_si256();
    ptrdiff_t xo[DW8_TAPS];
    for (int32_t t = 0; t < T; t++) {
        wv[t] = dw8_widen8(w + (ptrdiff_t)t * C + c0, nr);
        wsum = _mm256_add_epi32(wsum, wv[t]);
        xo[t] = ((ptrdiff_t)(t / KW) * DH * W + (ptrdiff_t)(t % KW) * DW) * C;
    }
    const __m256i bias = _mm256_sub_epi32(q->bias ? q8_load256(q->bias + c0, nr) : _mm256_setzero_si256(),
                                          _mm256_mullo_epi32(wsum, _mm256_set1_epi32(in_zp)));
    const q8_prep256 rq = q8_rq_prep256(c0, nr, q);
    for (int32_t oh = 0; oh < OH; oh++)
        for (int32_t ow = 0; ow < OW; ow++) {
            const int8_t *xp = x + ((ptrdiff_t)oh * SH * W + (ptrdiff_t)ow * SW) * C + c0;
            __m256i a0 = _mm256_setzero_si256(), a1 = _mm256_setzero_si256();
            int32_t t = 0;
            for (; t + 2 <= T; t += 2) {
                a0 = _mm256_add_epi32(a0, _mm256_mullo_epi32(dw8_widen8(xp + xo[t], nr), wv[t]));
                a1 = _mm256_add_epi32(a1, _mm256_mullo_epi32(dw8_widen8(xp + xo[t + 1], nr), wv[t + 1]));
            }
            if (t < T)
                a0 = _mm256_add_epi32(a0, _mm256_mullo_epi32(dw8_widen8(xp + xo[t], nr), wv[t]));
            const __m256i v = q8_rq256(_mm256_add_epi32(_mm256_add_epi32(a0, a1), bias), &rq, q);
            /* 8 int32 in [-128, 127] to 8 bytes */
            const __m128i w16 = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
            int8_t b[16];
            _mm_storeu_si128((__m128i *)(void *)b, _mm_packs_epi16(w16, w16));
            memcpy(y + ((ptrdiff_t)oh * OW + ow) * C, b, (size_t)nr);
        }
}
#endif

/* Depthwise of multiplier 1 on a SIMD kernel; 0 when there is none for this
** CPU, and nothing is written then. */
static inline int sm2c_rt__dw_s8_blocked(const int8_t *x, const int8_t *w, int8_t *y, const int32_t *p,
                                         int32_t in_zp, const q8_out *q)
{
#if SM2C_RT_VNNI || SM2C_RT_S8_AVX2
    int32_t nb = 0;
#if SM2C_RT_VNNI
    if (sm2c_rt__have_vnni())
        nb = 64;
#endif
#if SM2C_RT_S8_AVX2
    if (!nb && sm2c_rt__have_s8_avx2())
        nb = 32;
#endif
    if (!nb)
        return 0;
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW];
#if SM2C_RT_VNNI
    if (nb == 64 && p[SM2C_RT_WIN_KH] * p[SM2C_RT_WIN_KW] <= DW8_TAPS) {
        /* when every window is inside, four taps at a time: blocks of 64
        ** channels (one of 48 or more at the end), or with fewer channels
        ** dividing 64 and stride 1, 64 / C pixels to a vector; the rest by
        ** blocks of 16 */
        const int inside = sm2c_rt__win_inside(p);
        /* at stride 2 along W, pixels gathered by quadwords (dw8_gather) */
        const int32_t sw = p[SM2C_RT_WIN_SW];
        const int32_t px = inside && C >= 4 && C < 64 && 64 % C == 0 &&
                                   (sw == 1 || (sw == 2 && C >= 8 && p[SM2C_RT_WIN_SH] == 2 && dw8_rows3_fits(p)))
                               ? 64 / C
                               : 1;
        const int32_t wide = px > 1 ? C : inside ? (C + 16) / 64 * 64 : 0;
        for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
            for (int32_t c0 = 0; c0 < wide && c0 < C; c0 += 64)
                dw8_vnni_taps4(x + (ptrdiff_t)n * H * W * C, w, p, c0, C - c0 < 64 ? C - c0 : 64, px, in_zp, q,
                               y + (ptrdiff_t)n * OH * OW * C + c0);
        for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
            for (int32_t c0 = wide; c0 < C; c0 += 16)
                dw8_vnni_16(x + (ptrdiff_t)n * H * W * C, w, p, c0, C - c0 < 16 ? C - c0 : 16, in_zp, q,
                            y + (ptrdiff_t)n * OH * OW * C + c0);
        return 1;
    }
#endif
#if SM2C_RT_S8_AVX2
    if (nb == 32 && p[SM2C_RT_WIN_KH] * p[SM2C_RT_WIN_KW] <= DW8_TAPS && sm2c_rt__win_inside(p)) {
        for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
            for (int32_t c0 = 0; c0 < C; c0 += 8)
                dw8_avx2_in8(x + (ptrdiff_t)n * H * W * C, w, p, c0, C - c0 < 8 ? C - c0 : 8, in_zp, q,
                             y + (ptrdiff_t)n * OH * OW * C + c0);
        return 1;
    }
#endif
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < OH; oh++)
            for (int32_t ow = 0; ow < OW; ow++) {
                const int8_t *xn = x + (ptrdiff_t)n * H * W * C;
                int8_t *yp = y + (((ptrdiff_t)n * OH + oh) * OW + ow) * C;
                for (int32_t c0 = 0; c0 < C; c0 += nb) {
                    const int32_t nr = C - c0 < nb ? C - c0 : nb;
#if SM2C_RT_VNNI
                    if (nb == 64) {
                        dw8_vnni_64(xn, w, p, oh, ow, c0, nr, in_zp, q, yp + c0);
                        continue;
                    }
#endif
#if SM2C_RT_S8_AVX2
                    dw8_avx2_32(xn, w, p, oh, ow, c0, nr, in_zp, q, yp + c0);
#endif
                }
            }
    return 1;
#else
    (void)x, (void)w, (void)y, (void)p, (void)in_zp, (void)q;
    return 0;
#endif
}

#endif
