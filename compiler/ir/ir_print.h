/*
** ir_print.h: the graph IR as stable text (--dump-after), and its verifier.
**
** The text is for people and for golden tests: one line per live node, values
** named by id (%12), constants summarised, no addresses, nothing that depends
** on the machine.  Dead nodes are counted, not shown.
*/
#ifndef SM2C_IR_PRINT_H
#define SM2C_IR_PRINT_H

#include <stdio.h>

#include "ir/ir.h"

/* Print g to f under a heading naming `after` (a pass name, or NULL). */
void sm2c_ir_print(FILE *f, const sm2c_graph *g, const char *after);

/* What holds at a point of the pipeline, for the verifier. */
enum {
    SM2C_VERIFY_TYPED = 1       /* after shape inference: the values read have a dtype and a rank */
};

/* Check g's invariants: every node input and fused operand is defined before
** its use (or known at compile time), no value id out of range, outputs link
** back to their node, entry outputs are live values, control-flow markers
** nest, and (SM2C_VERIFY_TYPED) the values read are typed.  A failure is an
** internal error naming the pass `after` and the node. */
sm2c_status sm2c_ir_verify(sm2c_ctx *c, const sm2c_graph *g, const char *after, int flags);

#endif
