/*
** gather_nd.c: GatherNd.  Each index tuple is checked against the params
** dims before anything is read; TensorFlow's CPU kernel rejects an
** out-of-range tuple, and so does this one (SM2C_RT_ERR_INDEX).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define GATHER_ND(ix, I)                                                                 \
    SM2C_RT_DEFINE(gather_nd_##ix, int32_t sm2c_rt_gather_nd_##ix(const void *params, const I *idx, void *y, int32_t n,   \
                                   int32_t k, const int32_t *dims, int32_t slice,        \
                                   int32_t elem_size)                                    \
    {                                                                                    \
        const size_t run = (size_t)slice * (size_t)elem_size;                            \
        unsigned char *dst = (unsigned char *)y;                                         \
        int32_t i, j;                                                                    \
                                                                                         \
        for (i = 0; i < n; i++)                                                          \
            for (j = 0; j < k; j++)                                                      \
                if (idx[(ptrdiff_t)i * k + j] < 0 || idx[(ptrdiff_t)i * k + j] >= (I)dims[j]) \
                    return SM2C_RT_ERR_INDEX;                                            \
        for (i = 0; i < n; i++) {                                                        \
            ptrdiff_t at = 0;                                                            \
            for (j = 0; j < k; j++)                                                      \
                at = at * dims[j] + (ptrdiff_t)idx[(ptrdiff_t)i * k + j];                \
            memcpy(dst + (size_t)i * run, (const unsigned char *)params + (size_t)at * run, run); \
        }                                                                                \
        return SM2C_RT_OK;                                                               \
    })

GATHER_ND(i32, int32_t)
GATHER_ND(i64, int64_t)
