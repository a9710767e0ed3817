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
** (times the batch) for matmul and fully connected, k * n for matvec. */
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
    if (strstr(k, "fully_connected_"))   /* the quantized forms: rows, k, n */
        return int_product(s, 3);
    if (strstr(k, "depthwise_conv2d_"))
        return conv_macs(s, 0, 1);
    if (strstr(k, "conv2d_"))
        return conv_macs(s, 0, 0);
    if (strstr(k, "conv3d_"))
        return conv_macs(s, 1, 0);
    return 0;
}

/* ---- the kernels with a _par form ------------------------------------------ */

/* Windowed ops: bands of the N * OH output rows; a pool's work is its taps.
** A pointwise Conv2D or its residual form (1x1, stride 1, no padding, its
** N*H*W pixels an int32) splits its N * OH * OW output pixels instead, as
** par_f32.c's win_pointwise has it; a depthwise layer with multiplier 1 and
** more than 32 channels its rows times its slices of 32 channels (dw_slices:
** one slice on a scalar FPU, where a call then takes at most N * OH tasks);
** a packed Conv2D whose filter outweighs its input (KH*KW*OC > N*H*W) its
** rows times its slices of 32 output channels (par_f32.c's conv_slices). */
static int64_t window_rows(const sm2c_step *s, int64_t *work)
{
    const sm2c_arg *p = nth_arg(s, SM2C_ARG_INTS, 0);
    if (!p || p->n < 16)
        return 0;
    int taps_only = strstr(s->kernel, "pool") || strstr(s->kernel, "depthwise");  /* no input-channel sum */
    *work = conv_macs(s, 0, taps_only);
    const int32_t *v = p->ints;   /* N H W C KH KW OH OW OC SH SW DH DW PT PL FC */
    int64_t rows = (int64_t)v[0] * v[6];
    if (strstr(s->kernel, "packed") && v[8] > 32 && (int64_t)v[4] * v[5] * v[8] > (int64_t)v[0] * v[1] * v[2])
        return rows * ((v[8] + 31) / 32);
    if (!taps_only && v[4] == 1 && v[5] == 1 && v[9] == 1 && v[10] == 1 && v[13] == 0 && v[14] == 0 &&
        v[6] == v[1] && v[7] == v[2] && (int64_t)v[0] * v[1] * v[2] <= INT32_MAX)
        return rows * v[7];
    if (strstr(s->kernel, "depthwise") && v[15] == 1 && v[3] > 32)
        return rows * ((v[3] + 31) / 32);
    return rows;
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

/* The i-th INT argument, or 0. */
static int64_t int_arg(const sm2c_step *s, int i)
{
    const sm2c_arg *v = nth_arg(s, SM2C_ARG_INT, i);
    return v ? v->i : 0;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return b > 0 ? (a + b - 1) / b : 0;
}

/* Elementwise work per element, against a multiply-add: transcendental
** functions cost several, a row op (softmax, layer norm) a few passes. */
enum { WORK_TRANSCENDENTAL = 8, WORK_ROW = 4, WORK_STRIDED_COPY = 8 };

/* The first of dims[0..rank) above 1 (the last when none is): the dim a
** binary op or a copy splits, as the runtime's sm2c_rt__first_dim_above_1. */
static int64_t first_dim_above_1(const int32_t *dims, int64_t rank)
{
    int64_t k = 0;
    while (k + 1 < rank && dims[k] == 1)
        k++;
    return k;
}

/* BatchMatMul (a, b, y, batch, a_off, b_off, m, k, n, adj_a, adj_b, pack):
** its entries, times the rows of an untransposed A; none with pack scratch. */
static int64_t batch_matmul_rows(const sm2c_step *s, int64_t *work)
{
    if (s->n_args != 12 || s->args[11].kind != SM2C_ARG_NULL)
        return 0;
    *work = sm2c_step_macs(s);
    return int_arg(s, 4) ? int_arg(s, 0) : int_arg(s, 0) * int_arg(s, 1);
}

/* Its strided form (a, b, y, batch, a_off, b_off, y_off, m, k, n, a_rs,
** a_cs, b_rs, b_cs, y_rs, pack): its entries times their rows; none with
** pack scratch. */
static int64_t batch_matmul_strided_rows(const sm2c_step *s, int64_t *work)
{
    if (s->n_args != 16 || s->args[15].kind != SM2C_ARG_NULL)
        return 0;
    *work = sm2c_step_macs(s);
    return int_arg(s, 0) * int_arg(s, 1);
}

/* MatVec (x, w, bias, y, k, n, ...): blocks of 16 output columns; the
** transposed form (w is [n, k]) one column each. */
static int64_t matvec_rows(const sm2c_step *s, int64_t *work)
{
    *work = int_arg(s, 0) * int_arg(s, 1);
    return ceil_div(int_arg(s, 1), 16);
}

static int64_t matvec_t_rows(const sm2c_step *s, int64_t *work)
{
    *work = int_arg(s, 0) * int_arg(s, 1);
    return int_arg(s, 1);
}

/* Softmax, LogSoftmax (x, y, rows, cols), the scaled Softmax (x, scale, y,
** rows, cols) and LayerNorm (x, gamma, beta, epsilon, y, rows, cols): rows. */
static int64_t row_rows(const sm2c_step *s, int64_t *work)
{
    *work = WORK_ROW * int_arg(s, 0) * int_arg(s, 1);
    return int_arg(s, 1) > 0 ? int_arg(s, 0) : 0;
}

/* Unary (x, y, n): blocks of 16 elements. */
static int64_t unary_rows(const sm2c_step *s, int64_t *work)
{
    *work = int_arg(s, 0) * (strstr(s->kernel, "relu") ? 1 : WORK_TRANSCENDENTAL);
    return ceil_div(int_arg(s, 0), 16);
}

/* Binary (a, b, y, rank, dims, sa, sb): its outermost dim, in runs of whole
** rows that hold 16 elements at least. */
static int64_t binary_rows(const sm2c_step *s, int64_t *work)
{
    const sm2c_arg *d = nth_arg(s, SM2C_ARG_INTS, 0);
    int64_t rank = int_arg(s, 0), inner = 1;
    if (!d || rank < 1 || d->n < rank)
        return 0;
    const int64_t lead = first_dim_above_1(d->ints, rank);
    for (int64_t i = lead + 1; i < rank; i++)
        inner *= d->ints[i];
    *work = inner * d->ints[lead];
    return ceil_div(d->ints[lead], inner >= 16 ? 1 : ceil_div(16, inner));
}

/* BiasAdd (x, bias, y, outer, channels, inner, ...): outer rows, or the
** channels when there is one, in runs that hold 16 elements at least. */
static int64_t bias_add_rows(const sm2c_step *s, int64_t *work)
{
    int64_t outer = int_arg(s, 0), channels = int_arg(s, 1), inner = int_arg(s, 2);
    int64_t per = outer > 1 ? channels * inner : inner, units = outer > 1 ? outer : channels;
    *work = outer * channels * inner;
    return per > 0 ? ceil_div(units, per >= 16 ? 1 : ceil_div(16, per)) : 0;
}

typedef struct split_kernel {
    const char *kernel;
    int64_t (*rows)(const sm2c_step *s, int64_t *work);
} split_kernel;

/* Every kernel with a _par form (runtime/par_f32.c, matvec_f32.c). */
/* copy_strided (x, x_off, x_strides, y, y_off, y_strides, rank, dims, size):
** the first dim above 1, as the _par kernel; a strided read costs about as
** much as a transcendental per element. */
static int64_t copy_rows(const sm2c_step *s, int64_t *work)
{
    const sm2c_arg *d = nth_arg(s, SM2C_ARG_INTS, 2), *ys = nth_arg(s, SM2C_ARG_INTS, 1);
    int64_t rank = int_arg(s, 2), n = 1;
    if (!d || !ys || rank < 1 || d->n < rank || ys->n < rank)
        return 0;
    for (int64_t i = 0; i < rank; i++) {
        if (d->ints[i] > 1 && ys->ints[i] == 0)
            return 0;
        n *= d->ints[i];
    }
    *work = n * WORK_STRIDED_COPY;
    return d->ints[first_dim_above_1(d->ints, rank)];
}

/* pad_copy_f32 (x, y, d = {N, H, W, C, HP, WP, PT, PL}): the copy's N * HP
** rows; it moves each element once. */
static int64_t pad_rows(const sm2c_step *s, int64_t *work)
{
    const sm2c_arg *d = nth_arg(s, SM2C_ARG_INTS, 0);
    if (!d || d->n < 8)
        return 0;
    *work = (int64_t)d->ints[0] * d->ints[4] * d->ints[5] * d->ints[3];
    return (int64_t)d->ints[0] * d->ints[4];
}

static const split_kernel split_kernels[] = {
    { "sm2c_rt_add_f32", binary_rows },
    { "sm2c_rt_avg_pool_f32", window_rows },
    { "sm2c_rt_batch_matmul_f32", batch_matmul_rows },
    { "sm2c_rt_batch_matmul_strided_f32", batch_matmul_strided_rows },
    { "sm2c_rt_bias_add_f32", bias_add_rows },
    { "sm2c_rt_conv2d_add_f32", window_rows },
    { "sm2c_rt_conv2d_add_packed_f32", window_rows },
    { "sm2c_rt_conv2d_f32", window_rows },
    { "sm2c_rt_conv2d_packed_f32", window_rows },
    { "sm2c_rt_copy_strided", copy_rows },
    { "sm2c_rt_depthwise_conv2d_f32", window_rows },
    { "sm2c_rt_erf_f32", unary_rows },
    { "sm2c_rt_exp_f32", unary_rows },
    { "sm2c_rt_layer_norm_f32", row_rows },
    { "sm2c_rt_log_softmax_f32", row_rows },
    { "sm2c_rt_matmul_f32", matmul_rows },
    { "sm2c_rt_matvec_f32", matvec_rows },
    { "sm2c_rt_matvec_t_f32", matvec_t_rows },
    { "sm2c_rt_max_pool_f32", window_rows },
    { "sm2c_rt_mul_f32", binary_rows },
    { "sm2c_rt_pad_copy_f32", pad_rows },
    { "sm2c_rt_relu_f32", unary_rows },
    { "sm2c_rt_sigmoid_f32", unary_rows },
    { "sm2c_rt_softmax_f32", row_rows },
    { "sm2c_rt_softmax_scaled_f32", row_rows },
    { "sm2c_rt_sub_f32", binary_rows },
    { "sm2c_rt_tanh_f32", unary_rows },
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

int64_t sm2c_step_work(const sm2c_step *s)
{
    int64_t work;
    sm2c_step_split_rows(s, &work);
    return work ? work : sm2c_step_macs(s);
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

/* 1 when steps a and b have a buffer argument in common. */
static int share_buffer(const sm2c_step *a, const sm2c_step *b)
{
    for (int32_t i = 0; i < a->n_args; i++)
        for (int32_t j = 0; a->args[i].kind == SM2C_ARG_BUF && j < b->n_args; j++)
            if (b->args[j].kind == SM2C_ARG_BUF && b->args[j].buf == a->args[i].buf)
                return 1;
    return 0;
}

/* A convolution's padded input splits as the convolution that reads it,
** however little it moves: each band of the copy is then written on the
** core whose band of the convolution reads it, instead of the caller
** writing lines the other cores read last.  ResNet-8's first layer on two
** threads: the copy took 1.6 us split, 2.6 in one task (0.38 on one thread). */
static void split_pads_as_readers(sm2c_step *steps, int32_t n)
{
    for (int32_t s = 0; s + 1 < n; s++) {
        sm2c_step *st = &steps[s];
        int64_t work, rows;
        if (st->control || !st->kernel || strcmp(st->kernel, "sm2c_rt_pad_copy_f32") ||
            steps[s + 1].max_tasks < 2 || !share_buffer(st, &steps[s + 1]))
            continue;
        rows = sm2c_step_split_rows(st, &work);
        if (rows >= 2)
            st->max_tasks = rows < steps[s + 1].max_tasks ? (int32_t)rows : steps[s + 1].max_tasks;
    }
}

void sm2c_program_split(sm2c_program *p, const sm2c_target *t)
{
    const int64_t task_work = t->task_work > 0 ? t->task_work : SM2C_SPLIT_TASK_WORK;
    const int64_t local_work = task_work / SM2C_SPLIT_LOCAL_DIVISOR > 0 ? task_work / SM2C_SPLIT_LOCAL_DIVISOR : 1;

    for (int32_t k = 0; k < p->n_entries; k++)
        for (int32_t s = 0; s < p->entries[k].n_steps; s++) {
            sm2c_step *st = &p->entries[k].steps[s];
            const sm2c_step *prev = s > 0 ? st - 1 : NULL;
            const int local = prev && prev->max_tasks > 1 && share_buffer(prev, st);
            st->max_tasks = t->cortex_m ? 1 : tasks_for(st, local ? local_work : task_work);
        }
    for (int32_t k = 0; k < p->n_entries; k++)
        split_pads_as_readers(p->entries[k].steps, p->entries[k].n_steps);
}

int sm2c_program_any_split(const sm2c_program *p)
{
    for (int32_t k = 0; k < p->n_entries; k++)
        for (int32_t s = 0; s < p->entries[k].n_steps; s++)
            if (p->entries[k].steps[s].max_tasks > 1)
                return 1;
    return 0;
}
