/*
** reduce_extremum_int.c: Max and Min of int32 and int64 over the middle axis
** of [outer, reduce, inner]; reduce == 0 gives the type's lowest (Max) or
** highest (Min) value, as TensorFlow.
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SM2C_RT__REDUCE_EXT_INT(op, T, sfx, INIT, BETTER)                              \
    SM2C_RT_DEFINE(reduce_##op##_##sfx, void sm2c_rt_reduce_##op##_##sfx(const T *x, T *y, int32_t outer, int32_t reduce,  \
                                     int32_t inner)                                    \
    {                                                                                  \
        int32_t o, r, i;                                                               \
        for (o = 0; o < outer; o++) {                                                  \
            T *py = y + (ptrdiff_t)o * inner;                                          \
            const T *px = x + (ptrdiff_t)o * reduce * inner;                           \
            for (i = 0; i < inner; i++)                                                \
                py[i] = (INIT);                                                        \
            for (r = 0; r < reduce; r++, px += inner)                                  \
                for (i = 0; i < inner; i++)                                            \
                    if (px[i] BETTER py[i])                                            \
                        py[i] = px[i];                                                 \
        }                                                                              \
    })

SM2C_RT__REDUCE_EXT_INT(max, int32_t, i32, INT32_MIN, >)
SM2C_RT__REDUCE_EXT_INT(min, int32_t, i32, INT32_MAX, <)
SM2C_RT__REDUCE_EXT_INT(max, int64_t, i64, INT64_MIN, >)
SM2C_RT__REDUCE_EXT_INT(min, int64_t, i64, INT64_MAX, <)
