/*
** attr_check.h: reject attribute values that would make nonsense or undefined
** behaviour later (docs/reliability.md N5, N6, N8), before any pass relies on them.
*/
#ifndef SM2C_ATTR_CHECK_H
#define SM2C_ATTR_CHECK_H

#include <stddef.h>

#include "graph.pb-c.h"
#include "base/tensor.h"

/* Check the attrs of every node of one graph (function == NULL) or one
** function body.  Reports every problem, one line each, as
** "display: [function: ]'node' (Op): error: ..."; returns the status of the
** first one, SM2C_OK when there is none.  Absent attrs are fine (TF2 strips
** defaults).  Const inputs are looked up by name in `nodes` (through Identity)
** to check perm, shape, axis, index and size arguments. */
sm2c_status sm2c_check_graph_attrs(sm2c_ctx *c, const char *display, const char *function,
                                   Tensorflow__NodeDef **nodes, size_t n_nodes);

#endif
