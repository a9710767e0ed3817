/*
** arg_extremum.c: ArgMax and ArgMin over the middle axis of
** [outer, reduce, inner], int32 or int64 indices.
**
** Eigen's ArgMaxPairReducer, as TensorFlow 2.21 runs it: the running best
** starts at (index 0, lowest finite value) and moves to a later element only
** when that is strictly greater (ArgMin: strictly smaller, from the highest
** finite value).  So ties keep the first index, a NaN never wins, and a row
** with nothing greater than the start value (all NaN, all -Inf) gives 0.
*/
#include <float.h>
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SM2C_RT__ARG(op, T, sfx, I, isfx, START, BETTER)                               \
    SM2C_RT_DEFINE(op##_##sfx##_##isfx, void sm2c_rt_##op##_##sfx##_##isfx(const T *x, I *y, int32_t outer, int32_t reduce, \
                                       int32_t inner)                                  \
    {                                                                                  \
        int32_t o, r, i;                                                               \
        for (o = 0; o < outer; o++) {                                                  \
            const T *px = x + (ptrdiff_t)o * reduce * inner;                           \
            for (i = 0; i < inner; i++) {                                              \
                T best = (START);                                                      \
                I at = 0;                                                              \
                for (r = 0; r < reduce; r++) {                                         \
                    const T v = px[(ptrdiff_t)r * inner + i];                          \
                    if (v BETTER best) {                                               \
                        best = v;                                                      \
                        at = (I)r;                                                     \
                    }                                                                  \
                }                                                                      \
                y[(ptrdiff_t)o * inner + i] = at;                                      \
            }                                                                          \
        }                                                                              \
    })

#define SM2C_RT__ARGS(T, sfx, LOWEST, HIGHEST)                                         \
    SM2C_RT__ARG(arg_max, T, sfx, int32_t, i32, LOWEST, >)                             \
    SM2C_RT__ARG(arg_max, T, sfx, int64_t, i64, LOWEST, >)                             \
    SM2C_RT__ARG(arg_min, T, sfx, int32_t, i32, HIGHEST, <)                            \
    SM2C_RT__ARG(arg_min, T, sfx, int64_t, i64, HIGHEST, <)

SM2C_RT__ARGS(float, f32, -FLT_MAX, FLT_MAX)
SM2C_RT__ARGS(double, f64, -DBL_MAX, DBL_MAX)
SM2C_RT__ARGS(int32_t, i32, INT32_MIN, INT32_MAX)
SM2C_RT__ARGS(int64_t, i64, INT64_MIN, INT64_MAX)
SM2C_RT__ARGS(int8_t, i8, INT8_MIN, INT8_MAX)
SM2C_RT__ARGS(int16_t, i16, INT16_MIN, INT16_MAX)
SM2C_RT__ARGS(uint8_t, u8, 0, UINT8_MAX)
SM2C_RT__ARGS(uint16_t, u16, 0, UINT16_MAX)
SM2C_RT__ARGS(uint32_t, u32, 0, UINT32_MAX)
SM2C_RT__ARGS(uint64_t, u64, 0, UINT64_MAX)
/* bool (0/1 bytes): ArgMax the first true, ArgMin the first false, else 0. */
SM2C_RT__ARGS(uint8_t, b, 0, 1)
