/* test_update.c: the kernels of issue 33's ops (scatter_update,
** update_slice, bincount, ragged_to_tensor) against hand-worked results.  A
** bad index or partition must give SM2C_RT_ERR_INDEX and leave the output
** untouched. */
#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"

#define POISON 0x5a

static void test_scatter_update(void **state)
{
    /* tensor [4, 2]; rows 3, 0, 3: the last write of row 3 wins */
    float y[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const float upd[6] = {10, 11, 20, 21, 30, 31}, want[8] = {20, 21, 2, 3, 4, 5, 30, 31};
    const int32_t idx[3] = {3, 0, 3}, dims[2] = {4, 2};
    const int64_t elem[2] = {1, 1};
    const int32_t hdims[2] = {2, 2};
    const int16_t h[4] = {1, 2, 3, 4}, hu[1] = {-9}, hwant[4] = {1, 2, 3, -9};
    int16_t hy[4];
    (void)state;
    assert_int_equal(sm2c_rt_scatter_update_i32(idx, upd, y, 3, 1, dims, 2, 4), SM2C_RT_OK);
    assert_memory_equal(y, want, sizeof want);
    memcpy(hy, h, sizeof hy);   /* one element of a [2, 2] int16 tensor, int64 tuple */
    assert_int_equal(sm2c_rt_scatter_update_i64(elem, hu, hy, 1, 2, hdims, 1, 2), SM2C_RT_OK);
    assert_memory_equal(hy, hwant, sizeof hwant);
}

static void test_scatter_update_bad(void **state)
{
    const int32_t hi[2] = {0, 4}, lo[1] = {-1}, dims[1] = {4};
    const int64_t big[1] = {(int64_t)1 << 40};
    const float upd[4] = {1, 2, 3, 4};
    unsigned char y[16], untouched[16];
    (void)state;
    memset(untouched, POISON, sizeof untouched);
    memcpy(y, untouched, sizeof y);
    assert_int_equal(sm2c_rt_scatter_update_i32(hi, upd, y, 2, 1, dims, 1, 4), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_scatter_update_i32(lo, upd, y, 1, 1, dims, 1, 4), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_scatter_update_i64(big, upd, y, 1, 1, dims, 1, 4), SM2C_RT_ERR_INDEX);
    assert_memory_equal(y, untouched, sizeof y);
}

static void test_update_slice(void **state)
{
    /* operand [3, 4], update [2, 2] */
    const int32_t ydims[2] = {3, 4}, udims[2] = {2, 2};
    const float u[4] = {-1, -2, -3, -4};
    const int32_t at[2] = {0, 1}, high[2] = {5, 9}, low[2] = {-3, -1};
    const int64_t at64[2] = {1, (int64_t)1 << 40};
    float y[12];
    int32_t i, r, c;
    (void)state;
    /* starts (0, 1); clamped (1, 2) from (5, 9); (0, 0) from (-3, -1); (1, 2) from int64 */
    const int32_t want_r[4] = {0, 1, 0, 1}, want_c[4] = {1, 2, 0, 2};
    for (int32_t t = 0; t < 4; t++) {
        for (i = 0; i < 12; i++)
            y[i] = (float)i;
        if (t == 0)
            sm2c_rt_update_slice_i32(y, u, at, 2, ydims, udims, 4);
        else if (t == 1)
            sm2c_rt_update_slice_i32(y, u, high, 2, ydims, udims, 4);
        else if (t == 2)
            sm2c_rt_update_slice_i32(y, u, low, 2, ydims, udims, 4);
        else
            sm2c_rt_update_slice_i64(y, u, at64, 2, ydims, udims, 4);
        for (r = 0; r < 3; r++)
            for (c = 0; c < 4; c++) {
                int in = r >= want_r[t] && r < want_r[t] + 2 && c >= want_c[t] && c < want_c[t] + 2;
                float want = in ? u[(r - want_r[t]) * 2 + (c - want_c[t])] : (float)(r * 4 + c);
                assert_true(y[r * 4 + c] == want);
            }
    }
}

static void test_bincount(void **state)
{
    const int32_t x[6] = {1, 4, 1, 7, 0, 1};        /* 7 >= size: dropped */
    const int64_t x2[6] = {0, 2, 2, 3, 3, 3};       /* two rows of 3 */
    const float w[6] = {0.5f, 2.0f, 0.25f, 9.0f, -1.0f, 1.0f};
    const float count[5] = {1, 3, 0, 0, 1}, binary[5] = {1, 1, 0, 0, 1}, sum[5] = {-1, 1.75f, 0, 0, 2};
    const int64_t rows[8] = {1, 0, 2, 0, 0, 0, 0, 3};
    float y[5];
    int64_t yi[8];
    (void)state;
    assert_int_equal(sm2c_rt_bincount_f32_i32(x, NULL, y, 1, 6, 5, 0), SM2C_RT_OK);
    assert_memory_equal(y, count, sizeof count);
    assert_int_equal(sm2c_rt_bincount_f32_i32(x, NULL, y, 1, 6, 5, 1), SM2C_RT_OK);
    assert_memory_equal(y, binary, sizeof binary);
    assert_int_equal(sm2c_rt_bincount_f32_i32(x, w, y, 1, 6, 5, 0), SM2C_RT_OK);
    assert_memory_equal(y, sum, sizeof sum);
    assert_int_equal(sm2c_rt_bincount_i64_i64(x2, NULL, yi, 2, 3, 4, 0), SM2C_RT_OK);
    assert_memory_equal(yi, rows, sizeof rows);
}

static void test_bincount_negative(void **state)
{
    const int32_t x[3] = {1, -1, 2};
    const int64_t x64[2] = {0, -5};
    unsigned char y[32], untouched[32];
    (void)state;
    memset(untouched, POISON, sizeof untouched);
    memcpy(y, untouched, sizeof y);
    assert_int_equal(sm2c_rt_bincount_i32_i32(x, NULL, (int32_t *)(void *)y, 1, 3, 4, 0), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_bincount_f64_i64(x64, NULL, (double *)(void *)y, 2, 1, 2, 1), SM2C_RT_ERR_INDEX);
    assert_memory_equal(y, untouched, sizeof y);
}

static void test_ragged_to_tensor(void **state)
{
    /* values 1..6 in rows [3, 0, 2, 1] */
    const float v[6] = {1, 2, 3, 4, 5, 6}, dflt = -1;
    const int32_t splits[5] = {0, 3, 3, 5, 6};
    const int64_t ids[6] = {0, 0, 0, 2, 2, 3};
    const float pad[12] = {1, 2, 3, -1, -1, -1, 4, 5, -1, 6, -1, -1};   /* [4, 3] */
    const float cut[4] = {1, 2, -1, -1};                                /* [2, 2] */
    const float counted[24] = {1, 2, 3, 0, 0, 0, -1, -1, -1, 0, 0, 0,   /* [4, bound 6], 3 columns */
                               4, 5, -1, 0, 0, 0, 6, -1, -1, 0, 0, 0};
    float y[24];
    int64_t count = -7;
    (void)state;
    assert_int_equal(sm2c_rt_ragged_to_tensor_i32(v, &dflt, 1, splits, 5, 0, y, 4, 3, 6, 1, 4, NULL), SM2C_RT_OK);
    assert_memory_equal(y, pad, sizeof pad);
    assert_int_equal(sm2c_rt_ragged_to_tensor_i64(v, &dflt, 1, ids, 4, 1, y, 4, 3, 6, 1, 4, NULL), SM2C_RT_OK);
    assert_memory_equal(y, pad, sizeof pad);
    assert_int_equal(sm2c_rt_ragged_to_tensor_i32(v, &dflt, 1, splits, 5, 0, y, 2, 2, 6, 1, 4, NULL), SM2C_RT_OK);
    assert_memory_equal(y, cut, sizeof cut);
    assert_int_equal(sm2c_rt_ragged_to_tensor_i64(v, &dflt, 1, ids, 4, 1, y, 4, 6, 6, 1, 4, &count), SM2C_RT_OK);
    assert_int_equal(count, 3);
    assert_memory_equal(y, counted, sizeof counted);
}

static void test_ragged_bad_partition(void **state)
{
    const float v[4] = {1, 2, 3, 4}, dflt = 0;
    const int32_t first[3] = {1, 2, 4}, down[3] = {0, 3, 2}, long_row[2] = {0, 4};
    const int64_t neg[4] = {-1, 0, 0, 0}, high[4] = {0, 0, 1, 2}, back[4] = {0, 1, 0, 1};
    unsigned char y[64], untouched[64];
    int64_t count = 0;
    (void)state;
    memset(untouched, POISON, sizeof untouched);
    memcpy(y, untouched, sizeof y);
    assert_int_equal(sm2c_rt_ragged_to_tensor_i32(v, &dflt, 1, first, 3, 0, y, 2, 2, 4, 1, 4, NULL), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_ragged_to_tensor_i32(v, &dflt, 1, down, 3, 0, y, 2, 2, 4, 1, 4, NULL), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_ragged_to_tensor_i64(v, &dflt, 1, neg, 2, 1, y, 2, 2, 4, 1, 4, NULL), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_ragged_to_tensor_i64(v, &dflt, 1, high, 2, 1, y, 2, 2, 4, 1, 4, NULL), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_ragged_to_tensor_i64(v, &dflt, 1, back, 2, 1, y, 2, 2, 4, 1, 4, NULL), SM2C_RT_ERR_INDEX);
    /* a row of 4 over a bound of 3 columns */
    assert_int_equal(sm2c_rt_ragged_to_tensor_i32(v, &dflt, 1, long_row, 2, 0, y, 1, 3, 4, 1, 4, &count),
                     SM2C_RT_ERR_INDEX);
    assert_memory_equal(y, untouched, sizeof y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scatter_update),
        cmocka_unit_test(test_scatter_update_bad),
        cmocka_unit_test(test_update_slice),
        cmocka_unit_test(test_bincount),
        cmocka_unit_test(test_bincount_negative),
        cmocka_unit_test(test_ragged_to_tensor),
        cmocka_unit_test(test_ragged_bad_partition),
    };
    return cmocka_run_group_tests_name("update", tests, NULL, NULL);
}
