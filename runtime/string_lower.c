/*
** string_lower.c: StringLower with TensorFlow's default encoding "": the
** bytes 'A'-'Z' become 'a'-'z' and every other byte (UTF-8 sequences
** included) stays, so the length is kept.  Element i is written to slot i of
** `text` (slot bytes each); an element longer than slot is
** SM2C_RT_ERR_STRING, found before anything is written.
*/
#include <stdint.h>

#include "sm2c_rt.h"

int32_t sm2c_rt_string_lower(const sm2c_string *x, sm2c_string *y, uint8_t *text, int32_t n, int32_t slot)
{
    int32_t i;
    for (i = 0; i < n; i++)
        if (x[i].len < 0 || x[i].len > slot)
            return SM2C_RT_ERR_STRING;
    for (i = 0; i < n; i++) {
        uint8_t *out = text + (int64_t)i * slot;
        const uint8_t *in = x[i].data;
        int64_t k, len = x[i].len;
        for (k = 0; k < len; k++)
            out[k] = (uint8_t)(in[k] >= 'A' && in[k] <= 'Z' ? in[k] + ('a' - 'A') : in[k]);
        y[i].data = out;
        y[i].len = len;
    }
    return SM2C_RT_OK;
}
