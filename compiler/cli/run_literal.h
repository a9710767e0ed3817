/*
** run_literal.h: `sm2c run --input_exprs KEY=[[1,2],[3,4]]`, a small input
** written as a Python literal (nested lists of numbers, True/False), as
** saved_model_cli run --input_exprs takes it.  The shape is the nesting's;
** the dtype is the one the signature declares for the input.
*/
#ifndef SM2C_RUN_LITERAL_H
#define SM2C_RUN_LITERAL_H

#include "base/tensor.h"

/* Parse `text` into *out of `dtype` (numeric or bool).  `what` names the
** input in errors ("--input_exprs x"). */
sm2c_status sm2c_literal_parse(sm2c_ctx *c, const char *what, const char *text, int dtype, sm2c_tensor *out);

#endif
