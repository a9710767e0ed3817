/*
** fft_plan.h: the compile-time half of runtime/fft.c: a length's radix plan
** and its constant table (twiddles; chirp and filter for Bluestein), in
** double precision rounded to float.  Layouts are fft.c's header comment.
*/
#ifndef SM2C_FFT_PLAN_H
#define SM2C_FFT_PLAN_H

#include <stdint.h>

#define SM2C_FFT_MAX_LEN (1 << 22)  /* longest transform; m stays below 2^24 */
#define SM2C_FFT_PLAN_MAX 64        /* ints of a plan: 4 + at most 60 stages */

typedef struct sm2c_fft_plan {
    int32_t n, m, bluestein;
    int32_t n_ints;                 /* used entries of ints */
    int32_t ints[SM2C_FFT_PLAN_MAX];
    int64_t n_table;                /* floats of the table */
} sm2c_fft_plan;

/* The plan of a length-n transform; 0 when n is outside [1, SM2C_FFT_MAX_LEN]. */
int sm2c_fft_plan_make(int32_t n, sm2c_fft_plan *p);
/* Floats of kernel scratch the plan needs (4 m). */
int64_t sm2c_fft_scratch_floats(const sm2c_fft_plan *p);
/* Writes p->n_table floats to table; work holds 2 m doubles. */
void sm2c_fft_table_fill(const sm2c_fft_plan *p, float *table, double *work);

#endif
