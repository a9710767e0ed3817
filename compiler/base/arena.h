/*
** arena.h: phase-scoped bump allocation for the compiler.
**
** Everything the compiler allocates lives in an arena and is released at once
** with sm2c_arena_free().  Nothing is freed one object at a time.
*/
#ifndef SM2C_ARENA_H
#define SM2C_ARENA_H

#include <stddef.h>
#include <protobuf-c/protobuf-c.h>

typedef struct sm2c_arena sm2c_arena;

sm2c_arena *sm2c_arena_new(void);
void sm2c_arena_free(sm2c_arena *a);

/* Zeroed memory aligned to 16 bytes.  Out of memory (grow.h's
** sm2c_out_of_memory) when it cannot be had: callers bound every size by the
** input first, so this is a real OOM. */
void *sm2c_arena_alloc(sm2c_arena *a, size_t size);
/* Same, but for n elements of size bytes; an overflowing size is out of memory. */
void *sm2c_arena_array(sm2c_arena *a, size_t n, size_t size);
/* Zeroed memory, or NULL when it cannot be had (used by protobuf-c). */
void *sm2c_arena_try_alloc(sm2c_arena *a, size_t size);

char *sm2c_arena_strdup(sm2c_arena *a, const char *s);
char *sm2c_arena_strndup(sm2c_arena *a, const char *s, size_t n);
char *sm2c_arena_printf(sm2c_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Bytes handed out so far (for reports and tests). */
size_t sm2c_arena_used(const sm2c_arena *a);

/* A protobuf-c allocator drawing from the arena; its free() does nothing. */
ProtobufCAllocator sm2c_arena_pb_allocator(sm2c_arena *a);

#endif
