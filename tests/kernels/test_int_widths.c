/* test_int_widths.c: the integer widths of issue 33's dtype audit (unary_int.c,
** int_pow.c, reduce_int_widths.c, binary_i8.c ... binary_u64.c, int_div.c's and
** compare.c's narrow and unsigned instantiations) against exact references: every int8 and uint8
** value (and pair) against arithmetic in int64 reduced modulo 2^8, which is
** TensorFlow's two's complement wrapping; the limits of the wider types. */
#include "sm2c_test.h"
#include "sm2c_rt.h"

/* v modulo 2^8 as an int8 (two's complement), without implementation-defined conversion. */
static int8_t wrap8(int64_t v)
{
    int64_t m = ((v % 256) + 256) % 256;
    return (int8_t)(m < 128 ? m : m - 256);
}

static int64_t floor_div_ref(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static void test_unary_int8_every_value(void **state)
{
    int8_t x[256], y[256];
    int i;
    (void)state;
    for (i = 0; i < 256; i++)
        x[i] = (int8_t)(i - 128);
    sm2c_rt_neg_i8(x, y, 256);
    for (i = 0; i < 256; i++)
        assert_int_equal(y[i], wrap8(-(int64_t)x[i]));
    sm2c_rt_abs_i8(x, y, 256);
    for (i = 0; i < 256; i++)
        assert_int_equal(y[i], wrap8(x[i] < 0 ? -(int64_t)x[i] : x[i]));
    sm2c_rt_sign_i8(x, y, 256);
    for (i = 0; i < 256; i++)
        assert_int_equal(y[i], x[i] > 0 ? 1 : x[i] < 0 ? -1 : 0);
    sm2c_rt_square_i8(x, y, 256);
    for (i = 0; i < 256; i++)
        assert_int_equal(y[i], wrap8((int64_t)x[i] * x[i]));
    sm2c_rt_neg_i8(x, x, 256);     /* in place */
    assert_int_equal(x[0], INT8_MIN);
}

static void test_unary_limits(void **state)
{
    const int32_t x32[4] = {INT32_MIN, INT32_MAX, -3, 0};
    const int64_t x64[3] = {INT64_MIN, INT64_MAX, -65536};
    const int16_t x16[2] = {INT16_MIN, 300};
    const uint64_t u64[2] = {UINT64_MAX, UINT64_C(1) << 32};
    const uint16_t u16[2] = {UINT16_MAX, 256};
    int32_t y32[4];
    int64_t y64[3];
    int16_t y16[2];
    uint64_t v64[2];
    uint16_t v16[2];
    (void)state;
    sm2c_rt_neg_i32(x32, y32, 4);
    assert_true(y32[0] == INT32_MIN && y32[1] == -INT32_MAX && y32[2] == 3 && y32[3] == 0);
    sm2c_rt_abs_i32(x32, y32, 4);
    assert_true(y32[0] == INT32_MIN && y32[1] == INT32_MAX && y32[2] == 3);
    sm2c_rt_square_i32(x32, y32, 4);
    assert_true(y32[0] == 0 && y32[1] == 1 && y32[2] == 9);
    sm2c_rt_neg_i64(x64, y64, 3);
    assert_true(y64[0] == INT64_MIN && y64[1] == -INT64_MAX && y64[2] == 65536);
    sm2c_rt_square_i64(x64, y64, 3);
    assert_true(y64[0] == 0 && y64[1] == 1 && y64[2] == INT64_C(4294967296));
    sm2c_rt_sign_i64(x64, y64, 3);
    assert_true(y64[0] == -1 && y64[1] == 1 && y64[2] == -1);
    sm2c_rt_abs_i16(x16, y16, 2);
    assert_true(y16[0] == INT16_MIN && y16[1] == 300);
    sm2c_rt_square_i16(x16, y16, 2);
    assert_true(y16[0] == 0 && y16[1] == (int16_t)24464);  /* 90000 - 65536 */
    sm2c_rt_square_u64(u64, v64, 2);
    assert_true(v64[0] == 1 && v64[1] == 0);
    sm2c_rt_square_u16(u16, v16, 2);   /* 65535^2 overflows int: computed unsigned */
    assert_true(v16[0] == 1 && v16[1] == 0);
}

/* Every int8 pair: add, sub, mul, maximum, minimum, floor and truncating division. */
static void test_binary_int8_every_pair(void **state)
{
    enum { N = 256 };
    static int8_t a[N], b[N], y[N * N];
    static uint8_t c[N * N];
    const int32_t dims[2] = {N, N}, sa[2] = {0, 1}, sb[2] = {1, 0};
    int i, j;
    (void)state;
    for (i = 0; i < N; i++)
        a[i] = b[i] = (int8_t)(i - 128);
    sm2c_rt_add_i8(a, b, y, 2, dims, sa, sb);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], wrap8((int64_t)a[j] + b[i]));
    sm2c_rt_sub_i8(a, b, y, 2, dims, sa, sb);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], wrap8((int64_t)a[j] - b[i]));
    sm2c_rt_mul_i8(a, b, y, 2, dims, sa, sb);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], wrap8((int64_t)a[j] * b[i]));
    sm2c_rt_maximum_i8(a, b, y, 2, dims, sa, sb);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], a[j] > b[i] ? a[j] : b[i]);
    sm2c_rt_less_i8(a, b, c, 2, dims, sa, sb);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(c[i * N + j], a[j] < b[i]);
    b[128] = 1;     /* no zero divisor: b runs over -128..127 with 1 twice */
    assert_int_equal(sm2c_rt_floor_div_i8(a, b, y, 2, dims, sa, sb), SM2C_RT_OK);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], wrap8(floor_div_ref(a[j], b[i])));
    assert_int_equal(sm2c_rt_floor_mod_i8(a, b, y, 2, dims, sa, sb), SM2C_RT_OK);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], wrap8(a[j] - floor_div_ref(a[j], b[i]) * b[i]));
    assert_int_equal(sm2c_rt_truncate_div_i8(a, b, y, 2, dims, sa, sb), SM2C_RT_OK);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], wrap8((int64_t)a[j] / b[i]));
    b[128] = 0;
    assert_int_equal(sm2c_rt_truncate_mod_i8(a, b, y, 2, dims, sa, sb), SM2C_RT_ERR_VALUE);
}

/* Every uint8 pair: wrapping arithmetic, division and comparisons. */
static void test_binary_uint8_every_pair(void **state)
{
    enum { N = 256 };
    static uint8_t a[N], b[N], y[N * N], c[N * N];
    const int32_t dims[2] = {N, N}, sa[2] = {0, 1}, sb[2] = {1, 0};
    int i, j;
    (void)state;
    for (i = 0; i < N; i++)
        a[i] = b[i] = (uint8_t)i;
    sm2c_rt_sub_u8(a, b, y, 2, dims, sa, sb);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], (a[j] - b[i] + 256) % 256);
    sm2c_rt_mul_u8(a, b, y, 2, dims, sa, sb);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], (a[j] * b[i]) % 256);
    sm2c_rt_greater_equal_u8(a, b, c, 2, dims, sa, sb);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(c[i * N + j], a[j] >= b[i]);
    b[0] = 1;
    assert_int_equal(sm2c_rt_floor_mod_u8(a, b, y, 2, dims, sa, sb), SM2C_RT_OK);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            assert_int_equal(y[i * N + j], a[j] % b[i]);
}

static void test_binary_wide_limits(void **state)
{
    const uint64_t a[3] = {UINT64_MAX, 0, UINT64_MAX}, b[3] = {2, 1, UINT64_MAX};
    const uint32_t a32[2] = {UINT32_MAX, 7}, b32[2] = {UINT32_MAX, 0};
    const uint16_t a16[1] = {UINT16_MAX}, b16[1] = {UINT16_MAX};
    const int16_t i16a[2] = {INT16_MIN, INT16_MIN}, i16b[2] = {-1, 2};
    const int32_t d3[1] = {3}, d2[1] = {2}, d1[1] = {1}, s1[1] = {1};
    uint64_t y[3];
    uint32_t y32[2];
    uint16_t y16[1];
    int16_t z16[2];
    (void)state;
    sm2c_rt_mul_u64(a, b, y, 1, d3, s1, s1);
    assert_true(y[0] == UINT64_MAX - 1 && y[1] == 0 && y[2] == 1);
    sm2c_rt_sub_u64(b, a, y, 1, d3, s1, s1);
    assert_true(y[0] == 3 && y[1] == 1 && y[2] == 0);
    assert_int_equal(sm2c_rt_floor_div_u64(a, b, y, 1, d3, s1, s1), SM2C_RT_OK);
    assert_true(y[0] == UINT64_MAX / 2 && y[1] == 0 && y[2] == 1);
    sm2c_rt_add_u32(a32, b32, y32, 1, d2, s1, s1);
    assert_true(y32[0] == UINT32_MAX - 1 && y32[1] == 7);
    assert_int_equal(sm2c_rt_truncate_div_u32(a32, b32, y32, 1, d2, s1, s1), SM2C_RT_ERR_VALUE);
    sm2c_rt_mul_u16(a16, b16, y16, 1, d1, s1, s1);  /* 65535^2 overflows int: computed unsigned */
    assert_int_equal(y16[0], 1);
    assert_int_equal(sm2c_rt_floor_div_i16(i16a, i16b, z16, 1, d2, s1, s1), SM2C_RT_OK);
    assert_true(z16[0] == INT16_MIN && z16[1] == INT16_MIN / 2);
}

/* Reductions (reduce_int_widths.c) against sums and products in int64. */
static void test_reduce_widths(void **state)
{
    const int8_t x[6] = {INT8_MIN, INT8_MIN, -1, 100, 100, 7};   /* [outer 2, reduce 3, inner 1] */
    const uint64_t u[4] = {UINT64_MAX, 3, UINT64_MAX, UINT64_MAX};
    const uint16_t h[3] = {UINT16_MAX, UINT16_MAX, UINT16_MAX};
    int8_t y[2];
    uint64_t v[2];
    uint16_t g[1];
    (void)state;
    sm2c_rt_reduce_sum_i8(x, y, 2, 3, 1);
    assert_true(y[0] == wrap8(-257) && y[1] == wrap8(207));
    sm2c_rt_reduce_prod_i8(x, y, 2, 3, 1);
    assert_true(y[0] == wrap8(-16384) && y[1] == wrap8(70000));
    sm2c_rt_reduce_mean_i8(x, y, 2, 3, 1);     /* summed in int64: no wrap */
    assert_true(y[0] == -85 && y[1] == 69);
    sm2c_rt_reduce_max_i8(x, y, 2, 3, 1);
    assert_true(y[0] == -1 && y[1] == 100);
    sm2c_rt_reduce_min_i8(x, y, 1, 0, 2);      /* an empty axis: the type's highest */
    assert_true(y[0] == INT8_MAX && y[1] == INT8_MAX);
    sm2c_rt_reduce_sum_u64(u, v, 2, 2, 1);
    assert_true(v[0] == 2 && v[1] == UINT64_MAX - 1);
    sm2c_rt_reduce_mean_u64(u, v, 1, 2, 2);    /* the uint64 sum wraps, as TensorFlow's */
    assert_true(v[0] == (UINT64_MAX - 1) / 2 && v[1] == 1);
    sm2c_rt_reduce_prod_u16(h, g, 1, 3, 1);    /* 65535^3 mod 2^16 = 65535 */
    assert_int_equal(g[0], UINT16_MAX);
    sm2c_rt_reduce_mean_u16(h, g, 1, 3, 1);
    assert_int_equal(g[0], UINT16_MAX);
}

/* Shifts clamp their count to [0, bits - 1]; RightShift is arithmetic on signed types. */
static void test_bits_widths(void **state)
{
    const int8_t a[4] = {INT8_MIN, -1, 0x55, 1}, n[4] = {-3, 9, 2, 7};
    const uint16_t u[3] = {UINT16_MAX, 0x8001, 1}, c[3] = {15, 40, 3};
    const int32_t d4[1] = {4}, d3[1] = {3}, s1[1] = {1};
    int8_t y[4];
    uint16_t v[3];
    (void)state;
    sm2c_rt_left_shift_i8(a, n, y, 1, d4, s1, s1);
    assert_true(y[0] == INT8_MIN && y[1] == INT8_MIN && y[2] == wrap8(0x55 << 2) && y[3] == INT8_MIN);
    sm2c_rt_right_shift_i8(a, n, y, 1, d4, s1, s1);
    assert_true(y[0] == INT8_MIN && y[1] == -1 && y[2] == 0x15 && y[3] == 0);
    sm2c_rt_invert_i8(a, y, 4);
    assert_true(y[0] == INT8_MAX && y[1] == 0 && y[2] == wrap8(~0x55) && y[3] == -2);
    sm2c_rt_left_shift_u16(u, c, v, 1, d3, s1, s1);   /* 65535 << 15 stays within unsigned */
    assert_true(v[0] == 0x8000 && v[1] == 0x8000 && v[2] == 8);
    sm2c_rt_right_shift_u16(u, c, v, 1, d3, s1, s1);  /* logical */
    assert_true(v[0] == 1 && v[1] == 1 && v[2] == 0);
    sm2c_rt_invert_u16(u, v, 3);
    assert_true(v[0] == 0 && v[1] == 0x7FFE && v[2] == 0xFFFE);
}

/* Relu, Relu6 and EuclideanNorm's root on every int8 and uint8 value, and
** the root of a negative (wrapped) sum as TensorFlow gives it on x86-64. */
static void test_activations_and_root(void **state)
{
    int8_t x[256], y[256];
    uint8_t u[256], v[256];
    const int32_t w[3] = {-5, 0, 1000000};
    const int64_t q[3] = {INT64_MIN, INT64_C(9007199254740993), INT64_MAX};
    const uint64_t big[1] = {UINT64_MAX};
    int32_t wy[3];
    int64_t qy[3];
    uint64_t by[1];
    int i;
    (void)state;
    for (i = 0; i < 256; i++)
        x[i] = (int8_t)(i - 128), u[i] = (uint8_t)i;
    sm2c_rt_relu_i8(x, y, 256);
    for (i = 0; i < 256; i++)
        assert_int_equal(y[i], x[i] > 0 ? x[i] : 0);
    sm2c_rt_relu6_i8(x, y, 256);
    for (i = 0; i < 256; i++)
        assert_int_equal(y[i], x[i] < 0 ? 0 : x[i] > 6 ? 6 : x[i]);
    sm2c_rt_relu6_u8(u, v, 256);
    for (i = 0; i < 256; i++)
        assert_int_equal(v[i], u[i] > 6 ? 6 : u[i]);
    sm2c_rt_sqrt_i8(x, y, 256);
    for (i = 0; i < 256; i++) {
        int r = 0;
        while ((r + 1) * (r + 1) <= x[i])
            r++;
        assert_int_equal(y[i], r);   /* floor of the root; 0 for a negative sum */
    }
    sm2c_rt_sqrt_i32(w, wy, 3);
    assert_true(wy[0] == INT32_MIN && wy[1] == 0 && wy[2] == 1000);
    sm2c_rt_sqrt_i64(q, qy, 3);      /* through double, as TensorFlow */
    assert_true(qy[0] == INT64_MIN && qy[1] == 94906265 && qy[2] == INT64_C(3037000499));
    sm2c_rt_sqrt_u64(big, by, 1);    /* 2^64 - 1 rounds to 2^64 in double */
    assert_true(by[0] == UINT64_C(4294967296));
}

/* Integer Pow: every int8 base to exponents 0..9 and 127 against wrapped
** products; a negative exponent is an error. */
static void test_pow(void **state)
{
    int8_t a[256], e[256], y[256];
    const int64_t b64[3] = {3, INT64_MIN, -1}, e64[3] = {40, 2, INT64_MAX};
    const int16_t h[2] = {2, 5}, hn[2] = {3, -1};
    const int32_t d256[1] = {256}, d3[1] = {3}, d2[1] = {2}, s1[1] = {1};
    int64_t y64[3];
    int16_t y16[2];
    int i, k;
    (void)state;
    for (k = 0; k <= 10; k++) {
        const int p = k == 10 ? 127 : k;
        for (i = 0; i < 256; i++)
            a[i] = (int8_t)(i - 128), e[i] = (int8_t)p;
        assert_int_equal(sm2c_rt_pow_i8(a, e, y, 1, d256, s1, s1), SM2C_RT_OK);
        for (i = 0; i < 256; i++) {
            int64_t r = 1;
            int j;
            for (j = 0; j < p; j++)
                r = wrap8(r * a[i]);
            assert_int_equal(y[i], r);
        }
    }
    assert_int_equal(sm2c_rt_pow_i64(b64, e64, y64, 1, d3, s1, s1), SM2C_RT_OK);
    assert_true((uint64_t)y64[0] == UINT64_C(12157665459056928801) && y64[1] == 0 && y64[2] == -1);
    assert_int_equal(sm2c_rt_pow_i16(h, hn, y16, 1, d2, s1, s1), SM2C_RT_ERR_VALUE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unary_int8_every_value),
        cmocka_unit_test(test_unary_limits),
        cmocka_unit_test(test_binary_int8_every_pair),
        cmocka_unit_test(test_binary_uint8_every_pair),
        cmocka_unit_test(test_binary_wide_limits),
        cmocka_unit_test(test_reduce_widths),
        cmocka_unit_test(test_bits_widths),
        cmocka_unit_test(test_activations_and_root),
        cmocka_unit_test(test_pow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
