/*
** json.c: the streaming writer behind `sm2c inspect --json`.
*/
#include "json.h"

#include <math.h>
#include <string.h>

#include "load/wire.h"

void sm2c_json_init(sm2c_json *j, FILE *f)
{
    memset(j, 0, sizeof *j);
    j->f = f;
}

static void indent(sm2c_json *j)
{
    fputc('\n', j->f);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->f);
}

/* Separator and indentation before a value or key. */
static void before(sm2c_json *j)
{
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (j->depth > 0) {
        if (j->count[j->depth - 1]++)
            fputc(',', j->f);
        indent(j);
    }
}

/* Nesting is fixed by the report's shape, far below the maximum. */
static void open(sm2c_json *j, char ch)
{
    before(j);
    fputc(ch, j->f);
    if (j->depth >= SM2C_JSON_MAX_DEPTH)
        return;
    j->count[j->depth] = 0;
    j->close[j->depth] = ch == '{' ? '}' : ']';
    j->depth++;
}

void sm2c_json_object(sm2c_json *j) { open(j, '{'); }
void sm2c_json_array(sm2c_json *j) { open(j, '['); }

void sm2c_json_end(sm2c_json *j)
{
    if (j->depth == 0)
        return;
    j->depth--;
    if (j->count[j->depth])
        indent(j);
    fputc(j->close[j->depth], j->f);
    if (j->depth == 0)
        fputc('\n', j->f);
}

static void escaped(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        unsigned char ch = p[i];
        if (ch == '"' || ch == '\\') {
            fputc('\\', f);
            fputc(ch, f);
        } else if (ch == '\n') {
            fputs("\\n", f);
        } else if (ch < 0x20 || ch == 0x7f) {
            fprintf(f, "\\u%04x", ch);
        } else if (ch >= 0x80) {
            size_t len = sm2c_utf8_seq(p + i, n - i);
            if (len) {
                fwrite(p + i, 1, len, f);
                i += len;
                continue;
            }
            fprintf(f, "\\u%04x", ch);
        } else {
            fputc(ch, f);
        }
        i++;
    }
    fputc('"', f);
}

void sm2c_json_key(sm2c_json *j, const char *key)
{
    before(j);
    escaped(j->f, key, strlen(key));
    fputs(": ", j->f);
    j->after_key = 1;
}

void sm2c_json_strn(sm2c_json *j, const char *s, size_t n)
{
    before(j);
    escaped(j->f, s, n);
}

void sm2c_json_str(sm2c_json *j, const char *s)
{
    if (!s) {
        sm2c_json_null(j);
        return;
    }
    sm2c_json_strn(j, s, strlen(s));
}

void sm2c_json_raw(sm2c_json *j, const char *text)
{
    before(j);
    fputs(text, j->f);
}

void sm2c_json_int(sm2c_json *j, int64_t v)
{
    before(j);
    fprintf(j->f, "%lld", (long long)v);
}

void sm2c_json_uint(sm2c_json *j, uint64_t v)
{
    before(j);
    fprintf(j->f, "%llu", (unsigned long long)v);
}

void sm2c_json_double(sm2c_json *j, double v, int digits)
{
    if (isnan(v)) {
        sm2c_json_str(j, "NaN");
        return;
    }
    if (isinf(v)) {
        sm2c_json_str(j, v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    before(j);
    fprintf(j->f, "%.*g", digits, v);
}

void sm2c_json_bool(sm2c_json *j, int v) { sm2c_json_raw(j, v ? "true" : "false"); }
void sm2c_json_null(sm2c_json *j) { sm2c_json_raw(j, "null"); }

void sm2c_json_field_str(sm2c_json *j, const char *key, const char *s)
{
    sm2c_json_key(j, key);
    sm2c_json_str(j, s);
}

void sm2c_json_field_int(sm2c_json *j, const char *key, int64_t v)
{
    sm2c_json_key(j, key);
    sm2c_json_int(j, v);
}

void sm2c_json_field_uint(sm2c_json *j, const char *key, uint64_t v)
{
    sm2c_json_key(j, key);
    sm2c_json_uint(j, v);
}

void sm2c_json_field_bool(sm2c_json *j, const char *key, int v)
{
    sm2c_json_key(j, key);
    sm2c_json_bool(j, v);
}
