/*
** wire.c: varints and CRC-32C (see wire.h).
*/
#include "wire.h"

#include <threads.h>

/* Shared by both widths: at most `max_bytes` bytes, and the last byte may
** only carry the bits that still fit in `bits`. */
static int varint(const uint8_t **p, const uint8_t *end, int max_bytes, int bits,
                  uint64_t *out)
{
    const uint8_t *q = *p;
    uint64_t v = 0;
    for (int i = 0; i < max_bytes; i++) {
        if (q >= end)
            return 0;
        uint8_t b = *q++;
        int shift = 7 * i;
        uint64_t payload = b & 0x7f;
        if (shift + 7 > bits && (payload >> (bits - shift)) != 0)
            return 0;  /* bits beyond the type: overflow */
        v |= payload << shift;
        if (!(b & 0x80)) {
            *p = q;
            *out = v;
            return 1;
        }
    }
    return 0;  /* continuation bit on the last allowed byte: too long */
}

int sm2c_varint64(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    return varint(p, end, 10, 64, out);
}

int sm2c_varint32(const uint8_t **p, const uint8_t *end, uint32_t *out)
{
    uint64_t v;
    if (!varint(p, end, 5, 32, &v))
        return 0;
    *out = (uint32_t)v;
    return 1;
}

/* ---- CRC-32C, slice-by-8 ------------------------------------------------ */

#define CRC32C_POLY 0x82f63b78u  /* reflected Castagnoli */

static uint32_t crc_table[8][256];
static once_flag crc_table_once = ONCE_FLAG_INIT;

static void crc_table_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (CRC32C_POLY & (0u - (c & 1)));
        crc_table[0][i] = c;
    }
    /* table[k][i]: the CRC of byte i followed by k zero bytes. */
    for (int k = 1; k < 8; k++)
        for (uint32_t i = 0; i < 256; i++)
            crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^ crc_table[0][crc_table[k - 1][i] & 0xff];
}

uint32_t sm2c_crc32c_extend(uint32_t crc, const void *data, size_t len)
{
    call_once(&crc_table_once, crc_table_init);
    const uint8_t *p = data;
    uint32_t c = ~crc;
    for (; len >= 8; len -= 8, p += 8) {
        uint32_t lo = c ^ sm2c_le32(p);
        uint32_t hi = sm2c_le32(p + 4);
        c = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
            crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
            crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
            crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
    }
    for (; len > 0; len--, p++)
        c = (c >> 8) ^ crc_table[0][(c ^ *p) & 0xff];
    return ~c;
}

size_t sm2c_utf8_seq(const uint8_t *p, size_t n)
{
    static const uint32_t min[] = { 0, 0x80, 0x800, 0x10000 };
    uint8_t b = p[0];
    size_t k = b < 0x80 ? 0 : (b & 0xe0) == 0xc0 ? 1 : (b & 0xf0) == 0xe0 ? 2
             : (b & 0xf8) == 0xf0 ? 3 : 4;
    if (k == 4 || n <= k)
        return 0;
    uint32_t cp = k ? b & (0x3fu >> k) : b;
    for (size_t j = 1; j <= k; j++) {
        if ((p[j] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[j] & 0x3f);
    }
    if (cp < min[k] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return k + 1;
}

size_t sm2c_utf8_invalid_at(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t len = sm2c_utf8_seq(p + i, n - i);
        if (!len)
            return i;
        i += len;
    }
    return n;
}
