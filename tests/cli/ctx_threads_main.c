/*
** ctx_threads_main.c: contexts of one model called from several threads at
** once (tests/cli/ctx_threads.sh builds it with -DMODEL=NAME).
**
** Signature 0 of the model runs through the metadata tables only, so any
** model will do.  The serial reference is the static entry point on each of
** CALLERS input sets.  Then CALLERS threads call at once, each on its own
** context with its own inputs, ROUNDS times, and every output must be the
** reference's bytes; each context splits its steps over a pthread pool of
** its own, or (with -fopenmp) over an OpenMP parallel-for, the hook the
** header documents.  Last, one context on 1 to 8 threads in turn, and one
** with threads but no parallel-for (the tasks in order).
*/
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)
#include STR(MODEL.h)

#define SIG (CAT(MODEL, _signatures)[0])
#define CTX (CAT(MODEL, _ctx_table))

enum { CALLERS = 2, ROUNDS = 1000, MAX_ARGS = 16 };

/* The callers start together, so that their calls overlap. */
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t start_cond = PTHREAD_COND_INITIALIZER;
static int waiting, generation;

static void start_together(void)
{
    pthread_mutex_lock(&start_lock);
    int gen = generation;
    if (++waiting == CALLERS) {
        waiting = 0;
        generation++;
        pthread_cond_broadcast(&start_cond);
    }
    while (gen == generation)
        pthread_cond_wait(&start_cond, &start_lock);
    pthread_mutex_unlock(&start_lock);
}

typedef struct caller {
    void *in[MAX_ARGS], *out[MAX_ARGS], *ref[MAX_ARGS];
    int use_omp;
    int failed;
} caller;

static void *alloc_bytes(int64_t n)
{
    void *p = calloc(1, (size_t)(n > 0 ? n : 1));
    if (!p) {
        fprintf(stderr, "ctx_threads: out of memory\n");
        exit(2);
    }
    return p;
}

/* Deterministic inputs, different per caller: small floats or integers by dtype. */
static void fill_inputs(caller *c, uint32_t seed)
{
    for (int32_t i = 0; i < SIG.n_inputs; i++) {
        int64_t n = SIG.inputs[i].size_bytes;
        c->in[i] = alloc_bytes(n);
        for (int64_t b = 0; SIG.inputs[i].dtype == 1 && b + 4 <= n; b += 4) {
            seed = seed * 1664525u + 1013904223u;
            float v = (float)(seed >> 8) / 16777216.0f * 2.0f - 1.0f;
            memcpy((char *)c->in[i] + b, &v, 4);
        }
    }
    for (int32_t i = 0; i < SIG.n_outputs; i++) {
        c->out[i] = alloc_bytes(SIG.outputs[i].size_bytes);
        c->ref[i] = alloc_bytes(SIG.outputs[i].size_bytes);
    }
}

static int same_as_ref(const caller *c)
{
    for (int32_t i = 0; i < SIG.n_outputs; i++)
        if (memcmp(c->out[i], c->ref[i], (size_t)SIG.outputs[i].size_bytes))
            return 0;
    return 1;
}

#ifdef _OPENMP
/* The parallel-for hook on OpenMP: any job system fits the same shape. */
static void omp_parallel_for(void *pool, int32_t n_tasks, sm2c_rt_task_fn task, void *arg)
{
    int32_t t;
    (void)pool;
#pragma omp parallel for schedule(static)
    for (t = 0; t < n_tasks; t++)
        task(arg, t);
}
#endif

static void *ctx_new(void **workspace)
{
    void *ctx = alloc_bytes(CTX.ctx_size);
    *workspace = alloc_bytes(CTX.workspace_size + CTX.workspace_align);
    uintptr_t w = ((uintptr_t)*workspace + (uintptr_t)CTX.workspace_align - 1) & ~(uintptr_t)(CTX.workspace_align - 1);
    CTX.init(ctx, (void *)w);
    return ctx;
}

static sm2c_rt_par *par_of(void *ctx)
{
    return (sm2c_rt_par *)(void *)((char *)ctx + CTX.par_offset);
}

static void *call_many(void *arg)
{
    caller *c = arg;
    void *ws, *ctx = ctx_new(&ws);
    sm2c_rt_pool *pool = NULL;
    sm2c_rt_par *par = par_of(ctx);
#ifdef _OPENMP
    if (c->use_omp) {
        par->parallel_for = omp_parallel_for;
        par->threads = 4;
    }
#endif
    if (!c->use_omp) {
        pool = sm2c_rt_pool_create(2);
        if (!pool) {
            c->failed = 1;
            return NULL;
        }
        par->parallel_for = sm2c_rt_pool_parallel_for;
        par->pool = pool;
        par->threads = 2;
    }
    start_together();
    for (int r = 0; r < ROUNDS && !c->failed; r++) {
        for (int32_t i = 0; i < SIG.n_outputs; i++)
            memset(c->out[i], 0xa5, (size_t)SIG.outputs[i].size_bytes);
        if (CTX.run[0](ctx, c->in, c->out) != 0 || !same_as_ref(c))
            c->failed = 1;
    }
    if (pool)
        sm2c_rt_pool_destroy(pool);
    free(ctx);
    free(ws);
    return NULL;
}

int main(void)
{
    caller callers[CALLERS];
    pthread_t threads[CALLERS];
    int failed = 0;
    if (SIG.n_inputs > MAX_ARGS || SIG.n_outputs > MAX_ARGS)
        return 2;
    memset(callers, 0, sizeof callers);
    for (int k = 0; k < CALLERS; k++) {
        fill_inputs(&callers[k], 12345u + 7919u * (uint32_t)k);
        if (SIG.run(callers[k].in, callers[k].ref) != 0)
            return 3;
    }
    if (CALLERS > 1 && SIG.n_outputs && !memcmp(callers[0].ref[0], callers[1].ref[0],
                                                  (size_t)SIG.outputs[0].size_bytes)) {
        fprintf(stderr, "ctx_threads: the callers' inputs give the same outputs: the test could not tell them apart\n");
        return 3;
    }
    for (int mode = 0; mode < 2; mode++) {
#ifndef _OPENMP
        if (mode == 1)
            break;
#endif
        for (int k = 0; k < CALLERS; k++) {
            callers[k].use_omp = mode;
            if (pthread_create(&threads[k], NULL, call_many, &callers[k]))
                return 2;
        }
        for (int k = 0; k < CALLERS; k++) {
            pthread_join(threads[k], NULL);
            if (callers[k].failed) {
                fprintf(stderr, "ctx_threads: caller %d on %s: not the serial outputs\n", k,
                        mode ? "OpenMP" : "the pthread pool");
                failed = 1;
            }
        }
        printf("ok   %d callers at once, %d calls each, on %s\n", CALLERS, ROUNDS,
               mode ? "OpenMP's parallel-for" : "a pthread pool each");
    }
    /* One context on 1..8 threads, and with threads but no parallel-for. */
    void *ws, *ctx = ctx_new(&ws);
    caller *c = &callers[0];
    for (int32_t n = 0; n <= 8; n++) {
        sm2c_rt_pool *pool = n > 1 ? sm2c_rt_pool_create(n) : NULL;
        sm2c_rt_par *par = par_of(ctx);
        par->parallel_for = pool ? sm2c_rt_pool_parallel_for : NULL;
        par->pool = pool;
        par->threads = n ? n : 3;
        if (CTX.run[0](ctx, c->in, c->out) != 0 || !same_as_ref(c)) {
            fprintf(stderr, "ctx_threads: %d threads%s: not the serial outputs\n", (int)par->threads,
                    pool ? "" : " (no parallel-for)");
            failed = 1;
        }
        if (pool)
            sm2c_rt_pool_destroy(pool);
    }
    printf("%s one context on 1 to 8 threads, and with no parallel-for\n", failed ? "FAIL" : "ok  ");
    free(ctx);
    free(ws);
    for (int k = 0; k < CALLERS; k++) {
        for (int32_t i = 0; i < SIG.n_inputs; i++)
            free(callers[k].in[i]);
        for (int32_t i = 0; i < SIG.n_outputs; i++)
            free(callers[k].out[i]), free(callers[k].ref[i]);
    }
    return failed;
}
