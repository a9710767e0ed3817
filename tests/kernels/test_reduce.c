/* test_reduce.c: reduce_<dtype>.c against double / exact references.  Float
** Sum/Mean within rtol = atol = max(1e-5, 2*K*eps) (docs/reliability.md section 9);
** Max/Min bit-exact with TF's NaN propagation; integers exact, with TF's
** wraparound for Sum and int64-accumulated Mean for int32. */
#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"

static void test_f32_random(void **state)
{
    static const int32_t shapes[][3] = {{1, 1, 1}, {3, 7, 1}, {2, 5, 3}, {1, 5000, 1},
                                        {4, 257, 1}, {2, 300, 17}, {5, 1, 4}, {1, 100000, 1},
                                        {3, 64, 70}, {7, 9, 2}};
    ktest_rng r = {2024};
    size_t s;
    (void)state;
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int32_t outer = shapes[s][0], reduce = shapes[s][1], inner = shapes[s][2];
        const long n = (long)outer * reduce * inner;
        const double tol = fmax(1e-5, 2.0 * reduce * FLT_EPSILON);
        float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)(outer * inner) * sizeof *y);
        float *ymax = malloc((size_t)(outer * inner) * sizeof *y);
        float *ymin = malloc((size_t)(outer * inner) * sizeof *y);
        long i;
        int32_t o, k, j;
        for (i = 0; i < n; i++)
            x[i] = ktest_f32(&r, -1.0f, 1.0f) + (s % 2 ? 0.5f : 0.0f);
        sm2c_rt_reduce_max_f32(x, ymax, outer, reduce, inner);
        sm2c_rt_reduce_min_f32(x, ymin, outer, reduce, inner);
        for (o = 0; o < outer; o++)
            for (j = 0; j < inner; j++) {
                float mx = -INFINITY, mn = INFINITY;
                for (k = 0; k < reduce; k++) {
                    const float v = x[((long)o * reduce + k) * inner + j];
                    mx = v > mx ? v : mx;
                    mn = v < mn ? v : mn;
                }
                ktest_check_bits32(mx, ymax[o * inner + j], "max", o * inner + j);
                ktest_check_bits32(mn, ymin[o * inner + j], "min", o * inner + j);
            }
        for (k = 0; k < 2; k++) {
            if (k == 0)
                sm2c_rt_reduce_sum_f32(x, y, outer, reduce, inner);
            else
                sm2c_rt_reduce_mean_f32(x, y, outer, reduce, inner);
            for (o = 0; o < outer; o++)
                for (j = 0; j < inner; j++) {
                    double want = 0, scale = 0;
                    int32_t q;
                    for (q = 0; q < reduce; q++) {
                        want += x[((long)o * reduce + q) * inner + j];
                        scale += fabs(x[((long)o * reduce + q) * inner + j]);
                    }
                    if (k == 1) {
                        want /= reduce;
                        scale /= reduce;
                    }
                    /* tolerance relative to the sum of magnitudes, since the
                    ** sum itself may cancel to near zero */
                    ktest_check_close(want, y[o * inner + j], tol * scale, tol,
                                      k ? "mean" : "sum", o * inner + j);
                }
        }
        free(x);
        free(y);
        free(ymax);
        free(ymin);
    }
}

static void test_f32_special(void **state)
{
    const float nan = ktest_from_bits32(0x7fc00000u);
    /* TF 2.21: reduce_max([[1,nan,3],[nan,1,2],[1,2,nan],[-inf x3]], axis 1) */
    const float x[12] = {1, nan, 3, nan, 1, 2, 1, 2, nan, -INFINITY, -INFINITY, -INFINITY};
    float y[4], big[41];
    int i;
    (void)state;
    sm2c_rt_reduce_max_f32(x, y, 4, 3, 1);
    assert_true(isnan(y[0]) && isnan(y[1]) && isnan(y[2]) && y[3] == -INFINITY);
    sm2c_rt_reduce_min_f32(x, y, 4, 3, 1);
    assert_true(isnan(y[0]) && isnan(y[1]) && isnan(y[2]) && y[3] == -INFINITY);
    /* NaN along a strided (inner > 1) reduction, too */
    sm2c_rt_reduce_max_f32(x, y, 1, 4, 3);
    assert_true(isnan(y[0]) && isnan(y[1]) && isnan(y[2]));
    for (i = 0; i < 41; i++)
        big[i] = i == 20 ? nan : (float)i;
    sm2c_rt_reduce_max_f32(big, y, 1, 41, 1);
    assert_true(isnan(y[0]));
    sm2c_rt_reduce_sum_f32(big, y, 1, 41, 1);
    assert_true(isnan(y[0]));
    /* Inf in sums */
    big[20] = INFINITY;
    sm2c_rt_reduce_mean_f32(big, y, 1, 41, 1);
    assert_true(y[0] == INFINITY);
    big[21] = -INFINITY;
    sm2c_rt_reduce_sum_f32(big, y, 1, 41, 1);
    assert_true(isnan(y[0]));
    /* reduce == 0: sum 0, mean NaN, max -Inf, min +Inf (TF 2.21) */
    sm2c_rt_reduce_sum_f32(x, y, 2, 0, 2);
    assert_true(y[0] == 0.0f && y[3] == 0.0f && !signbit(y[0]));
    sm2c_rt_reduce_mean_f32(x, y, 2, 0, 2);
    assert_true(isnan(y[0]) && isnan(y[3]));
    sm2c_rt_reduce_max_f32(x, y, 2, 0, 2);
    assert_true(y[0] == -INFINITY && y[3] == -INFINITY);
    sm2c_rt_reduce_min_f32(x, y, 2, 0, 2);
    assert_true(y[0] == INFINITY && y[3] == INFINITY);
    /* outer == 0 or inner == 0: nothing written */
    y[0] = 5.0f;
    sm2c_rt_reduce_sum_f32(x, y, 0, 3, 1);
    sm2c_rt_reduce_mean_f32(x, y, 3, 3, 0);
    assert_true(y[0] == 5.0f);
}

static void test_i32(void **state)
{
    /* TF 2.21: reduce_mean([[-7,0],[1,1],[3,-7]], axis 1) = [-3, 1, -2] */
    const int32_t a[6] = {-7, 0, 1, 1, 3, -7};
    const int32_t big[2] = {INT32_MAX, INT32_MAX}, wrap[2] = {INT32_MAX, 1};
    int32_t y[6];
    ktest_rng r = {5};
    int iter;
    (void)state;
    sm2c_rt_reduce_mean_i32(a, y, 3, 2, 1);
    assert_true(y[0] == -3 && y[1] == 1 && y[2] == -2);
    sm2c_rt_reduce_mean_i32(big, y, 1, 2, 1);
    assert_int_equal(y[0], INT32_MAX); /* TF: no overflow (int64 sum) */
    sm2c_rt_reduce_sum_i32(wrap, y, 1, 2, 1);
    assert_int_equal(y[0], INT32_MIN); /* TF: wraps */
    sm2c_rt_reduce_sum_i32(a, y, 2, 0, 3);
    assert_true(y[0] == 0 && y[5] == 0);
    sm2c_rt_reduce_mean_i32(a, y, 2, 0, 3);
    assert_true(y[0] == 0 && y[5] == 0);
    for (iter = 0; iter < 200; iter++) {
        const int32_t outer = ktest_int(&r, 1, 4), reduce = ktest_int(&r, 1, 40),
                      inner = ktest_int(&r, 1, 150);
        static int32_t x[4 * 40 * 150], ys[4 * 150], ym[4 * 150];
        static int64_t x6[4 * 40 * 150], ys6[4 * 150], ym6[4 * 150];
        int32_t o, j, k;
        for (k = 0; k < outer * reduce * inner; k++) {
            x[k] = (int32_t)(uint32_t)ktest_next(&r) >> ktest_int(&r, 0, 31);
            x6[k] = (int64_t)(ktest_next(&r) >> 1) * (k % 2 ? -1 : 1) >> ktest_int(&r, 0, 62);
        }
        sm2c_rt_reduce_sum_i32(x, ys, outer, reduce, inner);
        sm2c_rt_reduce_mean_i32(x, ym, outer, reduce, inner);
        sm2c_rt_reduce_sum_i64(x6, ys6, outer, reduce, inner);
        sm2c_rt_reduce_mean_i64(x6, ym6, outer, reduce, inner);
        for (o = 0; o < outer; o++)
            for (j = 0; j < inner; j++) {
                int64_t s = 0;
                uint64_t s6 = 0;
                uint32_t u;
                int64_t w6;
                for (k = 0; k < reduce; k++) {
                    s += x[(o * reduce + k) * inner + j];
                    s6 += (uint64_t)x6[(o * reduce + k) * inner + j];
                }
                u = (uint32_t)((uint64_t)s & 0xffffffffu);
                assert_int_equal(ys[o * inner + j],
                                 u >= 0x80000000u ? (int32_t)(u - 0x80000000u) - INT32_MAX - 1 : (int32_t)u);
                assert_int_equal(ym[o * inner + j], (int32_t)(s / reduce));
                w6 = s6 >= 0x8000000000000000ull ? (int64_t)(s6 - 0x8000000000000000ull) - INT64_MAX - 1
                                                 : (int64_t)s6;
                assert_true(ys6[o * inner + j] == w6);
                assert_true(ym6[o * inner + j] == w6 / reduce);
            }
    }
}

static void test_i64_wrap(void **state)
{
    /* TF 2.21: reduce_mean([2^63-1, 2^63-1, 4]) = 0 (the sum wraps to 2) */
    const int64_t x[3] = {INT64_MAX, INT64_MAX, 4};
    const int64_t m[4] = {-7, 2, 0, 0};
    int64_t y[2];
    (void)state;
    sm2c_rt_reduce_mean_i64(x, y, 1, 3, 1);
    assert_true(y[0] == 0);
    sm2c_rt_reduce_sum_i64(x, y, 1, 3, 1);
    assert_true(y[0] == 2);
    sm2c_rt_reduce_mean_i64(m, y, 2, 2, 1);
    assert_true(y[0] == -2 && y[1] == 0); /* toward zero */
    sm2c_rt_reduce_mean_i64(m, y, 1, 0, 2);
    assert_true(y[0] == 0 && y[1] == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_random),
        cmocka_unit_test(test_f32_special),
        cmocka_unit_test(test_i32),
        cmocka_unit_test(test_i64_wrap),
    };
    return cmocka_run_group_tests_name("reduce", tests, NULL, NULL);
}
