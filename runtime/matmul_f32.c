/*
** matmul_f32.c: MatMul (with BiasAdd and a fused activation) and BatchMatMul.
**
** Reference semantics, which every path below computes bit for bit:
**
**     for i < m, j < n:
**         s = 0.0f;
**         for kk < k: s += A(i, kk) * B(kk, j);      (in increasing kk)
**         y[i*n + j] = act(s + bias[j]);
**
** Each output element is summed in the same order whatever the transposes and
** the blocking, so results do not depend on them.  The loops are blocked: a
** tile of MM_NB columns of y and MM_KB reduction steps, and within it blocks of
** MM_MR x MM_NR outputs whose accumulators stay in registers; the innermost
** loop runs over contiguous columns, which the C compiler vectorises (no
** fast-math needed: nothing is reassociated).
** A transposed B is packed, one MM_KB x MM_NB tile at a time, into a stack
** buffer of fixed size; a transposed A is read with strides (a few scalars per
** reduction step).  No heap, no VLAs, under 9 KB of stack.
*/
#include <stddef.h>
#include <string.h>

#include "act_f32.h"
#include "sm2c_rt.h"
#include "rt_select.h"

enum {
    MM_NB = 64, /* columns of y per tile */
    MM_KB = 32, /* reduction steps per tile: the packed tile is 8 KB */
    MM_MR = 4,  /* rows of y per micro-kernel */
    MM_NR = 16  /* columns of y per micro-kernel: 4 x 16 accumulators */
};

/*
** The micro-kernel: a full MM_MR x MM_NR block of y,
**     y(r, j) += sum over kk < kb of A(r, kk) * bt[kk*ldb + j],
** with A(r, kk) = a[r*a_rs + kk*a_cs] and y(r, j) = y[r*ldy + j]; when `first`
** the block starts from 0 instead.  The accumulators are a small local array
** with constant bounds, so the compiler keeps them in vector registers.
*/
static void mm_micro(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs, const float *bt,
                     ptrdiff_t ldb, float *y, ptrdiff_t ldy, int32_t kb, int first)
{
    float acc[MM_MR][MM_NR];
    int32_t kk, j, r;

    for (r = 0; r < MM_MR; r++) {
        if (first)
            memset(acc[r], 0, sizeof acc[r]);
        else
            memcpy(acc[r], y + (ptrdiff_t)r * ldy, sizeof acc[r]);
    }
    for (kk = 0; kk < kb; kk++) {
        const float *b = bt + (ptrdiff_t)kk * ldb;
        const float *ak = a + (ptrdiff_t)kk * a_cs;
        const float a0 = ak[0], a1 = ak[a_rs], a2 = ak[2 * a_rs], a3 = ak[3 * a_rs];
        for (j = 0; j < MM_NR; j++) {
            const float bj = b[j];
            acc[0][j] += a0 * bj;
            acc[1][j] += a1 * bj;
            acc[2][j] += a2 * bj;
            acc[3][j] += a3 * bj;
        }
    }
    for (r = 0; r < MM_MR; r++)
        memcpy(y + (ptrdiff_t)r * ldy, acc[r], sizeof acc[r]);
}

/* The same for any block of rows x cols (cols <= MM_NB), one row at a time. */
static void mm_edge(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs, const float *bt,
                    ptrdiff_t ldb, float *y, ptrdiff_t ldy, int32_t rows, int32_t kb,
                    int32_t cols, int first)
{
    float row[MM_NB];
    int32_t i, kk, j;

    for (i = 0; i < rows; i++) {
        if (first)
            memset(row, 0, sizeof row);
        else
            memcpy(row, y + (ptrdiff_t)i * ldy, (size_t)cols * sizeof(float));
        for (kk = 0; kk < kb; kk++) {
            const float *b = bt + (ptrdiff_t)kk * ldb;
            const float ai = a[(ptrdiff_t)i * a_rs + (ptrdiff_t)kk * a_cs];
            for (j = 0; j < cols; j++)
                row[j] += ai * b[j];
        }
        memcpy(y + (ptrdiff_t)i * ldy, row, (size_t)cols * sizeof(float));
    }
}

/* One tile: y(i, 0..nb) for all i < m, over kb reduction steps. */
static inline void mm_tile(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs, const float *bt,
                    ptrdiff_t ldb, float *y, ptrdiff_t ldy, int32_t m, int32_t kb, int32_t nb,
                    int first)
{
    int32_t i, j;

    for (i = 0; i + MM_MR <= m; i += MM_MR) {
        const float *ai = a + (ptrdiff_t)i * a_rs;
        float *yi = y + (ptrdiff_t)i * ldy;
        for (j = 0; j + MM_NR <= nb; j += MM_NR)
            mm_micro(ai, a_rs, a_cs, bt + j, ldb, yi + j, ldy, kb, first);
        if (j < nb)
            mm_edge(ai, a_rs, a_cs, bt + j, ldb, yi + j, ldy, MM_MR, kb, nb - j, first);
    }
    if (i < m)
        mm_edge(a + (ptrdiff_t)i * a_rs, a_rs, a_cs, bt, ldb, y + (ptrdiff_t)i * ldy, ldy,
                m - i, kb, nb, first);
}

#if SM2C_RT_WANT(matmul_f32)
void sm2c_rt_matmul_f32(const float *a, const float *b, const float *bias, float *y, int32_t m,
                        int32_t k, int32_t n, int32_t transpose_a, int32_t transpose_b,
                        int32_t act)
{
    float pack[MM_KB * MM_NB];
    /* A(i, kk) = a[i*a_rs + kk*a_cs] */
    const ptrdiff_t a_rs = transpose_a ? 1 : k;
    const ptrdiff_t a_cs = transpose_a ? m : 1;
    int32_t i, j, j0, k0, jj, kk;

    if (m <= 0 || n <= 0)
        return;
    for (j0 = 0; j0 < n; j0 += MM_NB) {
        const int32_t nb = n - j0 < MM_NB ? n - j0 : MM_NB;

        if (k <= 0) {
            for (i = 0; i < m; i++)
                memset(y + (ptrdiff_t)i * n + j0, 0, (size_t)nb * sizeof(float));
        }
        for (k0 = 0; k0 < k; k0 += MM_KB) {
            const int32_t kb = k - k0 < MM_KB ? k - k0 : MM_KB;
            const float *bt;
            ptrdiff_t ldb;

            if (transpose_b) {
                /* B(kk, j) = b[j*k + kk]: pack the tile as pack[kk][j]. */
                for (jj = 0; jj < nb; jj++) {
                    const float *src = b + (ptrdiff_t)(j0 + jj) * k + k0;
                    for (kk = 0; kk < kb; kk++)
                        pack[kk * MM_NB + jj] = src[kk];
                }
                bt = pack;
                ldb = MM_NB;
            } else {
                bt = b + (ptrdiff_t)k0 * n + j0;
                ldb = n;
            }
            mm_tile(a + (ptrdiff_t)k0 * a_cs, a_rs, a_cs, bt, ldb, y + j0, n, m, kb, nb,
                    k0 == 0);
        }
        for (i = 0; i < m; i++) {
            float *row = y + (ptrdiff_t)i * n + j0;
            if (bias) {
                for (j = 0; j < nb; j++)
                    row[j] += bias[j0 + j];
            }
            sm2c_rt__act_f32(row, nb, act);
        }
    }
}
#endif

#if SM2C_RT_WANT(batch_matmul_f32)
void sm2c_rt_batch_matmul_f32(const float *a, const float *b, float *y, int32_t batch,
                              const int32_t *a_off, const int32_t *b_off, int32_t m, int32_t k,
                              int32_t n, int32_t adj_a, int32_t adj_b)
{
    const ptrdiff_t y_step = (ptrdiff_t)m * n;
    int32_t j;

    for (j = 0; j < batch; j++)
        sm2c_rt_matmul_f32(a + a_off[j], b + b_off[j], NULL, y + (ptrdiff_t)j * y_step, m, k,
                           n, adj_a, adj_b, SM2C_RT_ACT_NONE);
}
#endif
