/*
** plan.h: the memory plan of a lowered entry.
*/
#ifndef SM2C_PLAN_H
#define SM2C_PLAN_H

#include "lower/program.h"

/* Arena offsets for the entry's intermediates by liveness (plan.c). */
sm2c_status sm2c_pass_plan(sm2c_ctx *c, sm2c_entry *e);

#endif
