/*
** ragged_to_tensor.c: RaggedTensorToTensor of one ragged dim.  The ragged
** rows come from row_splits (by_rowids 0: part holds n_part splits, the
** first 0, never decreasing; value i is in row r when part[r] <= i <
** part[r + 1], and values past the last split are dropped) or from
** value_rowids (by_rowids 1: part holds nvals row ids, each in [0, n_part),
** n_part being first_dim_size, never decreasing).  y is nrows x ncols cells
** of `inner` elements: cell (r, c) is value c of row r when the row has one
** there, else the default (dflt_n elements: 1, repeated, or inner); longer
** rows are cut, rows past nrows dropped, as TensorFlow does.  Partitions that
** break the rules above are SM2C_RT_ERR_INDEX before anything is written
** With `count` (the shape gives no columns and the partition is known only at
** run time), y's ncols is a bound: the columns are the longest row's, written
** to *count, the cells past them zero, and a row longer than the bound is
** SM2C_RT_ERR_INDEX
** (TensorFlow's kernel errors too; for row ids that decrease, which its
** kernel does not check, ragged tensors' own validation does).  Elements are
** copied by size.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

/* Cell (r, c) of y: its address. */
static inline unsigned char *ragged_cell(void *y, int64_t r, int64_t c, int32_t ncols, int32_t inner,
                                         int32_t elem_size)
{
    return (unsigned char *)y + (size_t)((r * ncols + c) * inner) * (size_t)elem_size;
}

#define RAGGED_TO_TENSOR(ix, I)                                                          \
    SM2C_RT_DEFINE(ragged_to_tensor_##ix, int32_t sm2c_rt_ragged_to_tensor_##ix(const void *values, const void *dflt, \
                                              int32_t dflt_n, const I *part, int32_t n_part, \
                                              int32_t by_rowids, void *y, int32_t nrows, \
                                              int32_t ncols, int32_t nvals, int32_t inner, \
                                              int32_t elem_size, int64_t *count)         \
    {                                                                                    \
        const size_t cell = (size_t)inner * (size_t)elem_size;                           \
        int64_t i, r, c, row, used = ncols, run = 0;                                     \
                                                                                         \
        if (by_rowids) {                                                                 \
            for (i = 0; i < nvals; i++)                                                  \
                if (part[i] < 0 || part[i] >= (I)n_part || (i > 0 && part[i] < part[i - 1])) \
                    return SM2C_RT_ERR_INDEX;                                            \
        } else {                                                                         \
            if (n_part < 1 || part[0] != 0)                                              \
                return SM2C_RT_ERR_INDEX;                                                \
            for (i = 1; i < n_part; i++)                                                 \
                if (part[i] < part[i - 1])                                               \
                    return SM2C_RT_ERR_INDEX;                                            \
        }                                                                                \
        if (count) {    /* the columns are the longest row's, at most ncols */          \
            for (i = 0, used = 0; i < (by_rowids ? nvals : n_part); i++) {               \
                if (by_rowids)                                                           \
                    run = i > 0 && part[i] == part[i - 1] ? run + 1 : 1;                 \
                else                                                                     \
                    run = i > 0 ? (int64_t)part[i] - (int64_t)part[i - 1] : 0;           \
                used = run > used ? run : used;                                          \
            }                                                                            \
            if (used > ncols)                                                            \
                return SM2C_RT_ERR_INDEX;                                                \
            *count = used;                                                               \
        }                                                                                \
        for (r = 0; r < nrows; r++)                                                      \
            for (c = 0; c < ncols; c++) {                                                \
                unsigned char *to = ragged_cell(y, r, c, ncols, inner, elem_size);       \
                if (c >= used)                                                           \
                    memset(to, 0, cell);                                                 \
                else if (dflt_n == inner)                                                \
                    memcpy(to, dflt, cell);                                              \
                else                                                                     \
                    for (i = 0; i < inner; i++)                                          \
                        memcpy(to + (size_t)i * (size_t)elem_size, dflt, (size_t)elem_size); \
            }                                                                            \
        if (cell == 0)                                                                   \
            return SM2C_RT_OK;                                                           \
        for (i = 0, r = -1, c = 0, row = 0; i < nvals; i++) {                            \
            if (by_rowids)                                                               \
                row = (int64_t)part[i];                                                  \
            else {                                                                       \
                while (row + 1 < n_part && (int64_t)part[row + 1] <= i)                  \
                    row++;                                                               \
                if (row + 1 >= n_part)                                                   \
                    break;  /* past the last split */                                    \
            }                                                                            \
            c = row == r ? c + 1 : 0;                                                    \
            r = row;                                                                     \
            if (r < nrows && c < used)                                                   \
                memcpy(ragged_cell(y, r, c, ncols, inner, elem_size),                    \
                       (const unsigned char *)values + (size_t)i * cell, cell);          \
        }                                                                                \
        return SM2C_RT_OK;                                                               \
    })

RAGGED_TO_TENSOR(i32, int32_t)
RAGGED_TO_TENSOR(i64, int64_t)
