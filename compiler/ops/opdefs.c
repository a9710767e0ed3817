/*
** opdefs.c: the op table built from ops.def.
*/
#include "opdefs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tensor.h"

/* The dtype names of the dtypes column of ops.def. */
#define DT(d) (UINT64_C(1) << SM2C_DT_##d)
#define F32 DT(FLOAT)
#define F64 DT(DOUBLE)
#define F16 DT(HALF)
#define BF16 DT(BFLOAT16)
#define I8 DT(INT8)
#define I16 DT(INT16)
#define I32 DT(INT32)
#define I64 DT(INT64)
#define U8 DT(UINT8)
#define U16 DT(UINT16)
#define U32 DT(UINT32)
#define U64 DT(UINT64)
#define BOOL DT(BOOL)
#define STR DT(STRING)
#define C64 DT(COMPLEX64)
#define ANY (F32 | F64 | F16 | BF16 | I8 | I16 | I32 | I64 | U8 | U16 | U32 | U64 | BOOL)

/* The names of the props column: SM2C_OPF_* flags in the low 32 bits, the
** SM2C_Q8_* kind above them. */
#define ELEMENTWISE SM2C_OPF_ELEMENTWISE
#define ROWWISE SM2C_OPF_ROWWISE
#define WRITES_STATE SM2C_OPF_WRITES_STATE
#define SIDE_EFFECT SM2C_OPF_SIDE_EFFECT
#define Q8(kind) ((uint64_t)SM2C_Q8_##kind << 32)

static const sm2c_opdef table[] = {
#define OP(name, n_inputs, outputs, defaults, shape, lower, dtypes, props) \
    { #name, n_inputs, outputs, defaults, shape, lower, dtypes, (uint32_t)(props), (uint32_t)((uint64_t)(props) >> 32) },
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

int sm2c_opdef_has_dtype(const sm2c_opdef *op, int dtype)
{
    return dtype > 0 && dtype < 64 && (op->dtypes >> dtype & 1);
}

size_t sm2c_opdef_count(void)
{
    return N_OPS;
}

int sm2c_opdef_in_table(const sm2c_opdef *op)
{
    return (uintptr_t)op >= (uintptr_t)table && (uintptr_t)op < (uintptr_t)(table + N_OPS);
}

size_t sm2c_opdef_index(const sm2c_opdef *op)
{
    return (size_t)(op - table);
}

int sm2c_op_writes_state(const sm2c_opdef *op)
{
    return (op->flags & SM2C_OPF_WRITES_STATE) != 0;
}

int sm2c_op_has_side_effect(const sm2c_opdef *op)
{
    return (op->flags & (SM2C_OPF_WRITES_STATE | SM2C_OPF_SIDE_EFFECT)) != 0;
}

const sm2c_opdef *sm2c_opdef_at(size_t i)
{
    return i < N_OPS ? &table[i] : NULL;
}

/* The length of list output arg "name*attr" of nd: attr's int value, or the
** length of its list(type) value; -1 when absent or out of [0, MAX_LIST]. */
static int32_t list_len(const Tensorflow__NodeDef *nd, const char *attr, size_t attr_len)
{
    for (size_t i = 0; nd && i < nd->n_attr; i++) {
        const Tensorflow__AttrValue *v = nd->attr[i]->value;
        if (strlen(nd->attr[i]->key) != attr_len || memcmp(nd->attr[i]->key, attr, attr_len) != 0 || !v)
            continue;
        if (v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_I)
            return v->i >= 0 && v->i <= SM2C_OPDEF_MAX_LIST ? (int32_t)v->i : -1;
        if (v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_LIST && v->list)
            return v->list->n_type <= SM2C_OPDEF_MAX_LIST ? (int32_t)v->list->n_type : -1;
        return -1;
    }
    return -1;
}

/* Walks the output args of op for node nd: the flat index of arg `arg`
** element idx (arg NULL: the total count); -1 when unknown. */
static int32_t walk_outputs(const sm2c_opdef *op, const Tensorflow__NodeDef *nd, const char *arg, int32_t idx)
{
    int32_t flat = 0;
    for (const char *p = op->outputs; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *star = memchr(p, '*', n);
        size_t name_len = star ? (size_t)(star - p) : n;
        int32_t len = star ? list_len(nd, star + 1, n - name_len - 1) : 1;
        if (len < 0)
            return -1;
        if (arg && strlen(arg) == name_len && memcmp(p, arg, name_len) == 0)
            return idx >= 0 && idx < len ? flat + idx : -1;
        flat += len;
        if (!e)
            break;
        p = e + 1;
    }
    return arg ? -1 : flat;
}

int32_t sm2c_opdef_output_count(const sm2c_opdef *op, const Tensorflow__NodeDef *nd)
{
    const char *star = strchr(op->outputs, '*');
    if (!star) {
        int32_t n = op->outputs[0] ? 1 : 0;
        for (const char *p = op->outputs; *p; p++)
            n += *p == ',';
        return n;
    }
    if (strchr(op->outputs, ',')) {
        /* Several args, some lists ("a*Nlen,b*Tlist,..."): the sum of their lengths. */
        int32_t n = walk_outputs(op, nd, NULL, 0);
        return n >= 1 && n <= SM2C_OPDEF_MAX_LIST ? n : -1;
    }
    /* "output*num": one list arg whose length is the int attr `num` (Unpack, Split). */
    for (size_t i = 0; nd && i < nd->n_attr; i++) {
        const Tensorflow__AttrValue *v = nd->attr[i]->value;
        if (strcmp(nd->attr[i]->key, star + 1) == 0 && v &&
            v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_I)
            return v->i >= 1 && v->i <= SM2C_OPDEF_MAX_LIST ? (int32_t)v->i : -1;
    }
    return -1;
}

int32_t sm2c_opdef_output_index_of(const sm2c_opdef *op, const Tensorflow__NodeDef *nd, const char *arg,
                                   int32_t idx)
{
    if (!strchr(op->outputs, '*') || !strchr(op->outputs, ','))
        return sm2c_opdef_output_index(op, arg, idx);
    return walk_outputs(op, nd, arg, idx);
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

/* ---- attr defaults -------------------------------------------------------------- */

/* Parsed defaults live for the whole process: they are constants of the table. */
typedef struct parsed {
    char name[48];
    Tensorflow__AttrValue value;
    Tensorflow__AttrValue__ListValue list;
    int64_t ints[8];
    char text[16];
} parsed;

static void parse_value(parsed *d, const char *v, size_t n)
{
    tensorflow__attr_value__init(&d->value);
    if ((n == 4 && !memcmp(v, "true", 4)) || (n == 5 && !memcmp(v, "false", 5))) {
        d->value.value_case = TENSORFLOW__ATTR_VALUE__VALUE_B;
        d->value.b = n == 4;
    } else if (v[0] == '[') {
        tensorflow__attr_value__list_value__init(&d->list);
        for (const char *p = v + 1; p < v + n && *p != ']' && d->list.n_i < 8;) {
            d->ints[d->list.n_i++] = strtoll(p, (char **)&p, 10);
            p += *p == ',';
        }
        d->list.i = d->ints;
        d->value.value_case = TENSORFLOW__ATTR_VALUE__VALUE_LIST;
        d->value.list = &d->list;
    } else if (n > 3 && !memcmp(v, "DT_", 3)) {
        d->value.value_case = TENSORFLOW__ATTR_VALUE__VALUE_TYPE;
        /* DT_INT32 unless one of these (the dtype defaults ops.def uses). */
        static const struct { const char *name; Tensorflow__DataType type; } types[] = {
            { "DT_INT64", TENSORFLOW__DATA_TYPE__DT_INT64 }, { "DT_FLOAT", TENSORFLOW__DATA_TYPE__DT_FLOAT },
            { "DT_DOUBLE", TENSORFLOW__DATA_TYPE__DT_DOUBLE }, { "DT_UINT64", TENSORFLOW__DATA_TYPE__DT_UINT64 },
        };
        d->value.type = TENSORFLOW__DATA_TYPE__DT_INT32;
        for (size_t k = 0; k < sizeof types / sizeof *types; k++)
            if (n == strlen(types[k].name) && !memcmp(v, types[k].name, n))
                d->value.type = types[k].type;
    } else if ((v[0] >= '0' && v[0] <= '9') || v[0] == '-') {
        int is_float = memchr(v, '.', n) != NULL;
        d->value.value_case = is_float ? TENSORFLOW__ATTR_VALUE__VALUE_F : TENSORFLOW__ATTR_VALUE__VALUE_I;
        if (is_float)
            d->value.f = strtof(v, NULL);
        else
            d->value.i = strtoll(v, NULL, 10);
    } else {
        snprintf(d->text, sizeof d->text, "%.*s", (int)n, v);
        d->value.value_case = TENSORFLOW__ATTR_VALUE__VALUE_S;
        d->value.s.data = (uint8_t *)d->text;
        d->value.s.len = strlen(d->text);
    }
}

const Tensorflow__AttrValue *sm2c_opdef_default(const sm2c_opdef *op, const char *name)
{
    static parsed cache[N_OPS][8];
    static unsigned char count[N_OPS], done[N_OPS];
    if (!sm2c_opdef_in_table(op))
        return NULL;  /* an internal op (cflow.c, tlist.c): no defaults */
    size_t i = (size_t)(op - table);
    if (!done[i]) {
        done[i] = 1;
        for (const char *p = op->defaults; *p && count[i] < 8;) {
            const char *eq = strchr(p, '='), *end = strchr(p, ' ');
            if (!end)
                end = p + strlen(p);
            if (!eq || eq > end)
                break;
            parsed *d = &cache[i][count[i]++];
            snprintf(d->name, sizeof d->name, "%.*s", (int)(eq - p), p);
            parse_value(d, eq + 1, (size_t)(end - eq - 1));
            p = *end ? end + 1 : end;
        }
    }
    for (unsigned k = 0; k < count[i]; k++)
        if (strcmp(cache[i][k].name, name) == 0)
            return &cache[i][k].value;
    return NULL;
}
