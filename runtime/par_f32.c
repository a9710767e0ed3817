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
**  - A pointwise convolution (Conv2D or its residual form, 1x1, stride 1,
**    no padding) splits its N*OH*OW output pixels instead: pixel j reads
**    input pixel j alone, so a contiguous range of pixels is the same
**    convolution on a 1 x 1 x pixels image (the same rows of the same
**    matrix product, or the same conv blocks: each pixel sums its input
**    channels in order wherever it sits).  A 7x7 layer has 49 units, not 7.
**    Both hold for a packed filter (conv2d_packed_f32): bands and pixel
**    ranges keep every output channel, so every panel.
**  - A depthwise layer with multiplier 1 and over 32 channels, on a vector
**    unit, splits its rows times its slices of 32 channels, slice-major,
**    when bands of rows would cut the kernel's column tiles: a
**    slice is sm2c_rt_depthwise_conv2d_f32_channels on a band, which makes
**    the whole kernel's block calls for those channels (dw_block_f32.h).
**  - MatMul with an untransposed A splits the rows of A and y.  BatchMatMul
**    splits its entries and, with an untransposed A, their rows likewise;
**    its strided form (Einsum) its entries and their rows, A's rows being
**    a_rs apart whatever its layout.
**    A pack scratch is one task's, so a step given one runs as one task (a
**    transposed B read in place sums in another order on SIMD paths).
**  - Softmax, LogSoftmax and LayerNorm split rows; elementwise ops split
**    whole blocks of 16 elements of y (binary ops: their first dimension
**    above 1), BiasAdd its outer rows or, with one, its channels.
**  - The strided copy (Transpose, Slice, Concat...) splits its first
**    dimension above 1: a copy moves bytes, so any split gives them.
**  - A convolution's padded input (sm2c_rt_pad_copy_f32) splits the copy's
**    rows, so that a band is written on the core whose band of the
**    convolution after it reads it.
**  - MatVec is in matvec_f32.c: a band of its columns needs W's stride.
** The task helpers are par_impl.h's.
*/
#include <stddef.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "rt_target.h"
#include "par_impl.h"

/* ---- windowed ops: bands of output rows ----------------------------------- */

typedef struct win_task win_task;
/* The kernel on one band: its parameters q and offsets into x (and r, y). */
typedef void (*win_fn)(const win_task *a, const int32_t *q, ptrdiff_t x_off, ptrdiff_t y_off);
/* Depthwise on output channels [c0, c1) of a band (par_f32.c's only sliced op). */
typedef void (*win_slice_fn)(const win_task *a, const int32_t *q, ptrdiff_t x_off, ptrdiff_t y_off,
                             int32_t c0, int32_t c1);

struct win_task {
    const float *x, *w, *bias, *r;
    float *y;
    const int32_t *p;
    int32_t n_tasks, act;
    float act_a, act_b;
    win_fn run;
    int32_t pointwise; /* split over pixels (win_pointwise) */
    int32_t slices;    /* channel slices of DW_SLICE (dw_slices), else 1 */
    win_slice_fn run_slice;
    int32_t tile_rows, tile_first; /* rows the kernel takes at once, from this row on (row_bound) */
    int32_t by_channels; /* slices whatever the rows: a packed conv whose filter outweighs its input */
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

/* A convolution whose output pixel j reads input pixel j alone (1x1,
** stride 1, no padding; dilation is then moot), with all its pixels in one
** int32 count as the kernel's matmul path needs them: a range of its pixels
** is the same layer on a 1 x 1 x range image, whose every pixel has the
** same taps and path (conv_f32.c: the matmul when the whole layer takes it,
** else the conv blocks or the direct loops, all per pixel). */
static inline int win_pointwise(const int32_t *p)
{
    return p[SM2C_RT_WIN_KH] == 1 && p[SM2C_RT_WIN_KW] == 1 && p[SM2C_RT_WIN_SH] == 1 &&
           p[SM2C_RT_WIN_SW] == 1 && p[SM2C_RT_WIN_PT] == 0 && p[SM2C_RT_WIN_PL] == 0 &&
           p[SM2C_RT_WIN_OH] == p[SM2C_RT_WIN_H] && p[SM2C_RT_WIN_OW] == p[SM2C_RT_WIN_W] &&
           (int64_t)p[SM2C_RT_WIN_N] * p[SM2C_RT_WIN_H] * p[SM2C_RT_WIN_W] <= INT32_MAX;
}

/* Pixels [p0, p1) of a pointwise layer: a 1 x 1 x (p1 - p0) image. */
static inline void pixels(const int32_t *p, int64_t p0, int64_t p1, int32_t *q, ptrdiff_t *x_off,
                          ptrdiff_t *y_off)
{
    int32_t i;

    for (i = 0; i < SM2C_RT_WIN_PARAMS; i++)
        q[i] = p[i];
    q[SM2C_RT_WIN_N] = q[SM2C_RT_WIN_H] = q[SM2C_RT_WIN_OH] = 1;
    q[SM2C_RT_WIN_W] = q[SM2C_RT_WIN_OW] = (int32_t)(p1 - p0);
    *x_off = (ptrdiff_t)(p0 * p[SM2C_RT_WIN_C]);
    *y_off = (ptrdiff_t)(p0 * p[SM2C_RT_WIN_OC]);
}

/* A depthwise layer with multiplier 1 on a vector unit also splits its
** output channels, in slices of DW_SLICE from channel 0 (the last one
** shorter): sm2c_rt_depthwise_conv2d_f32_channels computes a slice with the
** whole kernel's calls for those channels (dw_block_f32.h), so its bits.
** On a scalar FPU (rt_target.h, as conv_f32.c is built) it has no such path. */
enum { DW_SLICE = 32 };
static inline int32_t dw_slices(const int32_t *p)
{
#if SM2C_RT_SCALAR_CORE
    (void)p;
    return 1;
#else
    const int32_t C = p[SM2C_RT_WIN_C];
    return p[SM2C_RT_WIN_FC] == 1 && C > DW_SLICE ? (C + DW_SLICE - 1) / DW_SLICE : 1;
#endif
}

/* A packed Conv2D whose filter outweighs its input (KH*KW*C*OC floats
** against N*H*W*C) splits its output channels too, in slices of 32 (any
** kernel's block start), slice-major: a task then reads the panels of its
** channels only, where bands of rows would each read the whole filter
** (ResNet50's 3x3 512-channel layer at 7x7: 9.4 MB of filter, 100 KB of
** input).  sm2c_rt_conv2d_packed_f32_channels computes a slice with the
** whole kernel's blocks, so its bits.  compiler/lower/split.c counts alike. */
static inline int32_t conv_slices(const int32_t *p)
{
#if SM2C_RT_SCALAR_CORE
    (void)p;
    return 1;
#else
    const int32_t OC = p[SM2C_RT_WIN_OC];
    const int64_t filter = (int64_t)p[SM2C_RT_WIN_KH] * p[SM2C_RT_WIN_KW] * OC;
    const int64_t input = (int64_t)p[SM2C_RT_WIN_N] * p[SM2C_RT_WIN_H] * p[SM2C_RT_WIN_W];
    return OC > DW_SLICE && filter > input ? (OC + DW_SLICE - 1) / DW_SLICE : 1;
#endif
}

/* The units a windowed step splits into: N*OH*OW pixels of a pointwise
** layer, N*OH rows times the channel slices of a sliced depthwise layer,
** else N*OH rows (compiler/lower/split.c, window_rows, counts alike). */
static inline int64_t win_units(const win_task *a)
{
    const int64_t rows = (int64_t)a->p[SM2C_RT_WIN_N] * a->p[SM2C_RT_WIN_OH];

    return a->pointwise ? rows * a->p[SM2C_RT_WIN_OW] : rows * a->slices;
}

/* Rows [r, end) of the N*OH, one band per image; channels [c0, c1) through
** run_slice unless they are all of them. */
static inline void win_rows(const win_task *a, int64_t r, int64_t end, int32_t c0, int32_t c1)
{
    const int64_t OH = a->p[SM2C_RT_WIN_OH];
    int32_t q[SM2C_RT_WIN_PARAMS];
    ptrdiff_t xo, yo;

    while (r < end) {
        const int64_t img = r / OH, oh0 = r % OH;
        const int64_t oh1 = end - img * OH < OH ? end - img * OH : OH;
        band(a->p, img, (int32_t)oh0, (int32_t)oh1, q, &xo, &yo);
        if (c0 == 0 && c1 == a->p[SM2C_RT_WIN_OC])
            a->run(a, q, xo, yo);
        else
            a->run_slice(a, q, xo, yo, c0, c1);
        r = img * OH + oh1;
    }
}

/* Where task t's units start (t = n_tasks: the end).  A depthwise layer of
** one image, split by whole rows, moves each boundary to the nearest start of
** one of the kernel's column tiles (sm2c_rt_depthwise_conv2d_f32_row_tile)
** when every task keeps two tiles or more: a band then leaves no interior
** row to the slower one-row path (DS-CNN's 25 rows: 13 + 12, not 12 + 13).
** The boundaries still grow with t, so the bands never overlap. */
static inline int64_t row_bound(const win_task *a, int32_t t)
{
    const int64_t units = win_units(a), b = units * t / a->n_tasks;
    const int64_t tile = a->tile_rows, first = a->tile_first;
    int64_t v;

    if (tile <= 1 || a->slices != 1 || a->pointwise || a->p[SM2C_RT_WIN_N] != 1 || t == 0 ||
        t == a->n_tasks || units / a->n_tasks < 2 * tile || b <= first)
        return b;
    v = first + (b - first + tile / 2) / tile * tile;
    return v < units ? v : units;
}

/* Task t: its share of the units: a range of pixels of a pointwise layer;
** else a range of rows (row_bound), or of a sliced depthwise layer's rows
** times slices, slice-major: its rows of each slice, whole slices in a row
** taken as one channel range. */
static inline void win_task_fn(void *arg, int32_t t)
{
    const win_task *a = arg;
    const int64_t rows = (int64_t)a->p[SM2C_RT_WIN_N] * a->p[SM2C_RT_WIN_OH];
    const int32_t OC = a->p[SM2C_RT_WIN_OC]; /* a sliced depthwise layer's C */
    int64_t u, end;
    int32_t q[SM2C_RT_WIN_PARAMS];
    ptrdiff_t xo, yo;

    u = row_bound(a, t);
    end = row_bound(a, t + 1);
    if (a->pointwise) {
        if (end > u) {
            pixels(a->p, u, end, q, &xo, &yo);
            a->run(a, q, xo, yo);
        }
        return;
    }
    while (u < end) {
        const int64_t k = u / rows, r = u % rows;
        int64_t k1 = k + 1, r1 = end - k * rows < rows ? end - k * rows : rows;
        if (r == 0 && r1 == rows) /* whole slices: one channel range */
            while (k1 < a->slices && end >= (k1 + 1) * rows)
                k1++;
        win_rows(a, r, r1, (int32_t)(k * DW_SLICE), k1 < a->slices ? (int32_t)(k1 * DW_SLICE) : OC);
        u = (k1 - 1) * rows + r1;
    }
}

/* The step as tasks; one task is the plain kernel on the whole. */
static inline void win_par(const sm2c_rt_par *par, int32_t max_tasks, win_task *a)
{
    const int64_t rows = (int64_t)a->p[SM2C_RT_WIN_N] * a->p[SM2C_RT_WIN_OH];

    a->n_tasks = sm2c_rt__task_count(par, max_tasks, win_units(a));
    if (a->slices > 1 && !a->by_channels && a->n_tasks <= rows &&
        (a->tile_rows <= 1 || rows / a->n_tasks >= a->tile_rows || a->p[SM2C_RT_WIN_SH] > 1))
        a->slices = 1; /* rows enough for a tile per band (or a strided layer, whose input
                       ** rows weigh more): each task then reads the rows the same task of
                       ** a row-split step before wrote, on its own core (DS-CNN's 25 rows
                       ** in two channel slices made each half task read half its input
                       ** from the other core: 1.3 -> 2.3 us); fewer rows split into
                       ** channel slices, each with all its rows and so all the kernel's
                       ** tiles (VWW's 6x6 layers: 1.11 -> 0.91 us on 2 threads) */
    if (a->n_tasks == 1) {
        a->run(a, a->p, 0, 0);
        return;
    }
    sm2c_rt__run_tasks(par, a->n_tasks, win_task_fn, a);
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
    win_task a = { x, w, bias, NULL, y, p, 0, act, act_a, act_b, conv_band, win_pointwise(p), 1, NULL, 1, 0, 0 };
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
    win_task a = { x, w, bias, r, y, p, 0, act, act_a, act_b, conv_add_band, win_pointwise(p), 1, NULL, 1, 0, 0 };
    win_par(par, max_tasks, &a);
}
#endif

#if SM2C_RT_WANT(conv2d_packed_f32_par)
static void conv_packed_band(const win_task *a, const int32_t *q, ptrdiff_t xo, ptrdiff_t yo)
{
    sm2c_rt_conv2d_packed_f32(a->x + xo, a->w, a->bias, a->y + yo, q, a->act, a->act_a, a->act_b);
}

static void conv_packed_slice(const win_task *a, const int32_t *q, ptrdiff_t xo, ptrdiff_t yo, int32_t c0,
                              int32_t c1)
{
    sm2c_rt_conv2d_packed_f32_channels(a->x + xo, a->w, a->bias, NULL, a->y + yo, q, a->act, a->act_a,
                                       a->act_b, c0, c1);
}

void sm2c_rt_conv2d_packed_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x,
                                   const float *w, const float *bias, float *y, const int32_t *p,
                                   int32_t act, float act_a, float act_b)
{
    const int32_t slices = conv_slices(p);
    win_task a = { x, w, bias, NULL, y, p, 0, act, act_a, act_b, conv_packed_band,
                   slices > 1 ? 0 : win_pointwise(p), slices, conv_packed_slice, 1, 0, slices > 1 };
    win_par(par, max_tasks, &a);
}
#endif

#if SM2C_RT_WANT(conv2d_add_packed_f32_par)
static void conv_add_packed_band(const win_task *a, const int32_t *q, ptrdiff_t xo, ptrdiff_t yo)
{
    sm2c_rt_conv2d_add_packed_f32(a->x + xo, a->w, a->bias, a->r + yo, a->y + yo, q, a->act, a->act_a,
                                  a->act_b);
}

static void conv_add_packed_slice(const win_task *a, const int32_t *q, ptrdiff_t xo, ptrdiff_t yo, int32_t c0,
                                  int32_t c1)
{
    sm2c_rt_conv2d_packed_f32_channels(a->x + xo, a->w, a->bias, a->r + yo, a->y + yo, q, a->act, a->act_a,
                                       a->act_b, c0, c1);
}

void sm2c_rt_conv2d_add_packed_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x,
                                       const float *w, const float *bias, const float *r, float *y,
                                       const int32_t *p, int32_t act, float act_a, float act_b)
{
    const int32_t slices = conv_slices(p);
    win_task a = { x, w, bias, r, y, p, 0, act, act_a, act_b, conv_add_packed_band,
                   slices > 1 ? 0 : win_pointwise(p), slices, conv_add_packed_slice, 1, 0, slices > 1 };
    win_par(par, max_tasks, &a);
}
#endif

#if SM2C_RT_WANT(depthwise_conv2d_f32_par)
static void depthwise_band(const win_task *a, const int32_t *q, ptrdiff_t xo, ptrdiff_t yo)
{
    sm2c_rt_depthwise_conv2d_f32(a->x + xo, a->w, a->bias, a->y + yo, q, a->act, a->act_a, a->act_b);
}

static void depthwise_slice(const win_task *a, const int32_t *q, ptrdiff_t xo, ptrdiff_t yo, int32_t c0,
                            int32_t c1)
{
    sm2c_rt_depthwise_conv2d_f32_channels(a->x + xo, a->w, a->bias, a->y + yo, q, a->act, a->act_a, a->act_b,
                                          c0, c1);
}

void sm2c_rt_depthwise_conv2d_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x,
                                      const float *w, const float *bias, float *y, const int32_t *p,
                                      int32_t act, float act_a, float act_b)
{
    win_task a = { x, w, bias, NULL, y, p, 0, act, act_a, act_b, depthwise_band, 0, dw_slices(p),
                   depthwise_slice, 1, 0, 0 };
    a.tile_rows = sm2c_rt_depthwise_conv2d_f32_row_tile(p, &a.tile_first);
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
    win_task a = { x, NULL, NULL, NULL, y, p, 0, 0, 0.0f, 0.0f, max_pool_band, 0, 1, NULL, 1, 0, 0 };
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
    win_task a = { x, NULL, NULL, NULL, y, p, 0, 0, 0.0f, 0.0f, avg_pool_band, 0, 1, NULL, 1, 0, 0 };
    win_par(par, max_tasks, &a);
}
#endif

/* ---- MatMul: rows of A and y ---------------------------------------------- */

/* A transposed A has no contiguous rows, and the pack scratch is one task's:
** either runs as one task. */

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

    sm2c_rt__task_range(t, a->n_tasks, a->m, &first, &end);
    sm2c_rt_matmul_f32(a->a + first * a->k, a->b, a->bias, a->y + first * a->n, (int32_t)(end - first),
                       a->k, a->n, 0, a->transpose_b, a->act, a->act_a, a->act_b,
                       NULL);
}

void sm2c_rt_matmul_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *a, const float *b,
                            const float *bias, float *y, int32_t m, int32_t k, int32_t n, int32_t transpose_a,
                            int32_t transpose_b, int32_t act, float act_a, float act_b, float *pack)
{
    mm_task s = { a, b, bias, y, pack, m, k, n, transpose_b, act, 0, act_a, act_b };

    s.n_tasks = transpose_a || pack ? 1 : sm2c_rt__task_count(par, max_tasks, m);
    if (s.n_tasks == 1) {
        sm2c_rt_matmul_f32(a, b, bias, y, m, k, n, transpose_a, transpose_b, act, act_a, act_b, pack);
        return;
    }
    sm2c_rt__run_tasks(par, s.n_tasks, mm_task_fn, &s);
}
#endif

/* ---- BatchMatMul: batch entries, and the rows of an untransposed A --------- */

#if SM2C_RT_WANT(batch_matmul_f32_par)
typedef struct bmm_task {
    const float *a, *b;
    float *y, *pack;
    const int32_t *a_off, *b_off;
    int32_t batch, m, k, n, adj_a, adj_b, n_tasks;
} bmm_task;

/* The units of one entry: its rows, or the whole entry when A is transposed
** (its rows are then columns of a). */
static int32_t bmm_units(const bmm_task *s)
{
    return s->adj_a ? 1 : s->m;
}

static void bmm_task_fn(void *arg, int32_t t)
{
    const bmm_task *s = arg;
    const int64_t units = bmm_units(s);
    int64_t r, end;

    sm2c_rt__task_range(t, s->n_tasks, (int64_t)s->batch * units, &r, &end);
    while (r < end) {
        const int64_t j = r / units, r0 = r % units;
        const int64_t r1 = end - j * units < units ? end - j * units : units;
        const float *a = s->a + s->a_off[j], *b = s->b + s->b_off[j];
        float *y = s->y + (ptrdiff_t)j * s->m * s->n;
        if (s->adj_a)
            sm2c_rt_matmul_f32(a, b, NULL, y, s->m, s->k, s->n, 1, s->adj_b, SM2C_RT_ACT_NONE, 0.0f, 0.0f,
                               NULL);
        else
            sm2c_rt_matmul_f32(a + r0 * s->k, b, NULL, y + r0 * s->n, (int32_t)(r1 - r0), s->k, s->n, 0,
                               s->adj_b, SM2C_RT_ACT_NONE, 0.0f, 0.0f, NULL);
        r = j * units + r1;
    }
}

void sm2c_rt_batch_matmul_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *a, const float *b,
                                  float *y, int32_t batch, const int32_t *a_off, const int32_t *b_off,
                                  int32_t m, int32_t k, int32_t n, int32_t adj_a, int32_t adj_b, float *pack)
{
    bmm_task s = { a, b, y, pack, a_off, b_off, batch, m, k, n, adj_a, adj_b, 0 };

    s.n_tasks = pack ? 1 : sm2c_rt__task_count(par, max_tasks, (int64_t)batch * bmm_units(&s));
    if (s.n_tasks == 1) {
        sm2c_rt_batch_matmul_f32(a, b, y, batch, a_off, b_off, m, k, n, adj_a, adj_b, pack);
        return;
    }
    sm2c_rt__run_tasks(par, s.n_tasks, bmm_task_fn, &s);
}
#endif

/* ---- strided BatchMatMul (Einsum): batch entries x rows -------------------- */

/* A's rows are a_rs apart and y's y_rs, so a band of rows is the same
** product on a + r0*a_rs and y + r0*y_rs, whatever the layout. */

#if SM2C_RT_WANT(batch_matmul_strided_f32_par)
typedef struct bmms_task {
    const float *a, *b;
    float *y;
    const int32_t *a_off, *b_off, *y_off;
    int32_t batch, m, k, n, a_rs, a_cs, b_rs, b_cs, y_rs, n_tasks;
} bmms_task;

static void bmms_task_fn(void *arg, int32_t t)
{
    const bmms_task *s = arg;
    int64_t r, end;

    sm2c_rt__task_range(t, s->n_tasks, (int64_t)s->batch * s->m, &r, &end);
    while (r < end) {
        const int64_t j = r / s->m, r0 = r % s->m;
        const int64_t r1 = end - j * s->m < s->m ? end - j * s->m : s->m;
        const int32_t a_off = (int32_t)(s->a_off[j] + r0 * s->a_rs);
        const int32_t y_off = (int32_t)(s->y_off[j] + r0 * s->y_rs);
        sm2c_rt_batch_matmul_strided_f32(s->a, s->b, s->y, 1, &a_off, s->b_off + j, &y_off,
                                         (int32_t)(r1 - r0), s->k, s->n, s->a_rs, s->a_cs, s->b_rs,
                                         s->b_cs, s->y_rs, NULL);
        r = j * s->m + r1;
    }
}

void sm2c_rt_batch_matmul_strided_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *a,
                                          const float *b, float *y, int32_t batch, const int32_t *a_off,
                                          const int32_t *b_off, const int32_t *y_off, int32_t m, int32_t k,
                                          int32_t n, int32_t a_rs, int32_t a_cs, int32_t b_rs, int32_t b_cs,
                                          int32_t y_rs, float *pack)
{
    bmms_task s = { a, b, y, a_off, b_off, y_off, batch, m, k, n, a_rs, a_cs, b_rs, b_cs, y_rs, 0 };

    s.n_tasks = pack ? 1 : sm2c_rt__task_count(par, max_tasks, (int64_t)batch * m);
    if (s.n_tasks == 1) {
        sm2c_rt_batch_matmul_strided_f32(a, b, y, batch, a_off, b_off, y_off, m, k, n, a_rs, a_cs, b_rs,
                                         b_cs, y_rs, pack);
        return;
    }
    sm2c_rt__run_tasks(par, s.n_tasks, bmms_task_fn, &s);
}
#endif

/* ---- row-wise ops: bands of rows ------------------------------------------ */

typedef struct row_task row_task;
struct row_task {
    const float *x, *gamma, *beta;
    float *y;
    float param;                /* LayerNorm's epsilon, a scaled Softmax's scale */
    int32_t rows, cols, n_tasks;
    void (*run)(const row_task *s, int64_t r0, int64_t r1);
};

static inline void row_task_fn(void *arg, int32_t t)
{
    const row_task *s = arg;
    int64_t first, end;

    sm2c_rt__task_range(t, s->n_tasks, s->rows, &first, &end);
    if (end > first)
        s->run(s, first, end);
}

static inline void row_par(const sm2c_rt_par *par, int32_t max_tasks, row_task *s)
{
    s->n_tasks = sm2c_rt__task_count(par, max_tasks, s->cols > 0 ? s->rows : 1);
    sm2c_rt__run_tasks(par, s->n_tasks, row_task_fn, s);
}

#if SM2C_RT_WANT(softmax_f32_par)
static void softmax_rows(const row_task *s, int64_t r0, int64_t r1)
{
    sm2c_rt_softmax_f32(s->x + r0 * s->cols, s->y + r0 * s->cols, (int32_t)(r1 - r0), s->cols);
}

void sm2c_rt_softmax_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y,
                             int32_t rows, int32_t cols)
{
    row_task s = { x, NULL, NULL, y, 0.0f, rows, cols, 0, softmax_rows };
    row_par(par, max_tasks, &s);
}
#endif

#if SM2C_RT_WANT(softmax_scaled_f32_par)
static void softmax_scaled_rows(const row_task *s, int64_t r0, int64_t r1)
{
    sm2c_rt_softmax_scaled_f32(s->x + r0 * s->cols, s->param, s->y + r0 * s->cols, (int32_t)(r1 - r0), s->cols);
}

void sm2c_rt_softmax_scaled_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float scale,
                                    float *y, int32_t rows, int32_t cols)
{
    row_task s = { x, NULL, NULL, y, scale, rows, cols, 0, softmax_scaled_rows };
    row_par(par, max_tasks, &s);
}
#endif

#if SM2C_RT_WANT(log_softmax_f32_par)
static void log_softmax_rows(const row_task *s, int64_t r0, int64_t r1)
{
    sm2c_rt_log_softmax_f32(s->x + r0 * s->cols, s->y + r0 * s->cols, (int32_t)(r1 - r0), s->cols);
}

void sm2c_rt_log_softmax_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y,
                                 int32_t rows, int32_t cols)
{
    row_task s = { x, NULL, NULL, y, 0.0f, rows, cols, 0, log_softmax_rows };
    row_par(par, max_tasks, &s);
}
#endif

#if SM2C_RT_WANT(layer_norm_f32_par)
static void layer_norm_rows(const row_task *s, int64_t r0, int64_t r1)
{
    sm2c_rt_layer_norm_f32(s->x + r0 * s->cols, s->gamma, s->beta, s->param, s->y + r0 * s->cols,
                           (int32_t)(r1 - r0), s->cols);
}

void sm2c_rt_layer_norm_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x,
                                const float *gamma, const float *beta, float epsilon, float *y,
                                int32_t rows, int32_t cols)
{
    row_task s = { x, gamma, beta, y, epsilon, rows, cols, 0, layer_norm_rows };
    row_par(par, max_tasks, &s);
}
#endif

/* ---- elementwise binary: bands of the outermost dimension ------------------
** A band is rows [r0, r1) of dims[0] (the first dim above 1: leading dims of
** 1 are dropped, as they move nothing): a, b and y move on by r0 rows of their
** own strides (a broadcast operand, stride 0, stays put).  With rank 1 the
** bands are whole blocks of 16 elements (a cache line of y); else whole rows,
** as many as make 16 elements.  y may equal a or b as in the plain kernel:
** each task reads only the rows it writes. */

typedef void (*binary_fn)(const float *a, const float *b, float *y, int32_t rank, const int32_t *dims,
                          const int32_t *sa, const int32_t *sb);

typedef struct bin_task {
    const float *a, *b;
    float *y;
    const int32_t *dims, *sa, *sb;
    int64_t inner, unit; /* y's elements per row of dims[0]; rows per block */
    int32_t rank, n_tasks;
    binary_fn run;
} bin_task;

static inline void bin_task_fn(void *arg, int32_t t)
{
    const bin_task *s = arg;
    int32_t d[SM2C_RT_MAX_RANK];
    int64_t first, end, r0, r1;
    int32_t i;

    sm2c_rt__task_range(t, s->n_tasks, (s->dims[0] + s->unit - 1) / s->unit, &first, &end);
    r0 = first * s->unit;
    r1 = end * s->unit < s->dims[0] ? end * s->unit : s->dims[0];
    if (r1 <= r0)
        return;
    for (i = 0; i < s->rank; i++)
        d[i] = s->dims[i];
    d[0] = (int32_t)(r1 - r0);
    s->run(s->a + r0 * s->sa[0], s->b + r0 * s->sb[0], s->y + r0 * s->inner, s->rank, d, s->sa, s->sb);
}

static inline void bin_par(const sm2c_rt_par *par, int32_t max_tasks, const float *a, const float *b,
                           float *y, int32_t rank, const int32_t *dims, const int32_t *sa,
                           const int32_t *sb, binary_fn run)
{
    bin_task s = { a, b, y, dims, sa, sb, 1, 1, rank, 1, run };
    const int32_t lead = rank > 1 ? sm2c_rt__first_dim_above_1(rank, dims) : 0;
    int32_t i;

    if (lead)
        s.dims += lead, s.sa += lead, s.sb += lead, s.rank -= lead;
    if (s.rank >= 1 && s.rank <= SM2C_RT_MAX_RANK && s.dims[0] > 0) {
        for (i = 1; i < s.rank; i++)
            s.inner *= s.dims[i] > 0 ? s.dims[i] : 0;
        s.unit = s.inner >= 16 ? 1 : (16 + s.inner - 1) / (s.inner > 0 ? s.inner : 1);
        if (s.inner > 0)
            s.n_tasks = sm2c_rt__task_count(par, max_tasks, (s.dims[0] + s.unit - 1) / s.unit);
    }
    if (s.n_tasks == 1) {
        run(a, b, y, rank, dims, sa, sb);
        return;
    }
    sm2c_rt__run_tasks(par, s.n_tasks, bin_task_fn, &s);
}

#define SM2C_RT__BINARY_PAR(op)                                                                    \
    SM2C_RT_DEFINE(op##_f32_par,                                                                   \
    void sm2c_rt_##op##_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *a,          \
                                const float *b, float *y, int32_t rank, const int32_t *dims,        \
                                const int32_t *sa, const int32_t *sb)                               \
    {                                                                                              \
        bin_par(par, max_tasks, a, b, y, rank, dims, sa, sb, sm2c_rt_##op##_f32);                  \
    })
SM2C_RT__BINARY_PAR(add)
SM2C_RT__BINARY_PAR(sub)
SM2C_RT__BINARY_PAR(mul)

/* ---- elementwise unary: blocks of 16 elements ------------------------------
** Bands of whole blocks of 16 (a cache line of y; the plain kernels' vector
** blocks start at the band's first element as at the tensor's).  y may equal
** x: each task reads only the elements it writes. */

typedef void (*unary_fn)(const float *x, float *y, int32_t n);

typedef struct un_task {
    const float *x;
    float *y;
    int32_t n, n_tasks;
    unary_fn run;
} un_task;

static inline void un_task_fn(void *arg, int32_t t)
{
    const un_task *s = arg;
    int64_t first, end, i1;

    sm2c_rt__task_range(t, s->n_tasks, ((int64_t)s->n + 15) / 16, &first, &end);
    i1 = end * 16 < s->n ? end * 16 : s->n;
    if (i1 > first * 16)
        s->run(s->x + first * 16, s->y + first * 16, (int32_t)(i1 - first * 16));
}

static inline void un_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y, int32_t n,
                          unary_fn run)
{
    un_task s = { x, y, n, 1, run };

    s.n_tasks = sm2c_rt__task_count(par, max_tasks, ((int64_t)n + 15) / 16);
    if (s.n_tasks == 1) {
        run(x, y, n);
        return;
    }
    sm2c_rt__run_tasks(par, s.n_tasks, un_task_fn, &s);
}

#define SM2C_RT__UNARY_PAR(op)                                                                     \
    SM2C_RT_DEFINE(op##_f32_par,                                                                   \
    void sm2c_rt_##op##_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y, \
                                int32_t n)                                                         \
    {                                                                                              \
        un_par(par, max_tasks, x, y, n, sm2c_rt_##op##_f32);                                       \
    })
SM2C_RT__UNARY_PAR(relu)
SM2C_RT__UNARY_PAR(sigmoid)
SM2C_RT__UNARY_PAR(tanh)
SM2C_RT__UNARY_PAR(erf)
SM2C_RT__UNARY_PAR(exp)

/* ---- BiasAdd: blocks of outer rows, or of channels when outer is 1 --------- */

#if SM2C_RT_WANT(bias_add_f32_par)
typedef struct ba_task {
    const float *x, *bias;
    float *y;
    int32_t outer, channels, inner, act, n_tasks;
    float act_a, act_b;
    int64_t units, unit; /* outer rows (or channels when outer <= 1); units per block */
} ba_task;

static void ba_task_fn(void *arg, int32_t t)
{
    const ba_task *s = arg;
    int64_t first, end, u0, u1;

    sm2c_rt__task_range(t, s->n_tasks, (s->units + s->unit - 1) / s->unit, &first, &end);
    u0 = first * s->unit;
    u1 = end * s->unit < s->units ? end * s->unit : s->units;
    if (u1 <= u0)
        return;
    if (s->outer > 1) {
        const ptrdiff_t off = (ptrdiff_t)(u0 * s->channels * s->inner);
        sm2c_rt_bias_add_f32(s->x + off, s->bias, s->y + off, (int32_t)(u1 - u0), s->channels, s->inner,
                             s->act, s->act_a, s->act_b);
    } else {
        const ptrdiff_t off = (ptrdiff_t)(u0 * s->inner);
        sm2c_rt_bias_add_f32(s->x + off, s->bias + u0, s->y + off, s->outer, (int32_t)(u1 - u0), s->inner,
                             s->act, s->act_a, s->act_b);
    }
}

void sm2c_rt_bias_add_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, const float *bias,
                              float *y, int32_t outer, int32_t channels, int32_t inner, int32_t act,
                              float act_a, float act_b)
{
    ba_task s = { x, bias, y, outer, channels, inner, act, 1, act_a, act_b, 0, 1 };
    const int64_t per = outer > 1 ? (int64_t)channels * inner : inner; /* y's elements per unit */

    s.units = outer > 1 ? outer : channels;
    s.unit = per >= 16 ? 1 : (16 + (per > 0 ? per : 1) - 1) / (per > 0 ? per : 1);
    if (outer >= 1 && per > 0)
        s.n_tasks = sm2c_rt__task_count(par, max_tasks, (s.units + s.unit - 1) / s.unit);
    if (s.n_tasks == 1) {
        sm2c_rt_bias_add_f32(x, bias, y, outer, channels, inner, act, act_a, act_b);
        return;
    }
    sm2c_rt__run_tasks(par, s.n_tasks, ba_task_fn, &s);
}
#endif

/* ---- data movement: bands of the first dim above 1 -------------------------
** Transpose, Slice, Concat and the other copies (sm2c_rt_copy_strided): a band
** is indices [r0, r1) of that dim, both offsets moved on by r0 of its strides.
** Split only when no dim above 1 has a y stride of 0, so that no two tasks
** write one element. */
#if SM2C_RT_WANT(copy_strided_par)
typedef struct copy_task {
    const void *x;
    void *y;
    int32_t x_off, y_off;
    const int32_t *xs, *ys, *dims;
    int32_t rank, lead, elem_size, n_tasks;
} copy_task;

static void copy_task_fn(void *arg, int32_t t)
{
    const copy_task *s = arg;
    int32_t d[SM2C_RT_MAX_RANK], i;
    int64_t r0, r1;

    sm2c_rt__task_range(t, s->n_tasks, s->dims[s->lead], &r0, &r1);
    if (r1 <= r0)
        return;
    for (i = 0; i < s->rank; i++)
        d[i] = s->dims[i];
    d[s->lead] = (int32_t)(r1 - r0);
    sm2c_rt_copy_strided(s->x, s->x_off + (int32_t)r0 * s->xs[s->lead], s->xs, s->y,
                         s->y_off + (int32_t)r0 * s->ys[s->lead], s->ys, s->rank, d, s->elem_size);
}

void sm2c_rt_copy_strided_par(const sm2c_rt_par *par, int32_t max_tasks, const void *x, int32_t x_off,
                              const int32_t *x_strides, void *y, int32_t y_off, const int32_t *y_strides,
                              int32_t rank, const int32_t *dims, int32_t elem_size)
{
    copy_task s = { x, y, x_off, y_off, x_strides, y_strides, dims, rank, 0, elem_size, 1 };
    int32_t i, ok = rank >= 1 && rank <= SM2C_RT_MAX_RANK;

    for (i = 0; ok && i < rank; i++)
        ok = dims[i] > 0 && (dims[i] == 1 || y_strides[i] != 0);
    if (ok) {
        s.lead = sm2c_rt__first_dim_above_1(rank, dims);
        s.n_tasks = sm2c_rt__task_count(par, max_tasks, dims[s.lead]);
    }
    if (s.n_tasks == 1) {
        sm2c_rt_copy_strided(x, x_off, x_strides, y, y_off, y_strides, rank, dims, elem_size);
        return;
    }
    sm2c_rt__run_tasks(par, s.n_tasks, copy_task_fn, &s);
}
#endif

/* ---- a convolution's padded input: bands of the copy's N * HP rows --------
** Rows [a, b) of image n are the same copy into HP = b - a rows whose top
** padding is PT - a (negative once past it: the input row of copy row r
** stays r - PT). */
#if SM2C_RT_WANT(pad_copy_f32_par)
typedef struct pad_task {
    const float *x;
    float *y;
    const int32_t *d;
    int32_t n_tasks;
} pad_task;

static void pad_task_fn(void *arg, int32_t t)
{
    const pad_task *s = arg;
    const int32_t *d = s->d;
    const int64_t HP = d[4], image = (int64_t)d[1] * d[2] * d[3], row = (int64_t)d[5] * d[3];
    int64_t r0, r1;

    sm2c_rt__task_range(t, s->n_tasks, (int64_t)d[0] * HP, &r0, &r1);
    while (r0 < r1) {
        const int64_t n = r0 / HP, a = r0 % HP, b = r1 - n * HP < HP ? r1 - n * HP : HP;
        const int32_t q[8] = { 1, d[1], d[2], d[3], (int32_t)(b - a), d[5], (int32_t)(d[6] - a), d[7] };
        sm2c_rt_pad_copy_f32(s->x + n * image, s->y + (n * HP + a) * row, q);
        r0 += b - a;
    }
}

void sm2c_rt_pad_copy_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y,
                              const int32_t *d)
{
    pad_task s = { x, y, d, 1 };

    if (d[0] > 0 && d[4] > 0)
        s.n_tasks = sm2c_rt__task_count(par, max_tasks, (int64_t)d[0] * d[4]);
    if (s.n_tasks == 1) {
        sm2c_rt_pad_copy_f32(x, y, d);
        return;
    }
    sm2c_rt__run_tasks(par, s.n_tasks, pad_task_fn, &s);
}
#endif
