/*
** string_lower_utf8.c: StringLower with encoding "utf-8", as TensorFlow's
** kernel (ICU's UnicodeString::toLower of the whole string, root locale):
**   - the string ends at its first NUL byte (TensorFlow passes c_str());
**   - invalid UTF-8 becomes U+FFFD, one per maximal subpart (a lead byte and
**     the continuation bytes that may follow it, or one byte that starts
**     nothing), as ICU's converter replaces it;
**   - each code point lowers by the tables the compiler passes (measured from
**     TensorFlow: compiler/ops/unicode_lower.c): `map` runs (first, last,
**     delta, stride), and U+0130 to U+0069 U+0307;
**   - U+03A3 lowers to U+03C2 (final sigma) when the last code point before it
**     that is not case-ignorable is cased and the first after it that is not
**     case-ignorable is not cased (or there is none), else to U+03C3
**     (`cased`, `ignorable`: sorted ranges first, last).
** Element i is written to slot i of `text` (3 * in_max bytes each: a byte
** may become U+FFFD's three); an element longer than in_max bytes is
** SM2C_RT_ERR_STRING, found before anything is written.
*/
#include <stdint.h>

#include "sm2c_rt.h"

#define SIGMA 0x3A3

/* The code point at p[0..n), n >= 1, and the bytes it takes in *used. */
static int32_t decode(const uint8_t *p, int64_t n, int64_t *used)
{
    int32_t c = p[0], v, need, lo = 0x80, hi = 0xBF, k;
    *used = 1;
    if (c < 0x80)
        return c;
    if (c >= 0xC2 && c <= 0xDF)
        need = 1, v = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        need = 2, v = c & 0x0F, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        need = 3, v = c & 0x07, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0xFFFD;
    for (k = 1; k <= need; k++) {
        if (k >= n || p[k] < lo || p[k] > hi) {
            *used = k;
            return 0xFFFD;
        }
        v = v << 6 | (p[k] & 0x3F);
        lo = 0x80, hi = 0xBF;
    }
    *used = need + 1;
    return v;
}

static int32_t encode(int32_t c, uint8_t *out)
{
    if (c < 0x80) {
        out[0] = (uint8_t)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (uint8_t)(0xC0 | c >> 6), out[1] = (uint8_t)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (uint8_t)(0xE0 | c >> 12), out[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
        out[2] = (uint8_t)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | c >> 18), out[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
    out[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F)), out[3] = (uint8_t)(0x80 | (c & 0x3F));
    return 4;
}

/* The last of the n rows (width ints each, sorted by their first) whose
** first is <= c, or -1. */
static int32_t row_at(int32_t c, const int32_t *rows, int32_t n, int32_t width)
{
    int32_t lo = 0, hi = n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (rows[mid * width] <= c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

static int in_ranges(int32_t c, const int32_t *r, int32_t len)
{
    int32_t k = row_at(c, r, len / 2, 2);
    return k >= 0 && c <= r[2 * k + 1];
}

static int32_t lower_of(int32_t c, const int32_t *map, int32_t len)
{
    int32_t k = row_at(c, map, len / 4, 4);
    const int32_t *m = map + 4 * (k < 0 ? 0 : k);
    return k >= 0 && c <= m[1] && (c - m[0]) % m[3] == 0 ? c + m[2] : c;
}

/* Whether the first code point of p[0..n) that is not case-ignorable is cased. */
static int cased_follows(const uint8_t *p, int64_t n, const int32_t *cased, int32_t cased_len,
                         const int32_t *ign, int32_t ign_len)
{
    while (n > 0) {
        int64_t used;
        int32_t c = decode(p, n, &used);
        if (!in_ranges(c, ign, ign_len))
            return in_ranges(c, cased, cased_len);
        p += used, n -= used;
    }
    return 0;
}

int32_t sm2c_rt_string_lower_utf8(const sm2c_string *x, sm2c_string *y, uint8_t *text, int32_t n, int32_t in_max,
                                  const int32_t *map, int32_t map_len, const int32_t *cased, int32_t cased_len,
                                  const int32_t *ign, int32_t ign_len)
{
    int32_t i;
    for (i = 0; i < n; i++)
        if (x[i].len < 0 || x[i].len > in_max)
            return SM2C_RT_ERR_STRING;
    for (i = 0; i < n; i++) {
        uint8_t *out = text + (int64_t)i * 3 * in_max;
        const uint8_t *p = x[i].data;
        int64_t len = 0, k = 0, w = 0, used;
        int prev_cased = 0;
        while (len < x[i].len && p[len])
            len++;
        while (k < len) {
            int32_t c = decode(p + k, len - k, &used), l;
            k += used;
            if (c == SIGMA)
                l = prev_cased && !cased_follows(p + k, len - k, cased, cased_len, ign, ign_len) ? 0x3C2 : 0x3C3;
            else if (c == 0x130)
                out[w++] = 'i', l = 0x307;
            else
                l = lower_of(c, map, map_len);
            w += encode(l, out + w);
            if (!in_ranges(c, ign, ign_len))
                prev_cased = in_ranges(c, cased, cased_len);
        }
        y[i].data = out;
        y[i].len = w;
    }
    return SM2C_RT_OK;
}
