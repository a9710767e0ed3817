/*
** sequence.c: Range, InvertPermutation and ReverseSequence.
** Range is exact in the element type: start + i * delta, as TensorFlow 2.21
** computes it (not a running sum).  InvertPermutation and ReverseSequence
** take run-time data that decides where they write or read, so they check it
** first and return SM2C_RT_ERR_INDEX where TensorFlow reports an error.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

/* Integer steps are exact in the wider unsigned type: no overflow UB. */
#define RANGE_FLOAT(sfx, T)                                                              \
    SM2C_RT_DEFINE(range_##sfx, void sm2c_rt_range_##sfx(const T *start, const T *delta, T *y, int32_t n)             \
    {                                                                                    \
        int32_t i;                                                                       \
        for (i = 0; i < n; i++)                                                          \
            y[i] = *start + (T)i * *delta;                                               \
    })
#define RANGE_INT(sfx, T, U)                                                             \
    SM2C_RT_DEFINE(range_##sfx, void sm2c_rt_range_##sfx(const T *start, const T *delta, T *y, int32_t n)             \
    {                                                                                    \
        int32_t i;                                                                       \
        for (i = 0; i < n; i++)                                                          \
            y[i] = (T)((U)*start + (U)i * (U)*delta);                                    \
    })

RANGE_FLOAT(f32, float)
RANGE_FLOAT(f64, double)
RANGE_INT(i32, int32_t, uint32_t)
RANGE_INT(i64, int64_t, uint64_t)

#define INVERT_PERMUTATION(ix, I)                                                        \
    SM2C_RT_DEFINE(invert_permutation_##ix, int32_t sm2c_rt_invert_permutation_##ix(const I *x, I *y, int32_t n)                 \
    {                                                                                    \
        int32_t i;                                                                       \
        for (i = 0; i < n; i++)                                                          \
            y[i] = -1;                                                                   \
        for (i = 0; i < n; i++) {                                                        \
            if (x[i] < 0 || x[i] >= (I)n || y[x[i]] != -1)                               \
                return SM2C_RT_ERR_INDEX;                                                \
            y[x[i]] = (I)i;                                                              \
        }                                                                                \
        return SM2C_RT_OK;                                                               \
    })

INVERT_PERMUTATION(i32, int32_t)
INVERT_PERMUTATION(i64, int64_t)

/* p = {p0, p1, p2, p3, p4, seq_first}; batch and sequence dims are p1 and p3. */
#define REVERSE_SEQUENCE(ix, I)                                                          \
    SM2C_RT_DEFINE(reverse_sequence_##ix, int32_t sm2c_rt_reverse_sequence_##ix(const void *x, const I *lens, void *y,         \
                                          const int32_t *p, int32_t elem_size)           \
    {                                                                                    \
        const ptrdiff_t d1 = p[1], d2 = p[2], d3 = p[3], d4 = p[4];                      \
        const ptrdiff_t nb = p[5] ? d3 : d1, ns = p[5] ? d1 : d3;                        \
        const size_t es = (size_t)elem_size;                                             \
        ptrdiff_t a, i1, m, i3, c, b;                                                    \
                                                                                         \
        for (b = 0; b < nb; b++)                                                         \
            if (lens[b] < 0 || lens[b] > (I)ns)                                          \
                return SM2C_RT_ERR_INDEX;                                                \
        for (a = 0; a < p[0]; a++)                                                       \
            for (i1 = 0; i1 < d1; i1++)                                                  \
                for (m = 0; m < d2; m++)                                                 \
                    for (i3 = 0; i3 < d3; i3++) {                                        \
                        ptrdiff_t bi = p[5] ? i3 : i1, si = p[5] ? i1 : i3;              \
                        ptrdiff_t len = (ptrdiff_t)lens[bi];                             \
                        ptrdiff_t from = si < len ? len - 1 - si : si;                   \
                        ptrdiff_t j1 = p[5] ? from : i1, j3 = p[5] ? i3 : from;          \
                        ptrdiff_t dst = (((a * d1 + i1) * d2 + m) * d3 + i3) * d4;       \
                        ptrdiff_t src = (((a * d1 + j1) * d2 + m) * d3 + j3) * d4;       \
                        for (c = 0; c < d4; c++)                                         \
                            memcpy((unsigned char *)y + (size_t)(dst + c) * es,          \
                                   (const unsigned char *)x + (size_t)(src + c) * es, es); \
                    }                                                                    \
        return SM2C_RT_OK;                                                               \
    })

REVERSE_SEQUENCE(i32, int32_t)
REVERSE_SEQUENCE(i64, int64_t)
