/*
** bincount.c: DenseBincount (Keras CategoryEncoding "multi_hot" and
** "count").  x is `rows` rows of n values (one row for a 1-D input); row r of
** y gets size bins.  Bin v of a row counts its values equal to v, or sums
** their weights w (same layout as x; NULL for none) in input order, or is 1
** when binary and any value equals v.  Values >= size are dropped, as in
** TensorFlow; a negative value is SM2C_RT_ERR_INDEX before anything is
** written (TensorFlow's CPU kernel reports an error).  Integer sums wrap
** around through unsigned arithmetic (no overflow UB).
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define ADD_F32(a, b) ((a) + (b))
#define ADD_F64(a, b) ((a) + (b))
#define ADD_I32(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
#define ADD_I64(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))

#define BINCOUNT(sfx, T, ADD, ix, I)                                                     \
    SM2C_RT_DEFINE(bincount_##sfx##_##ix, int32_t sm2c_rt_bincount_##sfx##_##ix(const I *x, const T *w, T *y, int32_t rows, \
                                          int32_t n, int32_t size, int32_t binary)      \
    {                                                                                    \
        ptrdiff_t total = (ptrdiff_t)rows * n, i, r;                                     \
                                                                                         \
        for (i = 0; i < total; i++)                                                      \
            if (x[i] < 0)                                                                \
                return SM2C_RT_ERR_INDEX;                                                \
        for (i = 0; i < (ptrdiff_t)rows * size; i++)                                     \
            y[i] = 0;                                                                    \
        for (r = 0; r < rows; r++)                                                       \
            for (i = r * n; i < (r + 1) * n; i++) {                                      \
                T *bin;                                                                  \
                if (x[i] >= (I)size)                                                     \
                    continue;                                                            \
                bin = y + r * size + (ptrdiff_t)x[i];                                    \
                *bin = binary ? (T)1 : ADD(*bin, w ? w[i] : (T)1);                       \
            }                                                                            \
        return SM2C_RT_OK;                                                               \
    })

#define BINCOUNT_ALL(ix, I)                                                              \
    BINCOUNT(f32, float, ADD_F32, ix, I)                                                 \
    BINCOUNT(f64, double, ADD_F64, ix, I)                                                \
    BINCOUNT(i32, int32_t, ADD_I32, ix, I)                                               \
    BINCOUNT(i64, int64_t, ADD_I64, ix, I)

BINCOUNT_ALL(i32, int32_t)
BINCOUNT_ALL(i64, int64_t)
