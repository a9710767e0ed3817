/*
** sparse_reshape.c: SparseReshape's indices.  Each of the first *count (or n)
** rows of in [n][r_in] is checked against in_dims, made a row-major position
** and written back as a row of out [n][r_out] in out_dims (the shapes and
** their product are checked at compile time, ops_sparse_reshape.c).  Rows
** past the count are zeroed.  A coordinate outside in_dims is
** SM2C_RT_ERR_INDEX (TensorFlow does not check it, and its result would be
** outside the new shape): out is then left as it was.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"

int32_t sm2c_rt_sparse_reshape(const int64_t *in, int64_t *out, int32_t n, const int64_t *count, int32_t r_in,
                               const int32_t *in_dims, int32_t r_out, const int32_t *out_dims)
{
    int32_t i, d, rows = n;
    if (count && *count >= 0 && *count < n)
        rows = (int32_t)*count;
    if (r_in < 1 || r_out < 1 || r_in > SM2C_RT_MAX_RANK || r_out > SM2C_RT_MAX_RANK)
        return SM2C_RT_ERR_INDEX;
    for (i = 0; i < rows; i++)
        for (d = 0; d < r_in; d++) {
            int64_t x = in[(size_t)i * (size_t)r_in + (size_t)d];
            if (x < 0 || x >= in_dims[d])
                return SM2C_RT_ERR_INDEX;
        }
    for (i = 0; i < rows; i++) {
        int64_t pos = 0, row[SM2C_RT_MAX_RANK];
        for (d = 0; d < r_in; d++)
            pos = pos * in_dims[d] + in[(size_t)i * (size_t)r_in + (size_t)d];
        for (d = r_out - 1; d >= 0; d--) {
            row[d] = out_dims[d] ? pos % out_dims[d] : 0;
            pos = out_dims[d] ? pos / out_dims[d] : 0;
        }
        memcpy(out + (size_t)i * (size_t)r_out, row, (size_t)r_out * sizeof *row);
    }
    if (rows < n)
        memset(out + (size_t)rows * (size_t)r_out, 0, (size_t)(n - rows) * (size_t)r_out * sizeof *out);
    return SM2C_RT_OK;
}
