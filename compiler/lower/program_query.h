/*
** program_query.h: questions about a lowered program that the backends, the
** driver and the report all ask, answered in one place.
*/
#ifndef SM2C_PROGRAM_QUERY_H
#define SM2C_PROGRAM_QUERY_H

#include "lower/program.h"

/* Bytes of one element in the backends' ABI: sm2c_abi_elem_size for the
** dtypes the C and LLVM backends can express (program_check.c), 0 for the
** others (quantized, complex128, 8-bit floats, ...). */
int sm2c_backend_elem_size(int dtype);

/* 1 when some entry is batched (--max-batch). */
int sm2c_program_any_batched(const sm2c_program *p);

/* 1 when a step of `en` takes a buffer of `kind` (sm2c_buf_kind) whose index
** is `index`, or any index when `index` is -1. */
int sm2c_entry_uses(const sm2c_entry *en, int kind, int32_t index);

/* 1 when weight w is read by some step or sets a state's initial value. */
int sm2c_program_uses_weight(const sm2c_program *p, int32_t w);

/* Bytes of the distinct weights the steps of `en` read. */
int64_t sm2c_entry_weight_bytes(const sm2c_program *p, const sm2c_entry *en);

/* Bytes of a port at its static shape (batched ports: at max_batch rows). */
int64_t sm2c_port_bytes(const sm2c_port *pt);

/* Bytes of the weights emitted (those read or seeding a state), and of all
** state variables. */
int64_t sm2c_program_weight_bytes(const sm2c_program *p);
int64_t sm2c_program_state_bytes(const sm2c_program *p);

/* The buffer step s of `en` writes, by the runtime's argument order: its first
** arena or output buffer argument no earlier step references, else (a step
** working in place) its last arena, output or state buffer argument; -1 for
** a control step or a step that writes none. */
int32_t sm2c_step_output(const sm2c_entry *en, int32_t s);

/* The TensorFlow node whose value a step computes: the last node a fused
** step computes (step->value_node), else its node. */
const char *sm2c_step_value_node(const sm2c_step *st);

/* 1 when kernel step s writes its node's value: the last of the steps in a
** row lowered from one node (the earlier ones are its helpers, e.g. the
** zero-padded copy of a convolution's input), and it writes a buffer. */
int sm2c_step_writes_value(const sm2c_entry *en, int32_t s);

#endif
