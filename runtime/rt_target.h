/*
** rt_target.h: SM2C_RT_SCALAR_CORE, 1 on targets without a vector unit
** (Cortex-M, RISC-V without V), else 0 (private to the runtime and the
** generated code; no other header, so it costs a compile nothing).
**
** Kernels there keep their sums in scalar registers instead of the
** vector-shaped blocks, which would spill, and favour small code; the C
** backend's layer functions inline their loop nests (codegen/c_special.c).
** Defining SM2C_RT_SCALAR_ONLY selects those paths anywhere (the tests use it
** on x86-64); it implies SM2C_RT_PORTABLE_ONLY (simd_f32.h).
*/
#ifndef SM2C_RT_TARGET_H
#define SM2C_RT_TARGET_H

#if defined(SM2C_RT_SCALAR_ONLY) && !defined(SM2C_RT_PORTABLE_ONLY)
#define SM2C_RT_PORTABLE_ONLY 1
#endif

#if defined(SM2C_RT_SCALAR_ONLY) || !(defined(__SSE2__) || defined(__x86_64__) || \
                                      defined(__aarch64__) || defined(__ARM_NEON) || \
                                      defined(__ALTIVEC__) || defined(__riscv_vector))
#define SM2C_RT_SCALAR_CORE 1
#else
#define SM2C_RT_SCALAR_CORE 0
#endif

#endif
