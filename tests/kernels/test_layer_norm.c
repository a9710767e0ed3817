/* test_layer_norm.c: sm2c_rt_layer_norm_f32 (layer_norm_f32.c) against the
** steps it replaces, bit for bit: the Mean kernel for the mean and the
** variance, and the graph's elementwise operations in its order; against a
** double reference within docs/reliability.md's normalization tolerance; in
** place; and on constant and NaN rows.  Shapes cover a row shorter than the
** eight sum lanes, lanes with a tail, and rows past one 256-element block. */
#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"

typedef struct ln_case {
    int32_t rows, cols;
    float *x, *gamma, *beta, *y, *want;
    float eps;
} ln_case;

static void fill(ln_case *c, ktest_rng *r)
{
    const int32_t n = c->rows * c->cols;
    c->x = malloc((size_t)n * sizeof *c->x + 1);
    c->y = malloc((size_t)n * sizeof *c->y + 1);
    c->want = malloc((size_t)n * sizeof *c->want + 1);
    c->gamma = malloc((size_t)c->cols * sizeof *c->gamma + 1);
    c->beta = malloc((size_t)c->cols * sizeof *c->beta + 1);
    for (int32_t i = 0; i < n; i++)     /* an offset and a spread per row */
        c->x[i] = ktest_f32(r, -2.0f, 2.0f) * (1.0f + (float)(i / c->cols % 3)) + (float)(i / c->cols % 5);
    for (int32_t j = 0; j < c->cols; j++) {
        c->gamma[j] = ktest_f32(r, 0.5f, 1.5f);
        c->beta[j] = ktest_f32(r, -0.3f, 0.3f);
    }
}

static void release(ln_case *c)
{
    free(c->x);
    free(c->y);
    free(c->want);
    free(c->gamma);
    free(c->beta);
}

/* What the unfused program computes: Mean, SquaredDifference, Mean, AddV2,
** Rsqrt, Mul, Neg, Mul, AddV2, Mul, AddV2. */
static void unfused(const ln_case *c)
{
    const int32_t n = c->rows * c->cols;
    float *mean = malloc((size_t)c->rows * sizeof *mean + 1), *var = malloc((size_t)c->rows * sizeof *var + 1);
    float *sq = malloc((size_t)n * sizeof *sq + 1);
    sm2c_rt_reduce_mean_f32(c->x, mean, c->rows, c->cols, 1);
    for (int32_t i = 0; i < n; i++) {
        const float d = c->x[i] - mean[i / c->cols];
        sq[i] = d * d;
    }
    sm2c_rt_reduce_mean_f32(sq, var, c->rows, c->cols, 1);
    for (int32_t i = 0; i < n; i++) {
        const int32_t row = i / c->cols, j = i % c->cols;
        const float rs = 1.0f / sqrtf(var[row] + c->eps), inv = rs * c->gamma[j];
        const float res = -mean[row] * inv + c->beta[j];
        c->want[i] = c->x[i] * inv + res;
    }
    free(mean);
    free(var);
    free(sq);
}

static void check_reference(const ln_case *c)
{
    for (int32_t row = 0; row < c->rows; row++) {
        const float *xr = c->x + (ptrdiff_t)row * c->cols;
        double sum = 0, sq = 0, mean, var;
        for (int32_t j = 0; j < c->cols; j++)
            sum += xr[j];
        mean = sum / c->cols;
        for (int32_t j = 0; j < c->cols; j++)
            sq += (xr[j] - mean) * (xr[j] - mean);
        var = sq / c->cols;
        for (int32_t j = 0; j < c->cols; j++) {
            const double want = (xr[j] - mean) / sqrt(var + c->eps) * c->gamma[j] + c->beta[j];
            ktest_check_close(want, c->y[(ptrdiff_t)row * c->cols + j], 1e-5, 1e-4, "layer_norm",
                              (long)row * c->cols + j);
        }
    }
}

static void check_shape(int32_t rows, int32_t cols, float eps, ktest_rng *r)
{
    ln_case c = { rows, cols, NULL, NULL, NULL, NULL, NULL, eps };
    const int32_t n = rows * cols;
    fill(&c, r);
    unfused(&c);
    sm2c_rt_layer_norm_f32(c.x, c.gamma, c.beta, c.eps, c.y, rows, cols);
    for (int32_t i = 0; i < n; i++)
        ktest_check_bits32(c.want[i], c.y[i], "layer_norm vs unfused", i);
    check_reference(&c);
    sm2c_rt_layer_norm_f32(c.x, c.gamma, c.beta, c.eps, c.x, rows, cols);   /* in place */
    assert_memory_equal(c.x, c.y, (size_t)n * sizeof *c.x);
    release(&c);
}

static void test_shapes(void **state)
{
    ktest_rng r = { 1414 };
    (void)state;
    check_shape(3, 8, 1e-3f, &r);       /* Keras default epsilon */
    check_shape(4, 5, 1e-6f, &r);       /* shorter than the sum lanes */
    check_shape(5, 37, 1e-3f, &r);      /* lanes and a tail */
    check_shape(128, 128, 1e-6f, &r);   /* the benchmark's transformer */
    check_shape(6, 600, 1e-2f, &r);     /* three sum blocks; a group of four rows and two more */
    check_shape(1, 1, 1e-3f, &r);       /* one element: var 0, y = beta */
}

/* A constant row has variance 0: y is beta exactly.  A NaN makes its row
** NaN and leaves the others alone. */
static void test_special_rows(void **state)
{
    float x[3 * 16], y[3 * 16], gamma[16], beta[16];
    (void)state;
    for (int32_t j = 0; j < 16; j++) {
        gamma[j] = 0.5f + (float)j / 16.0f;
        beta[j] = (float)j / 8.0f - 1.0f;
        x[j] = 2.5f;
        x[16 + j] = (float)j;
        x[32 + j] = (float)-j;
    }
    x[16 + 7] = NAN;
    sm2c_rt_layer_norm_f32(x, gamma, beta, 1e-3f, y, 3, 16);
    for (int32_t j = 0; j < 16; j++) {
        ktest_check_bits32(beta[j], y[j], "constant row", j);
        assert_true(isnan(y[16 + j]));
        assert_false(isnan(y[32 + j]));
    }
    sm2c_rt_layer_norm_f32(x, gamma, beta, 1e-3f, y, 0, 16);   /* no rows: nothing */
    sm2c_rt_layer_norm_f32(x, gamma, beta, 1e-3f, y, 3, 0);    /* empty rows: nothing */
}

int main(void)
{
#ifdef SM2C_TEST_CPU
    /* A build of the kernels for one vector ISA (tests/CMakeLists.txt). */
    if (!__builtin_cpu_supports(SM2C_TEST_CPU))
        return 77;
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_special_rows),
    };
    return cmocka_run_group_tests_name("layer_norm", tests, NULL, NULL);
}
