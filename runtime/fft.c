/*
** fft.c: discrete Fourier transforms of any length, no heap, no recursion.
**
** Complex values are float pairs (re, im).  A length-n transform runs a
** mixed-radix Stockham autosort FFT (decimation in frequency; radix 4 and 2
** by hand, 3, 5, 7, 11, 13 through a small DFT) when n has no prime factor
** above 13, and otherwise Bluestein's chirp-z algorithm: the transform as a
** convolution with a chirp, computed by a power-of-two FFT of length
** m >= 2n - 1.  Either way the work is O(n log n).  The inverse transform is
** conj(FFT(conj(x))) / n, so only forward twiddles exist.
**
** The compiler computes everything that depends on n alone (ops_signal.c):
**   plan  = { n, m, bluestein, n_stages, radix[0], ..., radix[n_stages-1] },
**           the radices' product being m (m == n without Bluestein);
**   table = W[m] with W[k] = exp(-2 pi i k / m), then for Bluestein the chirp
**           c[n], c[j] = exp(-pi i j^2 / n), then FFT_m(b) / m for the filter
**           b[j] = b[m-j] = conj(c[j]) (j < n), 0 elsewhere;
** all in double and rounded to float.  scratch holds 4 m floats (two
** buffers of m complex values).  Each kernel loads a whole row into scratch
** before writing it out, so y may equal x when the layouts agree.
*/
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

#define SM2C_RT__FFT_MAX_RADIX 13

/* One Stockham stage: len = r * mm values at stride s (len * s == big),
** y[q + s (r p + u)] = (sum_t x[q + s (p + t mm)] W_r^{t u}) W_len^{p u}. */
static inline void sm2c_rt__fft_stage(const float *x, float *y, int32_t len, int32_t s, int32_t r,
                                      const float *w, int32_t big)
{
    const int32_t mm = len / r, step = big / r;
    int32_t p, q, t, u;
    for (p = 0; p < mm; p++) {
        for (q = 0; q < s; q++) {
            float a[2 * SM2C_RT__FFT_MAX_RADIX];
            float o[2 * SM2C_RT__FFT_MAX_RADIX];
            for (t = 0; t < r; t++) {
                const float *src = x + 2 * (q + s * (p + t * mm));
                a[2 * t] = src[0];
                a[2 * t + 1] = src[1];
            }
            if (r == 2) {
                o[0] = a[0] + a[2];
                o[1] = a[1] + a[3];
                o[2] = a[0] - a[2];
                o[3] = a[1] - a[3];
            } else if (r == 4) {
                const float t0r = a[0] + a[4], t0i = a[1] + a[5];
                const float t1r = a[0] - a[4], t1i = a[1] - a[5];
                const float t2r = a[2] + a[6], t2i = a[3] + a[7];
                const float t3r = a[2] - a[6], t3i = a[3] - a[7];
                o[0] = t0r + t2r;
                o[1] = t0i + t2i;
                o[4] = t0r - t2r;
                o[5] = t0i - t2i;
                o[2] = t1r + t3i;   /* t1 - i t3 */
                o[3] = t1i - t3r;
                o[6] = t1r - t3i;   /* t1 + i t3 */
                o[7] = t1i + t3r;
            } else {
                for (u = 0; u < r; u++) {
                    float sr = a[0], si = a[1];
                    for (t = 1; t < r; t++) {
                        const float *wt = w + 2 * (((t * u) % r) * step);
                        sr += a[2 * t] * wt[0] - a[2 * t + 1] * wt[1];
                        si += a[2 * t] * wt[1] + a[2 * t + 1] * wt[0];
                    }
                    o[2 * u] = sr;
                    o[2 * u + 1] = si;
                }
            }
            for (u = 0; u < r; u++) {
                float *dst = y + 2 * (q + s * (r * p + u));
                const float *wt = w + 2 * (p * u * s);
                if (u == 0 || p == 0) {
                    dst[0] = o[2 * u];
                    dst[1] = o[2 * u + 1];
                } else {
                    dst[0] = o[2 * u] * wt[0] - o[2 * u + 1] * wt[1];
                    dst[1] = o[2 * u] * wt[1] + o[2 * u + 1] * wt[0];
                }
            }
        }
    }
}

/* The forward FFT of length plan[1] of a (m complex values), with b as the
** other buffer; returns the one holding the result. */
static inline float *sm2c_rt__fft_run(float *a, float *b, const int32_t *plan, const float *w)
{
    const int32_t m = plan[1], stages = plan[3];
    int32_t len = m, s = 1, k;
    for (k = 0; k < stages; k++) {
        const int32_t r = plan[4 + k];
        float *t;
        sm2c_rt__fft_stage(a, b, len, s, r, w, m);
        t = a, a = b, b = t;
        len /= r;
        s *= r;
    }
    return a;
}

/* The length-n DFT of the n values in a (scratch: a and b, m complex each);
** returns where the n results are. */
static inline float *sm2c_rt__fft_row(float *a, float *b, const int32_t *plan, const float *table)
{
    const int32_t n = plan[0], m = plan[1];
    const float *chirp = table + 2 * m, *filt = chirp + 2 * n;
    float *r;
    int32_t j;
    if (!plan[2])
        return sm2c_rt__fft_run(a, b, plan, table);
    for (j = 0; j < n; j++) {
        const float xr = a[2 * j], xi = a[2 * j + 1];
        a[2 * j] = xr * chirp[2 * j] - xi * chirp[2 * j + 1];
        a[2 * j + 1] = xr * chirp[2 * j + 1] + xi * chirp[2 * j];
    }
    for (j = 2 * n; j < 2 * m; j++)
        a[j] = 0.0f;
    r = sm2c_rt__fft_run(a, b, plan, table);
    for (j = 0; j < m; j++) {   /* conj(A * B / m) */
        const float xr = r[2 * j], xi = r[2 * j + 1];
        r[2 * j] = xr * filt[2 * j] - xi * filt[2 * j + 1];
        r[2 * j + 1] = -(xr * filt[2 * j + 1] + xi * filt[2 * j]);
    }
    r = sm2c_rt__fft_run(r, r == a ? b : a, plan, table);
    for (j = 0; j < n; j++) {   /* c[j] * conj(r[j]) */
        const float xr = r[2 * j], xi = -r[2 * j + 1];
        r[2 * j] = xr * chirp[2 * j] - xi * chirp[2 * j + 1];
        r[2 * j + 1] = xr * chirp[2 * j + 1] + xi * chirp[2 * j];
    }
    return r;
}

/* FFT (inverse 0) or IFFT (inverse 1, scaled by 1/n) along an axis: x is
** [outer, n_in, inner], y [outer, n, inner] complex; each line is cropped to
** n or zero-padded to it first (the fft_length semantics of TensorFlow's
** RFFT2D and IRFFT2D inner passes). */
#if SM2C_RT_WANT(fft_c64)
void sm2c_rt_fft_c64(const float *x, float *y, float *scratch, int32_t outer, int32_t n_in,
                     int32_t n, int32_t inner, int32_t inverse, const int32_t *plan,
                     const float *table)
{
    const int32_t m = plan[1], keep = n_in < n ? n_in : n;
    const float sign = inverse ? -1.0f : 1.0f, scale = inverse ? 1.0f / (float)n : 1.0f;
    int32_t o, i, j;
    for (o = 0; o < outer; o++) {
        for (i = 0; i < inner; i++) {
            float *a = scratch, *r;
            for (j = 0; j < keep; j++) {
                const float *src = x + 2 * (((int64_t)o * n_in + j) * inner + i);
                a[2 * j] = src[0];
                a[2 * j + 1] = sign * src[1];
            }
            for (j = 2 * keep; j < 2 * n; j++)
                a[j] = 0.0f;
            r = sm2c_rt__fft_row(a, scratch + 2 * m, plan, table);
            for (j = 0; j < n; j++) {
                float *dst = y + 2 * (((int64_t)o * n + j) * inner + i);
                dst[0] = inverse ? r[2 * j] * scale : r[2 * j];
                dst[1] = inverse ? -r[2 * j + 1] * scale : r[2 * j + 1];
            }
        }
    }
}
#endif

/* RFFT along the last axis: x [outer, n_in] float, cropped or zero-padded to
** n; y [outer, n / 2 + 1] complex. */
#if SM2C_RT_WANT(rfft_f32)
void sm2c_rt_rfft_f32(const float *x, float *y, float *scratch, int32_t outer, int32_t n_in,
                      int32_t n, const int32_t *plan, const float *table)
{
    const int32_t m = plan[1], keep = n_in < n ? n_in : n, h = n / 2 + 1;
    int32_t o, j;
    for (o = 0; o < outer; o++) {
        const float *src = x + (int64_t)o * n_in;
        float *a = scratch, *r, *dst = y + 2 * (int64_t)o * h;
        for (j = 0; j < keep; j++) {
            a[2 * j] = src[j];
            a[2 * j + 1] = 0.0f;
        }
        for (j = 2 * keep; j < 2 * n; j++)
            a[j] = 0.0f;
        r = sm2c_rt__fft_row(a, scratch + 2 * m, plan, table);
        for (j = 0; j < 2 * h; j++)
            dst[j] = r[j];
    }
}
#endif

/* IRFFT along the last axis: x [outer, n_in] complex, of which the first
** n / 2 + 1 values count (zeros past n_in); the spectrum is completed by
** Hermitian symmetry, so the imaginary parts of the DC and (even n) Nyquist
** terms do not contribute.  y [outer, n] float, scaled by 1/n. */
#if SM2C_RT_WANT(irfft_c64)
void sm2c_rt_irfft_c64(const float *x, float *y, float *scratch, int32_t outer, int32_t n_in,
                       int32_t n, const int32_t *plan, const float *table)
{
    const int32_t m = plan[1], h = n / 2 + 1, keep = n_in < h ? n_in : h;
    const float scale = 1.0f / (float)n;
    int32_t o, j;
    for (o = 0; o < outer; o++) {
        const float *src = x + 2 * (int64_t)o * n_in;
        float *a = scratch, *r, *dst = y + (int64_t)o * n;
        for (j = 0; j < keep; j++) {    /* conj(X) for the inverse */
            a[2 * j] = src[2 * j];
            a[2 * j + 1] = -src[2 * j + 1];
        }
        for (j = keep; j < h; j++)
            a[2 * j] = a[2 * j + 1] = 0.0f;
        for (j = h; j < n; j++) {       /* conj(X[j]) = X[n - j] */
            a[2 * j] = a[2 * (n - j)];
            a[2 * j + 1] = -a[2 * (n - j) + 1];
        }
        r = sm2c_rt__fft_row(a, scratch + 2 * m, plan, table);
        for (j = 0; j < n; j++)
            dst[j] = r[2 * j] * scale;
    }
}
#endif
