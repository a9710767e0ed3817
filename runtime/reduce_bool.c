/*
** reduce_bool.c: All and Any of bool (uint8_t 0/1) over the middle axis of
** [outer, reduce, inner]; reduce == 0 gives true for All, false for Any.
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SM2C_RT__REDUCE_BOOL(op, INIT, EXPR)                                           \
    SM2C_RT_DEFINE(reduce_##op##_b, void sm2c_rt_reduce_##op##_b(const uint8_t *x, uint8_t *y, int32_t outer,          \
                                 int32_t reduce, int32_t inner)                        \
    {                                                                                  \
        int32_t o, r, i;                                                               \
        for (o = 0; o < outer; o++) {                                                  \
            uint8_t *py = y + (ptrdiff_t)o * inner;                                    \
            const uint8_t *px = x + (ptrdiff_t)o * reduce * inner;                     \
            for (i = 0; i < inner; i++)                                                \
                py[i] = (INIT);                                                        \
            for (r = 0; r < reduce; r++, px += inner)                                  \
                for (i = 0; i < inner; i++)                                            \
                    py[i] = (uint8_t)(EXPR);                                           \
        }                                                                              \
    })

SM2C_RT__REDUCE_BOOL(all, 1, py[i] && px[i])
SM2C_RT__REDUCE_BOOL(any, 0, py[i] || px[i])
