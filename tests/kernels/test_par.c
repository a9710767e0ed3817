/*
** test_par.c: the kernels split into tasks (par_f32.c) give the plain
** kernel's bits for every task count, run in order (no parallel-for) and on
** the pthread pool (pool_pthread.c) at 2, 3 and 8 threads, with the count
** set by par->threads or by the step's max_tasks (the padded copy too); and the pool
** runs every task exactly once for task counts of 0 and 1, more threads than
** tasks, and across repeated create/destroy.
*/
#include "sm2c_test.h"

#include <stdio.h>
#include <stdlib.h>

#include "sm2c_rt.h"
#include "kref.h"

enum { KIND_CONV, KIND_CONV_ADD, KIND_CONV_PACKED, KIND_CONV_ADD_PACKED, KIND_DEPTHWISE, KIND_MAXPOOL,
       KIND_AVGPOOL };

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
    { KIND_CONV_PACKED, 1, 9, 9, 24, 3, 3, 48, 1, 1, 1, 1, 1, 24, SM2C_RT_ACT_RELU }, /* panels of 16 */
    { KIND_CONV_ADD_PACKED, 2, 7, 7, 16, 3, 3, 32, 2, 2, 1, 1, 1, 16, SM2C_RT_ACT_NONE },
    /* filters that outweigh their input: rows times slices of 32 output channels */
    { KIND_CONV_PACKED, 2, 5, 5, 32, 3, 3, 96, 1, 1, 1, 1, 1, 32, SM2C_RT_ACT_RELU },
    { KIND_CONV_ADD_PACKED, 1, 7, 7, 64, 3, 3, 80, 1, 1, 1, 1, 1, 64, SM2C_RT_ACT_RELU6 },
    { KIND_CONV_PACKED, 1, 7, 7, 96, 1, 1, 64, 1, 1, 1, 1, 0, 96, SM2C_RT_ACT_NONE }, /* 1x1 */
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
    case KIND_CONV_PACKED: sm2c_rt_conv2d_packed_f32(x, w, b, y, p, t->act, 0.0f, 0.0f); break;
    case KIND_CONV_ADD_PACKED: sm2c_rt_conv2d_add_packed_f32(x, w, b, r, y, p, t->act, 0.0f, 0.0f); break;
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
    case KIND_CONV_PACKED: sm2c_rt_conv2d_packed_f32_par(par, tasks, x, w, b, y, p, t->act, 0.0f, 0.0f); break;
    case KIND_CONV_ADD_PACKED:
        sm2c_rt_conv2d_add_packed_f32_par(par, tasks, x, w, b, r, y, p, t->act, 0.0f, 0.0f);
        break;
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
        for (tb = 0; tb < 4; tb++) {     /* transpose_b tb & 1, the pack scratch given when tb & 2 */
            float *pk = tb & 2 ? pack : NULL;
            sm2c_rt_matmul_f32(a, b, bias, want, m, k, n, 0, tb & 1, SM2C_RT_ACT_RELU, 0.0f, 0.0f, pk);
            for (j = 0; j < sizeof task_counts / sizeof task_counts[0]; j++) {
                sm2c_rt_par par = { sm2c_rt_pool_parallel_for, pool, task_counts[j] };
                memset(got, 0xff, (size_t)m * n * 4);
                sm2c_rt_matmul_f32_par(&par, 64, a, b, bias, got, m, k, n, 0, tb & 1, SM2C_RT_ACT_RELU, 0.0f,
                                       0.0f, pk);
                if (memcmp(want, got, (size_t)m * n * 4))
                    fail_msg("matmul %dx%dx%d transpose_b %d%s, %d tasks: not the plain kernel's bits", m, k, n,
                             tb & 1, pk ? " packed" : "", task_counts[j]);
            }
        }
        free(a), free(b), free(bias), free(want), free(got), free(pack);
    }
    sm2c_rt_pool_destroy(pool);
}

/* ---- the kernels of a transformer block and an MLP at batch 1 ------------- */

/* One split kernel on one case: y from the case's inputs (y may be an input). */
typedef void (*split_fn)(const void *c, const sm2c_rt_par *par, int32_t max_tasks, float *y);

static const int32_t split_counts[] = { 1, 2, 3, 4, 8 };

/* The split equals want, bit for bit: without par, in order and on pools of
** 2, 3 and 8 threads for 1, 2, 3, 4 and 8 tasks (set by par->threads and
** by max_tasks).  init, when not NULL, is y's content before each run (for
** kernels that run in place). */
static void check_splits(const char *what, split_fn fn, const void *c, const float *want, const float *init,
                         size_t ny)
{
    sm2c_rt_pool *pools[3];
    float *got = malloc(ny * 4 + 4);
    size_t j, k;
    int mode;

    assert_non_null(got);
    for (k = 0; k < 3; k++)
        assert_non_null(pools[k] = sm2c_rt_pool_create(thread_counts[k]));
    for (j = 0; j < sizeof split_counts / sizeof split_counts[0]; j++) {
        const int32_t n = split_counts[j];
        for (mode = 0; mode < 6; mode++) {
            sm2c_rt_par par = { NULL, NULL, n };
            int32_t max_tasks = 64;
            if (mode == 1) {
                par.threads = 8, max_tasks = n;         /* the step's cap */
            } else if (mode >= 3) {
                par.parallel_for = sm2c_rt_pool_parallel_for;
                par.pool = pools[mode - 3];
            }
            if (init)
                memcpy(got, init, ny * 4);
            else
                memset(got, 0xff, ny * 4 + 4);
            got[ny] = 12345.0f;                          /* a task must not write past y */
            fn(c, mode == 2 ? NULL : &par, max_tasks, got);
            if (memcmp(want, got, ny * 4) || (!init && got[ny] != 12345.0f))
                fail_msg("%s, %d tasks, mode %d: not the plain kernel's bits", what, n, mode);
        }
    }
    for (k = 0; k < 3; k++)
        sm2c_rt_pool_destroy(pools[k]);
    free(got);
}

/* ---- pointwise convolutions: ranges of output pixels ----------------------- */

typedef struct pw_case {
    const wcase *t;
    const float *x, *w, *b, *r;
    const int32_t *p;
} pw_case;

static void pw_split(const void *c, const sm2c_rt_par *par, int32_t max_tasks, float *y)
{
    const pw_case *k = c;
    win_split(k->t, par, max_tasks, k->x, k->w, k->b, k->r, y, k->p);
}

/* A parallel-for that runs the tasks in order and records how many. */
static int32_t seen_tasks;

static void record_for(void *pool, int32_t n, sm2c_rt_task_fn fn, void *arg)
{
    int32_t t;
    (void)pool;
    seen_tasks = n;
    for (t = 0; t < n; t++)
        fn(arg, t);
}

/* A 1x1, stride 1, unpadded Conv2D (and its residual form) splits its
** N*OH*OW pixels, not its N*OH rows: a 7x7 layer takes up to 49 tasks.  Each
** case is the plain kernel's bits at 1..8 tasks (in order and on pools), on
** the matmul path (C <= 320), the conv blocks (C > 320, the residual form),
** and the direct loops (groups), with odd channel counts; and the packed
** filter's kernels (conv2d_packed_f32), which take the blocks. */
static void pointwise_splits_pixels(void **state)
{
    static const wcase cases[] = {
        { KIND_CONV, 1, 7, 7, 160, 1, 1, 97, 1, 1, 1, 1, 0, 160, SM2C_RT_ACT_RELU6 },  /* MobileNet late */
        { KIND_CONV, 1, 7, 7, 33, 1, 1, 61, 1, 1, 1, 1, 1, 33, SM2C_RT_ACT_NONE },     /* SAME is unpadded */
        { KIND_CONV, 2, 14, 14, 17, 1, 1, 23, 1, 1, 1, 1, 0, 17, SM2C_RT_ACT_RELU },   /* 2 images */
        { KIND_CONV, 1, 7, 7, 333, 1, 1, 35, 1, 1, 1, 1, 0, 333, SM2C_RT_ACT_NONE },   /* conv blocks */
        { KIND_CONV, 1, 14, 14, 12, 1, 1, 9, 1, 1, 1, 1, 0, 4, SM2C_RT_ACT_RELU },     /* 3 groups */
        { KIND_CONV, 1, 7, 7, 19, 1, 1, 13, 1, 1, 2, 2, 0, 19, SM2C_RT_ACT_NONE },     /* dilation moot */
        { KIND_CONV, 1, 7, 5, 3, 1, 1, 7, 1, 1, 1, 1, 0, 3, SM2C_RT_ACT_NONE },        /* 35 pixels */
        { KIND_CONV_ADD, 1, 14, 14, 24, 1, 1, 41, 1, 1, 1, 1, 0, 24, SM2C_RT_ACT_RELU },
        { KIND_CONV_ADD, 1, 7, 7, 161, 1, 1, 33, 1, 1, 1, 1, 1, 161, SM2C_RT_ACT_RELU6 },
        { KIND_CONV_ADD, 2, 7, 7, 5, 1, 1, 3, 1, 1, 1, 1, 0, 5, SM2C_RT_ACT_NONE },
        { KIND_CONV_PACKED, 1, 7, 7, 512, 1, 1, 32, 1, 1, 1, 1, 0, 512, SM2C_RT_ACT_RELU },
        { KIND_CONV_ADD_PACKED, 1, 7, 7, 40, 1, 1, 32, 1, 1, 1, 1, 0, 40, SM2C_RT_ACT_RELU },
    };
    size_t i;
    int32_t n;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const wcase *t = &cases[i];
        int32_t p[SM2C_RT_WIN_PARAMS];
        krng g = krng_new(900 + i);
        char what[96];
        kwin_params(p, t->n, t->h, t->w, t->c, t->kh, t->kw, t->oc, t->sh, t->sw, t->dh, t->dw, t->same,
                    t->fc);
        {
            const int64_t pixels = (int64_t)t->n * p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW];
            const size_t nx = (size_t)t->n * t->h * t->w * t->c, nw = (size_t)t->fc * t->oc;
            const size_t ny = (size_t)pixels * t->oc;
            float *x = malloc(nx * 4), *w = malloc(nw * 4), *b = malloc((size_t)t->oc * 4);
            float *r = malloc(ny * 4), *want = malloc(ny * 4), *got = malloc(ny * 4);
            pw_case c = { t, x, w, b, r, p };
            krng_fill(&g, x, nx, -1.0f, 1.0f);
            krng_fill(&g, w, nw, -0.5f, 0.5f);
            krng_fill(&g, b, (size_t)t->oc, -0.2f, 0.2f);
            krng_fill(&g, r, ny, -1.0f, 1.0f);
            assert_int_equal(p[SM2C_RT_WIN_OH], t->h);
            win_plain(t, x, w, b, r, want, p);
            snprintf(what, sizeof what, "pointwise case %zu", i);
            check_splits(what, pw_split, &c, want, NULL, ny);
            /* every count 1..8 and beyond the rows, and the count taken */
            for (n = 1; n <= 64; n = n < 8 ? n + 1 : n * 2) {
                sm2c_rt_par par = { record_for, NULL, n };
                seen_tasks = 1;
                memset(got, 0xff, ny * 4);
                win_split(t, &par, 64, x, w, b, r, got, p);
                if (memcmp(want, got, ny * 4))
                    fail_msg("pointwise case %zu, %d tasks: not the plain kernel's bits", i, n);
                assert_int_equal(seen_tasks, n < pixels ? n : pixels);
            }
            free(x), free(w), free(b), free(r), free(want), free(got);
        }
    }
}

/* A depthwise layer with multiplier 1 and over 32 channels splits its rows
** times its slices of 32 channels on a vector unit (a slice has the whole
** kernel's calls for its channels), so a 7-row layer of 960 channels has 210
** units.  The plain kernel's bits at 1..8 tasks and beyond, in order and on
** pools; odd channel counts (a short last slice, a masked tail), strides,
** padding, dilation, two images; a multiplier of 2 and 32 channels or fewer
** keep rows alone. */
static void depthwise_splits_channels(void **state)
{
    static const wcase cases[] = {
        { KIND_DEPTHWISE, 1, 7, 7, 960, 3, 3, 960, 1, 1, 1, 1, 1, 1, SM2C_RT_ACT_RELU6 },  /* MobileNet late */
        { KIND_DEPTHWISE, 1, 7, 7, 97, 3, 3, 97, 1, 1, 1, 1, 1, 1, SM2C_RT_ACT_NONE },
        { KIND_DEPTHWISE, 1, 14, 14, 161, 3, 3, 161, 2, 2, 1, 1, 1, 1, SM2C_RT_ACT_RELU },  /* to 7 rows */
        { KIND_DEPTHWISE, 1, 14, 14, 33, 5, 5, 33, 1, 1, 1, 1, 1, 1, SM2C_RT_ACT_NONE },
        { KIND_DEPTHWISE, 2, 7, 9, 75, 3, 3, 75, 1, 1, 2, 2, 1, 1, SM2C_RT_ACT_RELU6 },     /* dilated */
        { KIND_DEPTHWISE, 1, 7, 7, 64, 3, 3, 64, 1, 1, 1, 1, 0, 1, SM2C_RT_ACT_NONE },      /* valid: 5 rows */
        { KIND_DEPTHWISE, 1, 25, 5, 64, 3, 3, 64, 1, 1, 1, 1, 1, 1, SM2C_RT_ACT_RELU },     /* DS-CNN: bands */
        { KIND_DEPTHWISE, 1, 7, 7, 40, 3, 3, 80, 1, 1, 1, 1, 1, 2, SM2C_RT_ACT_NONE },      /* multiplier 2 */
        { KIND_DEPTHWISE, 1, 7, 7, 31, 3, 3, 31, 1, 1, 1, 1, 1, 1, SM2C_RT_ACT_RELU },      /* one slice */
    };
    size_t i;
    int32_t n;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const wcase *t = &cases[i];
        int32_t p[SM2C_RT_WIN_PARAMS];
        krng g = krng_new(950 + i);
        char what[96];
        kwin_params(p, t->n, t->h, t->w, t->c, t->kh, t->kw, t->oc, t->sh, t->sw, t->dh, t->dw, t->same,
                    t->fc);
        {
            const int64_t rows = (int64_t)t->n * p[SM2C_RT_WIN_OH];
            const int64_t units = rows * (t->fc == 1 && t->c > 32 ? (t->c + 31) / 32 : 1);
            const size_t nx = (size_t)t->n * t->h * t->w * t->c, nw = (size_t)t->kh * t->kw * t->oc;
            const size_t ny = (size_t)rows * p[SM2C_RT_WIN_OW] * t->oc;
            float *x = malloc(nx * 4), *w = malloc(nw * 4), *b = malloc((size_t)t->oc * 4);
            float *want = malloc(ny * 4), *got = malloc(ny * 4);
            pw_case c = { t, x, w, b, NULL, p };
            krng_fill(&g, x, nx, -1.0f, 1.0f);
            krng_fill(&g, w, nw, -0.5f, 0.5f);
            krng_fill(&g, b, (size_t)t->oc, -0.2f, 0.2f);
            win_plain(t, x, w, b, NULL, want, p);
            snprintf(what, sizeof what, "depthwise slices case %zu", i);
            check_splits(what, pw_split, &c, want, NULL, ny);
            for (n = 1; n <= 64; n = n < 8 ? n + 1 : n * 2) {
                sm2c_rt_par par = { record_for, NULL, n };
                seen_tasks = 1;
                memset(got, 0xff, ny * 4);
                win_split(t, &par, 64, x, w, b, NULL, got, p);
                if (memcmp(want, got, ny * 4))
                    fail_msg("depthwise slices case %zu, %d tasks: not the plain kernel's bits", i, n);
#if defined(__x86_64__) && !defined(SM2C_RT_SCALAR_ONLY)
                assert_int_equal(seen_tasks, n < units ? n : units);
#else   /* a scalar FPU has no slices */
                assert_true(seen_tasks == (n < units ? n : units) || seen_tasks == (n < rows ? n : rows));
#endif
            }
            free(x), free(w), free(b), free(want), free(got);
        }
    }
}

typedef struct mv_case {
    const float *x, *w, *bias;
    int32_t k, n, act, transposed;
} mv_case;

static void mv_split(const void *c, const sm2c_rt_par *par, int32_t max_tasks, float *y)
{
    const mv_case *t = c;
    if (t->transposed)
        sm2c_rt_matvec_t_f32_par(par, max_tasks, t->x, t->w, t->bias, y, t->k, t->n, t->act, 0.1f, 0.0f);
    else
        sm2c_rt_matvec_f32_par(par, max_tasks, t->x, t->w, t->bias, y, t->k, t->n, t->act, 0.1f, 0.0f);
}

/* MatVec split over blocks of 16 columns (W read at its full stride) and
** MatVec_t over rows of W: every column as the whole kernel has it. */
static void matvec_splits_exactly(void **state)
{
    static const int32_t shapes[][3] = { { 37, 100, SM2C_RT_ACT_RELU }, { 64, 16, SM2C_RT_ACT_NONE },
                                         { 5, 1, SM2C_RT_ACT_RELU6 }, { 128, 257, SM2C_RT_ACT_SIGMOID },
                                         { 3, 33, SM2C_RT_ACT_LEAKY_RELU }, { 200, 48, SM2C_RT_ACT_NONE },
                                         { 17, 129, SM2C_RT_ACT_HARD_SWISH }, { 64, 7, SM2C_RT_ACT_NONE },
                                         { 1, 40, SM2C_RT_ACT_NONE }, { 96, 384, SM2C_RT_ACT_RELU } };
    size_t i;
    int tr;
    (void)state;
    for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int32_t k = shapes[i][0], n = shapes[i][1];
        float *x = malloc((size_t)k * 4), *w = malloc((size_t)k * n * 4), *bias = malloc((size_t)n * 4);
        float *want = malloc((size_t)n * 4);
        krng g = krng_new(300 + i);
        char what[96];
        krng_fill(&g, x, (size_t)k, -1.0f, 1.0f);
        krng_fill(&g, w, (size_t)k * n, -1.0f, 1.0f);
        krng_fill(&g, bias, (size_t)n, -1.0f, 1.0f);
        for (tr = 0; tr < 4; tr++) {
            mv_case c = { x, w, (tr & 2) ? NULL : bias, k, n, shapes[i][2], tr & 1 };
            if (c.transposed)
                sm2c_rt_matvec_t_f32(x, w, c.bias, want, k, n, c.act, 0.1f, 0.0f);
            else
                sm2c_rt_matvec_f32(x, w, c.bias, want, k, n, c.act, 0.1f, 0.0f);
            snprintf(what, sizeof what, "matvec%s k %d n %d%s", c.transposed ? "_t" : "", k, n,
                     c.bias ? "" : " no bias");
            check_splits(what, mv_split, &c, want, NULL, (size_t)n);
        }
        free(x), free(w), free(bias), free(want);
    }
}

typedef struct bmm_case {
    const float *a, *b;
    const int32_t *a_off, *b_off;
    float *pack;
    int32_t batch, m, k, n, adj_a, adj_b;
} bmm_case;

static void bmm_split(const void *c, const sm2c_rt_par *par, int32_t max_tasks, float *y)
{
    const bmm_case *t = c;
    sm2c_rt_batch_matmul_f32_par(par, max_tasks, t->a, t->b, y, t->batch, t->a_off, t->b_off, t->m, t->k,
                                 t->n, t->adj_a, t->adj_b, t->pack);
}

/* BatchMatMul split over entries and rows of A (entries alone when A is
** transposed), with a broadcast operand, with and without pack. */
static void batch_matmul_splits_exactly(void **state)
{
    /* batch, m, k, n, adj_a, adj_b, b broadcast */
    static const int32_t shapes[][7] = { { 3, 5, 17, 9, 0, 0, 0 }, { 2, 1, 8, 33, 0, 1, 0 },
                                         { 4, 7, 16, 10, 1, 0, 0 }, { 1, 33, 20, 19, 0, 1, 0 },
                                         { 5, 2, 3, 4, 1, 1, 1 },   { 12, 16, 64, 16, 0, 1, 1 },
                                         { 1, 1, 5, 3, 0, 0, 0 },   { 2, 64, 32, 64, 0, 0, 0 } };
    float *pack = malloc((size_t)64 * SM2C_RT_MATMUL_PACK_F32 * 4);
    size_t i;
    int use_pack;
    (void)state;
    for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int32_t batch = shapes[i][0], m = shapes[i][1], k = shapes[i][2], n = shapes[i][3];
        const size_t na = (size_t)batch * m * k, nb = (size_t)batch * k * n, ny = (size_t)batch * m * n;
        float *a = malloc(na * 4), *b = malloc(nb * 4), *want = malloc(ny * 4);
        int32_t *a_off = malloc((size_t)batch * 4), *b_off = malloc((size_t)batch * 4);
        krng g = krng_new(400 + i);
        char what[96];
        int32_t j;
        krng_fill(&g, a, na, -1.0f, 1.0f);
        krng_fill(&g, b, nb, -1.0f, 1.0f);
        for (j = 0; j < batch; j++) {
            a_off[j] = j * m * k;
            b_off[j] = shapes[i][6] ? 0 : j * k * n;
        }
        for (use_pack = 0; use_pack < 2; use_pack++) {
            bmm_case c = { a, b, a_off, b_off, use_pack ? pack : NULL, batch, m, k, n, shapes[i][4],
                           shapes[i][5] };
            sm2c_rt_batch_matmul_f32(a, b, want, batch, a_off, b_off, m, k, n, c.adj_a, c.adj_b, c.pack);
            snprintf(what, sizeof what, "batch_matmul %dx%dx%dx%d adj %d %d%s", batch, m, k, n, c.adj_a,
                     c.adj_b, use_pack ? " packed" : "");
            check_splits(what, bmm_split, &c, want, NULL, ny);
        }
        free(a), free(b), free(want), free(a_off), free(b_off);
    }
    free(pack);
}

typedef struct bmms_case {
    const float *a, *b;
    const int32_t *a_off, *b_off, *y_off;
    float *pack;
    int32_t batch, m, k, n, a_rs, a_cs, b_rs, b_cs, y_rs;
} bmms_case;

static void bmms_split(const void *c, const sm2c_rt_par *par, int32_t max_tasks, float *y)
{
    const bmms_case *t = c;
    sm2c_rt_batch_matmul_strided_f32_par(par, max_tasks, t->a, t->b, y, t->batch, t->a_off, t->b_off,
                                         t->y_off, t->m, t->k, t->n, t->a_rs, t->a_cs, t->b_rs, t->b_cs,
                                         t->y_rs, t->pack);
}

/* The strided BatchMatMul (Einsum) split over entries and rows, in
** attention's layout: the batch index between the rows and the columns of
** A [m][batch][k], B [k][batch][n] (or transposed [n][batch][k], packed) and
** y [m][batch][n]. */
static void batch_matmul_strided_splits_exactly(void **state)
{
    static const int32_t shapes[][4] = { { 4, 16, 32, 16 }, { 3, 5, 17, 9 }, { 1, 33, 20, 19 },
                                         { 2, 64, 32, 70 } };
    float *pack = malloc((size_t)SM2C_RT_MATMUL_PACK_F32 * 4);
    size_t i;
    int tb;
    (void)state;
    for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int32_t batch = shapes[i][0], m = shapes[i][1], k = shapes[i][2], n = shapes[i][3];
        const size_t na = (size_t)batch * m * k, nb = (size_t)batch * k * n, ny = (size_t)batch * m * n;
        float *a = malloc(na * 4), *b = malloc(nb * 4), *want = malloc(ny * 4);
        int32_t *a_off = malloc((size_t)batch * 4), *b_off = malloc((size_t)batch * 4);
        int32_t *bt_off = malloc((size_t)batch * 4), *y_off = malloc((size_t)batch * 4);
        krng g = krng_new(900 + i);
        char what[96];
        int32_t j;
        krng_fill(&g, a, na, -1.0f, 1.0f);
        krng_fill(&g, b, nb, -1.0f, 1.0f);
        for (j = 0; j < batch; j++)
            a_off[j] = j * k, b_off[j] = j * n, bt_off[j] = j * k, y_off[j] = j * n;
        for (tb = 0; tb < 2; tb++) {
            bmms_case c = { a, b, a_off, tb ? bt_off : b_off, y_off, tb ? pack : NULL, batch, m, k, n,
                            batch * k, 1, tb ? 1 : batch * n, tb ? batch * k : 1, batch * n };
            sm2c_rt_batch_matmul_strided_f32(a, b, want, batch, a_off, c.b_off, y_off, m, k, n, c.a_rs, c.a_cs,
                                             c.b_rs, c.b_cs, c.y_rs, c.pack);
            snprintf(what, sizeof what, "batch_matmul_strided %dx%dx%dx%d%s", batch, m, k, n,
                     tb ? " transposed b" : "");
            check_splits(what, bmms_split, &c, want, NULL, ny);
        }
        free(a), free(b), free(want), free(a_off), free(b_off), free(bt_off), free(y_off);
    }
    free(pack);
}

typedef struct row_case {
    const float *x, *gamma, *beta;
    int32_t rows, cols, kind, in_place;
} row_case;

static void row_split(const void *c, const sm2c_rt_par *par, int32_t max_tasks, float *y)
{
    const row_case *t = c;
    const float *x = t->in_place ? y : t->x;
    if (t->kind == 0)
        sm2c_rt_softmax_f32_par(par, max_tasks, x, y, t->rows, t->cols);
    else if (t->kind == 1)
        sm2c_rt_log_softmax_f32_par(par, max_tasks, x, y, t->rows, t->cols);
    else
        sm2c_rt_layer_norm_f32_par(par, max_tasks, x, t->gamma, t->beta, 1e-5f, y, t->rows, t->cols);
}

/* Softmax, LogSoftmax and LayerNorm (also in place) split over rows. */
static void rows_split_exactly(void **state)
{
    static const int32_t shapes[][2] = { { 1, 10 }, { 3, 77 }, { 7, 128 }, { 128, 64 }, { 2, 1 },
                                         { 17, 33 }, { 9, 768 }, { 5, 0 } };
    static const char *names[] = { "softmax", "log_softmax", "layer_norm" };
    size_t i;
    int kind;
    (void)state;
    for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int32_t rows = shapes[i][0], cols = shapes[i][1];
        const size_t ny = (size_t)rows * cols;
        float *x = malloc(ny * 4 + 4), *want = malloc(ny * 4 + 4);
        float *gamma = malloc((size_t)cols * 4 + 4), *beta = malloc((size_t)cols * 4 + 4);
        krng g = krng_new(500 + i);
        char what[96];
        krng_fill(&g, x, ny, -4.0f, 4.0f);
        krng_fill(&g, gamma, (size_t)cols, 0.5f, 1.5f);
        krng_fill(&g, beta, (size_t)cols, -0.5f, 0.5f);
        for (kind = 0; kind < 3; kind++) {
            row_case c = { x, gamma, beta, rows, cols, kind, 0 };
            memset(want, 0xff, ny * 4);
            if (kind == 0)
                sm2c_rt_softmax_f32(x, want, rows, cols);
            else if (kind == 1)
                sm2c_rt_log_softmax_f32(x, want, rows, cols);
            else
                sm2c_rt_layer_norm_f32(x, gamma, beta, 1e-5f, want, rows, cols);
            snprintf(what, sizeof what, "%s %dx%d", names[kind], rows, cols);
            if (ny)
                check_splits(what, row_split, &c, want, NULL, ny);
            if (kind == 2 && ny) {
                c.in_place = 1;
                snprintf(what, sizeof what, "%s %dx%d in place", names[kind], rows, cols);
                check_splits(what, row_split, &c, want, x, ny);
            }
        }
        free(x), free(want), free(gamma), free(beta);
    }
}

typedef struct bin_case {
    const float *a, *b;
    const int32_t *dims, *sa, *sb;
    int32_t rank, op, in_place;
} bin_case;

static void bin_split(const void *c, const sm2c_rt_par *par, int32_t max_tasks, float *y)
{
    const bin_case *t = c;
    const float *a = t->in_place ? y : t->a;
    if (t->op == 0)
        sm2c_rt_add_f32_par(par, max_tasks, a, t->b, y, t->rank, t->dims, t->sa, t->sb);
    else if (t->op == 1)
        sm2c_rt_sub_f32_par(par, max_tasks, a, t->b, y, t->rank, t->dims, t->sa, t->sb);
    else
        sm2c_rt_mul_f32_par(par, max_tasks, a, t->b, y, t->rank, t->dims, t->sa, t->sb);
}

/* Add, Sub and Mul split over their outermost dimension: rank 1 in blocks
** of 16 elements, broadcasts, and y in place of a. */
static void binary_splits_exactly(void **state)
{
    /* rank, dims[3], sa[3], sb[3] */
    static const int32_t cases[][10] = {
        { 1, 1, 0, 0, 1, 0, 0, 1, 0, 0 },        { 1, 15, 0, 0, 1, 0, 0, 1, 0, 0 },
        { 1, 17, 0, 0, 1, 0, 0, 1, 0, 0 },       { 1, 100, 0, 0, 1, 0, 0, 1, 0, 0 },
        { 1, 4099, 0, 0, 1, 0, 0, 1, 0, 0 },     { 1, 64, 0, 0, 1, 0, 0, 0, 0, 0 },
        { 2, 5, 7, 0, 7, 1, 0, 0, 1, 0 },        { 2, 33, 3, 0, 3, 1, 0, 3, 1, 0 },
        { 3, 3, 4, 5, 20, 5, 1, 0, 5, 1 },       { 2, 1, 300, 0, 300, 1, 0, 300, 1, 0 },
        { 2, 128, 64, 0, 64, 1, 0, 0, 1, 0 },
        /* leading dims of 1 (a bias over [1, 128, 128]) band the next dim */
        { 3, 1, 40, 48, 1920, 48, 1, 0, 0, 1 },  { 3, 1, 1, 300, 300, 300, 1, 300, 300, 1 },
    };
    size_t i;
    int op, in_place;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int32_t rank = cases[i][0], *dims = &cases[i][1], *sa = &cases[i][4], *sb = &cases[i][7];
        size_t ny = 1, span_a = 1, span_b = 1;
        int32_t d;
        for (d = 0; d < rank; d++) {
            ny *= (size_t)dims[d];
            span_a += (size_t)(dims[d] - 1) * sa[d];
            span_b += (size_t)(dims[d] - 1) * sb[d];
        }
        {
            float *a = malloc(span_a * 4), *b = malloc(span_b * 4), *want = malloc(ny * 4);
            krng g = krng_new(600 + i);
            char what[96];
            krng_fill(&g, a, span_a, -2.0f, 2.0f);
            krng_fill(&g, b, span_b, -2.0f, 2.0f);
            for (op = 0; op < 3; op++) {
                for (in_place = 0; in_place < 2; in_place++) {
                    bin_case c = { a, b, dims, sa, sb, rank, op, in_place };
                    if (in_place && span_a != ny)
                        continue;                       /* y may alias a only when shaped alike */
                    if (op == 0)
                        sm2c_rt_add_f32(a, b, want, rank, dims, sa, sb);
                    else if (op == 1)
                        sm2c_rt_sub_f32(a, b, want, rank, dims, sa, sb);
                    else
                        sm2c_rt_mul_f32(a, b, want, rank, dims, sa, sb);
                    snprintf(what, sizeof what, "binary %d case %zu%s", op, i, in_place ? " in place" : "");
                    check_splits(what, bin_split, &c, want, in_place ? a : NULL, ny);
                }
            }
            free(a), free(b), free(want);
        }
    }
    { /* a bias over [1, 40, 48] bands its 40 rows, not its one image */
        static const int32_t dims[3] = { 1, 40, 48 }, sa[3] = { 1920, 48, 1 }, sb[3] = { 0, 0, 1 };
        static float a[1920], b[48], y[1920];
        sm2c_rt_par par = { record_for, NULL, 4 };
        seen_tasks = 1;
        sm2c_rt_add_f32_par(&par, 64, a, b, y, 3, dims, sa, sb);
        assert_int_equal(seen_tasks, 4);
    }
}

/* copy_strided splits the first dim above 1: a transpose of [1, 4, 32, 128]
** from [1, 32, 4, 128]'s memory at 1..64 tasks gives the plain copy's bytes;
** a y stride of 0 (two indices, one element) keeps one task. */
static void copy_splits_exactly(void **state)
{
    static const int32_t dims[4] = { 1, 4, 32, 128 }, xs[4] = { 16384, 128, 512, 1 };
    static const int32_t ys[4] = { 16384, 4096, 128, 1 }, ys0[4] = { 0, 0, 128, 1 };
    static float x[16384], want[16384], got[16384];
    krng g = krng_new(77);
    int32_t n;
    (void)state;
    krng_fill(&g, x, 16384, -1.0f, 1.0f);
    sm2c_rt_copy_strided(x, 0, xs, want, 0, ys, 4, dims, 4);
    for (n = 1; n <= 64; n = n < 8 ? n + 1 : n * 2) {
        sm2c_rt_par par = { record_for, NULL, n };
        seen_tasks = 1;
        memset(got, 0xff, sizeof got);
        sm2c_rt_copy_strided_par(&par, 64, x, 0, xs, got, 0, ys, 4, dims, 4);
        if (memcmp(want, got, sizeof got))
            fail_msg("copy, %d tasks: not the plain copy's bytes", n);
        assert_int_equal(seen_tasks, n < 4 ? n : 4);
    }
    {
        sm2c_rt_par par = { record_for, NULL, 4 };
        seen_tasks = 1;
        sm2c_rt_copy_strided_par(&par, 64, x, 0, xs, got, 0, ys0, 4, dims, 4);
        assert_int_equal(seen_tasks, 1);
    }
}

/* pad_copy_f32 splits the copy's N * HP rows: the plain copy and every split
** give the input's pixels at (h + PT, w + PL) and zeros around them, the
** input's columns past WP - PL left out; bands may cross images. */
typedef struct pad_case {
    const float *x;
    const int32_t *d;
} pad_case;

static void pad_split(const void *c, const sm2c_rt_par *par, int32_t max_tasks, float *y)
{
    const pad_case *k = c;
    sm2c_rt_pad_copy_f32_par(par, max_tasks, k->x, y, k->d);
}

static void pad_copy_splits_exactly(void **state)
{
    static const int32_t ds[2][8] = {
        { 2, 5, 7, 3, 8, 9, 2, 1 }, /* N H W C HP WP PT PL: padding all round, 2 images */
        { 1, 6, 7, 4, 7, 6, 1, 0 }, /* a VALID window's last column unread */
    };
    static float x[2 * 6 * 7 * 4], want[2 * 8 * 9 * 4], got[2 * 8 * 9 * 4 + 1];
    krng g = krng_new(79);
    size_t k;
    (void)state;
    for (k = 0; k < 2; k++) {
        const int32_t *d = ds[k];
        const int32_t N = d[0], H = d[1], W = d[2], C = d[3], HP = d[4], WP = d[5];
        const size_t ny = (size_t)N * HP * WP * C;
        pad_case c = { x, d };
        int32_t n, r, q, ch;
        krng_fill(&g, x, (size_t)N * H * W * C, 0.5f, 1.0f);
        for (n = 0; n < N; n++)
            for (r = 0; r < HP; r++)
                for (q = 0; q < WP; q++)
                    for (ch = 0; ch < C; ch++) {
                        const int32_t h = r - d[6], w = q - d[7];
                        const int inside = h >= 0 && h < H && w >= 0 && w < W;
                        want[(((size_t)n * HP + r) * WP + q) * C + ch] =
                            inside ? x[(((size_t)n * H + h) * W + w) * C + ch] : 0.0f;
                    }
        memset(got, 0xff, sizeof got);
        got[ny] = 12345.0f;
        sm2c_rt_pad_copy_f32(x, got, d);
        if (memcmp(want, got, ny * 4) || got[ny] != 12345.0f)
            fail_msg("pad copy %zu: not the padded input", k);
        check_splits("pad copy", pad_split, &c, want, NULL, ny);
    }
}

typedef struct un_case {
    const float *x;
    int32_t n, op, in_place;
} un_case;

static void un_split(const void *c, const sm2c_rt_par *par, int32_t max_tasks, float *y)
{
    const un_case *t = c;
    const float *x = t->in_place ? y : t->x;
    switch (t->op) {
    case 0: sm2c_rt_relu_f32_par(par, max_tasks, x, y, t->n); break;
    case 1: sm2c_rt_sigmoid_f32_par(par, max_tasks, x, y, t->n); break;
    case 2: sm2c_rt_tanh_f32_par(par, max_tasks, x, y, t->n); break;
    case 3: sm2c_rt_erf_f32_par(par, max_tasks, x, y, t->n); break;
    default: sm2c_rt_exp_f32_par(par, max_tasks, x, y, t->n); break;
    }
}

static void un_plain(int op, const float *x, float *y, int32_t n)
{
    switch (op) {
    case 0: sm2c_rt_relu_f32(x, y, n); break;
    case 1: sm2c_rt_sigmoid_f32(x, y, n); break;
    case 2: sm2c_rt_tanh_f32(x, y, n); break;
    case 3: sm2c_rt_erf_f32(x, y, n); break;
    default: sm2c_rt_exp_f32(x, y, n); break;
    }
}

/* Relu, Sigmoid, Tanh, Erf and Exp split into blocks of 16, also in place. */
static void unary_splits_exactly(void **state)
{
    static const int32_t sizes[] = { 1, 5, 16, 17, 47, 100, 1000, 4099 };
    size_t i;
    int op, in_place;
    (void)state;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const int32_t n = sizes[i];
        float *x = malloc((size_t)n * 4), *want = malloc((size_t)n * 4);
        krng g = krng_new(700 + i);
        char what[96];
        krng_fill(&g, x, (size_t)n, -6.0f, 6.0f);
        for (op = 0; op < 5; op++) {
            un_plain(op, x, want, n);
            for (in_place = 0; in_place < 2; in_place++) {
                un_case c = { x, n, op, in_place };
                snprintf(what, sizeof what, "unary %d n %d%s", op, n, in_place ? " in place" : "");
                check_splits(what, un_split, &c, want, in_place ? x : NULL, (size_t)n);
            }
        }
        free(x), free(want);
    }
}

typedef struct ba_case {
    const float *x, *bias;
    int32_t outer, channels, inner, act;
} ba_case;

static void ba_split(const void *c, const sm2c_rt_par *par, int32_t max_tasks, float *y)
{
    const ba_case *t = c;
    sm2c_rt_bias_add_f32_par(par, max_tasks, t->x, t->bias, y, t->outer, t->channels, t->inner, t->act, 0.1f,
                             0.0f);
}

/* BiasAdd split over outer rows (NHWC and NCHW) or, with outer 1, channels. */
static void bias_add_splits_exactly(void **state)
{
    static const int32_t shapes[][4] = { { 128, 64, 1, SM2C_RT_ACT_RELU }, { 1, 100, 1, SM2C_RT_ACT_NONE },
                                         { 1, 7, 33, SM2C_RT_ACT_SIGMOID }, { 3, 5, 9, SM2C_RT_ACT_RELU6 },
                                         { 33, 3, 1, SM2C_RT_ACT_LEAKY_RELU }, { 1, 1, 40, SM2C_RT_ACT_NONE },
                                         { 2, 16, 16, SM2C_RT_ACT_HARD_SWISH } };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int32_t outer = shapes[i][0], channels = shapes[i][1], inner = shapes[i][2];
        const size_t ny = (size_t)outer * channels * inner;
        float *x = malloc(ny * 4), *bias = malloc((size_t)channels * 4), *want = malloc(ny * 4);
        krng g = krng_new(800 + i);
        ba_case c = { x, bias, outer, channels, inner, shapes[i][3] };
        char what[96];
        krng_fill(&g, x, ny, -3.0f, 3.0f);
        krng_fill(&g, bias, (size_t)channels, -1.0f, 1.0f);
        sm2c_rt_bias_add_f32(x, bias, want, outer, channels, inner, c.act, 0.1f, 0.0f);
        snprintf(what, sizeof what, "bias_add %dx%dx%d", outer, channels, inner);
        check_splits(what, ba_split, &c, want, NULL, ny);
        free(x), free(bias), free(want);
    }
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
        cmocka_unit_test(pointwise_splits_pixels),
        cmocka_unit_test(depthwise_splits_channels),
        cmocka_unit_test(matmul_splits_exactly),
        cmocka_unit_test(matvec_splits_exactly),
        cmocka_unit_test(batch_matmul_splits_exactly),
        cmocka_unit_test(batch_matmul_strided_splits_exactly),
        cmocka_unit_test(rows_split_exactly),
        cmocka_unit_test(binary_splits_exactly),
        cmocka_unit_test(copy_splits_exactly),
        cmocka_unit_test(pad_copy_splits_exactly),
        cmocka_unit_test(unary_splits_exactly),
        cmocka_unit_test(bias_add_splits_exactly),
        cmocka_unit_test(pool_runs_each_task_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
