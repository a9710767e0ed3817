/*
** check.c: run-time checks that TensorFlow raises as errors.  CheckNumerics
** fails on a NaN or an infinity (SM2C_RT_ERR_NUMERICS); Assert fails when its
** condition has a false element (SM2C_RT_ERR_ASSERT).  Floats are tested by
** their exponent bits, so every float type is one test and no FP exception
** or fast-math setting can change the answer.
*/
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#if SM2C_RT_WANT(check_finite_f32)
int32_t sm2c_rt_check_finite_f32(const float *x, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, &x[i], sizeof bits);
        if ((bits & 0x7f800000u) == 0x7f800000u)
            return SM2C_RT_ERR_NUMERICS;
    }
    return SM2C_RT_OK;
}
#endif

#if SM2C_RT_WANT(check_finite_f64)
int32_t sm2c_rt_check_finite_f64(const double *x, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &x[i], sizeof bits);
        if ((bits & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000))
            return SM2C_RT_ERR_NUMERICS;
    }
    return SM2C_RT_OK;
}
#endif

/* float16 (mask 0x7c00) and bfloat16 (mask 0x7f80), as their uint16_t bits. */
#if SM2C_RT_WANT(check_finite_f16)
int32_t sm2c_rt_check_finite_f16(const uint16_t *x, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        if ((x[i] & 0x7c00u) == 0x7c00u)
            return SM2C_RT_ERR_NUMERICS;
    return SM2C_RT_OK;
}
#endif

#if SM2C_RT_WANT(check_finite_bf16)
int32_t sm2c_rt_check_finite_bf16(const uint16_t *x, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        if ((x[i] & 0x7f80u) == 0x7f80u)
            return SM2C_RT_ERR_NUMERICS;
    return SM2C_RT_OK;
}
#endif

#if SM2C_RT_WANT(check_true_b)
int32_t sm2c_rt_check_true_b(const uint8_t *cond, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i++)
        if (!cond[i])
            return SM2C_RT_ERR_ASSERT;
    return SM2C_RT_OK;
}
#endif
