/*
** simd_s8.h: which vector paths the int8 kernels compile, and how they pick
** one at run time on x86-64 (private to the runtime), as simd_f32.h does for
** the float kernels:
**
**     SM2C_RT_VNNI     AVX-512 with VNNI and BW (vpdpbusd, byte masks)
**     SM2C_RT_S8_AVX2  AVX2 (vpmaddwd on int16)
**     SM2C_RT_SDOT     AArch64's DotProd (sdot), when the compiler targets it
**                      (__ARM_FEATURE_DOTPROD: -march=armv8.2-a+dotprod, or
**                      -mcpu of such a core); chosen at compile time only, so
**                      other AArch64 builds run the C path, which compilers
**                      vectorise with NEON
**
** each 1 when compiled.  Built with -march that enables the ISA, the path is
** called directly (have() is 1); in the portable build of GCC or clang on
** x86-64 ELF both are compiled with target attributes and the caller asks the
** CPU; SM2C_RT_PORTABLE_ONLY (and SM2C_RT_SCALAR_ONLY) leaves the C path
** alone.  Integer sums are exact, so every path gives the C path's bits.
**
** Unoptimised builds (-O0) take the C path too: they keep every intrinsic's
** result in the frame, and the VNNI convolution's chain took 25 KB of stack
** there, over SM2C_RT_STACK_BYTES (the kernel tests build the paths at -O2).
*/
#ifndef SM2C_RT_SIMD_S8_H
#define SM2C_RT_SIMD_S8_H

#include "simd_f32.h"

#if defined(SM2C_RT_PORTABLE_ONLY) || !defined(__x86_64__) || !defined(__OPTIMIZE__)
#define SM2C_RT_VNNI 0
#define SM2C_RT_S8_AVX2 0
#elif defined(__AVX512VNNI__) && defined(__AVX512BW__)
#define SM2C_RT_VNNI 1
#define SM2C_RT_S8_AVX2 0
#define SM2C_RT_TARGET_VNNI
#define sm2c_rt__have_vnni() 1
#elif defined(__AVX2__)
#define SM2C_RT_VNNI 0
#define SM2C_RT_S8_AVX2 1
#define SM2C_RT_TARGET_S8_AVX2
#define sm2c_rt__have_s8_avx2() 1
#elif SM2C_RT_X86_DISPATCH
#define SM2C_RT_VNNI 1
#define SM2C_RT_S8_AVX2 1
#define SM2C_RT_TARGET_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni,avx2")))
#define SM2C_RT_TARGET_S8_AVX2 __attribute__((target("avx2")))
#define sm2c_rt__have_vnni() (__builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw"))
#define sm2c_rt__have_s8_avx2() __builtin_cpu_supports("avx2")
#else
#define SM2C_RT_VNNI 0
#define SM2C_RT_S8_AVX2 0
#endif

#if SM2C_RT_VNNI || SM2C_RT_S8_AVX2
#include <immintrin.h>
#endif

#if defined(__aarch64__) && defined(__ARM_FEATURE_DOTPROD) && defined(__OPTIMIZE__) && \
    !defined(SM2C_RT_PORTABLE_ONLY)
#define SM2C_RT_SDOT 1
#include <arm_neon.h>
#else
#define SM2C_RT_SDOT 0
#endif

#endif
