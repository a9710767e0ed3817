/*
** complex.c: complex64 elementwise kernels.  A complex64 element is two
** floats, real then imaginary (interleaved, as TensorFlow and C99's
** float _Complex store it); every pointer here is to such pairs, and n,
** dims and strides count elements (pairs), not floats.
**
** Complex (re, im) -> complex; Real, Imag, ComplexAbs (hypotf, as std::abs
** of std::complex<float>), Angle (atan2f(im, re)) -> float; Conj, Exp (e^re
** times cos/sin of im) -> complex; broadcasting Add, Sub, Mul (the textbook
** product, no special Inf/NaN recovery: Eigen's complex product).
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "binary_impl.h"
#include "strided_impl.h"
#include "rt_select.h"

/* A broadcasting binary kernel: TA/NA are a's and b's scalar type and floats
** per element (Complex reads float re and im, the others complex pairs); F
** writes y[0..1] from pa and pb. */
#define SM2C_RT__CBINARY(name, NA, F)                                                  \
    SM2C_RT_DEFINE(name, void sm2c_rt_##name(const float *a, const float *b, float *y,  \
                                             int32_t rank, const int32_t *dims,         \
                                             const int32_t *sa, const int32_t *sb)      \
    {                                                                                  \
        sm2c_rt__walk w;                                                               \
        if (!sm2c_rt__binary_walk(&w, rank, dims, sa, sb))                                   \
            return;                                                                    \
        do {                                                                           \
            const float *pa0 = a + NA * w.off[0];                                      \
            const float *pb0 = b + NA * w.off[1];                                      \
            float *py0 = y + 2 * w.off[2];                                             \
            const ptrdiff_t ia = w.inner[0], ib = w.inner[1];                          \
            ptrdiff_t k;                                                               \
            for (k = 0; k < w.n; k++) {                                                \
                const float *pa = pa0 + NA * k * ia, *pb = pb0 + NA * k * ib;          \
                float *py = py0 + 2 * k;                                               \
                F;                                                                     \
            }                                                                          \
        } while (sm2c_rt__walk_next(&w));                                              \
    })

SM2C_RT__CBINARY(complex_f32, 1, (py[0] = pa[0], py[1] = pb[0]))
SM2C_RT__CBINARY(add_c64, 2, (py[0] = pa[0] + pb[0], py[1] = pa[1] + pb[1]))
SM2C_RT__CBINARY(sub_c64, 2, (py[0] = pa[0] - pb[0], py[1] = pa[1] - pb[1]))
SM2C_RT__CBINARY(mul_c64, 2, (py[0] = pa[0] * pb[0] - pa[1] * pb[1],
                              py[1] = pa[0] * pb[1] + pa[1] * pb[0]))

/* Unary kernels over n elements; complex -> float ones write y[i], complex ->
** complex ones y[2i], y[2i+1] (y may equal x for those). */
#define SM2C_RT__CUNARY(name, F)                                                       \
    SM2C_RT_DEFINE(name, void sm2c_rt_##name(const float *x, float *y, int32_t n)      \
    {                                                                                  \
        int32_t i;                                                                     \
        for (i = 0; i < n; i++) {                                                      \
            const float re = x[2 * i], im = x[2 * i + 1];                              \
            F;                                                                         \
        }                                                                              \
    })

SM2C_RT__CUNARY(real_c64, (void)im; y[i] = re)
SM2C_RT__CUNARY(imag_c64, (void)re; y[i] = im)
SM2C_RT__CUNARY(abs_c64, y[i] = hypotf(re, im))
SM2C_RT__CUNARY(angle_c64, y[i] = atan2f(im, re))
SM2C_RT__CUNARY(conj_c64, y[2 * i] = re; y[2 * i + 1] = -im)
SM2C_RT__CUNARY(exp_c64, const float e = expf(re); y[2 * i] = e * cosf(im); y[2 * i + 1] = e * sinf(im))

/* Cast float -> complex64: (x, 0). */
#if SM2C_RT_WANT(cast_f32_c64)
void sm2c_rt_cast_f32_c64(const float *x, float *y, int32_t n)
{
    int32_t i;
    for (i = n - 1; i >= 0; i--) {  /* backwards: y may start where x does */
        const float v = x[i];
        y[2 * i] = v;
        y[2 * i + 1] = 0.0f;
    }
}
#endif
