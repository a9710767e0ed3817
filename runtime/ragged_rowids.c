/*
** ragged_rowids.c: RaggedTensorToTensor of a ragged vector given by
** FIRST_DIM_SIZE and VALUE_ROWIDS (what TextVectorization's ragged tokens
** export): y [rows, cols] is dflt everywhere but at (rowids[i], its position
** in its row) for the first count values (count NULL: all n), values past
** cols in a row and rows past `rows` dropped, as TensorFlow pads and cuts.
** rowids must be non-decreasing and in [0, nrows): else SM2C_RT_ERR_INDEX,
** before anything is written.  Keeping y's rows independent of a
** data-dependent count makes the result static (compiler/ops/ops_text.c).
*/
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"

static inline int32_t rowids_ok(const int64_t *rowids, int64_t count, int64_t nrows)
{
    int64_t i;
    for (i = 0; i < count; i++)
        if (rowids[i] < 0 || rowids[i] >= nrows || (i && rowids[i] < rowids[i - 1]))
            return 0;
    return 1;
}

#define SM2C_RT__RAGGED_ROWIDS(T, sfx)                                                         \
    SM2C_RT_DEFINE(ragged_rowids_to_tensor_##sfx,                                              \
    int32_t sm2c_rt_ragged_rowids_to_tensor_##sfx(const T *values, const int64_t *rowids,      \
                                                 int32_t n, const int64_t *count,              \
                                                 int32_t nrows, const T *dflt, T *y,           \
                                                 int32_t rows, int32_t cols)                   \
    {                                                                                          \
        int64_t i, m = count ? *count : n, col = 0;                                            \
        if (m < 0 || m > n || !rowids_ok(rowids, m, nrows))                                    \
            return SM2C_RT_ERR_INDEX;                                                          \
        for (i = 0; i < (int64_t)rows * cols; i++)                                             \
            y[i] = *dflt;                                                                      \
        for (i = 0; i < m; i++) {                                                              \
            col = i && rowids[i] == rowids[i - 1] ? col + 1 : 0;                               \
            if (rowids[i] < rows && col < cols)                                                \
                y[rowids[i] * cols + col] = values[i];                                         \
        }                                                                                      \
        return SM2C_RT_OK;                                                                     \
    })

SM2C_RT__RAGGED_ROWIDS(int64_t, i64)
SM2C_RT__RAGGED_ROWIDS(int32_t, i32)
SM2C_RT__RAGGED_ROWIDS(float, f32)
