/*
** test_q8.c: the int8 kernels (--quantize int8) against references written
** from TFLite's definitions rather than its code: SaturatingRoundingDoublingHighMul
** is round(a*b / 2^31) with halves toward +inf, RoundingDivideByPOT rounds
** halves away from zero; convolutions and pools as plain loops over the taps.
** Everything must agree exactly.  The _frq kernels' float requantization
** against rintf of the float product (ref_frq).
*/
#include "sm2c_test.h"

#include "sm2c_rt.h"
#include "ktest.h"

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int32_t ref_requant(int32_t x, int32_t m, int32_t shift)
{
    int64_t lifted = (int64_t)x * (shift > 0 ? (INT64_C(1) << shift) : 1);
    int64_t high = floor_div(lifted * m + (INT64_C(1) << 30), INT64_C(1) << 31);
    int32_t e = shift > 0 ? 0 : -shift;
    if (e == 0)
        return (int32_t)high;
    int64_t half = INT64_C(1) << (e - 1);
    return (int32_t)(high >= 0 ? (high + half) >> e : -((-high + half) >> e));
}

static int8_t clamp8(int32_t v, int32_t lo, int32_t hi)
{
    return (int8_t)(v < lo ? lo : v > hi ? hi : v);
}

static void fill8(ktest_rng *r, int8_t *v, int n)
{
    for (int i = 0; i < n; i++)
        v[i] = (int8_t)ktest_int(r, -128, 127);
}

/* bias on odd seeds, none on even ones */
static const int32_t *o_bias(const int32_t *bias, uint64_t seed)
{
    return seed % 2 ? bias : NULL;
}

/* 1x5x6xC input, 3x3 window, strides 2/1, padding top 1 left 1, dilation 1. */
static void make_window(int32_t *p, int32_t c, int32_t fc, int32_t oc)
{
    const int32_t v[SM2C_RT_WIN_PARAMS] = {
        [SM2C_RT_WIN_N] = 1, [SM2C_RT_WIN_H] = 5, [SM2C_RT_WIN_W] = 6, [SM2C_RT_WIN_C] = c,
        [SM2C_RT_WIN_KH] = 3, [SM2C_RT_WIN_KW] = 3, [SM2C_RT_WIN_OH] = 3, [SM2C_RT_WIN_OW] = 6,
        [SM2C_RT_WIN_SH] = 2, [SM2C_RT_WIN_SW] = 1, [SM2C_RT_WIN_DH] = 1, [SM2C_RT_WIN_DW] = 1,
        [SM2C_RT_WIN_PT] = 1, [SM2C_RT_WIN_PL] = 1,
    };
    memcpy(p, v, sizeof v);
    p[SM2C_RT_WIN_FC] = fc, p[SM2C_RT_WIN_OC] = oc;
}

/* The sum over the taps for output (oh, ow, o), input channel of tap ic given by chan(). */
static int32_t ref_taps(const int8_t *x, const int8_t *w, const int32_t *p, int32_t oh, int32_t ow, int32_t o,
                        int depthwise, int32_t in_zp)
{
    const int32_t C = p[SM2C_RT_WIN_C], OC = p[SM2C_RT_WIN_OC], FC = p[SM2C_RT_WIN_FC];
    int32_t acc = 0;
    for (int32_t kh = 0; kh < 3; kh++)
        for (int32_t kw = 0; kw < 3; kw++) {
            int32_t ih = oh * 2 + kh - 1, iw = ow + kw - 1;
            if (ih < 0 || ih >= 5 || iw < 0 || iw >= 6)
                continue;
            if (depthwise) {
                acc += w[(kh * 3 + kw) * OC + o] * (x[(ih * 6 + iw) * C + o / FC] - in_zp);
                continue;
            }
            int32_t g = o / (OC / (C / FC));
            for (int32_t ic = 0; ic < FC; ic++)
                acc += w[((kh * 3 + kw) * FC + ic) * OC + o] * (x[(ih * 6 + iw) * C + g * FC + ic] - in_zp);
        }
    return acc;
}

/* C input channels; fc filter input channels (depthwise: the multiplier). */
static void check_conv(int depthwise, int32_t c, int32_t fc, int32_t oc)
{
    ktest_rng r = { 0x51ULL + (uint64_t)fc + (uint64_t)c * 7 };
    int32_t p[SM2C_RT_WIN_PARAMS];
    const int nw = 9 * (depthwise ? 1 : fc) * oc;
    int32_t *bias = malloc((size_t)oc * sizeof *bias), *mult = malloc((size_t)oc * sizeof *mult);
    int32_t *shift = malloc((size_t)oc * sizeof *shift);
    int8_t *x = malloc((size_t)5 * 6 * c), *w = malloc((size_t)nw), *y = malloc((size_t)3 * 6 * oc);
    make_window(p, c, fc, oc);
    fill8(&r, x, 5 * 6 * c);
    fill8(&r, w, nw);
    for (int o = 0; o < oc; o++) {
        bias[o] = ktest_int(&r, -40000, 40000);
        mult[o] = ktest_int(&r, 1 << 30, INT32_MAX);
        shift[o] = ktest_int(&r, -12, 1);
    }
    const int32_t in_zp = -7, out_zp = 5, lo = -100, hi = 120;
    if (depthwise)
        sm2c_rt_depthwise_conv2d_s8(x, w, bias, y, p, mult, shift, in_zp, out_zp, lo, hi);
    else
        sm2c_rt_conv2d_s8(x, w, bias, y, p, mult, shift, in_zp, out_zp, lo, hi);
    for (int32_t oh = 0; oh < 3; oh++)
        for (int32_t ow = 0; ow < 6; ow++)
            for (int32_t o = 0; o < oc; o++) {
                int32_t acc = ref_taps(x, w, p, oh, ow, o, depthwise, in_zp) + bias[o];
                int8_t want = clamp8(ref_requant(acc, mult[o], shift[o]) + out_zp, lo, hi);
                assert_int_equal(want, y[(oh * 6 + ow) * oc + o]);
            }
    free(bias), free(mult), free(shift), free(x), free(w), free(y);
}

static void test_conv_s8(void **state)
{
    (void)state;
    check_conv(0, 4, 4, 6);     /* plain */
    check_conv(0, 4, 2, 8);     /* two groups */
    check_conv(1, 4, 2, 8);     /* depthwise, multiplier 2 */
    /* Past one block of 64 output channels (conv_s8.c), with a tail. */
    check_conv(0, 5, 5, 150);   /* three blocks, the last of 22 */
    check_conv(0, 6, 3, 140);   /* two groups of 70: blocks of 64 and 6 in each */
    check_conv(1, 80, 1, 80);   /* depthwise, multiplier 1: blocks of 64 and 16 */
    check_conv(1, 6, 1, 6);     /* multiplier 1, a tail of 2 past Cortex-M's quads (conv_m_s8.h) */
    check_conv(1, 3, 3, 9);     /* depthwise, multiplier 3 */
}

/* The sum over the taps of output (n, oh, ow, o) of a Conv2D without groups
** or (dw) a depthwise convolution of multiplier 1, any window p[]. */
static int32_t ref_conv_taps(const int8_t *x, const int8_t *w, const int32_t *p, int32_t n, int32_t oh,
                             int32_t ow, int32_t o, int32_t in_zp, int dw)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t KW = p[SM2C_RT_WIN_KW], OC = p[SM2C_RT_WIN_OC];
    int32_t acc = 0;
    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++)
        for (int32_t kw = 0; kw < KW; kw++) {
            int32_t ih = oh * p[SM2C_RT_WIN_SH] + kh * p[SM2C_RT_WIN_DH] - p[SM2C_RT_WIN_PT];
            int32_t iw = ow * p[SM2C_RT_WIN_SW] + kw * p[SM2C_RT_WIN_DW] - p[SM2C_RT_WIN_PL];
            if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                continue;
            if (dw) { /* multiplier 1: output o reads input channel o */
                acc += w[(kh * KW + kw) * C + o] * (x[((n * H + ih) * W + iw) * C + o] - in_zp);
                continue;
            }
            for (int32_t ic = 0; ic < C; ic++)
                acc += w[((kh * KW + kw) * C + ic) * OC + o] * (x[((n * H + ih) * W + iw) * C + ic] - in_zp);
        }
    return acc;
}

/* A row of sm2c_rt_conv2d_ohwi_s8's filter from w [KH, KW, C, OC]: channel o's
** K values, the middle two of each four below K & ~3 swapped. */
static void ohwi_row(const int8_t *w, int32_t k, int32_t oc, int32_t o, int8_t *r)
{
    for (int32_t i = 0; i < k; i++) {
        int32_t at = i;
        if (i < (k & ~3) && (i & 3) == 1)
            at = i + 1;
        else if (i < (k & ~3) && (i & 3) == 2)
            at = i - 1;
        r[at] = w[i * oc + o];
    }
}

/* sm2c_rt_conv2d_ohwi_s8's filter (sm2c_rt.h): groups of four channels, per
** pair of values (k, k+1) the words (c0 k, c1 k, c0 k+1, c1 k+1) and (c2 k,
** c3 k, c2 k+1, c3 k+1), 0 past an odd K; then the last oc % 4 channels'
** rows. */
static int8_t *ohwi_of(const int8_t *w, int32_t k, int32_t oc)
{
    const int32_t kp = k + (k & 1), groups = oc / 4;
    int8_t *r = calloc((size_t)(groups * 4 * kp + (oc % 4) * k) + 1, 1), *d = r;
    for (int32_t g = 0; g < groups; g++)
        for (int32_t i = 0; i < kp; i += 2)
            for (int32_t h = 0; h < 2; h++) { /* channels 4g + 2h, 4g + 2h + 1 */
                const int32_t o = 4 * g + 2 * h;
                *d++ = w[i * oc + o];
                *d++ = w[i * oc + o + 1];
                *d++ = i + 1 < k ? w[(i + 1) * oc + o] : 0;
                *d++ = i + 1 < k ? w[(i + 1) * oc + o + 1] : 0;
            }
    for (int32_t o = 4 * groups; o < oc; o++, d += k)
        ohwi_row(w, k, oc, o, d);
    return r;
}

/* sm2c_rt_conv2d_packed_s8's filter from w [KH, KW, C, OC] (conv_pack_s8.h):
** sets of up to 4 blocks of 16 channels, each [KH][ceil(KW*C/4)][blocks in
** the set][16][4], zeros in the padding. */
static int8_t *packed_of(const int8_t *w, int32_t kh_n, int32_t l, int32_t oc)
{
    const int32_t g = (l + 3) / 4, blocks = (oc + 15) / 16;
    int8_t *r = calloc((size_t)blocks * kh_n * g * 64, 1);
    for (int32_t o = 0; o < oc; o++) {
        const int32_t set = o / 64, n = blocks - 4 * set < 4 ? blocks - 4 * set : 4;
        for (int32_t kh = 0; kh < kh_n; kh++)
            for (int32_t k = 0; k < l; k++)
                r[set * kh_n * g * 256 + ((kh * g + k / 4) * n + o % 64 / 16) * 64 + (o % 16) * 4 + k % 4] =
                    w[(kh * l + k) * oc + o];
    }
    return r;
}

/* Its bias: bias[o] (0 without) less (in_zp + 128) times filter column o's sum. */
static int32_t *packed_bias(const int8_t *w, const int32_t *bias, int32_t k, int32_t oc, int32_t in_zp)
{
    int32_t *r = malloc((size_t)oc * sizeof *r);
    for (int32_t o = 0; o < oc; o++) {
        int32_t sum = 0;
        for (int32_t i = 0; i < k; i++)
            sum += w[i * oc + o];
        r[o] = (bias ? bias[o] : 0) - (in_zp + 128) * sum;
    }
    return r;
}

/* Conv2D of shape {N, H, W, C, KH, KW, OC, SH, SW, DH, DW, PT, PL} against
** the reference: the SIMD kernels' blocks of pixels and channels, their
** tails, runs of KW * C values and taps in the padding. */
/* The float requantization (the _frq kernels): the product rounded to
** nearest even by rintf, independently of q8_vec.h's magic number. */
static int8_t ref_frq(int32_t acc, float scale, int32_t zp, int32_t lo, int32_t hi)
{
    float f = (float)acc * scale;
    f = fminf(fmaxf(f, (float)(lo - zp)), (float)(hi - zp));
    return (int8_t)((int32_t)rintf(f) + zp);
}

static void check_shape_rq(const int32_t *s, int32_t in_zp, uint64_t seed, int dw, int frq)
{
    ktest_rng r = { seed };
    int32_t p[SM2C_RT_WIN_PARAMS] = { 0 };
    p[SM2C_RT_WIN_N] = s[0], p[SM2C_RT_WIN_H] = s[1], p[SM2C_RT_WIN_W] = s[2], p[SM2C_RT_WIN_C] = s[3];
    p[SM2C_RT_WIN_KH] = s[4], p[SM2C_RT_WIN_KW] = s[5], p[SM2C_RT_WIN_OC] = s[6], p[SM2C_RT_WIN_FC] = dw == 1 || dw == 4 ? 1 : s[3];
    p[SM2C_RT_WIN_SH] = s[7], p[SM2C_RT_WIN_SW] = s[8], p[SM2C_RT_WIN_DH] = s[9], p[SM2C_RT_WIN_DW] = s[10];
    p[SM2C_RT_WIN_PT] = s[11], p[SM2C_RT_WIN_PL] = s[12];
    /* SAME-like extents: the last tap of the last output may reach one pad past the end */
    p[SM2C_RT_WIN_OH] = (s[1] + 2 * s[11] - s[9] * (s[4] - 1) - 1) / s[7] + 1;
    p[SM2C_RT_WIN_OW] = (s[2] + 2 * s[12] - s[10] * (s[5] - 1) - 1) / s[8] + 1;
    const int32_t N = s[0], OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], OC = s[6];
    const int nx = s[0] * s[1] * s[2] * s[3], nw = s[4] * s[5] * (dw == 1 || dw == 4 ? 1 : s[3]) * OC;
    const int ny = N * OH * OW * OC;
    int32_t *bias = malloc((size_t)OC * sizeof *bias), *mult = malloc((size_t)OC * sizeof *mult);
    int32_t *shift = malloc((size_t)OC * sizeof *shift);
    float *scale = malloc((size_t)OC * sizeof *scale);
    /* y with 64 guard bytes after it: the vector kernels' masked stores are
    ** intrinsics, which AddressSanitizer does not check */
    int8_t *x = malloc((size_t)nx), *w = malloc((size_t)nw), *y = malloc((size_t)ny + 64);
    memset(y + ny, 0x5A, 64);
    fill8(&r, x, nx);
    fill8(&r, w, nw);
    for (int o = 0; o < OC; o++) {
        bias[o] = ktest_int(&r, -40000, 40000);
        mult[o] = ktest_int(&r, 1 << 30, INT32_MAX);
        /* every third seed: right shifts only, q8_m.h's short way for the whole layer */
        shift[o] = seed % 3 ? ktest_int(&r, -14, 2) : ktest_int(&r, -14, -1);
        scale[o] = (float)ldexp((double)mult[o], shift[o] - 31);
    }
    /* the Cortex-M forms (dw 2, 4) on odd seeds: the clamp [-128, 127], their SSAT paths */
    /* and the packed form (dw 3) on odd seeds: the clamp's high end 127, its saturating store */
    const int32_t out_zp = -3, lo = -128, hi = (dw == 2 || dw == 3 || dw == 4) && seed % 2 ? 127 : 100;
    if (dw == 4) { /* the Cortex-M plane form of a 3x3 depthwise: its scratch as sm2c_rt.h states */
        const int32_t pairs = (OW + 1) / 2, wp = 2 * s[8] * pairs + 4, hp = (OH - 1) * s[7] + 3;
        int16_t *plane = malloc((size_t)(4 * pairs + hp * wp) * sizeof *plane);
        sm2c_rt_depthwise_plane_s8(x, w, o_bias(bias, seed), y, p, mult, shift, in_zp, out_zp, lo, hi, plane);
        free(plane);
        dw = 1;
    } else if (dw == 1) {
        if (frq)
            sm2c_rt_depthwise_conv2d_s8_frq(x, w, o_bias(bias, seed), y, p, scale, in_zp, out_zp, lo, hi);
        else
            sm2c_rt_depthwise_conv2d_s8(x, w, o_bias(bias, seed), y, p, mult, shift, in_zp, out_zp, lo, hi);
    } else if (dw == 2) { /* the Cortex-M form: the same sums over its filter layout */
        const int32_t k = s[4] * s[5] * s[3];
        int8_t *wo = ohwi_of(w, k, OC);
        int16_t *col = malloc((size_t)(2 * k + 2) * sizeof *col);
        sm2c_rt_conv2d_ohwi_s8(x, wo, o_bias(bias, seed), y, p, mult, shift, in_zp, out_zp, lo, hi, col);
        free(wo), free(col);
        dw = 0;
    } else if (dw == 3) { /* the vector cores' form: packed filter, folded bias */
        int8_t *wp = packed_of(w, s[4], s[5] * s[3], OC);
        int32_t *bp = packed_bias(w, o_bias(bias, seed), s[4] * s[5] * s[3], OC, in_zp);
        if (frq)
            sm2c_rt_conv2d_packed_s8_frq(x, wp, bp, y, p, scale, in_zp, out_zp, lo, hi);
        else
            sm2c_rt_conv2d_packed_s8(x, wp, bp, y, p, mult, shift, in_zp, out_zp, lo, hi);
        free(wp), free(bp);
        dw = 0;
    } else if (frq) {
        sm2c_rt_conv2d_s8_frq(x, w, o_bias(bias, seed), y, p, scale, in_zp, out_zp, lo, hi);
    } else {
        sm2c_rt_conv2d_s8(x, w, o_bias(bias, seed), y, p, mult, shift, in_zp, out_zp, lo, hi);
    }
    for (int32_t n = 0; n < N; n++)
        for (int32_t oh = 0; oh < OH; oh++)
            for (int32_t ow = 0; ow < OW; ow++)
                for (int32_t o = 0; o < OC; o++) {
                    int32_t acc = ref_conv_taps(x, w, p, n, oh, ow, o, in_zp, dw) + (seed % 2 ? bias[o] : 0);
                    int8_t want = frq ? ref_frq(acc, scale[o], out_zp, lo, hi)
                                      : clamp8(ref_requant(acc, mult[o], shift[o]) + out_zp, lo, hi);
                    assert_int_equal(want, y[((n * OH + oh) * OW + ow) * OC + o]);
                }
    for (int i = 0; i < 64; i++)
        assert_int_equal(0x5A, y[ny + i]);
    free(bias), free(mult), free(shift), free(scale), free(x), free(w), free(y);
}

/* Both requantizations, but for the Cortex-M forms (dw 2 and 4), fixed point only. */
static void check_shape(const int32_t *s, int32_t in_zp, uint64_t seed, int dw)
{
    check_shape_rq(s, in_zp, seed, dw, 0);
    if (dw != 2 && dw != 4)
        check_shape_rq(s, in_zp, seed, dw, 1);
}

static void check_conv_shape(const int32_t *s, int32_t in_zp, uint64_t seed)
{
    check_shape(s, in_zp, seed, 0);
    check_shape(s, in_zp, seed, 2);
    check_shape(s, in_zp, seed, 3);
}

/* The packed form on what its paths tell apart: channels not a multiple of
** 16 (and more than 64), first layers of 1 and 3 channels, rows gathered
** or read tap by tap, stride 2, SAME and VALID, dilation, and rows of C not a
** multiple of 4 too long to gather (KW * C > 64). */
static void test_conv_packed_s8(void **state)
{
    (void)state;
    /* N  H   W  C   KH KW OC  SH SW DH DW PT PL */
    const int32_t odd37[] = { 1, 6, 7, 8, 3, 3, 37, 1, 1, 1, 1, 1, 1 };
    const int32_t odd90[] = { 2, 5, 6, 12, 3, 3, 90, 2, 2, 1, 1, 1, 1 };
    const int32_t c1same[] = { 1, 10, 9, 1, 3, 3, 10, 1, 1, 1, 1, 1, 1 };
    const int32_t c3s2[] = { 1, 11, 11, 3, 3, 3, 24, 2, 2, 1, 1, 1, 1 };
    const int32_t c3valid[] = { 1, 9, 8, 3, 3, 3, 48, 1, 1, 1, 1, 0, 0 };
    const int32_t dil4[] = { 1, 9, 9, 4, 3, 3, 50, 1, 1, 2, 2, 2, 2 };
    const int32_t dil3[] = { 1, 9, 9, 3, 3, 2, 17, 2, 1, 2, 3, 1, 1 };
    const int32_t long5[] = { 1, 3, 20, 5, 1, 13, 33, 1, 1, 1, 1, 0, 6 };
    const int32_t long1[] = { 1, 1, 100, 1, 1, 80, 16, 1, 2, 1, 1, 0, 40 };
    const int32_t valid64[] = { 1, 6, 6, 64, 3, 3, 64, 1, 1, 1, 1, 0, 0 };
    const int32_t pw7[] = { 1, 4, 5, 7, 1, 1, 7, 1, 1, 1, 1, 0, 0 };
    /* every window inside (the compiler's padded copy): c8p_inside's kernels */
    const int32_t in16[] = { 2, 9, 10, 16, 3, 3, 16, 1, 1, 1, 1, 0, 0 };
    const int32_t in32s2[] = { 1, 12, 11, 8, 3, 3, 32, 2, 2, 1, 1, 0, 0 };
    const int32_t in70dh[] = { 1, 10, 7, 4, 3, 2, 70, 1, 2, 2, 1, 0, 0 };
    const int32_t in1x1[] = { 1, 5, 5, 20, 1, 1, 24, 2, 2, 1, 1, 0, 0 };
    const int32_t in_c1k4[] = { 1, 12, 9, 1, 3, 4, 20, 2, 1, 1, 1, 0, 0 };
    const int32_t in_c2k2[] = { 1, 7, 8, 2, 2, 2, 33, 1, 1, 1, 1, 0, 0 };
    /* rows of 12 + 12 + 4, 12 + 10 (the last row's blocks past the image on
    ** c8p_vnni_narrow) and 12 + 2 at stride 2: c8p_vnni_rows' three sizes */
    const int32_t row28[] = { 2, 4, 30, 16, 3, 3, 16, 1, 1, 1, 1, 0, 0 };
    const int32_t row22[] = { 1, 5, 24, 8, 3, 3, 32, 1, 1, 1, 1, 0, 0 };
    const int32_t row14s2[] = { 1, 7, 29, 4, 3, 3, 20, 2, 2, 1, 1, 0, 0 };
    /* exactly 8 channels, two pixels to a vector (c8p_vnni_rows8): rows of
    ** 12 + 1 at stride 2 (a spare input row, so the image's last pixel is a
    ** block's odd one), and 12 + 11 whose last row's second block passes the
    ** image's end */
    const int32_t oc8s2[] = { 1, 10, 27, 4, 3, 3, 8, 2, 2, 1, 1, 0, 0 };
    const int32_t oc8w23[] = { 2, 5, 25, 8, 3, 3, 8, 1, 1, 1, 1, 0, 0 };
    check_shape(odd37, -5, 21, 3);
    check_shape(odd90, 127, 22, 3);
    check_shape(c1same, -128, 23, 3);
    check_shape(c1same, 40, 24, 3);
    check_shape(c3s2, -128, 25, 3);
    check_shape(c3s2, 3, 26, 3);
    check_shape(c3valid, 1, 27, 3);
    check_shape(dil4, -77, 28, 3);
    check_shape(dil3, 99, 29, 3);
    check_shape(long5, -3, 30, 3);
    check_shape(long1, 17, 31, 3);
    check_shape(long1, -128, 32, 3);
    check_shape(valid64, -20, 33, 3);
    check_shape(pw7, 6, 34, 3);
    check_shape(in16, -128, 35, 3);
    check_shape(in32s2, 9, 36, 3);
    check_shape(in70dh, -100, 37, 3);
    check_shape(in1x1, 126, 38, 3);
    check_shape(in_c1k4, -7, 39, 3);
    check_shape(in_c2k2, 55, 40, 3);
    check_shape(row28, -128, 41, 3);
    check_shape(row22, 12, 42, 3);
    check_shape(row14s2, -60, 43, 3);
    check_shape(oc8s2, 5, 44, 3);
    check_shape(oc8s2, -128, 45, 3);
    check_shape(oc8w23, 77, 46, 3);
}

static void test_conv_s8_shapes(void **state)
{
    (void)state;
    /* N  H   W  C   KH KW OC  SH SW DH DW PT PL */
    const int32_t pointwise[] = { 1, 5, 5, 64, 1, 1, 64, 1, 1, 1, 1, 0, 0 };
    const int32_t c3[] = { 1, 7, 9, 3, 3, 3, 70, 1, 1, 1, 1, 1, 1 };
    const int32_t first[] = { 1, 13, 6, 1, 10, 4, 64, 2, 2, 1, 1, 4, 1 };
    const int32_t dilated[] = { 2, 8, 7, 8, 3, 2, 20, 1, 2, 2, 2, 2, 1 };
    const int32_t narrow[] = { 1, 4, 4, 16, 3, 3, 16, 1, 1, 1, 1, 1, 1 };
    const int32_t wide[] = { 1, 3, 3, 130, 1, 1, 150, 1, 1, 1, 1, 0, 0 };
    check_conv_shape(pointwise, -7, 1);
    check_conv_shape(c3, 12, 2);
    check_conv_shape(first, -128, 3);
    check_conv_shape(dilated, 127, 4);
    check_conv_shape(narrow, 0, 5);
    check_conv_shape(wide, -1, 7);
    check_conv_shape(c3, -128, 9);
    check_conv_shape(first, 127, 10);
    /* The 16- and 32-channel kernels (12 pixels each), their tails, and rows
    ** of taps gathered (C not a multiple of 4, KW * C <= 64, padding) or read
    ** in place. */
    const int32_t rgb16[] = { 1, 9, 9, 3, 3, 3, 16, 2, 2, 1, 1, 1, 1 };
    const int32_t rgb8[] = { 1, 7, 6, 3, 3, 3, 8, 1, 1, 1, 1, 1, 1 };
    const int32_t mid32[] = { 1, 6, 7, 16, 3, 3, 32, 1, 1, 1, 1, 1, 1 };
    const int32_t dil24[] = { 2, 5, 9, 5, 3, 3, 24, 1, 2, 1, 2, 1, 2 };
    const int32_t wide16[] = { 1, 5, 5, 32, 3, 3, 16, 1, 1, 1, 1, 1, 1 };
    const int32_t first32[] = { 1, 13, 6, 1, 10, 4, 32, 2, 2, 1, 1, 4, 1 };
    const int32_t pw20[] = { 1, 5, 5, 20, 1, 1, 20, 1, 1, 1, 1, 0, 0 };
    check_conv_shape(rgb16, -128, 11);
    check_conv_shape(rgb8, 3, 12);
    check_conv_shape(mid32, -9, 13);
    check_conv_shape(dil24, 127, 14);
    check_conv_shape(wide16, 5, 15);
    check_conv_shape(first32, -1, 16);
    check_conv_shape(pw20, 0, 17);
    /* An odd number of output channels and of pixels: conv_ohwi_s8.c's pairs' tails. */
    const int32_t odd[] = { 1, 5, 4, 7, 3, 2, 13, 2, 1, 1, 1, 1, 0 };
    check_conv_shape(odd, 9, 18);
    check_conv_shape(odd, -128, 19);
    /* 1x1 windows (conv_ohwi_s8.c widens both pixels' values at once): seeds 0
    ** mod 3 take its assembly, K / 4 odd (a first group of four terms), the
    ** SSAT clamp on odd seeds; a stride of 2; C not whole groups, two images. */
    const int32_t pw_s2[] = { 1, 7, 9, 12, 1, 1, 6, 2, 2, 1, 1, 0, 0 };
    const int32_t pw10[] = { 2, 3, 5, 10, 1, 1, 9, 1, 1, 1, 1, 0, 0 };
    check_conv_shape(pw20, 3, 21);
    check_conv_shape(pw20, -128, 24);
    check_conv_shape(pw_s2, 7, 27);
    check_conv_shape(pw_s2, -20, 30);
    check_conv_shape(pw10, 1, 33);
    check_conv_shape(mid32, 2, 39);
    /* conv_ohwi_s8.c's groups of four channels: one output pixel (its two
    ** columns one pixel's), fewer than four channels, K odd (the groups' zero
    ** past value K) with pairs % 4 of 1, 2 and 3, on its assembly's seeds. */
    const int32_t one_px[] = { 1, 3, 3, 5, 3, 3, 7, 1, 1, 1, 1, 0, 0 };
    const int32_t oc3[] = { 1, 4, 5, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1 };
    const int32_t k9[] = { 1, 4, 5, 1, 3, 3, 12, 1, 1, 1, 1, 1, 1 };
    const int32_t k3[] = { 1, 6, 4, 3, 1, 1, 8, 1, 1, 1, 1, 0, 0 };
    const int32_t k13[] = { 1, 5, 5, 13, 1, 1, 4, 1, 1, 1, 1, 0, 0 };
    check_conv_shape(one_px, 4, 42);
    check_conv_shape(one_px, -128, 43);
    check_conv_shape(oc3, 1, 45);
    check_conv_shape(k9, -5, 48);
    check_conv_shape(k3, 11, 51);
    check_conv_shape(k13, -128, 54);
    check_conv_shape(k13, 0, 55);
}

/* Depthwise of multiplier 1 (OC = C): blocks of 16 channels and their tails,
** pixels inside and at the border, strides and dilations, a window of more
** than 25 taps (the 64-channel kernel), and layers whose every window is
** inside: blocks of 64 channels (a last one of 48 to 63) four taps at a time,
** or 64 / C pixels to a vector (C 4, 8, 32; a row's last pixels fewer);
** at stride 2 by both too (C 8, 16, 32). */
static void test_dw_s8_shapes(void **state)
{
    (void)state;
    /* N  H   W  C   KH KW OC  SH SW DH DW PT PL */
    const int32_t ds[] = { 1, 25, 5, 64, 3, 3, 64, 1, 1, 1, 1, 1, 1 };
    const int32_t tail[] = { 2, 7, 8, 70, 3, 3, 70, 2, 2, 1, 1, 1, 1 };
    const int32_t narrow[] = { 1, 9, 6, 6, 5, 3, 6, 1, 2, 2, 1, 4, 1 };
    const int32_t big[] = { 1, 9, 9, 40, 7, 7, 40, 1, 1, 1, 1, 3, 3 };
    /* every window inside (the compiler's padded copy): dw8_vnni_taps4 */
    const int32_t in64[] = { 1, 27, 7, 64, 3, 3, 64, 1, 1, 1, 1, 0, 0 };
    const int32_t in100[] = { 2, 9, 11, 100, 3, 3, 100, 2, 2, 1, 1, 0, 0 };
    const int32_t in_dil[] = { 1, 12, 12, 24, 5, 5, 24, 1, 2, 2, 1, 0, 0 };
    const int32_t in2x5[] = { 1, 6, 9, 136, 2, 5, 136, 1, 1, 1, 2, 0, 0 };
    const int32_t in56[] = { 1, 5, 8, 56, 3, 3, 56, 1, 2, 1, 1, 0, 0 };
    const int32_t in8[] = { 2, 9, 21, 8, 3, 3, 8, 1, 1, 1, 1, 0, 0 };
    const int32_t in32[] = { 1, 7, 13, 32, 3, 3, 32, 2, 1, 1, 2, 0, 0 };
    const int32_t in4[] = { 1, 6, 40, 4, 2, 3, 4, 1, 1, 2, 1, 0, 0 };
    /* dw8_rows3: four output rows at once and their tails, stride 2 by both
    ** with 64 / C pixels gathered (a last block of fewer), rows of 4 taps,
    ** and rows of taps by the per-pixel loop (dilation along H) */
    const int32_t in16s2[] = { 1, 13, 15, 16, 3, 3, 16, 2, 2, 1, 1, 0, 0 };
    const int32_t in8s2[] = { 2, 11, 17, 8, 3, 3, 8, 2, 2, 1, 1, 0, 0 };
    const int32_t in32s2[] = { 1, 9, 9, 32, 3, 3, 32, 2, 2, 1, 2, 0, 0 };
    const int32_t in4w[] = { 1, 8, 10, 32, 3, 4, 32, 1, 1, 1, 1, 0, 0 };
    const int32_t in_dh[] = { 1, 12, 9, 64, 3, 3, 64, 1, 1, 2, 1, 0, 0 };
    check_shape(in64, -128, 41, 1);
    check_shape(in100, 30, 42, 1);
    check_shape(in_dil, -1, 43, 1);
    check_shape(in2x5, 127, 44, 1);
    check_shape(in56, 0, 45, 1);
    check_shape(in8, -128, 46, 1);
    check_shape(in32, 11, 47, 1);
    check_shape(in4, -50, 48, 1);
    check_shape(in16s2, -128, 49, 1);
    check_shape(in8s2, 5, 50, 1);
    check_shape(in32s2, -128, 124, 1); /* seed 124: channels 0-15 and 16-31 of different forms */
    check_shape(in4w, 90, 52, 1);
    check_shape(in_dh, -7, 53, 1);
    check_shape(ds, -128, 21, 1);
    check_shape(tail, 17, 22, 1);
    check_shape(narrow, 127, 23, 1);
    check_shape(big, -3, 24, 1);
}

/* The Cortex-M plane form of a 3x3 depthwise (dw_plane_s8.c): strides 1 and
** 2 along W, 1 and 2 along H, SAME and VALID, odd output widths (a pair's
** second pixel summed, not stored), one output column, two images; seeds
** 3 mod 6 take the short requantization with the clamp [-128, 127] (its
** SSAT loop), 0 mod 6 the short one with another clamp, the rest q8_m.h's
** per-channel path. */
static void test_dw_plane_s8(void **state)
{
    (void)state;
    /* N  H   W  C   KH KW OC  SH SW DH DW PT PL */
    const int32_t ds[] = { 1, 25, 5, 64, 3, 3, 64, 1, 1, 1, 1, 1, 1 };
    const int32_t s2[] = { 1, 9, 9, 8, 3, 3, 8, 2, 2, 1, 1, 1, 1 };
    const int32_t s2valid[] = { 2, 10, 12, 5, 3, 3, 5, 2, 2, 1, 1, 0, 0 };
    const int32_t rows2[] = { 1, 8, 7, 3, 3, 3, 3, 2, 1, 1, 1, 1, 1 };
    const int32_t valid7[] = { 1, 6, 9, 16, 3, 3, 16, 1, 1, 1, 1, 0, 0 };
    const int32_t col1[] = { 1, 4, 1, 4, 3, 3, 4, 1, 1, 1, 1, 1, 1 };
    for (uint64_t seed = 60; seed < 63; seed++) {
        check_shape(ds, -128, seed, 4);
        check_shape(s2, 5, seed, 4);
        check_shape(s2valid, 127, seed, 4);
        check_shape(rows2, -7, seed, 4);
        check_shape(valid7, 0, seed, 4);
        check_shape(col1, 100, seed, 4);
    }
    check_shape(ds, 3, 63, 4);
    check_shape(s2, -128, 63, 4);
    check_shape(valid7, 9, 63, 4);
    check_shape(s2valid, 1, 64, 4);
}

static void test_fully_connected_s8(void **state)
{
    (void)state;
    ktest_rng r = { 7 };
    int8_t x[3 * 20], w[5 * 20], y[3 * 5];
    int32_t bias[5], mult[5], shift[5];
    fill8(&r, x, 60);
    fill8(&r, w, 100);
    for (int o = 0; o < 5; o++)
        bias[o] = ktest_int(&r, -5000, 5000), mult[o] = ktest_int(&r, 1 << 30, INT32_MAX),
        shift[o] = ktest_int(&r, -10, 0);
    sm2c_rt_fully_connected_s8(x, w, bias, y, 3, 20, 5, mult, shift, 3, -9, -128, 127);
    for (int i = 0; i < 3; i++)
        for (int o = 0; o < 5; o++) {
            int32_t acc = bias[o];
            for (int k = 0; k < 20; k++)
                acc += w[o * 20 + k] * (x[i * 20 + k] - 3);
            /* one rounding of acc * real, halves away from zero, real = mult * 2^(shift - 31) */
            double real = ldexp((double)mult[o], shift[o] - 31), v = (double)acc * real;
            int32_t want = (int32_t)(v >= 0 ? floor(v + 0.5) : -floor(-v + 0.5));
            assert_int_equal(clamp8(want - 9, -128, 127), y[i * 5 + o]);
        }
    /* Exact halves round away from zero: 2 * 2^30 * 2^-32 = 0.5 -> 1, and -0.5 -> -1. */
    int8_t one[1] = { 2 }, wone[1] = { 1 }, yy[1];
    int32_t m1[1] = { 1 << 30 }, s1[1] = { -1 };
    sm2c_rt_fully_connected_s8(one, wone, NULL, yy, 1, 1, 1, m1, s1, 0, 0, -128, 127);
    assert_int_equal(1, yy[0]);
    one[0] = -2;
    sm2c_rt_fully_connected_s8(one, wone, NULL, yy, 1, 1, 1, m1, s1, 0, 0, -128, 127);
    assert_int_equal(-1, yy[0]);
}

/* A quantized MatMul as the packed 1x1 Conv2D with FullyConnected's one
** rounding (sm2c_rt_conv2d_packed_s8_nearest, its filter transposed and
** packed, the bias folded) gives sm2c_rt_fully_connected_s8's bytes: rows
** of 1 to 5, K of 4 to 1280, N across the 16-channel blocks, sets and the
** 8-channel pairs; shifts of -23 .. -1 (the one-floor form) and beyond it
** (the general one), a ReLU or not, act_max 127 or 100.  64 guard bytes
** after the output catch a store past it. */
static void test_fully_connected_packed_s8(void **state)
{
    (void)state;
    static const int32_t shapes[][3] = { { 1, 128, 128 }, { 3, 20, 5 }, { 2, 64, 70 }, { 1, 1280, 33 },
                                         { 5, 36, 16 }, { 3, 8, 8 }, { 4, 4, 100 }, { 1, 640, 128 } };
    ktest_rng r = { 91 };
    for (int t = 0; t < (int)(sizeof shapes / sizeof shapes[0]) * 4; t++) {
        const int32_t R = shapes[t / 4][0], K = shapes[t / 4][1], N = shapes[t / 4][2], v = t % 4;
        int8_t *x = malloc((size_t)R * K), *w = malloc((size_t)N * K), *wt = malloc((size_t)K * N);
        int8_t *want = malloc((size_t)R * N), *got = malloc((size_t)R * N + 64);
        int32_t *bias = malloc((size_t)N * sizeof *bias), *mult = malloc((size_t)N * sizeof *mult);
        int32_t *shift = malloc((size_t)N * sizeof *shift);
        assert_true(x && w && wt && want && got && bias && mult && shift);
        fill8(&r, x, R * K);
        fill8(&r, w, N * K);
        for (int32_t o = 0; o < N; o++) {
            bias[o] = ktest_int(&r, -20000, 20000), mult[o] = ktest_int(&r, 1 << 30, INT32_MAX);
            shift[o] = v == 3 ? ktest_int(&r, -28, 2) : ktest_int(&r, -23, -1);
            for (int32_t k = 0; k < K; k++)
                wt[k * N + o] = w[o * K + k];
        }
        const int32_t in_zp = ktest_int(&r, -128, 127), out_zp = ktest_int(&r, -20, 20);
        const int32_t lo = v & 1 ? out_zp : -128, hi = v & 2 ? 127 : 100;
        int8_t *wp = packed_of(wt, 1, K, N);
        int32_t *bp = packed_bias(wt, bias, K, N, in_zp);
        int32_t p[SM2C_RT_WIN_PARAMS] = { 0 };
        p[SM2C_RT_WIN_N] = p[SM2C_RT_WIN_H] = p[SM2C_RT_WIN_OH] = 1;
        p[SM2C_RT_WIN_W] = p[SM2C_RT_WIN_OW] = R, p[SM2C_RT_WIN_C] = p[SM2C_RT_WIN_FC] = K;
        p[SM2C_RT_WIN_KH] = p[SM2C_RT_WIN_KW] = p[SM2C_RT_WIN_SH] = p[SM2C_RT_WIN_SW] = 1;
        p[SM2C_RT_WIN_DH] = p[SM2C_RT_WIN_DW] = 1, p[SM2C_RT_WIN_OC] = N;
        sm2c_rt_fully_connected_s8(x, w, bias, want, R, K, N, mult, shift, in_zp, out_zp, lo, hi);
        memset(got, 0x5A, (size_t)R * N + 64);
        sm2c_rt_conv2d_packed_s8_nearest(x, wp, bp, got, p, mult, shift, in_zp, out_zp, lo, hi);
        for (int32_t i = 0; i < R * N; i++)
            assert_int_equal(want[i], got[i]);
        for (int32_t i = 0; i < 64; i++)
            assert_int_equal(0x5A, got[R * N + i]);
        free(x), free(w), free(wt), free(want), free(got), free(bias), free(mult), free(shift), free(wp), free(bp);
    }
}

/* The float requantization of the fully connected kernel: rows of 16
** outputs (the VNNI blocks) and the rest, scales across 2^-14 .. 2^1. */
static void test_fully_connected_s8_frq(void **state)
{
    (void)state;
    ktest_rng r = { 27 };
    enum { R = 3, K = 45, N = 21 };
    static int8_t x[R * K], w[N * K], y[R * N];
    int32_t bias[N];
    float scale[N];
    fill8(&r, x, R * K);
    fill8(&r, w, N * K);
    for (int o = 0; o < N; o++)
        bias[o] = ktest_int(&r, -5000, 5000),
        scale[o] = (float)ldexp(1.0 + ktest_int(&r, 0, 999) / 1000.0, ktest_int(&r, -14, 1));
    sm2c_rt_fully_connected_s8_frq(x, w, bias, y, R, K, N, scale, -128, 7, -100, 127);
    for (int i = 0; i < R; i++)
        for (int o = 0; o < N; o++) {
            int32_t acc = bias[o];
            for (int k = 0; k < K; k++)
                acc += w[o * K + k] * (x[i * K + k] + 128);
            assert_int_equal(ref_frq(acc, scale[o], 7, -100, 127), y[i * N + o]);
        }
    /* halves to even: 5 * 0.5 -> 2, 7 * 0.5 -> 4, -5 * 0.5 -> -2 */
    int8_t one[1] = { 5 }, wone[1] = { 1 }, yy[1];
    const float half[1] = { 0.5f };
    sm2c_rt_fully_connected_s8_frq(one, wone, NULL, yy, 1, 1, 1, half, 0, 0, -128, 127);
    assert_int_equal(2, yy[0]);
    one[0] = 7;
    sm2c_rt_fully_connected_s8_frq(one, wone, NULL, yy, 1, 1, 1, half, 0, 0, -128, 127);
    assert_int_equal(4, yy[0]);
    one[0] = -5;
    sm2c_rt_fully_connected_s8_frq(one, wone, NULL, yy, 1, 1, 1, half, 0, 0, -128, 127);
    assert_int_equal(-2, yy[0]);
}

/* --quantize dynamic's row quantization (TFLite's x86-64 arithmetic): the
** scale, the zero point from the end with the smaller error, the first
** cols & ~7 values rounded as v + 0.5 in float then truncated, the rest
** half away from zero; a row of one value gives zeros and scale 1. */
static void test_quantize_rows_s8(void **state)
{
    (void)state;
    /* 16 values: 0 and 1 set the range [-0.25, 1], scale 1.25 / 255 */
    float x[16] = { -0.25f, 1.0f, 0.5f, 0.1f, -0.1f, 0.3f, 0.7f, 0.0f,
                    0.2f, -0.2f, 0.9f, 0.45f, 0.6f, -0.05f, 0.33f, 0.0f };
    int8_t q[16];
    float scale;
    int32_t zp;
    sm2c_rt_quantize_rows_s8(x, q, &scale, &zp, 1, 16);
    const double s = (double)(1.0f - -0.25f) / 255.0;
    assert_true(scale == (float)s);
    assert_int_equal(zp, -77);    /* -128 + 0.25 / s = -77 exactly: 127 - 1 / s = -77 too */
    const float inv = (float)(1.0 / (double)(float)s);
    for (int i = 0; i < 16; i++) {
        const float v = x[i] * inv;
        const int32_t r = (int32_t)(v + (v < 0 ? -0.5f : 0.5f));   /* all 16 in the vector part */
        assert_int_equal(q[i], r + zp < -128 ? -128 : r + zp > 127 ? 127 : r + zp);
    }
    /* 0.5 - 2^-25 times the inverse scale 1: the vector part rounds it to 1
    ** (the float sum rounds up), the tail (element 8 of 9) to 0 */
    float t[9] = { 127.0f, -128.0f, 0, 0, 0, 0, 0, 0.49999997f, 0.49999997f };
    int8_t tq[9];
    sm2c_rt_quantize_rows_s8(t, tq, &scale, &zp, 1, 9);
    assert_true(scale == 1.0f);
    assert_int_equal(zp, 0);
    assert_int_equal(tq[7], 1);
    assert_int_equal(tq[8], 0);
    assert_int_equal(tq[0], 127);
    assert_int_equal(tq[1], -128);
    /* rows of their own: a constant row gives zeros; NaN is no UB */
    float two[6] = { 0, 0, 0, 1.0f, NAN, -1.0f };
    int8_t tw[6];
    float sc[2];
    int32_t zs[2];
    sm2c_rt_quantize_rows_s8(two, tw, sc, zs, 2, 3);
    assert_true(sc[0] == 1.0f && zs[0] == 0 && tw[0] == 0 && tw[1] == 0 && tw[2] == 0);
    /* [-1, 1]: both ends' errors equal, so the zero point -0.5 from the max, -1 */
    assert_true(sc[1] == (float)(2.0 / 255.0) && zs[1] == -1);
    assert_int_equal(tw[3], (int32_t)roundf(1.0f * (float)(1.0 / (double)sc[1])) - 1);   /* the tail: roundf */
    assert_int_equal(tw[5], -128);
}

/* The row quantization's every path against its definition written out
** here, on rows of 0 to 70 values (vector blocks, masked ends, the n & ~7
** split and its tail), with values at the rounding's edges: k + 0.5 and one
** float below it times the inverse scale, and NaN. */
static void test_quantize_rows_s8_paths(void **state)
{
    (void)state;
    ktest_rng r = { 53 };
    static float x[70];
    int8_t q[70];
    for (int32_t n = 0; n <= 70; n++) {
        for (int32_t i = 0; i < n; i++)
            x[i] = ktest_f32(&r, -3.0f, 5.0f);
        if (n > 2) {
            x[0] = -3.0f, x[1] = 5.0f;   /* the range: scale 8 / 255 */
            const float inv = (float)(1.0 / (double)(float)(8.0 / 255.0));
            for (int32_t i = 2; i < n; i += 3)   /* halves of the scaled grid, and just below */
                x[i] = ((float)(i % 40 - 20) + 0.5f) / inv, x[i] = i % 2 ? nextafterf(x[i], 0.0f) : x[i];
        }
        float scale;
        int32_t zp;
        sm2c_rt_quantize_rows_s8(x, q, &scale, &zp, 1, n);
        float rmin = 0, rmax = 0;
        for (int32_t i = 0; i < n; i++)
            rmin = x[i] < rmin ? x[i] : rmin, rmax = x[i] > rmax ? x[i] : rmax;
        if (rmin == rmax) {
            assert_true(scale == 1.0f && zp == 0);
            continue;
        }
        const float inv = (float)(1.0 / (double)scale);
        for (int32_t i = 0; i < n; i++) {
            const float v = x[i] * inv;
            const int32_t k = i < (n & ~7) ? (int32_t)(v + (v < 0 ? -0.5f : 0.5f)) : (int32_t)roundf(v);
            const int32_t want = k + zp < -128 ? -128 : k + zp > 127 ? 127 : k + zp;
            if (q[i] != want)
                fail_msg("n %d, element %d (%.9g): got %d, want %d", (int)n, (int)i, (double)x[i], q[i], (int)want);
        }
    }
    x[3] = NAN;   /* no UB, and the others as before */
    sm2c_rt_quantize_rows_s8(x, q, (float[1]){ 0 }, (int32_t[1]){ 0 }, 1, 40);
}

/* The row quantization's parameters written out here (TFLite's formulas,
** one row at a time in double), on blocks of rows as the vector path groups
** them (8) and a part block, with rows that are constant, tiny (the inverse
** scale overflows), wide (the float range overflows), or hold an Inf or a
** NaN; the values of finite rows against the definition too. */
static void test_quantize_rows_s8_blocks(void **state)
{
    (void)state;
    enum { ROWS = 67, COLS = 37 };
    ktest_rng r = { 71 };
    static float x[ROWS * COLS];
    int8_t q[ROWS * COLS];
    float scale[ROWS];
    int32_t zp[ROWS];
    for (int32_t i = 0; i < ROWS * COLS; i++)
        x[i] = ktest_f32(&r, -2.0f, 3.0f) * (float)(i / COLS % 2 ? -1 - i / COLS % 7 : 1 + i / COLS % 7);
    for (int32_t i = 0; i < COLS; i++)
        x[2 * COLS + i] = 0.25f, x[5 * COLS + i] = 1e-40f * (float)(i % 3), x[11 * COLS + i] = i % 2 ? 3e38f : -3e38f;
    x[3 * COLS + 4] = INFINITY, x[9 * COLS + 30] = NAN, x[17 * COLS + 1] = -INFINITY;
    sm2c_rt_quantize_rows_s8(x, q, scale, zp, ROWS, COLS);
    for (int32_t row = 0; row < ROWS; row++) {
        const float *xr = x + row * COLS;
        float rmin = 0, rmax = 0;
        for (int32_t i = 0; i < COLS; i++)
            rmin = xr[i] < rmin ? xr[i] : rmin, rmax = xr[i] > rmax ? xr[i] : rmax;
        if (rmin == rmax) {
            assert_true(scale[row] == 1.0f && zp[row] == 0);
            continue;
        }
        const double s = (double)(rmax - rmin) / 255.0, a = rmin / s, b = rmax / s;
        const double z = 128.0 + fabs(a) < 127.0 + fabs(b) ? -128.0 - a : 127.0 - b;
        const int32_t want_zp = z != z ? 0 : z <= -128.0 ? -128 : z >= 127.0 ? 127 : (int32_t)round(z);
        if (!(scale[row] == (float)s) || zp[row] != want_zp)
            fail_msg("row %d: scale %.9g zp %d, want %.9g %d", (int)row, (double)scale[row], (int)zp[row],
                     (double)(float)s, (int)want_zp);
        const float inv = (float)(1.0 / (double)scale[row]);
        if (row == 3 || row == 9 || row == 17 || isinf(inv))
            continue;   /* their values: test_quantize_rows_s8_paths's NaN and no UB */
        for (int32_t i = 0; i < COLS; i++) {
            const float v = xr[i] * inv;
            const int32_t k = i < (COLS & ~7) ? (int32_t)(v + (v < 0 ? -0.5f : 0.5f)) : (int32_t)roundf(v);
            const int32_t want = k + zp[row] < -128 ? -128 : k + zp[row] > 127 ? 127 : k + zp[row];
            if (q[row * COLS + i] != want)
                fail_msg("row %d, element %d: got %d, want %d", (int)row, (int)i, q[row * COLS + i], (int)want);
        }
    }
}

/* The hybrid FullyConnected against its definition: the int32 sum less the
** zero point times the filter row's sum, bias + (float)acc * (scale * w_scale),
** Relu; rows longer than a vector with a tail, N one block of 16 (VNNI's),
** one of 4 and 3 more. */
static void test_fully_connected_hybrid(void **state)
{
    (void)state;
    ktest_rng r = { 41 };
    enum { R = 3, K = 203, N = 23 };
    static int8_t x[R * K], w[N * K];
    float y[R * N], bias[N], wscale[N], scale[R];
    int32_t zp[R], wsum[N];
    fill8(&r, x, R * K);
    fill8(&r, w, N * K);
    for (int o = 0; o < N; o++) {
        bias[o] = (float)ktest_int(&r, -100, 100) / 64.0f;
        wscale[o] = (float)ldexp(1.0 + ktest_int(&r, 0, 999) / 1000.0, -ktest_int(&r, 6, 9));
        wsum[o] = 0;
        for (int k = 0; k < K; k++)
            wsum[o] += w[o * K + k];
    }
    for (int i = 0; i < R; i++)
        scale[i] = 0.01f * (float)(i + 1), zp[i] = i == 0 ? -128 : i == 1 ? 127 : 3;
    sm2c_rt_fully_connected_hybrid(x, scale, zp, w, wsum, wscale, bias, y, R, K, N, SM2C_RT_ACT_RELU, 0, 0);
    for (int i = 0; i < R; i++)
        for (int o = 0; o < N; o++) {
            int32_t acc = 0;
            for (int k = 0; k < K; k++)
                acc += w[o * K + k] * (x[i * K + k] - zp[i]);
            float v = bias[o] + (float)acc * (scale[i] * wscale[o]);
            v = v <= 0 ? 0 : v;
            assert_true(v == y[i * N + o]);
        }
}

/* The packed hybrid FullyConnected (fc_hybrid_s8.c) gives the row-major
** form's bits: 4-row tiles and an edge of 3 rows, 4-block tiles and edges of
** fewer blocks, a last block of 5 outputs, no bias; every activation (the
** packed form applies them in its epilogue, one store function per kind,
** Sigmoid after). */
static void test_fully_connected_hybrid_packed(void **state)
{
    (void)state;
    ktest_rng r = { 47 };
    enum { R = 7, K = 36, N = 101 };
    static int8_t x[R * K], w[N * K], wp[112 * K];
    static float y[R * N], want[R * N], wscale[N], bias[N];
    float scale[R];
    int32_t zp[R], wsum[N];
    fill8(&r, x, R * K);
    fill8(&r, w, N * K);
    memset(wp, 0, sizeof wp);
    for (int o = 0; o < N; o++) {
        wscale[o] = (float)ldexp(1.0 + ktest_int(&r, 0, 999) / 1000.0, -8), bias[o] = (float)o / 16.0f - 3.0f;
        wsum[o] = 0;
        for (int k = 0; k < K; k++) {
            wsum[o] += w[o * K + k];
            wp[(o / 16) * K * 16 + (k / 4) * 64 + (o % 16) * 4 + k % 4] = w[o * K + k];
        }
    }
    for (int i = 0; i < R; i++)
        scale[i] = 0.003f * (float)(i + 1), zp[i] = ktest_int(&r, -128, 127);
    static const struct { int32_t kind; float a, b; } acts[] = {
        { SM2C_RT_ACT_NONE, 0, 0 },        { SM2C_RT_ACT_RELU, 0, 0 },      { SM2C_RT_ACT_RELU6, 0, 0 },
        { SM2C_RT_ACT_LEAKY_RELU, 0.1f, 0 }, { SM2C_RT_ACT_CLIP, -0.5f, 0.5f }, { SM2C_RT_ACT_SIGMOID, 0, 0 },
        { SM2C_RT_ACT_HARD_SWISH, 0, 0 },
    };
    for (size_t a = 0; a < sizeof acts / sizeof acts[0]; a++)
        for (int with_bias = 0; with_bias < 2; with_bias++) {
            const float *b = with_bias ? bias : NULL;
            sm2c_rt_fully_connected_hybrid(x, scale, zp, w, wsum, wscale, b, want, R, K, N, acts[a].kind, acts[a].a,
                                           acts[a].b);
            sm2c_rt_fully_connected_hybrid_packed(x, scale, zp, wp, wsum, wscale, b, y, R, K, N, acts[a].kind,
                                                  acts[a].a, acts[a].b);
            if (memcmp(want, y, sizeof y) != 0)
                fail_msg("activation %d, bias %d: the packed form's bits differ", (int)acts[a].kind, with_bias);
        }
}

/* The packed 1x1 Conv2D (fc_hybrid_s8.c) gives the generic hybrid Conv2D's
** bits: two images of 5 pixels (a tile across the images), 20 channels. */
static void test_conv_1x1_hybrid_packed(void **state)
{
    (void)state;
    ktest_rng r = { 59 };
    enum { B = 2, P = 5, C = 12, OC = 20 };
    static int8_t x[B * P * C], w[C * OC], wp[32 * C];
    static float y[B * P * OC], want[B * P * OC];
    float wscale[OC], bias[OC], scale[B] = { 0.05f, 0.011f };
    int32_t zp[B] = { 17, -128 }, wsum[OC];
    fill8(&r, x, B * P * C);
    fill8(&r, w, C * OC);
    memset(wp, 0, sizeof wp);
    for (int o = 0; o < OC; o++) {
        wscale[o] = (float)ldexp(1.0 + ktest_int(&r, 0, 999) / 1000.0, -7), bias[o] = (float)o / 4.0f - 2.0f;
        wsum[o] = 0;
        for (int k = 0; k < C; k++) {
            wsum[o] += w[k * OC + o];
            wp[(o / 16) * C * 16 + (k / 4) * 64 + (o % 16) * 4 + k % 4] = w[k * OC + o];
        }
    }
    int32_t p[SM2C_RT_WIN_PARAMS] = { 0 };
    p[SM2C_RT_WIN_N] = B, p[SM2C_RT_WIN_H] = 1, p[SM2C_RT_WIN_W] = P, p[SM2C_RT_WIN_C] = C;
    p[SM2C_RT_WIN_KH] = p[SM2C_RT_WIN_KW] = 1, p[SM2C_RT_WIN_OC] = OC, p[SM2C_RT_WIN_FC] = C;
    p[SM2C_RT_WIN_SH] = p[SM2C_RT_WIN_SW] = p[SM2C_RT_WIN_DH] = p[SM2C_RT_WIN_DW] = 1;
    p[SM2C_RT_WIN_OH] = 1, p[SM2C_RT_WIN_OW] = P;
    for (int with_bias = 0; with_bias < 2; with_bias++) {
        const float *b = with_bias ? bias : NULL;
        sm2c_rt_conv2d_hybrid(x, scale, zp, w, wscale, b, want, p, SM2C_RT_ACT_RELU, 0, 0);
        sm2c_rt_conv2d_1x1_hybrid_packed(x, scale, zp, wp, wsum, wscale, b, y, B, P, C, OC, SM2C_RT_ACT_RELU, 0, 0);
        assert_true(memcmp(want, y, sizeof y) == 0);
    }
}

/* The hybrid convolutions against their definitions (sums over the taps
** inside, less the image's zero point; the two kernels' multiply orders). */
static void test_conv_hybrid(void **state)
{
    (void)state;
    ktest_rng r = { 43 };
    enum { B = 2, H = 5, W = 4, C = 6, OC = 12, KH = 3, KW = 3 };
    static int8_t x[B * H * W * C], w[KH * KW * C * OC];
    static float y[B * H * W * OC];
    float wscale[OC], bias[OC], scale[B] = { 0.02f, 0.37f };
    int32_t zp[B] = { -5, 100 };
    fill8(&r, x, B * H * W * C);
    fill8(&r, w, KH * KW * C * OC);
    for (int o = 0; o < OC; o++)
        wscale[o] = (float)ldexp(1.0 + ktest_int(&r, 0, 999) / 1000.0, -7), bias[o] = (float)o / 8.0f - 0.7f;
    for (int dw = 0; dw < 2; dw++) {
        /* SAME, stride 1: pad 1 each side; depthwise: C * M = OC with M = 2 */
        int32_t p[SM2C_RT_WIN_PARAMS] = { 0 };
        p[SM2C_RT_WIN_N] = B, p[SM2C_RT_WIN_H] = H, p[SM2C_RT_WIN_W] = W, p[SM2C_RT_WIN_C] = C;
        p[SM2C_RT_WIN_KH] = KH, p[SM2C_RT_WIN_KW] = KW, p[SM2C_RT_WIN_OC] = OC;
        p[SM2C_RT_WIN_FC] = dw ? OC / C : C;
        p[SM2C_RT_WIN_SH] = p[SM2C_RT_WIN_SW] = p[SM2C_RT_WIN_DH] = p[SM2C_RT_WIN_DW] = 1;
        p[SM2C_RT_WIN_PT] = p[SM2C_RT_WIN_PL] = 1;
        p[SM2C_RT_WIN_OH] = H, p[SM2C_RT_WIN_OW] = W;
        (dw ? sm2c_rt_depthwise_conv2d_hybrid : sm2c_rt_conv2d_hybrid)(x, scale, zp, w, wscale, dw ? NULL : bias, y,
                                                                       p, SM2C_RT_ACT_RELU6, 0, 0);
        for (int n = 0; n < B; n++)
            for (int oh = 0; oh < H; oh++)
                for (int ow = 0; ow < W; ow++)
                    for (int o = 0; o < OC; o++) {
                        int32_t acc = 0;
                        for (int kh = 0; kh < KH; kh++)
                            for (int kw = 0; kw < KW; kw++) {
                                const int ih = oh + kh - 1, iw = ow + kw - 1;
                                if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                                    continue;
                                const int8_t *xp = x + ((n * H + ih) * W + iw) * C;
                                if (dw)
                                    acc += w[(kh * KW + kw) * OC + o] * (xp[o / (OC / C)] - zp[n]);
                                else
                                    for (int c = 0; c < C; c++)
                                        acc += w[((kh * KW + kw) * C + c) * OC + o] * (xp[c] - zp[n]);
                            }
                        float v = dw ? (float)acc * (wscale[o] * scale[n]) : (float)acc * wscale[o] * scale[n] + bias[o];
                        v = v <= 0 ? 0 : v > 6 ? 6 : v;
                        assert_true(v == y[((n * H + oh) * W + ow) * OC + o]);
                    }
    }
}

/* Longer rows than a vector, with a tail, and output counts not a multiple
** of four, at both extremes of the input zero point. */
static void test_fully_connected_s8_long(void **state)
{
    (void)state;
    ktest_rng r = { 17 };
    enum { R = 2, K = 203, N = 7 };
    static int8_t x[R * K], w[N * K], y[R * N];
    int32_t bias[N], mult[N], shift[N];
    const int32_t zps[3] = { -128, 127, 5 };
    fill8(&r, x, R * K);
    fill8(&r, w, N * K);
    for (int o = 0; o < N; o++)
        bias[o] = ktest_int(&r, -5000, 5000), mult[o] = ktest_int(&r, 1 << 30, INT32_MAX),
        shift[o] = ktest_int(&r, -14, -6);
    for (int z = 0; z < 3; z++) {
        sm2c_rt_fully_connected_s8(x, w, bias, y, R, K, N, mult, shift, zps[z], 4, -128, 127);
        for (int i = 0; i < R; i++)
            for (int o = 0; o < N; o++) {
                int32_t acc = bias[o];
                for (int k = 0; k < K; k++)
                    acc += w[o * K + k] * (x[i * K + k] - zps[z]);
                double real = ldexp((double)mult[o], shift[o] - 31), v = (double)acc * real;
                int32_t want = (int32_t)(v >= 0 ? floor(v + 0.5) : -floor(-v + 0.5));
                assert_int_equal(clamp8(want + 4, -128, 127), y[i * N + o]);
            }
    }
}

/* The filter [N, K] in the Cortex-M form's layout (fc_m_s8.c), written here
** from its description: groups of four rows, each four columns' 16 bytes,
** then the group's tails; the last N % 4 rows as they are. */
static void pack_fc_m(const int8_t *w, int32_t n, int32_t k, int8_t *out)
{
    for (int32_t g = 0; g + 4 <= n; g += 4) {
        for (int32_t c = 0; c + 4 <= k; c += 4)
            for (int32_t j = 0; j < 4; j++)
                for (int32_t b = 0; b < 4; b++)
                    *out++ = w[(g + j) * k + c + b];
        for (int32_t j = 0; j < 4; j++)
            for (int32_t c = k & ~3; c < k; c++)
                *out++ = w[(g + j) * k + c];
    }
    for (int32_t o = n & ~3; o < n; o++)
        for (int32_t c = 0; c < k; c++)
            *out++ = w[o * k + c];
}

/* The Cortex-M form gives fully_connected_s8's bits: K with every remainder
** mod 8 (its 8- and 4-column steps and tails), N with every remainder mod 4,
** input zero points 0 (what the compiler passes it; with K a multiple of 4
** and every shift below 0 the assembly requantizes too) and others. */
static void test_fully_connected_m_s8(void **state)
{
    (void)state;
    ktest_rng r = { 29 };
    enum { R = 2, N = 11 };
    const int32_t ks[7] = { 1, 3, 4, 8, 12, 13, 130 }, ns[4] = { 1, 4, 7, N }, zps[3] = { 0, -128, 9 };
    static int8_t x[R * 130], w[N * 130], wm[N * 130], want[R * N], got[R * N];
    int32_t bias[N], mult[N], shift[N];
    for (int t = 0; t < 7; t++)
        for (int u = 0; u < 4; u++)
            for (int z = 0; z < 3; z++) {
                const int32_t K = ks[t], n = ns[u];
                fill8(&r, x, R * K);
                fill8(&r, w, n * K);
                for (int o = 0; o < n; o++)
                    bias[o] = ktest_int(&r, -50000, 50000), mult[o] = ktest_int(&r, 1 << 30, INT32_MAX),
                    shift[o] = ktest_int(&r, -20, 0);
                pack_fc_m(w, n, K, wm);
                sm2c_rt_fully_connected_s8(x, w, bias, want, R, K, n, mult, shift, zps[z], 3, -128, 127);
                sm2c_rt_fully_connected_m_s8(x, wm, bias, got, R, K, n, mult, shift, zps[z], 3, -128, 127);
                for (int i = 0; i < R * n; i++)
                    assert_int_equal(want[i], got[i]);
            }
}

/* round(x * m / 2^(31 - s)) with halves away from zero, for s in [-31, -1]:
** TFLite's single rounding (fc_s8.c) in int64, |x * m| <= 2^62. */
static int32_t nearest_ref(int32_t x, int32_t m, int32_t s)
{
    const int total = 31 - s;
    const int64_t p = (int64_t)x * m, a = p < 0 ? -p : p;
    const int64_t q = (a + ((int64_t)1 << (total - 1))) >> total;
    return (int32_t)(p < 0 ? -q : q);
}

/* The Cortex-M form's rounding for shifts in [-31, -1] (fc_m_s8.c's
** fcm_nearest), at the halves and one either side: x zero, so each sum is its
** bias, (2j + 1) 2^(-shift), +-1, times a multiplier of 2^30, which lands on
** j + 1/2; and the largest multiplier. */
static void test_fully_connected_m_s8_rounding(void **state)
{
    (void)state;
    static const int8_t x[4] = { 0 }, w[4 * 4] = { 0 };
    const int32_t mults[2] = { 1 << 30, INT32_MAX };
    for (int32_t s = -31; s <= -1; s++)
        for (int32_t j = -3; j <= 2; j++)
            for (int m = 0; m < 2; m++) {
                int32_t bias[4], mult[4], shift[4];
                int8_t got[4];
                const int64_t half = (2 * (int64_t)j + 1) * ((int64_t)1 << -s);
                const int64_t b[4] = { half, half - 1, half + 1, -half };
                for (int o = 0; o < 4; o++) {
                    bias[o] = (int32_t)(b[o] > INT32_MAX ? INT32_MAX : b[o] < INT32_MIN ? INT32_MIN : b[o]);
                    mult[o] = mults[m], shift[o] = s;
                }
                sm2c_rt_fully_connected_m_s8(x, w, bias, got, 1, 4, 4, mult, shift, 0, 3, -128, 127);
                for (int o = 0; o < 4; o++) {
                    const int32_t v = nearest_ref(bias[o], mult[o], s) + 3;
                    assert_int_equal(got[o], v < -128 ? -128 : v > 127 ? 127 : v);
                }
            }
}

/* The VNNI path's blocks of 16 outputs (two of them, then four and one on
** the narrower path), rows longer than a vector with a tail, with and
** without bias, at the input zero point the compiler passes (-128, where
** VNNI subtracts nothing) and at others, shifts over the whole range. */
static void test_fully_connected_s8_blocks(void **state)
{
    (void)state;
    ktest_rng r = { 23 };
    enum { R = 3, N = 37 };
    const int32_t ks[4] = { 1, 64, 150, 640 };
    const int32_t zps[4] = { -128, 127, 5, -1 };
    static int8_t x[R * 640], w[N * 640], y[R * N];
    int32_t bias[N], mult[N], shift[N];
    for (int t = 0; t < 4; t++) {
        const int32_t K = ks[t];
        fill8(&r, x, R * K);
        fill8(&r, w, N * K);
        for (int o = 0; o < N; o++)
            bias[o] = ktest_int(&r, -50000, 50000), mult[o] = ktest_int(&r, 1 << 30, INT32_MAX),
            shift[o] = ktest_int(&r, -31, 2);
        for (int z = 0; z < 4; z++) {
            const int32_t *b = (t + z) % 2 ? bias : NULL, lo = z == 3 ? -100 : -128, hi = z == 3 ? 90 : 127;
            sm2c_rt_fully_connected_s8(x, w, b, y, R, K, N, mult, shift, zps[z], -7, lo, hi);
            for (int i = 0; i < R; i++)
                for (int o = 0; o < N; o++) {
                    int64_t acc = b ? b[o] : 0;
                    for (int k = 0; k < K; k++)
                        acc += w[o * K + k] * (x[i * K + k] - zps[z]);
                    /* one rounding, halves away from zero, in exact integers */
                    const int32_t total = 31 - shift[o];
                    const int64_t p = acc * mult[o];
                    const int64_t mag = ((p < 0 ? -p : p) + (INT64_C(1) << (total - 1))) >> total;
                    int64_t want = p < 0 ? -mag : mag;
                    assert_int_equal(clamp8((int32_t)want - 7, lo, hi), y[i * N + o]);
                }
        }
    }
}

/* Both roundings on halves: the doubling high multiply rounds 1.5 to 2 and
** -1.5 and -0.5 up to -1 and 0; the shift rounds 0.5 and -0.5 away from zero. */
static void test_requant_halves(void **state)
{
    (void)state;
    /* Through Mean over one value (r = 1), which requantizes as the convolutions do. */
    int8_t x[4] = { 3, -3, 1, -1 }, y[4];
    /* x * 0.5 -> 2, -1, 1, 0; then / 2 -> 1, -1 (-0.5 away from zero), 1 (0.5), 0 */
    sm2c_rt_mean_s8(x, y, 4, 1, 1, 0, 0, 1 << 30, -1);
    assert_true(y[0] == 1 && y[1] == -1 && y[2] == 1 && y[3] == 0);
    /* x * 0.5: 1.5 -> 2 and -1.5 -> -1 (halves toward +inf) */
    sm2c_rt_mean_s8(x, y, 4, 1, 1, 0, 0, 1 << 30, 0);
    assert_true(y[0] == 2 && y[1] == -1 && y[2] == 1 && y[3] == 0);
    /* x * ~8, saturated by the clamp */
    sm2c_rt_mean_s8(x, y, 4, 1, 1, 0, 0, INT32_MAX, 3);
    assert_true(y[0] == 24 && y[1] == -24 && y[2] == 8 && y[3] == -8);
}

static void test_pool_s8(void **state)
{
    (void)state;
    /* 1x2x2x1 input, 2x2 window VALID, and 3x3 SAME over it (count 4). */
    int8_t x[4] = { 1, 2, -4, -2 }, y[1];
    int32_t p[SM2C_RT_WIN_PARAMS] = { [SM2C_RT_WIN_N] = 1, [SM2C_RT_WIN_H] = 2, [SM2C_RT_WIN_W] = 2,
                                      [SM2C_RT_WIN_C] = 1, [SM2C_RT_WIN_KH] = 2, [SM2C_RT_WIN_KW] = 2,
                                      [SM2C_RT_WIN_OH] = 1, [SM2C_RT_WIN_OW] = 1, [SM2C_RT_WIN_OC] = 1,
                                      [SM2C_RT_WIN_SH] = 1, [SM2C_RT_WIN_SW] = 1, [SM2C_RT_WIN_DH] = 1,
                                      [SM2C_RT_WIN_DW] = 1, [SM2C_RT_WIN_FC] = 1 };
    sm2c_rt_max_pool_s8(x, y, p);
    assert_int_equal(2, y[0]);
    sm2c_rt_avg_pool_s8(x, y, p);        /* -3 / 4 = -0.75 -> -1 */
    assert_int_equal(-1, y[0]);
    int8_t z[4] = { 1, 2, 2, 1 };        /* 6 / 4 = 1.5 -> 2 (half away from zero) */
    sm2c_rt_avg_pool_s8(z, y, p);
    assert_int_equal(2, y[0]);
    int8_t m[4] = { -128, -128, -128, -128 };
    sm2c_rt_max_pool_s8(m, y, p);
    assert_int_equal(-128, y[0]);
}

/* The float Add (--requantize float): every pair of int8 values, scales of
** 15 significant bits (the compiler's), a narrower clamp and a tail past the
** vectors; against the sum in double rounded to float once (exact products),
** then rintf. */
static void test_add_s8_frq(void **state)
{
    (void)state;
    enum { N = 256 * 256 + 5 };
    static int8_t a[N], b[N], y[N];
    for (int i = 0; i < N; i++)
        a[i] = (int8_t)(i % 256 - 128), b[i] = (int8_t)(i / 256 % 256 - 128);
    const float ks[][2] = { { 0.3330078125f, 0.8330078125f }, { 1.5f, 0.0009765625f }, { 3.140625f, 2.71875f } };
    const int32_t qs[][12] = { { 3, -10, 4, 20, 0, 0, 0, 0, 0, 0, -128, 127 },
                               { -128, 127, -20, 20, 0, 0, 0, 0, 0, 0, -100, 90 },
                               { 0, 0, 127, 20, 0, 0, 0, 0, 0, 0, -128, 127 } };
    for (int t = 0; t < 3; t++) {
        const int32_t *q = qs[t];
        sm2c_rt_add_s8_frq(a, b, y, N, q, ks[t][0], ks[t][1]);
        for (int i = 0; i < N; i++) {
            float f = (float)((double)(a[i] + q[0]) * ks[t][0] + (double)(b[i] + q[1]) * ks[t][1]);
            f = fminf(fmaxf(f, (float)(q[10] - q[2])), (float)(q[11] - q[2]));
            assert_int_equal((int8_t)((int32_t)rintf(f) + q[2]), y[i]);
        }
    }
}

static void test_add_and_clamp_s8(void **state)
{
    (void)state;
    ktest_rng r = { 99 };
    int8_t a[64], b[64], y[64];
    fill8(&r, a, 64);
    fill8(&r, b, 64);
    /* scales 0.02 and 0.05, output 0.06: TFLite's parameters for them; then
    ** other parameters (a left shift, a narrower clamp) over 61 values: the
    ** 16- and 8-lane paths and their scalar tails */
    int32_t q[12] = { 3, -10, 4, 20, 1717986918, -2, 1073741824, 0, 1789569707, -19, -128, 127 };
    const int32_t q2[12] = { -5, 7, -2, 20, 1500000000, 1, 1200000000, -3, 1100000000, -18, -100, 90 };
    sm2c_rt_add_s8(a, b, y, 64, q);
    for (int i = 0; i < 64; i++) {
        int32_t sa = ref_requant((a[i] + q[0]) * (1 << 20), q[4], q[5]);
        int32_t sb = ref_requant((b[i] + q[1]) * (1 << 20), q[6], q[7]);
        int8_t want = clamp8(ref_requant(sa + sb, q[8], q[9]) + q[2], -128, 127);
        assert_int_equal(want, y[i]);
        /* and it is the real sum to within a quantum */
        double real = 0.02 * (a[i] + q[0]) + 0.05 * (b[i] + q[1]);
        double got = 0.06 * (y[i] - q[2]);
        if (want > -128 && want < 127)
            assert_true(fabs(real - got) <= 0.06);
    }
    y[61] = y[62] = y[63] = 55;
    sm2c_rt_add_s8(a, b, y, 61, q2);
    for (int i = 0; i < 61; i++) {
        int32_t sa = ref_requant((a[i] + q2[0]) * (1 << 20), q2[4], q2[5]);
        int32_t sb = ref_requant((b[i] + q2[1]) * (1 << 20), q2[6], q2[7]);
        assert_int_equal(clamp8(ref_requant(sa + sb, q2[8], q2[9]) + q2[2], -100, 90), y[i]);
    }
    assert_true(y[61] == 55 && y[62] == 55 && y[63] == 55);
    /* every pair of int8 values, on parameters at the edges of the vector
    ** paths' short form of the inputs' rescaling (eltwise_s8.c: zero points
    ** -127 and 128, multipliers 0, 1 and INT32_MAX, input shifts 0 and -31,
    ** left shifts 9 and 22) and just outside it (left shift 23, a positive
    ** input shift) */
    static const int32_t edges[][12] = {
        { 128, -127, 0, 20, INT32_MAX, 0, 1, -31, 1073741824, -19, -128, 127 },
        { -127, 128, 3, 20, 0, -1, INT32_MAX, 0, 2147000000, -5, -128, 127 },
        { 128, 128, -7, 9, INT32_MAX, -3, 1500000000, -12, 1717986918, 0, -128, 127 },
        { -127, -127, 1, 22, 1200000000, -1, INT32_MAX, -2, 1300000000, -25, -120, 100 },
        { 5, -9, 0, 23, 1200000000, -1, 1100000000, -2, 1300000000, -26, -128, 127 },
        { 5, -9, 0, 20, 1200000000, 1, 1100000000, -2, 1300000000, -20, -128, 127 },
    };
    static int8_t ea[65536], eb[65536], ey[65536];
    for (int i = 0; i < 65536; i++)
        ea[i] = (int8_t)(i & 255), eb[i] = (int8_t)(i >> 8);
    /* and 300 random sets of TFLite-like parameters: a short form off by one
    ** in its rounding shows on about one pair in 100,000 */
    enum { N_EDGES = sizeof edges / sizeof edges[0], N_SETS = N_EDGES + 300 };
    ktest_rng pr = { 7 };
    for (int e = 0; e < N_SETS; e++) {
        int32_t qr[12];
        if (e >= N_EDGES) {
            qr[0] = (int32_t)ktest_int(&pr, -127, 128), qr[1] = (int32_t)ktest_int(&pr, -127, 128);
            qr[2] = (int32_t)ktest_int(&pr, -128, 127), qr[3] = 20;
            qr[4] = (int32_t)ktest_int(&pr, 1 << 30, INT32_MAX), qr[5] = (int32_t)ktest_int(&pr, -8, 0);
            qr[6] = (int32_t)ktest_int(&pr, 1 << 30, INT32_MAX), qr[7] = (int32_t)ktest_int(&pr, -8, 0);
            qr[8] = (int32_t)ktest_int(&pr, 1 << 30, INT32_MAX), qr[9] = (int32_t)ktest_int(&pr, -24, 0);
            qr[10] = -128, qr[11] = 127;
        }
        const int32_t *qe = e < N_EDGES ? edges[e] : qr;
        sm2c_rt_add_s8(ea, eb, ey, 65536, qe);
        for (int i = 0; i < 65536; i++) {
            int32_t sa = ref_requant((ea[i] + qe[0]) * (1 << qe[3]), qe[4], qe[5]);
            int32_t sb = ref_requant((eb[i] + qe[1]) * (1 << qe[3]), qe[6], qe[7]);
            assert_int_equal(clamp8(ref_requant(sa + sb, qe[8], qe[9]) + qe[2], qe[10], qe[11]), ey[i]);
        }
        /* the Cortex-M form over its tables (eltwise_s8.c's sm2c_rt_add_lut_s8):
        ** the edges and every tenth set, against the same kernel's bits */
        if (e >= N_EDGES && e % 10)
            continue;
        static int32_t ta[256], tb[256];
        static int8_t ly[65536];
        sm2c_rt_add_table_s8(qe, 0, ta);
        sm2c_rt_add_table_s8(qe, 1, tb);
        sm2c_rt_add_lut_s8(ea, eb, ly, 65536, ta, tb, qe);
        for (int i = 0; i < 65536; i++)
            assert_int_equal(ey[i], ly[i]);
    }
    /* Mul: scales 0.02 and 0.05, output 0.01: real multiplier 0.1 */
    int32_t m[7] = { 3, -10, -5, 1717986918, -3, -120, 120 };
    sm2c_rt_mul_s8(a, b, y, 64, m);
    for (int i = 0; i < 64; i++) {
        int32_t want = ref_requant((a[i] + m[0]) * (b[i] + m[1]), m[3], m[4]) + m[2];
        assert_int_equal(clamp8(want, -120, 120), y[i]);
    }
    sm2c_rt_clamp_s8(a, y, 64, -20, 30);
    for (int i = 0; i < 64; i++)
        assert_int_equal(clamp8(a[i], -20, 30), y[i]);
}

static void test_quantize_s8(void **state)
{
    (void)state;
    const float x[9] = { 0.5f, 0.125f, -0.125f, 1e30f, -INFINITY, NAN, 31.0f, -33.0f, 0.0f };
    int8_t q[9];
    sm2c_rt_quantize_f32_s8(x, q, 9, 0.25f, -3);
    const int8_t want[9] = { -1, -2, -4, 127, -128, -3, 121, -128, -3 };
    for (int i = 0; i < 9; i++)
        assert_int_equal(want[i], q[i]);
    float back[9];
    sm2c_rt_dequantize_s8_f32(q, back, 9, 0.25f, -3);
    assert_true(back[0] == 0.5f && back[3] == 32.5f && back[4] == -31.25f && back[8] == 0.0f);
}

/* Quantize on every path against roundf in C: lengths around the vector
** widths, halves of both signs, values past int8 and int32, NaN, infinities. */
static void test_quantize_s8_lanes(void **state)
{
    (void)state;
    ktest_rng r = { 41 };
    enum { NX = 75 };
    static float x[NX];
    static const float special[] = { 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 0.49999997f, -0.49999997f,
                                     8388607.5f, -8388607.5f, 1e30f, -1e30f, INFINITY, -INFINITY, NAN,
                                     -0.0f, 127.5f, -128.5f, 3e9f, -3e9f };
    const float scales[3] = { 1.0f, 0.1f, 3.0f };
    const int32_t zps[3] = { 0, -128, 17 };
    for (int i = 0; i < NX; i++)
        x[i] = i < (int)(sizeof special / sizeof special[0]) ? special[i]
                                                              : (float)ktest_int(&r, -4000, 4000) / 16.0f;
    for (int s = 0; s < 3; s++)
        for (int32_t n = 0; n <= NX; n += (n < 40 ? 1 : 7)) {
            int8_t q[NX + 1];
            q[n] = 99;
            sm2c_rt_quantize_f32_s8(x, q, n, scales[s], zps[s]);
            assert_int_equal(99, q[n]); /* nothing written past n */
            for (int32_t i = 0; i < n; i++) {
                const float rr = roundf(x[i] / scales[s]);
                int64_t v = rr != rr ? 0 : rr > 1e6f ? 1000000 : rr < -1e6f ? -1000000 : (int64_t)rr;
                v += zps[s];
                assert_int_equal(v < -128 ? -128 : v > 127 ? 127 : v, q[i]);
            }
            float back[NX + 1];
            back[n] = 99.0f;
            sm2c_rt_dequantize_s8_f32(q, back, n, scales[s], zps[s]);
            assert_true(back[n] == 99.0f);
            for (int32_t i = 0; i < n; i++)
                assert_true(back[i] == scales[s] * (float)((int32_t)q[i] - zps[s]));
        }
}

/* A float input quantized straight into a convolution's padded copy gives
** the quantize and then the int8 copy's bytes, on every path: RGB into 4
** channels on rows of whole 16-pixel blocks and not, a batch of two, channels
** already whole, 5 into 8 over several stack chunks, a pixel wider than a
** chunk, unread rows and columns; values on the grid of x / 127.5 - 1 at
** scale 1 / 127.5 (halves, TFLite's preprocessing), specials, random.  64
** guard bytes after each copy catch a store past its end. */
static void test_quantize_pad_s8(void **state)
{
    (void)state;
    static const int32_t dims[][9] = { /* N, H, W, C, HP, WP, PT, PL, CP */
        { 1, 5, 37, 3, 7, 39, 1, 1, 4 }, { 2, 4, 16, 3, 6, 18, 1, 1, 4 }, { 1, 3, 5, 4, 5, 7, 1, 1, 4 },
        { 1, 3, 300, 5, 5, 302, 1, 1, 8 }, { 1, 2, 3, 1001, 4, 5, 1, 1, 1004 }, { 1, 6, 9, 3, 4, 8, 0, 0, 4 },
        { 1, 4, 48, 3, 6, 50, 2, 0, 4 } };
    static const float special[] = { 0.5f, -0.5f, 0.49999997f, NAN, INFINITY, -INFINITY, 1e30f, -0.0f, 127.5f };
    ktest_rng r = { 77 };
    for (size_t t = 0; t < sizeof dims / sizeof dims[0]; t++) {
        const int32_t *d = dims[t];
        const int32_t nx = d[0] * d[1] * d[2] * d[3], ny = d[0] * d[4] * d[5] * d[8];
        float *x = malloc((size_t)nx * sizeof *x);
        int8_t *q = malloc((size_t)nx), *want = malloc((size_t)ny), *got = malloc((size_t)ny + 64);
        assert_true(x && q && want && got);
        for (int32_t i = 0; i < nx; i++) {
            const int32_t k = ktest_int(&r, 0, 9);
            x[i] = k < 3 ? special[ktest_int(&r, 0, 8)]
                   : k < 7 ? (float)ktest_int(&r, 0, 255) / 127.5f - 1.0f : ktest_f32(&r, -2.0f, 2.0f);
        }
        const float scale = t % 2 ? 1.0f / 127.5f : 0.0123f;
        const int32_t zp = t % 3 == 0 ? 0 : t % 3 == 1 ? -128 : 9;
        sm2c_rt_quantize_f32_s8(x, q, nx, scale, zp);
        sm2c_rt_pad_copy_s8(q, want, d, zp);
        memset(got, 0x5A, (size_t)ny + 64);
        sm2c_rt_quantize_pad_f32_s8(x, got, d, scale, zp);
        for (int32_t i = 0; i < ny; i++)
            assert_int_equal(want[i], got[i]);
        for (int32_t i = 0; i < 64; i++)
            assert_int_equal(0x5A, got[ny + i]);
        free(x), free(q), free(want), free(got);
    }
}

/* Broadcasting Add and Mul: a [4, 1, 3] with b [1, 5, 3], and [40, 64] with a
** row, one value b or one value a, gives each pair the flat kernels' result. */
static void test_bcast_s8(void **state)
{
    (void)state;
    ktest_rng r = { 5 };
    int8_t a[12], b[15], y[60], want[1];
    fill8(&r, a, 12);
    fill8(&r, b, 15);
    const int32_t dims[3] = { 4, 5, 3 }, sa[3] = { 3, 0, 1 }, sb[3] = { 0, 3, 1 };
    const int32_t qa[12] = { 3, -10, 4, 20, 1717986918, -2, 1073741824, 0, 1789569707, -19, -128, 127 };
    const int32_t qm[7] = { 3, -10, -5, 1717986918, -3, -120, 120 };
    for (int mul = 0; mul < 2; mul++) {
        (mul ? sm2c_rt_mul_bcast_s8 : sm2c_rt_add_bcast_s8)(a, b, y, 3, dims, sa, sb, mul ? qm : qa);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 5; j++)
                for (int k = 0; k < 3; k++) {
                    (mul ? sm2c_rt_mul_s8 : sm2c_rt_add_s8)(&a[i * 3 + k], &b[j * 3 + k], want, 1, mul ? qm : qa);
                    assert_int_equal(want[0], y[(i * 5 + j) * 3 + k]);
                }
    }
    /* [40, 64] with a bias row [64] (runs on the vector Add), with one value
    ** b or one value a (a table of the 256 results): each element as above */
    enum { R = 40, D = 64 };
    int8_t *ba = malloc(R * D), *by = malloc(R * D), row[D];
    fill8(&r, ba, R * D);
    fill8(&r, row, D);
    const int32_t bd[2] = { R, D }, s_full[2] = { D, 1 }, s_row[2] = { 0, 1 }, s_one[2] = { 0, 0 };
    for (int form = 0; form < 6; form++) {
        const int mul = form % 2, which = form / 2; /* 0: bias row, 1: b one value, 2: a one value */
        const int8_t *xa = which == 2 ? row + 5 : ba, *xb = which == 0 ? row : which == 1 ? row + 9 : ba;
        const int32_t *sa2 = which == 2 ? s_one : s_full, *sb2 = which == 0 ? s_row : which == 1 ? s_one : s_full;
        (mul ? sm2c_rt_mul_bcast_s8 : sm2c_rt_add_bcast_s8)(xa, xb, by, 2, bd, sa2, sb2, mul ? qm : qa);
        for (int i = 0; i < R; i++)
            for (int k = 0; k < D; k++) {
                const int8_t *pa = xa + i * sa2[0] + k * sa2[1], *pb = xb + i * sb2[0] + k * sb2[1];
                (mul ? sm2c_rt_mul_s8 : sm2c_rt_add_s8)(pa, pb, want, 1, mul ? qm : qa);
                assert_int_equal(want[0], by[i * D + k]);
            }
    }
    free(ba), free(by);
}

/* Mean of [2, 6, 5] over the middle axis: the shifted sum requantized. */
/* MaxPool and AvgPool of window {N, H, W, C, KH, KW, SH, SW, PT, PL} against
** plain loops over the valid cells: channel blocks and their tails, padding. */
static void check_pool_shape(const int32_t *s, uint64_t seed)
{
    ktest_rng r = { seed };
    int32_t p[SM2C_RT_WIN_PARAMS] = { 0 };
    p[SM2C_RT_WIN_N] = s[0], p[SM2C_RT_WIN_H] = s[1], p[SM2C_RT_WIN_W] = s[2], p[SM2C_RT_WIN_C] = s[3];
    p[SM2C_RT_WIN_KH] = s[4], p[SM2C_RT_WIN_KW] = s[5], p[SM2C_RT_WIN_SH] = s[6], p[SM2C_RT_WIN_SW] = s[7];
    p[SM2C_RT_WIN_PT] = s[8], p[SM2C_RT_WIN_PL] = s[9], p[SM2C_RT_WIN_DH] = 1, p[SM2C_RT_WIN_DW] = 1;
    p[SM2C_RT_WIN_OH] = (s[1] + 2 * s[8] - s[4]) / s[6] + 1;
    p[SM2C_RT_WIN_OW] = (s[2] + 2 * s[9] - s[5]) / s[7] + 1;
    p[SM2C_RT_WIN_OC] = s[3], p[SM2C_RT_WIN_FC] = s[3];
    const int32_t N = s[0], H = s[1], W = s[2], C = s[3], OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW];
    const int nx = N * H * W * C, ny = N * OH * OW * C;
    int8_t *x = malloc((size_t)nx), *ya = malloc((size_t)ny), *ym = malloc((size_t)ny);
    fill8(&r, x, nx);
    sm2c_rt_avg_pool_s8(x, ya, p);
    sm2c_rt_max_pool_s8(x, ym, p);
    for (int32_t n = 0; n < N; n++)
        for (int32_t oh = 0; oh < OH; oh++)
            for (int32_t ow = 0; ow < OW; ow++)
                for (int32_t c = 0; c < C; c++) {
                    int32_t sum = 0, count = 0, mx = -128;
                    for (int32_t kh = 0; kh < s[4]; kh++)
                        for (int32_t kw = 0; kw < s[5]; kw++) {
                            int32_t ih = oh * s[6] + kh - s[8], iw = ow * s[7] + kw - s[9];
                            if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                                continue;
                            int32_t v = x[((n * H + ih) * W + iw) * C + c];
                            sum += v, count++, mx = v > mx ? v : mx;
                        }
                    /* rounded half away from zero */
                    int32_t avg = sum >= 0 ? (2 * sum + count) / (2 * count) : -((-2 * sum + count) / (2 * count));
                    ptrdiff_t at = ((ptrdiff_t)(n * OH + oh) * OW + ow) * C + c;
                    assert_int_equal(avg, ya[at]);
                    assert_int_equal(mx, ym[at]);
                }
    free(x), free(ya), free(ym);
}

static void test_pool_s8_shapes(void **state)
{
    (void)state;
    /* N  H   W  C    KH KW SH SW PT PL */
    const int32_t global[] = { 1, 25, 5, 64, 25, 5, 1, 1, 0, 0 };
    const int32_t same[] = { 2, 7, 6, 3, 3, 3, 2, 2, 1, 1 };
    const int32_t wide[] = { 1, 4, 5, 300, 2, 2, 2, 2, 0, 0 };
    const int32_t big[] = { 1, 12, 12, 7, 12, 12, 1, 1, 0, 0 };
    check_pool_shape(global, 31);
    check_pool_shape(same, 32);
    check_pool_shape(wide, 33);
    check_pool_shape(big, 34);
    /* Windows all inside, at most 16 cells (pool_s8.c's max_pool_s8_inside on
    ** the DSP extension): channels past whole words, strides unlike the window. */
    const int32_t in6[] = { 2, 9, 8, 6, 3, 2, 2, 3, 0, 0 };
    const int32_t in16[] = { 1, 7, 7, 16, 4, 4, 1, 1, 0, 0 };
    check_pool_shape(in6, 35);
    check_pool_shape(in16, 36);
}

static void test_mean_s8(void **state)
{
    (void)state;
    ktest_rng r = { 7 };
    int8_t x[60], y[10];
    fill8(&r, x, 60);
    /* in 0.05 / out 0.02 with 1/6 folded in, as the compiler computes it */
    const int32_t mult = 894784853, shift = 0, in_zp = -3, out_zp = 5;
    sm2c_rt_mean_s8(x, y, 2, 6, 5, in_zp, out_zp, mult, shift);
    for (int o = 0; o < 2; o++)
        for (int i = 0; i < 5; i++) {
            int32_t sum = 0;
            for (int k = 0; k < 6; k++)
                sum += x[(o * 6 + k) * 5 + i];
            int8_t want = clamp8(ref_requant(sum - in_zp * 6, mult, shift) + out_zp, -128, 127);
            assert_int_equal(want, y[o * 5 + i]);
            double real = 0.05 * (sum - in_zp * 6) / 6.0;   /* within a quantum of the real mean */
            if (want > -128 && want < 127)
                assert_true(fabs(real - 0.02 * (want - out_zp)) <= 0.02);
        }
    /* A contiguous row (inner 1), and a block of i past 128 with its tail. */
    const int32_t shapes[2][3] = { { 3, 50, 1 }, { 2, 7, 300 } };
    for (int t = 0; t < 2; t++) {
        const int32_t outer = shapes[t][0], rr = shapes[t][1], inner = shapes[t][2];
        int8_t *xs = malloc((size_t)(outer * rr * inner)), *ys = malloc((size_t)(outer * inner));
        fill8(&r, xs, outer * rr * inner);
        sm2c_rt_mean_s8(xs, ys, outer, rr, inner, in_zp, out_zp, mult, shift);
        for (int o = 0; o < outer; o++)
            for (int i = 0; i < inner; i++) {
                int32_t sum = 0;
                for (int k = 0; k < rr; k++)
                    sum += xs[(o * rr + k) * inner + i];
                assert_int_equal(clamp8(ref_requant(sum - in_zp * rr, mult, shift) + out_zp, -128, 127),
                                 ys[o * inner + i]);
            }
        free(xs), free(ys);
    }
}

/* Softmax: each output within a quantum (1/256) of the real softmax of the
** dequantized row; values far below the max give -128. */
static void test_softmax_s8(void **state)
{
    (void)state;
    ktest_rng r = { 11 };
    const double in_scale = 0.1;
    /* TFLite's parameters for input scale 0.1, beta 1: 0.1 * 2^26 as a Q31
    ** multiplier with left shift 23; diff_min = -floor(31 * 2^26 / 2^23). */
    const int32_t mult = 1717986918, left_shift = 23, diff_min = -248;
    int8_t x[3 * 10], y[3 * 10];
    fill8(&r, x, 30);
    for (int c = 0; c < 10; c++)
        x[20 + c] = (int8_t)(c == 3 ? 127 : -128);   /* one row with a difference below diff_min */
    sm2c_rt_softmax_s8(x, y, 3, 10, mult, left_shift, diff_min);
    for (int row = 0; row < 3; row++) {
        int max = -128;
        double sum = 0;
        for (int c = 0; c < 10; c++)
            max = x[row * 10 + c] > max ? x[row * 10 + c] : max;
        for (int c = 0; c < 10; c++)
            sum += exp(in_scale * (x[row * 10 + c] - max));
        for (int c = 0; c < 10; c++) {
            double p = exp(in_scale * (x[row * 10 + c] - max)) / sum;
            int got = y[row * 10 + c] + 128;
            assert_true(fabs(p * 256.0 - got) <= 1.0);
        }
    }
    assert_int_equal(127, y[23]);
    assert_int_equal(-128, y[20]);

    /* a call of 48 x 40 values (the hosts' table of exponentials) gives
    ** each row's bits of a call of that row alone (computed per element) */
    enum { ROWS = 48, DEPTH = 40 };
    int8_t *bx = malloc(ROWS * DEPTH), *by = malloc(ROWS * DEPTH), row[DEPTH];
    fill8(&r, bx, ROWS * DEPTH);
    for (int c = 0; c < DEPTH; c++)
        bx[c] = (int8_t)(c == 7 ? 127 : -128);
    sm2c_rt_softmax_s8(bx, by, ROWS, DEPTH, mult, left_shift, diff_min);
    for (int rr = 0; rr < ROWS; rr++) {
        sm2c_rt_softmax_s8(bx + rr * DEPTH, row, 1, DEPTH, mult, left_shift, diff_min);
        for (int c = 0; c < DEPTH; c++)
            assert_int_equal(row[c], by[rr * DEPTH + c]);
    }
    free(bx), free(by);
}

/* Requantize: scale 0.05 zero point 3 to scale 0.02 zero point -10 (2.5 = 1342177280 * 2^(2-31)). */
static void test_requantize_s8(void **state)
{
    (void)state;
    int8_t x[256], y[256];
    for (int i = 0; i < 256; i++)
        x[i] = (int8_t)(i - 128);
    sm2c_rt_requantize_s8(x, y, 256, 3, -10, 1342177280, 2);
    for (int i = 0; i < 256; i++) {
        assert_int_equal(clamp8(ref_requant(x[i] - 3, 1342177280, 2) - 10, -128, 127), y[i]);
        if (y[i] > -128 && y[i] < 127)   /* within half a quantum of the real value */
            assert_true(fabs(0.05 * (x[i] - 3) - 0.02 * (y[i] + 10)) <= 0.0100001);
    }
}

static void test_lut_s8(void **state)
{
    (void)state;
    int8_t table[256], x[256], y[256];
    for (int i = 0; i < 256; i++)
        table[i] = (int8_t)(127 - i), x[i] = (int8_t)(i - 128);
    sm2c_rt_lut_s8(x, table, y, 256);
    for (int i = 0; i < 256; i++)
        assert_int_equal(127 - i, y[i]);
}

int main(void)
{
#ifdef SM2C_TEST_CPU
    /* A build of the kernels for one vector ISA (tests/CMakeLists.txt). */
    if (!__builtin_cpu_supports(SM2C_TEST_CPU))
        return 77;
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conv_s8),
        cmocka_unit_test(test_conv_s8_shapes),
        cmocka_unit_test(test_conv_packed_s8),
        cmocka_unit_test(test_dw_s8_shapes),
        cmocka_unit_test(test_dw_plane_s8),
        cmocka_unit_test(test_pool_s8_shapes),
        cmocka_unit_test(test_fully_connected_s8),
        cmocka_unit_test(test_fully_connected_s8_long),
        cmocka_unit_test(test_fully_connected_s8_frq),
        cmocka_unit_test(test_quantize_rows_s8),
        cmocka_unit_test(test_quantize_rows_s8_paths),
        cmocka_unit_test(test_quantize_rows_s8_blocks),
        cmocka_unit_test(test_fully_connected_hybrid),
        cmocka_unit_test(test_fully_connected_hybrid_packed),
        cmocka_unit_test(test_conv_1x1_hybrid_packed),
        cmocka_unit_test(test_conv_hybrid),
        cmocka_unit_test(test_fully_connected_m_s8),
        cmocka_unit_test(test_fully_connected_m_s8_rounding),
        cmocka_unit_test(test_fully_connected_s8_blocks),
        cmocka_unit_test(test_requant_halves),
        cmocka_unit_test(test_pool_s8),
        cmocka_unit_test(test_add_and_clamp_s8),
        cmocka_unit_test(test_add_s8_frq),
        cmocka_unit_test(test_quantize_s8),
        cmocka_unit_test(test_quantize_s8_lanes),
        cmocka_unit_test(test_quantize_pad_s8),
        cmocka_unit_test(test_fully_connected_packed_s8),
        cmocka_unit_test(test_bcast_s8),
        cmocka_unit_test(test_mean_s8),
        cmocka_unit_test(test_softmax_s8),
        cmocka_unit_test(test_lut_s8),
        cmocka_unit_test(test_requantize_s8),
    };
    return cmocka_run_group_tests_name("q8", tests, NULL, NULL);
}
