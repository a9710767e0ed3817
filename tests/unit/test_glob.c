/* test_glob.c: base/glob.c, --quantize-skip's patterns: literals, '?', '*'
** (empty, across '/', several, backtracking to the last one), and no match
** on a prefix or a longer name. */
#include "sm2c_test.h"
#include "base/glob.h"

static void test_patterns(void **state)
{
    (void)state;
    assert_true(sm2c_glob_match("model/conv/Relu", "model/conv/Relu"));
    assert_false(sm2c_glob_match("model/conv", "model/conv/Relu"));
    assert_false(sm2c_glob_match("model/conv/Relu6", "model/conv/Relu"));
    assert_true(sm2c_glob_match("model/conv_?/*", "model/conv_1/BiasAdd"));
    assert_true(sm2c_glob_match("*", ""));
    assert_true(sm2c_glob_match("*", "a/b/c"));
    assert_true(sm2c_glob_match("model/*", "model/"));
    assert_true(sm2c_glob_match("*dw*", "functional_1/dw_1/depthwise"));
    assert_true(sm2c_glob_match("a*b*c", "aXbYbZc"));
    assert_false(sm2c_glob_match("a*b*c", "aXbYbZ"));
    assert_true(sm2c_glob_match("a*bc", "abcbc"));      /* the first bc is not the end: backtrack */
    assert_false(sm2c_glob_match("?", ""));
    assert_false(sm2c_glob_match("", "x"));
    assert_true(sm2c_glob_match("", ""));
    assert_true(sm2c_glob_match("**x", "x"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patterns),
    };
    return cmocka_run_group_tests_name("glob", tests, NULL, NULL);
}
