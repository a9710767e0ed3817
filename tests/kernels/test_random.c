/* test_random.c: the Philox stream and its distributions (random.c).
** Philox-4x32-10 against the Random123 known-answer vectors (TF's generator
** is that algorithm), TF's seed scrambling against values TensorFlow 2.21
** gave, the ranges of the distributions, the uniform_int error, and the
** stateful generator's 128-bit skip. */
#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"

/* The four raw uint32 of one Philox call on (key, counter), through the
** full-range int32 kernel (its output is the samples as they are). */
static void philox_call(const uint32_t *k, const uint32_t *c, uint32_t *out)
{
    const uint64_t key[1] = { k[0] | (uint64_t)k[1] << 32 };
    const uint64_t counter[2] = { c[0] | (uint64_t)c[1] << 32, c[2] | (uint64_t)c[3] << 32 };
    int32_t y[4];
    sm2c_rt_random_full_int_i32(key, counter, y, 4);
    memcpy(out, y, sizeof y);
}

static void test_philox_known_answers(void **state)
{
    static const struct {
        uint32_t ctr[4], key[2], want[4];
    } kat[] = {
        { { 0, 0, 0, 0 }, { 0, 0 }, { 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 } },
        { { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff }, { 0xffffffff, 0xffffffff },
          { 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd } },
        { { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344 }, { 0xa4093822, 0x299f31d0 },
          { 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 } },
    };
    (void)state;
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        uint32_t got[4];
        philox_call(kat[i].key, kat[i].ctr, got);
        assert_memory_equal(got, kat[i].want, sizeof got);
    }
}

/* tf.random.stateless_uniform([5], [1, 2]) and ..._uniform([5], [1, 2],
** minval=-3, maxval=10, dtype=tf.int32) in TensorFlow 2.21. */
static void test_seed_to_tf_values(void **state)
{
    const int32_t seed[2] = { 1, 2 }, lo = -3, hi = 10;
    static const float want_u[5] = { 0.844060421f, 0.192045331f, 0.996223211f, 0.160387397f, 0.27199018f };
    static const int32_t want_i[5] = { 7, -3, -2, -2, 6 };
    uint64_t key[1], counter[2];
    float u[5];
    int32_t v[5];
    (void)state;
    sm2c_rt_random_key_counter_i32(seed, key, counter);
    assert_int_equal(counter[0], 0);
    sm2c_rt_random_uniform_f32(key, counter, u, 5);
    assert_memory_equal(u, want_u, sizeof u);
    assert_int_equal(sm2c_rt_random_uniform_int_i32(key, counter, &lo, &hi, v, 5), 0);
    assert_memory_equal(v, want_i, sizeof v);
}

static void test_ranges(void **state)
{
    const uint64_t key[1] = { 0x0123456789abcdefull }, counter[2] = { 7, 9 };
    const int64_t lo = -5, hi = -2;
    float u[101], t[103];
    double d[99];
    int64_t v[97];
    (void)state;
    sm2c_rt_random_uniform_f32(key, counter, u, 101);
    for (int i = 0; i < 101; i++)
        assert_true(u[i] >= 0.0f && u[i] < 1.0f);
    sm2c_rt_random_uniform_f64(key, counter, d, 99);
    for (int i = 0; i < 99; i++)
        assert_true(d[i] >= 0.0 && d[i] < 1.0);
    sm2c_rt_random_truncated_normal_f32(key, counter, t, 103);
    for (int i = 0; i < 103; i++)
        assert_true(fabsf(t[i]) < 2.0f);
    sm2c_rt_random_truncated_normal_f64(key, counter, d, 99);
    for (int i = 0; i < 99; i++)
        assert_true(fabs(d[i]) < 2.0);
    assert_int_equal(sm2c_rt_random_uniform_int_i64(key, counter, &lo, &hi, v, 97), 0);
    for (int i = 0; i < 97; i++)
        assert_true(v[i] >= lo && v[i] < hi);
}

/* An output shorter than a block takes the block's first values. */
static void test_partial_block(void **state)
{
    const uint64_t key[1] = { 42 }, counter[2] = { 0, 3 };
    float a[7], b[5];
    (void)state;
    sm2c_rt_random_normal_f32(key, counter, a, 7);
    sm2c_rt_random_normal_f32(key, counter, b, 5);
    assert_memory_equal(a, b, sizeof b);
}

static void test_uniform_int_bounds(void **state)
{
    const uint64_t key[1] = { 1 }, counter[2] = { 0, 0 };
    const int32_t lo = 4, hi = 4;
    int32_t y[3] = { 11, 12, 13 };
    (void)state;
    assert_int_equal(sm2c_rt_random_uniform_int_i32(key, counter, &lo, &hi, y, 3), SM2C_RT_ERR_VALUE);
    assert_true(y[0] == 11 && y[1] == 12 && y[2] == 13);
}

/* reserve: the stream as it is, then the counter 256 calls per output on,
** carrying into its high word. */
static void test_reserve(void **state)
{
    uint64_t st[3] = { 99, 0xffffffffffffff00ull, 5 }, key[1], counter[2];
    (void)state;
    sm2c_rt_random_reserve(st, key, counter, 3);
    assert_true(key[0] == 99 && counter[0] == 0xffffffffffffff00ull && counter[1] == 5);
    assert_true(st[0] == 99 && st[1] == 0x200 && st[2] == 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_philox_known_answers),
        cmocka_unit_test(test_seed_to_tf_values),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_partial_block),
        cmocka_unit_test(test_uniform_int_bounds),
        cmocka_unit_test(test_reserve),
    };
    return cmocka_run_group_tests_name("random", tests, NULL, NULL);
}
