/*
** target.c: the target description (target.h).
*/
#include "target.h"

#include <string.h>

sm2c_target sm2c_target_host(void)
{
    sm2c_target t = { .opt_level = 2 };
    sm2c_target_set_machine(&t, NULL, NULL);
    return t;
}

int sm2c_target_set_opt(sm2c_target *t, const char *level)
{
    static const char *const levels[] = { "O0", "O1", "O2", "O3", "Os", "Oz" };
    for (int32_t i = 0; i < 6; i++)
        if (!strcmp(level, levels[i])) {
            t->opt_level = i <= 3 ? i : 2;
            t->size_level = i <= 3 ? 0 : i - 3;
            return 1;
        }
    return 0;
}

/* The architecture at the start of a triple: "thumbv7em" of "thumbv7em-none-eabihf". */
static size_t arch_len(const char *triple)
{
    const char *dash = strchr(triple, '-');
    return dash ? (size_t)(dash - triple) : strlen(triple);
}

static int arch_is(const char *triple, const char *arch)
{
    return arch_len(triple) == strlen(arch) && !strncmp(triple, arch, strlen(arch));
}

/* A Thumb triple of an M-profile architecture (thumbv6m, thumbv7m, thumbv7em,
** thumbv8m.base, thumbv8m.main, thumbv8.1m.main), or a cortex-m* CPU. */
static int is_cortex_m(const char *triple, const char *cpu)
{
    if (cpu && !strncmp(cpu, "cortex-m", 8))
        return 1;
    if (!triple || strncmp(triple, "thumbv", 6))
        return 0;
    for (size_t i = 6; i < arch_len(triple); i++)
        if (triple[i] == 'm')
            return 1;
    return 0;
}

static sm2c_vector_isa host_isa(void)
{
#if defined(__x86_64__)
    return SM2C_ISA_X86;
#elif defined(__aarch64__)
    return SM2C_ISA_NEON;
#else
    return SM2C_ISA_OTHER;
#endif
}

void sm2c_target_set_machine(sm2c_target *t, const char *triple, const char *cpu)
{
    t->triple = triple;
    t->cpu = cpu;
    t->cortex_m = is_cortex_m(triple, cpu);
    if (t->cortex_m)
        t->isa = SM2C_ISA_NONE;
    else if (!triple || !triple[0])
        t->isa = host_isa();
    else if (arch_is(triple, "x86_64"))
        t->isa = SM2C_ISA_X86;
    else if (arch_is(triple, "aarch64") || arch_is(triple, "arm64"))
        t->isa = SM2C_ISA_NEON;
    else
        t->isa = SM2C_ISA_OTHER;
}

int sm2c_target_is_host(const sm2c_target *t)
{
    /* --cpu cortex-m4 with no --target names no host either */
    return !t->cortex_m && (!t->triple || !t->triple[0] || (t->isa == host_isa() && t->isa != SM2C_ISA_OTHER));
}

/* An OS to load a shared object: not a Cortex-M, and no triple component
** "none" (thumbv7em-none-eabihf, arm-none-eabi) or last component "elf"
** (riscv32-unknown-elf), the bare-metal spellings. */
int sm2c_target_has_shared_objects(const sm2c_target *t)
{
    if (t->cortex_m)
        return 0;
    const char *p = t->triple;
    while (p && *p) {
        size_t n = strcspn(p, "-");
        if ((n == 4 && !strncmp(p, "none", 4)) || (n == 3 && !strncmp(p, "elf", 3) && !p[n]))
            return 0;
        p += n + (p[n] == '-');
    }
    return 1;
}

int sm2c_target_has_vectors(const sm2c_target *t)
{
    return t->isa != SM2C_ISA_NONE;
}
