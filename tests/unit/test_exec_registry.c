/*
** test_exec_registry.c: every kernel an op hook emits is registered in
** compiler/lower/exec.c, the step interpreter behind constant folding
** (ops/fold.c) and calibration (driver/calibrate.c).  A kernel missing there
** is no build error: folding silently skips the node and calibration refuses
** the model.  So this compiles every op conformance case (tests/data/ops) and
** the e2e models, float and int8, and looks up each step's kernel.
*/
#include "sm2c_test.h"

#include <dirent.h>
#include <stdio.h>

#include "driver/pipeline.h"
#include "lower/exec.h"

/* Kernels deliberately not in exec.c, each with why (GAP marks a known gap,
** not a choice).  A new kernel belongs in exec.c, not here. */
#define STATE "writes a variable or the random generator: its input is state, never a constant, " \
    "and calibration updates no state"
#define CHECK "a run-time check: it returns an error code and makes no value to fold"
#define DYN "a data-dependent size (a run-time count): folding and calibration refuse such values"
#define STRING "strings: sm2c_string pointers into the program's own buffers"
#define LOOP "TensorLists and run-time slices occur in loops, which calibration refuses and " \
    "folding never meets"
#define GAP "not registered yet: folding leaves such a node to run time and calibration refuses it"
static const struct { const char *kernel, *why; } not_interpreted[] = {
    { "sm2c_rt_apply_adam_f32", STATE }, { "sm2c_rt_apply_gradient_descent_f32", STATE },
    { "sm2c_rt_apply_momentum_f32", STATE }, { "sm2c_rt_scatter_add_rows_f32_i32", STATE },
    { "sm2c_rt_scatter_update_rows_i32", STATE }, { "sm2c_rt_random_reserve", STATE },
    { "sm2c_rt_check_finite_bf16", CHECK }, { "sm2c_rt_check_finite_f16", CHECK },
    { "sm2c_rt_check_finite_f32", CHECK }, { "sm2c_rt_check_finite_f64", CHECK },
    { "sm2c_rt_check_true_b", CHECK }, { "sm2c_rt_check_indices_dyn_i64", CHECK },
    { "sm2c_rt_dyn_clear", DYN }, { "sm2c_rt_dyn_shape_i32", DYN },
    { "sm2c_rt_dyn_shape_i64", DYN }, { "sm2c_rt_where_b", DYN }, { "sm2c_rt_where_f32", DYN },
    { "sm2c_rt_where_f64", DYN }, { "sm2c_rt_where_i32", DYN }, { "sm2c_rt_where_i64", DYN },
    { "sm2c_rt_unique_f32_i32", DYN }, { "sm2c_rt_unique_i32_i32", DYN },
    { "sm2c_rt_unique_i32_i64", DYN }, { "sm2c_rt_unique_i64_i32", DYN },
    { "sm2c_rt_unique_i64_i64", DYN }, { "sm2c_rt_nms_f32", DYN },
    { "sm2c_rt_sparse_fill_empty_rows", DYN }, { "sm2c_rt_sparse_reshape", DYN },
    { "sm2c_rt_sparse_segment_f32_i32_i32", DYN }, { "sm2c_rt_sparse_segment_f32_i32_i64", DYN },
    { "sm2c_rt_sparse_segment_f32_i64_i64", DYN }, { "sm2c_rt_sparse_to_dense_bounded_i64", DYN },
    { "sm2c_rt_as_string_f32", STRING }, { "sm2c_rt_as_string_i32", STRING },
    { "sm2c_rt_as_string_i64", STRING }, { "sm2c_rt_string_const", STRING },
    { "sm2c_rt_string_to_hash_bucket", STRING }, { "sm2c_rt_lookup_table_str_i64", STRING },
    { "sm2c_rt_parse_example_dense", STRING }, { "sm2c_rt_parse_example_sparse", STRING },
    { "sm2c_rt_string_lower", STRING }, { "sm2c_rt_string_lower_utf8", STRING }, { "sm2c_rt_regex_replace", STRING },
    { "sm2c_rt_string_split", STRING }, { "sm2c_rt_reduce_join", STRING }, { "sm2c_rt_equal_str", STRING }, { "sm2c_rt_not_equal_str", STRING },
    { "sm2c_rt_concat_str", STRING }, { "sm2c_rt_unique_str_i32", STRING }, { "sm2c_rt_unique_str_i64", STRING },
    { "sm2c_rt_scatter_nd_str_i32", STRING }, { "sm2c_rt_scatter_nd_str_i64", STRING },
    { "sm2c_rt_ragged_rowids_to_tensor_i64", DYN }, { "sm2c_rt_text_bincount_i32", DYN },
    { "sm2c_rt_ragged_bincount_i64", DYN }, { "sm2c_rt_dyn_fill_extreme_i32", DYN },
    { "sm2c_rt_dyn_fill_extreme_i64", DYN },
    { "sm2c_rt_list_get", LOOP }, { "sm2c_rt_list_pop", LOOP }, { "sm2c_rt_list_push", LOOP },
    { "sm2c_rt_list_set", LOOP }, { "sm2c_rt_list_set_grow", LOOP }, { "sm2c_rt_list_stack", LOOP },
    { "sm2c_rt_slice_at", LOOP },
    { "sm2c_rt_search_sorted_f32_i32", GAP }, { "sm2c_rt_search_sorted_f32_i64", GAP },
    { "sm2c_rt_search_sorted_i32_i64", GAP }, { "sm2c_rt_search_sorted_i64_i32", GAP },
    { "sm2c_rt_softmax_xent_f32", GAP }, { "sm2c_rt_sparse_softmax_xent_f32_i32", GAP },
    { "sm2c_rt_sparse_softmax_xent_f32_i64", GAP }, { "sm2c_rt_sparse_to_dense_i32", GAP },
    { "sm2c_rt_sparse_to_dense_i64", GAP }, { "sm2c_rt_lookup_table_i64_i64", GAP },
};

static int excused(const char *kernel)
{
    for (size_t i = 0; i < sizeof not_interpreted / sizeof not_interpreted[0]; i++)
        if (strcmp(not_interpreted[i].kernel, kernel) == 0)
            return 1;
    return 0;
}

/* Compiles the model at dir with o; returns how many of its steps call a
** kernel exec.c lacks (each printed), or -1 when it does not compile. */
static int unknown_kernels(const char *dir, const sm2c_compile_opts *o)
{
    test_ctx *t = test_ctx_new();
    sm2c_model *m = NULL;
    sm2c_program *p = NULL;
    sm2c_status st = sm2c_model_load(&t->ctx, dir, NULL, &m);
    if (!st)
        st = sm2c_compile_program(&t->ctx, m, o, &p);
    int bad = st ? -1 : 0;
    if (st && strstr(t->diag.first, "no signature to compile"))
        bad = 0;    /* tf.function cases (--function): their kernels are the signatures' */
    else if (st)
        print_message("%s: does not compile: %s\n", dir, t->diag.first);
    for (int32_t e = 0; !st && e < p->n_entries; e++)
        for (int32_t s = 0; s < p->entries[e].n_steps; s++) {
            const sm2c_step *step = &p->entries[e].steps[s];
            if (step->control || sm2c_exec_knows(step->kernel) || excused(step->kernel))
                continue;
            print_message("%s: %s (%s) calls %s, which lower/exec.c does not register\n", dir,
                          step->node, step->op, step->kernel);
            bad++;
        }
    if (m)
        sm2c_model_close(m);
    test_ctx_free(t);
    return bad;
}

/* Every model directory <root>/<case>/model, compiled with o. */
static int unknown_in_cases(const char *root, const sm2c_compile_opts *o, int *cases)
{
    DIR *d = opendir(root);
    assert_non_null(d);
    int bad = 0;
    for (struct dirent *de; (de = readdir(d));) {
        char dir[1024];
        if (de->d_name[0] == '.')
            continue;
        snprintf(dir, sizeof dir, "%s/%s/model", root, de->d_name);
        DIR *probe = opendir(dir);
        if (!probe)
            continue;
        closedir(probe);
        int n = unknown_kernels(dir, o);
        bad += n < 0 ? 1 : n;
        (*cases)++;
    }
    closedir(d);
    return bad;
}

static void conformance_cases(void **state)
{
    (void)state;
    sm2c_compile_opts o = { .name = "m" };
    int cases = 0;
    int bad = unknown_in_cases(SM2C_TEST_DATA "/data/ops", &o, &cases);
    assert_true(cases > 700);
    assert_int_equal(bad, 0);
}

static void e2e_models(void **state)
{
    (void)state;
    /* without --shape: a signature with unknown inner dims is left out */
    sm2c_compile_opts o = { .name = "m", .skip_failing = 1 };
    int cases = 0;
    int bad = unknown_in_cases(SM2C_TEST_DATA "/data/e2e", &o, &cases);
    assert_true(cases > 5);
    assert_int_equal(bad, 0);
}

/* A FakeQuant model needs no calibration: it gives the int8 kernels. */
static void int8_kernels(void **state)
{
    (void)state;
    sm2c_compile_opts o = { .name = "m", .quantize = SM2C_QUANTIZE_INT8 };
    assert_int_equal(unknown_kernels(SM2C_TEST_DATA "/data/e2e/qat_cnn/model", &o), 0);
    o.io_int8 = 1;
    assert_int_equal(unknown_kernels(SM2C_TEST_DATA "/data/e2e/qat_cnn/model", &o), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(conformance_cases),
        cmocka_unit_test(e2e_models),
        cmocka_unit_test(int8_kernels),
    };
    return cmocka_run_group_tests_name("exec_registry", tests, NULL, NULL);
}
