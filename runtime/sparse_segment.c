/*
** sparse_segment.c: SparseSegmentSum, SparseSegmentMean and
** SparseSegmentSqrtN (mode 0, 1, 2) over float rows.  Row idx[i] of x (x_rows
** rows of `row` floats, of which *x_count are there when x_count is not NULL)
** is added into row ids[i] of y, for the first *count (or n) entries; ids
** must be non-negative and non-decreasing.  y has n_seg rows: with y_count
** it is a bound, the rows used (the last id + 1, 0 without entries) go to
** *y_count and the rest are zero; without, the last id + 1 must be n_seg (the
** static shape).  A segment without entries is zero; Mean divides a sum of
** k rows by k, SqrtN by sqrt(k).  Any index or id that breaks these rules is
** SM2C_RT_ERR_INDEX, before y is written.
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SPARSE_SEGMENT(ix, I, sx, S)                                                     \
    SM2C_RT_DEFINE(sparse_segment_f32_##ix##_##sx,                                       \
    int32_t sm2c_rt_sparse_segment_f32_##ix##_##sx(const float *x, int32_t x_rows, const int64_t *x_count, \
                                                   const I *idx, const S *ids, int32_t n, \
                                                   const int64_t *count, float *y, int32_t n_seg, \
                                                   int64_t *y_count, int32_t row, int32_t mode) \
    {                                                                                    \
        int64_t lim = x_rows, used = 0;                                                  \
        int32_t i, j, k = n, start;                                                      \
        if (count && *count >= 0 && *count < n)                                          \
            k = (int32_t)*count;                                                         \
        if (x_count && *x_count >= 0 && *x_count < x_rows)                               \
            lim = *x_count;                                                              \
        for (i = 0; i < k; i++) {                                                        \
            if ((int64_t)idx[i] < 0 || (int64_t)idx[i] >= lim || (int64_t)ids[i] < 0 ||   \
                (int64_t)ids[i] >= n_seg || (i > 0 && ids[i] < ids[i - 1]))              \
                return SM2C_RT_ERR_INDEX;                                                \
        }                                                                                \
        used = k ? (int64_t)ids[k - 1] + 1 : 0;                                          \
        if (!y_count && used != n_seg)                                                   \
            return SM2C_RT_ERR_INDEX;                                                    \
        memset(y, 0, (size_t)n_seg * (size_t)row * sizeof *y);                           \
        for (start = 0; start < k;) {                                                    \
            int32_t end = start;                                                         \
            float *out = y + (size_t)ids[start] * (size_t)row;                           \
            for (; end < k && ids[end] == ids[start]; end++)                             \
                for (j = 0; j < row; j++)                                                \
                    out[j] += x[(size_t)idx[end] * (size_t)row + (size_t)j];             \
            if (mode) {                                                                  \
                float d = mode == 1 ? (float)(end - start) : sqrtf((float)(end - start)); \
                for (j = 0; j < row; j++)                                                \
                    out[j] /= d;                                                         \
            }                                                                            \
            start = end;                                                                 \
        }                                                                                \
        if (y_count)                                                                     \
            *y_count = used;                                                             \
        return SM2C_RT_OK;                                                               \
    })

SPARSE_SEGMENT(i32, int32_t, i32, int32_t)
SPARSE_SEGMENT(i32, int32_t, i64, int64_t)
SPARSE_SEGMENT(i64, int64_t, i32, int32_t)
SPARSE_SEGMENT(i64, int64_t, i64, int64_t)
