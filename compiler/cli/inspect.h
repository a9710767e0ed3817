/*
** inspect.h: `sm2c inspect`, what is inside a SavedModel (our saved_model_cli
** show --all): tags, signatures, concrete functions, variables, checkpoint
** entries with small values, reachable ops and which of them sm2c cannot compile.
*/
#ifndef SM2C_INSPECT_H
#define SM2C_INSPECT_H

#include <stdio.h>

#include "base/tensor.h"

typedef struct sm2c_inspect_opts {
    const char *tag_set;      /* NULL: the only MetaGraphDef, else "serve" */
    int json;
    int max_values;           /* print values of tensors with at most this many elements */
    const char *signature;    /* --signature: only this one, as saved_model_cli show --signature_def */
    int verbose;              /* -v: every concrete function with its captures */
} sm2c_inspect_opts;

/* Load `dir`, validate it entirely (every checkpoint tensor is read and its
** checksum verified) and write the report to `out`.  Nothing is written when
** loading fails. */
sm2c_status sm2c_inspect(sm2c_ctx *c, const char *dir, const sm2c_inspect_opts *opts, FILE *out);

#endif
