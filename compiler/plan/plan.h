/*
** plan.h: the memory plan of a lowered entry.
*/
#ifndef SM2C_PLAN_H
#define SM2C_PLAN_H

#include "lower/program.h"

/* Arena offsets for the entry's intermediates by liveness (plan.c). */
sm2c_status sm2c_pass_plan(sm2c_ctx *c, sm2c_entry *e);

/* The same with a fast pool of fast_limit bytes (--fast-arena; 0: none):
** the buffers it takes have `fast` set and their offsets into it, and
** e->fast_arena_bytes is its size. */
sm2c_status sm2c_pass_plan_pools(sm2c_ctx *c, sm2c_entry *e, int64_t fast_limit);

#endif
