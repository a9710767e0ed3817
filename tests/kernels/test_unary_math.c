/* test_unary_math.c: unary_math_f32.c and binary_math_f32.c.  Rounding, Sign,
** LeakyRelu, FloorDiv and FloorMod bit-exact; Reciprocal and the divisions
** correctly rounded (<= 1 ulp); transcendentals against double within rtol
** 20 eps = 2.4e-6, atol 2*FLT_MIN (docs/reliability.md section 9) over sweeps of bit
** patterns; special values as TensorFlow 2.21 gives them (measured). */
#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"

#define RTOL 2.4e-6
#define ATOL (2.0 * FLT_MIN)

typedef void (*unary_fn)(const float *, float *, int32_t);

static float *sweep(int32_t *n, uint32_t step)
{
    const int32_t cap = (int32_t)(0x100000000ull / step) + KTEST_NSPECIAL32 + 1;
    float *x = malloc((size_t)cap * sizeof *x);
    uint64_t u;
    int32_t i = 0;
    for (i = 0; i < KTEST_NSPECIAL32; i++)
        x[i] = ktest_from_bits32(ktest_special32[i]);
    for (u = 777; u < 0x100000000ull; u += step)
        x[i++] = ktest_from_bits32((uint32_t)u);
    *n = i;
    return x;
}

static double ref_softplus(double x)
{
    return x > 30 ? x : log1p(exp(x));
}
static double ref_softsign(double x)
{
    return x / (1.0 + fabs(x));
}
static double ref_elu(double x)
{
    return x < 0 ? expm1(x) : x;
}
static double ref_selu(double x)
{
    const double scale = 1.0507009873554804934193349852946, alpha = 1.6732632423543772848170429916717;
    return x < 0 ? scale * alpha * expm1(x) : scale * x;
}

static void check_transcendental(unary_fn fn, double (*ref)(double), const char *name)
{
    int32_t n, i;
    float *x = sweep(&n, 1u << 12), *y = malloc((size_t)n * sizeof *y);
    sm2c_rt_copy(y, x, n * 4);
    fn(y, y, n); /* in place */
    for (i = 0; i < n; i++) {
        const double want = ref(x[i]);
        if (fabs(want) > FLT_MAX) {
            if (!(isinf(y[i]) && (y[i] > 0) == (want > 0)))
                ktest_check_close(want, y[i], ATOL, RTOL, name, i);
            continue;
        }
        ktest_check_close(want, y[i], ATOL, RTOL, name, i);
    }
    free(x);
    free(y);
}

static void test_transcendentals(void **state)
{
    (void)state;
    check_transcendental(sm2c_rt_sin_f32, sin, "sin");
    check_transcendental(sm2c_rt_cos_f32, cos, "cos");
    check_transcendental(sm2c_rt_tan_f32, tan, "tan");
    check_transcendental(sm2c_rt_asin_f32, asin, "asin");
    check_transcendental(sm2c_rt_acos_f32, acos, "acos");
    check_transcendental(sm2c_rt_atan_f32, atan, "atan");
    check_transcendental(sm2c_rt_sinh_f32, sinh, "sinh");
    check_transcendental(sm2c_rt_cosh_f32, cosh, "cosh");
    check_transcendental(sm2c_rt_asinh_f32, asinh, "asinh");
    check_transcendental(sm2c_rt_acosh_f32, acosh, "acosh");
    check_transcendental(sm2c_rt_atanh_f32, atanh, "atanh");
    check_transcendental(sm2c_rt_erf_f32, erf, "erf");
    check_transcendental(sm2c_rt_erfc_f32, erfc, "erfc");
    check_transcendental(sm2c_rt_expm1_f32, expm1, "expm1");
    check_transcendental(sm2c_rt_log1p_f32, log1p, "log1p");
    check_transcendental(sm2c_rt_softplus_f32, ref_softplus, "softplus");
    check_transcendental(sm2c_rt_softsign_f32, ref_softsign, "softsign");
    check_transcendental(sm2c_rt_elu_f32, ref_elu, "elu");
    check_transcendental(sm2c_rt_selu_f32, ref_selu, "selu");
}

/* Erfinv against erf's inverse found by bisection in double (independent of
** the kernel's approximation), and its edges: +-1 to +-Inf, beyond to NaN. */
static double ref_erfinv(double x)
{
    double lo = -6.0, hi = 6.0;
    for (int k = 0; k < 200; k++) {
        double mid = 0.5 * (lo + hi);
        if (erf(mid) < x)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static void test_erfinv(void **state)
{
    enum { N = 4001 };
    float x[N], y[N];
    (void)state;
    for (int32_t i = 0; i < N; i++)
        x[i] = (float)(i - N / 2) / (N / 2 + 1);
    sm2c_rt_erfinv_f32(x, y, N);
    for (int32_t i = 0; i < N; i++)
        ktest_check_close(ref_erfinv(x[i]), y[i], ATOL, RTOL, "erfinv", i);
    const float in[6] = { 1.0f, -1.0f, 1.5f, -INFINITY, NAN, 0.99999994f };
    sm2c_rt_erfinv_f32(in, y, 6);
    assert_true(y[0] == INFINITY && y[1] == -INFINITY && isnan(y[2]) && isnan(y[3]) && isnan(y[4]));
    ktest_check_close(ref_erfinv(in[5]), y[5], ATOL, RTOL, "erfinv", 5);
}

/* Floor, Ceil, Round/Rint (half to even), Sign and LeakyRelu bit-exact against
** double references; Reciprocal within 1 ulp. */
static void test_exact(void **state)
{
    int32_t n, i;
    float *x = sweep(&n, 1u << 13), *y = malloc((size_t)n * sizeof *y);
    (void)state;
    sm2c_rt_floor_f32(x, y, n);
    for (i = 0; i < n; i++)
        ktest_check_bits32((float)floor(x[i]), y[i], "floor", i);
    sm2c_rt_ceil_f32(x, y, n);
    for (i = 0; i < n; i++)
        ktest_check_bits32((float)ceil(x[i]), y[i], "ceil", i);
    sm2c_rt_round_f32(x, y, n);
    for (i = 0; i < n; i++)
        ktest_check_bits32((float)rint(x[i]), y[i], "round", i);
    sm2c_rt_rint_f32(x, y, n);
    for (i = 0; i < n; i++)
        ktest_check_bits32((float)rint(x[i]), y[i], "rint", i);
    sm2c_rt_sign_f32(x, y, n);
    for (i = 0; i < n; i++)
        if (!isnan(x[i]))
            ktest_check_bits32(x[i] > 0 ? 1.0f : x[i] < 0 ? -1.0f : 0.0f, y[i], "sign", i);
    sm2c_rt_leaky_relu_f32(x, y, n, 0.2f);
    for (i = 0; i < n; i++)
        if (!isnan(x[i]))
            ktest_check_bits32(x[i] > 0 ? x[i] : x[i] * 0.2f, y[i], "leaky_relu", i);
    sm2c_rt_reciprocal_f32(x, y, n);
    for (i = 0; i < n; i++)
        ktest_check_ulp32((float)(1.0 / x[i]), y[i], 1, "reciprocal", i);
    free(x);
    free(y);
}

/* TensorFlow 2.21's results on special values, written out. */
static void test_special_unary(void **state)
{
    enum { N = 14 };
    const float in[N] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f,
                         -20.0f, 20.0f, 100.0f, -13.9f};
    const float round[N] = {0, -0.0f, INFINITY, -INFINITY, NAN, 0, -0.0f, 2, 2, -2, -20, 20, 100, -14};
    const float sign[N] = {0, 0, 1, -1, NAN, 1, -1, 1, 1, -1, -1, 1, 1, -1};
    const float softsign_inf = NAN; /* TF: Inf / (1 + Inf) */
    const float elu[4] = {0, -0.0f, INFINITY, -1};
    const float leaky[N] = {0, -0.0f, INFINITY, -INFINITY, NAN, 0.5f, -0.1f, 1.5f, 2.5f, -0.5f,
                            -4, 20, 100, -2.78f};
    float y[N];
    int32_t i;
    (void)state;
    sm2c_rt_round_f32(in, y, N);
    for (i = 0; i < N; i++)
        ktest_check_ulp32(round[i], y[i], 0, "round", i);
    assert_true(signbit(y[1]) && signbit(y[6]));
    sm2c_rt_sign_f32(in, y, N);
    for (i = 0; i < N; i++)
        ktest_check_bits32(isnan(sign[i]) ? y[i] : sign[i], y[i], "sign", i);
    assert_true(isnan(y[4]));
    sm2c_rt_softsign_f32(in, y, N);
    assert_true(isnan(y[2]) && isnan(y[3]) && isnan(softsign_inf));
    sm2c_rt_elu_f32(in, y, 4);
    for (i = 0; i < 4; i++)
        ktest_check_bits32(elu[i], y[i], "elu", i);
    sm2c_rt_selu_f32(in, y, 4);
    assert_true(y[2] == INFINITY && y[3] == -1.7580993f);
    sm2c_rt_softplus_f32(in, y, N);
    assert_true(y[0] == 0.6931472f && y[2] == INFINITY && y[3] == 0.0f && isnan(y[4]));
    assert_true(y[11] == 20.0f && y[12] == 100.0f);
    ktest_check_close(9.189812431031896e-07, y[13], 1e-12, 1e-6, "softplus", 13);
    sm2c_rt_leaky_relu_f32(in, y, N, 0.2f);
    for (i = 0; i < N; i++)
        ktest_check_ulp32(leaky[i], y[i], 0, "leaky_relu", i);
    sm2c_rt_reciprocal_f32(in, y, 5);
    assert_true(y[0] == INFINITY && y[1] == -INFINITY && y[2] == 0 && !signbit(y[2]) &&
                signbit(y[3]) && isnan(y[4]));
}

/* TensorFlow 2.21's results for the binary ops on special pairs. */
static void test_special_binary(void **state)
{
    enum { N = 16 };
    const float a[N] = {5, -5, 5, -5, 0, -0.0f, 5, INFINITY, -INFINITY, 1, NAN, 1, -1, 0, 2, -2};
    const float b[N] = {3, 3, -3, -3, 3, 3, 0, 3, 3, INFINITY, 1, -INFINITY, INFINITY, 0, NAN, 0.5f};
    const float floordiv[N] = {1, -2, -2, 1, 0, -0.0f, INFINITY, INFINITY, -INFINITY, 0, NAN,
                               -0.0f, -0.0f, NAN, NAN, -4};
    const float floormod[N] = {2, 1, -1, -2, 0, -0.0f, NAN, NAN, NAN, 1, NAN, -INFINITY,
                               INFINITY, NAN, NAN, -0.0f};
    const float pow_[N] = {125, -125, 0.008f, -0.008f, 0, -0.0f, 1, INFINITY, -INFINITY, 1, NAN,
                           1, 1, 1, NAN, NAN};
    const float divnonan[N] = {5.0f / 3, -5.0f / 3, -5.0f / 3, 5.0f / 3, 0, -0.0f, 0, INFINITY,
                               -INFINITY, 0, NAN, -0.0f, -0.0f, 0, NAN, -4};
    const float xdivy[N] = {5.0f / 3, -5.0f / 3, -5.0f / 3, 5.0f / 3, 0, 0, INFINITY, INFINITY,
                            -INFINITY, 0, NAN, -0.0f, -0.0f, 0, 0, -4};
    const int32_t dims[1] = {N}, one[1] = {1};
    float y[N];
    int32_t i;
    (void)state;
    sm2c_rt_floor_div_f32(a, b, y, 1, dims, one, one);
    for (i = 0; i < N; i++)
        ktest_check_ulp32(floordiv[i], y[i], 0, "floor_div", i);
    sm2c_rt_floor_mod_f32(a, b, y, 1, dims, one, one);
    for (i = 0; i < N; i++)
        ktest_check_bits32(isnan(floormod[i]) && isnan(y[i]) ? y[i] : floormod[i], y[i], "floor_mod", i);
    sm2c_rt_pow_f32(a, b, y, 1, dims, one, one);
    for (i = 0; i < N; i++)
        ktest_check_ulp32(pow_[i], y[i], 1, "pow", i);
    sm2c_rt_div_no_nan_f32(a, b, y, 1, dims, one, one);
    for (i = 0; i < N; i++)
        ktest_check_ulp32(divnonan[i], y[i], 0, "div_no_nan", i);
    sm2c_rt_xdivy_f32(a, b, y, 1, dims, one, one);
    for (i = 0; i < N; i++)
        if (i != 14) /* TF gives NaN for 2 / NaN, checked below */
            ktest_check_ulp32(xdivy[i], y[i], 0, "xdivy", i);
    assert_true(isnan(y[14]));
    sm2c_rt_atan2_f32(a, b, y, 1, dims, one, one);
    for (i = 0; i < N; i++)
        ktest_check_close(atan2(a[i], b[i]), y[i], ATOL, RTOL, "atan2", i);
    /* FloorMod sign rules on a sweep: result has the divisor's sign (or is 0)
    ** and |r| < |b|; FloorDiv is floor of the IEEE quotient. */
    {
        ktest_rng r = {0x5eed};
        for (i = 0; i < 20000; i++) {
            float p = ktest_f32(&r, -100, 100), q = ktest_f32(&r, -10, 10), m, d;
            if (q == 0)
                continue;
            sm2c_rt_floor_mod_f32(&p, &q, &m, 1, one, one, one);
            sm2c_rt_floor_div_f32(&p, &q, &d, 1, one, one, one);
            assert_true(m == 0 || (m < 0) == (q < 0));
            assert_true(fabsf(m) <= fabsf(q));
            ktest_check_bits32((float)floor((double)(p / q)), d, "floor_div sweep", i);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transcendentals),
        cmocka_unit_test(test_exact),
        cmocka_unit_test(test_special_unary),
        cmocka_unit_test(test_erfinv),
        cmocka_unit_test(test_special_binary),
    };
    return cmocka_run_group_tests_name("unary_math", tests, NULL, NULL);
}
