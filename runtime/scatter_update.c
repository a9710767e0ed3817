/*
** scatter_update.c: TensorScatterUpdate.  y already holds the tensor (the
** compiler copies it first); each update's slice is written at its index
** tuple in order, so with repeated tuples the last one wins, as in
** TensorFlow's CPU kernel.  Every tuple is checked before anything is
** written: an out-of-range one is SM2C_RT_ERR_INDEX (TensorFlow reports an
** error too).  Elements are copied by size, so one kernel serves every type.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SCATTER_UPDATE(ix, I)                                                            \
    SM2C_RT_DEFINE(scatter_update_##ix, int32_t sm2c_rt_scatter_update_##ix(const I *idx, const void *updates, void *y, \
                                        int32_t n, int32_t k, const int32_t *dims,       \
                                        int32_t slice, int32_t elem_size)                \
    {                                                                                    \
        const size_t run = (size_t)slice * (size_t)elem_size;                            \
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
            if (run > 0)                                                                 \
                memcpy((unsigned char *)y + (size_t)at * run,                            \
                       (const unsigned char *)updates + (size_t)i * run, run);           \
        }                                                                                \
        return SM2C_RT_OK;                                                               \
    })

SCATTER_UPDATE(i32, int32_t)
SCATTER_UPDATE(i64, int64_t)
