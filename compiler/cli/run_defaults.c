/*
** run_defaults.c: the signature and input dtypes `sm2c run` reads from the
** SignatureDefs when the command line leaves them out.
*/
#include "run_defaults.h"

#include <stdlib.h>
#include <string.h>

static int cmp_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *joined(sm2c_ctx *c, const char **keys, size_t n)
{
    qsort(keys, n, sizeof *keys, cmp_key);
    const char *s = "";
    for (size_t i = 0; i < n; i++)
        s = sm2c_arena_printf(c->arena, "%s%s%s", s, i ? ", " : "", keys[i]);
    return s;
}

sm2c_status sm2c_run_only_signature(sm2c_ctx *c, const sm2c_model *m, const char **key)
{
    const Tensorflow__MetaGraphDef *mg = m->meta_graph;
    const char **keys = sm2c_arena_array(c->arena, mg->n_signature_def + 1, sizeof *keys);
    size_t n = 0;
    for (size_t i = 0; i < mg->n_signature_def; i++)
        if (strcmp(mg->signature_def[i]->key, "__saved_model_init_op"))
            keys[n++] = mg->signature_def[i]->key;
    if (n == 1) {
        *key = keys[0];
        return SM2C_OK;
    }
    if (n == 0)
        return sm2c_error(c->diag, SM2C_ERR_USAGE, m->file, NULL, "the model has no signature to run; "
                          "run a tf.function with --function PATH (sm2c inspect lists them)");
    return sm2c_error(c->diag, SM2C_ERR_USAGE, m->file, NULL, "the model has %zu signatures (%s): run one "
                      "with --signature KEY", n, joined(c, keys, n));
}

sm2c_status sm2c_run_input_dtype(sm2c_ctx *c, const sm2c_model *m, const char *sig, const char *key, int *dtype)
{
    const Tensorflow__MetaGraphDef *mg = m->meta_graph;
    for (size_t i = 0; i < mg->n_signature_def; i++) {
        const Tensorflow__SignatureDef *sd = mg->signature_def[i]->value;
        if (strcmp(mg->signature_def[i]->key, sig) || !sd)
            continue;
        const char **keys = sm2c_arena_array(c->arena, sd->n_inputs + 1, sizeof *keys);
        for (size_t k = 0; k < sd->n_inputs; k++) {
            if (!strcmp(sd->inputs[k]->key, key) && sd->inputs[k]->value) {
                *dtype = (int)sd->inputs[k]->value->dtype;
                return SM2C_OK;
            }
            keys[k] = sd->inputs[k]->key;
        }
        return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL, "--input_exprs %s: signature '%s' has no input "
                          "'%s'; its inputs are %s", key, sig, key,
                          sd->n_inputs ? joined(c, keys, sd->n_inputs) : "none");
    }
    return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL, "--input_exprs %s: no signature '%s' (it needs "
                      "--signature, not --function)", key, sig);
}
