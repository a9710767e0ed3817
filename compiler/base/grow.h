/*
** grow.h: growable arrays and text, and the one out-of-memory policy.
**
** Running out of memory (or a size that overflows size_t) is never an
** internal error: library code calls sm2c_out_of_memory(), which runs the
** handler.  The default handler prints `sm2c: error: out of memory` and ends
** the process with status 1; a program that must not exit (a test, an
** embedding) installs its own, which must not return (longjmp or exit).
*/
#ifndef SM2C_GROW_H
#define SM2C_GROW_H

#include <stddef.h>

/* Sets the out-of-memory handler; NULL restores the default. */
void sm2c_set_oom_handler(void (*handler)(void));
/* Runs the handler; never returns. */
__attribute__((noreturn)) void sm2c_out_of_memory(void);

/* Capacity for at least `need` elements of `elem` bytes: `cap` (16 when 0)
** doubled as often as needed; out of memory when the bytes overflow size_t. */
size_t sm2c_grow_cap(size_t cap, size_t need, size_t elem);
/* p (realloc'd) with room for `need` elements; updates *cap. */
void *sm2c_grow(void *p, size_t *cap, size_t need, size_t elem);

/* calloc(n, elem), or out of memory.  For scratch sized by a whole graph
** that must not stay in the arena for the rest of the run. */
void *sm2c_xcalloc(size_t n, size_t elem);

/* A growable NUL-terminated text buffer (p is NULL until the first write). */
typedef struct sm2c_text {
    char *p;
    size_t len, cap;
} sm2c_text;

void sm2c_text_putn(sm2c_text *b, const char *s, size_t n);
void sm2c_text_puts(sm2c_text *b, const char *s);
void sm2c_text_putc(sm2c_text *b, char ch);
void sm2c_text_printf(sm2c_text *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sm2c_text_free(sm2c_text *b);

#endif
