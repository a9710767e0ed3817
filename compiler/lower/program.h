/*
** program.h: the lowered program, the one interface both backends consume.
**
** An entry point is an ordered list of kernel calls over buffers whose every
** shape is static.  A step names its runtime kernel and gives its arguments:
** buffers, NULL, integers, floats and constant int32 arrays.  Backends know no
** ops: all op knowledge lives in the lowering, so the C and LLVM outputs
** cannot drift apart.
*/
#ifndef SM2C_PROGRAM_H
#define SM2C_PROGRAM_H

#include <stdint.h>

#include "base/tensor.h"
#include "lower/placement.h"

typedef enum sm2c_bufkind {
    SM2C_BUF_INPUT,     /* an argument of the entry point (index = position) */
    SM2C_BUF_OUTPUT,    /* an output argument (index = position among outputs) */
    SM2C_BUF_ARENA,     /* intermediate at `offset` bytes into the arena (the fast
                        ** arena when `fast`) */
    SM2C_BUF_WEIGHT,    /* constant: program->weights[index] */
    SM2C_BUF_STATE      /* persistent variable: program->states[index] */
} sm2c_bufkind;

typedef struct sm2c_buffer {
    sm2c_bufkind kind;
    int dtype;
    sm2c_shape shape;
    int64_t nbytes;
    int32_t index;
    int64_t offset;
    const char *name;   /* TF tensor or variable name, for comments */
    int32_t pinned;     /* arena bytes that string elements point into (AsString's text):
                        ** live from their first step to the end of the entry, as
                        ** those strings may be read by any later step or returned */
    int32_t fast;       /* an arena buffer the plan put in the fast arena (--fast-arena) */
} sm2c_buffer;

typedef enum sm2c_argkind {
    SM2C_ARG_BUF,       /* buf: a buffer id of the entry point */
    SM2C_ARG_NULL,      /* a null pointer (optional bias) */
    SM2C_ARG_INT,       /* i: an int32 (or int64 where the kernel takes one) literal */
    SM2C_ARG_FLOAT,     /* f: a float literal, emitted exactly (the value is a float32) */
    SM2C_ARG_INTS       /* ints[0..n): a static const int32_t array, passed as a pointer */
} sm2c_argkind;

typedef struct sm2c_arg {
    sm2c_argkind kind;
    int32_t buf;
    int64_t i;
    float f;
    int32_t n;
    const int32_t *ints;
} sm2c_arg;

typedef struct sm2c_step {
    const char *kernel;     /* "sm2c_rt_matmul_f32" */
    int32_t n_args;
    sm2c_arg *args;
    const char *node;       /* TF node name it came from */
    const char *op;         /* its op */
    const char *function;   /* call path of functions, "" for the top level */
    int32_t checked;        /* the kernel returns int32_t: nonzero (an SM2C_RT_ERR_* code) means a
                            ** data-dependent index or value was out of range, and the entry point
                            ** returns it at once (docs/reliability.md section 6, rule 4) */
    int32_t control;        /* SM2C_CTL_*: 0 for a kernel call, else a structured control step
                            ** (kernel unused) */
    int64_t imm;            /* SM2C_CTL_IF: -1 to test the condition for nonzero, else the int32
                            ** value it must equal (Case); SM2C_CTL_BREAK_UNLESS: the iteration cap */
    int32_t max_tasks;      /* > 1: a context entry point calls `kernel`_par, splitting the step
                            ** into at most this many tasks (lower/split.c); else the kernel */
    const char *fused;      /* the nodes fusion folded into `node` (a bias, residual Add or
                            ** activation: ir.h's `absorbed`), "Op name" pairs joined by ';'
                            ** in graph order (node names hold neither ' ' nor ';'); NULL: none.
                            ** Only --report reads it */
    const char *value_node; /* a fused step: the TF node whose value it writes (the last node
                            ** it computes, pass_fuse.c); NULL: node's (sm2c_step_value_node) */
} sm2c_step;

/* Structured control flow (control flow is nested, never a goto):
**   IF [cond]  ...  ELSE  ...  END_IF         cond: a bool or int32 scalar buffer
**   LOOP [counter]  ...  BREAK_UNLESS [cond, counter]  ...  END_LOOP
** LOOP zeroes its int32 counter buffer and starts `for (;;)`; BREAK_UNLESS
** leaves the loop when cond is zero, else returns SM2C_RT_ERR_ITERATIONS once
** the body has run `imm` times, and counts one more run.  Every IF has an ELSE. */
enum {
    SM2C_CTL_NONE = 0,
    SM2C_CTL_IF,
    SM2C_CTL_ELSE,
    SM2C_CTL_END_IF,
    SM2C_CTL_LOOP,
    SM2C_CTL_BREAK_UNLESS,
    SM2C_CTL_END_LOOP
};
/* Deepest nesting of IF and LOOP (a Case of n branches nests n - 1 IFs):
** C99 compilers must take 127 nested blocks (5.2.4.1). */
#define SM2C_CTL_MAX_DEPTH 120

/* Bytes of one element of a buffer of `dtype` in the C ABI: the fixed-size
** dtypes' size, and for DT_STRING (an entry's string input) the size of the
** runtime's sm2c_string { const uint8_t *data; int64_t len; }, 16 bytes on
** every target sm2c builds for (the generated header checks it); 0 otherwise. */
#define SM2C_STRING_ELEM_SIZE 16
static inline int64_t sm2c_abi_elem_size(int dtype)
{
    return sm2c_dtype_base(dtype) == SM2C_DT_STRING ? SM2C_STRING_ELEM_SIZE : (int64_t)sm2c_dtype_size(dtype);
}

typedef struct sm2c_port {
    const char *key;        /* signature input or output key */
    const char *tensor;     /* the TF tensor name */
    int dtype;
    sm2c_shape shape;       /* static */
    int32_t buf;            /* its buffer id */
    int32_t batched;        /* 0, or its leading dim is `batched` slices per row of the
                            ** entry's run-time batch (1 unless the graph folds rows into
                            ** the leading dim): `shape` is at max_batch rows, its
                            ** buffer one row (leading dim `batched`) */
    int32_t dynamic;        /* output: 0, or 1 + its data-dependent dim (sized to the bound in
                            ** `shape`; the entry writes the actual size to its count) */
    int32_t count_of;       /* 0, or this output is the int64 scalar count of output
                            ** count_of - 1: count outputs follow the signature's outputs */
    int32_t quantized;      /* --io int8: an int8 port, real = scale * (q - zero_point) */
    float scale;
    int32_t zero_point;
} sm2c_port;

/* --quantize int8, for the report: one int8 tensor of an entry. */
typedef struct sm2c_qtensor {
    const char *name;       /* TF tensor name (or "<name>/quantize") */
    float scale;
    int32_t zero_point;
    float min, max;         /* the float range it was chosen from (calibration or FakeQuant) */
    double error;           /* mean |dequantized int8 - float| over the calibration data,
                            ** -1 when not measured (no calibration data) */
} sm2c_qtensor;

typedef struct sm2c_entry {
    const char *key;        /* signature key, e.g. "serving_default", or function entry key */
    const char *function;   /* NULL for a signature; for a concrete function, the object
                            ** path of its tf.function and the input signature traced */
    const char *c_name;     /* C identifier suffix, unique in the program */
    int32_t n_inputs, n_outputs;
    sm2c_port *inputs;      /* sorted by key */
    sm2c_port *outputs;     /* sorted by key */
    int32_t n_buffers;
    sm2c_buffer *buffers;
    int32_t n_steps;
    sm2c_step *steps;
    int64_t arena_bytes;    /* what this entry needs */
    int64_t naive_bytes;    /* sum of all its intermediates, for the report */
    int64_t fast_arena_bytes; /* --fast-arena: what it needs of the fast arena */
    int32_t writes_state;   /* 1 when a step writes a state buffer */
    int32_t max_batch;      /* > 0 (--max-batch): the steps compute one row; the entry
                            ** takes the batch (1..max_batch) and runs them per row over
                            ** the batched ports (pass_batch.c proved rows independent) */
    int32_t quantized;      /* --quantize int8 (int16x8): the report's lists below */
    int32_t act_bits;       /* ... whose activations have 8 (int8) or 16 (int16x8) bits */
    int32_t n_qtensors;
    sm2c_qtensor *qtensors; /* in node order */
    int32_t n_float_nodes;
    const char **float_nodes; /* "node (Op)" computed in float, between dequantize and quantize */
} sm2c_entry;

typedef struct sm2c_weight {
    const char *name;       /* checkpoint key or Const node it came from */
    sm2c_tensor value;      /* emitted bit-exactly */
} sm2c_weight;

/* A variable some entry writes: it persists between calls, in one state
** shared by every entry of the program, starting at its checkpoint value. */
typedef struct sm2c_state {
    const char *key;        /* checkpoint key, e.g. "w/.ATTRIBUTES/VARIABLE_VALUE" */
    int dtype;
    sm2c_shape shape;
    int64_t nbytes;
    int32_t init_weight;    /* program->weights index of its checkpoint value */
    const char *c_name;     /* its member of the state struct, unique, a C identifier */
} sm2c_state;

typedef struct sm2c_program {
    const char *name;       /* --name: prefix of every emitted symbol, a C identifier */
    const char *source;     /* the SavedModel directory as given (for checks, never emitted) */
    const char *source_name; /* its last component, for the banner (no paths in output) */
    const char *command;    /* the command line that made it, for the header */
    const char *input_digests; /* "file sha256\n" per input file read (rule 14); may be NULL */
    int32_t n_weights;
    sm2c_weight *weights;   /* shared by all entries */
    int32_t n_entries;
    sm2c_entry *entries;
    int64_t arena_bytes;    /* max over entries */
    int64_t fast_arena_bytes; /* max over entries (--fast-arena) */
    sm2c_placement placement; /* --section names and the --fast-arena capacity: with a
                            ** capacity the ABI has a fast workspace beside the workspace */
    int32_t n_states;
    sm2c_state *states;     /* sorted by key; empty for a stateless program */
    int32_t profile;        /* --profile: the C backend calls NAME_PROFILE around each step
                            ** (codegen/c_profile.c); the LLVM backend refuses it */
} sm2c_program;

#endif
