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
#include "emit_llvm_internal.h"

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

SM2C_PRINTF(2, 3)
sm2c_status sm2c_llvm_bug(lw *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sm2c_status st = sm2c_verror(w->c->diag, SM2C_ERR_INTERNAL, w->p->name, "emit llvm", fmt, ap);
    va_end(ap);
    return st;
}

/* The first line of an LLVM message, in the arena. */
const char *sm2c_llvm_first_line(sm2c_ctx *c, const char *msg)
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
LLVMValueRef sm2c_llvm_gep0(lw *w, LLVMValueRef g, int64_t off)
{
    LLVMValueRef idx[2] = { LLVMConstInt(w->i64, 0, 0), LLVMConstInt(w->i64, (uint64_t)off, 0) };
    return LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(g), g, idx, 2);
}

static int uses_arena(const sm2c_program *p)
{
    for (int32_t k = 0; k < p->n_entries; k++)
        if (sm2c_entry_uses(&p->entries[k], SM2C_BUF_ARENA, -1))
            return 1;
    return 0;
}

static int uses_fast_arena(const sm2c_program *p)
{
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        for (int32_t b = 0; b < en->n_buffers; b++)
            if (en->buffers[b].kind == SM2C_BUF_ARENA && en->buffers[b].fast)
                return 1;
    }
    return 0;
}

/* A zeroed, 64-byte aligned internal byte array (the arenas). */
static LLVMValueRef zero_bytes(lw *w, int64_t bytes, const char *name)
{
    LLVMTypeRef t = LLVMArrayType(w->i8, (unsigned)(bytes > 0 ? bytes : 1));
    LLVMValueRef g = LLVMAddGlobal(w->m, t, name);
    LLVMSetInitializer(g, LLVMConstNull(t));
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetAlignment(g, ALIGN);
    return g;
}

/* Weights hold their exact bytes: the tensor data is little-endian, so on a
** big-endian target each element is byte-swapped (as the C backend's typed
** initialisers would store it). */
static void add_weights(lw *w)
{
    const sm2c_program *p = w->p;
    for (int32_t i = 0; i < p->n_weights; i++) {
        if (!sm2c_program_uses_weight(p, i))
            continue;
        const sm2c_tensor *v = &p->weights[i].value;
        size_t n = v->nbytes;
        /* complex64 swaps as its two floats */
        int size = sm2c_dtype_base(v->dtype) == SM2C_DT_COMPLEX64 ? 4 : sm2c_backend_elem_size(v->dtype);
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
    if (!w->weights_only && (uses_arena(p) || p->n_states))
        w->arena = zero_bytes(w, p->arena_bytes, sm2c_arena_printf(w->c->arena, "%s.arena", p->name));
    if (!w->weights_only && w->fast && (uses_fast_arena(p) || p->n_states))
        w->fast_arena = zero_bytes(w, p->fast_arena_bytes, sm2c_arena_printf(w->c->arena, "%s.fast_arena", p->name));
}

/* A constant int32 array, one global per distinct contents; as i8*. */
LLVMValueRef sm2c_llvm_ints_value(lw *w, const sm2c_arg *ar)
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
LLVMValueRef sm2c_llvm_float_value(lw *w, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    if ((bits & 0x7f800000u) != 0x7f800000u)
        return LLVMConstReal(w->f32, (double)f);
    return LLVMConstBitCast(LLVMConstInt(w->i32, bits, 0), w->f32);
}

/* ---- the metadata table ------------------------------------------------------------- */

static LLVMValueRef cstring(lw *w, const char *s, const char *name)
{
    LLVMValueRef init = LLVMConstStringInContext(w->ctx, s, (unsigned)strlen(s), 0);
    return sm2c_llvm_gep0(w, private_const(w, init, name, 1), 0);
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
    return sm2c_llvm_gep0(w, g, 0);
}

/* static int32_t runK(void *const *inputs, void *const *outputs) { return fn(inputs[0], ...); }
** A batched entry (--max-batch) is called with max_batch rows, or with `batched`
** this is its run_batch: runbK(int32_t batch, inputs, outputs) passes the batch on. */
static LLVMValueRef build_run(lw *w, int32_t k, LLVMTypeRef run_ty, int batched, int with_ctx)
{
    const sm2c_entry *en = &w->p->entries[k];
    const char *form = with_ctx ? (batched ? "%s.runb_ctx%d" : "%s.run_ctx%d") : (batched ? "%s.runb%d" : "%s.run%d");
    LLVMValueRef fn = LLVMAddFunction(w->m, sm2c_arena_printf(w->c->arena, form, w->p->name, k), run_ty);
    unsigned c = with_ctx ? 1 : 0;     /* the context first */
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    sm2c_llvm_fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
    sm2c_llvm_fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
    if (c)
        LLVMSetValueName2(LLVMGetParam(fn, 0), "ctx", 3);
    if (batched) {
        sm2c_llvm_fn_attr(w, fn, c + 1, w->signext);
        LLVMSetValueName2(LLVMGetParam(fn, c), "batch", 5);
    }
    LLVMValueRef in = LLVMGetParam(fn, c + (batched ? 1 : 0)), out = LLVMGetParam(fn, c + (batched ? 2 : 1));
    LLVMSetValueName2(in, "inputs", 6);
    LLVMSetValueName2(out, "outputs", 7);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, fn, "entry"));
    int32_t np = en->n_inputs + en->n_outputs, nb = en->max_batch ? 1 : 0;
    LLVMValueRef *args = malloc(((size_t)np + 3) * sizeof *args);
    SM2C_ASSERT(args != NULL);
    if (c)
        args[0] = LLVMGetParam(fn, 0);
    if (nb)
        args[c] = batched ? LLVMGetParam(fn, c) : LLVMConstInt(w->i32, (uint64_t)en->max_batch, 0);
    for (int32_t i = 0; i < np; i++) {
        int is_in = i < en->n_inputs;
        LLVMValueRef idx = LLVMConstInt(w->i64, (uint64_t)(is_in ? i : i - en->n_inputs), 0);
        LLVMValueRef slot = LLVMBuildInBoundsGEP2(w->b, w->ptr, is_in ? in : out, &idx, 1, "");
        args[c + i + nb] = LLVMBuildLoad2(w->b, w->ptr, slot, "");
    }
    LLVMValueRef entry = with_ctx ? w->entries_ctx[k] : w->entries[k];
    LLVMValueRef r = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(entry), entry, args,
                                    (unsigned)(np + nb) + c, "");
    if (nb)
        LLVMAddCallSiteAttribute(r, c + 1, LLVMCreateEnumAttribute(w->ctx, w->signext, 0));
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
    return sm2c_llvm_gep0(w, g, 0);
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
        runs[k] = build_run(w, k, run_ty, 0, 0);
        runbs[k] = p->entries[k].max_batch ? build_run(w, k, runb_ty, 1, 0) : NULL;
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
                    LLVMConstInt(w->i64, (uint64_t)sm2c_port_bytes(pt), 1),
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
            info[pass] = sm2c_llvm_gep0(w, g, 0);
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

/* --fast-arena: a generic caller's block -> its fast workspace part. */
static LLVMValueRef split_workspace(lw *w, LLVMValueRef ws)
{
    LLVMValueRef off = LLVMConstInt(w->i64, (uint64_t)sm2c_llvm_fast_split(w->p), 0);
    return LLVMBuildInBoundsGEP2(w->b, w->i8, ws, &off, 1, "fast_workspace");
}

/* NAME.ctx_init_any(ctx, block): ctx_init(ctx, block, block + split). */
static LLVMValueRef build_ctx_init_any(lw *w)
{
    LLVMTypeRef params[2] = { w->ptr, w->ptr };
    LLVMTypeRef t = LLVMFunctionType(LLVMVoidTypeInContext(w->ctx), params, 2, 0);
    LLVMValueRef fn = LLVMAddFunction(w->m, sm2c_arena_printf(w->c->arena, "%s.ctx_init_any", w->p->name), t);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    sm2c_llvm_fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, fn, "entry"));
    LLVMValueRef args[3] = { LLVMGetParam(fn, 0), LLVMGetParam(fn, 1), split_workspace(w, LLVMGetParam(fn, 1)) };
    LLVMBuildCall2(w->b, LLVMGlobalGetValueType(w->ctx_init), w->ctx_init, args, 3, "");
    LLVMBuildRetVoid(w->b);
    return fn;
}

/* static int32_t run_rK(void *state, void *workspace, void *const *in, void *const *out) */
static LLVMValueRef build_run_r(lw *w, int32_t k, LLVMTypeRef run_ty)
{
    const sm2c_entry *en = &w->p->entries[k];
    LLVMValueRef fn_r = LLVMGetNamedFunction(w->m, sm2c_arena_printf(w->c->arena, "%s_%s_r", w->p->name,
                                                                     en->c_name));
    LLVMValueRef fn = LLVMAddFunction(w->m, sm2c_arena_printf(w->c->arena, "%s.run_r%d", w->p->name, k), run_ty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    sm2c_llvm_fn_attr(w, fn, LLVMAttributeFunctionIndex, w->nounwind);
    sm2c_llvm_fn_attr(w, fn, LLVMAttributeReturnIndex, w->signext);
    LLVMPositionBuilderAtEnd(w->b, LLVMAppendBasicBlockInContext(w->ctx, fn, "entry"));
    int32_t np = en->n_inputs + en->n_outputs, lead = 2 + w->fast;
    LLVMValueRef *args = malloc(((size_t)np + 3) * sizeof *args);
    SM2C_ASSERT(args != NULL);
    args[0] = LLVMGetParam(fn, 0);
    args[1] = LLVMGetParam(fn, 1);
    if (w->fast)    /* the one block's fast part */
        args[2] = split_workspace(w, LLVMGetParam(fn, 1));
    for (int32_t i = 0; i < np; i++) {
        int is_in = i < en->n_inputs;
        LLVMValueRef idx = LLVMConstInt(w->i64, (uint64_t)(is_in ? i : i - en->n_inputs), 0);
        LLVMValueRef slot = LLVMBuildInBoundsGEP2(w->b, w->ptr, LLVMGetParam(fn, is_in ? 2 : 3), &idx, 1, "");
        args[lead + i] = LLVMBuildLoad2(w->b, w->ptr, slot, "");
    }
    LLVMValueRef r = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(fn_r), fn_r, args, (unsigned)(np + lead), "");
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
    LLVMValueRef vars = sm2c_llvm_gep0(w, private_const(w, LLVMConstArray(vi, items, (unsigned)p->n_states),
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
    LLVMValueRef runs_g = sm2c_llvm_gep0(w, private_const(w, LLVMConstArray(LLVMTypeOf(runs[0]), runs, (unsigned)p->n_entries),
                                                sm2c_arena_printf(a, "%s.runs_r", p->name), 0), 0);
    LLVMValueRef writes_g = sm2c_llvm_gep0(w, private_const(w, LLVMConstArray(w->i32, writes, (unsigned)p->n_entries),
                                                  sm2c_arena_printf(a, "%s.writes_state", p->name), 0), 0);
    free(runs);
    free(writes);
    LLVMTypeRef si = LLVMStructCreateNamed(w->ctx, sm2c_arena_printf(a, "struct.%s_state_info", p->name));
    LLVMTypeRef si_fields[8] = { w->i64, w->i64, w->i32, LLVMPointerType(vi, 0), LLVMTypeOf(w->init),
                                 LLVMTypeOf(w->reset), LLVMPointerType(w->i32, 0), LLVMTypeOf(runs_g) };
    LLVMStructSetBody(si, si_fields, 8, 0);
    LLVMValueRef f[8] = {
        LLVMConstInt(w->i64, LLVMABISizeOfType(w->td, w->state_ty), 0),
        LLVMConstInt(w->i64, (uint64_t)sm2c_llvm_generic_workspace(p), 0),
        LLVMConstInt(w->i32, (uint64_t)p->n_states, 0),
        vars, w->init, w->reset, writes_g, runs_g,
    };
    LLVMValueRef g = LLVMAddGlobal(w->m, si, sm2c_arena_printf(a, "%s_state_table", p->name));
    LLVMSetInitializer(g, LLVMConstNamedStruct(si, f, 8));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMExternalLinkage);
}

/* <name>_ctx_table, laid out as emit_c.c's struct:
**   <name>_ctx_info { int64_t ctx_size, workspace_size, workspace_align, par_offset, state_offset;
**                     void (*init)(void *, void *); void (*reset)(void *);
**                     int32_t (*const *run)(void *, void *const *, void *const *);
**                     int32_t (*const *run_batch)(void *, int32_t, void *const *, void *const *); } */
static void build_ctx_metadata(lw *w)
{
    const sm2c_program *p = w->p;
    sm2c_arena *a = w->c->arena;
    LLVMTypeRef pp = LLVMPointerType(w->ptr, 0);
    LLVMTypeRef run_params[4] = { w->ptr, w->i32, pp, pp };
    LLVMTypeRef run_ty = LLVMFunctionType(w->i32, (LLVMTypeRef[]){ w->ptr, pp, pp }, 3, 0);
    LLVMTypeRef runb_ty = LLVMFunctionType(w->i32, run_params, 4, 0);
    LLVMValueRef *runs = malloc(((size_t)p->n_entries + 1) * sizeof *runs);
    LLVMValueRef *runbs = malloc(((size_t)p->n_entries + 1) * sizeof *runbs);
    SM2C_ASSERT(runs && runbs);
    for (int32_t k = 0; k < p->n_entries; k++)
        runs[k] = build_run(w, k, run_ty, 0, 1);
    LLVMTypeRef runb_ptr = LLVMPointerType(runb_ty, LLVMGetPointerAddressSpace(LLVMTypeOf(runs[0])));
    for (int32_t k = 0; k < p->n_entries; k++)
        runbs[k] = p->entries[k].max_batch ? build_run(w, k, runb_ty, 1, 1) : LLVMConstPointerNull(runb_ptr);
    LLVMValueRef runs_g = sm2c_llvm_gep0(w, private_const(w, LLVMConstArray(LLVMTypeOf(runs[0]), runs, (unsigned)p->n_entries),
                                                sm2c_arena_printf(a, "%s.runs_ctx", p->name), 0), 0);
    LLVMValueRef runbs_g = sm2c_llvm_gep0(w, private_const(w, LLVMConstArray(runb_ptr, runbs, (unsigned)p->n_entries),
                                                 sm2c_arena_printf(a, "%s.runbs_ctx", p->name), 0), 0);
    free(runs);
    free(runbs);
    LLVMTypeRef ci = LLVMStructCreateNamed(w->ctx, sm2c_arena_printf(a, "struct.%s_ctx_info", p->name));
    LLVMValueRef init = w->fast ? build_ctx_init_any(w) : w->ctx_init;
    LLVMTypeRef ci_fields[9] = { w->i64, w->i64, w->i64, w->i64, w->i64, LLVMTypeOf(init),
                                 LLVMTypeOf(w->ctx_reset), LLVMTypeOf(runs_g), LLVMTypeOf(runbs_g) };
    LLVMStructSetBody(ci, ci_fields, 9, 0);
    LLVMValueRef f[9] = {
        LLVMConstInt(w->i64, LLVMABISizeOfType(w->td, w->ctx_ty), 0),
        LLVMConstInt(w->i64, (uint64_t)sm2c_llvm_generic_workspace(p), 0),
        LLVMConstInt(w->i64, ALIGN, 0),
        LLVMConstInt(w->i64, LLVMOffsetOfElement(w->td, w->ctx_ty, w->ctx_par), 0),
        LLVMConstInt(w->i64, w->state_ty ? LLVMOffsetOfElement(w->td, w->ctx_ty, w->ctx_state) : (uint64_t)-1, 1),
        init, w->ctx_reset, runs_g, runbs_g,
    };
    LLVMValueRef g = LLVMAddGlobal(w->m, ci, sm2c_arena_printf(a, "%s_ctx_table", p->name));
    LLVMSetInitializer(g, LLVMConstNamedStruct(ci, f, 9));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMExternalLinkage);
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
    w.fast = p->placement.fast_arena > 0;
    sm2c_status st = sm2c_program_check(c, p, "LLVM", sm2c_backend_elem_size);
    if (st)
        return st;
    /* LLVM-C array lengths are unsigned. */
    for (int32_t i = 0; i < p->n_weights; i++)
        if (p->weights[i].value.nbytes > UINT32_MAX)
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, p->name, p->weights[i].name,
                              "a constant of %zu bytes is more than the LLVM backend can emit",
                              p->weights[i].value.nbytes);
    if (p->arena_bytes > UINT32_MAX || p->fast_arena_bytes > UINT32_MAX)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, p->name, NULL,
                          "an arena of %lld bytes is more than the LLVM backend can emit",
                          (long long)(p->arena_bytes > p->fast_arena_bytes ? p->arena_bytes : p->fast_arena_bytes));

    char *triple = NULL;
    LLVMTargetMachineRef tm = sm2c_llvm_target_machine(c, o, path, &triple);
    if (!tm)
        return SM2C_ERR_USAGE;
    if ((st = sm2c_llvm_check_sections(c, p, triple))) {
        LLVMDisposeTargetMachine(tm);
        LLVMDisposeMessage(triple);
        return st;
    }

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
    w.entries_ctx = calloc((size_t)p->n_entries + 1, sizeof *w.entries_ctx);
    SM2C_ASSERT(w.weights && w.entries && w.entries_ctx);

    add_weights(&w);
    if (p->n_states)
        sm2c_llvm_build_state(&w);
    for (int32_t k = 0; k < p->n_entries && !st; k++) {
        st = sm2c_llvm_build_entry(&w, k);
        if (!st && p->n_states)
            sm2c_llvm_build_static_entry(&w, k);
    }
    if (!st)
        sm2c_llvm_build_ctx(&w);
    for (int32_t k = 0; k < p->n_entries && !st; k++)
        st = sm2c_llvm_build_entry_ctx(&w, k);
    if (!st) {
        build_metadata(&w);
        if (p->n_states)
            build_state_metadata(&w);
        build_ctx_metadata(&w);
        char *msg = NULL;
        if (LLVMVerifyModule(w.m, LLVMReturnStatusAction, &msg))
            st = sm2c_llvm_bug(&w, "LLVM rejects the module it was given: %s", sm2c_llvm_first_line(c, msg));
        LLVMDisposeMessage(msg);
    }
    if (!st) {
        if (sm2c_llvm_is_elf(triple)) {
            sm2c_llvm_own_sections(&w);
            sm2c_llvm_user_sections(&w);
        }
        st = sm2c_llvm_optimise_and_write(&w, tm, o, kind, path);
    }

    free(w.ints);
    free(w.weights);
    free(w.entries);
    free(w.entries_ctx);
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
    LLVMTargetMachineRef tm = sm2c_llvm_target_machine(c, o, path, &triple);
    if (!tm)
        return SM2C_ERR_USAGE;
    sm2c_status st = sm2c_llvm_check_sections(c, p, triple);
    if (st) {
        LLVMDisposeTargetMachine(tm);
        LLVMDisposeMessage(triple);
        return st;
    }
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
    if (sm2c_llvm_is_elf(triple))
        sm2c_llvm_user_sections(&w);
    st = sm2c_llvm_optimise_and_write(&w, tm, o, SM2C_LLVM_OBJ, path);
    free(w.weights);
    LLVMDisposeModule(w.m);
    LLVMDisposeTargetData(w.td);
    LLVMContextDispose(w.ctx);
    LLVMDisposeTargetMachine(tm);
    LLVMDisposeMessage(triple);
    return st;
}
