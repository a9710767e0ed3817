/*
** program_check.h: the lowered program's invariants, checked by each backend.
*/
#ifndef SM2C_PROGRAM_CHECK_H
#define SM2C_PROGRAM_CHECK_H

#include "lower/program.h"

/* `backend` names it in messages ("C", "LLVM"); `elem_size` gives the bytes of
** an element the backend can express, 0 for a dtype it cannot. */
sm2c_status sm2c_program_check(sm2c_ctx *c, const sm2c_program *p, const char *backend,
                               int (*elem_size)(int dtype));

#endif
