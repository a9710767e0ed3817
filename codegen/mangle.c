/*
** mangle.c: sanitized, collision-checked C identifiers.
*/
#include "mangle.h"

#include <stdint.h>
#include <string.h>

#include "base/keywords.h"

char *sm2c_mangle_sanitize(sm2c_arena *a, const char *s, int case_, size_t max)
{
    size_t n = strlen(s);
    char *out = sm2c_arena_alloc(a, (n < max ? n : max) + 2);
    size_t k = 0;
    for (size_t i = 0; s[i] && k < max; i++) {
        unsigned char ch = (unsigned char)s[i];
        char c;
        if (ch >= 'a' && ch <= 'z')
            c = (char)(case_ > 0 ? ch - 'a' + 'A' : ch);
        else if (ch >= 'A' && ch <= 'Z')
            c = (char)(case_ < 0 ? ch - 'A' + 'a' : ch);
        else if (ch >= '0' && ch <= '9')
            c = (char)ch;
        else
            c = '_';
        if (c == '_' && k > 0 && out[k - 1] == '_')
            continue;           /* no "__": reserved in C++, which reads the header */
        out[k++] = c;
    }
    if (k == 0)
        out[k++] = '_';
    out[k] = 0;
    return out;
}

static int is_alpha_(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

int sm2c_mangle_is_ident(const char *s)
{
    if (!s || !is_alpha_((unsigned char)s[0]))
        return 0;
    for (const char *p = s + 1; *p; p++)
        if (!is_alpha_((unsigned char)*p) && !(*p >= '0' && *p <= '9'))
            return 0;
    return 1;
}

/* Lowercase object-like macros and identifiers of the headers generated code
** includes (stdint.h, stddef.h, string.h, math.h), and names that are macros
** in common C libraries. */
static const char *const std_names[] = {
    "errno", "math_errhandling", "offsetof", "main", "complex", "imaginary", "noreturn",
    "static_assert", "assert", NULL,
};

static int in_list(const char *const *list, const char *s)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

int sm2c_mangle_is_keyword(const char *s)
{
    return sm2c_is_keyword(s);
}

int sm2c_mangle_is_bad(const char *s)
{
    size_t n = strlen(s);
    if (!sm2c_mangle_is_ident(s) || s[0] == '_' || strstr(s, "__"))
        return 1;
    if (n >= 2 && s[n - 2] == '_' && s[n - 1] == 't')
        return 1;
    return sm2c_mangle_is_keyword(s) || in_list(std_names, s);
}

void sm2c_nameset_init(sm2c_nameset *s, sm2c_arena *a)
{
    sm2c_nameset_init_in(s, a, NULL);
}

void sm2c_nameset_init_in(sm2c_nameset *s, sm2c_arena *a, const sm2c_nameset *parent)
{
    s->arena = a;
    s->map = sm2c_strmap_new(a, 64);
    s->next = sm2c_strmap_new(a, 16);
    s->parent = parent;
}

int sm2c_nameset_has(const sm2c_nameset *s, const char *name)
{
    for (; s; s = s->parent)
        if (sm2c_strmap_get(s->map, name) != NULL)
            return 1;
    return 0;
}

int sm2c_nameset_add(sm2c_nameset *s, const char *name)
{
    if (sm2c_nameset_has(s, name))
        return 0;
    char *copy = sm2c_arena_strdup(s->arena, name);
    sm2c_strmap_put(s->map, copy, copy);
    return 1;
}

/* Make a sanitized name usable: no leading '_' or digit, no keyword, no "_t" end. */
static const char *fix(sm2c_arena *a, const char *base, const char *prefix)
{
    const char *b = base;
    if (!sm2c_mangle_is_ident(b) || b[0] == '_' || sm2c_mangle_is_keyword(b) ||
        in_list(std_names, b))
        b = sm2c_arena_printf(a, "%s%s", prefix, b[0] == '_' ? b + 1 : b);
    size_t n = strlen(b);
    if (n >= 2 && b[n - 2] == '_' && b[n - 1] == 't')
        b = sm2c_arena_printf(a, "%s_", b);
    return b;
}

const char *sm2c_mangle_unique(sm2c_nameset *s, const char *base, const char *prefix)
{
    const char *b = fix(s->arena, sm2c_mangle_sanitize(s->arena, base, 0, (size_t)-1), prefix);
    size_t n = strlen(b);
    const char *sep = n && b[n - 1] == '_' ? "" : "_";
    const char *cand = b;
    /* Names are never removed, so the suffixes tried before for this base
    ** are still taken: start after them. */
    intptr_t *next = sm2c_strmap_get(s->next, b);
    intptr_t i = next ? *next : 2;
    if (next)
        cand = sm2c_arena_printf(s->arena, "%s%s%ld", b, sep, (long)i++);
    while (sm2c_mangle_is_bad(cand) || sm2c_nameset_has(s, cand))
        cand = sm2c_arena_printf(s->arena, "%s%s%ld", b, sep, (long)i++);
    if (!next) {
        next = sm2c_arena_alloc(s->arena, sizeof *next);
        sm2c_strmap_put(s->next, sm2c_arena_strdup(s->arena, b), next);
    }
    *next = i;
    sm2c_nameset_add(s, cand);
    return sm2c_strmap_get(s->map, cand);
}
