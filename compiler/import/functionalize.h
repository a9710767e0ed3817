/*
** functionalize.h: TF1 control flow (Switch/Merge conds, Enter/Exit while
** frames) rewritten into functional If and While nodes with new library
** functions, before import.
*/
#ifndef SM2C_FUNCTIONALIZE_H
#define SM2C_FUNCTIONALIZE_H

#include "load/savedmodel.h"

/* Rewrites m's main graph (and adds to its library) in place; a model with
** no TF1 control flow is left untouched. */
sm2c_status sm2c_functionalize(sm2c_ctx *c, sm2c_model *m);

/* 1 for the TF1 control-flow ops the rewrite removes (for `sm2c inspect`). */
int sm2c_functionalize_handles(const char *op);

#endif
