/* test_fft.c: runtime/fft.c and runtime/complex.c against a naive
** double-precision DFT, for lengths 1..64, primes (97, 257, 1009, 4099),
** composites and powers of two up to 4096, with plans and tables from the
** compiler's fft_plan.c.  Error bound: max |got - want| over a transform
** <= 8 eps (1 + log2 m) sqrt(n) max|x|, the order of a float FFT's error. */
#include <stdlib.h>

#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"
#include "ops/fft_plan.h"

typedef struct fixture {
    sm2c_fft_plan plan;
    float *table, *scratch;
} fixture;

static void setup(fixture *f, int32_t n)
{
    assert_true(sm2c_fft_plan_make(n, &f->plan));
    f->table = malloc((size_t)f->plan.n_table * sizeof *f->table);
    f->scratch = malloc((size_t)sm2c_fft_scratch_floats(&f->plan) * sizeof *f->scratch);
    double *work = malloc(2 * (size_t)f->plan.m * sizeof *work);
    assert_non_null(f->table);
    assert_non_null(f->scratch);
    assert_non_null(work);
    sm2c_fft_table_fill(&f->plan, f->table, work);
    free(work);
}

static void teardown(fixture *f)
{
    free(f->table);
    free(f->scratch);
}

/* y[k] = sum_j x[j] exp(sign 2 pi i j k / n), doubles (a table of the n
** roots, so the O(n^2) loop does no trigonometry). */
static void dft(const double *x, double *y, int32_t n, int sign)
{
    double *c = malloc(2 * (size_t)n * sizeof *c);
    assert_non_null(c);
    for (int32_t j = 0; j < n; j++) {
        double a = sign * 6.283185307179586 * j / n;
        c[2 * j] = cos(a), c[2 * j + 1] = sin(a);
    }
    for (int32_t k = 0; k < n; k++) {
        double sr = 0, si = 0;
        int32_t idx = 0;
        for (int32_t j = 0; j < n; j++) {
            sr += x[2 * j] * c[2 * idx] - x[2 * j + 1] * c[2 * idx + 1];
            si += x[2 * j] * c[2 * idx + 1] + x[2 * j + 1] * c[2 * idx];
            idx += k;
            if (idx >= n)
                idx -= n;
        }
        y[2 * k] = sr, y[2 * k + 1] = si;
    }
    free(c);
}

static double bound(const fixture *f, double xmax)
{
    return 8 * FLT_EPSILON * (1 + log2((double)f->plan.m)) * sqrt((double)f->plan.n) * xmax + 1e-30;
}

static void check_fft(int32_t n, ktest_rng *r)
{
    fixture f;
    setup(&f, n);
    float *x = malloc(4 * (size_t)n * sizeof *x), *y = malloc(4 * (size_t)n * sizeof *y);
    double *xd = malloc(2 * (size_t)n * sizeof *xd), *yd = malloc(2 * (size_t)n * sizeof *yd);
    for (int32_t i = 0; i < 4 * n; i++)
        x[i] = ktest_f32(r, -1.0f, 1.0f);
    for (int inverse = 0; inverse < 2; inverse++) {
        sm2c_rt_fft_c64(x, y, f.scratch, 2, n, n, 1, inverse, f.plan.ints, f.table);
        for (int32_t o = 0; o < 2; o++) {
            for (int32_t i = 0; i < 2 * n; i++)
                xd[i] = x[2 * n * o + i];
            dft(xd, yd, n, inverse ? 1 : -1);
            double tol = bound(&f, 1.0) / (inverse ? n : 1), worst = 0;
            for (int32_t i = 0; i < 2 * n; i++) {
                double want = inverse ? yd[i] / n : yd[i];
                double e = fabs(want - y[2 * n * o + i]);
                worst = e > worst ? e : worst;
            }
            if (worst > tol)
                fail_msg("fft n=%d inverse=%d: error %g > %g", n, inverse, worst, tol);
        }
    }
    free(x), free(y), free(xd), free(yd);
    teardown(&f);
}

static void test_fft_lengths(void **state)
{
    (void)state;
    static const int32_t more[] = { 97, 100, 127, 128, 160, 256, 257, 400, 512, 1000,
                                    1009, 1024, 2048, 4096, 2053, 17 * 19, 11 * 13, 3 * 5 * 7 * 13 };
    ktest_rng r = { 0x5eed1234u };
    for (int32_t n = 1; n <= 64; n++)
        check_fft(n, &r);
    for (size_t i = 0; i < sizeof more / sizeof *more; i++)
        check_fft(more[i], &r);
}

/* The middle-axis form with cropping and padding: [2, n_in, 3] -> [2, n, 3]. */
static void test_fft_axis_crop_pad(void **state)
{
    (void)state;
    static const int32_t cases[][2] = { { 5, 8 }, { 8, 5 }, { 7, 7 }, { 20, 17 }, { 3, 31 } };
    ktest_rng r = { 77 };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int32_t n_in = cases[c][0], n = cases[c][1], inner = 3;
        fixture f;
        setup(&f, n);
        float x[2 * 2 * 31 * 3], y[2 * 2 * 31 * 3];
        double xd[2 * 31], yd[2 * 31];
        for (int32_t i = 0; i < 2 * 2 * n_in * inner; i++)
            x[i] = ktest_f32(&r, -2.0f, 2.0f);
        sm2c_rt_fft_c64(x, y, f.scratch, 2, n_in, n, inner, 0, f.plan.ints, f.table);
        for (int32_t o = 0; o < 2; o++)
            for (int32_t i = 0; i < inner; i++) {
                for (int32_t j = 0; j < n; j++) {
                    int ok = j < n_in;
                    xd[2 * j] = ok ? x[2 * ((o * n_in + j) * inner + i)] : 0;
                    xd[2 * j + 1] = ok ? x[2 * ((o * n_in + j) * inner + i) + 1] : 0;
                }
                dft(xd, yd, n, -1);
                for (int32_t j = 0; j < n; j++)
                    for (int32_t q = 0; q < 2; q++)
                        ktest_check_close(yd[2 * j + q], y[2 * ((o * n + j) * inner + i) + q],
                                          bound(&f, 2.0), 0, "fft axis", j);
            }
        teardown(&f);
    }
}

static void test_rfft_irfft(void **state)
{
    (void)state;
    static const int32_t cases[][2] = { { 16, 16 }, { 400, 512 }, { 256, 256 }, { 10, 7 },
                                        { 7, 10 }, { 97, 97 }, { 31, 40 }, { 1, 1 }, { 3, 2 } };
    ktest_rng r = { 99 };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int32_t n_in = cases[c][0], n = cases[c][1], h = n / 2 + 1;
        fixture f;
        setup(&f, n);
        float *x = malloc(2 * (size_t)n_in * sizeof *x), *y = malloc(2 * (size_t)h * sizeof *y);
        float *z = malloc(2 * (size_t)n * sizeof *z);
        double *xd = malloc(2 * (size_t)n * sizeof *xd), *yd = malloc(2 * (size_t)n * sizeof *yd);
        for (int32_t i = 0; i < n_in; i++)
            x[i] = ktest_f32(&r, -1.0f, 1.0f);
        sm2c_rt_rfft_f32(x, y, f.scratch, 1, n_in, n, f.plan.ints, f.table);
        for (int32_t j = 0; j < n; j++)
            xd[2 * j] = j < n_in ? x[j] : 0, xd[2 * j + 1] = 0;
        dft(xd, yd, n, -1);
        for (int32_t k = 0; k < 2 * h; k++)
            ktest_check_close(yd[k], y[k], bound(&f, 1.0), 0, "rfft", k);
        /* irfft of a spectrum with junk imaginary DC/Nyquist parts and extra
        ** values past n/2+1: only the Hermitian part counts. */
        int32_t m_in = h + 2;
        float *s = malloc(2 * (size_t)m_in * sizeof *s);
        for (int32_t k = 0; k < 2 * m_in; k++)
            s[k] = ktest_f32(&r, -1.0f, 1.0f);
        sm2c_rt_irfft_c64(s, z, f.scratch, 1, m_in, n, f.plan.ints, f.table);
        for (int32_t k = 0; k < n; k++) {
            int32_t src = k < h ? k : n - k;
            xd[2 * k] = s[2 * src];
            xd[2 * k + 1] = k < h ? s[2 * src + 1] : -s[2 * src + 1];
            if (k == 0 || 2 * k == n)
                xd[2 * k + 1] = 0;
        }
        dft(xd, yd, n, 1);
        for (int32_t k = 0; k < n; k++)
            ktest_check_close(yd[2 * k] / n, z[k], bound(&f, 1.0), 0, "irfft", k);
        free(x), free(y), free(z), free(xd), free(yd), free(s);
        teardown(&f);
    }
}

static void test_complex_elementwise(void **state)
{
    (void)state;
    const float a[4] = { 1.5f, -2.0f, 0.0f, 3.0f }, b[2] = { 0.5f, 4.0f };
    float y[4], v[2];
    const int32_t dims[1] = { 2 }, s1[1] = { 1 }, s0[1] = { 0 };
    sm2c_rt_mul_c64(a, b, y, 1, dims, s1, s0);
    ktest_check_close(1.5 * 0.5 + 2.0 * 4.0, y[0], 0, 1e-6, "mul re", 0);
    ktest_check_close(1.5 * 4.0 - 2.0 * 0.5, y[1], 0, 1e-6, "mul im", 0);
    ktest_check_close(-3.0 * 4.0, y[2], 0, 1e-6, "mul re", 1);
    sm2c_rt_complex_f32(b, b, y, 1, dims, s1, s0);
    ktest_check_bits32(0.5f, y[0], "complex", 0);
    ktest_check_bits32(0.5f, y[1], "complex", 0);
    ktest_check_bits32(4.0f, y[2], "complex", 1);
    ktest_check_bits32(0.5f, y[3], "complex", 1);
    sm2c_rt_abs_c64(a, v, 2);
    ktest_check_close(2.5, v[0], 0, 1e-6, "abs", 0);
    sm2c_rt_angle_c64(a, v, 2);
    ktest_check_close(atan2(-2.0, 1.5), v[0], 0, 1e-6, "angle", 0);
    sm2c_rt_conj_c64(a, y, 2);
    ktest_check_bits32(2.0f, y[1], "conj", 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fft_lengths),
        cmocka_unit_test(test_fft_axis_crop_pad),
        cmocka_unit_test(test_rfft_irfft),
        cmocka_unit_test(test_complex_elementwise),
    };
    return cmocka_run_group_tests_name("fft", tests, NULL, NULL);
}
