/* test_widen.c: sm2c_rt_widen_f16_f32 (widen_f16.c, --quantize float16's
** weights) on every binary16 bit pattern, against the exact conversion the
** casts use (sm2c_rt_cast_f16_f32): the same float32 bits (NaNs: a NaN of the
** same sign), at every length 0..40 (the vector blocks and their tails) and
** at an unaligned start. */
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
    };
    return cmocka_run_group_tests_name("widen", tests, NULL, NULL);
}
