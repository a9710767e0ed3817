/*
** clip.c: ClipByValue, y = max(min(x, hi), lo) with std::min/std::max
** semantics, as TensorFlow's CPU kernel (cwiseMin then cwiseMax): a NaN x
** stays NaN, a NaN bound is ignored, and lo > hi gives lo everywhere.
** lo and hi are scalars (step 0) or have x's shape (step 1).
*/
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SM2C_RT__CLIP(T, sfx)                                                          \
    SM2C_RT_DEFINE(clip_by_value_##sfx, void sm2c_rt_clip_by_value_##sfx(const T *x, const T *lo, const T *hi, T *y,       \
                                     int32_t n, int32_t lo_step, int32_t hi_step)      \
    {                                                                                  \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++) {                                                      \
            const T l = lo[i * lo_step], h = hi[i * hi_step];                          \
            const T m = h < x[i] ? h : x[i];                                           \
            y[i] = m < l ? l : m;                                                      \
        }                                                                              \
    })

SM2C_RT__CLIP(float, f32)
SM2C_RT__CLIP(double, f64)
SM2C_RT__CLIP(int32_t, i32)
SM2C_RT__CLIP(int64_t, i64)
SM2C_RT__CLIP(int8_t, i8)
SM2C_RT__CLIP(int16_t, i16)
SM2C_RT__CLIP(uint8_t, u8)
SM2C_RT__CLIP(uint16_t, u16)
