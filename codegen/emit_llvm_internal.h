/*
** emit_llvm_internal.h: what the LLVM backend's files share (emit_llvm.c,
** llvm_code.c, llvm_target.c): the builder state and the functions one file
** calls in another.
*/
#ifndef SM2C_EMIT_LLVM_INTERNAL_H
#define SM2C_EMIT_LLVM_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "emit_llvm.h"
#include "lower/program_query.h"

#define ALIGN 64            /* weights and the arena (docs/reliability.md rule 1) */

typedef struct ints_global {
    int32_t n;
    const int32_t *v;
    LLVMValueRef g;
} ints_global;

typedef struct lw {
    sm2c_ctx *c;
    const sm2c_program *p;
    LLVMContextRef ctx;
    LLVMModuleRef m;
    LLVMBuilderRef b;
    LLVMTargetDataRef td;
    LLVMTypeRef i8, i32, i64, f32, ptr;     /* ptr: i8* */
    int big_endian;
    int weights_only;   /* sm2c_emit_llvm_weights: no arena */
    int fast;           /* --fast-arena: _r and the context take a fast workspace too */
    unsigned signext, nounwind;             /* attribute kinds */
    LLVMValueRef *weights;                  /* per weight: its global, NULL when unused */
    LLVMValueRef arena;                     /* NULL when no step uses it */
    LLVMValueRef fast_arena;                /* --fast-arena: the static fast arena, else NULL */
    ints_global *ints;
    size_t n_ints, cap_ints;
    LLVMValueRef *entries;                  /* per entry: its function */
    /* Stateful programs (p->n_states > 0): entries are built as <fn>_r(state,
    ** workspace, ...) and <fn> calls it on the default state and the arena. */
    LLVMTypeRef state_ty;                   /* struct.<name>_state: emit_c.c's layout */
    LLVMValueRef default_state, state_ready, init, reset;
    /* Contexts (every program): struct.<name>_ctx { i8 *workspace; sm2c_rt_par par;
    ** [state] }, its functions, and while a context body is built, the values
    ** its buffers hang off (loaded once in its entry block). */
    LLVMTypeRef par_ty, ctx_ty;
    LLVMValueRef *entries_ctx;              /* per entry: <fn>_ctx */
    LLVMValueRef ctx_init, ctx_reset;
    int ctx_body;
    LLVMValueRef body_ws, body_fws, body_state, body_par;
    unsigned ctx_par, ctx_state;            /* their fields in ctx_ty (after the fast workspace) */
} lw;

/* --fast-arena: where a generic caller's one workspace block holds the fast
** workspace (the workspace's bytes rounded up to 64), and the block's size. */
static inline int64_t sm2c_llvm_fast_split(const sm2c_program *p)
{
    return (p->arena_bytes + 63) / 64 * 64;
}

static inline int64_t sm2c_llvm_generic_workspace(const sm2c_program *p)
{
    return p->placement.fast_arena > 0 ? sm2c_llvm_fast_split(p) + p->fast_arena_bytes : p->arena_bytes;
}

/* emit_llvm.c: the module, its globals and the metadata table */
/* An internal error (SM2C_ERR_INTERNAL) about the module being built. */
sm2c_status sm2c_llvm_bug(lw *w, const char *fmt, ...) SM2C_PRINTF(2, 3);
const char *sm2c_llvm_first_line(sm2c_ctx *c, const char *msg);
LLVMValueRef sm2c_llvm_gep0(lw *w, LLVMValueRef g, int64_t off);
LLVMValueRef sm2c_llvm_ints_value(lw *w, const sm2c_arg *ar);
LLVMValueRef sm2c_llvm_float_value(lw *w, float f);

/* llvm_code.c: kernel calls, entry functions with their control flow, state */
void sm2c_llvm_fn_attr(lw *w, LLVMValueRef fn, LLVMAttributeIndex idx, unsigned kind);
sm2c_status sm2c_llvm_build_entry(lw *w, int32_t k);
void sm2c_llvm_build_state(lw *w);
void sm2c_llvm_build_static_entry(lw *w, int32_t k);
void sm2c_llvm_build_ctx(lw *w);
sm2c_status sm2c_llvm_build_entry_ctx(lw *w, int32_t k);

/* llvm_target.c: the target machine, optimisation and the output file */
int sm2c_llvm_is_elf(const char *triple);
void sm2c_llvm_own_sections(lw *w);
void sm2c_llvm_user_sections(lw *w);
sm2c_status sm2c_llvm_check_sections(sm2c_ctx *c, const sm2c_program *p, const char *triple);
sm2c_status sm2c_llvm_optimise_and_write(lw *w, LLVMTargetMachineRef tm, const sm2c_llvm_opts *o,
                                         sm2c_llvm_kind kind, const char *path);
LLVMTargetMachineRef sm2c_llvm_target_machine(sm2c_ctx *c, const sm2c_llvm_opts *o, const char *path,
                                              char **triple_out);

#endif
