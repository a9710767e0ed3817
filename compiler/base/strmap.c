/*
** strmap.c: FNV-1a hashed, linear probing, grown at 1/2 load.
*/
#include "strmap.h"

#include <stdint.h>
#include <string.h>

typedef struct slot {
    const char *key;
    void *value;
} slot;

struct sm2c_strmap {
    sm2c_arena *arena;
    slot *slots;
    size_t cap, count;
};

static uint64_t hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3u;
    return h;
}

static void grow(sm2c_strmap *m, size_t cap)
{
    slot *old = m->slots;
    size_t oldcap = m->cap;
    m->slots = sm2c_arena_array(m->arena, cap, sizeof(slot));
    m->cap = cap;
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i].key)
            continue;
        size_t j = hash(old[i].key) & (cap - 1);
        while (m->slots[j].key)
            j = (j + 1) & (cap - 1);
        m->slots[j] = old[i];
    }
}

sm2c_strmap *sm2c_strmap_new(sm2c_arena *a, size_t expected)
{
    sm2c_strmap *m = sm2c_arena_alloc(a, sizeof *m);
    m->arena = a;
    size_t cap = 16;
    while (cap < expected * 2)
        cap *= 2;
    grow(m, cap);
    return m;
}

void *sm2c_strmap_put(sm2c_strmap *m, const char *key, void *value)
{
    if ((m->count + 1) * 2 > m->cap)
        grow(m, m->cap * 2);
    size_t j = hash(key) & (m->cap - 1);
    for (; m->slots[j].key; j = (j + 1) & (m->cap - 1))
        if (strcmp(m->slots[j].key, key) == 0)
            return m->slots[j].value;
    m->slots[j].key = key;
    m->slots[j].value = value;
    m->count++;
    return NULL;
}

void *sm2c_strmap_get(const sm2c_strmap *m, const char *key)
{
    size_t j = hash(key) & (m->cap - 1);
    for (; m->slots[j].key; j = (j + 1) & (m->cap - 1))
        if (strcmp(m->slots[j].key, key) == 0)
            return m->slots[j].value;
    return NULL;
}

size_t sm2c_strmap_count(const sm2c_strmap *m)
{
    return m->count;
}
