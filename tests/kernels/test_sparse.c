/* test_sparse.c: the sparse-tensor kernels of feature columns (SparseReshape,
** SparseFillEmptyRows, SparseSegment*) on bad data: every index, row or id out
** of range or out of order must give SM2C_RT_ERR_INDEX and leave the outputs
** untouched; counts past the bound are clamped to it.  String sparse
** features: malformed BytesLists are SM2C_RT_ERR_EXAMPLE. */
#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"

#define POISON 0x5a

static void test_reshape(void **state)
{
    const int64_t in[6] = {0, 1, 1, 2, 2, 0};
    const int32_t in_dims[2] = {3, 3}, out_dims[3] = {1, 9, 1};
    const int64_t want[9] = {0, 1, 0, 0, 5, 0, 0, 0, 0}, two = 2, huge = 1000;
    int64_t out[9];
    (void)state;
    memset(out, POISON, sizeof out);
    assert_int_equal(sm2c_rt_sparse_reshape(in, out, 3, &two, 2, in_dims, 3, out_dims), SM2C_RT_OK);
    assert_memory_equal(out, want, sizeof want);
    assert_int_equal(sm2c_rt_sparse_reshape(in, out, 3, &huge, 2, in_dims, 3, out_dims), SM2C_RT_OK);
    assert_int_equal(out[6], 0);
    assert_int_equal(out[7], 6);
}

static void test_reshape_bad(void **state)
{
    const int64_t hi[2] = {0, 3}, neg[2] = {-1, 0};
    const int32_t in_dims[2] = {3, 3}, out_dims[1] = {9};
    int64_t out[1], untouched[1];
    (void)state;
    memset(untouched, POISON, sizeof untouched);
    memcpy(out, untouched, sizeof out);
    assert_int_equal(sm2c_rt_sparse_reshape(hi, out, 1, NULL, 2, in_dims, 1, out_dims), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_sparse_reshape(neg, out, 1, NULL, 2, in_dims, 1, out_dims), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_sparse_reshape(hi, out, 1, NULL, 9, in_dims, 1, out_dims), SM2C_RT_ERR_INDEX);
    assert_memory_equal(out, untouched, sizeof out);
}

static void test_fill(void **state)
{
    /* rows 3, entries (2,1) (0,0) (2,0): row 1 empty */
    const int64_t idx[6] = {2, 1, 0, 0, 2, 0};
    const float values[3] = {1, 2, 3}, dflt = -1;
    const int64_t want_idx[12] = {0, 0, 1, 0, 2, 1, 2, 0, 0, 0, 0, 0}, want_rev[3] = {2, 0, 3};
    const float want_val[6] = {2, -1, 1, 3, 0, 0};
    int64_t out_idx[12], count, rev[3], scratch[6];
    float out_val[6];
    uint8_t empty[3];
    (void)state;
    assert_int_equal(sm2c_rt_sparse_fill_empty_rows(idx, values, 3, NULL, 2, 3, &dflt, 4, out_idx, out_val, &count,
                                                    empty, rev, scratch), SM2C_RT_OK);
    assert_int_equal(count, 4);
    assert_memory_equal(out_idx, want_idx, sizeof want_idx);
    assert_memory_equal(out_val, want_val, sizeof want_val);
    assert_memory_equal(rev, want_rev, sizeof want_rev);
    assert_true(!empty[0] && empty[1] && !empty[2]);
}

static void test_fill_bad(void **state)
{
    const int64_t hi[2] = {3, 0}, neg[2] = {-1, 0}, ok[2] = {0, 0}, big = 1 << 20;
    const float values[1] = {1}, dflt = 0;
    int64_t out_idx[8], count = 7, rev[1], scratch[6];
    float out_val[4];
    uint8_t empty[3];
    unsigned char before[sizeof out_idx];
    (void)state;
    memset(out_idx, POISON, sizeof out_idx);
    memcpy(before, out_idx, sizeof before);
    assert_int_equal(sm2c_rt_sparse_fill_empty_rows(hi, values, 1, NULL, 2, 3, &dflt, 4, out_idx, out_val, &count,
                                                    empty, rev, scratch), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_sparse_fill_empty_rows(neg, values, 1, NULL, 2, 3, &dflt, 4, out_idx, out_val, &count,
                                                    empty, rev, scratch), SM2C_RT_ERR_INDEX);
    /* dense_shape[0] 0 with an entry: no row is in range */
    assert_int_equal(sm2c_rt_sparse_fill_empty_rows(ok, values, 1, NULL, 2, 0, &dflt, 4, out_idx, out_val, &count,
                                                    empty, rev, scratch), SM2C_RT_ERR_INDEX);
    assert_memory_equal(out_idx, before, sizeof before);
    /* a count over the bound reads the bound only */
    assert_int_equal(sm2c_rt_sparse_fill_empty_rows(ok, values, 1, &big, 2, 3, &dflt, 4, out_idx, out_val, &count,
                                                    empty, rev, scratch), SM2C_RT_OK);
    assert_int_equal(count, 3);
}

static void test_segment(void **state)
{
    const float x[6] = {1, 2, 3, 4, 5, 6};      /* 3 rows of 2 */
    const int32_t idx[3] = {2, 0, 1};
    const int64_t ids[3] = {0, 0, 2}, x_count = 2;
    const float want[6] = {6, 8, 0, 0, 3, 4}, want_mean[6] = {3, 4, 0, 0, 3, 4};
    float y[8];
    int64_t used = -1;
    (void)state;
    assert_int_equal(sm2c_rt_sparse_segment_f32_i32_i64(x, 3, NULL, idx, ids, 3, NULL, y, 3, NULL, 2, 0),
                     SM2C_RT_OK);
    assert_memory_equal(y, want, sizeof want);
    assert_int_equal(sm2c_rt_sparse_segment_f32_i32_i64(x, 3, NULL, idx, ids, 3, NULL, y, 3, NULL, 2, 1),
                     SM2C_RT_OK);
    assert_memory_equal(y, want_mean, sizeof want_mean);
    assert_int_equal(sm2c_rt_sparse_segment_f32_i32_i64(x, 3, NULL, idx, ids, 3, NULL, y, 4, &used, 2, 0),
                     SM2C_RT_OK);
    assert_int_equal(used, 3);
    /* index 2 is past data's count of 2 rows */
    assert_int_equal(sm2c_rt_sparse_segment_f32_i32_i64(x, 3, &x_count, idx, ids, 3, NULL, y, 3, NULL, 2, 0),
                     SM2C_RT_ERR_INDEX);
}

static void test_segment_bad(void **state)
{
    const float x[4] = {1, 2, 3, 4};
    const int64_t idx_hi[2] = {0, 2}, idx_neg[2] = {-1, 0}, idx[2] = {0, 1};
    const int32_t unsorted[2] = {1, 0}, neg[2] = {-1, 0}, over[2] = {0, 4}, short_ids[2] = {0, 0};
    float y[4], untouched[4];
    int64_t used = 0;
    (void)state;
    memset(untouched, POISON, sizeof untouched);
    memcpy(y, untouched, sizeof y);
    assert_int_equal(sm2c_rt_sparse_segment_f32_i64_i32(x, 2, NULL, idx_hi, short_ids, 2, NULL, y, 2, NULL, 2, 0),
                     SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_sparse_segment_f32_i64_i32(x, 2, NULL, idx_neg, short_ids, 2, NULL, y, 2, NULL, 2, 0),
                     SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_sparse_segment_f32_i64_i32(x, 2, NULL, idx, unsorted, 2, NULL, y, 2, NULL, 2, 0),
                     SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_sparse_segment_f32_i64_i32(x, 2, NULL, idx, neg, 2, NULL, y, 2, NULL, 2, 0),
                     SM2C_RT_ERR_INDEX);
    /* an id past the bound, and a static row count the ids do not reach */
    assert_int_equal(sm2c_rt_sparse_segment_f32_i64_i32(x, 2, NULL, idx, over, 2, NULL, y, 2, &used, 2, 0),
                     SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_sparse_segment_f32_i64_i32(x, 2, NULL, idx, short_ids, 2, NULL, y, 2, NULL, 1, 0),
                     SM2C_RT_ERR_INDEX);
    assert_memory_equal(y, untouched, sizeof y);
}

static void test_dyn_gather_and_unique(void **state)
{
    const int64_t idx[4] = {1, 0, 2, 7}, three = 3, two = 2, big = 99;
    const int32_t x[5] = {4, 2, 4, 9, 9};
    const int32_t want_y[5] = {4, 2, 0, 0, 0};
    const int64_t want_idx[5] = {0, 1, 0, 0, 0};
    int32_t y[5];
    int64_t ix[5], count = -1;
    (void)state;
    /* the first 3 indices below a count of 3; the 4th (7) is past the index count */
    assert_int_equal(sm2c_rt_check_indices_dyn_i64(idx, 4, &three, &three), SM2C_RT_OK);
    assert_int_equal(sm2c_rt_check_indices_dyn_i64(idx, 4, &three, &two), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_check_indices_dyn_i64(idx, 4, NULL, &three), SM2C_RT_ERR_INDEX);
    assert_int_equal(sm2c_rt_check_indices_dyn_i64(idx, 4, &big, &big), SM2C_RT_OK);
    /* Unique reads 3 of 5 elements */
    sm2c_rt_unique_i32_i64(x, y, ix, &count, 5, &three);
    assert_int_equal(count, 2);
    assert_memory_equal(y, want_y, sizeof want_y);
    assert_memory_equal(ix, want_idx, sizeof want_idx);
}

/* A string sparse feature "w": Example{features{feature{key "w" value{bytes_list{value "ab" value ""}}}}}. */
#define EX_HEAD 0x0a, 0x0f, 0x0a, 0x0d, 0x0a, 0x01, 'w', 0x12, 0x08, 0x0a, 0x06, 0x0a, 0x02, 'a', 'b'

static void test_parse_strings(void **state)
{
    static const uint8_t good[] = {EX_HEAD, 0x0a, 0x00};
    static const uint8_t truncated[] = {EX_HEAD, 0x0a, 0x05};   /* "" says 5 bytes: past the list */
    static const uint8_t bad_tag[] = {EX_HEAD, 0x12, 0x00};     /* a field other than value = 1 */
    const int32_t key[1] = {'w'};
    const int64_t want_idx[4] = {0, 0, 0, 1}, want_shape[2] = {1, 2};
    sm2c_string ex[1], vals[2];
    int64_t idx[4], count, shape[2];
    (void)state;
    ex[0].data = good;
    ex[0].len = (int64_t)sizeof good;
    assert_int_equal(sm2c_rt_parse_example_sparse(ex, 1, 1, key, 1, 7, 2, idx, vals, &count, shape), SM2C_RT_OK);
    assert_int_equal(count, 2);
    assert_memory_equal(idx, want_idx, sizeof want_idx);
    assert_memory_equal(shape, want_shape, sizeof want_shape);
    assert_true(vals[0].len == 2 && vals[0].data == good + 13 && vals[1].len == 0);
    /* over the bound of one value per example */
    assert_int_equal(sm2c_rt_parse_example_sparse(ex, 1, 1, key, 1, 7, 1, idx, vals, &count, shape),
                     SM2C_RT_ERR_EXAMPLE);
    ex[0].data = truncated;
    assert_int_equal(sm2c_rt_parse_example_sparse(ex, 1, 1, key, 1, 7, 2, idx, vals, &count, shape),
                     SM2C_RT_ERR_EXAMPLE);
    ex[0].data = bad_tag;
    assert_int_equal(sm2c_rt_parse_example_sparse(ex, 1, 1, key, 1, 7, 2, idx, vals, &count, shape),
                     SM2C_RT_ERR_EXAMPLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reshape),
        cmocka_unit_test(test_reshape_bad),
        cmocka_unit_test(test_fill),
        cmocka_unit_test(test_fill_bad),
        cmocka_unit_test(test_segment),
        cmocka_unit_test(test_segment_bad),
        cmocka_unit_test(test_dyn_gather_and_unique),
        cmocka_unit_test(test_parse_strings),
    };
    return cmocka_run_group_tests_name("sparse", tests, NULL, NULL);
}
