/*
** rt_stack.h: the stack (and, for Cortex-M, the code) each runtime kernel
** needs, measured when sm2c was built (cmake/rt_stack.py), and what a whole
** program needs, built from it.
*/
#ifndef SM2C_RT_STACK_H
#define SM2C_RT_STACK_H

#include <stdint.h>

#include "base/target.h"
#include "lower/program.h"
#include "sm2c_rt.h"

typedef struct sm2c_rt_stack_use {
    const char *kernel;     /* "sm2c_rt_matmul_f32" */
    int32_t x86_64;         /* bytes, callees included, gcc -O2; -1 when unknown */
    int32_t cortex_m4;      /* bytes, callees included, arm-none-eabi-gcc -Os; -1 when unknown */
    int32_t cortex_m4_code; /* Thumb code bytes, with the runtime functions it reaches; -1 */
    /* Bytes of its shape-specialised form (c_special.h) per fused activation
    ** (SM2C_RT_ACT_*: sigmoid inlines exp, relu6 changes -Os's unrolling), the
    ** most of sample layers, gcc -Os; -1 when it has none or unknown.
    ** sm2c_rt_stack_n_acts entries. */
    const int32_t *cortex_m4_layer;
} sm2c_rt_stack_use;

extern const sm2c_rt_stack_use sm2c_rt_stack_uses[];
extern const int32_t sm2c_rt_stack_n_uses;
/* The fused activations rt_stack.py read from sm2c_rt.h's SM2C_RT_ACT_* enum,
** the one list of them: adding one there is all the stack tables need. */
extern const int32_t sm2c_rt_stack_n_acts;

enum { SM2C_STACK_X86_64, SM2C_STACK_CORTEX_M4 };

/* Bytes of stack a call to any entry point of p may use on `target`: the
** deepest kernel chain plus the generated functions' own frames, with a
** margin; SM2C_RT_STACK_BYTES when a kernel's use is unknown.  c_layers: the
** C backend's code, which runs some kernels as shape-specialised layers
** (c_special.h); 0 for the LLVM backend, which calls every kernel. */
int32_t sm2c_stack_bound(const sm2c_program *p, int target, int c_layers);
/* The same for one entry point. */
int32_t sm2c_stack_bound_entry(const sm2c_entry *en, int target, int c_layers);

/* Which of the header's two NAME_STACK_SIZE figures code built for `t` sees:
** SM2C_STACK_CORTEX_M4 on 32-bit Arm (the header's `__arm__ || __thumb__`:
** an arm or thumb triple, or no triple on such a host), else SM2C_STACK_X86_64. */
int sm2c_stack_target_of(const struct sm2c_target *t);
/* Its name for reports: "Cortex-M4F" or "x86-64". */
const char *sm2c_stack_target_name(int target);

/* Estimated Cortex-M4F code bytes (-Os) of one entry point: its generated
** function and the kernels it calls (each counted once); -1 when a kernel's
** size is unknown. */
int64_t sm2c_code_estimate(const sm2c_entry *en);

#endif
