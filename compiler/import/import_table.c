/*
** import_table.c: hash tables filled at load time, baked in at compile time.
**
** TensorFlow fills a HashTableV2 when the model is loaded: TF1 graphs run the
** ops of their `table_initializer` collection, TF2 SavedModels the
** `__saved_model_init_op` signature's NoOp, which calls the
** `__inference__initializer_*` functions.  Their vocabulary file names are
** the model's assets (asset_file_def, or the TF1 `saved_model_assets`
** collection), which the loader feeds in place of the path recorded at
** export.  sm2c imports those initializers before the entry's outputs, in
** the same scope, so a handle is the same value wherever it flows; an
** initializer reads its file (beneath assets/) now and keeps the table here.
** A lookup then becomes a LookupTableFindV2 node whose table is constant
** inputs (keys sorted, values, ops_table.c), and LookupTableSizeV2 a constant.
** Nothing of a table is left for run time but those arrays.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import_internal.h"
#include "base/fileio.h"
#include "load/wire.h"
#include "load/varmap.h"
#include "ops/opdefs.h"

/* One table: its handle value, and once initialized its pairs, sorted by key. */
struct sm2c_table {
    const sm2c_value *handle;
    const char *where;          /* the HashTableV2 node */
    int key_dtype, value_dtype;
    const char *filled_by;      /* the initializer, NULL until one ran */
    int64_t n;
    sm2c_bytes *skeys;          /* string keys */
    int64_t *ikeys;             /* int64 keys */
    int64_t *values;
};

/* ---- assets ---------------------------------------------------------------- */

/* Field `field` (length-delimited) of the protobuf message [p, p + n). */
static int pb_bytes_field(const uint8_t *p, size_t n, uint32_t field, const uint8_t **out, size_t *len)
{
    const uint8_t *end = p + n;
    while (p < end) {
        uint64_t key, v;
        if (!sm2c_varint64(&p, end, &key))
            return 0;
        switch (key & 7) {
        case 0:
            if (!sm2c_varint64(&p, end, &v))
                return 0;
            break;
        case 1:
        case 5:
            if ((size_t)(end - p) < ((key & 7) == 1 ? 8u : 4u))
                return 0;
            p += (key & 7) == 1 ? 8 : 4;
            break;
        case 2:
            if (!sm2c_varint64(&p, end, &v) || v > (uint64_t)(end - p))
                return 0;
            if ((key >> 3) == field) {
                *out = p;
                *len = (size_t)v;
                return 1;
            }
            p += v;
            break;
        default:
            return 0;
        }
    }
    return 0;
}

/* "node:0" -> "node". */
static const char *tensor_node_name(sm2c_ctx *c, const char *tensor)
{
    const char *colon = strrchr(tensor, ':');
    return colon ? sm2c_arena_strndup(c->arena, tensor, (size_t)(colon - tensor)) : tensor;
}

static void add_asset(importer *im, const char *tensor, const char *filename)
{
    sm2c_strmap_put(im->assets, tensor_node_name(im->c, tensor), (void *)filename);
}

/* A TF1 `saved_model_assets` entry: a google.protobuf.Any holding an AssetFileDef. */
static void add_any_asset(importer *im, const ProtobufCBinaryData *any)
{
    const uint8_t *def, *info, *name, *file;
    size_t def_n, info_n, name_n, file_n;
    if (!pb_bytes_field(any->data, any->len, 2, &def, &def_n) ||
        !pb_bytes_field(def, def_n, 1, &info, &info_n) || !pb_bytes_field(info, info_n, 1, &name, &name_n) ||
        !pb_bytes_field(def, def_n, 2, &file, &file_n))
        return;
    add_asset(im, sm2c_arena_strndup(im->c->arena, (const char *)name, name_n),
              sm2c_arena_strndup(im->c->arena, (const char *)file, file_n));
}

/* TF2 assigns an asset's path to a variable and reads that: the variable's
** handle node stands for the asset too. */
static void add_asset_variables(importer *im)
{
    const Tensorflow__GraphDef *g = im->m->graph;
    /* A walk over the whole graph per entry: only when there is an asset. */
    for (size_t i = 0; sm2c_strmap_count(im->assets) && i < g->n_node; i++) {
        const Tensorflow__NodeDef *nd = g->node[i];
        if (strcmp(nd->op, "AssignVariableOp") != 0 || nd->n_input < 2)
            continue;
        const char *file = sm2c_strmap_get(im->assets, tensor_node_name(im->c, nd->input[1]));
        if (file)
            sm2c_strmap_put(im->asset_vars, tensor_node_name(im->c, nd->input[0]), (void *)file);
    }
}

void sm2c_import_bind_assets(importer *im)
{
    const Tensorflow__MetaGraphDef *mg = im->m->meta_graph;
    im->assets = sm2c_strmap_new(im->c->arena, 8);
    im->asset_vars = sm2c_strmap_new(im->c->arena, 8);
    for (size_t i = 0; i < mg->n_asset_file_def; i++) {
        const Tensorflow__AssetFileDef *a = mg->asset_file_def[i];
        if (a->tensor_info && a->tensor_info->encoding_case == TENSORFLOW__TENSOR_INFO__ENCODING_NAME)
            add_asset(im, a->tensor_info->name, a->filename);
    }
    for (size_t i = 0; i < mg->n_collection_def; i++) {
        const Tensorflow__CollectionDef *cd = mg->collection_def[i]->value;
        if (strcmp(mg->collection_def[i]->key, "saved_model_assets") != 0 || !cd ||
            cd->kind_case != TENSORFLOW__COLLECTION_DEF__KIND_ANY_LIST)
            continue;
        for (size_t k = 0; k < cd->any_list->n_value; k++)
            add_any_asset(im, &cd->any_list->value[k]);
    }
    add_asset_variables(im);
}

/* The asset file name value v stands for, or NULL. */
static const char *asset_of(const importer *im, const sm2c_value *v)
{
    for (int32_t k = 0; k < im->n_asset_values; k++)
        if (im->asset_values[k] == v)
            return im->asset_names[k];
    return NULL;
}

/* A string scalar naming asset `file` (the name as the model records it). */
static sm2c_value *asset_value(importer *im, const char *node, const char *file)
{
    sm2c_tensor *t = sm2c_arena_alloc(im->c->arena, sizeof *t);
    t->dtype = SM2C_DT_STRING;
    t->nelem = 1;
    t->strings = sm2c_arena_alloc(im->c->arena, sizeof *t->strings);
    t->strings[0] = (sm2c_bytes){ (const uint8_t *)file, strlen(file) };
    sm2c_value *v = sm2c_value_const(im->c, im->g, t, node);
    if (im->n_asset_values % 8 == 0) {
        const sm2c_value **vs = sm2c_arena_array(im->c->arena, (size_t)im->n_asset_values + 8, sizeof *vs);
        const char **ns = sm2c_arena_array(im->c->arena, (size_t)im->n_asset_values + 8, sizeof *ns);
        if (im->n_asset_values) {
            memcpy(vs, im->asset_values, (size_t)im->n_asset_values * sizeof *vs);
            memcpy(ns, im->asset_names, (size_t)im->n_asset_values * sizeof *ns);
        }
        im->asset_values = vs;
        im->asset_names = ns;
    }
    im->asset_values[im->n_asset_values] = v;
    im->asset_names[im->n_asset_values++] = file;
    return v;
}

/* ---- the initializers to import first ----------------------------------------- */

static int is_initializer_root(importer *im, const char *name)
{
    const Tensorflow__NodeDef *nd = sm2c_strmap_get(im->m->nodes, name);
    const char *f;
    return nd && (sm2c_import_is_table_init(nd->op) || sm2c_import_is_call(im, nd, &f));
}

static void add_root(importer *im, const char ***roots, size_t *n, const char *ref)
{
    const char **r = sm2c_arena_array(im->c->arena, *n + 2, sizeof *r);
    if (*n)
        memcpy(r, *roots, *n * sizeof *r);
    r[(*n)++] = ref;
    *roots = r;
}

/* TF2: the control inputs of the `__saved_model_init_op` signature's NoOp
** that are calls or table initializers (not the asset variables' Assigns). */
static void tf2_roots(importer *im, const char ***roots, size_t *n)
{
    /* Looked up, not searched for: this runs once per entry. */
    const Tensorflow__SignatureDef *sd =
        im->m->signatures ? sm2c_strmap_get(im->m->signatures, "__saved_model_init_op") : NULL;
    if (sd) {
        for (size_t k = 0; k < sd->n_outputs; k++) {
            const Tensorflow__TensorInfo *ti = sd->outputs[k]->value;
            if (!ti || ti->encoding_case != TENSORFLOW__TENSOR_INFO__ENCODING_NAME)
                continue;
            const Tensorflow__NodeDef *op = sm2c_strmap_get(im->m->nodes, tensor_node_name(im->c, ti->name));
            for (size_t j = 0; op && j < op->n_input; j++)
                if (op->input[j][0] == '^' && is_initializer_root(im, op->input[j] + 1))
                    add_root(im, roots, n, op->input[j] + 1);
        }
    }
}

/* TF1: the `table_initializer` collection. */
static void tf1_roots(importer *im, const char ***roots, size_t *n)
{
    const Tensorflow__MetaGraphDef *mg = im->m->meta_graph;
    for (size_t i = 0; i < mg->n_collection_def; i++) {
        const Tensorflow__CollectionDef *cd = mg->collection_def[i]->value;
        if (strcmp(mg->collection_def[i]->key, "table_initializer") != 0 || !cd ||
            cd->kind_case != TENSORFLOW__COLLECTION_DEF__KIND_NODE_LIST)
            continue;
        for (size_t k = 0; k < cd->node_list->n_value; k++) {
            const char *name = tensor_node_name(im->c, cd->node_list->value[k]);
            if (is_initializer_root(im, name))
                add_root(im, roots, n, name);
        }
    }
}

const char **sm2c_import_table_roots(importer *im, size_t *n)
{
    const char **roots = NULL;
    *n = 0;
    if (!im->extra)
        tf1_roots(im, &roots, n);
    tf2_roots(im, &roots, n);
    return roots;
}

/* ---- tables -------------------------------------------------------------------- */

static sm2c_table *table_of(const importer *im, const sm2c_value *v)
{
    for (int32_t k = 0; k < im->n_tables; k++)
        if (im->tables[k]->handle == v)
            return im->tables[k];
    return NULL;
}

static sm2c_status new_table(importer *im, scope *s, int32_t i)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    const Tensorflow__AttrValue *kt = sm2c_node_attr(nd, "key_dtype"), *vt = sm2c_node_attr(nd, "value_dtype");
    int key = kt ? (int)kt->type : 0, value = vt ? (int)vt->type : 0;
    if ((key != SM2C_DT_STRING && key != SM2C_DT_INT64) || value != SM2C_DT_INT64)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED, "%s",
                               sm2c_arena_printf(im->c->arena, "a table of %s keys and %s values is not "
                                                 "supported (string or int64 keys, int64 values)",
                                                 sm2c_dtype_name(key), sm2c_dtype_name(value)));
    sm2c_table *t = sm2c_arena_alloc(im->c->arena, sizeof *t);
    t->handle = sm2c_value_new(im->c, im->g, SM2C_DT_RESOURCE, nd->name);
    t->where = sm2c_import_where(im, s, nd);
    t->key_dtype = key;
    t->value_dtype = value;
    sm2c_table **ts = sm2c_arena_array(im->c->arena, (size_t)im->n_tables + 1, sizeof *ts);
    if (im->n_tables)
        memcpy(ts, im->tables, (size_t)im->n_tables * sizeof *ts);
    ts[im->n_tables++] = t;
    im->tables = ts;
    sm2c_value *h = (sm2c_value *)t->handle;
    sm2c_import_set_outputs(im, s, i, &h, 1);
    return SM2C_OK;
}

/* The table whose handle input k of node i is, or NULL after an error. */
static sm2c_table *table_input(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins, int32_t k)
{
    sm2c_table *t = k < n_ins ? table_of(im, ins[k]) : NULL;
    if (!t)
        sm2c_import_bad(im, s, s->nodes[i], SM2C_ERR_UNSUPPORTED, "%s",
                        "its table handle is not a HashTableV2 that sm2c can follow to its creation");
    return t;
}

/* ---- filling a table ---------------------------------------------------------- */

typedef struct pair {
    sm2c_bytes skey;
    int64_t ikey, value;
    int64_t line;            /* 1-based source line, or element index + 1 */
} pair;

static int cmp_bytes(const sm2c_bytes *a, const sm2c_bytes *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->data, b->data, n) : 0;
    return c ? c : (a->len < b->len ? -1 : a->len > b->len);
}

static int cmp_pair_str(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    int c = cmp_bytes(&x->skey, &y->skey);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int cmp_pair_int(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->ikey != y->ikey)
        return x->ikey < y->ikey ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* Sorts the pairs into t; a key given twice with different values is an
** error, as in TensorFlow's HashTable (the same pair twice is one entry). */
static sm2c_status fill_table(importer *im, sm2c_table *t, pair *p, int64_t n, const char *from,
                              const char *where)
{
    int str = t->key_dtype == SM2C_DT_STRING;
    qsort(p, (size_t)n, sizeof *p, str ? cmp_pair_str : cmp_pair_int);
    t->skeys = sm2c_arena_array(im->c->arena, (size_t)n + 1, sizeof *t->skeys);
    t->ikeys = sm2c_arena_array(im->c->arena, (size_t)n + 1, sizeof *t->ikeys);
    t->values = sm2c_arena_array(im->c->arena, (size_t)n + 1, sizeof *t->values);
    t->n = 0;
    for (int64_t k = 0; k < n; k++) {
        int same = k > 0 && (str ? cmp_bytes(&p[k].skey, &p[k - 1].skey) == 0 : p[k].ikey == p[k - 1].ikey);
        if (same && p[k].value != p[k - 1].value)
            return sm2c_error(im->c->diag, SM2C_ERR_INVALID, from, where,
                              "duplicate key at %lld (first at %lld) with another value (%lld, was %lld)",
                              (long long)p[k].line, (long long)p[k - 1].line, (long long)p[k].value,
                              (long long)p[k - 1].value);
        if (same)
            continue;
        t->skeys[t->n] = p[k].skey;
        t->ikeys[t->n] = p[k].ikey;
        t->values[t->n++] = p[k].value;
    }
    t->filled_by = where;
    return SM2C_OK;
}

/* A decimal int64 as strtoll reads it, the whole text. */
static int parse_int64(const uint8_t *s, size_t n, int64_t *out)
{
    char buf[32];
    if (n == 0 || n >= sizeof buf)
        return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end)
        return 0;
    *out = v;
    return 1;
}

/* Column `index` of line [s, s + n) split at `delim` (-2: the whole line). */
static int column(const uint8_t *s, size_t n, int64_t index, const char *delim, sm2c_bytes *out)
{
    size_t dl = strlen(delim);
    if (index == -2) {
        *out = (sm2c_bytes){ s, n };
        return 1;
    }
    size_t from = 0;
    for (int64_t c = 0;; c++) {
        size_t to = from;
        while (to < n && !(dl && to + dl <= n && memcmp(s + to, delim, dl) == 0))
            to++;
        if (c == index) {
            *out = (sm2c_bytes){ s + from, to - from };
            return 1;
        }
        if (to >= n)
            return 0;
        from = to + dl;
    }
}

typedef struct text_init {
    int64_t key_index, value_index, vocab_size, offset;
    const char *delim;
} text_init;

static sm2c_status too_few_columns(importer *im, const text_init *ti, int64_t line, const char *file,
                                   const char *where)
{
    return sm2c_error(im->c->diag, SM2C_ERR_INVALID, file, where, "line %lld has too few columns for key "
                      "column %lld and value column %lld", (long long)line + 1, (long long)ti->key_index,
                      (long long)ti->value_index);
}

static sm2c_status not_a_number(importer *im, int64_t line, const char *file, const char *where)
{
    return sm2c_error(im->c->diag, SM2C_ERR_INVALID, file, where, "line %lld: a column is not an int64",
                      (long long)line + 1);
}

/* Line `line` (0-based) [s, s + n) as a pair: its key and value columns, or
** the line number (plus offset) for index -1. */
static sm2c_status line_pair(importer *im, const sm2c_table *t, const text_init *ti, const uint8_t *s, size_t n,
                             int64_t line, pair *p, const char *file, const char *where)
{
    sm2c_bytes key, val;
    p->line = line + 1;
    p->value = line + ti->offset;
    if (ti->key_index == -1)
        p->ikey = line + ti->offset;
    else if (!column(s, n, ti->key_index, ti->delim, &key))
        return too_few_columns(im, ti, line, file, where);
    else if (t->key_dtype == SM2C_DT_STRING)
        p->skey = key;
    else if (!parse_int64(key.data, key.len, &p->ikey))
        return not_a_number(im, line, file, where);
    if (ti->value_index == -1)
        return SM2C_OK;
    if (!column(s, n, ti->value_index, ti->delim, &val))
        return too_few_columns(im, ti, line, file, where);
    if (!parse_int64(val.data, val.len, &p->value))
        return not_a_number(im, line, file, where);
    return SM2C_OK;
}

/* The lines of the file: '\n' ends one, a '\r' before it is dropped, and a
** last line without '\n' counts (TensorFlow's InputBuffer::ReadLine). */
static sm2c_status text_pairs(importer *im, const sm2c_table *t, const text_init *ti, const sm2c_buf *b,
                              const char *file, const char *where, pair **out, int64_t *n)
{
    int64_t cap = 1;
    for (size_t k = 0; k < b->len; k++)
        cap += b->data[k] == '\n';
    pair *p = sm2c_arena_array(im->c->arena, (size_t)cap + 1, sizeof *p);
    size_t at = 0;
    *n = 0;
    while (at < b->len && (ti->vocab_size < 0 || *n < ti->vocab_size)) {
        size_t end = at;
        while (end < b->len && b->data[end] != '\n')
            end++;
        size_t len = end - at;
        if (len && b->data[at + len - 1] == '\r')
            len--;
        if (len == 0)   /* TensorFlow: "empty line found at position N" */
            return sm2c_error(im->c->diag, SM2C_ERR_INVALID, file, where,
                              "line %lld is empty, which TensorFlow refuses in a vocabulary", (long long)*n + 1);
        sm2c_status st = line_pair(im, t, ti, b->data + at, len, *n, &p[*n], file, where);
        if (st)
            return st;
        ++*n;
        at = end + 1;
    }
    if (ti->vocab_size >= 0 && *n != ti->vocab_size)
        return sm2c_error(im->c->diag, SM2C_ERR_INVALID, file, where,
                          "has %lld lines, but the initializer's vocab_size is %lld", (long long)*n,
                          (long long)ti->vocab_size);
    *out = p;
    return SM2C_OK;
}

static int64_t attr_int(const Tensorflow__NodeDef *nd, const char *name, int64_t dflt)
{
    const Tensorflow__AttrValue *a = sm2c_node_attr(nd, name);
    return a && a->value_case == TENSORFLOW__ATTR_VALUE__VALUE_I ? a->i : dflt;
}

static const char *attr_string(importer *im, const Tensorflow__NodeDef *nd, const char *name, const char *dflt)
{
    const Tensorflow__AttrValue *a = sm2c_node_attr(nd, name);
    if (!a || a->value_case != TENSORFLOW__ATTR_VALUE__VALUE_S)
        return dflt;
    return sm2c_arena_strndup(im->c->arena, (const char *)a->s.data, a->s.len);
}

/* Reads assets/<file> (a plain file directly beneath assets/, no symlink). */
static sm2c_status read_asset(importer *im, const char *file, const char *where, sm2c_buf *b)
{
    const char *display = sm2c_arena_printf(im->c->arena, "%s/assets/%s", im->m->dir, file);
    if (strchr(file, '/') || !strcmp(file, "..") || !strcmp(file, ".") || !file[0])
        return sm2c_error(im->c->diag, SM2C_ERR_UNSUPPORTED, display, where,
                          "a vocabulary must be a file directly beneath assets/");
    int fd = im->m->dirfd >= 0 ? sm2c_open_dir(im->m->dirfd, "assets") : -1;
    if (fd < 0)
        return sm2c_error(im->c->diag, SM2C_ERR_INVALID, display, where,
                          "cannot open the model's assets/ directory for this vocabulary");
    if (!sm2c_exists(fd, file)) {   /* say which initializer wanted it */
        close(fd);
        return sm2c_error(im->c->diag, SM2C_ERR_INVALID, display, where,
                          "no such file: the table's vocabulary is missing from assets/");
    }
    sm2c_status st = sm2c_read_file(im->c, fd, file, display, (int64_t)1 << 30, b);
    close(fd);
    return st;
}

static sm2c_status init_from_text_file(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    const char *where = sm2c_import_where(im, s, nd);
    sm2c_table *t = table_input(im, s, i, ins, n_ins, 0);
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    const char *file = n_ins == 2 ? asset_of(im, ins[1]) : NULL;
    if (!file)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED, "%s",
                               "its file name is not one of the model's assets (asset_file_def or "
                               "the saved_model_assets collection), so sm2c cannot read the vocabulary");
    text_init ti = { attr_int(nd, "key_index", -2), attr_int(nd, "value_index", -1),
                     attr_int(nd, "vocab_size", -1), attr_int(nd, "offset", 0),
                     attr_string(im, nd, "delimiter", "\t") };
    if (ti.key_index < -2 || ti.value_index < -2 || (ti.key_index == -1 && t->key_dtype != SM2C_DT_INT64))
        return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "%s",
                               "its key_index or value_index does not fit the table's key and value types");
    sm2c_buf b;
    pair *p = NULL;
    int64_t n = 0;
    sm2c_status st = read_asset(im, file, where, &b);
    const char *display = sm2c_arena_printf(im->c->arena, "%s/assets/%s", im->m->dir, file);
    if (st || (st = text_pairs(im, t, &ti, &b, display, where, &p, &n)))
        return st;
    if ((st = fill_table(im, t, p, n, display, where)))
        return st;
    sm2c_import_set_outputs(im, s, i, NULL, 0);
    return SM2C_OK;
}

/* InitializeTableV2 or LookupTableImportV2 (TF2's KeyValueTensorInitializer)
** (table, keys, values): keys and values must fold to constants. */
static sm2c_status init_from_tensors(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    sm2c_table *t = table_input(im, s, i, ins, n_ins, 0);
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    for (int32_t e = 1; e < n_ins; e++)
        sm2c_import_infer_ahead(im->c, im->g, ins[e]);   /* arithmetic on constants folds */
    const sm2c_tensor *k = n_ins == 3 ? ins[1]->constant : NULL, *v = n_ins == 3 ? ins[2]->constant : NULL;
    if (!k || !v)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED, "%s",
                               "its keys or values are not constants, so sm2c cannot bake the table in");
    if (k->dtype != t->key_dtype || v->dtype != t->value_dtype || k->nelem != v->nelem)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "%s",
                               "its keys and values do not match the table's types, or each other in length");
    pair *p = sm2c_arena_array(im->c->arena, (size_t)k->nelem + 1, sizeof *p);
    for (int64_t e = 0; e < k->nelem; e++) {
        p[e].line = e + 1;
        memcpy(&p[e].value, (const int64_t *)v->data + e, sizeof p[e].value);
        if (t->key_dtype == SM2C_DT_STRING)
            p[e].skey = k->strings[e];
        else
            memcpy(&p[e].ikey, (const int64_t *)k->data + e, sizeof p[e].ikey);
    }
    sm2c_status st = fill_table(im, t, p, k->nelem, im->m->file, sm2c_import_where(im, s, nd));
    if (!st)
        sm2c_import_set_outputs(im, s, i, NULL, 0);
    return st;
}

/* ---- lookups -------------------------------------------------------------------- */

static sm2c_tensor *int64_tensor(importer *im, int64_t n, const int64_t *data)
{
    sm2c_tensor *t = sm2c_arena_alloc(im->c->arena, sizeof *t);
    int64_t dims[1] = { n };
    t->dtype = SM2C_DT_INT64;
    t->shape = sm2c_shape_make(im->c, 1, dims);
    t->nelem = n;
    t->nbytes = (size_t)n * sizeof(int64_t);
    t->data = sm2c_arena_alloc(im->c->arena, t->nbytes + 8);
    if (n)
        memcpy(t->data, data, t->nbytes);
    return t;
}

/* String keys packed for the kernel: their bytes one after another (at least
** one byte, so the array is never empty) and each one's end offset. */
static void packed_keys(importer *im, const sm2c_table *t, sm2c_tensor **bytes, sm2c_tensor **ends)
{
    int64_t total = 0, *end = sm2c_arena_array(im->c->arena, (size_t)t->n + 1, sizeof *end);
    for (int64_t k = 0; k < t->n; k++)
        end[k] = total += (int64_t)t->skeys[k].len;
    *ends = int64_tensor(im, t->n, end);
    sm2c_tensor *b = sm2c_arena_alloc(im->c->arena, sizeof *b);
    int64_t dims[1] = { total ? total : 1 };
    b->dtype = SM2C_DT_UINT8;
    b->shape = sm2c_shape_make(im->c, 1, dims);
    b->nelem = dims[0];
    b->nbytes = (size_t)dims[0];
    uint8_t *at = b->data = sm2c_arena_alloc(im->c->arena, b->nbytes + 1);
    for (int64_t k = 0; k < t->n; k++) {
        if (t->skeys[k].len)
            memcpy(at, t->skeys[k].data, t->skeys[k].len);
        at += t->skeys[k].len;
    }
    *bytes = b;
}

/* LookupTableFindV2(table, keys, default) -> LookupTableFindV2(keys, default,
** <table as constants>): string keys add bytes, ends and values; int64 keys
** add keys and values. */
static sm2c_status lookup(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    sm2c_table *t = table_input(im, s, i, ins, n_ins, 0);
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    if (!t->filled_by)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED, "%s",
                               sm2c_arena_printf(im->c->arena, "table %s has no initializer that sm2c "
                                                 "found (table_initializer collection, __saved_model_init_op)",
                                                 t->where));
    if (n_ins != 3)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "%s", "expects 3 inputs (table, keys, default)");
    sm2c_value *in[5] = { ins[1], ins[2] };
    int32_t n = 2;
    const char *name = nd->name;
    if (t->key_dtype == SM2C_DT_STRING) {
        sm2c_tensor *bytes, *ends;
        packed_keys(im, t, &bytes, &ends);
        in[n++] = sm2c_value_const(im->c, im->g, bytes, sm2c_arena_printf(im->c->arena, "%s/keys", name));
        in[n++] = sm2c_value_const(im->c, im->g, ends, sm2c_arena_printf(im->c->arena, "%s/key_ends", name));
    } else {
        in[n++] = sm2c_value_const(im->c, im->g, int64_tensor(im, t->n, t->ikeys),
                                   sm2c_arena_printf(im->c->arena, "%s/keys", name));
    }
    in[n++] = sm2c_value_const(im->c, im->g, int64_tensor(im, t->n, t->values),
                               sm2c_arena_printf(im->c->arena, "%s/values", name));
    sm2c_node *node = sm2c_node_new(im->c, im->g, sm2c_opdef_find("LookupTableFindV2"), nd, s->path, n, in, 1);
    sm2c_import_set_outputs(im, s, i, node->outputs, 1);
    return SM2C_OK;
}

static sm2c_status table_size(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins)
{
    sm2c_table *t = table_input(im, s, i, ins, n_ins, 0);
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    if (!t->filled_by)
        return sm2c_import_bad(im, s, s->nodes[i], SM2C_ERR_UNSUPPORTED, "%s",
                               sm2c_arena_printf(im->c->arena, "table %s has no initializer that sm2c found",
                                                 t->where));
    sm2c_tensor *c = int64_tensor(im, 1, &t->n);
    c->shape.rank = 0;
    sm2c_value *v = sm2c_value_const(im->c, im->g, c, s->nodes[i]->name);
    sm2c_import_set_outputs(im, s, i, &v, 1);
    return SM2C_OK;
}

/* ---- the import hook ------------------------------------------------------------ */

/* An asset's own node (top scope), or the TF2 variable holding its path. */
static int asset_node(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    const char *file = !s->parent ? sm2c_strmap_get(im->assets, nd->name) : NULL;
    if (!file && !s->parent && strcmp(nd->op, "VarHandleOp") == 0)
        file = sm2c_strmap_get(im->asset_vars, nd->name);
    if (file) {
        sm2c_value *v = asset_value(im, nd->name, file);
        sm2c_import_set_outputs(im, s, i, &v, 1);
        return 1;
    }
    if (n_ins >= 1 && asset_of(im, ins[0]) && (strcmp(nd->op, "ReadVariableOp") == 0 ||
                                               strcmp(nd->op, "AssignVariableOp") == 0)) {
        /* reading the path back is the asset; assigning it was the loader's job */
        sm2c_import_set_outputs(im, s, i, ins, strcmp(nd->op, "ReadVariableOp") == 0);
        return 1;
    }
    return 0;
}

int sm2c_import_table_op(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins, sm2c_status *st)
{
    const char *op = s->nodes[i]->op;
    *st = SM2C_OK;
    if (asset_node(im, s, i, ins, n_ins))
        return 1;
    if (!strcmp(op, "HashTableV2"))
        *st = new_table(im, s, i);
    else if (!strcmp(op, "InitializeTableFromTextFileV2"))
        *st = init_from_text_file(im, s, i, ins, n_ins);
    else if (!strcmp(op, "InitializeTableV2") || !strcmp(op, "LookupTableImportV2"))
        *st = init_from_tensors(im, s, i, ins, n_ins);
    else if (!strcmp(op, "LookupTableFindV2"))
        *st = lookup(im, s, i, ins, n_ins);
    else if (!strcmp(op, "LookupTableSizeV2"))
        *st = table_size(im, s, i, ins, n_ins);
    else
        return 0;
    return 1;
}

int sm2c_import_is_table_init(const char *op)
{
    return strncmp(op, "InitializeTable", 15) == 0 || strcmp(op, "LookupTableImportV2") == 0;
}

int sm2c_import_table_handles(const char *op)
{
    static const char *const ops[] = { "HashTableV2", "InitializeTableFromTextFileV2", "InitializeTableV2",
                                       "LookupTableImportV2", "LookupTableSizeV2", NULL };
    for (size_t k = 0; ops[k]; k++)
        if (!strcmp(op, ops[k]))
            return 1;
    return 0;
}
