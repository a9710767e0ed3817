/*
** lower.h: what lowering hooks use to turn IR nodes into program steps.
*/
#ifndef SM2C_LOWER_H
#define SM2C_LOWER_H

#include "base/target.h"
#include "ir/ir.h"
#include "program.h"

typedef struct sm2c_lower {
    sm2c_ctx *c;
    sm2c_program *prog;
    sm2c_entry *entry;
    const sm2c_graph *g;
    int32_t *buf_of;            /* value id -> buffer id, -1 unassigned */
    int32_t cap_steps, cap_bufs;
    int32_t *step_node;         /* unused for now */
    int64_t ints_overflow;      /* a value sm2c_arg_ints could not hold; 0 when none */
    int32_t *count_of;          /* data-dependent values (ops_dyn.c): the id of the value
                                   making a count -> its int64 count buffer; made on first use */
    sm2c_step *string_fills;    /* the string_const steps of the string constants read so far,
                                   kept apart until sm2c_lower_finish_strings puts them first */
    int32_t n_string_fills;
    struct sm2c_quantized_input *quantized; /* --quantize dynamic: the values quantized per
                                   row so far, for the next hybrid node reading one (ops_hybrid.c) */
    const sm2c_target *target;  /* what the program is for (never NULL while lowering):
                                   its size level and core pick kernels and layouts
                                   (conv_pad.c, ops_q8.c) */
} sm2c_lower;

/* The buffer holding value v: its input, weight, the entry output it is, or a
** new arena buffer. */
int32_t sm2c_lower_buf(sm2c_lower *l, const sm2c_value *v);
/* A new buffer that is entry output `port` (for outputs that need a copy). */
int32_t sm2c_lower_output_buf(sm2c_lower *l, int32_t port);
/* v shares the bytes of `src` (Reshape, Squeeze, ExpandDims). */
void sm2c_lower_alias(sm2c_lower *l, const sm2c_value *v, const sm2c_value *src);
/* Puts the fill steps of the string constants the steps read before every
** other step (a constant is read anywhere, loops included; its fill must come
** first).  Called once the entry is lowered. */
void sm2c_lower_finish_strings(sm2c_lower *l);
/* The index of program p's weight holding tensor t (viewed with `shape`),
** added when no weight has its shape, dtype and bytes: equal bytes are one
** weight, whichever signature or node they came from. */
int32_t sm2c_program_weight(sm2c_arena *a, sm2c_program *p, const sm2c_tensor *t, const sm2c_shape *shape,
                            const char *name);
/* A fresh arena buffer for temporaries. */
int32_t sm2c_lower_scratch(sm2c_lower *l, int dtype, const sm2c_shape *shape, const char *name);

/* The int64 scalar buffer holding the run-time size of value v's data-dependent
** dim (v->dyn must be set): the op making it writes it, others read it. */
int32_t sm2c_lower_count(sm2c_lower *l, const sm2c_value *v);

/* Append a call of `kernel` with room for n args, attributed to node n. */
sm2c_step *sm2c_lower_step(sm2c_lower *l, const sm2c_node *n, const char *kernel, int32_t n_args);
/* args[at..at+3) = n's fused activation: act, act_a, act_b (sm2c_rt.h). */
void sm2c_lower_act(sm2c_step *s, int32_t at, const sm2c_node *n);
sm2c_arg sm2c_arg_buf(int32_t buf);
sm2c_arg sm2c_arg_int(int64_t i);
sm2c_arg sm2c_arg_float(float f);
sm2c_arg sm2c_arg_null(void);
sm2c_arg sm2c_arg_ints(sm2c_lower *l, int32_t n, const int64_t *vals);

/* "f32", "i64", ... for kernel names; NULL when the runtime has no such type. */
const char *sm2c_kernel_suffix(int dtype);
/* Report that node n cannot be lowered for the given reason. */
sm2c_status sm2c_lower_unsupported(sm2c_lower *l, const sm2c_node *n, const char *fmt, ...)
    SM2C_PRINTF(3, 4);

#endif
