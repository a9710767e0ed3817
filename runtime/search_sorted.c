/*
** search_sorted.c: UpperBound / LowerBound.  For each of the m values of row b,
** the index in row b of sorted (n elements) that std::upper_bound (upper) or
** std::lower_bound returns, by the same binary search step for step (so an
** unsorted row or a NaN gives what TensorFlow's kernel gives).
*/
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SEARCH_SORTED(sfx, T, ox, O)                                                     \
    SM2C_RT_DEFINE(search_sorted_##sfx##_##ox,                                           \
    void sm2c_rt_search_sorted_##sfx##_##ox(const T *sorted, const T *values, O *y, int32_t batch, \
                                            int32_t n, int32_t m, int32_t upper)         \
    {                                                                                    \
        int32_t b, i;                                                                    \
        for (b = 0; b < batch; b++) {                                                    \
            const T *row = sorted + (size_t)b * (size_t)n;                               \
            for (i = 0; i < m; i++) {                                                    \
                const T v = values[(size_t)b * (size_t)m + (size_t)i];                   \
                int32_t first = 0, len = n;                                              \
                while (len > 0) {                                                        \
                    const int32_t half = len >> 1, mid = first + half;                   \
                    if (upper ? !(v < row[mid]) : row[mid] < v) {                        \
                        first = mid + 1;                                                 \
                        len = len - half - 1;                                            \
                    } else {                                                             \
                        len = half;                                                      \
                    }                                                                    \
                }                                                                        \
                y[(size_t)b * (size_t)m + (size_t)i] = (O)first;                         \
            }                                                                            \
        }                                                                                \
    })

SEARCH_SORTED(f32, float, i32, int32_t)
SEARCH_SORTED(f32, float, i64, int64_t)
SEARCH_SORTED(i32, int32_t, i32, int32_t)
SEARCH_SORTED(i32, int32_t, i64, int64_t)
SEARCH_SORTED(i64, int64_t, i32, int32_t)
SEARCH_SORTED(i64, int64_t, i64, int64_t)
