/*
** regex_byteset.h: the regular expressions sm2c compiles for
** StaticRegexReplace (ops_text.c), compiled at compile time into a table.
**
** A supported pattern (RE2 syntax) is one atom that matches exactly one byte,
** optionally followed by `+`: an ASCII literal, an escaped character
** (`\.`, `\n`, `\t`, ...), a class shorthand (`\d`, `\s`, `\w`), or a class
** `[...]` of those and ranges of them (TextVectorization's punctuation class
** `[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']` is one).  Its matches are then
** runs of bytes of one set: the automaton is two states, whose transitions are
** the 256-bit table this builds (the generated code holds it as 8 words), so
** RE2's leftmost-first and the run's greedy match are the same thing.
** Everything else (alternation, groups, `*`, `?`, repetition counts, `.`,
** negated classes, anchors, flags, non-ASCII bytes, which in RE2's UTF-8 mode
** match characters of several bytes) is refused with what it was.
*/
#ifndef SM2C_REGEX_BYTESET_H
#define SM2C_REGEX_BYTESET_H

#include <stddef.h>
#include <stdint.h>

typedef struct sm2c_regex_byteset {
    uint32_t bits[8];   /* bit b % 32 of word b / 32: byte b matches */
    int plus;           /* a match is the longest run of such bytes, else one byte */
} sm2c_regex_byteset;

/* 1 when pattern compiles into *out; else 0 with *why saying what is not
** supported (a static string). */
int sm2c_regex_byteset_compile(const uint8_t *pattern, size_t len, sm2c_regex_byteset *out, const char **why);

#endif
