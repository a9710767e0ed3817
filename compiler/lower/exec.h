/*
** exec.h: run lowered steps inside the compiler, calling the runtime's own
** kernels, so that a folded constant is bit-identical to what the generated
** code would compute.
*/
#ifndef SM2C_EXEC_H
#define SM2C_EXEC_H

#include "program.h"

/* Execute steps[0..n) with buffers[b] the memory of buffer b.  Fails for a
** kernel the registry does not know (a bug: lowering and registry disagree). */
sm2c_status sm2c_exec_steps(sm2c_ctx *c, const sm2c_step *steps, int32_t n, void *const *buffers);

/* 1 when `kernel` is a known runtime kernel. */
int sm2c_exec_knows(const char *name);

#endif
