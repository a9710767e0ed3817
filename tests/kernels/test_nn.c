/*
** test_nn.c: BiasAdd, Softmax, LogSoftmax and BatchNorm against naive double
** references (docs/reliability.md section 9), and the special values of
** TensorFlow's CPU kernels (checked against TF 2.21, TF_ENABLE_ONEDNN_OPTS=0).
*/
#include "sm2c_test.h"

#include "sm2c_rt.h"
#include "kref.h"

/* ---- BiasAdd: IEEE-basic, so bit-exact against the float computation ------ */

static void check_bias_add(int32_t outer, int32_t channels, int32_t inner, int32_t act,
                           int in_place, uint64_t seed)
{
    const size_t n = (size_t)outer * channels * inner;
    float *x = calloc(n + 1, sizeof *x), *y = calloc(n + 1, sizeof *y);
    float *want = calloc(n + 1, sizeof *want);
    float *bias = calloc((size_t)channels + 1, sizeof *bias);
    double *wantd = calloc(n + 1, sizeof *wantd);
    krng r = krng_new(seed);
    size_t i;

    krng_fill(&r, x, n, -8.0f, 8.0f);
    krng_fill(&r, bias, (size_t)channels, -2.0f, 2.0f);
    for (i = 0; i < n; i++) {
        const size_t c = (i / (size_t)inner) % (size_t)channels;
        const float v = x[i] + bias[c];
        want[i] = kactf(v, act);
        wantd[i] = kact(v, act);
    }
    sm2c_rt_bias_add_f32(x, bias, in_place ? x : y, outer, channels, inner, KACT(act));
    if (act == SM2C_RT_ACT_SIGMOID) /* a polynomial: docs/reliability.md's tolerance */
        kassert_close(wantd, in_place ? x : y, n, 1e-6, 2.4e-6, "bias_add sigmoid");
    else
        kassert_same(want, in_place ? x : y, n, in_place ? "bias_add in place" : "bias_add");
    free(wantd);
    free(x);
    free(y);
    free(want);
    free(bias);
}

static void test_bias_add(void **state)
{
    int32_t act;
    (void)state;
    for (act = SM2C_RT_ACT_NONE; act <= KACT_LAST; act++) {
        check_bias_add(1, 1, 1, act, 0, 1);
        check_bias_add(7, 13, 1, act, 0, 2);   /* NHWC */
        check_bias_add(3, 5, 17, act, 0, 3);   /* NCHW */
        check_bias_add(4, 33, 1, act, 1, 4);   /* y == x */
        check_bias_add(2, 3, 9, act, 1, 5);
    }
}

/* Relu/Relu6 special values through BiasAdd with a zero bias (see act_f32.h:
** TF's cwiseMax/cwiseMin<Eigen::PropagateNaN>). */
static void test_bias_add_act_special(void **state)
{
    const float x[8] = {NAN, -INFINITY, INFINITY, -1.0f, 0.0f, -0.0f, 3.0f, 7.0f};
    const float zero[8] = {0};
    const float want_relu[8] = {NAN, 0.0f, INFINITY, 0.0f, 0.0f, 0.0f, 3.0f, 7.0f};
    const float want_relu6[8] = {NAN, 0.0f, 6.0f, 0.0f, 0.0f, 0.0f, 3.0f, 6.0f};
    const float nanbias[2] = {NAN, 1.0f};
    const float x2[2] = {1.0f, 2.0f};
    float y[8];
    (void)state;

    sm2c_rt_bias_add_f32(x, zero, y, 1, 8, 1, KACT(SM2C_RT_ACT_RELU));
    kassert_same(want_relu, y, 8, "relu");
    assert_false(signbit(y[5])); /* Relu(-0) = +0 in TF */
    sm2c_rt_bias_add_f32(x, zero, y, 1, 8, 1, KACT(SM2C_RT_ACT_RELU6));
    kassert_same(want_relu6, y, 8, "relu6");
    sm2c_rt_bias_add_f32(x, zero, y, 8, 1, 1, KACT(SM2C_RT_ACT_RELU6));
    kassert_same(want_relu6, y, 8, "relu6 inner");
    /* TF: bias_add([[1,2]], [nan,1]) = [[nan,3]] */
    sm2c_rt_bias_add_f32(x2, nanbias, y, 1, 2, 1, KACT(SM2C_RT_ACT_RELU));
    assert_true(isnan(y[0]));
    assert_true(y[1] == 3.0f);
}

/* ---- Softmax and LogSoftmax ------------------------------------------------- */

static void ref_softmax(const float *x, double *y, int32_t rows, int32_t cols, int log_)
{
    int32_t r, j;
    for (r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols;
        double mx = xr[0], s = 0.0;
        for (j = 1; j < cols; j++)
            if (xr[j] > mx)
                mx = xr[j];
        for (j = 0; j < cols; j++)
            s += exp((double)xr[j] - mx);
        for (j = 0; j < cols; j++)
            y[(size_t)r * cols + j] =
                log_ ? ((double)xr[j] - mx) - log(s) : exp((double)xr[j] - mx) / s;
    }
}

static void check_softmax(int32_t rows, int32_t cols, float lo, float hi, uint64_t seed)
{
    const size_t n = (size_t)rows * cols;
    float *x = calloc(n + 1, sizeof *x), *y = calloc(n + 1, sizeof *y);
    double *want = calloc(n + 1, sizeof *want);
    krng r = krng_new(seed);
    int32_t i, j;

    krng_fill(&r, x, n, lo, hi);
    ref_softmax(x, want, rows, cols, 0);
    sm2c_rt_softmax_f32(x, y, rows, cols);
    kassert_close(want, y, n, 1e-6, 1e-5, "softmax");
    /* Invariants: each row sums to 1 within cols*eps, every entry >= 0, and the
    ** argmax is that of the input. */
    for (i = 0; i < rows; i++) {
        double s = 0.0;
        int32_t am_x = 0, am_y = 0;
        for (j = 0; j < cols; j++) {
            const size_t k = (size_t)i * cols + j;
            assert_true(y[k] >= 0.0f);
            s += y[k];
            if (x[k] > x[(size_t)i * cols + am_x])
                am_x = j;
            if (y[k] > y[(size_t)i * cols + am_y])
                am_y = j;
        }
        assert_true(fabs(s - 1.0) <= (double)(cols + 1) * FLT_EPSILON);
        assert_int_equal(am_x, am_y);
    }
    ref_softmax(x, want, rows, cols, 1);
    sm2c_rt_log_softmax_f32(x, y, rows, cols);
    kassert_close(want, y, n, 1e-5, 1e-5, "log_softmax");
    /* In place. */
    sm2c_rt_log_softmax_f32(x, x, rows, cols);
    kassert_close(want, x, n, 1e-5, 1e-5, "log_softmax in place");
    free(x);
    free(y);
    free(want);
}

static void test_softmax_random(void **state)
{
    (void)state;
    check_softmax(1, 1, -1.0f, 1.0f, 11);
    check_softmax(4, 3, -5.0f, 5.0f, 12);
    check_softmax(3, 10, -10.0f, 10.0f, 13);
    check_softmax(2, 1000, -4.0f, 4.0f, 14);
    /* exp(100) overflows float: only a max-shifted kernel gets these right. */
    check_softmax(5, 37, 80.0f, 100.0f, 15);
    check_softmax(5, 37, -300.0f, -200.0f, 16);
}

/*
** Rows of special values, expected outputs from TensorFlow 2.21's Eigen CPU
** kernel (SoftmaxEigenImpl, core/kernels/softmax_op_functor.h):
**   [-inf,-inf,-inf] -> nan nan nan     (-inf - max is nan)
**   [1, inf, 2]      -> nan nan nan     (inf - inf)
**   [1, -inf, 2]     -> 0.26894143 0 0.7310586;  log: -1.3132616 -inf -0.31326166
**   [nan, 1, 2], [1, 2, nan], [inf, inf, 1] -> nan nan nan
*/
static void test_softmax_special(void **state)
{
    const float x[6 * 3] = {
        -INFINITY, -INFINITY, -INFINITY, 1.0f, INFINITY, 2.0f, 1.0f, -INFINITY, 2.0f,
        NAN,       1.0f,      2.0f,      1.0f, 2.0f,     NAN,  INFINITY, INFINITY, 1.0f,
    };
    /* TF 2.21's oneDNN softmax (see nn_f32.c): NaN or +Inf where they are, 0
    ** elsewhere in their row; an all -Inf row is NaN. */
    const double w_sm[6 * 3] = {
        NAN, NAN, NAN, 0.0, NAN, 0.0, 0.26894143, 0.0, 0.7310586,
        NAN, 0.0, 0.0, 0.0, 0.0, NAN, NAN,        NAN, 0.0,
    };
    const double w_lsm[6 * 3] = {
        NAN, NAN, NAN, NAN, NAN, NAN, -1.3132616, -INFINITY, -0.31326166,
        NAN, NAN, NAN, NAN, NAN, NAN, NAN,        NAN,       NAN,
    };
    float y[6 * 3];
    (void)state;

    sm2c_rt_softmax_f32(x, y, 6, 3);
    kassert_close(w_sm, y, 18, 1e-6, 1e-5, "softmax special");
    sm2c_rt_log_softmax_f32(x, y, 6, 3);
    kassert_close(w_lsm, y, 18, 1e-5, 1e-5, "log_softmax special");
    /* cols == 0: nothing to do, and nothing is touched. */
    sm2c_rt_softmax_f32(NULL, NULL, 3, 0);
    sm2c_rt_log_softmax_f32(NULL, NULL, 3, 0);
}

/* The special values again in rows of 37, so that they fall in the 16-lane
** blocks of the vector paths (nn_f32.c, softmax_simd_f32.h), not only in
** the scalar tail: an all -Inf row, a +Inf, a NaN, and a -Inf and a
** difference past exp's underflow (-104) among finite values. */
static void test_softmax_special_wide(void **state)
{
    enum { R = 4, C = 37 };
    float x[R * C], y[R * C];
    double want[R * C];
    krng r = krng_new(21);
    int32_t j;
    (void)state;

    krng_fill(&r, x, R * C, -2.0f, 2.0f);
    for (j = 0; j < C; j++)
        x[j] = -INFINITY;
    x[C + 7] = INFINITY;
    x[2 * C + 20] = NAN;
    x[3 * C + 4] = -INFINITY;
    x[3 * C + 30] = -150.0f;
    for (j = 0; j < C; j++) {
        want[j] = NAN;
        want[C + j] = j == 7 ? NAN : 0.0;
        want[2 * C + j] = j == 20 ? NAN : 0.0;
    }
    ref_softmax(x + 3 * C, want + 3 * C, 1, C, 0);
    sm2c_rt_softmax_f32(x, y, R, C);
    kassert_close(want, y, R * C, 1e-6, 1e-5, "softmax special, wide rows");
}

/* Softmax's documented arithmetic (nn_f32.c, softmax_simd_f32.h), written
** out here: the maximum, exp(x - max) by the polynomial with fused
** multiply-adds, 16 lane sums added pairwise then the tail in order, then
** 1 / sum.  Every path this build runs must give these bits. */
static float fused_exp(float d)
{
    const float fn = fmaf(d, 1.44269504088896341f, 12582912.0f) - 12582912.0f;
    const float r = fmaf(-fn, -2.12194440e-4f, fmaf(-fn, 0.693359375f, d));
    static const float c[] = { 1.3981999507e-3f, 8.3334519073e-3f, 4.1665795894e-2f, 1.6666665459e-1f,
                               5.0000001201e-1f };
    float p = 1.9875691500e-4f;
    for (int i = 0; i < 5; i++)
        p = fmaf(p, r, c[i]);
    p = fmaf(p, r * r, r) + 1.0f;
    return ldexpf(p, (int)fn);
}

static void softmax_written_out(const float *x, float *y, int32_t cols)
{
    float mx = -INFINITY, ls[16] = { 0 }, sum;
    int32_t j, w, i, blocks = cols / 16 * 16;
    for (j = 0; j < cols; j++)
        mx = x[j] > mx ? x[j] : mx;
    for (j = 0; j < cols; j++) {
        y[j] = x[j] - mx < -86.643394f ? 0.0f : fused_exp(x[j] - mx);
        if (j < blocks)
            ls[j % 16] += y[j];
    }
    for (w = 8; w > 0; w >>= 1)
        for (i = 0; i < w; i++)
            ls[i] += ls[i + w];
    for (sum = ls[0], j = blocks; j < cols; j++)
        sum += y[j];
    for (j = 0; j < cols; j++)
        y[j] *= 1.0f / sum;
}

static void test_softmax_fused_bits(void **state)
{
    static const int32_t widths[] = { 5, 16, 37, 128 };
    float x[128], y[128], want[128];
    krng r = krng_new(41);
    (void)state;

    for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
        krng_fill(&r, x, (size_t)widths[k], -40.0f, 10.0f);
        softmax_written_out(x, want, widths[k]);
        sm2c_rt_softmax_f32(x, y, 1, widths[k]);
        kassert_same(want, y, (size_t)widths[k], "softmax, its arithmetic written out");
    }
}

/* TF 2.21's Softmax gives 0 where x - max <= -86.6434 and keeps
** -86.643394 (its exp stops below 2^-125; nn_f32.c, SOFTMAX_CUT), and so
** must every path: in the 16-lane blocks and in the tail, scaled too. */
static void test_softmax_cut(void **state)
{
    enum { C = 37 };
    static const float at[] = { -86.6434f, -86.643394f, -87.0f, -86.0f, -100.0f, -1e30f };
    float x[C], y[C];
    int32_t i, j;
    (void)state;

    for (i = 0; i < 2; i++) {          /* block lanes 3..8, then tail lanes 31..36 */
        for (j = 0; j < C; j++)
            x[j] = -200.0f;
        x[C - 1 - 6 * i - 6] = 0.0f;    /* the maximum: exp(0) = 1 */
        for (j = 0; j < 6; j++)
            x[3 + 28 * i + j] = at[j];
        sm2c_rt_softmax_f32(x, y, 1, C);
        for (j = 0; j < 6; j++) {
            const float v = y[3 + 28 * i + j];
            if (at[j] >= -86.643394f ? !(v > 0.0f) : v != 0.0f)
                fail_msg("softmax of x - max = %.9g at %d: %.9g", (double)at[j], (int)(3 + 28 * i + j), (double)v);
        }
        for (j = 0; j < C; j++)
            x[j] *= 2.0f;                   /* the same differences, scaled by 0.5 */
        sm2c_rt_softmax_scaled_f32(x, 0.5f, x, 1, C);
        assert_true(memcmp(x, y, sizeof y) == 0);
    }
}

/* The scaled Softmax against a Mul then the Softmax, bit for bit (its
** products round as the Mul's: nn_f32.c), and rows two at a time (the
** AVX-512 path pairs them) against rows one at a time.  Odd row counts,
** tails past the 16-lane blocks, special values in some rows, and scales
** that are negative, zero or overflow. */
static void check_softmax_scaled(int32_t rows, int32_t cols, float scale, uint64_t seed)
{
    const size_t n = (size_t)rows * cols;
    float *x = calloc(n + 1, sizeof *x), *xs = calloc(n + 1, sizeof *xs);
    float *want = calloc(n + 1, sizeof *want), *y = calloc(n + 1, sizeof *y);
    krng r = krng_new(seed);
    size_t i;
    int32_t k;

    krng_fill(&r, x, n, -6.0f, 6.0f);
    if (rows > 2) {
        x[cols / 2] = -INFINITY;
        x[(size_t)cols + cols - 1] = NAN;
        x[2 * (size_t)cols] = INFINITY;
    }
    for (i = 0; i < n; i++)
        xs[i] = x[i] * scale;
    sm2c_rt_softmax_f32(xs, want, rows, cols);
    sm2c_rt_softmax_scaled_f32(x, scale, y, rows, cols);
    kassert_same(want, y, n, "softmax scaled");
    for (k = 0; k < rows; k++)
        sm2c_rt_softmax_f32(xs + (size_t)k * cols, y + (size_t)k * cols, 1, cols);
    kassert_same(want, y, n, "softmax one row at a time");
    sm2c_rt_softmax_scaled_f32(x, scale, x, rows, cols);
    kassert_same(want, x, n, "softmax scaled in place");
    free(x);
    free(xs);
    free(want);
    free(y);
}

static void test_softmax_scaled(void **state)
{
    (void)state;
    check_softmax_scaled(1, 1, 0.5f, 31);
    check_softmax_scaled(3, 10, 0.17677669f, 32);
    check_softmax_scaled(5, 37, -2.5f, 33);
    check_softmax_scaled(4, 128, 0.17677669f, 34);
    check_softmax_scaled(7, 130, 3.0f, 35);
    check_softmax_scaled(3, 16, 0.0f, 36);
    check_softmax_scaled(3, 33, 1e30f, 37);
    sm2c_rt_softmax_scaled_f32(NULL, 2.0f, NULL, 3, 0);
}

/* ---- BatchNorm (inference) ----------------------------------------------------- */

static void check_batch_norm(int32_t outer, int32_t channels, float eps, uint64_t seed)
{
    const size_t n = (size_t)outer * channels, c = (size_t)channels;
    float *x = calloc(n + 1, sizeof *x), *y = calloc(n + 1, sizeof *y);
    float *scale = calloc(c + 1, sizeof *scale), *offset = calloc(c + 1, sizeof *offset);
    float *mean = calloc(c + 1, sizeof *mean), *var = calloc(c + 1, sizeof *var);
    double *want = calloc(n + 1, sizeof *want);
    krng r = krng_new(seed);
    size_t i;

    krng_fill(&r, x, n, -3.0f, 3.0f);
    krng_fill(&r, scale, c, 0.1f, 2.0f);
    krng_fill(&r, offset, c, -1.0f, 1.0f);
    krng_fill(&r, mean, c, -0.5f, 0.5f);
    krng_fill(&r, var, c, 0.0f, 4.0f);
    for (i = 0; i < n; i++) {
        const size_t k = i % c;
        want[i] = ((double)x[i] - mean[k]) * scale[k] / sqrt((double)var[k] + eps) + offset[k];
    }
    sm2c_rt_batch_norm_f32(x, scale, offset, mean, var, eps, y, outer, channels);
    kassert_close(want, y, n, 1e-5, 1e-4, "batch_norm");
    free(x);
    free(y);
    free(scale);
    free(offset);
    free(mean);
    free(var);
    free(want);
}

static void test_batch_norm(void **state)
{
    (void)state;
    check_batch_norm(1, 1, 1e-3f, 21);
    check_batch_norm(10, 3, 1e-5f, 22);
    check_batch_norm(6, 300, 1e-3f, 23); /* more channels than one factor block */
    check_batch_norm(2, 513, 1e-3f, 24);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bias_add),
        cmocka_unit_test(test_bias_add_act_special),
        cmocka_unit_test(test_softmax_random),
        cmocka_unit_test(test_softmax_special),
        cmocka_unit_test(test_softmax_special_wide),
        cmocka_unit_test(test_softmax_scaled),
        cmocka_unit_test(test_softmax_cut),
        cmocka_unit_test(test_softmax_fused_bits),
        cmocka_unit_test(test_batch_norm),
    };
    return cmocka_run_group_tests_name("nn", tests, NULL, NULL);
}
