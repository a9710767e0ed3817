/*
** reduce_i64.c: Sum and Mean of int64 over the middle axis of [outer, reduce, inner].
**
** Both wrap around in two's complement like TensorFlow's int64 SumReducer
** (computed in uint64); Mean divides that wrapped sum by `reduce`, truncating
** toward zero, and gives 0 for reduce == 0.
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

static inline int64_t sm2c_rt__u64_i64(uint64_t v)
{
    return v <= (uint64_t)INT64_MAX ? (int64_t)v : (int64_t)(v - (uint64_t)INT64_MAX - 1u) - INT64_MAX - 1;
}

#if SM2C_RT_WANT(reduce_sum_i64)
void sm2c_rt_reduce_sum_i64(const int64_t *x, int64_t *y, int32_t outer, int32_t reduce,
                            int32_t inner)
{
    int32_t o, r, i;

    for (o = 0; o < outer; o++) {
        int64_t *py = y + (ptrdiff_t)o * inner;
        const int64_t *px = x + (ptrdiff_t)o * reduce * inner;
        for (i = 0; i < inner; i++)
            py[i] = 0;
        for (r = 0; r < reduce; r++, px += inner)
            for (i = 0; i < inner; i++)
                py[i] = sm2c_rt__u64_i64((uint64_t)(0u + (uint64_t)py[i] + (uint64_t)px[i]));
    }
}
#endif

#if SM2C_RT_WANT(reduce_mean_i64)
void sm2c_rt_reduce_mean_i64(const int64_t *x, int64_t *y, int32_t outer, int32_t reduce,
                             int32_t inner)
{
    const int32_t n = outer * inner;
    int32_t i;

    sm2c_rt_reduce_sum_i64(x, y, outer, reduce, inner);
    for (i = 0; i < n; i++)
        y[i] = reduce > 0 ? y[i] / reduce : 0;
}
#endif
