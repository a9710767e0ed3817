/*
** string_split.c: StringSplitV2 and StringSplit of n strings into a sparse
** result whose size depends on the data (compiler/ops/ops_text.c): token j
** of string i is values[k] (pointing into the string's bytes) with
** indices[k] = (i, j); *count is the number of tokens, shape = (n, the most
** tokens a string has).  Rows k in [*count, bound) are zero.  Modes, as
** TensorFlow's kernels split:
**   0  StringSplitV2, sep "": runs of ASCII whitespace (" \t\n\v\f\r")
**      separate tokens, none empty;
**   1  StringSplitV2, sep of sep_len bytes: each occurrence separates, empty
**      tokens kept ("" is one empty token);
**   2  StringSplit, delimiter bytes: any of them separates, empty tokens
**      skipped (skip_empty);
**   3  the same keeping empty tokens ("" has none);
**   4  StringSplit, delimiter "": each byte is a token.
** A string longer than in_max is SM2C_RT_ERR_STRING, before anything is
** written; the compiler sizes bound for n strings of in_max bytes.
*/
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"

typedef struct split_out {
    int64_t *indices;
    sm2c_string *values;
    int64_t k, bound, row, col, most;
} split_out;

static int emit(split_out *o, const uint8_t *p, int64_t len)
{
    if (o->k >= o->bound)
        return 0;
    o->indices[2 * o->k] = o->row;
    o->indices[2 * o->k + 1] = o->col++;
    o->values[o->k].data = p;
    o->values[o->k].len = len;
    o->k++;
    if (o->col > o->most)
        o->most = o->col;
    return 1;
}

static int is_space(uint8_t b)
{
    return b == ' ' || b == '\t' || b == '\n' || b == '\v' || b == '\f' || b == '\r';
}

static int in_delims(const int32_t *sep, int32_t sep_len, uint8_t b)
{
    for (int32_t d = 0; d < sep_len; d++)
        if ((uint8_t)sep[d] == b)
            return 1;
    return 0;
}

static int at_sep(const uint8_t *p, int64_t left, const int32_t *sep, int32_t sep_len)
{
    if (left < sep_len)
        return 0;
    for (int32_t d = 0; d < sep_len; d++)
        if (p[d] != (uint8_t)sep[d])
            return 0;
    return 1;
}

static int split_one(split_out *o, const uint8_t *p, int64_t len, const int32_t *sep, int32_t sep_len, int32_t mode)
{
    int64_t i = 0, start = 0;
    if (mode == 0) {
        while (i < len) {
            while (i < len && is_space(p[i]))
                i++;
            if (i == len)
                break;
            start = i;
            while (i < len && !is_space(p[i]))
                i++;
            if (!emit(o, p + start, i - start))
                return 0;
        }
        return 1;
    }
    if (mode == 4 || (mode == 3 && len == 0)) {
        for (; i < len; i++)
            if (!emit(o, p + i, 1))
                return 0;
        return 1;
    }
    while (i < len) {
        int hit = mode == 1 ? at_sep(p + i, len - i, sep, sep_len) : in_delims(sep, sep_len, p[i]);
        if (!hit) {
            i++;
            continue;
        }
        if ((mode != 2 || i > start) && !emit(o, p + start, i - start))
            return 0;
        i += mode == 1 ? sep_len : 1;
        start = i;
    }
    if (mode == 2 && start == len)
        return 1;
    return emit(o, p + start, len - start);
}

int32_t sm2c_rt_string_split(const sm2c_string *x, int32_t n, int32_t in_max, const int32_t *sep, int32_t sep_len,
                             int32_t mode, int32_t bound, int64_t *indices, sm2c_string *values, int64_t *count,
                             int64_t *shape)
{
    split_out o = { indices, values, 0, bound, 0, 0, 0 };
    int32_t i;
    for (i = 0; i < n; i++)
        if (x[i].len < 0 || x[i].len > in_max)
            return SM2C_RT_ERR_STRING;
    for (i = 0; i < n; i++) {
        o.row = i;
        o.col = 0;
        if (!split_one(&o, x[i].data, x[i].len, sep, sep_len, mode))
            return SM2C_RT_ERR_STRING;
    }
    *count = o.k;
    shape[0] = n;
    shape[1] = o.most;
    if (bound > o.k) {
        memset(indices + 2 * o.k, 0, (size_t)(bound - o.k) * 2 * sizeof *indices);
        memset(values + o.k, 0, (size_t)(bound - o.k) * sizeof *values);
    }
    return SM2C_RT_OK;
}
