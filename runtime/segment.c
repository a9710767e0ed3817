/*
** segment.c: UnsortedSegmentSum/Max/Min/Prod and SegmentSum/Max/Min/Mean.
** y has n_seg rows of `row` elements; x has one row per id.  Row i of x folds
** into row ids[i] of y.  The ids arrive at run time and are all checked
** before anything is written: an id >= n_seg is an error (as in TensorFlow's
** CPU kernel), a negative id drops its row (unsorted) or is an error (sorted).
** An empty segment holds the fold's identity (unsorted: 0, 1, the lowest or
** the highest value, as TensorFlow) or 0 (sorted, and every Mean).  Max and
** Min fold like std::max(y, x) and std::min(y, x): a NaN in x is skipped
** unless it comes first.  float16 and bfloat16 (their uint16_t bits) fold
** in the half type, each partial result rounded to it, and Mean divides by
** the count as that type, as Eigen's half arithmetic in TensorFlow's kernels.
*/
#include <float.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "half_impl.h"
#include "int_wrap.h"
#include "rt_select.h"

#define SEG_SUM(y, x) ((y) + (x))
#define SEG_PROD(y, x) ((y) * (x))
#define SEG_MAX(y, x) ((y) < (x) ? (x) : (y))
#define SEG_MIN(y, x) ((x) < (y) ? (x) : (y))
#define SEG_DIV(y, n, T) ((y) / (T)(n))

/* The folds on a half type's bits, in float, rounded back (sfx f16, bf16). */
#define SEG_HALF_OPS(sfx)                                                                   \
    static inline float sm2c_rt__seg_##sfx(uint16_t v) { return sm2c_rt__##sfx##_to_f32(v); } \
    static inline uint16_t sm2c_rt__seg_sum_##sfx(uint16_t y, uint16_t x)                  \
    {                                                                                       \
        return sm2c_rt__f32_to_##sfx(sm2c_rt__seg_##sfx(y) + sm2c_rt__seg_##sfx(x));        \
    }                                                                                       \
    static inline uint16_t sm2c_rt__seg_prod_##sfx(uint16_t y, uint16_t x)                 \
    {                                                                                       \
        return sm2c_rt__f32_to_##sfx(sm2c_rt__seg_##sfx(y) * sm2c_rt__seg_##sfx(x));        \
    }                                                                                       \
    static inline uint16_t sm2c_rt__seg_max_##sfx(uint16_t y, uint16_t x)                  \
    {                                                                                       \
        return sm2c_rt__seg_##sfx(y) < sm2c_rt__seg_##sfx(x) ? x : y;                       \
    }                                                                                       \
    static inline uint16_t sm2c_rt__seg_min_##sfx(uint16_t y, uint16_t x)                  \
    {                                                                                       \
        return sm2c_rt__seg_##sfx(x) < sm2c_rt__seg_##sfx(y) ? x : y;                       \
    }                                                                                       \
    static inline uint16_t sm2c_rt__seg_div_##sfx(uint16_t y, int32_t n)                   \
    {                                                                                       \
        return sm2c_rt__f32_to_##sfx(sm2c_rt__seg_##sfx(y) /                               \
                                     sm2c_rt__seg_##sfx(sm2c_rt__f32_to_##sfx((float)n))); \
    }
SEG_HALF_OPS(f16)
SEG_HALF_OPS(bf16)
#define SEG_DIV_F16(y, n, T) sm2c_rt__seg_div_f16(y, n)
#define SEG_DIV_BF16(y, n, T) sm2c_rt__seg_div_bf16(y, n)

/* Checks the ids; then y = identity (or 0 where `sorted` asks), folded.
** counts (n_seg int32_t, caller's scratch) is used for Mean and for the
** empty segments of sorted ops. */
#define SEGMENT(op, FOLD, T, sfx, ix, I, IDENTITY)                                        \
    SM2C_RT_DEFINE(segment_##op##_##sfx##_##ix, int32_t sm2c_rt_segment_##op##_##sfx##_##ix(const T *x, const I *ids, T *y, int32_t n_ids, \
                                                int32_t row, int32_t n_seg, int32_t sorted, \
                                                int32_t *counts)                            \
    {                                                                                       \
        int32_t i, j, s;                                                                    \
        for (i = 0; i < n_ids; i++)                                                         \
            if (ids[i] >= (I)n_seg || (sorted && ids[i] < 0))                               \
                return SM2C_RT_ERR_INDEX;                                                   \
        for (s = 0; s < n_seg; s++) {                                                       \
            counts[s] = 0;                                                                  \
            for (j = 0; j < row; j++)                                                       \
                y[(size_t)s * (size_t)row + (size_t)j] = (IDENTITY);                        \
        }                                                                                   \
        for (i = 0; i < n_ids; i++) {                                                       \
            T *dst;                                                                         \
            const T *src = x + (size_t)i * (size_t)row;                                     \
            if (ids[i] < 0)                                                                 \
                continue;                                                                   \
            dst = y + (size_t)ids[i] * (size_t)row;                                         \
            for (j = 0; j < row; j++)                                                       \
                dst[j] = (T)FOLD(dst[j], src[j]);                                           \
            counts[ids[i]]++;                                                               \
        }                                                                                   \
        for (s = 0; sorted && s < n_seg; s++)                                               \
            for (j = 0; counts[s] == 0 && j < row; j++)                                     \
                y[(size_t)s * (size_t)row + (size_t)j] = 0;                                 \
        return SM2C_RT_OK;                                                                  \
    })

/* Mean: the sum over the count, 0 for an empty segment (sorted ids only). */
#define SEGMENT_MEAN(T, sfx, ix, I, DIV)                                                    \
    SM2C_RT_DEFINE(segment_mean_##sfx##_##ix, int32_t sm2c_rt_segment_mean_##sfx##_##ix(const T *x, const I *ids, T *y, int32_t n_ids, \
                                              int32_t row, int32_t n_seg, int32_t sorted,   \
                                              int32_t *counts)                              \
    {                                                                                       \
        int32_t s, j;                                                                       \
        int32_t st = sm2c_rt_segment_sum_##sfx##_##ix(x, ids, y, n_ids, row, n_seg, 1, counts); \
        (void)sorted;                                                                       \
        if (st != SM2C_RT_OK)                                                               \
            return st;                                                                      \
        for (s = 0; s < n_seg; s++)                                                         \
            for (j = 0; counts[s] > 0 && j < row; j++)                                      \
                y[(size_t)s * (size_t)row + (size_t)j] =                                    \
                    DIV(y[(size_t)s * (size_t)row + (size_t)j], counts[s], T);              \
        return SM2C_RT_OK;                                                                  \
    })

#define SEGMENTS(T, sfx, ix, I, SUM, PROD, MAX, MIN, DIV, ONE, LOWEST, HIGHEST)            \
    SEGMENT(sum, SUM, T, sfx, ix, I, 0)                                                     \
    SEGMENT(prod, PROD, T, sfx, ix, I, ONE)                                                 \
    SEGMENT(max, MAX, T, sfx, ix, I, LOWEST)                                                \
    SEGMENT(min, MIN, T, sfx, ix, I, HIGHEST)                                               \
    SEGMENT_MEAN(T, sfx, ix, I, DIV)
#define SEGMENTS_OF(T, sfx, SUM, PROD, MAX, MIN, DIV, ONE, LOWEST, HIGHEST)                 \
    SEGMENTS(T, sfx, i32, int32_t, SUM, PROD, MAX, MIN, DIV, ONE, LOWEST, HIGHEST)          \
    SEGMENTS(T, sfx, i64, int64_t, SUM, PROD, MAX, MIN, DIV, ONE, LOWEST, HIGHEST)

SEGMENTS_OF(float, f32, SEG_SUM, SEG_PROD, SEG_MAX, SEG_MIN, SEG_DIV, 1, -FLT_MAX, FLT_MAX)
SEGMENTS_OF(double, f64, SEG_SUM, SEG_PROD, SEG_MAX, SEG_MIN, SEG_DIV, 1, -DBL_MAX, DBL_MAX)
/* Integer sums and products wrap, as TensorFlow's do (int_wrap.h). */
#define SEGMENTS_INT(T, UT, TMIN, TMAX, sfx, WRAP, W)                                       \
    static inline T seg_sum_##sfx(T a, T b) { return SM2C_RT__WRAP_ADD(T, UT, TMAX, WRAP, a, b); } \
    static inline T seg_prod_##sfx(T a, T b) { return SM2C_RT__WRAP_MUL(T, UT, TMAX, WRAP, a, b); } \
    SEGMENTS_OF(T, sfx, seg_sum_##sfx, seg_prod_##sfx, SEG_MAX, SEG_MIN, SEG_DIV, 1, TMIN, TMAX)
SM2C_RT__INTS_32_64(SEGMENTS_INT)
SM2C_RT__INTS_OTHER(SEGMENTS_INT)
/* The half types' bits: 1, and the lowest and highest finite values. */
SEGMENTS_OF(uint16_t, f16, sm2c_rt__seg_sum_f16, sm2c_rt__seg_prod_f16, sm2c_rt__seg_max_f16,
            sm2c_rt__seg_min_f16, SEG_DIV_F16, 0x3c00, 0xfbff, 0x7bff)
SEGMENTS_OF(uint16_t, bf16, sm2c_rt__seg_sum_bf16, sm2c_rt__seg_prod_bf16, sm2c_rt__seg_max_bf16,
            sm2c_rt__seg_min_bf16, SEG_DIV_BF16, 0x3f80, 0xff7f, 0x7f7f)
