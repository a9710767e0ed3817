/*
** bundle.h: the TensorFlow checkpoint (tensor bundle) under variables/:
** variables.index (an SSTable of BundleEntryProto) plus data shards.
*/
#ifndef SM2C_BUNDLE_H
#define SM2C_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "base/tensor.h"

typedef struct sm2c_slice_extent {
    int64_t start;
    int64_t length;          /* -1: the whole dimension */
} sm2c_slice_extent;

typedef struct sm2c_bundle_entry {
    const char *key;         /* checkpoint key, NUL-terminated */
    size_t key_len;
    int dtype;
    sm2c_shape shape;
    int32_t shard_id;
    int64_t offset;
    int64_t size;
    uint32_t crc32c;         /* masked, as stored */
    int32_t n_slices;        /* > 0: a partitioned variable */
    sm2c_slice_extent **slices;  /* n_slices arrays of shape.rank extents */
} sm2c_bundle_entry;

typedef struct sm2c_bundle {
    int present;             /* 0: the model has no variables/ directory */
    const char *index_path;  /* for diagnostics: "<dir>/variables/variables.index" */
    int32_t num_shards;
    int32_t endianness;
    int32_t version_producer;
    size_t n_entries;        /* tensor entries, sorted by key, header excluded */
    sm2c_bundle_entry *entries;
    /* private */
    int vars_dirfd;
    const char *vars_display;
} sm2c_bundle;

/* Open `variables/variables.index` under the export directory `dirfd`
** (`display` is the export directory as the user named it).  A missing
** variables/ directory is not an error: *out gets present = 0.  A present one
** is fully validated: header, every entry, shard count against the files. */
sm2c_status sm2c_bundle_open(sm2c_ctx *c, int dirfd, const char *display, sm2c_bundle **out);

/* The bundle of a model without variables/ (present = 0), for models loaded
** from bytes. */
sm2c_bundle *sm2c_bundle_absent(sm2c_ctx *c, const char *display);
/* Entry by exact key, or NULL. */
const sm2c_bundle_entry *sm2c_bundle_find(const sm2c_bundle *b, const char *key);

/* Read one tensor: bounds and CRC checked, strings decoded (length varints and
** their checksum), slices of a partitioned variable reassembled with full,
** non-overlapping coverage. */
sm2c_status sm2c_bundle_read(sm2c_ctx *c, const sm2c_bundle *b, const sm2c_bundle_entry *e,
                             sm2c_tensor *out);

/* Release file descriptors; memory stays in the arena. */
void sm2c_bundle_close(sm2c_bundle *b);

#endif
