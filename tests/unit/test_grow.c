/*
** test_grow.c: growable arrays and text, the out-of-memory handler, and the
** C/C++ keyword list.
*/
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

#include "sm2c_test.h"
#include "base/arena.h"
#include "base/grow.h"
#include "base/keywords.h"

static jmp_buf oom_jump;
static int oom_calls;

static void oom_handler(void)
{
    oom_calls++;
    longjmp(oom_jump, 1);
}

static void grows_by_doubling(void **state)
{
    (void)state;
    size_t cap = 0;
    int *v = sm2c_grow(NULL, &cap, 1, sizeof *v);
    assert_int_equal(cap, 16);
    v = sm2c_grow(v, &cap, 17, sizeof *v);
    assert_int_equal(cap, 32);
    v = sm2c_grow(v, &cap, 5, sizeof *v);   /* enough room: unchanged */
    assert_int_equal(cap, 32);
    v[31] = 7;
    free(v);
}

static void text_appends(void **state)
{
    (void)state;
    sm2c_text t = { 0 };
    sm2c_text_puts(&t, "a");
    sm2c_text_putc(&t, 'b');
    sm2c_text_printf(&t, "%d%s", 12, "c");
    for (int i = 0; i < 100; i++)   /* past the first buffer and printf's small one */
        sm2c_text_printf(&t, "%s", "0123456789012345678901234567890123456789");
    assert_int_equal(t.len, 5 + 4000);
    assert_memory_equal(t.p, "ab12c0123", 9);
    assert_int_equal(t.p[t.len], 0);
    sm2c_text_free(&t);
    assert_null(t.p);
}

/* An overflowing size is out of memory, through the installed handler. */
static void overflow_is_out_of_memory(void **state)
{
    (void)state;
    sm2c_set_oom_handler(oom_handler);
    oom_calls = 0;
    size_t cap = 0;
    if (!setjmp(oom_jump))
        sm2c_grow(NULL, &cap, SIZE_MAX / 2, 4);
    assert_int_equal(oom_calls, 1);
    sm2c_arena *a = sm2c_arena_new();
    if (!setjmp(oom_jump))
        sm2c_arena_array(a, SIZE_MAX / 2, 4);
    assert_int_equal(oom_calls, 2);
    sm2c_arena_free(a);
    sm2c_set_oom_handler(NULL);
}

static void keywords_c_and_cxx(void **state)
{
    (void)state;
    assert_true(sm2c_is_keyword("int"));
    assert_true(sm2c_is_keyword("typeof_unqual"));
    assert_true(sm2c_is_keyword("class"));
    assert_true(sm2c_is_keyword("new"));
    assert_true(sm2c_is_keyword("xor_eq"));
    assert_false(sm2c_is_keyword("input"));
    assert_false(sm2c_is_keyword("Class"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grows_by_doubling),
        cmocka_unit_test(text_appends),
        cmocka_unit_test(overflow_is_out_of_memory),
        cmocka_unit_test(keywords_c_and_cxx),
    };
    return cmocka_run_group_tests_name("grow", tests, NULL, NULL);
}
