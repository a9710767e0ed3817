/*
** fc_hybrid_s8.c: the hybrid FullyConnected of --quantize dynamic for vector
** cores, its filter laid out at compile time for VNNI (ops/ops_hybrid.c):
** blocks of 16 outputs, each [K/4][16][4] (output o's four values of a group
** of four inputs together, one vpdpbusd operand per group), outputs past N
** zero.  K is a multiple of 4.  It computes what
** sm2c_rt_fully_connected_hybrid (fc_s8.c) computes, TFLite's EvalHybridDense:
**
**     y[r, o] = act(bias[o] + (float)acc * (scale[r] * w_scale[o]))
**     acc     = sum_k w[o, k] * (x[r, k] + 128) - (zero_point[r] + 128) * w_sum[o]
**
** With AVX-512 VNNI a tile of 4 rows x 64 outputs keeps 16 sums in
** registers, each group's four filter vectors shared by the four rows (the
** row-major form reads its filter once per row); the epilogue is the C
** path's float operations on vectors.  Integer sums are exact, so every path
** gives the C path's bits; the compiler proves k * 127 * 255 fits int32.
** sm2c_rt_conv2d_1x1_hybrid_packed is a 1x1 Conv2D (stride 1, no padding)
** as the same product over its pixels, each image quantized as a whole, with
** HybridConvPerChannel's epilogue ((float)acc * w_scale) * s + bias.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "act_f32.h"
#include "rt_select.h"
#include "simd_act_f32.h"
#include "simd_f32.h" /* no contraction of the epilogue under clang */
#include "simd_s8.h"
#include "sm2c_rt.h"

/* A call's arguments.  A FullyConnected quantizes each row on its own
** (per_scale 1); a 1x1 Conv2D is the same product over its pixels, an
** image's per_scale pixels sharing its scale and zero point, and scales its
** sums in its own order (TFLite's HybridConvPerChannel). */
typedef struct fch_args {
    const int8_t *x, *w;
    const float *scale, *w_scale, *bias;
    const int32_t *zero_point, *w_sum;
    float *y;
    int32_t rows, k, n, per_scale, conv;
    const sm2c_rt__act *act;
} fch_args;

/* One output's value from its exact sum (the form's every path):
** FullyConnected bias + (float)acc * (s * w_scale), Conv2D
** ((float)acc * w_scale) * s + bias. */
static inline float fch_value(const fch_args *f, int32_t r, int32_t o, int32_t acc)
{
    const int32_t i = r / f->per_scale;
    const float v = (float)(acc - (f->zero_point[i] + 128) * f->w_sum[o]);
    if (f->conv)
        return f->bias ? v * f->w_scale[o] * f->scale[i] + f->bias[o] : v * f->w_scale[o] * f->scale[i];
    return (f->bias ? f->bias[o] : 0.0f) + v * (f->scale[i] * f->w_scale[o]);
}

/* Every row, in C. */
static void fch_rows_c(const fch_args *f)
{
    const int32_t kg = f->k / 4;
    for (int32_t r = 0; r < f->rows; r++) {
        const int8_t *xr = f->x + (ptrdiff_t)r * f->k;
        for (int32_t o = 0; o < f->n; o++) {
            const int8_t *wb = f->w + (ptrdiff_t)(o / 16) * kg * 64 + (o % 16) * 4;
            int32_t acc = 0;
            for (int32_t g = 0; g < kg; g++)
                for (int32_t j = 0; j < 4; j++)
                    acc += (int32_t)wb[(ptrdiff_t)g * 64 + j] * ((int32_t)xr[4 * g + j] + 128);
            f->y[(ptrdiff_t)r * f->n + o] = fch_value(f, r, o, acc);
        }
    }
}

#if SM2C_RT_VNNI
/* c[r][b] = the sums of rows xr[r] (r < R) against blocks b < B from w: the
** edge tiles. */
SM2C_RT_TARGET_VNNI static void fch_tile(const int8_t *const *xr, const int8_t *w,
                                                               int32_t kg, int R, int B, __m512i c[4][4])
{
    const __m512i flip = _mm512_set1_epi32((int32_t)0x80808080u);
    const ptrdiff_t bstride = (ptrdiff_t)kg * 64;
    for (int r = 0; r < R; r++)
        for (int b = 0; b < B; b++)
            c[r][b] = _mm512_setzero_si512();
    for (int32_t g = 0; g < kg; g++) {
        __m512i wv[4];
        for (int b = 0; b < B; b++)
            wv[b] = _mm512_loadu_si512((const void *)(w + b * bstride + (ptrdiff_t)g * 64));
        for (int r = 0; r < R; r++) {
            int32_t four;
            memcpy(&four, xr[r] + 4 * g, sizeof four);
            const __m512i a = _mm512_xor_si512(_mm512_set1_epi32(four), flip);   /* x + 128, unsigned */
            for (int b = 0; b < B; b++)
                c[r][b] = _mm512_dpbusd_epi32(c[r][b], a, wv[b]);
        }
    }
}

/* fch_tile for B = 4 and R rows (the macro's REP), its 4R sums in named
** registers until the end (an array indexed in loops stayed in memory at -O2). */
#define FCH_ZERO(r) __m512i a##r##0 = z, a##r##1 = z, a##r##2 = z, a##r##3 = z;
#define FCH_ROW(r)                                                                         \
    {                                                                                      \
        int32_t four;                                                                      \
        memcpy(&four, xr[r] + 4 * g, sizeof four);                                         \
        const __m512i u = _mm512_xor_si512(_mm512_set1_epi32(four), flip);                 \
        a##r##0 = _mm512_dpbusd_epi32(a##r##0, u, w0);                                     \
        a##r##1 = _mm512_dpbusd_epi32(a##r##1, u, w1);                                     \
        a##r##2 = _mm512_dpbusd_epi32(a##r##2, u, w2);                                     \
        a##r##3 = _mm512_dpbusd_epi32(a##r##3, u, w3);                                     \
    }
#define FCH_OUT(r) c[r][0] = a##r##0, c[r][1] = a##r##1, c[r][2] = a##r##2, c[r][3] = a##r##3;
#define FCH_TILE(name, REP)                                                                \
    SM2C_RT_TARGET_VNNI static void name(const int8_t *const *xr, const int8_t *w, int32_t kg,  \
                                         __m512i c[4][4])                                  \
    {                                                                                      \
        const __m512i z = _mm512_setzero_si512(), flip = _mm512_set1_epi32((int32_t)0x80808080u); \
        const ptrdiff_t bs = (ptrdiff_t)kg * 64;                                           \
        REP(FCH_ZERO)                                                                      \
        for (int32_t g = 0; g < kg; g++) {                                                 \
            const int8_t *wg = w + (ptrdiff_t)g * 64;                                      \
            const __m512i w0 = _mm512_loadu_si512((const void *)wg);                       \
            const __m512i w1 = _mm512_loadu_si512((const void *)(wg + bs));                \
            const __m512i w2 = _mm512_loadu_si512((const void *)(wg + 2 * bs));            \
            const __m512i w3 = _mm512_loadu_si512((const void *)(wg + 3 * bs));            \
            REP(FCH_ROW)                                                                   \
        }                                                                                  \
        REP(FCH_OUT)                                                                       \
    }
#define FCH_R1(M) M(0)
#define FCH_R2(M) M(0) M(1)
#define FCH_R3(M) M(0) M(1) M(2)
#define FCH_R4(M) M(0) M(1) M(2) M(3)
FCH_TILE(fch_tile14, FCH_R1)
FCH_TILE(fch_tile24, FCH_R2)
FCH_TILE(fch_tile34, FCH_R3)
FCH_TILE(fch_tile44, FCH_R4)

/* fch_value on a tile's sums c[r][b], rows r0 + r (r < R), outputs
** (b0 + b) * 16 .. + 15 (b < B), on vectors: each block's filter sums,
** scales and bias loaded once per tile and each row's zero point and scale
** once per row (the per-output division and loads were a fifth of a
** 128-deep product's time), then the activation act on the vector (a pass
** over the output cost a 128-deep product 5%, and at -O2, which does not
** vectorise that loop, half again as much as the product).  Inlined into
** one function per kind of act (fch_store_fn), where its kind is a
** constant: a switch on it per vector cost 7%. */
SM2C_RT_TARGET_VNNI static SM2C_RT_ALWAYS_INLINE void fch_store_tile(const fch_args *f, __m512i c[4][4], int32_t r0,
                                                                     int R, int32_t b0, int B,
                                                                     const sm2c_rt__act *act)
{
    __m512i wsum[4];
    __m512 ws[4], bias[4];
    __mmask16 m[4];
    for (int b = 0; b < B; b++) {
        const int32_t o = (b0 + b) * 16, left = f->n - o;
        m[b] = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1u);
        wsum[b] = _mm512_maskz_loadu_epi32(m[b], f->w_sum + o);
        ws[b] = _mm512_maskz_loadu_ps(m[b], f->w_scale + o);
        bias[b] = f->bias ? _mm512_maskz_loadu_ps(m[b], f->bias + o) : _mm512_setzero_ps();
    }
    for (int r = 0; r < R; r++) {
        const int32_t i = (r0 + r) / f->per_scale;
        const __m512i zp = _mm512_set1_epi32(f->zero_point[i] + 128);
        const __m512 s = _mm512_set1_ps(f->scale[i]);
        float *yr = f->y + (ptrdiff_t)(r0 + r) * f->n + (ptrdiff_t)b0 * 16;
        for (int b = 0; b < B; b++) {
            const __m512 v = _mm512_cvtepi32_ps(_mm512_sub_epi32(c[r][b], _mm512_mullo_epi32(zp, wsum[b])));
            __m512 y;
            if (f->conv) {
                y = _mm512_mul_ps(_mm512_mul_ps(v, ws[b]), s);
                if (f->bias)
                    y = _mm512_add_ps(y, bias[b]);
            } else {
                y = _mm512_add_ps(bias[b], _mm512_mul_ps(v, _mm512_mul_ps(s, ws[b])));
            }
            _mm512_mask_storeu_ps(yr + b * 16, m[b], sm2c_rt__act512(y, act));
        }
    }
}

typedef void fch_store_fn(const fch_args *f, __m512i c[4][4], int32_t r0, int R, int32_t b0, int B);

static const sm2c_rt__act fch_none = { SM2C_RT_ACT_NONE, 0.0f, 0.0f }, fch_relu = { SM2C_RT_ACT_RELU, 0.0f, 0.0f };

SM2C_RT_TARGET_VNNI static void fch_store_none(const fch_args *f, __m512i c[4][4], int32_t r0, int R, int32_t b0,
                                               int B)
{
    fch_store_tile(f, c, r0, R, b0, B, &fch_none);
}

SM2C_RT_TARGET_VNNI static void fch_store_relu(const fch_args *f, __m512i c[4][4], int32_t r0, int R, int32_t b0,
                                               int B)
{
    fch_store_tile(f, c, r0, R, b0, B, &fch_relu);
}

/* The other kinds but Sigmoid, which sm2c_rt__act512 runs through memory:
** it runs over the output afterwards (fch_run). */
SM2C_RT_TARGET_VNNI static void fch_store_act(const fch_args *f, __m512i c[4][4], int32_t r0, int R, int32_t b0,
                                              int B)
{
    const sm2c_rt__act act = *f->act; /* a copy the stores cannot change */
    fch_store_tile(f, c, r0, R, b0, B, &act);
}

SM2C_RT_TARGET_VNNI static void fch_vnni(const fch_args *f)
{
    const int32_t kg = f->k / 4, nb = (f->n + 15) / 16, kind = f->act->kind;
    fch_store_fn *const store = kind == SM2C_RT_ACT_NONE || kind == SM2C_RT_ACT_SIGMOID ? fch_store_none
                                : kind == SM2C_RT_ACT_RELU                             ? fch_store_relu
                                                                                       : fch_store_act;
    static void (*const tile[4])(const int8_t *const *, const int8_t *, int32_t, __m512i[4][4]) = {
        fch_tile14, fch_tile24, fch_tile34, fch_tile44 };
    /* Blocks of outputs outside, rows inside: a block's filter (K x 64
    ** bytes) stays in the L1 cache across the rows (4% faster at K 128 and
    ** 512, where rows outside streamed the whole filter per 4 rows). */
    for (int32_t b0 = 0; b0 < nb; b0 += 4) {
        const int B = nb - b0 < 4 ? (int)(nb - b0) : 4;
        const int8_t *wb = f->w + (ptrdiff_t)b0 * kg * 64;
        for (int32_t r0 = 0; r0 < f->rows; r0 += 4) {
            const int R = f->rows - r0 < 4 ? (int)(f->rows - r0) : 4;
            const int8_t *xr[4];
            __m512i c[4][4];
            for (int r = 0; r < 4; r++)
                xr[r] = f->x + (ptrdiff_t)(r0 + (r < R ? r : 0)) * f->k;
            if (B == 4)
                tile[R - 1](xr, wb, kg, c);
            else
                fch_tile(xr, wb, kg, R, B, c);
            store(f, c, r0, R, b0, B);
        }
    }
}
#endif

static void fch_run(const fch_args *f)
{
#if SM2C_RT_VNNI
    if (sm2c_rt__have_vnni()) {
        fch_vnni(f);
        if (f->act->kind == SM2C_RT_ACT_SIGMOID)
            sm2c_rt__act_f32(f->y, f->rows * f->n, f->act);
        return;
    }
#endif
    fch_rows_c(f);
    sm2c_rt__act_f32(f->y, f->rows * f->n, f->act);
}

#if SM2C_RT_WANT(fully_connected_hybrid_packed)
void sm2c_rt_fully_connected_hybrid_packed(const int8_t *x, const float *scale, const int32_t *zero_point,
                                           const int8_t *w, const int32_t *w_sum, const float *w_scale,
                                           const float *bias, float *y, int32_t rows, int32_t k, int32_t n,
                                           int32_t act, float act_a, float act_b)
{
    const sm2c_rt__act a = { act, act_a, act_b };
    const fch_args f = { x, w, scale, w_scale, bias, zero_point, w_sum, y, rows, k, n, 1, 0, &a };
    fch_run(&f);
}
#endif

#if SM2C_RT_WANT(conv2d_1x1_hybrid_packed)
void sm2c_rt_conv2d_1x1_hybrid_packed(const int8_t *x, const float *scale, const int32_t *zero_point,
                                      const int8_t *w, const int32_t *w_sum, const float *w_scale,
                                      const float *bias, float *y, int32_t images, int32_t pixels, int32_t k,
                                      int32_t n, int32_t act, float act_a, float act_b)
{
    const sm2c_rt__act a = { act, act_a, act_b };
    const fch_args f = { x, w, scale, w_scale, bias, zero_point, w_sum, y, images * pixels, k, n,
                         pixels > 0 ? pixels : 1, 1, &a };
    fch_run(&f);
}
#endif
