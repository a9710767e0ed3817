/*
** inspect_verdict.h: whether a signature compiles, as `sm2c inspect` says it,
** found by compiling it (sm2c_compile_program, the stages `sm2c compile
** --signature KEY` runs), so that inspect and compile cannot disagree; and the
** tf.Example features its ParseExample nodes read.
*/
#ifndef SM2C_INSPECT_VERDICT_H
#define SM2C_INSPECT_VERDICT_H

#include "base/tensor.h"
#include "ops/ops_parse.h"

#define SM2C_INIT_OP_KEY "__saved_model_init_op"

/* *why = NULL when `sm2c compile DIR --signature KEY` (with no other option)
** would compile it, else its first error as "WHERE: WHAT" (in c's arena).  An
** error only when the model cannot be loaded again. */
sm2c_status sm2c_inspect_verdict(sm2c_ctx *c, const char *dir, const char *tag_set, const char *key,
                                 const char **why);

/* The features of every ParseExample(V2) node the signature runs, in graph
** order; none when it parses no tf.Example or cannot be imported. */
sm2c_status sm2c_inspect_features(sm2c_ctx *c, const char *dir, const char *tag_set, const char *key,
                                  sm2c_example_feature **out, int32_t *n_out);

/* "FILE: WHERE: error: WHAT" (a diagnostic line) -> "WHERE: WHAT". */
const char *sm2c_inspect_reason(sm2c_arena *a, const char *file, const char *line);

#endif
