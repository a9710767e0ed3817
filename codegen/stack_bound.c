/*
** stack_bound.c: the stack a program's entry points need, from the kernel
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

static int32_t kernel_use(const char *kernel, int target)
{
    for (int32_t i = 0; i < sm2c_rt_stack_n_uses; i++)
        if (strcmp(sm2c_rt_stack_uses[i].kernel, kernel) == 0)
            return target == SM2C_STACK_CORTEX_M4 ? sm2c_rt_stack_uses[i].cortex_m4
                                                  : sm2c_rt_stack_uses[i].x86_64;
    return -1;
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
    /* A quarter more for what the estimate cannot see (other compilers and
    ** options), rounded up to 16 bytes. */
    worst += worst / 4;
    return (worst + 15) / 16 * 16;
}
