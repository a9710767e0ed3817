/*
** keywords.c: C and C++ keywords (keywords.h).
*/
#include "keywords.h"

#include <stddef.h>
#include <string.h>

static const char *const keywords[] = {
    /* C */
    "alignas", "alignof", "asm", "auto", "bool", "break", "case", "char", "const", "constexpr",
    "continue", "default", "do", "double", "else", "enum", "extern", "false", "float", "for",
    "fortran", "goto", "if", "inline", "int", "long", "nullptr", "register", "restrict",
    "return", "short", "signed", "sizeof", "static", "static_assert", "struct", "switch",
    "thread_local", "true", "typedef", "typeof", "typeof_unqual", "union", "unsigned", "void",
    "volatile", "while",
    /* C++ only */
    "and", "and_eq", "bitand", "bitor", "catch", "char16_t", "char32_t", "char8_t", "class",
    "co_await", "co_return", "co_yield", "compl", "concept", "const_cast", "consteval",
    "constinit", "decltype", "delete", "dynamic_cast", "explicit", "export", "friend",
    "mutable", "namespace", "new", "noexcept", "not", "not_eq", "operator", "or", "or_eq",
    "private", "protected", "public", "reinterpret_cast", "requires", "static_cast",
    "template", "this", "throw", "try", "typeid", "typename", "using", "virtual", "wchar_t",
    "xor", "xor_eq",
    NULL,
};

int sm2c_is_keyword(const char *s)
{
    for (size_t i = 0; keywords[i]; i++)
        if (strcmp(keywords[i], s) == 0)
            return 1;
    return 0;
}
