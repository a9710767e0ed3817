/*
** cflow.h: structured control flow in the IR.
**
** The IR stays one flat node list.  An If (or one level of a Case) is
**   IfBegin(cond)  [then nodes]  IfElse(then results...)  [else nodes]
**   IfEnd(else results...) -> the If's outputs
** and a While is
**   LoopBegin(initial values...) -> the carried values V
**   [cond nodes on V]  LoopCond(c)  [body nodes on V]
**   LoopEnd(body results...) -> the While's outputs (V after the last run)
** The three marker nodes of one construct share one sm2c_cflow.  Lowering
** turns them into the SM2C_CTL_* steps of program.h.
*/
#ifndef SM2C_CFLOW_H
#define SM2C_CFLOW_H

#include "ir/ir.h"

struct sm2c_lower;

typedef enum sm2c_cflow_kind { SM2C_CF_IF, SM2C_CF_LOOP } sm2c_cflow_kind;

typedef struct sm2c_cflow {
    sm2c_cflow_kind kind;
    sm2c_node *begin, *middle, *end;
    int64_t case_value;     /* IF: -1 tests cond for nonzero, else cond == case_value */
    int64_t cap;            /* LOOP: most runs of the body before SM2C_RT_ERR_ITERATIONS */
    int live;               /* set by dead-code elimination */
    int32_t counter_buf;    /* LOOP: set by lowering */
    struct sm2c_cflow *outer;   /* LOOP: the loop around it, or NULL */
    int64_t trips;          /* LOOP: static bound of the body's runs, -1 when none is known */
    int writes;             /* a node inside writes a variable: the construct is kept (pass_dce.c) */
} sm2c_cflow;

#endif
