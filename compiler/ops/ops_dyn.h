/*
** ops_dyn.h: values whose size depends on the data (ARCHITECTURE.md, "Data-dependent
** shapes"): the ops that make them, the consumers that carry their count along, and
** the count outputs of an entry.
*/
#ifndef SM2C_OPS_DYN_H
#define SM2C_OPS_DYN_H

#include "ir/ir.h"
#include "lower/lower.h"

/* After node n's shape hook: when an input has a data-dependent dim, the
** outputs share it if n works row by row, else an error (exit 3) naming n. */
sm2c_status sm2c_dyn_node(sm2c_ctx *c, sm2c_node *n);
/* Whether any output of n has a data-dependent dim (not folded). */
int sm2c_dyn_outputs(const sm2c_node *n);
/* Shape or Size of a data-dependent value: not folded, but computed from the
** count at run time (lowered by sm2c_dyn_lower_shape instead of its hook). */
int sm2c_dyn_shape_op(const sm2c_node *n);
sm2c_status sm2c_dyn_lower_shape(sm2c_lower *l, const sm2c_node *n);
/* Before n's lowering hook: rows past the count of a data-dependent index
** input are zeroed, so they are valid indices. */
void sm2c_dyn_lower_inputs(sm2c_lower *l, const sm2c_node *n);
/* Entry e gets an int64 count output after the signature's outputs per
** output with a data-dependent dim. */
void sm2c_dyn_count_ports(sm2c_ctx *c, const sm2c_graph *g, sm2c_entry *e);
/* The end of entry l->entry: count output `port` written and the rows past
** the count of the output it counts zeroed. */
void sm2c_dyn_lower_output(sm2c_lower *l, int32_t port);

#endif
