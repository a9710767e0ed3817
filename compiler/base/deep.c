/*
** deep.c: a walk on a stack sized for its depth (deep.h).
*/
#include "deep.h"

#include <pthread.h>

/* What a sanitizer build's frames cost more: AddressSanitizer's redzones
** roughly triple a frame. */
#if defined(__SANITIZE_ADDRESS__)
#define SM2C_DEEP_SCALE 4
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SM2C_DEEP_SCALE 4
#endif
#endif
#ifndef SM2C_DEEP_SCALE
#define SM2C_DEEP_SCALE 1
#endif

size_t sm2c_deep_stack(int64_t depth, int64_t inline_depth, size_t per_level)
{
    if (depth <= inline_depth)
        return 0;
    const size_t base = (size_t)16 << 20;    /* the rest of the program's frames */
    size_t per = per_level * SM2C_DEEP_SCALE;
    if ((uint64_t)depth > (SIZE_MAX - base) / per)
        return SIZE_MAX;
    return base + (size_t)depth * per;
}

typedef struct job {
    void (*fn)(void *);
    void *arg;
} job;

static void *run(void *p)
{
    job *j = p;
    j->fn(j->arg);
    return NULL;
}

int sm2c_deep_call(size_t stack, void (*fn)(void *), void *arg)
{
    if (!stack) {
        fn(arg);
        return 0;
    }
    pthread_attr_t attr;
    if (stack == SIZE_MAX || pthread_attr_init(&attr) != 0)
        return -1;
    job j = { fn, arg };
    pthread_t t;
    int rc = pthread_attr_setstacksize(&attr, stack);
    if (rc == 0)
        rc = pthread_create(&t, &attr, run, &j);
    pthread_attr_destroy(&attr);
    if (rc != 0)
        return -1;
    pthread_join(t, NULL);
    return 0;
}
