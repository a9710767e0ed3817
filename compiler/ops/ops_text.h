/*
** ops_text.h: the forms of RaggedTensorToTensor and DenseBincount that take
** a data-dependent input (text preprocessing: StringSplit's tokens with their
** count), which the ops' own hooks (ops_ragged.c, ops_bincount.c) hand over
** to: RaggedTensorToTensor of a vector of values by FIRST_DIM_SIZE and
** VALUE_ROWIDS (ops_text.c), and DenseBincount's unweighted int64 counts
** (ops_text_bincount.c).
*/
#ifndef SM2C_OPS_TEXT_H
#define SM2C_OPS_TEXT_H

#include "lower/lower.h"

sm2c_status sm2c_shape_ragged_rowids_dyn(sm2c_ctx *c, sm2c_node *n);
sm2c_status sm2c_lower_ragged_rowids_dyn(sm2c_lower *l, const sm2c_node *n);
sm2c_status sm2c_shape_bincount_dyn(sm2c_ctx *c, sm2c_node *n);
sm2c_status sm2c_lower_bincount_dyn(sm2c_lower *l, const sm2c_node *n);

#endif
