/*
** sparse.c: SparseToDense.  y gets default_value everywhere, then values at
** the n indices (rows of ndims coordinates into dims, row-major); a later
** duplicate overwrites an earlier one.  An index out of range, and with
** `validate` one not lexicographically after the one before it (repeated or
** out of order), is SM2C_RT_ERR_INDEX, as TensorFlow's errors.  Values are
** elem_size bytes each: one (values_scalar) or n.  count, when not NULL, is
** the number of index rows (and values) actually there, at most n.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SPARSE_TO_DENSE(ix, I)                                                           \
    SM2C_RT_DEFINE(sparse_to_dense_##ix,                                                 \
    int32_t sm2c_rt_sparse_to_dense_##ix(const I *idx, const void *values, int32_t values_scalar, \
                                         const void *dflt, void *y, int32_t n, const int64_t *count, \
                                         int32_t ndims, const int32_t *dims, int32_t total,  \
                                         int32_t elem_size, int32_t validate)            \
    {                                                                                    \
        unsigned char *out = (unsigned char *)y;                                         \
        const unsigned char *v = (const unsigned char *)values;                          \
        const size_t es = (size_t)elem_size;                                             \
        int32_t i, d, t;                                                                 \
        if (count && *count >= 0 && *count < n)                                          \
            n = (int32_t)*count;                                                         \
        for (i = 0; i < n; i++) {                                                        \
            int64_t pos = 0;                                                             \
            int order = i == 0 ? 1 : 0;  /* 1 after, -1 before, 0 equal so far */        \
            for (d = 0; d < ndims; d++) {                                                \
                const I x = idx[(size_t)i * (size_t)ndims + (size_t)d];                  \
                if (x < 0 || x >= dims[d])                                               \
                    return SM2C_RT_ERR_INDEX;                                            \
                if (!order) {                                                            \
                    const I p = idx[(size_t)(i - 1) * (size_t)ndims + (size_t)d];        \
                    order = x > p ? 1 : x < p ? -1 : 0;                                  \
                }                                                                        \
                pos = pos * dims[d] + (int64_t)x;                                        \
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
    })

SPARSE_TO_DENSE(i32, int32_t)
SPARSE_TO_DENSE(i64, int64_t)
