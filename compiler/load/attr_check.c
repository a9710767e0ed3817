/*
** attr_check.c: attribute values that would cause nonsense or undefined
** behaviour later (reliability.md N5, N6, N8): window sizes and strides,
** padding, data formats, permutations, reshapes, axes, constant indices,
** constant sizes that overflow, quantization ranges, variadic counts, and
** attrs of the wrong type.  Where an input's shape is static (a Const, or a
** Placeholder with a fully known `shape` attr), also convolution and pool
** output sizes, grouped-convolution channel counts and per-axis range counts.
**
** requires: nothing (runs on the raw NodeDefs).  Reports every problem and
** keeps going.  Const inputs are found by name (through Identity) and decoded
** quietly: a broken Const is reported where it is imported, not here.
*/
#include "attr_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_proto.h"

typedef struct chk {
    sm2c_ctx *c;
    const char *display, *function;
    Tensorflow__NodeDef **nodes;
    size_t n;
    size_t *slots, mask;              /* name -> node index + 1, built on first use */
    sm2c_tensor **values;             /* decoded Const values by node index */
    unsigned char *tried;
    const Tensorflow__NodeDef *node;  /* the node being checked */
    const char *where;                /* built on the first error of a node */
    sm2c_status first;
} chk;

typedef enum akind {
    AK_INT, AK_FLOAT, AK_BOOL, AK_STRING, AK_TYPE, AK_SHAPE, AK_TENSOR,
    AK_LIST_INT, AK_LIST_TYPE, AK_LIST_SHAPE, AK_TYPE_OR_LIST
} akind;

static const char *const akind_names[] = {
    "int", "float", "bool", "string", "type", "shape", "tensor",
    "list(int)", "list(type)", "list(shape)", "type or list(type)",
};

typedef struct attr_spec {
    const char *name;
    akind kind;
} attr_spec;

typedef struct op_rule {
    const char *op;
    void (*check)(chk *k);
    const attr_spec *attrs;   /* op-specific types, ahead of `generic_attrs` */
} op_rule;

static const char *str(const char *s)
{
    return s ? s : "";
}

/* ---- reporting -------------------------------------------------------------- */

static const char *where(chk *k)
{
    if (!k->where) {
        const char *name = str(k->node->name), *op = str(k->node->op);
        k->where = k->function
            ? sm2c_arena_printf(k->c->arena, "%s: '%s' (%s)", k->function, name, op)
            : sm2c_arena_printf(k->c->arena, "'%s' (%s)", name, op);
    }
    return k->where;
}

static void report(chk *k, sm2c_status kind, const char *fmt, ...) SM2C_PRINTF(3, 4);

static void report(chk *k, sm2c_status kind, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sm2c_error(k->c->diag, kind, k->display, where(k), "%s", msg);
    if (k->first == SM2C_OK)
        k->first = kind;
}

/* "[1,2,3]", cut after 16 entries so a long list stays one short line. */
static const char *fmt_ints(chk *k, const sm2c_tensor *t)
{
    char buf[400];
    size_t len = 0;
    buf[len++] = '[';
    for (int64_t i = 0; i < t->nelem; i++) {
        if (i == 16) {
            len += (size_t)snprintf(buf + len, sizeof buf - len, ",...");
            break;
        }
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld", i ? "," : "",
                                (long long)sm2c_tensor_get_i64(t, i));
    }
    snprintf(buf + len, sizeof buf - len, "]");
    return sm2c_arena_strdup(k->c->arena, buf);
}

/* ---- attrs ------------------------------------------------------------------ */

static const Tensorflow__AttrValue *find_attr(const Tensorflow__NodeDef *n, const char *name)
{
    for (size_t i = 0; i < n->n_attr; i++)
        if (n->attr[i] && n->attr[i]->key && strcmp(n->attr[i]->key, name) == 0)
            return n->attr[i]->value;
    return NULL;
}

/* The attr when it holds `value_case`; a wrong type was reported already. */
static const Tensorflow__AttrValue *get(chk *k, const char *name, int value_case)
{
    const Tensorflow__AttrValue *v = find_attr(k->node, name);
    return v && (int)v->value_case == value_case ? v : NULL;
}

static int get_int(chk *k, const char *name, int64_t *out)
{
    const Tensorflow__AttrValue *v = get(k, name, TENSORFLOW__ATTR_VALUE__VALUE_I);
    if (v)
        *out = v->i;
    return v != NULL;
}

static int get_float(chk *k, const char *name, float *out)
{
    const Tensorflow__AttrValue *v = get(k, name, TENSORFLOW__ATTR_VALUE__VALUE_F);
    if (v)
        *out = v->f;
    return v != NULL;
}

static const ProtobufCBinaryData *get_str(chk *k, const char *name)
{
    const Tensorflow__AttrValue *v = get(k, name, TENSORFLOW__ATTR_VALUE__VALUE_S);
    return v ? &v->s : NULL;
}

static int str_is(const ProtobufCBinaryData *s, const char *want)
{
    size_t n = strlen(want);
    return s->len == n && memcmp(s->data, want, n) == 0;
}

/* Items per list field; the name of the only non-empty one, or NULL. */
static const char *list_kind(const Tensorflow__AttrValue__ListValue *l, size_t *total)
{
    const size_t counts[] = { l->n_s, l->n_i, l->n_f, l->n_b, l->n_type, l->n_shape,
                              l->n_tensor, l->n_func };
    static const char *const names[] = { "string list", "int list", "float list", "bool list",
                                         "type list", "shape list", "tensor list", "func list" };
    const char *kind = NULL;
    *total = 0;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        if (!counts[i])
            continue;
        kind = *total ? "mixed list" : names[i];
        *total += counts[i];
    }
    return kind;
}

static const char *describe(const Tensorflow__AttrValue *v)
{
    size_t total;
    const char *lk;
    switch (v->value_case) {
    case TENSORFLOW__ATTR_VALUE__VALUE_S: return "string";
    case TENSORFLOW__ATTR_VALUE__VALUE_I: return "int";
    case TENSORFLOW__ATTR_VALUE__VALUE_F: return "float";
    case TENSORFLOW__ATTR_VALUE__VALUE_B: return "bool";
    case TENSORFLOW__ATTR_VALUE__VALUE_TYPE: return "type";
    case TENSORFLOW__ATTR_VALUE__VALUE_SHAPE: return "shape";
    case TENSORFLOW__ATTR_VALUE__VALUE_TENSOR: return "tensor";
    case TENSORFLOW__ATTR_VALUE__VALUE_FUNC: return "func";
    case TENSORFLOW__ATTR_VALUE__VALUE_PLACEHOLDER: return "placeholder";
    case TENSORFLOW__ATTR_VALUE__VALUE_LIST:
        lk = v->list ? list_kind(v->list, &total) : NULL;
        return lk ? lk : "empty list";
    default: return "no value";
    }
}

static int list_matches(const Tensorflow__AttrValue__ListValue *l, akind kind)
{
    size_t total;
    const char *lk = l ? list_kind(l, &total) : NULL;
    if (!lk)   /* an empty list is any list */
        return kind == AK_LIST_INT || kind == AK_LIST_TYPE || kind == AK_LIST_SHAPE ||
               kind == AK_TYPE_OR_LIST;
    return (kind == AK_LIST_INT && l->n_i == total) ||
           (kind == AK_LIST_SHAPE && l->n_shape == total) ||
           ((kind == AK_LIST_TYPE || kind == AK_TYPE_OR_LIST) && l->n_type == total);
}

static int matches(const Tensorflow__AttrValue *v, akind kind)
{
    switch (v->value_case) {
    case TENSORFLOW__ATTR_VALUE__VALUE_PLACEHOLDER: return 1;   /* bound at call time */
    case TENSORFLOW__ATTR_VALUE__VALUE_S: return kind == AK_STRING;
    case TENSORFLOW__ATTR_VALUE__VALUE_I: return kind == AK_INT;
    case TENSORFLOW__ATTR_VALUE__VALUE_F: return kind == AK_FLOAT;
    case TENSORFLOW__ATTR_VALUE__VALUE_B: return kind == AK_BOOL;
    case TENSORFLOW__ATTR_VALUE__VALUE_TYPE: return kind == AK_TYPE || kind == AK_TYPE_OR_LIST;
    case TENSORFLOW__ATTR_VALUE__VALUE_SHAPE: return kind == AK_SHAPE;
    case TENSORFLOW__ATTR_VALUE__VALUE_TENSOR: return kind == AK_TENSOR;
    case TENSORFLOW__ATTR_VALUE__VALUE_LIST: return list_matches(v->list, kind);
    default: return 0;
    }
}

/* Reference dtypes (DT_*_REF = base + 100) only describe the outputs of TF1
** variables; an attr never holds one in a graph TensorFlow wrote (G9). */
static int valid_dtype(int dt)
{
    return sm2c_dtype_known(dt) && sm2c_dtype_base(dt) != SM2C_DT_INVALID && dt < 100;
}

/* A type attr must name a real dtype. */
static void check_dtype_values(chk *k, const char *name, const Tensorflow__AttrValue *v)
{
    if (v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE && !valid_dtype((int)v->type)) {
        report(k, SM2C_ERR_INVALID, "attr '%s' is %s, not a valid dtype%s", name,
               sm2c_dtype_enum_name((int)v->type), v->type >= 100 ? " (reference dtypes are not allowed)" : "");
        return;
    }
    if (v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !v->list)
        return;
    for (size_t i = 0; i < v->list->n_type; i++)
        if (!valid_dtype((int)v->list->type[i])) {
            report(k, SM2C_ERR_INVALID, "attr '%s' entry %zu is %s, not a valid dtype", name, i,
                   sm2c_dtype_enum_name((int)v->list->type[i]));
            return;
        }
}

/* Attr names whose type is the same in every TensorFlow op. */
static const attr_spec generic_attrs[] = {
    { "N", AK_INT }, { "dtype", AK_TYPE }, { "T", AK_TYPE_OR_LIST },
    { "strides", AK_LIST_INT }, { "ksize", AK_LIST_INT }, { "dilations", AK_LIST_INT },
    { "explicit_paddings", AK_LIST_INT }, { "padding", AK_STRING }, { "data_format", AK_STRING },
    { "_output_shapes", AK_LIST_SHAPE }, { "Tidx", AK_TYPE }, { "Tindices", AK_TYPE },
    { "Tparams", AK_TYPE }, { "Taxis", AK_TYPE }, { "Tshape", AK_TYPE }, { "Tperm", AK_TYPE },
    { "Tpaddings", AK_TYPE }, { "Tmultiples", AK_TYPE }, { "SrcT", AK_TYPE },
    { "DstT", AK_TYPE }, { "out_type", AK_TYPE }, { NULL, AK_INT },
};

static const attr_spec *find_spec(const attr_spec *specs, const char *name)
{
    for (; specs && specs->name; specs++)
        if (strcmp(specs->name, name) == 0)
            return specs;
    return NULL;
}

static void check_attr(chk *k, const op_rule *r, const char *name, const Tensorflow__AttrValue *v)
{
    size_t total = 0;
    if (v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_LIST && v->list)
        list_kind(v->list, &total);
    if ((int64_t)total > k->c->limits->list_length)
        report(k, SM2C_ERR_LIMIT, "attr '%s' has %zu entries, over the limit of %lld "
               "(--limit list-length=N)", name, total, (long long)k->c->limits->list_length);
    const attr_spec *s = find_spec(r ? r->attrs : NULL, name);
    if (!s)
        s = find_spec(generic_attrs, name);
    if (!s)
        return;
    if (!matches(v, s->kind))
        report(k, SM2C_ERR_INVALID, "attr '%s': expected %s, got %s", name,
               akind_names[s->kind], describe(v));
    else if (s->kind == AK_TYPE || s->kind == AK_TYPE_OR_LIST || s->kind == AK_LIST_TYPE)
        check_dtype_values(k, name, v);
}

static void check_attr_types(chk *k, const op_rule *r)
{
    for (size_t i = 0; i < k->node->n_attr; i++) {
        const Tensorflow__NodeDef__AttrEntry *e = k->node->attr[i];
        if (e && e->key && e->value)
            check_attr(k, r, e->key, e->value);
    }
}

/* A number attr (N, num, num_split): at least `min`, within the list limit. */
static int number_attr(chk *k, const char *name, int64_t min, int64_t *out)
{
    if (!get_int(k, name, out))
        return 0;
    if (*out < min) {
        report(k, SM2C_ERR_INVALID, "attr '%s' is %lld (must be >= %lld)", name,
               (long long)*out, (long long)min);
        return 0;
    }
    if (*out > k->c->limits->list_length) {
        report(k, SM2C_ERR_LIMIT, "attr '%s' is %lld, over the limit of %lld "
               "(--limit list-length=N)", name, (long long)*out,
               (long long)k->c->limits->list_length);
        return 0;
    }
    return 1;
}

/* ---- inputs and their Const producers --------------------------------------- */

static size_t data_inputs(const Tensorflow__NodeDef *n)
{
    size_t d = 0;
    for (size_t i = 0; i < n->n_input; i++)
        if (n->input[i] && n->input[i][0] != '^')
            d++;
    return d;
}

/* FNV-1a; the table is only looked up, so its order never reaches output. */
static size_t hash_name(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return (size_t)(h ^ (h >> 29));
}

static void build_names(chk *k)
{
    size_t cap = 16;
    while (cap < k->n * 2)
        cap *= 2;
    k->slots = sm2c_arena_array(k->c->arena, cap, sizeof *k->slots);
    k->mask = cap - 1;
    for (size_t i = 0; i < k->n; i++) {
        if (!k->nodes[i])
            continue;
        const char *name = str(k->nodes[i]->name);
        size_t h = hash_name(name, strlen(name)) & k->mask;
        while (k->slots[h] && strcmp(str(k->nodes[k->slots[h] - 1]->name), name) != 0)
            h = (h + 1) & k->mask;
        if (!k->slots[h])   /* duplicate names: the first wins */
            k->slots[h] = i + 1;
    }
}

static const Tensorflow__NodeDef *lookup(chk *k, const char *name, size_t len, size_t *idx)
{
    if (!k->slots)
        build_names(k);
    for (size_t h = hash_name(name, len) & k->mask; k->slots[h]; h = (h + 1) & k->mask) {
        const char *s = str(k->nodes[k->slots[h] - 1]->name);
        if (strncmp(s, name, len) == 0 && s[len] == 0) {
            *idx = k->slots[h] - 1;
            return k->nodes[*idx];
        }
    }
    return NULL;
}

/* The producer of data input i when it is output 0 of a node:
** "n", "n:0" (graph) or "n:output:0" (function body). */
static const Tensorflow__NodeDef *producer(chk *k, const Tensorflow__NodeDef *n, size_t i,
                                           size_t *idx)
{
    if (i >= n->n_input || !n->input[i] || n->input[i][0] == '^')
        return NULL;
    const char *s = n->input[i];
    size_t len = strcspn(s, ":");
    const char *rest = s + len;
    if (*rest && strcmp(rest, ":0") != 0 && strcmp(rest, ":output:0") != 0)
        return NULL;
    return lookup(k, s, len, idx);
}

/* The producer of data input i, looking through a few Identity nodes. */
static const Tensorflow__NodeDef *source_node(chk *k, size_t i, size_t *idx)
{
    const Tensorflow__NodeDef *n = k->node;
    for (int hop = 0; hop < 8 && n; hop++) {
        n = producer(k, n, i, idx);
        if (!n || strcmp(str(n->op), "Identity") != 0)
            return n;
        i = 0;
    }
    return NULL;
}

/* The Const behind data input i, looking through a few Identity nodes. */
static const Tensorflow__NodeDef *const_node(chk *k, size_t i, size_t *idx)
{
    const Tensorflow__NodeDef *n = source_node(k, i, idx);
    return n && strcmp(str(n->op), "Const") == 0 ? n : NULL;
}

static const Tensorflow__TensorProto *const_proto(const Tensorflow__NodeDef *n)
{
    const Tensorflow__AttrValue *v = find_attr(n, "value");
    return v && v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TENSOR ? v->tensor : NULL;
}

static void quiet_sink(void *user, const char *line)
{
    (void)user;
    (void)line;
}

static sm2c_ctx quiet_ctx(chk *k, sm2c_diag *d)
{
    sm2c_diag_init(d);
    d->fn = quiet_sink;
    d->quiet_notes = 1;
    sm2c_ctx q = { .arena = k->c->arena, .diag = d, .limits = k->c->limits };
    return q;
}

/* The decoded value of the Const behind input i, or NULL (cached per node). */
static const sm2c_tensor *const_value(chk *k, size_t i)
{
    size_t idx;
    const Tensorflow__NodeDef *n = const_node(k, i, &idx);
    const Tensorflow__TensorProto *p = n ? const_proto(n) : NULL;
    if (!p)
        return NULL;
    if (!k->values) {
        k->values = sm2c_arena_array(k->c->arena, k->n, sizeof *k->values);
        k->tried = sm2c_arena_array(k->c->arena, k->n, 1);
    }
    if (!k->tried[idx]) {
        k->tried[idx] = 1;
        sm2c_diag d;
        sm2c_ctx q = quiet_ctx(k, &d);
        sm2c_tensor *t = sm2c_arena_alloc(k->c->arena, sizeof *t);
        if (sm2c_tensor_from_proto(&q, NULL, NULL, p, t) == SM2C_OK)
            k->values[idx] = t;
    }
    return k->values[idx];
}

/* Only the shape of the Const behind input i (no decoding of its data). */
static int const_shape(chk *k, size_t i, sm2c_shape *out)
{
    size_t idx;
    const Tensorflow__NodeDef *n = const_node(k, i, &idx);
    const Tensorflow__TensorProto *p = n ? const_proto(n) : NULL;
    if (!p)
        return 0;
    sm2c_diag d;
    sm2c_ctx q = quiet_ctx(k, &d);
    if (sm2c_shape_from_proto(&q, NULL, NULL, p->tensor_shape, out) != SM2C_OK || out->rank < 0)
        return 0;
    return sm2c_shape_elements(out, k->c->limits->elements) >= 0;
}

/* An integer Const of rank 0 or 1 behind input i. */
static const sm2c_tensor *const_ints(chk *k, size_t i)
{
    const sm2c_tensor *t = const_value(k, i);
    return t && sm2c_tensor_is_integer(t->dtype) && t->shape.rank <= 1 ? t : NULL;
}

static int const_int(chk *k, size_t i, int64_t *out)
{
    const sm2c_tensor *t = const_ints(k, i);
    if (!t || t->nelem != 1)
        return 0;
    *out = sm2c_tensor_get_i64(t, 0);
    return 1;
}

/* A numeric (non-string) Const behind input i. */
static const sm2c_tensor *const_numbers(chk *k, size_t i)
{
    const sm2c_tensor *t = const_value(k, i);
    return t && t->dtype != SM2C_DT_STRING ? t : NULL;
}

/* The static shape of data input i, when every dim is known: the shape of a
** Const's value, or the `shape` attr of a Placeholder / PlaceholderWithDefault
** (through Identity).  Dims may be huge: callers guard their arithmetic. */
static int static_shape(chk *k, size_t i, sm2c_shape *out)
{
    size_t idx;
    const Tensorflow__NodeDef *n = source_node(k, i, &idx);
    const Tensorflow__TensorShapeProto *p;
    if (!n)
        return 0;
    if (strcmp(str(n->op), "Const") == 0) {
        const Tensorflow__TensorProto *t = const_proto(n);
        if (!t)
            return 0;
        p = t->tensor_shape;
    } else if (strcmp(str(n->op), "Placeholder") == 0 ||
               strcmp(str(n->op), "PlaceholderWithDefault") == 0) {
        const Tensorflow__AttrValue *v = find_attr(n, "shape");
        if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_SHAPE)
            return 0;   /* no shape attr: unknown */
        p = v->shape;
    } else {
        return 0;
    }
    sm2c_diag d;
    sm2c_ctx q = quiet_ctx(k, &d);
    if (sm2c_shape_from_proto(&q, NULL, NULL, p, out) != SM2C_OK || out->rank < 0)
        return 0;
    for (int32_t j = 0; j < out->rank; j++)
        if (out->dims[j] < 0)
            return 0;
    return 1;
}

/* ---- windows: strides, dilations, ksize, padding, data_format --------------- */

enum { W_STRIDES = 1, W_DILATIONS = 2, W_KSIZE = 4, W_EXPLICIT = 8 };

static const char *const fmt_2d[] = { "NHWC", "NCHW", NULL };
static const char *const fmt_pool[] = { "NHWC", "NCHW", "NCHW_VECT_C", NULL };
static const char *const fmt_3d[] = { "NDHWC", "NCDHW", NULL };
static const char *const fmt_bn[] = { "NHWC", "NCHW", "NDHWC", "NCDHW", NULL };

/* Entries of a window list (`what` is "attr 'strides'" or "input 'ksize'"):
** `rank` of them, each in 1..limits->elements. */
static void check_window_list(chk *k, const char *what, const int64_t *v, size_t n, int rank)
{
    if (n != (size_t)rank) {
        report(k, SM2C_ERR_INVALID, "%s has %zu entries, %s needs %d", what, n,
               str(k->node->op), rank);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (v[i] <= 0) {
            report(k, SM2C_ERR_INVALID, "%s entry %zu is %lld (must be >= 1)", what, i,
                   (long long)v[i]);
            return;
        }
        if (v[i] > k->c->limits->elements) {
            report(k, SM2C_ERR_LIMIT, "%s entry %zu is %lld, over the element limit", what, i,
                   (long long)v[i]);
            return;
        }
    }
}

static void check_window_attr(chk *k, const char *name, int rank)
{
    const Tensorflow__AttrValue *v = get(k, name, TENSORFLOW__ATTR_VALUE__VALUE_LIST);
    char what[64];
    snprintf(what, sizeof what, "attr '%s'", name);
    if (v && v->list && list_matches(v->list, AK_LIST_INT))
        check_window_list(k, what, v->list->i, v->list->n_i, rank);
}

static void check_explicit_paddings(chk *k, int rank, int is_explicit)
{
    const Tensorflow__AttrValue *v = get(k, "explicit_paddings", TENSORFLOW__ATTR_VALUE__VALUE_LIST);
    size_t n = v && v->list && list_matches(v->list, AK_LIST_INT) ? v->list->n_i : 0;
    if (n % 2) {
        report(k, SM2C_ERR_INVALID, "attr 'explicit_paddings' has an odd number of entries (%zu)", n);
        return;
    }
    if (is_explicit && n != (size_t)rank * 2) {
        report(k, SM2C_ERR_INVALID, "attr 'explicit_paddings' has %zu entries, padding EXPLICIT "
               "needs %d (2 per dimension)", n, rank * 2);
        return;
    }
    if (!is_explicit && n) {
        report(k, SM2C_ERR_INVALID, "attr 'explicit_paddings' is set but padding is not EXPLICIT");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t p = v->list->i[i];
        if (p < 0 || p > k->c->limits->elements) {
            report(k, p < 0 ? SM2C_ERR_INVALID : SM2C_ERR_LIMIT,
                   "attr 'explicit_paddings' entry %zu is %lld (must be 0..%lld)", i,
                   (long long)p, (long long)k->c->limits->elements);
            return;
        }
    }
}

static void check_padding(chk *k, int rank, int explicit_ok)
{
    const ProtobufCBinaryData *s = get_str(k, "padding");
    int is_explicit = 0;
    if (s && str_is(s, "EXPLICIT")) {
        is_explicit = 1;
        if (!explicit_ok)
            report(k, SM2C_ERR_INVALID, "padding EXPLICIT is not allowed for %s", str(k->node->op));
    } else if (s && !str_is(s, "SAME") && !str_is(s, "VALID")) {
        report(k, SM2C_ERR_INVALID, "attr 'padding' is \"%.*s\", expected SAME, VALID%s",
               (int)(s->len > 64 ? 64 : s->len), (const char *)s->data,
               explicit_ok ? " or EXPLICIT" : "");
    }
    check_explicit_paddings(k, rank, is_explicit && explicit_ok);
}

static void check_format(chk *k, const char *const *formats)
{
    const ProtobufCBinaryData *s = get_str(k, "data_format");
    if (!s)
        return;
    char allowed[128] = "";
    for (size_t i = 0; formats[i]; i++) {
        if (str_is(s, formats[i]))
            return;
        snprintf(allowed + strlen(allowed), sizeof allowed - strlen(allowed), "%s%s",
                 i ? ", " : "", formats[i]);
    }
    report(k, SM2C_ERR_INVALID, "attr 'data_format' is \"%.*s\", expected one of %s",
           (int)(s->len > 64 ? 64 : s->len), (const char *)s->data, allowed);
}

static void check_window(chk *k, int rank, unsigned flags, const char *const *formats)
{
    if (flags & W_STRIDES)
        check_window_attr(k, "strides", rank);
    if (flags & W_DILATIONS)
        check_window_attr(k, "dilations", rank);
    if (flags & W_KSIZE)
        check_window_attr(k, "ksize", rank);
    check_padding(k, rank, (flags & W_EXPLICIT) != 0);
    check_format(k, formats);
}

/* ---- output sizes and groups, from static shapes (N5) ------------------------ */

/* data_format of a rank 4 or 5 window op (absent: channels last): the index of
** the first spatial dim and of the channel dim; 0 for other formats. */
static int layout(chk *k, int rank, int *spatial, int *chan)
{
    const ProtobufCBinaryData *s = get_str(k, "data_format");
    if (!s || str_is(s, rank == 4 ? "NHWC" : "NDHWC")) {
        *spatial = 1;
        *chan = rank - 1;
        return 1;
    }
    if (str_is(s, rank == 4 ? "NCHW" : "NCDHW")) {
        *spatial = 2;
        *chan = 1;
        return 1;
    }
    return 0;
}

/* A window attr as `rank` values in 1..limits->elements; absent: all `dflt`
** (0 for a required attr: no values).  A bad list was reported already. */
static int window_values(chk *k, const char *name, int rank, int64_t dflt, int64_t *out)
{
    const Tensorflow__AttrValue *v = find_attr(k->node, name);
    if (!v) {
        for (int i = 0; i < rank; i++)
            out[i] = dflt;
        return dflt > 0;
    }
    if (v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !v->list ||
        !list_matches(v->list, AK_LIST_INT) || v->list->n_i != (size_t)rank)
        return 0;
    for (int i = 0; i < rank; i++) {
        if (v->list->i[i] < 1 || v->list->i[i] > k->c->limits->elements)
            return 0;
        out[i] = v->list->i[i];
    }
    return 1;
}

/* explicit_paddings as 2 * rank values in 0..limits->elements. */
static int explicit_values(chk *k, int rank, int64_t *out)
{
    const Tensorflow__AttrValue *v = get(k, "explicit_paddings", TENSORFLOW__ATTR_VALUE__VALUE_LIST);
    if (!v || !v->list || !list_matches(v->list, AK_LIST_INT) || v->list->n_i != (size_t)rank * 2)
        return 0;
    for (int i = 0; i < rank * 2; i++) {
        if (v->list->i[i] < 0 || v->list->i[i] > k->c->limits->elements)
            return 0;
        out[i] = v->list->i[i];
    }
    return 1;
}

/* TensorFlow's windowed output size (kernel_shape_util.cc,
** GetWindowedOutputSizeVerbose) for VALID or EXPLICIT padding, with every step
** checked: 0 when one would overflow int64.  in, before, after >= 0;
** kern, dil, stride >= 1. */
static int windowed_size(int64_t in, int64_t kern, int64_t dil, int64_t stride, int64_t before,
                         int64_t after, int64_t *eff, int64_t *out)
{
    if (kern - 1 > (INT64_MAX - 1) / dil)
        return 0;
    *eff = (kern - 1) * dil + 1;
    if (before > INT64_MAX - in)
        return 0;
    int64_t padded = in + before;
    if (after > INT64_MAX - padded)
        return 0;
    padded += after;
    int64_t num = padded - *eff;   /* both in [0, INT64_MAX]: no overflow */
    if (num > INT64_MAX - stride)
        return 0;
    *out = (num + stride) / stride;
    return 1;
}

/* Grouped convolution (TF's Conv2D/Conv3D shape functions): the input channels
** a multiple of the filter's (f_in >= 1), the output channels a multiple of the
** group count. */
static void check_groups(chk *k, int64_t in_ch, int64_t f_in, int64_t f_out)
{
    if (in_ch % f_in != 0) {
        report(k, SM2C_ERR_INVALID, "input has %lld channels, not a multiple of the filter's "
               "%lld input channels", (long long)in_ch, (long long)f_in);
        return;
    }
    int64_t groups = in_ch / f_in;
    if (groups == 0)
        report(k, SM2C_ERR_INVALID, "input has 0 channels: the group count would be 0 "
               "(filter has %lld input channels)", (long long)f_in);
    else if (f_out % groups != 0)
        report(k, SM2C_ERR_INVALID, "filter has %lld output channels, not a multiple of the "
               "group count %lld (%lld input channels / %lld per group)", (long long)f_out,
               (long long)groups, (long long)in_ch, (long long)f_in);
}

/* The kernel of a convolution: the spatial dims of the filter at input 1
** ([kh,kw,in,out], [kd,kh,kw,in,out], depthwise [kh,kw,in,mult]), stored at
** the input's spatial positions; with `grouped`, the channel checks too. */
static int conv_kernel(chk *k, const sm2c_shape *in, int spatial, int chan, int grouped,
                       int64_t *kern)
{
    sm2c_shape f;
    int rank = in->rank;
    if (!static_shape(k, 1, &f) || f.rank != rank)
        return 0;
    for (int j = 0; j < rank - 2; j++) {
        if (f.dims[j] == 0) {
            report(k, SM2C_ERR_INVALID, "filter shape %s has a zero spatial dim",
                   sm2c_shape_str(k->c->arena, &f));
            return 0;
        }
        kern[spatial + j] = f.dims[j];
    }
    if (!grouped)
        return 1;
    if (f.dims[rank - 2] == 0) {
        report(k, SM2C_ERR_INVALID, "filter shape %s has 0 input channels",
               sm2c_shape_str(k->c->arena, &f));
        return 0;
    }
    check_groups(k, in->dims[chan], f.dims[rank - 2], f.dims[rank - 1]);
    return 1;
}

static void report_window_size(chk *k, const char *dim, int is_explicit, const int64_t *v)
{
    if (is_explicit)
        report(k, SM2C_ERR_INVALID, "output dim %s would be <= 0 (input %lld, padding %lld+%lld, "
               "effective kernel %lld, stride %lld, EXPLICIT)", dim, (long long)v[0],
               (long long)v[1], (long long)v[2], (long long)v[3], (long long)v[4]);
    else
        report(k, SM2C_ERR_INVALID, "output dim %s would be <= 0 (input %lld, effective kernel "
               "%lld, stride %lld, VALID)", dim, (long long)v[0], (long long)v[3],
               (long long)v[4]);
}

/* Output sizes of a convolution (kernel from the filter's static shape) or a
** pool (W_KSIZE: kernel from ksize) with VALID or EXPLICIT padding, when the
** input's shape is static.  Convolutions with `grouped` check channels too. */
static void check_window_shapes(chk *k, int rank, unsigned flags, int grouped)
{
    static const char *const dims2[] = { "H", "W" }, *const dims3[] = { "D", "H", "W" };
    int spatial, chan;
    sm2c_shape in;
    int64_t kern[5], stride[5], dil[5], pads[10] = { 0 };
    if (!layout(k, rank, &spatial, &chan) || !static_shape(k, 0, &in) || in.rank != rank)
        return;
    if ((flags & W_KSIZE) ? !window_values(k, "ksize", rank, 0, kern)
                        : !conv_kernel(k, &in, spatial, chan, grouped, kern))
        return;
    const ProtobufCBinaryData *pad = get_str(k, "padding");
    int is_explicit = pad && (flags & W_EXPLICIT) && str_is(pad, "EXPLICIT");
    if (!pad || (!is_explicit && !str_is(pad, "VALID")) ||
        !window_values(k, "strides", rank, 0, stride) ||
        !window_values(k, "dilations", rank, 1, dil) ||
        (is_explicit && !explicit_values(k, rank, pads)))
        return;
    if (!(flags & W_DILATIONS))
        for (int i = 0; i < rank; i++)
            dil[i] = 1;
    for (int j = 0; j < rank - 2; j++) {
        int d = spatial + j;
        const char *name = rank == 4 ? dims2[j] : dims3[j];
        int64_t eff = 0, out;
        if (!windowed_size(in.dims[d], kern[d], dil[d], stride[d], pads[2 * d],
                           pads[2 * d + 1], &eff, &out)) {
            report(k, SM2C_ERR_INVALID, "output dim %s overflows int64 (input %lld, kernel %lld, "
                   "dilation %lld, stride %lld)", name, (long long)in.dims[d],
                   (long long)kern[d], (long long)dil[d], (long long)stride[d]);
            return;
        }
        if (out <= 0) {
            const int64_t v[] = { in.dims[d], pads[2 * d], pads[2 * d + 1], eff, stride[d] };
            report_window_size(k, name, is_explicit, v);
            return;
        }
    }
}

static void check_conv2d(chk *k)
{
    check_window(k, 4, W_STRIDES | W_DILATIONS | W_EXPLICIT, fmt_2d);
    check_window_shapes(k, 4, W_DILATIONS | W_EXPLICIT, 1);
}

/* Input 0 is input_sizes, not an image: no output sizes to check here. */
static void check_conv2d_backprop(chk *k)
{
    check_window(k, 4, W_STRIDES | W_DILATIONS | W_EXPLICIT, fmt_2d);
}

static void check_depthwise(chk *k)
{
    check_window(k, 4, W_STRIDES | W_DILATIONS | W_EXPLICIT, fmt_2d);
    check_window_shapes(k, 4, W_DILATIONS | W_EXPLICIT, 0);
}

static void check_conv3d(chk *k)
{
    check_window(k, 5, W_STRIDES | W_DILATIONS, fmt_3d);
    check_window_shapes(k, 5, W_DILATIONS, 1);
}

static void check_max_pool(chk *k)
{
    check_window(k, 4, W_STRIDES | W_KSIZE | W_EXPLICIT, fmt_pool);
    check_window_shapes(k, 4, W_KSIZE | W_EXPLICIT, 0);
}

static void check_avg_pool(chk *k)
{
    check_window(k, 4, W_STRIDES | W_KSIZE, fmt_2d);
    check_window_shapes(k, 4, W_KSIZE, 0);
}

static void check_pool3d(chk *k)
{
    check_window(k, 5, W_STRIDES | W_KSIZE, fmt_3d);
    check_window_shapes(k, 5, W_KSIZE, 0);
}

/* MaxPoolV2 takes ksize and strides as inputs. */
static void check_window_input(chk *k, size_t i, const char *what)
{
    const sm2c_tensor *t = const_ints(k, i);
    if (!t)
        return;
    int64_t v[4];
    for (int64_t j = 0; j < t->nelem && j < 4; j++)
        v[j] = sm2c_tensor_get_i64(t, j);
    check_window_list(k, what, v, (size_t)t->nelem, 4);   /* reads v only when nelem == 4 */
}

static void check_max_pool_v2(chk *k)
{
    check_window_input(k, 1, "input 'ksize'");
    check_window_input(k, 2, "input 'strides'");
    check_window(k, 4, 0, fmt_pool);
}

static void check_bias_add(chk *k)
{
    check_format(k, fmt_2d);
}

static void check_batch_norm(chk *k)
{
    check_format(k, fmt_bn);
}

static void check_space_depth(chk *k)
{
    int64_t b;
    if (get_int(k, "block_size", &b) && b < 2)
        report(k, SM2C_ERR_INVALID, "attr 'block_size' is %lld (must be >= 2)", (long long)b);
    check_format(k, fmt_pool);
}

/* ---- variadic counts -------------------------------------------------------- */

/* Number attr `name` must be >= min and match the data inputs: n * mult + extra. */
static void check_count(chk *k, const char *name, int64_t min, int64_t mult, int64_t extra)
{
    int64_t n;
    if (!number_attr(k, name, min, &n))
        return;
    size_t have = data_inputs(k->node);
    uint64_t want = (uint64_t)n * (uint64_t)mult + (uint64_t)extra;   /* n >= 0: no wrap */
    if (want != have)
        report(k, SM2C_ERR_INVALID, "attr '%s' is %lld but the node has %zu data inputs "
               "(expected %llu)", name, (long long)n, have, (unsigned long long)want);
}

static void check_add_n(chk *k)
{
    check_count(k, "N", 1, 1, 0);
}

static void check_shape_n(chk *k)
{
    check_count(k, "N", 1, 1, 0);
}

static void check_stitch(chk *k)
{
    check_count(k, "N", 1, 2, 0);
}

static void check_identity_n(chk *k)
{
    const Tensorflow__AttrValue *v = get(k, "T", TENSORFLOW__ATTR_VALUE__VALUE_LIST);
    if (!v || !v->list || !list_matches(v->list, AK_LIST_TYPE))
        return;
    size_t have = data_inputs(k->node);
    if (v->list->n_type != have)
        report(k, SM2C_ERR_INVALID, "attr 'T' lists %zu types but the node has %zu data inputs",
               v->list->n_type, have);
}

/* ---- axes ------------------------------------------------------------------- */

/* `axis` against the rank of the Const behind input `vi`; valid range is
** [-(rank + extra), rank + extra). */
static void check_axis(chk *k, const char *what, int64_t axis, size_t vi, int extra)
{
    sm2c_shape s;
    if (!const_shape(k, vi, &s))
        return;
    int64_t r = (int64_t)s.rank + extra;
    if (axis < -r || axis >= r)
        report(k, SM2C_ERR_INVALID, "%s %lld is out of range for rank %d", what,
               (long long)axis, s.rank + extra);
}

static void check_concat_v2(chk *k)
{
    check_count(k, "N", 2, 1, 1);
    size_t n = data_inputs(k->node);
    int64_t axis;
    if (n >= 2 && const_int(k, n - 1, &axis))
        check_axis(k, "axis", axis, 0, 0);
}

static void check_concat(chk *k)
{
    check_count(k, "N", 2, 1, 1);
    int64_t axis;
    if (const_int(k, 0, &axis))
        check_axis(k, "axis", axis, 1, 0);
}

static void check_pack(chk *k)
{
    check_count(k, "N", 1, 1, 0);
    int64_t axis;
    if (get_int(k, "axis", &axis))
        check_axis(k, "attr 'axis'", axis, 0, 1);
}

static void check_unpack(chk *k)
{
    int64_t num, axis = 0;
    int have_num = number_attr(k, "num", 0, &num); /* TF allows 0 for an empty axis */
    if (get_int(k, "axis", &axis))
        check_axis(k, "attr 'axis'", axis, 0, 0);
    sm2c_shape s;
    if (!have_num || !const_shape(k, 0, &s) || axis < -s.rank || axis >= s.rank)
        return;
    int64_t d = s.dims[axis < 0 ? axis + s.rank : axis];
    if (d != num)
        report(k, SM2C_ERR_INVALID, "attr 'num' is %lld but the unpacked dim has size %lld",
               (long long)num, (long long)d);
}

/* Split(axis, value) and SplitV(value, size_splits, axis). */
static void check_split(chk *k)
{
    int split_v = strcmp(str(k->node->op), "SplitV") == 0;
    size_t ai = split_v ? 2 : 0, vi = split_v ? 0 : 1;
    int64_t num = 1, axis = 0;
    int have_num = number_attr(k, "num_split", 1, &num);
    if (!const_int(k, ai, &axis))
        return;
    check_axis(k, "axis", axis, vi, 0);
    sm2c_shape s;
    if (split_v || !have_num || !const_shape(k, vi, &s) || axis < -s.rank || axis >= s.rank)
        return;
    int64_t d = s.dims[axis < 0 ? axis + s.rank : axis];
    if (d % num)
        report(k, SM2C_ERR_INVALID, "dim %lld (size %lld) is not divisible by num_split %lld",
               (long long)axis, (long long)d, (long long)num);
}

static void check_one_hot(chk *k)
{
    int64_t depth, axis;
    if (const_int(k, 1, &depth) && depth < 0)
        report(k, SM2C_ERR_INVALID, "depth is %lld (must be >= 0)", (long long)depth);
    else if (const_int(k, 1, &depth) && depth > k->c->limits->elements)
        report(k, SM2C_ERR_LIMIT, "depth %lld is over the element limit", (long long)depth);
    if (get_int(k, "axis", &axis) && axis < -1)
        report(k, SM2C_ERR_INVALID, "attr 'axis' is %lld (must be >= -1)", (long long)axis);
}

/* ---- permutations and reshapes ---------------------------------------------- */

static void check_transpose(chk *k)
{
    const sm2c_tensor *perm = const_ints(k, 1);
    if (!perm)
        return;
    int64_t n = perm->nelem;
    if (n > k->c->limits->rank) {
        report(k, SM2C_ERR_LIMIT, "perm has %lld entries, over the rank limit of %lld",
               (long long)n, (long long)k->c->limits->rank);
        return;
    }
    unsigned char *seen = sm2c_arena_alloc(k->c->arena, (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        int64_t v = sm2c_tensor_get_i64(perm, i);
        if (v < 0 || v >= n || seen[v]) {
            report(k, SM2C_ERR_INVALID, "perm %s is not a permutation (%lld %s)",
                   fmt_ints(k, perm), (long long)v,
                   v < 0 || v >= n ? "is out of range" : "appears twice");
            return;
        }
        seen[v] = 1;
    }
    sm2c_shape s;
    if (const_shape(k, 0, &s) && s.rank != n)
        report(k, SM2C_ERR_INVALID, "perm %s has %lld entries but the input has rank %d",
               fmt_ints(k, perm), (long long)n, s.rank);
}

/* Product of a shape vector's entries other than -1, capped at the element
** limit: -2 when it is over. */
static int64_t known_product(chk *k, const sm2c_tensor *t)
{
    int64_t cap = k->c->limits->elements, p = 1;
    for (int64_t i = 0; i < t->nelem; i++)
        if (sm2c_tensor_get_i64(t, i) == 0)
            return 0;
    for (int64_t i = 0; i < t->nelem; i++) {
        int64_t d = sm2c_tensor_get_i64(t, i);
        if (d == -1)
            continue;
        if (d > cap / p)
            return -2;
        p *= d;
    }
    return p;
}

/* A shape vector (Reshape, Fill, BroadcastTo, Tile): entries >= 0, or one -1
** when `minus_ok`; with `product`, at most limits->elements elements.  Returns
** the -1 count, or -1 after reporting a problem. */
static int check_shape_vector(chk *k, const char *what, const sm2c_tensor *t, int minus_ok,
                              int product)
{
    int minus = 0;
    if (t->nelem > k->c->limits->rank) {
        report(k, SM2C_ERR_LIMIT, "%s has %lld entries, over the rank limit of %lld", what,
               (long long)t->nelem, (long long)k->c->limits->rank);
        return -1;
    }
    for (int64_t i = 0; i < t->nelem; i++) {
        int64_t d = sm2c_tensor_get_i64(t, i);
        if (d == -1 && minus_ok && minus++ == 0)
            continue;
        if (d < 0) {
            report(k, SM2C_ERR_INVALID, "%s %s %s", what, fmt_ints(k, t),
                   d == -1 && minus_ok ? "has more than one -1" : "has a negative entry");
            return -1;
        }
    }
    if (product && known_product(k, t) == -2) {
        report(k, SM2C_ERR_LIMIT, "%s %s has more than %lld elements (--limit elements=N)",
               what, fmt_ints(k, t), (long long)k->c->limits->elements);
        return -1;
    }
    return minus;
}

static void check_reshape(chk *k)
{
    const sm2c_tensor *t = const_ints(k, 1);
    int minus;
    sm2c_shape in;
    if (!t || (minus = check_shape_vector(k, "shape", t, 1, 1)) < 0 || !const_shape(k, 0, &in))
        return;
    int64_t have = sm2c_shape_elements(&in, k->c->limits->elements), want = known_product(k, t);
    if (minus && want == 0)
        report(k, SM2C_ERR_INVALID, "shape %s has a -1 next to a 0: the -1 cannot be inferred",
               fmt_ints(k, t));
    else if (minus ? have % want != 0 : have != want)
        report(k, SM2C_ERR_INVALID, "cannot reshape %lld elements to shape %s", (long long)have,
               fmt_ints(k, t));
}

/* ---- constant sizes that must not overflow (N8) ----------------------------- */

static void check_fill(chk *k)
{
    const sm2c_tensor *t = const_ints(k, 0);
    if (t)
        check_shape_vector(k, "dims", t, 0, 1);
}

static void check_broadcast_to(chk *k)
{
    const sm2c_tensor *t = const_ints(k, 1);
    if (t)
        check_shape_vector(k, "shape", t, 0, 1);
}

static void check_tile(chk *k)
{
    const sm2c_tensor *m = const_ints(k, 1);
    sm2c_shape in;
    if (!m || check_shape_vector(k, "multiples", m, 0, 0) < 0 || !const_shape(k, 0, &in))
        return;
    if (m->nelem != in.rank) {
        report(k, SM2C_ERR_INVALID, "multiples has %lld entries but the input has rank %d",
               (long long)m->nelem, in.rank);
        return;
    }
    /* The output count is the product of all input dims and all multiples. */
    sm2c_shape all = { 2 * in.rank, sm2c_arena_array(k->c->arena, 2 * (size_t)in.rank + 1,
                                                     sizeof(int64_t)) };
    for (int32_t i = 0; i < in.rank; i++) {
        all.dims[2 * i] = in.dims[i];
        all.dims[2 * i + 1] = sm2c_tensor_get_i64(m, i);
    }
    if (sm2c_shape_elements(&all, k->c->limits->elements) == -2)
        report(k, SM2C_ERR_LIMIT, "tiling by %s gives more than %lld elements "
               "(--limit elements=N)", fmt_ints(k, m), (long long)k->c->limits->elements);
}

static void range_empty(chk *k, double a, double b, double step)
{
    report(k, SM2C_ERR_INVALID, "Range with start %g, limit %g and delta %g is empty or "
           "endless", a, b, step);
}

/* Integer Range count, exact in uint64 (no signed overflow), or -1. */
static double range_count_int(chk *k, int64_t a, int64_t b, int64_t step)
{
    if (step == 0 || (step > 0 && a > b) || (step < 0 && a < b)) {
        range_empty(k, (double)a, (double)b, (double)step);
        return -1;
    }
    uint64_t span = step > 0 ? (uint64_t)b - (uint64_t)a : (uint64_t)a - (uint64_t)b;
    uint64_t us = step > 0 ? (uint64_t)step : 0 - (uint64_t)step;
    return (double)(span / us + (span % us != 0));
}

/* Element count of Range(start, limit, delta), or -1 after reporting. */
static double range_count(chk *k, const sm2c_tensor *s, const sm2c_tensor *l,
                          const sm2c_tensor *d)
{
    if (sm2c_tensor_is_integer(s->dtype) && sm2c_tensor_is_integer(l->dtype) &&
        sm2c_tensor_is_integer(d->dtype))
        return range_count_int(k, sm2c_tensor_get_i64(s, 0), sm2c_tensor_get_i64(l, 0),
                               sm2c_tensor_get_i64(d, 0));
    double a = sm2c_tensor_get_f64(s, 0), b = sm2c_tensor_get_f64(l, 0);
    double step = sm2c_tensor_get_f64(d, 0);
    if (!isfinite(a) || !isfinite(b) || !isfinite(step)) {
        report(k, SM2C_ERR_INVALID, "Range arguments must be finite (start %g, limit %g, "
               "delta %g)", a, b, step);
        return -1;
    }
    if (step == 0 || (step > 0 && a > b) || (step < 0 && a < b)) {
        range_empty(k, a, b, step);
        return -1;
    }
    return ceil(fabs((b - a) / step));
}

static void check_range(chk *k)
{
    const sm2c_tensor *s = const_numbers(k, 0), *l = const_numbers(k, 1),
                      *d = const_numbers(k, 2);
    if (!s || !l || !d || s->nelem != 1 || l->nelem != 1 || d->nelem != 1)
        return;
    double n = range_count(k, s, l, d);
    if (n > (double)k->c->limits->elements)
        report(k, SM2C_ERR_LIMIT, "Range gives %.0f elements, over the limit of %lld "
               "(--limit elements=N)", n, (long long)k->c->limits->elements);
}

/* ---- gathers (N8) ----------------------------------------------------------- */

static void check_gather(chk *k)
{
    int64_t batch = 0, axis = 0, dim = -1;
    if (get_int(k, "batch_dims", &batch) && batch != 0)
        return;   /* batched gathers: left to the shape pass */
    const sm2c_tensor *idx = const_value(k, 1);
    if (!idx || !sm2c_tensor_is_integer(idx->dtype))
        return;
    sm2c_shape ps;
    int v2 = strcmp(str(k->node->op), "GatherV2") == 0;
    if (const_shape(k, 0, &ps) && (!v2 || const_int(k, 2, &axis))) {
        if (axis < -ps.rank || axis >= ps.rank) {
            report(k, SM2C_ERR_INVALID, "axis %lld is out of range for params of rank %d",
                   (long long)axis, ps.rank);
            return;
        }
        dim = ps.dims[axis < 0 ? axis + ps.rank : axis];
    }
    for (int64_t i = 0; i < idx->nelem; i++) {
        int64_t v = sm2c_tensor_get_i64(idx, i);
        if (v < 0 || (dim >= 0 && v >= dim)) {
            if (dim >= 0)
                report(k, SM2C_ERR_INVALID, "indices[%lld] = %lld is not in [0, %lld)",
                       (long long)i, (long long)v, (long long)dim);
            else
                report(k, SM2C_ERR_INVALID, "indices[%lld] = %lld is negative", (long long)i,
                       (long long)v);
            return;
        }
    }
}

/* ---- quantization (N6) ------------------------------------------------------ */

/* A [lo, hi] range: finite, lo < hi (strict) or lo <= hi. */
static int check_qrange(chk *k, const char *lo_name, const char *hi_name, double lo, double hi,
                        int strict)
{
    if (!isfinite(lo) || !isfinite(hi)) {
        report(k, SM2C_ERR_INVALID, "%s %g and %s %g must be finite", lo_name, lo, hi_name, hi);
        return 0;
    }
    if (strict ? lo >= hi : lo > hi) {
        report(k, SM2C_ERR_INVALID, "%s %g must be %s %s %g", lo_name, lo,
               strict ? "less than" : "at most", hi_name, hi);
        return 0;
    }
    return 1;
}

/* Const min/max tensors at inputs lo and hi, element by element. */
static void check_qrange_inputs(chk *k, size_t lo, size_t hi, const char *lo_name,
                                const char *hi_name)
{
    const sm2c_tensor *a = const_numbers(k, lo), *b = const_numbers(k, hi);
    if (!a || !b)
        return;
    if (a->nelem != b->nelem) {
        report(k, SM2C_ERR_INVALID, "%s has %lld values but %s has %lld", lo_name,
               (long long)a->nelem, hi_name, (long long)b->nelem);
        return;
    }
    for (int64_t i = 0; i < a->nelem; i++)
        if (!check_qrange(k, lo_name, hi_name, sm2c_tensor_get_f64(a, i),
                          sm2c_tensor_get_f64(b, i), 0))
            return;
}

static void check_num_bits(chk *k)
{
    int64_t bits;
    if (get_int(k, "num_bits", &bits) && (bits < 2 || bits > 16))
        report(k, SM2C_ERR_INVALID, "attr 'num_bits' is %lld (must be 2..16)", (long long)bits);
}

static void check_fake_quant_args(chk *k)
{
    float lo = -6.0f, hi = 6.0f;   /* TF's defaults */
    int have = get_float(k, "min", &lo) | get_float(k, "max", &hi);
    if (have)
        check_qrange(k, "min", "max", lo, hi, 1);
    check_num_bits(k);
}

static void check_fake_quant_vars(chk *k)
{
    check_qrange_inputs(k, 1, 2, "min", "max");
    check_num_bits(k);
}

/* Element count of the Const behind input i (shape only), or -1. */
static int64_t const_count(chk *k, size_t i)
{
    sm2c_shape s;
    return const_shape(k, i, &s) ? sm2c_shape_elements(&s, k->c->limits->elements) : -1;
}

/* Per-axis ranges at inputs 1 and 2 (`lo`, `hi`) against the input's static
** shape: with attr 'axis' >= 0, more than one value means one per slice of the
** input dim at axis; with axis -1 (per-tensor, the default) one value.  With
** `last` (FakeQuantWithMinMaxVarsPerChannel) always one per slice of the last
** dim.  Const ranges of different sizes are left to check_qrange_inputs. */
static void check_per_axis(chk *k, const char *lo, const char *hi, int last)
{
    int64_t axis = -1;
    sm2c_shape in;
    int known = static_shape(k, 0, &in);
    if (!last && find_attr(k->node, "axis") && !get_int(k, "axis", &axis))
        return;   /* not an int: reported, or bound at call time */
    if (!last && axis >= 0 && known && axis >= in.rank) {
        report(k, SM2C_ERR_INVALID, "attr 'axis' is %lld, out of range for an input of rank %d",
               (long long)axis, in.rank);
        return;
    }
    if (axis < -1 || (last && (!known || in.rank < 1)))
        return;   /* a bad axis was reported; a scalar input is the shape pass's */
    if (last)
        axis = in.rank - 1;
    const int64_t n[2] = { const_count(k, 1), const_count(k, 2) };
    const char *const names[2] = { lo, hi };
    if (n[0] >= 0 && n[1] >= 0 && n[0] != n[1])
        return;
    for (int i = 0; i < 2; i++) {
        if (n[i] < 0 || (!last && n[i] <= 1))
            continue;
        if (axis == -1) {
            report(k, SM2C_ERR_INVALID, "%s has %lld values but attr 'axis' is -1 (per-tensor: "
                   "one value)", names[i], (long long)n[i]);
            return;
        }
        if (known && n[i] != in.dims[axis]) {
            report(k, SM2C_ERR_INVALID, "%s has %lld values but input dim %lld has size %lld",
                   names[i], (long long)n[i], (long long)axis, (long long)in.dims[axis]);
            return;
        }
    }
}

static void check_fake_quant_per_channel(chk *k)
{
    check_fake_quant_vars(k);
    check_per_axis(k, "min", "max", 1);
}

static void check_axis_attr(chk *k)
{
    int64_t axis;
    if (get_int(k, "axis", &axis) && axis < -1)
        report(k, SM2C_ERR_INVALID, "attr 'axis' is %lld (must be >= -1)", (long long)axis);
}

/* QuantizeAndDequantizeV2/V3/V4: (input, input_min, input_max[, num_bits]).
** The range values matter only with range_given, so only their count is checked. */
static void check_quantize_dequantize(chk *k)
{
    check_axis_attr(k);
    check_per_axis(k, "input_min", "input_max", 0);
}

static void check_mode(chk *k, const char *name, const char *const *ok)
{
    const ProtobufCBinaryData *s = get_str(k, name);
    if (!s)
        return;
    for (size_t i = 0; ok[i]; i++)
        if (str_is(s, ok[i]))
            return;
    report(k, SM2C_ERR_INVALID, "attr '%s' is \"%.*s\", not a known mode", name,
           (int)(s->len > 64 ? 64 : s->len), (const char *)s->data);
}

/* QuantizeV2 and Dequantize: (input, min_range, max_range). */
static void check_quantize(chk *k)
{
    static const char *const modes[] = { "MIN_COMBINED", "MIN_FIRST", "SCALED", NULL };
    static const char *const rounds[] = { "HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN", NULL };
    check_mode(k, "mode", modes);
    check_mode(k, "round_mode", rounds);
    check_axis_attr(k);
    check_qrange_inputs(k, 1, 2, "min_range", "max_range");
    check_per_axis(k, "min_range", "max_range", 0);
}

/* Scales at input si: positive and finite; zero points at zi: as many, within
** [quantization_min_val, quantization_max_val] when those attrs are set. */
static void check_scales(chk *k, size_t si, size_t zi, int ranged)
{
    const sm2c_tensor *s = const_numbers(k, si), *z = const_ints(k, zi);
    for (int64_t i = 0; s && i < s->nelem; i++) {
        double v = sm2c_tensor_get_f64(s, i);
        if (!(v > 0) || !isfinite(v)) {
            report(k, SM2C_ERR_INVALID, "scale %lld is %g (must be positive and finite)",
                   (long long)i, v);
            return;
        }
    }
    if (!z)
        return;
    if (s && s->nelem != z->nelem) {
        report(k, SM2C_ERR_INVALID, "%lld scales but %lld zero points", (long long)s->nelem,
               (long long)z->nelem);
        return;
    }
    int64_t lo, hi;
    if (!ranged || !get_int(k, "quantization_min_val", &lo) ||
        !get_int(k, "quantization_max_val", &hi))
        return;
    for (int64_t i = 0; i < z->nelem; i++) {
        int64_t v = sm2c_tensor_get_i64(z, i);
        if (v < lo || v > hi) {
            report(k, SM2C_ERR_INVALID, "zero point %lld is %lld, outside %lld..%lld",
                   (long long)i, (long long)v, (long long)lo, (long long)hi);
            return;
        }
    }
}

/* UniformQuantize / UniformDequantize: (input, scales, zero_points). */
static void check_uniform(chk *k)
{
    int64_t axis;
    if (get_int(k, "quantization_axis", &axis) && axis < -1)
        report(k, SM2C_ERR_INVALID, "attr 'quantization_axis' is %lld (must be >= -1)",
               (long long)axis);
    check_scales(k, 1, 2, 1);
}

/* UniformRequantize: (input, in_scales, in_zero_points, out_scales, out_zero_points). */
static void check_requantize(chk *k)
{
    check_scales(k, 1, 2, 0);
    check_scales(k, 3, 4, 0);
}

/* ---- the op table ----------------------------------------------------------- */

static const attr_spec attrs_t[] = { { "T", AK_TYPE }, { NULL, AK_INT } };
static const attr_spec attrs_const[] = { { "value", AK_TENSOR }, { NULL, AK_INT } };
static const attr_spec attrs_placeholder[] = { { "shape", AK_SHAPE }, { NULL, AK_INT } };
static const attr_spec attrs_gather[] = { { "batch_dims", AK_INT }, { NULL, AK_INT } };
static const attr_spec attrs_identity_n[] = { { "T", AK_LIST_TYPE }, { NULL, AK_INT } };
static const attr_spec attrs_axis[] = { { "T", AK_TYPE }, { "axis", AK_INT }, { NULL, AK_INT } };
static const attr_spec attrs_unpack[] = {
    { "T", AK_TYPE }, { "num", AK_INT }, { "axis", AK_INT }, { NULL, AK_INT },
};
static const attr_spec attrs_split[] = { { "T", AK_TYPE }, { "num_split", AK_INT }, { NULL, AK_INT } };
static const attr_spec attrs_block[] = { { "T", AK_TYPE }, { "block_size", AK_INT }, { NULL, AK_INT } };
static const attr_spec attrs_quant[] = {
    { "T", AK_TYPE }, { "mode", AK_STRING }, { "round_mode", AK_STRING },
    { "narrow_range", AK_BOOL }, { "axis", AK_INT }, { "ensure_minimum_range", AK_FLOAT },
    { NULL, AK_INT },
};
static const attr_spec attrs_qdq[] = {
    { "T", AK_TYPE }, { "signed_input", AK_BOOL }, { "num_bits", AK_INT },
    { "range_given", AK_BOOL }, { "round_mode", AK_STRING }, { "narrow_range", AK_BOOL },
    { "axis", AK_INT }, { NULL, AK_INT },
};
static const attr_spec attrs_fq_args[] = {
    { "min", AK_FLOAT }, { "max", AK_FLOAT }, { "num_bits", AK_INT }, { "narrow_range", AK_BOOL },
    { NULL, AK_INT },
};
static const attr_spec attrs_fq_vars[] = {
    { "num_bits", AK_INT }, { "narrow_range", AK_BOOL }, { NULL, AK_INT },
};
static const attr_spec attrs_uniform[] = {
    { "quantization_axis", AK_INT }, { "quantization_min_val", AK_INT },
    { "quantization_max_val", AK_INT }, { NULL, AK_INT },
};

/* Sorted by op name (strcmp order) for bsearch. */
static const op_rule rules[] = {
    { "AddN", check_add_n, attrs_t },
    { "AvgPool", check_avg_pool, attrs_t },
    { "AvgPool3D", check_pool3d, attrs_t },
    { "BiasAdd", check_bias_add, attrs_t },
    { "BroadcastTo", check_broadcast_to, attrs_t },
    { "Concat", check_concat, attrs_t },
    { "ConcatV2", check_concat_v2, attrs_t },
    { "Const", NULL, attrs_const },
    { "Conv2D", check_conv2d, attrs_t },
    { "Conv2DBackpropInput", check_conv2d_backprop, attrs_t },
    { "Conv3D", check_conv3d, attrs_t },
    { "DepthToSpace", check_space_depth, attrs_block },
    { "DepthwiseConv2dNative", check_depthwise, attrs_t },
    { "Dequantize", check_quantize, attrs_quant },
    { "DynamicStitch", check_stitch, attrs_t },
    { "FakeQuantWithMinMaxArgs", check_fake_quant_args, attrs_fq_args },
    { "FakeQuantWithMinMaxVars", check_fake_quant_vars, attrs_fq_vars },
    { "FakeQuantWithMinMaxVarsPerChannel", check_fake_quant_per_channel, attrs_fq_vars },
    { "Fill", check_fill, attrs_t },
    { "FusedBatchNorm", check_batch_norm, attrs_t },
    { "FusedBatchNormV2", check_batch_norm, attrs_t },
    { "FusedBatchNormV3", check_batch_norm, attrs_t },
    { "Gather", check_gather, attrs_gather },
    { "GatherV2", check_gather, attrs_gather },
    { "IdentityN", check_identity_n, attrs_identity_n },
    { "MaxPool", check_max_pool, attrs_t },
    { "MaxPool3D", check_pool3d, attrs_t },
    { "MaxPoolV2", check_max_pool_v2, attrs_t },
    { "OneHot", check_one_hot, attrs_axis },
    { "Pack", check_pack, attrs_axis },
    { "ParallelDynamicStitch", check_stitch, attrs_t },
    { "Placeholder", NULL, attrs_placeholder },
    { "QuantizeAndDequantizeV2", check_quantize_dequantize, attrs_qdq },
    { "QuantizeAndDequantizeV3", check_quantize_dequantize, attrs_qdq },
    { "QuantizeAndDequantizeV4", check_quantize_dequantize, attrs_qdq },
    { "QuantizeV2", check_quantize, attrs_quant },
    { "Range", check_range, NULL },
    { "Reshape", check_reshape, attrs_t },
    { "ShapeN", check_shape_n, attrs_t },
    { "SpaceToDepth", check_space_depth, attrs_block },
    { "Split", check_split, attrs_split },
    { "SplitV", check_split, attrs_split },
    { "Tile", check_tile, attrs_t },
    { "Transpose", check_transpose, attrs_t },
    { "UniformDequantize", check_uniform, attrs_uniform },
    { "UniformQuantize", check_uniform, attrs_uniform },
    { "UniformRequantize", check_requantize, NULL },
    { "Unpack", check_unpack, attrs_unpack },
};

static int rule_cmp(const void *key, const void *elem)
{
    return strcmp(key, ((const op_rule *)elem)->op);
}

static const op_rule *find_rule(const char *op)
{
    return bsearch(op, rules, sizeof rules / sizeof rules[0], sizeof rules[0], rule_cmp);
}

sm2c_status sm2c_check_graph_attrs(sm2c_ctx *c, const char *display, const char *function,
                                   Tensorflow__NodeDef **nodes, size_t n_nodes)
{
    for (size_t i = 1; i < sizeof rules / sizeof rules[0]; i++)
        SM2C_ASSERT(strcmp(rules[i - 1].op, rules[i].op) < 0);
    chk k = { .c = c, .display = display, .function = function, .nodes = nodes, .n = n_nodes };
    for (size_t i = 0; i < n_nodes; i++) {
        if (!nodes[i])
            continue;
        k.node = nodes[i];
        k.where = NULL;
        const op_rule *r = find_rule(str(k.node->op));
        check_attr_types(&k, r);
        if (r && r->check)
            r->check(&k);
    }
    return k.first;
}
