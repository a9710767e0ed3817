/*
** pool_pthread.c: a portable pthread pool for sm2c_rt_par (sm2c_rt.h), for
** callers without a thread pool of their own.  Hosts only: the one runtime
** file that allocates (the pool and its threads, once, in create) and that a
** firmware image never links.
**
** The caller publishes a step (task function, argument, task count) and
** takes tasks itself beside the workers.  Publishing is a seqlock: `gen` is
** odd while the caller writes the step's fields and grows by 2 a step, and a
** worker keeps a copy of the fields only if gen was the same even number
** before and after it read them; the mutex and a wake-up are needed only
** when a worker sleeps (`sleepers`), so a step while the workers spin costs
** no lock and no system call.  Task numbers come from
** one counter that only grows: the step's tasks are [first, end), and a
** thread takes task t by moving the counter from t to t + 1 while t < end, so
** a thread still holding an older step (a smaller end) can never take a
** newer step's task.  `done` grows likewise; the step is over when it
** reaches end.  Between steps the workers spin for a while (steps follow each
** other within microseconds during an inference) and then sleep until the
** next step.
*/
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>

#include "sm2c_rt.h"
#include "rt_select.h"

enum { POOL_SPINS = 1 << 16 };   /* about 100 us of pauses before sleeping */

/* The fields each side writes sit on cache lines of their own (at least
** POOL_LINE bytes apart), so that a step moves the fewest lines between
** cores: the step itself (the caller writes, the workers read), the task
** counter and the count of finished tasks. */
enum { POOL_LINE = 64 };

struct sm2c_rt_pool {
    pthread_mutex_t mu;
    pthread_cond_t wake;         /* a new step, or stop */
    pthread_cond_t finished;     /* done reached end */
    pthread_t *workers;
    int32_t n_workers;
    /* atomics (__atomic builtins): */
    int32_t stop;
    int32_t sleeping_caller;
    int32_t sleepers;            /* workers asleep or about to sleep on wake */
    char pad0[POOL_LINE];
    sm2c_rt_task_fn fn;          /* the step, under the seqlock gen */
    void *arg;
    int64_t first, end;
    int64_t gen;                 /* 2 x steps published, + 1 while publishing */
    char pad1[POOL_LINE];
    int64_t next;                /* the next task number */
    char pad2[POOL_LINE];
    int64_t done;                /* tasks finished */
    char pad3[POOL_LINE];
};

static inline void pause_cpu(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

/* Takes and runs tasks of the step [first, end) until none is left. */
static inline void take_tasks(sm2c_rt_pool *p, sm2c_rt_task_fn fn, void *arg, int64_t first, int64_t end)
{
    for (;;) {
        int64_t t = __atomic_load_n(&p->next, __ATOMIC_RELAXED);
        if (t >= end)
            return;
        if (!__atomic_compare_exchange_n(&p->next, &t, t + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            continue;
        fn(arg, (int32_t)(t - first));
        /* sequentially consistent with the caller's flag and check: one of
        ** the two sees the other (else the caller could sleep for good) */
        if (__atomic_add_fetch(&p->done, 1, __ATOMIC_SEQ_CST) == end &&
            __atomic_load_n(&p->sleeping_caller, __ATOMIC_SEQ_CST)) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->finished);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

/* Waits for a step after `seen` (spinning, then sleeping); 0 when stopping. */
static inline int wait_step(sm2c_rt_pool *p, int64_t seen)
{
    int32_t i;

    for (i = 0; i < POOL_SPINS; i++) {
        if (__atomic_load_n(&p->gen, __ATOMIC_ACQUIRE) != seen || __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
            return !__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE);
        pause_cpu();
    }
    /* sequentially consistent with the caller's publishing and check: one
    ** of the two sees the other (else this worker could sleep through a step) */
    pthread_mutex_lock(&p->mu);
    __atomic_add_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&p->gen, __ATOMIC_SEQ_CST) == seen && !p->stop)
        pthread_cond_wait(&p->wake, &p->mu);
    __atomic_sub_fetch(&p->sleepers, 1, __ATOMIC_RELAXED);
    i = !p->stop;
    pthread_mutex_unlock(&p->mu);
    return i;
}

#if SM2C_RT_WANT(pool_create)
static void *worker(void *arg)
{
    sm2c_rt_pool *p = arg;
    int64_t seen = 0;

    while (wait_step(p, seen)) {
        sm2c_rt_task_fn fn;
        void *targ;
        int64_t first, end, g;
        /* the step's fields, all of one step (a step the caller has since
        ** finished leaves no task to take: see take_tasks) */
        for (;;) {
            g = __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE);
            if (g & 1) {
                pause_cpu();
                continue;
            }
            fn = __atomic_load_n(&p->fn, __ATOMIC_RELAXED);
            targ = __atomic_load_n(&p->arg, __ATOMIC_RELAXED);
            first = __atomic_load_n(&p->first, __ATOMIC_RELAXED);
            end = __atomic_load_n(&p->end, __ATOMIC_RELAXED);
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (__atomic_load_n(&p->gen, __ATOMIC_RELAXED) == g)
                break;
        }
        seen = g;
        take_tasks(p, fn, targ, first, end);
    }
    return NULL;
}
#endif

#if SM2C_RT_WANT(pool_parallel_for)
void sm2c_rt_pool_parallel_for(void *pool, int32_t n_tasks, sm2c_rt_task_fn task, void *arg)
{
    sm2c_rt_pool *p = pool;
    int64_t first, end, gen;
    int32_t i;

    if (n_tasks <= 0)
        return;
    if (!p || !p->n_workers || n_tasks == 1) {
        for (i = 0; i < n_tasks; i++)
            task(arg, i);
        return;
    }
    first = __atomic_load_n(&p->next, __ATOMIC_ACQUIRE);   /* every earlier task is done */
    end = first + n_tasks;
    gen = __atomic_load_n(&p->gen, __ATOMIC_RELAXED);      /* only the caller writes it */
    __atomic_store_n(&p->gen, gen + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    __atomic_store_n(&p->fn, task, __ATOMIC_RELAXED);
    __atomic_store_n(&p->arg, arg, __ATOMIC_RELAXED);
    __atomic_store_n(&p->first, first, __ATOMIC_RELAXED);
    __atomic_store_n(&p->end, end, __ATOMIC_RELAXED);
    __atomic_store_n(&p->gen, gen + 2, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->mu);
    }

    take_tasks(p, task, arg, first, end);
    for (i = 0; i < POOL_SPINS && __atomic_load_n(&p->done, __ATOMIC_ACQUIRE) != end; i++)
        pause_cpu();
    if (__atomic_load_n(&p->done, __ATOMIC_ACQUIRE) != end) {
        pthread_mutex_lock(&p->mu);
        __atomic_store_n(&p->sleeping_caller, 1, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&p->done, __ATOMIC_SEQ_CST) != end)
            pthread_cond_wait(&p->finished, &p->mu);
        __atomic_store_n(&p->sleeping_caller, 0, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&p->mu);
    }
}

#endif

#if SM2C_RT_WANT(pool_create)
sm2c_rt_pool *sm2c_rt_pool_create(int32_t threads)
{
    sm2c_rt_pool *p;
    int32_t i;

    if (threads < 1 || threads > 1024 || !(p = calloc(1, sizeof *p)))
        return NULL;
    if (threads > 1 && !(p->workers = calloc((size_t)threads - 1, sizeof *p->workers))) {
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->finished, NULL);
    for (i = 0; i < threads - 1; i++) {
        if (pthread_create(&p->workers[i], NULL, worker, p) != 0)
            break;
        p->n_workers++;
    }
    if (p->n_workers != threads - 1) {
        sm2c_rt_pool_destroy(p);
        return NULL;
    }
    return p;
}

#endif

#if SM2C_RT_WANT(pool_destroy)
void sm2c_rt_pool_destroy(sm2c_rt_pool *p)
{
    int32_t i;

    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (i = 0; i < p->n_workers; i++)
        pthread_join(p->workers[i], NULL);
    pthread_cond_destroy(&p->finished);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    free(p->workers);
    free(p);
}
#endif
#else
/* No POSIX threads here: the pool is not built (ISO C forbids an empty file). */
typedef int sm2c_rt_pool_pthread_unused;
#endif
