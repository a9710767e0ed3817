/* test_widen.c: sm2c_rt_widen_f16_f32 (widen_f16.c, --quantize float16's
** weights) on every binary16 bit pattern, against the exact conversion the
** casts use (sm2c_rt_cast_f16_f32): the same float32 bits (NaNs: a NaN of the
** same sign), at every length 0..40 (the vector blocks and their tails) and
** at an unaligned start.  sm2c_rt_widen_s4_s8 (widen_s4.c, --weights-bits 4):
** every byte's two nibbles, low first, -8 and 7 included, at every length
** 0..300 (odd ones: the last high nibble unread; the AVX-512 block of 128 and
** the AVX2 block of 64 with their tails), at an unaligned start, nothing
** written past n. */
#include <string.h>

#include "sm2c_test.h"
#include "sm2c_rt.h"

static int same(float a, float b)
{
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    return ua == ub || (a != a && b != b && (ua >> 31) == (ub >> 31));
}

static void test_every_pattern(void **state)
{
    (void)state;
    enum { N = 65536 };
    uint16_t *h = malloc(N * sizeof *h + 2);
    float *got = malloc(N * sizeof *got), *want = malloc(N * sizeof *want);
    for (int32_t i = 0; i < N; i++)
        h[i] = (uint16_t)i;
    sm2c_rt_widen_f16_f32(h, got, N);
    sm2c_rt_cast_f16_f32(h, want, N);
    int32_t bad = 0;
    for (int32_t i = 0; i < N; i++)
        bad += !same(got[i], want[i]);
    assert_int_equal(bad, 0);
    free(h);
    free(got);
    free(want);
}

static void test_lengths(void **state)
{
    (void)state;
    uint16_t h[48];
    float got[48], want[48];
    for (int32_t i = 0; i < 48; i++)
        h[i] = (uint16_t)(0x3c00 + 97 * i);      /* 1.0 and on, various mantissas */
    for (int32_t n = 0; n <= 40; n++) {
        for (int32_t i = 0; i < 48; i++)
            got[i] = -7.0f;
        sm2c_rt_widen_f16_f32(h + 1, got + 1, n);  /* unaligned start */
        sm2c_rt_cast_f16_f32(h + 1, want + 1, n);
        assert_true(got[0] == -7.0f && got[n + 1] == -7.0f);   /* nothing written outside */
        for (int32_t i = 1; i <= n; i++)
            assert_true(same(got[i], want[i]));
    }
}

/* TFLite's UnpackDenseInt4IntoInt8: (int8)(b << 4) >> 4, then (int8)b >> 4. */
static int8_t nibble(const uint8_t *x, int32_t i)
{
    const int32_t b = x[i / 2], v = i % 2 ? b >> 4 : b & 15;
    return (int8_t)(v >= 8 ? v - 16 : v);
}

static void test_s4_every_byte(void **state)
{
    (void)state;
    uint8_t x[256];
    int8_t y[512];
    for (int32_t i = 0; i < 256; i++)
        x[i] = (uint8_t)i;
    sm2c_rt_widen_s4_s8(x, y, 512);
    for (int32_t i = 0; i < 256; i++) {
        const int32_t lo = i & 15, hi = i >> 4;
        assert_int_equal(y[2 * i], lo >= 8 ? lo - 16 : lo);
        assert_int_equal(y[2 * i + 1], hi >= 8 ? hi - 16 : hi);
    }
    const uint8_t ex[2] = { 0x12, 0x34 };   /* TFLite's header: {2, 1, 4, 3} */
    int8_t ey[4];
    sm2c_rt_widen_s4_s8(ex, ey, 4);
    assert_true(ey[0] == 2 && ey[1] == 1 && ey[2] == 4 && ey[3] == 3);
    const uint8_t mm[1] = { 0x78 };         /* -8 low, 7 high */
    sm2c_rt_widen_s4_s8(mm, ey, 2);
    assert_true(ey[0] == -8 && ey[1] == 7);
}

static void test_s4_lengths(void **state)
{
    (void)state;
    enum { MAX = 300 };
    uint8_t x[MAX / 2 + 2];
    int8_t got[MAX + 3];
    for (int32_t i = 0; i < MAX / 2 + 2; i++)
        x[i] = (uint8_t)(i * 37 + 11);
    for (int32_t n = 0; n <= MAX; n++) {
        for (int32_t i = 0; i < MAX + 3; i++)
            got[i] = 99;
        sm2c_rt_widen_s4_s8(x + 1, (int8_t *)got + 1, n);   /* unaligned both */
        assert_true(got[0] == 99 && got[n + 1] == 99);      /* nothing written outside */
        for (int32_t i = 0; i < n; i++)
            assert_int_equal(got[i + 1], nibble(x + 1, i));
    }
}

int main(void)
{
#ifdef SM2C_TEST_CPU
    /* A build of the kernel for one vector ISA (tests/CMakeLists.txt). */
    if (!__builtin_cpu_supports(SM2C_TEST_CPU))
        return 77;
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_pattern),
        cmocka_unit_test(test_lengths),
        cmocka_unit_test(test_s4_every_byte),
        cmocka_unit_test(test_s4_lengths),
    };
    return cmocka_run_group_tests_name("widen", tests, NULL, NULL);
}
