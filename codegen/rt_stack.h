/*
** rt_stack.h: the stack each runtime kernel needs, measured when sm2c was
** built (cmake/rt_stack.py), and the bound of a whole program built from it.
*/
#ifndef SM2C_RT_STACK_H
#define SM2C_RT_STACK_H

#include <stdint.h>

#include "lower/program.h"

typedef struct sm2c_rt_stack_use {
    const char *kernel;     /* "sm2c_rt_matmul_f32" */
    int32_t x86_64;         /* bytes, callees included, gcc -O2; -1 when unknown */
    int32_t cortex_m4;      /* bytes, callees included, arm-none-eabi-gcc -Os; -1 when unknown */
} sm2c_rt_stack_use;

extern const sm2c_rt_stack_use sm2c_rt_stack_uses[];
extern const int32_t sm2c_rt_stack_n_uses;

enum { SM2C_STACK_X86_64, SM2C_STACK_CORTEX_M4 };

/* Bytes of stack a call to any entry point of p may use on `target`: the
** deepest kernel chain plus the generated functions' own frames, with a
** margin; SM2C_RT_STACK_BYTES when a kernel's use is unknown. */
int32_t sm2c_stack_bound(const sm2c_program *p, int target);

#endif
