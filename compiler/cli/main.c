/*
** main.c: the sm2c command line, a thin layer over the library.
*/
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, isatty */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
#include "preflight.h"
#include "report.h"
#include "npy.h"
#include "run.h"

static const char usage[] =
    "usage: sm2c <command> [options]\n"
    "\n"
    "Compile a TensorFlow SavedModel to standalone C.\n"
    "\n"
    "commands:\n"
    "  inspect DIR [--tag_set TAGS] [--json] [--max-values N] [-v]\n"
    "        what is inside: tags, signatures (each with whether `compile --signature KEY`\n"
    "        compiles it, or why not), variables and their checkpoint keys, checkpoint\n"
    "        entries (values of tensors with at most N elements, default 16), reachable\n"
    "        ops and which sm2c cannot compile yet; -v: every concrete function too\n"
    "  inspect DIR --signature KEY\n"
    "        that signature as saved_model_cli show --signature_def shows it, with the\n"
    "        tf.Example features (key, dtype, shape, default) its protos must hold\n"
    "  compile DIR -o OUT [--name NAME] [--signature KEY]... [--function PATH]...\n"
    "        [--shape [SIG.]KEY=D0,D1,...]... [--max-batch N] [--skip-failing]\n"
    "        [--emit c|llvm-ir|llvm-bc|obj|so] [--target TRIPLE] [--cpu CPU]\n"
    "        [--features F] [--opt O0|O1|O2|O3|Os|Oz] [--report FILE] [--profile] [--tag_set TAGS]\n"
    "        [--weights inline|c|obj] [--quantize int8|int16x8|dynamic|float16 [--calibration KEY=FILE.npy]... [--io int8]\n"
    "        [--requantize fixed|float] [--quantize-skip PATTERN]... [--weights-bits 8|4]]\n"
    "        [--section CLASS=NAME]...\n"
    "        [--fast-arena BYTES]\n"
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
    "        --profile (with --emit c): every step calls NAME_PROFILE before and after its\n"
    "        kernel when NAME.c is built with -DNAME_PROFILE=hook (NAME.h); else nothing\n"
    "        --quantize int8: int8 weights (per channel) and activations (TFLite's scheme),\n"
    "        float entry points; activation ranges from running the float program on\n"
    "        --calibration KEY=FILE.npy (N samples stacked along the leading dim), or\n"
    "        from the model's FakeQuant ops when it has them; --io int8: int8 inputs and\n"
    "        outputs (their scale and zero point in the header's _SCALE, _ZERO_POINT);\n"
    "        with a Cortex-M --target (thumbv7em-none-eabihf, ...) or --cpu cortex-m*,\n"
    "        int8 Conv2D filters take its SMLAD kernel's layout (--emit c too);\n"
    "        --requantize float: int8 contractions requantize in float (XNNPACK's\n"
    "        scheme, faster; an output may differ by 1 from TFLite's; default fixed)\n";

/* The quantization modes besides int8 (one string would pass C99's 4,095). */
static const char usage_modes[] =
    "        --quantize int16x8: TFLite's 16x8 scheme: as int8, activations int16 (zero\n"
    "        point 0, scale max|range| / 32767), biases int64; --calibration as int8's\n"
    "        --quantize dynamic: TFLite's dynamic range: MatMul, Conv2D and depthwise\n"
    "        filters of 1024 weights or more int8 (per channel), their float inputs\n"
    "        quantized per call (per row, per image) as its hybrid kernels do; no calibration\n"
    "        --quantize-skip PATTERN (int8, int16x8, dynamic): nodes whose TF name (or that of a\n"
    "        node fused into them) matches stay float, quantized and dequantized at the\n"
    "        seams as TFLite's debugger's denylisted_nodes leave them; '*' matches any run\n"
    "        --weights-bits 4 (int8, dynamic): int4 weights for Conv2D, depthwise (int8\n"
    "        only) and MatMul, per channel max|w| / 7 (ai-edge-quantizer's INT4 scheme),\n"
    "        stored two to a byte and widened to int8 in the arena before use\n"
    "        --quantize float16: every float weight rounded to binary16 (TFLite's float16\n"
    "        quantization), those of 256 elements or more stored so and widened to\n"
    "        float32 in the arena before the steps that read them; float32 compute\n"
    "        --weights c|obj (with --emit c): the weights in NAME_weights.c, packed,\n"
    "        or NAME_weights.o for --target through LLVM; inline (default): in NAME.c\n"
    "        --dump-after PASS[,PASS...]|all: print each entry's IR after those passes to stderr\n"
    "        --task-work N: a step is split into tasks of at least N multiply-adds (or\n"
    "        pool taps) on a context with threads (NAME.h; default 32768; --report lists\n"
    "        the split); a Cortex-M target splits nothing\n";

/* The rest of the text: one string would pass the 4,095 characters C99
** promises (-Woverlength-strings). */
static const char usage_more[] =
    "        --section CLASS=NAME: put a class of memory in the ELF section NAME (letters,\n"
    "        digits, '.', '_'), for a linker script to place: CLASS weights (the constant\n"
    "        tensors), arena, fast-arena or state (the default state); each class once\n"
    "        --fast-arena BYTES: a second, small arena (NAME_FAST_ARENA_SIZE, at most\n"
    "        BYTES) for the buffers with the most traffic per byte, the rest in the\n"
    "        arena; the _ctx and _r entry points then take a fast workspace too\n"
    "  run DIR [--signature KEY|--function KEY] [--input KEY=FILE.npy]...\n"
    "        [--input_exprs 'KEY=[[1,2],[3,4]]']... [--outdir OUT] [-q]\n"
    "        [--shape ...] [--max-batch N] [--quantize int8|int16x8|dynamic|float16 [--calibration KEY=FILE.npy]... [--io int8]\n"
    "        [--requantize fixed|float] [--quantize-skip PATTERN]... [--weights-bits 8|4]] [--emit c|obj|so]\n"
    "        [--target TRIPLE] [--cpu CPU] [--features F] [--opt O]\n"
    "        [--tag_set TAGS] [--threads N] [--task-work N] [--dump-after PASS] [--keep]\n"
    "        [--section CLASS=NAME]... [--fast-arena BYTES]\n"
    "        compile one signature (default: the model's only one) or function, build it\n"
    "        with $CC (default cc; at -std=c99 -O2 unless $CC says otherwise), run it on\n"
    "        the inputs, print each output (key, dtype,\n"
    "        shape, and its values when it has at most 100; -q: nothing) and, with\n"
    "        --outdir, write OUT/<output key>.npy; --input_exprs: a small input as a Python\n"
    "        literal, of the dtype the signature declares; unknown dims come from the inputs;\n"
    "        --keep keeps the build directory; a build is cached by its inputs\n"
    "        ($XDG_CACHE_HOME/sm2c), --no-cache builds again without the cache;\n"
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
    "        [--profile]: time each step of the --repeat calls and print its median time,\n"
    "        share and GFLOP/s; [--report FILE]: compile's report of it, with the times\n"
    "        [--dump-intermediates DIR]: every step's output as DIR/<node>.npy, named by\n"
    "        the TensorFlow node it computes, and DIR/index.json (step -> node -> file)\n"
    "  runtime -o OUT [--kernel NAME]...\n"
    "        write every runtime source and header into OUT, to build one runtime\n"
    "        library shared by several models; with --kernel, exactly the files those\n"
    "        sm2c_rt_* kernels need\n"
    "  runtime --list\n"
    "        every runtime kernel with the files it needs\n"
    "  ops   list the ops sm2c compiles, each with the dtypes it runs on\n"
    "  help [COMMAND]\n"
    "        this text, or one command's usage (also: sm2c COMMAND --help)\n"
    "  completion bash|zsh\n"
    "        a shell completion script: source <(sm2c completion bash)\n"
    "\n"
    "Options take their value as --opt VALUE or --opt=VALUE.\n";

#define MAX_LIST 256
#define MAX_THREAD_COUNTS 16

typedef struct cli {
    const char *command;
    const char *dir;
    const char *out;         /* -o / --outdir */
    /* What decides the program, filled as the options are read and passed
    ** whole to compile and to run (which embeds it), so both make the same
    ** program from the same flags: --name, --signature, --function, --shape,
    ** --max-batch, --quantize, --io, --requantize, --calibration, and the target (--opt,
    ** --target, --cpu, --features). */
    sm2c_compile_opts co;
    const char *signatures[MAX_LIST];   /* co's lists point here */
    const char *functions[MAX_LIST];
    sm2c_shape_opt shapes[MAX_LIST];
    sm2c_run_input calibration[MAX_LIST];   /* --calibration KEY=FILE.npy, read into co */
    const char *quantize_skip[MAX_LIST];    /* --quantize-skip PATTERN: co's list */
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
    int json, keep, no_cache;
    int quiet, verbose;      /* -q, -v */
    sm2c_emit_kind emit;
    int max_values;
    int32_t threads[MAX_THREAD_COUNTS];  /* run --threads N[,N...] */
    int32_t n_threads;
    sm2c_limits limits;
    sm2c_arena *arena;
    int64_t repeat;          /* run --repeat N */
    const char *state_out;   /* run --state-out DIR */
    int profile;             /* --profile */
    const char *dump_dir;    /* run --dump-intermediates DIR */
} cli;

/* The commands, as bits of an option's `cmds`. */
enum {
    CMD_INSPECT = 1, CMD_COMPILE = 2, CMD_RUN = 4, CMD_RUNTIME = 8, CMD_OPS = 16, CMD_HELP = 32,
    CMD_COMPLETION = 64, CMD_ALL = 127
};

typedef struct command_def {
    const char *name;
    unsigned bit;
    const char *synopsis;   /* after "usage: sm2c " */
    const char *summary;
} command_def;

static const command_def commands[] = {
    { "inspect", CMD_INSPECT, "inspect DIR [options]",
      "What is inside a SavedModel: tags, signatures, concrete functions, variables and their\n"
      "checkpoint keys, checkpoint entries, reachable ops and which sm2c cannot compile yet." },
    { "compile", CMD_COMPILE, "compile DIR -o OUT [options]",
      "Write OUT/NAME.h and, by --emit, NAME.c (default), NAME.ll, NAME.bc, NAME.o or NAME.so,\n"
      "for every signature but __saved_model_init_op unless --signature selects." },
    { "run", CMD_RUN, "run DIR [--signature KEY|--function KEY] [--input KEY=FILE.npy]... [options]",
      "Compile one signature (default: the only one) or function, build it with $CC (default cc),\n"
      "run it on the inputs, print each output and, with --outdir, write OUT/<output key>.npy." },
    { "runtime", CMD_RUNTIME, "runtime -o OUT [--kernel NAME]... | runtime --list",
      "Write the runtime sources and headers into OUT (with --kernel, exactly the files those\n"
      "kernels need), or list every runtime kernel with the files it needs." },
    { "ops", CMD_OPS, "ops", "List the ops sm2c compiles, each with the dtypes it runs on." },
    { "help", CMD_HELP, "help [COMMAND]", "The usage of sm2c, or of one command." },
    { "completion", CMD_COMPLETION, "completion bash|zsh",
      "Print a completion script for bash or zsh, made from the option table:\n"
      "  source <(sm2c completion bash)" },
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* Every option, once: parsing, `sm2c help CMD`, the suggestions for a
** misspelt option and the completion scripts all read this table. */
typedef struct opt_def {
    const char *name;       /* the long form, as the help shows it */
    const char *alias[2];   /* other spellings (a short form first), or NULL */
    const char *metavar;    /* the value's name; NULL: a flag */
    unsigned cmds;          /* the commands that take it */
    const char *help;
} opt_def;

#define CMD_MODEL (CMD_COMPILE | CMD_RUN)
static const opt_def options[] = {
    { "--output", { "-o", "--outdir" }, "OUT", CMD_MODEL | CMD_RUNTIME, "the output directory" },
    { "--name", { 0 }, "NAME", CMD_COMPILE, "the C prefix of every name (default: the model directory's)" },
    { "--signature", { 0 }, "KEY", CMD_MODEL | CMD_INSPECT, "compile this signature (repeatable); inspect: show only it" },
    { "--function", { 0 }, "PATH", CMD_MODEL, "every concrete function of the tf.function at PATH (repeatable)" },
    { "--shape", { 0 }, "[SIG.]KEY=D0,D1,...", CMD_MODEL, "the shape of an input with unknown dims (repeatable)" },
    { "--max-batch", { 0 }, "N", CMD_MODEL, "inputs with an unknown leading dim take 1..N rows at run time" },
    { "--skip-failing", { 0 }, NULL, CMD_COMPILE, "leave out a signature that cannot be compiled, with a warning" },
    { "--emit", { 0 }, "c|llvm-ir|llvm-bc|obj|so", CMD_MODEL, "what to write (default c)" },
    { "--target", { 0 }, "TRIPLE", CMD_MODEL, "the LLVM target triple" },
    { "--cpu", { 0 }, "CPU", CMD_MODEL, "the target CPU" },
    { "--features", { 0 }, "F", CMD_MODEL, "the target features" },
    { "--opt", { 0 }, "O0|O1|O2|O3|Os|Oz", CMD_MODEL, "the optimisation level (default O2)" },
    { "--report", { 0 }, "FILE", CMD_MODEL, "steps, MACs, memory plan (run --profile: times): FILE.json, FILE.html, else text" },
    { "--profile", { 0 }, NULL, CMD_MODEL, "compile: hooks around each step (C; NAME.h); run: time each step" },
    { "--tag_set", { "--tag-set" }, "TAGS", CMD_INSPECT | CMD_MODEL, "the MetaGraph's tags (default serve)" },
    { "--weights", { 0 }, "inline|c|obj", CMD_COMPILE, "with --emit c: the weights in NAME.c, NAME_weights.c or .o" },
    { "--quantize", { 0 }, "int8|int16x8|dynamic|float16", CMD_MODEL,
      "int8 weights and int8 (int16) activations, int8 weights, or binary16 weights" },
    { "--calibration", { 0 }, "KEY=FILE.npy", CMD_MODEL, "samples for --quantize's activation ranges (repeatable)" },
    { "--io", { 0 }, "float|int8", CMD_MODEL, "with --quantize int8: int8 inputs and outputs" },
    { "--requantize", { 0 }, "fixed|float", CMD_MODEL, "with --quantize int8: TFLite's fixed point (default) or float" },
    { "--quantize-skip", { 0 }, "PATTERN", CMD_MODEL, "with --quantize int8|dynamic: keep these nodes float (repeatable)" },
    { "--weights-bits", { 0 }, "8|4", CMD_MODEL, "with --quantize int8|dynamic: int4 weights, two to a byte (default 8)" },
    { "--dump-after", { 0 }, "PASS[,PASS...]|all", CMD_MODEL, "print each entry's IR after those passes to stderr" },
    { "--task-work", { 0 }, "N", CMD_MODEL, "split a step into tasks of at least N multiply-adds (default 32768)" },
    /* memory placement (lower/placement.h) */
    { "--section", { 0 }, "CLASS=NAME", CMD_MODEL, "put weights, arena, fast-arena or state in ELF section NAME (repeatable)" },
    { "--fast-arena", { 0 }, "BYTES", CMD_MODEL, "a second arena of at most BYTES for the busiest buffers per byte" },
    { "--input", { 0 }, "KEY=FILE.npy", CMD_RUN, "an input's value (repeatable)" },
    { "--input_exprs", { "--input-exprs" }, "KEY=LITERAL", CMD_RUN, "an input as a Python literal, e.g. 'x=[[1,2]]' (repeatable)" },
    { "--keep", { 0 }, NULL, CMD_RUN, "keep the build directory" },
    { "--no-cache", { 0 }, NULL, CMD_RUN, "build again, without reading or writing the build cache" },
    { "--runtime-lib", { 0 }, "LIB.a", CMD_RUN, "link a runtime built from `sm2c runtime`" },
    { "--repeat", { 0 }, "N", CMD_RUN, "call it N times, the variables it writes carried over" },
    { "--state-out", { 0 }, "DIR", CMD_RUN, "write each written variable's final value into DIR" },
    { "--dump-intermediates", { 0 }, "DIR", CMD_RUN, "write every step's output as DIR/<node>.npy, and DIR/index.json" },
    { "--threads", { 0 }, "N[,N...]", CMD_RUN, "also run the context entry point on N threads, check it agrees" },
    { "--kernel", { 0 }, "NAME", CMD_RUNTIME, "only the files this sm2c_rt_* kernel needs (repeatable)" },
    { "--list", { 0 }, NULL, CMD_RUNTIME, "list every runtime kernel with the files it needs" },
    { "--json", { 0 }, NULL, CMD_INSPECT, "JSON instead of text" },
    { "--max-values", { 0 }, "N", CMD_INSPECT, "show the values of tensors with at most N elements (default 16)" },
    /* every command's */
    { "--quiet", { "-q" }, NULL, CMD_ALL, "only errors and warnings on stderr (no notes or summary)" },
    { "--verbose", { "-v" }, NULL, CMD_ALL, "also a progress line per stage" },
    { "--limit", { 0 }, "NAME=VALUE", CMD_ALL, "raise or lower a resource limit (see --help-limits)" },
    { "--help", { "-h" }, NULL, CMD_ALL, "this command's usage" },
    { "--help-limits", { 0 }, NULL, CMD_ALL, "the resource limits and their defaults" },
    { "--version", { 0 }, NULL, CMD_ALL, "the version, commit and build type" },
};
#define N_OPTIONS (sizeof options / sizeof options[0])

static const command_def *find_command(const char *name)
{
    for (size_t i = 0; name && i < N_COMMANDS; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

/* The option spelt `name` (the part before any '='), or NULL. */
static const opt_def *find_option(const char *name, size_t len)
{
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const opt_def *d = &options[i];
        if (strlen(d->name) == len && !strncmp(d->name, name, len))
            return d;
        for (int k = 0; k < 2; k++)
            if (d->alias[k] && strlen(d->alias[k]) == len && !strncmp(d->alias[k], name, len))
                return d;
    }
    return NULL;
}

/* Does this argument read as an option? ("-" alone is a path.) */
static int is_option(const char *a)
{
    return a[0] == '-' && a[1];
}

/* ---- diagnostics: one line each, coloured on a terminal ---- */

static int g_color;                 /* stderr is a terminal and NO_COLOR is unset */
static const char *g_command;       /* for "sm2c help CMD" in usage errors */

/* Print one diagnostic line to stderr; on a terminal the program name is bold
** and the first "error:", "warning:" or "note:" coloured. */
static void print_diag(const char *text)
{
    char line[2048];
    sm2c_one_line(line, sizeof line, text);
    if (!g_color) {
        fprintf(stderr, "%s\n", line);
        return;
    }
    static const struct { const char *word, *color; } levels[] = {
        { "error:", "\033[1;31m" }, { "warning:", "\033[1;35m" }, { "note:", "\033[1;36m" },
    };
    const char *p = line;
    if (!strncmp(p, "sm2c:", 5)) {
        fputs("\033[1msm2c:\033[0m", stderr);
        p += 5;
    }
    for (const char *q = p; *q; q++) {
        if (q != line && q[-1] != ' ')
            continue;
        for (size_t k = 0; k < sizeof levels / sizeof levels[0]; k++) {
            size_t n = strlen(levels[k].word);
            if (!strncmp(q, levels[k].word, n)) {
                fprintf(stderr, "%.*s%s%s\033[0m%s\n", (int)(q - p), p, levels[k].color, levels[k].word, q + n);
                return;
            }
        }
    }
    fprintf(stderr, "%s\n", p);
}

static void diag_sink(void *user, const char *line)
{
    (void)user;
    print_diag(line);
}

static void print_diagf(const char *fmt, ...) SM2C_PRINTF(1, 2);
static void print_diagf(const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    print_diag(line);
}

static int usage_error(const char *fmt, const char *arg)
{
    char msg[1536], a[768];
    sm2c_one_line(a, sizeof a, arg ? arg : "");
    snprintf(msg, sizeof msg, fmt, a);
    if (g_command)
        print_diagf("sm2c: error: %s: %s (sm2c help %s shows the usage)", g_command, msg, g_command);
    else
        print_diagf("sm2c: error: %s (sm2c help shows the usage)", msg);
    return SM2C_ERR_USAGE;
}

/* Edit distance of a and b, to suggest the option a misspelling meant. */
static size_t edit_distance(const char *a, size_t na, const char *b)
{
    size_t nb = strlen(b), row[64];
    if (na >= 63 || nb >= 63)
        return 99;
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

/* An option no command (or not `cmd`) knows: say so, and suggest the nearest
** one `cmd` takes when it is at most two edits away. */
static int unknown_option(const command_def *cmd, const char *arg, size_t len)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const opt_def *d = &options[i];
        if (cmd && !(d->cmds & cmd->bit))
            continue;
        const char *names[3] = { d->name, d->alias[0], d->alias[1] };
        for (int k = 0; k < 3; k++) {
            if (!names[k] || (names[k][1] == '-') != (len > 1 && arg[1] == '-'))
                continue;
            size_t dist = edit_distance(arg, len, names[k]);
            if (dist < best_d)
                best_d = dist, best = names[k];
        }
    }
    char did[128] = "";
    if (best)
        snprintf(did, sizeof did, "; did you mean %s?", best);
    if (cmd)
        print_diagf("sm2c: error: %s: unknown option '%.*s'%s (sm2c help %s lists the options)", cmd->name,
                    (int)len, arg, did, cmd->name);
    else
        print_diagf("sm2c: error: unknown option '%.*s'%s (sm2c help lists the commands)", (int)len, arg, did);
    return SM2C_ERR_USAGE;
}

/* A known option that `cmd` does not take: name the commands that do. */
static int foreign_option(const command_def *cmd, const opt_def *d, const char *spelt, size_t len)
{
    char list[256] = "";
    size_t n = 0;
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (d->cmds & commands[i].bit)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", !n ? "" : d->cmds >> (i + 1) & (CMD_ALL >> (i + 1)) ? ", " : " and ", commands[i].name);
    print_diagf("sm2c: error: %s: %.*s is not an option of %s, only of %s (sm2c help %s lists the options)",
                cmd->name, (int)len, spelt, cmd->name, list, cmd->name);
    return SM2C_ERR_USAGE;
}

/* ---- help ---- */

static void option_label(char *buf, size_t size, const opt_def *d)
{
    size_t n = 0;
    for (int k = 0; k < 2; k++)
        if (d->alias[k] && d->alias[k][1] != '-')
            n += (size_t)snprintf(buf + n, size - n, "%s, ", d->alias[k]);
    n += (size_t)snprintf(buf + n, size - n, "%s", d->name);
    for (int k = 0; k < 2; k++)
        if (d->alias[k] && d->alias[k][1] == '-')
            n += (size_t)snprintf(buf + n, size - n, ", %s", d->alias[k]);
    if (d->metavar)
        snprintf(buf + n, size - n, " %s", d->metavar);
}

static void print_options(FILE *f, unsigned bits, int common)
{
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const opt_def *d = &options[i];
        if (!(d->cmds & bits) || (d->cmds == CMD_ALL) != common)
            continue;
        char label[96];
        option_label(label, sizeof label, d);
        if (strlen(label) > 28)
            fprintf(f, "  %s\n  %-28s  %s\n", label, "", d->help);
        else
            fprintf(f, "  %-28s  %s\n", label, d->help);
    }
}

/* `sm2c help CMD`, `sm2c CMD --help`: the command's own usage. */
static void command_help(FILE *f, const command_def *cmd)
{
    fprintf(f, "usage: sm2c %s\n\n%s\n", cmd->synopsis, cmd->summary);
    int any = 0;
    for (size_t i = 0; i < N_OPTIONS; i++)
        any |= (options[i].cmds & cmd->bit) && options[i].cmds != CMD_ALL;
    if (any) {
        fputs("\noptions:\n", f);
        print_options(f, cmd->bit, 0);
    }
    fputs("\noptions for every command:\n", f);
    print_options(f, cmd->bit, 1);
    fputs("\nexit status: 0 ok, 1 invalid input, 2 usage, 3 unsupported feature,\n"
          "             4 resource limit exceeded, 5 internal error\n", f);
}

/* ---- completion scripts, from the tables ---- */

static void print_names(FILE *f, unsigned bits)
{
    const char *sep = "";
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const opt_def *d = &options[i];
        if (!(d->cmds & bits))
            continue;
        fprintf(f, "%s%s", sep, d->name);
        sep = " ";
        for (int k = 0; k < 2; k++)
            if (d->alias[k])
                fprintf(f, " %s", d->alias[k]);
    }
}

static void completion_bash(FILE *f)
{
    fputs("# bash completion for sm2c, made by `sm2c completion bash`\n"
          "_sm2c() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= w\n"
          "    for w in \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"; do\n"
          "        case $w in -*) ;; *) cmd=$w; break ;; esac\n"
          "    done\n"
          "    case $prev in\n", f);
    /* after an option that takes a value: files */
    fputs("        ", f);
    const char *sep = "";
    for (size_t i = 0; i < N_OPTIONS; i++) {
        if (!options[i].metavar)
            continue;
        fprintf(f, "%s%s", sep, options[i].name);
        sep = "|";
        for (int k = 0; k < 2; k++)
            if (options[i].alias[k])
                fprintf(f, "|%s", options[i].alias[k]);
    }
    fputs(") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n    esac\n    case $cmd in\n", f);
    fputs("        '') COMPREPLY=($(compgen -W \"", f);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "%s%s", i ? " " : "", commands[i].name);
    fputs(" --help --version --help-limits\" -- \"$cur\")); return ;;\n", f);
    for (size_t i = 0; i < N_COMMANDS; i++) {
        fprintf(f, "        %s) w=\"", commands[i].name);
        print_names(f, commands[i].bit);
        fputs("\" ;;\n", f);
    }
    fputs("        *) return ;;\n    esac\n"
          "    if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"$w\" -- \"$cur\"))\n"
          "    else COMPREPLY=($(compgen -f -- \"$cur\")); fi\n"
          "}\n"
          "complete -o filenames -F _sm2c sm2c\n", f);
}

static void completion_zsh(FILE *f)
{
    fputs("#compdef sm2c\n# zsh completion for sm2c, made by `sm2c completion zsh`\n"
          "_sm2c() {\n"
          "    local -a cmds opts\n"
          "    cmds=(", f);
    for (size_t i = 0; i < N_COMMANDS; i++) {
        fprintf(f, "%s'%s:", i ? " " : "", commands[i].name);
        for (const char *p = commands[i].summary; *p && *p != '\n' && *p != '.'; p++)
            fputs(*p == '\'' ? "'\\''" : (char[]){ *p, 0 }, f);
        fputc('\'', f);
    }
    fputs(")\n"
          "    if (( CURRENT == 2 )); then _describe 'command' cmds; return; fi\n"
          "    case ${words[2]} in\n", f);
    for (size_t i = 0; i < N_COMMANDS; i++) {
        fprintf(f, "        %s) opts=(", commands[i].name);
        int first = 1;
        for (size_t k = 0; k < N_OPTIONS; k++) {
            const opt_def *d = &options[k];
            if (!(d->cmds & commands[i].bit))
                continue;
            const char *names[3] = { d->name, d->alias[0], d->alias[1] };
            for (int j = 0; j < 3; j++) {
                if (!names[j])
                    continue;
                fprintf(f, "%s'%s%s[", first ? "" : " ", names[j], d->metavar && names[j][1] == '-' ? "=" : "");
                first = 0;
                for (const char *p = d->help; *p; p++)
                    fputs(*p == '\'' ? "'\\''" : *p == '[' ? "\\[" : *p == ']' ? "\\]" : (char[]){ *p, 0 }, f);
                fputc(']', f);
                if (d->metavar)
                    fprintf(f, ":%s:_files", d->metavar);
                fputc('\'', f);
            }
        }
        fputs(") ;;\n", f);
    }
    fputs("        *) return ;;\n    esac\n"
          "    _arguments -s $opts '*:file:_files'\n"
          "}\n"
          "_sm2c \"$@\"\n", f);
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

static int parse_input_expr(cli *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1] || o->n_inputs == MAX_LIST)
        return usage_error("--input_exprs expects KEY=LITERAL, got '%s'", arg);
    sm2c_run_input *in = &o->inputs[o->n_inputs++];
    in->key = sm2c_arena_strndup(o->arena, arg, (size_t)(eq - arg));
    in->path = sm2c_arena_printf(o->arena, "--input_exprs %s", in->key);
    in->literal = eq + 1;
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

/* --section CLASS=NAME: each class once, a name an ELF section, a C string
** and a linker script all take as it is. */
static int parse_section(cli *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    int k = eq ? sm2c_section_class_parse(arg, (size_t)(eq - arg)) : -1;
    if (k < 0)
        return usage_error("--section expects CLASS=NAME, CLASS weights, arena, fast-arena or state, got '%s'", arg);
    if (o->co.placement.section[k])
        return usage_error("--section: a second section for the same class: '%s'", arg);
    const char *why = sm2c_section_name_problem(eq + 1);
    if (why)
        return usage_error("--section: %s", sm2c_arena_printf(o->arena, "%s, got '%s'", why, arg));
    o->co.placement.section[k] = eq + 1;
    return 0;
}

/* --fast-arena BYTES: the fast pool's capacity. */
static int parse_fast_arena(cli *o, const char *val)
{
    int64_t v;
    if (!parse_int(val, &v) || v < 1 || v > INT64_MAX / 4)
        return usage_error("--fast-arena expects a size in bytes from 1, got '%s'", val);
    o->co.placement.fast_arena = v;
    return 0;
}

/* An option that takes a value. */
static int take(cli *o, const char *opt, const char *val)
{
    int64_t v;
    if (!strcmp(opt, "--section")) return parse_section(o, val);
    if (!strcmp(opt, "--fast-arena")) return parse_fast_arena(o, val);
    if (!strcmp(opt, "--limit")) return parse_limit(o, val);
    if (!strcmp(opt, "--calibration")) return parse_calibration(o, val);
    if (!strcmp(opt, "--quantize")) {
        if (strcmp(val, "int8") && strcmp(val, "int16x8") && strcmp(val, "float16") && strcmp(val, "dynamic"))
            return usage_error("--quantize expects int8, int16x8, dynamic or float16, got '%s'", val);
        o->co.quantize = !strcmp(val, "int8")      ? SM2C_QUANTIZE_INT8
                         : !strcmp(val, "int16x8") ? SM2C_QUANTIZE_INT16X8
                         : !strcmp(val, "dynamic") ? SM2C_QUANTIZE_DYNAMIC
                                                   : SM2C_QUANTIZE_FLOAT16;
        return 0;
    }
    if (!strcmp(opt, "--requantize")) {
        if (strcmp(val, "fixed") && strcmp(val, "float"))
            return usage_error("--requantize expects fixed or float, got '%s'", val);
        o->co.requantize_float = !strcmp(val, "float");
        return 0;
    }
    if (!strcmp(opt, "--weights-bits")) {
        if (strcmp(val, "8") && strcmp(val, "4"))
            return usage_error("--weights-bits expects 8 or 4, got '%s'", val);
        o->co.weights_bits = val[0] - '0';
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
    if (!strcmp(opt, "--input_exprs")) return parse_input_expr(o, val);
    if (!strcmp(opt, "--tag_set") || !strcmp(opt, "--tag-set")) o->tag_set = val;
    else if (!strcmp(opt, "-o") || !strcmp(opt, "--outdir") || !strcmp(opt, "--output")) o->out = val;
    else if (!strcmp(opt, "--name")) o->co.name = val;
    else if (!strcmp(opt, "--report")) o->report = val;
    else if (!strcmp(opt, "--runtime-lib")) o->runtime_lib = val;
    else if (!strcmp(opt, "--state-out")) o->state_out = val;
    else if (!strcmp(opt, "--dump-intermediates")) o->dump_dir = val;
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
    } else if (!strcmp(opt, "--quantize-skip")) {
        if (!*val)
            return usage_error("%s", "--quantize-skip expects a node name or pattern, got ''");
        if (o->co.n_quantize_skip == MAX_LIST)
            return usage_error("too many %s options", opt);
        o->quantize_skip[o->co.n_quantize_skip++] = val;
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

/* The command: the first argument that is neither an option nor an option's
** value (found before parsing, so that errors and --help can name it). */
static const char *scan_command(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            return i + 1 < argc ? argv[i + 1] : NULL;
        if (!is_option(a))
            return a;
        const opt_def *d = find_option(a, strcspn(a, "="));
        if (d && d->metavar && !strchr(a, '='))
            i++;
    }
    return NULL;
}

static int parse_args(cli *o, int argc, char **argv)
{
    const command_def *cmd = find_command(scan_command(argc, argv));
    int options_end = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options_end && !strcmp(a, "--")) {
            options_end = 1;
            continue;
        }
        if (options_end || !is_option(a)) {
            if (!o->command)
                o->command = a;
            else if (!o->dir)
                o->dir = a;
            else
                return usage_error("unexpected argument '%s'", a);
            continue;
        }
        size_t len = strcspn(a, "=");
        const opt_def *d = find_option(a, len);
        if (!d)
            return unknown_option(cmd, a, len);
        if (cmd && !(d->cmds & cmd->bit))
            return foreign_option(cmd, d, a, len);
        const char *val = a[len] ? a + len + 1 : NULL;
        if (!d->metavar) {
            if (val)
                return usage_error("%s takes no value", d->name);
            if (!strcmp(d->name, "--json")) o->json = 1;
            else if (!strcmp(d->name, "--keep")) o->keep = 1;
            else if (!strcmp(d->name, "--profile")) o->profile = 1;
            else if (!strcmp(d->name, "--no-cache")) o->no_cache = 1;
            else if (!strcmp(d->name, "--list")) o->list = 1;
            else if (!strcmp(d->name, "--skip-failing")) o->co.skip_failing = 1;
            else if (!strcmp(d->name, "--quiet")) o->quiet = 1, o->verbose = 0;
            else if (!strcmp(d->name, "--verbose")) o->verbose = 1, o->quiet = 0;
            continue;    /* --help, --version: handled before */
        }
        if (!val) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            val = argv[++i];
        }
        int err = take(o, d->name, val);
        if (err)
            return err;
    }
    if (!o->command)
        return usage_error("%s", "no command given");
    if (!cmd)
        return usage_error("unknown command '%s'", o->command);
    if (cmd->bit & (CMD_HELP | CMD_COMPLETION))
        return 0;
    if (strcmp(o->command, "ops") && strcmp(o->command, "runtime") && !o->dir)
        return usage_error("%s needs a SavedModel directory", o->command);
    if (!strcmp(o->command, "runtime") && (o->dir || !o->out == !o->list))
        return usage_error("%s", "runtime takes no model directory, and -o OUT or --list");
    if (!strcmp(o->command, "inspect") && o->co.n_signatures > 1)
        return usage_error("%s", "inspect shows one --signature");
    if (!strcmp(o->command, "compile") && !o->out)
        return usage_error("%s needs -o OUT", o->command);
    if (!strcmp(o->command, "run") && o->co.n_signatures + o->co.n_functions > 1)
        return usage_error("%s takes one --signature KEY or --function KEY", o->command);
    if (!strcmp(o->command, "run") && o->emit != SM2C_EMIT_C && o->emit != SM2C_EMIT_OBJ &&
        o->emit != SM2C_EMIT_SO)
        return usage_error("run builds with --emit c, obj or so, not '%s'", "llvm-ir/llvm-bc");
    if (o->emit == SM2C_EMIT_SO && !sm2c_target_has_shared_objects(&o->co.target))
        return usage_error("--emit so: a bare-metal target (%s) has no shared objects (use --emit obj, or c)",
                           o->co.target.triple ? o->co.target.triple : o->co.target.cpu);
    if (o->weights && o->emit != SM2C_EMIT_C)
        return usage_error("%s", "--weights c|obj is an option of compile --emit c");
    const int full_integer = o->co.quantize == SM2C_QUANTIZE_INT8 || o->co.quantize == SM2C_QUANTIZE_INT16X8;
    if (o->n_calibration && !full_integer)
        return usage_error("%s", "--calibration needs --quantize int8 or int16x8");
    if (o->co.io_int8 && o->co.quantize != SM2C_QUANTIZE_INT8)
        return usage_error("%s", "--io int8 needs --quantize int8");
    if (o->co.requantize_float && o->co.quantize != SM2C_QUANTIZE_INT8)
        return usage_error("%s", "--requantize float needs --quantize int8");
    if (o->co.n_quantize_skip && !full_integer && o->co.quantize != SM2C_QUANTIZE_DYNAMIC)
        return usage_error("%s", "--quantize-skip needs --quantize int8, int16x8 or dynamic");
    if (o->co.weights_bits == 4 && o->co.quantize != SM2C_QUANTIZE_INT8 && o->co.quantize != SM2C_QUANTIZE_DYNAMIC)
        return usage_error("%s", "--weights-bits 4 needs --quantize int8 or dynamic");
    char why[256];
    if (sm2c_placement_problem(&o->co.placement, why, sizeof why))
        return usage_error("%s", why);
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
    int positional = 0, options_end = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = NULL;
        const opt_def *d = NULL;
        if (!options_end && !strcmp(arg, "--")) {
            options_end = 1;
            continue;
        }
        if (!options_end && is_option(arg)) {
            /* --opt=value is written as --opt value: the same header either way */
            size_t len = strcspn(arg, "=");
            d = find_option(arg, len);
            if (d && d->metavar)
                val = arg[len] ? arg + len + 1 : i + 1 < argc ? argv[++i] : NULL;
            arg = sm2c_arena_strndup(a, arg, len);
            if (d && (!strcmp(d->name, "--output") || !strcmp(d->name, "--report") ||
                      !strcmp(d->name, "--quiet") || !strcmp(d->name, "--verbose")))
                continue;
        } else if (positional++ == 1)
            arg = sm2c_path_base(a, arg);
        int plain = arg[0] != 0;
        for (const char *p = arg; *p; p++)
            plain &= (*p >= '+' && *p <= 'z' && *p != '\\' && *p != '`') || *p == '_';
        s = sm2c_arena_printf(a, plain ? "%s %s" : "%s '%s'", s, arg);
        if (!val)
            continue;
        const char *eq = strchr(val, '=');
        if (!strcmp(d->name, "--calibration") && eq)   /* KEY=FILE with the file's last component only (rule 14) */
            s = sm2c_arena_printf(a, "%s %.*s=%s", s, (int)(eq - val), val, sm2c_path_base(a, eq + 1));
        else
            s = sm2c_arena_printf(a, "%s %s", s, val);
    }
    return s;
}

/* Bytes of the distinct weights an entry point's steps read. */
static int64_t entry_weight_bytes(const sm2c_program *p, const sm2c_entry *e)
{
    return sm2c_entry_weight_bytes(p, e);
}

/* Flash and RAM of one entry point: code estimated from the kernels'
** measured sizes on a Cortex-M4F at -Os, the weights it reads; the arena it
** uses, the program's state, and the stack the header states for the target
** compiled for (the one figure every form of the report shows). */
static void report_footprint(FILE *f, const sm2c_program *p, const sm2c_entry *e, int64_t state,
                             const sm2c_report_opts *ro)
{
    int64_t code = sm2c_code_estimate(e), weights = entry_weight_bytes(p, e);
    int32_t stack = ro->stack_bytes;
    if (code >= 0)
        fprintf(f, "footprint %s: flash %lld bytes (code ~%lld, weights %lld)", e->key,
                (long long)(code + weights), (long long)code, (long long)weights);
    else
        fprintf(f, "footprint %s: flash unknown (code unknown, weights %lld)", e->key,
                (long long)weights);
    fprintf(f, ", ram %lld bytes (arena %lld, state %lld, stack %d); code for Cortex-M4F -Os, stack for %s\n",
            (long long)(e->arena_bytes + state + stack), (long long)e->arena_bytes,
            (long long)state, (int)stack, ro->stack_target);
}

/* The plain-text form of --report. */
/* --quantize int8 (int16x8): each integer tensor's parameters, range and
** error against float on the calibration data, and what stayed float. */
static void report_quantization(FILE *f, const sm2c_entry *e)
{
    if (!e->quantized)
        return;
    fprintf(f, "int%d %s: %d tensors, %d nodes in float\n", (int)e->act_bits, e->key, e->n_qtensors,
            e->n_float_nodes);
    for (int32_t i = 0; i < e->n_qtensors; i++) {
        const sm2c_qtensor *t = &e->qtensors[i];
        fprintf(f, "int%d tensor %s: scale %.9g zero_point %d range [%.9g, %.9g]", (int)e->act_bits, t->name,
                (double)t->scale, (int)t->zero_point, (double)t->min, (double)t->max);
        if (t->error >= 0)
            fprintf(f, " mean_abs_error %.6g", t->error);
        fputc('\n', f);
    }
    for (int32_t i = 0; i < e->n_float_nodes; i++)
        fprintf(f, "float node %s\n", e->float_nodes[i]);
}

static void text_report(FILE *f, sm2c_ctx *c, const sm2c_program *p, const sm2c_report_opts *ro,
                        const sm2c_run_profile *prof)
{
    int64_t weights = sm2c_program_weight_bytes(p);
    fprintf(f, "model %s\nweights %d tensors, %lld bytes\narena %lld bytes\nstack %d bytes (%s)\n", p->name,
            p->n_weights, (long long)weights, (long long)p->arena_bytes, (int)ro->stack_bytes, ro->stack_target);
    if (p->placement.fast_arena > 0)
        fprintf(f, "fast arena %lld bytes (--fast-arena %lld)\n", (long long)p->fast_arena_bytes,
                (long long)p->placement.fast_arena);
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
        report_footprint(f, p, &p->entries[i], state, ro);
    for (int32_t i = 0; i < p->n_entries; i++)
        sm2c_report_pools_text(f, c->arena, p, &p->entries[i]);
    for (int32_t i = 0; i < p->n_entries; i++)
        report_quantization(f, &p->entries[i]);
    for (int32_t i = 0; i < p->n_entries; i++)
        sm2c_report_split_text(f, &p->entries[i]);
    if (prof)   /* run: its one entry */
        sm2c_report_profile_text(f, c->arena, &p->entries[0], prof->step_us, prof->calls, prof->rows);
    for (size_t i = 0; c->lowered && i < sm2c_opdef_count(); i++) {
        if (!c->lowered[i])
            continue;
        fprintf(f, "lowered %s", sm2c_opdef_at(i)->name);
        print_dtypes(f, c->lowered[i]);
        fputc('\n', f);
    }
}

/* The summary line(s) after a compile. */
static void print_summary(const cli *o, const sm2c_program *p)
{
    int64_t weights = sm2c_program_weight_bytes(p), naive = 0;
    for (int32_t i = 0; i < p->n_entries; i++)
        if (p->entries[i].naive_bytes > naive)
            naive = p->entries[i].naive_bytes;
    int64_t state = sm2c_program_state_bytes(p);
    if (o->quiet)
        return;
    print_diagf("sm2c: %s: %d signature%s, arena %lld bytes (intermediates %lld bytes), weights %lld bytes",
                p->name, p->n_entries, p->n_entries == 1 ? "" : "s", (long long)p->arena_bytes,
                (long long)naive, (long long)weights);
    if (p->n_states)
        print_diagf("sm2c: %s: state %d variable%s, %lld bytes", p->name, p->n_states,
                    p->n_states == 1 ? "" : "s", (long long)state);
}

/* --report's text into r (preflight.h), in memory; prof: run --profile's
** times of the program's one entry, or NULL. */
static sm2c_status write_report(sm2c_ctx *c, const cli *o, const sm2c_program *p, const sm2c_run_profile *prof,
                                sm2c_report_file *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, o->report, NULL, "cannot write: %s", strerror(errno));
    sm2c_report_format form = sm2c_report_format_of(o->report);
    sm2c_report_opts ro;
    sm2c_report_opts_init(&ro, p, &o->co.target, o->emit == SM2C_EMIT_C);
    if (prof && prof->step_us)
        ro.step_us = &prof->step_us;
    if (form == SM2C_REPORT_JSON)
        sm2c_report_json(f, c->arena, p, &ro);
    else if (form == SM2C_REPORT_HTML)
        sm2c_report_html(f, c->arena, p, &ro);
    else
        text_report(f, c, p, &ro, prof && prof->step_us ? prof : NULL);
    int bad = fclose(f) != 0;
    r->path = o->report;
    char *copy = bad ? NULL : sm2c_arena_alloc(c->arena, len + 1);
    if (copy)
        memcpy(copy, buf, len);
    r->data = copy;
    r->len = len;
    free(buf);
    if (bad)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, o->report, NULL, "cannot write: %s", strerror(errno));
    return sm2c_report_in_out(o->report, o->out) ? SM2C_OK : sm2c_report_file_stage(c, r);
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

/* -v: one line per stage: what finished and its time, then what starts. */
static void progress(const cli *o, const char *done, const char *next, const char *arg)
{
    static struct timespec last;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms = (double)(now.tv_sec - last.tv_sec) * 1e3 + (double)(now.tv_nsec - last.tv_nsec) / 1e6;
    if (o->verbose && done)
        print_diagf("sm2c: %s in %.0f ms%s%s%s%s", done, ms, next ? "; " : "", next ? next : "", arg ? " " : "",
                    arg ? arg : "");
    else if (o->verbose)
        print_diagf("sm2c: %s%s%s", next, arg ? " " : "", arg ? arg : "");
    last = now;
}

static sm2c_status do_compile(sm2c_ctx *c, cli *o, sm2c_model *m)
{
    sm2c_status st = read_calibration(c, o);
    if (st)
        return st;
    if (o->report)
        c->lowered = sm2c_arena_array(c->arena, sm2c_opdef_count(), sizeof *c->lowered);
    sm2c_program *p;
    progress(o, "loaded", "compiling", NULL);
    st = sm2c_compile_program(c, m, &o->co, &p);
    if (!st && p && p->n_entries) {
        p->profile = o->profile;
        progress(o, "compiled", "writing", o->out);
        sm2c_report_file r = { 0 };
        sm2c_status est = o->report ? write_report(c, o, p, NULL, &r) : SM2C_OK;
        if (!est)
            est = o->weights ? sm2c_emit_c_weights_apart(c, p, o->weights, &o->co.target, o->out)
                             : sm2c_emit(c, p, o->emit, &o->co.target, NULL, o->out);
        if (!est && o->report)
            est = sm2c_report_file_commit(c, &r);
        sm2c_report_file_discard(&r);
        if (!est) {
            progress(o, "written", NULL, NULL);
            print_summary(o, p);
        }
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
                         .state_out = o->state_out, .print = !o->quiet,
                         .no_cache = o->no_cache, .profile = o->profile, .dump_dir = o->dump_dir };
    ro.compile.name = NULL;       /* run's own: "model", "sm2c run" */
    ro.compile.command = NULL;
    if (o->report)
        c->lowered = sm2c_arena_array(c->arena, sm2c_opdef_count(), sizeof *c->lowered);
    progress(o, "loaded", "compiling, building and running", NULL);
    sm2c_program *p = NULL;
    sm2c_run_profile prof = { 0 };
    st = sm2c_run(c, m, &ro, &p, &prof);
    if (!st)
        progress(o, "compiled, built and ran", o->out ? "outputs in" : NULL, o->out);
    if (!st && prof.step_us)    /* asked for: printed even with -q */
        sm2c_report_profile_text(stdout, c->arena, &p->entries[0], prof.step_us, prof.calls, prof.rows);
    if (!st && o->report) {   /* its path checked before the run (preflight.c) */
        sm2c_report_file r = { 0 };
        st = write_report(c, o, p, &prof, &r);
        if (!st)
            st = sm2c_report_file_commit(c, &r);
        sm2c_report_file_discard(&r);
    }
    return st;
}

static int run_command(cli *o)
{
    sm2c_diag diag;
    sm2c_diag_init(&diag);
    diag.fn = diag_sink;
    diag.quiet_notes = o->quiet;
    sm2c_ctx c = { .arena = o->arena, .diag = &diag, .limits = &o->limits };
    sm2c_status st;
    if (!strcmp(o->command, "runtime") && o->list) {
        st = sm2c_runtime_list(&c, stdout);
    } else if (!strcmp(o->command, "runtime")) {
        st = sm2c_emit_runtime(&c, o->kernels, (size_t)o->n_kernels, o->out);
    } else if (!strcmp(o->command, "inspect")) {
        sm2c_inspect_opts io = { .tag_set = o->tag_set, .json = o->json, .max_values = o->max_values,
                                 .signature = o->co.n_signatures ? o->signatures[0] : NULL, .verbose = o->verbose };
        st = sm2c_inspect(&c, o->dir, &io, stdout);
    } else if ((st = sm2c_preflight(&c, &(sm2c_cli_outputs){ o->command, o->dir, o->out, o->report,
                                                              o->state_out }))) {
        ;   /* an output path that cannot be written: nothing loaded, nothing written */
    } else {
        sm2c_model *m;
        progress(o, NULL, "loading", o->dir);
        st = sm2c_model_load(&c, o->dir, o->tag_set, &m);
        if (!st)
            st = !strcmp(o->command, "compile") ? do_compile(&c, o, m) : do_run(&c, o, m);
        sm2c_model_close(m);
    }
    if (fflush(stdout) != 0 && !st) {
        print_diagf("sm2c: error: cannot write the output: %s", strerror(errno));
        return SM2C_ERR_INVALID;
    }
    return st;
}

static void global_help(FILE *f)
{
    fputs(usage, f);
    fputs(usage_modes, f);
    fputs(usage_more, f);
    fputs("\noptions for every command:\n", f);
    print_options(f, CMD_ALL, 1);
    fputs("\nexit status: 0 ok, 1 invalid input, 2 usage, 3 unsupported feature,\n"
          "             4 resource limit exceeded, 5 internal error\n", f);
}

#ifndef SM2C_GIT_COMMIT
#define SM2C_GIT_COMMIT "unknown"
#endif
#ifndef SM2C_BUILD_TYPE
#define SM2C_BUILD_TYPE "unknown"
#endif

/* --help, -h, --help-limits and --version anywhere (but as an option's value):
** answered before anything else is checked.  1 when answered. */
static int early_answer(int argc, char **argv)
{
    const command_def *cmd = find_command(scan_command(argc, argv));
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            break;
        if (!is_option(a))
            continue;
        const opt_def *d = find_option(a, strcspn(a, "="));
        if (!d)
            continue;
        if (d->metavar && !strchr(a, '='))
            i++;
        else if (!strcmp(d->name, "--help")) {
            if (cmd && !(cmd->bit & CMD_HELP))
                command_help(stdout, cmd);
            else
                global_help(stdout);
            return 1;
        } else if (!strcmp(d->name, "--help-limits")) {
            print_limits();
            return 1;
        } else if (!strcmp(d->name, "--version")) {
            puts("sm2c " SM2C_VERSION " (commit " SM2C_GIT_COMMIT ", " SM2C_BUILD_TYPE " build)");
            return 1;
        }
    }
    return 0;
}

/* sm2c help [COMMAND], sm2c completion bash|zsh */
static int help_command(const cli *o)
{
    if (!strcmp(o->command, "completion")) {
        if (o->dir && !strcmp(o->dir, "bash"))
            completion_bash(stdout);
        else if (o->dir && !strcmp(o->dir, "zsh"))
            completion_zsh(stdout);
        else
            return usage_error("%s", "completion takes bash or zsh");
        return 0;
    }
    const command_def *cmd = find_command(o->dir);
    if (o->dir && !cmd) {
        g_command = NULL;
        return usage_error("unknown command '%s'", o->dir);
    }
    if (cmd)
        command_help(stdout, cmd);
    else
        global_help(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    const char *no_color = getenv("NO_COLOR");
    g_color = isatty(2) && !(no_color && *no_color);
    if (early_answer(argc, argv))
        return fflush(stdout) ? SM2C_ERR_INVALID : 0;
    const command_def *cmd = find_command(scan_command(argc, argv));
    g_command = cmd && !(cmd->bit & CMD_HELP) ? cmd->name : NULL;
    cli o = { 0 };
    o.max_values = 16;
    o.arena = sm2c_arena_new();
    sm2c_limits_default(&o.limits);
    o.co.target = sm2c_target_host();
    o.co.signatures = o.signatures;
    o.co.functions = o.functions;
    o.co.quantize_skip = o.quantize_skip;
    o.co.import.shapes = o.shapes;
    o.co.command = command_line(o.arena, argc, argv);
    int rc = parse_args(&o, argc, argv);
    if (!rc && cmd && (cmd->bit & (CMD_HELP | CMD_COMPLETION)))
        rc = help_command(&o);
    else if (!rc && !strcmp(o.command, "ops"))
        print_ops();
    else if (!rc)
        rc = run_command(&o);
    sm2c_arena_free(o.arena);
    return rc;
}
