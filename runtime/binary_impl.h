/*
** binary_impl.h: private to the runtime.  The template that binary_<dtype>.c
** instantiates: scalar operations per dtype and one broadcasting kernel per
** operation.
**
** The kernel walks the output box with strided_impl.h (y dense, a and b at
** their strides).  Each inner run takes one of four loops: both operands unit
** stride (the vectorised fast path), a or b broadcast (stride 0) against a
** unit-stride other, or general strides.  y is dense, so its inner stride is
** always 1 after coalescing.  On x86-64 each kernel is also compiled for
** AVX-512 and AVX2 and picked at run time (SM2C_RT_CLONES, simd_f32.h): a
** portable build's loops then run as wide as a native build's.
*/
#ifndef SM2C_RT_BINARY_IMPL_H
#define SM2C_RT_BINARY_IMPL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "strided_impl.h"
#include "rt_select.h"
#include "simd_f32.h"

/* Sets up the walk for a binary op: y is dense row-major over dims. */
static inline int sm2c_rt__binary_walk(sm2c_rt__walk *w, int32_t rank, const int32_t *dims,
                                       const int32_t *sa, const int32_t *sb)
{
    int32_t sy[SM2C_RT_MAX_RANK];
    const int32_t *s[SM2C_RT__WALK_OPS];
    static const ptrdiff_t off[SM2C_RT__WALK_OPS] = {0, 0, 0};
    int32_t k;

    if (rank < 0 || rank > SM2C_RT_MAX_RANK)
        return 0;
    for (k = rank - 1; k >= 0; k--)
        sy[k] = k == rank - 1 ? 1 : sy[k + 1] * dims[k + 1];
    s[0] = sa;
    s[1] = sb;
    s[2] = sy;
    return sm2c_rt__walk_init(w, rank, dims, s, off);
}

#define SM2C_RT__BINARY_KERNEL(op, T, sfx, F) SM2C_RT__BINARY_KERNEL_TO(op, T, T, sfx, F)

/* The same with an output type TY of its own (comparisons give uint8_t 0/1). */
#define SM2C_RT__BINARY_KERNEL_TO(op, T, TY, sfx, F)                                   \
    SM2C_RT_DEFINE(op##_##sfx,                                                         \
    static SM2C_RT_ALWAYS_INLINE void sm2c_rt__##op##_##sfx##_body(                    \
        const T *a, const T *b, TY *y, int32_t rank, const int32_t *dims,              \
        const int32_t *sa, const int32_t *sb)                                          \
    {                                                                                  \
        sm2c_rt__walk w;                                                               \
        if (!sm2c_rt__binary_walk(&w, rank, dims, sa, sb))                             \
            return;                                                                    \
        do {                                                                           \
            const T *pa = a + w.off[0];                                                \
            const T *pb = b + w.off[1];                                                \
            TY *py = y + w.off[2];                                                     \
            const ptrdiff_t ia = w.inner[0], ib = w.inner[1], n = w.n;                 \
            ptrdiff_t k;                                                               \
            if (ia == 1 && ib == 1) {                                                  \
                for (k = 0; k < n; k++)                                                \
                    py[k] = F(pa[k], pb[k]);                                           \
            } else if (ia == 0 && ib == 1) {                                           \
                const T va = pa[0];                                                    \
                for (k = 0; k < n; k++)                                                \
                    py[k] = F(va, pb[k]);                                              \
            } else if (ia == 1 && ib == 0) {                                           \
                const T vb = pb[0];                                                    \
                for (k = 0; k < n; k++)                                                \
                    py[k] = F(pa[k], vb);                                              \
            } else {                                                                   \
                for (k = 0; k < n; k++)                                                \
                    py[k] = F(pa[k * ia], pb[k * ib]);                                 \
            }                                                                          \
        } while (sm2c_rt__walk_next(&w));                                              \
    }                                                                                  \
    SM2C_RT_CLONES(sm2c_rt__##op##_##sfx,                                              \
                   (const T *a, const T *b, TY *y, int32_t rank, const int32_t *dims,  \
                    const int32_t *sa, const int32_t *sb), (a, b, y, rank, dims, sa, sb)) \
    SM2C_RT_VECTORISE void sm2c_rt_##op##_##sfx(const T *a, const T *b, TY *y, int32_t rank, \
                                                const int32_t *dims, const int32_t *sa, \
                                                const int32_t *sb)                     \
    {                                                                                  \
        SM2C_RT_PICK(sm2c_rt__##op##_##sfx, (a, b, y, rank, dims, sa, sb))             \
        sm2c_rt__##op##_##sfx##_body(a, b, y, rank, dims, sa, sb);                     \
    })

/* Integer division and modulo (logic family): a zero divisor has no result, so
** the kernel returns SM2C_RT_ERR_VALUE as soon as it meets one (TensorFlow
** raises "Integer division by zero"); F is only called with b != 0.  One
** general loop: the divisor check dominates the cost anyway. */
#define SM2C_RT__BINARY_KERNEL_CHECKED(op, T, sfx, F)                                  \
    SM2C_RT__BINARY_KERNEL_GUARDED(op, T, sfx, F, vb == 0)

/* The same with the second operand vb refused where BAD (an expression of vb)
** holds: integer Pow's negative exponent. */
#define SM2C_RT__BINARY_KERNEL_GUARDED(op, T, sfx, F, BAD)                             \
    SM2C_RT_DEFINE(op##_##sfx, int32_t sm2c_rt_##op##_##sfx(const T *a, const T *b, T *y, int32_t rank,           \
                                 const int32_t *dims, const int32_t *sa,               \
                                 const int32_t *sb)                                    \
    {                                                                                  \
        sm2c_rt__walk w;                                                               \
        if (!sm2c_rt__binary_walk(&w, rank, dims, sa, sb))                             \
            return SM2C_RT_OK;                                                         \
        do {                                                                           \
            const T *pa = a + w.off[0];                                                \
            const T *pb = b + w.off[1];                                                \
            T *py = y + w.off[2];                                                      \
            const ptrdiff_t ia = w.inner[0], ib = w.inner[1], n = w.n;                 \
            ptrdiff_t k;                                                               \
            for (k = 0; k < n; k++) {                                                  \
                const T vb = pb[k * ib];                                               \
                if (BAD)                                                               \
                    return SM2C_RT_ERR_VALUE;                                          \
                py[k] = F(pa[k * ia], vb);                                             \
            }                                                                          \
        } while (sm2c_rt__walk_next(&w));                                              \
        return SM2C_RT_OK;                                                             \
    })

/* Floating point.  Maximum/Minimum are TensorFlow's (Eigen PropagateNaN, as
** measured on TF 2.21 x86-64): a NaN in a is returned as is, else a NaN in b;
** otherwise the larger (smaller) value, and b when a == b, which is what the
** vectorised Eigen path returns for max(+0, -0) (the scalar tail returns a;
** TF itself is not consistent there). */
#define SM2C_RT__FLOAT_OPS(T, sfx)                                                     \
    static inline T sm2c_rt__add_##sfx(T a, T b) { return a + b; }                     \
    static inline T sm2c_rt__sub_##sfx(T a, T b) { return a - b; }                     \
    static inline T sm2c_rt__mul_##sfx(T a, T b) { return a * b; }                     \
    static inline T sm2c_rt__div_##sfx(T a, T b) { return a / b; }                     \
    static inline T sm2c_rt__maximum_##sfx(T a, T b)                                   \
    {                                                                                  \
        if (isnan(a))                                                                  \
            return a;                                                                  \
        if (isnan(b))                                                                  \
            return b;                                                                  \
        return a > b ? a : b;                                                          \
    }                                                                                  \
    static inline T sm2c_rt__minimum_##sfx(T a, T b)                                   \
    {                                                                                  \
        if (isnan(a))                                                                  \
            return a;                                                                  \
        if (isnan(b))                                                                  \
            return b;                                                                  \
        return a < b ? a : b;                                                          \
    }

/* Integers: add, sub and mul wrap in two's complement.  The arithmetic is done
** in the unsigned type UT (`0u +` keeps it unsigned even where int is wider),
** and the result is brought back without implementation-defined conversion. */
#define SM2C_RT__INT_OPS(T, UT, TMAX, sfx)                                             \
    static inline T sm2c_rt__wrap_##sfx(UT v)                                          \
    {                                                                                  \
        return v <= (UT)TMAX ? (T)v : (T)(v - (UT)TMAX - 1u) - TMAX - 1;               \
    }                                                                                  \
    static inline T sm2c_rt__add_##sfx(T a, T b)                                       \
    {                                                                                  \
        return sm2c_rt__wrap_##sfx((UT)(0u + (UT)a + (UT)b));                          \
    }                                                                                  \
    static inline T sm2c_rt__sub_##sfx(T a, T b)                                       \
    {                                                                                  \
        return sm2c_rt__wrap_##sfx((UT)(0u + (UT)a - (UT)b));                          \
    }                                                                                  \
    static inline T sm2c_rt__mul_##sfx(T a, T b)                                       \
    {                                                                                  \
        return sm2c_rt__wrap_##sfx((UT)((0u + (UT)a) * (UT)b));                        \
    }                                                                                  \
    static inline T sm2c_rt__maximum_##sfx(T a, T b) { return a > b ? a : b; }        \
    static inline T sm2c_rt__minimum_##sfx(T a, T b) { return a < b ? a : b; }

/* Unsigned integers wrap by definition; `0u +` keeps types narrower than int
** from being promoted to (signed, overflowing) int. */
#define SM2C_RT__UINT_OPS(T, sfx)                                                      \
    static inline T sm2c_rt__add_##sfx(T a, T b) { return (T)(0u + a + b); }           \
    static inline T sm2c_rt__sub_##sfx(T a, T b) { return (T)(0u + a - b); }           \
    static inline T sm2c_rt__mul_##sfx(T a, T b) { return (T)((0u + a) * b); }         \
    static inline T sm2c_rt__maximum_##sfx(T a, T b) { return a > b ? a : b; }        \
    static inline T sm2c_rt__minimum_##sfx(T a, T b) { return a < b ? a : b; }

#define SM2C_RT__BINARY_COMMON(T, sfx)                                                 \
    SM2C_RT__BINARY_KERNEL(add, T, sfx, sm2c_rt__add_##sfx)                            \
    SM2C_RT__BINARY_KERNEL(sub, T, sfx, sm2c_rt__sub_##sfx)                            \
    SM2C_RT__BINARY_KERNEL(mul, T, sfx, sm2c_rt__mul_##sfx)                            \
    SM2C_RT__BINARY_KERNEL(maximum, T, sfx, sm2c_rt__maximum_##sfx)                    \
    SM2C_RT__BINARY_KERNEL(minimum, T, sfx, sm2c_rt__minimum_##sfx)

#endif
