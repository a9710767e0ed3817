/*
** test_emit_llvm.c: the LLVM backend.  A hand-built program (an MLP with an
** arena intermediate, an int64 add with broadcasting, weights and float
** arguments with NaN payloads, -0 and infinities) is emitted as an object for
** the host, linked by the system C compiler ($CC, else cc) with the runtime
** and the header the C backend writes, and run: every output, direct and
** through the metadata table, must equal the C backend's bit for bit.  Plus
** the .ll and .bc forms, a Cortex-M4 object, byte order, determinism and
** clean errors.
*/
#include "sm2c_test.h"
#include "test_fs.h"

#include <stdio.h>
#include <sys/stat.h>

#include "codegen/emit_c.h"
#include "codegen/emit_llvm.h"
#include "lower/program.h"

/* ---- building the program by hand ----------------------------------------------- */

#include "test_program.h"
}

static sm2c_port port(sm2c_arena *a, const char *key, int dtype, int32_t rank, const int64_t *d,
                      int32_t buf)
{
    sm2c_port p = { key, key, dtype, shape(a, rank, d), buf, 0, 0, 0, 0, 0.0f, 0 };
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

static sm2c_step step(sm2c_arena *a, const char *kernel, const char *node, int32_t n,
                      const sm2c_arg *args)
{
    sm2c_step s = { kernel, n, sm2c_arena_array(a, (size_t)n, sizeof(sm2c_arg)), node, "Op", "", 0, 0, 0, 0, NULL, NULL };
    memcpy(s.args, args, (size_t)n * sizeof *args);
    return s;
}

static float fbits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static const float MLP_W[12] = { 1, 2, 3, 4, -1, -2, -3, -4, 0.5f, 0.25f, -0.125f, 2 };
static const float MLP_B[4] = { 0.5f, -10, 1e-3f, 0 };
static const int64_t ADD_W[3] = { INT64_MIN, INT64_MAX, -1 };
static const uint32_t SPECIAL_F[] = { 0x7fc00000u, 0x7fa12345u, 0xffc00001u, 0x80000000u,
                                      0x7f800000u, 0xff800000u, 0x00000001u, 0x807fffffu,
                                      0x3f800000u, 0x7f7fffffu, 0x00800000u, 0x3eaaaaabu };
static const uint64_t SPECIAL_D[] = { UINT64_C(0x7ff8000000000001), UINT64_C(0x8000000000000000),
                                      UINT64_C(0x0000000000000001), UINT64_C(0x3fd5555555555555),
                                      UINT64_C(0xfff0000000000000), UINT64_C(0x7fefffffffffffff) };
static const float FINITE_F[] = { -0.0f, 1.4e-45f, 3.4028235e38f, 0.1f, -1.17549435e-38f,
                                  16777217.0f, 1e-40f, 2.0f };
static const float UNUSED_W[2] = { 42, 43 };

/* Entry 0 "serving_default": y = relu(x @ W + b), x float32[2,3], t4 in the arena.
** Entry 1 "add": int64 y[2,3] = x[2,3] + w[3] (broadcast, wrapping), twice through
** one shared int array.  Entry 2 "specials": NaN/-0/Inf weights copied out, a fill
** and batch norms with +Inf and NaN-payload epsilons; an unused input. */
static sm2c_program *model(sm2c_arena *a)
{
    static const int64_t d23[] = { 2, 3 }, d34[] = { 3, 4 }, d4[] = { 4 }, d24[] = { 2, 4 },
                         d3[] = { 3 }, d12[] = { 12 }, d6[] = { 6 }, d8[] = { 8 }, d2[] = { 2 };
    static const int32_t dims23[] = { 2, 3 }, sx[] = { 3, 1 }, sw[] = { 0, 1 };
    sm2c_program *p = sm2c_arena_alloc(a, sizeof *p);
    p->name = "m";
    p->source = "tests/m";
    p->source_name = "m";
    p->command = "sm2c compile --name m tests/m";
    p->n_weights = 7;
    p->weights = sm2c_arena_array(a, 7, sizeof *p->weights);
    p->weights[0] = (sm2c_weight){ "dense/kernel", tensor(a, SM2C_DT_FLOAT, 2, d34, MLP_W, 4) };
    p->weights[1] = (sm2c_weight){ "dense/bias", tensor(a, SM2C_DT_FLOAT, 1, d4, MLP_B, 4) };
    p->weights[2] = (sm2c_weight){ "w64", tensor(a, SM2C_DT_INT64, 1, d3, ADD_W, 8) };
    p->weights[3] = (sm2c_weight){ "nan_and_friends", tensor(a, SM2C_DT_FLOAT, 1, d12, SPECIAL_F, 4) };
    p->weights[4] = (sm2c_weight){ "doubles", tensor(a, SM2C_DT_DOUBLE, 1, d6, SPECIAL_D, 8) };
    p->weights[5] = (sm2c_weight){ "finite", tensor(a, SM2C_DT_FLOAT, 1, d8, FINITE_F, 4) };
    p->weights[6] = (sm2c_weight){ "unused", tensor(a, SM2C_DT_FLOAT, 1, d2, UNUSED_W, 4) };
    p->n_entries = 4;
    p->entries = sm2c_arena_array(a, 4, sizeof *p->entries);
    p->arena_bytes = 128;

    sm2c_entry *e = &p->entries[0];
    e->key = "serving_default";
    e->c_name = "serving_default";
    e->n_buffers = 5;
    e->buffers = sm2c_arena_array(a, 5, sizeof *e->buffers);
    e->buffers[0] = buffer(a, SM2C_BUF_INPUT, SM2C_DT_FLOAT, 2, d23, 0, 0, "x");
    e->buffers[1] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_FLOAT, 2, d24, 0, 0, "y");
    e->buffers[2] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_FLOAT, 2, d34, 0, 0, "W");
    e->buffers[3] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_FLOAT, 1, d4, 1, 0, "b");
    e->buffers[4] = buffer(a, SM2C_BUF_ARENA, SM2C_DT_FLOAT, 2, d24, 0, 64, "t");
    e->n_inputs = 1;
    e->inputs = sm2c_arena_alloc(a, sizeof *e->inputs);
    e->inputs[0] = port(a, "x", SM2C_DT_FLOAT, 2, d23, 0);
    e->n_outputs = 1;
    e->outputs = sm2c_arena_alloc(a, sizeof *e->outputs);
    e->outputs[0] = port(a, "y", SM2C_DT_FLOAT, 2, d24, 1);
    e->n_steps = 2;
    e->steps = sm2c_arena_array(a, 2, sizeof *e->steps);
    sm2c_arg mm[] = { A_BUF(0), A_BUF(2), A_BUF(3), A_BUF(4), A_INT(2), A_INT(3), A_INT(4),
                      A_INT(0), A_INT(0), A_INT(0), A_FLT(0.0f), A_FLT(0.0f), A_NULL() };
    e->steps[0] = step(a, "sm2c_rt_matmul_f32", "dense/MatMul", 13, mm);
    sm2c_arg relu[] = { A_BUF(4), A_BUF(1), A_INT(8) };
    e->steps[1] = step(a, "sm2c_rt_relu_f32", "dense/Relu", 3, relu);
    e->arena_bytes = 128;

    e = &p->entries[1];
    e->key = "add";
    e->c_name = "add";
    e->n_buffers = 4;
    e->buffers = sm2c_arena_array(a, 4, sizeof *e->buffers);
    e->buffers[0] = buffer(a, SM2C_BUF_INPUT, SM2C_DT_INT64, 2, d23, 0, 0, "x");
    e->buffers[1] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_INT64, 2, d23, 0, 0, "y");
    e->buffers[2] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_INT64, 1, d3, 2, 0, "w");
    e->buffers[3] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_INT64, 2, d23, 1, 0, "z");
    e->n_inputs = 1;
    e->inputs = sm2c_arena_alloc(a, sizeof *e->inputs);
    e->inputs[0] = port(a, "x", SM2C_DT_INT64, 2, d23, 0);
    e->n_outputs = 2;
    e->outputs = sm2c_arena_array(a, 2, sizeof *e->outputs);
    e->outputs[0] = port(a, "y", SM2C_DT_INT64, 2, d23, 1);
    e->outputs[1] = port(a, "z", SM2C_DT_INT64, 2, d23, 3);
    e->n_steps = 2;
    e->steps = sm2c_arena_array(a, 2, sizeof *e->steps);
    sm2c_arg add[] = { A_BUF(0), A_BUF(2), A_BUF(1), A_INT(2), A_INTS(2, dims23), A_INTS(2, sx),
                       A_INTS(2, sw) };
    e->steps[0] = step(a, "sm2c_rt_add_i64", "add", 7, add);
    /* z = y + w: the same arrays again (deduplicated). */
    sm2c_arg add2[] = { A_BUF(1), A_BUF(2), A_BUF(3), A_INT(2), A_INTS(2, dims23),
                        A_INTS(2, sx), A_INTS(2, sw) };
    e->steps[1] = step(a, "sm2c_rt_add_i64", "add2", 7, add2);

    e = &p->entries[2];
    e->key = "specials";
    e->c_name = "specials";
    e->n_buffers = 12;
    e->buffers = sm2c_arena_array(a, 12, sizeof *e->buffers);
    e->buffers[0] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_FLOAT, 1, d12, 0, 0, "f");
    e->buffers[1] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_DOUBLE, 1, d6, 1, 0, "d");
    e->buffers[2] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_FLOAT, 1, d8, 2, 0, "g");
    e->buffers[3] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_FLOAT, 1, d12, 3, 0, "w3");
    e->buffers[4] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_DOUBLE, 1, d6, 4, 0, "w4");
    e->buffers[5] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_FLOAT, 1, d8, 5, 0, "w5");
    e->buffers[6] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_FLOAT, 1, d2, 3, 0, "bn");
    e->buffers[7] = buffer(a, SM2C_BUF_ARENA, SM2C_DT_FLOAT, 1, d2, 0, 0, "t7");
    e->buffers[8] = buffer(a, SM2C_BUF_INPUT, SM2C_DT_FLOAT, 1, d2, 0, 0, "unused");
    e->buffers[9] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_FLOAT, 1, d2, 4, 0, "bn2");
    e->buffers[10] = buffer(a, SM2C_BUF_ARENA, SM2C_DT_FLOAT, 1, d2, 0, 8, "halves");
    e->buffers[11] = buffer(a, SM2C_BUF_WEIGHT, SM2C_DT_FLOAT, 1, d4, 1, 0, "b");
    e->n_inputs = 1;
    e->inputs = sm2c_arena_alloc(a, sizeof *e->inputs);
    e->inputs[0] = port(a, "int", SM2C_DT_FLOAT, 1, d2, 8);
    e->n_outputs = 5;
    e->outputs = sm2c_arena_array(a, 5, sizeof *e->outputs);
    e->outputs[0] = port(a, "a/f", SM2C_DT_FLOAT, 1, d12, 0);
    e->outputs[1] = port(a, "a_f", SM2C_DT_DOUBLE, 1, d6, 1);
    e->outputs[2] = port(a, "g", SM2C_DT_FLOAT, 1, d8, 2);
    e->outputs[3] = port(a, "t7", SM2C_DT_FLOAT, 1, d2, 6);
    e->outputs[4] = port(a, "u", SM2C_DT_FLOAT, 1, d2, 9);
    e->n_steps = 7;
    e->steps = sm2c_arena_array(a, 7, sizeof *e->steps);
    sm2c_arg c0[] = { A_BUF(0), A_BUF(3), A_INT(48) };
    e->steps[0] = step(a, "sm2c_rt_copy", "copy_f", 3, c0);
    sm2c_arg c1[] = { A_BUF(1), A_BUF(4), A_INT(48) };
    e->steps[1] = step(a, "sm2c_rt_copy", "copy_d", 3, c1);
    sm2c_arg c2[] = { A_BUF(2), A_BUF(5), A_INT(32) };
    e->steps[2] = step(a, "sm2c_rt_copy", "copy_g", 3, c2);
    sm2c_arg f3[] = { A_BUF(7), A_BUF(5), A_INT(4), A_INT(2) };         /* t7 = -0.0f */
    e->steps[3] = step(a, "sm2c_rt_fill", "fill", 4, f3);
    sm2c_arg bn[] = { A_BUF(7), A_BUF(7), A_BUF(7), A_BUF(7), A_BUF(7), A_FLT(fbits(0x7f800000u)),
                      A_BUF(6), A_INT(1), A_INT(2) };
    e->steps[4] = step(a, "sm2c_rt_batch_norm_f32", "bn", 9, bn);
    /* halves = 0.5f (the first bias), then a batch norm with a NaN-payload
    ** epsilon: a NaN. */
    sm2c_arg f5[] = { A_BUF(10), A_BUF(11), A_INT(4), A_INT(2) };
    e->steps[5] = step(a, "sm2c_rt_fill", "fill1", 4, f5);
    (void)A_NULL;
    sm2c_arg bn2[] = { A_BUF(10), A_BUF(10), A_BUF(10), A_BUF(10), A_BUF(10),
                       A_FLT(fbits(0x7fa00bcdu)), A_BUF(9), A_INT(1), A_INT(2) };
    e->steps[6] = step(a, "sm2c_rt_batch_norm_f32", "bn2", 9, bn2);
    e->arena_bytes = 16;

    /* y = idx after a checked step: an index outside [0, 10) returns -1. */
    e = &p->entries[3];
    e->key = "checked";
    e->c_name = "checked";
    e->n_buffers = 2;
    e->buffers = sm2c_arena_array(a, 2, sizeof *e->buffers);
    e->buffers[0] = buffer(a, SM2C_BUF_INPUT, SM2C_DT_INT32, 1, d4, 0, 0, "idx");
    e->buffers[1] = buffer(a, SM2C_BUF_OUTPUT, SM2C_DT_INT32, 1, d4, 0, 0, "y");
    e->n_inputs = 1;
    e->inputs = sm2c_arena_alloc(a, sizeof *e->inputs);
    e->inputs[0] = port(a, "idx", SM2C_DT_INT32, 1, d4, 0);
    e->n_outputs = 1;
    e->outputs = sm2c_arena_alloc(a, sizeof *e->outputs);
    e->outputs[0] = port(a, "y", SM2C_DT_INT32, 1, d4, 1);
    e->n_steps = 2;
    e->steps = sm2c_arena_array(a, 2, sizeof *e->steps);
    sm2c_arg ck[] = { A_BUF(0), A_INT(4), A_INT(0), A_INT(10) };
    e->steps[0] = step(a, "sm2c_rt_check_indices_i32", "check", 4, ck);
    e->steps[0].checked = 1;
    sm2c_arg cp[] = { A_BUF(1), A_BUF(0), A_INT(16) };
    e->steps[1] = step(a, "sm2c_rt_copy", "copy", 3, cp);
    return p;
}

/* ---- compiling and running --------------------------------------------------------- */

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

/* Prints every output, through the metadata table and through the direct
** calls, as hex; checks some values itself. */
static const char driver[] =
    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <stdint.h>\n"
    "#include \"m.h\"\n"
    "static void hex(const char *tag, const void *p, long long n)\n{\n"
    "    const unsigned char *b = p; long long i;\n"
    "    printf(\"%s \", tag);\n"
    "    for (i = 0; i < n; i++) printf(\"%02x\", b[i]);\n"
    "    printf(\"\\n\");\n}\n"
    "static void fill(void *p, int dtype, long long size)\n{\n"
    "    long long j;\n"
    "    static const int64_t big[6] = { INT64_MAX, -1, 5, INT64_MIN, 3, 1 };\n"
    "    if (dtype == 1) for (j = 0; j < size / 4; j++) ((float *)p)[j] = (float)((j * 7 % 11) - 5) * 0.375f;\n"
    "    else if (dtype == 9) for (j = 0; j < size / 8; j++) ((int64_t *)p)[j] = big[j % 6];\n"
    "    else for (j = 0; j < size; j++) ((unsigned char *)p)[j] = (unsigned char)(j * 37);\n}\n"
    "static int check_checked(void);\n"
    "int main(void)\n{\n"
    "    int s, i, j, bad = 0;\n"
    "    printf(\"n %d\\n\", (int)m_n_signatures);\n"
    "    for (s = 0; s < m_n_signatures; s++) {\n"
    "        const m_signature_info *si = &m_signatures[s];\n"
    "        void *in[8], *out[8], *out2[8];\n"
    "        printf(\"sig %s %d %d\\n\", si->key, (int)si->n_inputs, (int)si->n_outputs);\n"
    "        for (i = 0; i < si->n_inputs + si->n_outputs; i++) {\n"
    "            int is_in = i < si->n_inputs;\n"
    "            const m_tensor_info *ti = is_in ? &si->inputs[i] : &si->outputs[i - si->n_inputs];\n"
    "            printf(\" %s %s dtype %d rank %d size %lld dims\", is_in ? \"in\" : \"out\", ti->key,\n"
    "                   (int)ti->dtype, (int)ti->rank, (long long)ti->size_bytes);\n"
    "            for (j = 0; j < ti->rank; j++) printf(\" %lld\", (long long)ti->dims[j]);\n"
    "            printf(\"%s\\n\", ti->rank == 0 && ti->dims != NULL ? \" (dims not NULL)\" : \"\");\n"
    "            if (is_in) { in[i] = calloc(1, (size_t)ti->size_bytes + 1); fill(in[i], ti->dtype, ti->size_bytes); }\n"
    "            else {\n"
    "                out[i - si->n_inputs] = malloc((size_t)ti->size_bytes + 1);\n"
    "                memset(out[i - si->n_inputs], 0xa5, (size_t)ti->size_bytes);\n"
    "            }\n"
    "        }\n"
    "        printf(\" rc %d\\n\", (int)si->run(in, out));\n"
    "        for (i = 0; i < si->n_outputs; i++) hex(si->outputs[i].key, out[i], si->outputs[i].size_bytes);\n"
    "        for (i = 0; i < si->n_outputs; i++) out2[i] = out[i];\n"
    "        (void)out2;\n"
    "        for (i = 0; i < si->n_inputs; i++) free(in[i]);\n"
    "        for (i = 0; i < si->n_outputs; i++) free(out[i]);\n"
    "    }\n"
    "    {\n"
    "        static const float x[6] = { 1, 2, 3, -1, 0.5f, 4 };\n"
    "        float y[8];\n"
    "        if (m_serving_default(x, y) != 0) return 10;\n"
    "        hex(\"mlp\", y, sizeof y);\n"
    "        /* row 0: 1*[1,2,3,4] + 2*[-1,-2,-3,-4] + 3*[.5,.25,-.125,2] + b, relu */\n"
    "        if (y[0] != 0.5f + 0.5f || y[1] != 0 || y[3] != 2.0f) { printf(\"mlp %g %g %g\\n\", y[0], y[1], y[3]); bad = 1; }\n"
    "    }\n"
    "    {\n"
    "        int64_t x[6] = { 1, 1, 1, -1, 0, INT64_MIN }, y[6], z[6];\n"
    "        if (m_add(x, y, z) != 0) return 11;\n"
    "        hex(\"add\", y, sizeof y);\n"
    "        hex(\"add2\", z, sizeof z);\n"
    "        if (y[0] != INT64_MIN + 1 || y[1] != INT64_MIN || y[2] != 0 || y[3] != INT64_MAX\n"
    "            || y[4] != INT64_MAX || y[5] != INT64_MAX) { printf(\"add wrong\\n\"); bad = 1; }\n"
    "    }\n"
    "    {\n"
    "        static const uint32_t sf[12] = { 0x7fc00000u, 0x7fa12345u, 0xffc00001u, 0x80000000u,\n"
    "            0x7f800000u, 0xff800000u, 0x00000001u, 0x807fffffu, 0x3f800000u, 0x7f7fffffu,\n"
    "            0x00800000u, 0x3eaaaaabu };\n"
    "        float u[2] = { 0, 0 }, f[12], g[8], bn[2], bn2[2];\n"
    "        double d[6];\n"
    "        uint32_t b;\n"
    "        if (m_specials(u, f, d, g, bn, bn2) != 0) return 12;\n"
    "        hex(\"f\", f, sizeof f); hex(\"d\", d, sizeof d); hex(\"g\", g, sizeof g);\n"
    "        hex(\"bn\", bn, sizeof bn); hex(\"bn2\", bn2, sizeof bn2);\n"
    "        if (memcmp(f, sf, sizeof f)) { printf(\"specials not exact\\n\"); bad = 1; }\n"
    "        memcpy(&b, &bn2[0], 4);\n"
    "        if ((b & 0x7f800000u) != 0x7f800000u || !(b & 0x7fffffu)) { printf(\"nan eps %08x\\n\", (unsigned)b); bad = 1; }\n"
    "        memcpy(&b, &g[0], 4);\n"
    "        if (b != 0x80000000u) { printf(\"-0 lost\\n\"); bad = 1; }\n"
    "    }\n"
    "    bad |= check_checked();\n"
    "    return bad;\n}\n";

/* The checked entry; a second literal because C99 caps a literal at 4095 bytes. */
static const char driver_checked[] =
    "static int check_checked(void)\n{\n"
    "    int bad = 0;\n"
    "    {\n"
    "        static const int32_t ok[4] = { 0, 9, 3, 9 }, low[4] = { 1, -1, 2, 3 },\n"
    "                             high[4] = { 1, 2, 3, 10 };\n"
    "        int32_t y[4];\n"
    "        if (m_checked(ok, y) != 0 || memcmp(y, ok, sizeof y)) { printf(\"checked ok\\n\"); bad = 1; }\n"
    "        if (m_checked(low, y) != -1 || m_checked(high, y) != -1) { printf(\"checked bad\\n\"); bad = 1; }\n"
    "    }\n"
    "    return bad;\n}\n";

#define RTFLAGS "-std=c99 -O1 -ffp-contract=off"

typedef struct fixture {
    test_ctx *t;
    sm2c_program *p;
    char *root;     /* cdir: the C backend's output; rtdir: the runtime only; ldir: LLVM */
    char *cdir, *rtdir, *ldir;
} fixture;

static fixture *fixture_new(void)
{
    fixture *f = calloc(1, sizeof *f);
    f->t = test_ctx_new();
    f->p = model(f->t->arena);
    f->root = fs_tmpdir();
    f->cdir = fs_path(f->root, "c");
    f->rtdir = fs_path(f->root, "rt");
    f->ldir = fs_path(f->root, "llvm");
    return f;
}

static void fixture_free(fixture *f)
{
    free(f->cdir);
    free(f->rtdir);
    free(f->ldir);
    fs_rm_rf(f->root);
    test_ctx_free(f->t);
    free(f);
}

static void emit_ok(fixture *f, const sm2c_llvm_opts *o, sm2c_llvm_kind kind, const char *path)
{
    sm2c_status st = sm2c_emit_llvm(&f->t->ctx, f->p, o, kind, path);
    if (st)
        fail_msg("emit llvm: %s", f->t->diag.first);
}

/* The C backend's program and the runtime alone (its .c files but m.c), plus
** the header from sm2c_emit_c_text beside the LLVM object. */
static void prepare(fixture *f)
{
    assert_int_equal(sm2c_emit_c(&f->t->ctx, f->p, f->cdir), SM2C_OK);
    assert_int_equal(sm2c_emit_c(&f->t->ctx, f->p, f->rtdir), SM2C_OK);
    char *mc = fs_path(f->rtdir, "m.c"), *mh = fs_path(f->rtdir, "m.h");
    assert_int_equal(unlink(mc), 0);
    assert_int_equal(unlink(mh), 0);
    free(mc);
    free(mh);
    mkdir(f->ldir, 0755);
    char *hdr, *src;
    assert_int_equal(sm2c_emit_c_text(&f->t->ctx, f->p, &hdr, &src), SM2C_OK);
    fs_write(f->ldir, "m.h", hdr, strlen(hdr));
    size_t n1 = strlen(driver), n2 = strlen(driver_checked);
    char *text = malloc(n1 + n2 + 1);
    assert_non_null(text);
    memcpy(text, driver, n1);
    memcpy(text + n1, driver_checked, n2 + 1);
    fs_write(f->root, "driver.c", text, n1 + n2);
    free(text);
    assert_int_equal(sh("%s " RTFLAGS " -I%s %s/*.c %s/driver.c -lm -o %s/prog_c", cc(), f->cdir,
                        f->cdir, f->root, f->root), 0);
    assert_int_equal(sh("%s/prog_c > %s/out_c.txt", f->root, f->root), 0);
}

static char *read_text(const char *dir, const char *rel)
{
    char *p = fs_path(dir, rel);
    size_t n;
    unsigned char *b = fs_read(p, &n);
    b[n] = 0;
    free(p);
    return (char *)b;
}

/* Link ldir/<obj> with the runtime and the driver, run, compare with out_c.txt. */
static void link_and_compare(fixture *f, const char *obj, const char *ldflags)
{
    assert_int_equal(sh("%s " RTFLAGS " %s -I%s -I%s %s/*.c %s/driver.c %s/%s -lm -o %s/prog_l",
                        cc(), ldflags, f->ldir, f->rtdir, f->rtdir, f->root, f->ldir, obj,
                        f->root), 0);
    assert_int_equal(sh("%s/prog_l > %s/out_l.txt", f->root, f->root), 0);
    char *a = read_text(f->root, "out_c.txt"), *b = read_text(f->root, "out_l.txt");
    assert_non_null(strstr(a, "sig serving_default 1 1"));
    assert_non_null(strstr(a, " out a/f dtype 1 rank 1 size 48 dims 12"));
    if (strcmp(a, b) != 0)
        fail_msg("LLVM output differs from C output:\n--- C\n%s--- LLVM\n%s", a, b);
    free(a);
    free(b);
}

/* ---- tests ----------------------------------------------------------------------- */

static void host_object_matches_c(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    prepare(f);
    sm2c_llvm_opts o = { .target = { .opt_level = 2 }, .pic = 1 };
    char *obj = fs_path(f->ldir, "m.o");
    emit_ok(f, &o, SM2C_LLVM_OBJ, obj);
    link_and_compare(f, "m.o", "");
    /* Not PIC and unoptimised: linked into a non-PIE executable. */
    sm2c_llvm_opts o0 = { .target = { .cpu = "", .features = "", .opt_level = 0 } };
    emit_ok(f, &o0, SM2C_LLVM_OBJ, obj);
    link_and_compare(f, "m.o", "-no-pie");
    /* O3, PIC. */
    sm2c_llvm_opts o3 = { .target = { .opt_level = 3 }, .pic = 1 };
    emit_ok(f, &o3, SM2C_LLVM_OBJ, obj);
    link_and_compare(f, "m.o", "");
    /* Os and Oz, PIC: the same results. */
    sm2c_llvm_opts os = { .target = { .opt_level = 2, .size_level = 1 }, .pic = 1 };
    sm2c_llvm_opts oz = { .target = { .opt_level = 2, .size_level = 2 }, .pic = 1 };
    emit_ok(f, &os, SM2C_LLVM_OBJ, obj);
    link_and_compare(f, "m.o", "");
    emit_ok(f, &oz, SM2C_LLVM_OBJ, obj);
    link_and_compare(f, "m.o", "");
    free(obj);
    fixture_free(f);
}

static void ir_and_bitcode(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    mkdir(f->ldir, 0755);
    sm2c_llvm_opts o = { .target = { .opt_level = 2 } };
    char *ll = fs_path(f->ldir, "m.ll"), *bc = fs_path(f->ldir, "m.bc");
    emit_ok(f, &o, SM2C_LLVM_IR, ll);
    char *text = read_text(f->ldir, "m.ll");
    assert_non_null(strstr(text, "@m_serving_default("));
    assert_non_null(strstr(text, "define"));
    assert_non_null(strstr(text, "sm2c_rt_matmul_f32"));
    assert_non_null(strstr(text, "declare void @sm2c_rt_relu_f32(i8*, i8*, i32 signext)"));
    assert_non_null(strstr(text, "@m_signatures = local_unnamed_addr constant [4 x %struct.m_signature_info]"));
    assert_non_null(strstr(text, "@m_n_signatures = local_unnamed_addr constant i32 4"));
    /* A checked kernel returns its status, and a failure returns from the entry. */
    assert_non_null(strstr(text, "declare signext i32 @sm2c_rt_check_indices_i32(i8*, i32 signext, i32 signext, i32 signext)"));
    assert_non_null(strstr(text, "%struct.m_tensor_info = type { i8*, i32, i32, i64*, i64, i32, float, i32 }"));
    /* Float arguments exactly: +Inf and a NaN with a payload. */
    assert_non_null(strstr(text, "float 0x7FF0000000000000"));
    assert_non_null(strstr(text, "float 0x7FF40179A0000000"));
    assert_non_null(strstr(text, "target triple"));
    assert_non_null(strstr(text, "target datalayout"));
    /* Weights hold their bytes (little-endian host: 1.0f, 2.0f), 64-byte aligned;
    ** the unused weight is not emitted; the arena is zeroed and aligned. */
    assert_non_null(strstr(text, "c\"\\00\\00\\80?\\00\\00\\00@"));
    assert_non_null(strstr(text, "@m.arena = internal global [128 x i8] zeroinitializer, section \".bss.m.arena\", align 64"));
    assert_null(strstr(text, "m.w6"));
    assert_non_null(strstr(text, "@m.w0 = private unnamed_addr constant [48 x i8]"));
    assert_non_null(strstr(strstr(text, "@m.w0 ="), "align 64"));
    /* The shared int arrays are emitted once each: k0, k1, k2 only. */
    assert_non_null(strstr(text, "@m.k2 ="));
    assert_null(strstr(text, "@m.k3 ="));
    /* Only the ABI symbols are external. */
    assert_non_null(strstr(text, "define internal signext i32 @m.run0("));
    assert_null(strstr(text, "define i32 @m.run0("));
    /* Every function and weight in its own section (ELF), no size attributes at O2. */
    assert_non_null(strstr(text, "section \".text.m_serving_default\""));
    assert_non_null(strstr(text, "section \".rodata.m.w0\""));
    assert_null(strstr(text, "optsize"));
    free(text);
    /* Os marks every defined function optsize; Oz minsize too. */
    sm2c_llvm_opts os = { .target = { .opt_level = 2, .size_level = 1 } };
    sm2c_llvm_opts oz = { .target = { .opt_level = 2, .size_level = 2 } };
    emit_ok(f, &os, SM2C_LLVM_IR, ll);
    text = read_text(f->ldir, "m.ll");
    assert_non_null(strstr(text, "optsize"));
    assert_null(strstr(text, "minsize"));
    free(text);
    emit_ok(f, &oz, SM2C_LLVM_IR, ll);
    text = read_text(f->ldir, "m.ll");
    assert_non_null(strstr(text, "minsize"));
    free(text);

    emit_ok(f, &o, SM2C_LLVM_BC, bc);
    size_t n;
    unsigned char *b = fs_read(bc, &n);
    assert_true(n > 4);
    assert_memory_equal(b, "BC\xc0\xde", 4);
    free(b);
    free(ll);
    free(bc);
    fixture_free(f);
}

static void cortex_m4_object(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    mkdir(f->ldir, 0755);
    sm2c_llvm_opts o = { .target = { .triple = "thumbv7em-none-eabihf", .cpu = "cortex-m4", .opt_level = 2 } };
    char *obj = fs_path(f->ldir, "m.o");
    emit_ok(f, &o, SM2C_LLVM_OBJ, obj);
    size_t n;
    unsigned char *b = fs_read(obj, &n);
    assert_true(n > 52);
    assert_memory_equal(b, "\x7f" "ELF", 4);
    assert_int_equal(b[4], 1);                  /* ELFCLASS32 */
    assert_int_equal(b[5], 1);                  /* little-endian */
    assert_int_equal(b[18] | b[19] << 8, 40);   /* EM_ARM */
    free(b);
    /* The IR for that target: ARM data layout, same metadata. */
    char *ll = fs_path(f->ldir, "m.ll");
    emit_ok(f, &o, SM2C_LLVM_IR, ll);
    char *text = read_text(f->ldir, "m.ll");
    assert_non_null(strstr(text, "target triple = \"thumbv7em-none-unknown-eabihf\""));
    assert_non_null(strstr(text, "@m_signatures = local_unnamed_addr constant"));
    free(text);
    free(ll);
    free(obj);
    fixture_free(f);
}

static void big_endian_weights(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    mkdir(f->ldir, 0755);
    sm2c_llvm_opts o = { .target = { .triple = "powerpc-unknown-linux-gnu", .opt_level = 1 } };
    char *ll = fs_path(f->ldir, "m.ll");
    emit_ok(f, &o, SM2C_LLVM_IR, ll);
    char *text = read_text(f->ldir, "m.ll");
    assert_non_null(strstr(text, "c\"?\\80\\00\\00@\\00\\00\\00"));     /* 1.0f, 2.0f big-endian */
    assert_null(strstr(text, "c\"\\00\\00\\80?\\00\\00\\00@"));
    free(text);
    free(ll);
    fixture_free(f);
}

static void deterministic(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    mkdir(f->ldir, 0755);
    sm2c_llvm_opts o = { .target = { .opt_level = 2 }, .pic = 1 };
    char *a = fs_path(f->ldir, "a.o"), *b = fs_path(f->ldir, "b.o");
    emit_ok(f, &o, SM2C_LLVM_OBJ, a);
    emit_ok(f, &o, SM2C_LLVM_OBJ, b);
    size_t na, nb;
    unsigned char *da = fs_read(a, &na), *db = fs_read(b, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(da, db, na);
    free(da);
    free(db);
    free(a);
    free(b);
    fixture_free(f);
}

static void clean_errors(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    mkdir(f->ldir, 0755);
    char *obj = fs_path(f->ldir, "m.o");
    sm2c_ctx *c = &f->t->ctx;

    sm2c_llvm_opts bad = { .target = { .triple = "bogus9-nowhere-nothing", .opt_level = 2 } };
    assert_int_equal(sm2c_emit_llvm(c, f->p, &bad, SM2C_LLVM_OBJ, obj), SM2C_ERR_USAGE);
    assert_error_contains(f->t, "--target: error: unknown target triple 'bogus9-nowhere-nothing'");
    assert_null(strchr(f->t->diag.first, '\n'));
    assert_int_equal(access(obj, F_OK), -1);

    sm2c_diag_init(&f->t->diag);
    f->t->diag.fn = test_diag_sink;
    sm2c_llvm_opts lvl = { .target = { .opt_level = 7 } };
    assert_int_equal(sm2c_emit_llvm(c, f->p, &lvl, SM2C_LLVM_OBJ, obj), SM2C_ERR_USAGE);
    /* A size level needs optimisation level 2. */
    sm2c_llvm_opts size3 = { .target = { .opt_level = 3, .size_level = 1 } };
    assert_int_equal(sm2c_emit_llvm(c, f->p, &size3, SM2C_LLVM_OBJ, obj), SM2C_ERR_USAGE);

    /* A CPU LLVM cannot generate code for (no 64-bit on a 64-bit triple): LLVM
    ** ends its process there (report_fatal_error), so this must not be ours. */
    sm2c_diag_init(&f->t->diag);
    f->t->diag.fn = test_diag_sink;
    sm2c_llvm_opts cpu = { .target = { .triple = "x86_64-pc-linux-gnu", .cpu = "i386", .opt_level = 2 } };
    assert_int_equal(sm2c_emit_llvm(c, f->p, &cpu, SM2C_LLVM_OBJ, obj), SM2C_ERR_UNSUPPORTED);
    assert_error_contains(f->t, "i386");
    assert_int_equal(access(obj, F_OK), -1);
    /* A target that cannot make objects at all. */
    sm2c_llvm_opts ptx = { .target = { .triple = "nvptx64-nvidia-cuda", .opt_level = 2 } };
    assert_int_equal(sm2c_emit_llvm(c, f->p, &ptx, SM2C_LLVM_OBJ, obj), SM2C_ERR_UNSUPPORTED);

    /* Cannot write: the path names a missing directory, or a directory. */
    sm2c_diag_init(&f->t->diag);
    f->t->diag.fn = test_diag_sink;
    char *missing = fs_path(f->ldir, "no/such/dir.o");
    assert_int_equal(sm2c_emit_llvm(c, f->p, NULL, SM2C_LLVM_OBJ, missing), SM2C_ERR_INVALID);
    assert_error_contains(f->t, missing);
    assert_int_equal(sm2c_emit_llvm(c, f->p, NULL, SM2C_LLVM_IR, f->ldir), SM2C_ERR_INVALID);
    free(missing);

    /* Malformed programs are internal errors, reported, never an abort. */
    sm2c_program *p = model(f->t->arena);
    p->entries[0].steps[0].kernel = "system(\"rm\")";
    assert_int_equal(sm2c_emit_llvm(c, p, NULL, SM2C_LLVM_IR, obj), SM2C_ERR_INTERNAL);
    p = model(f->t->arena);
    p->entries[0].buffers[4].offset = 4096;
    assert_int_equal(sm2c_emit_llvm(c, p, NULL, SM2C_LLVM_IR, obj), SM2C_ERR_INTERNAL);
    p = model(f->t->arena);
    p->entries[1].steps[1].args[3] = A_FLT(1.0f);   /* add_i64 called two ways */
    assert_int_equal(sm2c_emit_llvm(c, p, NULL, SM2C_LLVM_IR, obj), SM2C_ERR_INTERNAL);
    p = model(f->t->arena);
    p->entries[2].steps[0].args[2] = A_INT(INT64_C(1) << 40);
    assert_int_equal(sm2c_emit_llvm(c, p, NULL, SM2C_LLVM_IR, obj), SM2C_ERR_INTERNAL);
    p = model(f->t->arena);
    p->entries[1].c_name = "serving_default";
    assert_int_equal(sm2c_emit_llvm(c, p, NULL, SM2C_LLVM_IR, obj), SM2C_ERR_UNSUPPORTED);
    p = model(f->t->arena);
    p->name = "sm2c_x";
    assert_int_equal(sm2c_emit_llvm(c, p, NULL, SM2C_LLVM_IR, obj), SM2C_ERR_USAGE);
    p = model(f->t->arena);
    p->entries[0].buffers[2].kind = SM2C_BUF_STATE;   /* names a state the program lacks */
    assert_int_equal(sm2c_emit_llvm(c, p, NULL, SM2C_LLVM_IR, obj), SM2C_ERR_INTERNAL);
    assert_int_equal(access(obj, F_OK), -1);
    free(obj);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(host_object_matches_c),
        cmocka_unit_test(ir_and_bitcode),
        cmocka_unit_test(cortex_m4_object),
        cmocka_unit_test(big_endian_weights),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(clean_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
