/*
** split.c: the work of a step, and how many tasks a context entry point
** splits it into.  A split step calls the kernel's _par form
** (runtime/par_f32.c) with the plain kernel's arguments after (par,
** max_tasks); each task is the plain kernel on a band of the output rows and
** no sum is split, so the thread count never changes a bit.  The compiler
** knows every shape, so it decides here from the step's work whether more
** tasks pay for their hand-off: a tiny layer keeps one (no overhead).
*/
#include "lower/split.h"

#include <string.h>

/* The k-th argument of `kind` (INT or INTS), or NULL. */
static const sm2c_arg *nth_arg(const sm2c_step *s, sm2c_argkind kind, int k)
{
    for (int32_t i = 0; i < s->n_args; i++)
        if (s->args[i].kind == kind && k-- == 0)
            return &s->args[i];
    return NULL;
}

static int64_t product(const int32_t *v, const int *idx, int n)
{
    int64_t r = 1;
    for (int i = 0; i < n; i++)
        r *= v[idx[i]];
    return r;
}

/* The window parameters (SM2C_RT_WIN_* / SM2C_RT_VOL_* order, sm2c_rt.h). */
static int64_t conv_macs(const sm2c_step *s, int volume, int depthwise)
{
    static const int win[] = { 0, 6, 7, 8, 4, 5, 15 };           /* N OH OW OC KH KW FC */
    static const int vol[] = { 0, 8, 9, 10, 11, 5, 6, 7, 21 };   /* N OD OH OW OC KD KH KW FC */
    const sm2c_arg *p = nth_arg(s, SM2C_ARG_INTS, 0);
    if (!p || p->n < (volume ? 22 : 16))
        return 0;
    const int *idx = volume ? vol : win;
    int n = volume ? 9 : 7;
    return product(p->ints, idx, depthwise ? n - 1 : n);  /* depthwise: no FC sum */
}

/* The product of the kernel's first `count` integer arguments: m * k * n
** (times the batch) for matmul, k * n for matvec. */
static int64_t int_product(const sm2c_step *s, int count)
{
    int64_t r = 1;
    for (int k = 0; k < count; k++) {
        const sm2c_arg *v = nth_arg(s, SM2C_ARG_INT, k);
        if (!v)
            return 0;
        r *= v->i;
    }
    return r;
}

int64_t sm2c_step_macs(const sm2c_step *s)
{
    const char *k = s->control ? NULL : s->kernel;
    if (!k)
        return 0;
    if (strstr(k, "batch_matmul_"))
        return int_product(s, 4);
    if (strstr(k, "matmul_"))
        return int_product(s, 3);
    if (strstr(k, "matvec"))
        return int_product(s, 2);
    if (strstr(k, "depthwise_conv2d_"))
        return conv_macs(s, 0, 1);
    if (strstr(k, "conv2d_"))
        return conv_macs(s, 0, 0);
    if (strstr(k, "conv3d_"))
        return conv_macs(s, 1, 0);
    return 0;
}

/* ---- the kernels with a _par form ------------------------------------------ */

/* Windowed ops: bands of the N * OH output rows; a pool's work is its taps. */
static int64_t window_rows(const sm2c_step *s, int64_t *work)
{
    const sm2c_arg *p = nth_arg(s, SM2C_ARG_INTS, 0);
    if (!p || p->n < 16)
        return 0;
    *work = conv_macs(s, 0, strstr(s->kernel, "conv2d_f32") && !strstr(s->kernel, "depthwise") ? 0 : 1);
    return (int64_t)p->ints[0] * p->ints[6];
}

/* MatMul (a, b, bias, y, m, k, n, transpose_a, transpose_b, act, act_a,
** act_b, pack): rows of an untransposed A, when no pack scratch is given
** (it holds one task's tiles). */
static int64_t matmul_rows(const sm2c_step *s, int64_t *work)
{
    const sm2c_arg *ta = nth_arg(s, SM2C_ARG_INT, 3);
    if (s->n_args != 13 || !ta || ta->i != 0 || s->args[12].kind != SM2C_ARG_NULL)
        return 0;
    *work = sm2c_step_macs(s);
    return nth_arg(s, SM2C_ARG_INT, 0)->i;
}

typedef struct split_kernel {
    const char *kernel;
    int64_t (*rows)(const sm2c_step *s, int64_t *work);
} split_kernel;

static const split_kernel split_kernels[] = {
    { "sm2c_rt_avg_pool_f32", window_rows },
    { "sm2c_rt_conv2d_add_f32", window_rows },
    { "sm2c_rt_conv2d_f32", window_rows },
    { "sm2c_rt_depthwise_conv2d_f32", window_rows },
    { "sm2c_rt_matmul_f32", matmul_rows },
    { "sm2c_rt_max_pool_f32", window_rows },
};

int64_t sm2c_step_split_rows(const sm2c_step *s, int64_t *work)
{
    *work = 0;
    if (s->control || !s->kernel)
        return 0;
    for (size_t i = 0; i < sizeof split_kernels / sizeof split_kernels[0]; i++)
        if (!strcmp(s->kernel, split_kernels[i].kernel))
            return split_kernels[i].rows(s, work);
    return 0;
}

static int32_t tasks_for(const sm2c_step *s, int64_t task_work)
{
    int64_t work, rows = sm2c_step_split_rows(s, &work);
    int64_t n = work / task_work;
    if (n > rows)
        n = rows;
    if (n > SM2C_SPLIT_MAX_TASKS)
        n = SM2C_SPLIT_MAX_TASKS;
    return n >= 2 ? (int32_t)n : 1;
}

void sm2c_program_split(sm2c_program *p, const sm2c_target *t)
{
    for (int32_t k = 0; k < p->n_entries; k++)
        for (int32_t s = 0; s < p->entries[k].n_steps; s++) {
            sm2c_step *st = &p->entries[k].steps[s];
            st->max_tasks = t->cortex_m ? 1 : tasks_for(st, t->task_work > 0 ? t->task_work : SM2C_SPLIT_TASK_WORK);
        }
}

int sm2c_program_any_split(const sm2c_program *p)
{
    for (int32_t k = 0; k < p->n_entries; k++)
        for (int32_t s = 0; s < p->entries[k].n_steps; s++)
            if (p->entries[k].steps[s].max_tasks > 1)
                return 1;
    return 0;
}
