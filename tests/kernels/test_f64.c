/* test_f64.c: the float64 kernels of issue 33's dtype audit (unary_f64.c's
** Sigmoid, Softplus, LeakyRelu, Lgamma and Erfinv; gamma_f64.c;
** binary_math_f64.c; reduce_f64.c; l2_loss.c, segment.c, scatter_nd.c and
** top_k.c in double) and ArgMax/ArgMin on bool, against references in double
** (libm, identities, known values). */
#include "sm2c_test.h"
#include "sm2c_rt.h"

#include <float.h>
#include <math.h>

static void assert_close(double got, double want, double rtol)
{
    if (isnan(want)) {
        if (!isnan(got))
            fail_msg("want NaN, got %.17g", got);
        return;
    }
    if (isinf(want)) {
        if (got != want)
            fail_msg("want %g, got %.17g", want, got);
        return;
    }
    if (!(fabs(got - want) <= rtol * fabs(want) + 1e-300))
        fail_msg("want %.17g, got %.17g", want, got);
}

static void test_unary(void **state)
{
    const double x[] = { -800.0, -40.0, -1.5, 0.0, 0.5, 2.0, 40.0, 800.0 };
    double y[8];
    int i;
    (void)state;
    sm2c_rt_sigmoid_f64(x, y, 8);
    for (i = 0; i < 8; i++)
        assert_close(y[i], 1.0 / (1.0 + exp(-x[i])), 1e-15);
    sm2c_rt_softplus_f64(x, y, 8);
    assert_close(y[0], exp(-800.0), 0);
    assert_close(y[1], log1p(exp(-40.0)), 1e-15);
    assert_close(y[7], 800.0, 0);
    assert_close(y[4], log1p(exp(0.5)), 1e-15);
    sm2c_rt_leaky_relu_f64(x, y, 8, 0.2f);
    assert_close(y[2], -1.5 * (double)0.2f, 0);
    assert_close(y[5], 2.0, 0);
    sm2c_rt_lgamma_f64(x, y, 8);
    assert_close(y[5], 0.0, 0);
    assert_close(y[4], log(sqrt(3.14159265358979323846)), 1e-15);
}

static void test_digamma(void **state)
{
    const double x[] = { 1.0, 0.5, 10.0, -0.5, -2.0, 0.0, 1e20 };
    double y[7];
    (void)state;
    sm2c_rt_digamma_f64(x, y, 7);
    assert_close(y[0], -0.57721566490153286061, 1e-15);
    assert_close(y[1], -0.57721566490153286061 - 2.0 * log(2.0), 1e-15);
    assert_close(y[2], 2.2517525890667211076, 1e-15);
    assert_close(y[3], 0.03648997397857652056, 1e-14);
    assert_close(y[4], NAN, 0);
    assert_close(y[5], NAN, 0);
    assert_close(y[6], log(1e20), 1e-15);
}

static void test_erfinv(void **state)
{
    double x[41], y[41];
    int i;
    (void)state;
    for (i = 0; i < 37; i++)
        x[i] = -0.9999 + i * (2 * 0.9999 / 36);
    x[37] = 1.0, x[38] = -1.0, x[39] = 1.5, x[40] = 1.0 - 1e-15;
    sm2c_rt_erfinv_f64(x, y, 41);
    for (i = 0; i < 37; i++)
        if (fabs(erf(y[i]) - x[i]) > 1e-15 * fabs(x[i]) + 2.3e-16)    /* x / 2 + 1 / 2 rounds */
            fail_msg("erf(erfinv(%.17g)) = %.17g", x[i], erf(y[i]));
    assert_close(y[37], INFINITY, 0);
    assert_close(y[38], -INFINITY, 0);
    assert_close(y[39], NAN, 0);
    assert_close(erfc(y[40]), 2.0 - 2.0 * (0.5 * x[40] + 0.5), 1e-14);   /* TF's rounded input */
}

static void test_binary_math(void **state)
{
    const double a[] = { 7.5, -7.5, 7.5, -7.5, 0.0, 3.0 };
    const double b[] = { 2.0, 2.0, -2.0, -2.0, 0.0, 0.0 };
    const int32_t dims[] = { 6 }, s1[] = { 1 };
    double y[6];
    (void)state;
    sm2c_rt_floor_mod_f64(a, b, y, 1, dims, s1, s1);
    assert_close(y[0], 1.5, 0), assert_close(y[1], 0.5, 0), assert_close(y[2], -0.5, 0);
    assert_close(y[3], -1.5, 0);
    sm2c_rt_truncate_div_f64(a, b, y, 1, dims, s1, s1);
    assert_close(y[0], 3.0, 0), assert_close(y[1], -3.0, 0), assert_close(y[4], NAN, 0);
    assert_close(y[5], INFINITY, 0);
    sm2c_rt_floor_div_f64(a, b, y, 1, dims, s1, s1);
    assert_close(y[1], -4.0, 0);
    sm2c_rt_div_no_nan_f64(a, b, y, 1, dims, s1, s1);
    assert_close(y[4], 0.0, 0), assert_close(y[5], 0.0, 0);
    sm2c_rt_xlogy_f64(a, b, y, 1, dims, s1, s1);
    assert_close(y[0], 7.5 * log(2.0), 1e-15), assert_close(y[4], 0.0, 0);
    sm2c_rt_truncate_mod_f64(a, b, y, 1, dims, s1, s1);
    assert_close(y[1], -1.5, 0);
}

static void test_reduce(void **state)
{
    /* [2, 3, 2]: reduce the middle axis. */
    const double x[] = { 1, 2, 3, 4, 5, 6, -1, NAN, 0.5, 2, 4, -8 };
    double y[4];
    (void)state;
    sm2c_rt_reduce_sum_f64(x, y, 2, 3, 2);
    assert_close(y[0], 9, 0), assert_close(y[1], 12, 0), assert_close(y[3], NAN, 0);
    sm2c_rt_reduce_mean_f64(x, y, 2, 3, 2);
    assert_close(y[0], 3, 0), assert_close(y[2], 3.5 / 3, 1e-15);
    sm2c_rt_reduce_prod_f64(x, y, 2, 3, 2);
    assert_close(y[0], 15, 0), assert_close(y[2], -2, 0);
    sm2c_rt_reduce_max_f64(x, y, 2, 3, 2);
    assert_close(y[1], 6, 0), assert_close(y[2], 4, 0), assert_close(y[3], NAN, 0);
    sm2c_rt_reduce_min_f64(x, y, 2, 3, 2);
    assert_close(y[0], 1, 0), assert_close(y[2], -1, 0), assert_close(y[3], NAN, 0);
    sm2c_rt_reduce_mean_f64(x, y, 1, 0, 1);
    assert_close(y[0], NAN, 0);
    sm2c_rt_reduce_max_f64(x, y, 1, 0, 1);
    assert_close(y[0], -INFINITY, 0);
    sm2c_rt_l2_loss_f64(x, y, 6);
    assert_close(y[0], 45.5, 0);
}

static void test_movement(void **state)
{
    const double x[] = { 1, 2, 3, 4, 5, 6 };
    const int32_t ids[] = { 1, -1, 1 }, idx[] = { 1, 0, 1 }, sdims[] = { 3 };
    const double v[] = { 0.5, 2.0, 2.0, -1.0 };
    const uint8_t m[] = { 0, 1, 1, 0, 0, 0 };
    double y[6];
    int32_t counts[3], ind[2], arg[2];
    (void)state;
    assert_int_equal(sm2c_rt_segment_max_f64_i32(x, ids, y, 3, 2, 3, 0, counts), SM2C_RT_OK);
    assert_close(y[0], -DBL_MAX, 0), assert_close(y[2], 5, 0), assert_close(y[3], 6, 0);
    assert_int_equal(sm2c_rt_segment_mean_f64_i32(x, idx, y, 3, 2, 2, 1, counts), SM2C_RT_OK);
    assert_close(y[0], 3, 0), assert_close(y[2], 3, 0), assert_close(y[3], 4, 0);
    assert_int_equal(sm2c_rt_scatter_nd_f64_i32(idx, x, y, 3, 1, sdims, 1), SM2C_RT_OK);
    assert_close(y[0], 2, 0), assert_close(y[1], 4, 0), assert_close(y[2], 0, 0);
    sm2c_rt_top_k_f64(v, y, ind, 1, 4, 2);
    assert_close(y[0], 2.0, 0), assert_int_equal(ind[0], 1), assert_int_equal(ind[1], 2);
    sm2c_rt_arg_max_b_i32(m, arg, 2, 3, 1);
    assert_int_equal(arg[0], 1), assert_int_equal(arg[1], 0);
    sm2c_rt_arg_min_b_i32(m, arg, 2, 3, 1);
    assert_int_equal(arg[0], 0), assert_int_equal(arg[1], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unary),       cmocka_unit_test(test_digamma),
        cmocka_unit_test(test_erfinv),      cmocka_unit_test(test_binary_math),
        cmocka_unit_test(test_reduce),      cmocka_unit_test(test_movement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
