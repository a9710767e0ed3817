/*
** dlopen_driver.c: drive a model compiled with --emit so through its metadata
** table alone: no generated header, only dlopen/dlsym and the table layout the
** generated header documents.
**
** usage: dlopen_driver LIB.so NAME SIGNATURE IN.raw... OUT.raw...
** Inputs and outputs are raw little-endian bytes, in the signature's order
** (inputs sorted by key, then outputs sorted by key).
*/
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tensor_info {
    const char *key;
    int32_t dtype;
    int32_t rank;
    const int64_t *dims;
    int64_t size_bytes;
    int32_t dynamic_dim;
    float scale;
    int32_t zero_point;
} tensor_info;

typedef struct signature_info {
    const char *key;
    int32_t n_inputs, n_outputs;
    const tensor_info *inputs, *outputs;
    int32_t (*run)(void *const *inputs, void *const *outputs);
} signature_info;

static void *symbol(void *lib, const char *name, const char *suffix)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s%s", name, suffix);
    void *p = dlsym(lib, buf);
    if (!p) {
        fprintf(stderr, "dlopen_driver: no symbol %s\n", buf);
        exit(2);
    }
    return p;
}

static void *read_raw(const char *path, int64_t n)
{
    void *b = malloc(n ? (size_t)n : 1);
    FILE *f = fopen(path, "rb");
    if (!b || !f || fread(b, 1, (size_t)n, f) != (size_t)n || fgetc(f) != EOF) {
        fprintf(stderr, "dlopen_driver: %s is not %lld bytes\n", path, (long long)n);
        exit(2);
    }
    fclose(f);
    return b;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return fprintf(stderr, "usage: dlopen_driver LIB NAME SIGNATURE IN... OUT...\n"), 2;
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return fprintf(stderr, "dlopen_driver: %s\n", dlerror()), 2;
    const int32_t *n_sigs = symbol(lib, argv[2], "_n_signatures");
    const signature_info *sigs = symbol(lib, argv[2], "_signatures");
    const signature_info *s = NULL;
    for (int32_t i = 0; i < *n_sigs; i++)
        if (strcmp(sigs[i].key, argv[3]) == 0)
            s = &sigs[i];
    if (!s || argc != 4 + s->n_inputs + s->n_outputs)
        return fprintf(stderr, "dlopen_driver: no signature %s or wrong file count\n", argv[3]), 2;
    void **ins = calloc((size_t)s->n_inputs + 1, sizeof *ins);
    void **outs = calloc((size_t)s->n_outputs + 1, sizeof *outs);
    for (int32_t i = 0; i < s->n_inputs; i++)
        ins[i] = read_raw(argv[4 + i], s->inputs[i].size_bytes);
    for (int32_t i = 0; i < s->n_outputs; i++)
        outs[i] = calloc(1, (size_t)s->outputs[i].size_bytes + 1);
    int32_t rc = s->run(ins, outs);
    if (rc)
        return fprintf(stderr, "dlopen_driver: run returned %d\n", (int)rc), 3;
    for (int32_t i = 0; i < s->n_outputs; i++) {
        FILE *f = fopen(argv[4 + s->n_inputs + i], "wb");
        if (!f || fwrite(outs[i], 1, (size_t)s->outputs[i].size_bytes, f) != (size_t)s->outputs[i].size_bytes ||
            fclose(f))
            return fprintf(stderr, "dlopen_driver: cannot write output %d\n", (int)i), 2;
        printf("%s: %s dtype %d rank %d, %lld bytes\n", s->key, s->outputs[i].key, (int)s->outputs[i].dtype,
               (int)s->outputs[i].rank, (long long)s->outputs[i].size_bytes);
    }
    for (int32_t i = 0; i < s->n_inputs; i++)
        free(ins[i]);
    for (int32_t i = 0; i < s->n_outputs; i++)
        free(outs[i]);
    free(ins);
    free(outs);
    dlclose(lib);
    return 0;
}
