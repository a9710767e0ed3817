/*
** run.c: compile, build with a generated driver, run, collect .npy outputs.
** The driver reads raw input bytes and writes raw output bytes; sm2c itself
** checks the .npy inputs against the signature and wraps the outputs.
** Processes are started with fork/execvp, never through a shell.
*/
#define _GNU_SOURCE
#include "run.h"
#include "base/publish.h"
#include "base/strmap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codegen/emit.h"
#include "lower/split.h"
#include "base/fileio.h"
#include "npy.h"
#include "run_cache.h"
#include "run_hooks.h"
#include "run_inputs.h"
#include "run_defaults.h"
#include "run_literal.h"
#include "run_objects.h"
#include "run_print.h"
#include "run_status.h"
#include "base/toolchain.h"

static const char *c_type(int dtype)
{
    switch (sm2c_dtype_base(dtype)) {
    case SM2C_DT_FLOAT: return "float";
    case SM2C_DT_DOUBLE: return "double";
    case SM2C_DT_INT32: return "int32_t";
    case SM2C_DT_INT64: return "int64_t";
    case SM2C_DT_INT16: return "int16_t";
    case SM2C_DT_INT8: return "int8_t";
    case SM2C_DT_UINT16: return "uint16_t";
    case SM2C_DT_HALF: return "uint16_t";       /* float16 bit patterns */
    case SM2C_DT_BFLOAT16: return "uint16_t";   /* bfloat16 bit patterns */
    case SM2C_DT_UINT32: return "uint32_t";
    case SM2C_DT_UINT64: return "uint64_t";
    case SM2C_DT_STRING: return "sm2c_string";
    case SM2C_DT_COMPLEX64: return "float";     /* float pairs (re, im) */
    default: return "uint8_t";
    }
}

static int64_t run_bytes(sm2c_ctx *c, const sm2c_port *p, int32_t batch)
{
    sm2c_shape s = sm2c_run_shape(c, p, batch);
    return sm2c_shape_elements(&s, INT64_MAX) * sm2c_abi_elem_size(p->dtype);
}

/* The header's macro prefix: the name uppercased (run names it "model"). */
static const char *macro_prefix(sm2c_ctx *c, const char *name)
{
    char *s = sm2c_arena_strdup(c->arena, name);
    for (char *q = s; *q; q++)
        if (*q >= 'a' && *q <= 'z')
            *q = (char)(*q - 'a' + 'A');
    return s;
}

/* The argument list "[batch, ]in0, ..., outN" of a call. */
static const char *call_args(sm2c_ctx *c, const sm2c_entry *e, const char *out_prefix, int32_t batch)
{
    const char *s = e->max_batch ? sm2c_arena_printf(c->arena, "%d", (int)batch) : "";
    for (int32_t i = 0; i < e->n_inputs + e->n_outputs; i++)
        s = sm2c_arena_printf(c->arena, "%s%s%s%d", s, *s ? ", " : "", i < e->n_inputs ? "in" : out_prefix,
                              i < e->n_inputs ? i : i - e->n_inputs);
    return s;
}

/* The most threads of --threads, 0 without it. */
static int32_t most_threads(const sm2c_run_opts *o)
{
    int32_t m = 0;
    for (int32_t i = 0; i < o->n_threads; i++)
        if (o->threads[i] > m)
            m = o->threads[i];
    return m;
}

/* --fast-arena: the driver's fast workspace `var`, and the argument passing it. */
static const char *fast_alloc(sm2c_ctx *c, const sm2c_program *p, const char *var)
{
    if (p->placement.fast_arena <= 0)
        return "";
    return sm2c_arena_printf(c->arena, "    static void *%s;\n    %s = malloc(%s_FAST_WORKSPACE_SIZE + 64);\n"
                             "    if (!%s) return 2;\n", var, var, macro_prefix(c, p->name), var);
}

static const char *fast_arg(sm2c_ctx *c, const sm2c_program *p, const char *var)
{
    return p->placement.fast_arena <= 0 ? "" : sm2c_arena_printf(c->arena, ", %s", var);
}

/* The static entry into out*, `repeat` times, then the state's check: the
** _r entry on the driver's own state into chk*; their outputs must agree bit
** for bit. */
static char *static_and_r_calls(sm2c_ctx *c, const sm2c_program *p, const sm2c_entry *e, int64_t repeat,
                                int32_t batch, const char *fn)
{
    int hooked = p->profile;    /* run_hooks.h: time these calls, save the last one's steps */
    return sm2c_arena_printf(c->arena,
        "    int32_t rc = 0;\n%s    for (long r = 0; r < %lldL && !rc; r++) {\n%s        rc = %s(%s);\n    }\n%s"
        "    if (rc) return rc < 0 && rc > -64 ? %d - (int)rc : 3;\n%s",
        hooked ? "    sm2c_run_hook_start(argv[0]);\n" : "", (long long)repeat,
        hooked ? "        sm2c_run_hook_call(r);\n" : "", fn, call_args(c, e, "out", batch),
        hooked ? "    sm2c_run_hook_done();\n" : "", SM2C_RUN_EXIT_RC,
        !p->n_states ? "" : sm2c_arena_printf(c->arena,
            "    static %s_state *st;\n    static void *ws;\n    st = malloc(sizeof *st);\n    ws = malloc(%s_WORKSPACE_SIZE + 64);\n"
            "%s    if (!st || !ws) return 2;\n    %s_init(st);\n"
            "    for (long r = 0; r < %lldL && !rc; r++)\n        rc = %s_r(st, ws%s%s%s);\n"
            "    if (rc) return rc < 0 && rc > -64 ? %d - (int)rc : 3;\n",
            p->name, macro_prefix(c, p->name), fast_alloc(c, p, "fws"), p->name, (long long)repeat, fn,
            fast_arg(c, p, "fws"),
            e->n_inputs + e->n_outputs || e->max_batch ? ", " : "", call_args(c, e, "chk", batch),
            SM2C_RUN_EXIT_RC));
}

/* memcmp of out* and chk*: a failure names the two calls. */
static char *compare_outputs(sm2c_ctx *c, const sm2c_entry *e, int32_t batch, const char *fn, const char *other)
{
    char *s = "";
    for (int32_t i = 0; i < e->n_outputs; i++) {
        const char *differ = sm2c_arena_printf(c->arena, "memcmp(out%d, chk%d, %lld)", i, i,
                                               (long long)run_bytes(c, &e->outputs[i], batch));
        if (sm2c_dtype_base(e->outputs[i].dtype) == SM2C_DT_STRING) {
            /* the elements point into each call's own workspace: compare the bytes */
            sm2c_shape sh = sm2c_run_shape(c, &e->outputs[i], batch);
            differ = sm2c_arena_printf(c->arena, "strings_differ(out%d, chk%d, %lld)", i, i,
                                       (long long)sm2c_shape_elements(&sh, INT64_MAX));
        }
        s = sm2c_arena_printf(c->arena, "%s    if (%s) { fprintf(stderr, \"driver: %s and %s disagree\\n\"); "
                              "return 3; }\n", s, differ, fn, other);
    }
    return s;
}

/* --threads: the context entry into chk* on each thread count in turn, on a
** fresh context (and pool), each checked against out*. */
static char *ctx_calls(sm2c_ctx *c, const sm2c_program *p, const sm2c_entry *e, int64_t repeat, int32_t batch,
                       const char *fn, const sm2c_run_opts *o)
{
    int pool = most_threads(o) > 1 && sm2c_program_any_split(p);
    char *counts = "";
    for (int32_t i = 0; i < o->n_threads; i++)
        counts = sm2c_arena_printf(c->arena, "%s%s%d", counts, i ? ", " : "", (int)o->threads[i]);
    char *s = sm2c_arena_printf(c->arena,
        "    static void *cws;\n    cws = malloc(%s_WORKSPACE_SIZE + 64);\n%s    static %s_ctx *ctx;\n    ctx = malloc(sizeof *ctx);\n"
        "    static const int32_t counts[%d] = { %s };\n    if (!cws || !ctx) return 2;\n"
        "    for (int k = 0; k < %d; k++) {\n        %s_ctx_init(ctx, cws%s);\n%s"
        "        for (long r = 0; r < %lldL && !rc; r++)\n            rc = %s_ctx(ctx%s%s);\n"
        "        if (rc) { fprintf(stderr, \"driver: entry returned %%d on %%d threads\\n\", (int)rc, "
        "(int)counts[k]); return rc < 0 && rc > -64 ? %d - (int)rc : 3; }\n",
        macro_prefix(c, p->name), fast_alloc(c, p, "cfws"), p->name, (int)o->n_threads, counts, (int)o->n_threads,
        p->name, fast_arg(c, p, "cfws"),
        pool ? "        static sm2c_rt_pool *pool;\n        pool = counts[k] > 1 ? sm2c_rt_pool_create(counts[k]) : NULL;\n"
               "        if (counts[k] > 1 && !pool) { fprintf(stderr, \"driver: cannot start %d threads\\n\", "
               "(int)counts[k]); return 2; }\n"
               "        ctx->par.parallel_for = pool ? sm2c_rt_pool_parallel_for : NULL;\n"
               "        ctx->par.pool = pool;\n        ctx->par.threads = counts[k];\n"
             : "        ctx->par.threads = counts[k];\n",
        (long long)repeat, fn, e->n_inputs + e->n_outputs || e->max_batch ? ", " : "", call_args(c, e, "chk", batch),
        SM2C_RUN_EXIT_RC);
    s = sm2c_arena_printf(c->arena, "%s%s%s    }\n", s,
                          compare_outputs(c, e, batch, fn, sm2c_arena_printf(c->arena, "%s_ctx", fn)),
                          pool ? "        if (pool) sm2c_rt_pool_destroy(pool);\n" : "");
    return s;
}

/* The calls and their checks: the static entry's outputs are what the
** driver writes; a stateful program's _r entry, and with --threads the
** context entry on every thread count, must give them bit for bit.  The
** state's members follow the outputs in argv: the context's when there is
** one, else the driver's own state of the _r calls. */
static char *checked_calls(sm2c_ctx *c, const sm2c_program *p, const sm2c_entry *e, int64_t repeat,
                           int32_t batch, const sm2c_run_opts *o)
{
    const char *fn = sm2c_arena_printf(c->arena, "%s_%s", p->name, e->c_name);
    char *s = static_and_r_calls(c, p, e, repeat, batch, fn);
    if (p->n_states)
        s = sm2c_arena_printf(c->arena, "%s%s", s, compare_outputs(c, e, batch, fn,
                                                                   sm2c_arena_printf(c->arena, "%s_r", fn)));
    if (o->n_threads)
        s = sm2c_arena_printf(c->arena, "%s%s", s, ctx_calls(c, p, e, repeat, batch, fn, o));
    for (int32_t k = 0; k < p->n_states; k++)
        s = sm2c_arena_printf(c->arena, "%s    save(argv[%d], %s%s, %lld);\n", s,
                              1 + e->n_inputs + e->n_outputs + k, o->n_threads ? "ctx->state." : "st->",
                              p->states[k].c_name, (long long)p->states[k].nbytes);
    if (p->n_states)
        s = sm2c_arena_printf(c->arena, "%s    free(st);\n    free(ws);\n", s);
    if (o->n_threads)
        s = sm2c_arena_printf(c->arena, "%s    free(ctx);\n    free(cws);\n", s);
    return s;
}

static int has_string_input(const sm2c_entry *e)
{
    for (int32_t i = 0; i < e->n_inputs; i++)
        if (sm2c_dtype_base(e->inputs[i].dtype) == SM2C_DT_STRING)
            return 1;
    return 0;
}

/* A string input's raw file (sm2c_run_string_bytes): n int64 lengths, then the bytes. */
static const char load_strings_source[] =
    "/* One block: the n sm2c_string elements, then the file's bytes they point into. */\n"
    "static sm2c_string *load_strings(const char *path, size_t n)\n{\n"
    "    FILE *f = fopen(path, \"rb\");\n    long size = -1;\n"
    "    sm2c_string *s = NULL;\n    unsigned char *b;\n    size_t i, at;\n"
    "    if (f && !fseek(f, 0, SEEK_END) && (size = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET))\n"
    "        s = malloc((n ? n : 1) * sizeof *s + (size_t)size + 1);\n"
    "    b = s ? (unsigned char *)(s + (n ? n : 1)) : NULL;\n"
    "    if (!s || fread(b, 1, (size_t)size, f) != (size_t)size || (size_t)size < n * 8) {\n"
    "        fprintf(stderr, \"driver: cannot read %s\\n\", path);\n        exit(2);\n    }\n"
    "    fclose(f);\n    at = n * 8;\n"
    "    for (i = 0; i < n; i++) {\n        int64_t len;\n        memcpy(&len, b + i * 8, 8);\n"
    "        if (len < 0 || (uint64_t)len > (uint64_t)size - at) { fprintf(stderr, \"driver: bad %s\\n\", path); exit(2); }\n"
    "        s[i].data = b + at;\n        s[i].len = len;\n        at += (size_t)len;\n    }\n"
    "    return s;\n}\n\n";

/* A string output's raw file, as load_strings reads an input: n int64
** lengths, then the bytes. */
static const char save_strings_source[] =
    "static void save_strings(const char *path, const sm2c_string *s, size_t n)\n{\n"
    "    FILE *f = fopen(path, \"wb\");\n    size_t i;\n    int ok = f != NULL;\n"
    "    for (i = 0; ok && i < n; i++)\n        ok = fwrite(&s[i].len, 8, 1, f) == 1;\n"
    "    for (i = 0; ok && i < n; i++)\n"
    "        ok = s[i].len == 0 || fwrite(s[i].data, 1, (size_t)s[i].len, f) == (size_t)s[i].len;\n"
    "    if (!f || fclose(f) || !ok) { fprintf(stderr, \"driver: cannot write %s\\n\", path); exit(2); }\n"
    "}\n\n";

/* Two string outputs, element by element: their lengths and bytes. */
static const char strings_differ_source[] =
    "static int strings_differ(const sm2c_string *a, const sm2c_string *b, size_t n)\n{\n"
    "    for (size_t i = 0; i < n; i++)\n"
    "        if (a[i].len != b[i].len || (a[i].len && memcmp(a[i].data, b[i].data, (size_t)a[i].len)))\n"
    "            return 1;\n    return 0;\n}\n\n";

static int has_string_output(const sm2c_entry *e)
{
    for (int32_t i = 0; i < e->n_outputs; i++)
        if (sm2c_dtype_base(e->outputs[i].dtype) == SM2C_DT_STRING)
            return 1;
    return 0;
}

/* main(argc, argv): argv = inputs then outputs (then, stateful, the state's
** variables), raw files, in port order.  Its buffers are held by static
** pointers: an entry's error code returns from main at once, and memory
** reachable from static storage is no leak to LeakSanitizer (the sanitizer
** test run builds the driver with it). */
static char *driver_source(sm2c_ctx *c, const sm2c_program *p, const sm2c_entry *e, int64_t repeat,
                           int32_t batch, const sm2c_run_opts *o)
{
    int checked = p->n_states || o->n_threads;
    char *s = sm2c_arena_printf(c->arena,
        "/* driver for sm2c run: raw files in, raw files out */\n"
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"%s.h\"\n\n"
        "static void *load(const char *path, size_t n)\n{\n"
        "    void *b = malloc(n ? n : 1);\n    FILE *f = fopen(path, \"rb\");\n"
        "    if (!b || !f || fread(b, 1, n, f) != n) { fprintf(stderr, \"driver: cannot read %%s\\n\", path); exit(2); }\n"
        "    fclose(f);\n    return b;\n}\n\n"
        "static void save(const char *path, const void *b, size_t n)\n{\n"
        "    FILE *f = fopen(path, \"wb\");\n"
        "    if (!f || fwrite(b, 1, n, f) != n || fclose(f)) { fprintf(stderr, \"driver: cannot write %%s\\n\", path); exit(2); }\n"
        "}\n\n%sint main(int argc, char **argv)\n{\n"
        "    if (argc != %d) { fprintf(stderr, \"driver: wrong argument count\\n\"); return 2; }\n"
        "    (void)load;  /* unused by entries without inputs */\n"
        "    (void)save;  /* unused by entries with only string outputs */\n%s",
        p->name, sm2c_arena_printf(c->arena, "%s%s", has_string_input(e) ? load_strings_source : "",
                                   has_string_output(e) ? sm2c_arena_printf(c->arena, "%s%s", save_strings_source,
                                                                            strings_differ_source) : ""),
        1 + e->n_inputs + e->n_outputs + p->n_states,
        has_string_output(e) ? "    (void)strings_differ;  /* unused without a second call to check */\n" : "");
    for (int32_t i = 0; i < e->n_inputs; i++) {
        if (sm2c_dtype_base(e->inputs[i].dtype) == SM2C_DT_STRING) {
            sm2c_shape sh = sm2c_run_shape(c, &e->inputs[i], batch);
            s = sm2c_arena_printf(c->arena, "%s    static sm2c_string *in%d;\n    in%d = load_strings(argv[%d], %lld);\n", s, i, i,
                                  1 + i, (long long)sm2c_shape_elements(&sh, INT64_MAX));
            continue;
        }
        s = sm2c_arena_printf(c->arena, "%s    static %s *in%d;\n    in%d = load(argv[%d], %lld);\n", s,
                              c_type(e->inputs[i].dtype), i, i, 1 + i, (long long)run_bytes(c, &e->inputs[i], batch));
    }
    for (int32_t i = 0; i < e->n_outputs; i++)
        s = sm2c_arena_printf(c->arena, "%s    static %s *out%d;\n    out%d = calloc(1, %lld + 1);\n", s,
                              c_type(e->outputs[i].dtype), i, i, (long long)run_bytes(c, &e->outputs[i], batch));
    for (int32_t i = 0; i < e->n_outputs && checked; i++)
        s = sm2c_arena_printf(c->arena, "%s    static %s *chk%d;\n    chk%d = calloc(1, %lld + 1);\n", s,
                              c_type(e->outputs[i].dtype), i, i, (long long)run_bytes(c, &e->outputs[i], batch));
    s = sm2c_arena_printf(c->arena, "%s%s", s, checked_calls(c, p, e, repeat, batch, o));
    for (int32_t i = 0; i < e->n_outputs; i++) {
        if (sm2c_dtype_base(e->outputs[i].dtype) == SM2C_DT_STRING) {
            sm2c_shape sh = sm2c_run_shape(c, &e->outputs[i], batch);
            s = sm2c_arena_printf(c->arena, "%s    save_strings(argv[%d], out%d, %lld);\n", s, 1 + e->n_inputs + i,
                                  i, (long long)sm2c_shape_elements(&sh, INT64_MAX));
            continue;
        }
        s = sm2c_arena_printf(c->arena, "%s    save(argv[%d], out%d, %lld);\n", s, 1 + e->n_inputs + i, i,
                              (long long)run_bytes(c, &e->outputs[i], batch));
    }
    for (int32_t i = 0; i < e->n_inputs; i++)
        s = sm2c_arena_printf(c->arena, "%s    free(in%d);\n", s, i);
    for (int32_t i = 0; i < e->n_outputs; i++)
        s = sm2c_arena_printf(c->arena, "%s    free(out%d);\n", s, i);
    for (int32_t i = 0; i < e->n_outputs && checked; i++)
        s = sm2c_arena_printf(c->arena, "%s    free(chk%d);\n", s, i);
    return sm2c_arena_printf(c->arena, "%s    return 0;\n}\n", s);
}

static sm2c_status write_file(sm2c_ctx *c, const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot write: %s", strerror(errno));
    return SM2C_OK;
}

/* The driver's and the model's own sources (NAME.c, NAME_weights.c) are
** compiled with the link; the rest, the runtime's, as cached objects. */
static int own_source(const char *name, const char *source)
{
    size_t n = strlen(name);
    return !strcmp(source, "driver_main.c") || (!strncmp(source, name, n) && (source[n] == '.' || source[n] == '_'));
}

/* The compiler command before the sources: $CC's words with -std=c99 -O2
** ahead of its own flags (so that its -O3, say, wins), the hooks' define and
** -I dir; *n its length. */
static char **cc_prefix(sm2c_ctx *c, const char *dir, const sm2c_run_opts *o, int extra, int *n)
{
    char **argv = sm2c_cc_argv(c, o->cc, extra + 4, n);
    memmove(argv + 3, argv + 1, (size_t)(*n - 1) * sizeof *argv);
    argv[1] = "-std=c99";
    argv[2] = "-O2";
    *n += 2;
    if (o->profile || o->dump_dir)
        argv[(*n)++] = SM2C_RUN_HOOK_DEFINE;
    argv[(*n)++] = sm2c_arena_printf(c->arena, "-I%s", dir);
    return argv;
}

/* How the compiler is called, for the cache keys. */
static const char *cc_how(sm2c_ctx *c, const sm2c_run_opts *o)
{
    return sm2c_arena_printf(c->arena, "-std=c99 -O2 then %s\n%s", sm2c_cc(o->cc),
                             o->profile || o->dump_dir ? SM2C_RUN_HOOK_DEFINE : "");
}

/* The generated code and the driver into one program: the driver's and the
** model's C sources (or its LLVM object), the runtime's objects (or the
** prebuilt --runtime-lib), or the shared object, which holds the runtime. */
static sm2c_status build(sm2c_ctx *c, const char *dir, const sm2c_run_opts *o, const char *name, const char *cache)
{
    int nc, k, n_rt = 0;
    char **sources = sm2c_list_files(c, dir, ".c", &nc);
    char **runtime = sm2c_arena_array(c->arena, (size_t)nc + 1, sizeof *runtime);
    char **objs = sm2c_arena_array(c->arena, (size_t)nc + 1, sizeof *objs);
    char **argv = cc_prefix(c, dir, o, nc + 12, &k);
    if (o->emit != SM2C_EMIT_SO) {
        int own = 0;
        for (int i = 0; i < nc; i++)
            if (own_source(name, sources[i]))
                sources[own++] = sources[i];
            else if (!o->runtime_lib)
                runtime[n_rt++] = sources[i];
        nc = own;
        sm2c_status st = sm2c_run_objects(c, dir, runtime, n_rt, argv, k, cc_how(c, o), cache, objs);
        if (st)
            return st;
    }
    for (int i = 0; i < nc; i++)
        argv[k++] = (char *)sm2c_path_join(c->arena, dir, sources[i]);
    for (int i = 0; i < n_rt; i++)
        argv[k++] = objs[i];
    if (o->emit == SM2C_EMIT_OBJ || o->emit == SM2C_EMIT_SO)
        argv[k++] = sm2c_arena_printf(c->arena, "%s/%s.%s", dir, name, sm2c_emit_kind_extension(o->emit));
    if (o->emit == SM2C_EMIT_SO)
        argv[k++] = sm2c_arena_printf(c->arena, "-Wl,-rpath,%s", dir);
    argv[k++] = "-o";
    argv[k++] = sm2c_arena_printf(c->arena, "%s/driver", dir);
    if (o->runtime_lib && o->emit != SM2C_EMIT_SO)
        argv[k++] = (char *)o->runtime_lib;
    argv[k++] = "-lm";
    if (most_threads(o) > 1)
        argv[k++] = "-pthread";
    argv[k] = NULL;
    return sm2c_spawn(c, argv, "building the generated code");
}

/* The build from the cache when an intact entry has its key, else built (and
** stored).  Not cached: --emit so (the program loads the build directory's
** .so) and --runtime-lib (a library the key cannot see change). */
static sm2c_status build_cached(sm2c_ctx *c, const char *dir, const sm2c_run_opts *o, const char *name)
{
    const char *cache = o->no_cache ? NULL : sm2c_run_cache_dir(c);
    if (o->emit == SM2C_EMIT_SO || o->runtime_lib || !cache)
        return build(c, dir, o, name, cache);
    const char *how = sm2c_arena_printf(c->arena, "%s\n-lm%s\nemit %d", cc_how(c, o),
                                        most_threads(o) > 1 ? " -pthread" : "", (int)o->emit);
    const char *driver = sm2c_arena_printf(c->arena, "%s/driver", dir);
    char key[65];
    sm2c_status st = sm2c_run_cache_key(c, dir, how, key);
    if (st || sm2c_run_cache_fetch(c, cache, SM2C_RUN_CACHE_PROGRAM, key, driver))
        return st;
    if (!(st = build(c, dir, o, name, cache)))
        sm2c_run_cache_store(c, cache, SM2C_RUN_CACHE_PROGRAM, key, driver);
    return st;
}

/* An --input's .npy file, or an --input_exprs literal of the dtype the
** signature declares. */
static sm2c_status read_input(sm2c_ctx *c, const sm2c_model *m, const sm2c_run_opts *o, const sm2c_run_input *in,
                              sm2c_tensor *t)
{
    if (!in->literal)
        return sm2c_npy_read(c, in->path, t);
    int dtype;
    if (!o->compile.n_signatures)
        return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL, "--input_exprs %s: literals are typed by a "
                          "signature's inputs; with --function give a .npy file (--input)", in->key);
    sm2c_status st = sm2c_run_input_dtype(c, m, o->compile.signatures[0], in->key, &dtype);
    return st ? st : sm2c_literal_parse(c, in->path, in->literal, dtype, t);
}

/* Unknown dims come from the given arrays: add their shapes as --shape. */
static sm2c_status read_inputs(sm2c_ctx *c, const sm2c_model *m, const sm2c_run_opts *o, sm2c_tensor *arrays,
                               sm2c_import_opts *io)
{
    const sm2c_import_opts *given_shapes = &o->compile.import;
    sm2c_shape_opt *shapes = sm2c_arena_array(c->arena, (size_t)(given_shapes->n_shapes + o->n_inputs) + 1,
                                              sizeof *shapes);
    io->n_shapes = 0;
    for (int32_t i = 0; i < given_shapes->n_shapes; i++)
        shapes[io->n_shapes++] = given_shapes->shapes[i];
    for (int32_t i = 0; i < o->n_inputs; i++) {
        sm2c_status st = read_input(c, m, o, &o->inputs[i], &arrays[i]);
        if (st)
            return st;
        int given = 0;
        for (int32_t k = 0; k < given_shapes->n_shapes; k++)
            given |= strcmp(given_shapes->shapes[k].key, o->inputs[i].key) == 0;
        if (!given)
            shapes[io->n_shapes++] = (sm2c_shape_opt){ o->inputs[i].key, arrays[i].shape, 1, o->inputs[i].path };
    }
    io->shapes = shapes;
    return SM2C_OK;
}

static sm2c_status run_driver(sm2c_ctx *c, const char *dir, const sm2c_program *p, const sm2c_entry *e,
                              const sm2c_run_opts *o, const sm2c_tensor *arrays)
{
    char **argv = sm2c_arena_array(c->arena, (size_t)(e->n_inputs + e->n_outputs + p->n_states) + 2,
                                   sizeof *argv);
    argv[0] = sm2c_arena_printf(c->arena, "%s/driver", dir);
    for (int32_t i = 0; i < e->n_inputs; i++) {
        const sm2c_tensor *t = sm2c_run_input_array(e, i, o, arrays);   /* checked: given */
        sm2c_status st;
        argv[1 + i] = sm2c_arena_printf(c->arena, "%s/in%d.raw", dir, i);
        if (t->dtype == SM2C_DT_STRING) {
            sm2c_buf b = sm2c_run_string_bytes(c, t);
            st = write_file(c, argv[1 + i], b.data, b.len);
        } else
            st = write_file(c, argv[1 + i], t->data, t->nbytes);
        if (st)
            return st;
    }
    for (int32_t i = 0; i < e->n_outputs; i++)
        argv[1 + e->n_inputs + i] = sm2c_arena_printf(c->arena, "%s/out%d.raw", dir, i);
    for (int32_t k = 0; k < p->n_states; k++)
        argv[1 + e->n_inputs + e->n_outputs + k] = sm2c_arena_printf(c->arena, "%s/state%d.raw", dir, k);
    int status;
    sm2c_status st = sm2c_spawn_status(c, argv, "running the generated code", &status);
    if (!st && status)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, NULL, sm2c_arena_printf(c->arena, "%s '%s'",
                          e->function ? "function" : "signature", e->key), "%s",
                          sm2c_run_status_words(c->arena, status));
    return st;
}

/* A key can be a file name as it is: printable ASCII without '/' or '\\',
** not starting with '.' (no "..", no hidden files), of a sane length. */
static int key_is_file_name(const char *key)
{
    size_t n = strlen(key);
    if (n == 0 || n > 200 || key[0] == '.')
        return 0;
    for (const char *p = key; *p; p++)
        if (*p <= ' ' || *p > '~' || *p == '/' || *p == '\\')
            return 0;
    return 1;
}

/* "<key>.npy" named by the exact output key; only a key that cannot be a file
** name is reduced to [A-Za-z0-9_], and a name that collides with an earlier
** one after that gets a numeric suffix. */
static const char *output_file_name(sm2c_ctx *c, const sm2c_entry *e, int32_t i, const sm2c_outfile *done)
{
    const char *key = e->outputs[i].key;
    const char *base = key_is_file_name(key) ? key : sm2c_c_ident(c->arena, key), *name = base;
    for (int k = 2, clash = 1; clash; k++) {
        name = k == 2 ? sm2c_arena_printf(c->arena, "%s.npy", base)
                      : sm2c_arena_printf(c->arena, "%s_%d.npy", base, k - 1);
        clash = 0;
        for (int32_t j = 0; j < i; j++)
            clash |= strcmp(done[j].name, name) == 0;
    }
    return name;
}

/* Output i has a data-dependent dim: its shape and bytes cut to the size its
** count output says (rows past it dropped). */
static sm2c_status trim_dynamic(sm2c_ctx *c, const char *dir, const sm2c_entry *e, int32_t i, sm2c_shape *shape,
                                uint8_t *data, size_t elem, size_t *len)
{
    int32_t k = e->n_outputs;
    for (int32_t j = 0; j < e->n_outputs && k == e->n_outputs; j++)
        if (e->outputs[j].count_of == i + 1)
            k = j;
    sm2c_buf cr;
    const char *path = sm2c_arena_printf(c->arena, "%s/out%d.raw", dir, k);
    sm2c_status st = k < e->n_outputs ? sm2c_read_file(c, AT_FDCWD, path, path, 64, &cr) : SM2C_ERR_INTERNAL;
    if (st)
        return st;
    int32_t d = e->outputs[i].dynamic - 1;
    int64_t count = 0, bound = shape->dims[d], outer = 1, inner = (int64_t)elem;
    if (cr.len == sizeof count)
        memcpy(&count, cr.data, sizeof count);
    if (cr.len != sizeof count || count < 0 || count > bound)
        return sm2c_error(c->diag, SM2C_ERR_INTERNAL, path, NULL, "count %lld of output '%s' is out of [0, %lld]",
                          (long long)count, e->outputs[i].key, (long long)bound);
    for (int32_t j = 0; j < d; j++)
        outer *= shape->dims[j];
    for (int32_t j = d + 1; j < shape->rank; j++)
        inner *= shape->dims[j];
    for (int64_t o = 0; o < outer; o++)
        memmove(data + o * count * inner, data + o * bound * inner, (size_t)(count * inner));
    *len = (size_t)(outer * count * inner);
    *shape = sm2c_shape_make(c, shape->rank, shape->dims);
    shape->dims[d] = count;
    return SM2C_OK;
}

/* A string output the driver saved (save_strings): t->nelem int64 lengths,
** then the bytes; into t->strings. */
static sm2c_status read_strings(sm2c_ctx *c, const char *path, const sm2c_buf *raw, sm2c_tensor *t)
{
    size_t n = (size_t)t->nelem, at = n * 8;
    if (raw->len < at)
        return sm2c_error(c->diag, SM2C_ERR_INTERNAL, path, NULL, "holds %zu bytes, too few for %zu strings",
                          raw->len, n);
    t->strings = sm2c_arena_array(c->arena, n + 1, sizeof *t->strings);
    for (size_t i = 0; i < n; i++) {
        int64_t len;
        memcpy(&len, raw->data + i * 8, 8);
        if (len < 0 || (uint64_t)len > raw->len - at)
            return sm2c_error(c->diag, SM2C_ERR_INTERNAL, path, NULL, "string %zu has a bad length", i);
        t->strings[i] = (sm2c_bytes){ raw->data + at, (size_t)len };
        at += (size_t)len;
    }
    t->data = NULL;
    t->nbytes = 0;
    return SM2C_OK;
}

/* The outputs as .npy files, to publish like compile output (publish.c). */
static sm2c_status collect_outputs(sm2c_ctx *c, const char *dir, const sm2c_entry *e, const sm2c_run_opts *o,
                                   int32_t batch, sm2c_outfile **out, int32_t *n_out)
{
    const char *outdir = o->outdir ? o->outdir : dir;
    sm2c_outfile *files = sm2c_arena_array(c->arena, (size_t)e->n_outputs + 1, sizeof *files);
    int32_t n_files = 0;
    for (int32_t i = 0; i < e->n_outputs; i++) {
        sm2c_buf raw;
        if (e->outputs[i].count_of)
            break;      /* the counts follow the outputs; trim_dynamic read them */
        const char *path = sm2c_arena_printf(c->arena, "%s/out%d.raw", dir, i);
        sm2c_status st = sm2c_read_file(c, AT_FDCWD, path, path, INT64_MAX, &raw);
        if (st)
            return st;
        sm2c_shape shape = sm2c_run_shape(c, &e->outputs[i], batch);
        int str = sm2c_dtype_base(e->outputs[i].dtype) == SM2C_DT_STRING;
        if (!str && e->outputs[i].dynamic &&
            (st = trim_dynamic(c, dir, e, i, &shape, raw.data, sm2c_dtype_size(e->outputs[i].dtype), &raw.len)))
            return st;
        sm2c_tensor t = { .dtype = sm2c_dtype_base(e->outputs[i].dtype), .shape = shape,
                          .nelem = sm2c_shape_elements(&shape, INT64_MAX),
                          .nbytes = raw.len, .data = raw.data };
        if (str && (st = read_strings(c, path, &raw, &t)))
            return st;
        if (str && e->outputs[i].dynamic) {     /* the elements (sm2c_bytes) cut to the count */
            size_t len = 0;
            if ((st = trim_dynamic(c, dir, e, i, &shape, (uint8_t *)t.strings, sizeof *t.strings, &len)))
                return st;
            t.shape = shape;
            t.nelem = sm2c_shape_elements(&shape, INT64_MAX);
        }
        if (o->print)
            sm2c_run_print(c, stdout, e->outputs[i].key, &t);
        files[i].name = output_file_name(c, e, i, files);
        sm2c_buf npy;
        if ((st = sm2c_npy_encode(c, sm2c_path_join(c->arena, outdir, files[i].name), &t, &npy)))
            return st;
        files[i].data = (const char *)npy.data;
        files[i].len = npy.len;
        n_files++;
    }
    *out = files;
    *n_out = n_files;
    return SM2C_OK;
}

/* --state-out's file for checkpoint key `key`: '/' as "__", then ".npy". */
static const char *state_file_name(sm2c_ctx *c, const char *key)
{
    const char *name = "";
    for (const char *q = key; *q; q++)
        name = sm2c_arena_printf(c->arena, *q == '/' ? "%s__" : "%s%c", name, *q);
    return sm2c_arena_printf(c->arena, "%s.npy", name);
}

/* Before anything runs: two variables whose keys give one file name ("a/b"
** and "a__b") cannot both be written to --state-out. */
static sm2c_status check_state_names(sm2c_ctx *c, const sm2c_model *m, const sm2c_program *p)
{
    sm2c_strmap *seen = sm2c_strmap_new(c->arena, (size_t)p->n_states + 1);
    for (int32_t k = 0; k < p->n_states; k++) {
        const char *name = state_file_name(c, p->states[k].key);
        const char *other = sm2c_strmap_put(seen, name, (void *)p->states[k].key);
        if (other)
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, m->file, NULL, "--state-out: variables '%s' and '%s' "
                              "would both be written to %s", other, p->states[k].key, name);
    }
    return SM2C_OK;
}

/* --state-out: DIR/<checkpoint key, '/' as "__">.npy per written variable. */
static sm2c_status collect_state(sm2c_ctx *c, const char *dir, const sm2c_program *p, const char *outdir,
                                 sm2c_outfile **out)
{
    sm2c_outfile *files = sm2c_arena_array(c->arena, (size_t)p->n_states + 1, sizeof *files);
    for (int32_t k = 0; k < p->n_states; k++) {
        const sm2c_state *v = &p->states[k];
        sm2c_buf raw;
        const char *path = sm2c_arena_printf(c->arena, "%s/state%d.raw", dir, k);
        sm2c_status st = sm2c_read_file(c, AT_FDCWD, path, path, INT64_MAX, &raw);
        if (st)
            return st;
        sm2c_tensor t = { .dtype = sm2c_dtype_base(v->dtype), .shape = v->shape,
                          .nelem = sm2c_shape_elements(&v->shape, INT64_MAX), .nbytes = raw.len,
                          .data = raw.data };
        files[k].name = state_file_name(c, v->key);
        sm2c_buf npy;
        if ((st = sm2c_npy_encode(c, sm2c_path_join(c->arena, outdir, files[k].name), &t, &npy)))
            return st;
        files[k].data = (const char *)npy.data;
        files[k].len = npy.len;
    }
    *out = files;
    return SM2C_OK;
}

/* Both outputs are encoded before either is published, so that a failure
** before publishing leaves neither; the paths passed the pre-flight check
** (out_path.h) before the run.  Neither may be inside the SavedModel. */
static sm2c_status publish_run(sm2c_ctx *c, const sm2c_model *m, const char *dir, const sm2c_program *p,
                               const sm2c_entry *e, const sm2c_run_opts *o, int32_t batch)
{
    sm2c_outfile *outs, *states = NULL;
    int32_t n_outs;
    sm2c_status st = collect_outputs(c, dir, e, o, batch, &outs, &n_outs);
    if (!st && o->state_out)
        st = collect_state(c, dir, p, o->state_out, &states);
    if (!st && o->outdir)
        st = sm2c_publish(c, o->outdir, m->dir, outs, (size_t)n_outs);
    if (!st && o->state_out)
        st = sm2c_publish(c, o->state_out, m->dir, states, (size_t)p->n_states);
    return st;
}

/* --profile and --dump-intermediates need the C backend's hooks; a dump of
** a --max-batch entry would hold one row. */
static sm2c_status check_hooks(sm2c_ctx *c, const sm2c_run_opts *o)
{
    const char *opt = o->dump_dir ? "--dump-intermediates" : "--profile";
    if ((o->profile || o->dump_dir) && o->emit != SM2C_EMIT_C)
        return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL, "%s needs the C backend's step hooks: "
                          "use --emit c (the default)", opt);
    if (o->dump_dir && o->compile.max_batch)
        return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL, "--dump-intermediates: a --max-batch entry "
                          "runs its steps one row at a time; give the batch with --shape instead");
    return SM2C_OK;
}

/* The run's own results beside the outputs: the step times, the intermediates. */
static sm2c_status collect_hooks(sm2c_ctx *c, const char *dir, const sm2c_entry *e, const sm2c_run_opts *o,
                                 int64_t repeat, int32_t batch, sm2c_run_profile *prof)
{
    sm2c_status st = SM2C_OK;
    if (o->profile)
        st = sm2c_run_read_profile(c, dir, e, repeat, e->max_batch ? batch : 1, prof);
    if (!st && o->dump_dir)
        st = sm2c_run_collect_intermediates(c, dir, e, o->dump_dir);
    return st;
}

sm2c_status sm2c_run(sm2c_ctx *c, sm2c_model *m, const sm2c_run_opts *o, sm2c_program **program,
                     sm2c_run_profile *profile)
{
    sm2c_run_profile unused;
    if (!profile)
        profile = &unused;
    memset(profile, 0, sizeof *profile);
    sm2c_tensor *arrays = sm2c_arena_array(c->arena, (size_t)o->n_inputs + 1, sizeof *arrays);
    sm2c_compile_opts co = o->compile;
    co.name = co.name ? co.name : "model";
    co.command = co.command ? co.command : "sm2c run";
    const char *only;
    if (co.n_signatures + co.n_functions == 0) {
        sm2c_status st = sm2c_run_only_signature(c, m, &only);
        if (st)
            return st;
        co.signatures = &only;
        co.n_signatures = 1;
    }
    sm2c_run_opts with_sig = *o;
    with_sig.compile = co;
    o = &with_sig;
    if (co.n_signatures + co.n_functions != 1)
        return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL, "run takes one --signature or --function");
    if (o->emit != SM2C_EMIT_C && !sm2c_target_is_host(&co.target))
        return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL, "run builds --emit %s for this machine, not for "
                          "--target %s (--emit c runs the program lowered for that target here)",
                          o->emit == SM2C_EMIT_OBJ ? "obj" : "so", co.target.triple ? co.target.triple : co.target.cpu);
    sm2c_status st = check_hooks(c, o);
    if (!st)
        st = read_inputs(c, m, o, arrays, &co.import);
    sm2c_program *p;
    if (st || (st = sm2c_compile_program(c, m, &co, &p)))
        return st;
    if (p->n_entries != 1)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, NULL,
                          "--function %s selects %d concrete functions; run one of them by its entry key "
                          "(%s_0, ...)", co.functions[0], (int)p->n_entries, co.functions[0]);
    const sm2c_entry *e = &p->entries[0];
    int32_t batch;
    p->profile = o->profile || o->dump_dir;
    if (program)
        *program = p;
    if ((st = sm2c_run_batch(c, e, o, arrays, &batch)) || (st = sm2c_run_check_inputs(c, e, o, arrays, batch)))
        return st;
    if (o->state_out && !p->n_states)
        return sm2c_error(c->diag, SM2C_ERR_USAGE, m->file, e->key,
                          "--state-out: this entry writes no variable, so there is no state to write");
    if (o->state_out && (st = check_state_names(c, m, p)))
        return st;
    char *dir = sm2c_tmpdir(c, "sm2c-run");
    if (!dir)
        return SM2C_ERR_INVALID;
    int64_t repeat = o->repeat > 0 ? o->repeat : 1;
    char *drv = driver_source(c, p, e, repeat, batch, o);
    if (p->profile)
        drv = sm2c_arena_printf(c->arena, "%s%s", sm2c_run_hook_source(c, e, repeat, o->dump_dir != NULL), drv);
    if (!(st = sm2c_emit(c, p, o->emit, &co.target, o->cc, dir)) &&
        !(st = write_file(c, sm2c_arena_printf(c->arena, "%s/driver_main.c", dir), drv, strlen(drv))) &&
        !(st = build_cached(c, dir, o, p->name)) && !(st = run_driver(c, dir, p, e, o, arrays)) &&
        !(st = collect_hooks(c, dir, e, o, repeat, batch, profile)))
        st = publish_run(c, m, dir, p, e, o, batch);
    if (o->keep)
        sm2c_note(c->diag, dir, NULL, "build directory kept");
    else
        sm2c_rmtree(dir);
    return st;
}
