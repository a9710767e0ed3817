/*
** fold.h: constant folding of one node through the runtime kernels.
*/
#ifndef SM2C_FOLD_H
#define SM2C_FOLD_H

#include "ir/ir.h"

/* Evaluate one node with all-constant inputs through its own lowering and the
** runtime kernels (fold.c); leaves it alone when too large. */
sm2c_status sm2c_fold_node(sm2c_ctx *c, sm2c_graph *g, sm2c_node *n);

#endif
