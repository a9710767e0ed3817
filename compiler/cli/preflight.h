/*
** preflight.h: every path a command will write, checked before it loads the
** model (issue 32, class 4), and the --report file written beside its
** destination and renamed into place only once OUT is published, so that a
** compile leaves all of its outputs or none.
*/
#ifndef SM2C_PREFLIGHT_H
#define SM2C_PREFLIGHT_H

#include <stdio.h>

#include "base/tensor.h"

typedef struct sm2c_cli_outputs {
    const char *command;     /* "compile", "run" or "runtime" */
    const char *model;       /* the SavedModel directory (NULL for runtime) */
    const char *out;         /* -o / --outdir, or NULL */
    const char *report;      /* --report, or NULL */
    const char *state_out;   /* --state-out, or NULL */
} sm2c_cli_outputs;

/* Checks each path given (out_path.h) and that no two are one path. */
sm2c_status sm2c_preflight(sm2c_ctx *c, const sm2c_cli_outputs *o);

/* The --report file: its text is made in memory before OUT is written, and
** written to a temporary file beside its destination (staged) before OUT
** too, unless it goes into OUT itself, which publishing creates; it is
** renamed into place once OUT is published, and removed when OUT fails. */
typedef struct sm2c_report_file {
    const char *path, *tmp;
    const char *data;
    size_t len;
} sm2c_report_file;

/* 1 when the report's directory is the output directory `out`. */
int sm2c_report_in_out(const char *report, const char *out);
/* Write r's text to a temporary file in the destination's directory. */
sm2c_status sm2c_report_file_stage(sm2c_ctx *c, sm2c_report_file *r);
/* Rename the staged file into place (staging it first if it was not). */
sm2c_status sm2c_report_file_commit(sm2c_ctx *c, sm2c_report_file *r);
/* Remove the staged file, if any. */
void sm2c_report_file_discard(sm2c_report_file *r);

#endif
