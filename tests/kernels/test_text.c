/* test_text.c: the text preprocessing kernels against hand-worked answers:
** StringLower (ASCII letters only, UTF-8 kept, the slot bound; with
** encoding utf-8: a table, final sigma, invalid bytes, NUL), the byte-set
** StaticRegexReplace (one byte, runs, first match only, a longer rewrite),
** StringSplitV2 / StringSplit in every mode (whitespace, separator, delimiter
** set with and without empty tokens, bytes; the zeroed tail and the count),
** RaggedTensorToTensor from row ids (padding, cutting, bad ids), the text
** bincounts and the lowest/highest fill before an integer Max / Min; Add of
** strings (concatenation, broadcast, the slot bound) and Unique of strings. */
#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"

static sm2c_string str(const char *s)
{
    sm2c_string v;
    v.data = (const uint8_t *)s;
    v.len = (int64_t)strlen(s);
    return v;
}

static void expect_str(const sm2c_string *got, const char *want)
{
    assert_int_equal(got->len, (int64_t)strlen(want));
    if (got->len)
        assert_memory_equal(got->data, want, strlen(want));
}

static void test_lower(void **state)
{
    const sm2c_string x[3] = {str("AbZ@[`{ \xc3\x9c" "BER"), str(""), str("0123456789")};
    sm2c_string y[3];
    uint8_t text[3 * 16];
    (void)state;
    assert_int_equal(sm2c_rt_string_lower(x, y, text, 3, 16), SM2C_RT_OK);
    expect_str(&y[0], "abz@[`{ \xc3\x9c" "ber");
    expect_str(&y[1], "");
    expect_str(&y[2], "0123456789");
    assert_int_equal(sm2c_rt_string_lower(x, y, text, 3, 8), SM2C_RT_ERR_STRING);
}

static void test_lower_utf8(void **state)
{
    /* a small table: A-Z and Greek capitals (+32); cased: the letters; ignorable: ' and U+0301 */
    static const int32_t map[8] = {0x41, 0x5a, 0x20, 1, 0x391, 0x3a9, 0x20, 1};
    static const int32_t cased[8] = {0x41, 0x5a, 0x61, 0x7a, 0x391, 0x3a9, 0x3b1, 0x3c9};
    static const int32_t ign[4] = {0x27, 0x27, 0x301, 0x301};
    sm2c_string x[6], y[6];
    uint8_t text[6 * 3 * 12];
    (void)state;
    x[0] = str("\xce\x91\xce\xa3 \xce\xa3");             /* ΑΣ Σ: final, then alone */
    x[1] = str("\xce\x91\xce\xa3'\xce\x92\xce\xa3\xcc\x81"); /* ΑΣ'ΒΣ + U+0301 */
    x[2] = str("\xff\xc3(\xe2\x82");                       /* invalid: one U+FFFD per maximal subpart */
    x[3] = str("AB");
    x[3].len = 3;                                           /* "AB" and its NUL: the string ends there */
    x[4] = str("\xc4\xb0x");                                /* U+0130: i and U+0307 */
    x[5] = str("\xed\xa0\x80");                            /* a surrogate's bytes: three U+FFFD */
    assert_int_equal(sm2c_rt_string_lower_utf8(x, y, text, 6, 12, map, 8, cased, 8, ign, 4), SM2C_RT_OK);
    expect_str(&y[0], "\xce\xb1\xcf\x82 \xcf\x83");
    expect_str(&y[1], "\xce\xb1\xcf\x83'\xce\xb2\xcf\x82\xcc\x81");
    expect_str(&y[2], "\xef\xbf\xbd\xef\xbf\xbd(\xef\xbf\xbd");
    expect_str(&y[3], "ab");
    expect_str(&y[4], "i\xcc\x87x");
    expect_str(&y[5], "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    assert_int_equal(sm2c_rt_string_lower_utf8(x, y, text, 6, 8, map, 8, cased, 8, ign, 4), SM2C_RT_ERR_STRING);
}

static void test_concat(void **state)
{
    /* [2, 2] + [2] broadcast, then scalar + [2, 2] (a stride-0 first operand) */
    const sm2c_string a[4] = {str("ab"), str(""), str("\xc3\xa9"), str("xyz")}, b[2] = {str("1"), str("")};
    const sm2c_string s = str("<");
    sm2c_string y[4];
    uint8_t text[4 * 5];
    const int32_t dims[2] = {2, 2}, sa[2] = {2, 1}, sb[2] = {0, 1}, s0[2] = {0, 0};
    (void)state;
    assert_int_equal(sm2c_rt_concat_str(a, b, y, 2, dims, sa, sb, text, 5), SM2C_RT_OK);
    expect_str(&y[0], "ab1");
    expect_str(&y[1], "");
    expect_str(&y[2], "\xc3\xa9" "1");
    expect_str(&y[3], "xyz");
    assert_int_equal(sm2c_rt_concat_str(&s, a, y, 2, dims, s0, sa, text, 5), SM2C_RT_OK);
    expect_str(&y[0], "<ab");
    expect_str(&y[3], "<xyz");
    /* "ab" + "1" needs 3 bytes: a slot of 2 is an error before any write */
    y[0] = str("kept");
    assert_int_equal(sm2c_rt_concat_str(a, b, y, 2, dims, sa, sb, text, 2), SM2C_RT_ERR_STRING);
    expect_str(&y[0], "kept");
}

static void test_unique_str(void **state)
{
    const sm2c_string x[6] = {str("b"), str(""), str("b"), str("bb"), str(""), str("a")};
    sm2c_string y[6];
    int64_t idx[6], count = -1, x_count = 4;
    const int64_t want_idx[6] = {0, 1, 0, 2, 1, 3};
    int32_t i;
    (void)state;
    sm2c_rt_unique_str_i64(x, y, idx, &count, 6, NULL);
    assert_int_equal(count, 4);
    expect_str(&y[0], "b");
    expect_str(&y[1], "");
    expect_str(&y[2], "bb");
    expect_str(&y[3], "a");
    for (i = 0; i < 6; i++)
        assert_int_equal(idx[i], want_idx[i]);
    sm2c_rt_unique_str_i64(x, y, idx, &count, 6, &x_count);   /* the first 4; the tail zeroed */
    assert_int_equal(count, 3);
    assert_int_equal(y[3].len, 0);
    assert_null(y[3].data);
    assert_int_equal(idx[4], 0);
}

static void set_bits(int32_t *set, const char *bytes)
{
    int k;
    for (k = 0; k < 8; k++)
        set[k] = 0;
    for (; *bytes; bytes++)
        set[(uint8_t)*bytes >> 5] |= (int32_t)(1u << ((uint8_t)*bytes & 31));
}

static void test_regex(void **state)
{
    const sm2c_string x[2] = {str("a,,b. c!"), str("..x")};
    const int32_t rw[2] = {'<', '>'};
    int32_t set[8];
    sm2c_string y[2];
    uint8_t text[2 * 16 * 2];
    (void)state;
    set_bits(set, ",.!");
    assert_int_equal(sm2c_rt_regex_replace(x, y, text, 2, 16, set, 0, 1, NULL, 0), SM2C_RT_OK);
    expect_str(&y[0], "ab c");
    expect_str(&y[1], "x");
    assert_int_equal(sm2c_rt_regex_replace(x, y, text, 2, 16, set, 1, 1, rw, 2), SM2C_RT_OK);
    expect_str(&y[0], "a<>b<> c<>");
    expect_str(&y[1], "<>x");
    assert_int_equal(sm2c_rt_regex_replace(x, y, text, 2, 16, set, 0, 0, rw, 1), SM2C_RT_OK);
    expect_str(&y[0], "a<,b. c!");
    assert_int_equal(sm2c_rt_regex_replace(x, y, text, 2, 4, set, 0, 1, NULL, 0), SM2C_RT_ERR_STRING);
}

static void test_split(void **state)
{
    const sm2c_string x[3] = {str(" a\t bc "), str(""), str("d,,e")};
    const int32_t comma[1] = {','};
    int64_t idx[2 * 12], count = -1, shape[2];
    sm2c_string v[12];
    (void)state;
    assert_int_equal(sm2c_rt_string_split(x, 3, 8, NULL, 0, 0, 12, idx, v, &count, shape), SM2C_RT_OK);
    assert_int_equal(count, 3);
    expect_str(&v[0], "a");
    expect_str(&v[1], "bc");
    expect_str(&v[2], "d,,e");
    assert_int_equal(idx[4], 2);
    assert_int_equal(idx[5], 0);
    assert_int_equal(shape[0], 3);
    assert_int_equal(shape[1], 2);
    assert_int_equal(idx[6], 0);        /* the tail is zero */
    assert_null(v[3].data);
    assert_int_equal(sm2c_rt_string_split(x, 3, 8, comma, 1, 1, 12, idx, v, &count, shape), SM2C_RT_OK);
    assert_int_equal(count, 5);         /* " a\t bc ", "", "d", "", "e" */
    expect_str(&v[1], "");
    assert_int_equal(idx[2], 1);
    assert_int_equal(sm2c_rt_string_split(x, 3, 8, comma, 1, 2, 12, idx, v, &count, shape), SM2C_RT_OK);
    assert_int_equal(count, 3);         /* empty tokens skipped, "" has none */
    assert_int_equal(sm2c_rt_string_split(x, 3, 8, comma, 1, 3, 12, idx, v, &count, shape), SM2C_RT_OK);
    assert_int_equal(count, 4);         /* " a\t bc ", "d", "", "e" */
    assert_int_equal(sm2c_rt_string_split(x, 3, 8, NULL, 0, 4, 12, idx, v, &count, shape), SM2C_RT_OK);
    assert_int_equal(count, 11);
    assert_int_equal(shape[1], 7);
    assert_int_equal(sm2c_rt_string_split(x, 3, 4, NULL, 0, 0, 12, idx, v, &count, shape), SM2C_RT_ERR_STRING);
}

static void test_ragged_rowids(void **state)
{
    const int64_t values[5] = {1, 2, 3, 4, 5}, rowids[5] = {0, 0, 0, 2, 2}, bad[5] = {0, 2, 1, 0, 0}, dflt = -1;
    const int64_t count = 4, want[6] = {1, 2, -1, -1, 4, -1};
    int64_t y[6];
    (void)state;
    assert_int_equal(sm2c_rt_ragged_rowids_to_tensor_i64(values, rowids, 5, &count, 3, &dflt, y, 3, 2), SM2C_RT_OK);
    assert_memory_equal(y, want, sizeof want);
    assert_int_equal(sm2c_rt_ragged_rowids_to_tensor_i64(values, bad, 5, NULL, 3, &dflt, y, 3, 2),
                     SM2C_RT_ERR_INDEX);
}

static void test_bincount(void **state)
{
    const int32_t x[6] = {0, 2, 2, 7, 1, 1};
    const int64_t count = 5, splits[3] = {0, 3, 5}, v[6] = {1, 1, 3, 0, 9, 0};
    const int64_t want[4] = {1, 1, 2, 0}, want_rows[8] = {0, 2, 0, 1, 1, 0, 0, 0};
    int64_t y[8];
    (void)state;
    assert_int_equal(sm2c_rt_text_bincount_i32(x, 6, &count, y, 4, 0), SM2C_RT_OK);
    assert_memory_equal(y, want, sizeof want);
    assert_int_equal(sm2c_rt_ragged_bincount_i64(splits, 2, v, 6, NULL, y, 4, 0), SM2C_RT_OK);
    assert_memory_equal(y, want_rows, sizeof want_rows);
    assert_int_equal(sm2c_rt_ragged_bincount_i64(splits, 2, v, 6, NULL, y, 4, 1), SM2C_RT_OK);
    assert_int_equal(y[1], 1);
}

static void test_fill_extreme(void **state)
{
    int64_t x[4] = {5, 6, 7, 8}, count = 1;
    (void)state;
    sm2c_rt_dyn_fill_extreme_i64(x, &count, 1, 4, 1, 1);
    assert_int_equal(x[0], 5);
    assert_true(x[1] == INT64_MIN && x[3] == INT64_MIN);
    sm2c_rt_dyn_fill_extreme_i64(x, &count, 1, 4, 1, 0);
    assert_true(x[2] == INT64_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lower),
        cmocka_unit_test(test_lower_utf8),
        cmocka_unit_test(test_concat),
        cmocka_unit_test(test_unique_str),
        cmocka_unit_test(test_regex),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_ragged_rowids),
        cmocka_unit_test(test_bincount),
        cmocka_unit_test(test_fill_extreme),
    };
    return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
