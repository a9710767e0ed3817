/*
** movement.c: the one data-movement kernel and its two trivial companions.
**
** sm2c_rt_copy_strided walks the box with strided_impl.h: after size-1 dims
** are dropped and contiguous neighbours merged, each inner run is either a
** memcpy (unit stride on both sides), a broadcast of one element (x stride 0)
** or an element-by-element copy.  Elements move by memcpy of a constant size
** so that no pointer is ever cast to a wider type (reliability.md rule 2).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "strided_impl.h"
#include "rt_select.h"

/* One inner run of n elements of `es` bytes; es is a constant in each caller
** so the memcpy becomes a single move. */
#define SM2C_RT__RUN(es)                                                       \
    do {                                                                       \
        if (xs == 0) {                                                         \
            for (k = 0; k < n; k++)                                            \
                memcpy(py + k * ys * (es), px, (size_t)(es));                  \
        } else {                                                               \
            for (k = 0; k < n; k++)                                            \
                memcpy(py + k * ys * (es), px + k * xs * (es), (size_t)(es)); \
        }                                                                      \
    } while (0)

#if SM2C_RT_WANT(copy_strided)
void sm2c_rt_copy_strided(const void *x, int32_t x_off, const int32_t *x_strides,
                          void *y, int32_t y_off, const int32_t *y_strides,
                          int32_t rank, const int32_t *dims, int32_t elem_size)
{
    static const int32_t zeros[SM2C_RT_MAX_RANK];
    const int32_t *s[SM2C_RT__WALK_OPS];
    ptrdiff_t off[SM2C_RT__WALK_OPS];
    sm2c_rt__walk w;
    const ptrdiff_t es = elem_size;

    if (elem_size <= 0)
        return;
    s[0] = x_strides;
    s[1] = y_strides;
    s[2] = zeros;
    off[0] = x_off;
    off[1] = y_off;
    off[2] = 0;
    if (!sm2c_rt__walk_init(&w, rank, dims, s, off))
        return;
    do {
        const unsigned char *px = (const unsigned char *)x + w.off[0] * es;
        unsigned char *py = (unsigned char *)y + w.off[1] * es;
        const ptrdiff_t xs = w.inner[0], ys = w.inner[1];
        const ptrdiff_t n = w.n;
        ptrdiff_t k;

        if (xs == 1 && ys == 1) {
            memcpy(py, px, (size_t)(n * es));
            continue;
        }
        switch (elem_size) {
        case 1: SM2C_RT__RUN(1); break;
        case 2: SM2C_RT__RUN(2); break;
        case 4: SM2C_RT__RUN(4); break;
        case 8: SM2C_RT__RUN(8); break;
        case 16: SM2C_RT__RUN(16); break;
        default: SM2C_RT__RUN(es); break;
        }
    } while (sm2c_rt__walk_next(&w));
}
#endif

#if SM2C_RT_WANT(fill)
void sm2c_rt_fill(void *y, const void *value, int32_t elem_size, int32_t n)
{
    unsigned char *p = (unsigned char *)y;
    size_t total, done;

    if (n <= 0 || elem_size <= 0)
        return;
    if (elem_size == 1) {
        memset(p, *(const unsigned char *)value, (size_t)n);
        return;
    }
    /* Write one element, then double the filled prefix; the source and the
    ** destination of every memcpy are disjoint. */
    total = (size_t)n * (size_t)elem_size;
    memcpy(p, value, (size_t)elem_size);
    done = (size_t)elem_size;
    while (done < total) {
        size_t chunk = done < total - done ? done : total - done;
        memcpy(p + done, p, chunk);
        done += chunk;
    }
}
#endif

#if SM2C_RT_WANT(copy)
void sm2c_rt_copy(void *y, const void *x, int32_t n_bytes)
{
    if (n_bytes <= 0 || x == y)
        return;
    memcpy(y, x, (size_t)n_bytes);
}
#endif
