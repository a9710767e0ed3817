/*
** run_defaults.h: what `sm2c run` takes from the model when the command line
** does not say it: the signature (the model's only one) and, for an
** --input_exprs literal, the input's dtype.
*/
#ifndef SM2C_RUN_DEFAULTS_H
#define SM2C_RUN_DEFAULTS_H

#include "load/savedmodel.h"

/* The model's only signature (__saved_model_init_op aside), else an error
** listing them. */
sm2c_status sm2c_run_only_signature(sm2c_ctx *c, const sm2c_model *m, const char **key);

/* The dtype signature `sig` declares for input `key`; an error naming the
** valid keys when it has none of that name. */
sm2c_status sm2c_run_input_dtype(sm2c_ctx *c, const sm2c_model *m, const char *sig, const char *key, int *dtype);

#endif
