/*
** footprint.c: the stack and code a program's entry points need, from the kernel
** measurements of rt_stack.h (reliability.md rule 10: no recursion, no VLA,
** so every chain is bounded).
*/
#include "rt_stack.h"

#include <string.h>

#include "sm2c_rt.h"

/* Per target: saved registers and padding of a generated function, bytes per
** call argument passed on the stack, and how many go in registers. */
static const struct {
    int32_t frame, arg_bytes, arg_regs;
} ABI[] = { [SM2C_STACK_X86_64] = { 64, 8, 6 }, [SM2C_STACK_CORTEX_M4] = { 48, 4, 4 } };

static const sm2c_rt_stack_use *kernel_of(const char *kernel)
{
    for (int32_t i = 0; i < sm2c_rt_stack_n_uses; i++)
        if (strcmp(sm2c_rt_stack_uses[i].kernel, kernel) == 0)
            return &sm2c_rt_stack_uses[i];
    return NULL;
}

static int32_t kernel_use(const char *kernel, int target)
{
    const sm2c_rt_stack_use *u = kernel_of(kernel);
    if (!u)
        return -1;
    return target == SM2C_STACK_CORTEX_M4 ? u->cortex_m4 : u->x86_64;
}

/* The generated function of one entry plus its deepest kernel call, or -1. */
static int32_t entry_use(const sm2c_entry *en, int target)
{
    int32_t deepest = 0, frame = ABI[target].frame;
    for (int32_t s = 0; s < en->n_steps; s++) {
        const sm2c_step *st = &en->steps[s];
        if (st->control)
            continue;
        int32_t use = kernel_use(st->kernel, target);
        if (use < 0)
            return -1;
        int32_t spilled = st->n_args - ABI[target].arg_regs;
        if (spilled > 0)
            use += spilled * ABI[target].arg_bytes;
        if (use > deepest)
            deepest = use;
    }
    /* --max-batch: a wrapper runs the steps' function once per row. */
    if (en->max_batch > 0)
        frame *= 2;
    return frame + deepest;
}

/* A quarter more for what the estimate cannot see (other compilers and
** options), rounded up to 16 bytes. */
static int32_t with_margin(int32_t use)
{
    use += use / 4;
    return (use + 15) / 16 * 16;
}

int32_t sm2c_stack_bound_entry(const sm2c_entry *en, int target)
{
    int32_t use = entry_use(en, target);
    return use < 0 ? SM2C_RT_STACK_BYTES : with_margin(use);
}

int32_t sm2c_stack_bound(const sm2c_program *p, int target)
{
    int32_t worst = 0;
    for (int32_t k = 0; k < p->n_entries; k++) {
        int32_t use = entry_use(&p->entries[k], target);
        if (use < 0)
            return SM2C_RT_STACK_BYTES;
        if (use > worst)
            worst = use;
    }
    return with_margin(worst);
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
