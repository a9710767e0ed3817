/*
** reduce_int_widths.c: Sum, Prod, Max, Min and Mean of int8, int16, uint8,
** uint16, uint32 and uint64 over the middle axis of [outer, reduce, inner]
** (issue 33's dtype audit; int32 and int64 are reduce_i32.c, reduce_i64.c,
** reduce_prod.c and reduce_extremum_int.c).
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
#include "rt_select.h"
#include "reduce_col.h"

/* The value of bits u (of unsigned type UT) in T: two's complement for a
** signed T (SWRAP), the bits themselves for an unsigned one (UWRAP). */
#define SM2C_RT__SWRAP(T, UT, TMAX, u)                                                 \
    ((UT)(u) <= (UT)(TMAX) ? (T)(UT)(u) : (T)((T)((UT)(u) - (UT)(TMAX) - 1u) - (TMAX) - 1))
#define SM2C_RT__UWRAP(T, UT, TMAX, u) ((T)(u))

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

#define SM2C_RT__REDUCE_INT(T, UT, TMIN, TMAX, sfx, W, WRAP)                           \
    SM2C_RT__REDUCE_COL(sum, T, sfx, 0, WRAP(T, UT, TMAX, 0u + (UT)a + (UT)v))          \
    SM2C_RT__REDUCE_COL(prod, T, sfx, 1, WRAP(T, UT, TMAX, (0u + (UT)a) * (UT)v))       \
    SM2C_RT__REDUCE_COL(max, T, sfx, TMIN, v > a ? v : a)                              \
    SM2C_RT__REDUCE_COL(min, T, sfx, TMAX, v < a ? v : a)                              \
    SM2C_RT__REDUCE_MEAN(T, sfx, W)

SM2C_RT__REDUCE_INT(int8_t, uint8_t, INT8_MIN, INT8_MAX, i8, int64_t, SM2C_RT__SWRAP)
SM2C_RT__REDUCE_INT(int16_t, uint16_t, INT16_MIN, INT16_MAX, i16, int64_t, SM2C_RT__SWRAP)
SM2C_RT__REDUCE_INT(uint8_t, uint8_t, 0, UINT8_MAX, u8, uint64_t, SM2C_RT__UWRAP)
SM2C_RT__REDUCE_INT(uint16_t, uint16_t, 0, UINT16_MAX, u16, uint64_t, SM2C_RT__UWRAP)
SM2C_RT__REDUCE_INT(uint32_t, uint32_t, 0, UINT32_MAX, u32, uint64_t, SM2C_RT__UWRAP)
SM2C_RT__REDUCE_INT(uint64_t, uint64_t, 0, UINT64_MAX, u64, uint64_t, SM2C_RT__UWRAP)
