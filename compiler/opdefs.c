/*
** opdefs.c: the op table built from ops.def.
*/
#include "opdefs.h"

#include <stdlib.h>
#include <string.h>

static const sm2c_opdef table[] = {
#define OP(name, n_inputs, outputs, shape, lower) { #name, n_inputs, outputs, shape, lower },
#include "ops.def"
#undef OP
};

#define N_OPS (sizeof table / sizeof table[0])

const sm2c_opdef *sm2c_opdef_find(const char *name)
{
    for (size_t i = 0; i < N_OPS; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

size_t sm2c_opdef_count(void)
{
    return N_OPS;
}

const sm2c_opdef *sm2c_opdef_at(size_t i)
{
    return i < N_OPS ? &table[i] : NULL;
}

int32_t sm2c_opdef_output_index(const sm2c_opdef *op, const char *arg, int32_t idx)
{
    const char *p = op->outputs;
    size_t len = strlen(arg);
    for (int32_t k = 0; *p; k++) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == len && memcmp(p, arg, len) == 0)
            return idx == 0 ? k : -1;  /* every listed arg is a single tensor */
        if (!e)
            break;
        p = e + 1;
    }
    return -1;
}
