/*
** m4_timing.h: the Cortex-M4 cycle cost of one Thumb or Thumb-2 instruction,
** from the Cortex-M4 Technical Reference Manual (Arm 100166_0001_00, r0p1):
** Table 3-1 "Processor instruction set summary" for the core and Table 7-1
** "FPU instruction set" for the FPU, at zero wait states.
**
** The costs that depend on what happens at run time are left to the caller:
** a branch's pipeline refill P (1 to 3 cycles) when it is taken, and the
** pipelining of a single load or store after a load (it takes 1 cycle less
** when its address does not depend on the load's result; nothing pipelines
** after a store).  m4_timing gives the facts for both.  The TRM's section
** 3.3.2 "Load/store timings" gives these rules, and STR with an immediate
** offset as 1 cycle.
*/
#ifndef M4_TIMING_H
#define M4_TIMING_H

#include <stddef.h>
#include <stdint.h>

enum m4_branch {
    M4_NOT_BRANCH,   /* never changes the flow */
    M4_BRANCH_COND,  /* B<cc>, CBZ, CBNZ: 1 + P when taken, 1 when not */
    M4_BRANCH_ALWAYS /* B, BL, BX, BLX, POP/LDM/LDR to PC, TBB/TBH, MOV/ADD to PC: + P */
};

typedef struct m4_cost {
    unsigned cycles;       /* at zero wait states, without P */
    enum m4_branch branch;
    int ldst_single;       /* LDR/STR (any width, any addressing) or VLDR/VSTR: may pipeline */
    int is_load;           /* a single load: what follows it may pipeline */
    int load_reg;          /* a single load's destination core register, else -1 */
    int base_reg;          /* a single load or store's address register, else -1 */
    int divide;            /* SDIV/UDIV: 2 to 12 cycles by the operands (cycles holds M4_DIV_CYCLES) */
} m4_cost;

/* SDIV/UDIV terminate early on small quotients: the TRM gives 2 to 12. */
#define M4_DIV_CYCLES 7

/* The cost of the instruction in bytes[0..size) (2 or 4 bytes, as the
** Thumb instruction stream holds them: little-endian halfwords). */
m4_cost m4_timing(const uint8_t *bytes, size_t size);

#endif
