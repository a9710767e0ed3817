/*
** arena.c: a list of malloc'd chunks, bump-allocated.  Large requests get a
** chunk of their own so that a small arena never wastes a huge tail.
*/
#include "arena.h"
#include "grow.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_SIZE ((size_t)64 * 1024)
#define ALIGN 16

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} chunk;

struct sm2c_arena {
    chunk *head;
    size_t total;
};

sm2c_arena *sm2c_arena_new(void)
{
    sm2c_arena *a = calloc(1, sizeof *a);
    if (!a)
        sm2c_out_of_memory();
    return a;
}

void sm2c_arena_free(sm2c_arena *a)
{
    if (!a)
        return;
    for (chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

static chunk *chunk_new(size_t cap)
{
    if (cap > SIZE_MAX - sizeof(chunk))
        return NULL;
    chunk *c = calloc(1, sizeof(chunk) + cap);
    if (c)
        c->cap = cap;
    return c;
}

void *sm2c_arena_try_alloc(sm2c_arena *a, size_t size)
{
    if (size == 0)
        size = 1;
    if (size > SIZE_MAX - ALIGN)
        return NULL;
    size_t rounded = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    chunk *c = a->head;
    if (!c || c->cap - c->used < rounded) {
        if (rounded > CHUNK_SIZE / 4) {
            /* Own chunk, linked behind the current one so its free space stays usable. */
            chunk *big = chunk_new(rounded);
            if (!big)
                return NULL;
            big->used = rounded;
            if (c) {
                big->next = c->next;
                c->next = big;
            } else {
                a->head = big;
            }
            a->total += rounded;
            return big->data;
        }
        c = chunk_new(CHUNK_SIZE);
        if (!c)
            return NULL;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += rounded;
    a->total += rounded;
    return p;
}

void *sm2c_arena_alloc(sm2c_arena *a, size_t size)
{
    void *p = sm2c_arena_try_alloc(a, size);
    if (!p)
        sm2c_out_of_memory();
    return p;
}

void *sm2c_arena_array(sm2c_arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        sm2c_out_of_memory();
    return sm2c_arena_alloc(a, n * size);
}

char *sm2c_arena_strndup(sm2c_arena *a, const char *s, size_t n)
{
    char *p = sm2c_arena_alloc(a, n + 1);
    if (n)      /* an empty protobuf string has data NULL: memcpy(p, NULL, 0) is UB */
        memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *sm2c_arena_strdup(sm2c_arena *a, const char *s)
{
    return sm2c_arena_strndup(a, s, strlen(s));
}

char *sm2c_arena_printf(sm2c_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return sm2c_arena_strdup(a, "");
    char *p = sm2c_arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

size_t sm2c_arena_used(const sm2c_arena *a)
{
    return a->total;
}

static void *pb_alloc(void *data, size_t size)
{
    return sm2c_arena_try_alloc(data, size);
}

static void pb_free(void *data, void *ptr)
{
    (void)data;
    (void)ptr;
}

ProtobufCAllocator sm2c_arena_pb_allocator(sm2c_arena *a)
{
    ProtobufCAllocator al = { pb_alloc, pb_free, a };
    return al;
}
