/*
** ops_hybrid.h: lowering of the contractions --quantize dynamic made hybrid
** (pass_dynamic.c, sm2c_node.hybrid): int8 filters, float input quantized
** per call, float output, as TFLite's hybrid kernels compute them.
*/
#ifndef SM2C_OPS_HYBRID_H
#define SM2C_OPS_HYBRID_H

#include "lower/lower.h"

/* Lower a node with n->hybrid set: a sm2c_rt_quantize_rows_s8 step into arena
** scratch, then the hybrid kernel. */
sm2c_status sm2c_lower_hybrid(sm2c_lower *l, const sm2c_node *n);

#endif
