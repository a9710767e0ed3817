/*
** inspect_show.c: one signature in saved_model_cli's `show --signature_def`
** layout, with its tf.Example feature specs and sm2c's verdict.
*/
#include "inspect_show.h"

#include <stdlib.h>
#include <string.h>

#include "load/tensor_proto.h"

static int cmp_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const Tensorflow__SignatureDef *sm2c_show_find(sm2c_ctx *c, const sm2c_model *m, const char *key)
{
    const Tensorflow__MetaGraphDef *mg = m->meta_graph;
    const char **keys = sm2c_arena_array(c->arena, mg->n_signature_def + 1, sizeof *keys);
    for (size_t i = 0; i < mg->n_signature_def; i++) {
        if (!strcmp(mg->signature_def[i]->key, key) && mg->signature_def[i]->value)
            return mg->signature_def[i]->value;
        keys[i] = mg->signature_def[i]->key;
    }
    qsort(keys, mg->n_signature_def, sizeof *keys, cmp_key);
    const char *list = "";
    for (size_t i = 0; i < mg->n_signature_def; i++)
        list = sm2c_arena_printf(c->arena, "%s%s'%s'", list, i ? ", " : "", keys[i]);
    sm2c_error(c->diag, SM2C_ERR_USAGE, m->file, NULL, "--signature '%s' names no signature; the model has %s",
               key, mg->n_signature_def ? list : "none");
    return NULL;
}

/* saved_model_cli's shape: "(-1, 5)", "()" for a scalar, "unknown_rank". */
static const char *py_shape(sm2c_ctx *c, const Tensorflow__TensorShapeProto *sp)
{
    if (!sp)
        return "()";
    if (sp->unknown_rank)
        return "unknown_rank";
    const char *s = "(";
    for (size_t i = 0; i < sp->n_dim; i++)
        s = sm2c_arena_printf(c->arena, "%s%s%lld", s, i ? ", " : "", (long long)sp->dim[i]->size);
    return sm2c_arena_printf(c->arena, "%s%s)", s, sp->n_dim == 1 ? "," : "");
}

static const char *sm_shape(sm2c_ctx *c, const sm2c_shape *s)
{
    if (s->rank < 0)
        return "unknown_rank";
    const char *t = "(";
    for (int32_t i = 0; i < s->rank; i++)
        t = sm2c_arena_printf(c->arena, "%s%s%lld", t, i ? ", " : "", (long long)s->dims[i]);
    return sm2c_arena_printf(c->arena, "%s%s)", t, s->rank == 1 ? "," : "");
}

/* The map entries' keys and values, as parallel arrays (the two maps' entry types differ). */
#define SHOW_INFOS(c, f, what, n, entries)                                       \
    do {                                                                         \
        const char **k_ = sm2c_arena_array((c)->arena, (n) + 1, sizeof *k_);     \
        const Tensorflow__TensorInfo **v_ = sm2c_arena_array((c)->arena, (n) + 1, sizeof *v_); \
        for (size_t i_ = 0; i_ < (n); i_++)                                      \
            k_[i_] = (entries)[i_]->key, v_[i_] = (entries)[i_]->value;          \
        infos(c, f, what, n, k_, v_);                                            \
    } while (0)

static void infos(sm2c_ctx *c, FILE *f, const char *what, size_t n, const char **in_keys,
                  const Tensorflow__TensorInfo **values)
{
    fprintf(f, "The given SavedModel SignatureDef contains the following %s(s):\n", what);
    const char **keys = sm2c_arena_array(c->arena, n + 1, sizeof *keys);
    memcpy(keys, in_keys, n * sizeof *keys);
    qsort(keys, n, sizeof *keys, cmp_key);
    for (size_t k = 0; k < n; k++) {
        const Tensorflow__TensorInfo *ti = NULL;
        for (size_t i = 0; i < n; i++)
            if (in_keys[i] == keys[k])
                ti = values[i];
        fprintf(f, "  %ss['%s'] tensor_info:\n", what, keys[k]);
        if (!ti)
            continue;
        fprintf(f, "      dtype: %s\n      shape: %s\n", sm2c_dtype_enum_name((int)ti->dtype),
                py_shape(c, ti->tensor_shape));
        if (ti->encoding_case == TENSORFLOW__TENSOR_INFO__ENCODING_NAME)
            fprintf(f, "      name: %s\n", ti->name);
        else if (ti->encoding_case == TENSORFLOW__TENSOR_INFO__ENCODING_COO_SPARSE)
            fprintf(f, "      coo_sparse: values %s, indices %s, dense_shape %s\n",
                    ti->coo_sparse->values_tensor_name, ti->coo_sparse->indices_tensor_name,
                    ti->coo_sparse->dense_shape_tensor_name);
        else
            fputs("      composite_tensor (nested, ragged or sparse)\n", f);
    }
}

static void default_values(FILE *f, const sm2c_tensor *t, int scalar)
{
    fputs(scalar ? "" : "[", f);
    for (int64_t i = 0; i < t->nelem && i < 16; i++) {
        fputs(i ? ", " : "", f);
        if (sm2c_dtype_base(t->dtype) == SM2C_DT_STRING)
            fprintf(f, "'%.*s'", (int)t->strings[i].len, (const char *)t->strings[i].data);
        else if (sm2c_tensor_is_integer(sm2c_dtype_base(t->dtype)))
            fprintf(f, "%lld", (long long)sm2c_tensor_get_i64(t, i));
        else
            fprintf(f, "%.9g", sm2c_tensor_get_f64(t, i));
    }
    fputs(scalar ? "" : t->nelem > 16 ? ", ...]" : "]", f);
}

static void features(sm2c_ctx *c, FILE *f, const sm2c_show_sig *s)
{
    if (!s->n_features)
        return;
    fputs("The serialized tf.Example protos hold the following feature(s):\n", f);
    for (int32_t i = 0; i < s->n_features; i++) {
        const sm2c_example_feature *x = &s->features[i];
        fprintf(f, "  features['%.*s']:\n      dtype: %s\n", (int)x->key.len, (const char *)x->key.data,
                sm2c_dtype_enum_name(x->dtype));
        if (x->sparse) {
            fputs("      shape: variable length (tf.io.VarLenFeature)\n", f);
            continue;
        }
        fprintf(f, "      shape: %s (tf.io.FixedLenFeature)\n      default: ", sm_shape(c, &x->shape));
        if (x->dflt && x->dflt->nelem)
            default_values(f, x->dflt, x->shape.rank == 0 && x->dflt->nelem == 1);
        else
            fputs("none (required)", f);
        fputc('\n', f);
    }
}

void sm2c_show_text(sm2c_ctx *c, FILE *f, const sm2c_show_sig *s)
{
    const Tensorflow__SignatureDef *d = s->def;
    SHOW_INFOS(c, f, "input", d->n_inputs, d->inputs);
    SHOW_INFOS(c, f, "output", d->n_outputs, d->outputs);
    fprintf(f, "Method name is: %s\n", d->method_name);
    features(c, f, s);
    if (s->why)
        fprintf(f, "sm2c: does not compile: %s\n", s->why);
    else
        fputs("sm2c: compiles\n", f);
}
