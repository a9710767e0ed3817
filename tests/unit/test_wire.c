/*
** test_wire.c: varints and CRC-32C.
*/
#include <stdlib.h>

#include "sm2c_test.h"
#include "wire.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(varint64_values),
        cmocka_unit_test(varint64_errors),
        cmocka_unit_test(varint32_limits),
        cmocka_unit_test(crc32c_vectors),
        cmocka_unit_test(crc32c_extend_any_split),
        cmocka_unit_test(crc32c_mask),
    };
    return cmocka_run_group_tests_name("wire", tests, NULL, NULL);
}
