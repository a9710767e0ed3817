/*
** par_impl.h: how a _par kernel (sm2c_rt.h, "steps split into tasks") cuts
** its step into tasks and runs them, shared by the runtime files that define
** one (par_f32.c, and matvec_f32.c, whose column bands need its strided W).
*/
#ifndef SM2C_RT_PAR_IMPL_H
#define SM2C_RT_PAR_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"

/* Task t of n over `count` items: [*first, *end). */
static inline void sm2c_rt__task_range(int32_t t, int32_t n, int64_t count, int64_t *first, int64_t *end)
{
    *first = count * t / n;
    *end = count * (t + 1) / n;
}

/* The tasks a step takes: at most max_tasks, par's threads and `items`. */
static inline int32_t sm2c_rt__task_count(const sm2c_rt_par *par, int32_t max_tasks, int64_t items)
{
    int64_t n = par ? par->threads : 1;

    if (n > max_tasks)
        n = max_tasks;
    if (n > items)
        n = items;
    return n < 1 ? 1 : (int32_t)n;
}

/* The first of dims[0..rank) above 1 (the last when none is): leading dims
** of 1 move nothing, so an op over [1, 128, 128] splits its 128. */
static inline int32_t sm2c_rt__first_dim_above_1(int32_t rank, const int32_t *dims)
{
    int32_t k = 0;

    while (k + 1 < rank && dims[k] == 1)
        k++;
    return k;
}

/* Runs fn for every task: through the caller's parallel-for, or in order. */
static inline void sm2c_rt__run_tasks(const sm2c_rt_par *par, int32_t n, sm2c_rt_task_fn fn, void *arg)
{
    int32_t t;

    if (n > 1 && par && par->parallel_for) {
        par->parallel_for(par->pool, n, fn, arg);
        return;
    }
    for (t = 0; t < n; t++)
        fn(arg, t);
}

#endif
