/*
** main.c: the sm2c command line, a thin layer over the library.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "codegen/emit.h"
#include "codegen/emit_c.h"
#include "codegen/rt_select.h"
#include "codegen/rt_stack.h"
#include "base/fileio.h"
#include "inspect.h"
#include "ops/opdefs.h"
#include "driver/pipeline.h"
#include "report.h"
#include "npy.h"
#include "run.h"

static const char usage[] =
    "usage: sm2c <command> [options]\n"
    "\n"
    "Compile a TensorFlow SavedModel to standalone C.\n"
    "\n"
    "commands:\n"
    "  inspect DIR [--tag_set TAGS] [--json] [--max-values N]\n"
    "        what is inside: tags, signatures, concrete functions, variables and their\n"
    "        checkpoint keys, checkpoint entries (values of tensors with at most N\n"
    "        elements, default 16), reachable ops and which sm2c cannot compile yet\n"
    "  compile DIR -o OUT [--name NAME] [--signature KEY]... [--function PATH]...\n"
    "        [--shape [SIG.]KEY=D0,D1,...]... [--max-batch N] [--skip-failing]\n"
    "        [--emit c|llvm-ir|llvm-bc|obj|so] [--target TRIPLE] [--cpu CPU]\n"
    "        [--features F] [--opt O0|O1|O2|O3|Os|Oz] [--report FILE] [--tag_set TAGS]\n"
    "        [--weights inline|c|obj] [--quantize int8 [--calibration KEY=FILE.npy]... [--io int8]]\n"
    "        write OUT/NAME.h and, by --emit: NAME.c (default), NAME.ll, NAME.bc or\n"
    "        NAME.o (each with the runtime sources they need), or NAME.so (linked\n"
    "        with $CC, exporting only NAME_*); every signature but\n"
    "        __saved_model_init_op unless --signature selects; --function PATH adds\n"
    "        every concrete function of the tf.function at object path PATH (or the\n"
    "        one whose entry key, PATH_<k> as inspect lists, it is); an unknown leading dim\n"
    "        is taken as 1, others need --shape (KEY: every signature with input KEY;\n"
    "        SIG.KEY: signature SIG's only; a key that names no input, a wrong rank or\n"
    "        a dim the signature declares otherwise is an error); a signature that\n"
    "        cannot be compiled is an error, unless --skip-failing leaves it out with\n"
    "        a warning; LLVM forms are optimised at --opt\n"
    "        (default O2), and on ELF targets put each function, weight and the arena\n"
    "        in its own section, for the linker's --gc-sections; --opt Os or Oz also\n"
    "        keeps a recurrent layer's input projection inside its loop (a smaller arena)\n"
    "        where the default computes it for all steps at once (faster on a cache),\n"
    "        and gives a first convolution no zero-padded copy of its input (less code\n"
    "        and arena; use it for microcontrollers, the C output too);\n"
    "        --max-batch N: inputs with an unknown leading dim take 1..N rows, given at\n"
    "        run time as the entry's first argument (the graph must keep rows apart)\n"
    "        --report FILE.json / FILE.html: steps, MACs, memory plan (else text)\n"
    "        --quantize int8: int8 weights (per channel) and activations (TFLite's scheme),\n"
    "        float entry points; activation ranges from running the float program on\n"
    "        --calibration KEY=FILE.npy (N samples stacked along the leading dim), or\n"
    "        from the model's FakeQuant ops when it has them; --io int8: int8 inputs and\n"
    "        outputs (their scale and zero point in the header's _SCALE, _ZERO_POINT);\n"
    "        with a Cortex-M --target (thumbv7em-none-eabihf, ...) or --cpu cortex-m*,\n"
    "        int8 Conv2D filters take its SMLAD kernel's layout (--emit c too)\n"
    "        --weights c|obj (with --emit c): the weights in NAME_weights.c, packed,\n"
    "        or NAME_weights.o for --target through LLVM; inline (default): in NAME.c\n"
    "        --dump-after PASS[,PASS...]|all: print each entry's IR after those passes to stderr\n"
    "        --task-work N: a step is split into tasks of at least N multiply-adds (or\n"
    "        pool taps) on a context with threads (NAME.h; default 32768; --report lists\n"
    "        the split); a Cortex-M target splits nothing\n";

/* The rest of the text: one string would pass the 4,095 characters C99
** promises (-Woverlength-strings). */
static const char usage_more[] =
    "  run DIR --signature KEY|--function KEY --input KEY=FILE.npy... --outdir OUT\n"
    "        [--shape ...] [--max-batch N] [--quantize int8 [--calibration KEY=FILE.npy]... [--io int8]]\n"
    "        [--emit c|obj|so] [--threads N] [--task-work N]\n"
    "        compile one signature or function, build it with $CC (default cc), run it on the\n"
    "        inputs and write OUT/<output key>.npy; unknown dims come from the inputs;\n"
    "        an input key the signature lacks, or an array whose shape contradicts the\n"
    "        declared one, is an error before anything is built\n"
    "        [--runtime-lib LIB.a]: link a runtime built once from `sm2c runtime`\n"
    "        instead of compiling the runtime sources each time\n"
    "        [--repeat N]: call it N times in one process with the same inputs, the\n"
    "        variables it writes carried from call to call; the outputs are the last call's\n"
    "        [--state-out DIR]: also write each written variable's final value as\n"
    "        DIR/<checkpoint key, '/' replaced by __>.npy\n"
    "        [--threads N[,N...]]: also run the context entry point (NAME_<sig>_ctx) with\n"
    "        the runtime's pthread pool of N threads, each N in turn, and check that its\n"
    "        outputs are the static entry point's, bit for bit\n"
    "  runtime -o OUT [--kernel NAME]...\n"
    "        write every runtime source and header into OUT, to build one runtime\n"
    "        library shared by several models; with --kernel, exactly the files those\n"
    "        sm2c_rt_* kernels need\n"
    "  runtime --list\n"
    "        every runtime kernel with the files it needs\n"
    "  ops   list the ops sm2c compiles, each with the dtypes it runs on\n"
    "\n"
    "options for every command:\n"
    "  --limit NAME=VALUE   raise or lower a resource limit (see --help-limits)\n"
    "  --help, -h           this text\n"
    "  --version            the version\n"
    "\n"
    "exit status: 0 ok, 1 invalid input, 2 usage, 3 unsupported feature,\n"
    "             4 resource limit exceeded, 5 internal error\n";

#define MAX_LIST 256
#define MAX_THREAD_COUNTS 16

typedef struct cli {
    const char *command;
    const char *dir;
    const char *out;         /* -o / --outdir */
    /* What decides the program, filled as the options are read and passed
    ** whole to compile and to run (which embeds it), so both make the same
    ** program from the same flags: --name, --signature, --function, --shape,
    ** --max-batch, --quantize, --io, --calibration, and the target (--opt,
    ** --target, --cpu, --features). */
    sm2c_compile_opts co;
    const char *signatures[MAX_LIST];   /* co's lists point here */
    const char *functions[MAX_LIST];
    sm2c_shape_opt shapes[MAX_LIST];
    sm2c_run_input calibration[MAX_LIST];   /* --calibration KEY=FILE.npy, read into co */
    int n_calibration;
    const char *report;
    const char *runtime_lib;
    sm2c_weights_form weights;   /* --weights */
    const char *tag_set;
    const char *kernels[MAX_LIST];  /* runtime --kernel */
    int n_kernels;
    int list;                       /* runtime --list */
    sm2c_run_input inputs[MAX_LIST];
    int n_inputs;
    int json, keep;
    sm2c_emit_kind emit;
    int max_values;
    int32_t threads[MAX_THREAD_COUNTS];  /* run --threads N[,N...] */
    int32_t n_threads;
    sm2c_limits limits;
    sm2c_arena *arena;
    int64_t repeat;          /* run --repeat N */
    const char *state_out;   /* run --state-out DIR */
} cli;

static int usage_error(const char *fmt, const char *arg)
{
    fputs("sm2c: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (sm2c --help shows the usage)\n", stderr);
    return SM2C_ERR_USAGE;
}

static void print_limits(void)
{
    sm2c_limits_print(stdout);
}

/* The dtypes in mask, in `sm2c ops` order, each after a space. */
static void print_dtypes(FILE *f, uint64_t mask)
{
    static const int order[] = {
        SM2C_DT_FLOAT, SM2C_DT_DOUBLE, SM2C_DT_HALF, SM2C_DT_BFLOAT16, SM2C_DT_INT8, SM2C_DT_INT16,
        SM2C_DT_INT32, SM2C_DT_INT64, SM2C_DT_UINT8, SM2C_DT_UINT16, SM2C_DT_UINT32, SM2C_DT_UINT64,
        SM2C_DT_BOOL, SM2C_DT_STRING, SM2C_DT_COMPLEX64,
    };
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        if (mask >> order[k] & 1)
            fprintf(f, " %s", sm2c_dtype_name(order[k]));
}

/* One line per op: its name and the dtypes it runs on. */
static void print_ops(void)
{
    for (size_t i = 0; i < sm2c_opdef_count(); i++) {
        const sm2c_opdef *op = sm2c_opdef_at(i);
        printf("%-36s", op->name);
        print_dtypes(stdout, op->dtypes);
        putchar('\n');
    }
}

static int parse_int(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return 0;
    *out = v;
    return 1;
}

/* --threads N[,N...]: counts from 1 to 1024. */
static int parse_threads(cli *o, const char *s)
{
    o->n_threads = 0;
    for (;;) {
        char *end;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s || errno || v < 1 || v > 1024 || o->n_threads == MAX_THREAD_COUNTS || (*end && *end != ','))
            return 0;
        o->threads[o->n_threads++] = (int32_t)v;
        if (!*end)
            return 1;
        s = end + 1;
    }
}

static int parse_limit(cli *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    int64_t v;
    if (!eq || !parse_int(eq + 1, &v) || v < 0)
        return usage_error("--limit expects NAME=VALUE, got '%s'", arg);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
    if (!sm2c_limits_set(&o->limits, name, v))
        return usage_error("unknown limit '%s' (sm2c --help-limits lists them)", name);
    return 0;
}

/* KEY=D0,D1,... */
static int parse_shape(cli *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || o->co.import.n_shapes == MAX_LIST)
        return usage_error("--shape expects KEY=D0,D1,..., got '%s'", arg);
    sm2c_shape_opt *s = &o->shapes[o->co.import.n_shapes];
    s->key = sm2c_arena_strndup(o->arena, arg, (size_t)(eq - arg));
    int64_t dims[64];
    int32_t rank = 0;
    for (const char *p = eq + 1; *p;) {
        char *end;
        errno = 0;
        long long d = strtoll(p, &end, 10);
        if (errno || end == p || d < (rank == 0 ? -1 : 0) || rank == 64 || (*end && *end != ','))
            return usage_error("--shape expects non-negative dims (the leading one may be -1), got '%s'", arg);
        dims[rank++] = d;
        p = *end ? end + 1 : end;
    }
    s->shape = (sm2c_shape){ rank, sm2c_arena_array(o->arena, (size_t)rank + 1, sizeof(int64_t)) };
    memcpy(s->shape.dims, dims, (size_t)rank * sizeof *dims);
    o->co.import.n_shapes++;
    return 0;
}

static int parse_input(cli *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1] || o->n_inputs == MAX_LIST)
        return usage_error("--input expects KEY=FILE.npy, got '%s'", arg);
    o->inputs[o->n_inputs].key = sm2c_arena_strndup(o->arena, arg, (size_t)(eq - arg));
    o->inputs[o->n_inputs++].path = eq + 1;
    return 0;
}

static int parse_calibration(cli *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1] || o->n_calibration == MAX_LIST)
        return usage_error("--calibration expects KEY=FILE.npy, got '%s'", arg);
    o->calibration[o->n_calibration].key = sm2c_arena_strndup(o->arena, arg, (size_t)(eq - arg));
    o->calibration[o->n_calibration++].path = eq + 1;
    return 0;
}

/* An option that takes a value. */
static int take(cli *o, const char *opt, const char *val)
{
    int64_t v;
    if (!strcmp(opt, "--limit")) return parse_limit(o, val);
    if (!strcmp(opt, "--calibration")) return parse_calibration(o, val);
    if (!strcmp(opt, "--quantize")) {
        if (strcmp(val, "int8"))
            return usage_error("--quantize expects int8, got '%s'", val);
        o->co.quantize_int8 = 1;
        return 0;
    }
    if (!strcmp(opt, "--io")) {
        if (strcmp(val, "int8") && strcmp(val, "float"))
            return usage_error("--io expects float or int8, got '%s'", val);
        o->co.io_int8 = !strcmp(val, "int8");
        return 0;
    }
    if (!strcmp(opt, "--shape")) return parse_shape(o, val);
    if (!strcmp(opt, "--input")) return parse_input(o, val);
    if (!strcmp(opt, "--tag_set") || !strcmp(opt, "--tag-set")) o->tag_set = val;
    else if (!strcmp(opt, "-o") || !strcmp(opt, "--outdir") || !strcmp(opt, "--output")) o->out = val;
    else if (!strcmp(opt, "--name")) o->co.name = val;
    else if (!strcmp(opt, "--report")) o->report = val;
    else if (!strcmp(opt, "--runtime-lib")) o->runtime_lib = val;
    else if (!strcmp(opt, "--state-out")) o->state_out = val;
    else if (!strcmp(opt, "--dump-after")) o->co.dump_after = val;
    else if (!strcmp(opt, "--repeat")) {
        if (!parse_int(val, &v) || v < 1 || v > 1000000000)
            return usage_error("--repeat expects a count from 1 to 1000000000, got '%s'", val);
        o->repeat = v;
    }
    else if (!strcmp(opt, "--target")) sm2c_target_set_machine(&o->co.target, val, o->co.target.cpu);
    else if (!strcmp(opt, "--cpu")) sm2c_target_set_machine(&o->co.target, o->co.target.triple, val);
    else if (!strcmp(opt, "--features")) o->co.target.features = val;
    else if (!strcmp(opt, "--opt")) {
        if (!sm2c_target_set_opt(&o->co.target, val))
            return usage_error("--opt expects O0, O1, O2, O3, Os or Oz, got '%s'", val);
    }
    else if (!strcmp(opt, "--weights")) {
        if (!sm2c_weights_form_parse(val, &o->weights))
            return usage_error("--weights expects inline, c or obj, got '%s'", val);
    }
    else if (!strcmp(opt, "--emit")) {
        if (!sm2c_emit_kind_parse(val, &o->emit))
            return usage_error("--emit expects c, llvm-ir, llvm-bc, obj or so, got '%s'", val);
    }
    else if (!strcmp(opt, "--kernel")) {
        if (o->n_kernels == MAX_LIST)
            return usage_error("at most 256 %s options", opt);
        o->kernels[o->n_kernels++] = val;
    } else if (!strcmp(opt, "--signature")) {
        if (o->co.n_signatures == MAX_LIST)
            return usage_error("too many %s options", opt);
        o->signatures[o->co.n_signatures++] = val;
    } else if (!strcmp(opt, "--function")) {
        if (o->co.n_functions == MAX_LIST)
            return usage_error("too many %s options", opt);
        o->functions[o->co.n_functions++] = val;
    } else if (!strcmp(opt, "--max-values")) {
        if (!parse_int(val, &v) || v < 0 || v > 1000000)
            return usage_error("--max-values expects a count, got '%s'", val);
        o->max_values = (int)v;
    } else if (!strcmp(opt, "--task-work")) {
        if (!parse_int(val, &v) || v < 1 || v > INT64_MAX / 2)
            return usage_error("--task-work expects a count of multiply-adds from 1, got '%s'", val);
        o->co.target.task_work = v;
    } else if (!strcmp(opt, "--threads")) {
        if (!parse_threads(o, val))
            return usage_error("--threads expects thread counts from 1 to 1024 (at most 16, separated by "
                               "commas), got '%s'", val);
    } else if (!strcmp(opt, "--max-batch")) {
        if (!parse_int(val, &v) || v < 1 || v > INT32_MAX)
            return usage_error("--max-batch expects a row count from 1 to 2147483647, got '%s'", val);
        o->co.max_batch = (int32_t)v;
    } else
        return usage_error("unknown option '%s'", opt);
    return 0;
}

static int parse_args(cli *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--keep")) {
            o->keep = 1;
        } else if (!strcmp(a, "--list")) {
            o->list = 1;
        } else if (!strcmp(a, "--skip-failing")) {
            o->co.skip_failing = 1;
        } else if (a[0] == '-' && a[1]) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            int err = take(o, a, argv[++i]);
            if (err)
                return err;
        } else if (!o->command) {
            o->command = a;
        } else if (!o->dir) {
            o->dir = a;
        } else {
            return usage_error("unexpected argument '%s'", a);
        }
    }
    if (!o->command)
        return usage_error("%s", "no command given");
    if (strcmp(o->command, "inspect") && strcmp(o->command, "compile") && strcmp(o->command, "run") &&
        strcmp(o->command, "ops") && strcmp(o->command, "runtime"))
        return usage_error("unknown command '%s'", o->command);
    if (strcmp(o->command, "ops") && strcmp(o->command, "runtime") && !o->dir)
        return usage_error("%s needs a SavedModel directory", o->command);
    if (!strcmp(o->command, "runtime") && (o->dir || !o->out == !o->list))
        return usage_error("%s", "runtime takes no model directory, and -o OUT or --list");
    if ((o->n_kernels || o->list) && strcmp(o->command, "runtime"))
        return usage_error("%s", "--kernel and --list are options of `sm2c runtime`");
    if (!strcmp(o->command, "compile") && !o->out)
        return usage_error("%s needs -o OUT", o->command);
    if (!strcmp(o->command, "run") && (!o->out || o->co.n_signatures + o->co.n_functions != 1))
        return usage_error("%s needs --signature KEY (or --function KEY) and --outdir OUT", o->command);
    if (!strcmp(o->command, "run") && o->emit != SM2C_EMIT_C && o->emit != SM2C_EMIT_OBJ &&
        o->emit != SM2C_EMIT_SO)
        return usage_error("run builds with --emit c, obj or so, not '%s'", "llvm-ir/llvm-bc");
    if (o->weights && (strcmp(o->command, "compile") || o->emit != SM2C_EMIT_C))
        return usage_error("%s", "--weights c|obj is an option of compile --emit c");
    if (strcmp(o->command, "run") && o->n_threads)
        return usage_error("%s", "--threads is an option of run (a compiled model takes its threads from the caller's context)");
    if (strcmp(o->command, "run") && (o->repeat || o->state_out))
        return usage_error("%s", "--repeat and --state-out are options of run");
    if (o->n_calibration && !o->co.quantize_int8)
        return usage_error("%s", "--calibration needs --quantize int8");
    if (o->co.io_int8 && !o->co.quantize_int8)
        return usage_error("%s", "--io int8 needs --quantize int8");
    if (o->co.name && strcmp(sm2c_c_ident(o->arena, o->co.name), o->co.name))
        return usage_error("--name must be a C identifier, got '%s'", o->co.name);
    return 0;
}

/* The command line for the generated header: only what shapes the code.  The
** model directory is reduced to its last component and output paths are left
** out, so output does not depend on where things live (docs/reliability.md rule 14). */
static const char *command_line(sm2c_arena *a, int argc, char **argv)
{
    char *s = sm2c_arena_strdup(a, "sm2c");
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-o") || !strcmp(arg, "--outdir") || !strcmp(arg, "--output") ||
            !strcmp(arg, "--report")) {
            i++;
            continue;
        }
        if (arg[0] != '-' && positional++ == 1)
            arg = sm2c_path_base(a, arg);
        int plain = arg[0] != 0;
        for (const char *p = arg; *p; p++)
            plain &= (*p >= '+' && *p <= 'z' && *p != '\\' && *p != '`') || *p == '_';
        s = sm2c_arena_printf(a, plain ? "%s %s" : "%s '%s'", s, arg);
        if (!strcmp(arg, "--calibration") && i + 1 < argc && strchr(argv[i + 1], '=')) {
            /* KEY=FILE with the file's last component only (rule 14) */
            const char *val = argv[++i], *eq = strchr(val, '=');
            s = sm2c_arena_printf(a, "%s %.*s=%s", s, (int)(eq - val), val, sm2c_path_base(a, eq + 1));
        } else if (arg[0] == '-' && i + 1 < argc && strcmp(arg, "--json") && strcmp(arg, "--keep") &&
                   strcmp(arg, "--list") && strcmp(arg, "--skip-failing"))
            s = sm2c_arena_printf(a, "%s %s", s, argv[++i]);
    }
    return s;
}

/* Bytes of the distinct weights an entry point's steps read. */
static int64_t entry_weight_bytes(const sm2c_program *p, const sm2c_entry *e)
{
    return sm2c_entry_weight_bytes(p, e);
}

/* Flash and RAM of one entry point on a Cortex-M4F: code estimated from the
** kernels' measured sizes, the weights it reads; the arena it uses, the
** program's state, its stack bound. */
static void report_footprint(FILE *f, const sm2c_program *p, const sm2c_entry *e, int64_t state,
                             int c_layers)
{
    int64_t code = sm2c_code_estimate(e), weights = entry_weight_bytes(p, e);
    int32_t stack = sm2c_stack_bound_entry(e, SM2C_STACK_CORTEX_M4, c_layers);
    if (code >= 0)
        fprintf(f, "footprint %s: flash %lld bytes (code ~%lld, weights %lld)", e->key,
                (long long)(code + weights), (long long)code, (long long)weights);
    else
        fprintf(f, "footprint %s: flash unknown (code unknown, weights %lld)", e->key,
                (long long)weights);
    fprintf(f, ", ram %lld bytes (arena %lld, state %lld, stack %d), Cortex-M4F -Os\n",
            (long long)(e->arena_bytes + state + stack), (long long)e->arena_bytes,
            (long long)state, (int)stack);
}

/* The plain-text form of --report. */
/* --quantize int8: each int8 tensor's parameters, range and error against
** float on the calibration data, and what stayed float. */
static void report_quantization(FILE *f, const sm2c_entry *e)
{
    if (!e->quantized)
        return;
    fprintf(f, "int8 %s: %d tensors, %d nodes in float\n", e->key, e->n_qtensors, e->n_float_nodes);
    for (int32_t i = 0; i < e->n_qtensors; i++) {
        const sm2c_qtensor *t = &e->qtensors[i];
        fprintf(f, "int8 tensor %s: scale %.9g zero_point %d range [%.9g, %.9g]", t->name, (double)t->scale,
                (int)t->zero_point, (double)t->min, (double)t->max);
        if (t->error >= 0)
            fprintf(f, " mean_abs_error %.6g", t->error);
        fputc('\n', f);
    }
    for (int32_t i = 0; i < e->n_float_nodes; i++)
        fprintf(f, "float node %s\n", e->float_nodes[i]);
}

static void text_report(FILE *f, sm2c_ctx *c, const sm2c_program *p, int c_layers)
{
    int64_t weights = sm2c_program_weight_bytes(p);
    fprintf(f, "model %s\nweights %d tensors, %lld bytes\narena %lld bytes\n", p->name, p->n_weights,
            (long long)weights, (long long)p->arena_bytes);
    for (int32_t i = 0; i < p->n_states; i++)
        fprintf(f, "state %s (%s): %s %s, %lld bytes\n", p->states[i].key, p->states[i].c_name,
                sm2c_dtype_name(p->states[i].dtype), sm2c_shape_str(c->arena, &p->states[i].shape),
                (long long)p->states[i].nbytes);
    for (int32_t i = 0; i < p->n_entries; i++) {
        const sm2c_entry *e = &p->entries[i];
        fprintf(f, "signature %s (%s): %d steps, arena %lld bytes, intermediates %lld bytes%s\n", e->key,
                e->c_name, e->n_steps, (long long)e->arena_bytes, (long long)e->naive_bytes,
                e->writes_state ? ", writes state" : "");
    }
    int64_t state = sm2c_program_state_bytes(p);
    for (int32_t i = 0; i < p->n_entries; i++)
        report_footprint(f, p, &p->entries[i], state, c_layers);
    for (int32_t i = 0; i < p->n_entries; i++)
        report_quantization(f, &p->entries[i]);
    for (int32_t i = 0; i < p->n_entries; i++)
        sm2c_report_split_text(f, &p->entries[i]);
    for (size_t i = 0; c->lowered && i < sm2c_opdef_count(); i++) {
        if (!c->lowered[i])
            continue;
        fprintf(f, "lowered %s", sm2c_opdef_at(i)->name);
        print_dtypes(f, c->lowered[i]);
        fputc('\n', f);
    }
}

static sm2c_status write_report(sm2c_ctx *c, const cli *o, const sm2c_program *p)
{
    int64_t weights = sm2c_program_weight_bytes(p), naive = 0;
    for (int32_t i = 0; i < p->n_entries; i++)
        if (p->entries[i].naive_bytes > naive)
            naive = p->entries[i].naive_bytes;
    fprintf(stderr, "sm2c: %s: %d signature%s, arena %lld bytes (intermediates %lld bytes), "
            "weights %lld bytes\n", p->name, p->n_entries, p->n_entries == 1 ? "" : "s",
            (long long)p->arena_bytes, (long long)naive, (long long)weights);
    int64_t state = sm2c_program_state_bytes(p);
    if (p->n_states)
        fprintf(stderr, "sm2c: %s: state %d variable%s, %lld bytes\n", p->name, p->n_states,
                p->n_states == 1 ? "" : "s", (long long)state);
    if (!o->report)
        return SM2C_OK;
    FILE *f = fopen(o->report, "w");
    if (!f)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, o->report, NULL, "cannot write: %s", strerror(errno));
    sm2c_report_format form = sm2c_report_format_of(o->report);
    if (form == SM2C_REPORT_JSON)
        sm2c_report_json(f, c->arena, p);
    else if (form == SM2C_REPORT_HTML)
        sm2c_report_html(f, c->arena, p);
    else
        text_report(f, c, p, o->emit == SM2C_EMIT_C);
    return fclose(f) ? sm2c_error(c->diag, SM2C_ERR_INVALID, o->report, NULL, "cannot write") : SM2C_OK;
}

/* --calibration files, read into o->co before compiling. */
static sm2c_status read_calibration(sm2c_ctx *c, cli *o)
{
    sm2c_calibration *cal = sm2c_arena_array(c->arena, (size_t)o->n_calibration + 1, sizeof *cal);
    for (int i = 0; i < o->n_calibration; i++) {
        cal[i].key = o->calibration[i].key;
        cal[i].file = o->calibration[i].path;
        for (int k = 0; k < i; k++)
            if (!strcmp(cal[k].key, cal[i].key))
                return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL, "--calibration %s is given twice", cal[i].key);
        sm2c_status st = sm2c_npy_read(c, cal[i].file, &cal[i].data);
        if (st)
            return st;
    }
    o->co.calibration = cal;
    o->co.n_calibration = o->n_calibration;
    return SM2C_OK;
}

static sm2c_status do_compile(sm2c_ctx *c, cli *o, sm2c_model *m)
{
    sm2c_status st = read_calibration(c, o);
    if (st)
        return st;
    if (o->report)
        c->lowered = sm2c_arena_array(c->arena, sm2c_opdef_count(), sizeof *c->lowered);
    sm2c_program *p;
    st = sm2c_compile_program(c, m, &o->co, &p);
    if (!st && p && p->n_entries) {
        sm2c_status est = o->weights ? sm2c_emit_c_weights_apart(c, p, o->weights, &o->co.target, o->out)
                                     : sm2c_emit(c, p, o->emit, &o->co.target, NULL, o->out);
        if (!est)
            est = write_report(c, o, p);
        if (est)
            return est;
    }
    return st;
}

static sm2c_status do_run(sm2c_ctx *c, cli *o, sm2c_model *m)
{
    sm2c_status st = read_calibration(c, o);
    if (st)
        return st;
    sm2c_run_opts ro = { .compile = o->co, .n_inputs = o->n_inputs, .inputs = o->inputs, .outdir = o->out,
                         .keep = o->keep, .emit = o->emit, .runtime_lib = o->runtime_lib, .repeat = o->repeat,
                         .n_threads = o->n_threads, .threads = o->threads,
                         .state_out = o->state_out };
    ro.compile.name = NULL;       /* run's own: "model", "sm2c run" */
    ro.compile.command = NULL;
    return sm2c_run(c, m, &ro);
}

static int run_command(cli *o)
{
    sm2c_diag diag;
    sm2c_diag_init(&diag);
    sm2c_ctx c = { .arena = o->arena, .diag = &diag, .limits = &o->limits };
    sm2c_status st;
    if (!strcmp(o->command, "runtime") && o->list) {
        st = sm2c_runtime_list(&c, stdout);
    } else if (!strcmp(o->command, "runtime")) {
        st = sm2c_emit_runtime(&c, o->kernels, (size_t)o->n_kernels, o->out);
    } else if (!strcmp(o->command, "inspect")) {
        sm2c_inspect_opts io = { .tag_set = o->tag_set, .json = o->json, .max_values = o->max_values };
        st = sm2c_inspect(&c, o->dir, &io, stdout);
    } else {
        sm2c_model *m;
        st = sm2c_model_load(&c, o->dir, o->tag_set, &m);
        if (!st)
            st = !strcmp(o->command, "compile") ? do_compile(&c, o, m) : do_run(&c, o, m);
        sm2c_model_close(m);
    }
    if (fflush(stdout) != 0 && !st) {
        fprintf(stderr, "sm2c: error: cannot write the output: %s\n", strerror(errno));
        return SM2C_ERR_INVALID;
    }
    return st;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            fputs(usage_more, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--help-limits")) {
            print_limits();
            return 0;
        }
        if (!strcmp(argv[i], "--version")) {
            puts("sm2c " SM2C_VERSION);
            return 0;
        }
    }
    cli o = { 0 };
    o.max_values = 16;
    o.arena = sm2c_arena_new();
    sm2c_limits_default(&o.limits);
    o.co.target = sm2c_target_host();
    o.co.signatures = o.signatures;
    o.co.functions = o.functions;
    o.co.import.shapes = o.shapes;
    o.co.command = command_line(o.arena, argc, argv);
    int rc = parse_args(&o, argc, argv);
    if (!rc && !strcmp(o.command, "ops"))
        print_ops();
    else if (!rc)
        rc = run_command(&o);
    sm2c_arena_free(o.arena);
    return rc;
}
