/*
** test_cflow.c: structured control steps (program.h SM2C_CTL_*) in the
** program check, the memory plan and the C backend's text.
*/
#include "sm2c_test.h"
#include "test_fs.h"

#include <stdio.h>

#include "codegen/emit_c.h"
#include "optimize/passes.h"
#include "plan/plan.h"
#include "lower/program.h"
#include "codegen/program_check.h"
#include "test_program.h"
}   /* test_program.h leaves its last function open */

static int size_of(int dtype) { return (int)sm2c_dtype_size(dtype); }

static sm2c_arg buf(int32_t b) { sm2c_arg x = { SM2C_ARG_BUF, b, 0, 0, 0, NULL }; return x; }
static sm2c_arg num(int64_t i) { sm2c_arg x = { SM2C_ARG_INT, 0, i, 0, 0, NULL }; return x; }

enum { B_N, B_Y, B_COUNTER, B_COND, B_ACC, B_TMP, N_BUFS };

static sm2c_step step3(sm2c_arena *a, const char *kernel, int32_t ctl, int64_t imm, int32_t n, sm2c_arg x,
                       sm2c_arg y, sm2c_arg z)
{
    sm2c_step s;
    memset(&s, 0, sizeof s);
    s.kernel = kernel;
    s.n_args = n;
    s.args = sm2c_arena_array(a, 3, sizeof *s.args);
    s.args[0] = x, s.args[1] = y, s.args[2] = z;
    s.node = "while";
    s.op = "While";
    s.function = "f";
    s.control = ctl;
    s.imm = imm;
    return s;
}

/* acc = n; loop { cond = acc; if (!cond) break; if (acc) tmp = acc else tmp = n; acc = tmp }; y = acc
** (copies stand in for the kernels: only the structure matters here). */
static sm2c_program *looping(sm2c_arena *a)
{
    static const int64_t none[1] = { 0 };
    sm2c_program *p = sm2c_arena_alloc(a, sizeof *p);
    p->name = "loopy";
    p->source = "loopy";
    p->command = "sm2c compile loopy";
    p->n_entries = 1;
    p->entries = sm2c_arena_array(a, 1, sizeof *p->entries);
    sm2c_entry *e = &p->entries[0];
    e->key = e->c_name = "serving_default";
    e->n_buffers = N_BUFS;
    e->buffers = sm2c_arena_array(a, N_BUFS, sizeof *e->buffers);
    e->buffers[B_N] = buffer(a, SM2C_BUF_INPUT, SM2C_DT_INT32, 0, none, 0, 0, "n");
    e->buffers[B_Y] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_INT32, 0, none, 0, 0, "y");
    e->buffers[B_COUNTER] = buffer(a, SM2C_BUF_ARENA, SM2C_DT_INT32, 0, none, 0, 0, "loop counter");
    e->buffers[B_COND] = buffer(a, SM2C_BUF_ARENA, SM2C_DT_BOOL, 0, none, 0, 0, "cond");
    e->buffers[B_ACC] = buffer(a, SM2C_BUF_ARENA, SM2C_DT_INT32, 0, none, 0, 0, "acc");
    e->buffers[B_TMP] = buffer(a, SM2C_BUF_ARENA, SM2C_DT_INT32, 0, none, 0, 0, "tmp");
    e->n_inputs = e->n_outputs = 1;
    e->inputs = sm2c_arena_array(a, 1, sizeof *e->inputs);
    e->outputs = sm2c_arena_array(a, 1, sizeof *e->outputs);
    e->inputs[0] = (sm2c_port){ "n", "n:0", SM2C_DT_INT32, shape(a, 0, none), B_N, 0, 0, 0, 0, 0.0f, 0 };
    e->outputs[0] = (sm2c_port){ "y", "y:0", SM2C_DT_INT32, shape(a, 0, none), B_Y, 0, 0, 0, 0, 0.0f, 0 };
    sm2c_step s[] = {
        step3(a, "sm2c_rt_copy", 0, 0, 3, buf(B_ACC), buf(B_N), num(4)),
        step3(a, "sm2c_rt_control", SM2C_CTL_LOOP, -1, 1, buf(B_COUNTER), num(0), num(0)),
        step3(a, "sm2c_rt_copy", 0, 0, 3, buf(B_COND), buf(B_ACC), num(1)),
        step3(a, "sm2c_rt_control", SM2C_CTL_BREAK_UNLESS, 7, 2, buf(B_COND), buf(B_COUNTER), num(0)),
        step3(a, "sm2c_rt_control", SM2C_CTL_IF, -1, 1, buf(B_ACC), num(0), num(0)),
        step3(a, "sm2c_rt_copy", 0, 0, 3, buf(B_TMP), buf(B_ACC), num(4)),
        step3(a, "sm2c_rt_control", SM2C_CTL_ELSE, -1, 0, num(0), num(0), num(0)),
        step3(a, "sm2c_rt_copy", 0, 0, 3, buf(B_TMP), buf(B_N), num(4)),
        step3(a, "sm2c_rt_control", SM2C_CTL_END_IF, -1, 0, num(0), num(0), num(0)),
        step3(a, "sm2c_rt_copy", 0, 0, 3, buf(B_ACC), buf(B_TMP), num(4)),
        step3(a, "sm2c_rt_control", SM2C_CTL_END_LOOP, -1, 1, buf(B_COUNTER), num(0), num(0)),
        step3(a, "sm2c_rt_copy", 0, 0, 3, buf(B_Y), buf(B_ACC), num(4)),
    };
    e->n_steps = (int32_t)(sizeof s / sizeof s[0]);
    e->steps = sm2c_arena_array(a, (size_t)e->n_steps, sizeof *e->steps);
    memcpy(e->steps, s, sizeof s);
    return p;
}

static int64_t planned(test_ctx *t, sm2c_program *p)
{
    assert_int_equal(sm2c_pass_plan(&t->ctx, &p->entries[0]), SM2C_OK);
    p->arena_bytes = p->entries[0].arena_bytes;
    return p->arena_bytes;
}

static void checks_well_formed_structure(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    sm2c_program *p = looping(t->arena);
    planned(t, p);
    assert_int_equal(sm2c_program_check(&t->ctx, p, "C", size_of), SM2C_OK);
    test_ctx_free(t);
}

/* Each broken form is an internal error (a lowering bug), never emitted. */
static void rejects_badly_nested_steps(void **state)
{
    (void)state;
    static const struct { int32_t step, control; int64_t imm; } breaks[] = {
        { 6, SM2C_CTL_NONE, 0 },          /* IF without ELSE */
        { 8, SM2C_CTL_END_LOOP, 0 },      /* END_LOOP closing an IF */
        { 10, SM2C_CTL_END_IF, 0 },       /* END_IF closing a LOOP */
        { 3, SM2C_CTL_ELSE, 0 },          /* ELSE inside a LOOP */
        { 3, SM2C_CTL_BREAK_UNLESS, -1 }, /* a negative cap */
        { 1, SM2C_CTL_NONE, 0 },          /* BREAK_UNLESS outside a loop */
        { 4, 99, 0 },                     /* an unknown kind */
    };
    for (size_t k = 0; k < sizeof breaks / sizeof breaks[0]; k++) {
        test_ctx *t = test_ctx_new();
        sm2c_program *p = looping(t->arena);
        planned(t, p);
        sm2c_step *s = &p->entries[0].steps[breaks[k].step];
        s->control = breaks[k].control;
        if (breaks[k].imm)
            s->imm = breaks[k].imm;
        if (!s->control)
            s->n_args = 0, s->kernel = "sm2c_rt_version";
        assert_int_equal(sm2c_program_check(&t->ctx, p, "C", size_of), SM2C_ERR_INTERNAL);
        test_ctx_free(t);
    }
    /* A loop left open, and a condition that is not a scalar. */
    test_ctx *t = test_ctx_new();
    sm2c_program *p = looping(t->arena);
    planned(t, p);
    p->entries[0].n_steps = 10;
    assert_int_equal(sm2c_program_check(&t->ctx, p, "C", size_of), SM2C_ERR_INTERNAL);
    p = looping(t->arena);
    static const int64_t two[1] = { 2 };
    p->entries[0].buffers[B_COND] = buffer(t->arena, SM2C_BUF_ARENA, SM2C_DT_BOOL, 1, two, 0, 0, "cond");
    planned(t, p);
    assert_int_equal(sm2c_program_check(&t->ctx, p, "C", size_of), SM2C_ERR_INTERNAL);
    test_ctx_free(t);
}

/* acc is live when the loop starts and read inside it: it must keep its bytes
** to the loop's end, so tmp (born inside) may not share them; cond (born and
** dead inside each iteration) may share with tmp. */
static void keeps_loop_carried_buffers_live(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    sm2c_program *p = looping(t->arena);
    planned(t, p);
    const sm2c_buffer *b = p->entries[0].buffers;
    assert_int_not_equal(b[B_ACC].offset, b[B_TMP].offset);
    assert_int_not_equal(b[B_ACC].offset, b[B_COND].offset);
    assert_int_not_equal(b[B_COUNTER].offset, b[B_TMP].offset);
    assert_int_not_equal(b[B_COUNTER].offset, b[B_COND].offset);
    assert_int_not_equal(b[B_COUNTER].offset, b[B_ACC].offset);
    assert_int_equal(b[B_COND].offset, b[B_TMP].offset);
    test_ctx_free(t);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc(1, (size_t)n + 1);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
}

static void emits_plain_c_structure(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    sm2c_program *p = looping(t->arena);
    planned(t, p);
    char *root = fs_tmpdir();
    char *out = fs_path(root, "out");
    assert_int_equal(sm2c_emit_c(&t->ctx, p, out), SM2C_OK);
    char *path = fs_path(out, "loopy.c");
    char *text = read_all(path);
    const char *want[] = { "    *t2 = 0;\n    for (;;) {\n",
                           "        if (*t3 == 0)\n            break;\n        if (*t2 >= 7)\n"
                           "            return SM2C_RT_ERR_ITERATIONS;\n        ++*t2;\n",
                           "        if (*t4 != 0) {\n", "        } else {\n", "/* while (While) in f */" };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        if (!strstr(text, want[k]))
            fail_msg("loopy.c lacks \"%s\"", want[k]);
    free(text);
    free(path);
    free(out);
    fs_rm_rf(root);
    test_ctx_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(checks_well_formed_structure),
        cmocka_unit_test(rejects_badly_nested_steps),
        cmocka_unit_test(keeps_loop_carried_buffers_live),
        cmocka_unit_test(emits_plain_c_structure),
    };
    return cmocka_run_group_tests_name("cflow", tests, NULL, NULL);
}
