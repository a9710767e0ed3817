/*
** report.h: `sm2c compile --report FILE`, what a compiled program costs.
**
** FILE's extension picks the form: .json (the schema is docs/report.schema.json),
** .html (one self-contained page: an SVG picture of each entry's memory plan
** and a per-step table), anything else the plain-text summary.  The analysis
** below is shared by the forms, so they cannot disagree.
*/
#ifndef SM2C_REPORT_H
#define SM2C_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"
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
} sm2c_entry_costs;

void sm2c_entry_costs_compute(sm2c_arena *a, const sm2c_entry *e, sm2c_entry_costs *out);

/* --report's text lines on threads: per entry what is split and the speed-up
** that allows at 2, 16 and 64 threads, then each split step. */
void sm2c_report_split_text(FILE *f, const sm2c_entry *e);

void sm2c_report_json(FILE *f, sm2c_arena *a, const sm2c_program *p);
void sm2c_report_html(FILE *f, sm2c_arena *a, const sm2c_program *p);

#endif
