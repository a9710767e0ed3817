/*
** dsp_s8.h: the Arm DSP extension's SIMD32 instructions for the int8
** kernels (private to the runtime).  SM2C_RT_DSP_S8 is 1 when the target
** has them (__ARM_FEATURE_DSP and __ARM_FEATURE_SIMD32: Cortex-M4, M7, M33,
** M55; Armv7-A; Armv5TE has the first alone) and SM2C_RT_PORTABLE_ONLY is
** not defined.
**
** SMLAD adds two 16-bit products to a 32-bit sum in one instruction.  Four
** int8 values in a word become two int16 pairs with SXTB16: bytes 0 and 2
** (dsp8_even), and bytes 1 and 3 after a rotation (dsp8_odd).  x - in_zp
** lies in [-255, 255] and a filter value in [-128, 127], so the pairs hold
** them exactly and every sum is the C path's (integer sums are exact; the
** compiler proves they fit int32, reliability.md 6.5).
*/
#ifndef SM2C_RT_DSP_S8_H
#define SM2C_RT_DSP_S8_H

#include <stdint.h>
#include <string.h>

#if defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && !defined(SM2C_RT_PORTABLE_ONLY)
#define SM2C_RT_DSP_S8 1
#include <arm_acle.h>

/* Four bytes from p, aligned or not (Armv7-M loads words at any address). */
static inline uint32_t dsp8_load(const int8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* (b0, b2) and (b1, b3) of a word of four int8, as int16 pairs. */
static inline int16x2_t dsp8_even(uint32_t v)
{
    return __sxtb16((int8x4_t)v);
}

/* SXTB16 with its rotation, one instruction (gcc 12 emits the rotation
** apart, and has no __ror). */
static inline int16x2_t dsp8_odd(uint32_t v)
{
    int16x2_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
    return r;
}

/* (v, v) as an int16 pair: the zero point's negation, added by SADD16. */
static inline int16x2_t dsp8_splat(int32_t v)
{
    return (int16x2_t)((uint32_t)(uint16_t)v * 0x10001u);
}

/* (a.lo, b.lo) and (a.hi, b.hi): PKHBT and PKHTB, which gcc 12 neither
** offers as intrinsics nor finds in the masks and shifts (two and three
** instructions). */
static inline int16x2_t dsp8_pack_lo(int16x2_t a, int16x2_t b)
{
    int16x2_t r;
    __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

static inline int16x2_t dsp8_pack_hi(int16x2_t a, int16x2_t b)
{
    int16x2_t r;
    __asm__("pkhtb %0, %2, %1, asr #16" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
#else
#define SM2C_RT_DSP_S8 0
#endif

/* The inner loops written in assembly (conv_ohwi_s8.c, conv_m_s8.h) hold up
** to 13 registers at once; an unoptimised build keeps a frame pointer and
** cannot give them ("impossible constraints"), so it takes the C loops,
** which give the same bits. */
#if SM2C_RT_DSP_S8 && defined(__OPTIMIZE__)
#define SM2C_RT_DSP_ASM 1
#else
#define SM2C_RT_DSP_ASM 0
#endif

/* For the assembly kernels: q8m_fast (q8_m.h) of the sum in register S
** with multiplier M, 2^(e-1) RND and right shift E, as assembler text. */
#define SM2C_RT_ASM_RQ(S, M, RND, E)                                                                           \
    "lsls " S ", " S ", #1\n\t"                                                                                \
    "smmulr " S ", " S ", " M "\n\t"                                                                           \
    "sub " S ", " S ", " S ", lsr #31\n\t"                                                                     \
    "add " S ", " S ", " RND "\n\t"                                                                            \
    "asr " S ", " S ", " E "\n\t"

/* S clamped to [LO, HI], registers, as assembler text. */
#define SM2C_RT_ASM_CLAMP(S, LO, HI)                                                                           \
    "cmp " S ", " LO "\n\t"                                                                                    \
    "it lt\n\t"                                                                                                \
    "movlt " S ", " LO "\n\t"                                                                                  \
    "cmp " S ", " HI "\n\t"                                                                                    \
    "it gt\n\t"                                                                                                \
    "movgt " S ", " HI "\n\t"

/* A naked function's stack, its assembly's own pushes: gcc reports 0 bytes
** for it, and cmake/rt_stack.py, which bounds each kernel's stack for the
** generated header, reads this instead.  Expands to nothing. */
#define SM2C_RT_NAKED_STACK(fn, bytes)

#endif
