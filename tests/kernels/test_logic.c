/* test_logic.c: the logic family's kernels (compare.c, select.c, clip.c,
** int_div.c, bits.c, gamma_f32.c, reduce_prod.c, reduce_bool.c,
** reduce_int_widths.c, arg_extremum.c, scan.c, l2_loss.c) against
** exact references: integer division against a 64-bit (128-bit for int64
** where needed) mathematical floor/truncation over every pair in a range,
** shifts against TensorFlow's clamped counts, and the measured TF 2.21
** behaviour on NaN, ties and INT_MIN / -1. */
#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"

static const int32_t d1[1] = {1}, s1[1] = {1};

static void test_compare_nan_and_broadcast(void **state)
{
    const float a[4] = {NAN, 1.0f, -0.0f, 2.0f}, b[1] = {NAN};
    const float c[4] = {NAN, 1.0f, 0.0f, 3.0f};
    const int32_t d4[1] = {4}, s0[1] = {0};
    uint8_t y[4];
    (void)state;
    sm2c_rt_equal_f32(a, b, y, 1, d4, s1, s0);
    assert_true(!y[0] && !y[1] && !y[2] && !y[3]);
    sm2c_rt_not_equal_f32(a, b, y, 1, d4, s1, s0);
    assert_true(y[0] && y[1] && y[2] && y[3]);
    sm2c_rt_equal_f32(a, c, y, 1, d4, s1, s1);
    assert_true(!y[0] && y[1] && y[2] && !y[3]); /* -0 == +0 */
    sm2c_rt_less_equal_f32(a, c, y, 1, d4, s1, s1);
    assert_true(!y[0] && y[1] && y[2] && y[3]);
    sm2c_rt_greater_f32(a, c, y, 1, d4, s1, s1);
    assert_true(!y[0] && !y[1] && !y[2] && !y[3]);
}

static void test_select_rows(void **state)
{
    /* cond [2] picks rows of [2, 3]: strides (1, 0). */
    const uint8_t cond[2] = {1, 0};
    const int32_t a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {-1, -2, -3, -4, -5, -6};
    const int32_t dims[2] = {2, 3}, sc[2] = {1, 0}, sab[2] = {3, 1};
    int32_t y[6];
    (void)state;
    sm2c_rt_select(cond, a, b, y, 4, 2, dims, sc, sab, sab);
    assert_true(y[0] == 1 && y[2] == 3 && y[3] == -4 && y[5] == -6);
}

static void test_clip_nan(void **state)
{
    const float x[4] = {NAN, 5.0f, -5.0f, 0.5f}, lo = -1.0f, hi = 2.0f, nan = NAN;
    float y[4];
    (void)state;
    sm2c_rt_clip_by_value_f32(x, &lo, &hi, y, 4, 0, 0);
    assert_true(isnan(y[0]) && y[1] == 2.0f && y[2] == -1.0f && y[3] == 0.5f);
    sm2c_rt_clip_by_value_f32(x, &nan, &hi, y, 4, 0, 0); /* a NaN bound is ignored */
    assert_true(isnan(y[0]) && y[1] == 2.0f && y[2] == -5.0f);
    sm2c_rt_clip_by_value_f32(x, &hi, &lo, y, 4, 0, 0); /* lo > hi gives lo */
    assert_true(y[1] == 2.0f && y[2] == 2.0f && y[3] == 2.0f);
}

static int64_t floor_div_ref(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Every pair in [-40, 40] x ([-40, 40] \ {0}), broadcast a row against a column. */
static void test_int_div_exhaustive(void **state)
{
    enum { N = 81 };
    int32_t a[N], b[N], y[N * N];
    const int32_t dims[2] = {N, N}, sa[2] = {0, 1}, sb[2] = {1, 0};
    int i, j;
    (void)state;
    for (i = 0; i < N; i++)
        a[i] = i - 40, b[i] = i - 40 == 0 ? 1 : i - 40;
    assert_int_equal(sm2c_rt_floor_div_i32(a, b, y, 2, dims, sa, sb), SM2C_RT_OK);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], floor_div_ref(a[j], b[i]));
    assert_int_equal(sm2c_rt_floor_mod_i32(a, b, y, 2, dims, sa, sb), SM2C_RT_OK);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], a[j] - floor_div_ref(a[j], b[i]) * b[i]);
    assert_int_equal(sm2c_rt_truncate_div_i32(a, b, y, 2, dims, sa, sb), SM2C_RT_OK);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], a[j] / b[i]);
    assert_int_equal(sm2c_rt_truncate_mod_i32(a, b, y, 2, dims, sa, sb), SM2C_RT_OK);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], a[j] % b[i]);
}

static void test_int_div_limits_and_zero(void **state)
{
    const int32_t a[4] = {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MAX};
    const int32_t b[4] = {-1, 3, INT32_MAX, INT32_MIN}, z[4] = {1, 2, 0, 4};
    const int64_t a6[2] = {INT64_MIN, INT64_MIN}, b6[2] = {-1, 2};
    const int32_t d4[1] = {4}, d2[1] = {2};
    int32_t y[4];
    int64_t y6[2];
    (void)state;
    assert_int_equal(sm2c_rt_floor_div_i32(a, b, y, 1, d4, s1, s1), SM2C_RT_OK);
    assert_true(y[0] == INT32_MIN && y[1] == -715827883 && y[2] == -2 && y[3] == -1);
    assert_int_equal(sm2c_rt_floor_mod_i32(a, b, y, 1, d4, s1, s1), SM2C_RT_OK);
    assert_true(y[0] == 0 && y[1] == 1 && y[2] == 2147483646 && y[3] == -1);
    assert_int_equal(sm2c_rt_truncate_div_i32(a, b, y, 1, d4, s1, s1), SM2C_RT_OK);
    assert_true(y[0] == INT32_MIN && y[1] == -715827882 && y[2] == -1 && y[3] == 0);
    assert_int_equal(sm2c_rt_truncate_mod_i32(a, z, y, 1, d4, s1, s1), SM2C_RT_ERR_VALUE);
    assert_int_equal(sm2c_rt_floor_div_i64(a6, b6, y6, 1, d2, s1, s1), SM2C_RT_OK);
    assert_true(y6[0] == INT64_MIN && y6[1] == INT64_MIN / 2);
    assert_int_equal(sm2c_rt_floor_mod_i32(a, z, y, 1, d1, s1, s1), SM2C_RT_OK);
}

static void test_shifts(void **state)
{
    /* Measured on TF 2.21: counts clamp to [0, 31]. */
    const int32_t x[8] = {1, -1, 5, -5, 7, 7, INT32_MIN, -7};
    const int32_t s[8] = {0, 1, 31, 32, 100, -100, -1, 2};
    const int32_t left[8] = {1, -2, INT32_MIN, INT32_MIN, INT32_MIN, 7, INT32_MIN, -28};
    const int32_t right[8] = {1, -1, 0, -1, 0, 7, INT32_MIN, -2};
    const int32_t d8[1] = {8};
    int32_t y[8];
    int i;
    (void)state;
    sm2c_rt_left_shift_i32(x, s, y, 1, d8, s1, s1);
    for (i = 0; i < 8; i++)
        assert_int_equal(y[i], left[i]);
    sm2c_rt_right_shift_i32(x, s, y, 1, d8, s1, s1);
    for (i = 0; i < 8; i++)
        assert_int_equal(y[i], right[i]);
    sm2c_rt_invert_i32(x, y, 8);
    assert_true(y[0] == -2 && y[6] == INT32_MAX);
}

static void test_arg_extremum(void **state)
{
    /* Rows of 4: ties, NaN, all NaN, all -Inf. */
    const float x[16] = {1, NAN, 3, 3, NAN, NAN, NAN, NAN, -INFINITY, -INFINITY, -INFINITY, -INFINITY,
                         NAN, INFINITY, INFINITY, 0};
    const int64_t want_max[4] = {2, 0, 0, 1}, want_min[4] = {0, 0, 0, 3};
    int64_t y[4];
    int32_t y32[4];
    int i;
    (void)state;
    sm2c_rt_arg_max_f32_i64(x, y, 4, 4, 1);
    for (i = 0; i < 4; i++)
        assert_int_equal(y[i], want_max[i]);
    sm2c_rt_arg_min_f32_i32(x, y32, 4, 4, 1);
    for (i = 0; i < 4; i++)
        assert_int_equal(y32[i], want_min[i]);
    sm2c_rt_arg_max_f32_i32(x, y32, 1, 4, 4); /* down the columns */
    assert_true(y32[0] == 0 && y32[1] == 3 && y32[2] == 3 && y32[3] == 0);
}

static void test_reduce_and_scan(void **state)
{
    const int32_t xi[6] = {65536, 65536, 3, 1, 2, 3};
    const uint8_t xb[6] = {1, 1, 0, 1, 1, 1};
    const float xf[4] = {1, 2, 3, 4};
    int32_t yi[6];
    uint8_t yb[3];
    float yf[4];
    (void)state;
    sm2c_rt_reduce_prod_i32(xi, yi, 2, 3, 1);
    assert_true(yi[0] == 0 && yi[1] == 6); /* 2^32 * 3 wraps to 0 */
    sm2c_rt_reduce_max_i32(xi, yi, 1, 0, 2);
    assert_true(yi[0] == INT32_MIN && yi[1] == INT32_MIN);
    sm2c_rt_reduce_all_b(xb, yb, 1, 2, 3);
    assert_true(yb[0] == 1 && yb[1] == 1 && yb[2] == 0);
    sm2c_rt_reduce_any_b(xb, yb, 3, 0, 1);
    assert_true(yb[0] == 0);
    sm2c_rt_cumsum_f32(xf, yf, 1, 4, 1, 1, 1); /* exclusive, reverse */
    assert_true(yf[0] == 9 && yf[1] == 7 && yf[2] == 4 && yf[3] == 0);
    sm2c_rt_cumprod_i32(xi + 3, yi, 1, 3, 1, 0, 0);
    assert_true(yi[0] == 1 && yi[1] == 2 && yi[2] == 6);
    sm2c_rt_l2_loss_f32(xf, yf, 4);
    assert_true(yf[0] == 15.0f);
}

/* Half-type scans and segment folds round each partial result to the type, as
** TensorFlow's: 2048 + 1 is 2048 again in float16 (256 + 1 in bfloat16). */
static void test_half_folds(void **state)
{
    const uint16_t h[3] = {0x6800, 0x3c00, 0x3c00}, b[3] = {0x4380, 0x3f80, 0x3f80};
    const uint16_t pair[2] = {0x3c00, 0x4000}; /* 1, 2 */
    const int32_t same[3] = {0, 0, 0}, ids[2] = {1, 1};
    uint16_t y[3];
    int32_t counts[3];
    (void)state;
    sm2c_rt_cumsum_f16(h, y, 1, 3, 1, 0, 0);
    assert_true(y[0] == 0x6800 && y[1] == 0x6800 && y[2] == 0x6800);
    sm2c_rt_cumsum_bf16(b, y, 1, 3, 1, 0, 0);
    assert_true(y[0] == 0x4380 && y[1] == 0x4380 && y[2] == 0x4380);
    sm2c_rt_cumprod_f16(pair, y, 1, 2, 1, 1, 0); /* exclusive: 1, 1 */
    assert_true(y[0] == 0x3c00 && y[1] == 0x3c00);
    assert_int_equal(sm2c_rt_segment_sum_f16_i32(h, same, y, 3, 1, 1, 1, counts), SM2C_RT_OK);
    assert_true(y[0] == 0x6800);
    assert_int_equal(sm2c_rt_segment_sum_bf16_i32(b, same, y, 3, 1, 1, 1, counts), SM2C_RT_OK);
    assert_true(y[0] == 0x4380);
    assert_int_equal(sm2c_rt_segment_max_f16_i32(pair, ids, y, 2, 1, 3, 0, counts), SM2C_RT_OK);
    assert_true(y[0] == 0xfbff && y[1] == 0x4000 && y[2] == 0xfbff); /* empty: the lowest finite */
    assert_int_equal(sm2c_rt_segment_min_bf16_i32(pair, ids, y, 2, 1, 2, 0, counts), SM2C_RT_OK);
    assert_true(y[0] == 0x7f7f && y[1] == 0x3c00);
    assert_int_equal(sm2c_rt_segment_mean_f16_i32(pair, ids, y, 2, 1, 2, 1, counts), SM2C_RT_OK);
    assert_true(y[0] == 0 && y[1] == 0x3e00); /* 1.5 */
}

static void test_digamma(void **state)
{
    const float x[6] = {1.0f, 0.5f, -2.5f, 0.0f, -1.0f, INFINITY};
    const double want[6] = {-0.5772156649015329, -1.9635100260214235, 1.1031566406452432, NAN, NAN,
                            INFINITY};
    float y[6];
    int i;
    (void)state;
    sm2c_rt_digamma_f32(x, y, 6);
    for (i = 0; i < 6; i++)
        ktest_check_close(want[i], y[i], 1e-6, 1e-5, "digamma", i);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_nan_and_broadcast),
        cmocka_unit_test(test_select_rows),
        cmocka_unit_test(test_clip_nan),
        cmocka_unit_test(test_int_div_exhaustive),
        cmocka_unit_test(test_int_div_limits_and_zero),
        cmocka_unit_test(test_shifts),
        cmocka_unit_test(test_arg_extremum),
        cmocka_unit_test(test_reduce_and_scan),
        cmocka_unit_test(test_half_folds),
        cmocka_unit_test(test_digamma),
    };
    return cmocka_run_group_tests_name("logic", tests, NULL, NULL);
}
