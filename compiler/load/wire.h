/*
** wire.h: little-endian integers, varints and CRC-32C as the TensorFlow file
** formats use them (protobuf wire format, SSTable, tensor bundle).
*/
#ifndef SM2C_WIRE_H
#define SM2C_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* Decode a varint of at most 10 bytes (64-bit) / 5 bytes (32-bit) from
** [*p, end).  Advances *p and returns 1; returns 0 (and leaves *p) when the
** varint is unterminated, too long, or overflows the type. */
int sm2c_varint64(const uint8_t **p, const uint8_t *end, uint64_t *out);
int sm2c_varint32(const uint8_t **p, const uint8_t *end, uint32_t *out);

static inline uint32_t sm2c_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t sm2c_le64(const uint8_t *p)
{
    return (uint64_t)sm2c_le32(p) | (uint64_t)sm2c_le32(p + 4) << 32;
}

/* Length (1-4) of the valid UTF-8 sequence (RFC 3629) at p[0..n), or 0 when
** it is invalid: overlong, surrogate, above U+10FFFF or truncated. */
size_t sm2c_utf8_seq(const uint8_t *p, size_t n);
/* Index of the first byte not in valid UTF-8, or n. */
size_t sm2c_utf8_invalid_at(const uint8_t *p, size_t n);

/* CRC-32C (Castagnoli).  extend() continues a running CRC: crc32c(a||b) ==
** sm2c_crc32c_extend(sm2c_crc32c(a), b). */
uint32_t sm2c_crc32c_extend(uint32_t crc, const void *data, size_t len);
static inline uint32_t sm2c_crc32c(const void *data, size_t len)
{
    return sm2c_crc32c_extend(0, data, len);
}

/* TensorFlow's CRC masking (crc32c.h): rotate right 15, add a constant. */
static inline uint32_t sm2c_crc32c_mask(uint32_t crc)
{
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

static inline uint32_t sm2c_crc32c_unmask(uint32_t masked)
{
    uint32_t rot = masked - 0xa282ead8u;
    return (rot >> 17) | (rot << 15);
}

#endif
