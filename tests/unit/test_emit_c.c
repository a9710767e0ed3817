/*
** test_emit_c.c: the C backend.  Hand-built programs are emitted into a
** scratch directory, compiled with the system C compiler ($CC, else cc) under
** -std=c99 -Wall -Wextra -pedantic -Werror together with a driver written
** here, and run; plus determinism and the safe-output cases (F7).
*/
#include "sm2c_test.h"
#include "test_fs.h"

#include <dirent.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "codegen/c_special.h"
#include "codegen/emit_c.h"
#include "codegen/rt_select.h"
#include "codegen/mangle.h"
#include "lower/program.h"

/* ---- building programs by hand ---------------------------------------------- */

#include "test_program.h"
}

static sm2c_port port(sm2c_arena *a, const char *key, const char *tensor_name, int dtype,
                      int32_t rank, const int64_t *d, int32_t buf)
{
    sm2c_port p = { key, tensor_name, dtype, shape(a, rank, d), buf, 0, 0, 0, 0, 0.0f, 0 };
    return p;
}

static sm2c_arg A_BUF(int32_t b) { sm2c_arg x = { SM2C_ARG_BUF, b, 0, 0, 0, NULL }; return x; }
static sm2c_arg A_NULL(void) { sm2c_arg x = { SM2C_ARG_NULL, 0, 0, 0, 0, NULL }; return x; }
static sm2c_arg A_INT(int64_t i) { sm2c_arg x = { SM2C_ARG_INT, 0, i, 0, 0, NULL }; return x; }
static sm2c_arg A_FLT(float f) { sm2c_arg x = { SM2C_ARG_FLOAT, 0, 0, f, 0, NULL }; return x; }
static sm2c_arg A_INTS(int32_t n, const int32_t *v)
{
    sm2c_arg x = { SM2C_ARG_INTS, 0, 0, 0, n, v };
    return x;
}

static sm2c_step step(sm2c_arena *a, const char *kernel, const char *node, const char *op,
                      const char *fn, int32_t n, const sm2c_arg *args)
{
    sm2c_step s = { kernel, n, sm2c_arena_array(a, (size_t)n, sizeof(sm2c_arg)), node, op, fn, 0, 0, 0, 0, NULL, NULL };
    memcpy(s.args, args, (size_t)n * sizeof *args);
    return s;
}

static float fbits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* y = relu(x @ W + b): x float32[2,3], W [3,4], b [4], an arena intermediate. */
static sm2c_program *mlp(sm2c_arena *a, const char *name)
{
    static const int64_t d23[] = { 2, 3 }, d34[] = { 3, 4 }, d4[] = { 4 }, d24[] = { 2, 4 };
    static const float W[12] = { 1, 2, 3, 4, -1, -2, -3, -4, 0.5f, 0.25f, -0.125f, 2 };
    static const float B[4] = { 0.5f, -10, 1e-3f, 0 };
    sm2c_program *p = sm2c_arena_alloc(a, sizeof *p);
    p->name = name;
    p->source = "tests/mlp */ \n?\?/";
    p->command = "sm2c compile --name mlp tests/mlp";
    p->n_weights = 2;
    p->weights = sm2c_arena_array(a, 2, sizeof *p->weights);
    p->weights[0].name = "dense/kernel";
    p->weights[0].value = tensor(a, SM2C_DT_FLOAT, 2, d34, W, 4);
    p->weights[1].name = "dense/bias";
    p->weights[1].value = tensor(a, SM2C_DT_FLOAT, 1, d4, B, 4);
    p->n_entries = 1;
    p->entries = sm2c_arena_array(a, 1, sizeof *p->entries);
    sm2c_entry *e = &p->entries[0];
    e->key = "serving_default";
    e->c_name = "serving_default";
    e->n_buffers = 5;
    e->buffers = sm2c_arena_array(a, 5, sizeof *e->buffers);
    e->buffers[0] = buffer(a, SM2C_BUF_INPUT, SM2C_DT_FLOAT, 2, d23, 0, 0, "serving_default_x:0");
    e->buffers[1] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_FLOAT, 2, d24, 0, 0, "Identity:0");
    e->buffers[2] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_FLOAT, 2, d34, 0, 0, "dense/kernel");
    e->buffers[3] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_FLOAT, 1, d4, 1, 0, "dense/bias");
    e->buffers[4] = buffer(a, SM2C_BUF_ARENA, SM2C_DT_FLOAT, 2, d24, 0, 64, "dense/BiasAdd:0");
    e->n_inputs = 1;
    e->inputs = sm2c_arena_alloc(a, sizeof *e->inputs);
    e->inputs[0] = port(a, "x", "serving_default_x:0", SM2C_DT_FLOAT, 2, d23, 0);
    e->n_outputs = 1;
    e->outputs = sm2c_arena_alloc(a, sizeof *e->outputs);
    e->outputs[0] = port(a, "y", "StatefulPartitionedCall:0", SM2C_DT_FLOAT, 2, d24, 1);
    e->n_steps = 2;
    e->steps = sm2c_arena_array(a, 2, sizeof *e->steps);
    sm2c_arg mm[] = { A_BUF(0), A_BUF(2), A_BUF(3), A_BUF(4), A_INT(2), A_INT(3), A_INT(4),
                      A_INT(0), A_INT(0), A_INT(0), A_FLT(0.0f), A_FLT(0.0f), A_NULL() };
    e->steps[0] = step(a, "sm2c_rt_matmul_f32", "sequential/dense/MatMul*/", "MatMul",
                       "__inference_serve_12", 13, mm);
    sm2c_arg relu[] = { A_BUF(4), A_BUF(1), A_INT(8) };
    e->steps[1] = step(a, "sm2c_rt_relu_f32", "sequential/dense/Relu", "Relu", "", 3, relu);
    e->arena_bytes = 128;
    e->naive_bytes = 32;
    p->arena_bytes = 128;
    return p;
}

/* Special values: NaN payloads, -0, +-Inf, subnormals, as float and double
** weights copied to outputs, plus NaN and Inf float arguments. */
static const uint32_t SPECIAL_F[] = { 0x7fc00000u, 0x7fa12345u, 0xffc00001u, 0x80000000u,
                                      0x7f800000u, 0xff800000u, 0x00000001u, 0x807fffffu,
                                      0x3f800000u, 0x7f7fffffu, 0x00800000u, 0x3eaaaaabu };
static const uint64_t SPECIAL_D[] = { UINT64_C(0x7ff8000000000001), UINT64_C(0x8000000000000000),
                                      UINT64_C(0x0000000000000001), UINT64_C(0x3fd5555555555555),
                                      UINT64_C(0xfff0000000000000), UINT64_C(0x7fefffffffffffff) };
static const float FINITE_F[] = { -0.0f, 1.4e-45f, 3.4028235e38f, 0.1f, -1.17549435e-38f,
                                  16777217.0f, 1e-40f, 2.0f };

static sm2c_program *specials(sm2c_arena *a)
{
    static const int64_t d12[] = { 12 }, d6[] = { 6 }, d8[] = { 8 }, d2[] = { 2 };
    sm2c_program *p = sm2c_arena_alloc(a, sizeof *p);
    p->name = "sp";
    p->source = "specials";
    p->command = "sm2c compile specials";
    p->n_weights = 3;
    p->weights = sm2c_arena_array(a, 3, sizeof *p->weights);
    p->weights[0].name = "nan_and_friends";
    p->weights[0].value = tensor(a, SM2C_DT_FLOAT, 1, d12, SPECIAL_F, 4);
    p->weights[1].name = "doubles";
    p->weights[1].value = tensor(a, SM2C_DT_DOUBLE, 1, d6, SPECIAL_D, 8);
    p->weights[2].name = "finite";
    p->weights[2].value = tensor(a, SM2C_DT_FLOAT, 1, d8, FINITE_F, 4);
    p->n_entries = 1;
    p->entries = sm2c_arena_array(a, 1, sizeof *p->entries);
    sm2c_entry *e = &p->entries[0];
    e->key = "specials";
    e->c_name = "specials";
    e->n_buffers = 9;
    e->buffers = sm2c_arena_array(a, 9, sizeof *e->buffers);
    e->buffers[0] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_FLOAT, 1, d12, 0, 0, "f");
    e->buffers[1] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_DOUBLE, 1, d6, 1, 0, "d");
    e->buffers[2] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_FLOAT, 1, d8, 2, 0, "g");
    e->buffers[3] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_FLOAT, 1, d12, 0, 0, "w0");
    e->buffers[4] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_DOUBLE, 1, d6, 1, 0, "w1");
    e->buffers[5] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_FLOAT, 1, d8, 2, 0, "w2");
    e->buffers[6] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_FLOAT, 1, d2, 3, 0, "bn");
    e->buffers[7] = buffer(a, SM2C_BUF_ARENA, SM2C_DT_FLOAT, 1, d2, 0, 0, "t7");
    e->buffers[8] = buffer(a, SM2C_BUF_INPUT, SM2C_DT_FLOAT, 1, d2, 0, 0, "unused");
    e->n_inputs = 1;
    e->inputs = sm2c_arena_alloc(a, sizeof *e->inputs);
    e->inputs[0] = port(a, "int", "unused:0", SM2C_DT_FLOAT, 1, d2, 8);  /* a keyword key */
    e->n_outputs = 4;
    e->outputs = sm2c_arena_array(a, 4, sizeof *e->outputs);
    e->outputs[0] = port(a, "a/f", "f:0", SM2C_DT_FLOAT, 1, d12, 0);
    e->outputs[1] = port(a, "a_f", "d:0", SM2C_DT_DOUBLE, 1, d6, 1);
    e->outputs[2] = port(a, "g", "g:0", SM2C_DT_FLOAT, 1, d8, 2);
    e->outputs[3] = port(a, "t7", "bn:0", SM2C_DT_FLOAT, 1, d2, 6);
    e->n_steps = 5;
    e->steps = sm2c_arena_array(a, 5, sizeof *e->steps);
    sm2c_arg c0[] = { A_BUF(0), A_BUF(3), A_INT(48) };
    e->steps[0] = step(a, "sm2c_rt_copy", "copy_f", "Identity", "f", 3, c0);
    sm2c_arg c1[] = { A_BUF(1), A_BUF(4), A_INT(48) };
    e->steps[1] = step(a, "sm2c_rt_copy", "copy_d", "Identity", "f", 3, c1);
    sm2c_arg c2[] = { A_BUF(2), A_BUF(5), A_INT(32) };
    e->steps[2] = step(a, "sm2c_rt_copy", "copy_g", "Identity", "f", 3, c2);
    /* t7 = [-0.0f, -0.0f]: filled from the first element of `finite`. */
    sm2c_arg f3[] = { A_BUF(7), A_BUF(5), A_INT(4), A_INT(2) };
    e->steps[3] = step(a, "sm2c_rt_fill", "fill", "Fill", "", 4, f3);
    /* bn = (t7 - t7) * t7 / sqrt(t7 + eps) + t7 with eps = +Inf: zeros. */
    sm2c_arg bn[] = { A_BUF(7), A_BUF(7), A_BUF(7), A_BUF(7), A_BUF(7), A_FLT(fbits(0x7f800000u)),
                      A_BUF(6), A_INT(1), A_INT(2) };
    e->steps[4] = step(a, "sm2c_rt_batch_norm_f32", "bn", "FusedBatchNormV3", "", 9, bn);
    e->arena_bytes = 64;
    p->arena_bytes = 64;
    return p;
}

/* int64 y = x + w (wrapping), and the extremes of every integer type. */
static sm2c_program *ints(sm2c_arena *a)
{
    static const int64_t d3[] = { 3 }, d4[] = { 4 };
    static const int64_t W[3] = { INT64_MIN, INT64_MAX, -1 };
    static const int32_t W32[4] = { INT32_MIN, INT32_MAX, -1, 0 };
    static const int32_t dims[] = { 3 }, one[] = { 1 };
    static const int8_t W8[3] = { -128, -1, 127 };
    static const uint64_t WU[1] = { UINT64_MAX };
    static const int64_t d1[] = { 1 };
    sm2c_program *p = sm2c_arena_alloc(a, sizeof *p);
    p->name = "iv";
    p->source = "ints";
    p->command = "sm2c compile ints";
    p->n_weights = 4;
    p->weights = sm2c_arena_array(a, 4, sizeof *p->weights);
    p->weights[2].name = "w8";
    p->weights[2].value = tensor(a, SM2C_DT_INT8, 1, d3, W8, 1);
    p->weights[3].name = "wu";
    p->weights[3].value = tensor(a, SM2C_DT_UINT64, 1, d1, WU, 8);
    p->weights[0].name = "w";
    p->weights[0].value = tensor(a, SM2C_DT_INT64, 1, d3, W, 8);
    p->weights[1].name = "w32";
    p->weights[1].value = tensor(a, SM2C_DT_INT32, 1, d4, W32, 4);
    p->n_entries = 1;
    p->entries = sm2c_arena_array(a, 1, sizeof *p->entries);
    sm2c_entry *e = &p->entries[0];
    e->key = "add";
    e->c_name = "add";
    e->n_buffers = 9;
    e->buffers = sm2c_arena_array(a, 9, sizeof *e->buffers);
    e->buffers[5] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_INT8, 1, d3, 2, 0, "z8");
    e->buffers[6] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_INT8, 1, d3, 2, 0, "w8");
    e->buffers[7] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_UINT64, 1, d1, 3, 0, "zu");
    e->buffers[8] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_UINT64, 1, d1, 3, 0, "wu");
    e->buffers[0] = buffer(a, SM2C_BUF_INPUT, SM2C_DT_INT64, 1, d3, 0, 0, "x");
    e->buffers[1] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_INT64, 1, d3, 0, 0, "y");
    e->buffers[2] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_INT64, 1, d3, 0, 0, "w");
    e->buffers[3] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_INT32, 1, d4, 1, 0, "z");
    e->buffers[4] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_INT32, 1, d4, 1, 0, "w32");
    e->n_inputs = 1;
    e->inputs = sm2c_arena_alloc(a, sizeof *e->inputs);
    e->inputs[0] = port(a, "x", "x:0", SM2C_DT_INT64, 1, d3, 0);
    e->n_outputs = 4;
    e->outputs = sm2c_arena_array(a, 4, sizeof *e->outputs);
    e->outputs[0] = port(a, "y", "y:0", SM2C_DT_INT64, 1, d3, 1);
    e->outputs[1] = port(a, "z", "z:0", SM2C_DT_INT32, 1, d4, 3);
    e->outputs[2] = port(a, "z8", "z8:0", SM2C_DT_INT8, 1, d3, 5);
    e->outputs[3] = port(a, "zu", "zu:0", SM2C_DT_UINT64, 1, d1, 7);
    e->n_steps = 4;
    e->steps = sm2c_arena_array(a, 4, sizeof *e->steps);
    sm2c_arg c8[] = { A_BUF(5), A_BUF(6), A_INT(3) };
    e->steps[2] = step(a, "sm2c_rt_copy", "z8", "Identity", "", 3, c8);
    sm2c_arg cu[] = { A_BUF(7), A_BUF(8), A_INT(8) };
    e->steps[3] = step(a, "sm2c_rt_copy", "zu", "Identity", "", 3, cu);
    sm2c_arg add[] = { A_BUF(0), A_BUF(2), A_BUF(1), A_INT(1), A_INTS(1, dims), A_INTS(1, one),
                       A_INTS(1, one) };
    e->steps[0] = step(a, "sm2c_rt_add_i64", "add", "AddV2", "", 7, add);
    sm2c_arg cp[] = { A_BUF(3), A_BUF(4), A_INT(16) };
    e->steps[1] = step(a, "sm2c_rt_copy", "z", "Identity", "", 3, cp);
    return p;
}

/* Two entries sharing one weight and one int array. */
static sm2c_program *shared(sm2c_arena *a)
{
    static const int64_t d2[] = { 2 };
    static const float W[2] = { 3.5f, -0.0f };
    static const int32_t dims[] = { 2 }, one[] = { 1 };
    sm2c_program *p = sm2c_arena_alloc(a, sizeof *p);
    p->name = "two";
    p->source = "shared";
    p->command = "sm2c compile shared";
    p->n_weights = 1;
    p->weights = sm2c_arena_alloc(a, sizeof *p->weights);
    p->weights[0].name = "w";
    p->weights[0].value = tensor(a, SM2C_DT_FLOAT, 1, d2, W, 4);
    p->n_entries = 2;
    p->entries = sm2c_arena_array(a, 2, sizeof *p->entries);
    const char *ops[2] = { "sm2c_rt_add_f32", "sm2c_rt_mul_f32" };
    const char *keys[2] = { "add", "mul" };
    for (int k = 0; k < 2; k++) {
        sm2c_entry *e = &p->entries[k];
        e->key = keys[k];
        e->c_name = keys[k];
        e->n_buffers = 3;
        e->buffers = sm2c_arena_array(a, 3, sizeof *e->buffers);
        e->buffers[0] = buffer(a, SM2C_BUF_INPUT, SM2C_DT_FLOAT, 1, d2, 0, 0, "x");
        e->buffers[1] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_FLOAT, 1, d2, 0, 0, "y");
        e->buffers[2] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_FLOAT, 1, d2, 0, 0, "w");
        e->n_inputs = 1;
        e->inputs = sm2c_arena_alloc(a, sizeof *e->inputs);
        e->inputs[0] = port(a, "x", "x:0", SM2C_DT_FLOAT, 1, d2, 0);
        e->n_outputs = 1;
        e->outputs = sm2c_arena_alloc(a, sizeof *e->outputs);
        e->outputs[0] = port(a, "y", "y:0", SM2C_DT_FLOAT, 1, d2, 1);
        e->n_steps = 1;
        e->steps = sm2c_arena_alloc(a, sizeof *e->steps);
        sm2c_arg args[] = { A_BUF(0), A_BUF(2), A_BUF(1), A_INT(1), A_INTS(1, dims),
                            A_INTS(1, one), A_INTS(1, one) };
        e->steps[0] = step(a, ops[k], keys[k], "Op", "", 7, args);
    }
    return p;
}

/* ---- compiling and running the output ------------------------------------------ */

static const char *cc(void)
{
    const char *c = getenv("CC");
    return c && *c ? c : "cc";
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    if (st != 0)
        fprintf(stderr, "command failed (%d): %s\n", st, cmd);
    return st;
}

static int have(const char *prog)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", prog);
    return system(cmd) == 0;
}

#define STRICT "-std=c99 -Wall -Wextra -pedantic -Werror"

/* Emit p into root/out, check the generated .c compiles strictly (also with
** clang and as C11 when available), build it with the runtime and the
** driver, run it. */
static void build_and_run(test_ctx *t, const sm2c_program *p, const char *root, const char *driver)
{
    char *out = fs_path(root, "out");
    sm2c_status st = sm2c_emit_c(&t->ctx, p, out);
    if (st)
        fail_msg("emit: %s", t->diag.first);
    fs_write(root, "driver.c", driver, strlen(driver));
    assert_int_equal(sh("%s " STRICT " -I%s -c %s/%s.c -o %s/model.o", cc(), out, out, p->name, root), 0);
    if (have("clang"))
        assert_int_equal(sh("clang " STRICT " -Wshadow -fsyntax-only -I%s %s/%s.c %s/driver.c", out,
                            out, p->name, root), 0);
    if (have("gcc"))
        assert_int_equal(sh("gcc -std=c11 -Wall -Wextra -pedantic -Werror -Wshadow -fsyntax-only "
                            "-I%s %s/%s.c", out, out, p->name), 0);
    assert_int_equal(sh("%s -std=c99 -I%s %s/*.c %s/driver.c -lm -o %s/prog", cc(), out, out, root,
                        root), 0);
    assert_int_equal(sh("%s/prog", root), 0);
    free(out);
}

static const char mlp_driver[] =
    "#include <stdio.h>\n#include <string.h>\n#include \"mlp.h\"\n"
    "int main(void)\n{\n"
    "    static const float x[6] = { 1, 2, 3, -1, 0.5f, 4 };\n"
    "    static const float W[12] = { 1, 2, 3, 4, -1, -2, -3, -4, 0.5f, 0.25f, -0.125f, 2 };\n"
    "    static const float B[4] = { 0.5f, -10, 1e-3f, 0 };\n"
    "    float y[8], y2[8];\n"
    "    int i, j, k, bad = 0;\n"
    "    if (mlp_serving_default(x, y) != 0) return 1;\n"
    "    for (i = 0; i < 2; i++)\n"
    "        for (j = 0; j < 4; j++) {\n"
    "            double s = B[j];\n"
    "            for (k = 0; k < 3; k++) s += (double)x[i * 3 + k] * W[k * 4 + j];\n"
    "            if (s < 0) s = 0;\n"
    "            if (y[i * 4 + j] < s - 1e-5 || y[i * 4 + j] > s + 1e-5) {\n"
    "                printf(\"y[%d] = %g, want %g\\n\", i * 4 + j, y[i * 4 + j], s); bad = 1; }\n"
    "        }\n"
    "    /* the metadata table drives the same function */\n"
    "    {\n"
    "        void *in[1]; void *out[1];\n"
    "        in[0] = (void *)x; out[0] = y2;\n"
    "        if (mlp_n_signatures != 1 || strcmp(mlp_signatures[0].key, \"serving_default\")) return 2;\n"
    "        if (mlp_signatures[0].inputs[0].size_bytes != MLP_SERVING_DEFAULT_X_SIZE) return 3;\n"
    "        if (mlp_signatures[0].outputs[0].dims[1] != 4 || MLP_SERVING_DEFAULT_Y_ELEMENTS != 8) return 4;\n"
    "        if (mlp_signatures[0].run(in, out) != 0 || memcmp(y, y2, sizeof y)) return 5;\n"
    "        if (MLP_SERVING_DEFAULT_Y_RANK != 2 || MLP_ARENA_SIZE != 128) return 6;\n"
    "    }\n"
    "    return bad;\n}\n";

static int count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
            n++;
    if (d)
        closedir(d);
    return n;
}

/* Every kernel with a shape-specialised form ships the family file that
** model.c includes for it, and rt_target.h, which model.c tests first (the
** kernel map decides what ships). */
static void special_families_ship(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    size_t n;
    const sm2c_c_special *sp = sm2c_c_special_table(&n);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        sm2c_outfile *files;
        size_t nfiles, found = 0;
        assert_int_equal(sm2c_runtime_select(&t->ctx, &sp[i].kernel, 1, &files, &nfiles), SM2C_OK);
        for (size_t f = 0; f < nfiles; f++)
            found += strcmp(files[f].name, sp[i].family) == 0 || strcmp(files[f].name, "rt_target.h") == 0;
        if (found != 2)
            fail_msg("%s: %s or rt_target.h is not among its runtime files", sp[i].kernel, sp[i].family);
    }
    test_ctx_free(t);
}

static void mlp_runs(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    char *root = fs_tmpdir();
    sm2c_program *p = mlp(t->arena, "mlp");
    build_and_run(t, p, root, mlp_driver);

    /* The runtime pieces: the two kernels' files (each a family member
    ** selected from its .inc) and the headers they include, nothing else. */
    char *out = fs_path(root, "out");
    const char *want[] = { "mlp.h", "mlp.c", "sm2c_rt.h", "rt_select.h", "act_f32.h",
                           "matmul_f32.inc", "sm2c_rt_matmul_f32.c", "unary_f32.inc", "sm2c_rt_relu_f32.c",
                           "vmath_f32.h", "vmath_x86_f32.h", "simd_f32.h", "simd_act_f32.h",
                           "rt_target.h" };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char *f = fs_path(out, want[i]);
        if (access(f, F_OK) != 0)
            fail_msg("%s missing", want[i]);
        free(f);
    }
    /* less . and .., and the manifest .sm2c-output that names them */
    assert_int_equal(count_entries(out, "") - 3, (int)(sizeof want / sizeof *want));
    char *manifest = fs_path(out, ".sm2c-output");
    assert_int_equal(access(manifest, F_OK), 0);
    free(manifest);

    /* Comments are escaped, the banner and the prototype are there. */
    size_t n;
    char *hp = fs_path(out, "mlp.h");
    char *h = (char *)fs_read(hp, &n);
    h[n] = 0;
    assert_non_null(strstr(h, "Generated by sm2c "));
    assert_non_null(strstr(h, "DO NOT EDIT"));
    assert_non_null(strstr(h, "int32_t mlp_serving_default(const float *x, float *y);"));
    assert_non_null(strstr(h, "#define MLP_SERVING_DEFAULT_X_SIZE 24"));
    assert_non_null(strstr(h, "extern const mlp_signature_info mlp_signatures[];"));
    assert_null(strstr(h, "?\?/"));
    char *cp = fs_path(out, "mlp.c");
    char *c = (char *)fs_read(cp, &n);
    c[n] = 0;
    assert_non_null(strstr(c, "/* sequential/dense/MatMul* / (MatMul) in __inference_serve_12 */"));
    assert_non_null(strstr(c, "float *t4 = (float *)(void *)(mlp_arena + 64);"));
    assert_non_null(strstr(c, "-0.125f"));
    free(h);
    free(c);
    free(hp);
    free(cp);
    free(out);
    fs_rm_rf(root);
    test_ctx_free(t);
}

static char *specials_driver(void)
{
    static char buf[8192];
    char *q = buf;
    q += sprintf(q, "#include <stdio.h>\n#include <string.h>\n#include <stdint.h>\n#include \"sp.h\"\n"
                    "static const uint32_t wf[12] = {");
    for (size_t i = 0; i < 12; i++)
        q += sprintf(q, "%s0x%08xu", i ? ", " : "", (unsigned)SPECIAL_F[i]);
    q += sprintf(q, "};\nstatic const uint64_t wd[6] = {");
    for (size_t i = 0; i < 6; i++)
        q += sprintf(q, "%sUINT64_C(0x%016llx)", i ? ", " : "", (unsigned long long)SPECIAL_D[i]);
    q += sprintf(q, "};\nstatic const uint32_t wg[8] = {");
    for (size_t i = 0; i < 8; i++) {
        uint32_t u;
        memcpy(&u, &FINITE_F[i], 4);
        q += sprintf(q, "%s0x%08xu", i ? ", " : "", (unsigned)u);
    }
    q += sprintf(q, "};\n"
                    "int main(void)\n{\n"
                    "    float in[2] = {0, 0}, f[12], g[8], bn[2];\n    double d[6];\n"
                    "    uint32_t fb[12], gb[8];\n    uint64_t db[6];\n    int i, bad = 0;\n"
                    "    if (sp_specials(in, f, d, g, bn) != 0) return 9;\n"
                    "    memcpy(fb, f, sizeof f); memcpy(db, d, sizeof d); memcpy(gb, g, sizeof g);\n"
                    "    for (i = 0; i < 12; i++) if (fb[i] != wf[i]) { printf(\"f[%%d] %%08x want %%08x\\n\", i, (unsigned)fb[i], (unsigned)wf[i]); bad = 1; }\n"
                    "    for (i = 0; i < 6; i++) if (db[i] != wd[i]) { printf(\"d[%%d] differs\\n\", i); bad = 1; }\n"
                    "    for (i = 0; i < 8; i++) if (gb[i] != wg[i]) { printf(\"g[%%d] %%08x want %%08x\\n\", i, (unsigned)gb[i], (unsigned)wg[i]); bad = 1; }\n"
                    "    /* fill took -0.0f (finite[0]); batch norm with eps=+Inf gives the offset */\n"
                    "    if (bn[0] != 0.0f || bn[1] != 0.0f) { printf(\"bn %%g %%g\\n\", bn[0], bn[1]); bad = 1; }\n"
                    "    return bad;\n}\n");
    return buf;
}

static void specials_round_trip(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    char *root = fs_tmpdir();
    sm2c_program *p = specials(t->arena);
    build_and_run(t, p, root, specials_driver());
    char *hdr, *src;
    assert_int_equal(sm2c_emit_c_text(&t->ctx, p, &hdr, &src), SM2C_OK);
    /* Keys become safe, distinct parameter names and macros. */
    assert_non_null(strstr(hdr, "int32_t sp_specials(const float *x_int, float *a_f, double *a_f_2, "
                                "float *g, float *t7_2);"));
    assert_non_null(strstr(hdr, "SP_SPECIALS_A_F_SIZE 48"));
    assert_non_null(strstr(hdr, "SP_SPECIALS_A_F_2_SIZE 48"));
    assert_non_null(strstr(src, "(void)x_int;"));
    assert_non_null(strstr(src, "0x7fa12345u"));
    assert_non_null(strstr(src, "-0.0f"));
    assert_non_null(strstr(src, "sp_w1.f"));
    fs_rm_rf(root);
    test_ctx_free(t);
}

static const char ints_driver[] =
    "#include <stdint.h>\n#include \"iv.h\"\n"
    "int main(void)\n{\n"
    "    int64_t x[3] = { -1, 1, INT64_MIN }, y[3];\n    int32_t z[4];\n    int8_t z8[3];\n    uint64_t zu[1];\n"
    "    if (iv_add(x, y, z, z8, zu) != 0) return 9;\n"
    "    if (z8[0] != -128 || z8[1] != -1 || z8[2] != 127 || zu[0] != UINT64_MAX) return 4;\n"
    "    if (y[0] != INT64_MAX || y[1] != INT64_MIN || y[2] != INT64_MAX) return 1;\n"
    "    if (z[0] != INT32_MIN || z[1] != INT32_MAX || z[2] != -1 || z[3] != 0) return 2;\n"
    "    if (IV_ADD_X_SIZE != 24 || iv_signatures[0].inputs[0].dtype != 9) return 3;\n"
    "    return 0;\n}\n";

static void int64_program(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    char *root = fs_tmpdir();
    sm2c_program *p = ints(t->arena);
    build_and_run(t, p, root, ints_driver);
    char *hdr, *src;
    assert_int_equal(sm2c_emit_c_text(&t->ctx, p, &hdr, &src), SM2C_OK);
    assert_non_null(strstr(src, "(-INT64_C(9223372036854775807) - 1)"));
    assert_non_null(strstr(src, "(-2147483647 - 1)"));
    /* Identical int arrays are emitted once. */
    assert_non_null(strstr(src, "static const int32_t iv_k1[1] = {1};"));
    assert_null(strstr(src, "iv_k2"));
    fs_rm_rf(root);
    test_ctx_free(t);
}

static const char shared_driver[] =
    "#include \"two.h\"\n"
    "int main(void)\n{\n"
    "    float x[2] = { 1, 2 }, a[2], m[2];\n"
    "    if (two_add(x, a) || two_mul(x, m)) return 9;\n"
    "    if (a[0] != 4.5f || a[1] != 2.0f || m[0] != 3.5f || m[1] != 0.0f) return 1;\n"
    "    if (two_n_signatures != 2) return 2;\n"
    "    return 0;\n}\n";

static void two_entries_share(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    char *root = fs_tmpdir();
    sm2c_program *p = shared(t->arena);
    build_and_run(t, p, root, shared_driver);
    char *hdr, *src;
    assert_int_equal(sm2c_emit_c_text(&t->ctx, p, &hdr, &src), SM2C_OK);
    const char *w = strstr(src, "static SM2C_ALIGN const float two_w0[2]");
    assert_non_null(w);
    assert_null(strstr(w + 1, "static SM2C_ALIGN const float two_w0"));
    assert_null(strstr(src, "two_arena"));   /* no arena buffer used: none emitted */
    fs_rm_rf(root);
    test_ctx_free(t);
}

/* ---- determinism and safe output ------------------------------------------------ */

static int same_file(const char *a, const char *b)
{
    size_t na, nb;
    unsigned char *x = fs_read(a, &na), *y = fs_read(b, &nb);
    int same = na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

static void deterministic(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    char *root = fs_tmpdir();
    char *o1 = fs_path(root, "one"), *o2 = fs_path(root, "two");
    assert_int_equal(sm2c_emit_c(&t->ctx, mlp(t->arena, "mlp"), o1), SM2C_OK);
    assert_int_equal(sm2c_emit_c(&t->ctx, mlp(t->arena, "mlp"), o2), SM2C_OK);
    const char *files[] = { "mlp.h", "mlp.c", "sm2c_rt.h", "sm2c_rt_matmul_f32.c" };
    for (size_t i = 0; i < 4; i++) {
        char *a = fs_path(o1, files[i]), *b = fs_path(o2, files[i]);
        assert_true(same_file(a, b));
        free(a);
        free(b);
    }
    /* Emitting again over the old output replaces it with identical bytes. */
    assert_int_equal(sm2c_emit_c(&t->ctx, mlp(t->arena, "mlp"), o1), SM2C_OK);
    char *a = fs_path(o1, "mlp.c"), *b = fs_path(o2, "mlp.c");
    assert_true(same_file(a, b));
    free(a);
    free(b);
    assert_int_equal(count_entries(o1, ".sm2c-tmp"), 0);
    free(o1);
    free(o2);
    fs_rm_rf(root);
    test_ctx_free(t);
}

static void outdir_symlink_refused(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    char *root = fs_tmpdir();
    fs_mkdir(root, "real");
    char *real = fs_path(root, "real"), *link_ = fs_path(root, "link");
    assert_int_equal(symlink(real, link_), 0);
    assert_int_equal(sm2c_emit_c(&t->ctx, mlp(t->arena, "mlp"), link_), SM2C_ERR_INVALID);
    assert_error_contains(t, "symlink");
    assert_int_equal(count_entries(real, ""), 2);    /* . and .. */
    free(real);
    free(link_);
    fs_rm_rf(root);
    test_ctx_free(t);
}

/* A symlink where mlp.c goes is never written through, and nothing changes. */
static void output_symlink_not_followed(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    char *root = fs_tmpdir();
    fs_mkdir(root, "out");
    fs_write(root, "victim", "precious", 8);
    fs_write(root, "out/mlp.h", "old header", 10);
    char *victim = fs_path(root, "victim"), *lnk = fs_path(root, "out/mlp.c");
    assert_int_equal(symlink(victim, lnk), 0);
    char *out = fs_path(root, "out");
    assert_int_equal(sm2c_emit_c(&t->ctx, mlp(t->arena, "mlp"), out), SM2C_ERR_INVALID);
    assert_error_contains(t, "symlink");
    size_t n;
    unsigned char *v = fs_read(victim, &n);
    assert_int_equal(n, 8);
    assert_memory_equal(v, "precious", 8);
    free(v);
    char *hp = fs_path(out, "mlp.h");
    v = fs_read(hp, &n);
    assert_int_equal(n, 10);    /* earlier output untouched */
    free(v);
    struct stat st;
    assert_int_equal(lstat(lnk, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(count_entries(out, ".sm2c-tmp"), 0);
    char *rt = fs_path(out, "sm2c_rt.h");
    assert_int_not_equal(access(rt, F_OK), 0);
    free(rt);
    free(hp);
    free(victim);
    free(lnk);
    free(out);
    fs_rm_rf(root);
    test_ctx_free(t);
}

/* A failure while writing (a directory where an output goes) leaves the old files. */
static void failure_leaves_old_output(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    char *root = fs_tmpdir();
    fs_mkdir(root, "out");
    char *out = fs_path(root, "out");
    assert_int_equal(sm2c_emit_c(&t->ctx, mlp(t->arena, "mlp"), out), SM2C_OK);
    char *hp = fs_path(out, "mlp.h");
    size_t n0;
    unsigned char *before = fs_read(hp, &n0);
    char *vc = fs_path(out, "sm2c_rt_matmul_f32.c");
    assert_int_equal(unlink(vc), 0);
    free(vc);
    fs_mkdir(out, "sm2c_rt_matmul_f32.c");
    sm2c_program *p = mlp(t->arena, "mlp");
    p->arena_bytes = p->entries[0].arena_bytes = 256;
    assert_int_equal(sm2c_emit_c(&t->ctx, p, out), SM2C_ERR_INVALID);
    assert_error_contains(t, "directory");
    size_t n1;
    unsigned char *after = fs_read(hp, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    assert_int_equal(count_entries(out, ".sm2c-tmp"), 0);
    free(before);
    free(after);
    free(hp);
    free(out);
    fs_rm_rf(root);
    test_ctx_free(t);
}

static void creates_outdir_and_rejects_bad_programs(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    char *root = fs_tmpdir();
    char *out = fs_path(root, "new");
    assert_int_equal(sm2c_emit_c(&t->ctx, mlp(t->arena, "mlp"), out), SM2C_OK);
    /* A kernel name that is not a runtime identifier is a lowering bug. */
    sm2c_program *p = mlp(t->arena, "mlp");
    p->entries[0].steps[0].kernel = "system(\"rm\")";
    assert_int_equal(sm2c_emit_c(&t->ctx, p, out), SM2C_ERR_INTERNAL);
    /* An arena buffer beyond the arena. */
    p = mlp(t->arena, "mlp");
    p->entries[0].buffers[4].offset = 4096;
    assert_int_equal(sm2c_emit_c(&t->ctx, p, out), SM2C_ERR_INTERNAL);
    /* Names that would clash with the runtime. */
    p = mlp(t->arena, "version");
    assert_int_equal(sm2c_emit_c(&t->ctx, p, out), SM2C_ERR_USAGE);
    p = mlp(t->arena, "sm2c_rt");
    assert_int_equal(sm2c_emit_c(&t->ctx, p, out), SM2C_ERR_USAGE);
    free(out);
    fs_rm_rf(root);
    test_ctx_free(t);
}

/* The text does not depend on LC_NUMERIC. */
static void locale_independent(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    char *h1, *s1, *h2, *s2;
    assert_int_equal(sm2c_emit_c_text(&t->ctx, specials(t->arena), &h1, &s1), SM2C_OK);
    const char *locales[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "C.UTF-8", NULL };
    for (size_t i = 0; locales[i]; i++)
        if (setlocale(LC_NUMERIC, locales[i]))
            break;
    assert_int_equal(sm2c_emit_c_text(&t->ctx, specials(t->arena), &h2, &s2), SM2C_OK);
    setlocale(LC_NUMERIC, "C");
    assert_string_equal(h1, h2);
    assert_string_equal(s1, s2);
    test_ctx_free(t);
}

/* F7: the output directory may not be (inside) the SavedModel directory. */
static void outdir_inside_source_refused(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    char *root = fs_tmpdir();
    fs_mkdir(root, "model");
    fs_mkdir(root, "model/gen");
    sm2c_program *p = mlp(t->arena, "mlp");
    char *src = fs_path(root, "model");
    p->source = src;
    char *out = fs_path(root, "model/gen");
    assert_int_equal(sm2c_emit_c(&t->ctx, p, out), SM2C_ERR_INVALID);
    assert_error_contains(t, "SavedModel directory");
    assert_int_equal(sm2c_emit_c(&t->ctx, p, src), SM2C_ERR_INVALID);
    assert_int_equal(count_entries(out, ""), 2);
    free(src);
    free(out);
    fs_rm_rf(root);
    test_ctx_free(t);
}

/* ---- mangle.c ------------------------------------------------------------------ */

static void mangle_names(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    sm2c_arena *a = t->arena;
    assert_string_equal(sm2c_mangle_sanitize(a, "serving_default", 1, 64), "SERVING_DEFAULT");
    assert_string_equal(sm2c_mangle_sanitize(a, "a/b:0", 0, 64), "a_b_0");
    assert_string_equal(sm2c_mangle_sanitize(a, "a__b", 0, 64), "a_b");
    assert_string_equal(sm2c_mangle_sanitize(a, "", 0, 64), "_");
    assert_string_equal(sm2c_mangle_sanitize(a, "abcdef", 0, 3), "abc");
    assert_string_equal(sm2c_mangle_sanitize(a, "\xc3\xa9t\xc3\xa9", -1, 64), "_t_");
    assert_true(sm2c_mangle_is_ident("_x1"));
    assert_false(sm2c_mangle_is_ident("1x"));
    assert_true(sm2c_mangle_is_bad("int"));
    assert_true(sm2c_mangle_is_bad("_Foo"));
    assert_true(sm2c_mangle_is_bad("size_t"));
    assert_true(sm2c_mangle_is_bad("a__b"));
    assert_false(sm2c_mangle_is_bad("input_1"));

    sm2c_nameset s;
    sm2c_nameset_init(&s, a);
    assert_string_equal(sm2c_mangle_unique(&s, "x", "x_"), "x");
    assert_string_equal(sm2c_mangle_unique(&s, "x", "x_"), "x_2");
    assert_string_equal(sm2c_mangle_unique(&s, "int", "x_"), "x_int");
    assert_string_equal(sm2c_mangle_unique(&s, "3d", "x_"), "x_3d");
    assert_string_equal(sm2c_mangle_unique(&s, "_", "x_"), "x_");
    assert_string_equal(sm2c_mangle_unique(&s, "_", "x_"), "x_3");   /* x_2 is taken */
    assert_string_equal(sm2c_mangle_unique(&s, "my_t", "x_"), "my_t_");
    assert_string_equal(sm2c_mangle_unique(&s, "a/b", "x_"), "a_b");
    assert_string_equal(sm2c_mangle_unique(&s, "a.b", "x_"), "a_b_2");
    test_ctx_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mangle_names),
        cmocka_unit_test(special_families_ship),
        cmocka_unit_test(mlp_runs),
        cmocka_unit_test(specials_round_trip),
        cmocka_unit_test(int64_program),
        cmocka_unit_test(two_entries_share),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(outdir_symlink_refused),
        cmocka_unit_test(output_symlink_not_followed),
        cmocka_unit_test(failure_leaves_old_output),
        cmocka_unit_test(creates_outdir_and_rejects_bad_programs),
        cmocka_unit_test(locale_independent),
        cmocka_unit_test(outdir_inside_source_refused),
    };
    return cmocka_run_group_tests_name("emit_c", tests, NULL, NULL);
}
