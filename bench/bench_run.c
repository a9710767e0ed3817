/*
** bench_run.c: time one compiled model's first signature through its metadata
** table: median over SAMPLES of the mean time per call over a batch of calls.
** Inputs are deterministic pseudo-random values.  Built with the generated
** header's table only, so the same source serves both backends.
**
** usage: bench_run [SAMPLES [CALLS]]   (NAME is compiled in with -DMODEL=NAME)
** With CALLS the batch is fixed (for instruction counts under callgrind).
*/
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)
#include STR(MODEL.h)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int samples = argc > 1 ? atoi(argv[1]) : 21;
    const CAT(MODEL, _signature_info) *s = &CAT(MODEL, _signatures)[0];
    void *ins[16], *outs[16];
    uint32_t seed = 12345;
    for (int32_t i = 0; i < s->n_inputs && i < 16; i++) {
        float *p = malloc((size_t)s->inputs[i].size_bytes + 4);
        for (int64_t k = 0; k < s->inputs[i].size_bytes / 4; k++) {
            seed = seed * 1664525u + 1013904223u;
            p[k] = (float)(seed >> 8) / 16777216.0f - 0.5f;
        }
        ins[i] = p;
    }
    for (int32_t i = 0; i < s->n_outputs && i < 16; i++)
        outs[i] = malloc((size_t)s->outputs[i].size_bytes + 4);
    /* Calls per sample: about 20 ms worth. */
    int batch = argc > 2 ? atoi(argv[2]) : 1;
    for (double t0 = now(); argc <= 2 && now() - t0 < 0.02; batch *= 2)
        for (int k = 0; k < batch; k++)
            s->run(ins, outs);
    double *t = malloc(sizeof *t * (size_t)samples);
    for (int r = 0; r < samples; r++) {
        double t0 = now();
        for (int k = 0; k < batch; k++)
            s->run(ins, outs);
        t[r] = (now() - t0) / batch;
    }
    qsort(t, (size_t)samples, sizeof *t, cmp);
    printf("%s %s: median %.2f us per call (%d samples of %d calls)\n", STR(MODEL), s->key,
           t[samples / 2] * 1e6, samples, batch);
    return 0;
}
