/*
** reduce_f64.c: Sum, Mean, Prod, Max and Min of double over the middle axis
** of [outer, reduce, inner] (issue 33's dtype audit), each output summed (or
** multiplied) down its column in order, in double.
**
** TensorFlow's semantics, as reduce_f32.c: Max/Min give NaN when there is one
** (the first met), -Inf/+Inf for an empty axis; Sum 0 and Prod 1 when empty;
** Mean is Sum / reduce, NaN for an empty axis.
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "reduce_col.h"

/* On ties the later value wins, as reduce_f32.c's steps. */
SM2C_RT__REDUCE_COL(sum, double, f64, 0.0, a + v)
SM2C_RT__REDUCE_COL(prod, double, f64, 1.0, a * v)
SM2C_RT__REDUCE_COL(max, double, f64, -INFINITY, isnan(a) || a > v ? a : v)
SM2C_RT__REDUCE_COL(min, double, f64, INFINITY, isnan(a) || a < v ? a : v)

#if SM2C_RT_WANT(reduce_mean_f64)
void sm2c_rt_reduce_mean_f64(const double *x, double *y, int32_t outer, int32_t reduce,
                             int32_t inner)
{
    const int32_t n = outer * inner;
    int32_t i;

    sm2c_rt_reduce_sum_f64(x, y, outer, reduce, inner);
    for (i = 0; i < n; i++)
        y[i] = reduce > 0 ? y[i] / (double)reduce : NAN;
}
#endif
