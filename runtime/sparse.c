/*
** sparse.c: SparseToDense.  y gets default_value everywhere, then values at
** the n indices (rows of ndims coordinates into dims, row-major); a later
** duplicate overwrites an earlier one.  An index out of range, and with
** `validate` one not lexicographically after the one before it (repeated or
** out of order), is SM2C_RT_ERR_INDEX, as TensorFlow's errors.  Values are
** elem_size bytes each: one (values_scalar) or n.  count, when not NULL, is
** the number of index rows (and values) actually there, at most n.
**
** The bounded kernels take output_shape at run time (ParseExample's
** dense_shape): every dim but `dim` must equal the bound's, that one at most
** the bound's; indices are checked against the run-time shape, y is laid out
** at the bound, and *out_count gets shape[dim] (a data-dependent size,
** ops_dyn.c).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

/* The checks, then the scatter: indices against lim, positions in dims. */
#define SPARSE_SCATTER(ix, I)                                                            \
    static inline int32_t sparse_scatter_##ix(const I *idx, const void *values, int32_t values_scalar, \
                                              const void *dflt, void *y, int32_t n, int32_t ndims, \
                                              const int64_t *lim, const int32_t *dims, int32_t total, \
                                              int32_t elem_size, int32_t validate)       \
    {                                                                                    \
        unsigned char *out = (unsigned char *)y;                                         \
        const unsigned char *v = (const unsigned char *)values;                          \
        const size_t es = (size_t)elem_size;                                             \
        int32_t i, d, t;                                                                 \
        for (i = 0; i < n; i++) {                                                        \
            int order = i == 0 ? 1 : 0;  /* 1 after, -1 before, 0 equal so far */        \
            for (d = 0; d < ndims; d++) {                                                \
                const I x = idx[(size_t)i * (size_t)ndims + (size_t)d];                  \
                if (x < 0 || (int64_t)x >= lim[d])                                       \
                    return SM2C_RT_ERR_INDEX;                                            \
                if (!order) {                                                            \
                    const I p = idx[(size_t)(i - 1) * (size_t)ndims + (size_t)d];        \
                    order = x > p ? 1 : x < p ? -1 : 0;                                  \
                }                                                                        \
            }                                                                            \
            if (validate && order != 1)                                                  \
                return SM2C_RT_ERR_INDEX;                                                \
        }                                                                                \
        for (t = 0; t < total; t++)                                                      \
            memcpy(out + (size_t)t * es, dflt, es);                                      \
        for (i = 0; i < n; i++) {                                                        \
            int64_t pos = 0;                                                             \
            for (d = 0; d < ndims; d++)                                                  \
                pos = pos * dims[d] + (int64_t)idx[(size_t)i * (size_t)ndims + (size_t)d]; \
            memcpy(out + (size_t)pos * es, values_scalar ? v : v + (size_t)i * es, es);  \
        }                                                                                \
        return SM2C_RT_OK;                                                               \
    }

#define SPARSE_TO_DENSE(ix, I)                                                           \
    SPARSE_SCATTER(ix, I)                                                                \
    SM2C_RT_DEFINE(sparse_to_dense_##ix,                                                 \
    int32_t sm2c_rt_sparse_to_dense_##ix(const I *idx, const void *values, int32_t values_scalar, \
                                         const void *dflt, void *y, int32_t n, const int64_t *count, \
                                         int32_t ndims, const int32_t *dims, int32_t total,  \
                                         int32_t elem_size, int32_t validate)            \
    {                                                                                    \
        int64_t lim[SM2C_RT_MAX_RANK];                                                   \
        int32_t d;                                                                       \
        if (ndims < 0 || ndims > SM2C_RT_MAX_RANK)                                       \
            return SM2C_RT_ERR_INDEX;                                                    \
        for (d = 0; d < ndims; d++)                                                      \
            lim[d] = dims[d];                                                            \
        if (count && *count >= 0 && *count < n)                                          \
            n = (int32_t)*count;                                                         \
        return sparse_scatter_##ix(idx, values, values_scalar, dflt, y, n, ndims, lim, dims, total, \
                                   elem_size, validate);                                 \
    })                                                                                   \
    SM2C_RT_DEFINE(sparse_to_dense_bounded_##ix,                                         \
    int32_t sm2c_rt_sparse_to_dense_bounded_##ix(const I *idx, const void *values, int32_t values_scalar, \
                                                 const void *dflt, void *y, int32_t n, const int64_t *count, \
                                                 int32_t ndims, const I *shape, const int32_t *dims, \
                                                 int32_t dim, int64_t *out_count, int32_t total, \
                                                 int32_t elem_size, int32_t validate)    \
    {                                                                                    \
        int64_t lim[SM2C_RT_MAX_RANK];                                                   \
        int32_t d;                                                                       \
        if (ndims < 0 || ndims > SM2C_RT_MAX_RANK || dim < 0 || dim >= ndims)            \
            return SM2C_RT_ERR_INDEX;                                                    \
        for (d = 0; d < ndims; d++) {                                                    \
            lim[d] = (int64_t)shape[d];                                                  \
            if (d == dim ? lim[d] < 0 || lim[d] > dims[d] : lim[d] != dims[d])           \
                return SM2C_RT_ERR_INDEX;                                                \
        }                                                                                \
        if (count && *count >= 0 && *count < n)                                          \
            n = (int32_t)*count;                                                         \
        *out_count = lim[dim];                                                           \
        return sparse_scatter_##ix(idx, values, values_scalar, dflt, y, n, ndims, lim, dims, total, \
                                   elem_size, validate);                                 \
    })

SPARSE_TO_DENSE(i32, int32_t)
SPARSE_TO_DENSE(i64, int64_t)
