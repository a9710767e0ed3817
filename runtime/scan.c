/*
** scan.c: Cumsum and Cumprod along the middle axis of [outer, len, inner], for
** float, double, float16, bfloat16 and every integer width (integers wrap:
** int_wrap.h; the half types, as their uint16_t bits, round each partial
** result to the half type, as Eigen's half arithmetic in TensorFlow's scan does).
**
** In order along the axis, as TensorFlow's Eigen scan: `exclusive` leaves
** element k out of its own result (the first result is the identity),
** `reverse` scans from the end.  y may equal x.
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "half_impl.h"
#include "int_wrap.h"
#include "rt_select.h"

static inline float sm2c_rt__scan_add_f32(float a, float b) { return a + b; }
static inline float sm2c_rt__scan_mul_f32(float a, float b) { return a * b; }
static inline double sm2c_rt__scan_add_f64(double a, double b) { return a + b; }
static inline double sm2c_rt__scan_mul_f64(double a, double b) { return a * b; }

#define SM2C_RT__SCAN_HALF_OPS(sfx)                                                    \
    static inline uint16_t sm2c_rt__scan_add_##sfx(uint16_t a, uint16_t b)             \
    {                                                                                  \
        return sm2c_rt__f32_to_##sfx(sm2c_rt__##sfx##_to_f32(a) + sm2c_rt__##sfx##_to_f32(b)); \
    }                                                                                  \
    static inline uint16_t sm2c_rt__scan_mul_##sfx(uint16_t a, uint16_t b)             \
    {                                                                                  \
        return sm2c_rt__f32_to_##sfx(sm2c_rt__##sfx##_to_f32(a) * sm2c_rt__##sfx##_to_f32(b)); \
    }
SM2C_RT__SCAN_HALF_OPS(f16)
SM2C_RT__SCAN_HALF_OPS(bf16)

#define SM2C_RT__SCAN_INT_OPS(T, UT, TMIN, TMAX, sfx, WRAP, W)                         \
    static inline T sm2c_rt__scan_add_##sfx(T a, T b)                                  \
    {                                                                                  \
        return SM2C_RT__WRAP_ADD(T, UT, TMAX, WRAP, a, b);                             \
    }                                                                                  \
    static inline T sm2c_rt__scan_mul_##sfx(T a, T b)                                  \
    {                                                                                  \
        return SM2C_RT__WRAP_MUL(T, UT, TMAX, WRAP, a, b);                             \
    }
SM2C_RT__INTS_32_64(SM2C_RT__SCAN_INT_OPS)
SM2C_RT__INTS_OTHER(SM2C_RT__SCAN_INT_OPS)

#define SM2C_RT__SCAN(op, T, sfx, ID, F)                                               \
    SM2C_RT_DEFINE(op##_##sfx, void sm2c_rt_##op##_##sfx(const T *x, T *y, int32_t outer, int32_t len,            \
                              int32_t inner, int32_t exclusive, int32_t reverse)       \
    {                                                                                  \
        int32_t o, r, i;                                                               \
        for (o = 0; o < outer; o++)                                                    \
            for (i = 0; i < inner; i++) {                                              \
                const ptrdiff_t base = (ptrdiff_t)o * len * inner + i;                 \
                T acc = (ID);                                                          \
                for (r = 0; r < len; r++) {                                            \
                    const ptrdiff_t at = base + (ptrdiff_t)(reverse ? len - 1 - r : r) * inner; \
                    const T v = x[at];                                                 \
                    if (exclusive) {                                                   \
                        y[at] = acc;                                                   \
                        acc = F(acc, v);                                               \
                    } else {                                                           \
                        acc = F(acc, v);                                               \
                        y[at] = acc;                                                   \
                    }                                                                  \
                }                                                                      \
            }                                                                          \
    })

#define SM2C_RT__SCANS(T, sfx)                                                         \
    SM2C_RT__SCAN(cumsum, T, sfx, 0, sm2c_rt__scan_add_##sfx)                          \
    SM2C_RT__SCAN(cumprod, T, sfx, 1, sm2c_rt__scan_mul_##sfx)

SM2C_RT__SCANS(float, f32)
SM2C_RT__SCANS(double, f64)
#define SM2C_RT__SCANS_INT(T, UT, TMIN, TMAX, sfx, WRAP, W) SM2C_RT__SCANS(T, sfx)
SM2C_RT__INTS_32_64(SM2C_RT__SCANS_INT)
SM2C_RT__INTS_OTHER(SM2C_RT__SCANS_INT)
/* The identities' bits: 0 is +0; 1 is 0x3c00 in float16, 0x3f80 in bfloat16. */
SM2C_RT__SCAN(cumsum, uint16_t, f16, 0, sm2c_rt__scan_add_f16)
SM2C_RT__SCAN(cumprod, uint16_t, f16, 0x3c00, sm2c_rt__scan_mul_f16)
SM2C_RT__SCAN(cumsum, uint16_t, bf16, 0, sm2c_rt__scan_add_bf16)
SM2C_RT__SCAN(cumprod, uint16_t, bf16, 0x3f80, sm2c_rt__scan_mul_bf16)
