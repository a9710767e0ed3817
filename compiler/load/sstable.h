/*
** sstable.h: the LevelDB-style table of variables.index (docs/savedmodel-format.md 3.1).
*/
#ifndef SM2C_SSTABLE_H
#define SM2C_SSTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "base/tensor.h"

typedef struct sm2c_sstable_entry {
    const uint8_t *key;      /* NUL-terminated copy in the arena; may hold NULs itself */
    size_t key_len;
    const uint8_t *value;    /* points into an arena copy of the (decompressed) block */
    size_t value_len;
} sm2c_sstable_entry;

/* Read every entry of the table in buf[0..len): footer and magic, index block,
** every data block (raw or Snappy, its masked CRC32C verified, decompressed size
** capped by limits->block_bytes), restart array, prefix-compressed keys.
** Keys come out strictly increasing (anything else is an error).
** `display` names the file in diagnostics. */
sm2c_status sm2c_sstable_read(sm2c_ctx *c, const char *display, const uint8_t *buf, size_t len,
                              sm2c_sstable_entry **entries, size_t *count);

#endif
