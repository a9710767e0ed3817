/*
** harness.c: the benchmark's entry points, linked into one shared object with a
** compiled model (its name compiled in with -DMODEL=NAME).  run_bench.py calls
** bench_call once to check the outputs and bench_time to time a batch of calls
** inside C, so that no Python call overhead lands in sm2c's numbers.
*/
#define _POSIX_C_SOURCE 199309L
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
