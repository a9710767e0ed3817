/*
** pool_s8.c: int8 MaxPool and AvgPool, NHWC, window parameters p[] as for
** pool_f32.c.  Input and output share scale and zero point (the compiler
** gives the output the input's), as TFLite requires, so both work on the raw
** int8 values, as its reference kernels do: the max of the valid cells; the
** sum of the valid cells divided by their number, rounded half away from zero.
**
** Per output pixel the window's valid cells are walked once for a block of
** channels, each cell adding (or taking the max of) a contiguous run of
** channels, which compilers vectorise (cloned per ISA, simd_f32.h).  The
** rounded quotient is taken in double: for integers |n| < 2^53 and d >= 1
** the correctly rounded n / d truncates to the integer quotient (a quotient
** that is not an integer lies at least 1/d from one, more than the rounding
** error), so it is C's n / d, and it vectorises where integer division does
** not.  A scalar FPU (SM2C_RT_SCALAR_CORE: a Cortex-M has no double unit,
** and its double division is a library call) divides the integers.  With
** the Arm DSP extension (dsp_s8.h) MaxPool takes four channels a word:
** SSUB8 sets each byte's GE flag where the cell's value is at least the
** max so far, and SEL takes those bytes.  Every path gives the same bits.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dsp_s8.h"
#include "rt_select.h"
#include "rt_target.h"
#include "simd_f32.h" /* SM2C_RT_CLONES, SM2C_RT_VECTORISE */
#include "sm2c_rt.h"

/* Channels pooled together: int32 sums in a 512-byte array, 256 bytes on
** a scalar core, whose loops do not vectorise and whose stack is small. */
enum { PS8_CB = SM2C_RT_SCALAR_CORE ? 64 : 128 };

/* Whether input cell (ih, iw) exists; its offset in *at. */
static inline int sm2c_rt__pool_cell(const int32_t *p, int32_t n, int32_t oh, int32_t ow, int32_t kh,
                                     int32_t kw, ptrdiff_t *at)
{
    const int32_t ih = oh * p[SM2C_RT_WIN_SH] + kh * p[SM2C_RT_WIN_DH] - p[SM2C_RT_WIN_PT];
    const int32_t iw = ow * p[SM2C_RT_WIN_SW] + kw * p[SM2C_RT_WIN_DW] - p[SM2C_RT_WIN_PL];
    if ((uint32_t)ih >= (uint32_t)p[SM2C_RT_WIN_H] || (uint32_t)iw >= (uint32_t)p[SM2C_RT_WIN_W])
        return 0;
    *at = (((ptrdiff_t)n * p[SM2C_RT_WIN_H] + ih) * p[SM2C_RT_WIN_W] + iw) * p[SM2C_RT_WIN_C];
    return 1;
}

/* Channels c0 .. c0 + cb - 1 of one output pixel: max (avg 0) or the rounded
** mean (avg 1).  restrict: the int8 input may alias anything as far as C
** knows, and the compiler must not fear it is the sums. */
static SM2C_RT_ALWAYS_INLINE void pool_s8_block(const int8_t *restrict x, int8_t *restrict yp,
                                                const int32_t *p, int32_t n, int32_t oh, int32_t ow,
                                                int32_t c0, int32_t cb, int avg)
{
    int32_t acc[PS8_CB], count = 0;
    const int32_t init = avg ? 0 : -128;
    for (int32_t c = 0; c < cb; c++)
        acc[c] = init;
    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++)
        for (int32_t kw = 0; kw < p[SM2C_RT_WIN_KW]; kw++) {
            ptrdiff_t at;
            if (!sm2c_rt__pool_cell(p, n, oh, ow, kh, kw, &at))
                continue;
            const int8_t *restrict xc = x + at + c0;
            count++;
            if (avg)
                for (int32_t c = 0; c < cb; c++)
                    acc[c] += xc[c];
            else
                for (int32_t c = 0; c < cb; c++)
                    acc[c] = xc[c] > acc[c] ? xc[c] : acc[c];
        }
    if (!avg || count == 0) {
        for (int32_t c = 0; c < cb; c++)
            yp[c] = (int8_t)acc[c];
        return;
    }
    const int32_t half = count / 2;
#if SM2C_RT_SCALAR_CORE
    for (int32_t c = 0; c < cb; c++)
        yp[c] = (int8_t)((acc[c] > 0 ? acc[c] + half : acc[c] - half) / count);
#else
    const double d = (double)count;
    for (int32_t c = 0; c < cb; c++) {
        const int32_t num = acc[c] > 0 ? acc[c] + half : acc[c] - half;
        yp[c] = (int8_t)(int32_t)((double)num / d);
    }
#endif
}

static SM2C_RT_ALWAYS_INLINE void pool_s8_body(const int8_t *x, int8_t *y, const int32_t *p, int avg)
{
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], C = p[SM2C_RT_WIN_C];
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < OH; oh++)
            for (int32_t ow = 0; ow < OW; ow++) {
                int8_t *yp = y + (((ptrdiff_t)n * OH + oh) * OW + ow) * C;
                for (int32_t c0 = 0; c0 < C; c0 += PS8_CB) {
                    const int32_t cb = C - c0 < PS8_CB ? C - c0 : PS8_CB;
                    pool_s8_block(x, yp + c0, p, n, oh, ow, c0, cb, avg);
                }
            }
}

/* One body per kernel, so each clone's loops have no branch on the kind. */
#if SM2C_RT_WANT(max_pool_s8)
static SM2C_RT_ALWAYS_INLINE void max_pool_s8_body(const int8_t *x, int8_t *y, const int32_t *p)
{
    pool_s8_body(x, y, p, 0);
}

SM2C_RT_CLONES(max_pool_s8, (const int8_t *x, int8_t *y, const int32_t *p), (x, y, p))

#if SM2C_RT_DSP_S8
/* The bytewise max of two words of four int8. */
static inline uint32_t ps8_max4(uint32_t a, uint32_t b)
{
    uint32_t r, t;
    __asm__("ssub8 %1, %2, %3\n\tsel %0, %2, %3" : "=r"(r), "=&r"(t) : "r"(a), "r"(b) : "cc");
    return r;
}

/* max_pool_s8_body with four channels a word: the maxima of a block's whole
** words in m, the channels past them one by one. */
static void max_pool_s8_dsp(const int8_t *x, int8_t *y, const int32_t *p)
{
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], C = p[SM2C_RT_WIN_C];
    uint32_t m[PS8_CB / 4];
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < OH; oh++)
            for (int32_t ow = 0; ow < OW; ow++) {
                int8_t *yp = y + (((ptrdiff_t)n * OH + oh) * OW + ow) * C;
                for (int32_t c0 = 0; c0 < C; c0 += PS8_CB) {
                    const int32_t cb = C - c0 < PS8_CB ? C - c0 : PS8_CB, nw = cb / 4;
                    for (int32_t i = 0; i < nw; i++)
                        m[i] = 0x80808080u; /* -128 in every byte */
                    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++)
                        for (int32_t kw = 0; kw < p[SM2C_RT_WIN_KW]; kw++) {
                            ptrdiff_t at;
                            if (!sm2c_rt__pool_cell(p, n, oh, ow, kh, kw, &at))
                                continue;
                            for (int32_t i = 0; i < nw; i++)
                                m[i] = ps8_max4(dsp8_load(x + at + c0 + 4 * i), m[i]);
                        }
                    memcpy(yp + c0, m, (size_t)nw * 4);
                    for (int32_t c = c0 + 4 * nw; c < c0 + cb; c++) {
                        int32_t mx = -128;
                        for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++)
                            for (int32_t kw = 0; kw < p[SM2C_RT_WIN_KW]; kw++) {
                                ptrdiff_t at;
                                if (sm2c_rt__pool_cell(p, n, oh, ow, kh, kw, &at))
                                    mx = x[at + c] > mx ? x[at + c] : mx;
                            }
                        yp[c] = (int8_t)mx;
                    }
                }
            }
}

/* Cells a window may have for max_pool_s8_inside: their offsets on the stack. */
enum { PS8_CELLS = 16 };

/* Whether every window of p lies inside the input with at most PS8_CELLS
** cells (no padding: TensorFlow's VALID pooling). */
static int max_pool_s8_fits_inside(const int32_t *p)
{
    const int32_t last_h = (p[SM2C_RT_WIN_OH] - 1) * p[SM2C_RT_WIN_SH] + (p[SM2C_RT_WIN_KH] - 1) * p[SM2C_RT_WIN_DH];
    const int32_t last_w = (p[SM2C_RT_WIN_OW] - 1) * p[SM2C_RT_WIN_SW] + (p[SM2C_RT_WIN_KW] - 1) * p[SM2C_RT_WIN_DW];
    return p[SM2C_RT_WIN_PT] == 0 && p[SM2C_RT_WIN_PL] == 0 && last_h < p[SM2C_RT_WIN_H] &&
           last_w < p[SM2C_RT_WIN_W] && p[SM2C_RT_WIN_KH] * p[SM2C_RT_WIN_KW] <= PS8_CELLS;
}

/* max_pool_s8_dsp when every window lies inside (max_pool_s8_fits_inside):
** the cells' offsets found once, and each word of four channels kept in a
** register over its window, without a cell's tests or the maxima's array. */
static void max_pool_s8_inside(const int8_t *x, int8_t *y, const int32_t *p)
{
    const int32_t OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW], C = p[SM2C_RT_WIN_C], nw = C / 4;
    const ptrdiff_t row = (ptrdiff_t)p[SM2C_RT_WIN_W] * C;
    ptrdiff_t off[PS8_CELLS];
    int32_t cells = 0;
    for (int32_t kh = 0; kh < p[SM2C_RT_WIN_KH]; kh++)
        for (int32_t kw = 0; kw < p[SM2C_RT_WIN_KW]; kw++)
            off[cells++] = kh * p[SM2C_RT_WIN_DH] * row + (ptrdiff_t)kw * p[SM2C_RT_WIN_DW] * C;
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++)
        for (int32_t oh = 0; oh < OH; oh++)
            for (int32_t ow = 0; ow < OW; ow++) {
                const int8_t *b = x + ((ptrdiff_t)n * p[SM2C_RT_WIN_H] + (ptrdiff_t)oh * p[SM2C_RT_WIN_SH]) * row +
                                  (ptrdiff_t)ow * p[SM2C_RT_WIN_SW] * C;
                int8_t *yp = y + (((ptrdiff_t)n * OH + oh) * OW + ow) * C;
                for (int32_t i = 0; i < nw; i++, b += 4, yp += 4) {
                    uint32_t m = 0x80808080u; /* -128 in every byte */
                    for (int32_t j = 0; j < cells; j++)
                        m = ps8_max4(dsp8_load(b + off[j]), m);
                    memcpy(yp, &m, sizeof m);
                }
                for (int32_t c = 4 * nw; c < C; c++, b++, yp++) {
                    int32_t mx = -128;
                    for (int32_t j = 0; j < cells; j++)
                        mx = b[off[j]] > mx ? b[off[j]] : mx;
                    *yp = (int8_t)mx;
                }
            }
}
#endif

SM2C_RT_VECTORISE void sm2c_rt_max_pool_s8(const int8_t *x, int8_t *y, const int32_t *p)
{
#if SM2C_RT_DSP_S8
    if (max_pool_s8_fits_inside(p))
        max_pool_s8_inside(x, y, p);
    else
        max_pool_s8_dsp(x, y, p);
#else
    SM2C_RT_PICK(max_pool_s8, (x, y, p))
    max_pool_s8_body(x, y, p);
#endif
}
#endif

#if SM2C_RT_WANT(avg_pool_s8)
static SM2C_RT_ALWAYS_INLINE void avg_pool_s8_body(const int8_t *x, int8_t *y, const int32_t *p)
{
    pool_s8_body(x, y, p, 1);
}

SM2C_RT_CLONES(avg_pool_s8, (const int8_t *x, int8_t *y, const int32_t *p), (x, y, p))

SM2C_RT_VECTORISE void sm2c_rt_avg_pool_s8(const int8_t *x, int8_t *y, const int32_t *p)
{
    SM2C_RT_PICK(avg_pool_s8, (x, y, p))
    avg_pool_s8_body(x, y, p);
}
#endif
