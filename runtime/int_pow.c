/*
** int_pow.c: Pow on int8, int16, int32 and int64 with TensorFlow's CPU
** semantics (issue 33's dtype audit), checked (binary_impl.h).
**
** A negative exponent makes the kernel return SM2C_RT_ERR_VALUE, where
** TensorFlow raises "Integers to negative integer powers are not allowed".
** Otherwise the power is Eigen's integer pow: square and multiply, wrapping in
** two's complement (done in the unsigned type, int_wrap.h); 0^0 is 1.
*/
#include "binary_impl.h"
#include "int_wrap.h"

#define SM2C_RT__INT_POW(T, UT, TMIN, TMAX, sfx, WRAP, W)                              \
    static inline T sm2c_rt__ipow_##sfx(T a, T b)                                      \
    {                                                                                  \
        UT r = 1u, base = (UT)a;                                                       \
        T e = b;                                                                       \
        while (e > 0) {                                                                \
            if (e & 1)                                                                 \
                r = (UT)((0u + r) * base);                                             \
            base = (UT)((0u + base) * base);                                           \
            e = (T)(e >> 1);                                                           \
        }                                                                              \
        return WRAP(T, UT, TMAX, r);                                                   \
    }                                                                                  \
    SM2C_RT__BINARY_KERNEL_GUARDED(pow, T, sfx, sm2c_rt__ipow_##sfx, vb < 0)

SM2C_RT__INTS_32_64(SM2C_RT__INT_POW)
SM2C_RT__INT_POW(int8_t, uint8_t, INT8_MIN, INT8_MAX, i8, SM2C_RT__SWRAP, int64_t)
SM2C_RT__INT_POW(int16_t, uint16_t, INT16_MIN, INT16_MAX, i16, SM2C_RT__SWRAP, int64_t)
