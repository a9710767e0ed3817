/*
** pbtext.c: protobuf text format, as TensorFlow writes saved_model.pbtxt,
** translated to the binary wire format by our descriptors.
**
** The result goes through sm2c_pb_unpack() like any binary file, so this file
** only has to get the syntax and the types right:
**
**   name: value   name { ... }   name: { ... }   name < ... >
**   name: [v, v]  name: [{...}, {...}]   # comments   "adjacent" "strings"
**
** Nested messages are parsed with an explicit stack (bounded by
** limits->nesting_depth), never by recursion.  A length-delimited value is
** written behind a 5-byte hole; the holes are filled with the real lengths
** and squeezed out in one final pass, so nothing is moved twice.
*/
#include "pbwire.h"
#include "wire.h"
#include "base/grow.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WT_VARINT = 0, WT_64BIT = 1, WT_LEN = 2, WT_32BIT = 5 };
enum { HOLE = 5 };  /* bytes reserved for a length: INT_MAX fits in 5 */

/* ---- tokens ----------------------------------------------------------------- */

typedef enum { T_EOF, T_IDENT, T_NUM, T_STR, T_PUNCT } tok_kind;

typedef struct token {
    tok_kind kind;
    const char *p;  /* raw text; strings keep their quotes */
    size_t n;
    int line, col;
} token;

/* A length-delimited value in `out`: HOLE bytes at `pos`, later `value`. */
typedef struct hole {
    size_t pos;
    uint32_t value;
} hole;

typedef struct tframe {
    const ProtobufCMessageDescriptor *desc;
    char close;                           /* '}' or '>'; 0 at the top level */
    size_t hole;                          /* our length prefix, in holes[] */
    size_t saved;                         /* bytes the holes inside us will lose */
    uint64_t seen;                        /* fields given so far, by index (first 64) */
    const ProtobufCFieldDescriptor *list; /* set inside `field: [{...}, ...]` */
    int line, col;                        /* where we were opened */
} tframe;

typedef struct parser {
    sm2c_ctx *c;
    const char *display;
    const char *s;
    size_t len, pos, line_start;
    int line;
    token peeked;
    int has_peek;
    uint8_t *out;
    size_t nout, cap_out;
    hole *holes;
    size_t nholes, cap_holes;
    tframe *frames;
    size_t nframes, cap_frames;
} parser;

static sm2c_status perr(parser *p, sm2c_status kind, int line, int col, const char *fmt, ...)
    SM2C_PRINTF(5, 6);
static sm2c_status perr(parser *p, sm2c_status kind, int line, int col, const char *fmt, ...)
{
    char loc[512], msg[1024];
    snprintf(loc, sizeof loc, "%s:%d:%d", p->display, line, col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sm2c_error(p->c->diag, kind, loc, NULL, "%s", msg);
}

#define TOKERR(p, t, ...) perr((p), SM2C_ERR_INVALID, (t)->line, (t)->col, __VA_ARGS__)

/* How a token reads in an error message. */
static const char *tok_desc(const token *t, char *buf, size_t size)
{
    if (t->kind == T_EOF)
        return "end of input";
    snprintf(buf, size, "'%.*s'", (int)(t->n > 40 ? 40 : t->n), t->p);
    return buf;
}

/* ---- lexer ------------------------------------------------------------------ */

static int is_alpha(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static int is_digit(int ch) { return ch >= '0' && ch <= '9'; }
static int is_alnum(int ch) { return is_alpha(ch) || is_digit(ch); }

static void skip_space(parser *p)
{
    while (p->pos < p->len) {
        char ch = p->s[p->pos];
        if (ch == '\n') {
            p->pos++;
            p->line++;
            p->line_start = p->pos;
        } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f') {
            p->pos++;
        } else if (ch == '#') {
            while (p->pos < p->len && p->s[p->pos] != '\n')
                p->pos++;
        } else {
            break;
        }
    }
}

/* A quoted string, on one line; escapes are decoded later. */
static sm2c_status lex_string(parser *p, token *t)
{
    char q = p->s[p->pos++];
    while (p->pos < p->len && p->s[p->pos] != q && p->s[p->pos] != '\n') {
        if (p->s[p->pos] == '\\' && p->pos + 1 < p->len && p->s[p->pos + 1] != '\n')
            p->pos++;
        p->pos++;
    }
    if (p->pos >= p->len || p->s[p->pos] != q)
        return TOKERR(p, t, "unterminated string");
    p->pos++;
    t->kind = T_STR;
    return SM2C_OK;
}

static sm2c_status lex(parser *p, token *t)
{
    skip_space(p);
    t->p = p->s + p->pos;
    t->line = p->line;
    t->col = (int)(p->pos - p->line_start) + 1;
    size_t start = p->pos;
    if (p->pos >= p->len) {
        t->kind = T_EOF;
        t->n = 0;
        return SM2C_OK;
    }
    unsigned char ch = (unsigned char)p->s[p->pos];
    sm2c_status st = SM2C_OK;
    if (is_alpha(ch)) {
        while (p->pos < p->len && is_alnum((unsigned char)p->s[p->pos]))
            p->pos++;
        t->kind = T_IDENT;
    } else if (is_digit(ch) || (ch == '.' && p->pos + 1 < p->len && is_digit(p->s[p->pos + 1]))) {
        /* digits, letters, '.', and a sign right after an exponent 'e' */
        int hex = ch == '0' && p->pos + 1 < p->len && (p->s[p->pos + 1] | 0x20) == 'x';
        while (p->pos < p->len) {
            char c = p->s[p->pos];
            if (is_alnum((unsigned char)c) || c == '.' ||
                ((c == '-' || c == '+') && !hex && (p->s[p->pos - 1] | 0x20) == 'e'))
                p->pos++;
            else
                break;
        }
        t->kind = T_NUM;
    } else if (ch == '"' || ch == '\'') {
        st = lex_string(p, t);
    } else if (strchr(":{}<>[],;-/", ch)) {
        p->pos++;
        t->kind = T_PUNCT;
    } else {
        return TOKERR(p, t, ch >= 0x20 && ch < 0x7f ? "unexpected character '%c'"
                                                     : "unexpected byte 0x%02x", ch);
    }
    t->n = p->pos - start;
    return st;
}

static sm2c_status next(parser *p, token *t)
{
    if (p->has_peek) {
        *t = p->peeked;
        p->has_peek = 0;
        return SM2C_OK;
    }
    return lex(p, t);
}

static sm2c_status peek(parser *p, token *t)
{
    if (!p->has_peek) {
        sm2c_status st = lex(p, &p->peeked);
        if (st != SM2C_OK)
            return st;
        p->has_peek = 1;
    }
    *t = p->peeked;
    return SM2C_OK;
}

static int is_punct(const token *t, char ch)
{
    return t->kind == T_PUNCT && t->p[0] == ch;
}

static int tok_is(const token *t, const char *word)
{
    return t->kind == T_IDENT && strlen(word) == t->n && memcmp(t->p, word, t->n) == 0;
}

/* ---- output ------------------------------------------------------------------- */

static sm2c_status emit(parser *p, const void *b, size_t n)
{
    /* The holes make the raw output a little larger than the result. */
    if (p->nout + n > (size_t)INT_MAX * 2)
        return perr(p, SM2C_ERR_LIMIT, p->line, 1, "encoded message exceeds 2 GiB - 1");
    p->out = sm2c_grow(p->out, &p->cap_out, p->nout + n, 1);
    memcpy(p->out + p->nout, b, n);
    p->nout += n;
    return SM2C_OK;
}

static size_t put_varint(uint8_t *b, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        b[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[n++] = (uint8_t)v;
    return n;
}

static sm2c_status emit_varint(parser *p, uint64_t v)
{
    uint8_t b[10];
    return emit(p, b, put_varint(b, v));
}

static sm2c_status emit_tag(parser *p, const ProtobufCFieldDescriptor *f, int wt)
{
    return emit_varint(p, (uint64_t)f->id << 3 | (unsigned)wt);
}

static sm2c_status emit_le(parser *p, uint64_t v, size_t n)
{
    uint8_t b[8];
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    return emit(p, b, n);
}

static sm2c_status hole_open(parser *p, size_t *index)
{
    static const uint8_t zero[HOLE];
    p->holes = sm2c_grow(p->holes, &p->cap_holes, p->nholes + 1, sizeof *p->holes);
    *index = p->nholes;
    p->holes[p->nholes++] = (hole){p->nout, 0};
    return emit(p, zero, HOLE);
}

/* Fill hole `h`, whose contents will lose `saved` bytes; returns what the
** enclosing message will lose because of it. */
static sm2c_status hole_close(parser *p, size_t h, size_t saved, size_t *shrink, int line, int col)
{
    size_t len = p->nout - p->holes[h].pos - HOLE - saved;
    if (len > INT_MAX)
        return perr(p, SM2C_ERR_LIMIT, line, col, "message of %zu bytes exceeds 2 GiB - 1", len);
    uint8_t b[10];
    p->holes[h].value = (uint32_t)len;
    *shrink = saved + HOLE - put_varint(b, len);
    return SM2C_OK;
}

/* Squeeze the holes out into the arena. */
static void finish(parser *p, sm2c_buf *out)
{
    size_t total = p->nout - p->frames[0].saved;
    uint8_t *dst = sm2c_arena_alloc(p->c->arena, total + 1);
    size_t r = 0, w = 0;
    for (size_t i = 0; i < p->nholes; i++) {
        const hole *h = &p->holes[i];
        memcpy(dst + w, p->out + r, h->pos - r);
        w += h->pos - r;
        w += put_varint(dst + w, h->value);
        r = h->pos + HOLE;
    }
    if (p->nout > r)  /* p->out is NULL when nothing was written */
        memcpy(dst + w, p->out + r, p->nout - r);
    w += p->nout - r;
    SM2C_ASSERT(w == total);
    dst[total] = 0;
    out->data = dst;
    out->len = total;
}

/* ---- scalar values ---------------------------------------------------------- */

static int hexval(int ch)
{
    if (is_digit(ch))
        return ch - '0';
    ch |= 0x20;
    return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

static sm2c_status emit_utf8(parser *p, const token *t, uint32_t cp)
{
    uint8_t b[4];
    size_t n;
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return TOKERR(p, t, "\\u escape U+%X is not a Unicode scalar value", (unsigned)cp);
    if (cp < 0x80) {
        b[0] = (uint8_t)cp, n = 1;
    } else if (cp < 0x800) {
        b[0] = (uint8_t)(0xc0 | cp >> 6), b[1] = (uint8_t)(0x80 | (cp & 0x3f)), n = 2;
    } else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xe0 | cp >> 12), b[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        b[2] = (uint8_t)(0x80 | (cp & 0x3f)), n = 3;
    } else {
        b[0] = (uint8_t)(0xf0 | cp >> 18), b[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
        b[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f)), b[3] = (uint8_t)(0x80 | (cp & 0x3f)), n = 4;
    }
    return emit(p, b, n);
}

/* One escape after the backslash at s[*i]; advances *i past it. */
static sm2c_status unescape_one(parser *p, const token *t, const char *s, size_t n, size_t *i)
{
    static const char from[] = "abfnrtv\\?'\"", to[] = "\a\b\f\n\r\t\v\\?'\"";
    char ch = s[++*i];
    const char *k = strchr(from, ch);
    if (ch && k) {
        ++*i;
        return emit(p, &to[k - from], 1);
    }
    unsigned v = 0;
    if (ch >= '0' && ch <= '7') {
        for (int d = 0; d < 3 && *i < n && s[*i] >= '0' && s[*i] <= '7'; d++)
            v = v * 8 + (unsigned)(s[(*i)++] - '0');
        if (v > 0xff)
            return TOKERR(p, t, "octal escape \\%o is larger than one byte", v);
    } else if (ch == 'x' || ch == 'X') {
        ++*i;
        int d = 0;
        for (; d < 2 && *i < n && hexval(s[*i]) >= 0; d++)
            v = v * 16 + (unsigned)hexval(s[(*i)++]);
        if (d == 0)
            return TOKERR(p, t, "\\x escape without hex digits");
    } else if (ch == 'u' || ch == 'U') {
        int want = ch == 'u' ? 4 : 8;
        ++*i;
        for (int d = 0; d < want; d++, ++*i) {
            if (*i >= n || hexval(s[*i]) < 0)
                return TOKERR(p, t, "\\%c escape needs %d hex digits", ch, want);
            v = v * 16 + (unsigned)hexval(s[*i]);
        }
        return emit_utf8(p, t, v);
    } else {
        return TOKERR(p, t, "unknown escape '\\%c' in string", ch);
    }
    uint8_t b = (uint8_t)v;
    return emit(p, &b, 1);
}

static sm2c_status unescape(parser *p, const token *t)
{
    const char *s = t->p + 1;
    size_t n = t->n - 2, i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] != '\\')
            j++;
        sm2c_status st = emit(p, s + i, j - i);
        if (st != SM2C_OK || j == n)
            return st;
        i = j;
        if ((st = unescape_one(p, t, s, n, &i)) != SM2C_OK)
            return st;
    }
    return SM2C_OK;
}

/* "a" 'b' "c": one value.  protobuf-c would cut a string at a NUL. */
static sm2c_status parse_string(parser *p, const ProtobufCFieldDescriptor *f, const token *first)
{
    size_t h = 0, shrink = 0;
    sm2c_status st = emit_tag(p, f, WT_LEN);
    if (st == SM2C_OK)
        st = hole_open(p, &h);
    token t = *first, nx;
    while (st == SM2C_OK) {
        if ((st = unescape(p, &t)) != SM2C_OK || (st = peek(p, &nx)) != SM2C_OK)
            return st;
        if (nx.kind != T_STR)
            break;
        st = next(p, &t);
    }
    if (st != SM2C_OK)
        return st;
    const uint8_t *v = p->out + p->holes[h].pos + HOLE;
    size_t n = p->nout - p->holes[h].pos - HOLE;
    const uint8_t *nul = f->type == PROTOBUF_C_TYPE_STRING ? memchr(v, 0, n) : NULL;
    if (nul)
        return TOKERR(p, first, "string field '%s' contains NUL byte at position %zu", f->name,
                      (size_t)(nul - v));
    size_t bad = f->type == PROTOBUF_C_TYPE_STRING ? sm2c_utf8_invalid_at(v, n) : n;
    if (bad < n)
        return TOKERR(p, first, "string field '%s' is not valid UTF-8: bad byte at position %zu",
                      f->name, bad);
    st = hole_close(p, h, 0, &shrink, first->line, first->col);
    p->frames[p->nframes - 1].saved += shrink;
    return st;
}

/* 0x1F, 017, 123 into *v: 1, or 0 when not an integer, -1 on overflow. */
static int parse_uint(const char *s, size_t n, uint64_t *v)
{
    unsigned base = 10;
    size_t i = 0;
    if (n > 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
        base = 16, i = 2;
    else if (n > 1 && s[0] == '0')
        base = 8, i = 1;
    *v = 0;
    for (; i < n; i++) {
        int d = hexval((unsigned char)s[i]);
        if (d < 0 || (unsigned)d >= base)
            return 0;
        if (*v > (UINT64_MAX - (unsigned)d) / base)
            return -1;
        *v = *v * base + (unsigned)d;
    }
    return 1;
}

/* A number token as a double: integers, 1.5, .5, 1e-05, 2.0f. */
static int parse_double(const token *t, double *d)
{
    uint64_t u;
    int r = parse_uint(t->p, t->n, &u);
    if (r > 0) {
        *d = (double)u;
        return 1;
    }
    char buf[128];
    size_t n = t->n;
    if (n && (t->p[n - 1] | 0x20) == 'f' && !(n > 2 && (t->p[1] | 0x20) == 'x'))
        n--;
    if (n == 0 || n >= sizeof buf || memchr(t->p, 'x', n) || memchr(t->p, 'X', n))
        return 0;
    memcpy(buf, t->p, n);
    buf[n] = 0;
    char *end;
    *d = strtod(buf, &end);
    return *end == 0;
}

static int ident_ieq(const token *t, const char *word)
{
    if (t->kind != T_IDENT || t->n != strlen(word))
        return 0;
    for (size_t i = 0; i < t->n; i++)
        if ((t->p[i] | 0x20) != word[i])
            return 0;
    return 1;
}

static float to_float(double d)
{
    /* Round as IEEE does, without the undefined out-of-range cast. */
    const double top = (double)FLT_MAX + ldexp(1.0, 103);
    if (isnan(d))
        return NAN;
    if (fabs(d) >= top)
        return d < 0 ? -INFINITY : INFINITY;
    if (fabs(d) > FLT_MAX)
        return d < 0 ? -FLT_MAX : FLT_MAX;
    return (float)d;
}

static sm2c_status parse_real(parser *p, const ProtobufCFieldDescriptor *f, const token *t,
                              int neg)
{
    double d;
    if (ident_ieq(t, "inf") || ident_ieq(t, "infinity"))
        d = INFINITY;
    else if (ident_ieq(t, "nan"))
        d = NAN;
    else if (t->kind != T_NUM || !parse_double(t, &d))
        return TOKERR(p, t, "expected a number for %s field '%s'",
                      f->type == PROTOBUF_C_TYPE_FLOAT ? "float" : "double", f->name);
    if (neg)
        d = -d;
    if (f->type == PROTOBUF_C_TYPE_DOUBLE) {
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        sm2c_status st = emit_tag(p, f, WT_64BIT);
        return st ? st : emit_le(p, bits, 8);
    }
    float x = to_float(d);
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    sm2c_status st = emit_tag(p, f, WT_32BIT);
    return st ? st : emit_le(p, bits, 4);
}

typedef struct int_kind {
    int is_signed, bits, zigzag, fixed;
} int_kind;

static int_kind int_kind_of(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_INT32: return (int_kind){1, 32, 0, 0};
    case PROTOBUF_C_TYPE_SINT32: return (int_kind){1, 32, 1, 0};
    case PROTOBUF_C_TYPE_SFIXED32: return (int_kind){1, 32, 0, 1};
    case PROTOBUF_C_TYPE_INT64: return (int_kind){1, 64, 0, 0};
    case PROTOBUF_C_TYPE_SINT64: return (int_kind){1, 64, 1, 0};
    case PROTOBUF_C_TYPE_SFIXED64: return (int_kind){1, 64, 0, 1};
    case PROTOBUF_C_TYPE_UINT32: return (int_kind){0, 32, 0, 0};
    case PROTOBUF_C_TYPE_FIXED32: return (int_kind){0, 32, 0, 1};
    case PROTOBUF_C_TYPE_FIXED64: return (int_kind){0, 64, 0, 1};
    case PROTOBUF_C_TYPE_ENUM: return (int_kind){1, 32, 0, 0};
    default: return (int_kind){0, 64, 0, 0};
    }
}

/* An integer literal within the range of `k`, as two's complement bits. */
static sm2c_status parse_int(parser *p, const ProtobufCFieldDescriptor *f, const token *t,
                             int neg, uint64_t *bits)
{
    int_kind k = int_kind_of(f->type);
    uint64_t mag;
    int r = t->kind == T_NUM ? parse_uint(t->p, t->n, &mag) : 0;
    if (r == 0)
        return TOKERR(p, t, "expected an integer for field '%s'", f->name);
    uint64_t max = k.bits == 64 ? (k.is_signed ? (uint64_t)INT64_MAX : UINT64_MAX)
                                : (k.is_signed ? (uint64_t)INT32_MAX : UINT32_MAX);
    if (neg && !k.is_signed)
        return TOKERR(p, t, "negative value for unsigned field '%s'", f->name);
    if (r < 0 || mag > max + (uint64_t)(neg != 0))
        return TOKERR(p, t, "integer %s%.*s out of range for field '%s'", neg ? "-" : "",
                      (int)t->n, t->p, f->name);
    *bits = neg ? 0 - mag : mag;
    return SM2C_OK;
}

static sm2c_status emit_int(parser *p, const ProtobufCFieldDescriptor *f, uint64_t bits)
{
    int_kind k = int_kind_of(f->type);
    sm2c_status st;
    if (k.fixed) {
        st = emit_tag(p, f, k.bits == 32 ? WT_32BIT : WT_64BIT);
        return st ? st : emit_le(p, bits, (size_t)k.bits / 8);
    }
    if (k.zigzag && k.bits == 32) {
        uint32_t v = (uint32_t)bits;
        bits = (uint32_t)(v << 1) ^ (uint32_t)(0 - (v >> 31));
    } else if (k.zigzag) {
        bits = (bits << 1) ^ (0 - (bits >> 63));
    } else if (k.bits == 32 && k.is_signed) {
        bits = (uint64_t)(int64_t)(int32_t)(uint32_t)bits;  /* sign-extend as protobuf does */
    }
    st = emit_tag(p, f, WT_VARINT);
    return st ? st : emit_varint(p, bits);
}

static sm2c_status parse_enum(parser *p, const ProtobufCFieldDescriptor *f, const token *t,
                              int neg, uint64_t *bits)
{
    if (t->kind == T_NUM)
        return parse_int(p, f, t, neg, bits);  /* unknown numbers are checked later */
    char name[256];
    const ProtobufCEnumValue *v = NULL;
    if (t->kind == T_IDENT && !neg && t->n < sizeof name) {
        memcpy(name, t->p, t->n);
        name[t->n] = 0;
        v = protobuf_c_enum_descriptor_get_value_by_name(f->descriptor, name);
    }
    if (!v)
        return TOKERR(p, t, "unknown value %.*s for enum %s of field '%s'", (int)t->n, t->p,
                      ((const ProtobufCEnumDescriptor *)f->descriptor)->name, f->name);
    *bits = (uint64_t)(int64_t)v->value;
    return SM2C_OK;
}

static sm2c_status parse_bool(parser *p, const ProtobufCFieldDescriptor *f, const token *t)
{
    int v = -1, digit = t->kind == T_NUM && t->n == 1 ? t->p[0] : 0;
    if (tok_is(t, "true") || tok_is(t, "True") || tok_is(t, "t") || digit == '1')
        v = 1;
    else if (tok_is(t, "false") || tok_is(t, "False") || tok_is(t, "f") || digit == '0')
        v = 0;
    if (v < 0)
        return TOKERR(p, t, "expected true or false for bool field '%s'", f->name);
    sm2c_status st = emit_tag(p, f, WT_VARINT);
    return st ? st : emit_varint(p, (uint64_t)v);
}

/* One value of a non-message field, starting at token `t`. */
static sm2c_status parse_scalar(parser *p, const ProtobufCFieldDescriptor *f, token t)
{
    if (f->type == PROTOBUF_C_TYPE_STRING || f->type == PROTOBUF_C_TYPE_BYTES) {
        if (t.kind != T_STR)
            return TOKERR(p, &t, "expected a string for field '%s'", f->name);
        return parse_string(p, f, &t);
    }
    int neg = is_punct(&t, '-');
    sm2c_status st;
    if (neg && (st = next(p, &t)) != SM2C_OK)
        return st;
    uint64_t bits;
    switch (f->type) {
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_DOUBLE:
        return parse_real(p, f, &t, neg);
    case PROTOBUF_C_TYPE_BOOL:
        if (neg)
            return TOKERR(p, &t, "expected true or false for bool field '%s'", f->name);
        return parse_bool(p, f, &t);
    case PROTOBUF_C_TYPE_ENUM:
        st = parse_enum(p, f, &t, neg, &bits);
        break;
    default:
        st = parse_int(p, f, &t, neg, &bits);
        break;
    }
    return st ? st : emit_int(p, f, bits);
}

/* `[v, v, ...]` after the '['. */
static sm2c_status parse_scalar_list(parser *p, const ProtobufCFieldDescriptor *f)
{
    token t;
    sm2c_status st = peek(p, &t);
    if (st == SM2C_OK && is_punct(&t, ']'))
        return next(p, &t);
    char buf[64];
    while (st == SM2C_OK) {
        if ((st = next(p, &t)) != SM2C_OK || (st = parse_scalar(p, f, t)) != SM2C_OK ||
            (st = next(p, &t)) != SM2C_OK)
            return st;
        if (is_punct(&t, ']'))
            return SM2C_OK;
        if (!is_punct(&t, ','))
            return TOKERR(p, &t, "expected ',' or ']' in list, found %s",
                          tok_desc(&t, buf, sizeof buf));
    }
    return st;
}

/* ---- messages ----------------------------------------------------------------- */

/* Opens a nested message of field `f` at token `t` ('{' or '<'). */
static sm2c_status open_message(parser *p, const ProtobufCFieldDescriptor *f, const token *t)
{
    int64_t limit = p->c->limits->nesting_depth;
    if ((int64_t)p->nframes > limit)
        return perr(p, SM2C_ERR_LIMIT, t->line, t->col,
                    "message nesting depth %zu exceeds limit %lld", p->nframes, (long long)limit);
    size_t h = 0;
    sm2c_status st = emit_tag(p, f, WT_LEN);
    if (st == SM2C_OK)
        st = hole_open(p, &h);
    if (st != SM2C_OK)
        return st;
    p->frames = sm2c_grow(p->frames, &p->cap_frames, p->nframes + 1, sizeof *p->frames);
    p->frames[p->nframes++] = (tframe){
        .desc = f->descriptor, .close = is_punct(t, '<') ? '>' : '}', .hole = h,
        .line = t->line, .col = t->col,
    };
    return SM2C_OK;
}

/* A ',' or ';' may follow any field. */
static sm2c_status skip_separator(parser *p)
{
    token t;
    sm2c_status st = peek(p, &t);
    if (st == SM2C_OK && (is_punct(&t, ',') || is_punct(&t, ';')))
        st = next(p, &t);
    return st;
}

/* After a message's closing brace: continue a message list, or end the field. */
static sm2c_status after_close(parser *p)
{
    tframe *top = &p->frames[p->nframes - 1];
    if (!top->list)
        return skip_separator(p);
    token t;
    char buf[64];
    sm2c_status st = next(p, &t);
    if (st != SM2C_OK)
        return st;
    if (is_punct(&t, ']')) {
        top->list = NULL;
        return skip_separator(p);
    }
    if (!is_punct(&t, ','))
        return TOKERR(p, &t, "expected ',' or ']' in list, found %s",
                      tok_desc(&t, buf, sizeof buf));
    if ((st = next(p, &t)) != SM2C_OK)
        return st;
    if (!is_punct(&t, '{') && !is_punct(&t, '<'))
        return TOKERR(p, &t, "expected '{' in list of '%s', found %s", top->list->name,
                      tok_desc(&t, buf, sizeof buf));
    return open_message(p, top->list, &t);
}

static sm2c_status close_message(parser *p, const token *t)
{
    tframe *fr = &p->frames[p->nframes - 1];
    size_t shrink = 0;
    sm2c_status st = hole_close(p, fr->hole, fr->saved, &shrink, t->line, t->col);
    if (st != SM2C_OK)
        return st;
    p->nframes--;
    p->frames[p->nframes - 1].saved += shrink;
    return after_close(p);
}

/* Non-repeated fields once, and one member per oneof. */
static sm2c_status check_repeat(parser *p, tframe *fr, const ProtobufCFieldDescriptor *f,
                                const token *name)
{
    size_t i = (size_t)(f - fr->desc->fields);
    if (i >= 64 || f->label == PROTOBUF_C_LABEL_REPEATED)
        return SM2C_OK;
    if (fr->seen >> i & 1)
        return TOKERR(p, name, "non-repeated field '%s' is given more than once", f->name);
    if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
        for (size_t j = 0; j < fr->desc->n_fields && j < 64; j++) {
            const ProtobufCFieldDescriptor *g = &fr->desc->fields[j];
            if ((fr->seen >> j & 1) && (g->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
                g->quantifier_offset == f->quantifier_offset)
                return TOKERR(p, name, "field '%s' is given along with '%s' of the same oneof",
                              f->name, g->name);
        }
    }
    fr->seen |= (uint64_t)1 << i;
    return SM2C_OK;
}

static sm2c_status lookup_field(parser *p, const token *name, const ProtobufCFieldDescriptor **f)
{
    tframe *fr = &p->frames[p->nframes - 1];
    char buf[256];
    *f = NULL;
    if (name->n < sizeof buf) {
        memcpy(buf, name->p, name->n);
        buf[name->n] = 0;
        *f = protobuf_c_message_descriptor_get_field_by_name(fr->desc, buf);
    }
    if (!*f)
        return TOKERR(p, name, "unknown field '%.*s' in message %s",
                      (int)(name->n > 100 ? 100 : name->n), name->p, fr->desc->name);
    return check_repeat(p, fr, *f, name);
}

/* `[type.googleapis.com/x.Y] {...}` and `[ext]: v` are not supported. */
static sm2c_status bracket_name(parser *p, const token *t)
{
    const char *s = t->p, *e = memchr(s, ']', (size_t)(p->s + p->len - s));
    int n = e ? (int)(e - s + 1) : 1;
    return perr(p, SM2C_ERR_UNSUPPORTED, t->line, t->col,
                "extension or Any expansion '%.*s' is not supported", n > 120 ? 120 : n, s);
}

static sm2c_status message_value(parser *p, const ProtobufCFieldDescriptor *f, const token *t)
{
    char buf[64];
    if (is_punct(t, '{') || is_punct(t, '<'))
        return open_message(p, f, t);
    if (!is_punct(t, '['))
        return TOKERR(p, t, "expected '{' after message field '%s', found %s", f->name,
                      tok_desc(t, buf, sizeof buf));
    if (f->label != PROTOBUF_C_LABEL_REPEATED)
        return TOKERR(p, t, "list given for non-repeated field '%s'", f->name);
    token u;
    sm2c_status st = next(p, &u);
    if (st != SM2C_OK)
        return st;
    if (is_punct(&u, ']'))
        return skip_separator(p);
    if (!is_punct(&u, '{') && !is_punct(&u, '<'))
        return TOKERR(p, &u, "expected '{' in list of '%s', found %s", f->name,
                      tok_desc(&u, buf, sizeof buf));
    p->frames[p->nframes - 1].list = f;
    return open_message(p, f, &u);
}

/* One field of the innermost message, from its name token on. */
static sm2c_status parse_field(parser *p, const token *name)
{
    char buf[64];
    if (is_punct(name, '['))
        return bracket_name(p, name);
    if (name->kind != T_IDENT)
        return TOKERR(p, name, "expected a field name, found %s", tok_desc(name, buf, sizeof buf));
    const ProtobufCFieldDescriptor *f;
    token t;
    sm2c_status st = lookup_field(p, name, &f);
    if (st == SM2C_OK)
        st = next(p, &t);
    if (st != SM2C_OK)
        return st;
    int colon = is_punct(&t, ':');
    if (colon && (st = next(p, &t)) != SM2C_OK)
        return st;
    if (f->type == PROTOBUF_C_TYPE_MESSAGE)
        return message_value(p, f, &t);
    if (!colon)
        return TOKERR(p, &t, "expected ':' after field '%s', found %s", f->name,
                      tok_desc(&t, buf, sizeof buf));
    if (is_punct(&t, '[')) {
        if (f->label != PROTOBUF_C_LABEL_REPEATED)
            return TOKERR(p, &t, "list given for non-repeated field '%s'", f->name);
        st = parse_scalar_list(p, f);
    } else {
        st = parse_scalar(p, f, t);
    }
    return st ? st : skip_separator(p);
}

static sm2c_status parse(parser *p)
{
    char buf[64];
    for (;;) {
        tframe *top = &p->frames[p->nframes - 1];
        token t;
        sm2c_status st = next(p, &t);
        if (st != SM2C_OK)
            return st;
        if (t.kind == T_EOF) {
            if (p->nframes == 1)
                return SM2C_OK;
            return TOKERR(p, &t, "unexpected end of input: '%c' opened at %d:%d is not closed",
                          top->close == '}' ? '{' : '<', top->line, top->col);
        }
        if (top->close && is_punct(&t, top->close))
            st = close_message(p, &t);
        else if (top->close && (is_punct(&t, '}') || is_punct(&t, '>')))
            st = TOKERR(p, &t, "found %s where '%c' opened at %d:%d needs '%c'",
                        tok_desc(&t, buf, sizeof buf), top->close == '}' ? '{' : '<', top->line,
                        top->col, top->close);
        else if (is_punct(&t, '}') || is_punct(&t, '>'))
            st = TOKERR(p, &t, "unexpected %s", tok_desc(&t, buf, sizeof buf));
        else
            st = parse_field(p, &t);
        if (st != SM2C_OK)
            return st;
    }
}

sm2c_status sm2c_pbtext_to_wire(sm2c_ctx *c, const char *display, const char *text, size_t len,
                                const ProtobufCMessageDescriptor *desc, sm2c_buf *out)
{
    parser p = {.c = c, .display = display, .s = text, .len = len, .line = 1};
    p.frames = sm2c_grow(NULL, &p.cap_frames, 1, sizeof *p.frames);
    p.frames[p.nframes++] = (tframe){.desc = desc};
    sm2c_status st = parse(&p);
    if (st == SM2C_OK)
        finish(&p, out);
    free(p.out);
    free(p.holes);
    free(p.frames);
    return st;
}
