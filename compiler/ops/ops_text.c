/*
** ops_text.c: the text preprocessing of Keras TextVectorization (and
** tf.strings) on string tensors: StringLower, StaticRegexReplace,
** StringSplitV2 / StringSplit, RaggedTensorToTensor of their ragged result,
** and Equal / NotEqual on strings.
**
** Strings an op writes go into a pinned arena byte buffer of one fixed slot
** per element (as AsString's), and the strings it reads are bounded by
** L = --limit string-bytes: a longer element is SM2C_RT_ERR_STRING at run
** time, never a write past the slot.
**
**   StringLower(input; encoding ""): ASCII 'A'-'Z' lowered, every other byte
**     kept (TensorFlow's kernel with no encoding).  Slots of L bytes.
**     Encoding "utf-8": ICU's toLower as TensorFlow runs it
**     (runtime/string_lower_utf8.c, with unicode_lower.c's tables measured
**     from TensorFlow: case mapping, final sigma, invalid UTF-8 to U+FFFD, a
**     NUL ending the string).  Slots of 3 * L bytes (a byte may become three).
**   StaticRegexReplace(input; pattern, rewrite, replace_global): the pattern
**     compiled at compile time into a byte-set automaton (regex_byteset.h,
**     which says what RE2 syntax it takes and refuses); the rewrite may hold
**     no group references.  Slots of L * max(1, len(rewrite)) bytes.
**   StringSplitV2(input, sep; maxsplit -1) and StringSplit(input, delimiter;
**     skip_empty): a vector of n strings into indices [n * M, 2], values
**     [n * M] (pointing into the input's bytes) sharing a data-dependent
**     count (ops_dyn.c), and shape [2] bounded by (n, M), where M is the most
**     tokens a string of L bytes can have for the separator.
**   ReduceJoin(inputs, reduction_indices; keep_dims, separator): over every
**     dim, listed last first (TensorFlow joins the first axis listed fastest:
**     that is row-major order; others are refused), a vector with a
**     data-dependent count included, into one string of at most L bytes.
**   Add(x, y) of strings: the concatenation x + y, broadcasting, into slots
**     of L bytes per output element (a longer result is the run-time error).
**   RaggedTensorToTensor(shape, values, default_value, FIRST_DIM_SIZE,
**     VALUE_ROWIDS): a constant shape [rows or -1, cols], a vector of values
**     (static or data-dependent), a scalar default: a static [rows, cols]
**     result.  Other partitions and ragged ranks are refused.
*/
#include "ops_common.h"
#include "ops_text.h"
#include "regex_byteset.h"
#include "unicode_lower.h"

static sm2c_status need_string_vector(sm2c_ctx *c, const sm2c_node *n, int rank1)
{
    const sm2c_value *x = n->inputs[0];
    if (x->dtype != SM2C_DT_STRING)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input is %s, not string", sm2c_dtype_name(x->dtype));
    if (rank1 && x->shape.rank != 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input must be a vector, not %s",
                             sm2c_shape_str(c->arena, &x->shape));
    if (sm2c_value_elements(x) > INT32_MAX / 2)
        return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "too many strings");
    return SM2C_OK;
}

/* L, checked so that every slot product below fits an int32 count: over
** `elems` strings (bound_over) or the input's (bound_of). */
static sm2c_status bound_over(sm2c_ctx *c, const sm2c_node *n, int64_t elems, int64_t *l, int64_t factor)
{
    *l = c->limits->string_bytes;
    if (*l < 1 || *l > INT32_MAX / 2 || (elems && *l * factor > INT32_MAX / elems))
        return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "--limit string-bytes=%lld times %lld strings is too many bytes",
                             (long long)*l, (long long)elems);
    return SM2C_OK;
}

static sm2c_status bound_of(sm2c_ctx *c, const sm2c_node *n, int64_t *l, int64_t factor)
{
    return bound_over(c, n, sm2c_value_elements(n->inputs[0]), l, factor);
}

/* The text buffer of a step writing strings: slot bytes per element, kept to
** the end of the entry (the strings pointing into it may go anywhere). */
static int32_t text_buffer(sm2c_lower *l, const sm2c_node *n, int64_t slot, const char *name)
{
    int64_t dims[1] = { sm2c_value_elements(n->outputs[0]) * slot };
    if (dims[0] < 1)
        dims[0] = 1;
    sm2c_shape text = { 1, dims };
    int32_t buf = sm2c_lower_scratch(l, SM2C_DT_UINT8, &text, name);
    l->entry->buffers[buf].pinned = 1;
    return buf;
}

/* Bytes of a string attr or constant as int32 args (one per byte), or NULL. */
static sm2c_arg bytes_arg(sm2c_lower *l, const uint8_t *p, size_t len)
{
    if (!len)
        return sm2c_arg_null();
    int64_t *v = sm2c_arena_array(l->c->arena, len, sizeof *v);
    for (size_t i = 0; i < len; i++)
        v[i] = p[i];
    return sm2c_arg_ints(l, (int32_t)len, v);
}

/* ---- StringLower -------------------------------------------------------------------- */

/* 1 for encoding "utf-8", 0 for "" (ASCII), -1 for any other. */
static int lower_utf8(const sm2c_node *n)
{
    const Tensorflow__AttrValue *enc = sm2c_attr(n, "encoding");
    if (!enc || enc->value_case != TENSORFLOW__ATTR_VALUE__VALUE_S || !enc->s.len)
        return 0;
    return enc->s.len == 5 && memcmp(enc->s.data, "utf-8", 5) == 0 ? 1 : -1;
}

sm2c_status shape_string_lower(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t l;
    int utf8 = lower_utf8(n);
    if (st || (st = need_string_vector(c, n, 0)) || (st = bound_of(c, n, &l, utf8 > 0 ? 3 : 1)))
        return st;
    if (utf8 < 0)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "StringLower with encoding \"%s\": TensorFlow takes \"\" "
                             "or \"utf-8\"", sm2c_attr_str(c, n, "encoding"));
    const sm2c_value *x = n->inputs[0];
    sm2c_op_set(c, n, 0, SM2C_DT_STRING, x->shape.rank, x->shape.dims);
    return SM2C_OK;
}

/* A table of unicode_lower.c as an int array argument. */
static sm2c_arg table_arg(sm2c_lower *l, const int32_t *t, int32_t len)
{
    int64_t *v = sm2c_arena_array(l->c->arena, (size_t)len, sizeof *v);
    for (int32_t i = 0; i < len; i++)
        v[i] = t[i];
    return sm2c_arg_ints(l, len, v);
}

sm2c_status lower_string_lower(sm2c_lower *l, const sm2c_node *n)
{
    int64_t slot = l->c->limits->string_bytes;
    int utf8 = lower_utf8(n) > 0;
    sm2c_step *s = sm2c_lower_step(l, n, utf8 ? "sm2c_rt_string_lower_utf8" : "sm2c_rt_string_lower", utf8 ? 11 : 5);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_buf(text_buffer(l, n, utf8 ? 3 * slot : slot, "StringLower text"));
    s->args[3] = sm2c_arg_int(sm2c_value_elements(n->inputs[0]));
    s->args[4] = sm2c_arg_int(slot);
    if (utf8) {     /* TensorFlow's case mapping and Final_Sigma context, measured */
        s->args[5] = table_arg(l, sm2c_unicode_lower_map, sm2c_unicode_lower_map_len);
        s->args[6] = sm2c_arg_int(sm2c_unicode_lower_map_len);
        s->args[7] = table_arg(l, sm2c_unicode_cased, sm2c_unicode_cased_len);
        s->args[8] = sm2c_arg_int(sm2c_unicode_cased_len);
        s->args[9] = table_arg(l, sm2c_unicode_case_ignorable, sm2c_unicode_case_ignorable_len);
        s->args[10] = sm2c_arg_int(sm2c_unicode_case_ignorable_len);
    }
    return SM2C_OK;
}

/* ---- StaticRegexReplace -------------------------------------------------------------- */

static const Tensorflow__AttrValue *bytes_attr(const sm2c_node *n, const char *name)
{
    const Tensorflow__AttrValue *a = sm2c_attr(n, name);
    return a && a->value_case == TENSORFLOW__ATTR_VALUE__VALUE_S ? a : NULL;
}

static sm2c_status regex_of(sm2c_ctx *c, const sm2c_node *n, sm2c_regex_byteset *set)
{
    const Tensorflow__AttrValue *pat = bytes_attr(n, "pattern"), *rw = bytes_attr(n, "rewrite");
    const char *why;
    if (!pat || !rw)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "pattern and rewrite must be strings");
    if (!sm2c_regex_byteset_compile(pat->s.data, pat->s.len, set, &why))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "pattern \"%s\" is not supported: %s",
                             sm2c_attr_str(c, n, "pattern"), why);
    if (rw->s.len && memchr(rw->s.data, '\\', rw->s.len))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "a rewrite with a backslash (group references) "
                             "is not supported");
    return SM2C_OK;
}

sm2c_status shape_regex_replace(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_regex_byteset set;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t l;
    if (st || (st = need_string_vector(c, n, 0)) || (st = regex_of(c, n, &set)))
        return st;
    size_t rw = bytes_attr(n, "rewrite")->s.len;
    if (rw > 64)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "a rewrite of more than 64 bytes is not supported");
    if ((st = bound_of(c, n, &l, rw > 1 ? (int64_t)rw : 1)))
        return st;
    const sm2c_value *x = n->inputs[0];
    sm2c_op_set(c, n, 0, SM2C_DT_STRING, x->shape.rank, x->shape.dims);
    return SM2C_OK;
}

sm2c_status lower_regex_replace(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_regex_byteset set;
    sm2c_status st = regex_of(l->c, n, &set);
    if (st)
        return st;
    const Tensorflow__AttrValue *rw = bytes_attr(n, "rewrite");
    int64_t in_max = l->c->limits->string_bytes, words[8];
    for (int k = 0; k < 8; k++)
        words[k] = (int32_t)set.bits[k];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_regex_replace", 10);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_buf(text_buffer(l, n, in_max * (rw->s.len > 1 ? (int64_t)rw->s.len : 1),
                                          "StaticRegexReplace text"));
    s->args[3] = sm2c_arg_int(sm2c_value_elements(n->inputs[0]));
    s->args[4] = sm2c_arg_int(in_max);
    s->args[5] = sm2c_arg_ints(l, 8, words);
    s->args[6] = sm2c_arg_int(set.plus);
    s->args[7] = sm2c_arg_int(sm2c_attr_flag(n, "replace_global"));
    s->args[8] = bytes_arg(l, rw->s.data, rw->s.len);
    s->args[9] = sm2c_arg_int((int64_t)rw->s.len);
    return SM2C_OK;
}

/* ---- StringSplitV2 / StringSplit ------------------------------------------------------ */

typedef struct split_cfg {
    const sm2c_bytes *sep;
    int32_t mode;       /* string_split.c's */
    int64_t per;        /* the most tokens of a string of L bytes */
} split_cfg;

static sm2c_status split_of(sm2c_ctx *c, const sm2c_node *n, split_cfg *p)
{
    const sm2c_tensor *t = sm2c_op_const_input(c, n, 1, "separator");
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    if (t->dtype != SM2C_DT_STRING || t->nelem != 1 || !t->strings)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "the separator must be a string scalar");
    int64_t l = c->limits->string_bytes;
    p->sep = &t->strings[0];
    if (strcmp(n->op->name, "StringSplitV2") == 0) {
        if (sm2c_attr_i(n, "maxsplit") != -1)
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "maxsplit %lld is not supported (only -1)",
                                 (long long)sm2c_attr_i(n, "maxsplit"));
        p->mode = p->sep->len ? 1 : 0;
        p->per = p->sep->len ? l / (int64_t)p->sep->len + 1 : (l + 1) / 2;
    } else if (!p->sep->len) {
        p->mode = 4;
        p->per = l > 0 ? l : 1;
    } else {
        p->mode = sm2c_attr_flag(n, "skip_empty") ? 2 : 3;
        p->per = p->mode == 2 ? (l + 1) / 2 : l + 1;
    }
    if (p->sep->len > 256)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "a separator of more than 256 bytes is not supported");
    return SM2C_OK;
}

sm2c_status shape_string_split(sm2c_ctx *c, sm2c_node *n)
{
    split_cfg p;
    int64_t l;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = need_string_vector(c, n, 1)) || (st = bound_of(c, n, &l, 1)) || (st = split_of(c, n, &p)))
        return st;
    int64_t rows = n->inputs[0]->shape.dims[0];
    if (rows && p.per > INT32_MAX / 2 / rows)
        return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "%lld strings of --limit string-bytes=%lld make too many tokens",
                             (long long)rows, (long long)l);
    int64_t idx_dims[2] = { rows * p.per, 2 }, two = 2;
    int64_t *bound = sm2c_arena_array(c->arena, 2, sizeof *bound);
    bound[0] = rows;
    bound[1] = p.per;
    sm2c_op_set(c, n, 0, SM2C_DT_INT64, 2, idx_dims);
    sm2c_op_set(c, n, 1, SM2C_DT_STRING, 1, idx_dims);
    sm2c_op_set(c, n, 2, SM2C_DT_INT64, 1, &two);
    sm2c_value *ix = n->outputs[0], *vals = n->outputs[1], *shape = n->outputs[2];
    ix->dyn = vals->dyn = ix;
    ix->dyn_dim = vals->dyn_dim = 0;
    shape->bound = bound;
    shape->bound_dim = 1;
    return SM2C_OK;
}

sm2c_status lower_string_split(sm2c_lower *l, const sm2c_node *n)
{
    split_cfg p;
    sm2c_status st = split_of(l->c, n, &p);
    if (st)
        return st;
    const sm2c_value *ix = n->outputs[0];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_string_split", 11);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_int(n->inputs[0]->shape.dims[0]);
    s->args[2] = sm2c_arg_int(l->c->limits->string_bytes);
    s->args[3] = bytes_arg(l, p.sep->data, p.sep->len);
    s->args[4] = sm2c_arg_int((int64_t)p.sep->len);
    s->args[5] = sm2c_arg_int(p.mode);
    s->args[6] = sm2c_arg_int(ix->shape.dims[0]);
    s->args[7] = sm2c_arg_buf(sm2c_lower_buf(l, ix));
    s->args[8] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[1]));
    s->args[9] = sm2c_arg_buf(sm2c_lower_count(l, ix));
    s->args[10] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[2]));
    return SM2C_OK;
}

/* ---- RaggedTensorToTensor (FIRST_DIM_SIZE, VALUE_ROWIDS) ------------------------------ */

static int partitions_ok(const sm2c_node *n)
{
    const Tensorflow__AttrValue *a = sm2c_attr(n, "row_partition_types");
    if (!a || a->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !a->list || a->list->n_s != 2 ||
        n->n_inputs != 5)
        return 0;
    const ProtobufCBinaryData *s = a->list->s;
    return s[0].len == 14 && memcmp(s[0].data, "FIRST_DIM_SIZE", 14) == 0 && s[1].len == 12 &&
           memcmp(s[1].data, "VALUE_ROWIDS", 12) == 0;
}

/* rows, cols and nrows of node n; an error naming n when not static. */
static sm2c_status ragged_dims(sm2c_ctx *c, const sm2c_node *n, int64_t *rows, int64_t *cols, int64_t *nrows)
{
    if (!partitions_ok(n))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "only row partitions [FIRST_DIM_SIZE, VALUE_ROWIDS] "
                             "are supported");
    const sm2c_tensor *shape = sm2c_op_const_input(c, n, 0, "shape");
    const sm2c_tensor *first = sm2c_op_const_input(c, n, 3, "first_dim_size");
    if (!shape || !first)
        return SM2C_ERR_UNSUPPORTED;
    if (shape->nelem != 2 || first->nelem != 1)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "only a rank-2 result of a ragged vector is supported");
    const int64_t *sh = sm2c_op_ints(c, shape), *f = sm2c_op_ints(c, first);
    *nrows = f[0];
    *rows = sh[0] < 0 ? *nrows : sh[0];
    *cols = sh[1];
    if (*cols < 0)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "a result whose width is the longest row (shape [.., -1]) "
                             "has a data-dependent size; give the width (output_sequence_length)");
    if (*nrows < 0 || *rows > INT32_MAX || *cols > INT32_MAX || (*cols && *rows > INT32_MAX / *cols))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "shape [%lld, %lld] is invalid or too large",
                             (long long)*rows, (long long)*cols);
    return SM2C_OK;
}

sm2c_status sm2c_shape_ragged_rowids_dyn(sm2c_ctx *c, sm2c_node *n)
{
    int64_t rows, cols, nrows;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = ragged_dims(c, n, &rows, &cols, &nrows)))
        return st;
    const sm2c_value *v = n->inputs[1], *d = n->inputs[2], *ids = n->inputs[4];
    if (v->shape.rank != 1 || ids->shape.rank != 1 || ids->shape.dims[0] != v->shape.dims[0] ||
        ids->dtype != SM2C_DT_INT64)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "only a vector of values with int64 row ids of its size "
                             "is supported");
    if (d->dtype != v->dtype || sm2c_value_elements(d) != 1 || d->dyn)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "only a scalar default_value is supported");
    if (v->dyn != ids->dyn)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "the values and row ids must have the same count");
    if (v->dtype != SM2C_DT_INT64 && v->dtype != SM2C_DT_INT32 && v->dtype != SM2C_DT_FLOAT)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "RaggedTensorToTensor of %s is not supported "
                             "(int64, int32, float32)", sm2c_dtype_name(v->dtype));
    int64_t dims[2] = { rows, cols };
    sm2c_op_set(c, n, 0, v->dtype, 2, dims);
    return SM2C_OK;
}

sm2c_status sm2c_lower_ragged_rowids_dyn(sm2c_lower *l, const sm2c_node *n)
{
    int64_t rows, cols, nrows;
    sm2c_status st = ragged_dims(l->c, n, &rows, &cols, &nrows);
    if (st)
        return st;
    const sm2c_value *v = n->inputs[1];
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "ragged_rowids_to_tensor", v->dtype), 9);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, v));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[4]));
    s->args[2] = sm2c_arg_int(v->shape.dims[0]);
    s->args[3] = v->dyn ? sm2c_arg_buf(sm2c_lower_count(l, v)) : sm2c_arg_null();
    s->args[4] = sm2c_arg_int(nrows);
    s->args[5] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->args[6] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[7] = sm2c_arg_int(rows);
    s->args[8] = sm2c_arg_int(cols);
    return SM2C_OK;
}

/* ---- Equal / NotEqual on strings (lower_compare's string case) ------------------------ */

sm2c_status sm2c_lower_string_compare(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    const char *k = strcmp(n->op->name, "Equal") == 0 ? "sm2c_rt_equal_str" : "sm2c_rt_not_equal_str";
    sm2c_op_binary_step(l, n, k, n->inputs[0], n->inputs[1], sm2c_lower_buf(l, y), &y->shape);
    return SM2C_OK;
}

/* The text buffer of a step whose output strings are made at run time, at
** most --limit string-bytes each, as s->args[at] and its slot as at + 1. */
void sm2c_lower_string_text(sm2c_lower *l, const sm2c_node *n, sm2c_step *s, int32_t at)
{
    int64_t slot = l->c->limits->string_bytes;
    s->args[at] = sm2c_arg_buf(text_buffer(l, n, slot, sm2c_arena_printf(l->c->arena, "%s text", n->op->name)));
    s->args[at + 1] = sm2c_arg_int(slot);
}

/* ---- Add of strings: concatenation (shape_binary's and lower_binary's string case) ------ */

sm2c_status sm2c_shape_string_concat(sm2c_ctx *c, const sm2c_node *n)
{
    int64_t l;
    return bound_over(c, n, sm2c_value_elements(n->outputs[0]), &l, 1);
}

sm2c_status sm2c_lower_string_concat(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    sm2c_step *s = sm2c_op_binary_step(l, n, "sm2c_rt_concat_str", n->inputs[0], n->inputs[1],
                                       sm2c_lower_buf(l, y), &y->shape);
    s->checked = 1;
    /* SM2C_RT_BINARY's seven arguments, then the text buffer and its slot */
    sm2c_arg *a = sm2c_arena_array(l->c->arena, 9, sizeof *a);
    memcpy(a, s->args, 7 * sizeof *a);
    s->args = a;
    s->n_args = 9;
    sm2c_lower_string_text(l, n, s, 7);
    return SM2C_OK;
}

/* ---- ReduceJoin over every dim ---------------------------------------------------------- */

static sm2c_status join_all_dims(sm2c_ctx *c, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    const sm2c_tensor *t = sm2c_op_const_input(c, n, 1, "reduction_indices");
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    int64_t *axes = sm2c_op_ints(c, t), seen = 0;
    for (int64_t i = 0; i < t->nelem; i++) {
        int64_t a = axes[i] < 0 ? axes[i] + x->shape.rank : axes[i];
        if (a < 0 || a >= x->shape.rank)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "axis %lld is out of range", (long long)axes[i]);
        seen |= (int64_t)1 << a;
        if (a != x->shape.rank - 1 - i)     /* TensorFlow joins the first axis listed fastest */
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "ReduceJoin is supported with reduction_indices "
                                 "[rank - 1, ..., 0] only (row-major order)");
    }
    if (x->shape.rank > 62 || seen != ((int64_t)1 << x->shape.rank) - 1 || (x->dyn && x->shape.rank != 1))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "ReduceJoin is supported over every dim only");
    return SM2C_OK;
}

sm2c_status shape_reduce_join(sm2c_ctx *c, sm2c_node *n)
{
    int64_t l, ones[SM2C_RT_MAX_RANK];
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = need_string_vector(c, n, 0)) || (st = join_all_dims(c, n)) || (st = bound_of(c, n, &l, 0)))
        return st;
    const sm2c_value *x = n->inputs[0];
    if (!bytes_attr(n, "separator") && sm2c_attr(n, "separator"))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "separator must be a string");
    for (int32_t d = 0; d < x->shape.rank; d++)
        ones[d] = 1;
    sm2c_op_set(c, n, 0, SM2C_DT_STRING, sm2c_attr_flag(n, "keep_dims") ? x->shape.rank : 0, ones);
    return SM2C_OK;
}

sm2c_status lower_reduce_join(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    const Tensorflow__AttrValue *sep = bytes_attr(n, "separator");
    int64_t slot = l->c->limits->string_bytes;
    sm2c_shape text = { 1, &slot };
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_reduce_join", 8);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_int(sm2c_value_elements(x));
    s->args[2] = x->dyn ? sm2c_arg_buf(sm2c_lower_count(l, x)) : sm2c_arg_null();
    s->args[3] = sep ? bytes_arg(l, sep->s.data, sep->s.len) : sm2c_arg_null();
    s->args[4] = sm2c_arg_int(sep ? (int64_t)sep->s.len : 0);
    s->args[5] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    int32_t buf = sm2c_lower_scratch(l, SM2C_DT_UINT8, &text, "ReduceJoin text");
    l->entry->buffers[buf].pinned = 1;
    s->args[6] = sm2c_arg_buf(buf);
    s->args[7] = sm2c_arg_int(slot);
    return SM2C_OK;
}
