/*
** scatter_nd.c: ScatterNd.  The output starts at zero and each update is
** added at its index tuple in order, as TensorFlow's CPU kernel does, so
** duplicate indices sum in index order.  Every tuple is checked first: an
** out-of-range one is SM2C_RT_ERR_INDEX (TensorFlow reports an error too).
** Integer sums wrap around through unsigned arithmetic (int_wrap.h); bool
** adds as TensorFlow's does, by or; strings concatenate (the _str kernels).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "int_wrap.h"
#include "rt_select.h"

#define ADD_F32(a, b) ((a) + (b))   /* float and double */
#define ADD_BOOL(a, b) ((uint8_t)((a) | (b)))
#define SCATTER_ADD_INT(T, UT, TMIN, TMAX, sfx, WRAP, W)                                 \
    static inline T scatter_add_##sfx(T a, T b) { return SM2C_RT__WRAP_ADD(T, UT, TMAX, WRAP, a, b); }
SM2C_RT__INTS_32_64(SCATTER_ADD_INT)
SM2C_RT__INTS_OTHER(SCATTER_ADD_INT)

/* Whether every index tuple lies inside dims, and the position of one. */
#define SCATTER_ND_INDEX(ix, I)                                                          \
    static inline int scatter_nd_in_range_##ix(const I *idx, int32_t n, int32_t k, const int32_t *dims) \
    {                                                                                    \
        ptrdiff_t i;                                                                     \
        int32_t j;                                                                       \
        for (i = 0; i < n; i++)                                                          \
            for (j = 0; j < k; j++)                                                      \
                if (idx[i * k + j] < 0 || idx[i * k + j] >= (I)dims[j])                  \
                    return 0;                                                            \
        return 1;                                                                        \
    }                                                                                    \
    static inline ptrdiff_t scatter_nd_at_##ix(const I *t, int32_t k, const int32_t *dims) \
    {                                                                                    \
        ptrdiff_t at = 0;                                                                \
        int32_t j;                                                                       \
        for (j = 0; j < k; j++)                                                          \
            at = at * dims[j] + (ptrdiff_t)t[j];                                         \
        return at;                                                                       \
    }
SCATTER_ND_INDEX(i32, int32_t)
SCATTER_ND_INDEX(i64, int64_t)

/* y += u, y's bytes in its slot `out` (u points elsewhere: an input or
** another step's buffer). */
static inline int scatter_nd_append(sm2c_string *y, uint8_t *out, sm2c_string u, int32_t slot)
{
    if (u.len < 0 || u.len > slot - y->len)
        return 0;
    if (u.len)
        memcpy(out + y->len, u.data, (size_t)u.len);
    y->len += u.len;
    return 1;
}

#define SCATTER_ND(sfx, T, ADD, ix, I)                                                   \
    SM2C_RT_DEFINE(scatter_nd_##sfx##_##ix, int32_t sm2c_rt_scatter_nd_##sfx##_##ix(const I *idx, const T *updates, T *y, int32_t n, \
                                            int32_t k, const int32_t *dims, int32_t slice) \
    {                                                                                    \
        ptrdiff_t total = slice, i, j, e;                                                \
                                                                                         \
        for (j = 0; j < k; j++)                                                          \
            total *= dims[j];                                                            \
        if (!scatter_nd_in_range_##ix(idx, n, k, dims))                                  \
            return SM2C_RT_ERR_INDEX;                                                    \
        for (e = 0; e < total; e++)                                                      \
            y[e] = 0;                                                                    \
        for (i = 0; i < n; i++) {                                                        \
            ptrdiff_t at = scatter_nd_at_##ix(idx + (ptrdiff_t)i * k, k, dims);          \
            for (e = 0; e < slice; e++)                                                  \
                y[at * slice + e] = ADD(y[at * slice + e], updates[i * slice + e]);      \
        }                                                                                \
        return SM2C_RT_OK;                                                               \
    })

/* Strings: output element e starts empty in slot e of text (slot bytes) and
** each update aimed at it is appended, in order; a result longer than slot
** is SM2C_RT_ERR_STRING. */
#define SCATTER_ND_STR(ix, I)                                                            \
    SM2C_RT_DEFINE(scatter_nd_str_##ix, int32_t sm2c_rt_scatter_nd_str_##ix(const I *idx, const sm2c_string *updates, \
                                            sm2c_string *y, int32_t n, int32_t k, const int32_t *dims, \
                                            int32_t slice, uint8_t *text, int32_t slot)  \
    {                                                                                    \
        ptrdiff_t total = slice, i, e;                                                   \
        int32_t j;                                                                       \
        for (j = 0; j < k; j++)                                                          \
            total *= dims[j];                                                            \
        if (!scatter_nd_in_range_##ix(idx, n, k, dims))                                  \
            return SM2C_RT_ERR_INDEX;                                                    \
        for (e = 0; e < total; e++)                                                      \
            y[e].data = text + (ptrdiff_t)slot * e, y[e].len = 0;                        \
        for (i = 0; i < n; i++) {                                                        \
            ptrdiff_t at = scatter_nd_at_##ix(idx + (ptrdiff_t)i * k, k, dims) * slice;  \
            for (e = 0; e < slice; e++)                                                  \
                if (!scatter_nd_append(&y[at + e], text + (at + e) * slot, updates[i * slice + e], slot)) \
                    return SM2C_RT_ERR_STRING;                                           \
        }                                                                                \
        return SM2C_RT_OK;                                                               \
    })

#define SCATTER_ND_ALL(ix, I)                                                            \
    SCATTER_ND(f32, float, ADD_F32, ix, I)                                               \
    SCATTER_ND(f64, double, ADD_F32, ix, I)                                              \
    SCATTER_ND(i32, int32_t, scatter_add_i32, ix, I)                                     \
    SCATTER_ND(i64, int64_t, scatter_add_i64, ix, I)                                     \
    SCATTER_ND(i8, int8_t, scatter_add_i8, ix, I)                                        \
    SCATTER_ND(i16, int16_t, scatter_add_i16, ix, I)                                     \
    SCATTER_ND(u8, uint8_t, scatter_add_u8, ix, I)                                       \
    SCATTER_ND(u16, uint16_t, scatter_add_u16, ix, I)                                    \
    SCATTER_ND(u32, uint32_t, scatter_add_u32, ix, I)                                    \
    SCATTER_ND(u64, uint64_t, scatter_add_u64, ix, I)                                    \
    SCATTER_ND(b, uint8_t, ADD_BOOL, ix, I)                                              \
    SCATTER_ND_STR(ix, I)

SCATTER_ND_ALL(i32, int32_t)
SCATTER_ND_ALL(i64, int64_t)
