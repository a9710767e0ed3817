/*
** gather.c: GatherV2 and ResourceGather.  The indices arrive at run time, so
** every one is checked before anything is read: TensorFlow's CPU kernel
** rejects an out-of-range index, and so does this one (SM2C_RT_ERR_INDEX).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define GATHER(ix, I)                                                                    \
    SM2C_RT_DEFINE(gather_##ix, int32_t sm2c_rt_gather_##ix(const void *params, const I *idx, void *y, const int32_t *p, \
                                int32_t elem_size)                                       \
    {                                                                                    \
        const ptrdiff_t batch = p[0], outer = p[1], axis = p[2], inner = p[3], n = p[4];  \
        const size_t run = (size_t)inner * (size_t)elem_size;                            \
        const unsigned char *src = (const unsigned char *)params;                        \
        unsigned char *dst = (unsigned char *)y;                                         \
        ptrdiff_t b, o, i;                                                               \
                                                                                         \
        for (i = 0; i < batch * n; i++)                                                  \
            if (idx[i] < 0 || idx[i] >= (I)axis)                                         \
                return SM2C_RT_ERR_INDEX;                                                \
        for (b = 0; b < batch; b++)                                                      \
            for (o = 0; o < outer; o++) {                                                \
                const unsigned char *slab = src + (size_t)((b * outer + o) * axis) * run; \
                for (i = 0; i < n; i++) {                                                \
                    memcpy(dst, slab + (size_t)idx[b * n + i] * run, run);               \
                    dst += run;                                                          \
                }                                                                        \
            }                                                                            \
        return SM2C_RT_OK;                                                               \
    })

GATHER(i32, int32_t)
GATHER(i64, int64_t)
