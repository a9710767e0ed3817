/*
** attr_check.c: attribute values that would cause nonsense or undefined
** behaviour later (docs/reliability.md N5, N6, N8): window sizes and strides,
** padding, data formats, permutations, reshapes, axes, constant indices,
** constant sizes that overflow, quantization ranges, variadic counts, and
** attrs of the wrong type.  Where an input's shape is static (a Const, or a
** Placeholder with a fully known `shape` attr), also convolution and pool
** output sizes, grouped-convolution channel counts and per-axis range counts.
**
** requires: nothing (runs on the raw NodeDefs).  Reports every problem and
** keeps going.  Const inputs are found by name (through Identity) and decoded
** quietly: a broken Const is reported where it is imported, not here.
**
** This file holds the reporting, the attr and Const-input helpers and the op
** table; the checks of windowed ops are in attr_check_window.c, the others
** in attr_check_ops.c.
*/
#include "attr_check_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const char *ac_str(const char *s)
{
    return s ? s : "";
}

/* ---- reporting -------------------------------------------------------------- */

static const char *where(chk *k)
{
    if (!k->where) {
        const char *name = ac_str(k->node->name), *op = ac_str(k->node->op);
        k->where = k->function
            ? sm2c_arena_printf(k->c->arena, "%s: '%s' (%s)", k->function, name, op)
            : sm2c_arena_printf(k->c->arena, "'%s' (%s)", name, op);
    }
    return k->where;
}

void ac_report(chk *k, sm2c_status kind, const char *fmt, ...)
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
const char *ac_fmt_ints(chk *k, const sm2c_tensor *t)
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

const Tensorflow__AttrValue *ac_find_attr(const Tensorflow__NodeDef *n, const char *name)
{
    for (size_t i = 0; i < n->n_attr; i++)
        if (n->attr[i] && n->attr[i]->key && strcmp(n->attr[i]->key, name) == 0)
            return n->attr[i]->value;
    return NULL;
}

/* The attr when it holds `value_case`; a wrong type was reported already. */
const Tensorflow__AttrValue *ac_get(chk *k, const char *name, int value_case)
{
    const Tensorflow__AttrValue *v = ac_find_attr(k->node, name);
    return v && (int)v->value_case == value_case ? v : NULL;
}

int ac_get_int(chk *k, const char *name, int64_t *out)
{
    const Tensorflow__AttrValue *v = ac_get(k, name, TENSORFLOW__ATTR_VALUE__VALUE_I);
    if (v)
        *out = v->i;
    return v != NULL;
}

int ac_get_float(chk *k, const char *name, float *out)
{
    const Tensorflow__AttrValue *v = ac_get(k, name, TENSORFLOW__ATTR_VALUE__VALUE_F);
    if (v)
        *out = v->f;
    return v != NULL;
}

const ProtobufCBinaryData *ac_get_str(chk *k, const char *name)
{
    const Tensorflow__AttrValue *v = ac_get(k, name, TENSORFLOW__ATTR_VALUE__VALUE_S);
    return v ? &v->s : NULL;
}

int ac_str_is(const ProtobufCBinaryData *s, const char *want)
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

int ac_list_matches(const Tensorflow__AttrValue__ListValue *l, akind kind)
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
    case TENSORFLOW__ATTR_VALUE__VALUE_LIST: return ac_list_matches(v->list, kind);
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
        ac_report(k, SM2C_ERR_INVALID, "attr '%s' is %s, not a valid dtype%s", name,
               sm2c_dtype_enum_name((int)v->type), v->type >= 100 ? " (reference dtypes are not allowed)" : "");
        return;
    }
    if (v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !v->list)
        return;
    for (size_t i = 0; i < v->list->n_type; i++)
        if (!valid_dtype((int)v->list->type[i])) {
            ac_report(k, SM2C_ERR_INVALID, "attr '%s' entry %zu is %s, not a valid dtype", name, i,
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
        ac_report(k, SM2C_ERR_LIMIT, "attr '%s' has %zu entries, over the limit of %lld "
               "(--limit list-length=N)", name, total, (long long)k->c->limits->list_length);
    const attr_spec *s = find_spec(r ? r->attrs : NULL, name);
    if (!s)
        s = find_spec(generic_attrs, name);
    if (!s) {   /* any other attr holding types (a call's Tin, Tout) names real dtypes too */
        if (v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ||
            (v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_LIST && v->list && v->list->n_type))
            check_dtype_values(k, name, v);
        return;
    }
    if (!matches(v, s->kind))
        ac_report(k, SM2C_ERR_INVALID, "attr '%s': expected %s, got %s", name,
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
int ac_number_attr(chk *k, const char *name, int64_t min, int64_t *out)
{
    if (!ac_get_int(k, name, out))
        return 0;
    if (*out < min) {
        ac_report(k, SM2C_ERR_INVALID, "attr '%s' is %lld (must be >= %lld)", name,
               (long long)*out, (long long)min);
        return 0;
    }
    if (*out > k->c->limits->list_length) {
        ac_report(k, SM2C_ERR_LIMIT, "attr '%s' is %lld, over the limit of %lld "
               "(--limit list-length=N)", name, (long long)*out,
               (long long)k->c->limits->list_length);
        return 0;
    }
    return 1;
}

/* ---- inputs and their Const producers --------------------------------------- */

size_t ac_data_inputs(const Tensorflow__NodeDef *n)
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
        const char *name = ac_str(k->nodes[i]->name);
        size_t h = hash_name(name, strlen(name)) & k->mask;
        while (k->slots[h] && strcmp(ac_str(k->nodes[k->slots[h] - 1]->name), name) != 0)
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
        const char *s = ac_str(k->nodes[k->slots[h] - 1]->name);
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
        if (!n || strcmp(ac_str(n->op), "Identity") != 0)
            return n;
        i = 0;
    }
    return NULL;
}

/* The Const behind data input i, looking through a few Identity nodes. */
static const Tensorflow__NodeDef *const_node(chk *k, size_t i, size_t *idx)
{
    const Tensorflow__NodeDef *n = source_node(k, i, idx);
    return n && strcmp(ac_str(n->op), "Const") == 0 ? n : NULL;
}

static const Tensorflow__TensorProto *const_proto(const Tensorflow__NodeDef *n)
{
    const Tensorflow__AttrValue *v = ac_find_attr(n, "value");
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
const sm2c_tensor *ac_const_value(chk *k, size_t i)
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
int ac_const_shape(chk *k, size_t i, sm2c_shape *out)
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
const sm2c_tensor *ac_const_ints(chk *k, size_t i)
{
    const sm2c_tensor *t = ac_const_value(k, i);
    return t && sm2c_tensor_is_integer(t->dtype) && t->shape.rank <= 1 ? t : NULL;
}

int ac_const_int(chk *k, size_t i, int64_t *out)
{
    const sm2c_tensor *t = ac_const_ints(k, i);
    if (!t || t->nelem != 1)
        return 0;
    *out = sm2c_tensor_get_i64(t, 0);
    return 1;
}

/* A numeric (non-string) Const behind input i. */
const sm2c_tensor *ac_const_numbers(chk *k, size_t i)
{
    const sm2c_tensor *t = ac_const_value(k, i);
    return t && t->dtype != SM2C_DT_STRING ? t : NULL;
}

/* The static shape of data input i, when every dim is known: the shape of a
** Const's value, or the `shape` attr of a Placeholder / PlaceholderWithDefault
** (through Identity).  Dims may be huge: callers guard their arithmetic. */
int ac_static_shape(chk *k, size_t i, sm2c_shape *out)
{
    size_t idx;
    const Tensorflow__NodeDef *n = source_node(k, i, &idx);
    const Tensorflow__TensorShapeProto *p;
    if (!n)
        return 0;
    if (strcmp(ac_str(n->op), "Const") == 0) {
        const Tensorflow__TensorProto *t = const_proto(n);
        if (!t)
            return 0;
        p = t->tensor_shape;
    } else if (strcmp(ac_str(n->op), "Placeholder") == 0 ||
               strcmp(ac_str(n->op), "PlaceholderWithDefault") == 0) {
        const Tensorflow__AttrValue *v = ac_find_attr(n, "shape");
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

/* ---- the op table ----------------------------------------------------------- */

static const attr_spec attrs_t[] = { { "T", AK_TYPE }, { NULL, AK_INT } };
static const attr_spec attrs_const[] = { { "value", AK_TENSOR }, { NULL, AK_INT } };
static const attr_spec attrs_placeholder[] = { { "shape", AK_SHAPE }, { NULL, AK_INT } };
static const attr_spec attrs_gather[] = { { "batch_dims", AK_INT }, { NULL, AK_INT } };
static const attr_spec attrs_strided[] = {
    { "T", AK_TYPE }, { "Index", AK_TYPE }, { "begin_mask", AK_INT }, { "end_mask", AK_INT },
    { "ellipsis_mask", AK_INT }, { "new_axis_mask", AK_INT }, { "shrink_axis_mask", AK_INT }, { NULL, AK_INT },
};
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
    { "AddN", ac_check_add_n, attrs_t },
    { "AvgPool", ac_check_avg_pool, attrs_t },
    { "AvgPool3D", ac_check_pool3d, attrs_t },
    { "BiasAdd", ac_check_bias_add, attrs_t },
    { "BroadcastTo", ac_check_broadcast_to, attrs_t },
    { "Concat", ac_check_concat, attrs_t },
    { "ConcatV2", ac_check_concat_v2, attrs_t },
    { "Const", NULL, attrs_const },
    { "Conv2D", ac_check_conv2d, attrs_t },
    { "Conv2DBackpropInput", ac_check_conv2d_backprop, attrs_t },
    { "Conv3D", ac_check_conv3d, attrs_t },
    { "DepthToSpace", ac_check_space_depth, attrs_block },
    { "DepthwiseConv2dNative", ac_check_depthwise, attrs_t },
    { "Dequantize", ac_check_quantize, attrs_quant },
    { "DynamicStitch", ac_check_stitch, attrs_t },
    { "FakeQuantWithMinMaxArgs", ac_check_fake_quant_args, attrs_fq_args },
    { "FakeQuantWithMinMaxVars", ac_check_fake_quant_vars, attrs_fq_vars },
    { "FakeQuantWithMinMaxVarsPerChannel", ac_check_fake_quant_per_channel, attrs_fq_vars },
    { "Fill", ac_check_fill, attrs_t },
    { "FusedBatchNorm", ac_check_batch_norm, attrs_t },
    { "FusedBatchNormV2", ac_check_batch_norm, attrs_t },
    { "FusedBatchNormV3", ac_check_batch_norm, attrs_t },
    { "Gather", ac_check_gather, attrs_gather },
    { "GatherV2", ac_check_gather, attrs_gather },
    { "IdentityN", ac_check_identity_n, attrs_identity_n },
    { "MaxPool", ac_check_max_pool, attrs_t },
    { "MaxPool3D", ac_check_pool3d, attrs_t },
    { "MaxPoolV2", ac_check_max_pool_v2, attrs_t },
    { "OneHot", ac_check_one_hot, attrs_axis },
    { "Pack", ac_check_pack, attrs_axis },
    { "ParallelDynamicStitch", ac_check_stitch, attrs_t },
    { "Placeholder", NULL, attrs_placeholder },
    { "QuantizeAndDequantizeV2", ac_check_quantize_dequantize, attrs_qdq },
    { "QuantizeAndDequantizeV3", ac_check_quantize_dequantize, attrs_qdq },
    { "QuantizeAndDequantizeV4", ac_check_quantize_dequantize, attrs_qdq },
    { "QuantizeV2", ac_check_quantize, attrs_quant },
    { "Range", ac_check_range, NULL },
    { "Reshape", ac_check_reshape, attrs_t },
    { "ResourceStridedSliceAssign", ac_check_strided_slice, attrs_strided },
    { "ShapeN", ac_check_shape_n, attrs_t },
    { "SpaceToDepth", ac_check_space_depth, attrs_block },
    { "Split", ac_check_split, attrs_split },
    { "SplitV", ac_check_split, attrs_split },
    { "StridedSlice", ac_check_strided_slice, attrs_strided },
    { "TensorStridedSliceUpdate", ac_check_strided_slice, attrs_strided },
    { "Tile", ac_check_tile, attrs_t },
    { "Transpose", ac_check_transpose, attrs_t },
    { "UniformDequantize", ac_check_uniform, attrs_uniform },
    { "UniformQuantize", ac_check_uniform, attrs_uniform },
    { "UniformRequantize", ac_check_requantize, NULL },
    { "Unpack", ac_check_unpack, attrs_unpack },
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
        const op_rule *r = find_rule(ac_str(k.node->op));
        check_attr_types(&k, r);
        if (r && r->check)
            r->check(&k);
    }
    return k.first;
}
