/*
** reduce_prod.c: Prod over the middle axis of [outer, reduce, inner] for
** float, int32 and int64.  Each output multiplies down its column in order;
** integers wrap in two's complement (computed unsigned), as TensorFlow.
** reduce == 0 gives 1 (the column reduction of reduce_col.h).
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "reduce_col.h"

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

SM2C_RT__REDUCE_COL(prod, float, f32, 1, sm2c_rt__prod_mul_f32(a, v))
SM2C_RT__REDUCE_COL(prod, int32_t, i32, 1, sm2c_rt__prod_mul_i32(a, v))
SM2C_RT__REDUCE_COL(prod, int64_t, i64, 1, sm2c_rt__prod_mul_i64(a, v))
