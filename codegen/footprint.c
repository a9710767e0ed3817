/*
** footprint.c: the stack and code a program's entry points need, from the kernel
** measurements of rt_stack.h (docs/reliability.md rule 10: no recursion, no VLA,
** so every chain is bounded).
*/
#include "rt_stack.h"

#include <stdio.h>
#include <string.h>

#include "codegen/c_special.h"

#include "sm2c_rt.h"

/* Per target: saved registers and padding of a generated function, bytes per
** call argument passed on the stack, and how many go in registers.  On a
** Cortex-M4F gcc -Os saves r4-r7 and lr of an entry that only calls (24 bytes
** aligned); the layer functions it inlines bring their frames, which the
** deepest step already counts. */
static const struct {
    int32_t frame, arg_bytes, arg_regs;
} ABI[] = { [SM2C_STACK_X86_64] = { 64, 8, 6 }, [SM2C_STACK_CORTEX_M4] = { 24, 4, 4 } };

/* The table is sorted by name (cmake/rt_stack.py sorts it): a bisection,
** since every step of every entry asks. */
static const sm2c_rt_stack_use *kernel_of(const char *kernel)
{
    int32_t lo = 0, hi = sm2c_rt_stack_n_uses;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        int c = strcmp(sm2c_rt_stack_uses[mid].kernel, kernel);
        if (c == 0)
            return &sm2c_rt_stack_uses[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* A split step (lower/split.c), in its context entry: on the calling thread,
** which runs tasks too, the _par kernel's frame and the pool's parallel-for
** lie above the plain kernel's call (a caller's own parallel-for is its own
** to budget).  0 for a step that is not split, and on a Cortex-M, whose
** bound is the static entry points' (the firmware bound stays as it was). */
static int32_t split_use(const sm2c_step *st, int target)
{
    if (st->max_tasks <= 1 || target == SM2C_STACK_CORTEX_M4)  /* firmware runs no pool */
        return 0;
    char name[160];
    snprintf(name, sizeof name, "%s_par", st->kernel);
    const sm2c_rt_stack_use *par = kernel_of(name), *pool = kernel_of("sm2c_rt_pool_parallel_for");
    int32_t a = par ? (target == SM2C_STACK_CORTEX_M4 ? par->cortex_m4 : par->x86_64) : -1;
    int32_t b = pool ? (target == SM2C_STACK_CORTEX_M4 ? pool->cortex_m4 : pool->x86_64) : -1;
    return (a > 0 ? a : 0) + (b > 0 ? b : 0);
}

/* Stack of one step's call.  A kernel with a shape-specialised form runs
** through a layer function (c_special.h): on a Cortex-M4F its inlined loop
** nest, whose measured frame replaces the kernel's, called with its buffer
** arguments only; elsewhere one more small frame above the kernel. */
static int32_t step_use(const sm2c_step *st, int target, int c_layers)
{
    const sm2c_rt_stack_use *u = kernel_of(st->kernel);
    int32_t use = u ? (target == SM2C_STACK_CORTEX_M4 ? u->cortex_m4 : u->x86_64) : -1;
    int32_t args = st->n_args;
    if (use < 0)
        return -1;
    const sm2c_c_special *sp = c_layers ? sm2c_c_special_form(st) : NULL;
    if (sp) {
        int32_t act = sm2c_c_special_act(st, sp);
        int32_t layer = act >= 0 && act < sm2c_rt_stack_n_acts ? u->cortex_m4_layer[act] : -1;
        args = 0;
        for (int32_t a = 0; a < st->n_args; a++)
            args += st->args[a].kind == SM2C_ARG_BUF;
        if (target == SM2C_STACK_CORTEX_M4 && layer >= 0)
            use = layer;
        else
            use += 32;
    }
    if (args > ABI[target].arg_regs)
        use += (args - ABI[target].arg_regs) * ABI[target].arg_bytes;
    return use + split_use(st, target);
}

/* A Cortex-M4F layer function that one step alone calls: gcc inlines it into
** the entry (functions called once are, at -Os and above), where its frame
** merges with the entry's instead of adding to it. */
static int inlined_layer(const sm2c_entry *en, int32_t s, int target, int c_layers)
{
    if (target != SM2C_STACK_CORTEX_M4 || !c_layers || !sm2c_c_special_form(&en->steps[s]))
        return 0;
    for (int32_t t = 0; t < en->n_steps; t++)
        if (t != s && !en->steps[t].control &&
            sm2c_c_special_same_layer(&en->steps[t], &en->steps[s]))
            return 0;
    return 1;
}

/* The generated function of one entry plus its deepest kernel call, or -1. */
static int32_t entry_use(const sm2c_entry *en, int target, int c_layers)
{
    int32_t deepest = 0, frame = ABI[target].frame;
    for (int32_t s = 0; s < en->n_steps; s++) {
        const sm2c_step *st = &en->steps[s];
        if (st->control)
            continue;
        int32_t use = step_use(st, target, c_layers);
        if (use < 0)
            return -1;
        if (inlined_layer(en, s, target, c_layers)) {
            if (use > frame)
                frame = use;
        } else if (use > deepest)
            deepest = use;
    }
    /* --max-batch: a wrapper runs the steps' function once per row. */
    if (en->max_batch > 0)
        frame *= 2;
    return frame + deepest;
}

/* A quarter more for what the estimate cannot see (other compilers and
** options), rounded up to 8 bytes (the AAPCS and x86-64 stack alignment is
** at least that). */
static int32_t with_margin(int32_t use)
{
    use += use / 4;
    return (use + 7) / 8 * 8;
}

int32_t sm2c_stack_bound_entry(const sm2c_entry *en, int target, int c_layers)
{
    int32_t use = entry_use(en, target, c_layers);
    return use < 0 ? SM2C_RT_STACK_BYTES : with_margin(use);
}

int32_t sm2c_stack_bound(const sm2c_program *p, int target, int c_layers)
{
    int32_t worst = 0;
    for (int32_t k = 0; k < p->n_entries; k++) {
        int32_t use = entry_use(&p->entries[k], target, c_layers);
        if (use < 0)
            return SM2C_RT_STACK_BYTES;
        if (use > worst)
            worst = use;
    }
    return with_margin(worst);
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int sm2c_stack_target_of(const sm2c_target *t)
{
    if (t && t->triple && t->triple[0])
        return (starts_with(t->triple, "arm") && !starts_with(t->triple, "arm64")) ||
                       starts_with(t->triple, "thumb")
                   ? SM2C_STACK_CORTEX_M4
                   : SM2C_STACK_X86_64;
#if defined(__arm__) || defined(__thumb__)
    return SM2C_STACK_CORTEX_M4;
#else
    return SM2C_STACK_X86_64;
#endif
}

const char *sm2c_stack_target_name(int target)
{
    return target == SM2C_STACK_CORTEX_M4 ? "Cortex-M4F" : "x86-64";
}

/* Thumb-2 bytes of a generated call: one load or move per argument, the call. */
enum { CALL_BYTES = 4, ARG_BYTES = 4, FUNCTION_BYTES = 16 };

int64_t sm2c_code_estimate(const sm2c_entry *en)
{
    int64_t bytes = FUNCTION_BYTES;
    for (int32_t s = 0; s < en->n_steps; s++) {
        const sm2c_step *st = &en->steps[s];
        if (st->control) {
            bytes += CALL_BYTES;
            continue;
        }
        bytes += CALL_BYTES + (int64_t)st->n_args * ARG_BYTES;
        int counted = 0;
        for (int32_t t = 0; t < s && !counted; t++)
            counted = !en->steps[t].control && strcmp(en->steps[t].kernel, st->kernel) == 0;
        if (counted)
            continue;
        const sm2c_rt_stack_use *u = kernel_of(st->kernel);
        if (!u || u->cortex_m4_code < 0)
            return -1;
        bytes += u->cortex_m4_code;
    }
    return bytes;
}
