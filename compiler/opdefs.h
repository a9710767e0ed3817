/*
** opdefs.h: the op table, the one place that says what sm2c knows about a
** TensorFlow op: its output arguments (to resolve "node:outarg:idx" inside
** function bodies), and its shape-inference and lowering hooks.  The entries
** are in ops.def.  TF2 files strip attrs equal to their default; the hooks
** read attrs through helpers that take the op's default (ir.h).  The dtypes
** column lists the dtypes each op is tested on; lowering refuses the others.
*/
#ifndef SM2C_OPDEFS_H
#define SM2C_OPDEFS_H

#include "ir.h"

struct sm2c_lower;

typedef sm2c_status (*sm2c_shape_fn)(sm2c_ctx *c, sm2c_node *n);
typedef sm2c_status (*sm2c_lower_fn)(struct sm2c_lower *l, const sm2c_node *n);

typedef struct sm2c_opdef {
    const char *name;       /* TF op name */
    int32_t n_inputs;       /* data inputs; -1 when variadic (ConcatV2, Pack) */
    const char *outputs;    /* output arg names, comma-separated ("" for none) */
    const char *defaults;   /* attr defaults, "name=value ..." (see ops.def) */
    sm2c_shape_fn shape;    /* sets dtype and static shape of every output */
    sm2c_lower_fn lower;    /* appends kernel steps */
    uint64_t dtypes;        /* bit d: runs on dtype d (sm2c_node_dtype), each tested */
} sm2c_opdef;

const sm2c_opdef *sm2c_opdef_find(const char *name);
/* The default of attr `name` of `op` as an AttrValue, or NULL (parsed once). */
const Tensorflow__AttrValue *sm2c_opdef_default(const sm2c_opdef *op, const char *name);
/* Number of outputs of node nd: a list output arg "name*attr" has as many
** as nd's int attr `attr` says (1..SM2C_OPDEF_MAX_LIST); -1 when that attr is
** missing or out of range. */
#define SM2C_OPDEF_MAX_LIST 4096
int32_t sm2c_opdef_output_count(const sm2c_opdef *op, const Tensorflow__NodeDef *nd);
/* Flat output index of output arg `arg`, element `idx`; -1 if no such arg. */
int32_t sm2c_opdef_output_index(const sm2c_opdef *op, const char *arg, int32_t idx);
/* Whether op runs on dtype (its dtypes column in ops.def). */
int sm2c_opdef_has_dtype(const sm2c_opdef *op, int dtype);
/* Number of entries, and entry i (for `sm2c ops`). */
size_t sm2c_opdef_count(void);
size_t sm2c_opdef_index(const sm2c_opdef *op);
const sm2c_opdef *sm2c_opdef_at(size_t i);

/* Whether op writes a variable (ops_state.c): such nodes are never dead. */
int sm2c_op_writes_state(const sm2c_opdef *op);
/* Whether op has an effect beyond its outputs (a write, an Assert's check):
** never dead (ops_check.c). */
int sm2c_op_has_side_effect(const sm2c_opdef *op);

/* Hooks, defined in ops_*.c. */
#define OP(name, n_inputs, outputs, defaults, shape, lower, dtypes) \
    sm2c_status shape(sm2c_ctx *c, sm2c_node *n); \
    sm2c_status lower(struct sm2c_lower *l, const sm2c_node *n);
#include "ops.def"
#undef OP

#endif
