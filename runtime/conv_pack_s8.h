/*
** conv_pack_s8.h: the int8 Conv2D filter layout that the compiler stores for
** sm2c_rt_conv2d_packed_s8 (ops_q8.c's packed_filter), and what every path
** reading it shares (private to the runtime; conv_packed_s8.c includes it).
** Everything is static inline.
**
** The reduction of filter row kh is k = kw * C + c (TensorFlow's order),
** L = KW * C values, padded to G = ceil(L / 4) groups of 4.  Output channels
** come in blocks of 16 (the last padded with zero filter values), and blocks
** in sets of up to 4 (64 channels; the last set holds what is left, n of
** them), so the filter is, set by set,
**
**     [KH][G][n blocks][16 channels][4 values of k]
**
** Each block's group is 64 bytes: one vpdpbusd operand (dword j = channel
** j's four values), four SDOT operands of 4 channels each, or, widened to
** int16, four vpmaddwd operands; a set's groups are n * 64 bytes apart, and
** the 64-channel VNNI kernel reads each group of its set as 256 bytes in a
** row, as it read four filter rows of TensorFlow's layout.  Groups are per
** filter row, not over the whole window, so a row of taps that is one run in
** the input (or gathered into one) is one run of groups, and with C a
** multiple of 4 each tap starts a group.  The padding costs at most 3 values
** per row (C = 3, 3x3: 36 for 27) and 15 channels.
**
** The compiler folds (in_zp + 128) * (filter column sum) out of the bias, so
** every path sums w * (x' + 128) over every tap, x' the input inside and
** in_zp in the padding (a tap there adds w * (in_zp + 128), which the folded
** bias takes back: the same integers as TFLite's w * (x - in_zp) over the
** taps inside).  VNNI's unsigned bytes are x' + 128 as they are.
*/
#ifndef SM2C_RT_CONV_PACK_S8_H
#define SM2C_RT_CONV_PACK_S8_H

#include <stddef.h>
#include <stdint.h>

#include "conv_block_s8.h" /* c8_geom, c8_word */
#include "sm2c_rt.h"       /* SM2C_RT_WIN_* */
#include "win_inside.h"

/* Groups of 4 reduction values in a filter row. */
static inline int32_t c8p_groups(const c8_geom *g)
{
    return (g->KW * g->C + 3) / 4;
}

/* The blocks of 16 channels in the set of block b (4 but in the last set). */
static inline int32_t c8p_set_blocks(const c8_geom *g, int32_t b)
{
    const int32_t left = (g->OC - 64 * (b / 4) + 15) / 16;
    return left < 4 ? left : 4;
}

/* Block b's first group (output channels 16b ..); its groups are
** *step = 64 * (blocks in its set) bytes apart. */
static inline const int8_t *c8p_block(const c8_geom *g, int32_t b, ptrdiff_t *step)
{
    *step = (ptrdiff_t)64 * c8p_set_blocks(g, b);
    return g->w + (ptrdiff_t)(b / 4) * g->KH * c8p_groups(g) * 256 + (ptrdiff_t)(b % 4) * 64;
}

/* The taps of input row ih from column iw as one run of KW * C values in
** the input, or NULL when they are not one (padding, dilation). */
static inline const int8_t *c8p_row(const c8_geom *g, int64_t ih, int64_t iw)
{
    if (g->DW == 1 && (uint64_t)ih < (uint64_t)g->H && iw >= 0 && iw + g->KW <= g->W)
        return g->x + ((ptrdiff_t)ih * g->W + (ptrdiff_t)iw) * g->C;
    return NULL;
}

/* Whether every window of the layer (window parameters p) lies inside the
** input, each of its rows one run of whole groups: DW 1 and KW * C a multiple
** of 4 besides.  The kernels then set each pixel's pointer once. */
static inline int c8p_inside(const int32_t *p)
{
    return sm2c_rt__win_inside(p) && p[SM2C_RT_WIN_DW] == 1 && !((p[SM2C_RT_WIN_KW] * p[SM2C_RT_WIN_C]) & 3);
}

/* Row values k .. k + 3 of the pixel whose row kh starts at (ih, iw), as a
** little-endian word of x' bytes (in_zp in the padding, 0 past the row):
** from run when there is one, else tap by tap. */
static inline uint32_t c8p_word(const c8_geom *g, const int8_t *run, int64_t ih, int64_t iw, int32_t k)
{
    const int32_t L = g->KW * g->C, n = L - k < 4 ? L - k : 4;
    int32_t kw = k / g->C, c = k % g->C;
    uint32_t v = 0;
    if (run)
        return c8_word(run + k, n);
    for (int32_t i = 0; i < n; i++) {
        const int64_t col = iw + (int64_t)kw * g->DW;
        const int8_t b = (uint64_t)ih < (uint64_t)g->H && (uint64_t)col < (uint64_t)g->W
                             ? g->x[((ptrdiff_t)ih * g->W + (ptrdiff_t)col) * g->C + c]
                             : (int8_t)g->in_zp;
        v |= (uint32_t)(uint8_t)b << (8 * i);
        if (++c == g->C)
            c = 0, kw++;
    }
    return v;
}

/* Each of the 16 channels' filter sums over block b: what SDOT, which
** multiplies x' itself, adds back times 128. */
static inline void c8p_colsums(const c8_geom *g, int32_t b, int32_t *s)
{
    const int32_t groups = g->KH * c8p_groups(g);
    ptrdiff_t step;
    const int8_t *blk = c8p_block(g, b, &step);
    for (int32_t j = 0; j < 16; j++)
        s[j] = 0;
    for (int32_t t = 0; t < groups; t++, blk += step)
        for (int32_t j = 0; j < 16; j++)
            s[j] += blk[4 * j] + blk[4 * j + 1] + blk[4 * j + 2] + blk[4 * j + 3];
}

#endif
