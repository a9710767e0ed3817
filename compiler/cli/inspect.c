/*
** inspect.c: gather everything `sm2c inspect` reports, then print it as text
** or JSON.  Gathering validates: an inspect that succeeds has read every byte
** the compiler would read.
*/
#include "inspect.h"

#include <stdlib.h>
#include <string.h>

#include "inspect_show.h"
#include "inspect_verdict.h"
#include "json.h"
#include "import/functionalize.h"
#include "import/op_support.h"
#include "load/savedmodel.h"
#include "load/tensor_proto.h"
#include "load/varmap.h"

typedef struct tensor_info {
    const char *key;
    const char *encoding;     /* "name", "coo_sparse" or "composite_tensor" */
    const char *tensor;       /* graph tensor name ("" for the other encodings) */
    const Tensorflow__TensorInfo__CooSparse *coo;
    int dtype;
    sm2c_shape shape;
} tensor_info;

typedef struct signature {
    const char *key;
    const char *method;
    size_t n_inputs, n_outputs;
    tensor_info *inputs, *outputs;
    const char *why;          /* why `compile --signature KEY` refuses it, NULL when it compiles */
} signature;

typedef struct ckpt_entry {
    const sm2c_bundle_entry *e;
    sm2c_tensor *values;      /* NULL when larger than max_values */
} ckpt_entry;

typedef struct report {
    sm2c_arena *arena;
    const sm2c_model *m;
    const sm2c_varmap *vm;
    size_t n_sigs;
    signature *sigs;
    size_t n_entries;
    ckpt_entry *entries;
    size_t n_ops;
    sm2c_op_count *ops;
    const char *cflow_refused;   /* why functionalization refuses the TF1 control flow, or NULL */
    int verbose;
    const char *only;            /* --json --signature KEY: that signature alone */
    const sm2c_example_feature *features;   /* its tf.Example features */
    int32_t n_features;
} report;

/* ---- gathering ---------------------------------------------------------------- */

static int cmp_str_ptr(const char *a, const char *b) { return strcmp(a, b); }

static int cmp_info(const void *a, const void *b)
{
    return cmp_str_ptr(((const tensor_info *)a)->key, ((const tensor_info *)b)->key);
}

static int cmp_sig(const void *a, const void *b)
{
    return cmp_str_ptr(((const signature *)a)->key, ((const signature *)b)->key);
}

/* Map entries of SignatureDef inputs and outputs, as parallel key/value arrays. */
static sm2c_status gather_infos(sm2c_ctx *c, const sm2c_model *m, const char *where, size_t n,
                                char *const *keys, Tensorflow__TensorInfo *const *values,
                                tensor_info **out)
{
    tensor_info *infos = sm2c_arena_array(c->arena, n, sizeof *infos);
    for (size_t i = 0; i < n; i++) {
        const Tensorflow__TensorInfo *ti = values[i];
        tensor_info *t = &infos[i];
        t->key = keys[i];
        t->shape.rank = -1;
        t->tensor = "";
        t->encoding = "name";
        if (!ti)
            continue;
        if (ti->encoding_case == TENSORFLOW__TENSOR_INFO__ENCODING_NAME)
            t->tensor = ti->name;
        if (ti->encoding_case == TENSORFLOW__TENSOR_INFO__ENCODING_COO_SPARSE) {
            t->encoding = "coo_sparse";
            t->coo = ti->coo_sparse;
        }
        if (ti->encoding_case == TENSORFLOW__TENSOR_INFO__ENCODING_COMPOSITE_TENSOR)
            t->encoding = "composite_tensor";
        t->dtype = (int)ti->dtype;
        /* An absent shape is an empty TensorShapeProto: TensorFlow reads it as a scalar. */
        static const Tensorflow__TensorShapeProto scalar = TENSORFLOW__TENSOR_SHAPE_PROTO__INIT;
        const char *w = sm2c_arena_printf(c->arena, "%s '%s'", where, t->key);
        sm2c_status st = sm2c_shape_from_proto(c, m->file, w,
                                               ti->tensor_shape ? ti->tensor_shape : &scalar, &t->shape);
        if (st)
            return st;
    }
    qsort(infos, n, sizeof *infos, cmp_info);
    *out = infos;
    return SM2C_OK;
}

#define SPLIT_ENTRIES(c, entries, n, keys, values)                           \
    do {                                                                     \
        keys = sm2c_arena_array(c->arena, n, sizeof *keys);                  \
        values = sm2c_arena_array(c->arena, n, sizeof *values);              \
        for (size_t k_ = 0; k_ < n; k_++) {                                   \
            keys[k_] = entries[k_]->key;                                     \
            values[k_] = entries[k_]->value;                                 \
        }                                                                    \
    } while (0)

static sm2c_status gather_signatures(sm2c_ctx *c, report *r)
{
    const Tensorflow__MetaGraphDef *mg = r->m->meta_graph;
    r->n_sigs = mg->n_signature_def;
    r->sigs = sm2c_arena_array(c->arena, r->n_sigs, sizeof *r->sigs);
    for (size_t i = 0; i < r->n_sigs; i++) {
        const Tensorflow__SignatureDef *sd = mg->signature_def[i]->value;
        signature *s = &r->sigs[i];
        s->key = mg->signature_def[i]->key;
        s->method = sd ? sd->method_name : "";
        if (!sd)
            continue;
        const char *where = sm2c_arena_printf(c->arena, "signature '%s'", s->key);
        s->n_inputs = sd->n_inputs;
        s->n_outputs = sd->n_outputs;
        char **keys;
        Tensorflow__TensorInfo **values;
        SPLIT_ENTRIES(c, sd->inputs, sd->n_inputs, keys, values);
        sm2c_status st = gather_infos(c, r->m, where, sd->n_inputs, keys, values, &s->inputs);
        if (st)
            return st;
        SPLIT_ENTRIES(c, sd->outputs, sd->n_outputs, keys, values);
        if ((st = gather_infos(c, r->m, where, sd->n_outputs, keys, values, &s->outputs)))
            return st;
    }
    qsort(r->sigs, r->n_sigs, sizeof *r->sigs, cmp_sig);
    return SM2C_OK;
}

/* Every tensor is read (checksums verified); small ones keep their values. */
static sm2c_status gather_checkpoint(sm2c_ctx *c, report *r, int max_values)
{
    const sm2c_bundle *b = r->m->bundle;
    if (!b || !b->present)
        return SM2C_OK;
    r->n_entries = b->n_entries;
    r->entries = sm2c_arena_array(c->arena, b->n_entries, sizeof *r->entries);
    for (size_t i = 0; i < b->n_entries; i++) {
        const sm2c_bundle_entry *e = &b->entries[i];
        r->entries[i].e = e;
        sm2c_arena *scratch = sm2c_arena_new();
        sm2c_ctx tmp = *c;
        int keep = sm2c_shape_elements(&e->shape, c->limits->elements) <= max_values &&
                   strcmp(e->key, "_CHECKPOINTABLE_OBJECT_GRAPH") != 0;
        if (!keep)
            tmp.arena = scratch;
        sm2c_tensor *t = sm2c_arena_alloc(tmp.arena, sizeof *t);
        sm2c_status st = sm2c_bundle_read(&tmp, b, e, t);
        if (!st && keep)
            r->entries[i].values = t;
        sm2c_arena_free(scratch);
        if (st)
            return st;
    }
    return SM2C_OK;
}

static sm2c_status gather(sm2c_ctx *c, const sm2c_model *m, const sm2c_inspect_opts *o, report *r)
{
    r->m = m;
    r->arena = c->arena;
    sm2c_varmap *vm;
    sm2c_status st;
    if ((st = sm2c_model_check_attrs(c, m)) || (st = gather_signatures(c, r)) ||
        (st = sm2c_varmap_build(c, m, &vm)))
        return st;
    r->vm = vm;
    if ((st = gather_checkpoint(c, r, o->max_values)))
        return st;
    return sm2c_reachable_ops(c, m, &r->ops, &r->n_ops);
}

/* TF1 control-flow ops are compilable only in the shapes functionalization
** rewrites: try it on a second copy of the model (it rewrites in place, and
** the report describes the model as it is), with its diagnostics kept quiet. */
static sm2c_status try_functionalize(sm2c_ctx *c, const char *dir, const sm2c_inspect_opts *o, report *r)
{
    int any = 0;
    for (size_t i = 0; i < r->n_ops; i++)
        any |= sm2c_functionalize_handles(r->ops[i].op);
    if (!any)
        return SM2C_OK;
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(c, &quiet);
    sm2c_model *copy;
    sm2c_status st = sm2c_model_load(c, dir, o->tag_set, &copy);
    if (!st && sm2c_functionalize(&qc, copy) != SM2C_OK) {
        /* "FILE: WHERE: error: WHAT" -> "WHERE: WHAT" */
        r->cflow_refused = sm2c_inspect_reason(c->arena, copy->file, quiet.first);
    }
    sm2c_model_close(copy);
    return st;
}

/* Each signature compiled as `compile --signature KEY` compiles it. */
static sm2c_status gather_verdicts(sm2c_ctx *c, const char *dir, const sm2c_inspect_opts *o, report *r)
{
    for (size_t i = 0; i < r->n_sigs; i++) {
        if (r->only && strcmp(r->only, r->sigs[i].key))
            continue;
        sm2c_status st = sm2c_inspect_verdict(c, dir, o->tag_set, r->sigs[i].key, &r->sigs[i].why);
        if (st)
            return st;
    }
    return SM2C_OK;
}

/* Compilable: in the op table, or handled on import or by functionalization
** (when it accepts this model's control flow). */
static int compilable(const report *r, const char *op)
{
    if (r->cflow_refused && sm2c_functionalize_handles(op))
        return 0;
    return sm2c_op_supported(op);
}

/* ---- values ------------------------------------------------------------------- */

static int is_float(int dt)
{
    dt = sm2c_dtype_base(dt);
    return dt == SM2C_DT_FLOAT || dt == SM2C_DT_DOUBLE || dt == SM2C_DT_HALF ||
           dt == SM2C_DT_BFLOAT16;
}

static int digits(int dt)
{
    return sm2c_dtype_base(dt) == SM2C_DT_DOUBLE ? 17 : 9;
}

static int printable(sm2c_bytes s)
{
    if (s.len > 64)
        return 0;
    for (size_t i = 0; i < s.len; i++)
        if ((s.data[i] < 0x20 && s.data[i] != '\t') || s.data[i] == 0x7f)
            return 0;
    return 1;
}

static void text_value(FILE *f, const sm2c_tensor *t, int64_t i)
{
    int dt = sm2c_dtype_base(t->dtype);
    if (dt == SM2C_DT_STRING) {
        sm2c_bytes s = t->strings[i];
        if (printable(s))
            fprintf(f, "'%.*s'", (int)s.len, (const char *)s.data);
        else
            fprintf(f, "<%zu bytes>", s.len);
    } else if (dt == SM2C_DT_BOOL) {
        fputs(sm2c_tensor_get_i64(t, i) ? "true" : "false", f);
    } else if (is_float(dt)) {
        fprintf(f, "%.*g", digits(dt), sm2c_tensor_get_f64(t, i));
    } else if (dt == SM2C_DT_UINT64) {
        fprintf(f, "%llu", (unsigned long long)sm2c_tensor_get_u64(t, i));
    } else if (sm2c_tensor_is_integer(dt)) {
        fprintf(f, "%lld", (long long)sm2c_tensor_get_i64(t, i));
    } else {
        fputs("?", f);
    }
}

static int has_values(const sm2c_tensor *t)
{
    int dt = sm2c_dtype_base(t->dtype);
    return dt == SM2C_DT_STRING || dt == SM2C_DT_BOOL || is_float(dt) ||
           sm2c_tensor_is_integer(dt);
}

static void json_value(sm2c_json *j, const sm2c_tensor *t, int64_t i)
{
    int dt = sm2c_dtype_base(t->dtype);
    if (dt == SM2C_DT_STRING)
        sm2c_json_strn(j, (const char *)t->strings[i].data, t->strings[i].len);
    else if (dt == SM2C_DT_BOOL)
        sm2c_json_bool(j, sm2c_tensor_get_i64(t, i) != 0);
    else if (is_float(dt))
        sm2c_json_double(j, sm2c_tensor_get_f64(t, i), digits(dt));
    else if (dt == SM2C_DT_UINT64)
        sm2c_json_uint(j, sm2c_tensor_get_u64(t, i));
    else
        sm2c_json_int(j, sm2c_tensor_get_i64(t, i));
}

/* The values read for a variable's checkpoint entry, if it was small enough. */
static const sm2c_tensor *variable_values(const report *r, const sm2c_variable *v)
{
    const sm2c_bundle *b = r->m->bundle;
    if (!v->checkpoint_key || !b || !b->present)
        return NULL;
    const sm2c_bundle_entry *e = sm2c_bundle_find(b, v->checkpoint_key);
    if (!e)
        return NULL;
    const sm2c_tensor *t = r->entries[e - b->entries].values;
    return t && has_values(t) ? t : NULL;
}

static void text_values(FILE *f, const sm2c_tensor *t)
{
    if (!t || !has_values(t))
        return;
    fputs(" = [", f);
    for (int64_t k = 0; k < t->nelem; k++) {
        fputs(k ? ", " : "", f);
        text_value(f, t, k);
    }
    fputc(']', f);
}

static void json_values(sm2c_json *j, const sm2c_tensor *t)
{
    if (!t || !has_values(t))
        return;
    sm2c_json_key(j, "values");
    sm2c_json_array(j);
    for (int64_t k = 0; k < t->nelem; k++)
        json_value(j, t, k);
    sm2c_json_end(j);
}

/* ---- text --------------------------------------------------------------------- */

/* Names come from the model: control characters (a newline forging a report
** line, an escape sequence for the terminal) are shown as \xNN. */
static const char *esc(const report *r, const char *s)
{
    if (!s)
        return "";
    size_t n = 0;
    for (const char *p = s; *p; p++)
        n += (unsigned char)*p < 0x20 || *p == 0x7f;
    if (n == 0)
        return s;
    char *out = sm2c_arena_alloc(r->arena, strlen(s) + 3 * n + 1), *o = out;
    for (const char *p = s; *p; p++)
        o += (unsigned char)*p < 0x20 || *p == 0x7f ? sprintf(o, "\\x%02x", (unsigned char)*p)
                                                   : (*o = *p, 1);
    *o = 0;
    return out;
}

static void text_infos(const report *r, FILE *f, const char *label, const tensor_info *t, size_t n)
{
    sm2c_arena *a = r->arena;
    fprintf(f, "    %s:%s\n", label, n ? "" : " (none)");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "      %s: %s %s  <- ", esc(r, t[i].key), sm2c_dtype_name(t[i].dtype),
                sm2c_shape_str(a, &t[i].shape));
        if (t[i].coo)
            fprintf(f, "coo_sparse(values=%s, indices=%s, dense_shape=%s)\n",
                    esc(r, t[i].coo->values_tensor_name), esc(r, t[i].coo->indices_tensor_name),
                    esc(r, t[i].coo->dense_shape_tensor_name));
        else if (strcmp(t[i].encoding, "name"))
            fprintf(f, "%s\n", t[i].encoding);
        else
            fprintf(f, "%s\n", esc(r, t[i].tensor));
    }
}

static void text_model(sm2c_ctx *c, FILE *f, const report *r)
{
    const sm2c_model *m = r->m;
    const Tensorflow__MetaGraphDef__MetaInfoDef *info = m->meta_graph->meta_info_def;
    fprintf(f, "SavedModel %s\n", esc(r, m->dir));
    fprintf(f, "  file: %s (%s, %zu bytes)\n", esc(r, m->file), m->text_format ? "text" : "binary",
            m->file_bytes);
    fprintf(f, "  meta graphs: %zu; chosen: [%s]\n", m->saved_model->n_meta_graphs,
            esc(r, sm2c_model_tags_str(c, m->meta_graph)));
    fprintf(f, "  tensorflow: %s (%s)\n",
            info && info->tensorflow_version[0] ? esc(r, info->tensorflow_version) : "?",
            info && info->tensorflow_git_version[0] ? esc(r, info->tensorflow_git_version) : "?");
    fprintf(f, "  graph: %zu nodes, %zu functions, producer %d, %s\n", m->graph->n_node,
            m->graph->library ? m->graph->library->n_function : 0,
            m->graph->versions ? m->graph->versions->producer : 0,
            r->vm->object_based ? "object-based (TF2)" : "name-based (TF1)");
}

static void text_signatures(sm2c_ctx *c, FILE *f, const report *r)
{
    fprintf(f, "\nSignatures (%zu)\n", r->n_sigs);
    for (size_t i = 0; i < r->n_sigs; i++) {
        const signature *s = &r->sigs[i];
        fprintf(f, "  '%s'%s%s\n", esc(r, s->key), s->method[0] ? " method " : "",
                esc(r, s->method));
        text_infos(r, f, "inputs", s->inputs, s->n_inputs);
        text_infos(r, f, "outputs", s->outputs, s->n_outputs);
        if (s->why && !strcmp(s->key, SM2C_INIT_OP_KEY))
            fprintf(f, "    %s\n", s->why);
        else if (s->why)
            fprintf(f, "    does not compile: %s\n", esc(r, s->why));
        else
            fputs("    compiles\n", f);
    }
}

static void text_functions(FILE *f, const report *r)
{
    const sm2c_varmap *vm = r->vm;
    if (!vm->object_based)
        return;
    if (!r->verbose) {
        /* the ones --function compiles, a line each; the rest (layers' and
        ** internal functions, captures) with -v */
        size_t entries = 0;
        for (size_t i = 0; i < vm->n_fns; i++)
            entries += sm2c_concrete_fn_is_function(&vm->fns[i]);
        fprintf(f, "\nConcrete functions: %zu, %zu of them compilable with --function (-v lists them all)\n",
                vm->n_fns, entries);
        for (size_t i = 0; i < vm->n_fns; i++) {
            const sm2c_concrete_fn *fn = &vm->fns[i];
            if (sm2c_concrete_fn_is_function(fn))
                fprintf(f, "  entry: %s (--function %s) %s\n", esc(r, sm2c_concrete_fn_entry_key(r->arena, fn)),
                        esc(r, fn->owner), fn->input_signature ? esc(r, fn->input_signature) : "");
        }
        return;
    }
    fprintf(f, "\nConcrete functions (%zu)\n", vm->n_fns);
    for (size_t i = 0; i < vm->n_fns; i++) {
        const sm2c_concrete_fn *fn = &vm->fns[i];
        fprintf(f, "  %s\n", esc(r, fn->name));
        if (fn->owner_kind)
            fprintf(f, "    %s: %s\n", fn->owner_kind, fn->owner[0] ? esc(r, fn->owner) : "(root)");
        if (fn->input_signature)
            fprintf(f, "    input signature: %s\n", esc(r, fn->input_signature));
        if (sm2c_concrete_fn_is_function(fn))
            fprintf(f, "    entry: %s (--function %s)\n", esc(r, sm2c_concrete_fn_entry_key(r->arena, fn)),
                    esc(r, fn->owner));
        for (size_t k = 0; k < fn->n_captures; k++) {
            const sm2c_capture *cap = &fn->captures[k];
            fprintf(f, "    capture %zu: %s node %d", k, cap->kind, cap->object_id);
            if (cap->variable)
                fprintf(f, " '%s'", esc(r, cap->variable->path));
            if (cap->constant_op)
                fprintf(f, " Const '%s'", esc(r, cap->constant_op));
            fputc('\n', f);
        }
    }
}

static void text_variables(sm2c_ctx *c, FILE *f, const report *r)
{
    fprintf(f, "\nVariables (%zu)\n", r->vm->n_vars);
    for (size_t i = 0; i < r->vm->n_vars; i++) {
        const sm2c_variable *v = &r->vm->vars[i];
        fprintf(f, "  %s: %s %s -> %s%s%s", esc(r, v->path[0] ? v->path : v->name),
                sm2c_dtype_name(v->dtype), sm2c_shape_str(c->arena, &v->shape),
                v->checkpoint_key ? esc(r, v->checkpoint_key) : "(not in the checkpoint)",
                v->slice_spec ? " slice " : "", esc(r, v->slice_spec));
        text_values(f, variable_values(r, v));
        fputc('\n', f);
    }
}

static void text_checkpoint(sm2c_ctx *c, FILE *f, const report *r)
{
    const sm2c_bundle *b = r->m->bundle;
    if (!b || !b->present) {
        fputs("\nCheckpoint: none (no variables/ directory)\n", f);
        return;
    }
    fprintf(f, "\nCheckpoint %s: %zu entries, %d shard%s\n", esc(r, b->index_path), b->n_entries,
            b->num_shards, b->num_shards == 1 ? "" : "s");
    for (size_t i = 0; i < r->n_entries; i++) {
        const sm2c_bundle_entry *e = r->entries[i].e;
        fprintf(f, "  %s: %s %s", esc(r, e->key), sm2c_dtype_name(e->dtype), sm2c_shape_str(c->arena, &e->shape));
        const sm2c_tensor *t = r->entries[i].values;
        if (e->n_slices)
            fprintf(f, " (%d slices)", e->n_slices);
        text_values(f, t);
        fputc('\n', f);
    }
}

static void text_ops(FILE *f, const report *r)
{
    size_t total = 0, unsupported = 0;
    for (size_t i = 0; i < r->n_ops; i++) {
        total += r->ops[i].count;
        unsupported += !compilable(r, r->ops[i].op);
    }
    fprintf(f, "\nOps reachable from the signatures (%zu types, %zu nodes)\n", r->n_ops, total);
    for (size_t i = 0; i < r->n_ops; i++)
        fprintf(f, "  %-32s %6zu%s\n", esc(r, r->ops[i].op), r->ops[i].count,
                compilable(r, r->ops[i].op) ? "" : "  (not compilable yet)");
    fprintf(f, "\nUnsupported ops: %zu of %zu", unsupported, r->n_ops);
    for (size_t i = 0, k = 0; i < r->n_ops; i++)
        if (!compilable(r, r->ops[i].op))
            fprintf(f, "%s%s", k++ ? ", " : ": ", esc(r, r->ops[i].op));
    fputc('\n', f);
    if (r->cflow_refused)
        fprintf(f, "TF1 control flow not compilable: %s\n", esc(r, r->cflow_refused));
    size_t refused = 0, entries = 0;
    for (size_t i = 0; i < r->n_sigs; i++) {
        int init = !strcmp(r->sigs[i].key, SM2C_INIT_OP_KEY);
        refused += r->sigs[i].why != NULL && !init;
        entries += !init;
    }
    fprintf(f, "Signatures that do not compile: %zu of %zu", refused, entries);
    for (size_t i = 0, k = 0; i < r->n_sigs; i++)
        if (r->sigs[i].why && strcmp(r->sigs[i].key, SM2C_INIT_OP_KEY))
            fprintf(f, "%s%s", k++ ? ", " : ": ", esc(r, r->sigs[i].key));
    fputc('\n', f);
}

static void print_text(sm2c_ctx *c, FILE *f, const report *r)
{
    text_model(c, f, r);
    text_signatures(c, f, r);
    text_functions(f, r);
    text_variables(c, f, r);
    text_checkpoint(c, f, r);
    text_ops(f, r);
}

/* ---- JSON --------------------------------------------------------------------- */

static void json_shape(sm2c_json *j, const sm2c_shape *s)
{
    if (s->rank < 0) {
        sm2c_json_null(j);
        return;
    }
    sm2c_json_array(j);
    for (int32_t i = 0; i < s->rank; i++)
        sm2c_json_int(j, s->dims[i]);
    sm2c_json_end(j);
}

static void json_infos(sm2c_json *j, const char *label, const tensor_info *t, size_t n)
{
    sm2c_json_key(j, label);
    sm2c_json_array(j);
    for (size_t i = 0; i < n; i++) {
        sm2c_json_object(j);
        sm2c_json_field_str(j, "key", t[i].key);
        sm2c_json_field_str(j, "encoding", t[i].encoding);
        sm2c_json_field_str(j, "tensor", t[i].tensor);
        if (t[i].coo) {
            sm2c_json_key(j, "coo_sparse");
            sm2c_json_object(j);
            sm2c_json_field_str(j, "values", t[i].coo->values_tensor_name);
            sm2c_json_field_str(j, "indices", t[i].coo->indices_tensor_name);
            sm2c_json_field_str(j, "dense_shape", t[i].coo->dense_shape_tensor_name);
            sm2c_json_end(j);
        }
        sm2c_json_field_str(j, "dtype", sm2c_dtype_enum_name(t[i].dtype));
        sm2c_json_key(j, "shape");
        json_shape(j, &t[i].shape);
        sm2c_json_end(j);
    }
    sm2c_json_end(j);
}

static void json_model(sm2c_ctx *c, sm2c_json *j, const report *r)
{
    const sm2c_model *m = r->m;
    const Tensorflow__MetaGraphDef__MetaInfoDef *info = m->meta_graph->meta_info_def;
    sm2c_json_field_str(j, "dir", m->dir);
    sm2c_json_field_str(j, "format", m->text_format ? "text" : "binary");
    sm2c_json_field_uint(j, "file_bytes", m->file_bytes);
    sm2c_json_field_int(j, "schema_version", m->saved_model->saved_model_schema_version);
    sm2c_json_key(j, "tag_sets");
    sm2c_json_array(j);
    for (size_t i = 0; i < m->saved_model->n_meta_graphs; i++)
        sm2c_json_str(j, sm2c_model_tags_str(c, m->saved_model->meta_graphs[i]));
    sm2c_json_end(j);
    sm2c_json_key(j, "tags");
    sm2c_json_array(j);
    for (size_t i = 0; info && i < info->n_tags; i++)
        sm2c_json_str(j, info->tags[i]);
    sm2c_json_end(j);
    sm2c_json_field_str(j, "tensorflow_version", info ? info->tensorflow_version : "");
    sm2c_json_field_str(j, "tensorflow_git_version", info ? info->tensorflow_git_version : "");
    sm2c_json_field_uint(j, "graph_nodes", m->graph->n_node);
    sm2c_json_field_uint(j, "functions", m->graph->library ? m->graph->library->n_function : 0);
    sm2c_json_field_bool(j, "object_based", r->vm->object_based);
}

/* --json --signature KEY: the tf.Example features, as the text view lists them. */
static void json_features(sm2c_json *j, const report *r)
{
    sm2c_json_key(j, "features");
    sm2c_json_array(j);
    for (int32_t i = 0; i < r->n_features; i++) {
        const sm2c_example_feature *x = &r->features[i];
        sm2c_json_object(j);
        sm2c_json_key(j, "key");
        sm2c_json_strn(j, (const char *)x->key.data, x->key.len);
        sm2c_json_field_str(j, "kind", x->sparse ? "var_len" : "fixed_len");
        sm2c_json_field_str(j, "dtype", sm2c_dtype_enum_name(x->dtype));
        sm2c_json_key(j, "shape");
        json_shape(j, &x->shape);
        sm2c_json_key(j, "default");
        if (x->dflt && x->dflt->nelem && has_values(x->dflt)) {
            sm2c_json_array(j);
            for (int64_t k = 0; k < x->dflt->nelem; k++)
                json_value(j, x->dflt, k);
            sm2c_json_end(j);
        } else {
            sm2c_json_null(j);
        }
        sm2c_json_end(j);
    }
    sm2c_json_end(j);
}

static void json_signatures(sm2c_json *j, const report *r)
{
    sm2c_json_key(j, "signatures");
    sm2c_json_array(j);
    for (size_t i = 0; i < r->n_sigs; i++) {
        const signature *s = &r->sigs[i];
        if (r->only && strcmp(r->only, s->key))
            continue;
        sm2c_json_object(j);
        sm2c_json_field_str(j, "key", s->key);
        sm2c_json_field_str(j, "method", s->method);
        json_infos(j, "inputs", s->inputs, s->n_inputs);
        json_infos(j, "outputs", s->outputs, s->n_outputs);
        sm2c_json_field_bool(j, "compiles", s->why == NULL);
        if (s->why)
            sm2c_json_field_str(j, "why", s->why);
        if (r->only)
            json_features(j, r);
        sm2c_json_end(j);
    }
    sm2c_json_end(j);
}

static void json_functions(sm2c_json *j, const report *r)
{
    sm2c_json_key(j, "concrete_functions");
    sm2c_json_array(j);
    for (size_t i = 0; i < r->vm->n_fns; i++) {
        const sm2c_concrete_fn *fn = &r->vm->fns[i];
        sm2c_json_object(j);
        sm2c_json_field_str(j, "name", fn->name);
        sm2c_json_field_str(j, "owner_kind", fn->owner_kind);
        if (sm2c_concrete_fn_is_function(fn))
            sm2c_json_field_str(j, "entry", sm2c_concrete_fn_entry_key(r->arena, fn));
        sm2c_json_field_str(j, "owner", fn->owner);
        sm2c_json_field_str(j, "input_signature", fn->input_signature);
        sm2c_json_key(j, "captures");
        sm2c_json_array(j);
        for (size_t k = 0; k < fn->n_captures; k++) {
            sm2c_json_object(j);
            sm2c_json_field_int(j, "object_id", fn->captures[k].object_id);
            sm2c_json_field_str(j, "kind", fn->captures[k].kind);
            sm2c_json_field_str(j, "checkpoint_key", fn->captures[k].variable ? fn->captures[k].variable->checkpoint_key : NULL);
            sm2c_json_field_str(j, "constant_op", fn->captures[k].constant_op);
            sm2c_json_end(j);
        }
        sm2c_json_end(j);
        sm2c_json_end(j);
    }
    sm2c_json_end(j);
}

static void json_variables(sm2c_json *j, const report *r)
{
    sm2c_json_key(j, "variables");
    sm2c_json_array(j);
    for (size_t i = 0; i < r->vm->n_vars; i++) {
        const sm2c_variable *v = &r->vm->vars[i];
        sm2c_json_object(j);
        sm2c_json_field_str(j, "name", v->name);
        sm2c_json_field_str(j, "path", v->path);
        sm2c_json_field_int(j, "object_id", v->object_id);
        sm2c_json_field_str(j, "dtype", sm2c_dtype_enum_name(v->dtype));
        sm2c_json_key(j, "shape");
        json_shape(j, &v->shape);
        sm2c_json_field_str(j, "checkpoint_key", v->checkpoint_key);
        sm2c_json_field_str(j, "slice_spec", v->slice_spec);
        json_values(j, variable_values(r, v));
        sm2c_json_end(j);
    }
    sm2c_json_end(j);
}

static void json_entry(sm2c_json *j, const ckpt_entry *ce)
{
    const sm2c_bundle_entry *e = ce->e;
    sm2c_json_object(j);
    sm2c_json_key(j, "key");
    sm2c_json_strn(j, e->key, e->key_len);
    sm2c_json_field_str(j, "dtype", sm2c_dtype_enum_name(e->dtype));
    sm2c_json_key(j, "shape");
    json_shape(j, &e->shape);
    sm2c_json_field_int(j, "shard", e->shard_id);
    sm2c_json_field_int(j, "offset", e->offset);
    sm2c_json_field_int(j, "size", e->size);
    sm2c_json_field_int(j, "slices", e->n_slices);
    json_values(j, ce->values);
    sm2c_json_end(j);
}

static void json_checkpoint(sm2c_json *j, const report *r)
{
    const sm2c_bundle *b = r->m->bundle;
    sm2c_json_key(j, "checkpoint");
    if (!b || !b->present) {
        sm2c_json_null(j);
        return;
    }
    sm2c_json_object(j);
    sm2c_json_field_int(j, "num_shards", b->num_shards);
    sm2c_json_key(j, "entries");
    sm2c_json_array(j);
    for (size_t i = 0; i < r->n_entries; i++)
        json_entry(j, &r->entries[i]);
    sm2c_json_end(j);
    sm2c_json_end(j);
}

static void json_ops(sm2c_json *j, const report *r)
{
    sm2c_json_key(j, "ops");
    sm2c_json_object(j);
    for (size_t i = 0; i < r->n_ops; i++) {
        sm2c_json_field_uint(j, r->ops[i].op, r->ops[i].count);
    }
    sm2c_json_end(j);
    sm2c_json_key(j, "unsupported_ops");
    sm2c_json_array(j);
    for (size_t i = 0; i < r->n_ops; i++)
        if (!compilable(r, r->ops[i].op))
            sm2c_json_str(j, r->ops[i].op);
    sm2c_json_end(j);
    if (r->cflow_refused)
        sm2c_json_field_str(j, "tf1_control_flow_refused", r->cflow_refused);
}

static void print_json(sm2c_ctx *c, FILE *f, const report *r)
{
    sm2c_json j;
    sm2c_json_init(&j, f);
    sm2c_json_object(&j);
    json_model(c, &j, r);
    json_signatures(&j, r);
    json_functions(&j, r);
    json_variables(&j, r);
    json_checkpoint(&j, r);
    json_ops(&j, r);
    sm2c_json_end(&j);
}

/* --signature KEY: that signature alone, as saved_model_cli show --signature_def. */
static sm2c_status show_one(sm2c_ctx *c, const char *dir, const sm2c_inspect_opts *o, const sm2c_model *m,
                            FILE *out)
{
    sm2c_show_sig s = { .key = o->signature };
    sm2c_example_feature *fs;
    sm2c_status st;
    if (!(s.def = sm2c_show_find(c, m, o->signature)))
        return SM2C_ERR_USAGE;
    if ((st = sm2c_inspect_verdict(c, dir, o->tag_set, o->signature, &s.why)) ||
        (st = sm2c_inspect_features(c, dir, o->tag_set, o->signature, &fs, &s.n_features)))
        return st;
    s.features = fs;
    sm2c_show_text(c, out, &s);
    return SM2C_OK;
}

sm2c_status sm2c_inspect(sm2c_ctx *c, const char *dir, const sm2c_inspect_opts *o, FILE *out)
{
    sm2c_model *m;
    sm2c_status st = sm2c_model_load(c, dir, o->tag_set, &m);
    if (!st)
        st = sm2c_check_function_names(c, m);
    report r = { .verbose = o->verbose, .only = o->signature };
    if (!st && o->signature && !o->json) {
        st = show_one(c, dir, o, m, out);
        sm2c_model_close(m);
        return st;
    }
    if (!st && o->signature && !sm2c_show_find(c, m, o->signature))
        st = SM2C_ERR_USAGE;
    if (!st)
        st = gather(c, m, o, &r);
    if (!st)
        st = try_functionalize(c, dir, o, &r);
    if (!st)
        st = gather_verdicts(c, dir, o, &r);
    sm2c_example_feature *fs = NULL;
    if (!st && r.only && !(st = sm2c_inspect_features(c, dir, o->tag_set, r.only, &fs, &r.n_features)))
        r.features = fs;
    if (!st) {
        if (o->json)
            print_json(c, out, &r);
        else
            print_text(c, out, &r);
    }
    sm2c_model_close(m);
    return st;
}
