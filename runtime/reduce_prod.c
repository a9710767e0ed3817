/*
** reduce_prod.c: Prod over the middle axis of [outer, reduce, inner] for
** float, int32 and int64.  Each output multiplies down its column in order;
** integers wrap in two's complement (computed unsigned), as TensorFlow.
** reduce == 0 gives 1.
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

static inline float sm2c_rt__prod_mul_f32(float a, float b) { return a * b; }
static inline int32_t sm2c_rt__prod_mul_i32(int32_t a, int32_t b)
{
    const uint32_t v = (uint32_t)((0u + (uint32_t)a) * (uint32_t)b);
    return v <= (uint32_t)INT32_MAX ? (int32_t)v : (int32_t)(v - (uint32_t)INT32_MAX - 1u) - INT32_MAX - 1;
}
static inline int64_t sm2c_rt__prod_mul_i64(int64_t a, int64_t b)
{
    const uint64_t v = (uint64_t)((0u + (uint64_t)a) * (uint64_t)b);
    return v <= (uint64_t)INT64_MAX ? (int64_t)v : (int64_t)(v - (uint64_t)INT64_MAX - 1u) - INT64_MAX - 1;
}

#define SM2C_RT__REDUCE_PROD(T, sfx)                                                   \
    SM2C_RT_DEFINE(reduce_prod_##sfx, void sm2c_rt_reduce_prod_##sfx(const T *x, T *y, int32_t outer, int32_t reduce,    \
                                   int32_t inner)                                      \
    {                                                                                  \
        int32_t o, r, i;                                                               \
        for (o = 0; o < outer; o++) {                                                  \
            T *py = y + (ptrdiff_t)o * inner;                                          \
            const T *px = x + (ptrdiff_t)o * reduce * inner;                           \
            for (i = 0; i < inner; i++)                                                \
                py[i] = 1;                                                             \
            for (r = 0; r < reduce; r++, px += inner)                                  \
                for (i = 0; i < inner; i++)                                            \
                    py[i] = sm2c_rt__prod_mul_##sfx(py[i], px[i]);                     \
        }                                                                              \
    })

SM2C_RT__REDUCE_PROD(float, f32)
SM2C_RT__REDUCE_PROD(int32_t, i32)
SM2C_RT__REDUCE_PROD(int64_t, i64)
