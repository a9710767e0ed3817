/*
** ops_q8.h: the int8 side of --quantize int8 (ops_q8.c): the internal
** Quantize and Dequantize ops pass_quantize.c puts at the edges of the int8
** region, and the lowering of every node it marks int8 (sm2c_node.q).
*/
#ifndef SM2C_OPS_Q8_H
#define SM2C_OPS_Q8_H

#include "lower/lower.h"

/* float -> int8 with the output's sm2c_qparam, int8 -> float with the input's. */
extern const sm2c_opdef sm2c_op_quantize_s8;
extern const sm2c_opdef sm2c_op_dequantize_s8;
/* x * relu6(x + 3) / 6 on int8, by TFLite's table (pass_quantize.c finds the
** pattern); its inputs are x and the table. */
extern const sm2c_opdef sm2c_op_hard_swish_s8;
/* int8 to int8 under the output's parameters (before a Concat input). */
extern const sm2c_opdef sm2c_op_requantize_s8;

/* An int8 filter (constant) in the rows SMLAD's kernels read (conv_ohwi_s8.c):
** [OC, K] with the middle two of each four values swapped; the source is a
** Conv2D's [KH, KW, C, OC], or with rows_first a FullyConnected's [OC, K]. */
sm2c_value *sm2c_q8_ohwi_filter(sm2c_lower *l, const sm2c_value *f, int rows_first);

/* The steps the int8 and int16 lowerings share, of the given kernels: n's
** qnode integers as an ints argument; a MaxPool/AvgPool (window parameters);
** an Add or Mul broadcasting as the float binary kernels (rank, dims,
** strides, then elt[12]); a clamp to act_min..act_max. */
sm2c_arg sm2c_q8_int32s(sm2c_lower *l, int32_t n, const int32_t *v);
sm2c_status sm2c_q8_lower_pool(sm2c_lower *l, const sm2c_node *n, const char *max_kernel, const char *avg_kernel);
sm2c_status sm2c_q8_lower_bcast(sm2c_lower *l, const sm2c_node *n, const char *kernel);
sm2c_status sm2c_q8_lower_clamp(sm2c_lower *l, const sm2c_node *n, const char *kernel);

/* Lower a node with n->q set to the int8 kernels. */
sm2c_status sm2c_lower_q8(sm2c_lower *l, const sm2c_node *n);

#endif
