/*
** test_conv.c: Conv2D, DepthwiseConv2dNative, MaxPool and AvgPool (NHWC)
** against naive double references: convolutions and AvgPool with the
** contraction tolerance of docs/reliability.md section 9 (K = KH*KW*FC), MaxPool
** bit-exact.  Special values and SAME padding outputs were checked against
** TensorFlow 2.21 CPU (TF_ENABLE_ONEDNN_OPTS=0).
*/
#include "sm2c_test.h"

#include "sm2c_rt.h"
#include "kref.h"

enum { KIND_CONV, KIND_DEPTHWISE, KIND_MAXPOOL, KIND_AVGPOOL };

/* The reference of all four kernels, in double, straight from the definitions. */
static void ref_window(int kind, const float *x, const float *w, const float *bias, double *y,
                       const int32_t *p, int32_t act)
{
    const int32_t N = p[SM2C_RT_WIN_N], H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W];
    const int32_t C = p[SM2C_RT_WIN_C], KH = p[SM2C_RT_WIN_KH], KW = p[SM2C_RT_WIN_KW];
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], OC = p[SM2C_RT_WIN_OC];
    const int32_t FC = p[SM2C_RT_WIN_FC];
    int32_t n, oh, ow, o, kh, kw, ic;

    for (n = 0; n < N; n++)
        for (oh = 0; oh < OH; oh++)
            for (ow = 0; ow < OW; ow++)
                for (o = 0; o < OC; o++) {
                    double s = 0.0, mx = -INFINITY;
                    int count = 0;
                    for (kh = 0; kh < KH; kh++)
                        for (kw = 0; kw < KW; kw++) {
                            const int32_t ih = oh * p[SM2C_RT_WIN_SH] - p[SM2C_RT_WIN_PT] +
                                               kh * p[SM2C_RT_WIN_DH];
                            const int32_t iw = ow * p[SM2C_RT_WIN_SW] - p[SM2C_RT_WIN_PL] +
                                               kw * p[SM2C_RT_WIN_DW];
                            const float *xp;
                            if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                                continue;
                            xp = x + (((size_t)n * H + ih) * W + iw) * C;
                            count++;
                            if (kind == KIND_CONV) {
                                const int32_t g = o / (OC / (C / FC));
                                for (ic = 0; ic < FC; ic++)
                                    s += (double)xp[g * FC + ic] *
                                         w[(((size_t)kh * KW + kw) * FC + ic) * OC + o];
                            } else if (kind == KIND_DEPTHWISE) {
                                const int32_t c = o / FC, m = o % FC;
                                s += (double)xp[c] * w[(((size_t)kh * KW + kw) * C + c) * FC + m];
                            } else {
                                s += xp[o];
                                if (xp[o] > mx)
                                    mx = xp[o];
                            }
                        }
                    if (kind == KIND_MAXPOOL)
                        s = mx;
                    else if (kind == KIND_AVGPOOL)
                        s = s / count;
                    else if (bias)
                        s += bias[o];
                    y[(((size_t)n * OH + oh) * OW + ow) * OC + o] =
                        kind <= KIND_DEPTHWISE ? kact(s, act) : s;
                }
}

/* One case: N H W C, KH KW, OC, stride, dilation, SAME?, FC (conv: C/groups;
** depthwise: multiplier; pools: unused). */
typedef struct wcase {
    int32_t n, h, w, c, kh, kw, oc, sh, sw, dh, dw, same, fc;
} wcase;

static void check_window(int kind, const wcase *t, uint64_t seed, int32_t act, int with_bias,
                         const char *name)
{
    int32_t p[SM2C_RT_WIN_PARAMS];
    size_t nx, nw, ny;
    float *x, *w, *bias, *y;
    double *want;
    krng r = krng_new(seed);
    char what[160];
    double tol;

    kwin_params(p, t->n, t->h, t->w, t->c, t->kh, t->kw, t->oc, t->sh, t->sw, t->dh, t->dw,
                t->same, t->fc);
    nx = (size_t)t->n * t->h * t->w * t->c;
    nw = kind == KIND_CONV ? (size_t)t->kh * t->kw * t->fc * t->oc
                           : (size_t)t->kh * t->kw * t->c * t->fc;
    ny = (size_t)t->n * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW] * t->oc;
    x = calloc(nx + 1, sizeof *x);
    w = calloc(nw + 1, sizeof *w);
    bias = calloc((size_t)t->oc + 1, sizeof *bias);
    y = calloc(ny + 1, sizeof *y);
    want = calloc(ny + 1, sizeof *want);
    krng_fill(&r, x, nx, -1.0f, 1.0f);
    krng_fill(&r, w, nw, -1.0f, 1.0f);
    krng_fill(&r, bias, (size_t)t->oc, -0.5f, 0.5f);
    ref_window(kind, x, w, with_bias ? bias : NULL, want, p, act);
    switch (kind) {
    case KIND_CONV:
        sm2c_rt_conv2d_f32(x, w, with_bias ? bias : NULL, y, p, KACT(act));
        tol = ktol_contraction((long)t->kh * t->kw * t->fc);
        break;
    case KIND_DEPTHWISE:
        sm2c_rt_depthwise_conv2d_f32(x, w, with_bias ? bias : NULL, y, p, KACT(act));
        tol = ktol_contraction((long)t->kh * t->kw);
        break;
    case KIND_MAXPOOL:
        sm2c_rt_max_pool_f32(x, y, p);
        tol = 0.0; /* selection: bit-exact */
        break;
    default:
        sm2c_rt_avg_pool_f32(x, y, p);
        tol = ktol_contraction((long)t->kh * t->kw);
        break;
    }
    snprintf(what, sizeof what,
             "%s n%d h%d w%d c%d k%dx%d oc%d s%d,%d d%d,%d %s fc%d act%d bias%d -> %dx%d pad %d,%d",
             name, (int)t->n, (int)t->h, (int)t->w, (int)t->c, (int)t->kh, (int)t->kw, (int)t->oc,
             (int)t->sh, (int)t->sw, (int)t->dh, (int)t->dw, t->same ? "SAME" : "VALID",
             (int)t->fc, (int)act, with_bias, (int)p[SM2C_RT_WIN_OH], (int)p[SM2C_RT_WIN_OW],
             (int)p[SM2C_RT_WIN_PT], (int)p[SM2C_RT_WIN_PL]);
    kassert_close(want, y, ny, tol, tol, what);
    free(x);
    free(w);
    free(bias);
    free(y);
    free(want);
}

static const wcase conv_cases[] = {
    /* n  h   w   c  kh kw  oc sh sw dh dw same fc */
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1},      /* 1x1 everything */
    {1, 5, 5, 3, 1, 1, 8, 1, 1, 1, 1, 0, 3},      /* 1x1 conv */
    {2, 7, 6, 4, 3, 3, 5, 1, 1, 1, 1, 1, 4},      /* SAME, batch 2 */
    {1, 9, 11, 3, 3, 3, 16, 2, 2, 1, 1, 1, 3},    /* stride 2 SAME, odd sizes */
    {1, 8, 8, 2, 2, 2, 3, 2, 2, 1, 1, 1, 2},      /* even kernel SAME */
    {1, 10, 9, 5, 3, 3, 7, 1, 1, 2, 2, 1, 5},     /* dilation 2 SAME */
    {1, 12, 12, 3, 3, 2, 4, 1, 2, 2, 1, 0, 3},    /* mixed dilation/stride VALID */
    {2, 7, 7, 8, 3, 3, 6, 1, 1, 1, 1, 1, 4},      /* 2 groups */
    {1, 6, 5, 12, 3, 3, 12, 2, 1, 1, 1, 1, 3},    /* 4 groups, stride 2 */
    {1, 6, 6, 6, 1, 1, 6, 1, 1, 1, 1, 0, 1},      /* 6 groups of 1 (depthwise-like) */
    {1, 9, 9, 3, 5, 5, 70, 1, 1, 1, 1, 0, 3},     /* VALID 5x5, wide OC */
    {1, 4, 4, 64, 3, 3, 33, 1, 1, 1, 1, 1, 64},   /* K = 576 */
    {1, 3, 3, 2, 5, 5, 2, 1, 1, 1, 1, 1, 2},      /* kernel larger than input */
    {1, 5, 23, 16, 3, 3, 40, 1, 1, 1, 1, 1, 16},  /* blocked: 32 + 8 channels, 23 columns */
    {1, 4, 19, 9, 1, 1, 16, 1, 2, 1, 1, 0, 9},    /* blocked 1x1 stride 2, 16 channels */
    {2, 6, 7, 24, 1, 1, 70, 1, 1, 1, 1, 1, 24},   /* 1x1 as a matmul, batch 2 */
    {1, 3, 4, 400, 1, 1, 20, 1, 1, 1, 1, 0, 400}, /* 1x1 with C > 320: the blocks */
    {1, 7, 9, 10, 3, 3, 13, 1, 1, 1, 1, 1, 10},   /* blocked: 13 channels, C = 2 x 4 + 2 */
    {1, 64, 48, 3, 3, 3, 120, 1, 1, 1, 1, 1, 3},  /* 1.4 MB out, 12 KB filter: pixel blocks outside, 3 x 32 + 24 */
    {1, 19, 17, 3, 3, 3, 8, 2, 2, 1, 1, 1, 3},    /* 8 channels: 8-lane blocks, stride 2 SAME (VWW's first) */
    {1, 9, 16, 16, 3, 3, 16, 1, 1, 1, 1, 1, 16},  /* rows of 2 blocks of 8: a first block of 7 (cb_first_block) */
};

static void test_conv2d(void **state)
{
    size_t i;
    int32_t act;
    (void)state;
    for (i = 0; i < sizeof conv_cases / sizeof conv_cases[0]; i++)
        for (act = SM2C_RT_ACT_NONE; act <= KACT_LAST; act++)
            check_window(KIND_CONV, &conv_cases[i], 300 + i, act, act != SM2C_RT_ACT_NONE,
                         "conv2d");
    /* no bias with an activation too */
    check_window(KIND_CONV, &conv_cases[3], 399, SM2C_RT_ACT_RELU, 0, "conv2d");
}

/* Explicit asymmetric padding (EXPLICIT or a Pad folded in): before = 2/0, after
** implied by OH/OW. */
/* Conv2D + residual: exactly the plain convolution with bias, then + r, then
** the activation, in float (the same sums in the same order), for every case
** (grouped ones take the direct path). */
static void test_conv2d_add(void **state)
{
    size_t i, k;
    int32_t act;
    (void)state;

    for (i = 0; i < sizeof conv_cases / sizeof conv_cases[0]; i++) {
        const wcase *t = &conv_cases[i];
        int32_t p[SM2C_RT_WIN_PARAMS];
        krng r = krng_new(500 + i);
        size_t nx, nw, ny;
        float *x, *w, *bias, *res, *y, *want;
        double *wantd;

        kwin_params(p, t->n, t->h, t->w, t->c, t->kh, t->kw, t->oc, t->sh, t->sw, t->dh, t->dw,
                    t->same, t->fc);
        nx = (size_t)t->n * t->h * t->w * t->c;
        nw = (size_t)t->kh * t->kw * t->fc * t->oc;
        ny = (size_t)t->n * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW] * t->oc;
        x = calloc(nx + 1, sizeof *x), w = calloc(nw + 1, sizeof *w);
        bias = calloc((size_t)t->oc + 1, sizeof *bias);
        res = calloc(ny + 1, sizeof *res), y = calloc(ny + 1, sizeof *y);
        want = calloc(ny + 1, sizeof *want), wantd = calloc(ny + 1, sizeof *wantd);
        krng_fill(&r, x, nx, -1.0f, 1.0f);
        krng_fill(&r, w, nw, -1.0f, 1.0f);
        krng_fill(&r, bias, (size_t)t->oc, -0.5f, 0.5f);
        krng_fill(&r, res, ny, -2.0f, 2.0f);
        for (act = SM2C_RT_ACT_NONE; act <= KACT_LAST; act++) {
            sm2c_rt_conv2d_f32(x, w, bias, want, p, KACT(SM2C_RT_ACT_NONE));
            for (k = 0; k < ny; k++) {
                wantd[k] = kact((double)(want[k] + res[k]), act);
                want[k] = kactf(want[k] + res[k], act);
            }
            sm2c_rt_conv2d_add_f32(x, w, bias, res, y, p, KACT(act));
            if (act == SM2C_RT_ACT_SIGMOID) /* a polynomial: docs/reliability.md's tolerance */
                kassert_close(wantd, y, ny, 1e-6, 2.4e-6, "conv2d_add sigmoid");
            else
                kassert_same(want, y, ny, "conv2d_add");
        }
        free(x), free(w), free(bias), free(res), free(y), free(want), free(wantd);
    }
}

/* The filter in panels of 16 output channels, as compiler/ops/conv_pack.c
** lays it out (sm2c_rt.h, sm2c_rt_conv2d_packed_f32). */
static void pack_panels(const float *w, float *packed, size_t taps, int32_t oc)
{
    size_t k;
    int32_t o;

    for (o = 0; o < oc; o++)
        for (k = 0; k < taps; k++)
            packed[((size_t)(o / 16) * taps + k) * 16 + (size_t)(o % 16)] = w[k * (size_t)oc + (size_t)o];
}

static const wcase packed_cases[] = {
    /* n  h   w   c  kh kw  oc sh sw dh dw same fc */
    {1, 7, 7, 40, 3, 3, 64, 1, 1, 1, 1, 1, 40},     /* ResNet's 3x3 SAME, 2 blocks of 32 */
    {2, 9, 8, 5, 3, 3, 48, 2, 2, 1, 1, 1, 5},       /* stride 2, 32 + 16 channels, batch 2 */
    {1, 10, 11, 3, 3, 3, 16, 1, 1, 2, 2, 1, 3},     /* dilation 2, one panel */
    {1, 6, 5, 24, 1, 1, 32, 1, 1, 1, 1, 0, 24},     /* 1x1 the plain kernel runs as a matmul */
    {1, 5, 6, 1040, 1, 1, 32, 1, 1, 1, 1, 0, 1040}, /* C above the zero block, inside */
    {1, 12, 12, 4, 5, 2, 80, 2, 1, 1, 1, 0, 4},     /* VALID 5x2, 2 x 32 + 16 */
    {1, 2, 2, 320, 1, 1, 448, 1, 1, 1, 1, 0, 320},  /* 1x1 whose filter streams (573 KB, 4 pixels) */
    {1, 3, 3, 128, 1, 1, 256, 1, 1, 1, 1, 0, 128},  /* 1x1 whose filter bounds it (128 KB, 9 pixels) */
    /* outputs over 1 MB from small filters: pixel blocks outside (cb_pixels_outer) */
    {1, 64, 48, 3, 3, 3, 112, 1, 1, 1, 1, 1, 3},    /* 3 x 32 so, then 16 in 8-pixel blocks */
    {1, 56, 50, 8, 1, 1, 128, 1, 1, 1, 1, 0, 8},    /* 1x1, 4 x 32 */
};

/* A 1x1 layer, stride 1, no padding: the matmul of its pixels and filter. */
static int is_pointwise(const wcase *t)
{
    return t->kh == 1 && t->kw == 1 && t->sh == 1 && t->sw == 1 && t->fc == t->c;
}

/* The packed kernels against the double reference, and, where the HWIO
** kernels run the conv blocks too (sm2c_rt_conv2d_f32_packs), bit for bit
** against them: the same sums in the same order. */
static void test_conv2d_packed(void **state)
{
    size_t i;
    int32_t act;
    (void)state;

    for (i = 0; i < sizeof packed_cases / sizeof packed_cases[0]; i++) {
        const wcase *t = &packed_cases[i];
        int32_t p[SM2C_RT_WIN_PARAMS];
        krng r = krng_new(700 + i);
        size_t nx, taps, ny;
        float *x, *w, *wp, *bias, *res, *y, *want;
        double *wantd;
        char what[96];

        kwin_params(p, t->n, t->h, t->w, t->c, t->kh, t->kw, t->oc, t->sh, t->sw, t->dh, t->dw,
                    t->same, t->fc);
        nx = (size_t)t->n * t->h * t->w * t->c;
        taps = (size_t)t->kh * t->kw * t->fc;
        ny = (size_t)t->n * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW] * t->oc;
        x = calloc(nx + 1, sizeof *x), w = calloc(taps * t->oc + 1, sizeof *w);
        wp = calloc(taps * t->oc + 1, sizeof *wp), bias = calloc((size_t)t->oc + 1, sizeof *bias);
        res = calloc(ny + 1, sizeof *res), y = calloc(ny + 1, sizeof *y);
        want = calloc(ny + 1, sizeof *want), wantd = calloc(ny + 1, sizeof *wantd);
        krng_fill(&r, x, nx, -1.0f, 1.0f);
        krng_fill(&r, w, taps * t->oc, -1.0f, 1.0f);
        krng_fill(&r, bias, (size_t)t->oc, -0.5f, 0.5f);
        krng_fill(&r, res, ny, -2.0f, 2.0f);
        pack_panels(w, wp, taps, t->oc);
        for (act = SM2C_RT_ACT_NONE; act <= KACT_LAST; act++) {
            snprintf(what, sizeof what, "conv2d_packed case %d act %d", (int)i, (int)act);
            ref_window(KIND_CONV, x, w, bias, wantd, p, act);
            sm2c_rt_conv2d_packed_f32(x, wp, bias, y, p, KACT(act));
            kassert_close(wantd, y, ny, ktol_contraction((long)taps), ktol_contraction((long)taps), what);
            if (sm2c_rt_conv2d_f32_packs(p, 0)) {
                sm2c_rt_conv2d_f32(x, w, bias, want, p, KACT(act));
                kassert_same(want, y, ny, what);
            }
            if (is_pointwise(t)) { /* whichever form the plain kernel takes, the same bits */
                sm2c_rt_matmul_f32(x, w, bias, want, (int32_t)(ny / (size_t)t->oc), t->c, t->oc, 0, 0,
                                   KACT(act), NULL);
                kassert_same(want, y, ny, what);
            }
            snprintf(what, sizeof what, "conv2d_add_packed case %d act %d", (int)i, (int)act);
            sm2c_rt_conv2d_add_packed_f32(x, wp, bias, res, y, p, KACT(act));
            sm2c_rt_conv2d_add_f32(x, w, bias, res, want, p, KACT(act));
            if (sm2c_rt_conv2d_f32_packs(p, 1)) {
                kassert_same(want, y, ny, what);
            } else { /* other paths: each within the contraction tolerance */
                const double tol = 2.0 * ktol_contraction((long)taps) + 1e-6;
                size_t k;
                for (k = 0; k < ny; k++)
                    wantd[k] = want[k];
                kassert_close(wantd, y, ny, tol, tol, what);
            }
        }
        free(x), free(w), free(wp), free(bias), free(res), free(y), free(want), free(wantd);
    }
    { /* conv_f32.c's conv_filter_bound: where the conv blocks run at all, a 1x1
      ** layer of 9 pixels whose 128 KB filter bounds its time packs (its tasks
      ** then split channels); one of 49 pixels stays a matmul */
        int32_t q[SM2C_RT_WIN_PARAMS];
        kwin_params(q, 1, 7, 7, 40, 3, 3, 64, 1, 1, 1, 1, 1, 40);
        if (sm2c_rt_conv2d_f32_packs(q, 0)) {
            kwin_params(q, 1, 3, 3, 128, 1, 1, 256, 1, 1, 1, 1, 0, 128);
            assert_true(sm2c_rt_conv2d_f32_packs(q, 0));
            kwin_params(q, 1, 7, 7, 128, 1, 1, 256, 1, 1, 1, 1, 0, 128);
            assert_false(sm2c_rt_conv2d_f32_packs(q, 0));
        }
    }
}

static void test_conv2d_explicit_pad(void **state)
{
    enum { H = 5, W = 4, C = 2, KH = 3, KW = 2, OC = 3 };
    int32_t p[SM2C_RT_WIN_PARAMS];
    float x[H * W * C], w[KH * KW * C * OC], y[8 * 4 * OC];
    double want[8 * 4 * OC];
    krng r = krng_new(5);
    (void)state;

    kwin_params(p, 1, H, W, C, KH, KW, OC, 1, 1, 1, 1, 0, C);
    p[SM2C_RT_WIN_PT] = 2; /* pad rows 2 before, 2 after: OH = 5 + 4 - 3 + 1 = 7 */
    p[SM2C_RT_WIN_OH] = 7;
    p[SM2C_RT_WIN_PL] = 0; /* pad cols 0 before, 1 after: OW = 4 + 1 - 2 + 1 = 4 */
    p[SM2C_RT_WIN_OW] = 4;
    krng_fill(&r, x, sizeof x / sizeof x[0], -1.0f, 1.0f);
    krng_fill(&r, w, sizeof w / sizeof w[0], -1.0f, 1.0f);
    ref_window(KIND_CONV, x, w, NULL, want, p, SM2C_RT_ACT_NONE);
    sm2c_rt_conv2d_f32(x, w, NULL, y, p, KACT(SM2C_RT_ACT_NONE));
    kassert_close(want, y, 7 * 4 * OC, 1e-5, 1e-5, "conv2d explicit pad");
}

/* Rows padded, columns not (explicit padding): every pixel reads its whole
** filter rows in one run, so the conv blocks take their flat path wherever a
** block's filter rows lie inside the input for all its pixels, and a block
** across the last rows, whose first pixel reads them all and whose last does
** not, must not (its bottom rows would read past the input).  8 channels:
** blocks of 8 pixels; 40: of 6 pixels, then 8. */
static void test_conv2d_rows_padded(void **state)
{
    enum { H = 6, W = 5, C = 3, KH = 3, KW = 3, OH = 6, OW = 3, MAXOC = 40 };
    static const int32_t ocs[] = {8, 40};
    int32_t p[SM2C_RT_WIN_PARAMS];
    float x[H * W * C], w[KH * KW * C * MAXOC], bias[MAXOC], y[OH * OW * MAXOC + 1];
    double want[OH * OW * MAXOC];
    krng r = krng_new(6);
    size_t i;
    (void)state;

    krng_fill(&r, x, sizeof x / sizeof x[0], -1.0f, 1.0f);
    krng_fill(&r, w, sizeof w / sizeof w[0], -1.0f, 1.0f);
    krng_fill(&r, bias, MAXOC, -0.5f, 0.5f);
    for (i = 0; i < sizeof ocs / sizeof ocs[0]; i++) {
        kwin_params(p, 1, H, W, C, KH, KW, ocs[i], 1, 1, 1, 1, 0, C);
        p[SM2C_RT_WIN_PT] = 1, p[SM2C_RT_WIN_OH] = OH; /* one row before, one after */
        ref_window(KIND_CONV, x, w, bias, want, p, SM2C_RT_ACT_NONE);
        sm2c_rt_conv2d_f32(x, w, bias, y, p, KACT(SM2C_RT_ACT_NONE));
        kassert_close(want, y, (size_t)OH * OW * ocs[i], ktol_contraction(KH * KW * C),
                      ktol_contraction(KH * KW * C), ocs[i] == 8 ? "rows padded, 8 channels" :
                                                                     "rows padded, 40 channels");
    }
}

static const wcase dw_cases[] = {
    /* n  h   w   c  kh kw  oc sh sw dh dw same fc(=multiplier) */
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1},
    {1, 7, 7, 8, 3, 3, 8, 1, 1, 1, 1, 1, 1},      /* multiplier 1 */
    {2, 9, 8, 3, 3, 3, 9, 2, 2, 1, 1, 1, 3},      /* multiplier 3, stride 2 */
    {1, 10, 10, 5, 3, 3, 10, 1, 1, 2, 2, 1, 2},   /* dilation 2 */
    {1, 6, 7, 17, 5, 5, 17, 1, 1, 1, 1, 0, 1},    /* VALID, odd channels */
    {1, 4, 4, 4, 2, 2, 4, 2, 2, 1, 1, 1, 1},      /* even kernel SAME */
    /* dw_block_f32.h: tiles down a column, cut taps at the edges, one-pixel rows */
    {1, 25, 5, 64, 3, 3, 64, 1, 1, 1, 1, 1, 1},   /* DS-CNN: two 32-channel blocks */
    {1, 20, 19, 40, 3, 3, 40, 2, 2, 1, 1, 1, 1},  /* stride 2, 32 + 8 channels */
    {1, 13, 12, 16, 3, 3, 16, 1, 1, 1, 1, 1, 1},  /* 16 channels: 8-pixel tiles */
    {1, 21, 6, 16, 3, 3, 16, 1, 1, 1, 1, 1, 1},   /* 16 channels, 19 inner rows: 8-pixel tiles, one back */
    {1, 14, 5, 64, 3, 3, 64, 1, 1, 1, 1, 1, 1},   /* 12 inner rows: 6-pixel tiles of 32 channels */
    {1, 13, 4, 40, 3, 3, 40, 1, 1, 1, 1, 1, 1},   /* 11 inner rows: 6 pixels, one back; 8 channels left */
    {1, 18, 4, 48, 3, 3, 48, 1, 1, 1, 1, 1, 1},   /* 32 + 16 channels, 16 inner rows: 8 and 16 pixels */
    {1, 9, 7, 40, 3, 3, 40, 1, 1, 1, 1, 1, 1},    /* 7 inner rows: 4-pixel tiles of 32 channels */
    {1, 14, 11, 33, 5, 5, 33, 1, 1, 2, 2, 1, 1},  /* 5x5 dilated, 32 + 1 channels */
    {1, 3, 3, 20, 5, 5, 20, 1, 1, 1, 1, 1, 1},    /* window wider than the input */
    {2, 11, 9, 7, 3, 5, 7, 2, 1, 1, 2, 0, 1},     /* VALID, mixed strides and dilations */
    {1, 9, 10, 13, 3, 3, 13, 1, 1, 1, 1, 1, 1},   /* 13 channels: a partial 16-channel tile */
    {1, 20, 9, 8, 3, 3, 8, 1, 1, 1, 1, 1, 1},     /* 8 channels, 18 inner rows: 16-pixel 8-lane tiles, one back */
    {1, 11, 10, 8, 3, 3, 8, 1, 1, 1, 1, 1, 1},    /* 8 channels, 9 inner rows: 8-pixel 8-lane tiles */
};

static void test_depthwise_conv2d(void **state)
{
    size_t i;
    int32_t act;
    (void)state;
    for (i = 0; i < sizeof dw_cases / sizeof dw_cases[0]; i++)
        for (act = SM2C_RT_ACT_NONE; act <= KACT_LAST; act++)
            check_window(KIND_DEPTHWISE, &dw_cases[i], 500 + i, act, act != SM2C_RT_ACT_RELU,
                         "depthwise");
}

static const wcase pool_cases[] = {
    /* n  h   w   c  kh kw  oc sh sw dh dw same fc */
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0},
    {1, 4, 4, 1, 2, 2, 1, 2, 2, 1, 1, 0, 0},
    {2, 7, 9, 3, 3, 3, 3, 2, 2, 1, 1, 1, 0},      /* SAME, odd, stride 2 */
    {1, 6, 6, 16, 3, 3, 16, 1, 1, 1, 1, 1, 0},    /* SAME stride 1 */
    {1, 5, 8, 5, 2, 3, 5, 2, 3, 1, 1, 1, 0},
    {1, 5, 5, 2, 5, 5, 2, 1, 1, 1, 1, 0, 0},      /* global */
    {1, 3, 3, 1, 4, 4, 1, 1, 1, 1, 1, 1, 0},      /* window larger than input */
};

static void test_pools(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof pool_cases / sizeof pool_cases[0]; i++) {
        check_window(KIND_MAXPOOL, &pool_cases[i], 700 + i, 0, 0, "max_pool");
        check_window(KIND_AVGPOOL, &pool_cases[i], 800 + i, 0, 0, "avg_pool");
    }
}

/* TF: avg_pool 4x4 arange, ksize 3, stride 2, SAME = [5, 6.5, 11, 12.5] (valid cells
** only); on the top-left 3x3, ksize 2 stride 2 SAME = [2.5, 4, 8.5, 10]. */
static void test_avg_pool_same_tf(void **state)
{
    float x[16], x3[9], y[4];
    const float want1[4] = {5.0f, 6.5f, 11.0f, 12.5f};
    const float want2[4] = {2.5f, 4.0f, 8.5f, 10.0f};
    int32_t p[SM2C_RT_WIN_PARAMS];
    int i;
    (void)state;

    for (i = 0; i < 16; i++)
        x[i] = (float)i;
    for (i = 0; i < 9; i++)
        x3[i] = (float)((i / 3) * 4 + i % 3);
    kwin_params(p, 1, 4, 4, 1, 3, 3, 1, 2, 2, 1, 1, 1, 0);
    sm2c_rt_avg_pool_f32(x, y, p);
    kassert_same(want1, y, 4, "avg_pool SAME k3 s2");
    kwin_params(p, 1, 3, 3, 1, 2, 2, 1, 2, 2, 1, 1, 1, 0);
    sm2c_rt_avg_pool_f32(x3, y, p);
    kassert_same(want2, y, 4, "avg_pool SAME k2 s2");
}

/*
** MaxPool special values, as TF's SpatialMaxPool (core/kernels/
** pooling_ops_common.h): outputs start at NumTraits<float>::lowest() and fold in
** cells with Eigen's max, so NaN is skipped and all -Inf/NaN windows give
** -FLT_MAX.  TF 2.21 CPU, 4x4 input, k2 s2 VALID:
**   [nan 1 2 3 / 1 nan 3 2 / 1 2 3 nan / -inf -inf -inf -inf] -> [1 3 2 3]
**   AvgPool of the same -> [nan 2.5 -inf nan]
** and windows [nan,nan,nan,nan] or [-inf]*4 -> -3.4028235e+38.
*/
static void test_pool_special(void **state)
{
    const float x[16] = {NAN,       1.0f,      2.0f,      3.0f,      1.0f, NAN,  3.0f, 2.0f,
                         1.0f,      2.0f,      3.0f,      NAN,       -INFINITY, -INFINITY,
                         -INFINITY, -INFINITY};
    const float want_max[4] = {1.0f, 3.0f, 2.0f, 3.0f};
    const double want_avg[4] = {NAN, 2.5, -INFINITY, NAN};
    const float nans[4] = {NAN, NAN, NAN, NAN};
    const float ninf[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    const float row1[4] = {1.0f, NAN, 2.0f, 3.0f}, row2[4] = {3.0f, 2.0f, 1.0f, NAN};
    const float lowest = -FLT_MAX;
    /* 8 channels (TF's vectorised path): [-inf, nan, 1, 1] per channel 5 -> 1 */
    float xc[4 * 8], want_c[8];
    float y[8];
    int32_t p[SM2C_RT_WIN_PARAMS];
    int i;
    (void)state;

    kwin_params(p, 1, 4, 4, 1, 2, 2, 1, 2, 2, 1, 1, 0, 0);
    sm2c_rt_max_pool_f32(x, y, p);
    kassert_same(want_max, y, 4, "max_pool nan");
    sm2c_rt_avg_pool_f32(x, y, p);
    kassert_close(want_avg, y, 4, 1e-6, 1e-6, "avg_pool nan");

    kwin_params(p, 1, 1, 4, 1, 1, 4, 1, 1, 1, 1, 1, 0, 0);
    sm2c_rt_max_pool_f32(nans, y, p);
    kassert_same(&lowest, y, 1, "max_pool all nan");
    sm2c_rt_max_pool_f32(ninf, y, p);
    kassert_same(&lowest, y, 1, "max_pool all -inf");
    sm2c_rt_max_pool_f32(row1, y, p);
    assert_true(y[0] == 3.0f);
    sm2c_rt_max_pool_f32(row2, y, p);
    assert_true(y[0] == 3.0f);
    /* SAME 3x3 on a single -inf cell: padding is ignored, the answer is -FLT_MAX */
    kwin_params(p, 1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 1, 1, 0);
    sm2c_rt_max_pool_f32(ninf, y, p);
    kassert_same(&lowest, y, 1, "max_pool SAME -inf");

    for (i = 0; i < 32; i++)
        xc[i] = 1.0f;
    for (i = 0; i < 8; i++)
        xc[8 + i] = NAN;
    for (i = 0; i < 4; i++)
        xc[16 + i] = 5.0f;
    xc[5] = -INFINITY;
    for (i = 0; i < 8; i++)
        want_c[i] = i < 4 ? 5.0f : 1.0f;
    kwin_params(p, 1, 1, 4, 8, 1, 4, 8, 1, 1, 1, 1, 0, 0);
    sm2c_rt_max_pool_f32(xc, y, p);
    kassert_same(want_c, y, 8, "max_pool nan 8 channels");
}

/* Fused activation on a convolution output with special values. */
static void test_conv_act_special(void **state)
{
    /* 1x1 conv, one input channel, weight 1: y = act(x + bias) */
    const float x[5] = {NAN, -INFINITY, INFINITY, -2.0f, 8.0f};
    const float w[1] = {1.0f};
    const float want[5] = {NAN, 0.0f, 6.0f, 0.0f, 6.0f};
    float y[5];
    int32_t p[SM2C_RT_WIN_PARAMS];
    (void)state;

    kwin_params(p, 1, 1, 5, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1);
    sm2c_rt_conv2d_f32(x, w, NULL, y, p, KACT(SM2C_RT_ACT_RELU6));
    kassert_same(want, y, 5, "conv relu6 special");
    sm2c_rt_depthwise_conv2d_f32(x, w, NULL, y, p, KACT(SM2C_RT_ACT_RELU6));
    kassert_same(want, y, 5, "depthwise relu6 special");
}

/* The new kinds on special values, on a 1x1 convolution (y = act(x)) wide
** enough for the vector paths' full and masked lanes: NaN stays NaN,
** LeakyRelu scales -Inf, clip clamps the infinities, sigmoid
** saturates to exactly 0 and 1, hard-swish is NaN at -Inf (Inf * 0) as TF's
** x * (relu6(x + 3) / 6) is. */
static void test_conv_new_act_special(void **state)
{
    enum { N = 21 };
    const float base[7] = {NAN, -INFINITY, INFINITY, 0.0f, -200.0f, 40.0f, -1.5f};
    const float want[4][7] = {
        {NAN, -INFINITY, INFINITY, 0.0f, -40.0f, 40.0f, -0.3f},      /* leaky 0.2 */
        {NAN, -0.5f, 0.75f, 0.0f, -0.5f, 0.75f, -0.5f},              /* clip */
        {NAN, 0.0f, 1.0f, 0.5f, 0.0f, 1.0f, 0.182425523806f},        /* sigmoid */
        {NAN, NAN, INFINITY, 0.0f, -0.0f, 40.0f, -0.375f},           /* hard-swish */
    };
    const float w[1] = {1.0f};
    float x[N], y[N], wk[N];
    int32_t p[SM2C_RT_WIN_PARAMS], act, i;
    (void)state;

    for (i = 0; i < N; i++)
        x[i] = base[i % 7];
    kwin_params(p, 1, 1, N, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1);
    for (act = SM2C_RT_ACT_LEAKY_RELU; act <= KACT_LAST; act++) {
        for (i = 0; i < N; i++)
            wk[i] = want[act - SM2C_RT_ACT_LEAKY_RELU][i % 7];
        sm2c_rt_conv2d_f32(x, w, NULL, y, p, KACT(act));
        for (i = 0; i < N; i++)
            if (act == SM2C_RT_ACT_SIGMOID && i % 7 == 6)
                assert_true(fabsf(y[i] - wk[i]) <= 1e-6f);
            else
                kassert_same(wk + i, y + i, 1, "conv new act special");
        kwin_params(p, 1, 1, 1, N, 1, 1, N, 1, 1, 1, 1, 0, 1);
        for (i = 0; i < N; i++)
            y[i] = 7.0f;
        {
            float wd[N];
            for (i = 0; i < N; i++)
                wd[i] = 1.0f;
            sm2c_rt_depthwise_conv2d_f32(x, wd, NULL, y, p, KACT(act));
        }
        for (i = 0; i < N; i++)
            if (act == SM2C_RT_ACT_SIGMOID && i % 7 == 6)
                assert_true(fabsf(y[i] - wk[i]) <= 1e-6f);
            else
                kassert_same(wk + i, y + i, 1, "depthwise new act special");
        kwin_params(p, 1, 1, N, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1);
    }
}

int main(void)
{
#ifdef SM2C_TEST_CPU
    /* A build of the kernels for one vector ISA (tests/CMakeLists.txt). */
    if (!__builtin_cpu_supports(SM2C_TEST_CPU))
        return 77;
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conv2d),
        cmocka_unit_test(test_conv2d_explicit_pad),
        cmocka_unit_test(test_conv2d_rows_padded),
        cmocka_unit_test(test_conv2d_add),
        cmocka_unit_test(test_conv2d_packed),
        cmocka_unit_test(test_depthwise_conv2d),
        cmocka_unit_test(test_conv_act_special),
        cmocka_unit_test(test_conv_new_act_special),
        cmocka_unit_test(test_pools),
        cmocka_unit_test(test_avg_pool_same_tf),
        cmocka_unit_test(test_pool_special),
    };
    return cmocka_run_group_tests_name("conv", tests, NULL, NULL);
}
