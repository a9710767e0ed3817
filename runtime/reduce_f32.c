/*
** reduce_f32.c: Sum, Mean, Max and Min over the middle axis of [outer, reduce, inner].
**
** Sum along a contiguous row (inner == 1) keeps eight lane-wise partial sums
** over blocks of 256 elements (row_sum_f32.h, shared with the layer norm).
** With inner > 1 each output accumulates down its column in order,
** vectorised across the inner axis.
**
** Max/Min follow TensorFlow: a NaN anywhere gives NaN (the first one met);
** the identities -Inf/+Inf come out for reduce == 0.  Mean is Sum / reduce,
** NaN for reduce == 0, as TF.
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "row_sum_f32.h"

static inline void sm2c_rt__sum_f32(const float *x, float *y, int32_t outer, int32_t reduce,
                             int32_t inner)
{
    int32_t o, r, i;

    if (inner == 1) {
        for (o = 0; o < outer; o++)
            y[o] = sm2c_rt__row_sum_f32(x + (ptrdiff_t)o * reduce, reduce);
        return;
    }
    for (o = 0; o < outer; o++) {
        float *py = y + (ptrdiff_t)o * inner;
        const float *px = x + (ptrdiff_t)o * reduce * inner;
        for (i = 0; i < inner; i++)
            py[i] = 0.0f;
        for (r = 0; r < reduce; r++, px += inner)
            for (i = 0; i < inner; i++)
                py[i] += px[i];
    }
}

#if SM2C_RT_WANT(reduce_sum_f32)
void sm2c_rt_reduce_sum_f32(const float *x, float *y, int32_t outer, int32_t reduce, int32_t inner)
{
    sm2c_rt__sum_f32(x, y, outer, reduce, inner);
}
#endif

#if SM2C_RT_WANT(reduce_mean_f32)
void sm2c_rt_reduce_mean_f32(const float *x, float *y, int32_t outer, int32_t reduce,
                             int32_t inner)
{
    const int32_t n = outer * inner;
    int32_t i;

    if (reduce == 0) {
        for (i = 0; i < n; i++)
            y[i] = NAN;
        return;
    }
    sm2c_rt__sum_f32(x, y, outer, reduce, inner);
    for (i = 0; i < n; i++)
        y[i] /= (float)reduce;
}
#endif

/* acc = op(acc, v) keeping the first NaN; on ties the later value wins, as in
** TF's scalar path (only the sign of a zero can tell). */
#define SM2C_RT__MAX_STEP(acc, v)                                                      \
    do {                                                                               \
        if (!isnan(acc) && !((acc) > (v)))                                             \
            (acc) = (v);                                                               \
    } while (0)
#define SM2C_RT__MIN_STEP(acc, v)                                                      \
    do {                                                                               \
        if (!isnan(acc) && !((acc) < (v)))                                             \
            (acc) = (v);                                                               \
    } while (0)

#define SM2C_RT__REDUCE_EXTREMUM(op, STEP, INIT)                                       \
    SM2C_RT_DEFINE(reduce_##op##_f32, void sm2c_rt_reduce_##op##_f32(const float *x, float *y, int32_t outer,            \
                                   int32_t reduce, int32_t inner)                      \
    {                                                                                  \
        int32_t o, r, i;                                                               \
        for (o = 0; o < outer; o++) {                                                  \
            float *py = y + (ptrdiff_t)o * inner;                                      \
            const float *px = x + (ptrdiff_t)o * reduce * inner;                       \
            for (i = 0; i < inner; i++)                                                \
                py[i] = (INIT);                                                        \
            for (r = 0; r < reduce; r++, px += inner)                                  \
                for (i = 0; i < inner; i++)                                            \
                    STEP(py[i], px[i]);                                                \
        }                                                                              \
    })

SM2C_RT__REDUCE_EXTREMUM(max, SM2C_RT__MAX_STEP, -INFINITY)
SM2C_RT__REDUCE_EXTREMUM(min, SM2C_RT__MIN_STEP, INFINITY)
