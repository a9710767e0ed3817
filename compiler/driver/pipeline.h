/*
** pipeline.h: a loaded SavedModel -> the lowered program, signature by signature:
** import, shape (with folding), fuse, dce, lower, plan.
*/
#ifndef SM2C_PIPELINE_H
#define SM2C_PIPELINE_H

#include <stdio.h>

#include "base/target.h"
#include "import/import.h"
#include "lower/program.h"
#include "driver/calibrate.h"

/* --quantize: what the weights (and activations) are stored and computed as. */
typedef enum sm2c_quantize {
    SM2C_QUANTIZE_NONE = 0,
    SM2C_QUANTIZE_INT8,      /* full integer: int8 weights and activations (TFLite's scheme) */
    SM2C_QUANTIZE_FLOAT16,   /* binary16 weights, float32 compute (TFLite's float16) */
    SM2C_QUANTIZE_INT16X8,   /* full integer: int8 weights, int16 activations (TFLite's 16x8) */
    SM2C_QUANTIZE_DYNAMIC    /* int8 weights, activations quantized per call (TFLite's
                                dynamic range: its hybrid kernels) */
} sm2c_quantize;

/* Everything that decides the program: the front ends (the CLI's compile and
** run, the tests) fill this one struct, and nothing is derived twice. */
typedef struct sm2c_compile_opts {
    const char *name;            /* C prefix; NULL: derived from the directory name */
    int32_t n_signatures;        /* 0: every signature but __saved_model_init_op */
    const char *const *signatures;
    int32_t n_functions;         /* --function: tf.function object paths (every concrete
                                    function of each) or entry keys "<path>_<k>" */
    const char *const *functions;
    sm2c_import_opts import;     /* --shape; its one_row is set from max_batch here */
    const char *command;         /* recorded in the generated header */
    int32_t max_batch;           /* --max-batch: > 0 makes inputs with an unknown leading
                                    dim batched, 1..max_batch rows at run time (pass_batch.c) */
    sm2c_quantize quantize;      /* --quantize: int8 (pass_quantize.c), float16
                                    (lower/half_weights.c), dynamic (pass_dynamic.c) */
    int32_t io_int8;             /* --io int8: int8 entry inputs and outputs */
    int32_t weights_bits;        /* --weights-bits: 0 or 8 (int8 weights), or 4 with
                                    int8 or dynamic: int4 values (quant_params.c), int8
                                    buffers of them stored two to a byte
                                    (lower/int4_weights.c) */
    int32_t requantize_float;    /* --requantize float: int8 contractions requantize in
                                    float (XNNPACK's scheme), not TFLite's fixed point */
    int32_t skip_failing;        /* --skip-failing: an entry that cannot be compiled is left
                                    out with a warning (when there are others); else an error */
    sm2c_target target;          /* --opt, --target, --cpu, --features: read by the passes
                                    (pass_hoist.c), the lowering (conv_pad.c, ops_q8.c) and
                                    the backends; sm2c_target_host() by default */
    int32_t n_quantize_skip;     /* --quantize-skip PATTERN: nodes (by TF name, or a node
                                    fusion folded into them) left float (int8, dynamic) */
    const char *const *quantize_skip;
    uint8_t *quantize_skip_used; /* set in the pipeline (never by a caller): pattern i
                                    matched some node */
    int32_t n_calibration;       /* --calibration KEY=FILE.npy, read by the front end */
    const sm2c_calibration *calibration;
    const char *dump_after;      /* --dump-after (no effect on the program): pass names,
                                    comma-separated, or "all": each entry's graph printed
                                    after them (ir/ir_print.h) */
    FILE *dump_to;               /* where to; NULL: stderr */
    /* Memory placement (lower/placement.h): --section CLASS=NAME, --fast-arena
    ** BYTES; copied into the program for the backends, the capacity to the plan. */
    sm2c_placement placement;
} sm2c_compile_opts;

/* Compile the selected entries.  A signature that cannot be compiled is
** reported (naming it and the op) as an error, and every other one is still
** tried; with o->skip_failing it is a warning and left out instead, as long
** as at least one signature compiled.  Every --shape key (and run input key)
** must name an input of a selected entry. */
sm2c_status sm2c_compile_program(sm2c_ctx *c, sm2c_model *m, const sm2c_compile_opts *o,
                                 sm2c_program **out);

/* A C identifier from any string: ASCII [A-Za-z0-9_], starting with a letter
** ('x' is put before anything else), no "__", at most 65 bytes. */
char *sm2c_c_ident(sm2c_arena *a, const char *s);

#endif
