/*
** llvm_code.c: the LLVM backend's code: kernel declarations and calls, each
** entry's function with its control flow and batch loop, and the state.
*/
#define _GNU_SOURCE
#include "emit_llvm_internal.h"

#include <stdlib.h>
#include <string.h>

#include "sm2c_rt.h"

/* ---- functions -------------------------------------------------------------------- */

void sm2c_llvm_fn_attr(lw *w, LLVMValueRef fn, LLVMAttributeIndex idx, unsigned kind)
{
    LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(w->ctx, kind, 0));
}

/* i32 parameters and results carry `signext`, as C compilers mark int on the
** targets whose ABI wants it (a no-op elsewhere). */
/* The kernel a step calls, or with `par` its _par form, which takes (const
** sm2c_rt_par *, int32_t max_tasks) before the kernel's arguments. */
static LLVMValueRef declare_kernel(lw *w, const sm2c_entry *en, const sm2c_step *sp, int par,
                                   LLVMTypeRef *fty, sm2c_status *st)
{
    int32_t lead = par ? 2 : 0;
    LLVMTypeRef *params = malloc(((size_t)sp->n_args + 3) * sizeof *params);
    SM2C_ASSERT(params != NULL);
    params[0] = w->ptr;     /* _par: overwritten by the arguments otherwise */
    params[1] = w->i32;
    for (int32_t a = 0; a < sp->n_args; a++) {
        sm2c_argkind k = sp->args[a].kind;
        params[lead + a] = k == SM2C_ARG_INT ? w->i32 : k == SM2C_ARG_FLOAT ? w->f32 : w->ptr;
    }
    LLVMTypeRef ret = sp->checked ? w->i32 : LLVMVoidTypeInContext(w->ctx);
    LLVMTypeRef t = LLVMFunctionType(ret, params, (unsigned)(sp->n_args + lead), 0);
    free(params);
    const char *name = par ? sm2c_arena_printf(w->c->arena, "%s_par", sp->kernel) : sp->kernel;
    LLVMValueRef fn = LLVMGetNamedFunction(w->m, name);
    if (fn) {
        if (LLVMGlobalGetValueType(fn) != t) {
            *st = sm2c_llvm_bug(w, "entry %s: kernel %s is called with different argument kinds or counts",
                                en->key, name);
            return NULL;
        }
    } else {
        fn = LLVMAddFunction(w->m, name, t);
        LLVMSetLinkage(fn, LLVMExternalLinkage);
        sm2c_llvm_fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
        if (par)
            sm2c_llvm_fn_attr(w, fn, 2, w->signext);
        for (int32_t a = 0; a < sp->n_args; a++)
            if (sp->args[a].kind == SM2C_ARG_INT)
                sm2c_llvm_fn_attr(w, fn, (LLVMAttributeIndex)(lead + a) + 1, w->signext);
        if (sp->checked)
            sm2c_llvm_fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
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
    /* _r: state, workspace, [fast workspace,] then the arguments; _ctx: the context, then
    ** the arguments */
    unsigned first = w->ctx_body ? 1 : w->state_ty ? 2 + (unsigned)w->fast : 0;
    switch (b->kind) {
    case SM2C_BUF_INPUT:
        return LLVMGetParam(fn, first + (unsigned)b->index);
    case SM2C_BUF_OUTPUT:
        return LLVMGetParam(fn, first + (unsigned)(en->n_inputs + b->index));
    case SM2C_BUF_ARENA:
        if (w->ctx_body || w->state_ty) {
            LLVMValueRef off = LLVMConstInt(w->i64, (uint64_t)b->offset, 0);
            LLVMValueRef base = w->ctx_body ? (b->fast ? w->body_fws : w->body_ws) : LLVMGetParam(fn, b->fast ? 2 : 1);
            return LLVMBuildInBoundsGEP2(w->b, w->i8, base, &off, 1, "");
        }
        return sm2c_llvm_gep0(w, b->fast ? w->fast_arena : w->arena, b->offset);
    case SM2C_BUF_STATE:
        return state_member(w, w->ctx_body ? w->body_state : LLVMGetParam(fn, 0), b->index);
    default:    /* SM2C_BUF_WEIGHT; validated */
        return sm2c_llvm_gep0(w, w->weights[b->index], 0);
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
    int32_t np = en->n_inputs + en->n_outputs, c = w->ctx_body ? 1 : 0;  /* _ctx: the context first */
    LLVMTypeRef *params = malloc(((size_t)np + 2) * sizeof *params);
    LLVMValueRef *args = malloc(((size_t)np + 2) * sizeof *args);
    SM2C_ASSERT(params && args);
    params[0] = w->ptr;
    params[c] = w->i32;
    for (int32_t i = 0; i < np; i++)
        params[c + i + 1] = w->ptr;
    LLVMValueRef fn = LLVMAddFunction(w->m, sm2c_arena_printf(w->c->arena, "%s_%s%s", w->p->name, en->c_name,
                                                              c ? "_ctx" : ""),
                                      LLVMFunctionType(w->i32, params, (unsigned)(np + 1 + c), 0));
    free(params);
    if (c)
        w->entries_ctx[k] = fn;
    else
        w->entries[k] = fn;
    LLVMSetLinkage(fn, LLVMExternalLinkage);
    sm2c_llvm_fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
    sm2c_llvm_fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
    sm2c_llvm_fn_attr(w, fn, (LLVMAttributeIndex)c + 1, w->signext);
    if (c) {
        args[0] = LLVMGetParam(fn, 0);
        LLVMSetValueName2(args[0], "ctx", 3);
    }
    LLVMValueRef batch = LLVMGetParam(fn, (unsigned)c);
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
        LLVMValueRef *arg = &args[c + i];
        *arg = LLVMGetParam(fn, (unsigned)(c + i + 1));
        LLVMSetValueName2(*arg, pt->key, strlen(pt->key));
        if (!pt->batched)
            continue;
        int64_t row_bytes = sm2c_shape_elements(&pt->shape, INT64_MAX / 8) / en->max_batch *
                            sm2c_backend_elem_size(pt->dtype);
        LLVMValueRef off = LLVMBuildMul(w->b, row64, LLVMConstInt(w->i64, (uint64_t)row_bytes, 0), "");
        *arg = LLVMBuildInBoundsGEP2(w->b, w->i8, *arg, &off, 1, "");
    }
    LLVMValueRef status = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(row_fn), row_fn, args,
                                         (unsigned)(np + c), "");
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
        return sm2c_llvm_bug(w, "entry %s: control steps nest badly", en->key);
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
        return sm2c_llvm_bug(w, "entry %s: control step kind %d", en->key, (int)sp->control);
    }
    return SM2C_OK;
}

/* In a context body's entry block: the workspace, state and par it reads. */
static void load_ctx_parts(lw *w, LLVMValueRef ctx)
{
    LLVMValueRef typed = LLVMBuildBitCast(w->b, ctx, LLVMPointerType(w->ctx_ty, 0), "");
    LLVMValueRef ws = LLVMBuildStructGEP2(w->b, w->ctx_ty, typed, 0, "");
    w->body_ws = LLVMBuildLoad2(w->b, w->ptr, LLVMBuildBitCast(w->b, ws, LLVMPointerType(w->ptr, 0), ""),
                                "workspace");
    if (w->fast) {
        LLVMValueRef fws = LLVMBuildStructGEP2(w->b, w->ctx_ty, typed, 1, "");
        w->body_fws = LLVMBuildLoad2(w->b, w->ptr, LLVMBuildBitCast(w->b, fws, LLVMPointerType(w->ptr, 0), ""),
                                     "fast_workspace");
    }
    w->body_par = LLVMBuildBitCast(w->b, LLVMBuildStructGEP2(w->b, w->ctx_ty, typed, w->ctx_par, ""), w->ptr, "par");
    w->body_state = w->state_ty ? LLVMBuildBitCast(w->b, LLVMBuildStructGEP2(w->b, w->ctx_ty, typed, w->ctx_state, ""),
                                                   w->ptr, "state")
                                : NULL;
}

/* Entry k's steps as a function: the entry point (or its one-row function,
** or the stateful _r), or with w->ctx_body its context entry point, whose
** split steps call the kernels' _par forms. */
static sm2c_status build_body(lw *w, int32_t k)
{
    const sm2c_program *p = w->p;
    const sm2c_entry *en = &p->entries[k];
    int32_t first = w->ctx_body ? 1 : w->state_ty ? 2 + w->fast : 0;
    int32_t np = first + en->n_inputs + en->n_outputs;
    LLVMTypeRef *params = malloc(((size_t)np + 1) * sizeof *params);
    SM2C_ASSERT(params != NULL);
    for (int32_t i = 0; i < np; i++)
        params[i] = w->ptr;
    LLVMTypeRef t = LLVMFunctionType(w->i32, params, (unsigned)np, 0);
    free(params);
    /* A batched entry is its one-row function (--max-batch programs have no state). */
    const char *fn_name = en->max_batch ? sm2c_arena_printf(w->c->arena, "%s.row%s%d", p->name,
                                                            w->ctx_body ? "ctx" : "", k)
                                        : sm2c_arena_printf(w->c->arena, "%s_%s%s", p->name, en->c_name,
                                                            w->ctx_body ? "_ctx" : first ? "_r" : "");
    LLVMValueRef fn = LLVMAddFunction(w->m, fn_name, t);
    if (w->ctx_body)
        w->entries_ctx[k] = fn;
    else
        w->entries[k] = fn;
    LLVMSetLinkage(fn, en->max_batch ? LLVMInternalLinkage : LLVMExternalLinkage);
    sm2c_llvm_fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
    sm2c_llvm_fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
    for (int32_t i = 0; i < np; i++) {
        static const char *const lead[3] = { "state", "workspace", "fast_workspace" };
        const char *key = i < first ? (w->ctx_body ? "ctx" : lead[i])
                          : i - first < en->n_inputs ? en->inputs[i - first].key
                                                     : en->outputs[i - first - en->n_inputs].key;
        LLVMSetValueName2(LLVMGetParam(fn, (unsigned)i), key, strlen(key));
    }
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, fn, "entry"));
    if (w->ctx_body)
        load_ctx_parts(w, LLVMGetParam(fn, 0));
    LLVMValueRef args_small[18];
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
        int par = w->ctx_body && sp->max_tasks > 1;     /* split into tasks (lower/split.c) */
        int32_t lead = par ? 2 : 0;
        LLVMValueRef callee = declare_kernel(w, en, sp, par, &fty, &st);
        if (!callee)
            return st;
        LLVMValueRef *all = sp->n_args <= 16 ? args_small
                                             : malloc((size_t)(sp->n_args + 2) * sizeof *all);
        SM2C_ASSERT(all != NULL);
        LLVMValueRef *args = all + lead;
        if (par) {
            all[0] = w->body_par;
            all[1] = LLVMConstInt(w->i32, (uint64_t)sp->max_tasks, 1);
        }
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
                args[a] = sm2c_llvm_float_value(w, ar->f);
                break;
            default:    /* SM2C_ARG_INTS; validated */
                args[a] = sm2c_llvm_ints_value(w, ar);
                break;
            }
        }
        LLVMValueRef call = LLVMBuildCall2(w->b, fty, callee, all, (unsigned)(sp->n_args + lead), "");
        if (par)
            LLVMAddCallSiteAttribute(call, 2, LLVMCreateEnumAttribute(w->ctx, w->signext, 0));
        for (int32_t a = 0; a < sp->n_args; a++)
            if (sp->args[a].kind == SM2C_ARG_INT)
                LLVMAddCallSiteAttribute(call, (LLVMAttributeIndex)(lead + a) + 1,
                                         LLVMCreateEnumAttribute(w->ctx, w->signext, 0));
        if (all != args_small)
            free(all);
        if (sp->checked)
            return_on_error(w, fn, call);
    }
    LLVMBuildRet(w->b, LLVMConstInt(w->i32, 0, 0));
    if (en->max_batch)
        build_batch_loop(w, k, fn);
    return SM2C_OK;
}

sm2c_status sm2c_llvm_build_entry(lw *w, int32_t k)
{
    return build_body(w, k);
}

/* <fn>_ctx: the steps on a context (after the static entry points, whose
** code stays as it was). */
sm2c_status sm2c_llvm_build_entry_ctx(lw *w, int32_t k)
{
    w->ctx_body = 1;
    sm2c_status st = build_body(w, k);
    w->ctx_body = 0;
    w->body_ws = w->body_fws = w->body_state = w->body_par = NULL;
    return st;
}

/* struct.<name>_ctx as NAME.h lays it out, <name>_ctx_init(ctx, workspace)
** and <name>_ctx_reset(ctx). */
void sm2c_llvm_build_ctx(lw *w)
{
    const sm2c_program *p = w->p;
    sm2c_arena *a = w->c->arena;
    LLVMTypeRef par_fields[3] = { w->ptr, w->ptr, w->i32 };
    w->par_ty = LLVMStructCreateNamed(w->ctx, "struct.sm2c_rt_par");
    LLVMStructSetBody(w->par_ty, par_fields, 3, 0);
    /* { workspace, [fast_workspace,] par, [state] } */
    LLVMTypeRef fields[4] = { w->ptr, w->ptr, w->par_ty, w->state_ty };
    w->ctx_par = 1 + (unsigned)w->fast;
    w->ctx_state = w->ctx_par + 1;
    w->ctx_ty = LLVMStructCreateNamed(w->ctx, sm2c_arena_printf(a, "struct.%s_ctx", p->name));
    LLVMStructSetBody(w->ctx_ty, w->fast ? fields : (LLVMTypeRef[]){ w->ptr, w->par_ty, w->state_ty },
                      w->ctx_par + (w->state_ty ? 2 : 1), 0);

    LLVMTypeRef init_params[3] = { w->ptr, w->ptr, w->ptr };
    LLVMTypeRef init_ty = LLVMFunctionType(LLVMVoidTypeInContext(w->ctx), init_params, 2 + (unsigned)w->fast, 0);
    w->ctx_init = LLVMAddFunction(w->m, sm2c_arena_printf(a, "%s_ctx_init", p->name), init_ty);
    sm2c_llvm_fn_attr(w, w->ctx_init, LLVMAttributeFunctionIndex, w->nounwind);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, w->ctx_init, "entry"));
    LLVMValueRef ctx = LLVMBuildBitCast(w->b, LLVMGetParam(w->ctx_init, 0), LLVMPointerType(w->ctx_ty, 0), "");
    LLVMValueRef ws = LLVMBuildStructGEP2(w->b, w->ctx_ty, ctx, 0, "");
    LLVMBuildStore(w->b, LLVMGetParam(w->ctx_init, 1), LLVMBuildBitCast(w->b, ws, LLVMPointerType(w->ptr, 0), ""));
    if (w->fast) {
        LLVMValueRef fws = LLVMBuildStructGEP2(w->b, w->ctx_ty, ctx, 1, "");
        LLVMBuildStore(w->b, LLVMGetParam(w->ctx_init, 2), LLVMBuildBitCast(w->b, fws, LLVMPointerType(w->ptr, 0), ""));
    }
    LLVMBuildStore(w->b, LLVMConstNull(w->par_ty), LLVMBuildStructGEP2(w->b, w->ctx_ty, ctx, w->ctx_par, ""));
    LLVMTypeRef state_init_ty = LLVMFunctionType(LLVMVoidTypeInContext(w->ctx), &w->ptr, 1, 0);
    if (w->state_ty) {
        LLVMValueRef st = LLVMBuildBitCast(w->b, LLVMBuildStructGEP2(w->b, w->ctx_ty, ctx, w->ctx_state, ""), w->ptr, "");
        LLVMBuildCall2(w->b, state_init_ty, w->init, &st, 1, "");
    }
    LLVMBuildRetVoid(w->b);

    w->ctx_reset = LLVMAddFunction(w->m, sm2c_arena_printf(a, "%s_ctx_reset", p->name), state_init_ty);
    sm2c_llvm_fn_attr(w, w->ctx_reset, LLVMAttributeFunctionIndex, w->nounwind);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, w->ctx_reset, "entry"));
    if (w->state_ty) {
        ctx = LLVMBuildBitCast(w->b, LLVMGetParam(w->ctx_reset, 0), LLVMPointerType(w->ctx_ty, 0), "");
        LLVMValueRef st = LLVMBuildBitCast(w->b, LLVMBuildStructGEP2(w->b, w->ctx_ty, ctx, w->ctx_state, ""), w->ptr, "");
        LLVMBuildCall2(w->b, state_init_ty, w->init, &st, 1, "");
    }
    LLVMBuildRetVoid(w->b);
}

/* ---- state ---------------------------------------------------------------------------- */

static LLVMTypeRef elem_type(lw *w, int dtype)
{
    switch (sm2c_dtype_base(dtype)) {
    case SM2C_DT_FLOAT: return w->f32;
    case SM2C_DT_DOUBLE: return LLVMDoubleTypeInContext(w->ctx);
    case SM2C_DT_COMPLEX64: return LLVMArrayType(w->f32, 2);  /* C: two floats */
    default: return LLVMIntTypeInContext(w->ctx, (unsigned)sm2c_backend_elem_size(dtype) * 8);
    }
}

/* struct.<name>_state { [n x T] member; ... } in emit_c.c's member order (its
** natural layout is the C struct's), the default state and its flag, and
** <name>_init(state) / <name>_reset(). */
void sm2c_llvm_build_state(lw *w)
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
        sm2c_llvm_fn_attr(w, copy, LLVMAttributeFunctionIndex, w->nounwind);
        sm2c_llvm_fn_attr(w, copy, 3, w->signext);
    }
    LLVMTypeRef init_ty = LLVMFunctionType(LLVMVoidTypeInContext(w->ctx), &w->ptr, 1, 0);
    w->init = LLVMAddFunction(w->m, sm2c_arena_printf(a, "%s_init", p->name), init_ty);
    sm2c_llvm_fn_attr(w, w->init, LLVMAttributeFunctionIndex, w->nounwind);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, w->init, "entry"));
    for (int32_t i = 0; i < p->n_states; i++) {
        LLVMValueRef args[3] = { state_member(w, LLVMGetParam(w->init, 0), i),
                                 sm2c_llvm_gep0(w, w->weights[p->states[i].init_weight], 0),
                                 LLVMConstInt(w->i32, (uint64_t)p->states[i].nbytes, 0) };
        LLVMValueRef call = LLVMBuildCall2(w->b, copy_ty, copy, args, 3, "");
        LLVMAddCallSiteAttribute(call, 3, LLVMCreateEnumAttribute(w->ctx, w->signext, 0));
    }
    LLVMBuildRetVoid(w->b);

    LLVMTypeRef reset_ty = LLVMFunctionType(LLVMVoidTypeInContext(w->ctx), NULL, 0, 0);
    LLVMValueRef reset = LLVMAddFunction(w->m, sm2c_arena_printf(a, "%s_reset", p->name), reset_ty);
    sm2c_llvm_fn_attr(w, reset, LLVMAttributeFunctionIndex, w->nounwind);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, reset, "entry"));
    LLVMValueRef self = LLVMBuildBitCast(w->b, w->default_state, w->ptr, "");
    LLVMBuildCall2(w->b, init_ty, w->init, &self, 1, "");
    LLVMBuildStore(w->b, LLVMConstInt(w->i8, 1, 0), w->state_ready);
    LLVMBuildRetVoid(w->b);
    w->reset = reset;
}

/* <fn>(args): if the default state is not set yet, reset it; then
** <fn>_r(default state, arena, args).  Replaces w->entries[k]. */
void sm2c_llvm_build_static_entry(lw *w, int32_t k)
{
    const sm2c_entry *en = &w->p->entries[k];
    LLVMValueRef fn_r = w->entries[k];
    int32_t np = en->n_inputs + en->n_outputs;
    LLVMTypeRef *params = malloc(((size_t)np + 1) * sizeof *params);
    LLVMValueRef *args = malloc(((size_t)np + 3) * sizeof *args);
    SM2C_ASSERT(params && args);
    for (int32_t i = 0; i < np; i++)
        params[i] = w->ptr;
    LLVMTypeRef t = LLVMFunctionType(w->i32, params, (unsigned)np, 0);
    LLVMValueRef fn = LLVMAddFunction(w->m, sm2c_arena_printf(w->c->arena, "%s_%s", w->p->name, en->c_name), t);
    sm2c_llvm_fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
    sm2c_llvm_fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
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
    args[1] = sm2c_llvm_gep0(w, w->arena, 0);
    if (w->fast)
        args[2] = sm2c_llvm_gep0(w, w->fast_arena, 0);
    for (int32_t i = 0; i < np; i++)
        args[2 + w->fast + i] = LLVMGetParam(fn, (unsigned)i);
    LLVMValueRef r = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(fn_r), fn_r, args,
                                    (unsigned)(np + 2 + w->fast), "");
    LLVMBuildRet(w->b, r);
    free(params);
    free(args);
    w->entries[k] = fn;
}
