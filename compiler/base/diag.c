/*
** diag.c: the diagnostic sink and the resource-limit table.
*/
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sm2c_status_name(sm2c_status s)
{
    switch (s) {
    case SM2C_OK: return "ok";
    case SM2C_ERR_INVALID: return "invalid input";
    case SM2C_ERR_USAGE: return "usage";
    case SM2C_ERR_UNSUPPORTED: return "unsupported";
    case SM2C_ERR_LIMIT: return "resource limit";
    case SM2C_ERR_INTERNAL: return "internal error";
    }
    return "unknown";
}

void sm2c_diag_init(sm2c_diag *d)
{
    memset(d, 0, sizeof *d);
}

void sm2c_diag_discard(void *user, const char *line)
{
    (void)user;
    (void)line;
}

/* Keep diagnostics one line: control characters from the model become '?'. */
static void flatten(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
}

/* src into dst[cap] whole when it fits, else its head and tail with "..."
** between, cut at UTF-8 character boundaries: a huge name from the model
** keeps the line's "error:" and the end of the message (issue 32, class 7). */
static void shorten(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n < cap) {
        memcpy(dst, src, n + 1);
        return;
    }
    size_t head = (cap - 4) / 2, tail = cap - 4 - head;
    while (head > 0 && ((unsigned char)src[head] & 0xC0) == 0x80)
        head--;
    const char *t = src + n - tail;
    while (*t && ((unsigned char)*t & 0xC0) == 0x80)
        t++;
    memcpy(dst, src, head);
    memcpy(dst + head, "...", 3);
    memcpy(dst + head + 3, t, strlen(t) + 1);
}

void sm2c_one_line(char *dst, size_t cap, const char *src)
{
    shorten(dst, cap, src);
    flatten(dst);
}

/* The message formatted whole, then shortened into msg[cap]. */
static void format_message(char *msg, size_t cap, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int len = vsnprintf(msg, cap, fmt, ap);
    char *whole = len >= 0 && (size_t)len >= cap ? malloc((size_t)len + 1) : NULL;
    if (whole) {
        vsnprintf(whole, (size_t)len + 1, fmt, ap2);
        shorten(msg, cap, whole);
        free(whole);
    }
    va_end(ap2);
}

static void emit(sm2c_diag *d, const char *level, const char *file,
                 const char *where, const char *fmt, va_list ap)
{
    char msg[896], f[448], w[576], line[2048];
    format_message(msg, sizeof msg, fmt, ap);
    shorten(f, sizeof f, file ? file : "");
    shorten(w, sizeof w, where ? where : "");
    snprintf(line, sizeof line, "%s%s%s%s%s: %s", f, file ? ": " : "", w, where ? ": " : "", level, msg);
    flatten(line);
    if (d->fn)
        d->fn(d->user, line);
    else
        fprintf(stderr, "%s\n", line);
    if (strcmp(level, "error") == 0 && d->errors == 0)
        snprintf(d->first, sizeof d->first, "%s", line);
}

sm2c_status sm2c_verror(sm2c_diag *d, sm2c_status kind, const char *file, const char *where,
                        const char *fmt, va_list ap)
{
    if (d->demote > 0 && kind != SM2C_ERR_USAGE && (d->corrupt == 0 || kind == SM2C_ERR_UNSUPPORTED)) {
        emit(d, "warning", file, where, fmt, ap);
        d->warnings++;
        return kind;
    }
    emit(d, "error", file, where, fmt, ap);
    if (d->errors++ == 0)
        d->first_status = kind;
    return kind;
}

sm2c_status sm2c_error(sm2c_diag *d, sm2c_status kind, const char *file,
                       const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sm2c_status st = sm2c_verror(d, kind, file, where, fmt, ap);
    va_end(ap);
    return st;
}

void sm2c_warning(sm2c_diag *d, const char *file, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(d, "warning", file, where, fmt, ap);
    va_end(ap);
    d->warnings++;
}

void sm2c_note(sm2c_diag *d, const char *file, const char *where, const char *fmt, ...)
{
    if (d->quiet_notes)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(d, "note", file, where, fmt, ap);
    va_end(ap);
}

_Noreturn void sm2c_assert_fail(const char *what, const char *file, int line)
{
    fprintf(stderr, "sm2c: internal error: %s at %s:%d\n", what, file, line);
    abort();
}

const char *const sm2c_limit_names[] = {
#define SM2C_LIMIT_NAME(name, field, dflt, help) name,
    SM2C_LIMITS(SM2C_LIMIT_NAME)
#undef SM2C_LIMIT_NAME
    NULL,
};

void sm2c_limits_default(sm2c_limits *l)
{
#define SM2C_LIMIT_DEFAULT(name, field, dflt, help) l->field = (dflt);
    SM2C_LIMITS(SM2C_LIMIT_DEFAULT)
#undef SM2C_LIMIT_DEFAULT
}

int sm2c_limits_set(sm2c_limits *l, const char *name, int64_t value)
{
#define SM2C_LIMIT_SET(lname, field, dflt, help) \
    if (strcmp(name, lname) == 0)                 \
        return l->field = value, 1;
    SM2C_LIMITS(SM2C_LIMIT_SET)
#undef SM2C_LIMIT_SET
    return 0;
}

void sm2c_limits_print(FILE *f)
{
    fputs("resource limits (--limit NAME=VALUE):\n", f);
#define SM2C_LIMIT_PRINT(name, field, dflt, help) \
    fprintf(f, "  %-15s %-11lld %s\n", name, (long long)(dflt), help);
    SM2C_LIMITS(SM2C_LIMIT_PRINT)
#undef SM2C_LIMIT_PRINT
}
