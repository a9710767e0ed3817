/*
** ops_layer_norm.h: the internal LayerNorm op (ops_layer_norm.c) that
** optimize/pass_lnorm.c makes of Keras 3's LayerNormalization.
*/
#ifndef SM2C_OPS_LAYER_NORM_H
#define SM2C_OPS_LAYER_NORM_H

#include "lower/lower.h"

/* Layer normalization over the last axis.  Inputs: x (float, rank >= 1),
** gamma and beta (constant float [C], C = x's last dim), epsilon (constant
** float scalar); output: x's shape. */
extern const sm2c_opdef sm2c_op_layer_norm;

#endif
