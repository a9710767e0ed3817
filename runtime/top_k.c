/*
** top_k.c: TopKV2 with sorted output.  Each row is scanned once, keeping the
** best k so far in order; a value enters only when strictly greater than the
** one it passes, so among equal values the lower index stays first, as
** TensorFlow's stable sort gives.
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define TOP_K(sfx, T)                                                                    \
    SM2C_RT_DEFINE(top_k_##sfx, void sm2c_rt_top_k_##sfx(const T *x, T *values, int32_t *indices, int32_t rows,        \
                             int32_t cols, int32_t k)                                    \
    {                                                                                    \
        int32_t r, c;                                                                    \
        for (r = 0; r < rows; r++) {                                                     \
            const T *row = x + (ptrdiff_t)r * cols;                                      \
            T *val = values + (ptrdiff_t)r * k;                                          \
            int32_t *ind = indices + (ptrdiff_t)r * k, have = 0;                         \
            for (c = 0; c < cols; c++) {                                                 \
                int32_t at = have;                                                       \
                while (at > 0 && row[c] > val[at - 1])                                   \
                    at--;                                                                \
                if (at >= k)                                                             \
                    continue;                                                            \
                if (have < k)                                                            \
                    have++;                                                              \
                for (int32_t j = have - 1; j > at; j--) {                                \
                    val[j] = val[j - 1];                                                 \
                    ind[j] = ind[j - 1];                                                 \
                }                                                                        \
                val[at] = row[c];                                                        \
                ind[at] = c;                                                             \
            }                                                                            \
        }                                                                                \
    })

TOP_K(f32, float)
TOP_K(f64, double)
TOP_K(i32, int32_t)
TOP_K(i64, int64_t)
TOP_K(i8, int8_t)
TOP_K(i16, int16_t)
TOP_K(u8, uint8_t)
TOP_K(u16, uint16_t)
TOP_K(u32, uint32_t)
TOP_K(u64, uint64_t)
