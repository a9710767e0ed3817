/*
** structured.c: StructuredValue (tf.function input signatures) as short,
** Python-like text for `sm2c inspect`.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_proto.h"
#include "varmap_internal.h"

#define MAX_DEPTH 32
#define MAX_TEXT 4096

typedef struct out {
    sm2c_ctx *c;
    char buf[MAX_TEXT];
    size_t len;
} out;

static void put(out *o, const char *s)
{
    size_t n = strlen(s);
    if (o->len + n >= MAX_TEXT - 4) {
        n = o->len < MAX_TEXT - 4 ? MAX_TEXT - 4 - o->len : 0;
        memcpy(o->buf + o->len, s, n);
        o->len += n;
        strcpy(o->buf + o->len, "...");
        o->len += 3;
        return;
    }
    memcpy(o->buf + o->len, s, n + 1);
    o->len += n;
}

static void render(out *o, const Tensorflow__StructuredValue *v, int depth);

static void shape(out *o, const Tensorflow__TensorShapeProto *p)
{
    if (!p || p->unknown_rank) {
        put(o, "<unknown rank>");
        return;
    }
    put(o, "[");
    for (size_t i = 0; i < p->n_dim; i++) {
        char num[32];
        snprintf(num, sizeof num, "%s%lld", i ? "," : "", (long long)p->dim[i]->size);
        put(o, num);
    }
    put(o, "]");
}

static void spec(out *o, const char *name, int dtype, const Tensorflow__TensorShapeProto *p)
{
    if (name && name[0]) {
        put(o, name);
        put(o, ": ");
    }
    put(o, sm2c_dtype_name(dtype));
    shape(o, p);
}

static void seq(out *o, Tensorflow__StructuredValue **vals, size_t n, const char *open,
                const char *close, int depth)
{
    put(o, open);
    for (size_t i = 0; i < n; i++) {
        if (i)
            put(o, ", ");
        render(o, vals[i], depth + 1);
    }
    if (n == 1 && strcmp(open, "(") == 0)
        put(o, ",");
    put(o, close);
}

static int cmp_field(const void *a, const void *b)
{
    const Tensorflow__DictValue__FieldsEntry *const *x = a, *const *y = b;
    return strcmp((*x)->key, (*y)->key);
}

static void dict(out *o, const Tensorflow__DictValue *d, int depth)
{
    Tensorflow__DictValue__FieldsEntry **f = malloc((d->n_fields + 1) * sizeof *f);
    if (!f)
        return;
    if (d->n_fields)
        memcpy(f, d->fields, d->n_fields * sizeof *f);
    qsort(f, d->n_fields, sizeof *f, cmp_field);
    put(o, "{");
    for (size_t i = 0; i < d->n_fields; i++) {
        put(o, i ? ", " : "");
        put(o, f[i]->key);
        put(o, ": ");
        const Tensorflow__StructuredValue *v = f[i]->value;
        /* A spec named like its key would print the name twice ("x: x: float32[]"). */
        if (v && v->kind_case == TENSORFLOW__STRUCTURED_VALUE__KIND_TENSOR_SPEC_VALUE &&
            strcmp(v->tensor_spec_value->name, f[i]->key) == 0)
            spec(o, NULL, (int)v->tensor_spec_value->dtype, v->tensor_spec_value->shape);
        else
            render(o, v, depth + 1);
    }
    put(o, "}");
    free(f);
}

static void scalar(out *o, const Tensorflow__StructuredValue *v)
{
    char num[64];
    switch (v->kind_case) {
    case TENSORFLOW__STRUCTURED_VALUE__KIND_FLOAT64_VALUE:
        snprintf(num, sizeof num, "%.17g", v->float64_value);
        put(o, num);
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_INT64_VALUE:
        snprintf(num, sizeof num, "%lld", (long long)v->int64_value);
        put(o, num);
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_STRING_VALUE:
        put(o, "'");
        put(o, v->string_value);
        put(o, "'");
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_BOOL_VALUE:
        put(o, v->bool_value ? "True" : "False");
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_TENSOR_DTYPE_VALUE:
        put(o, sm2c_dtype_name((int)v->tensor_dtype_value));
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_TENSOR_SHAPE_VALUE:
        shape(o, v->tensor_shape_value);
        break;
    default:
        put(o, "None");
    }
}

static void render(out *o, const Tensorflow__StructuredValue *v, int depth)
{
    if (!v || depth > MAX_DEPTH) {
        put(o, "...");
        return;
    }
    switch (v->kind_case) {
    case TENSORFLOW__STRUCTURED_VALUE__KIND_TENSOR_SPEC_VALUE:
        spec(o, v->tensor_spec_value->name, (int)v->tensor_spec_value->dtype,
             v->tensor_spec_value->shape);
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_BOUNDED_TENSOR_SPEC_VALUE:
        spec(o, v->bounded_tensor_spec_value->name, (int)v->bounded_tensor_spec_value->dtype,
             v->bounded_tensor_spec_value->shape);
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_TYPE_SPEC_VALUE:
        put(o, "<");
        put(o, v->type_spec_value->type_spec_class_name[0] ? v->type_spec_value->type_spec_class_name
                                                           : "TypeSpec");
        put(o, ">");
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_LIST_VALUE:
        seq(o, v->list_value->values, v->list_value->n_values, "[", "]", depth);
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_TUPLE_VALUE:
        seq(o, v->tuple_value->values, v->tuple_value->n_values, "(", ")", depth);
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_DICT_VALUE:
        dict(o, v->dict_value, depth);
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_NAMED_TUPLE_VALUE:
        put(o, v->named_tuple_value->name);
        put(o, "(...)");
        break;
    case TENSORFLOW__STRUCTURED_VALUE__KIND_TENSOR_VALUE:
    case TENSORFLOW__STRUCTURED_VALUE__KIND_NUMPY_VALUE:
        put(o, "<tensor>");
        break;
    default:
        scalar(o, v);
    }
}

const char *sm2c_structured_str(sm2c_ctx *c, const Tensorflow__StructuredValue *v)
{
    out *o = calloc(1, sizeof *o);
    if (!o)
        return "";
    o->c = c;
    render(o, v, 0);
    const char *s = sm2c_arena_strdup(c->arena, o->buf);
    free(o);
    return s;
}
