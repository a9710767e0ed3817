/*
** scatter_nd.c: ScatterNd.  The output starts at zero and each update is
** added at its index tuple in order, as TensorFlow's CPU kernel does, so
** duplicate indices sum in index order.  Every tuple is checked first: an
** out-of-range one is SM2C_RT_ERR_INDEX (TensorFlow reports an error too).
** Integer sums wrap around through unsigned arithmetic (no overflow UB).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define ADD_F32(a, b) ((a) + (b))   /* float and double */
#define ADD_I32(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
#define ADD_I64(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))

#define SCATTER_ND(sfx, T, ADD, ix, I)                                                   \
    SM2C_RT_DEFINE(scatter_nd_##sfx##_##ix, int32_t sm2c_rt_scatter_nd_##sfx##_##ix(const I *idx, const T *updates, T *y, int32_t n, \
                                            int32_t k, const int32_t *dims, int32_t slice) \
    {                                                                                    \
        ptrdiff_t total = slice, i, j, e;                                                \
                                                                                         \
        for (j = 0; j < k; j++)                                                          \
            total *= dims[j];                                                            \
        for (i = 0; i < n; i++)                                                          \
            for (j = 0; j < k; j++)                                                      \
                if (idx[i * k + j] < 0 || idx[i * k + j] >= (I)dims[j])                  \
                    return SM2C_RT_ERR_INDEX;                                            \
        for (e = 0; e < total; e++)                                                      \
            y[e] = 0;                                                                    \
        for (i = 0; i < n; i++) {                                                        \
            ptrdiff_t at = 0;                                                            \
            for (j = 0; j < k; j++)                                                      \
                at = at * dims[j] + (ptrdiff_t)idx[i * k + j];                           \
            for (e = 0; e < slice; e++)                                                  \
                y[at * slice + e] = ADD(y[at * slice + e], updates[i * slice + e]);      \
        }                                                                                \
        return SM2C_RT_OK;                                                               \
    })

#define SCATTER_ND_ALL(ix, I)                                                            \
    SCATTER_ND(f32, float, ADD_F32, ix, I)                                               \
    SCATTER_ND(f64, double, ADD_F32, ix, I)                                              \
    SCATTER_ND(i32, int32_t, ADD_I32, ix, I)                                             \
    SCATTER_ND(i64, int64_t, ADD_I64, ix, I)

SCATTER_ND_ALL(i32, int32_t)
SCATTER_ND_ALL(i64, int64_t)
