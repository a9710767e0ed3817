/*
** sm2c_test.h: what every cmocka test includes.  Debian's cmocka 1.1.5 needs
** these headers before <cmocka.h>.
*/
#ifndef SM2C_TEST_H
#define SM2C_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/tensor.h"

/* A context whose diagnostics are captured, not printed. */
typedef struct test_ctx {
    sm2c_arena *arena;
    sm2c_diag diag;
    sm2c_limits limits;
    sm2c_ctx ctx;
} test_ctx;

static void test_diag_sink(void *user, const char *line)
{
    (void)user;
    (void)line;
}

static inline test_ctx *test_ctx_new(void)
{
    test_ctx *t = calloc(1, sizeof *t);
    t->arena = sm2c_arena_new();
    sm2c_diag_init(&t->diag);
    t->diag.fn = test_diag_sink;
    sm2c_limits_default(&t->limits);
    t->ctx.arena = t->arena;
    t->ctx.diag = &t->diag;
    t->ctx.limits = &t->limits;
    return t;
}

static inline void test_ctx_free(test_ctx *t)
{
    sm2c_arena_free(t->arena);
    free(t);
}

/* Assert that the first error reported contains `needle`. */
#define assert_error_contains(t, needle)                                        \
    do {                                                                        \
        if (!strstr((t)->diag.first, (needle)))                                 \
            fail_msg("first error \"%s\" lacks \"%s\"", (t)->diag.first, (needle)); \
    } while (0)

#endif
