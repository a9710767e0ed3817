/*
** test_sstable.c: the LevelDB table reader against tables written here by a
** small writer (raw and Snappy blocks, several data blocks, restart intervals
** 1 and 16), and against every kind of corruption.
*/
#include <stdio.h>
#include <stdlib.h>

#include <snappy-c.h>

#include "sm2c_test.h"
#include "test_bytes.h"
#include "load/sstable.h"
#include "load/wire.h"

/* ---- block builder (LevelDB block_builder.cc) -------------------------------- */

typedef struct bbuild {
    tbuf buf;
    uint32_t restarts[4096];
    int n_restarts, since_restart, interval;
    uint8_t last[512];
    size_t last_len;
} bbuild;

static void bb_init(bbuild *b, int interval)
{
    memset(b, 0, sizeof *b);
    b->interval = interval;
    b->restarts[b->n_restarts++] = 0;
}

static void bb_add(bbuild *b, const void *key, size_t klen, const void *val, size_t vlen)
{
    size_t shared = 0;
    if (b->since_restart == b->interval) {
        b->restarts[b->n_restarts++] = (uint32_t)b->buf.len;
        b->since_restart = 0;
    } else {
        while (shared < klen && shared < b->last_len && b->last[shared] == ((const uint8_t *)key)[shared])
            shared++;
    }
    put_varint(&b->buf, shared);
    put_varint(&b->buf, klen - shared);
    put_varint(&b->buf, vlen);
    put(&b->buf, (const uint8_t *)key + shared, klen - shared);
    put(&b->buf, val, vlen);
    memcpy(b->last, key, klen);
    b->last_len = klen;
    b->since_restart++;
}

static tbuf bb_finish(bbuild *b)
{
    for (int i = 0; i < b->n_restarts; i++)
        put_fixed32(&b->buf, b->restarts[i]);
    put_fixed32(&b->buf, (uint32_t)b->n_restarts);
    return b->buf;
}

/* ---- table writer -------------------------------------------------------------- */

typedef struct handle {
    uint64_t offset, size;
} handle;

typedef struct table {
    tbuf file;
    handle data[64];
    int n_data;
    handle meta, index;
} table;

/* Block contents, then type byte and masked CRC of block || type. */
static handle write_block(tbuf *f, const tbuf *block, uint8_t type)
{
    handle h = { f->len, 0 };
    if (type == 1) {
        size_t n = snappy_max_compressed_length(block->len);
        char *z = malloc(n);
        assert_int_equal(snappy_compress((const char *)block->data, block->len, z, &n), SNAPPY_OK);
        put(f, z, n);
        free(z);
    } else {
        put(f, block->data, block->len);
    }
    h.size = f->len - h.offset;
    uint32_t crc = sm2c_crc32c_extend(sm2c_crc32c(f->data + h.offset, h.size), &type, 1);
    put(f, &type, 1);
    put_fixed32(f, sm2c_crc32c_mask(crc));
    return h;
}

static void put_footer(tbuf *f, handle meta, handle index)
{
    tbuf foot = { 0 };
    put_varint(&foot, meta.offset);
    put_varint(&foot, meta.size);
    put_varint(&foot, index.offset);
    put_varint(&foot, index.size);
    uint8_t zero[40] = { 0 };
    put(&foot, zero, 40 - foot.len);
    put_fixed32(&foot, 0x8b80fb57u);
    put_fixed32(&foot, 0xdb477524u);
    put(f, foot.data, foot.len);
    free(foot.data);
}

static void put_handle(tbuf *b, handle h)
{
    put_varint(b, h.offset);
    put_varint(b, h.size);
}

/* Keys are "" then key%04d; values repeat their key so Snappy has work to do. */
static void entry_kv(int i, char *key, size_t *klen, char *val, size_t *vlen)
{
    if (i == 0) {
        *klen = 0;
    } else {
        snprintf(key, 32, "layer/%04d/kernel", i);
        *klen = strlen(key);
    }
    *vlen = (size_t)snprintf(val, 200, "value-%d-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", i);
}

/* n entries, `per_block` of them per data block. */
static table build(int n, int per_block, int interval, uint8_t type)
{
    table t = { 0 };
    bbuild *data = malloc(sizeof *data), *index = malloc(sizeof *index);
    bb_init(index, 1);
    for (int first = 0; first < n; first += per_block) {
        bb_init(data, interval);
        char key[32], val[200], last[32];
        size_t klen = 0, vlen, last_len = 0;
        for (int i = first; i < n && i < first + per_block; i++) {
            entry_kv(i, key, &klen, val, &vlen);
            bb_add(data, key, klen, val, vlen);
            memcpy(last, key, klen);
            last_len = klen;
        }
        tbuf block = bb_finish(data);
        handle h = write_block(&t.file, &block, type);
        free(block.data);
        t.data[t.n_data++] = h;
        tbuf hv = { 0 };
        put_handle(&hv, h);
        bb_add(index, last, last_len, hv.data, hv.len);
        free(hv.data);
    }
    bbuild *meta = malloc(sizeof *meta);
    bb_init(meta, 16);
    tbuf mb = bb_finish(meta), ib = bb_finish(index);
    t.meta = write_block(&t.file, &mb, 0);
    t.index = write_block(&t.file, &ib, 0);
    free(mb.data);
    free(ib.data);
    put_footer(&t.file, t.meta, t.index);
    free(data);
    free(index);
    free(meta);
    return t;
}

/* A valid table around one hand-made data block (for block-internal cases). */
static table wrap_block(const tbuf *block)
{
    table t = { 0 };
    t.data[t.n_data++] = write_block(&t.file, block, 0);
    bbuild *index = malloc(sizeof *index);
    bb_init(index, 1);
    tbuf hv = { 0 };
    put_handle(&hv, t.data[0]);
    bb_add(index, "\xff", 1, hv.data, hv.len);
    free(hv.data);
    tbuf mb = { 0 };
    put_fixed32(&mb, 0);
    put_fixed32(&mb, 1);
    tbuf ib = bb_finish(index);
    t.meta = write_block(&t.file, &mb, 0);
    t.index = write_block(&t.file, &ib, 0);
    free(mb.data);
    free(ib.data);
    free(index);
    put_footer(&t.file, t.meta, t.index);
    return t;
}

/* After patching a block, make its trailer CRC right again. */
static void fix_crc(table *t, handle h)
{
    uint8_t *p = t->file.data + h.offset;
    uint32_t crc = sm2c_crc32c(p, h.size + 1);  /* block || type */
    set_fixed32(p + h.size + 1, sm2c_crc32c_mask(crc));
}

static void replace_footer(table *t, handle meta, handle index)
{
    t->file.len -= 48;
    put_footer(&t->file, meta, index);
}

static sm2c_status read_table(test_ctx *tc, const table *t, sm2c_sstable_entry **v, size_t *n)
{
    return sm2c_sstable_read(&tc->ctx, "variables.index", t->file.data, t->file.len, v, n);
}

static void expect_entries(const sm2c_sstable_entry *v, size_t n, int want)
{
    assert_int_equal(n, want);
    for (int i = 0; i < want; i++) {
        char key[32], val[200];
        size_t klen, vlen;
        entry_kv(i, key, &klen, val, &vlen);
        assert_int_equal(v[i].key_len, klen);
        assert_memory_equal(v[i].key, key, klen);
        assert_int_equal(v[i].key[klen], 0);
        assert_int_equal(v[i].value_len, vlen);
        assert_memory_equal(v[i].value, val, vlen);
    }
}

static void expect_error(const table *t, sm2c_status want, const char *needle)
{
    test_ctx *tc = test_ctx_new();
    sm2c_sstable_entry *v;
    size_t n;
    assert_int_equal(read_table(tc, t, &v, &n), want);
    assert_error_contains(tc, needle);
    assert_error_contains(tc, "variables.index: ");
    test_ctx_free(tc);
}

/* ---- good tables ------------------------------------------------------------------ */

static void roundtrip(int n, int per_block, int interval, uint8_t type)
{
    table t = build(n, per_block, interval, type);
    test_ctx *tc = test_ctx_new();
    sm2c_sstable_entry *v;
    size_t got;
    assert_int_equal(read_table(tc, &t, &v, &got), SM2C_OK);
    expect_entries(v, got, n);
    /* The input buffer may go away: entries live in the arena. */
    memset(t.file.data, 0xee, t.file.len);
    expect_entries(v, got, n);
    assert_int_equal(tc->diag.errors, 0);
    test_ctx_free(tc);
    free(t.file.data);
}

static void one_raw_block(void **state)
{
    (void)state;
    roundtrip(6, 100, 16, 0);
}

static void many_blocks_interval_1(void **state)
{
    (void)state;
    roundtrip(100, 7, 1, 0);
}

static void many_blocks_interval_16(void **state)
{
    (void)state;
    roundtrip(200, 40, 16, 0);
}

static void snappy_blocks(void **state)
{
    (void)state;
    table t = build(50, 20, 16, 1);
    /* The writer really compressed: the file is smaller than the raw one. */
    table raw = build(50, 20, 16, 0);
    assert_true(t.file.len < raw.file.len);
    free(t.file.data);
    free(raw.file.data);
    roundtrip(50, 20, 16, 1);
    roundtrip(3, 1, 1, 1);
}

static void empty_table(void **state)
{
    (void)state;
    table t = build(0, 1, 16, 0);
    test_ctx *tc = test_ctx_new();
    sm2c_sstable_entry *v;
    size_t n = 99;
    assert_int_equal(read_table(tc, &t, &v, &n), SM2C_OK);
    assert_int_equal(n, 0);
    test_ctx_free(tc);
    free(t.file.data);
}

/* ---- footer (C1, C2) ------------------------------------------------------------------ */

static void bad_magic(void **state)
{
    (void)state;
    table t = build(5, 100, 16, 0);
    t.file.data[t.file.len - 1] ^= 0x01;
    expect_error(&t, SM2C_ERR_INVALID, "not an SSTable (bad magic/footer)");
    free(t.file.data);
}

static void short_file(void **state)
{
    (void)state;
    table t = build(5, 100, 16, 0);
    table cut = t;
    cut.file.data = t.file.data + t.file.len - 47;
    cut.file.len = 47;
    expect_error(&cut, SM2C_ERR_INVALID, "not an SSTable (bad magic/footer)");
    cut.file.len = 0;
    expect_error(&cut, SM2C_ERR_INVALID, "shorter than the 48-byte footer");
    /* Just the footer: every handle then points outside the (empty) block area. */
    cut.file.data = t.file.data + t.file.len - 48;
    cut.file.len = 48;
    expect_error(&cut, SM2C_ERR_INVALID, "block handle out of range");
    free(t.file.data);
}

static void malformed_footer_handles(void **state)
{
    (void)state;
    table t = build(5, 100, 16, 0);
    memset(t.file.data + t.file.len - 48, 0xff, 40);  /* varints never end */
    expect_error(&t, SM2C_ERR_INVALID, "not an SSTable (bad magic/footer)");
    free(t.file.data);
}

static void handle_out_of_range(void **state)
{
    (void)state;
    table t = build(5, 100, 16, 0);
    handle past = { t.file.len, 10 };
    replace_footer(&t, t.meta, past);
    expect_error(&t, SM2C_ERR_INVALID, "index block handle out of range");
    /* Size reaching into the footer. */
    handle into_footer = { t.index.offset, t.index.size + 20 };
    replace_footer(&t, t.meta, into_footer);
    expect_error(&t, SM2C_ERR_INVALID, "block handle out of range");
    handle bad_meta = { 1u << 30, 8 };
    replace_footer(&t, bad_meta, t.index);
    expect_error(&t, SM2C_ERR_INVALID, "metaindex block handle out of range");
    free(t.file.data);
}

static void handle_overflowing(void **state)
{
    (void)state;
    table t = build(5, 100, 16, 0);
    handle wrap = { 5, UINT64_MAX - 2 };  /* offset + size wraps around */
    replace_footer(&t, t.meta, wrap);
    expect_error(&t, SM2C_ERR_INVALID, "block handle out of range");
    handle huge = { UINT64_MAX, UINT64_MAX };
    replace_footer(&t, t.meta, huge);
    expect_error(&t, SM2C_ERR_INVALID, "block handle out of range");
    free(t.file.data);
}

static void index_entry_out_of_range(void **state)
{
    (void)state;
    /* A data-block handle in the index that overflows. */
    tbuf hv = { 0 };
    put_handle(&hv, (handle){ 1, UINT64_MAX });
    bbuild *index = malloc(sizeof *index);
    bb_init(index, 1);
    bb_add(index, "k", 1, hv.data, hv.len);
    tbuf ib = bb_finish(index), mb = { 0 };
    put_fixed32(&mb, 0);
    put_fixed32(&mb, 1);
    table t = { 0 };
    t.meta = write_block(&t.file, &mb, 0);
    t.index = write_block(&t.file, &ib, 0);
    put_footer(&t.file, t.meta, t.index);
    expect_error(&t, SM2C_ERR_INVALID, "data block handle out of range");
    free(hv.data);
    free(ib.data);
    free(mb.data);
    free(index);
    free(t.file.data);
}

/* ---- trailers and compression (C3) ---------------------------------------------------- */

static void crc_mismatch(void **state)
{
    (void)state;
    table t = build(5, 100, 16, 0);
    t.file.data[t.data[0].offset + 3] ^= 0x40;
    expect_error(&t, SM2C_ERR_INVALID, "block checksum mismatch at offset 0");
    free(t.file.data);
    /* The type byte is covered too. */
    t = build(5, 100, 16, 0);
    t.file.data[t.index.offset + t.index.size] = 1;
    char want[64];
    snprintf(want, sizeof want, "block checksum mismatch at offset %llu",
             (unsigned long long)t.index.offset);
    expect_error(&t, SM2C_ERR_INVALID, want);
    free(t.file.data);
}

static void unknown_compression(void **state)
{
    (void)state;
    table t = build(5, 100, 16, 0);
    t.file.data[t.data[0].offset + t.data[0].size] = 2;
    fix_crc(&t, t.data[0]);
    expect_error(&t, SM2C_ERR_INVALID, "unknown compression type 2");
    free(t.file.data);
}

static void snappy_bomb(void **state)
{
    (void)state;
    /* A block that declares 3 GiB uncompressed: refused before allocating. */
    tbuf bomb = { 0 };
    put_varint(&bomb, (uint64_t)3 << 30);  /* fits snappy's 32-bit length */
    put(&bomb, "\x00z", 2);
    table t = wrap_block(&bomb);
    t.file.data[t.data[0].offset + t.data[0].size] = 1;
    fix_crc(&t, t.data[0]);
    expect_error(&t, SM2C_ERR_LIMIT, "more than the limit");
    free(t.file.data);
    free(bomb.data);
    /* A real Snappy block bigger than a lowered cap. */
    t = build(60, 60, 16, 1);
    test_ctx *tc = test_ctx_new();
    tc->limits.block_bytes = 1000;
    sm2c_sstable_entry *v;
    size_t n;
    assert_int_equal(read_table(tc, &t, &v, &n), SM2C_ERR_LIMIT);
    assert_error_contains(tc, "Snappy block at offset 0 declares");
    assert_error_contains(tc, "block-bytes");
    test_ctx_free(tc);
    free(t.file.data);
}

static void snappy_corrupt(void **state)
{
    (void)state;
    tbuf junk = { 0 };
    put_varint(&junk, 20);
    put(&junk, "\xff\xff\xff\xff\xff\xff", 6);  /* copies from before the start */
    table t = wrap_block(&junk);
    t.file.data[t.data[0].offset + t.data[0].size] = 1;
    fix_crc(&t, t.data[0]);
    expect_error(&t, SM2C_ERR_INVALID, "corrupt Snappy block");
    free(t.file.data);
    free(junk.data);
}

/* ---- block internals (C4) ------------------------------------------------------------------ */

static void raw_entry(tbuf *b, uint32_t shared, uint32_t unshared, uint32_t vlen, const char *bytes)
{
    put_varint(b, shared);
    put_varint(b, unshared);
    put_varint(b, vlen);
    put(b, bytes, strlen(bytes));
}

static void restart_tail(tbuf *b, const uint32_t *offs, uint32_t n, uint32_t count)
{
    for (uint32_t i = 0; i < n; i++)
        put_fixed32(b, offs[i]);
    put_fixed32(b, count);
}

static void expect_block_error(tbuf *block, const char *needle)
{
    table t = wrap_block(block);
    expect_error(&t, SM2C_ERR_INVALID, needle);
    free(t.file.data);
    free(block->data);
    memset(block, 0, sizeof *block);
}

static void bad_restart_array(void **state)
{
    (void)state;
    tbuf b = { 0 };
    uint32_t zero = 0, mid = 2, far = 1000;
    raw_entry(&b, 0, 1, 1, "ab");
    restart_tail(&b, &zero, 1, 0xffffffffu);  /* count far larger than the block */
    expect_block_error(&b, "bad restart array");
    raw_entry(&b, 0, 1, 1, "ab");
    restart_tail(&b, &zero, 1, 0);  /* no restart points */
    expect_block_error(&b, "bad restart array");
    raw_entry(&b, 0, 1, 1, "ab");
    restart_tail(&b, &mid, 1, 1);  /* points inside the entry */
    expect_block_error(&b, "restart point 2 is not at an entry");
    raw_entry(&b, 0, 1, 1, "ab");
    restart_tail(&b, &far, 1, 1);  /* points past the entries */
    expect_block_error(&b, "restart point 1000 is not at an entry");
    put(&b, "\x01\x00", 2);  /* shorter than the count */
    expect_block_error(&b, "too short for its restart count");
    /* A restart point on an entry that shares a prefix. */
    uint32_t both[2] = { 0, 5 };
    raw_entry(&b, 0, 2, 0, "ab");
    raw_entry(&b, 1, 1, 0, "c");
    restart_tail(&b, both, 2, 2);
    expect_block_error(&b, "shares a key prefix");
}

static void shared_prefix_too_long(void **state)
{
    (void)state;
    tbuf b = { 0 };
    uint32_t zero = 0;
    raw_entry(&b, 0, 2, 1, "abv");
    raw_entry(&b, 3, 1, 1, "cv");  /* the previous key has only 2 bytes */
    restart_tail(&b, &zero, 1, 1);
    expect_block_error(&b, "shared key prefix 3 longer than the previous key (2 bytes)");
}

static void unshared_past_block(void **state)
{
    (void)state;
    tbuf b = { 0 };
    uint32_t zero = 0;
    raw_entry(&b, 0, 200, 1, "abv");
    restart_tail(&b, &zero, 1, 1);
    expect_block_error(&b, "key or value runs past the entries");
    raw_entry(&b, 0, 2, 100, "abv");
    restart_tail(&b, &zero, 1, 1);
    expect_block_error(&b, "key or value runs past the entries");
    put(&b, "\x80\x80", 2);  /* unterminated varint in the entry header */
    restart_tail(&b, &zero, 1, 1);
    expect_block_error(&b, "malformed entry header");
}

static void keys_not_increasing(void **state)
{
    (void)state;
    tbuf b = { 0 };
    uint32_t zero = 0;
    raw_entry(&b, 0, 1, 0, "b");
    raw_entry(&b, 0, 1, 0, "a");
    restart_tail(&b, &zero, 1, 1);
    expect_block_error(&b, "keys not strictly increasing");
    raw_entry(&b, 0, 2, 0, "ab");
    raw_entry(&b, 2, 0, 0, "");  /* the same key again */
    restart_tail(&b, &zero, 1, 1);
    expect_block_error(&b, "keys not strictly increasing");
    /* Across blocks: swap the two data-block handles in the index. */
    table t = build(20, 10, 16, 0);
    bbuild *index = malloc(sizeof *index);
    bb_init(index, 1);
    for (int i = 1; i >= 0; i--) {
        tbuf hv = { 0 };
        put_handle(&hv, t.data[i]);
        bb_add(index, i ? "a" : "b", 1, hv.data, hv.len);
        free(hv.data);
    }
    tbuf ib = bb_finish(index);
    t.file.len = t.index.offset;
    t.index = write_block(&t.file, &ib, 0);
    put_footer(&t.file, t.meta, t.index);
    expect_error(&t, SM2C_ERR_INVALID, "keys not strictly increasing");
    free(ib.data);
    free(index);
    free(t.file.data);
}

static void malformed_index_value(void **state)
{
    (void)state;
    table t = build(5, 100, 16, 0);
    /* The index value is a varint pair; make it carry a trailing byte. */
    bbuild *index = malloc(sizeof *index);
    bb_init(index, 1);
    tbuf hv = { 0 };
    put_handle(&hv, t.data[0]);
    put(&hv, "x", 1);
    bb_add(index, "z", 1, hv.data, hv.len);
    tbuf ib = bb_finish(index);
    t.file.len = t.index.offset;
    t.index = write_block(&t.file, &ib, 0);
    put_footer(&t.file, t.meta, t.index);
    expect_error(&t, SM2C_ERR_INVALID, "malformed block handle");
    free(hv.data);
    free(ib.data);
    free(index);
    free(t.file.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_raw_block),
        cmocka_unit_test(many_blocks_interval_1),
        cmocka_unit_test(many_blocks_interval_16),
        cmocka_unit_test(snappy_blocks),
        cmocka_unit_test(empty_table),
        cmocka_unit_test(bad_magic),
        cmocka_unit_test(short_file),
        cmocka_unit_test(malformed_footer_handles),
        cmocka_unit_test(handle_out_of_range),
        cmocka_unit_test(handle_overflowing),
        cmocka_unit_test(index_entry_out_of_range),
        cmocka_unit_test(crc_mismatch),
        cmocka_unit_test(unknown_compression),
        cmocka_unit_test(snappy_bomb),
        cmocka_unit_test(snappy_corrupt),
        cmocka_unit_test(bad_restart_array),
        cmocka_unit_test(shared_prefix_too_long),
        cmocka_unit_test(unshared_past_block),
        cmocka_unit_test(keys_not_increasing),
        cmocka_unit_test(malformed_index_value),
    };
    return cmocka_run_group_tests_name("sstable", tests, NULL, NULL);
}
