/*
** text_bincount.c: the bincounts TextVectorization's graphs export, int64
** counts (compiler/ops/ops_text_bincount.c).
**   text_bincount_<idx>: DenseBincount of a vector x (its first *count
**     values; count NULL: all n) without weights into y[size]: y[v] counts
**     the values v in [0, size) (binary: 1 when any), larger ones dropped.
**   ragged_bincount_i64: RaggedBincount of values split into rows by splits
**     [rows + 1] (splits[0] = 0, non-decreasing, at most the values' count)
**     into y[rows, size], the same way per row.
** A negative value or bad splits is SM2C_RT_ERR_INDEX, before anything is
** written, as TensorFlow refuses them.
*/
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SM2C_RT__TEXT_BINCOUNT(T, sfx)                                                          \
    SM2C_RT_DEFINE(text_bincount_##sfx,                                                         \
    int32_t sm2c_rt_text_bincount_##sfx(const T *x, int32_t n, const int64_t *count, int64_t *y, \
                                       int32_t size, int32_t binary)                            \
    {                                                                                           \
        int64_t i, m = count ? *count : n;                                                      \
        if (m < 0 || m > n)                                                                     \
            return SM2C_RT_ERR_INDEX;                                                           \
        for (i = 0; i < m; i++)                                                                 \
            if (x[i] < 0)                                                                       \
                return SM2C_RT_ERR_INDEX;                                                       \
        for (i = 0; i < size; i++)                                                              \
            y[i] = 0;                                                                           \
        for (i = 0; i < m; i++)                                                                 \
            if (x[i] < size)                                                                    \
                y[x[i]] = binary ? 1 : y[x[i]] + 1;                                             \
        return SM2C_RT_OK;                                                                      \
    })

SM2C_RT__TEXT_BINCOUNT(int32_t, i32)
SM2C_RT__TEXT_BINCOUNT(int64_t, i64)

#if SM2C_RT_WANT(ragged_bincount_i64)
int32_t sm2c_rt_ragged_bincount_i64(const int64_t *splits, int32_t rows, const int64_t *values, int32_t n,
                                    const int64_t *count, int64_t *y, int32_t size, int32_t binary)
{
    int64_t m = count ? *count : n, i;
    int32_t r;
    if (m < 0 || m > n || splits[0] != 0 || splits[rows] > m)
        return SM2C_RT_ERR_INDEX;
    for (r = 0; r < rows; r++)
        if (splits[r + 1] < splits[r])
            return SM2C_RT_ERR_INDEX;
    for (i = 0; i < splits[rows]; i++)
        if (values[i] < 0)
            return SM2C_RT_ERR_INDEX;
    for (i = 0; i < (int64_t)rows * size; i++)
        y[i] = 0;
    for (r = 0; r < rows; r++) {
        int64_t *row = y + (int64_t)r * size;
        for (i = splits[r]; i < splits[r + 1]; i++)
            if (values[i] < size)
                row[values[i]] = binary ? 1 : row[values[i]] + 1;
    }
    return SM2C_RT_OK;
}
#endif
