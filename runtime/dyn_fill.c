/*
** dyn_fill.c: before a Max or Min of integers over a data-dependent dim
** (compiler/ops/ops_dyn.c), the rows [*count, bound) of x set to the
** dtype's lowest (Max) or highest (Min) value, so they change nothing and
** an empty reduction gives TensorFlow's identity.  x is [outer, bound,
** inner] elements.
*/
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SM2C_RT__DYN_FILL(T, sfx, LO, HI)                                                       \
    SM2C_RT_DEFINE(dyn_fill_extreme_##sfx,                                                      \
    void sm2c_rt_dyn_fill_extreme_##sfx(T *x, const int64_t *count, int32_t outer, int32_t bound, \
                                       int32_t inner, int32_t lowest)                           \
    {                                                                                           \
        int64_t c = *count < 0 ? 0 : *count, o, k;                                              \
        for (o = 0; c < bound && o < outer; o++)                                                \
            for (k = c * inner; k < (int64_t)bound * inner; k++)                                \
                x[o * bound * inner + k] = lowest ? (LO) : (HI);                                \
    })

SM2C_RT__DYN_FILL(int32_t, i32, INT32_MIN, INT32_MAX)
SM2C_RT__DYN_FILL(int64_t, i64, INT64_MIN, INT64_MAX)
