/*
** callgraph.h: recursion and signature checks over the function library
** (docs/reliability.md U1-U4), run once when a model is loaded.
*/
#ifndef SM2C_CALLGRAPH_H
#define SM2C_CALLGRAPH_H

#include "savedmodel.h"

/* Reports the first problem as one line naming the function. */
sm2c_status sm2c_check_call_graph(sm2c_ctx *c, const sm2c_model *m);

#endif
