/*
** opdefs.h: the op table, the one place that says what sm2c knows about a
** TensorFlow op: its output arguments (to resolve "node:outarg:idx" inside
** function bodies), and its shape-inference and lowering hooks.  The entries
** are in ops.def.  TF2 files strip attrs equal to their default; the hooks
** read attrs through helpers that take the op's default (attrs.c).  The dtypes
** column lists the dtypes each op is tested on; lowering refuses the others.
*/
#ifndef SM2C_OPDEFS_H
#define SM2C_OPDEFS_H

#include "ir/ir.h"
#include "lower/lower.h"

/* Attribute access; absent attrs take the op table's default (ops.def). */
const Tensorflow__AttrValue *sm2c_attr(const sm2c_node *n, const char *name);
int sm2c_attr_int(const sm2c_node *n, const char *name, int64_t *out);
/* Int and bool attrs with the op table's default when the file stripped them
** (0 / false when the table has none either). */
int64_t sm2c_attr_i(const sm2c_node *n, const char *name);
int sm2c_attr_flag(const sm2c_node *n, const char *name);
int sm2c_attr_float(const sm2c_node *n, const char *name, float *out);
int sm2c_attr_bool(const sm2c_node *n, const char *name, int *out);
/* String attrs (bytes) compared with `s`; 0 when absent. */
int sm2c_attr_str_is(const sm2c_node *n, const char *name, const char *s);
const char *sm2c_attr_str(sm2c_ctx *c, const sm2c_node *n, const char *name);
/* list(int) attr: count and values (pointer into the proto), or 0 when absent. */
int sm2c_attr_ints(const sm2c_node *n, const char *name, const int64_t **v, size_t *count);

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
/* The same for node nd, whose list output args ("a*N,b*T": an int attr or
** a list(type) attr gives each one's length) place later args after them. */
int32_t sm2c_opdef_output_index_of(const sm2c_opdef *op, const Tensorflow__NodeDef *nd, const char *arg,
                                   int32_t idx);
/* Whether op runs on dtype (its dtypes column in ops.def). */
int sm2c_opdef_has_dtype(const sm2c_opdef *op, int dtype);
/* Number of entries, and entry i (for `sm2c ops`). */
size_t sm2c_opdef_count(void);
size_t sm2c_opdef_index(const sm2c_opdef *op);
/* Whether op is a table entry (not one of cflow.c's or tlist.c's internal ops). */
int sm2c_opdef_in_table(const sm2c_opdef *op);
const sm2c_opdef *sm2c_opdef_at(size_t i);

/* Whether op writes a variable (its WRITES_STATE flag): such nodes are never dead. */
int sm2c_op_writes_state(const sm2c_opdef *op);
/* Whether op has an effect beyond its outputs (a write, an Assert's check):
** never dead. */
int sm2c_op_has_side_effect(const sm2c_opdef *op);

/* The dtype node n computes in (its "T" attr, else input 0, else output 0). */
int sm2c_node_dtype(const sm2c_node *n);
/* Lower node n through its op's hook, refusing dtypes the op table does not list. */
sm2c_status sm2c_lower_node(sm2c_lower *l, const sm2c_node *n);

/* Hooks, defined in ops_*.c. */
#define OP(name, n_inputs, outputs, defaults, shape, lower, dtypes, props) \
    sm2c_status shape(sm2c_ctx *c, sm2c_node *n); \
    sm2c_status lower(struct sm2c_lower *l, const sm2c_node *n);
#include "ops.def"
#undef OP

#endif
