/*
** strmap.h: string -> pointer map in an arena (open addressing).  Never
** iterated, so its order cannot leak into output.
*/
#ifndef SM2C_STRMAP_H
#define SM2C_STRMAP_H

#include <stddef.h>

#include "arena.h"

typedef struct sm2c_strmap sm2c_strmap;

sm2c_strmap *sm2c_strmap_new(sm2c_arena *a, size_t expected);
/* Insert; returns the value already stored under `key` (and keeps it), or
** NULL when the key was new.  The key is not copied. */
void *sm2c_strmap_put(sm2c_strmap *m, const char *key, void *value);
void *sm2c_strmap_get(const sm2c_strmap *m, const char *key);
size_t sm2c_strmap_count(const sm2c_strmap *m);

#endif
