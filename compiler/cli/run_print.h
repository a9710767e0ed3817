/*
** run_print.h: what `sm2c run` prints for each output, as saved_model_cli
** run does: its key, dtype and shape, and its values as nested lists when
** the output is small.
*/
#ifndef SM2C_RUN_PRINT_H
#define SM2C_RUN_PRINT_H

#include <stdio.h>

#include "base/tensor.h"

/* Outputs with more elements print their key, dtype and shape only. */
#define SM2C_RUN_PRINT_MAX 100

void sm2c_run_print(sm2c_ctx *c, FILE *f, const char *key, const sm2c_tensor *t);

#endif
