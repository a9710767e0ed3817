/*
** sstable.c: reading a whole LevelDB-format table (docs/savedmodel-format.md 3.1).
**
** The file is fully in memory.  We read the footer, then the index block, then
** every data block the index names, in order.  Every block's trailer CRC is
** verified, Snappy blocks are size-capped before anything is allocated, and the
** block internals (restart array, prefix-compressed keys) are checked so that
** no loop can run past a block or fail to advance.
*/
#include "sstable.h"

#include <inttypes.h>
#include <string.h>

#include <snappy-c.h>

#include "wire.h"

#define FOOTER_BYTES 48
#define TRAILER_BYTES 5
#define TABLE_MAGIC UINT64_C(0xdb4775248b80fb57)

enum { BLOCK_RAW = 0, BLOCK_SNAPPY = 1 };

typedef struct handle {
    uint64_t offset;
    uint64_t size;
} handle;

/* One decoded (decompressed) block and where it came from, for messages. */
typedef struct block {
    const uint8_t *data;
    size_t len;
    uint64_t offset;         /* file offset of the block */
} block;

/* The growing output and the reader's state. */
typedef struct reader {
    sm2c_ctx *c;
    const char *display;
    const uint8_t *buf;
    size_t len;
    sm2c_sstable_entry *out;
    size_t count, cap;
} reader;

/* Malformed input: one line naming the file. */
#define BAD(r, ...) sm2c_error((r)->c->diag, SM2C_ERR_INVALID, (r)->display, NULL, __VA_ARGS__)

/* ---- footer and handles ------------------------------------------------- */

static int decode_handle(const uint8_t **p, const uint8_t *end, handle *h)
{
    return sm2c_varint64(p, end, &h->offset) && sm2c_varint64(p, end, &h->size);
}

/* A block and its trailer must lie before the footer.  Checked arithmetic:
** a size near 2^64 must not wrap around. */
static sm2c_status check_handle(reader *r, const handle *h, const char *what)
{
    uint64_t limit = r->len - FOOTER_BYTES;
    if (h->offset > limit || h->size > limit - h->offset ||
        TRAILER_BYTES > limit - h->offset - h->size)
        return sm2c_error(r->c->diag, SM2C_ERR_INVALID, r->display, NULL,
                          "%s block handle out of range (offset %" PRIu64 ", size %" PRIu64
                          "; blocks end at %" PRIu64 ")",
                          what, h->offset, h->size, limit);
    return SM2C_OK;
}

static sm2c_status read_footer(reader *r, handle *index)
{
    if (r->len < FOOTER_BYTES)
        return sm2c_error(r->c->diag, SM2C_ERR_INVALID, r->display, NULL,
                          "not an SSTable (bad magic/footer): file has %zu bytes, "
                          "shorter than the %d-byte footer", r->len, FOOTER_BYTES);
    const uint8_t *footer = r->buf + r->len - FOOTER_BYTES;
    uint64_t magic = sm2c_le64(footer + FOOTER_BYTES - 8);
    if (magic != TABLE_MAGIC)
        return sm2c_error(r->c->diag, SM2C_ERR_INVALID, r->display, NULL,
                          "not an SSTable (bad magic/footer): magic 0x%016" PRIx64
                          " at offset %zu; expected 0x%016" PRIx64,
                          magic, r->len - 8, TABLE_MAGIC);
    const uint8_t *p = footer, *end = footer + FOOTER_BYTES - 8;
    handle meta;
    if (!decode_handle(&p, end, &meta) || !decode_handle(&p, end, index))
        return BAD(r, "not an SSTable (bad magic/footer): malformed block handles in the "
                   "footer at offset %zu", r->len - FOOTER_BYTES);
    /* The metaindex is always empty in TensorFlow bundles; only its place is checked. */
    sm2c_status st = check_handle(r, &meta, "metaindex");
    return st ? st : check_handle(r, index, "index");
}

/* ---- blocks -------------------------------------------------------------- */

static sm2c_status uncompress_snappy(reader *r, const handle *h, block *out)
{
    const char *in = (const char *)r->buf + h->offset;
    size_t ulen;
    if (snappy_uncompressed_length(in, h->size, &ulen) != SNAPPY_OK)
        return BAD(r, "corrupt Snappy block at offset %" PRIu64 " (size %" PRIu64 ")",
                   h->offset, h->size);
    if ((uint64_t)ulen > (uint64_t)r->c->limits->block_bytes)
        return sm2c_error(r->c->diag, SM2C_ERR_LIMIT, r->display, NULL,
                          "Snappy block at offset %" PRIu64 " declares %zu uncompressed bytes, "
                          "more than the limit of %" PRId64 " (--limit block-bytes=N raises it)",
                          h->offset, ulen, r->c->limits->block_bytes);
    if (snappy_validate_compressed_buffer(in, h->size) != SNAPPY_OK)
        return BAD(r, "corrupt Snappy block at offset %" PRIu64 " (size %" PRIu64 ")",
                   h->offset, h->size);
    char *dst = sm2c_arena_alloc(r->c->arena, ulen + 1);
    size_t got = ulen;
    if (snappy_uncompress(in, h->size, dst, &got) != SNAPPY_OK || got != ulen)
        return BAD(r, "corrupt Snappy block at offset %" PRIu64 " (size %" PRIu64 ")",
                   h->offset, h->size);
    out->data = (const uint8_t *)dst;
    out->len = ulen;
    return SM2C_OK;
}

/* Verify the trailer (always, as TensorFlow does) and decompress. */
static sm2c_status read_block(reader *r, const handle *h, const char *what, block *out)
{
    sm2c_status st = check_handle(r, h, what);
    if (st)
        return st;
    const uint8_t *data = r->buf + h->offset;
    uint8_t type = data[h->size];
    uint32_t stored = sm2c_le32(data + h->size + 1);
    uint32_t actual = sm2c_crc32c_extend(sm2c_crc32c(data, h->size), &type, 1);
    if (sm2c_crc32c_unmask(stored) != actual)
        return sm2c_error(r->c->diag, SM2C_ERR_INVALID, r->display, NULL,
                          "block checksum mismatch at offset %" PRIu64
                          " (stored 0x%08x, computed 0x%08x)",
                          h->offset, sm2c_crc32c_unmask(stored), actual);
    out->offset = h->offset;
    if (type == BLOCK_SNAPPY)
        return uncompress_snappy(r, h, out);
    if (type != BLOCK_RAW)
        return BAD(r, "unknown compression type %u in block at offset %" PRIu64
                   "; expected 0 (none) or 1 (Snappy)", (unsigned)type, h->offset);
    if (h->size > (uint64_t)r->c->limits->block_bytes)
        return sm2c_error(r->c->diag, SM2C_ERR_LIMIT, r->display, NULL,
                          "block at offset %" PRIu64 " has %" PRIu64 " bytes, more than the "
                          "limit of %" PRId64 " (--limit block-bytes=N raises it)",
                          h->offset, h->size, r->c->limits->block_bytes);
    /* Entries outlive the caller's buffer: copy into the arena. */
    uint8_t *copy = sm2c_arena_alloc(r->c->arena, h->size + 1);
    memcpy(copy, data, h->size);
    out->data = copy;
    out->len = h->size;
    return SM2C_OK;
}

/* ---- block internals ----------------------------------------------------- */

typedef struct restarts {
    const uint8_t *array;    /* fixed32 offsets */
    uint32_t count;
    uint32_t next;           /* index of the next restart point to meet */
    size_t entries_end;      /* entries occupy [0, entries_end) */
} restarts;

static sm2c_status parse_restarts(reader *r, const block *b, restarts *rs)
{
    if (b->len < 4)
        return BAD(r, "block at offset %" PRIu64 " has %zu bytes, too short for its "
                   "restart count", b->offset, b->len);
    rs->count = sm2c_le32(b->data + b->len - 4);
    size_t max = (b->len - 4) / 4;
    if (rs->count == 0 || rs->count > max)
        return BAD(r, "bad restart array in block at offset %" PRIu64
                   ": %" PRIu32 " restart points do not fit in %zu bytes", b->offset, rs->count,
                   b->len);
    rs->entries_end = b->len - 4 - (size_t)rs->count * 4;
    rs->array = b->data + rs->entries_end;
    rs->next = 0;
    /* An empty block is one restart point at 0 and nothing else. */
    if (rs->entries_end == 0 && (rs->count != 1 || sm2c_le32(rs->array) != 0))
        return BAD(r, "bad restart array in empty block at offset %" PRIu64, b->offset);
    if (rs->entries_end == 0)
        rs->next = 1;
    return SM2C_OK;
}

static int key_less(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    int d = memcmp(a, b, alen < blen ? alen : blen);
    return d < 0 || (d == 0 && alen < blen);
}

/* An entry starts at `pos`: it must be the next restart point if one is due
** there, and restart points must start with a full key. */
static sm2c_status meet_restart(reader *r, const block *b, restarts *rs, size_t pos,
                                uint32_t shared)
{
    if (rs->next >= rs->count)
        return SM2C_OK;
    uint32_t want = sm2c_le32(rs->array + (size_t)rs->next * 4);
    if (want < pos)
        return BAD(r, "bad restart array in block at offset %" PRIu64
                   ": restart point %" PRIu32 " is not at an entry", b->offset, want);
    if (want > pos)
        return SM2C_OK;
    if (shared != 0)
        return BAD(r, "block at offset %" PRIu64 ": entry at restart point %zu shares a "
                   "key prefix", b->offset, pos);
    rs->next++;
    return SM2C_OK;
}

static void push(reader *r, const uint8_t *key, size_t key_len, const uint8_t *value,
                 size_t value_len)
{
    if (r->count == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        sm2c_sstable_entry *grown = sm2c_arena_array(r->c->arena, cap, sizeof *grown);
        if (r->count)
            memcpy(grown, r->out, r->count * sizeof *grown);
        r->out = grown;
        r->cap = cap;
    }
    r->out[r->count++] = (sm2c_sstable_entry){ key, key_len, value, value_len };
}

/* The previous key of the whole table, for the strictly-increasing check. */
static int key_in_order(reader *r, const uint8_t *key, size_t len)
{
    if (r->count == 0)
        return 1;
    const sm2c_sstable_entry *prev = &r->out[r->count - 1];
    return key_less(prev->key, prev->key_len, key, len);
}

typedef sm2c_status (*entry_fn)(reader *r, const block *b, const uint8_t *key, size_t key_len,
                                const uint8_t *value, size_t value_len, void *user);

/* Walk the entries of one block.  Each entry has three varints, so it is at
** least 3 bytes long and the loop always advances. */
static sm2c_status walk_block(reader *r, const block *b, entry_fn fn, void *user)
{
    restarts rs = { 0 };
    sm2c_status st = parse_restarts(r, b, &rs);
    if (st)
        return st;
    const uint8_t *prev_key = NULL;
    size_t prev_len = 0, pos = 0;
    const uint8_t *end = b->data + rs.entries_end;
    while (pos < rs.entries_end) {
        const uint8_t *p = b->data + pos;
        uint32_t shared, unshared, value_len;
        if (!sm2c_varint32(&p, end, &shared) || !sm2c_varint32(&p, end, &unshared) ||
            !sm2c_varint32(&p, end, &value_len))
            return BAD(r, "block at offset %" PRIu64 ": malformed entry header at byte %zu",
                       b->offset, pos);
        if ((st = meet_restart(r, b, &rs, pos, shared)))
            return st;
        if (shared > prev_len)
            return BAD(r, "block at offset %" PRIu64 ": shared key prefix %" PRIu32 " longer "
                       "than the previous key (%zu bytes) at byte %zu", b->offset, shared,
                       prev_len, pos);
        size_t left = (size_t)(end - p);
        if (unshared > left || value_len > left - unshared)
            return BAD(r, "block at offset %" PRIu64 ": key or value runs past the entries "
                       "at byte %zu", b->offset, pos);
        size_t key_len = (size_t)shared + unshared;
        uint8_t *key = sm2c_arena_alloc(r->c->arena, key_len + 1);
        if (shared)
            memcpy(key, prev_key, shared);
        memcpy(key + shared, p, unshared);
        if ((st = fn(r, b, key, key_len, p + unshared, value_len, user)))
            return st;
        prev_key = key;
        prev_len = key_len;
        pos = (size_t)(p + unshared + value_len - b->data);
    }
    if (rs.next != rs.count)
        return BAD(r, "bad restart array in block at offset %" PRIu64
                   ": restart point %" PRIu32 " is not at an entry", b->offset,
                   sm2c_le32(rs.array + (size_t)rs.next * 4));
    return SM2C_OK;
}

static sm2c_status add_data_entry(reader *r, const block *b, const uint8_t *key, size_t key_len,
                                  const uint8_t *value, size_t value_len, void *user)
{
    (void)user;
    if (!key_in_order(r, key, key_len))
        return BAD(r, "block at offset %" PRIu64 ": keys not strictly increasing "
                   "(entry %zu of the table)", b->offset, r->count);
    push(r, key, key_len, value, value_len);
    return SM2C_OK;
}

/* The index entries, collected before any data block is read. */
typedef struct index_list {
    handle *handles;
    size_t count, cap;
} index_list;

static sm2c_status add_index_entry(reader *r, const block *b, const uint8_t *key, size_t key_len,
                                   const uint8_t *value, size_t value_len, void *user)
{
    (void)key;
    (void)key_len;
    index_list *list = user;
    const uint8_t *p = value, *end = value + value_len;
    handle h;
    if (!decode_handle(&p, end, &h) || p != end)
        return BAD(r, "index block at offset %" PRIu64 ": malformed block handle "
                   "in entry %zu", b->offset, list->count);
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 16;
        handle *grown = sm2c_arena_array(r->c->arena, cap, sizeof *grown);
        if (list->count)
            memcpy(grown, list->handles, list->count * sizeof *grown);
        list->handles = grown;
        list->cap = cap;
    }
    list->handles[list->count++] = h;
    return SM2C_OK;
}

sm2c_status sm2c_sstable_read(sm2c_ctx *c, const char *display, const uint8_t *buf, size_t len,
                              sm2c_sstable_entry **entries, size_t *count)
{
    reader r = { c, display, buf, len, NULL, 0, 0 };
    *entries = NULL;
    *count = 0;
    handle index_handle;
    block index;
    index_list list = { 0 };
    sm2c_status st = read_footer(&r, &index_handle);
    if (!st)
        st = read_block(&r, &index_handle, "index", &index);
    if (!st)
        st = walk_block(&r, &index, add_index_entry, &list);
    for (size_t i = 0; !st && i < list.count; i++) {
        block data;
        st = read_block(&r, &list.handles[i], "data", &data);
        if (!st)
            st = walk_block(&r, &data, add_data_entry, NULL);
    }
    if (st)
        return st;
    *entries = r.out;
    *count = r.count;
    return SM2C_OK;
}
