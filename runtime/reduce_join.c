/*
** reduce_join.c: ReduceJoin of all n strings of x (the first *count when
** count is not NULL) into y[0], separated by sep's bytes, written to text
** (slot bytes); a result longer than slot is SM2C_RT_ERR_STRING, before
** anything is written.  No strings give the empty string.
*/
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"

int32_t sm2c_rt_reduce_join(const sm2c_string *x, int32_t n, const int64_t *count, const int32_t *sep,
                            int32_t sep_len, sm2c_string *y, uint8_t *text, int32_t slot)
{
    int64_t m = count ? *count : n, total = 0, i, w = 0;
    int32_t k;
    if (m < 0 || m > n)
        return SM2C_RT_ERR_INDEX;
    for (i = 0; i < m; i++) {
        if (x[i].len < 0 || x[i].len > slot)
            return SM2C_RT_ERR_STRING;
        total += x[i].len + (i ? sep_len : 0);
        if (total > slot)
            return SM2C_RT_ERR_STRING;
    }
    for (i = 0; i < m; i++) {
        for (k = 0; i && k < sep_len; k++)
            text[w++] = (uint8_t)sep[k];
        if (x[i].len)
            memcpy(text + w, x[i].data, (size_t)x[i].len);
        w += x[i].len;
    }
    y[0].data = text;
    y[0].len = w;
    return SM2C_RT_OK;
}
