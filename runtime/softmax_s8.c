/*
** softmax_s8.c: int8 Softmax along the last axis, as TFLite's reference int8
** Softmax computes it (gemmlowp fixed point): output scale 1/256, zero point
** -128.  Per row: d = x - max (<= 0); where d >= diff_min, e = exp(d * beta *
** in_scale) in Q0.31 from d lifted to Q5.26 by (mult, left_shift); the e summed
** in Q12.19; y = e / sum, rounded to 1/256, - 128; elsewhere y = -128.
** mult, left_shift and diff_min come from the compiler (quant_params.c), as
** TFLite's Prepare computes them.  No scratch: e is computed twice.
*/
#include <stdint.h>

#include "q8_math.h"
#include "rt_select.h" /* SM2C_RT_ALWAYS_INLINE */
#include "sm2c_rt.h"

/* x * 2^e saturated to int32, e in [1, 30] (gemmlowp's SaturatingRoundingMultiplyByPOT). */
static int32_t sm2c_rt__sat_shl(int32_t x, int32_t e)
{
    const int32_t limit = (int32_t)((UINT32_C(1) << (31 - e)) - 1u);
    if (x > limit)
        return INT32_MAX;
    if (x < -limit)
        return INT32_MIN;
    return (int32_t)((int64_t)x * (INT64_C(1) << e));
}

/* exp(a) for a in [-1/4, 0), Q0.31 in and out: Taylor series around -1/8. */
static int32_t sm2c_rt__exp_quarter(int32_t a)
{
    const int32_t exp_m1_8 = 1895147668, one_third = 715827883;
    const int32_t x = a + (1 << 28);
    const int32_t x2 = sm2c_rt__rdhm(x, x), x3 = sm2c_rt__rdhm(x2, x), x4 = sm2c_rt__rdhm(x2, x2);
    const int32_t x4_4 = sm2c_rt__rdbpot(x4, 2);
    const int32_t poly = sm2c_rt__rdbpot(sm2c_rt__rdhm(x4_4 + x3, one_third) + x2, 1);
    return exp_m1_8 + sm2c_rt__rdhm(exp_m1_8, x + poly);
}

/* exp(a) for a <= 0 in Q5.26, result Q0.31: the fraction below 1/4 by series,
** each higher bit of -a by a constant factor exp(-2^k). */
static int32_t sm2c_rt__exp_neg_q5(int32_t a)
{
    static const int32_t factor[7] = { 1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242 };
    const int32_t quarter = 1 << 24;
    const int32_t rem_q = (a & (quarter - 1)) - quarter;
    int32_t result = sm2c_rt__exp_quarter(sm2c_rt__sat_shl(rem_q, 5));
    const int32_t remainder = rem_q - a;
    for (int32_t k = 0; k < 7; k++)
        if (remainder & (1 << (24 + k)))
            result = sm2c_rt__rdhm(result, factor[k]);
    return a == 0 ? INT32_MAX : result;
}

/* 1 / (1 + x) for x in [0, 1), Q0.31: Newton-Raphson on (1 + x) / 2, in Q2.29. */
static int32_t sm2c_rt__one_over_one_plus(int32_t x)
{
    const int64_t sum = (int64_t)x + INT32_MAX;
    const int32_t half = (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
    int32_t r = 1515870810 + sm2c_rt__rdhm(half, -1010580540);   /* 48/17 - 32/17 * half */
    for (int i = 0; i < 3; i++) {
        const int32_t err = (1 << 29) - sm2c_rt__rdhm(half, r);
        r = r + sm2c_rt__sat_shl(sm2c_rt__rdhm(r, err), 2);
    }
    return sm2c_rt__sat_shl(r, 1);
}

static int32_t sm2c_rt__clz32(uint32_t x)
{
    int32_t n = 0;
    if (x == 0)
        return 32;
    while (!(x & UINT32_C(0x80000000))) {
        x <<= 1;
        n++;
    }
    return n;
}

/* exp(x - max) in Q0.31, or -1 when x - max is below diff_min (counts as 0). */
static int32_t sm2c_rt__softmax_exp(int32_t diff, int32_t mult, int32_t left_shift, int32_t diff_min)
{
    if (diff < diff_min)
        return -1;
    return sm2c_rt__exp_neg_q5(sm2c_rt__requant(diff, mult, left_shift));
}

/* One row of depth values; e_of, when given, holds exp(-d) for each of the
** 256 differences d = max - x an int8 row can have (the same values).
** Inlined at each call, so the test of e_of folds away in both. */
static SM2C_RT_ALWAYS_INLINE void softmax_row(const int8_t *x, int8_t *y, int32_t depth, const int32_t *e_of, int32_t mult,
                        int32_t left_shift, int32_t diff_min)
{
    int32_t max = -128, sum = 0;
    for (int32_t c = 0; c < depth; c++)
        max = x[c] > max ? x[c] : max;
    for (int32_t c = 0; c < depth; c++) {
        int32_t e = e_of ? e_of[max - x[c]] : sm2c_rt__softmax_exp(x[c] - max, mult, left_shift, diff_min);
        sum += e < 0 ? 0 : sm2c_rt__rdbpot(e, 12);   /* Q12.19; depth < 2^12 keeps it in int32 */
    }
    /* 1 / sum: sum = 2^bits_over_unit * (1 + frac), frac in [0, 1). */
    const int32_t headroom = sm2c_rt__clz32((uint32_t)sum);
    const int32_t bits_over_unit = 12 - headroom;
    const int32_t frac = (int32_t)(((uint32_t)sum << headroom) - (UINT32_C(1) << 31));
    const int32_t scale = sm2c_rt__one_over_one_plus(frac);
    const int32_t exponent = bits_over_unit + 31 - 8;
    for (int32_t c = 0; c < depth; c++) {
        int32_t e = e_of ? e_of[max - x[c]] : sm2c_rt__softmax_exp(x[c] - max, mult, left_shift, diff_min);
        int32_t v = e < 0 ? -128 : sm2c_rt__rdbpot(sm2c_rt__rdhm(scale, e), exponent) - 128;
        y[c] = sm2c_rt__clamp_s8(v, -128, 127);
    }
}

/* On hosts a call of SOFTMAX_TABLE_MIN values or more first makes the table
** of the 256 exponentials: 256 a call instead of two per value (a
** transformer's 4 x 128 x 128 attention weights: 1.8 ms to under 0.1).
** Hosts only: the table's kilobyte of stack stays off a Cortex-M. */
#if defined(__x86_64__) || defined(__aarch64__)
enum { SOFTMAX_TABLE_MIN = 512 };
#endif

void sm2c_rt_softmax_s8(const int8_t *x, int8_t *y, int32_t rows, int32_t depth, int32_t mult,
                        int32_t left_shift, int32_t diff_min)
{
#if defined(__x86_64__) || defined(__aarch64__)
    if ((int64_t)rows * depth >= SOFTMAX_TABLE_MIN) {
        int32_t table[256];
        for (int32_t d = 0; d < 256; d++)
            table[d] = sm2c_rt__softmax_exp(-d, mult, left_shift, diff_min);
        for (int32_t r = 0; r < rows; r++, x += depth, y += depth)
            softmax_row(x, y, depth, table, mult, left_shift, diff_min);
        return;
    }
#endif
    for (int32_t r = 0; r < rows; r++, x += depth, y += depth)
        softmax_row(x, y, depth, NULL, mult, left_shift, diff_min);
}
