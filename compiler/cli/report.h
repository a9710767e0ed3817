/*
** report.h: `sm2c compile --report FILE`, what a compiled program costs.
**
** FILE's extension picks the form: .json (the schema is docs/report.schema.json),
** .html (one self-contained page: a summary, a table of contents, per entry an
** SVG picture of its memory plan with a legend and zoom and a per-step table;
** report_html*.c), anything else the plain-text summary.  The analysis below
** and the stack figure (sm2c_report_opts) are shared by the forms, so they
** cannot disagree.
*/
#ifndef SM2C_REPORT_H
#define SM2C_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/target.h"
#include "json.h"
#include "lower/program.h"
#include "lower/program_query.h"
#include "lower/split.h"

typedef enum sm2c_report_format {
    SM2C_REPORT_TEXT,
    SM2C_REPORT_JSON,
    SM2C_REPORT_HTML
} sm2c_report_format;

sm2c_report_format sm2c_report_format_of(const char *path);

/* One step: what it writes (the arena or output buffers it is the first step
** to reference; for a step working in place, its last arena, output or state
** buffer argument; -1 when none), and what it costs. */
typedef struct sm2c_step_cost {
    int32_t out_buf;        /* the first such buffer, for the output shape */
    int64_t macs;           /* multiply-accumulates of matmul and convolution kernels, else 0 */
    int64_t bytes_read;     /* bytes of the buffers it references but does not write first */
    int64_t bytes_written;  /* bytes of the buffers it writes */
    double time_us;         /* measured microseconds per call (a profiled run); -1: not measured */
    const char *fused;      /* sm2c_step.fused on the last step of its node (the kernel that
                               applies them; a padded copy before it does not), else NULL */
} sm2c_step_cost;

/* An entry's steps and buffers seen by the report.  A buffer's lifetime is the
** first and last step that references it (-1, -1 when none does); the plan
** (plan/plan.c) keeps an arena buffer's bytes for at least that long. */
typedef struct sm2c_entry_costs {
    sm2c_step_cost *steps;          /* n_steps */
    int32_t *first, *last;          /* n_buffers */
    int64_t macs;                   /* sum over the steps */
    int64_t weight_bytes;           /* weights the entry references */
    int64_t state_bytes;            /* state buffers the entry references */
    double time_us;                 /* sum of the measured steps' time_us; -1 when none is measured */
    int32_t n_fused;                /* steps that fusion folded other nodes into (sm2c_step.fused) */
} sm2c_entry_costs;

/* What the forms show besides the program: the one stack figure, and the
** measured times when a profiled run supplies them. */
typedef struct sm2c_report_opts {
    int32_t stack_bytes;            /* the generated header's NAME_STACK_SIZE on the target
                                       compiled for (codegen/rt_stack.h) */
    const char *stack_target;       /* whose figure it is: "x86-64", "Cortex-M4F" */
    const double *const *step_us;   /* NULL: not profiled; else per entry NULL or its n_steps
                                       measured microseconds per call (-1: that step not measured) */
} sm2c_report_opts;

/* The stack figure of the header sm2c writes for target t (c_layers: the C
** backend's, which runs some kernels as shape-specialised layers); no times. */
void sm2c_report_opts_init(sm2c_report_opts *o, const sm2c_program *p, const sm2c_target *t, int c_layers);

/* step_us: NULL, or the entry's n_steps measured times (sm2c_report_opts). */
void sm2c_entry_costs_compute(sm2c_arena *a, const sm2c_entry *e, const double *step_us, sm2c_entry_costs *out);

/* --fast-arena (nothing without it; report_pools.c): the text lines giving
** each pool's size and each used arena buffer's pool, offset, bytes and
** traffic per byte; and a JSON buffer's "pool" and "traffic_per_byte"
** (score: sm2c_fast_pool_scores of the entry). */
void sm2c_report_pools_text(FILE *f, sm2c_arena *a, const sm2c_program *p, const sm2c_entry *e);
void sm2c_report_pools_buffer_json(sm2c_json *j, const sm2c_program *p, const sm2c_entry *e, int32_t b,
                                   const double *score);

/* --report's text lines on threads: per entry what is split and the speed-up
** that allows at 2, 16 and 64 threads, then each split step. */
void sm2c_report_split_text(FILE *f, const sm2c_entry *e);

/* sm2c run --profile (nothing when step_us is NULL): the entry's total time
** and GFLOP/s over `calls` calls of `rows` rows each, then per kernel step in
** program order its median time, share of the total, GFLOP/s ("-" without
** multiply-adds), kernel and node. */
void sm2c_report_profile_text(FILE *f, sm2c_arena *a, const sm2c_entry *e, const double *step_us, int64_t calls,
                              int32_t rows);

void sm2c_report_json(FILE *f, sm2c_arena *a, const sm2c_program *p, const sm2c_report_opts *o);
void sm2c_report_html(FILE *f, sm2c_arena *a, const sm2c_program *p, const sm2c_report_opts *o);

#endif
