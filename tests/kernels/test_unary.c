/* test_unary.c: unary_f32.c.  Relu, Relu6 and Neg bit-exact with TensorFlow's
** NaN rules; Square and Sqrt correctly rounded (<= 1 ulp); transcendentals
** against double within rtol 20 eps = 2.4e-6, atol 2*FLT_MIN
** (docs/reliability.md section 9), over sweeps of bit patterns. */
#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"

#define RTOL 2.4e-6
#define ATOL (2.0 * FLT_MIN)

typedef void (*unary_fn)(const float *, float *, int32_t);

/* TF (measured, vectorised path): NaN passes through unchanged, -0 -> +0. */
static float ref_relu(float x)
{
    return isnan(x) ? x : x > 0 ? x : 0.0f;
}
static float ref_relu6(float x)
{
    return isnan(x) ? x : x > 0 ? (x < 6 ? x : 6.0f) : 0.0f;
}

static double ref_sigmoid(double x)
{
    return x >= 0 ? 1.0 / (1.0 + exp(-x)) : exp(x) / (1.0 + exp(x));
}
static double ref_rsqrt(double x)
{
    return 1.0 / sqrt(x);
}

/* All special values plus a sweep of every 2^k-th bit pattern. */
static float *sweep(int32_t *n, uint32_t step)
{
    const int32_t cap = (int32_t)(0x100000000ull / step) + KTEST_NSPECIAL32 + 1;
    float *x = malloc((size_t)cap * sizeof *x);
    uint64_t u;
    int32_t i = 0;
    for (i = 0; i < KTEST_NSPECIAL32; i++)
        x[i] = ktest_from_bits32(ktest_special32[i]);
    for (u = 12345; u < 0x100000000ull; u += step)
        x[i++] = ktest_from_bits32((uint32_t)u);
    *n = i;
    return x;
}

static void test_relu_relu6_neg(void **state)
{
    int32_t n, i;
    float *x = sweep(&n, 1u << 14), *y = malloc((size_t)n * sizeof *y);
    (void)state;
    sm2c_rt_relu_f32(x, y, n);
    for (i = 0; i < n; i++)
        ktest_check_bits32(ref_relu(x[i]), y[i], "relu", i);
    sm2c_rt_relu6_f32(x, y, n);
    for (i = 0; i < n; i++)
        ktest_check_bits32(ref_relu6(x[i]), y[i], "relu6", i);
    sm2c_rt_neg_f32(x, y, n);
    for (i = 0; i < n; i++)
        assert_int_equal(ktest_bits32(y[i]), ktest_bits32(x[i]) ^ 0x80000000u);
    /* Abs clears the sign bit and nothing else (NaN payloads survive). */
    sm2c_rt_abs_f32(x, y, n);
    for (i = 0; i < n; i++)
        assert_int_equal(ktest_bits32(y[i]), ktest_bits32(x[i]) & 0x7fffffffu);
    /* TF 2.21's values written out: NaN payload and sign kept, -0 -> +0, Inf -> 6. */
    {
        const uint32_t in[6] = {0x7fc00001u, 0xffc00000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                0x40bfffffu};
        const uint32_t want_relu[6] = {0x7fc00001u, 0xffc00000u, 0, 0x7f800000u, 0, 0x40bfffffu};
        const uint32_t want_relu6[6] = {0x7fc00001u, 0xffc00000u, 0, 0x40c00000u, 0, 0x40bfffffu};
        float v[6];
        for (i = 0; i < 6; i++)
            v[i] = ktest_from_bits32(in[i]);
        sm2c_rt_relu_f32(v, v, 6); /* in place */
        for (i = 0; i < 6; i++)
            assert_int_equal(ktest_bits32(v[i]), want_relu[i]);
        for (i = 0; i < 6; i++)
            v[i] = ktest_from_bits32(in[i]);
        sm2c_rt_relu6_f32(v, v, 6);
        for (i = 0; i < 6; i++)
            assert_int_equal(ktest_bits32(v[i]), want_relu6[i]);
    }
    free(x);
    free(y);
}

static void test_square_sqrt(void **state)
{
    int32_t n, i;
    uint32_t worst = 0;
    float *x = sweep(&n, 1u << 13), *y = malloc((size_t)n * sizeof *y);
    (void)state;
    sm2c_rt_square_f32(x, y, n);
    for (i = 0; i < n; i++)
        worst |= ktest_check_ulp32((float)((double)x[i] * x[i]), y[i], 1, "square", i);
    sm2c_rt_sqrt_f32(x, y, n);
    for (i = 0; i < n; i++)
        worst |= ktest_check_ulp32((float)sqrt((double)x[i]), y[i], 1, "sqrt", i);
    assert_int_equal(worst, 0);
    free(x);
    free(y);
}

/* Transcendentals against double on the whole sweep; values whose double
** result overflows float must be Inf, those below FLT_MIN fall under atol. */
static void check_transcendental(unary_fn fn, double (*ref)(double), const char *name)
{
    int32_t n, i;
    float *x = sweep(&n, 1u << 12), *y = malloc((size_t)n * sizeof *y);
    sm2c_rt_copy(y, x, n * 4);
    fn(y, y, n); /* in place */
    for (i = 0; i < n; i++) {
        const double want = ref(x[i]);
        if (fabs(want) > FLT_MAX) {
            /* overflows float: Inf of the same sign, or the largest float
            ** when rounding stays within range */
            if (!(isinf(y[i]) && (y[i] > 0) == (want > 0)))
                ktest_check_close(want, y[i], ATOL, RTOL, name, i);
            continue;
        }
        ktest_check_close(want, y[i], ATOL, RTOL, name, i);
    }
    free(x);
    free(y);
}

static void test_exp_log_tanh_rsqrt_sigmoid(void **state)
{
    (void)state;
    check_transcendental(sm2c_rt_exp_f32, exp, "exp");
    check_transcendental(sm2c_rt_log_f32, log, "log");
    check_transcendental(sm2c_rt_tanh_f32, tanh, "tanh");
    check_transcendental(sm2c_rt_rsqrt_f32, ref_rsqrt, "rsqrt");
    check_transcendental(sm2c_rt_sigmoid_f32, ref_sigmoid, "sigmoid");
}

static void test_special_results(void **state)
{
    const float in[10] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -1.0f, 1e-45f, 100.0f, -100.0f,
                          -1e30f};
    float y[10];
    int i;
    (void)state;
    sm2c_rt_rsqrt_f32(in, y, 6);
    assert_true(y[0] == INFINITY && y[1] == -INFINITY && y[2] == 0.0f && isnan(y[3]) &&
                isnan(y[4]) && isnan(y[5]));
    sm2c_rt_log_f32(in, y, 7);
    assert_true(y[0] == -INFINITY && y[1] == -INFINITY && y[2] == INFINITY && isnan(y[3]) &&
                isnan(y[4]) && isnan(y[5]) && isfinite(y[6]));
    sm2c_rt_exp_f32(in, y, 10);
    assert_true(y[0] == 1.0f && y[2] == INFINITY && y[3] == 0.0f && isnan(y[4]) &&
                y[7] == INFINITY && y[8] > 0.0f && y[8] < FLT_MIN && y[9] == 0.0f);
    sm2c_rt_tanh_f32(in, y, 10);
    assert_true(y[2] == 1.0f && y[3] == -1.0f && isnan(y[4]) && y[7] == 1.0f && y[8] == -1.0f);
    assert_int_equal(ktest_bits32(y[1]), 0x80000000u);
    /* Sigmoid: exact limits, NaN through, and TF 2.21's values. */
    {
        const float sx[9] = {NAN, INFINITY, -INFINITY, 100.0f, -200.0f, 0.0f, 17.0f, 16.0f, -87.0f};
        float sy[9];
        sm2c_rt_sigmoid_f32(sx, sy, 9);
        assert_true(isnan(sy[0]));
        assert_true(sy[1] == 1.0f && sy[2] == 0.0f && sy[3] == 1.0f && sy[4] == 0.0f);
        assert_true(sy[5] == 0.5f);
        assert_true(sy[6] == 1.0f);                      /* TF: 1.0 */
        assert_true(sy[7] == 0.99999988079071044921875f); /* TF: 0.9999998807907104 */
        ktest_check_close(1.6458111734947008e-38, sy[8], ATOL, RTOL, "sigmoid(-87)", 0);
    }
    /* sigmoid stays in [0, 1] and is monotonic over a sweep */
    {
        float prev = 0.0f;
        for (i = -2000; i <= 2000; i++) {
            float v = (float)i * 0.01f, s;
            sm2c_rt_sigmoid_f32(&v, &s, 1);
            assert_true(s >= 0.0f && s <= 1.0f && s >= prev);
            prev = s;
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relu_relu6_neg),
        cmocka_unit_test(test_square_sqrt),
        cmocka_unit_test(test_exp_log_tanh_rsqrt_sigmoid),
        cmocka_unit_test(test_special_results),
    };
    return cmocka_run_group_tests_name("unary", tests, NULL, NULL);
}
