/*
** ops_q16.h: the int16 side of --quantize int16x8 (ops_q16.c): the lowering
** of the nodes pass_quantize.c made int16 (sm2c_node.q, int16 values).
*/
#ifndef SM2C_OPS_Q16_H
#define SM2C_OPS_Q16_H

#include "lower/lower.h"

/* Whether n (with n->q set) computes on int16 values. */
int sm2c_node_is_s16(const sm2c_node *n);

/* Lower such a node to the _s16 kernels. */
sm2c_status sm2c_lower_q16(sm2c_lower *l, const sm2c_node *n);

#endif
