/*
** inspect_verdict.c: a signature compiled the way `sm2c compile --signature
** KEY` compiles it, on a copy of the model with its diagnostics kept quiet,
** so that inspect reports exactly compile's verdict and first reason.
*/
#include "inspect_verdict.h"

#include <string.h>

#include "driver/pipeline.h"
#include "import/functionalize.h"
#include "import/import.h"
#include "load/savedmodel.h"
#include "optimize/passes.h"
#include "load/varmap.h"

const char *sm2c_inspect_reason(sm2c_arena *a, const char *file, const char *line)
{
    const char *what = strstr(line, "error: ");
    size_t nf = strlen(file);
    if (nf && strncmp(line, file, nf) == 0 && line[nf] == ':')
        line += nf + 2;
    if (!what || what < line)
        return sm2c_arena_strdup(a, line);
    /* an empty place ("FILE: : error: WHAT") is left out */
    return what - line <= 2 ? sm2c_arena_strdup(a, what + 7)
                            : sm2c_arena_printf(a, "%.*s%s", (int)(what - line), line, what + 7);
}

sm2c_status sm2c_inspect_verdict(sm2c_ctx *c, const char *dir, const char *tag_set, const char *key,
                                 const char **why)
{
    if (!strcmp(key, SM2C_INIT_OP_KEY)) {
        *why = "the model's init op, not an entry point (compile leaves it out)";
        return SM2C_OK;
    }
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(c, &quiet);
    qc.arena = sm2c_arena_new();
    *why = NULL;
    sm2c_model *m;
    sm2c_status st = sm2c_model_load(&qc, dir, tag_set, &m);
    if (!st) {
        const char *keys[1] = { key };
        sm2c_compile_opts o = { .n_signatures = 1, .signatures = keys, .target = sm2c_target_host() };
        sm2c_program *p;
        if (sm2c_compile_program(&qc, m, &o, &p) != SM2C_OK)
            *why = sm2c_inspect_reason(c->arena, m->file, quiet.first[0] ? quiet.first : "cannot be compiled");
    }
    if (st)
        sm2c_error(c->diag, st, dir, NULL, "cannot load the model again: %s", quiet.first);
    sm2c_model_close(m);
    sm2c_arena_free(qc.arena);
    return st;
}

/* The feature's key and default in c's arena: they point into the model,
** which is closed before they are printed. */
static void own_feature(sm2c_ctx *c, sm2c_example_feature *f)
{
    uint8_t *k = sm2c_arena_alloc(c->arena, f->key.len + 1);
    memcpy(k, f->key.data, f->key.len);
    f->key.data = k;
    if (!f->dflt)
        return;
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    *t = *f->dflt;
    if (t->nbytes && t->data) {
        void *d = sm2c_arena_alloc(c->arena, (size_t)t->nbytes);
        memcpy(d, f->dflt->data, (size_t)t->nbytes);
        t->data = d;
    }
    if (t->strings) {
        t->strings = sm2c_arena_array(c->arena, (size_t)t->nelem + 1, sizeof *t->strings);
        for (int64_t i = 0; i < t->nelem; i++) {
            uint8_t *b = sm2c_arena_alloc(c->arena, f->dflt->strings[i].len + 1);
            memcpy(b, f->dflt->strings[i].data, f->dflt->strings[i].len);
            t->strings[i] = (sm2c_bytes){ b, f->dflt->strings[i].len };
        }
    }
    f->dflt = t;
}

static sm2c_status import_features(sm2c_ctx *c, sm2c_model *m, const char *key, sm2c_example_feature **out,
                                   int32_t *n_out)
{
    sm2c_varmap *vm;
    sm2c_graph *g;
    sm2c_import_opts io = { 0 };
    sm2c_status st;
    if ((st = sm2c_model_check_attrs(c, m)) || (st = sm2c_functionalize(c, m)) ||
        (st = sm2c_varmap_build(c, m, &vm)) || (st = sm2c_import_signature(c, m, vm, key, &io, &g)))
        return st;
    (void)sm2c_pass_shape(c, g);   /* folds the defaults as compile does; on failure the verdict says why */
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const sm2c_node *n = g->nodes[i];
        if (strcmp(n->op->name, "ParseExample") && strcmp(n->op->name, "ParseExampleV2"))
            continue;
        sm2c_example_feature *f;
        int32_t nf;
        if ((st = sm2c_parse_example_features(c, n, &f, &nf)))
            return st;
        sm2c_example_feature *all = sm2c_arena_array(c->arena, (size_t)(*n_out + nf) + 1, sizeof *all);
        if (*n_out)
            memcpy(all, *out, (size_t)*n_out * sizeof *all);
        memcpy(all + *n_out, f, (size_t)nf * sizeof *all);
        for (int32_t k = 0; k < nf; k++)
            own_feature(c, &all[*n_out + k]);
        *out = all;
        *n_out += nf;
    }
    return SM2C_OK;
}

sm2c_status sm2c_inspect_features(sm2c_ctx *c, const char *dir, const char *tag_set, const char *key,
                                  sm2c_example_feature **out, int32_t *n_out)
{
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(c, &quiet);   /* in c's arena: the features outlive the model */
    *out = NULL;
    *n_out = 0;
    sm2c_model *m;
    sm2c_status st = sm2c_model_load(&qc, dir, tag_set, &m);
    if (!st && import_features(&qc, m, key, out, n_out) != SM2C_OK)
        *n_out = 0;     /* the verdict says why it does not compile */
    if (st)
        sm2c_error(c->diag, st, dir, NULL, "cannot load the model again: %s", quiet.first);
    sm2c_model_close(m);
    return st;
}
