/*
** placement.c: the memory classes --section names, and which names it takes.
*/
#include "placement.h"

#include <stdio.h>
#include <string.h>

static const char *const class_names[SM2C_SECTION_N] = { "weights", "arena", "fast-arena", "state" };

const char *sm2c_section_class_name(sm2c_section_class k)
{
    return k >= 0 && k < SM2C_SECTION_N ? class_names[k] : "?";
}

int sm2c_section_class_parse(const char *s, size_t n)
{
    for (int k = 0; k < SM2C_SECTION_N; k++)
        if (strlen(class_names[k]) == n && !strncmp(class_names[k], s, n))
            return k;
    return -1;
}

const char *sm2c_section_name_problem(const char *name)
{
    size_t n = strlen(name);
    if (n == 0)
        return "an empty section name";
    if (n > SM2C_SECTION_NAME_MAX)
        return "a section name longer than 128 characters";
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
              *p == '_'))
            return "a section name takes only letters, digits, '.' and '_'";
    return NULL;
}

const char *sm2c_placement_problem(const sm2c_placement *pl, char *buf, size_t size)
{
    for (int k = 0; k < SM2C_SECTION_N; k++) {
        const char *why = pl->section[k] ? sm2c_section_name_problem(pl->section[k]) : NULL;
        if (why) {
            snprintf(buf, size, "--section %s: %s", class_names[k], why);
            return buf;
        }
        if (k != SM2C_SECTION_WEIGHTS && pl->section[k] && pl->section[SM2C_SECTION_WEIGHTS] &&
            !strcmp(pl->section[k], pl->section[SM2C_SECTION_WEIGHTS])) {
            snprintf(buf, size, "--section %s: '%s' is the weights' section too, and the weights are read-only "
                     "where the %s is written (name another section)", class_names[k], pl->section[k],
                     class_names[k]);
            return buf;
        }
    }
    if (pl->fast_arena < 0)
        return snprintf(buf, size, "--fast-arena: a negative size"), buf;
    if (pl->section[SM2C_SECTION_FAST_ARENA] && !pl->fast_arena)
        return snprintf(buf, size, "--section fast-arena needs --fast-arena BYTES"), buf;
    return NULL;
}

int sm2c_placement_any_section(const sm2c_placement *pl)
{
    for (int k = 0; k < SM2C_SECTION_N; k++)
        if (pl->section[k])
            return 1;
    return 0;
}
