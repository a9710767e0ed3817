/*
** update_slice.c: XlaDynamicUpdateSlice (keras.ops.slice_update).  y already
** holds the operand (the compiler copies it first); the update box is written
** at the run-time start indices, each clamped into [0, ydims[d] - udims[d]]
** as XLA defines, so the update always fits and the kernel never fails.
** Elements are copied by size, so one kernel serves every type.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define UPDATE_SLICE(ix, I)                                                              \
    SM2C_RT_DEFINE(update_slice_##ix, void sm2c_rt_update_slice_##ix(void *y, const void *update, const I *start, \
                                      int32_t rank, const int32_t *ydims,                \
                                      const int32_t *udims, int32_t elem_size)           \
    {                                                                                    \
        int64_t off = 0, rows = 1, pos[SM2C_RT_MAX_RANK], r;                             \
        int32_t d;                                                                       \
        size_t run;                                                                      \
                                                                                         \
        if (rank == 0) {                                                                 \
            memcpy(y, update, (size_t)elem_size);                                        \
            return;                                                                      \
        }                                                                                \
        for (d = 0; d < rank; d++) {                                                     \
            I hi = (I)(ydims[d] - udims[d]), s = start[d];                               \
            s = s < 0 ? 0 : s > hi ? hi : s;                                             \
            off = off * ydims[d] + (int64_t)s;                                           \
            pos[d] = 0;                                                                  \
            rows *= d < rank - 1 ? udims[d] : 1;                                         \
        }                                                                                \
        run = (size_t)udims[rank - 1] * (size_t)elem_size;                               \
        if (run == 0)                                                                    \
            return;                                                                      \
        for (r = 0; r < rows; r++) {                                                     \
            int64_t at = 0;                                                              \
            for (d = 0; d < rank; d++)                                                   \
                at = at * ydims[d] + pos[d];                                             \
            memcpy((unsigned char *)y + (size_t)(off + at) * (size_t)elem_size,          \
                   (const unsigned char *)update + (size_t)r * run, run);                \
            for (d = rank - 2; d >= 0; d--) {                                            \
                if (++pos[d] < udims[d])                                                 \
                    break;                                                               \
                pos[d] = 0;                                                              \
            }                                                                            \
        }                                                                                \
    })

UPDATE_SLICE(i32, int32_t)
UPDATE_SLICE(i64, int64_t)
