/*
** live_index.h: the placed buffers whose lifetimes overlap a step range, for
** the arena planner (plan.c), without looking at every placed buffer.
*/
#ifndef SM2C_LIVE_INDEX_H
#define SM2C_LIVE_INDEX_H

#include <stdint.h>

#include "base/arena.h"

typedef struct sm2c_live_index sm2c_live_index;

/* Room for `cap` lifetimes [first, last] within steps 0..max_step. */
sm2c_live_index *sm2c_live_index_new(sm2c_arena *a, int32_t max_step, int32_t cap);
/* Adds lifetime `id` (0 <= id < cap, each once). */
void sm2c_live_index_add(sm2c_live_index *x, int32_t id, int32_t first, int32_t last);
/* The ids added whose lifetime meets [a, b], ascending, into out (room for
** cap); returns how many. */
int32_t sm2c_live_index_find(const sm2c_live_index *x, int32_t a, int32_t b, int32_t *out);

#endif
