/*
** fft_plan.c: radix plans and constant tables for runtime/fft.c.
*/
#include "fft_plan.h"

#include <math.h>
#include <string.h>

static const double two_pi = 6.283185307179586476925286766559;

int sm2c_fft_plan_make(int32_t n, sm2c_fft_plan *p)
{
    static const int32_t small[] = { 3, 5, 7, 11, 13 };
    int32_t rest = n, m, k = 0;
    memset(p, 0, sizeof *p);
    if (n < 1 || n > SM2C_FFT_MAX_LEN)
        return 0;
    while (rest % 4 == 0)
        rest /= 4;
    while (rest % 2 == 0)
        rest /= 2;
    for (size_t i = 0; i < sizeof small / sizeof *small; i++)
        while (rest % small[i] == 0)
            rest /= small[i];
    p->n = n;
    p->bluestein = rest != 1;
    m = n;
    if (p->bluestein)
        for (m = 1; m < 2 * n - 1; m *= 2)
            ;
    p->m = m;
    /* Radix 4 first, then 2, then the odd ones. */
    rest = m;
    while (rest % 4 == 0)
        p->ints[4 + k++] = 4, rest /= 4;
    while (rest % 2 == 0)
        p->ints[4 + k++] = 2, rest /= 2;
    for (size_t i = 0; i < sizeof small / sizeof *small; i++)
        while (rest % small[i] == 0)
            p->ints[4 + k++] = small[i], rest /= small[i];
    p->ints[0] = n;
    p->ints[1] = m;
    p->ints[2] = p->bluestein;
    p->ints[3] = k;
    p->n_ints = 4 + k;
    p->n_table = 2 * (int64_t)m + (p->bluestein ? 2 * (int64_t)n + 2 * (int64_t)m : 0);
    return 1;
}

int64_t sm2c_fft_scratch_floats(const sm2c_fft_plan *p)
{
    return 4 * (int64_t)p->m;
}

/* In-place forward radix-2 FFT of m (a power of two) complex doubles. */
static void fft_pow2(double *x, int32_t m)
{
    for (int32_t i = 1, j = 0; i < m; i++) {
        int32_t bit = m >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            double t0 = x[2 * i], t1 = x[2 * i + 1];
            x[2 * i] = x[2 * j], x[2 * i + 1] = x[2 * j + 1];
            x[2 * j] = t0, x[2 * j + 1] = t1;
        }
    }
    for (int32_t len = 2; len <= m; len *= 2) {
        for (int32_t k = 0; k < len / 2; k++) {
            double wr = cos(two_pi * k / len), wi = -sin(two_pi * k / len);
            for (int32_t i = k; i < m; i += len) {
                double *a = x + 2 * i, *b = x + 2 * (i + len / 2);
                double br = b[0] * wr - b[1] * wi, bi = b[0] * wi + b[1] * wr;
                b[0] = a[0] - br, b[1] = a[1] - bi;
                a[0] += br, a[1] += bi;
            }
        }
    }
}

void sm2c_fft_table_fill(const sm2c_fft_plan *p, float *table, double *work)
{
    const int32_t n = p->n, m = p->m;
    for (int32_t k = 0; k < m; k++) {
        table[2 * k] = (float)cos(two_pi * k / m);
        table[2 * k + 1] = (float)-sin(two_pi * k / m);
    }
    if (!p->bluestein)
        return;
    float *chirp = table + 2 * m, *filt = chirp + 2 * n;
    memset(work, 0, 2 * (size_t)m * sizeof *work);
    for (int32_t j = 0; j < n; j++) {
        /* exp(-i pi j^2 / n), with j^2 reduced mod 2n first */
        double a = two_pi / 2 * (double)(((int64_t)j * j) % (2 * (int64_t)n)) / n;
        double c = cos(a), s = sin(a);
        chirp[2 * j] = (float)c;
        chirp[2 * j + 1] = (float)-s;
        work[2 * j] = c;            /* conj(chirp) */
        work[2 * j + 1] = s;
        if (j > 0) {
            work[2 * (m - j)] = c;
            work[2 * (m - j) + 1] = s;
        }
    }
    fft_pow2(work, m);
    for (int32_t k = 0; k < 2 * m; k++)
        filt[k] = (float)(work[k] / m);
}
