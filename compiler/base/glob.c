/*
** glob.c: shell-style name patterns (glob.h).  Iterative, with one
** backtrack point (the last '*'): linear in practice, and no recursion a long
** name could deepen.
*/
#include "glob.h"

#include <stddef.h>

int sm2c_glob_match(const char *pattern, const char *s)
{
    const char *star = NULL, *resume = NULL;
    while (*s) {
        if (*pattern == '*') {
            star = ++pattern;   /* try the star empty first */
            resume = s;
        } else if (*pattern == '?' || *pattern == *s) {
            pattern++, s++;
        } else if (star) {
            pattern = star;     /* let the last star take one more character */
            s = ++resume;
        } else {
            return 0;
        }
    }
    while (*pattern == '*')
        pattern++;
    return *pattern == '\0';
}
