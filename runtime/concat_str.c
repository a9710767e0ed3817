/*
** concat_str.c: Add of string tensors, TensorFlow's concatenation a + b,
** broadcasting as SM2C_RT_BINARY (binary_impl.h's walk).  Output element i
** is written to slot i of `text` (slot bytes each); an input or a result
** longer than slot is SM2C_RT_ERR_STRING, found before anything is written
** (y may be a's or b's buffer: each element is read before it is written).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "binary_impl.h"

/* Over y's elements with their operands: `write` 0 checks the lengths, 1 writes. */
static int32_t concat_walk(const sm2c_string *a, const sm2c_string *b, sm2c_string *y, uint8_t *text,
                           int32_t slot, int32_t rank, const int32_t *dims, const int32_t *sa,
                           const int32_t *sb, int write)
{
    sm2c_rt__walk w;
    if (!sm2c_rt__binary_walk(&w, rank, dims, sa, sb))
        return SM2C_RT_OK;
    do {
        ptrdiff_t k;
        for (k = 0; k < w.n; k++) {
            sm2c_string x = a[w.off[0] + k * w.inner[0]], z = b[w.off[1] + k * w.inner[1]];
            ptrdiff_t i = w.off[2] + k;
            uint8_t *out = text + (ptrdiff_t)slot * i;
            if (!write) {
                if (x.len < 0 || z.len < 0 || x.len > slot || z.len > slot - x.len)
                    return SM2C_RT_ERR_STRING;
                continue;
            }
            if (x.len)
                memmove(out, x.data, (size_t)x.len);
            if (z.len)
                memmove(out + x.len, z.data, (size_t)z.len);
            y[i].data = out;
            y[i].len = x.len + z.len;
        }
    } while (sm2c_rt__walk_next(&w));
    return SM2C_RT_OK;
}

int32_t sm2c_rt_concat_str(const sm2c_string *a, const sm2c_string *b, sm2c_string *y, int32_t rank,
                           const int32_t *dims, const int32_t *sa, const int32_t *sb, uint8_t *text, int32_t slot)
{
    int32_t st = concat_walk(a, b, y, text, slot, rank, dims, sa, sb, 0);
    return st != SM2C_RT_OK ? st : concat_walk(a, b, y, text, slot, rank, dims, sa, sb, 1);
}
