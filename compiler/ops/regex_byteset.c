/*
** regex_byteset.c: RE2 patterns of one single-byte atom (and `+`) into a
** table of 256 bits (regex_byteset.h).
*/
#include "regex_byteset.h"

#include <string.h>

typedef struct rx {
    const uint8_t *p, *end;
    const char *why;
} rx;

static void add(sm2c_regex_byteset *s, int b)
{
    s->bits[b >> 5] |= (uint32_t)1 << (b & 31);
}

static void add_range(sm2c_regex_byteset *s, int lo, int hi)
{
    for (int b = lo; b <= hi; b++)
        add(s, b);
}

static int is_word(int b)
{
    return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_';
}

static int fail(rx *r, const char *why)
{
    if (!r->why)
        r->why = why;
    return -1;
}

/* After a backslash: the escaped byte (>= 0), or -2 for a shorthand class it
** added to s (\d \s \w), or -1 after fail(). */
static int escape(rx *r, sm2c_regex_byteset *s)
{
    if (r->p >= r->end)
        return fail(r, "a trailing backslash");
    int b = *r->p++;
    switch (b) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'f': return '\f';
    case 'v': return '\v';
    case 'd': add_range(s, '0', '9'); return -2;
    case 's':   /* RE2's \s: [\t\n\f\r ] (no \v) */
        add(s, '\t'); add(s, '\n'); add(s, '\f'); add(s, '\r'); add(s, ' ');
        return -2;
    case 'w':
        add_range(s, '0', '9'); add_range(s, 'a', 'z'); add_range(s, 'A', 'Z'); add(s, '_');
        return -2;
    default:
        break;
    }
    if (b >= 0x80)
        return fail(r, "a non-ASCII byte (RE2 matches UTF-8 characters of several bytes)");
    if (is_word(b))
        return fail(r, "an escape other than \\n \\t \\r \\f \\v \\d \\s \\w or of punctuation");
    return b;   /* an escaped punctuation or space character is itself */
}

/* One class member or range end: a byte, -2 (a shorthand added), -1 (failed). */
static int class_item(rx *r, sm2c_regex_byteset *s)
{
    int b = *r->p++;
    if (b == '\\')
        return escape(r, s);
    if (b >= 0x80)
        return fail(r, "a non-ASCII byte (RE2 matches UTF-8 characters of several bytes)");
    if (b == '[' && r->p < r->end && (*r->p == ':' || *r->p == '=' || *r->p == '.'))
        return fail(r, "a POSIX class inside [...]");
    return b;
}

/* A class, after its '['. */
static int parse_class(rx *r, sm2c_regex_byteset *s)
{
    if (r->p < r->end && *r->p == '^')
        return fail(r, "a negated class (it matches UTF-8 characters of several bytes)");
    int first = 1;
    while (r->p < r->end && (*r->p != ']' || first)) {
        first = 0;
        int lo = class_item(r, s);
        if (lo == -1)
            return -1;
        if (lo == -2)
            continue;
        if (r->p + 1 < r->end && r->p[0] == '-' && r->p[1] != ']') {
            r->p++;
            int hi = class_item(r, s);
            if (hi < 0)
                return hi == -1 ? -1 : fail(r, "a class shorthand as a range end");
            if (hi < lo)
                return fail(r, "a range whose end is below its start");
            add_range(s, lo, hi);
        } else {
            add(s, lo);
        }
    }
    if (r->p >= r->end)
        return fail(r, "a class without its ']'");
    r->p++;
    return 0;
}

static int parse_atom(rx *r, sm2c_regex_byteset *s)
{
    if (r->p >= r->end)
        return fail(r, "an empty pattern (it matches the empty string)");
    int b = *r->p++;
    if (b == '[')
        return parse_class(r, s);
    if (b == '\\') {
        int e = escape(r, s);
        if (e >= 0)
            add(s, e);
        return e == -1 ? -1 : 0;
    }
    if (b >= 0x80)
        return fail(r, "a non-ASCII byte (RE2 matches UTF-8 characters of several bytes)");
    if (strchr("()|*+?{}.^$", b))
        return fail(r, "an operator other than one character, escape or class followed by '+'");
    add(s, b);
    return 0;
}

int sm2c_regex_byteset_compile(const uint8_t *pattern, size_t len, sm2c_regex_byteset *out, const char **why)
{
    memset(out, 0, sizeof *out);
    if (!len) {   /* protobuf-c leaves an empty string's data NULL */
        *why = "an empty pattern";
        return 0;
    }
    rx r = { pattern, pattern + len, NULL };
    if (parse_atom(&r, out) == 0 && r.p < r.end && *r.p == '+') {
        out->plus = 1;
        r.p++;
    }
    if (!r.why && r.p < r.end)
        r.why = "more than one character, escape or class (optionally followed by '+')";
    *why = r.why;
    return r.why == NULL;
}
