/*
** test_report.c: the --report writers (compiler/cli/report*.c) on the e2e
** mlp (tests/data/e2e/mlp): the stack figure each target's header states,
** fused steps, and measured per-step times (a profiled run's) rendered as
** time bars and totals in HTML and as time_us in JSON, absent when not
** profiled.  With SM2C_REPORT_PAGE=FILE.html set, the profiled page and its
** JSON (FILE.html.json) are written there for tests/cli/report_browser.sh.
*/
#include "sm2c_test.h"

#include <stdio.h>

#include "cli/report.h"
#include "codegen/rt_stack.h"
#include "driver/pipeline.h"

#define MLP SM2C_TEST_DATA "/data/e2e/mlp/model"

typedef struct compiled {
    test_ctx *t;
    sm2c_model *m;
    sm2c_program *p;
} compiled;

static compiled compile_mlp(void)
{
    compiled r = { test_ctx_new(), NULL, NULL };
    const char *sig = "serving_default";
    sm2c_compile_opts o = { .name = "m", .n_signatures = 1, .signatures = &sig };
    assert_int_equal(sm2c_model_load(&r.t->ctx, MLP, NULL, &r.m), SM2C_OK);
    assert_int_equal(sm2c_compile_program(&r.t->ctx, r.m, &o, &r.p), SM2C_OK);
    return r;
}

static void done(compiled *r)
{
    sm2c_model_close(r->m);
    test_ctx_free(r->t);
}

/* The page or JSON a writer makes, in memory (free it). */
static char *written(compiled *r, const sm2c_report_opts *o, int html)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (html)
        sm2c_report_html(f, r->t->arena, r->p, o);
    else
        sm2c_report_json(f, r->t->arena, r->p, o);
    fclose(f);
    return text;
}

static int count(const char *s, const char *needle)
{
    int k = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        k++;
    return k;
}

static void stack_is_the_headers(void **state)
{
    (void)state;
    compiled r = compile_mlp();
    sm2c_report_opts o;
    sm2c_target host = sm2c_target_host(), m4 = host;
    sm2c_target_set_machine(&m4, "thumbv7em-none-eabihf", NULL);
    sm2c_report_opts_init(&o, r.p, &host, 1);
    assert_int_equal(o.stack_bytes, sm2c_stack_bound(r.p, SM2C_STACK_X86_64, 1));
    assert_string_equal(o.stack_target, "x86-64");
    sm2c_report_opts_init(&o, r.p, &m4, 1);
    assert_int_equal(o.stack_bytes, sm2c_stack_bound(r.p, SM2C_STACK_CORTEX_M4, 1));
    assert_string_equal(o.stack_target, "Cortex-M4F");
    sm2c_target a64 = host, armv7 = host;  /* the header's test is 32-bit Arm: __arm__ || __thumb__ */
    sm2c_target_set_machine(&a64, "arm64-apple-macosx", NULL);
    sm2c_target_set_machine(&armv7, "armv7a-none-eabi", NULL);
    assert_int_equal(sm2c_stack_target_of(&a64), SM2C_STACK_X86_64);
    assert_int_equal(sm2c_stack_target_of(&armv7), SM2C_STACK_CORTEX_M4);
    char *json = written(&r, &o, 0), *want = NULL;
    assert_true(asprintf(&want, "\"stack_bytes\": %d", (int)o.stack_bytes) > 0);
    assert_int_equal(count(json, want), 2);  /* the program's and the entry's: one figure */
    assert_non_null(strstr(json, "\"stack_target\": \"Cortex-M4F\""));
    free(want);
    free(json);
    done(&r);
}

static void fused_steps(void **state)
{
    (void)state;
    compiled r = compile_mlp();
    sm2c_report_opts o;
    sm2c_target host = sm2c_target_host();
    sm2c_report_opts_init(&o, r.p, &host, 1);
    char *html = written(&r, &o, 1), *json = written(&r, &o, 0);
    assert_true(count(html, ">+BiasAdd</span>") >= 1);
    assert_true(count(json, "\"op\": \"BiasAdd\"") >= 1);
    free(html);
    free(json);
    done(&r);
}

static void save(const char *html, const char *json)
{
    const char *page = getenv("SM2C_REPORT_PAGE");
    if (!page)
        return;
    char *path = NULL;
    assert_true(asprintf(&path, "%s.json", page) > 0);
    FILE *f = fopen(page, "w"), *g = fopen(path, "w");
    assert_non_null(f);
    assert_non_null(g);
    fputs(html, f);
    fputs(json, g);
    fclose(f);
    fclose(g);
    free(path);
}

static void times_when_profiled(void **state)
{
    (void)state;
    compiled r = compile_mlp();
    const sm2c_entry *e = &r.p->entries[0];
    sm2c_report_opts o;
    sm2c_target host = sm2c_target_host();
    sm2c_report_opts_init(&o, r.p, &host, 1);
    char *html = written(&r, &o, 1), *json = written(&r, &o, 0);
    assert_int_equal(count(html, "class=\"bar\""), 0);
    assert_null(strstr(html, "measured time"));
    assert_null(strstr(json, "time_us"));
    free(html);
    free(json);
    double *us = calloc((size_t)e->n_steps, sizeof *us);
    for (int32_t i = 0; i < e->n_steps; i++)
        us[i] = i == 0 ? -1 : 2.5 * i;  /* step 0 not measured */
    const double *per_entry[] = { us };
    o.step_us = per_entry;
    html = written(&r, &o, 1);
    json = written(&r, &o, 0);
    double total = 2.5 * (e->n_steps - 1) * e->n_steps / 2;
    char want[64];
    snprintf(want, sizeof want, "measured %.1f &#181;s per call", total);
    assert_int_equal(count(html, "class=\"bar\""), e->n_steps - 1);
    assert_non_null(strstr(html, "measured time"));
    assert_non_null(strstr(html, want));
    assert_int_equal(count(json, "\"time_us\""), e->n_steps - 1 + 1);  /* the measured steps and the entry */
    save(html, json);
    free(html);
    free(json);
    free(us);
    done(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stack_is_the_headers),
        cmocka_unit_test(fused_steps),
        cmocka_unit_test(times_when_profiled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
