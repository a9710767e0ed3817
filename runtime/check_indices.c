/*
** check_indices.c: range checks on data-dependent indices.
**
** Gather, GatherNd and ScatterNd read or write at positions that arrive at run
** time.  TensorFlow's CPU kernels reject an out-of-range index with an error;
** the generated code calls one of these first and returns the status, so no
** kernel ever touches memory outside its buffers (reliability.md section 6,
** rule 4).
*/
#include "sm2c_rt.h"
#include "rt_select.h"

#define CHECK_INDICES(T, sfx)                                                            \
    SM2C_RT_DEFINE(check_indices_##sfx, int32_t sm2c_rt_check_indices_##sfx(const T *idx, int32_t n, int32_t lo, int32_t hi) \
    {                                                                                    \
        for (int32_t i = 0; i < n; i++)                                                  \
            if (idx[i] < lo || idx[i] >= hi)                                             \
                return SM2C_RT_ERR_INDEX;                                                \
        return SM2C_RT_OK;                                                               \
    })

#define CHECK_INDICES_DYN(T, sfx)                                                        \
    SM2C_RT_DEFINE(check_indices_dyn_##sfx, int32_t sm2c_rt_check_indices_dyn_##sfx(const T *idx, int32_t n, \
                                                                                const int64_t *n_count, \
                                                                                const int64_t *hi) \
    {                                                                                    \
        int32_t k = n;                                                                   \
        if (n_count && *n_count >= 0 && *n_count < n)                                    \
            k = (int32_t)*n_count;                                                       \
        for (int32_t i = 0; i < k; i++)                                                  \
            if (idx[i] < 0 || (int64_t)idx[i] >= *hi)                                    \
                return SM2C_RT_ERR_INDEX;                                                \
        return SM2C_RT_OK;                                                               \
    })

CHECK_INDICES(int32_t, i32)
CHECK_INDICES(int64_t, i64)
CHECK_INDICES_DYN(int32_t, i32)
CHECK_INDICES_DYN(int64_t, i64)
