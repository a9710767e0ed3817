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
    const char *path;      /* .npy */
} sm2c_run_input;

typedef struct sm2c_run_opts {
    const char *signature;   /* the signature to run, or NULL with: */
    const char *function;    /* a --function entry key (or a tf.function with one concrete function) */
    int32_t n_inputs;
    const sm2c_run_input *inputs;
    const char *outdir;
    sm2c_import_opts import; /* --shape; unknown dims otherwise come from the inputs */
    const char *cc;          /* NULL: $CC, else "cc" */
    sm2c_emit_kind emit;     /* c (default), obj or so: through which backend */
    sm2c_llvm_opts llvm;     /* for obj and so */
    int keep;                /* keep the build directory (its path is noted) */
    const char *runtime_lib; /* a static runtime library to link instead of compiling
                                the runtime sources (c and obj forms) */
    int64_t repeat;          /* calls in one process, state carried along (0 means 1);
                                the outputs are the last call's */
    const char *state_out;   /* write each written variable's final value here, or NULL */
    int32_t max_batch;       /* --max-batch: batched inputs may hold 1..max_batch rows */
    int32_t quantize_int8;   /* --quantize int8, with: */
    int32_t io_int8;
    int32_t n_calibration;
    const sm2c_calibration *calibration;
} sm2c_run_opts;

sm2c_status sm2c_run(sm2c_ctx *c, sm2c_model *m, const sm2c_run_opts *o);

#endif
