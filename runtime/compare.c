/*
** compare.c: Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual (float,
** double, every integer width; Equal/NotEqual also bool), LogicalAnd and LogicalOr,
** broadcasting (binary_impl.h), and ApproximateEqual.  Results are bool as
** uint8_t 0/1.  IEEE comparisons: a NaN compares false, so NotEqual is true.
*/
#include "binary_impl.h"
#include "rt_select.h"

#define SM2C_RT__COMPARE_OPS(T, sfx)                                                   \
    static inline uint8_t sm2c_rt__equal_##sfx(T a, T b) { return (uint8_t)(a == b); } \
    static inline uint8_t sm2c_rt__not_equal_##sfx(T a, T b) { return (uint8_t)(a != b); } \
    SM2C_RT__BINARY_KERNEL_TO(equal, T, uint8_t, sfx, sm2c_rt__equal_##sfx)            \
    SM2C_RT__BINARY_KERNEL_TO(not_equal, T, uint8_t, sfx, sm2c_rt__not_equal_##sfx)

#define SM2C_RT__ORDER_OPS(T, sfx)                                                     \
    static inline uint8_t sm2c_rt__less_##sfx(T a, T b) { return (uint8_t)(a < b); }   \
    static inline uint8_t sm2c_rt__less_equal_##sfx(T a, T b) { return (uint8_t)(a <= b); } \
    static inline uint8_t sm2c_rt__greater_##sfx(T a, T b) { return (uint8_t)(a > b); } \
    static inline uint8_t sm2c_rt__greater_equal_##sfx(T a, T b) { return (uint8_t)(a >= b); } \
    SM2C_RT__BINARY_KERNEL_TO(less, T, uint8_t, sfx, sm2c_rt__less_##sfx)              \
    SM2C_RT__BINARY_KERNEL_TO(less_equal, T, uint8_t, sfx, sm2c_rt__less_equal_##sfx)  \
    SM2C_RT__BINARY_KERNEL_TO(greater, T, uint8_t, sfx, sm2c_rt__greater_##sfx)        \
    SM2C_RT__BINARY_KERNEL_TO(greater_equal, T, uint8_t, sfx, sm2c_rt__greater_equal_##sfx)

SM2C_RT__COMPARE_OPS(float, f32)
SM2C_RT__COMPARE_OPS(double, f64)
SM2C_RT__COMPARE_OPS(int32_t, i32)
SM2C_RT__COMPARE_OPS(int64_t, i64)
SM2C_RT__COMPARE_OPS(uint8_t, b)
SM2C_RT__ORDER_OPS(float, f32)
SM2C_RT__ORDER_OPS(double, f64)
SM2C_RT__ORDER_OPS(int32_t, i32)
SM2C_RT__ORDER_OPS(int64_t, i64)
/* The other integer widths (issue 33's dtype audit). */
#define SM2C_RT__ALL_COMPARE(T, sfx) SM2C_RT__COMPARE_OPS(T, sfx) SM2C_RT__ORDER_OPS(T, sfx)
SM2C_RT__ALL_COMPARE(int8_t, i8)
SM2C_RT__ALL_COMPARE(int16_t, i16)
SM2C_RT__ALL_COMPARE(uint8_t, u8)
SM2C_RT__ALL_COMPARE(uint16_t, u16)
SM2C_RT__ALL_COMPARE(uint32_t, u32)
SM2C_RT__ALL_COMPARE(uint64_t, u64)

/* Any nonzero byte is true, so a stray value cannot make a non-0/1 result. */
static inline uint8_t sm2c_rt__logical_and_b(uint8_t a, uint8_t b) { return (uint8_t)(a && b); }
static inline uint8_t sm2c_rt__logical_or_b(uint8_t a, uint8_t b) { return (uint8_t)(a || b); }
SM2C_RT__BINARY_KERNEL(logical_and, uint8_t, b, sm2c_rt__logical_and_b)
SM2C_RT__BINARY_KERNEL(logical_or, uint8_t, b, sm2c_rt__logical_or_b)

#if SM2C_RT_WANT(approximate_equal_f32)
/* TF's ApproximateEqual: |a - b| <= tolerance (measured: a difference of exactly
** the tolerance counts as equal), false for NaN. */
void sm2c_rt_approximate_equal_f32(const float *a, const float *b, uint8_t *y, int32_t n,
                                   float tolerance)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = (uint8_t)(fabsf(a[i] - b[i]) <= tolerance);
}
#endif

#if SM2C_RT_WANT(approximate_equal_f64)
void sm2c_rt_approximate_equal_f64(const double *a, const double *b, uint8_t *y, int32_t n,
                                   float tolerance)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = (uint8_t)(fabs(a[i] - b[i]) <= (double)tolerance);
}
#endif

#if SM2C_RT_WANT(logical_not_b)
void sm2c_rt_logical_not_b(const uint8_t *x, uint8_t *y, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        y[i] = (uint8_t)!x[i];
}
#endif

/* IsNan, IsInf, IsFinite. */
#define SM2C_RT__CLASSIFY(T, sfx)                                                      \
    SM2C_RT_DEFINE(is_nan_##sfx, void sm2c_rt_is_nan_##sfx(const T *x, uint8_t *y, int32_t n)                       \
    {                                                                                  \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++)                                                        \
            y[i] = (uint8_t)(isnan(x[i]) != 0);                                        \
    })                                                                                  \
    SM2C_RT_DEFINE(is_inf_##sfx, void sm2c_rt_is_inf_##sfx(const T *x, uint8_t *y, int32_t n)                       \
    {                                                                                  \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++)                                                        \
            y[i] = (uint8_t)(isinf(x[i]) != 0);                                        \
    })                                                                                  \
    SM2C_RT_DEFINE(is_finite_##sfx, void sm2c_rt_is_finite_##sfx(const T *x, uint8_t *y, int32_t n)                    \
    {                                                                                  \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++)                                                        \
            y[i] = (uint8_t)(isfinite(x[i]) != 0);                                     \
    })

SM2C_RT__CLASSIFY(float, f32)
SM2C_RT__CLASSIFY(double, f64)
