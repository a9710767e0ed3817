/*
** fuzz_identifier_sanitize.c (docs/reliability.md section 8, target 15; section 6
** rule 12): arbitrary byte strings (NUL-separated names) -> the identifiers
** and comment text the C backend makes of model names.
** Oracle: every identifier matches [A-Za-z_][A-Za-z0-9_]*, is unique in its
** name set, is not a C keyword and not reserved (leading '_', "__", "_t"
** suffix); comment text is printable ASCII with no "*" "/" pair, no newline
** and no "??" (trigraphs).
*/
#include "codegen/c_text.h"
#include "fuzz_common.h"
#include "codegen/mangle.h"
#include "driver/pipeline.h"

/* C89 to C23 keywords, written out again so the oracle does not trust mangle.c. */
static const char *const keywords[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "alignas", "alignof", "bool", "constexpr",
    "false", "nullptr", "static_assert", "thread_local", "true", "typeof", "typeof_unqual", NULL,
};

static int ascii_ident(const char *s)
{
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return 0;
    return 1;
}

/* sm2c_c_ident makes a name that is a part of identifiers (prefix, entry). */
static void check_part(const char *id, const char *what)
{
    FUZZ_CHECK(ascii_ident(id), "%s '%s' is not an identifier", what, id);
    FUZZ_CHECK(id[0] != '_' && !strstr(id, "__"), "%s '%s' is reserved", what, id);
}

static void check_usable(const char *id, const char *what)
{
    size_t n = strlen(id);
    check_part(id, what);
    FUZZ_CHECK(!(n >= 2 && id[n - 2] == '_' && id[n - 1] == 't'), "%s '%s' ends in _t", what, id);
    for (size_t i = 0; keywords[i]; i++)
        FUZZ_CHECK(strcmp(id, keywords[i]) != 0, "%s '%s' is a keyword", what, id);
}

static void check_comment(const char *name)
{
    char text[SM2C_C_COMMENT_CAP];
    sm2c_c_comment_text(text, name);
    FUZZ_CHECK(strlen(text) < sizeof text, "comment overflow");
    for (const char *p = text; *p; p++) {
        FUZZ_CHECK(*p >= 0x20 && *p <= 0x7e, "comment byte 0x%02x", (unsigned char)*p);
        FUZZ_CHECK(!(p[0] == '*' && p[1] == '/') && !(p[0] == '/' && p[1] == '*'),
                   "comment delimiter in '%s'", text);
        FUZZ_CHECK(!(p[0] == '?' && p[1] == '?'), "trigraph start in '%s'", text);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_ctx f;
    fuzz_begin(&f);
    /* NUL-terminated names, as the model's strings are. */
    char *all = sm2c_arena_alloc(f.arena, size + 1);
    memcpy(all, data, size);
    sm2c_nameset set, seen;
    sm2c_nameset_init(&set, f.arena);
    sm2c_nameset_init(&seen, f.arena);
    for (char *name = all; name <= all + size; name += strlen(name) + 1) {
        int case_ = name[0] ? (unsigned char)name[0] % 3 - 1 : 0;
        const char *s = sm2c_mangle_sanitize(f.arena, name, case_, SM2C_MANGLE_MAX);
        FUZZ_CHECK(s[0] && strlen(s) <= SM2C_MANGLE_MAX, "sanitized to '%s'", s);
        for (const char *p = s; *p; p++)
            FUZZ_CHECK(ascii_ident("a") && (ascii_ident((char[]){ 'a', *p, 0 })),
                       "sanitized '%s' holds 0x%02x", s, (unsigned char)*p);
        const char *u = sm2c_mangle_unique(&set, s, "x_");
        check_usable(u, "unique name");
        FUZZ_CHECK(sm2c_nameset_add(&seen, u), "'%s' returned twice", u);
        FUZZ_CHECK(!sm2c_mangle_is_bad(u), "'%s' is bad by mangle.c's own test", u);
        check_part(sm2c_c_ident(f.arena, name), "c_ident");
        check_comment(name);
    }
    fuzz_end(&f, SM2C_OK);
    return 0;
}
