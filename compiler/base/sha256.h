/*
** sha256.h: SHA-256 (FIPS 180-4), for the input digests the generated code
** records (docs/reliability.md rule 14).
*/
#ifndef SM2C_SHA256_H
#define SM2C_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sm2c_sha256 {
    uint32_t h[8];
    uint64_t length;        /* bytes hashed so far */
    uint8_t block[64];
    size_t used;            /* bytes in block */
} sm2c_sha256;

void sm2c_sha256_init(sm2c_sha256 *s);
void sm2c_sha256_update(sm2c_sha256 *s, const void *data, size_t n);
/* The digest as 64 lowercase hex digits and a NUL. */
void sm2c_sha256_hex(sm2c_sha256 *s, char out[65]);

#endif
