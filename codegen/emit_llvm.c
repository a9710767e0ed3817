/*
** emit_llvm.c: the LLVM backend, program -> one LLVM module -> .ll, .bc or .o.
**
** Mirrors emit_c.c symbol for symbol: the entry points <name>_<c_name>
** (inputs, then outputs, all pointers; return i32 0), the metadata table
** <name>_signatures with the C structs' layout on the target, and
** <name>_n_signatures are the only external definitions; weights (their exact
** bytes), the arena (zero, 64-byte aligned), int arrays, strings, dims arrays
** and the `run` wrappers are private.  Steps call the runtime's sm2c_rt_*
** kernels, declared from the argument kinds (BUF/NULL/INTS pointer, INT i32,
** FLOAT float).  Everything is built in a private LLVMContext and disposed on
** every path; LLVM reports errors as messages, never aborts (style.md B6).
** Optimisation and code generation run in a forked child (in-process when
** fork fails), because LLVM ends the process (report_fatal_error) on some
** target choices it cannot honour, e.g. --cpu i386 for an x86_64 triple.
*/
#define _GNU_SOURCE
#include "emit_llvm.h"

#include "program_check.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassManagerBuilder.h>

#include "mangle.h"
#include "sm2c_rt.h"

#define ALIGN 64            /* weights and the arena (docs/reliability.md rule 1) */

/* ---- dtypes the backend can express (the C backend's list) --------------------- */

static int elem_size(int dtype)
{
    switch (sm2c_dtype_base(dtype)) {
    case SM2C_DT_FLOAT: case SM2C_DT_INT32: case SM2C_DT_UINT32:
        return 4;
    case SM2C_DT_DOUBLE: case SM2C_DT_INT64: case SM2C_DT_UINT64:
    case SM2C_DT_COMPLEX64:     /* float pairs (re, im) */
        return 8;
    case SM2C_DT_UINT8: case SM2C_DT_INT8: case SM2C_DT_BOOL:
        return 1;
    case SM2C_DT_INT16: case SM2C_DT_UINT16: case SM2C_DT_HALF: case SM2C_DT_BFLOAT16:
        return 2;
    case SM2C_DT_STRING:    /* entry inputs: sm2c_string, as the header declares it */
        return SM2C_STRING_ELEM_SIZE;
    default:
        return 0;
    }
}

/* ---- the builder state ------------------------------------------------------------ */

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
    unsigned signext, nounwind;             /* attribute kinds */
    LLVMValueRef *weights;                  /* per weight: its global, NULL when unused */
    LLVMValueRef arena;                     /* NULL when no step uses it */
    ints_global *ints;
    size_t n_ints, cap_ints;
    LLVMValueRef *entries;                  /* per entry: its function */
    /* Stateful programs (p->n_states > 0): entries are built as <fn>_r(state,
    ** workspace, ...) and <fn> calls it on the default state and the arena. */
    LLVMTypeRef state_ty;                   /* struct.<name>_state: emit_c.c's layout */
    LLVMValueRef default_state, state_ready, init, reset;
} lw;

SM2C_PRINTF(2, 3)
static sm2c_status bug(lw *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sm2c_status st = sm2c_verror(w->c->diag, SM2C_ERR_INTERNAL, w->p->name, "emit llvm", fmt, ap);
    va_end(ap);
    return st;
}

/* The first line of an LLVM message, in the arena. */
static const char *first_line(sm2c_ctx *c, const char *msg)
{
    if (!msg)
        return "(no message)";
    while (*msg == '\n' || *msg == ' ')
        msg++;
    size_t n = strcspn(msg, "\r\n");
    return n ? sm2c_arena_strndup(c->arena, msg, n) : "(no message)";
}

/* ---- globals ------------------------------------------------------------------------ */

static LLVMValueRef private_const(lw *w, LLVMValueRef init, const char *name, unsigned align)
{
    LLVMValueRef g = LLVMAddGlobal(w->m, LLVMTypeOf(init), name);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    if (align)
        LLVMSetAlignment(g, align);
    return g;
}

/* &g[0][off] as `elem`* (a constant). */
static LLVMValueRef gep0(lw *w, LLVMValueRef g, int64_t off)
{
    LLVMValueRef idx[2] = { LLVMConstInt(w->i64, 0, 0), LLVMConstInt(w->i64, (uint64_t)off, 0) };
    return LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(g), g, idx, 2);
}

static int used_weight(const sm2c_program *p, int32_t wi)
{
    for (int32_t i = 0; i < p->n_states; i++)
        if (p->states[i].init_weight == wi)
            return 1;
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        for (int32_t s = 0; s < en->n_steps; s++)
            for (int32_t a = 0; a < en->steps[s].n_args; a++) {
                const sm2c_arg *ar = &en->steps[s].args[a];
                if (ar->kind == SM2C_ARG_BUF && en->buffers[ar->buf].kind == SM2C_BUF_WEIGHT &&
                    en->buffers[ar->buf].index == wi)
                    return 1;
            }
    }
    return 0;
}

static int uses_arena(const sm2c_program *p)
{
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        for (int32_t s = 0; s < en->n_steps; s++)
            for (int32_t a = 0; a < en->steps[s].n_args; a++) {
                const sm2c_arg *ar = &en->steps[s].args[a];
                if (ar->kind == SM2C_ARG_BUF && en->buffers[ar->buf].kind == SM2C_BUF_ARENA)
                    return 1;
            }
    }
    return 0;
}

/* Weights hold their exact bytes: the tensor data is little-endian, so on a
** big-endian target each element is byte-swapped (as the C backend's typed
** initialisers would store it). */
static void add_weights(lw *w)
{
    const sm2c_program *p = w->p;
    for (int32_t i = 0; i < p->n_weights; i++) {
        if (!used_weight(p, i))
            continue;
        const sm2c_tensor *v = &p->weights[i].value;
        size_t n = v->nbytes;
        /* complex64 swaps as its two floats */
        int size = sm2c_dtype_base(v->dtype) == SM2C_DT_COMPLEX64 ? 4 : elem_size(v->dtype);
        char one = 0;
        char *swapped = NULL;
        const char *bytes = n ? (const char *)v->data : &one;
        if (w->big_endian && size > 1 && n) {
            swapped = malloc(n);
            SM2C_ASSERT(swapped != NULL);
            for (size_t e = 0; e < n; e += (size_t)size)
                for (int j = 0; j < size; j++)
                    swapped[e + (size_t)j] = bytes[e + (size_t)(size - 1 - j)];
            bytes = swapped;
        }
        LLVMValueRef init = LLVMConstStringInContext(w->ctx, bytes, (unsigned)(n ? n : 1), 1);
        free(swapped);
        w->weights[i] = private_const(w, init, sm2c_arena_printf(w->c->arena, "%s.w%d",
                                                                  p->name, i), ALIGN);
    }
    if (!w->weights_only && (uses_arena(p) || p->n_states)) {
        int64_t nb = p->arena_bytes > 0 ? p->arena_bytes : 1;
        LLVMTypeRef t = LLVMArrayType(w->i8, (unsigned)nb);
        w->arena = LLVMAddGlobal(w->m, t, sm2c_arena_printf(w->c->arena, "%s.arena", p->name));
        LLVMSetInitializer(w->arena, LLVMConstNull(t));
        LLVMSetLinkage(w->arena, LLVMInternalLinkage);
        LLVMSetAlignment(w->arena, ALIGN);
    }
}

/* A constant int32 array, one global per distinct contents; as i8*. */
static LLVMValueRef ints_value(lw *w, const sm2c_arg *ar)
{
    for (size_t i = 0; i < w->n_ints; i++)
        if (w->ints[i].n == ar->n &&
            (ar->n == 0 || memcmp(w->ints[i].v, ar->ints, (size_t)ar->n * 4) == 0))
            return LLVMConstBitCast(w->ints[i].g, w->ptr);
    if (w->n_ints == w->cap_ints) {
        w->cap_ints = w->cap_ints ? w->cap_ints * 2 : 16;
        w->ints = realloc(w->ints, w->cap_ints * sizeof *w->ints);
        SM2C_ASSERT(w->ints != NULL);
    }
    int32_t n = ar->n > 0 ? ar->n : 1;
    LLVMValueRef *vals = malloc((size_t)n * sizeof *vals);
    SM2C_ASSERT(vals != NULL);
    for (int32_t j = 0; j < n; j++)
        vals[j] = LLVMConstInt(w->i32, ar->n ? (uint64_t)(int64_t)ar->ints[j] : 0, 1);
    LLVMValueRef init = LLVMConstArray(w->i32, vals, (unsigned)n);
    free(vals);
    ints_global *k = &w->ints[w->n_ints];
    k->n = ar->n;
    k->v = ar->ints;
    k->g = private_const(w, init, sm2c_arena_printf(w->c->arena, "%s.k%zu", w->p->name, w->n_ints),
                         0);
    w->n_ints++;
    return LLVMConstBitCast(k->g, w->ptr);
}

/* A float exactly: finite values through LLVMConstReal (a double holds every
** float), NaN and Inf from their bits. */
static LLVMValueRef float_value(lw *w, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    if ((bits & 0x7f800000u) != 0x7f800000u)
        return LLVMConstReal(w->f32, (double)f);
    return LLVMConstBitCast(LLVMConstInt(w->i32, bits, 0), w->f32);
}

/* ---- functions -------------------------------------------------------------------- */

static void fn_attr(lw *w, LLVMValueRef fn, LLVMAttributeIndex idx, unsigned kind)
{
    LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(w->ctx, kind, 0));
}

/* i32 parameters and results carry `signext`, as C compilers mark int on the
** targets whose ABI wants it (a no-op elsewhere). */
static LLVMValueRef declare_kernel(lw *w, const sm2c_entry *en, const sm2c_step *sp,
                                   LLVMTypeRef *fty, sm2c_status *st)
{
    LLVMTypeRef *params = malloc(((size_t)sp->n_args + 1) * sizeof *params);
    SM2C_ASSERT(params != NULL);
    for (int32_t a = 0; a < sp->n_args; a++) {
        sm2c_argkind k = sp->args[a].kind;
        params[a] = k == SM2C_ARG_INT ? w->i32 : k == SM2C_ARG_FLOAT ? w->f32 : w->ptr;
    }
    LLVMTypeRef ret = sp->checked ? w->i32 : LLVMVoidTypeInContext(w->ctx);
    LLVMTypeRef t = LLVMFunctionType(ret, params, (unsigned)sp->n_args, 0);
    free(params);
    LLVMValueRef fn = LLVMGetNamedFunction(w->m, sp->kernel);
    if (fn) {
        if (LLVMGlobalGetValueType(fn) != t) {
            *st = bug(w, "entry %s: kernel %s is called with different argument kinds or counts",
                      en->key, sp->kernel);
            return NULL;
        }
    } else {
        fn = LLVMAddFunction(w->m, sp->kernel, t);
        LLVMSetLinkage(fn, LLVMExternalLinkage);
        fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
        for (int32_t a = 0; a < sp->n_args; a++)
            if (sp->args[a].kind == SM2C_ARG_INT)
                fn_attr(w, fn, (LLVMAttributeIndex)a + 1, w->signext);
        if (sp->checked)
            fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
    }
    *fty = t;
    return fn;
}

/* Member k of the state that pointer `state` points to, as i8*. */
static LLVMValueRef state_member(lw *w, LLVMValueRef state, int32_t k)
{
    LLVMValueRef typed = LLVMBuildBitCast(w->b, state, LLVMPointerType(w->state_ty, 0), "");
    LLVMValueRef m = LLVMBuildStructGEP2(w->b, w->state_ty, typed, (unsigned)k, "");
    return LLVMBuildBitCast(w->b, m, w->ptr, "");
}

static LLVMValueRef buffer_value(lw *w, LLVMValueRef fn, const sm2c_entry *en, int32_t id)
{
    const sm2c_buffer *b = &en->buffers[id];
    unsigned first = w->state_ty ? 2 : 0;  /* _r: state, workspace, then the arguments */
    switch (b->kind) {
    case SM2C_BUF_INPUT:
        return LLVMGetParam(fn, first + (unsigned)b->index);
    case SM2C_BUF_OUTPUT:
        return LLVMGetParam(fn, first + (unsigned)(en->n_inputs + b->index));
    case SM2C_BUF_ARENA:
        if (w->state_ty) {
            LLVMValueRef off = LLVMConstInt(w->i64, (uint64_t)b->offset, 0);
            return LLVMBuildInBoundsGEP2(w->b, w->i8, LLVMGetParam(fn, 1), &off, 1, "");
        }
        return gep0(w, w->arena, b->offset);
    case SM2C_BUF_STATE:
        return state_member(w, LLVMGetParam(fn, 0), b->index);
    default:    /* SM2C_BUF_WEIGHT; validated */
        return gep0(w, w->weights[b->index], 0);
    }
}

/* After a checked kernel: `if (status != 0) return status;` */
static void return_on_error(lw *w, LLVMValueRef fn, LLVMValueRef status)
{
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(w->ctx, fn, "fail");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(w->ctx, fn, "next");
    LLVMValueRef bad = LLVMBuildICmp(w->b, LLVMIntNE, status, LLVMConstInt(w->i32, 0, 0), "bad");
    LLVMBuildCondBr(w->b, bad, fail, next);
    LLVMPositionBuilderAtEnd(w->b, fail);
    LLVMBuildRet(w->b, status);
    LLVMPositionBuilderAtEnd(w->b, next);
}

/* --max-batch: the entry point, emit_c.c's emit_batch_loop in IR:
**   if (batch < 1 || batch > MAX) return -3;
**   for (row = 0; row < batch; row++) { status = row_fn(args at row); if (status) return status; }
**   return 0;
** It replaces the one-row function `row_fn` as entry k's function. */
static void build_batch_loop(lw *w, int32_t k, LLVMValueRef row_fn)
{
    const sm2c_entry *en = &w->p->entries[k];
    int32_t np = en->n_inputs + en->n_outputs;
    LLVMTypeRef *params = malloc(((size_t)np + 1) * sizeof *params);
    LLVMValueRef *args = malloc(((size_t)np + 1) * sizeof *args);
    SM2C_ASSERT(params && args);
    params[0] = w->i32;
    for (int32_t i = 0; i < np; i++)
        params[i + 1] = w->ptr;
    LLVMValueRef fn = LLVMAddFunction(w->m, sm2c_arena_printf(w->c->arena, "%s_%s", w->p->name, en->c_name),
                                      LLVMFunctionType(w->i32, params, (unsigned)np + 1, 0));
    free(params);
    w->entries[k] = fn;
    LLVMSetLinkage(fn, LLVMExternalLinkage);
    fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
    fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
    fn_attr(w, fn, 1, w->signext);
    LLVMValueRef batch = LLVMGetParam(fn, 0);
    LLVMSetValueName2(batch, "batch", 5);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(w->ctx, fn, "entry");
    LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(w->ctx, fn, "bad_batch");
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(w->ctx, fn, "row");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(w->ctx, fn, "done");
    LLVMPositionBuilderAtEnd(w->b, entry);
    LLVMValueRef lo = LLVMBuildICmp(w->b, LLVMIntSLT, batch, LLVMConstInt(w->i32, 1, 0), "");
    LLVMValueRef hi = LLVMBuildICmp(w->b, LLVMIntSGT, batch, LLVMConstInt(w->i32, (uint64_t)en->max_batch, 0), "");
    LLVMBuildCondBr(w->b, LLVMBuildOr(w->b, lo, hi, ""), bad, loop);
    LLVMPositionBuilderAtEnd(w->b, bad);
    LLVMBuildRet(w->b, LLVMConstInt(w->i32, (uint64_t)(int64_t)SM2C_RT_ERR_BATCH, 1));
    LLVMPositionBuilderAtEnd(w->b, loop);
    LLVMValueRef row = LLVMBuildPhi(w->b, w->i32, "row");
    LLVMValueRef row64 = LLVMBuildZExt(w->b, row, w->i64, "");
    for (int32_t i = 0; i < np; i++) {
        const sm2c_port *pt = i < en->n_inputs ? &en->inputs[i] : &en->outputs[i - en->n_inputs];
        args[i] = LLVMGetParam(fn, (unsigned)i + 1);
        LLVMSetValueName2(args[i], pt->key, strlen(pt->key));
        if (!pt->batched)
            continue;
        int64_t row_bytes = sm2c_shape_elements(&pt->shape, INT64_MAX / 8) / en->max_batch *
                            elem_size(pt->dtype);
        LLVMValueRef off = LLVMBuildMul(w->b, row64, LLVMConstInt(w->i64, (uint64_t)row_bytes, 0), "");
        args[i] = LLVMBuildInBoundsGEP2(w->b, w->i8, args[i], &off, 1, "");
    }
    LLVMValueRef status = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(row_fn), row_fn, args, (unsigned)np, "");
    free(args);
    return_on_error(w, fn, status);
    LLVMValueRef next = LLVMBuildAdd(w->b, row, LLVMConstInt(w->i32, 1, 0), "");
    LLVMValueRef in_vals[2] = { LLVMConstInt(w->i32, 0, 0), next };
    LLVMBasicBlockRef in_blocks[2] = { entry, LLVMGetInsertBlock(w->b) };
    LLVMAddIncoming(row, in_vals, in_blocks, 2);
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, next, batch, ""), loop, done);
    LLVMPositionBuilderAtEnd(w->b, done);
    LLVMBuildRet(w->b, LLVMConstInt(w->i32, 0, 0));
}

/* Open control constructs while an entry is built: for an IF, the else and
** merge blocks; for a LOOP, the head and exit blocks. */
typedef struct ctl_stack {
    LLVMBasicBlockRef a[SM2C_CTL_MAX_DEPTH], b[SM2C_CTL_MAX_DEPTH];
    int32_t depth;
} ctl_stack;

/* The scalar in buffer `buf` (an i8 bool or an i32), widened to i32. */
static LLVMValueRef load_scalar(lw *w, LLVMValueRef fn, const sm2c_entry *en, int32_t buf)
{
    LLVMTypeRef t = en->buffers[buf].dtype == SM2C_DT_BOOL ? w->i8 : w->i32;
    LLVMValueRef p = LLVMBuildBitCast(w->b, buffer_value(w, fn, en, buf), LLVMPointerType(t, 0), "");
    LLVMValueRef v = LLVMBuildLoad2(w->b, t, p, "");
    return t == w->i32 ? v : LLVMBuildZExt(w->b, v, w->i32, "");
}

static void store_counter(lw *w, LLVMValueRef fn, const sm2c_entry *en, int32_t buf, LLVMValueRef v)
{
    LLVMValueRef p = LLVMBuildBitCast(w->b, buffer_value(w, fn, en, buf), LLVMPointerType(w->i32, 0), "");
    LLVMBuildStore(w->b, v, p);
}

/* The same structure emit_c.c prints: if/else and for (;;) as basic blocks. */
static sm2c_status build_control(lw *w, LLVMValueRef fn, const sm2c_entry *en, const sm2c_step *sp,
                                 ctl_stack *cs)
{
    LLVMBasicBlockRef then_bb, next;
    LLVMValueRef c;
    int32_t d = cs->depth;
    if ((sp->control == SM2C_CTL_IF || sp->control == SM2C_CTL_LOOP) ? d >= SM2C_CTL_MAX_DEPTH : d <= 0)
        return bug(w, "entry %s: control steps nest badly", en->key);
    switch (sp->control) {
    case SM2C_CTL_IF:
        c = load_scalar(w, fn, en, sp->args[0].buf);
        c = LLVMBuildICmp(w->b, sp->imm < 0 ? LLVMIntNE : LLVMIntEQ, c,
                          LLVMConstInt(w->i32, sp->imm < 0 ? 0 : (uint64_t)sp->imm, 1), "cond");
        then_bb = LLVMAppendBasicBlockInContext(w->ctx, fn, "then");
        cs->a[d] = LLVMAppendBasicBlockInContext(w->ctx, fn, "else");
        cs->b[d] = LLVMAppendBasicBlockInContext(w->ctx, fn, "endif");
        cs->depth++;
        LLVMBuildCondBr(w->b, c, then_bb, cs->a[d]);
        LLVMPositionBuilderAtEnd(w->b, then_bb);
        break;
    case SM2C_CTL_ELSE:
        LLVMBuildBr(w->b, cs->b[d - 1]);
        LLVMPositionBuilderAtEnd(w->b, cs->a[d - 1]);
        break;
    case SM2C_CTL_END_IF:
    case SM2C_CTL_END_LOOP:
        LLVMBuildBr(w->b, sp->control == SM2C_CTL_END_LOOP ? cs->a[d - 1] : cs->b[d - 1]);
        LLVMPositionBuilderAtEnd(w->b, cs->b[d - 1]);
        cs->depth--;
        break;
    case SM2C_CTL_LOOP:
        store_counter(w, fn, en, sp->args[0].buf, LLVMConstInt(w->i32, 0, 0));
        cs->a[d] = LLVMAppendBasicBlockInContext(w->ctx, fn, "loop");
        cs->b[d] = LLVMAppendBasicBlockInContext(w->ctx, fn, "endloop");
        cs->depth++;
        LLVMBuildBr(w->b, cs->a[d]);
        LLVMPositionBuilderAtEnd(w->b, cs->a[d]);
        break;
    case SM2C_CTL_BREAK_UNLESS: {
        c = LLVMBuildICmp(w->b, LLVMIntNE, load_scalar(w, fn, en, sp->args[0].buf), LLVMConstInt(w->i32, 0, 0),
                          "go");
        next = LLVMAppendBasicBlockInContext(w->ctx, fn, "body");
        LLVMBuildCondBr(w->b, c, next, cs->b[d - 1]);
        LLVMPositionBuilderAtEnd(w->b, next);
        LLVMValueRef n = load_scalar(w, fn, en, sp->args[1].buf);
        LLVMValueRef over = LLVMBuildICmp(w->b, LLVMIntSGE, n, LLVMConstInt(w->i32, (uint64_t)sp->imm, 1), "cap");
        LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(w->ctx, fn, "cap_reached");
        next = LLVMAppendBasicBlockInContext(w->ctx, fn, "run");
        LLVMBuildCondBr(w->b, over, fail, next);
        LLVMPositionBuilderAtEnd(w->b, fail);
        LLVMBuildRet(w->b, LLVMConstInt(w->i32, (uint64_t)(int64_t)SM2C_RT_ERR_ITERATIONS, 1));
        LLVMPositionBuilderAtEnd(w->b, next);
        store_counter(w, fn, en, sp->args[1].buf, LLVMBuildAdd(w->b, n, LLVMConstInt(w->i32, 1, 0), ""));
        break;
    }
    default:
        return bug(w, "entry %s: control step kind %d", en->key, (int)sp->control);
    }
    return SM2C_OK;
}

static sm2c_status build_entry(lw *w, int32_t k)
{
    const sm2c_program *p = w->p;
    const sm2c_entry *en = &p->entries[k];
    int32_t first = w->state_ty ? 2 : 0;
    int32_t np = first + en->n_inputs + en->n_outputs;
    LLVMTypeRef *params = malloc(((size_t)np + 1) * sizeof *params);
    SM2C_ASSERT(params != NULL);
    for (int32_t i = 0; i < np; i++)
        params[i] = w->ptr;
    LLVMTypeRef t = LLVMFunctionType(w->i32, params, (unsigned)np, 0);
    free(params);
    /* A batched entry is its one-row function (--max-batch programs have no state). */
    const char *fn_name = en->max_batch ? sm2c_arena_printf(w->c->arena, "%s.row%d", p->name, k)
                                        : sm2c_arena_printf(w->c->arena, "%s_%s%s", p->name, en->c_name,
                                                            first ? "_r" : "");
    LLVMValueRef fn = LLVMAddFunction(w->m, fn_name, t);
    w->entries[k] = fn;
    LLVMSetLinkage(fn, en->max_batch ? LLVMInternalLinkage : LLVMExternalLinkage);
    fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
    fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
    for (int32_t i = 0; i < np; i++) {
        const char *key = i < first ? (i ? "workspace" : "state")
                          : i - first < en->n_inputs ? en->inputs[i - first].key
                                                     : en->outputs[i - first - en->n_inputs].key;
        LLVMSetValueName2(LLVMGetParam(fn, (unsigned)i), key, strlen(key));
    }
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, fn, "entry"));
    LLVMValueRef args_small[16];
    ctl_stack cs = { .depth = 0 };
    for (int32_t s = 0; s < en->n_steps; s++) {
        const sm2c_step *sp = &en->steps[s];
        sm2c_status st = SM2C_OK;
        if (sp->control) {
            if ((st = build_control(w, fn, en, sp, &cs)))
                return st;
            continue;
        }
        LLVMTypeRef fty;
        LLVMValueRef callee = declare_kernel(w, en, sp, &fty, &st);
        if (!callee)
            return st;
        LLVMValueRef *args = sp->n_args <= 16 ? args_small
                                              : malloc((size_t)sp->n_args * sizeof *args);
        SM2C_ASSERT(args != NULL);
        for (int32_t a = 0; a < sp->n_args; a++) {
            const sm2c_arg *ar = &sp->args[a];
            switch (ar->kind) {
            case SM2C_ARG_BUF:
                args[a] = buffer_value(w, fn, en, ar->buf);
                break;
            case SM2C_ARG_NULL:
                args[a] = LLVMConstPointerNull(w->ptr);
                break;
            case SM2C_ARG_INT:
                args[a] = LLVMConstInt(w->i32, (uint64_t)ar->i, 1);
                break;
            case SM2C_ARG_FLOAT:
                args[a] = float_value(w, ar->f);
                break;
            default:    /* SM2C_ARG_INTS; validated */
                args[a] = ints_value(w, ar);
                break;
            }
        }
        LLVMValueRef call = LLVMBuildCall2(w->b, fty, callee, args, (unsigned)sp->n_args, "");
        for (int32_t a = 0; a < sp->n_args; a++)
            if (sp->args[a].kind == SM2C_ARG_INT)
                LLVMAddCallSiteAttribute(call, (LLVMAttributeIndex)a + 1,
                                         LLVMCreateEnumAttribute(w->ctx, w->signext, 0));
        if (args != args_small)
            free(args);
        if (sp->checked)
            return_on_error(w, fn, call);
    }
    LLVMBuildRet(w->b, LLVMConstInt(w->i32, 0, 0));
    if (en->max_batch)
        build_batch_loop(w, k, fn);
    return SM2C_OK;
}

/* ---- state ---------------------------------------------------------------------------- */

static LLVMTypeRef elem_type(lw *w, int dtype)
{
    switch (sm2c_dtype_base(dtype)) {
    case SM2C_DT_FLOAT: return w->f32;
    case SM2C_DT_DOUBLE: return LLVMDoubleTypeInContext(w->ctx);
    case SM2C_DT_COMPLEX64: return LLVMArrayType(w->f32, 2);  /* C: two floats */
    default: return LLVMIntTypeInContext(w->ctx, (unsigned)elem_size(dtype) * 8);
    }
}

/* struct.<name>_state { [n x T] member; ... } in emit_c.c's member order (its
** natural layout is the C struct's), the default state and its flag, and
** <name>_init(state) / <name>_reset(). */
static void build_state(lw *w)
{
    const sm2c_program *p = w->p;
    sm2c_arena *a = w->c->arena;
    LLVMTypeRef *fields = malloc((size_t)p->n_states * sizeof *fields);
    SM2C_ASSERT(fields != NULL);
    for (int32_t i = 0; i < p->n_states; i++) {
        int64_t n = sm2c_shape_elements(&p->states[i].shape, INT64_MAX / 8);
        fields[i] = LLVMArrayType(elem_type(w, p->states[i].dtype), (unsigned)(n > 0 ? n : 1));
    }
    w->state_ty = LLVMStructCreateNamed(w->ctx, sm2c_arena_printf(a, "struct.%s_state", p->name));
    LLVMStructSetBody(w->state_ty, fields, (unsigned)p->n_states, 0);
    free(fields);
    w->default_state = LLVMAddGlobal(w->m, w->state_ty, sm2c_arena_printf(a, "%s.default_state", p->name));
    LLVMSetInitializer(w->default_state, LLVMConstNull(w->state_ty));
    LLVMSetLinkage(w->default_state, LLVMInternalLinkage);
    LLVMSetAlignment(w->default_state, ALIGN);
    w->state_ready = LLVMAddGlobal(w->m, w->i8, sm2c_arena_printf(a, "%s.state_ready", p->name));
    LLVMSetInitializer(w->state_ready, LLVMConstInt(w->i8, 0, 0));
    LLVMSetLinkage(w->state_ready, LLVMInternalLinkage);

    LLVMTypeRef copy_params[3] = { w->ptr, w->ptr, w->i32 };
    LLVMTypeRef copy_ty = LLVMFunctionType(LLVMVoidTypeInContext(w->ctx), copy_params, 3, 0);
    LLVMValueRef copy = LLVMGetNamedFunction(w->m, "sm2c_rt_copy");
    if (!copy) {
        copy = LLVMAddFunction(w->m, "sm2c_rt_copy", copy_ty);
        fn_attr(w, copy, LLVMAttributeFunctionIndex, w->nounwind);
        fn_attr(w, copy, 3, w->signext);
    }
    LLVMTypeRef init_ty = LLVMFunctionType(LLVMVoidTypeInContext(w->ctx), &w->ptr, 1, 0);
    w->init = LLVMAddFunction(w->m, sm2c_arena_printf(a, "%s_init", p->name), init_ty);
    fn_attr(w, w->init, LLVMAttributeFunctionIndex, w->nounwind);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, w->init, "entry"));
    for (int32_t i = 0; i < p->n_states; i++) {
        LLVMValueRef args[3] = { state_member(w, LLVMGetParam(w->init, 0), i),
                                 gep0(w, w->weights[p->states[i].init_weight], 0),
                                 LLVMConstInt(w->i32, (uint64_t)p->states[i].nbytes, 0) };
        LLVMValueRef call = LLVMBuildCall2(w->b, copy_ty, copy, args, 3, "");
        LLVMAddCallSiteAttribute(call, 3, LLVMCreateEnumAttribute(w->ctx, w->signext, 0));
    }
    LLVMBuildRetVoid(w->b);

    LLVMTypeRef reset_ty = LLVMFunctionType(LLVMVoidTypeInContext(w->ctx), NULL, 0, 0);
    LLVMValueRef reset = LLVMAddFunction(w->m, sm2c_arena_printf(a, "%s_reset", p->name), reset_ty);
    fn_attr(w, reset, LLVMAttributeFunctionIndex, w->nounwind);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, reset, "entry"));
    LLVMValueRef self = LLVMBuildBitCast(w->b, w->default_state, w->ptr, "");
    LLVMBuildCall2(w->b, init_ty, w->init, &self, 1, "");
    LLVMBuildStore(w->b, LLVMConstInt(w->i8, 1, 0), w->state_ready);
    LLVMBuildRetVoid(w->b);
    w->reset = reset;
}

/* <fn>(args): if the default state is not set yet, reset it; then
** <fn>_r(default state, arena, args).  Replaces w->entries[k]. */
static void build_static_entry(lw *w, int32_t k)
{
    const sm2c_entry *en = &w->p->entries[k];
    LLVMValueRef fn_r = w->entries[k];
    int32_t np = en->n_inputs + en->n_outputs;
    LLVMTypeRef *params = malloc(((size_t)np + 1) * sizeof *params);
    LLVMValueRef *args = malloc(((size_t)np + 2) * sizeof *args);
    SM2C_ASSERT(params && args);
    for (int32_t i = 0; i < np; i++)
        params[i] = w->ptr;
    LLVMTypeRef t = LLVMFunctionType(w->i32, params, (unsigned)np, 0);
    LLVMValueRef fn = LLVMAddFunction(w->m, sm2c_arena_printf(w->c->arena, "%s_%s", w->p->name, en->c_name), t);
    fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
    fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(w->ctx, fn, "entry");
    LLVMBasicBlockRef set = LLVMAppendBasicBlockInContext(w->ctx, fn, "set");
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(w->ctx, fn, "call");
    LLVMPositionBuilderAtEnd(w->b, entry);
    LLVMValueRef ready = LLVMBuildLoad2(w->b, w->i8, w->state_ready, "ready");
    LLVMBuildCondBr(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, ready, LLVMConstInt(w->i8, 0, 0), ""), set, call);
    LLVMPositionBuilderAtEnd(w->b, set);
    LLVMBuildCall2(w->b, LLVMGlobalGetValueType(w->reset), w->reset, NULL, 0, "");
    LLVMBuildBr(w->b, call);
    LLVMPositionBuilderAtEnd(w->b, call);
    args[0] = LLVMBuildBitCast(w->b, w->default_state, w->ptr, "");
    args[1] = gep0(w, w->arena, 0);
    for (int32_t i = 0; i < np; i++)
        args[2 + i] = LLVMGetParam(fn, (unsigned)i);
    LLVMValueRef r = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(fn_r), fn_r, args, (unsigned)np + 2, "");
    LLVMBuildRet(w->b, r);
    free(params);
    free(args);
    w->entries[k] = fn;
}

/* ---- the metadata table ------------------------------------------------------------- */

static LLVMValueRef cstring(lw *w, const char *s, const char *name)
{
    LLVMValueRef init = LLVMConstStringInContext(w->ctx, s, (unsigned)strlen(s), 0);
    return gep0(w, private_const(w, init, name, 1), 0);
}

/* A shape's dims as a private int64 array (`name`), or a null pointer for a scalar. */
static LLVMValueRef dims_const(lw *w, const sm2c_shape *shape, const char *name)
{
    if (shape->rank <= 0)
        return LLVMConstPointerNull(LLVMPointerType(w->i64, 0));
    LLVMValueRef *d = malloc((size_t)shape->rank * sizeof *d);
    SM2C_ASSERT(d != NULL);
    for (int32_t j = 0; j < shape->rank; j++)
        d[j] = LLVMConstInt(w->i64, (uint64_t)shape->dims[j], 1);
    LLVMValueRef g = private_const(w, LLVMConstArray(w->i64, d, (unsigned)shape->rank), name, 0);
    free(d);
    return gep0(w, g, 0);
}

static int64_t port_bytes(const sm2c_port *pt)
{
    return sm2c_shape_elements(&pt->shape, INT64_MAX / 8) * elem_size(pt->dtype);
}

/* static int32_t runK(void *const *inputs, void *const *outputs) { return fn(inputs[0], ...); }
** A batched entry (--max-batch) is called with max_batch rows, or with `batched`
** this is its run_batch: runbK(int32_t batch, inputs, outputs) passes the batch on. */
static LLVMValueRef build_run(lw *w, int32_t k, LLVMTypeRef run_ty, int batched)
{
    const sm2c_entry *en = &w->p->entries[k];
    LLVMValueRef fn = LLVMAddFunction(w->m, sm2c_arena_printf(w->c->arena, batched ? "%s.runb%d" : "%s.run%d",
                                                              w->p->name, k), run_ty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
    fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
    if (batched) {
        fn_attr(w, fn, 1, w->signext);
        LLVMSetValueName2(LLVMGetParam(fn, 0), "batch", 5);
    }
    LLVMValueRef in = LLVMGetParam(fn, batched ? 1 : 0), out = LLVMGetParam(fn, batched ? 2 : 1);
    LLVMSetValueName2(in, "inputs", 6);
    LLVMSetValueName2(out, "outputs", 7);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, fn, "entry"));
    int32_t np = en->n_inputs + en->n_outputs, nb = en->max_batch ? 1 : 0;
    LLVMValueRef *args = malloc(((size_t)np + 2) * sizeof *args);
    SM2C_ASSERT(args != NULL);
    if (nb)
        args[0] = batched ? LLVMGetParam(fn, 0) : LLVMConstInt(w->i32, (uint64_t)en->max_batch, 0);
    for (int32_t i = 0; i < np; i++) {
        int is_in = i < en->n_inputs;
        LLVMValueRef idx = LLVMConstInt(w->i64, (uint64_t)(is_in ? i : i - en->n_inputs), 0);
        LLVMValueRef slot = LLVMBuildInBoundsGEP2(w->b, w->ptr, is_in ? in : out, &idx, 1, "");
        args[i + nb] = LLVMBuildLoad2(w->b, w->ptr, slot, "");
    }
    LLVMValueRef entry = w->entries[k];
    LLVMValueRef r = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(entry), entry, args,
                                    (unsigned)(np + nb), "");
    if (nb)
        LLVMAddCallSiteAttribute(r, 1, LLVMCreateEnumAttribute(w->ctx, w->signext, 0));
    free(args);
    LLVMBuildRet(w->b, r);
    return fn;
}

/* --max-batch: entry k's per-argument batched flags (an i32 array), or null. */
static LLVMValueRef batched_flags(lw *w, int32_t k, int out)
{
    const sm2c_entry *en = &w->p->entries[k];
    int32_t n = out ? en->n_outputs : en->n_inputs;
    LLVMTypeRef i32p = LLVMPointerType(w->i32, 0);
    if (n == 0)
        return LLVMConstPointerNull(i32p);
    LLVMValueRef *v = malloc((size_t)n * sizeof *v);
    SM2C_ASSERT(v != NULL);
    for (int32_t i = 0; i < n; i++)
        v[i] = LLVMConstInt(w->i32, (uint64_t)(out ? en->outputs : en->inputs)[i].batched, 0);
    LLVMValueRef g = private_const(w, LLVMConstArray(w->i32, v, (unsigned)n),
                                   sm2c_arena_printf(w->c->arena, "%s.b%c%d", w->p->name, out ? 'o' : 'i', k), 4);
    free(v);
    return gep0(w, g, 0);
}

/* <name>_batches, parallel to <name>_signatures, when an entry is batched
** (emit_c.c's batch_table). */
static void build_batch_table(lw *w, LLVMValueRef *runbs, LLVMTypeRef runb_ptr)
{
    const sm2c_program *p = w->p;
    int any = 0;
    for (int32_t k = 0; k < p->n_entries; k++)
        any |= p->entries[k].max_batch != 0;
    if (!any)
        return;
    LLVMTypeRef i32p = LLVMPointerType(w->i32, 0);
    LLVMTypeRef bi = LLVMStructCreateNamed(w->ctx, sm2c_arena_printf(w->c->arena, "struct.%s_batch_info", p->name));
    LLVMTypeRef fields[4] = { w->i32, i32p, i32p, runb_ptr };
    LLVMStructSetBody(bi, fields, 4, 0);
    LLVMValueRef *rows = malloc((size_t)p->n_entries * sizeof *rows);
    SM2C_ASSERT(rows != NULL);
    for (int32_t k = 0; k < p->n_entries; k++) {
        int on = p->entries[k].max_batch != 0;
        LLVMValueRef f[4] = {
            LLVMConstInt(w->i32, (uint64_t)p->entries[k].max_batch, 0),
            on ? batched_flags(w, k, 0) : LLVMConstPointerNull(i32p),
            on ? batched_flags(w, k, 1) : LLVMConstPointerNull(i32p),
            on ? runbs[k] : LLVMConstPointerNull(runb_ptr),
        };
        rows[k] = LLVMConstNamedStruct(bi, f, 4);
    }
    LLVMValueRef table = LLVMConstArray(bi, rows, (unsigned)p->n_entries);
    free(rows);
    LLVMValueRef g = LLVMAddGlobal(w->m, LLVMTypeOf(table), sm2c_arena_printf(w->c->arena, "%s_batches", p->name));
    LLVMSetInitializer(g, table);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMExternalLinkage);
}

/* Layouts of emit_c.c's structs:
**   <name>_tensor_info    { const char *key; int32_t dtype, rank; const int64_t *dims;
**                           int64_t size_bytes; int32_t dynamic_dim; float scale;
**                           int32_t zero_point; }
**   <name>_signature_info { const char *key; int32_t n_inputs, n_outputs;
**                           const <name>_tensor_info *inputs, *outputs;
**                           int32_t (*run)(void *const *, void *const *); }
**   <name>_batch_info     { int32_t max_batch; const int32_t *inputs_batched,
**                           *outputs_batched; int32_t (*run_batch)(int32_t, void *const *,
**                           void *const *); }  (only when an entry is batched)
** Natural (unpacked) LLVM structs under the target's data layout lay these
** fields out as the target's C ABI does. */
static void build_metadata(lw *w)
{
    const sm2c_program *p = w->p;
    sm2c_arena *a = w->c->arena;
    LLVMTypeRef ti = LLVMStructCreateNamed(w->ctx, sm2c_arena_printf(a, "struct.%s_tensor_info",
                                                                     p->name));
    LLVMTypeRef ti_fields[8] = { w->ptr, w->i32, w->i32, LLVMPointerType(w->i64, 0), w->i64, w->i32,
                                 w->f32, w->i32 };
    LLVMStructSetBody(ti, ti_fields, 8, 0);
    LLVMTypeRef run_params[3] = { w->i32, LLVMPointerType(w->ptr, 0), LLVMPointerType(w->ptr, 0) };
    LLVMTypeRef run_ty = LLVMFunctionType(w->i32, run_params + 1, 2, 0);
    LLVMTypeRef runb_ty = LLVMFunctionType(w->i32, run_params, 3, 0);
    /* The wrappers first: their pointer type carries the target's program
    ** address space (1 on AVR). */
    LLVMValueRef *runs = malloc((size_t)p->n_entries * sizeof *runs);
    LLVMValueRef *runbs = malloc((size_t)p->n_entries * sizeof *runbs);
    LLVMValueRef *sigs = malloc((size_t)p->n_entries * sizeof *sigs);
    SM2C_ASSERT(runs && runbs && sigs);
    for (int32_t k = 0; k < p->n_entries; k++) {
        runs[k] = build_run(w, k, run_ty, 0);
        runbs[k] = p->entries[k].max_batch ? build_run(w, k, runb_ty, 1) : NULL;
    }
    /* run_batch's pointer type: that of a run_batch function, in the
    ** program address space like `run`. */
    LLVMTypeRef runb_ptr = LLVMPointerType(runb_ty, LLVMGetPointerAddressSpace(LLVMTypeOf(runs[0])));
    LLVMTypeRef si = LLVMStructCreateNamed(w->ctx, sm2c_arena_printf(a, "struct.%s_signature_info",
                                                                     p->name));
    LLVMTypeRef si_fields[6] = { w->ptr, w->i32, w->i32, LLVMPointerType(ti, 0),
                                 LLVMPointerType(ti, 0), LLVMTypeOf(runs[0]) };
    LLVMStructSetBody(si, si_fields, 6, 0);

    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        LLVMValueRef info[2];
        for (int pass = 0; pass < 2; pass++) {
            const sm2c_port *ports = pass ? en->outputs : en->inputs;
            int32_t np = pass ? en->n_outputs : en->n_inputs;
            info[pass] = LLVMConstPointerNull(LLVMPointerType(ti, 0));
            if (!np)
                continue;
            LLVMValueRef *items = malloc((size_t)np * sizeof *items);
            SM2C_ASSERT(items != NULL);
            for (int32_t i = 0; i < np; i++) {
                const sm2c_port *pt = &ports[i];
                LLVMValueRef dims = dims_const(w, &pt->shape, sm2c_arena_printf(a, "%s.d%d_%c%d", p->name, k,
                                                                                  pass ? 'o' : 'i', i));
                LLVMValueRef f[8] = {
                    cstring(w, pt->key, sm2c_arena_printf(a, "%s.key%d_%c%d", p->name, k,
                                                          pass ? 'o' : 'i', i)),
                    LLVMConstInt(w->i32, (uint64_t)sm2c_dtype_base(pt->dtype), 1),
                    LLVMConstInt(w->i32, (uint64_t)pt->shape.rank, 1),
                    dims,
                    LLVMConstInt(w->i64, (uint64_t)port_bytes(pt), 1),
                    LLVMConstInt(w->i32, (uint64_t)(int64_t)(pt->dynamic - 1), 1),
                    LLVMConstReal(w->f32, (double)pt->scale),
                    LLVMConstInt(w->i32, (uint64_t)(int64_t)pt->zero_point, 1),
                };
                items[i] = LLVMConstNamedStruct(ti, f, 8);
            }
            LLVMValueRef g = private_const(w, LLVMConstArray(ti, items, (unsigned)np),
                                           sm2c_arena_printf(a, "%s.%s%d", p->name,
                                                             pass ? "outputs" : "inputs", k), 0);
            free(items);
            info[pass] = gep0(w, g, 0);
        }
        LLVMValueRef f[6] = {
            cstring(w, en->key, sm2c_arena_printf(a, "%s.key%d", p->name, k)),
            LLVMConstInt(w->i32, (uint64_t)en->n_inputs, 1),
            LLVMConstInt(w->i32, (uint64_t)en->n_outputs, 1),
            info[0],
            info[1],
            runs[k],
        };
        sigs[k] = LLVMConstNamedStruct(si, f, 6);
    }
    LLVMValueRef table = LLVMConstArray(si, sigs, (unsigned)p->n_entries);
    free(sigs);
    free(runs);
    build_batch_table(w, runbs, runb_ptr);
    free(runbs);
    LLVMValueRef g = LLVMAddGlobal(w->m, LLVMTypeOf(table),
                                   sm2c_arena_printf(a, "%s_signatures", p->name));
    LLVMSetInitializer(g, table);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMExternalLinkage);
    LLVMValueRef n = LLVMAddGlobal(w->m, w->i32, sm2c_arena_printf(a, "%s_n_signatures", p->name));
    LLVMSetInitializer(n, LLVMConstInt(w->i32, (uint64_t)p->n_entries, 0));
    LLVMSetGlobalConstant(n, 1);
    LLVMSetLinkage(n, LLVMExternalLinkage);
}

/* static int32_t run_rK(void *state, void *workspace, void *const *in, void *const *out) */
static LLVMValueRef build_run_r(lw *w, int32_t k, LLVMTypeRef run_ty)
{
    const sm2c_entry *en = &w->p->entries[k];
    LLVMValueRef fn_r = LLVMGetNamedFunction(w->m, sm2c_arena_printf(w->c->arena, "%s_%s_r", w->p->name,
                                                                     en->c_name));
    LLVMValueRef fn = LLVMAddFunction(w->m, sm2c_arena_printf(w->c->arena, "%s.run_r%d", w->p->name, k), run_ty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
    fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, fn, "entry"));
    int32_t np = en->n_inputs + en->n_outputs;
    LLVMValueRef *args = malloc(((size_t)np + 2) * sizeof *args);
    SM2C_ASSERT(args != NULL);
    args[0] = LLVMGetParam(fn, 0);
    args[1] = LLVMGetParam(fn, 1);
    for (int32_t i = 0; i < np; i++) {
        int is_in = i < en->n_inputs;
        LLVMValueRef idx = LLVMConstInt(w->i64, (uint64_t)(is_in ? i : i - en->n_inputs), 0);
        LLVMValueRef slot = LLVMBuildInBoundsGEP2(w->b, w->ptr, LLVMGetParam(fn, is_in ? 2 : 3), &idx, 1, "");
        args[2 + i] = LLVMBuildLoad2(w->b, w->ptr, slot, "");
    }
    LLVMValueRef r = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(fn_r), fn_r, args, (unsigned)np + 2, "");
    free(args);
    LLVMBuildRet(w->b, r);
    return fn;
}

/* <name>_state_table, laid out as emit_c.c's structs:
**   <name>_variable_info { const char *key; int32_t dtype, rank; const int64_t *dims;
**                          int64_t size_bytes, offset; }
**   <name>_state_info    { int64_t state_size, workspace_size; int32_t n_variables;
**                          const <name>_variable_info *variables; void (*init)(void *);
**                          void (*reset)(void); const int32_t *writes_state;
**                          int32_t (*const *run_r)(void *, void *, void *const *, void *const *); } */
static void build_state_metadata(lw *w)
{
    const sm2c_program *p = w->p;
    sm2c_arena *a = w->c->arena;
    LLVMTypeRef vi = LLVMStructCreateNamed(w->ctx, sm2c_arena_printf(a, "struct.%s_variable_info", p->name));
    LLVMTypeRef vi_fields[6] = { w->ptr, w->i32, w->i32, LLVMPointerType(w->i64, 0), w->i64, w->i64 };
    LLVMStructSetBody(vi, vi_fields, 6, 0);
    LLVMValueRef *items = malloc((size_t)p->n_states * sizeof *items);
    SM2C_ASSERT(items != NULL);
    for (int32_t i = 0; i < p->n_states; i++) {
        const sm2c_state *st = &p->states[i];
        LLVMValueRef dims = dims_const(w, &st->shape, sm2c_arena_printf(a, "%s.sd%d", p->name, i));
        LLVMValueRef f[6] = {
            cstring(w, st->key, sm2c_arena_printf(a, "%s.skey%d", p->name, i)),
            LLVMConstInt(w->i32, (uint64_t)sm2c_dtype_base(st->dtype), 1),
            LLVMConstInt(w->i32, (uint64_t)st->shape.rank, 1),
            dims,
            LLVMConstInt(w->i64, (uint64_t)st->nbytes, 1),
            LLVMConstInt(w->i64, LLVMOffsetOfElement(w->td, w->state_ty, (unsigned)i), 0),
        };
        items[i] = LLVMConstNamedStruct(vi, f, 6);
    }
    LLVMValueRef vars = gep0(w, private_const(w, LLVMConstArray(vi, items, (unsigned)p->n_states),
                                              sm2c_arena_printf(a, "%s.state_variables", p->name), 0), 0);
    free(items);
    LLVMTypeRef run_params[4] = { w->ptr, w->ptr, LLVMPointerType(w->ptr, 0), LLVMPointerType(w->ptr, 0) };
    LLVMTypeRef run_ty = LLVMFunctionType(w->i32, run_params, 4, 0);
    LLVMValueRef *runs = malloc(((size_t)p->n_entries + 1) * sizeof *runs);
    LLVMValueRef *writes = malloc(((size_t)p->n_entries + 1) * sizeof *writes);
    SM2C_ASSERT(runs && writes);
    for (int32_t k = 0; k < p->n_entries; k++) {
        runs[k] = build_run_r(w, k, run_ty);
        writes[k] = LLVMConstInt(w->i32, (uint64_t)p->entries[k].writes_state, 0);
    }
    LLVMValueRef runs_g = gep0(w, private_const(w, LLVMConstArray(LLVMTypeOf(runs[0]), runs, (unsigned)p->n_entries),
                                                sm2c_arena_printf(a, "%s.runs_r", p->name), 0), 0);
    LLVMValueRef writes_g = gep0(w, private_const(w, LLVMConstArray(w->i32, writes, (unsigned)p->n_entries),
                                                  sm2c_arena_printf(a, "%s.writes_state", p->name), 0), 0);
    free(runs);
    free(writes);
    LLVMTypeRef si = LLVMStructCreateNamed(w->ctx, sm2c_arena_printf(a, "struct.%s_state_info", p->name));
    LLVMTypeRef si_fields[8] = { w->i64, w->i64, w->i32, LLVMPointerType(vi, 0), LLVMTypeOf(w->init),
                                 LLVMTypeOf(w->reset), LLVMPointerType(w->i32, 0), LLVMTypeOf(runs_g) };
    LLVMStructSetBody(si, si_fields, 8, 0);
    LLVMValueRef f[8] = {
        LLVMConstInt(w->i64, LLVMABISizeOfType(w->td, w->state_ty), 0),
        LLVMConstInt(w->i64, (uint64_t)p->arena_bytes, 0),
        LLVMConstInt(w->i32, (uint64_t)p->n_states, 0),
        vars, w->init, w->reset, writes_g, runs_g,
    };
    LLVMValueRef g = LLVMAddGlobal(w->m, si, sm2c_arena_printf(a, "%s_state_table", p->name));
    LLVMSetInitializer(g, LLVMConstNamedStruct(si, f, 8));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMExternalLinkage);
}

/* ---- target, optimisation, output ------------------------------------------------- */

static pthread_once_t targets_once = PTHREAD_ONCE_INIT;

static void init_targets(void)
{
    LLVMInitializeAllTargetInfos();
    LLVMInitializeAllTargets();
    LLVMInitializeAllTargetMCs();
    LLVMInitializeAllAsmPrinters();
}

/* -Os and -Oz as clang does: the optsize (and minsize) attribute on every
** function, the size level in the pass pipeline, a lower inlining threshold. */
static void mark_size(LLVMModuleRef m, int size_level)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        const char *names[2] = { "optsize", "minsize" };
        for (int i = 0; i < size_level && i < 2; i++) {
            unsigned kind = LLVMGetEnumAttributeKindForName(names[i], strlen(names[i]));
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateEnumAttribute(ctx, kind, 0));
        }
    }
}

static void optimise(LLVMModuleRef m, LLVMTargetMachineRef tm, int level, int size_level)
{
    LLVMPassManagerBuilderRef pmb = LLVMPassManagerBuilderCreate();
    LLVMPassManagerBuilderSetOptLevel(pmb, (unsigned)level);
    LLVMPassManagerBuilderSetSizeLevel(pmb, (unsigned)size_level);
    if (size_level)
        mark_size(m, size_level);
    if (level >= 2)
        LLVMPassManagerBuilderUseInlinerWithThreshold(pmb, size_level >= 2 ? 25
                                                           : size_level ? 75
                                                           : level >= 3 ? 275 : 225);
    LLVMPassManagerRef fpm = LLVMCreateFunctionPassManagerForModule(m);
    LLVMAddAnalysisPasses(tm, fpm);
    LLVMPassManagerBuilderPopulateFunctionPassManager(pmb, fpm);
    LLVMInitializeFunctionPassManager(fpm);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            LLVMRunFunctionPassManager(fpm, f);
    LLVMFinalizeFunctionPassManager(fpm);
    LLVMDisposePassManager(fpm);
    LLVMPassManagerRef mpm = LLVMCreatePassManager();
    LLVMAddAnalysisPasses(tm, mpm);
    LLVMPassManagerBuilderPopulateModulePassManager(pmb, mpm);
    LLVMRunPassManager(mpm, m);
    LLVMDisposePassManager(mpm);
    LLVMPassManagerBuilderDispose(pmb);
}

static sm2c_status write_file(sm2c_ctx *c, const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot create: %s",
                          strerror(errno));
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int err = n < 0 ? errno : EIO;
            close(fd);
            return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot write: %s",
                              strerror(err));
        }
        data += n;
        len -= (size_t)n;
    }
    if (close(fd) != 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot write: %s",
                          strerror(errno));
    return SM2C_OK;
}

/* Optimise and serialise into a malloc'd buffer; NULL and *err (malloc'd) on
** failure. */
static char *serialise(LLVMModuleRef m, LLVMTargetMachineRef tm, const sm2c_llvm_opts *o,
                       sm2c_llvm_kind kind, size_t *len, char **err)
{
    optimise(m, tm, o->target.opt_level, o->target.size_level);
    char *out = NULL;
    *err = NULL;
    if (kind == SM2C_LLVM_IR) {
        char *text = LLVMPrintModuleToString(m);
        *len = strlen(text);
        out = malloc(*len + 1);
        SM2C_ASSERT(out != NULL);
        memcpy(out, text, *len + 1);
        LLVMDisposeMessage(text);
        return out;
    }
    LLVMMemoryBufferRef buf = NULL;
    if (kind == SM2C_LLVM_BC) {
        buf = LLVMWriteBitcodeToMemoryBuffer(m);
        if (!buf) {
            *err = strdup("LLVM could not write bitcode");
            return NULL;
        }
    } else {
        char *msg = NULL;
        if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &msg, &buf)) {
            *err = strdup(msg ? msg : "");
            LLVMDisposeMessage(msg);
            return NULL;
        }
        LLVMDisposeMessage(msg);
    }
    *len = LLVMGetBufferSize(buf);
    out = malloc(*len + 1);
    SM2C_ASSERT(out != NULL);
    memcpy(out, LLVMGetBufferStart(buf), *len);
    LLVMDisposeMemoryBuffer(buf);
    return out;
}

static int write_fd(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* serialise() in a child process.  LLVM answers some target choices it cannot
** honour (a CPU without 64-bit code for a 64-bit triple, an FPU-less CPU with
** a hard-float ABI) with report_fatal_error, which ends the process; in a child
** that becomes an error report.  The child sends 'O' + bytes or 'E' + message
** through a pipe.  Returns -1 when no child could be started. */
static int serialise_in_child(LLVMModuleRef m, LLVMTargetMachineRef tm, const sm2c_llvm_opts *o,
                              sm2c_llvm_kind kind, char **out, size_t *len, char **err,
                              int *crashed)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        size_t n = 0;
        char *e = NULL;
        char *data = serialise(m, tm, o, kind, &n, &e);
        int bad = data ? write_fd(fds[1], "O", 1) || write_fd(fds[1], data, n)
                       : write_fd(fds[1], "E", 1) || write_fd(fds[1], e, strlen(e));
        _exit(bad || close(fds[1]) != 0 ? 3 : 0);
    }
    close(fds[1]);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    SM2C_ASSERT(buf != NULL);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            SM2C_ASSERT(buf != NULL);
        }
        ssize_t k = read(fds[0], buf + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        n += (size_t)k;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    *out = NULL;
    *err = NULL;
    *crashed = !WIFEXITED(status) || WEXITSTATUS(status) != 0 || n == 0;
    if (*crashed) {
        free(buf);
        return 0;
    }
    buf[n] = 0;
    if (buf[0] == 'O') {
        memmove(buf, buf + 1, n - 1);
        *len = n - 1;
        *out = buf;
    } else {
        memmove(buf, buf + 1, n);   /* with the NUL */
        *err = buf;
    }
    return 0;
}

/* ELF only: Mach-O and COFF name sections differently (and dead-strip by
** symbol anyway). */
static int is_elf(const char *triple)
{
    static const char *const others[] = { "apple", "darwin", "macos", "ios", "windows", "win32",
                                          "mingw", "cygwin", "uefi" };
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        if (strstr(triple, others[i]))
            return 0;
    return 1;
}

/* Every defined function and global in its own section, as -ffunction-sections
** -fdata-sections would (the LLVM-C API cannot set those target options), so
** --gc-sections drops unused entry points and their weights. */
static void own_sections(lw *w)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(w->m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            LLVMSetSection(f, sm2c_arena_printf(w->c->arena, ".text.%s", LLVMGetValueName(f)));
    for (LLVMValueRef g = LLVMGetFirstGlobal(w->m); g; g = LLVMGetNextGlobal(g)) {
        LLVMValueRef init = LLVMGetInitializer(g);
        if (!init)
            continue;
        const char *kind = LLVMIsGlobalConstant(g) ? ".rodata" : LLVMIsNull(init) ? ".bss" : ".data";
        LLVMSetSection(g, sm2c_arena_printf(w->c->arena, "%s.%s", kind, LLVMGetValueName(g)));
    }
}

static sm2c_status optimise_and_write(lw *w, LLVMTargetMachineRef tm, const sm2c_llvm_opts *o,
                                      sm2c_llvm_kind kind, const char *path)
{
    char *data = NULL, *err = NULL;
    size_t len = 0;
    int crashed = 0;
    if (serialise_in_child(w->m, tm, o, kind, &data, &len, &err, &crashed) != 0)
        data = serialise(w->m, tm, o, kind, &len, &err);
    sm2c_status st;
    if (crashed)
        st = sm2c_error(w->c->diag, SM2C_ERR_UNSUPPORTED, NULL, "--target",
                        "LLVM failed to generate code for %s (cpu '%s', features '%s'); "
                        "see its message above", LLVMGetTarget(w->m), o->target.cpu ? o->target.cpu : "",
                        o->target.features ? o->target.features : "");
    else if (!data)
        st = sm2c_error(w->c->diag, SM2C_ERR_UNSUPPORTED, NULL, "--target",
                        "LLVM cannot emit this for %s: %s", LLVMGetTarget(w->m),
                        first_line(w->c, err));
    else
        st = write_file(w->c, path, data, len);
    free(data);
    free(err);
    return st;
}

/* Triple -> target machine; NULL after reporting. */
static LLVMTargetMachineRef target_machine(sm2c_ctx *c, const sm2c_llvm_opts *o, const char *path,
                                           char **triple_out)
{
    pthread_once(&targets_once, init_targets);
    char *triple = o->target.triple && *o->target.triple ? LLVMNormalizeTargetTriple(o->target.triple)
                                           : LLVMGetDefaultTargetTriple();
    LLVMTargetRef target = NULL;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &msg) || !target) {
        /* A configuration error, not a file one: the output path is a private temporary. */
        sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, "--target", "unknown target triple '%s': %s",
                   o->target.triple && *o->target.triple ? o->target.triple : triple, first_line(c, msg));
        LLVMDisposeMessage(msg);
        LLVMDisposeMessage(triple);
        return NULL;
    }
    LLVMDisposeMessage(msg);
    LLVMCodeGenOptLevel cg = o->target.opt_level <= 0 ? LLVMCodeGenLevelNone
                           : o->target.opt_level == 1 ? LLVMCodeGenLevelLess
                           : o->target.opt_level == 2 ? LLVMCodeGenLevelDefault
                                               : LLVMCodeGenLevelAggressive;
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
        target, triple, o->target.cpu ? o->target.cpu : "", o->target.features ? o->target.features : "", cg,
        o->pic ? LLVMRelocPIC : LLVMRelocDefault, LLVMCodeModelDefault);
    if (!tm) {
        sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, "--target",
                   "LLVM cannot make a target machine for '%s' (cpu '%s', features '%s')", triple,
                   o->target.cpu ? o->target.cpu : "", o->target.features ? o->target.features : "");
        LLVMDisposeMessage(triple);
        return NULL;
    }
    *triple_out = triple;
    return tm;
}

sm2c_status sm2c_emit_llvm(sm2c_ctx *c, const sm2c_program *p, const sm2c_llvm_opts *o,
                           sm2c_llvm_kind kind, const char *path)
{
    static const sm2c_llvm_opts defaults = { .target = { .opt_level = 2 } };
    if (!o)
        o = &defaults;
    if (!path || !*path)
        return sm2c_error(c->diag, SM2C_ERR_USAGE, p->name, "emit llvm", "no output path");
    if (kind != SM2C_LLVM_IR && kind != SM2C_LLVM_BC && kind != SM2C_LLVM_OBJ)
        return sm2c_error(c->diag, SM2C_ERR_INTERNAL, p->name, "emit llvm",
                          "unknown LLVM output kind %d", (int)kind);
    if (o->target.opt_level < 0 || o->target.opt_level > 3)
        return sm2c_error(c->diag, SM2C_ERR_USAGE, p->name, "emit llvm",
                          "optimisation level %d is not 0..3", o->target.opt_level);
    if (o->target.size_level < 0 || o->target.size_level > 2 || (o->target.size_level && o->target.opt_level != 2))
        return sm2c_error(c->diag, SM2C_ERR_USAGE, p->name, "emit llvm",
                          "size level %d at optimisation level %d: want 0, or 1..2 at 2",
                          o->target.size_level, o->target.opt_level);

    lw w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.p = p;
    sm2c_status st = sm2c_program_check(c, p, "LLVM", elem_size);
    if (st)
        return st;
    /* LLVM-C array lengths are unsigned. */
    for (int32_t i = 0; i < p->n_weights; i++)
        if (p->weights[i].value.nbytes > UINT32_MAX)
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, p->name, p->weights[i].name,
                              "a constant of %zu bytes is more than the LLVM backend can emit",
                              p->weights[i].value.nbytes);
    if (p->arena_bytes > UINT32_MAX)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, p->name, NULL,
                          "an arena of %lld bytes is more than the LLVM backend can emit",
                          (long long)p->arena_bytes);

    char *triple = NULL;
    LLVMTargetMachineRef tm = target_machine(c, o, path, &triple);
    if (!tm)
        return SM2C_ERR_USAGE;

    w.ctx = LLVMContextCreate();
    w.m = LLVMModuleCreateWithNameInContext(p->name, w.ctx);
    w.b = LLVMCreateBuilderInContext(w.ctx);
    w.td = LLVMCreateTargetDataLayout(tm);
    LLVMSetTarget(w.m, triple);
    LLVMSetModuleDataLayout(w.m, w.td);
    w.big_endian = LLVMByteOrder(w.td) == LLVMBigEndian;
    w.i8 = LLVMInt8TypeInContext(w.ctx);
    w.i32 = LLVMInt32TypeInContext(w.ctx);
    w.i64 = LLVMInt64TypeInContext(w.ctx);
    w.f32 = LLVMFloatTypeInContext(w.ctx);
    w.ptr = LLVMPointerType(w.i8, 0);
    w.signext = LLVMGetEnumAttributeKindForName("signext", 7);
    w.nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
    w.weights = calloc((size_t)p->n_weights + 1, sizeof *w.weights);
    w.entries = calloc((size_t)p->n_entries + 1, sizeof *w.entries);
    SM2C_ASSERT(w.weights && w.entries);

    add_weights(&w);
    if (p->n_states)
        build_state(&w);
    for (int32_t k = 0; k < p->n_entries && !st; k++) {
        st = build_entry(&w, k);
        if (!st && p->n_states)
            build_static_entry(&w, k);
    }
    if (!st) {
        build_metadata(&w);
        if (p->n_states)
            build_state_metadata(&w);
        char *msg = NULL;
        if (LLVMVerifyModule(w.m, LLVMReturnStatusAction, &msg))
            st = bug(&w, "LLVM rejects the module it was given: %s", first_line(c, msg));
        LLVMDisposeMessage(msg);
    }
    if (!st) {
        if (is_elf(triple))
            own_sections(&w);
        st = optimise_and_write(&w, tm, o, kind, path);
    }

    free(w.ints);
    free(w.weights);
    free(w.entries);
    LLVMDisposeBuilder(w.b);
    LLVMDisposeModule(w.m);
    LLVMDisposeTargetData(w.td);
    LLVMContextDispose(w.ctx);
    LLVMDisposeTargetMachine(tm);
    LLVMDisposeMessage(triple);
    return st;
}

/* --weights obj: a module of the used weights alone, each a constant global
** named names[i] (external linkage, 64-byte aligned, its exact bytes as
** add_weights stores them), written as an object for o's target. */
sm2c_status sm2c_emit_llvm_weights(sm2c_ctx *c, const sm2c_program *p, const sm2c_llvm_opts *o,
                                   const char *const *names, const char *path)
{
    static const sm2c_llvm_opts defaults = { .target = { .opt_level = 2 } };
    if (!o)
        o = &defaults;
    for (int32_t i = 0; i < p->n_weights; i++)
        if (names[i] && p->weights[i].value.nbytes > UINT32_MAX)
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, p->name, p->weights[i].name,
                              "a constant of %zu bytes is more than the LLVM backend can emit",
                              p->weights[i].value.nbytes);
    char *triple = NULL;
    LLVMTargetMachineRef tm = target_machine(c, o, path, &triple);
    if (!tm)
        return SM2C_ERR_USAGE;
    lw w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.p = p;
    w.ctx = LLVMContextCreate();
    w.m = LLVMModuleCreateWithNameInContext(sm2c_arena_printf(c->arena, "%s_weights", p->name), w.ctx);
    w.td = LLVMCreateTargetDataLayout(tm);
    LLVMSetTarget(w.m, triple);
    LLVMSetModuleDataLayout(w.m, w.td);
    w.big_endian = LLVMByteOrder(w.td) == LLVMBigEndian;
    w.i8 = LLVMInt8TypeInContext(w.ctx);
    w.weights = calloc((size_t)p->n_weights + 1, sizeof *w.weights);
    SM2C_ASSERT(w.weights != NULL);
    w.weights_only = 1;
    add_weights(&w);
    for (int32_t i = 0; i < p->n_weights; i++) {
        if (!w.weights[i] || !names[i])
            continue;
        LLVMSetValueName2(w.weights[i], names[i], strlen(names[i]));
        LLVMSetLinkage(w.weights[i], LLVMExternalLinkage);
        LLVMSetUnnamedAddress(w.weights[i], LLVMNoUnnamedAddr);
    }
    sm2c_status st = optimise_and_write(&w, tm, o, SM2C_LLVM_OBJ, path);
    free(w.weights);
    LLVMDisposeModule(w.m);
    LLVMDisposeTargetData(w.td);
    LLVMContextDispose(w.ctx);
    LLVMDisposeTargetMachine(tm);
    LLVMDisposeMessage(triple);
    return st;
}
