/*
** attrs.c: a node's attrs, with the op table's default for those TF2 files strip.
*/
#include "opdefs.h"

#include <string.h>

#include "load/varmap.h"

/* The node's attr, else the op table's default (TF2 files strip defaults). */
const Tensorflow__AttrValue *sm2c_attr(const sm2c_node *n, const char *name)
{
    const Tensorflow__AttrValue *v = n->def ? sm2c_node_attr(n->def, name) : NULL;
    return v ? v : sm2c_opdef_default(n->op, name);
}

int sm2c_attr_int(const sm2c_node *n, const char *name, int64_t *out)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_I)
        return 0;
    *out = v->i;
    return 1;
}

int64_t sm2c_attr_i(const sm2c_node *n, const char *name)
{
    int64_t v;
    return sm2c_attr_int(n, name, &v) ? v : 0;
}

int sm2c_attr_flag(const sm2c_node *n, const char *name)
{
    int v;
    return sm2c_attr_bool(n, name, &v) ? v : 0;
}

int sm2c_attr_float(const sm2c_node *n, const char *name, float *out)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_F)
        return 0;
    *out = v->f;
    return 1;
}

int sm2c_attr_bool(const sm2c_node *n, const char *name, int *out)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_B)
        return 0;
    *out = v->b != 0;
    return 1;
}

int sm2c_attr_str_is(const sm2c_node *n, const char *name, const char *s)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_S)
        return 0;
    size_t len = strlen(s);
    return v->s.len == len && memcmp(v->s.data, s, len) == 0;
}

const char *sm2c_attr_str(sm2c_ctx *c, const sm2c_node *n, const char *name)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_S)
        return NULL;
    return sm2c_arena_strndup(c->arena, (const char *)v->s.data, v->s.len);
}

int sm2c_attr_ints(const sm2c_node *n, const char *name, const int64_t **vals, size_t *count)
{
    const Tensorflow__AttrValue *v = sm2c_attr(n, name);
    if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !v->list)
        return 0;
    *vals = v->list->i;
    *count = v->list->n_i;
    return 1;
}
