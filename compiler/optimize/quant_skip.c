/*
** quant_skip.c: --quantize-skip, the nodes a user keeps float (quant.h).
*/
#include "quant.h"

#include "base/glob.h"

static int matches(const sm2c_quant_skip *k, const char *name, int32_t i)
{
    return name && sm2c_glob_match(k->patterns[i], name);
}

int sm2c_quant_skipped(const sm2c_quant_skip *k, const sm2c_node *n)
{
    int skip = 0;
    for (int32_t i = 0; k && i < k->n; i++) {
        int hit = matches(k, n->name, i);
        for (const sm2c_node *d = n->absorbed; d && !hit; d = d->absorbed)
            hit = matches(k, d->name, i);
        if (hit && k->used)
            k->used[i] = 1;
        skip |= hit;
    }
    return skip;
}
