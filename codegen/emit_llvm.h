/*
** emit_llvm.h: the LLVM backend, through the LLVM-C API.
**
** Consumes the same lowered program as the C backend and builds a module with
** the same entry points, metadata table and symbol names the generated header
** declares (the header itself comes from the C backend).  Weights are
** constant globals holding their exact bytes; the arena is a 64-byte aligned
** global.  On ELF targets every function, weight and the arena sit in their
** own sections (.text.NAME, .rodata.NAME, .bss.NAME), so a link with
** --gc-sections drops the entry points and weights nothing calls.  Steps call the runtime's kernels (sm2c_rt_*), compiled from
** runtime/ for the target: one implementation of every op for both backends,
** so their results agree bit for bit.
*/
#ifndef SM2C_EMIT_LLVM_H
#define SM2C_EMIT_LLVM_H

#include "base/target.h"
#include "lower/program.h"
#include "base/tensor.h"

typedef enum sm2c_llvm_kind {
    SM2C_LLVM_IR,     /* textual .ll */
    SM2C_LLVM_BC,     /* bitcode .bc */
    SM2C_LLVM_OBJ     /* object file for the target */
} sm2c_llvm_kind;

typedef struct sm2c_llvm_opts {
    sm2c_target target;     /* triple (NULL: the host's), cpu, features, opt_level
                               (LLVM's module pipeline) and size_level (Os, Oz: at
                               opt_level 2) */
    int pic;                /* position-independent code (for shared objects) */
} sm2c_llvm_opts;

/* Build, verify (LLVMVerifyModule; a failure is an internal error, reported,
** never an abort), optimise and write `p` to `path` as `kind`. */
sm2c_status sm2c_emit_llvm(sm2c_ctx *c, const sm2c_program *p, const sm2c_llvm_opts *o,
                           sm2c_llvm_kind kind, const char *path);

/* The weights alone as an object for o's target (--weights obj): a constant
** global per weight i with names[i] != NULL, named names[i]. */
sm2c_status sm2c_emit_llvm_weights(sm2c_ctx *c, const sm2c_program *p, const sm2c_llvm_opts *o,
                                   const char *const *names, const char *path);

#endif
