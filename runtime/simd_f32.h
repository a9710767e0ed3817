/*
** simd_f32.h: which vector paths a runtime file compiles, and how it picks
** one at run time on x86-64 (private to the runtime).
**
** SM2C_RT_AVX512 / SM2C_RT_AVX2 are 1 when the path is compiled.  Built with
** -march that enables the ISA, the path is the only one and is called
** directly.  Built without it (the portable build), GCC and clang on x86-64 ELF
** still compile the paths, each function marked with a target attribute, and
** the caller asks the CPU once per call (__builtin_cpu_supports): a portable
** binary runs at the speed of a native one on a CPU that has the ISA.  Other
** compilers and targets get the portable C path alone, and so does a build
** with SM2C_RT_PORTABLE_ONLY defined (the tests use it to reach that path).
** SM2C_RT_NEON is 1 on AArch64, where NEON is baseline: its paths are called
** directly, with no dispatch (again unless SM2C_RT_PORTABLE_ONLY).
** SM2C_RT_SCALAR_CORE comes from rt_target.h.
*/
#ifndef SM2C_RT_SIMD_F32_H
#define SM2C_RT_SIMD_F32_H

#include <stddef.h>
#include <stdint.h>

#include "rt_target.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && defined(__ELF__) && \
    !defined(SM2C_RT_PORTABLE_ONLY)
#define SM2C_RT_X86_DISPATCH 1
#else
#define SM2C_RT_X86_DISPATCH 0
#endif

#if defined(SM2C_RT_PORTABLE_ONLY)
#define SM2C_RT_AVX512 0
#define SM2C_RT_AVX2 0
#elif defined(__AVX512F__) && defined(__FMA__)
#define SM2C_RT_AVX512 1
#define SM2C_RT_AVX2 0
#define SM2C_RT_TARGET_AVX512
#define sm2c_rt__have_avx512() 1
#elif defined(__AVX2__) && defined(__FMA__)
#define SM2C_RT_AVX512 0
#define SM2C_RT_AVX2 1
#define SM2C_RT_TARGET_AVX2
#define sm2c_rt__have_avx2() 1
#elif SM2C_RT_X86_DISPATCH
#define SM2C_RT_AVX512 1
#define SM2C_RT_AVX2 1
#define SM2C_RT_TARGET_AVX512 __attribute__((target("avx512f,avx2,fma")))
#define SM2C_RT_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define sm2c_rt__have_avx512() __builtin_cpu_supports("avx512f")
#define sm2c_rt__have_avx2() (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
#else
#define SM2C_RT_AVX512 0
#define SM2C_RT_AVX2 0
#endif

#if SM2C_RT_AVX512 || SM2C_RT_AVX2
#include <immintrin.h>
#endif

#if defined(__aarch64__) && defined(__ARM_NEON) && !defined(SM2C_RT_PORTABLE_ONLY)
#define SM2C_RT_NEON 1
#include <arm_neon.h>
#else
#define SM2C_RT_NEON 0
#endif

/* No contraction of a * b + c written in C in the files that include this:
** clang contracts by default where the target has FMA, which the AVX-512
** and AVX2 clones have, and the same kernel then rounded differently in two
** builds of a model (its C and its shared-object forms, cli_e2e_llvm under
** clang).  gcc -std=c99 does not contract.  FMA stays where a kernel asks
** for it with an intrinsic. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* Plain C loops that the SIMD paths leave to the vectoriser: gcc -O2's very
** cheap cost model refuses loops that need an epilogue, an alias check or
** if-converted branches, so on x86-64 and AArch64 those functions ask for the
** cheap one (clang -O2 takes them as is; -Os builds keep their size). */
#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__aarch64__)) && \
    !defined(__OPTIMIZE_SIZE__)
#define SM2C_RT_VECTORISE __attribute__((optimize("tree-vectorize", "vect-cost-model=cheap")))
#else
#define SM2C_RT_VECTORISE
#endif

/*
** Plain C kernels the vectoriser handles, cloned per ISA: given
**     static SM2C_RT_ALWAYS_INLINE void NAME_body PARAMS { ... }
** SM2C_RT_CLONES(NAME, PARAMS, ARGS) defines NAME_avx512 and NAME_avx2, the
** body compiled for each, and SM2C_RT_PICK(NAME, ARGS) in the kernel calls
** the best one this CPU runs and returns (else falls through to the body).
** PARAMS and ARGS are parenthesised lists.
*/
#if SM2C_RT_AVX512
#define SM2C_RT__CLONE512(name, params, args)                                              \
    SM2C_RT_TARGET_AVX512 SM2C_RT_VECTORISE static void name##_avx512 params               \
    {                                                                                      \
        name##_body args;                                                                  \
    }
#define SM2C_RT__PICK512(name, args)                                                       \
    if (sm2c_rt__have_avx512()) {                                                          \
        name##_avx512 args;                                                                \
        return;                                                                            \
    }
#else
#define SM2C_RT__CLONE512(name, params, args)
#define SM2C_RT__PICK512(name, args)
#endif
#if SM2C_RT_AVX2
#define SM2C_RT__CLONE256(name, params, args)                                              \
    SM2C_RT_TARGET_AVX2 SM2C_RT_VECTORISE static void name##_avx2 params                   \
    {                                                                                      \
        name##_body args;                                                                  \
    }
#define SM2C_RT__PICK256(name, args)                                                       \
    if (sm2c_rt__have_avx2()) {                                                            \
        name##_avx2 args;                                                                  \
        return;                                                                            \
    }
#else
#define SM2C_RT__CLONE256(name, params, args)
#define SM2C_RT__PICK256(name, args)
#endif
#define SM2C_RT_CLONES(name, params, args)                                                 \
    SM2C_RT__CLONE512(name, params, args) SM2C_RT__CLONE256(name, params, args)
#define SM2C_RT_PICK(name, args) SM2C_RT__PICK512(name, args) SM2C_RT__PICK256(name, args)

/*
** Weights ahead of their use.  A layer whose filter is read from memory
** (megabytes, once per call: late layers of few pixels) and reused over few
** pixels stalls while its first block fetches the filter.  The kernels
** prefetch the next block's filter into L2 in parts spread over the current
** block's work, so the fetch overlaps its arithmetic.  A hint
** only: no result depends on it, and a compiler without the builtin, or a
** scalar core (whose kernels take other paths), gets nothing.
*/
#if (defined(__GNUC__) || defined(__clang__)) && !SM2C_RT_SCALAR_CORE
#define SM2C_RT_PREFETCH_L2(p) __builtin_prefetch((p), 0, 2)
#else
#define SM2C_RT_PREFETCH_L2(p) ((void)(p))
#endif
enum { SM2C_RT_LINE = 64 };

/* Part `part` of `parts` of the bytes [p, p + bytes): its lines [*first, *end). */
static inline void sm2c_rt__prefetch_share(const void *p, size_t bytes, int32_t part, int32_t parts,
                                           const char **first, const char **end)
{
    const size_t lines = (bytes + SM2C_RT_LINE - 1) / SM2C_RT_LINE;
    const size_t each = (lines + (size_t)parts - 1) / (size_t)parts;
    const size_t i = each * (size_t)part < lines ? each * (size_t)part : lines;

    *first = (const char *)p + i * SM2C_RT_LINE;
    *end = (const char *)p + (i + each < lines ? i + each : lines) * SM2C_RT_LINE;
}

/* Part `part` of `parts` of the bytes [p, p + bytes), a cache line each. */
static inline void sm2c_rt__prefetch_part(const void *p, size_t bytes, int32_t part, int32_t parts)
{
    const char *line, *end;

    for (sm2c_rt__prefetch_share(p, bytes, part, parts, &line, &end); line < end; line += SM2C_RT_LINE)
        SM2C_RT_PREFETCH_L2(line);
}

#endif
