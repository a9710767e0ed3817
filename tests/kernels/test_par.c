/*
** test_par.c: the kernels split into tasks (par_f32.c) give the plain
** kernel's bits for every task count, run in order (no parallel-for) and on
** the pthread pool (pool_pthread.c) at 2, 3 and 8 threads, with the count
** set by par->threads or by the step's max_tasks; and the pool
** runs every task exactly once for task counts of 0 and 1, more threads than
** tasks, and across repeated create/destroy.
*/
#include "sm2c_test.h"

#include <stdlib.h>

#include "sm2c_rt.h"
#include "kref.h"

enum { KIND_CONV, KIND_CONV_ADD, KIND_DEPTHWISE, KIND_MAXPOOL, KIND_AVGPOOL };

typedef struct wcase {
    int kind;
    int32_t n, h, w, c, kh, kw, oc, sh, sw, dh, dw, same, fc, act;
} wcase;

static const wcase wcases[] = {
    { KIND_CONV, 1, 17, 13, 3, 3, 3, 16, 1, 1, 1, 1, 1, 3, SM2C_RT_ACT_RELU },    /* first layer */
    { KIND_CONV, 2, 9, 10, 8, 3, 3, 32, 2, 2, 1, 1, 1, 8, SM2C_RT_ACT_NONE },     /* strided, 2 images */
    { KIND_CONV, 1, 12, 7, 16, 1, 1, 24, 1, 1, 1, 1, 0, 16, SM2C_RT_ACT_RELU6 },  /* 1x1: a matmul */
    { KIND_CONV, 1, 11, 11, 4, 7, 7, 8, 1, 1, 1, 1, 1, 4, SM2C_RT_ACT_NONE },     /* pad 3 > stride */
    { KIND_CONV, 1, 15, 9, 6, 3, 3, 12, 1, 1, 2, 2, 1, 3, SM2C_RT_ACT_NONE },     /* dilated, 2 groups */
    { KIND_CONV, 3, 10, 4, 1, 10, 4, 8, 2, 1, 1, 1, 1, 1, SM2C_RT_ACT_RELU },     /* DS-CNN's first */
    { KIND_CONV_ADD, 1, 8, 8, 16, 3, 3, 16, 1, 1, 1, 1, 1, 16, SM2C_RT_ACT_RELU },
    { KIND_DEPTHWISE, 1, 14, 14, 32, 3, 3, 32, 1, 1, 1, 1, 1, 1, SM2C_RT_ACT_RELU6 },
    { KIND_DEPTHWISE, 2, 9, 9, 8, 3, 3, 16, 2, 2, 1, 1, 1, 2, SM2C_RT_ACT_NONE },
    { KIND_MAXPOOL, 1, 13, 12, 5, 3, 3, 5, 2, 2, 1, 1, 1, 5, SM2C_RT_ACT_NONE },
    { KIND_AVGPOOL, 2, 7, 7, 6, 3, 3, 6, 1, 1, 1, 1, 1, 6, SM2C_RT_ACT_NONE },
};

static void win_plain(const wcase *t, const float *x, const float *w, const float *b, const float *r,
                      float *y, const int32_t *p)
{
    switch (t->kind) {
    case KIND_CONV: sm2c_rt_conv2d_f32(x, w, b, y, p, t->act, 0.0f, 0.0f); break;
    case KIND_CONV_ADD: sm2c_rt_conv2d_add_f32(x, w, b, r, y, p, t->act, 0.0f, 0.0f); break;
    case KIND_DEPTHWISE: sm2c_rt_depthwise_conv2d_f32(x, w, b, y, p, t->act, 0.0f, 0.0f); break;
    case KIND_MAXPOOL: sm2c_rt_max_pool_f32(x, y, p); break;
    default: sm2c_rt_avg_pool_f32(x, y, p); break;
    }
}

static void win_split(const wcase *t, const sm2c_rt_par *par, int32_t tasks, const float *x,
                      const float *w, const float *b, const float *r, float *y, const int32_t *p)
{
    switch (t->kind) {
    case KIND_CONV: sm2c_rt_conv2d_f32_par(par, tasks, x, w, b, y, p, t->act, 0.0f, 0.0f); break;
    case KIND_CONV_ADD: sm2c_rt_conv2d_add_f32_par(par, tasks, x, w, b, r, y, p, t->act, 0.0f, 0.0f); break;
    case KIND_DEPTHWISE:
        sm2c_rt_depthwise_conv2d_f32_par(par, tasks, x, w, b, y, p, t->act, 0.0f, 0.0f);
        break;
    case KIND_MAXPOOL: sm2c_rt_max_pool_f32_par(par, tasks, x, y, p); break;
    default: sm2c_rt_avg_pool_f32_par(par, tasks, x, y, p); break;
    }
}

static const int32_t task_counts[] = { 1, 2, 3, 5, 8, 64 };
static const int32_t thread_counts[] = { 2, 3, 8 };

/* Every split of every case equals the plain kernel, bit for bit. */
static void windows_split_exactly(void **state)
{
    sm2c_rt_pool *pools[3];
    size_t i, j, k;
    (void)state;
    for (k = 0; k < 3; k++)
        assert_non_null(pools[k] = sm2c_rt_pool_create(thread_counts[k]));
    for (i = 0; i < sizeof wcases / sizeof wcases[0]; i++) {
        const wcase *t = &wcases[i];
        int32_t p[SM2C_RT_WIN_PARAMS];
        krng g = krng_new(100 + i);
        kwin_params(p, t->n, t->h, t->w, t->c, t->kh, t->kw, t->oc, t->sh, t->sw, t->dh, t->dw, t->same,
                    t->fc);
        const size_t nx = (size_t)t->n * t->h * t->w * t->c;
        const size_t nw = (size_t)t->kh * t->kw * t->fc * t->oc;
        const size_t ny = (size_t)t->n * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW] * t->oc;
        float *x = malloc(nx * 4), *w = malloc(nw * 4), *b = malloc((size_t)t->oc * 4);
        float *r = malloc(ny * 4), *want = malloc(ny * 4), *got = malloc(ny * 4);
        krng_fill(&g, x, nx, -1.0f, 1.0f);
        krng_fill(&g, w, nw, -0.5f, 0.5f);
        krng_fill(&g, b, (size_t)t->oc, -0.2f, 0.2f);
        krng_fill(&g, r, ny, -1.0f, 1.0f);
        win_plain(t, x, w, b, r, want, p);
        memset(got, 0xff, ny * 4);
        win_split(t, NULL, 64, x, w, b, r, got, p);     /* no par: one task, the plain kernel */
        if (memcmp(want, got, ny * 4))
            fail_msg("case %zu without par: not the plain kernel's bits", i);
        for (j = 0; j < sizeof task_counts / sizeof task_counts[0]; j++) {
            sm2c_rt_par serial = { NULL, NULL, task_counts[j] };
            memset(got, 0xff, ny * 4);
            win_split(t, &serial, 64, x, w, b, r, got, p);
            if (memcmp(want, got, ny * 4))
                fail_msg("case %zu, %d tasks in order: not the plain kernel's bits", i, task_counts[j]);
            memset(got, 0xff, ny * 4);
            win_split(t, &serial, task_counts[j] > 1 ? 2 : 1, x, w, b, r, got, p);  /* the step's cap */
            if (memcmp(want, got, ny * 4))
                fail_msg("case %zu, at most 2 tasks: not the plain kernel's bits", i);
            for (k = 0; k < 3; k++) {
                sm2c_rt_par par = { sm2c_rt_pool_parallel_for, pools[k], task_counts[j] };
                memset(got, 0xff, ny * 4);
                win_split(t, &par, 64, x, w, b, r, got, p);
                if (memcmp(want, got, ny * 4))
                    fail_msg("case %zu, %d tasks on %d threads: not the plain kernel's bits", i,
                             task_counts[j], thread_counts[k]);
            }
        }
        free(x), free(w), free(b), free(r), free(want), free(got);
    }
    for (k = 0; k < 3; k++)
        sm2c_rt_pool_destroy(pools[k]);
}

/* MatMul split over rows of A, with and without a packed transposed B. */
static void matmul_splits_exactly(void **state)
{
    static const int32_t shapes[][3] = { { 33, 70, 45 }, { 5, 128, 64 }, { 64, 17, 200 }, { 1, 9, 3 } };
    sm2c_rt_pool *pool = sm2c_rt_pool_create(3);
    size_t i, j;
    (void)state;
    assert_non_null(pool);
    for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int32_t m = shapes[i][0], k = shapes[i][1], n = shapes[i][2];
        float *a = malloc((size_t)m * k * 4), *b = malloc((size_t)k * n * 4), *bias = malloc((size_t)n * 4);
        float *want = malloc((size_t)m * n * 4), *got = malloc((size_t)m * n * 4);
        float *pack = malloc((size_t)64 * SM2C_RT_MATMUL_PACK_F32 * 4);
        krng g = krng_new(7 + i);
        int32_t tb;
        krng_fill(&g, a, (size_t)m * k, -1.0f, 1.0f);
        krng_fill(&g, b, (size_t)k * n, -1.0f, 1.0f);
        krng_fill(&g, bias, (size_t)n, -1.0f, 1.0f);
        for (tb = 0; tb < 2; tb++) {
            sm2c_rt_matmul_f32(a, b, bias, want, m, k, n, 0, tb, SM2C_RT_ACT_RELU, 0.0f, 0.0f, pack);
            for (j = 0; j < sizeof task_counts / sizeof task_counts[0]; j++) {
                sm2c_rt_par par = { sm2c_rt_pool_parallel_for, pool, task_counts[j] };
                memset(got, 0xff, (size_t)m * n * 4);
                sm2c_rt_matmul_f32_par(&par, 64, a, b, bias, got, m, k, n, 0, tb, SM2C_RT_ACT_RELU, 0.0f,
                                       0.0f, tb ? NULL : pack);
                if (memcmp(want, got, (size_t)m * n * 4))
                    fail_msg("matmul %dx%dx%d transpose_b %d, %d tasks: not the plain kernel's bits", m, k, n,
                             tb, task_counts[j]);
            }
        }
        free(a), free(b), free(bias), free(want), free(got), free(pack);
    }
    sm2c_rt_pool_destroy(pool);
}

typedef struct counter {
    int32_t hits[256];
} counter;

static void count_task(void *arg, int32_t t)
{
    __atomic_add_fetch(&((counter *)arg)->hits[t], 1, __ATOMIC_RELAXED);
}

/* Each task exactly once: 0 and 1 tasks, fewer tasks than threads, many
** steps in a row, and pools made and destroyed over and over. */
static void pool_runs_each_task_once(void **state)
{
    static const int32_t tasks[] = { 0, 1, 2, 3, 7, 256 };
    int32_t round, i, k, threads;
    (void)state;
    for (threads = 1; threads <= 9; threads += 4) {
        for (round = 0; round < 20; round++) {
            sm2c_rt_pool *pool = sm2c_rt_pool_create(threads);
            assert_non_null(pool);
            for (i = 0; i < 50; i++) {
                const int32_t n = tasks[(i + round) % 6];
                counter c;
                memset(&c, 0, sizeof c);
                sm2c_rt_pool_parallel_for(pool, n, count_task, &c);
                for (k = 0; k < 256; k++)
                    assert_int_equal(c.hits[k], k < n ? 1 : 0);
            }
            sm2c_rt_pool_destroy(pool);
        }
    }
    assert_null(sm2c_rt_pool_create(0));
    sm2c_rt_pool_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(windows_split_exactly),
        cmocka_unit_test(matmul_splits_exactly),
        cmocka_unit_test(pool_runs_each_task_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
