/*
** target.h: what the generated code is for, computed once from --opt,
** --target, --cpu and --features, and read by the passes, the lowering and
** both backends, so that `compile` and `run` with the same flags make the
** same program.
*/
#ifndef SM2C_TARGET_H
#define SM2C_TARGET_H

#include <stdint.h>

typedef enum sm2c_vector_isa {
    SM2C_ISA_OTHER,     /* unknown: the portable C paths, treated as a vector core */
    SM2C_ISA_NONE,      /* a scalar core (Cortex-M): rewrites that pay only on
                           vectors are left out (conv_pad.c) */
    SM2C_ISA_X86,       /* x86-64: AVX-512 or AVX2 chosen at run time (simd_f32.h) */
    SM2C_ISA_NEON,      /* AArch64: NEON is baseline */
} sm2c_vector_isa;

typedef struct sm2c_target {
    const char *triple;     /* LLVM triple; NULL: the host */
    const char *cpu;        /* NULL or "": generic */
    const char *features;   /* NULL or "": none ("+fp-armv8,-neon", ...) */
    int32_t opt_level;      /* 0..3; Os and Oz are 2 with a size level */
    int32_t size_level;     /* 0, 1 (Os), 2 (Oz): no rewrite that buys speed with
                               code or arena (pass_hoist.c, conv_pad.c) */
    int32_t cortex_m;       /* an M-profile Arm core: int8 Conv2D filters in the
                               SMLAD kernel's layout (ops_q8.c) */
    sm2c_vector_isa isa;
    int64_t task_work;      /* --task-work: least work (multiply-adds or taps) per task of a
                               split step; 0: the default (lower/split.h) */
} sm2c_target;

/* The host at O2: what a zero-argument compile targets. */
sm2c_target sm2c_target_host(void);

/* Sets opt_level and size_level from "O0".."O3", "Os" or "Oz"; 0 when unknown. */
int sm2c_target_set_opt(sm2c_target *t, const char *level);

/* Sets triple and cpu (either may be NULL) and derives cortex_m and isa. */
void sm2c_target_set_machine(sm2c_target *t, const char *triple, const char *cpu);

/* Whether t has an OS that loads shared objects (not bare metal: no
** Cortex-M, no "none" in the triple, no "...-elf"). */
int sm2c_target_has_shared_objects(const sm2c_target *t);

/* Whether t runs on this machine (no triple, or the host's architecture). */
int sm2c_target_is_host(const sm2c_target *t);

/* Whether t has a vector unit: rewrites that trade code or arena for vector
** speed (the padded copy of a first layer's input) pay only there. */
int sm2c_target_has_vectors(const sm2c_target *t);

#endif
