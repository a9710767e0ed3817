/*
** parse_example_sparse.c: ParseExample / ParseExampleV2 sparse features
** (tf.io.VarLenFeature: float32, int64 or string, whose values point into
** the serialized example), read from a batch of serialized tf.Example protos
** (the wire format and TensorFlow's reading rules: example_wire.h).
**
** Each example contributes its feature's values in order: a missing feature
** or an empty Feature (no kind) none, a kind other than the feature's dtype
** is an error.  The outputs hold at most n * max_per values (the static
** bound): indices [bound][rank + 1] (rank 1: (example, position); rank 0, one
** scalar serialized proto: (position)), values [bound], the number of values
** in *count (rows past it zeroed) and dense_shape [rank + 1]: (n, the most
** values any example has) or (that most).  Malformed wire data or an example
** with more than max_per values is SM2C_RT_ERR_EXAMPLE; nothing is read
** outside each string and nothing written outside the bound.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "example_wire.h"

int32_t sm2c_rt_parse_example_sparse(const sm2c_string *serialized, int32_t n, int32_t rank,
                                     const int32_t *key, int32_t key_len, int32_t dtype, int32_t max_per,
                                     int64_t *indices, void *values, int64_t *count, int64_t *dense_shape)
{
    size_t es = dtype == 1 ? sizeof(float) : dtype == 7 ? sizeof(sm2c_string) : sizeof(int64_t);
    int32_t i, j, got, most = 0, width = rank + 1;
    int64_t total = 0, bound = (int64_t)n * max_per;
    *count = 0;
    if ((dtype != 1 && dtype != 7 && dtype != 9) || n < 0 || max_per < 0 || key_len < 0 || (rank != 0 && rank != 1) ||
        (rank == 0 && n != 1))
        return SM2C_RT_ERR_EXAMPLE;
    for (i = 0; i < n; i++) {
        pe_span f = { NULL, 0 };
        int r;
        r = pe_feature(&serialized[i], key, key_len, &f);
        if (r < 0)
            return SM2C_RT_ERR_EXAMPLE;
        got = 0;
        if (r > 0 && f.n > 0 && !pe_list(f, dtype, max_per, (unsigned char *)values + (size_t)total * es, &got))
            return SM2C_RT_ERR_EXAMPLE;   /* malformed, another kind, or over the bound */
        for (j = 0; j < got; j++) {
            int64_t *row = indices + (size_t)(total + j) * (size_t)width;
            if (rank)
                row[0] = i;
            row[rank] = j;
        }
        total += got;
        if (got > most)
            most = got;
    }
    if (total < bound) {
        memset(indices + (size_t)total * (size_t)width, 0, (size_t)(bound - total) * (size_t)width * sizeof *indices);
        memset((unsigned char *)values + (size_t)total * es, 0, (size_t)(bound - total) * es);
    }
    if (rank)
        dense_shape[0] = n;
    dense_shape[rank] = most;
    *count = total;
    return SM2C_RT_OK;
}
