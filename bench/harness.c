/*
** harness.c: the benchmark's entry points, linked into one shared object with a
** compiled model (its name compiled in with -DMODEL=NAME).  run_bench.py calls
** bench_call once to check the outputs and bench_time to time a batch of calls
** inside C, so that no Python call overhead lands in sm2c's numbers.
**
** With -DBENCH_CTX (run_bench.py sets it when the generated header has the
** context entries of issue 29, NAME_ctx_table) it also has:
**   bench_ctx_new / bench_ctx_free   one context with its own workspace and,
**                                    for threads > 1, its own pthread pool (when
**                                    the output has one: some step can split)
**   bench_ctx_call / bench_ctx_time  one call / a timed batch through the context
**   bench_throughput                 K caller threads at once, each its own
**                                    context and workspace (par zero: one thread
**                                    each), wall time
*/
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <time.h>

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)
#include STR(MODEL.h)

int32_t bench_call(void *const *inputs, void *const *outputs)
{
    return CAT(MODEL, _signatures)[0].run(inputs, outputs);
}

/* Seconds of this thread's CPU time for `calls` calls in a row (the machine
** is shared: time the thread spends descheduled is not the model's). */
double bench_time(void *const *inputs, void *const *outputs, int32_t calls)
{
    struct timespec t0, t1;
    int32_t k;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    for (k = 0; k < calls; k++)
        CAT(MODEL, _signatures)[0].run(inputs, outputs);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    return (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}

#ifdef BENCH_CTX
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define CTX CAT(MODEL, _ctx)
#define TABLE CAT(MODEL, _ctx_table)

/* The runtime's pool (sm2c_rt.h), declared here so that the harness needs only
** the model's header (which defines sm2c_rt_task_fn).  Weak: sm2c copies the
** pool into the output only when some step can split; without it the
** functions are NULL and every context runs on its caller's thread. */
typedef struct sm2c_rt_pool sm2c_rt_pool;
__attribute__((weak)) sm2c_rt_pool *sm2c_rt_pool_create(int32_t threads);
__attribute__((weak)) void sm2c_rt_pool_parallel_for(void *pool, int32_t n_tasks, sm2c_rt_task_fn task,
                                                     void *arg);
__attribute__((weak)) void sm2c_rt_pool_destroy(sm2c_rt_pool *pool);

typedef struct bench_ctx {
    CTX ctx;
    void *workspace;
    void *pool;
} bench_ctx;

static double seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 1 when the pool was linked (some step of the model can split). */
int32_t bench_has_pool(void)
{
    return sm2c_rt_pool_create != NULL;
}

/* A context with its own 64-byte aligned workspace; threads > 1 gives it a
** pthread pool of that many threads (the caller included).  NULL on failure. */
void *bench_ctx_new(int32_t threads)
{
    bench_ctx *b = calloc(1, sizeof *b);
    size_t size = (size_t)TABLE.workspace_size;
    size_t align = TABLE.workspace_align > 64 ? (size_t)TABLE.workspace_align : 64;

    if (!b)
        return NULL;
    size = (size + align - 1) / align * align;
    if (posix_memalign(&b->workspace, align, size ? size : align)) {
        free(b);
        return NULL;
    }
    memset(b->workspace, 0, size ? size : align);
    TABLE.init(&b->ctx, b->workspace);
    if (threads > 1 && sm2c_rt_pool_create) {
        b->pool = sm2c_rt_pool_create(threads);
        if (!b->pool) {
            free(b->workspace);
            free(b);
            return NULL;
        }
        b->ctx.par.parallel_for = sm2c_rt_pool_parallel_for;
        b->ctx.par.pool = b->pool;
        b->ctx.par.threads = threads;
    }
    return b;
}

void bench_ctx_free(void *h)
{
    bench_ctx *b = h;
    if (!b)
        return;
    if (b->pool)
        sm2c_rt_pool_destroy(b->pool);
    free(b->workspace);
    free(b);
}

static int32_t ctx_run(bench_ctx *b, void *const *inputs, void *const *outputs)
{
    return TABLE.run[0](&b->ctx, inputs, outputs);
}

int32_t bench_ctx_call(void *h, void *const *inputs, void *const *outputs)
{
    return ctx_run(h, inputs, outputs);
}

/* Seconds for `calls` calls in a row through the context: wall (monotonic)
** time when wall != 0, else this thread's CPU time. */
double bench_ctx_time(void *h, void *const *inputs, void *const *outputs, int32_t calls,
                      int32_t wall)
{
    clockid_t clock = wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
    double t0 = seconds(clock);
    int32_t k;

    for (k = 0; k < calls; k++)
        ctx_run(h, inputs, outputs);
    return seconds(clock) - t0;
}

typedef struct tp_start {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int32_t ready;      /* threads waiting for go */
    int32_t go;         /* 1: run; -1: give up */
} tp_start;

typedef struct tp_arg {
    bench_ctx *b;
    void *const *inputs;
    void *const *outputs;
    int32_t calls;
    int32_t rc;
    tp_start *start;
} tp_arg;

static void *tp_thread(void *p)
{
    tp_arg *a = p;
    tp_start *s = a->start;
    int32_t k, go;

    pthread_mutex_lock(&s->mu);
    s->ready++;
    pthread_cond_broadcast(&s->cv);
    while (s->go == 0)
        pthread_cond_wait(&s->cv, &s->mu);
    go = s->go;
    pthread_mutex_unlock(&s->mu);
    if (go < 0)
        return NULL;
    for (k = 0; k < a->calls; k++) {
        int32_t rc = ctx_run(a->b, a->inputs, a->outputs);
        if (rc)
            a->rc = rc;
    }
    return NULL;
}

/* k threads at once, each with its own context and workspace (one thread
** each: par zeroed), each making `calls` calls on its own inputs[t * n_in ..]
** and outputs[t * n_out ..].  Returns the wall (monotonic) seconds from the
** moment all k threads are waiting to start until the last one has finished;
** < 0 on an error.  The contexts and threads are made before the clock starts. */
double bench_throughput(int32_t k, int32_t calls, void *const *inputs, int32_t n_in,
                        void *const *outputs, int32_t n_out)
{
    pthread_t *th = calloc((size_t)k, sizeof *th);
    tp_arg *args = calloc((size_t)k, sizeof *args);
    tp_start s;
    double t0, t1;
    int32_t t, started = 0, rc = 0;

    if (!th || !args) {
        free(th);
        free(args);
        return -1;
    }
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    s.ready = 0;
    s.go = 0;
    for (t = 0; t < k; t++) {
        args[t].b = bench_ctx_new(1);
        args[t].inputs = inputs + (size_t)t * n_in;
        args[t].outputs = outputs + (size_t)t * n_out;
        args[t].calls = calls;
        args[t].start = &s;
        if (!args[t].b)
            rc = -1;
    }
    for (t = 0; rc == 0 && t < k; t++) {
        if (pthread_create(&th[t], NULL, tp_thread, &args[t]))
            rc = -1;
        else
            started++;
    }
    pthread_mutex_lock(&s.mu);
    while (s.ready < started)
        pthread_cond_wait(&s.cv, &s.mu);
    s.go = rc ? -1 : 1;
    t0 = seconds(CLOCK_MONOTONIC);
    pthread_cond_broadcast(&s.cv);
    pthread_mutex_unlock(&s.mu);
    for (t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    t1 = seconds(CLOCK_MONOTONIC);
    for (t = 0; t < k; t++) {
        if (args[t].rc)
            rc = -1;
        bench_ctx_free(args[t].b);
    }
    pthread_cond_destroy(&s.cv);
    pthread_mutex_destroy(&s.mu);
    free(th);
    free(args);
    return rc ? -1.0 : t1 - t0;
}
#endif
