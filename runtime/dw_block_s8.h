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

/* Channels c0 .. c0 + nr - 1 (nr <= 64) of every output pixel of image x, a
** layer whose every window lies inside (sm2c_rt__win_inside) and has at most DW8_TAPS
** taps; with px > 1 (all nr = C channels, C * px = 64, stride 1), px pixels
** of a row to a vector, its lanes the px pixels' channels as they lie in the
** input and the output.  Four taps at a time go into one vpdpbusd per 16
** lanes: the taps' bytes (x + 128) interleaved by dw8_taps4, the filter the
** same way once, so a vector costs per 4 taps 4 loads, 8 unpacks and 4 dot
** products, where dw8_vnni_16 widens and multiplies tap by tap.  The
** filter's sums times in_zp + 128 come off the bias once: the same exact
** sum, so the same bits. */
SM2C_RT_TARGET_VNNI static inline void dw8_vnni_taps4(const int8_t *x, const int8_t *w, const int32_t *p,
                                                      int32_t c0, int32_t nr, int32_t px, int32_t in_zp,
                                                      const q8_out *q, int8_t *y)
{
    const int32_t W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C], KW = p[SM2C_RT_WIN_KW];
    const int32_t T = p[SM2C_RT_WIN_KH] * KW, G = (T + 3) / 4;
    const int32_t SH = p[SM2C_RT_WIN_SH], SW = p[SM2C_RT_WIN_SW], DH = p[SM2C_RT_WIN_DH];
    const int32_t DW = p[SM2C_RT_WIN_DW], OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW];
    const __m512i flip = _mm512_set1_epi8((char)0x80), zero = _mm512_setzero_si512();
    __m512i wf[(DW8_TAPS + 3) / 4][4], wsum[4] = {zero, zero, zero, zero};
    ptrdiff_t xo[(DW8_TAPS + 3) / 4 * 4];
    int8_t lane_w[64];
    const __mmask64 m_nr = nr >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << nr) - 1);
    for (int32_t g = 0; g < G; g++) {
        __m512i t[4];
        for (int32_t b = 0; b < 4; b++) {
            const int32_t tap = 4 * g + b;
            /* a tap past the window reads tap 0's input against a zero filter */
            if (tap >= T) {
                t[b] = zero;
            } else if (px == 1) {
                t[b] = _mm512_maskz_loadu_epi8(m_nr, w + (ptrdiff_t)tap * C + c0);
            } else { /* the C values px times (C a power of 2 here) */
                for (int32_t k = 0; k < 64; k += nr)
                    memcpy(lane_w + k, w + (ptrdiff_t)tap * C, (size_t)nr);
                t[b] = _mm512_loadu_si512((const void *)lane_w);
            }
            xo[tap] = tap < T ? ((ptrdiff_t)(tap / KW) * DH * W + (ptrdiff_t)(tap % KW) * DW) * C : 0;
        }
        dw8_taps4(t, wf[g]);
        for (int i = 0; i < 4; i++)
            wsum[i] = _mm512_dpbusd_epi32(wsum[i], _mm512_set1_epi8(1), wf[g][i]);
    }
    /* requantization per lane, in the interleaved order: lane 16L + 4i + m
    ** is dword 4L + m of sum i */
    int32_t pb[64], pm[64], ps[64];
    float pf[64];
    for (int32_t k = 0; k < 64; k++) {
        const int32_t lane = 16 * (k % 16 / 4) + 4 * (k / 16) + k % 4, ch = c0 + (px > 1 ? lane & (nr - 1) : lane);
        const int on = lane < px * nr;
        pb[k] = on && q->bias ? q->bias[ch] : 0;
        pm[k] = on && !q->scale ? q->mult[ch] : 0;
        ps[k] = on && !q->scale ? q->shift[ch] : 0;
        pf[k] = on && q->scale ? q->scale[ch] : 0.0f;
    }
    const q8_out qp = {pb, pm, ps, q->out_zp, q->act_min, q->act_max, q->scale ? pf : NULL, 0};
    q8_prep512 rq[4];
    for (int i = 0; i < 4; i++) {
        q8_prep(&rq[i], 16 * i, 16, &qp);
        rq[i].bias = _mm512_sub_epi32(rq[i].bias, _mm512_mullo_epi32(wsum[i], _mm512_set1_epi32(in_zp + 128)));
    }
    /* output lanes 16L + 4i .. + 3 (dword 4L + i) from dword 4i + L of the
    ** four results' bytes */
    const __m512i idx = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    /* no loops over the four taps or sums: -O2 then keeps them in registers */
    for (int32_t oh = 0; oh < OH; oh++)
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
            __m512i out = _mm512_castsi128_si512(_mm512_cvtepi32_epi8(q8_apply512_v(acc[0], &rq[0], q)));
            out = _mm512_inserti32x4(out, _mm512_cvtepi32_epi8(q8_apply512_v(acc[1], &rq[1], q)), 1);
            out = _mm512_inserti32x4(out, _mm512_cvtepi32_epi8(q8_apply512_v(acc[2], &rq[2], q)), 2);
            out = _mm512_inserti32x4(out, _mm512_cvtepi32_epi8(q8_apply512_v(acc[3], &rq[3], q)), 3);
            _mm512_mask_storeu_epi8(y + ((ptrdiff_t)oh * OW + ow) * C, m, _mm512_permutexvar_epi32(idx, out));
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
        const int32_t px = inside && C >= 4 && C < 64 && 64 % C == 0 && p[SM2C_RT_WIN_SW] == 1 ? 64 / C : 1;
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
