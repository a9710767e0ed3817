/*
** row_sum_f32.h: the sum of a contiguous float row as Sum and Mean compute
** it (private to the runtime: reduce_f32.c and layer_norm_f32.c).
**
** Eight lane-wise partial sums over blocks of 256 elements, combined
** pairwise, and the block sums added in order, so the error grows like
** (32 + n/256) eps rather than n eps; Eigen's own tree reduction is
** comparable.  The layer norm sums its row and its squared deviations in
** this same order, so the fused step gives the bits of the Mean steps it
** replaces.
*/
#ifndef SM2C_RT_ROW_SUM_F32_H
#define SM2C_RT_ROW_SUM_F32_H

#include <stdint.h>

#define SM2C_RT__SUM_LANES 8
#define SM2C_RT__SUM_BLOCK 256

/* The eight lanes and the tail of one block, combined. */
static inline float sm2c_rt__lanes_total(const float *acc, float tail)
{
    return ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7])) + tail;
}

/* sum(x[0..n)) */
static inline float sm2c_rt__row_sum_f32(const float *x, int32_t n)
{
    float total = 0.0f;
    int32_t b, j, k;

    for (b = 0; b < n; b += SM2C_RT__SUM_BLOCK) {
        const int32_t len = n - b < SM2C_RT__SUM_BLOCK ? n - b : SM2C_RT__SUM_BLOCK;
        const float *p = x + b;
        float acc[SM2C_RT__SUM_LANES] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
        float tail = 0.0f;
        for (k = 0; k + SM2C_RT__SUM_LANES <= len; k += SM2C_RT__SUM_LANES)
            for (j = 0; j < SM2C_RT__SUM_LANES; j++)
                acc[j] += p[k + j];
        for (; k < len; k++)
            tail += p[k];
        total += sm2c_rt__lanes_total(acc, tail);
    }
    return total;
}

/* sum((x[k] - m) * (x[k] - m)) in the order of sm2c_rt__row_sum_f32: what
** Mean computes over SquaredDifference(x, m). */
static inline float sm2c_rt__row_sqdiff_sum_f32(const float *x, float m, int32_t n)
{
    float total = 0.0f;
    int32_t b, j, k;

    for (b = 0; b < n; b += SM2C_RT__SUM_BLOCK) {
        const int32_t len = n - b < SM2C_RT__SUM_BLOCK ? n - b : SM2C_RT__SUM_BLOCK;
        const float *p = x + b;
        float acc[SM2C_RT__SUM_LANES] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
        float tail = 0.0f;
        for (k = 0; k + SM2C_RT__SUM_LANES <= len; k += SM2C_RT__SUM_LANES)
            for (j = 0; j < SM2C_RT__SUM_LANES; j++) {
                const float d = p[k + j] - m;
                acc[j] += d * d;
            }
        for (; k < len; k++) {
            const float d = p[k] - m;
            tail += d * d;
        }
        total += sm2c_rt__lanes_total(acc, tail);
    }
    return total;
}

#endif
