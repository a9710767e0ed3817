/*
** dyn.c: ops whose output size depends on the data (Where, Unique) and the
** tail clear of such values.  Each writes at most the static bound of rows,
** the actual number to *count, and zeroes the rows past it.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "str_impl.h"

#if SM2C_RT_WANT(dyn_clear)
void sm2c_rt_dyn_clear(void *x, const int64_t *count, int32_t outer, int32_t bound, int32_t inner_bytes,
                       int32_t fill)
{
    unsigned char *p = (unsigned char *)x;
    int64_t c = *count;
    int32_t o;
    if (c < 0)
        c = 0;
    if (c >= bound)
        return;
    for (o = 0; o < outer; o++)
        memset(p + ((size_t)o * (size_t)bound + (size_t)c) * (size_t)inner_bytes, fill & 0xff,
               (size_t)(bound - c) * (size_t)inner_bytes);
}
#endif

/* Shape (size 0) or Size (size 1) of a value whose dim `dim` holds *count of
** its bound: the static dims with that one replaced. */
#define DYN_SHAPE(sfx, T)                                                                \
    SM2C_RT_DEFINE(dyn_shape_##sfx, void sm2c_rt_dyn_shape_##sfx(T *y, const int64_t *count, const int32_t *dims, \
                                                                int32_t rank, int32_t dim, int32_t size) \
    {                                                                                    \
        int64_t total = 1;                                                               \
        int32_t i;                                                                       \
        for (i = 0; i < rank; i++) {                                                     \
            const int64_t d = i == dim ? *count : (int64_t)dims[i];                      \
            total *= d;                                                                  \
            if (!size)                                                                   \
                y[i] = (T)d;                                                             \
        }                                                                                \
        if (size)                                                                        \
            y[0] = (T)total;                                                             \
    })

DYN_SHAPE(i32, int32_t)
DYN_SHAPE(i64, int64_t)

/* Where: the coordinates of every nonzero element, in row-major order. */
#define WHERE(sfx, T)                                                                    \
    SM2C_RT_DEFINE(where_##sfx, void sm2c_rt_where_##sfx(const T *x, int64_t *y, int64_t *count, \
                                                        int32_t n, int32_t rank, const int32_t *dims) \
    {                                                                                    \
        int64_t k = 0;                                                                   \
        int32_t i, d;                                                                    \
        for (i = 0; i < n; i++) {                                                        \
            int32_t rest = i;                                                            \
            if (!(x[i] != (T)0))                                                         \
                continue;                                                                \
            for (d = rank - 1; d >= 0; d--) {                                            \
                y[k * rank + d] = rest % dims[d];                                        \
                rest /= dims[d];                                                         \
            }                                                                            \
            k++;                                                                         \
        }                                                                                \
        *count = k;                                                                      \
        if (k < n)                                                                       \
            memset(y + k * rank, 0, (size_t)(n - k) * (size_t)rank * sizeof *y);         \
    })

WHERE(f32, float)
WHERE(f64, double)
WHERE(i32, int32_t)
WHERE(i64, int64_t)
WHERE(b, uint8_t)

/* Unique: the distinct values of x in order of first occurrence, and for
** each element the position of its value among them (idx); x_count, when
** not NULL, says how many elements of x are there (idx past them is 0).
** EQ compares two values: == for numbers, lengths and bytes for strings. */
#define SM2C_RT__NUM_EQ(a, b) ((a) == (b))
#define UNIQUE_EQ(sfx, T, ix, I, EQ)                                                     \
    SM2C_RT_DEFINE(unique_##sfx##_##ix, void sm2c_rt_unique_##sfx##_##ix(const T *x, T *y, I *idx, \
                                                                       int64_t *count, int32_t n, \
                                                                       const int64_t *x_count) \
    {                                                                                    \
        int32_t k = 0, i, j, m = n;                                                      \
        if (x_count && *x_count >= 0 && *x_count < n)                                    \
            m = (int32_t)*x_count;                                                       \
        for (i = m; i < n; i++)                                                          \
            idx[i] = 0;                                                                  \
        for (i = 0; i < m; i++) {                                                        \
            for (j = 0; j < k && !EQ(y[j], x[i]); j++)                                   \
                ;                                                                        \
            if (j == k)                                                                  \
                y[k++] = x[i];                                                           \
            idx[i] = (I)j;                                                               \
        }                                                                                \
        *count = k;                                                                      \
        if (k < n)                                                                       \
            memset(y + k, 0, (size_t)(n - k) * sizeof *y);                               \
    })

#define UNIQUE(sfx, T, ix, I) UNIQUE_EQ(sfx, T, ix, I, SM2C_RT__NUM_EQ)

UNIQUE(f32, float, i32, int32_t)
UNIQUE(f32, float, i64, int64_t)
UNIQUE(i32, int32_t, i32, int32_t)
UNIQUE(i32, int32_t, i64, int64_t)
UNIQUE(i64, int64_t, i32, int32_t)
UNIQUE(i64, int64_t, i64, int64_t)
UNIQUE_EQ(str, sm2c_string, i32, int32_t, sm2c_rt__str_eq)
UNIQUE_EQ(str, sm2c_string, i64, int64_t, sm2c_rt__str_eq)
