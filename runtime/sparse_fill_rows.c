/*
** sparse_fill_rows.c: SparseFillEmptyRows.  The first *count (or n) entries
** of a sparse tensor (indices idx [n][ndims], values of elem_size bytes, rows
** [0, dense_rows)) are grouped by row, in row order and in their order within
** a row, as TensorFlow's CPU kernel places them; each row without an entry
** gets one, (row, 0, ...) with the default value.  out_idx and out_values hold
** n + dense_rows entries (the bound), *out_count of them used and the rest
** zeroed; empty[r] (bool) says row r was empty; reverse[i] is where entry i
** went (rows past the count zeroed).  scratch holds 2 * dense_rows int64.
** A row index outside [0, dense_rows) is SM2C_RT_ERR_INDEX, before anything
** is written.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"

int32_t sm2c_rt_sparse_fill_empty_rows(const int64_t *idx, const void *values, int32_t n, const int64_t *count,
                                       int32_t ndims, int32_t dense_rows, const void *dflt, int32_t elem_size,
                                       int64_t *out_idx, void *out_values, int64_t *out_count, uint8_t *empty,
                                       int64_t *reverse, int64_t *scratch)
{
    const unsigned char *v = (const unsigned char *)values;
    unsigned char *ov = (unsigned char *)out_values;
    const size_t es = (size_t)elem_size, w = (size_t)ndims;
    int64_t *end = scratch, *filled = scratch + dense_rows, total = 0;
    int32_t i, r, rows = n, bound = n + dense_rows;
    if (count && *count >= 0 && *count < n)
        rows = (int32_t)*count;
    if (ndims < 1 || dense_rows < 0 || n < 0)
        return SM2C_RT_ERR_INDEX;
    for (r = 0; r < dense_rows; r++)
        end[r] = filled[r] = 0;
    for (i = 0; i < rows; i++) {
        int64_t row = idx[(size_t)i * w];
        if (row < 0 || row >= dense_rows)
            return SM2C_RT_ERR_INDEX;
        end[row]++;
    }
    for (r = 0; r < dense_rows; r++) {
        empty[r] = end[r] == 0;
        total += end[r] ? end[r] : 1;
        end[r] = total;
    }
    for (i = 0; i < rows; i++) {
        int64_t row = idx[(size_t)i * w];
        int64_t pos = (row ? end[row - 1] : 0) + filled[row]++;
        memcpy(out_idx + (size_t)pos * w, idx + (size_t)i * w, w * sizeof *idx);
        memcpy(ov + (size_t)pos * es, v + (size_t)i * es, es);
        reverse[i] = pos;
    }
    for (r = 0; r < dense_rows; r++)
        if (empty[r]) {
            int64_t pos = r ? end[r - 1] : 0;
            memset(out_idx + (size_t)pos * w, 0, w * sizeof *out_idx);
            out_idx[(size_t)pos * w] = r;
            memcpy(ov + (size_t)pos * es, dflt, es);
        }
    if (total < bound) {
        memset(out_idx + (size_t)total * w, 0, (size_t)(bound - total) * w * sizeof *out_idx);
        memset(ov + (size_t)total * es, 0, (size_t)(bound - total) * es);
    }
    if (rows < n)
        memset(reverse + rows, 0, (size_t)(n - rows) * sizeof *reverse);
    *out_count = total;
    return SM2C_RT_OK;
}
