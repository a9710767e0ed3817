/*
** win_inside.h: whether a windowed int8 layer reads no padding (private to
** the runtime).  The compiler's padded copy of the input (compiler/ops/
** conv_pad.c) makes every window lie inside, and the packed Conv2D
** (conv_pack_s8.h) and the depthwise kernels (dw_block_s8.h) then take paths
** that check no tap.
*/
#ifndef SM2C_RT_WIN_INSIDE_H
#define SM2C_RT_WIN_INSIDE_H

#include <stdint.h>

#include "sm2c_rt.h"

/* Every window of the layer with window parameters p (sm2c_rt.h) lies
** inside the input: no padding before, and the last row and column of taps
** within H and W. */
static inline int sm2c_rt__win_inside(const int32_t *p)
{
    const int64_t last_h = (int64_t)(p[SM2C_RT_WIN_OH] - 1) * p[SM2C_RT_WIN_SH] +
                           (int64_t)(p[SM2C_RT_WIN_KH] - 1) * p[SM2C_RT_WIN_DH];
    const int64_t last_w = (int64_t)(p[SM2C_RT_WIN_OW] - 1) * p[SM2C_RT_WIN_SW] +
                           (int64_t)(p[SM2C_RT_WIN_KW] - 1) * p[SM2C_RT_WIN_DW];
    return p[SM2C_RT_WIN_PT] == 0 && p[SM2C_RT_WIN_PL] == 0 && last_h < p[SM2C_RT_WIN_H] &&
           last_w < p[SM2C_RT_WIN_W];
}

#endif
