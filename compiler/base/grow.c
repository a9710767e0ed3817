/*
** grow.c: growable arrays and text, and the out-of-memory handler (grow.h).
*/
#include "grow.h"

#include "diag.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void default_oom(void)
{
    fputs("sm2c: error: out of memory\n", stderr);
    exit(1);
}

static void (*oom_handler)(void) = default_oom;

void sm2c_set_oom_handler(void (*handler)(void))
{
    oom_handler = handler ? handler : default_oom;
}

void sm2c_out_of_memory(void)
{
    oom_handler();
    abort();    /* a handler that returned */
}

size_t sm2c_grow_cap(size_t cap, size_t need, size_t elem)
{
    size_t n = cap ? cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            sm2c_out_of_memory();
        n *= 2;
    }
    if (elem && n > SIZE_MAX / elem)
        sm2c_out_of_memory();
    return n;
}

void *sm2c_grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t n = sm2c_grow_cap(*cap, need, elem);
    void *q = realloc(p, n * elem);
    if (!q)
        sm2c_out_of_memory();
    *cap = n;
    return q;
}

void sm2c_text_putn(sm2c_text *b, const char *s, size_t n)
{
    if (n > SIZE_MAX - b->len - 1)
        sm2c_out_of_memory();
    if (b->len + n + 1 > b->cap)
        b->p = sm2c_grow(b->p, &b->cap, b->len + n + 1 > 4096 ? b->len + n + 1 : 4096, 1);
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

void sm2c_text_puts(sm2c_text *b, const char *s)
{
    sm2c_text_putn(b, s, strlen(s));
}

void sm2c_text_putc(sm2c_text *b, char ch)
{
    sm2c_text_putn(b, &ch, 1);
}

void sm2c_text_printf(sm2c_text *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    SM2C_ASSERT(n >= 0);    /* a bad format: a bug */
    if ((size_t)n < sizeof small) {
        sm2c_text_putn(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big)
        sm2c_out_of_memory();
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sm2c_text_putn(b, big, (size_t)n);
    free(big);
}

void sm2c_text_free(sm2c_text *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

void *sm2c_xcalloc(size_t n, size_t elem)
{
    void *p = calloc(n ? n : 1, elem ? elem : 1);
    if (!p)
        sm2c_out_of_memory();
    return p;
}
