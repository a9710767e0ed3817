/*
** reduce_int_widths.c: Sum, Prod, Max, Min and Mean of int8, int16, uint8,
** uint16, uint32 and uint64 over the middle axis of [outer, reduce, inner]
** (issue 33's dtype audit), and Max and Min of int32 and int64 (their Sum,
** Mean and Prod are reduce_i32.c, reduce_i64.c and reduce_prod.c).
**
** TensorFlow's semantics: Sum and Prod wrap in the type (computed unsigned,
** brought back without implementation-defined conversion); Max and Min of an
** empty axis are the type's lowest and highest values, Sum 0, Prod 1.  Mean
** sums in int64 (signed) or uint64 (unsigned), as reduction_ops.h's
** CASTING_SPECIALIZATION does, divides truncating toward zero and converts
** back (the mean of values of the type is in its range); empty gives 0.
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "int_wrap.h"
#include "rt_select.h"
#include "reduce_col.h"


/* Mean: the column's sum in the wide type W, divided by reduce. */
#define SM2C_RT__REDUCE_MEAN(T, sfx, W)                                                \
    SM2C_RT_DEFINE(reduce_mean_##sfx, void sm2c_rt_reduce_mean_##sfx(const T *x, T *y,  \
                       int32_t outer, int32_t reduce, int32_t inner)                   \
    {                                                                                  \
        int32_t o, r, i;                                                               \
        for (o = 0; o < outer; o++)                                                    \
            for (i = 0; i < inner; i++) {                                              \
                const T *px = x + (ptrdiff_t)o * reduce * inner + i;                   \
                W s = 0;                                                               \
                for (r = 0; r < reduce; r++)                                           \
                    s += (W)px[(ptrdiff_t)r * inner];                                  \
                y[(ptrdiff_t)o * inner + i] = reduce > 0 ? (T)(s / (W)reduce) : 0;     \
            }                                                                          \
    })

#define SM2C_RT__REDUCE_EXTREMA(T, UT, TMIN, TMAX, sfx, WRAP, W)                        \
    SM2C_RT__REDUCE_COL(max, T, sfx, TMIN, v > a ? v : a)                              \
    SM2C_RT__REDUCE_COL(min, T, sfx, TMAX, v < a ? v : a)

#define SM2C_RT__REDUCE_INT(T, UT, TMIN, TMAX, sfx, WRAP, W)                           \
    SM2C_RT__REDUCE_COL(sum, T, sfx, 0, SM2C_RT__WRAP_ADD(T, UT, TMAX, WRAP, a, v))    \
    SM2C_RT__REDUCE_COL(prod, T, sfx, 1, SM2C_RT__WRAP_MUL(T, UT, TMAX, WRAP, a, v))   \
    SM2C_RT__REDUCE_EXTREMA(T, UT, TMIN, TMAX, sfx, WRAP, W)                           \
    SM2C_RT__REDUCE_MEAN(T, sfx, W)

SM2C_RT__INTS_32_64(SM2C_RT__REDUCE_EXTREMA)
SM2C_RT__INTS_OTHER(SM2C_RT__REDUCE_INT)
