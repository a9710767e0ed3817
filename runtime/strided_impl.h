/*
** strided_impl.h: private to the runtime.  A walk over a rank-D box for up
** to three operands (data movement and broadcasting binary ops), driven by an
** index counter, no recursion.
**
** sm2c_rt__walk_init drops size-1 dimensions and merges neighbours that are
** contiguous for every operand, so a transpose of a [1, N] view or an
** elementwise op on same-shaped tensors becomes one inner run.  What is left is
** `nout` outer dimensions walked by the counter and one inner run of `n`
** elements with per-operand strides `inner[]`; `off[]` is where the current
** run starts, in elements.
*/
#ifndef SM2C_RT_STRIDED_IMPL_H
#define SM2C_RT_STRIDED_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"

#define SM2C_RT__WALK_OPS 3

typedef struct sm2c_rt__walk {
    int32_t nout;                                          /* outer dimensions */
    int32_t n;                                             /* inner run length */
    ptrdiff_t inner[SM2C_RT__WALK_OPS];                    /* inner strides */
    ptrdiff_t off[SM2C_RT__WALK_OPS];                      /* start of this run */
    int32_t dim[SM2C_RT_MAX_RANK];
    ptrdiff_t stride[SM2C_RT__WALK_OPS][SM2C_RT_MAX_RANK];
    int32_t idx[SM2C_RT_MAX_RANK];
} sm2c_rt__walk;

/* Sets up the walk; returns 0 when there is nothing to do (an empty box, or a
** rank outside [0, SM2C_RT_MAX_RANK], which the compiler never emits). */
static inline int sm2c_rt__walk_init(sm2c_rt__walk *w, int32_t rank, const int32_t *dims,
                                     const int32_t *const s[SM2C_RT__WALK_OPS],
                                     const ptrdiff_t off[SM2C_RT__WALK_OPS])
{
    int32_t k, j, m = 0;

    if (rank < 0 || rank > SM2C_RT_MAX_RANK)
        return 0;
    for (k = 0; k < rank; k++)
        if (dims[k] <= 0)
            return 0;
    for (k = 0; k < rank; k++) {
        int merge = m > 0;
        if (dims[k] == 1)
            continue;
        for (j = 0; j < SM2C_RT__WALK_OPS && merge; j++)
            merge = (int64_t)w->stride[j][m - 1] == (int64_t)s[j][k] * dims[k];
        if (merge) {
            w->dim[m - 1] *= dims[k];
            for (j = 0; j < SM2C_RT__WALK_OPS; j++)
                w->stride[j][m - 1] = s[j][k];
            continue;
        }
        w->dim[m] = dims[k];
        for (j = 0; j < SM2C_RT__WALK_OPS; j++)
            w->stride[j][m] = s[j][k];
        m++;
    }
    for (j = 0; j < SM2C_RT__WALK_OPS; j++)
        w->off[j] = off[j];
    if (m == 0) {
        w->nout = 0;
        w->n = 1;
        for (j = 0; j < SM2C_RT__WALK_OPS; j++)
            w->inner[j] = 0;
        return 1;
    }
    w->nout = m - 1;
    w->n = w->dim[m - 1];
    for (j = 0; j < SM2C_RT__WALK_OPS; j++)
        w->inner[j] = w->stride[j][m - 1];
    for (k = 0; k < w->nout; k++)
        w->idx[k] = 0;
    return 1;
}

/* Moves to the next inner run; returns 0 after the last one. */
static inline int sm2c_rt__walk_next(sm2c_rt__walk *w)
{
    int32_t k = w->nout, j;

    while (k-- > 0) {
        if (++w->idx[k] < w->dim[k]) {
            for (j = 0; j < SM2C_RT__WALK_OPS; j++)
                w->off[j] += w->stride[j][k];
            return 1;
        }
        w->idx[k] = 0;
        for (j = 0; j < SM2C_RT__WALK_OPS; j++)
            w->off[j] -= w->stride[j][k] * (ptrdiff_t)(w->dim[k] - 1);
    }
    return 0;
}

#endif
