/*
** test_wire.c: varints and CRC-32C.
*/
#include <stdlib.h>

#include "sm2c_test.h"
#include "load/wire.h"

static int read64(const uint8_t *b, size_t n, uint64_t *v, size_t *used)
{
    const uint8_t *p = b;
    int ok = sm2c_varint64(&p, b + n, v);
    *used = (size_t)(p - b);
    return ok;
}

static int read32(const uint8_t *b, size_t n, uint32_t *v, size_t *used)
{
    const uint8_t *p = b;
    int ok = sm2c_varint32(&p, b + n, v);
    *used = (size_t)(p - b);
    return ok;
}

static void varint64_values(void **state)
{
    (void)state;
    uint64_t v;
    size_t used;
    const uint8_t zero[] = { 0x00 }, one_byte[] = { 0x7f }, two[] = { 0xac, 0x02 };
    assert_true(read64(zero, 1, &v, &used));
    assert_int_equal(v, 0);
    assert_int_equal(used, 1);
    assert_true(read64(one_byte, 1, &v, &used));
    assert_int_equal(v, 127);
    assert_true(read64(two, 2, &v, &used));
    assert_int_equal(v, 300);
    assert_int_equal(used, 2);
    /* The longest: 10 bytes, UINT64_MAX. */
    const uint8_t max[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
    assert_true(read64(max, sizeof max, &v, &used));
    assert_true(v == UINT64_MAX);
    assert_int_equal(used, 10);
}

static void varint64_errors(void **state)
{
    (void)state;
    uint64_t v = 42;
    size_t used;
    /* Bit 64 set in the 10th byte: overflow. */
    const uint8_t over[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02 };
    assert_false(read64(over, sizeof over, &v, &used));
    assert_int_equal(used, 0);
    /* 11 bytes: too long. */
    const uint8_t longer[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 };
    assert_false(read64(longer, sizeof longer, &v, &used));
    /* Unterminated at the end of the buffer, and an empty buffer. */
    const uint8_t open[] = { 0x80, 0x80 };
    assert_false(read64(open, sizeof open, &v, &used));
    assert_false(read64(open, 0, &v, &used));
    assert_int_equal(v, 42);  /* untouched on failure */
}

static void varint32_limits(void **state)
{
    (void)state;
    uint32_t v;
    size_t used;
    const uint8_t max[] = { 0xff, 0xff, 0xff, 0xff, 0x0f };
    assert_true(read32(max, sizeof max, &v, &used));
    assert_true(v == UINT32_MAX);
    assert_int_equal(used, 5);
    const uint8_t over[] = { 0xff, 0xff, 0xff, 0xff, 0x1f };
    assert_false(read32(over, sizeof over, &v, &used));
    const uint8_t longer[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 };
    assert_false(read32(longer, sizeof longer, &v, &used));
    const uint8_t open[] = { 0xff };
    assert_false(read32(open, sizeof open, &v, &used));
}

static void crc32c_vectors(void **state)
{
    (void)state;
    assert_int_equal(sm2c_crc32c("123456789", 9), 0xe3069283u);
    uint8_t zeros[32] = { 0 }, ones[32], inc[32], dec[32];
    memset(ones, 0xff, sizeof ones);
    for (int i = 0; i < 32; i++) {
        inc[i] = (uint8_t)i;
        dec[i] = (uint8_t)(31 - i);
    }
    /* RFC 3720 B.4 (iSCSI) test vectors. */
    assert_int_equal(sm2c_crc32c(zeros, 32), 0x8a9136aau);
    assert_int_equal(sm2c_crc32c(ones, 32), 0x62a8ab43u);
    assert_int_equal(sm2c_crc32c(inc, 32), 0x46dd794eu);
    assert_int_equal(sm2c_crc32c(dec, 32), 0x113fdb5cu);
    assert_int_equal(sm2c_crc32c("", 0), 0);
    assert_int_equal(sm2c_crc32c("a", 1), 0xc1d04330u);
}

static void crc32c_extend_any_split(void **state)
{
    (void)state;
    uint8_t buf[100];
    for (int i = 0; i < 100; i++)
        buf[i] = (uint8_t)(i * 37 + 11);
    uint32_t whole = sm2c_crc32c(buf, sizeof buf);
    /* Unaligned heads and tails go through both the 8-byte and the byte loop. */
    for (size_t cut = 0; cut <= sizeof buf; cut++)
        assert_int_equal(sm2c_crc32c_extend(sm2c_crc32c(buf, cut), buf + cut, sizeof buf - cut), whole);
    assert_int_equal(sm2c_crc32c(buf + 3, 50), sm2c_crc32c_extend(sm2c_crc32c(buf + 3, 7), buf + 10, 43));
}

static void crc32c_mask(void **state)
{
    (void)state;
    uint32_t samples[] = { 0, 1, 0xe3069283u, 0xffffffffu, 0x80000000u, 0xa282ead8u };
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        uint32_t m = sm2c_crc32c_mask(samples[i]);
        assert_int_equal(sm2c_crc32c_unmask(m), samples[i]);
    }
    /* The formula in crc32c.h: rotate right by 15, add 0xa282ead8. */
    assert_int_equal(sm2c_crc32c_mask(0), 0xa282ead8u);
    assert_int_equal(sm2c_crc32c_mask(1), 0xa282ead8u + 0x20000u);
    assert_int_equal(sm2c_crc32c_mask(0x8000u), 0xa282ead9u);
}

static void utf8_sequences(void **state)
{
    (void)state;
    const struct { const char *bytes; size_t len, invalid_at; } cases[] = {
        { "plain ascii", 11, 11 },
        { "caf\xc3\xa9", 5, 5 },                 /* U+00E9 */
        { "\xe2\x82\xac", 3, 3 },                 /* U+20AC */
        { "\xf0\x9f\x98\x80", 4, 4 },             /* U+1F600 */
        { "a\xc3", 2, 1 },                        /* truncated */
        { "\xc0\xaf", 2, 0 },                     /* overlong '/' */
        { "\xe0\x80\xaf", 3, 0 },                 /* overlong, 3 bytes */
        { "\xed\xa0\x80", 3, 0 },                 /* surrogate U+D800 */
        { "\xf4\x90\x80\x80", 4, 0 },             /* above U+10FFFF */
        { "ok\xff", 3, 2 },                       /* never valid */
        { "\xe2\x28\xa1", 3, 0 },                 /* bad continuation */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(sm2c_utf8_invalid_at((const uint8_t *)cases[i].bytes, cases[i].len),
                         cases[i].invalid_at);
    assert_int_equal(sm2c_utf8_seq((const uint8_t *)"\xf0\x9f\x98\x80", 4), 4);
    assert_int_equal(sm2c_utf8_seq((const uint8_t *)"\xf0\x9f\x98", 3), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(varint64_values),
        cmocka_unit_test(varint64_errors),
        cmocka_unit_test(varint32_limits),
        cmocka_unit_test(crc32c_vectors),
        cmocka_unit_test(crc32c_extend_any_split),
        cmocka_unit_test(crc32c_mask),
        cmocka_unit_test(utf8_sequences),
    };
    return cmocka_run_group_tests_name("wire", tests, NULL, NULL);
}
