/*
** gamma_f64.c: Digamma on double (Lgamma is libm's lgamma, unary_f64.c); y
** may equal x.  Eigen's digamma_impl<double> (digamma_impl.h) with its
** double polynomial.
*/
#include <math.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "digamma_impl.h"

/* Eigen's digamma_impl_maybe_poly<double>: z * ppolevl(z, A, 6). */
static inline double sm2c_rt__digamma_poly_f64(double s)
{
    if (s < 1.0e17) {
        const double z = 1.0 / (s * s);
        return z * ((((((8.33333333333333333333E-2 * z - 2.10927960927960927961E-2) * z +
                        7.57575757575757575758E-3) * z - 4.16666666666666666667E-3) * z +
                      3.96825396825396825397E-3) * z - 8.33333333333333333333E-3) * z +
                    8.33333333333333333333E-2);
    }
    return 0.0;
}

SM2C_RT__DIGAMMA(double, f64, , sm2c_rt__digamma_poly_f64)
