/*
** standalone/sm2c_test.h: a stand-in for tests/sm2c_test.h that gives the
** kernel tests (test_conv.c, test_matmul.c, test_nn.c, test_unary.c) the few cmocka calls
** they make, so that they build with the runtime alone, without cmocka or
** sm2c_lib: rt_neon cross-compiles them for AArch64 and runs them under
** qemu-aarch64 (tests/kernels/rt_neon.sh).  A failed check ends its test
** (longjmp, as cmocka does) and the run goes on with the next.
*/
#ifndef SM2C_TEST_H
#define SM2C_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CMUnitTest {
    const char *name;
    void (*fn)(void **state);
};

static jmp_buf ktest_fail;

#define cmocka_unit_test(f) {#f, f}
#define print_error(...) fprintf(stderr, __VA_ARGS__)
#define fail_msg(...)                                                                      \
    do {                                                                                   \
        fprintf(stderr, __VA_ARGS__);                                                      \
        fputc('\n', stderr);                                                               \
        longjmp(ktest_fail, 1);                                                            \
    } while (0)
#define assert_true(c)                                                                     \
    do {                                                                                   \
        if (!(c))                                                                          \
            fail_msg("%s:%d: assert_true(%s)", __FILE__, __LINE__, #c);                    \
    } while (0)
#define assert_false(c) assert_true(!(c))
#define assert_non_null(p) assert_true((p) != NULL)
#define assert_null(p) assert_true((p) == NULL)
#define assert_int_equal(a, b)                                                             \
    do {                                                                                   \
        if ((long long)(a) != (long long)(b))                                              \
            fail_msg("%s:%d: %lld != %lld", __FILE__, __LINE__, (long long)(a),            \
                     (long long)(b));                                                      \
    } while (0)

/* Runs every test; the number that failed (0: all passed). */
static int ktest_run(const char *group, const struct CMUnitTest *tests, size_t n)
{
    static size_t i, failed;

    for (i = 0, failed = 0; i < n; i++) {
        if (setjmp(ktest_fail) == 0) {
            tests[i].fn(NULL);
            printf("[       OK ] %s\n", tests[i].name);
        } else {
            printf("[  FAILED  ] %s\n", tests[i].name);
            failed++;
        }
    }
    printf("%s: %zu passed, %zu failed\n", group, n - failed, failed);
    return failed != 0;
}

#define cmocka_run_group_tests_name(group, tests, setup, teardown)                        \
    ktest_run(group, tests, sizeof(tests) / sizeof(tests)[0])
#define cmocka_run_group_tests(tests, setup, teardown) \
    cmocka_run_group_tests_name("tests", tests, setup, teardown)

#endif
