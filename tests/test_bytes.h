/*
** test_bytes.h: a growable byte buffer for tests that build binary files
** (SSTables, bundles) by hand.
*/
#ifndef SM2C_TEST_BYTES_H
#define SM2C_TEST_BYTES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct tbuf {
    uint8_t *data;
    size_t len, cap;
} tbuf;

static inline void put(tbuf *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->data = realloc(b->data, b->cap);
        if (!b->data)
            abort();
    }
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
}

static inline void put_varint(tbuf *b, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;
    do {
        tmp[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    put(b, tmp, n);
}

static inline void set_fixed32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline void put_fixed32(tbuf *b, uint32_t v)
{
    uint8_t tmp[4];
    set_fixed32(tmp, v);
    put(b, tmp, 4);
}

#endif
