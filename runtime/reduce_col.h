/*
** reduce_col.h: private to the runtime.  The column reduction over the middle
** axis of [outer, reduce, inner] that reduce_int_widths.c and reduce_f64.c
** instantiate: each output starts at INIT and takes y = STEP(a = y, v = x) down
** its column, in order.
*/
#ifndef SM2C_RT_REDUCE_COL_H
#define SM2C_RT_REDUCE_COL_H

#include <stddef.h>
#include <stdint.h>

#include "rt_select.h"

/* acc = acc OP v for one output column; INIT the empty axis' value. */
#define SM2C_RT__REDUCE_COL(name, T, sfx, INIT, STEP)                                  \
    SM2C_RT_DEFINE(reduce_##name##_##sfx, void sm2c_rt_reduce_##name##_##sfx(const T *x, T *y, \
                       int32_t outer, int32_t reduce, int32_t inner)                   \
    {                                                                                  \
        int32_t o, r, i;                                                               \
        for (o = 0; o < outer; o++) {                                                  \
            T *py = y + (ptrdiff_t)o * inner;                                          \
            const T *px = x + (ptrdiff_t)o * reduce * inner;                           \
            for (i = 0; i < inner; i++)                                                \
                py[i] = (INIT);                                                        \
            for (r = 0; r < reduce; r++, px += inner)                                  \
                for (i = 0; i < inner; i++) {                                          \
                    const T a = py[i], v = px[i];                                      \
                    py[i] = (STEP);                                                    \
                }                                                                      \
        }                                                                              \
    })

#endif
