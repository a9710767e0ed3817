/*
** regex_replace.c: StaticRegexReplace of a pattern the compiler turned into a
** byte set (compiler/ops/regex_byteset.h): a match is one byte of the set
** or, with plus, the longest run of them, the leftmost first (RE2's
** GlobalReplace, or Replace of the first match when global is 0), each
** replaced by the rewrite's bytes.  set: 8 words of 32 bits, bit b % 32 of
** word b / 32 for byte b.  Element i is written to slot i of `text`
** (in_max * max(1, rewrite_len) bytes: a match is at least one byte); an
** element longer than in_max is SM2C_RT_ERR_STRING, before anything is written.
*/
#include <stdint.h>

#include "sm2c_rt.h"

static int in_set(const int32_t *set, uint8_t b)
{
    return (int)(((uint32_t)set[b >> 5] >> (b & 31)) & 1u);
}

static int64_t replace_one(const uint8_t *in, int64_t len, uint8_t *out, const int32_t *set, int32_t plus,
                           int32_t global, const int32_t *rewrite, int32_t rewrite_len)
{
    int64_t k = 0, w = 0;
    int done = 0;
    while (k < len) {
        if (done || !in_set(set, in[k])) {
            out[w++] = in[k++];
            continue;
        }
        k++;
        while (plus && k < len && in_set(set, in[k]))
            k++;
        for (int32_t r = 0; r < rewrite_len; r++)
            out[w++] = (uint8_t)rewrite[r];
        done = !global;
    }
    return w;
}

int32_t sm2c_rt_regex_replace(const sm2c_string *x, sm2c_string *y, uint8_t *text, int32_t n, int32_t in_max,
                              const int32_t *set, int32_t plus, int32_t global, const int32_t *rewrite,
                              int32_t rewrite_len)
{
    int64_t slot = (int64_t)in_max * (rewrite_len > 1 ? rewrite_len : 1);
    int32_t i;
    for (i = 0; i < n; i++)
        if (x[i].len < 0 || x[i].len > in_max)
            return SM2C_RT_ERR_STRING;
    for (i = 0; i < n; i++) {
        uint8_t *out = text + i * slot;
        y[i].len = replace_one(x[i].data, x[i].len, out, set, plus, global, rewrite, rewrite_len);
        y[i].data = out;
    }
    return SM2C_RT_OK;
}
