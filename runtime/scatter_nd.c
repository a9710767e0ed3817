/*
** scatter_nd.c: ScatterNd.  The output starts at zero and each update is
** added at its index tuple in order, as TensorFlow's CPU kernel does, so
** duplicate indices sum in index order.  Every tuple is checked first: an
** out-of-range one is SM2C_RT_ERR_INDEX (TensorFlow reports an error too).
** Integer sums wrap around through unsigned arithmetic (int_wrap.h).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "int_wrap.h"
#include "rt_select.h"

#define ADD_F32(a, b) ((a) + (b))   /* float and double */
#define SCATTER_ADD_INT(T, UT, TMIN, TMAX, sfx, WRAP, W)                                 \
    static inline T scatter_add_##sfx(T a, T b) { return SM2C_RT__WRAP_ADD(T, UT, TMAX, WRAP, a, b); }
SM2C_RT__INTS_32_64(SCATTER_ADD_INT)
SM2C_RT__INTS_OTHER(SCATTER_ADD_INT)

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
    SCATTER_ND(i32, int32_t, scatter_add_i32, ix, I)                                     \
    SCATTER_ND(i64, int64_t, scatter_add_i64, ix, I)                                     \
    SCATTER_ND(i8, int8_t, scatter_add_i8, ix, I)                                        \
    SCATTER_ND(i16, int16_t, scatter_add_i16, ix, I)                                     \
    SCATTER_ND(u8, uint8_t, scatter_add_u8, ix, I)                                       \
    SCATTER_ND(u16, uint16_t, scatter_add_u16, ix, I)                                    \
    SCATTER_ND(u32, uint32_t, scatter_add_u32, ix, I)                                    \
    SCATTER_ND(u64, uint64_t, scatter_add_u64, ix, I)

SCATTER_ND_ALL(i32, int32_t)
SCATTER_ND_ALL(i64, int64_t)
