/*
** reduce_i32.c: Sum and Mean of int32 over the middle axis of [outer, reduce, inner].
**
** Sum wraps around in two's complement, as TensorFlow (computed in uint32).
** Mean is TensorFlow's: the sum is taken in int64 (tensorflow/core/kernels/
** reduction_ops.h casts int32 to int64 for MeanReducer), divided by `reduce`
** truncating toward zero, so it never overflows; reduce == 0 gives 0.
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SM2C_RT__CHUNK 64

static inline int32_t sm2c_rt__u32_i32(uint32_t v)
{
    return v <= (uint32_t)INT32_MAX ? (int32_t)v : (int32_t)(v - (uint32_t)INT32_MAX - 1u) - INT32_MAX - 1;
}

#if SM2C_RT_WANT(reduce_sum_i32)
void sm2c_rt_reduce_sum_i32(const int32_t *x, int32_t *y, int32_t outer, int32_t reduce,
                            int32_t inner)
{
    int32_t o, r, i;

    for (o = 0; o < outer; o++) {
        int32_t *py = y + (ptrdiff_t)o * inner;
        const int32_t *px = x + (ptrdiff_t)o * reduce * inner;
        for (i = 0; i < inner; i++)
            py[i] = 0;
        for (r = 0; r < reduce; r++, px += inner)
            for (i = 0; i < inner; i++)
                py[i] = sm2c_rt__u32_i32((uint32_t)(0u + (uint32_t)py[i] + (uint32_t)px[i]));
    }
}
#endif

#if SM2C_RT_WANT(reduce_mean_i32)
void sm2c_rt_reduce_mean_i32(const int32_t *x, int32_t *y, int32_t outer, int32_t reduce,
                             int32_t inner)
{
    int64_t acc[SM2C_RT__CHUNK];
    int32_t o, r, i, i0;

    for (o = 0; o < outer; o++) {
        for (i0 = 0; i0 < inner; i0 += SM2C_RT__CHUNK) {
            const int32_t len = inner - i0 < SM2C_RT__CHUNK ? inner - i0 : SM2C_RT__CHUNK;
            const int32_t *px = x + (ptrdiff_t)o * reduce * inner + i0;
            for (i = 0; i < len; i++)
                acc[i] = 0;
            /* |sum| <= reduce * 2^31 < 2^62: no overflow. */
            for (r = 0; r < reduce; r++, px += inner)
                for (i = 0; i < len; i++)
                    acc[i] += px[i];
            for (i = 0; i < len; i++)
                y[(ptrdiff_t)o * inner + i0 + i] = reduce > 0 ? (int32_t)(acc[i] / reduce) : 0;
        }
    }
}
#endif
