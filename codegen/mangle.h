/*
** mangle.h: C identifiers from model names, checked for collisions.
**
** Every identifier the backends emit is a fixed prefix plus a sanitized,
** length-capped name: [A-Za-z0-9_] only, never a C keyword, never reserved
** (`_[A-Z]`, `__`, a leading `_`, a trailing `_t`), and unique within its
** name set (docs/reliability.md section 6 rule 12).  Names never become file names.
*/
#ifndef SM2C_MANGLE_H
#define SM2C_MANGLE_H

#include <stddef.h>

#include "base/arena.h"
#include "base/strmap.h"

#define SM2C_MANGLE_MAX 64      /* bytes kept from a model name */

/* `s` with every byte outside [A-Za-z0-9_] replaced by '_', upper- or
** lowercased (case 1 upper, -1 lower, 0 kept), cut to `max` bytes; "_" for "". */
char *sm2c_mangle_sanitize(sm2c_arena *a, const char *s, int case_, size_t max);

/* 1 when `s` matches [A-Za-z_][A-Za-z0-9_]*. */
int sm2c_mangle_is_ident(const char *s);

/* 1 for C and C++ keywords (base/keywords.h: headers are read by C++ too). */
int sm2c_mangle_is_keyword(const char *s);

/* 1 when `s` may not be used as an ordinary identifier in generated code: not
** an identifier, a keyword, reserved (leading `_`, any `__`), ending in `_t`
** (POSIX typedef namespace) or a lowercase macro of the standard headers
** generated code includes. */
int sm2c_mangle_is_bad(const char *s);

/* A set of names taken in one scope, within the names of an enclosing one
** (`parent`, which is read, never copied: a scope per entry costs its own
** names only).  `next` remembers, per base, the suffix sm2c_mangle_unique
** reached, so n names from one base take O(n) probes, not O(n^2). */
typedef struct sm2c_nameset {
    sm2c_arena *arena;
    sm2c_strmap *map;
    sm2c_strmap *next;
    const struct sm2c_nameset *parent;
} sm2c_nameset;

void sm2c_nameset_init(sm2c_nameset *s, sm2c_arena *a);
/* An empty scope inside `parent`: names taken there are taken here too. */
void sm2c_nameset_init_in(sm2c_nameset *s, sm2c_arena *a, const sm2c_nameset *parent);
/* Taken here or in an enclosing scope. */
int sm2c_nameset_has(const sm2c_nameset *s, const char *name);
/* Mark `name` taken (copied); returns 0 when it already was. */
int sm2c_nameset_add(sm2c_nameset *s, const char *name);

/* The first of `base`, `base_2`, `base_3`, ... that is not bad and not in
** `s`, added to `s` and returned (in the arena).  A bad `base` is first
** prefixed with `prefix` (e.g. "x_" for "3d" or "int"). */
const char *sm2c_mangle_unique(sm2c_nameset *s, const char *base, const char *prefix);

#endif
