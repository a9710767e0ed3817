/*
** par_f32.c: float kernels split into tasks for a caller's parallel-for
** (sm2c_rt_par, sm2c_rt.h).
**
** Each task computes a disjoint part of the output by calling the ordinary
** kernel on a smaller problem of the same kind, and no sum is split, so the
** result is bit for bit the kernel's whatever the number of tasks or threads:
** every kernel sums each output element in one fixed order that its blocking
** does not change (conv_f32.c, matmul_f32.c).
**
**  - Windowed ops (Conv2D, its residual form, depthwise, pools) split the
**    N*OH output rows into bands.  A band of one image is the same op on the
**    input rows it reaches: the input starts at the band's first row (or keeps
**    the top padding that row still has), and stops after the last row the
**    band reads, so a 1x1 layer stays a matrix product in every band.  Rows
**    that fall in the padding stay padding, so each output pixel sees the
**    same taps as in the whole op.
**  - MatMul with an untransposed A and no pack scratch splits the rows of A
**    and y (the scratch is one task's; a transposed B is read in place).
*/
#include <stddef.h>

#include "sm2c_rt.h"
#include "rt_select.h"

/* Task t of n over `count` items: [*first, *end). */
static inline void task_range(int32_t t, int32_t n, int64_t count, int64_t *first, int64_t *end)
{
    *first = count * t / n;
    *end = count * (t + 1) / n;
}

/* The tasks a step takes: at most max_tasks, par's threads and `items`. */
static inline int32_t task_count(const sm2c_rt_par *par, int32_t max_tasks, int64_t items)
{
    int64_t n = par ? par->threads : 1;

    if (n > max_tasks)
        n = max_tasks;
    if (n > items)
        n = items;
    return n < 1 ? 1 : (int32_t)n;
}

/* Runs fn for every task: through the caller's parallel-for, or in order. */
static inline void run_tasks(const sm2c_rt_par *par, int32_t n, sm2c_rt_task_fn fn, void *arg)
{
    int32_t t;

    if (n > 1 && par && par->parallel_for) {
        par->parallel_for(par->pool, n, fn, arg);
        return;
    }
    for (t = 0; t < n; t++)
        fn(arg, t);
}

/* ---- windowed ops: bands of output rows ----------------------------------- */

typedef struct win_task win_task;
/* The kernel on one band: its parameters q and offsets into x (and r, y). */
typedef void (*win_fn)(const win_task *a, const int32_t *q, ptrdiff_t x_off, ptrdiff_t y_off);

struct win_task {
    const float *x, *w, *bias, *r;
    float *y;
    const int32_t *p;
    int32_t n_tasks, act;
    float act_a, act_b;
    win_fn run;
};

/* Output rows [oh0, oh1) of image `img`: the band's parameters in q and the
** element offsets of its input and output. */
static inline void band(const int32_t *p, int64_t img, int32_t oh0, int32_t oh1, int32_t *q,
                        ptrdiff_t *x_off, ptrdiff_t *y_off)
{
    const int64_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int64_t ih0 = (int64_t)oh0 * p[SM2C_RT_WIN_SH] - p[SM2C_RT_WIN_PT];
    const int64_t first = ih0 > 0 ? ih0 : 0;
    /* one past the last input row the band reads */
    const int64_t reach = (int64_t)(oh1 - 1) * p[SM2C_RT_WIN_SH] - p[SM2C_RT_WIN_PT] +
                          (int64_t)(p[SM2C_RT_WIN_KH] - 1) * p[SM2C_RT_WIN_DH] + 1;
    int32_t i;

    for (i = 0; i < SM2C_RT_WIN_PARAMS; i++)
        q[i] = p[i];
    q[SM2C_RT_WIN_N] = 1;
    q[SM2C_RT_WIN_OH] = oh1 - oh0;
    q[SM2C_RT_WIN_PT] = (int32_t)(first - ih0);
    q[SM2C_RT_WIN_H] = (int32_t)((reach < H ? reach : H) - first);
    *x_off = (ptrdiff_t)((img * H + first) * W * C);
    *y_off = (ptrdiff_t)(((img * p[SM2C_RT_WIN_OH]) + oh0) * p[SM2C_RT_WIN_OW] * p[SM2C_RT_WIN_OC]);
}

/* Task t: its share of the N*OH output rows, one band per image it touches. */
static inline void win_task_fn(void *arg, int32_t t)
{
    const win_task *a = arg;
    const int64_t OH = a->p[SM2C_RT_WIN_OH];
    int64_t r, end;
    int32_t q[SM2C_RT_WIN_PARAMS];
    ptrdiff_t xo, yo;

    task_range(t, a->n_tasks, a->p[SM2C_RT_WIN_N] * OH, &r, &end);
    while (r < end) {
        const int64_t img = r / OH, oh0 = r % OH;
        const int64_t oh1 = end - img * OH < OH ? end - img * OH : OH;
        band(a->p, img, (int32_t)oh0, (int32_t)oh1, q, &xo, &yo);
        a->run(a, q, xo, yo);
        r = img * OH + oh1;
    }
}

/* The step as tasks; one task is the plain kernel on the whole. */
static inline void win_par(const sm2c_rt_par *par, int32_t max_tasks, win_task *a)
{
    a->n_tasks = task_count(par, max_tasks, (int64_t)a->p[SM2C_RT_WIN_N] * a->p[SM2C_RT_WIN_OH]);
    if (a->n_tasks == 1) {
        a->run(a, a->p, 0, 0);
        return;
    }
    run_tasks(par, a->n_tasks, win_task_fn, a);
}

#if SM2C_RT_WANT(conv2d_f32_par)
static void conv_band(const win_task *a, const int32_t *q, ptrdiff_t xo, ptrdiff_t yo)
{
    sm2c_rt_conv2d_f32(a->x + xo, a->w, a->bias, a->y + yo, q, a->act, a->act_a, a->act_b);
}

void sm2c_rt_conv2d_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, const float *w,
                            const float *bias, float *y, const int32_t *p, int32_t act, float act_a,
                            float act_b)
{
    win_task a = { x, w, bias, NULL, y, p, 0, act, act_a, act_b, conv_band };
    win_par(par, max_tasks, &a);
}
#endif

#if SM2C_RT_WANT(conv2d_add_f32_par)
static void conv_add_band(const win_task *a, const int32_t *q, ptrdiff_t xo, ptrdiff_t yo)
{
    sm2c_rt_conv2d_add_f32(a->x + xo, a->w, a->bias, a->r + yo, a->y + yo, q, a->act, a->act_a, a->act_b);
}

void sm2c_rt_conv2d_add_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x,
                                const float *w, const float *bias, const float *r, float *y,
                                const int32_t *p, int32_t act, float act_a, float act_b)
{
    win_task a = { x, w, bias, r, y, p, 0, act, act_a, act_b, conv_add_band };
    win_par(par, max_tasks, &a);
}
#endif

#if SM2C_RT_WANT(depthwise_conv2d_f32_par)
static void depthwise_band(const win_task *a, const int32_t *q, ptrdiff_t xo, ptrdiff_t yo)
{
    sm2c_rt_depthwise_conv2d_f32(a->x + xo, a->w, a->bias, a->y + yo, q, a->act, a->act_a, a->act_b);
}

void sm2c_rt_depthwise_conv2d_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x,
                                      const float *w, const float *bias, float *y, const int32_t *p,
                                      int32_t act, float act_a, float act_b)
{
    win_task a = { x, w, bias, NULL, y, p, 0, act, act_a, act_b, depthwise_band };
    win_par(par, max_tasks, &a);
}
#endif

#if SM2C_RT_WANT(max_pool_f32_par)
static void max_pool_band(const win_task *a, const int32_t *q, ptrdiff_t xo, ptrdiff_t yo)
{
    sm2c_rt_max_pool_f32(a->x + xo, a->y + yo, q);
}

void sm2c_rt_max_pool_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y,
                              const int32_t *p)
{
    win_task a = { x, NULL, NULL, NULL, y, p, 0, 0, 0.0f, 0.0f, max_pool_band };
    win_par(par, max_tasks, &a);
}
#endif

#if SM2C_RT_WANT(avg_pool_f32_par)
static void avg_pool_band(const win_task *a, const int32_t *q, ptrdiff_t xo, ptrdiff_t yo)
{
    sm2c_rt_avg_pool_f32(a->x + xo, a->y + yo, q);
}

void sm2c_rt_avg_pool_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y,
                              const int32_t *p)
{
    win_task a = { x, NULL, NULL, NULL, y, p, 0, 0, 0.0f, 0.0f, avg_pool_band };
    win_par(par, max_tasks, &a);
}
#endif

/* ---- MatMul: rows of A and y ---------------------------------------------- */

/* A transposed A has no contiguous rows, and the pack scratch is one slice: either runs as one task. */

#if SM2C_RT_WANT(matmul_f32_par)
typedef struct mm_task {
    const float *a, *b, *bias;
    float *y, *pack;
    int32_t m, k, n, transpose_b, act, n_tasks;
    float act_a, act_b;
} mm_task;

static void mm_task_fn(void *arg, int32_t t)
{
    const mm_task *a = arg;
    int64_t first, end;

    task_range(t, a->n_tasks, a->m, &first, &end);
    sm2c_rt_matmul_f32(a->a + first * a->k, a->b, a->bias, a->y + first * a->n, (int32_t)(end - first),
                       a->k, a->n, 0, a->transpose_b, a->act, a->act_a, a->act_b,
                       NULL);
}

void sm2c_rt_matmul_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *a, const float *b,
                            const float *bias, float *y, int32_t m, int32_t k, int32_t n, int32_t transpose_a,
                            int32_t transpose_b, int32_t act, float act_a, float act_b, float *pack)
{
    mm_task s = { a, b, bias, y, pack, m, k, n, transpose_b, act, 0, act_a, act_b };

    if (transpose_a || pack) {
        sm2c_rt_matmul_f32(a, b, bias, y, m, k, n, transpose_a, transpose_b, act, act_a, act_b, pack);
        return;
    }
    s.n_tasks = task_count(par, max_tasks, m);
    run_tasks(par, s.n_tasks, mm_task_fn, &s);
}
#endif
