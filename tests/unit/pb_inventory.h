/*
** pb_inventory.h: expected metadata of the real models, read from
** ../shared/models/INVENTORY.txt, and a check of an unpacked SavedModel
** against it.  Used by test_pbscan.c (saved_model.pb) and test_pbtext.c
** (saved_model.pbtxt).  Include after sm2c_test.h.
*/
#ifndef PB_INVENTORY_H
#define PB_INVENTORY_H

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fileio.h"
#include "load/pbwire.h"
#include "saved_model.pb-c.h"

#define MODELS_DIR SM2C_TEST_DATA "/../../shared/models"

typedef struct inv_sig {
    char key[128];
    char inputs[1024];   /* input keys, each followed by ',' */
    char outputs[1024];
} inv_sig;

typedef struct inv_model {
    long meta_graphs, nodes, functions;
    char tf_version[64];
    int nsig;
    inv_sig sig[32];
} inv_model;

/* "in: a=x:0:DT_FLOAT[-1,1], b=y:0:..." -> "a,b," */
static void inv_keys(const char *list, char *out, size_t size)
{
    out[0] = 0;
    for (const char *p = list; *p && *p != '\n';) {
        while (*p == ' ')
            p++;
        const char *eq = strchr(p, '=');
        const char *nl = strchr(p, '\n');
        if (!eq || (nl && eq > nl))
            break;
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%.*s,", (int)(eq - p), p);
        const char *sep = strstr(eq, ", ");
        if (!sep || (nl && sep > nl))
            break;
        p = sep + 2;
    }
}

/* The section "=== <model>/" of the inventory; 0 when absent. */
static int inv_load(const char *inventory, const char *model, inv_model *m)
{
    char head[300];
    snprintf(head, sizeof head, "=== %s/\n", model);
    const char *p = strstr(inventory, head);
    if (!p)
        return 0;
    memset(m, 0, sizeof *m);
    p += strlen(head);
    const char *end = strstr(p, "\n=== ");
    if (!end)
        end = p + strlen(p);
    for (const char *line = p; line < end; line = strchr(line, '\n') + 1) {
        const char *s = line;
        while (*s == ' ')
            s++;
        long a, b;
        char key[128];
        if (sscanf(s, "schema_version: %ld, meta_graphs: %ld", &a, &b) == 2)
            m->meta_graphs = b;
        else if (sscanf(s, "graph nodes: %ld, functions: %ld", &a, &b) == 2 && m->nodes == 0)
            m->nodes = a, m->functions = b;
        else if (strncmp(s, "meta_graph tags=", 16) == 0 && strstr(s, "tf_version='"))
            sscanf(strstr(s, "tf_version='") + 12, "%63[^']", m->tf_version);
        else if (sscanf(s, "signature '%127[^']'", key) == 1 && m->nsig < 32)
            snprintf(m->sig[m->nsig++].key, sizeof m->sig[0].key, "%s", key);
        else if (strncmp(s, "in: ", 4) == 0 && m->nsig > 0)
            inv_keys(s + 4, m->sig[m->nsig - 1].inputs, sizeof m->sig[0].inputs);
        else if (strncmp(s, "out: ", 5) == 0 && m->nsig > 0)
            inv_keys(s + 5, m->sig[m->nsig - 1].outputs, sizeof m->sig[0].outputs);
        if (!strchr(line, '\n'))
            break;
    }
    return 1;
}

/* The keys of a TensorInfo map as "a,b," in inventory order. */
static void inv_assert_keys(const char *want, const char *const *keys, size_t n, const char *what)
{
    size_t count = 0;
    for (const char *p = want; *p; p = strchr(p, ',') + 1) {
        const char *comma = strchr(p, ',');
        int found = 0;
        for (size_t i = 0; i < n; i++)
            if (strlen(keys[i]) == (size_t)(comma - p) && !memcmp(keys[i], p, (size_t)(comma - p)))
                found = 1;
        if (!found)
            fail_msg("%s key '%.*s' missing", what, (int)(comma - p), p);
        count++;
    }
    assert_int_equal(count, n);
}

static void inv_check(const inv_model *m, const Tensorflow__SavedModel *sm, const char *model)
{
    (void)model;
    assert_int_equal(sm->n_meta_graphs, m->meta_graphs);
    const Tensorflow__MetaGraphDef *mg = sm->meta_graphs[0];
    size_t nodes = mg->graph_def ? mg->graph_def->n_node : 0;
    size_t funcs = mg->graph_def && mg->graph_def->library ? mg->graph_def->library->n_function : 0;
    assert_int_equal(nodes, m->nodes);
    assert_int_equal(funcs, m->functions);
    if (mg->meta_info_def)
        assert_string_equal(mg->meta_info_def->tensorflow_version, m->tf_version);
    assert_int_equal(mg->n_signature_def, m->nsig);
    for (int i = 0; i < m->nsig; i++) {
        const Tensorflow__SignatureDef *sig = NULL;
        for (size_t j = 0; j < mg->n_signature_def; j++)
            if (strcmp(mg->signature_def[j]->key, m->sig[i].key) == 0)
                sig = mg->signature_def[j]->value;
        if (!sig)
            fail_msg("%s: signature '%s' missing", model, m->sig[i].key);
        const char *keys[256];
        assert_true(sig->n_inputs <= 256 && sig->n_outputs <= 256);
        for (size_t j = 0; j < sig->n_inputs; j++)
            keys[j] = sig->inputs[j]->key;
        inv_assert_keys(m->sig[i].inputs, keys, sig->n_inputs, "input");
        for (size_t j = 0; j < sig->n_outputs; j++)
            keys[j] = sig->outputs[j]->key;
        inv_assert_keys(m->sig[i].outputs, keys, sig->n_outputs, "output");
    }
}

/* Calls fn(model_name, path) for every <model>/<file> under MODELS_DIR, in
** name order; returns how many, or -1 when MODELS_DIR is absent. */
static int inv_each_model(const char *file, void (*fn)(const char *, const char *, void *),
                          void *user)
{
    struct dirent **names;
    int n = scandir(MODELS_DIR, &names, NULL, alphasort);
    if (n < 0)
        return -1;
    int count = 0;
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/%s", MODELS_DIR, names[i]->d_name, file);
        if (names[i]->d_name[0] != '.' && access(path, R_OK) == 0) {
            fn(names[i]->d_name, path, user);
            count++;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

#endif
