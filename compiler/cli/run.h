/*
** run.h: `sm2c run`, the saved_model_cli run of this project: compile one
** signature, build the generated C with a driver using $CC, run it on .npy
** inputs and write one .npy per output key.
*/
#ifndef SM2C_RUN_H
#define SM2C_RUN_H

#include "codegen/emit.h"
#include "driver/pipeline.h"
#include "load/savedmodel.h"

typedef struct sm2c_run_input {
    const char *key;
    const char *path;      /* .npy; for a literal, "--input_exprs KEY" (for errors) */
    const char *literal;   /* --input_exprs KEY=[[1,2]]: the literal (run_literal.h), else NULL */
} sm2c_run_input;

typedef struct sm2c_run_opts {
    sm2c_compile_opts compile;  /* exactly what `compile` takes: one signature or
                                   function (its --signature or --function), --shape
                                   (unknown dims otherwise come from the inputs), the
                                   target, --max-batch, --quantize; name and command
                                   are "model" and "sm2c run" when NULL */
    int32_t n_inputs;
    const sm2c_run_input *inputs;
    const char *outdir;      /* NULL: the outputs are printed only */
    int print;               /* print each output (run_print.h) on stdout */
    const char *cc;          /* NULL: $CC, else "cc" */
    sm2c_emit_kind emit;     /* c (default), obj or so: through which backend */
    int keep;                /* keep the build directory (its path is noted) */
    int no_cache;            /* --no-cache: build, neither reading nor writing the cache (run_cache.h) */
    const char *runtime_lib; /* a static runtime library to link instead of compiling
                                the runtime sources (c and obj forms) */
    int64_t repeat;          /* calls in one process, state carried along (0 means 1);
                                the outputs are the last call's */
    const char *state_out;   /* write each written variable's final value here, or NULL */
    int32_t n_threads;       /* > 0 (--threads N,...): call the context entry point too, once
                                per thread count, with the runtime's pool of that many threads
                                (when a step splits), and check that each gives the static
                                entry's outputs bit for bit */
    const int32_t *threads;
    int profile;             /* --profile: time each step of the static entry's calls
                                (run_hooks.h) */
    const char *dump_dir;    /* --dump-intermediates DIR: each step's output of the last
                                call as DIR/<node>.npy, and DIR/index.json */
} sm2c_run_opts;

/* What run --profile measured (run_hooks.h): per step of the entry its median
** microseconds per call (-1: a control step), over `calls` calls of `rows`
** rows each (--max-batch; else 1).  step_us is NULL without --profile. */
typedef struct sm2c_run_profile {
    const double *step_us;
    int64_t calls;
    int32_t rows;
} sm2c_run_profile;

/* Runs it.  When not NULL, *program is the program it ran (for --report)
** and *profile what --profile measured. */
sm2c_status sm2c_run(sm2c_ctx *c, sm2c_model *m, const sm2c_run_opts *o, sm2c_program **program,
                     sm2c_run_profile *profile);

#endif
