/*
** one_hot.c: OneHot.  An index outside [0, depth) matches no position, so
** its row is all off values, as in TensorFlow; nothing is ever read or
** written out of bounds, so this kernel cannot fail.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define ONE_HOT(ix, I)                                                                   \
    SM2C_RT_DEFINE(one_hot_##ix, void sm2c_rt_one_hot_##ix(const I *idx, const void *on, const void *off, void *y,     \
                              int32_t outer, int32_t depth, int32_t inner, int32_t elem_size) \
    {                                                                                    \
        unsigned char *dst = (unsigned char *)y;                                         \
        const size_t es = (size_t)elem_size;                                             \
        ptrdiff_t o, d, i;                                                               \
                                                                                         \
        for (o = 0; o < outer; o++)                                                      \
            for (d = 0; d < depth; d++)                                                  \
                for (i = 0; i < inner; i++) {                                            \
                    const I v = idx[o * inner + i];                                      \
                    memcpy(dst, v == (I)d ? on : off, es);                               \
                    dst += es;                                                           \
                }                                                                        \
    })

ONE_HOT(i32, int32_t)
ONE_HOT(i64, int64_t)
