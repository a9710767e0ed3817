/*
** core_latency.c: the time one cache line takes to go from one core to another
** and back (two threads, one spinning on each side), median of 21 bursts, ns.
** run_bench.py prints it beside its thread tables: on a virtual machine the
** host may place two vCPUs on one chiplet (about 100 ns here) or on two (some
** hundreds), and every engine's 2-thread times follow that placement.
**
** build: cc -std=c99 -O2 -pthread bench/core_latency.c -o core_latency
*/
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { BURST = 20000, BURSTS = 21 };

static struct { int64_t v; char pad[56]; } ping, pong;

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void *echo(void *arg)
{
    int64_t i;
    (void)arg;
    for (i = 1; i <= (int64_t)BURST * BURSTS; i++) {
        while (__atomic_load_n(&ping.v, __ATOMIC_ACQUIRE) != i)
            relax();
        __atomic_store_n(&pong.v, i, __ATOMIC_RELEASE);
    }
    return NULL;
}

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

int main(void)
{
    pthread_t t;
    double ns[BURSTS];
    int64_t i = 0;
    int b, k;

    if (pthread_create(&t, NULL, echo, NULL))
        return 1;
    for (b = 0; b < BURSTS; b++) {
        double t0 = now();
        for (k = 0; k < BURST; k++) {
            i++;
            __atomic_store_n(&ping.v, i, __ATOMIC_RELEASE);
            while (__atomic_load_n(&pong.v, __ATOMIC_ACQUIRE) != i)
                relax();
        }
        ns[b] = (now() - t0) / BURST * 1e9;
    }
    pthread_join(t, NULL);
    qsort(ns, BURSTS, sizeof ns[0], cmp);
    printf("%.0f\n", ns[BURSTS / 2]);
    return 0;
}
