/*
** conv_block_f32.h: Conv2D without groups through a register-blocked
** micro-kernel (private to the runtime; conv_f32.c includes it).  Everything
** is static inline: a build of one kernel of conv_f32.c (rt_select.h) leaves
** the others' helpers unused without a warning.
**
** The convolution is a GEMM whose rows are output pixels, whose columns are
** output channels and whose reduction runs over the taps (kh, kw) and the input
** channels ic, in that order, as the reference in conv_f32.c.  A micro-kernel
** computes a block of MR pixels of one output row times NR output channels with
** every accumulator in a vector register: per input channel it loads NR filter
** values (contiguous in HWIO) and broadcasts one input value per pixel; bias,
** a residual and the activation are applied to the registers before the block
** is stored.  A tap
** that falls in the padding reads a static block of zeros instead of the input,
** so border pixels take the same path as the others (adding 0 * w keeps the
** sum).  No scratch: the input is read in place.  The loops run over
** output-channel blocks outermost, so one block's filter panel stays in L2
** while every pixel passes, except where a small filter writes a large
** output (cb_pixels_outer).
**
** The filter is HWIO, or packed (sm2c_rt_conv2d_packed_f32): panels of 16
** output channels, each [KH, KW, C, 16] and contiguous, laid out by the
** compiler.  A block then reads its filter as one or two sequential streams
** instead of NR values every OC, which a large layer's filter (megabytes,
** read once per call) needs to keep the prefetcher ahead: ResNet50's 3x3
** 512-channel layer at 7x7 took 1.6x less time.  The sums are the same.
**
** Paths (simd_f32.h): AVX-512 (32 channels x 6 or 7 pixels, 16 x 8, or 8 x 8 in
** 8-lane vectors), AVX2+FMA (16 x 6, or 8 x 8), NEON (16 x 4, or 8 x 4 for the last 8 channels or fewer), and
** portable C (16 x 4) that compilers vectorise.  The SIMD paths
** use FMA, so their sums round once per step: within reliability.md's
** contraction tolerance, and the same in both backends (they call this code).
*/
#ifndef SM2C_RT_CONV_BLOCK_F32_H
#define SM2C_RT_CONV_BLOCK_F32_H

#include <stddef.h>
#include <stdint.h>

#include "act_f32.h"
#include "rt_select.h"
#include "simd_act_f32.h"
#include "simd_f32.h"
#include "sm2c_rt.h"

enum { CB_ZEROS = 1024 }; /* the longest input-channel run a padding tap can read */
enum { CB_PANEL = 16 };   /* output channels per panel of a packed filter */

static const float sm2c_rt__conv_zeros[CB_ZEROS] = {0.0f};

/* A layer's geometry: what the micro-kernels need to find their taps.  The
** depthwise tiles (dw_block_f32.h) also use the row fields ih0, kh0, kh1. */
typedef struct {
    const float *x; /* image n */
    const float *w; /* HWIO filter, or packed in panels of CB_PANEL channels */
    ptrdiff_t ws;   /* filter floats from one input channel to the next: OC, or CB_PANEL */
    ptrdiff_t w16;  /* filter floats from output channel oc0 to oc0 + 16 (oc0 % 16 == 0) */
    ptrdiff_t wpanel; /* packed: floats per panel; 0: HWIO */
    const float *bias;
    int64_t ih0;    /* depthwise: input row of kh = 0 of the current output row */
    int32_t kh0, kh1; /* depthwise: filter rows inside the input */
    int32_t H, W, C, KH, KW, SH, SW, DH, DW, PT, PL, OW, OC;
    sm2c_rt__act act;    /* SM2C_RT_ACT_*, applied as each block is stored */
    const char *pf, *pf_end; /* the x86 kernels: lines to prefetch, one per input-channel step */
} cb_geom;

/* Input rows and columns of tap (0, 0) of the n pixels of a block of `rows`
** from pixel p0 (row-major over OH x OW); entries past `rows` repeat the
** last pixel (computed, never stored), so every kernel runs full blocks. */
static inline void cb_positions(const cb_geom *g, int32_t p0, int32_t rows, int32_t n,
                                int64_t *ih, int64_t *iw)
{
    int32_t oh = p0 / g->OW, ow = p0 % g->OW, r;

    for (r = 0; r < n; r++) {
        ih[r] = (int64_t)oh * g->SH - g->PT;
        iw[r] = (int64_t)ow * g->SW - g->PL;
        if (r + 1 < rows && ++ow == g->OW)
            ow = 0, oh++;
    }
}

/* The input channels at (ih, iw), or zeros in the padding. */
static inline const float *cb_tap(const cb_geom *g, int64_t ih, int64_t iw)
{
    if ((uint64_t)ih >= (uint64_t)g->H || (uint64_t)iw >= (uint64_t)g->W)
        return sm2c_rt__conv_zeros;
    return g->x + ((ptrdiff_t)ih * g->W + (ptrdiff_t)iw) * g->C;
}

/* The filter rows [*kh0, *kh1) that reach the input for some pixel of a
** block whose first and last pixels' tap rows are ih_first and ih_last. */
static inline void cb_filter_rows(const cb_geom *g, int64_t ih_first, int64_t ih_last,
                                  int32_t *kh0, int32_t *kh1)
{
    int32_t a = 0, b = g->KH;

    while (a < b && ih_last + (int64_t)a * g->DH < 0)
        a++;
    while (b > a && ih_first + (int64_t)(b - 1) * g->DH >= g->H)
        b--;
    *kh0 = a, *kh1 = b;
}

/* The kw loop of a block: *steps taps of *len input channels each.  When
** every pixel's whole filter row lies inside the input across (dilation 1),
** the KW taps of a filter row are one contiguous run of KW * C values, in the
** filter as in the input, and take one step: a layer with few input channels
** (an image's first convolution) then pays the per-tap set-up once per row. */
static inline void cb_kw_steps(const cb_geom *g, const int64_t *iw, int32_t n, int32_t *steps,
                               int32_t *len)
{
    int64_t lo = iw[0], hi = iw[0];
    int32_t r;

    for (r = 1; r < n; r++) {
        lo = iw[r] < lo ? iw[r] : lo;
        hi = iw[r] > hi ? iw[r] : hi;
    }
    if (g->DW == 1 && lo >= 0 && hi + g->KW <= g->W && (int64_t)g->KW * g->C <= CB_ZEROS) {
        *steps = 1, *len = g->KW * g->C;
        return;
    }
    *steps = g->KW, *len = g->C;
}

/* What a block of n pixels from p0 (`rows` of them stored) needs before its
** loops: each pixel's tap (0, 0), the filter rows it reaches, and its kw steps. */
static inline void cb_block_taps(const cb_geom *g, int32_t p0, int32_t rows, int32_t n,
                                 int64_t *ih, int64_t *iw, int32_t *kh0, int32_t *kh1,
                                 int32_t *steps, int32_t *len)
{
    cb_positions(g, p0, rows, n, ih, iw);
    cb_filter_rows(g, ih[0], ih[n - 1], kh0, kh1);
    cb_kw_steps(g, iw, n, steps, len);
}

/* Whether a block's taps need no per-row set-up: every filter row it reads
** (kh0 to kh1) lies inside the input for each of its n pixels, and reads one
** contiguous run (cb_kw_steps' single step).  Its pixels' tap pointers then
** move down a row by one stride, and the filter rows follow one another, so
** the kh loop keeps them instead of finding each tap again (cb_tap's tests
** per pixel and row): an image's first layer, 3 input channels and 9 values
** per row, spent more time there than in its FMAs (bench_kernels: VWW's
** 3 -> 8 at 96x96 1.23x faster, MobileNetV2's 3 -> 32 1.15x).  The taps are
** the same, in the same order, so the bits.  ih[] grows with the pixel. */
static inline int cb_flat(const cb_geom *g, const int64_t *ih, int32_t n, int32_t steps,
                          int32_t kh0, int32_t kh1)
{
    return steps == 1 && kh0 < kh1 && ih[0] + (int64_t)kh0 * g->DH >= 0 &&
           ih[n - 1] + (int64_t)(kh1 - 1) * g->DH < g->H;
}

/* A pixel's tap (kh0, 0) in a flat block (cb_flat: inside the input). */
static inline const float *cb_flat_tap(const cb_geom *g, int64_t ih, int64_t iw, int32_t kh0)
{
    return g->x + ((ih + (int64_t)kh0 * g->DH) * g->W + iw) * g->C;
}

/* The filter row of tap (kh, kw), input channel 0, from output channel oc0
** (a multiple of 16: every kernel's blocks start at one). */
static inline const float *cb_filter(const cb_geom *g, int32_t kh, int32_t kw, int32_t oc0)
{
    const ptrdiff_t tap = ((ptrdiff_t)kh * g->KW + kw) * g->C;

    if (g->wpanel)
        return g->w + oc0 / CB_PANEL * g->wpanel + tap * CB_PANEL;
    return g->w + tap * g->OC + oc0;
}


/* Per-pixel statements of the SIMD kernels, written out: each accumulator is
** a named variable, so it lives in a register at any optimisation level. */
#define CB_R4(M) M(0) M(1) M(2) M(3)
#define CB_R6(M) M(0) M(1) M(2) M(3) M(4) M(5)
#define CB_R7(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6)
#define CB_R8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define CB_FLAT_PTR(r) const float *x##r = cb_flat_tap(g, ih[r], iw[r], kh0);
#define CB_FLAT_DOWN(r) x##r += down;
/* A flat block's loops (cb_flat): R's pixels' tap pointers, moved down a row
** per filter row, never past the last one read; BODY per input channel, in
** the input-channel loop IC_LOOP (CB_IC_LOOP, or a kernel's own). */
#define CB_FLAT_LOOP_IN(R, IC_LOOP, BODY)                                                  \
    {                                                                                      \
        const ptrdiff_t down = (ptrdiff_t)g->DH * g->W * g->C;                             \
        const float *wt = cb_filter(g, kh0, 0, oc0);                                       \
        R(CB_FLAT_PTR)                                                                     \
        for (kh = kh0; kh < kh1; kh++) {                                                   \
            if (kh > kh0) {                                                                \
                R(CB_FLAT_DOWN)                                                            \
            }                                                                              \
            IC_LOOP(BODY)                                                                  \
        }                                                                                  \
    }
#define CB_FLAT_LOOP(R, BODY) CB_FLAT_LOOP_IN(R, CB_IC_LOOP, BODY)

/* The x86 kernels' prefetch (cb_prefetch_inline): one line of g->pf a step
** until g->pf_end, between the FMAs.  Issued all at once before the block,
** as the other kernels take it, a share of hundreds of lines stalled the
** loads behind it: ResNet50's 512 -> 2048 1x1 layer at 7x7, filter from
** memory, took 837 us so against 558. */
#if defined(__OPTIMIZE__)
#define CB_PF_INIT const char *pf = g->pf, *const pf_end = g->pf_end;
#define CB_PF_LINE                                                                         \
    SM2C_RT_PREFETCH_L2(pf);                                                               \
    pf += SM2C_RT_LINE;
/* A kernel's input-channel loop: the steps with a line to prefetch, then the
** rest as they were, so that a block without a share (pf == pf_end, every
** small layer's) runs the loop it always ran, with no test and no register
** more.  At -O0 one loop (two would outgrow the stack budget) and no share. */
#define CB_IC_LOOP(BODY)                                                                   \
    for (ic = 0; ic < len && pf < pf_end; ic++, wt += g->ws) {                             \
        CB_PF_LINE                                                                         \
        BODY                                                                               \
    }                                                                                      \
    for (; ic < len; ic++, wt += g->ws) {                                                  \
        BODY                                                                               \
    }
#else
#define CB_PF_INIT
#define CB_IC_LOOP(BODY)                                                                   \
    for (ic = 0; ic < len; ic++, wt += g->ws) {                                            \
        BODY                                                                               \
    }
#endif

/* 8 pixels x 8 channels, in 8-lane vectors: a layer with 8 channels left
** (an image's first layer of 8, VWW's).  A 16-lane vector would waste half
** of each FMA, where two 8-lane FMAs issue a cycle (both FMA pipes are 256
** bits wide on AMD's cores, and Intel's issue two 8-lane FMAs a cycle too):
** VWW's 3 -> 8 at 96x96 took 27.6 us instead of 31.9 (a clock around 200
** calls of the layer, best of 15).  Fewer than 8 channels keep the masked
** 16-lane kernel: masked 8-lane loads and stores cost more than they save
** (AMD's masked 8-lane store is slow).  No prefetch share: a filter of 8
** channels is never packed, so there is no next panel, and the share's
** pointers would crowd out the pixels' (GCC kept three in vector registers,
** reloading them each step).  Generated per ISA by CB_8LANE, ACT8 the
** activation (defined around it); each lane sums as in the other kernels: the same bits. */
#define CB8_ZERO(r) __m256 c##r = _mm256_setzero_ps();
#define CB8_PTR(r) const float *x##r = cb_tap(g, ih[r] + khd, iw[r] + kwd);
#define CB8_FMA(r) c##r = _mm256_fmadd_ps(_mm256_broadcast_ss(x##r + ic), b0, c##r);
#define CB8_STORE(i)                                                                       \
    if (i < rows) {                                                                        \
        __m256 v = _mm256_add_ps(c##i, bias0);                                             \
        if (r)                                                                             \
            v = _mm256_add_ps(v, _mm256_loadu_ps(r + i * (ptrdiff_t)g->OC));               \
        _mm256_storeu_ps(y + i * (ptrdiff_t)g->OC, ACT8(v, &g->act));                      \
    }
#define CB8_IC_LOOP(BODY)                                                                  \
    for (ic = 0; ic < len; ic++, wt += ws) {                                               \
        BODY                                                                               \
    }
#if defined(__OPTIMIZE__) /* at -O0 its own variables would outgrow the stack budget */
#define CB8_FLAT                                                                           \
    if (cb_flat(g, ih, 8, steps, kh0, kh1))                                                \
        CB_FLAT_LOOP_IN(CB_R8, CB8_IC_LOOP, const __m256 b0 = _mm256_loadu_ps(wt); CB_R8(CB8_FMA)) \
    else
#else
#define CB8_FLAT
#endif
#define CB_8LANE(NAME, TARGET)                                                       \
    TARGET static inline void NAME(const cb_geom *g, int32_t p0, int32_t rows, int32_t oc0, \
                                   int32_t nr, float *y, const float *r)                   \
    {                                                                                      \
        const ptrdiff_t ws = g->ws;                                                        \
        __m256 bias0 = _mm256_setzero_ps();                                                \
        int32_t kh, kw, kh0, kh1, steps, len, ic;                                          \
        int64_t ih[8], iw[8];                                                              \
        (void)nr; /* 8 */                                                                  \
        CB_R8(CB8_ZERO)                                                                    \
        cb_block_taps(g, p0, rows, 8, ih, iw, &kh0, &kh1, &steps, &len);                   \
        CB8_FLAT                                                                           \
        for (kh = kh0; kh < kh1; kh++) {                                                   \
            for (kw = 0; kw < steps; kw++) {                                               \
                const int64_t khd = (int64_t)kh * g->DH, kwd = (int64_t)kw * g->DW;        \
                const float *wt = cb_filter(g, kh, kw, oc0);                               \
                CB_R8(CB8_PTR)                                                             \
                CB8_IC_LOOP(const __m256 b0 = _mm256_loadu_ps(wt); CB_R8(CB8_FMA))         \
            }                                                                              \
        }                                                                                  \
        if (g->bias)                                                                       \
            bias0 = _mm256_loadu_ps(g->bias + oc0);                                        \
        CB_R8(CB8_STORE)                                                                   \
    }

#if SM2C_RT_AVX512
/* act(acc + bias (+ the residual's lanes m)), in that order. */
SM2C_RT_TARGET_AVX512 static inline __m512 cb_out512(__m512 acc, __m512 bias, const float *r,
                                                     __mmask16 m, const sm2c_rt__act *act)
{
    acc = _mm512_add_ps(acc, bias);
    if (r)
        acc = _mm512_add_ps(acc, _mm512_maskz_loadu_ps(m, r));
    return sm2c_rt__act512(acc, act);
}

/* MR pixels x up to 32 channels (nr > 16): 2 accumulators a pixel.  Two
** forms (cb_choose picks per layer): 7 pixels, as XNNPACK's 7x32 tiles, where
** 7 divides the pixels as well as 6 or better (a 7x7 image: 7 blocks, not 9;
** ResNet50's and MobileNetV2's last stages 1.07-1.11x faster), and 6 where it
** does not (an 8x8 image: 11 blocks of 6, 10 of 7) or where a layer's few
** input channels leave little work per block (an image's first layer: 5%
** slower in blocks of 7).  Only 6 at -O0, for the stack budget. */
#define CB512_ZERO(r) __m512 c##r##0 = _mm512_setzero_ps(), c##r##1 = _mm512_setzero_ps();
#define CB512_PTR(r) const float *x##r = cb_tap(g, ih[r] + khd, iw[r] + kwd);
#define CB512_FMA(r)                                                                       \
    {                                                                                      \
        const __m512 a = _mm512_set1_ps(x##r[ic]);                                         \
        c##r##0 = _mm512_fmadd_ps(a, b0, c##r##0);                                         \
        c##r##1 = _mm512_fmadd_ps(a, b1, c##r##1);                                         \
    }
#define CB512_STORE(i)                                                                     \
    if (i < rows) {                                                                        \
        const ptrdiff_t o = i * (ptrdiff_t)g->OC;                                         \
        _mm512_mask_storeu_ps(y + o, m0, cb_out512(c##i##0, bias0, r ? r + o : r, m0, &g->act)); \
        _mm512_mask_storeu_ps(y + o + 16, m1,                                              \
                              cb_out512(c##i##1, bias1, r ? r + o + 16 : r, m1, &g->act));  \
    }
#if defined(__OPTIMIZE__) /* at -O0 its own variables would outgrow the stack budget */
#define CB512_FLAT(R, MR)                                                                  \
    if (cb_flat(g, ih, MR, steps, kh0, kh1))                                               \
        CB_FLAT_LOOP(R, const __m512 b0 = _mm512_maskz_loadu_ps(m0, wt);                   \
                     const __m512 b1 = _mm512_maskz_loadu_ps(m1, wt + g->w16); R(CB512_FMA)) \
    else
#else
#define CB512_FLAT(R, MR)
#endif
#define CB_AVX512_32(NAME, MR, R)                                                          \
    SM2C_RT_TARGET_AVX512 static inline void NAME(const cb_geom *g, int32_t p0, int32_t rows, \
                                                  int32_t oc0, int32_t nr, float *y,       \
                                                  const float *r)                          \
    {                                                                                      \
        const __mmask16 m0 = sm2c_rt__mask16(nr), m1 = sm2c_rt__mask16(nr - 16);           \
        __m512 bias0 = _mm512_setzero_ps(), bias1 = _mm512_setzero_ps();                   \
        int32_t kh, kw, kh0, kh1, steps, len, ic;                                          \
        int64_t ih[MR], iw[MR];                                                            \
        CB_PF_INIT                                                                         \
        R(CB512_ZERO)                                                                      \
        cb_block_taps(g, p0, rows, MR, ih, iw, &kh0, &kh1, &steps, &len);                  \
        CB512_FLAT(R, MR)                                                                  \
        for (kh = kh0; kh < kh1; kh++) {                                                   \
            for (kw = 0; kw < steps; kw++) {                                               \
                const int64_t khd = (int64_t)kh * g->DH, kwd = (int64_t)kw * g->DW;        \
                const float *wt = cb_filter(g, kh, kw, oc0);                               \
                R(CB512_PTR)                                                               \
                CB_IC_LOOP(const __m512 b0 = _mm512_maskz_loadu_ps(m0, wt);                \
                           const __m512 b1 = _mm512_maskz_loadu_ps(m1, wt + g->w16);       \
                           R(CB512_FMA))                                                   \
            }                                                                              \
        }                                                                                  \
        if (g->bias) {                                                                     \
            bias0 = _mm512_maskz_loadu_ps(m0, g->bias + oc0);                              \
            bias1 = _mm512_maskz_loadu_ps(m1, g->bias + oc0 + 16);                         \
        }                                                                                  \
        R(CB512_STORE)                                                                     \
    }
CB_AVX512_32(cb_avx512_32, 6, CB_R6)
#if defined(__OPTIMIZE__)
CB_AVX512_32(cb_avx512_32x7, 7, CB_R7)
#endif
#undef CB_AVX512_32
#undef CB512_FLAT
#undef CB512_ZERO
#undef CB512_PTR
#undef CB512_FMA
#undef CB512_STORE

/* 8 pixels x up to 16 channels: 8 accumulators. */
SM2C_RT_TARGET_AVX512 static inline void cb_avx512_16(const cb_geom *g, int32_t p0, int32_t rows,
                                               int32_t oc0, int32_t nr, float *y,
                                               const float *r)
{
#define CB_ZERO(r) __m512 c##r = _mm512_setzero_ps();
#define CB_PTR(r) const float *x##r = cb_tap(g, ih[r] + khd, iw[r] + kwd);
#define CB_FMA(r) c##r = _mm512_fmadd_ps(_mm512_set1_ps(x##r[ic]), b0, c##r);
#define CB_STORE(i)                                                                        \
    if (i < rows)                                                                          \
        _mm512_mask_storeu_ps(y + i * (ptrdiff_t)g->OC, m0,                               \
                              cb_out512(c##i, bias0, r ? r + i * (ptrdiff_t)g->OC : r, m0, &g->act));
    const __mmask16 m0 = sm2c_rt__mask16(nr);
    __m512 bias0 = _mm512_setzero_ps();
    int32_t kh, kw, kh0, kh1, steps, len, ic;
    CB_PF_INIT
    CB_R8(CB_ZERO)

    int64_t ih[8], iw[8];
    cb_block_taps(g, p0, rows, 8, ih, iw, &kh0, &kh1, &steps, &len);
#if defined(__OPTIMIZE__) /* at -O0 its own variables would outgrow the stack budget */
    if (cb_flat(g, ih, 8, steps, kh0, kh1))
        CB_FLAT_LOOP(CB_R8, const __m512 b0 = _mm512_maskz_loadu_ps(m0, wt); CB_R8(CB_FMA))
    else
#endif
    for (kh = kh0; kh < kh1; kh++) {
        for (kw = 0; kw < steps; kw++) {
            const int64_t khd = (int64_t)kh * g->DH, kwd = (int64_t)kw * g->DW;
            const float *wt = cb_filter(g, kh, kw, oc0);
            CB_R8(CB_PTR)
            CB_IC_LOOP(const __m512 b0 = _mm512_maskz_loadu_ps(m0, wt); CB_R8(CB_FMA))
        }
    }
    if (g->bias)
        bias0 = _mm512_maskz_loadu_ps(m0, g->bias + oc0);
    CB_R8(CB_STORE)
#undef CB_ZERO
#undef CB_PTR
#undef CB_FMA
#undef CB_STORE
}
#endif

#if SM2C_RT_AVX512
/* The activation of an 8-lane vector on AVX-512 (no AVX-512VL needed): the
** 16-lane one on the zero-extended vector. */
SM2C_RT_TARGET_AVX512 static inline __m256 cb_act8_512(__m256 v, const sm2c_rt__act *act)
{
    return _mm512_castps512_ps256(sm2c_rt__act512(_mm512_zextps256_ps512(v), act));
}

#define ACT8 cb_act8_512
CB_8LANE(cb_avx512_8, SM2C_RT_TARGET_AVX512)
#undef ACT8
#endif

#if SM2C_RT_AVX2
/* act(acc + bias (+ the residual's lanes m)), in that order. */
SM2C_RT_TARGET_AVX2 static inline __m256 cb_out256(__m256 acc, __m256 bias, const float *r,
                                                   __m256i m, const sm2c_rt__act *act)
{
    acc = _mm256_add_ps(acc, bias);
    if (r)
        acc = _mm256_add_ps(acc, _mm256_maskload_ps(r, m));
    return sm2c_rt__act256(acc, act);
}

/* 6 pixels x up to 16 channels: 12 accumulators. */
SM2C_RT_TARGET_AVX2 static inline void cb_avx2_16(const cb_geom *g, int32_t p0, int32_t rows,
                                           int32_t oc0, int32_t nr, float *y,
                                               const float *r)
{
#define CB_ZERO(r) __m256 c##r##0 = _mm256_setzero_ps(), c##r##1 = _mm256_setzero_ps();
#define CB_PTR(r) const float *x##r = cb_tap(g, ih[r] + khd, iw[r] + kwd);
#define CB_FMA(r)                                                                          \
    {                                                                                      \
        const __m256 a = _mm256_broadcast_ss(x##r + ic);                                   \
        c##r##0 = _mm256_fmadd_ps(a, b0, c##r##0);                                         \
        c##r##1 = _mm256_fmadd_ps(a, b1, c##r##1);                                         \
    }
#define CB_STORE(i)                                                                        \
    if (i < rows) {                                                                        \
        const ptrdiff_t o = i * (ptrdiff_t)g->OC;                                         \
        _mm256_maskstore_ps(y + o, m0, cb_out256(c##i##0, bias0, r ? r + o : r, m0, &g->act)); \
        _mm256_maskstore_ps(y + o + 8, m1,                                                 \
                            cb_out256(c##i##1, bias1, r ? r + o + 8 : r, m1, &g->act));     \
    }
    const __m256i m0 = sm2c_rt__mask8(nr), m1 = sm2c_rt__mask8(nr - 8);
    __m256 bias0 = _mm256_setzero_ps(), bias1 = _mm256_setzero_ps();
    int32_t kh, kw, kh0, kh1, steps, len, ic;
    CB_PF_INIT
    CB_R6(CB_ZERO)

    int64_t ih[6], iw[6];
    cb_block_taps(g, p0, rows, 6, ih, iw, &kh0, &kh1, &steps, &len);
#if defined(__OPTIMIZE__) /* at -O0 its own variables would outgrow the stack budget */
    if (cb_flat(g, ih, 6, steps, kh0, kh1))
        CB_FLAT_LOOP(CB_R6, const __m256 b0 = _mm256_maskload_ps(wt, m0);
                     const __m256 b1 = _mm256_maskload_ps(wt + 8, m1); CB_R6(CB_FMA))
    else
#endif
    for (kh = kh0; kh < kh1; kh++) {
        for (kw = 0; kw < steps; kw++) {
            const int64_t khd = (int64_t)kh * g->DH, kwd = (int64_t)kw * g->DW;
            const float *wt = cb_filter(g, kh, kw, oc0);
            CB_R6(CB_PTR)
            CB_IC_LOOP(const __m256 b0 = _mm256_maskload_ps(wt, m0);
                       const __m256 b1 = _mm256_maskload_ps(wt + 8, m1); CB_R6(CB_FMA))
        }
    }
    if (g->bias) {
        bias0 = _mm256_maskload_ps(g->bias + oc0, m0);
        bias1 = _mm256_maskload_ps(g->bias + oc0 + 8, m1);
    }
    CB_R6(CB_STORE)
#undef CB_ZERO
#undef CB_PTR
#undef CB_FMA
#undef CB_STORE
}
#endif

#if SM2C_RT_AVX2
#define ACT8 sm2c_rt__act256
CB_8LANE(cb_avx2_8, SM2C_RT_TARGET_AVX2)
#undef ACT8
#endif
#undef CB_8LANE
#undef CB8_IC_LOOP
#undef CB8_FLAT
#undef CB8_ZERO
#undef CB8_PTR
#undef CB8_FMA
#undef CB8_STORE

#if SM2C_RT_NEON
/* act(acc + bias (+ the residual's first n lanes)), in that order. */
static inline float32x4_t cb_out128(float32x4_t acc, float32x4_t bias, const float *r, int32_t n,
                                    const sm2c_rt__act *act)
{
    acc = vaddq_f32(acc, bias);
    if (r)
        acc = vaddq_f32(acc, sm2c_rt__load128(r, n));
    return sm2c_rt__act128(acc, act);
}

/*
** 4 pixels x V vectors of 4 channels (V = 4: 16 accumulators of AArch64's 32
** registers).  Four input channels per step: each pixel's four values load as
** one vector, and each filter row's vectors take one lane of it
** (vfmaq_laneq_f32); the channels left over take one broadcast each.  V and,
** in the full-width kernel, nr are constants, so the loads lose their tests.
*/
#define CB_NZERO(i)                                                                        \
    float32x4_t c##i##0 = vdupq_n_f32(0.0f), c##i##1 = c##i##0, c##i##2 = c##i##0,         \
                c##i##3 = c##i##0;
#define CB_NPTR(i) const float *x##i = cb_tap(g, ih[i] + khd, iw[i] + kwd);
#define CB_NLDX(i) const float32x4_t a##i = vld1q_f32(x##i + ic);
#define CB_NLOADB(p)                                                                       \
    const float32x4_t b0 = sm2c_rt__load128(p, nr), b1 = sm2c_rt__load128(p + 4, nr - 4);  \
    const float32x4_t b2 = V > 2 ? sm2c_rt__load128(p + 8, nr - 8) : b0;                   \
    const float32x4_t b3 = V > 2 ? sm2c_rt__load128(p + 12, nr - 12) : b0;
#define CB_NFMA_LANE(i, l)                                                                 \
    c##i##0 = vfmaq_laneq_f32(c##i##0, b0, a##i, l);                                       \
    c##i##1 = vfmaq_laneq_f32(c##i##1, b1, a##i, l);                                       \
    if (V > 2) {                                                                           \
        c##i##2 = vfmaq_laneq_f32(c##i##2, b2, a##i, l);                                   \
        c##i##3 = vfmaq_laneq_f32(c##i##3, b3, a##i, l);                                   \
    }
#define CB_NLANE(l)                                                                        \
    {                                                                                      \
        CB_NLOADB(wt + (l) * g->ws)                                             \
        CB_NFMA_LANE(0, l) CB_NFMA_LANE(1, l) CB_NFMA_LANE(2, l) CB_NFMA_LANE(3, l)        \
    }
#define CB_NBCAST(i)                                                                       \
    c##i##0 = vfmaq_n_f32(c##i##0, b0, x##i[ic]);                                          \
    c##i##1 = vfmaq_n_f32(c##i##1, b1, x##i[ic]);                                          \
    if (V > 2) {                                                                           \
        c##i##2 = vfmaq_n_f32(c##i##2, b2, x##i[ic]);                                      \
        c##i##3 = vfmaq_n_f32(c##i##3, b3, x##i[ic]);                                      \
    }
#define CB_NSTORE1(i, v)                                                                   \
    {                                                                                      \
        const ptrdiff_t o = i * (ptrdiff_t)g->OC + 4 * v;                                  \
        sm2c_rt__store128(y + o, cb_out128(c##i##v, bias##v, r ? r + o : r, nr - 4 * v, &g->act), \
                          nr - 4 * v);                                                     \
    }
#define CB_NSTORE(i)                                                                       \
    if (i < rows) {                                                                        \
        CB_NSTORE1(i, 0) CB_NSTORE1(i, 1)                                                  \
        if (V > 2) {                                                                       \
            CB_NSTORE1(i, 2) CB_NSTORE1(i, 3)                                              \
        }                                                                                  \
    }
static SM2C_RT_ALWAYS_INLINE void cb_neon(const cb_geom *g, int32_t p0, int32_t rows, int32_t oc0,
                                          int32_t nr, float *y, const float *r, int32_t V)
{
    float32x4_t bias0 = vdupq_n_f32(0.0f), bias1 = bias0, bias2 = bias0, bias3 = bias0;
    int32_t kh, kw, kh0, kh1, steps, len, ic;
    int64_t ih[4], iw[4];
    CB_R4(CB_NZERO)

    cb_block_taps(g, p0, rows, 4, ih, iw, &kh0, &kh1, &steps, &len);
    for (kh = kh0; kh < kh1; kh++) {
        for (kw = 0; kw < steps; kw++) {
            const int64_t khd = (int64_t)kh * g->DH, kwd = (int64_t)kw * g->DW;
            const float *wt = cb_filter(g, kh, kw, oc0);
            CB_R4(CB_NPTR)
            for (ic = 0; ic + 4 <= len; ic += 4, wt += 4 * g->ws) {
                CB_R4(CB_NLDX)
                CB_NLANE(0) CB_NLANE(1) CB_NLANE(2) CB_NLANE(3)
            }
            for (; ic < len; ic++, wt += g->ws) {
                CB_NLOADB(wt)
                CB_R4(CB_NBCAST)
            }
        }
    }
    if (g->bias) {
        bias0 = sm2c_rt__load128(g->bias + oc0, nr);
        bias1 = sm2c_rt__load128(g->bias + oc0 + 4, nr - 4);
        bias2 = sm2c_rt__load128(g->bias + oc0 + 8, nr - 8);
        bias3 = sm2c_rt__load128(g->bias + oc0 + 12, nr - 12);
    }
    CB_R4(CB_NSTORE)
}
#undef CB_NZERO
#undef CB_NPTR
#undef CB_NLDX
#undef CB_NLOADB
#undef CB_NFMA_LANE
#undef CB_NLANE
#undef CB_NBCAST
#undef CB_NSTORE1
#undef CB_NSTORE

/* 16 channels; up to 16; up to 8. */
static inline void cb_neon_16(const cb_geom *g, int32_t p0, int32_t rows, int32_t oc0, int32_t nr,
                              float *y, const float *r)
{
    (void)nr;
    cb_neon(g, p0, rows, oc0, 16, y, r, 4);
}

static inline void cb_neon_tail16(const cb_geom *g, int32_t p0, int32_t rows, int32_t oc0,
                                  int32_t nr, float *y, const float *r)
{
    cb_neon(g, p0, rows, oc0, nr, y, r, 4);
}

static inline void cb_neon_tail8(const cb_geom *g, int32_t p0, int32_t rows, int32_t oc0,
                                 int32_t nr, float *y, const float *r)
{
    cb_neon(g, p0, rows, oc0, nr, y, r, 2);
}
#endif

enum { CB_PR = 4, CB_PN = 16 }; /* the portable block: 4 x 16 accumulators, 256 bytes */

/* The portable blocks pay off where compilers vectorise them.  On a scalar
** FPU (SM2C_RT_SCALAR_CORE) their accumulators spill to the stack, and
** conv_f32.c's scalar loops are faster and smaller: DS-CNN took 36.7 M
** instructions on a Cortex-M4F through the blocks. */
#define SM2C_RT_BLOCK_PORTABLE (!SM2C_RT_SCALAR_CORE)

/* 4 pixels x up to 16 channels in plain C; the full-width case has constant
** trip counts, which compilers vectorise. */
static inline void cb_portable(const cb_geom *g, int32_t p0, int32_t rows, int32_t oc0, int32_t nr,
                        float *y, const float *r)
{
    float acc[CB_PR][CB_PN] = {{0.0f}};
    int64_t ih[CB_PR], iw[CB_PR];
    int32_t kh, kw, kh0, kh1, steps, len, ic, i, j;

    cb_block_taps(g, p0, rows, CB_PR, ih, iw, &kh0, &kh1, &steps, &len);
    for (kh = kh0; kh < kh1; kh++) {
        for (kw = 0; kw < steps; kw++) {
            const float *wt = cb_filter(g, kh, kw, oc0);
            const float *xr[CB_PR];
            for (i = 0; i < CB_PR; i++)
                xr[i] = cb_tap(g, ih[i] + (int64_t)kh * g->DH, iw[i] + (int64_t)kw * g->DW);
            for (ic = 0; ic < len; ic++, wt += g->ws) {
                for (i = 0; i < CB_PR; i++) {
                    const float a = xr[i][ic];
                    if (nr == CB_PN) {
                        for (j = 0; j < CB_PN; j++)
                            acc[i][j] += a * wt[j];
                    } else {
                        for (j = 0; j < nr; j++)
                            acc[i][j] += a * wt[j];
                    }
                }
            }
        }
    }
    for (i = 0; i < rows; i++) {
        float *yi = y + i * (ptrdiff_t)g->OC;
        for (j = 0; j < nr; j++) {
            yi[j] = acc[i][j] + (g->bias ? g->bias[oc0 + j] : 0.0f);
            if (r)
                yi[j] = yi[j] + r[i * (ptrdiff_t)g->OC + j];
        }
        sm2c_rt__act_f32(yi, nr, &g->act);
    }
}

typedef void (*cb_kernel)(const cb_geom *, int32_t, int32_t, int32_t, int32_t, float *,
                          const float *);

/* The pixels of a layer's first block: mr, or fewer where the blocks then
** hold each output row's last pixels and the next row's first ones together.
** A block with a pixel whose window crosses the padding across takes the
** per-tap path (cb_flat); with the padding on both sides and rows of whole
** blocks, every row had two such blocks, and now has one: ResNet-8's 3x3
** 16-channel layers at 32x32 (blocks of 8) took 52.0 us instead of 55.0
** (a clock around 200 calls, best of 15).  Each output sums as in any
** blocking: the same bits. */
static inline int32_t cb_first_block(const cb_geom *g, int32_t mr)
{
    const int64_t reach = (int64_t)(g->KW - 1) * g->DW - g->PL;
    const int32_t left = (int32_t)((g->PL + g->SW - 1) / g->SW);
    int32_t right = 0;

    while (right < g->OW && (int64_t)(g->OW - 1 - right) * g->SW + reach >= g->W)
        right++;
    return g->PL > 0 && right > 0 && g->OW % mr == 0 && left + right <= mr ? mr - right : mr;
}

/* Whether blocks of 7 pixels suit a layer of M pixels (cb_avx512_32x7):
** no more computed pixels than blocks of 6, and 8 input channels or more. */
static inline int cb_seven(const cb_geom *g, int32_t M)
{
    return g->C >= 8 && (int64_t)(M + 6) / 7 * 7 <= (int64_t)(M + 5) / 6 * 6;
}

/* The kernel for an output-channel block of up to `*nr` channels of a layer
** of M pixels on this CPU, its pixels per block and channels per block. */
static inline cb_kernel cb_choose(const cb_geom *g, int32_t M, int32_t oc_left, int32_t *mr,
                                  int32_t *nr)
{
    (void)g, (void)M;
#if SM2C_RT_AVX512
    if (sm2c_rt__have_avx512()) {
        if (oc_left > 16) {
#if defined(__OPTIMIZE__)
            if (cb_seven(g, M)) {
                *mr = 7, *nr = 32;
                return cb_avx512_32x7;
            }
#endif
            *mr = 6, *nr = 32;
            return cb_avx512_32;
        }
        if (oc_left == 8) {
            *mr = 8, *nr = 8;
            return cb_avx512_8;
        }
        *mr = 8, *nr = 16;
        return cb_avx512_16;
    }
#endif
#if SM2C_RT_AVX2
    if (sm2c_rt__have_avx2()) {
        if (oc_left == 8) {
            *mr = 8, *nr = 8;
            return cb_avx2_8;
        }
        *mr = 6, *nr = 16;
        return cb_avx2_16;
    }
#endif
#if SM2C_RT_NEON
    *mr = 4, *nr = oc_left > 8 ? 16 : 8;
    return oc_left >= 16 ? cb_neon_16 : oc_left > 8 ? cb_neon_tail16 : cb_neon_tail8;
#else
    (void)oc_left;
    *mr = CB_PR, *nr = CB_PN;
    return cb_portable;
#endif
}

/* Whether a kernel issues its block's prefetch share itself, a line per
** step (CB_IC_LOOP): the x86 ones.  The others take it all before the block. */
static inline int cb_prefetch_inline(cb_kernel kernel)
{
#if !defined(__OPTIMIZE__)
    (void)kernel;
    return 0;
#else
#if SM2C_RT_AVX512
    if (kernel == cb_avx512_32 || kernel == cb_avx512_32x7 || kernel == cb_avx512_16)
        return 1;
#endif
#if SM2C_RT_AVX2
    if (kernel == cb_avx2_16)
        return 1;
#endif
    (void)kernel;
    return 0;
#endif
}

/* Whether the blocked kernels take a layer: no groups, and a padding tap no
** wider than the zero block.  A packed filter needs them (conv_f32.c). */
static inline int sm2c_rt__conv_blocks_take(const int32_t *p)
{
    const int32_t C = p[SM2C_RT_WIN_C], W = p[SM2C_RT_WIN_W], H = p[SM2C_RT_WIN_H];
    const int32_t inside = p[SM2C_RT_WIN_PL] == 0 && p[SM2C_RT_WIN_PT] == 0 &&
                           (int64_t)(p[SM2C_RT_WIN_OW] - 1) * p[SM2C_RT_WIN_SW] +
                                   (int64_t)(p[SM2C_RT_WIN_KW] - 1) * p[SM2C_RT_WIN_DW] < W &&
                           (int64_t)(p[SM2C_RT_WIN_OH] - 1) * p[SM2C_RT_WIN_SH] +
                                   (int64_t)(p[SM2C_RT_WIN_KH] - 1) * p[SM2C_RT_WIN_DH] < H;

    return SM2C_RT_BLOCK_PORTABLE && p[SM2C_RT_WIN_FC] == C && C > 0 && (C <= CB_ZEROS || inside);
}

enum {
    CB_SMALL_FILTER = 256 * 1024, /* bytes: a filter that stays in L2 as every pixel passes */
    CB_LARGE_OUTPUT = 1024 * 1024 /* bytes: an output that outgrows a core's L2 */
};

/*
** A small filter and a large output: blocks with pixels outside and
** channels inside, so that each pixel block writes all its channels at once
** and the output is written in one pass instead of one per channel block,
** each line stored once: ResNet50's first layer (37 KB of filter, 3.2 MB
** of output) took 9% less time in the model, its 64 -> 256 residual layers
** 6% less.  Where the output stays in L2 the usual order is faster: each
** block's panel then stays in L1 while the pixels pass (MobileNetV2's
** 576 -> 96 at 14x14, 221 KB of filter, lost 5% in this order).  The
** channel blocks that share the first block's kernel and pixel count run
** so; returns where the rest (a narrower kernel's tail, or every channel)
** begins.  Each output is summed as in the other order: the same bits.
*/
static inline int32_t cb_pixels_outer(const cb_geom *g, int32_t M, int32_t oc_lo, int32_t oc_hi,
                                      float *y, const float *r)
{
    const int64_t filter_bytes = (int64_t)g->KH * g->KW * g->C * (oc_hi - oc_lo) * (int64_t)sizeof(float);
    int32_t mr, nr, mr1, nr1, oc_mid = oc_lo, p0, oc0, n;
    const cb_kernel kernel = cb_choose(g, M, oc_hi - oc_lo, &mr, &nr);

    if (filter_bytes > CB_SMALL_FILTER ||
        (int64_t)M * g->OC * (int64_t)sizeof(float) < CB_LARGE_OUTPUT)
        return oc_lo;
    while (oc_mid < oc_hi && cb_choose(g, M, oc_hi - oc_mid, &mr1, &nr1) == kernel && mr1 == mr)
        oc_mid += oc_hi - oc_mid < nr ? oc_hi - oc_mid : nr;
    for (p0 = 0, n = cb_first_block(g, mr); p0 < M; p0 += n, n = mr) {
        for (oc0 = oc_lo; oc0 < oc_mid; oc0 += nr) {
            const ptrdiff_t o = (ptrdiff_t)p0 * g->OC + oc0;
            kernel(g, p0, M - p0 < n ? M - p0 : n, oc0, oc_mid - oc0 < nr ? oc_mid - oc0 : nr,
                   y + o, r ? r + o : NULL);
        }
    }
    return oc_mid;
}

/* Conv2D's output channels [oc_lo, oc_hi) through the blocked kernels, the
** filter HWIO or (packed) in panels of CB_PANEL output channels; oc_lo a
** multiple of 32 (a block start in any kernel), oc_hi one or OC.  0 when the
** shape is not theirs (sm2c_rt__conv_blocks_take), and nothing is written
** then.  A block's pixels run on across output rows (row-major over OH x
** OW), so narrow images fill whole blocks; each pixel finds its own taps.
** Each output sums in the same order whatever the range: a range of
** channels gives the whole layer's bits for them. */
static inline int sm2c_rt__conv_blocked_range(const float *x, const float *w, const float *bias,
                                              const float *r, float *y, const int32_t *p,
                                              const sm2c_rt__act *act, int packed, int32_t oc_lo,
                                              int32_t oc_hi)
{
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W];
    const int32_t C = p[SM2C_RT_WIN_C], KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW];
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], OC = p[SM2C_RT_WIN_OC];
    const int32_t M = OH * OW;
    const ptrdiff_t y_image = (ptrdiff_t)M * OC;
    cb_geom g;
    int32_t n, oc0, p0, mr, nr;

    if (!sm2c_rt__conv_blocks_take(p))
        return 0;
    g.w = w, g.bias = bias, g.H = H, g.W = W, g.C = C, g.KH = KH, g.KW = KW;
    g.ws = packed ? CB_PANEL : OC;
    g.wpanel = packed ? (ptrdiff_t)KH * KW * C * CB_PANEL : 0;
    g.w16 = packed ? g.wpanel : 16;
    g.SH = p[SM2C_RT_WIN_SH], g.SW = p[SM2C_RT_WIN_SW], g.DH = p[SM2C_RT_WIN_DH];
    g.DW = p[SM2C_RT_WIN_DW], g.PT = p[SM2C_RT_WIN_PT], g.PL = p[SM2C_RT_WIN_PL];
    g.OW = OW, g.OC = OC, g.act = *act;
    g.pf = g.pf_end = NULL;
    for (n = 0; n < N; n++) {
        float *yn = y + (ptrdiff_t)n * y_image;
        const float *rn = r ? r + (ptrdiff_t)n * y_image : NULL;
        g.x = x + (ptrdiff_t)n * H * W * C;
        oc0 = cb_pixels_outer(&g, M, oc_lo, oc_hi, yn, rn);
        for (; oc0 < oc_hi; oc0 += nr) {
            const cb_kernel kernel = cb_choose(&g, M, oc_hi - oc0, &mr, &nr);
            const int32_t nb = oc_hi - oc0 < nr ? oc_hi - oc0 : nr;
            /* the next block's panels (at most nr channels), prefetched a share per pixel tile */
            const int32_t first = cb_first_block(&g, mr), left = oc_hi - oc0 - nb;
            const int32_t tiles = M > first ? 1 + (M - first + mr - 1) / mr : 1;
            const float *next = packed && left > 0 ? w + (ptrdiff_t)(oc0 + nb) / CB_PANEL * g.wpanel : NULL;
            const size_t next_bytes = (size_t)((left < nr ? left : nr) + CB_PANEL - 1) / CB_PANEL * (size_t)g.wpanel * sizeof(float);
            const int inline_pf = cb_prefetch_inline(kernel);
            int32_t rows = first, tile = 0;
            for (p0 = 0; p0 < M; p0 += rows, rows = mr, tile++) {
                const ptrdiff_t o = (ptrdiff_t)p0 * OC + oc0;
                if (next && inline_pf)
                    sm2c_rt__prefetch_share(next, next_bytes, tile, tiles, &g.pf, &g.pf_end);
                else if (next)
                    sm2c_rt__prefetch_part(next, next_bytes, tile, tiles);
                kernel(&g, p0, M - p0 < rows ? M - p0 : rows, oc0, nb, yn + o, rn ? rn + o : NULL);
            }
            g.pf = g.pf_end = NULL;
        }
    }
    return 1;
}

/* The whole layer: every output channel. */
static inline int sm2c_rt__conv_blocked(const float *x, const float *w, const float *bias,
                                        const float *r, float *y, const int32_t *p,
                                        const sm2c_rt__act *act, int packed)
{
    return sm2c_rt__conv_blocked_range(x, w, bias, r, y, p, act, packed, 0, p[SM2C_RT_WIN_OC]);
}

#endif
