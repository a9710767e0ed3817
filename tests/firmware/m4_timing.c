/*
** m4_timing.c: Thumb-2 instruction classes and their Cortex-M4 cycles
** (m4_timing.h).  The encodings follow the ARMv7-M Architecture Reference
** Manual (DDI 0403E), section A5 "The Thumb instruction set encoding"; the
** cycles, the TRM tables named in m4_timing.h:
**   data processing, MOV/MOVW/MOVT, shifts, compares, extends, bit fields,
**   saturation, the DSP extension's parallel and packed operations,
**   MUL, MLA, MLS, long multiplies, SMLAxy, SMLAD, SMMLA ...       1
**   SDIV, UDIV                                                    2 to 12
**   LDR (all widths), STR with a register offset    2 (1 pipelined after LDR)
**   STR with an immediate offset                                     1
**   LDRD/STRD, LDM/STM, PUSH/POP                            1 + N
**   LDREX/STREX                                                      2
**   B, BL, BX, BLX                                               1 + P
**   B<cc>, CBZ, CBNZ                                        1 (+ P if taken)
**   TBB/TBH, LDR PC                                             2 + P
**   POP/LDM with PC                                           1 + N + P
**   FPU: VADD, VSUB, VMUL, VNMUL, VABS, VNEG, VCMP, VCVT, VMOV      1
**        VMLA, VMLS, VNMLA, VNMLS, VFMA, VFMS, VFNMA, VFNMS          3
**        VDIV, VSQRT                                               14
**        VLDR, VSTR                                 2 (1 when pipelined)
**        VLDM, VSTM, VPUSH, VPOP                                1 + N
**        VMOV of two core registers, VMRS, VMSR                    1-2
*/
#include "m4_timing.h"

static unsigned popcount16(unsigned v)
{
    unsigned n = 0;
    for (v &= 0xffff; v; v &= v - 1)
        n++;
    return n;
}

static m4_cost plain(unsigned cycles)
{
    return (m4_cost){ cycles, M4_NOT_BRANCH, 0, 0, -1, -1, 0 };
}

static m4_cost branch(unsigned cycles, enum m4_branch kind)
{
    m4_cost c = plain(cycles);
    c.branch = kind;
    return c;
}

/* A single load or store: LDR 2 (1 when pipelined after a load); STR with an
** immediate offset 1 (its data phase overlaps the next instruction), with a
** register offset 2 (1 when pipelined after a load). */
static m4_cost single(int load, int rt, int rn, int reg_offset)
{
    m4_cost c = plain(load || reg_offset ? 2 : 1);
    c.ldst_single = 1;
    c.is_load = load;
    c.load_reg = load ? rt : -1;
    c.base_reg = rn;
    if (load && rt == 15) {   /* LDR PC: 2 + P */
        c.ldst_single = c.is_load = 0;
        c.branch = M4_BRANCH_ALWAYS;
    }
    return c;
}

/* ---- 16-bit encodings ---------------------------------------------------- */

static m4_cost misc16(unsigned hw)
{
    if ((hw & 0xf500) == 0xb100)                          /* CBZ, CBNZ */
        return branch(1, M4_BRANCH_COND);
    if ((hw & 0xfe00) == 0xb400)                          /* PUSH: + LR */
        return plain(1 + popcount16(hw & 0xff) + ((hw >> 8) & 1));
    if ((hw & 0xfe00) == 0xbc00) {                        /* POP: + PC */
        unsigned n = popcount16(hw & 0xff) + ((hw >> 8) & 1);
        return (hw & 0x100) ? branch(1 + n, M4_BRANCH_ALWAYS) : plain(1 + n);
    }
    return plain(1);   /* SP adjust, extends, REV, CPS, IT, hints, BKPT */
}

static m4_cost thumb16(unsigned hw)
{
    unsigned top5 = hw >> 11;
    if (hw < 0x4400)                                      /* shifts, add/sub/mov/cmp, ALU (MULS: 1) */
        return plain(1);
    if (hw < 0x4800) {                                    /* special data, BX, BLX */
        unsigned op = (hw >> 8) & 3, rd = (hw & 7) | ((hw >> 4) & 8);
        if (op == 3 || (op != 1 && rd == 15))
            return branch(1, M4_BRANCH_ALWAYS);
        return plain(1);
    }
    if (top5 == 0x09)                                     /* LDR literal */
        return single(1, (int)((hw >> 8) & 7), 15, 0);
    if (hw >= 0x5000 && hw < 0x6000) {                    /* register offset */
        unsigned op = (hw >> 9) & 7;
        return single(op >= 3, (int)(hw & 7), (int)((hw >> 3) & 7), 1);
    }
    if (hw >= 0x6000 && hw < 0x9000)                      /* immediate offset, word/byte/half */
        return single((hw >> 11) & 1, (int)(hw & 7), (int)((hw >> 3) & 7), 0);
    if (hw >= 0x9000 && hw < 0xa000)                      /* SP-relative */
        return single((hw >> 11) & 1, (int)((hw >> 8) & 7), 13, 0);
    if (hw < 0xb000)                                      /* ADR, ADD SP */
        return plain(1);
    if (hw < 0xc000)
        return misc16(hw);
    if (hw < 0xd000)                                      /* STM, LDM */
        return plain(1 + popcount16(hw & 0xff));
    if (hw < 0xe000) {
        unsigned cond = (hw >> 8) & 0xf;
        return cond < 0xe ? branch(1, M4_BRANCH_COND) : plain(1);   /* UDF, SVC */
    }
    return branch(1, M4_BRANCH_ALWAYS);                   /* B */
}

/* ---- 32-bit encodings ---------------------------------------------------- */

/* Coprocessor space: the FPU (coprocessors 10 and 11). */
static m4_cost fpu32(unsigned hw1, unsigned hw2)
{
    if ((hw2 & 0x0e00) != 0x0a00)
        return plain(1);                                  /* another coprocessor: none on an M4F */
    if ((hw1 & 0xffe0) == 0xec40)                         /* VMOV two core registers */
        return plain(2);
    if ((hw1 & 0xfe00) == 0xec00) {                     /* 0xec00-0xedff: loads and stores */
        if ((hw1 & 0xff20) == 0xed00) {                   /* VLDR, VSTR */
            m4_cost c = plain(2);
            c.ldst_single = 1;
            c.is_load = (hw1 >> 4) & 1;
            c.base_reg = (int)(hw1 & 0xf);
            return c;
        }
        return plain(1 + (hw2 & 0xff));                   /* VLDM, VSTM, VPUSH, VPOP: N words */
    }
    if ((hw1 & 0xff00) != 0xee00 || (hw2 & 0x10))
        return plain(1);                                  /* VMOV core <-> S, VMRS, VMSR */
    unsigned opc1 = ((hw1 >> 5) & 4) | ((hw1 >> 4) & 3), opc2 = hw1 & 0xf, opc3 = (hw2 >> 6) & 3;
    switch (opc1) {
    case 0: case 1: case 5: case 6:                       /* VMLA VMLS VNMLA VNMLS VFNMA VFNMS VFMA VFMS */
        return plain(3);
    case 4:                                               /* VDIV */
        return plain(14);
    case 7:
        return opc2 == 1 && opc3 == 3 ? plain(14) : plain(1);   /* VSQRT; else VMOV imm, VABS, VNEG, VCMP, VCVT */
    default:                                              /* VMUL VNMUL VADD VSUB */
        return plain(1);
    }
}

static m4_cost ldst_multiple(unsigned hw1, unsigned hw2)
{
    unsigned n = popcount16(hw2), load = (hw1 >> 4) & 1;
    if (load && (hw2 & 0x8000))
        return branch(1 + n, M4_BRANCH_ALWAYS);
    return plain(1 + n);
}

static m4_cost dual_exclusive_table(unsigned hw1, unsigned hw2)
{
    if ((hw1 & 0xfff0) == 0xe8d0 && (hw2 & 0xffe0) == 0xf000)
        return branch(2, M4_BRANCH_ALWAYS);               /* TBB, TBH */
    if ((hw1 & 0x0120) == 0 && (hw1 & 0x0080) == 0)
        return plain(2);                                  /* LDREX, STREX */
    if ((hw1 & 0xffe0) == 0xe8c0)
        return plain(2);                                  /* LDREXB/H, STREXB/H */
    return plain(3);                                      /* LDRD, STRD: 1 + N, N = 2 */
}

static m4_cost thumb32(unsigned hw1, unsigned hw2)
{
    unsigned op1 = (hw1 >> 11) & 3;
    if (op1 == 1) {
        if ((hw1 & 0xfe40) == 0xe800)
            return ldst_multiple(hw1, hw2);
        if ((hw1 & 0xfe40) == 0xe840)
            return dual_exclusive_table(hw1, hw2);
        if ((hw1 & 0xfe00) == 0xea00)
            return plain(1);                              /* data processing, shifted register */
        return fpu32(hw1, hw2);
    }
    if (op1 == 2) {
        if (!(hw2 & 0x8000))
            return plain(1);                              /* data processing, immediate */
        if ((hw2 & 0x5000) == 0x1000 || (hw2 & 0x5000) == 0x5000)
            return branch(1, M4_BRANCH_ALWAYS);           /* B.W, BL */
        if ((hw2 & 0x5000) == 0 && ((hw1 >> 7) & 7) != 7)
            return branch(1, M4_BRANCH_COND);             /* B<cc>.W */
        return plain(2);                                  /* MSR, MRS, hints, barriers */
    }
    if ((hw1 & 0xfe00) == 0xf800)                         /* 0xf800-0xf9ff: single loads and stores */
        return single((hw1 >> 4) & 1, (int)(hw2 >> 12), (int)(hw1 & 0xf), !(hw1 & 0x80) && !(hw2 & 0x800));
    if ((hw1 & 0xff80) == 0xfb80 && (hw1 & 0x0050) == 0x0010 && (hw2 & 0x00f0) == 0x00f0) {
        m4_cost c = plain(M4_DIV_CYCLES);                 /* SDIV (0xfb9x), UDIV (0xfbbx) */
        c.divide = 1;
        return c;
    }
    if ((hw1 & 0xec00) == 0xec00)
        return fpu32(hw1, hw2);
    return plain(1);   /* data processing (register), multiplies, long multiplies */
}

m4_cost m4_timing(const uint8_t *bytes, size_t size)
{
    unsigned hw1 = (unsigned)bytes[0] | (unsigned)bytes[1] << 8;
    if (size < 4)
        return thumb16(hw1);
    return thumb32(hw1, (unsigned)bytes[2] | (unsigned)bytes[3] << 8);
}
