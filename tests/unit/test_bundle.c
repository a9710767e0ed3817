/*
** test_bundle.c: the checkpoint reader on checkpoints written by TensorFlow
** (tests/data/bundles, from tests/models/gen_bundles.py), on corrupt copies of
** them (docs/reliability.md C1-C10, F5), and on every real model in
** /work/shared/models when that folder exists.
**
** A corrupt copy is made in a mkdtemp directory: the index is decoded, its
** entries edited (BundleHeaderProto/BundleEntryProto re-packed with protobuf-c)
** and written back as a fresh SSTable, so that block CRCs are right and the
** test reaches the check it targets.
*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load/bundle.h"
#include "sm2c_test.h"
#include "test_bytes.h"
#include "load/sstable.h"
#include "tensor_bundle.pb-c.h"
#include "load/wire.h"

#define BUNDLES SM2C_TEST_DATA "/data/bundles"
#define MODELS SM2C_TEST_DATA "/../../shared/models"

/* ---- files ------------------------------------------------------------------ */

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

static void spit(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* A scratch copy of fixture `which`: <tmp>/variables/... */
typedef struct scratch {
    char dir[64];
    char vars[96];
} scratch;

static void copy_case(scratch *s, const char *which)
{
    snprintf(s->dir, sizeof s->dir, "/tmp/sm2c_bundle_XXXXXX");
    assert_non_null(mkdtemp(s->dir));
    snprintf(s->vars, sizeof s->vars, "%s/variables", s->dir);
    assert_int_equal(mkdir(s->vars, 0700), 0);
    char src[512];
    snprintf(src, sizeof src, "%s/%s/variables", BUNDLES, which);
    DIR *d = opendir(src);
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char from[1024], to[1024];
        size_t n;
        snprintf(from, sizeof from, "%s/%s", src, de->d_name);
        snprintf(to, sizeof to, "%s/%s", s->vars, de->d_name);
        uint8_t *buf = slurp(from, &n);
        spit(to, buf, n);
        free(buf);
    }
    closedir(d);
}

static void scratch_free(scratch *s)
{
    nftw(s->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static char *vars_path(scratch *s, const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", s->vars, name);
    return path;
}

/* ---- opening ------------------------------------------------------------------ */

typedef struct opened {
    test_ctx *tc;
    int dirfd;
    sm2c_bundle *b;
    sm2c_status st;
} opened;

static opened open_dir(const char *dir)
{
    opened o;
    o.tc = test_ctx_new();
    o.dirfd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(o.dirfd >= 0);
    o.b = NULL;
    o.st = sm2c_bundle_open(&o.tc->ctx, o.dirfd, dir, &o.b);
    return o;
}

static void close_opened(opened *o)
{
    sm2c_bundle_close(o->b);
    close(o->dirfd);
    test_ctx_free(o->tc);
}

static void expect_open_error(scratch *s, sm2c_status want, const char *needle)
{
    opened o = open_dir(s->dir);
    if (o.st != want)
        fail_msg("status %d, want %d; first error \"%s\"", o.st, want, o.tc->diag.first);
    assert_error_contains(o.tc, needle);
    assert_int_equal(o.tc->diag.errors, 1);  /* one line */
    close_opened(&o);
}

/* Open the copy, then read `key` and expect an error. */
static void expect_read_error(scratch *s, const char *key, sm2c_status want, const char *needle)
{
    opened o = open_dir(s->dir);
    if (o.st != SM2C_OK)
        fail_msg("open failed: %s", o.tc->diag.first);
    const sm2c_bundle_entry *e = sm2c_bundle_find(o.b, key);
    assert_non_null(e);
    sm2c_tensor t;
    sm2c_status st = sm2c_bundle_read(&o.tc->ctx, o.b, e, &t);
    if (st != want)
        fail_msg("status %d, want %d; first error \"%s\"", st, want, o.tc->diag.first);
    assert_error_contains(o.tc, needle);
    assert_int_equal(o.tc->diag.errors, 1);
    close_opened(&o);
}

/* ---- expected.txt ------------------------------------------------------------- */

typedef struct expect_line {
    char key[128], dtype[32], shape[64];
    char *data;  /* "hex:..." or "str:..." */
} expect_line;

typedef struct expected {
    int num_shards, entries;
    int n;
    expect_line lines[64];
    uint8_t *text;
} expected;

static void load_expected(const char *which, expected *x)
{
    char path[512];
    size_t len;
    snprintf(path, sizeof path, "%s/%s/expected.txt", BUNDLES, which);
    x->text = slurp(path, &len);
    assert_non_null(x->text);
    x->n = 0;
    char *save = NULL;
    for (char *line = strtok_r((char *)x->text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') {
            assert_int_equal(sscanf(line, "# num_shards=%d entries=%d", &x->num_shards, &x->entries), 2);
            continue;
        }
        expect_line *l = &x->lines[x->n++];
        char *f[5];
        for (int i = 0; i < 5; i++) {
            f[i] = line;
            line = strchr(line, '\t');
            if (line)
                *line++ = 0;
            else
                assert_int_equal(i, 4);
        }
        snprintf(l->key, sizeof l->key, "%s", f[0]);
        snprintf(l->dtype, sizeof l->dtype, "%s", f[1]);
        snprintf(l->shape, sizeof l->shape, "%s", f[2]);
        l->data = f[3];
    }
}

static int hexval(char ch)
{
    return ch <= '9' ? ch - '0' : ch - 'a' + 10;
}

/* Decode hex digits up to `stop` (or the end) into out; returns the byte count. */
static size_t unhex(const char *s, const char *stop, uint8_t *out)
{
    size_t n = 0;
    for (; *s && s != stop; s += 2)
        out[n++] = (uint8_t)(hexval(s[0]) << 4 | hexval(s[1]));
    return n;
}

static void check_values(const expect_line *l, const sm2c_tensor *t)
{
    uint8_t *want = malloc(strlen(l->data) / 2 + 1);
    if (strncmp(l->data, "hex:", 4) == 0) {
        size_t n = unhex(l->data + 4, NULL, want);
        assert_int_equal(t->nbytes, n);
        if (n)
            assert_memory_equal(t->data, want, n);
        free(want);
        return;
    }
    assert_true(strncmp(l->data, "str:", 4) == 0);
    const char *p = l->data + 4;
    for (int64_t i = 0; i < t->nelem; i++) {
        const char *comma = strchr(p, ',');
        size_t n = unhex(p, comma, want);
        if (t->strings[i].len != n)
            fail_msg("%s: string %lld has %zu bytes, want %zu", l->key, (long long)i,
                     t->strings[i].len, n);
        if (n)
            assert_memory_equal(t->strings[i].data, want, n);
        p = comma ? comma + 1 : p + strlen(p);
    }
    assert_int_equal(*p, 0);  /* as many strings as expected */
    free(want);
}

static void check_case(const char *which, int want_partitioned)
{
    expected *x = calloc(1, sizeof *x);
    load_expected(which, x);
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", BUNDLES, which);
    opened o = open_dir(dir);
    if (o.st != SM2C_OK)
        fail_msg("%s: %s", which, o.tc->diag.first);
    assert_true(o.b->present);
    assert_int_equal(o.b->num_shards, x->num_shards);
    assert_int_equal(o.b->n_entries, x->entries);
    assert_int_equal(x->n, x->entries);
    int partitioned = 0;
    for (int i = 0; i < x->n; i++) {
        const expect_line *l = &x->lines[i];
        const sm2c_bundle_entry *e = sm2c_bundle_find(o.b, l->key);
        if (!e)
            fail_msg("%s: no entry '%s'", which, l->key);
        assert_string_equal(sm2c_dtype_enum_name(e->dtype), l->dtype);
        assert_string_equal(sm2c_shape_str(o.tc->arena, &e->shape), l->shape);
        partitioned += e->n_slices > 0;
        sm2c_tensor t;
        if (sm2c_bundle_read(&o.tc->ctx, o.b, e, &t) != SM2C_OK)
            fail_msg("%s: %s", which, o.tc->diag.first);
        assert_int_equal(t.dtype, e->dtype);
        check_values(l, &t);
    }
    assert_int_equal(partitioned, want_partitioned);
    assert_int_equal(o.tc->diag.errors, 0);
    close_opened(&o);
    free(x->text);
    free(x);
}

/* ---- rewriting the index ------------------------------------------------------------ */

/* The entries of an index, editable. */
typedef struct kv {
    tbuf key, value;
} kv;

typedef struct index_edit {
    kv v[64];
    int n;
} index_edit;

static void load_index(scratch *s, index_edit *ix)
{
    size_t len;
    uint8_t *buf = slurp(vars_path(s, "variables.index"), &len);
    test_ctx *tc = test_ctx_new();
    sm2c_sstable_entry *v;
    size_t n;
    assert_int_equal(sm2c_sstable_read(&tc->ctx, "x", buf, len, &v, &n), SM2C_OK);
    assert_true(n <= 64);
    memset(ix, 0, sizeof *ix);
    for (size_t i = 0; i < n; i++) {
        put(&ix->v[i].key, v[i].key, v[i].key_len);
        put(&ix->v[i].value, v[i].value, v[i].value_len);
    }
    ix->n = (int)n;
    test_ctx_free(tc);
    free(buf);
}

static void free_index(index_edit *ix)
{
    for (int i = 0; i < ix->n; i++) {
        free(ix->v[i].key.data);
        free(ix->v[i].value.data);
    }
}

static void put_block(tbuf *f, const tbuf *block, uint64_t *off, uint64_t *size)
{
    *off = f->len;
    put(f, block->data, block->len);
    *size = block->len;
    uint8_t type = 0;
    uint32_t crc = sm2c_crc32c_extend(sm2c_crc32c(block->data, block->len), &type, 1);
    put(f, &type, 1);
    put_fixed32(f, sm2c_crc32c_mask(crc));
}

/* One data block (every entry a restart point, in the order given), index, footer. */
static void write_index(scratch *s, const index_edit *ix)
{
    tbuf f = { 0 }, data = { 0 }, index = { 0 }, meta = { 0 }, hv = { 0 };
    for (int i = 0; i < ix->n; i++) {
        put_varint(&data, 0);
        put_varint(&data, ix->v[i].key.len);
        put_varint(&data, ix->v[i].value.len);
        put(&data, ix->v[i].key.data, ix->v[i].key.len);
        put(&data, ix->v[i].value.data, ix->v[i].value.len);
    }
    put_fixed32(&data, 0);
    put_fixed32(&data, 1);
    put_fixed32(&meta, 0);
    put_fixed32(&meta, 1);
    uint64_t doff, dsize, moff, msize, ioff, isize;
    put_block(&f, &data, &doff, &dsize);
    put_varint(&hv, doff);
    put_varint(&hv, dsize);
    put_varint(&index, 0);
    put_varint(&index, 1);
    put_varint(&index, hv.len);
    put(&index, "\xff", 1);
    put(&index, hv.data, hv.len);
    put_fixed32(&index, 0);
    put_fixed32(&index, 1);
    put_block(&f, &meta, &moff, &msize);
    put_block(&f, &index, &ioff, &isize);
    size_t start = f.len;
    put_varint(&f, moff);
    put_varint(&f, msize);
    put_varint(&f, ioff);
    put_varint(&f, isize);
    uint8_t zero[40] = { 0 };
    put(&f, zero, 40 - (f.len - start));
    put_fixed32(&f, 0x8b80fb57u);
    put_fixed32(&f, 0xdb477524u);
    spit(vars_path(s, "variables.index"), f.data, f.len);
    free(f.data);
    free(data.data);
    free(index.data);
    free(meta.data);
    free(hv.data);
}

static int find_kv(index_edit *ix, const char *key)
{
    for (int i = 0; i < ix->n; i++)
        if (ix->v[i].key.len == strlen(key) &&
            (ix->v[i].key.len == 0 || memcmp(ix->v[i].key.data, key, ix->v[i].key.len) == 0))
            return i;
    fail_msg("no key '%s' in the index", key);
    return -1;
}

static void remove_kv(index_edit *ix, int i)
{
    free(ix->v[i].key.data);
    free(ix->v[i].value.data);
    memmove(&ix->v[i], &ix->v[i + 1], (size_t)(ix->n - i - 1) * sizeof ix->v[0]);
    ix->n--;
}

static void set_value(kv *e, const ProtobufCMessage *m)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    e->value.data = realloc(e->value.data, n + 1);
    e->value.len = protobuf_c_message_pack(m, e->value.data);
    e->value.cap = n + 1;
}

/* Edit the header with `edit`, write the index back. */
typedef void (*header_edit)(Tensorflow__BundleHeaderProto *h);
typedef void (*entry_edit)(Tensorflow__BundleEntryProto *e);

static void edit_header(scratch *s, header_edit edit)
{
    index_edit ix;
    load_index(s, &ix);
    int i = find_kv(&ix, "");
    Tensorflow__BundleHeaderProto *h =
        tensorflow__bundle_header_proto__unpack(NULL, ix.v[i].value.len, ix.v[i].value.data);
    assert_non_null(h);
    Tensorflow__VersionDef *version_unpacked = h->version;
    edit(h);
    set_value(&ix.v[i], &h->base);
    /* edit() may point fields at static storage: give back what unpack allocated. */
    h->version = version_unpacked;
    tensorflow__bundle_header_proto__free_unpacked(h, NULL);
    write_index(s, &ix);
    free_index(&ix);
}

static void edit_entry(scratch *s, const char *key, entry_edit edit)
{
    index_edit ix;
    load_index(s, &ix);
    int i = find_kv(&ix, key);
    Tensorflow__BundleEntryProto *e =
        tensorflow__bundle_entry_proto__unpack(NULL, ix.v[i].value.len, ix.v[i].value.data);
    assert_non_null(e);
    Tensorflow__TensorShapeProto *shape = e->shape;
    size_t n_slices = e->n_slices;
    Tensorflow__TensorSliceProto **slices = e->slices;
    edit(e);
    set_value(&ix.v[i], &e->base);
    e->shape = shape;  /* give back what unpack allocated */
    e->n_slices = n_slices;
    e->slices = slices;
    tensorflow__bundle_entry_proto__free_unpacked(e, NULL);
    write_index(s, &ix);
    free_index(&ix);
}

/* ---- the good fixtures -------------------------------------------------------------- */

static void all_dtypes(void **state)
{
    (void)state;
    check_case("dtypes", 0);
}

static void two_shards(void **state)
{
    (void)state;
    check_case("sharded", 0);
    /* The keys really are spread over both shards. */
    opened o = open_dir(BUNDLES "/sharded");
    assert_int_equal(o.st, SM2C_OK);
    int seen[2] = { 0, 0 };
    for (size_t i = 0; i < o.b->n_entries; i++)
        seen[o.b->entries[i].shard_id]++;
    assert_true(seen[0] > 0 && seen[1] > 0);
    close_opened(&o);
}

static void partitioned(void **state)
{
    (void)state;
    check_case("partitioned", 3);
    opened o = open_dir(BUNDLES "/partitioned");
    const sm2c_bundle_entry *e = sm2c_bundle_find(o.b, "part");
    assert_non_null(e);
    assert_int_equal(e->n_slices, 3);
    e = sm2c_bundle_find(o.b, "cols");
    assert_int_equal(e->n_slices, 2);
    assert_int_equal(e->slices[1][1].start, 3);
    assert_int_equal(e->slices[1][1].length, 3);
    /* 50 slices of 168: starts up to 8232 take 3-byte OrderedCode numbers in their keys. */
    e = sm2c_bundle_find(o.b, "wide");
    assert_int_equal(e->n_slices, 50);
    int64_t last = 0;  /* the Saver lists them in name order: part_0, part_1, part_10, ... */
    for (int32_t j = 0; j < e->n_slices; j++)
        last = e->slices[j][0].start > last ? e->slices[j][0].start : last;
    assert_int_equal(last, 8232);
    close_opened(&o);
}

static void strings_decoded(void **state)
{
    (void)state;
    opened o = open_dir(BUNDLES "/dtypes");
    sm2c_tensor t;
    assert_int_equal(sm2c_bundle_read(&o.tc->ctx, o.b, sm2c_bundle_find(o.b, "str"), &t), SM2C_OK);
    assert_int_equal(t.nelem, 5);
    assert_int_equal(t.strings[0].len, 0);
    assert_memory_equal(t.strings[1].data, "hello", 5);
    assert_memory_equal(t.strings[2].data, "h\xc3\xa9llo \xe2\x9c\x93", 10);
    assert_memory_equal(t.strings[3].data, "a\0b", 3);
    assert_int_equal(t.strings[4].len, 200);
    assert_int_equal(sm2c_bundle_read(&o.tc->ctx, o.b, sm2c_bundle_find(o.b, "empty_str"), &t),
                     SM2C_OK);
    assert_int_equal(t.nelem, 0);
    close_opened(&o);
}

static void no_variables_dir(void **state)
{
    (void)state;
    scratch s;
    copy_case(&s, "sharded");
    nftw(s.vars, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    opened o = open_dir(s.dir);
    assert_int_equal(o.st, SM2C_OK);
    assert_false(o.b->present);
    assert_null(sm2c_bundle_find(o.b, "a"));
    close_opened(&o);
    /* variables/ without an index: TensorFlow restores nothing either. */
    assert_int_equal(mkdir(s.vars, 0700), 0);
    o = open_dir(s.dir);
    assert_int_equal(o.st, SM2C_OK);
    assert_false(o.b->present);
    close_opened(&o);
    scratch_free(&s);
}

/* ---- C1-C4: the index SSTable --------------------------------------------------------- */

static void c1_not_an_sstable(void **state)
{
    (void)state;
    scratch s;
    copy_case(&s, "dtypes");
    spit(vars_path(&s, "variables.index"), "short", 5);
    expect_open_error(&s, SM2C_ERR_INVALID, "variables/variables.index: error: not an SSTable");
    scratch_free(&s);
    size_t len;
    copy_case(&s, "dtypes");
    uint8_t *buf = slurp(vars_path(&s, "variables.index"), &len);
    buf[len - 3] ^= 0x10;
    spit(vars_path(&s, "variables.index"), buf, len);
    expect_open_error(&s, SM2C_ERR_INVALID, "not an SSTable (bad magic/footer)");
    free(buf);
    scratch_free(&s);
}

static void c2_handle_out_of_range(void **state)
{
    (void)state;
    scratch s;
    copy_case(&s, "dtypes");
    size_t len;
    uint8_t *buf = slurp(vars_path(&s, "variables.index"), &len);
    /* Footer: metaindex handle, then index handle; make the index size ~2^64. */
    uint8_t *foot = buf + len - 48;
    const uint8_t *p = foot;
    uint64_t mo = 0, ms = 0, io = 0;
    assert_true(sm2c_varint64(&p, foot + 40, &mo) && sm2c_varint64(&p, foot + 40, &ms) &&
                sm2c_varint64(&p, foot + 40, &io));
    tbuf nf = { 0 };
    put_varint(&nf, mo);
    put_varint(&nf, ms);
    put_varint(&nf, io);
    put_varint(&nf, UINT64_MAX - 3);
    memset(foot, 0, 40);
    memcpy(foot, nf.data, nf.len);
    spit(vars_path(&s, "variables.index"), buf, len);
    expect_open_error(&s, SM2C_ERR_INVALID, "block handle out of range");
    free(nf.data);
    free(buf);
    scratch_free(&s);
}

static void c3_block_crc_and_compression(void **state)
{
    (void)state;
    scratch s;
    copy_case(&s, "dtypes");
    size_t len;
    uint8_t *buf = slurp(vars_path(&s, "variables.index"), &len);
    buf[20] ^= 0x01;  /* inside the data block at offset 0 */
    spit(vars_path(&s, "variables.index"), buf, len);
    expect_open_error(&s, SM2C_ERR_INVALID, "block checksum mismatch at offset 0");
    free(buf);
    scratch_free(&s);
    /* An unknown compression byte with a correct CRC. */
    index_edit ix;
    copy_case(&s, "dtypes");
    load_index(&s, &ix);
    write_index(&s, &ix);
    free_index(&ix);
    buf = slurp(vars_path(&s, "variables.index"), &len);
    const uint8_t *p = buf + len - 48;
    uint64_t mo, ms;
    assert_true(sm2c_varint64(&p, buf + len, &mo) && sm2c_varint64(&p, buf + len, &ms));
    /* write_index puts the data block first and the metaindex right after it. */
    uint64_t dsize = mo - 5;
    buf[dsize] = 7;
    uint32_t crc = sm2c_crc32c(buf, dsize + 1);
    uint32_t m = sm2c_crc32c_mask(crc);
    memcpy(buf + dsize + 1, &m, 4);  /* little-endian host */
    spit(vars_path(&s, "variables.index"), buf, len);
    expect_open_error(&s, SM2C_ERR_INVALID, "unknown compression type 7");
    free(buf);
    scratch_free(&s);
    /* A cap on block size applies to raw blocks too. */
    copy_case(&s, "dtypes");
    test_ctx *tc = test_ctx_new();
    tc->limits.block_bytes = 64;
    int fd = open(s.dir, O_RDONLY | O_DIRECTORY);
    sm2c_bundle *b;
    assert_int_equal(sm2c_bundle_open(&tc->ctx, fd, s.dir, &b), SM2C_ERR_LIMIT);
    assert_error_contains(tc, "block-bytes");
    sm2c_bundle_close(b);
    close(fd);
    test_ctx_free(tc);
    scratch_free(&s);
}

static void c4_keys_out_of_order(void **state)
{
    (void)state;
    scratch s;
    copy_case(&s, "dtypes");
    index_edit ix;
    load_index(&s, &ix);
    kv tmp = ix.v[3];
    ix.v[3] = ix.v[4];
    ix.v[4] = tmp;
    write_index(&s, &ix);
    free_index(&ix);
    expect_open_error(&s, SM2C_ERR_INVALID, "keys not strictly increasing");
    scratch_free(&s);
}

/* ---- C5: the header ------------------------------------------------------------------ */

static Tensorflow__VersionDef version;
static int32_t bad_consumer = 1;

static void big_endian(Tensorflow__BundleHeaderProto *h)
{
    h->endianness = TENSORFLOW__BUNDLE_HEADER_PROTO__ENDIANNESS__BIG;
}

static void consumer_too_new(Tensorflow__BundleHeaderProto *h)
{
    tensorflow__version_def__init(&version);
    version.producer = 1;
    version.min_consumer = 2;
    h->version = &version;
}

static void bad_consumers(Tensorflow__BundleHeaderProto *h)
{
    tensorflow__version_def__init(&version);
    version.producer = 1;
    version.n_bad_consumers = 1;
    version.bad_consumers = &bad_consumer;
    h->version = &version;
}

static void c5_header(void **state)
{
    (void)state;
    scratch s;
    copy_case(&s, "dtypes");
    index_edit ix;
    load_index(&s, &ix);
    remove_kv(&ix, find_kv(&ix, ""));
    write_index(&s, &ix);
    free_index(&ix);
    expect_open_error(&s, SM2C_ERR_INVALID, "missing bundle header");
    scratch_free(&s);
    copy_case(&s, "dtypes");
    edit_header(&s, big_endian);
    expect_open_error(&s, SM2C_ERR_UNSUPPORTED, "header: error: unsupported bundle: big-endian");
    scratch_free(&s);
    copy_case(&s, "dtypes");
    edit_header(&s, consumer_too_new);
    expect_open_error(&s, SM2C_ERR_UNSUPPORTED, "needs a reader of version >= 2");
    scratch_free(&s);
    copy_case(&s, "dtypes");
    edit_header(&s, bad_consumers);
    expect_open_error(&s, SM2C_ERR_UNSUPPORTED, "bad_consumers");
    scratch_free(&s);
    /* A header that is not a BundleHeaderProto at all. */
    copy_case(&s, "dtypes");
    load_index(&s, &ix);
    int i = find_kv(&ix, "");
    ix.v[i].value.len = 0;
    put(&ix.v[i].value, "\x0a\xff", 2);  /* field 1 as length-delimited, truncated */
    write_index(&s, &ix);
    free_index(&ix);
    expect_open_error(&s, SM2C_ERR_INVALID, "malformed BundleHeaderProto");
    scratch_free(&s);
}

/* ---- C6: entry locations ---------------------------------------------------------------- */

static void shard_minus_one(Tensorflow__BundleEntryProto *e) { e->shard_id = -1; }
static void shard_five(Tensorflow__BundleEntryProto *e) { e->shard_id = 5; }
static void offset_negative(Tensorflow__BundleEntryProto *e) { e->offset = -1; }
static void size_negative(Tensorflow__BundleEntryProto *e) { e->size = -8; }
static void size_past_end(Tensorflow__BundleEntryProto *e) { e->offset = 450; }
static void offset_wraps(Tensorflow__BundleEntryProto *e)
{
    e->offset = INT64_MAX - 2;
    e->size = INT64_MAX;
}
static void size_not_shape(Tensorflow__BundleEntryProto *e) { e->size -= 4; }

static void c6_entry_location(void **state)
{
    (void)state;
    struct {
        entry_edit edit;
        const char *needle;
    } cases[] = {
        { shard_minus_one, "variable 'f32': error: shard_id -1 out of range; the bundle has 1 shard(s)" },
        { shard_five, "shard_id 5 out of range" },
        { offset_negative, "variable 'f32': error: negative offset -1" },
        { size_negative, "negative size -8" },
        { size_past_end, "offset 450 + size 24 past the end of shard 0 (456 bytes)" },
        { offset_wraps, "past the end of shard 0" },
        { size_not_shape, "size 20 does not match float32 [2,3] (6 elements of 4 bytes)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scratch s;
        copy_case(&s, "dtypes");
        edit_entry(&s, "f32", cases[i].edit);
        expect_open_error(&s, SM2C_ERR_INVALID, cases[i].needle);
        scratch_free(&s);
    }
}

/* ---- C7: shapes, element counts, strings ---------------------------------------------- */

static Tensorflow__TensorShapeProto shape_buf;
static Tensorflow__TensorShapeProto__Dim dim_buf[3];
static Tensorflow__TensorShapeProto__Dim *dim_ptrs[3];

static void set_dims(Tensorflow__BundleEntryProto *e, const int64_t *dims, size_t n)
{
    tensorflow__tensor_shape_proto__init(&shape_buf);
    for (size_t i = 0; i < n; i++) {
        tensorflow__tensor_shape_proto__dim__init(&dim_buf[i]);
        dim_buf[i].size = dims[i];
        dim_ptrs[i] = &dim_buf[i];
    }
    shape_buf.n_dim = n;
    shape_buf.dim = dim_ptrs;
    e->shape = &shape_buf;
}

static void dim_minus_one(Tensorflow__BundleEntryProto *e)
{
    int64_t d[2] = { 2, -1 };
    set_dims(e, d, 2);
}

static void unknown_rank(Tensorflow__BundleEntryProto *e)
{
    set_dims(e, NULL, 0);
    shape_buf.unknown_rank = 1;
}

static void zero_times_huge(Tensorflow__BundleEntryProto *e)
{
    int64_t d[3] = { 0, (int64_t)1 << 32, (int64_t)1 << 32 };
    set_dims(e, d, 3);
    e->size = 0;
}

static void huge_elements(Tensorflow__BundleEntryProto *e)
{
    int64_t d[2] = { (int64_t)1 << 32, (int64_t)1 << 32 };
    set_dims(e, d, 2);
}

static void huge_string_shape(Tensorflow__BundleEntryProto *e)
{
    int64_t d[1] = { (int64_t)1 << 30 };
    set_dims(e, d, 1);
}

static void c7_shapes(void **state)
{
    (void)state;
    scratch s;
    copy_case(&s, "dtypes");
    edit_entry(&s, "f32", dim_minus_one);
    expect_open_error(&s, SM2C_ERR_INVALID, "variable 'f32': error: dimension 1 is -1");
    scratch_free(&s);
    copy_case(&s, "dtypes");
    edit_entry(&s, "f32", unknown_rank);
    expect_open_error(&s, SM2C_ERR_INVALID, "unknown rank");
    scratch_free(&s);
    copy_case(&s, "dtypes");
    edit_entry(&s, "f32", huge_elements);
    expect_open_error(&s, SM2C_ERR_LIMIT, "shape [4294967296,4294967296] has more than 2147483647 elements");
    scratch_free(&s);
    copy_case(&s, "dtypes");
    edit_entry(&s, "str", huge_string_shape);
    expect_open_error(&s, SM2C_ERR_INVALID, "variable 'str': error: size 228 is too small for 1073741824 strings");
    scratch_free(&s);
    /* 0 x 2^32 x 2^32 is computed safely: an empty tensor, read fine. */
    copy_case(&s, "dtypes");
    edit_entry(&s, "empty_f32", zero_times_huge);
    opened o = open_dir(s.dir);
    assert_int_equal(o.st, SM2C_OK);
    sm2c_tensor t;
    assert_int_equal(sm2c_bundle_read(&o.tc->ctx, o.b, sm2c_bundle_find(o.b, "empty_f32"), &t), SM2C_OK);
    assert_int_equal(t.nelem, 0);
    close_opened(&o);
    scratch_free(&s);
}

/* Strings: build the data blob here, append it to the shard, point "str" at it. */
typedef struct blob {
    tbuf b;
    size_t checksum_at;  /* offset of the stored length checksum */
    uint32_t crc;        /* the entry CRC: lengths as uint32, checksum bytes, strings */
} blob;

static blob string_blob(const char *const *strs, size_t n)
{
    blob out = { { 0 }, 0, 0 };
    uint32_t crc = 0;
    for (size_t i = 0; i < n; i++) {
        put_varint(&out.b, strlen(strs[i]));
        uint32_t len32 = (uint32_t)strlen(strs[i]);
        crc = sm2c_crc32c_extend(crc, &len32, 4);  /* little-endian host */
    }
    out.checksum_at = out.b.len;
    put_fixed32(&out.b, sm2c_crc32c_mask(crc));
    for (size_t i = 0; i < n; i++)
        put(&out.b, strs[i], strlen(strs[i]));
    out.crc = sm2c_crc32c_extend(crc, out.b.data + out.checksum_at, out.b.len - out.checksum_at);
    return out;
}

static int64_t blob_offset, blob_size;
static uint32_t blob_crc;
static int64_t blob_dims[1];

static void point_at_blob(Tensorflow__BundleEntryProto *e)
{
    e->offset = blob_offset;
    e->size = blob_size;
    e->crc32c = blob_crc;
    set_dims(e, blob_dims, 1);
}

/* Append the blob to the shard and make "str" ([n] strings) refer to it.
** `crc_ok`: give the entry the right CRC of the (possibly broken) blob. */
static void install_blob(scratch *s, const blob *bl, int64_t n, int crc_ok)
{
    size_t len;
    char *path = vars_path(s, "variables.data-00000-of-00001");
    uint8_t *buf = slurp(path, &len);
    buf = realloc(buf, len + bl->b.len);
    memcpy(buf + len, bl->b.data, bl->b.len);
    spit(path, buf, len + bl->b.len);
    free(buf);
    blob_offset = (int64_t)len;
    blob_size = (int64_t)bl->b.len;
    blob_crc = sm2c_crc32c_mask(crc_ok ? bl->crc : bl->crc ^ 1);
    blob_dims[0] = n;
    edit_entry(s, "str", point_at_blob);
}

static void c7_strings(void **state)
{
    (void)state;
    const char *const strs[] = { "ab", "", "cde" };
    scratch s;
    /* A correct hand-made blob reads back. */
    copy_case(&s, "dtypes");
    blob bl = string_blob(strs, 3);
    install_blob(&s, &bl, 3, 1);
    opened o = open_dir(s.dir);
    sm2c_tensor t;
    if (sm2c_bundle_read(&o.tc->ctx, o.b, sm2c_bundle_find(o.b, "str"), &t) != SM2C_OK)
        fail_msg("%s", o.tc->diag.first);
    assert_int_equal(t.strings[2].len, 3);
    assert_memory_equal(t.strings[2].data, "cde", 3);
    close_opened(&o);
    scratch_free(&s);
    free(bl.b.data);
    /* Length checksum wrong. */
    copy_case(&s, "dtypes");
    bl = string_blob(strs, 3);
    bl.b.data[bl.checksum_at] ^= 0x55;
    install_blob(&s, &bl, 3, 1);
    expect_read_error(&s, "str", SM2C_ERR_INVALID, "string length checksum mismatch");
    scratch_free(&s);
    free(bl.b.data);
    /* Lengths that add up to less than what follows (checksums consistent). */
    copy_case(&s, "dtypes");
    bl = string_blob(strs, 3);
    put(&bl.b, "zz", 2);
    install_blob(&s, &bl, 3, 1);
    expect_read_error(&s, "str", SM2C_ERR_INVALID, "string lengths add up to 5 but 7 bytes follow them");
    scratch_free(&s);
    free(bl.b.data);
    /* ... and to more. */
    copy_case(&s, "dtypes");
    bl = string_blob(strs, 3);
    bl.b.len -= 1;
    install_blob(&s, &bl, 3, 1);
    expect_read_error(&s, "str", SM2C_ERR_INVALID, "string lengths add up to more than the 4 bytes");
    scratch_free(&s);
    free(bl.b.data);
    /* A length varint that overflows 64 bits. */
    copy_case(&s, "dtypes");
    blob bad = { { 0 }, 0, 0 };
    put(&bad.b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f\x00\x00\x00\x00\x00", 15);
    install_blob(&s, &bad, 1, 1);
    expect_read_error(&s, "str", SM2C_ERR_INVALID, "string 0: malformed length varint");
    scratch_free(&s);
    free(bad.b.data);
    /* A huge but well-formed length. */
    copy_case(&s, "dtypes");
    bad = (blob){ { 0 }, 0, 0 };
    put_varint(&bad.b, (uint64_t)1 << 40);
    put(&bad.b, "\0\0\0\0x", 5);
    install_blob(&s, &bad, 1, 1);
    expect_read_error(&s, "str", SM2C_ERR_INVALID, "has length 1099511627776");
    scratch_free(&s);
    free(bad.b.data);
    /* Everything consistent except the entry CRC over the bytes (C8 for strings). */
    copy_case(&s, "dtypes");
    bl = string_blob(strs, 3);
    install_blob(&s, &bl, 3, 0);
    expect_read_error(&s, "str", SM2C_ERR_INVALID, "variable 'str': error: checksum mismatch");
    scratch_free(&s);
    free(bl.b.data);
}

/* ---- C8: tensor data CRC --------------------------------------------------------------- */

static void c8_data_crc(void **state)
{
    (void)state;
    scratch s;
    copy_case(&s, "dtypes");
    opened o = open_dir(s.dir);
    const sm2c_bundle_entry *e = sm2c_bundle_find(o.b, "f32");
    int64_t off = e->offset;
    close_opened(&o);
    size_t len;
    char *path = vars_path(&s, "variables.data-00000-of-00001");
    uint8_t *buf = slurp(path, &len);
    buf[off + 5] ^= 0x80;
    spit(path, buf, len);
    free(buf);
    char want[200];
    snprintf(want, sizeof want, "variables.data-00000-of-00001: variable 'f32': error: checksum "
             "mismatch (stored 0x");
    expect_read_error(&s, "f32", SM2C_ERR_INVALID, want);
    snprintf(want, sizeof want, "in shard 0 [%lld, +24)", (long long)off);
    expect_read_error(&s, "f32", SM2C_ERR_INVALID, want);
    scratch_free(&s);
    /* The second shard too. */
    copy_case(&s, "sharded");
    path = vars_path(&s, "variables.data-00001-of-00002");
    buf = slurp(path, &len);
    buf[len - 1] ^= 1;
    spit(path, buf, len);
    free(buf);
    expect_read_error(&s, "d", SM2C_ERR_INVALID, "in shard 1");
    scratch_free(&s);
}

static void bool_bytes_checked(void **state)
{
    (void)state;
    scratch s;
    copy_case(&s, "dtypes");
    opened o = open_dir(s.dir);
    const sm2c_bundle_entry *e = sm2c_bundle_find(o.b, "bool");
    int64_t off = e->offset;
    close_opened(&o);
    size_t len;
    char *path = vars_path(&s, "variables.data-00000-of-00001");
    uint8_t *buf = slurp(path, &len);
    buf[off + 1] = 2;
    spit(path, buf, len);
    /* With the CRC fixed, the value check is what fails. */
    index_edit ix;
    load_index(&s, &ix);
    int i = find_kv(&ix, "bool");
    Tensorflow__BundleEntryProto *pe =
        tensorflow__bundle_entry_proto__unpack(NULL, ix.v[i].value.len, ix.v[i].value.data);
    pe->crc32c = sm2c_crc32c_mask(sm2c_crc32c(buf + off, 4));
    set_value(&ix.v[i], &pe->base);
    tensorflow__bundle_entry_proto__free_unpacked(pe, NULL);
    write_index(&s, &ix);
    free_index(&ix);
    free(buf);
    expect_read_error(&s, "bool", SM2C_ERR_INVALID, "bool element 1 has byte value 2");
    scratch_free(&s);
}

/* ---- C9: partitioned variables ------------------------------------------------------------- */

static Tensorflow__TensorSliceProto__Extent ext_buf[3];
static Tensorflow__TensorSliceProto__Extent *ext_ptrs[3];
static Tensorflow__TensorSliceProto slice_buf;
static Tensorflow__TensorSliceProto *slice_ptrs[4];

/* Replace slice `which` of the entry by extents (start, length; length -1 = full). */
static void set_slice(Tensorflow__BundleEntryProto *e, size_t which, const int64_t (*x)[2], size_t n)
{
    tensorflow__tensor_slice_proto__init(&slice_buf);
    for (size_t i = 0; i < n; i++) {
        tensorflow__tensor_slice_proto__extent__init(&ext_buf[i]);
        ext_buf[i].start = x[i][0];
        if (x[i][1] >= 0 || x[i][1] < -1) {
            ext_buf[i].has_length_case = TENSORFLOW__TENSOR_SLICE_PROTO__EXTENT__HAS_LENGTH_LENGTH;
            ext_buf[i].length = x[i][1];
        }
        ext_ptrs[i] = &ext_buf[i];
    }
    slice_buf.n_extent = n;
    slice_buf.extent = ext_ptrs;
    for (size_t i = 0; i < e->n_slices && i < 4; i++)
        slice_ptrs[i] = e->slices[i];
    slice_ptrs[which] = &slice_buf;
    e->slices = slice_ptrs;
}

static void start_negative(Tensorflow__BundleEntryProto *e)
{
    const int64_t x[2][2] = { { -1, 3 }, { 0, 2 } };
    set_slice(e, 0, x, 2);
}

static void extent_end_overflow(Tensorflow__BundleEntryProto *e)
{
    const int64_t x[2][2] = { { 5, INT64_MAX }, { 0, 2 } };
    set_slice(e, 2, x, 2);
}

static void length_negative(Tensorflow__BundleEntryProto *e)
{
    const int64_t x[2][2] = { { 0, -5 }, { 0, 2 } };
    set_slice(e, 0, x, 2);
}

static void slice_rank_one(Tensorflow__BundleEntryProto *e)
{
    const int64_t x[1][2] = { { 0, 3 } };
    set_slice(e, 1, x, 1);
}

static void slice_twice(Tensorflow__BundleEntryProto *e)
{
    for (size_t i = 0; i < e->n_slices && i < 4; i++)
        slice_ptrs[i] = e->slices[i];
    slice_ptrs[1] = slice_ptrs[0];  /* slice 0 listed again; slice 1 dropped */
    e->slices = slice_ptrs;
}

static void slice_dropped(Tensorflow__BundleEntryProto *e)
{
    e->n_slices = 2;
}

static void slice_shape_swapped(Tensorflow__BundleEntryProto *e)
{
    int64_t d[2] = { 2, 3 };  /* [3,2] stored as [2,3]: same size */
    set_dims(e, d, 2);
}

static void c9_partitioned(void **state)
{
    (void)state;
    struct {
        entry_edit edit;
        int at_open;
        const char *needle;
    } cases[] = {
        { start_negative, 1, "variable 'part': error: slice 0 dimension 0: extent start -1 length 3 is outside [0, 7)" },
        { extent_end_overflow, 1, "slice 2 dimension 0: extent start 5 length 9223372036854775807" },
        { length_negative, 1, "slice 0 dimension 0: extent start 0 length -5" },
        { slice_rank_one, 1, "slice 1 has rank 1 but the tensor has rank 2" },
        { slice_twice, 0, "slice 1 (0,3:0,2) overlaps an earlier slice at element [0,0]" },
        { slice_dropped, 0, "slices do not cover element [5,0]" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scratch s;
        copy_case(&s, "partitioned");
        edit_entry(&s, "part", cases[i].edit);
        if (cases[i].at_open)
            expect_open_error(&s, SM2C_ERR_INVALID, cases[i].needle);
        else
            expect_read_error(&s, "part", SM2C_ERR_INVALID, cases[i].needle);
        scratch_free(&s);
    }
    /* A slice entry missing from the index, or stored with another shape. */
    scratch s;
    copy_case(&s, "partitioned");
    index_edit ix;
    load_index(&s, &ix);
    int first_slice = -1;
    for (int i = 0; i < ix.n && first_slice < 0; i++)
        if (ix.v[i].key.len > 5 && memcmp(ix.v[i].key.data, "\0part\0\1", 7) == 0)
            first_slice = i;
    assert_true(first_slice >= 0);
    kv saved = ix.v[first_slice];
    tbuf saved_key = { 0 }, saved_value = { 0 };
    put(&saved_key, saved.key.data, saved.key.len);
    put(&saved_value, saved.value.data, saved.value.len);
    remove_kv(&ix, first_slice);
    write_index(&s, &ix);
    free_index(&ix);
    expect_read_error(&s, "part", SM2C_ERR_INVALID, "slice 0 (0,3:0,2) is missing from the bundle");
    scratch_free(&s);
    /* Shape of the stored slice swapped. */
    copy_case(&s, "partitioned");
    load_index(&s, &ix);
    int i = -1;
    for (int k = 0; k < ix.n; k++)
        if (ix.v[k].key.len == saved_key.len && memcmp(ix.v[k].key.data, saved_key.data, saved_key.len) == 0)
            i = k;
    assert_true(i >= 0);
    Tensorflow__BundleEntryProto *pe =
        tensorflow__bundle_entry_proto__unpack(NULL, ix.v[i].value.len, ix.v[i].value.data);
    Tensorflow__TensorShapeProto *keep = pe->shape;
    slice_shape_swapped(pe);
    set_value(&ix.v[i], &pe->base);
    pe->shape = keep;
    tensorflow__bundle_entry_proto__free_unpacked(pe, NULL);
    write_index(&s, &ix);
    free_index(&ix);
    expect_read_error(&s, "part", SM2C_ERR_INVALID, "slice 0 (0,3:0,2) is stored as float32 [2,3]");
    scratch_free(&s);
    free(saved_key.data);
    free(saved_value.data);
}

/* ---- C10: lookups by name ---------------------------------------------------------- */

static void c10_lookup(void **state)
{
    (void)state;
    /* The graph-side comparison lives with the variable mapping; here: a missing
    ** key is NULL, prefixes and slice keys are not matches, dtype and shape are
    ** what the checkpoint says. */
    opened o = open_dir(BUNDLES "/partitioned");
    assert_null(sm2c_bundle_find(o.b, "missing"));
    assert_null(sm2c_bundle_find(o.b, "par"));
    assert_null(sm2c_bundle_find(o.b, "parts"));
    assert_null(sm2c_bundle_find(o.b, ""));
    const sm2c_bundle_entry *e = sm2c_bundle_find(o.b, "cols");
    assert_int_equal(e->dtype, SM2C_DT_INT32);
    assert_string_equal(sm2c_shape_str(o.tc->arena, &e->shape), "[2,6]");
    for (size_t i = 0; i < o.b->n_entries; i++)
        assert_true(o.b->entries[i].key[0] != 0);
    close_opened(&o);
}

/* ---- F5: shards ---------------------------------------------------------------------- */

static int32_t shards_value;
static void set_shards(Tensorflow__BundleHeaderProto *h) { h->num_shards = shards_value; }

static void f5_shards(void **state)
{
    (void)state;
    scratch s;
    copy_case(&s, "sharded");
    assert_int_equal(unlink(vars_path(&s, "variables.data-00001-of-00002")), 0);
    expect_open_error(&s, SM2C_ERR_INVALID,
                      "variables.data-00001-of-00002 missing (BundleHeader.num_shards=2)");
    scratch_free(&s);
    struct {
        int32_t n;
        sm2c_status st;
        const char *needle;
    } cases[] = {
        { 0, SM2C_ERR_INVALID, "BundleHeader.num_shards=0; expected at least 1" },
        { -3, SM2C_ERR_INVALID, "BundleHeader.num_shards=-3" },
        { INT32_MAX, SM2C_ERR_LIMIT, "BundleHeader.num_shards=2147483647, more than the limit of 4096" },
        { 3, SM2C_ERR_INVALID, "variables.data-00000-of-00003 missing (BundleHeader.num_shards=3)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        copy_case(&s, "sharded");
        shards_value = cases[i].n;
        edit_header(&s, set_shards);
        expect_open_error(&s, cases[i].st, cases[i].needle);
        scratch_free(&s);
    }
    /* One shard declared, two written: the entries in shard 1 are out of range. */
    copy_case(&s, "sharded");
    shards_value = 1;
    edit_header(&s, set_shards);
    expect_open_error(&s, SM2C_ERR_INVALID, "variables.data-00000-of-00001 missing");
    scratch_free(&s);
}

static void f2_symlinks_refused(void **state)
{
    (void)state;
    scratch s;
    copy_case(&s, "dtypes");
    char real[256];
    snprintf(real, sizeof real, "%s/real.index", s.dir);
    assert_int_equal(rename(vars_path(&s, "variables.index"), real), 0);
    assert_int_equal(symlink(real, vars_path(&s, "variables.index")), 0);
    expect_open_error(&s, SM2C_ERR_INVALID, "a symlink");
    scratch_free(&s);
    copy_case(&s, "dtypes");
    char moved[256];
    snprintf(moved, sizeof moved, "%s/elsewhere", s.dir);
    assert_int_equal(rename(s.vars, moved), 0);
    assert_int_equal(symlink(moved, s.vars), 0);
    expect_open_error(&s, SM2C_ERR_INVALID, "symlinks are not followed");
    scratch_free(&s);
}

/* ---- the real models ------------------------------------------------------------------ */

/* "=== name/" ... "variables.index: N entries" from INVENTORY.txt. */
static int inventory_count(const char *inventory, const char *model)
{
    char head[300];
    snprintf(head, sizeof head, "=== %s/\n", model);
    const char *p = strstr(inventory, head);
    if (!p)
        return -2;
    const char *next = strstr(p + 4, "\n=== ");
    const char *v = strstr(p, "\nvariables.index: ");
    if (!v || (next && v > next))
        return -1;
    return atoi(v + strlen("\nvariables.index: "));
}

/* The type byte of the first data block, from the footer and index block. */
static int first_block_type(const char *model)
{
    char path[512];
    size_t len;
    snprintf(path, sizeof path, "%s/%s/variables/variables.index", MODELS, model);
    uint8_t *buf = slurp(path, &len);
    const uint8_t *p = buf + len - 48;
    uint64_t mo = 0, ms = 0, io = 0, is = 0, doff = 0, dsize = 0;
    assert_true(sm2c_varint64(&p, buf + len, &mo) && sm2c_varint64(&p, buf + len, &ms) &&
                sm2c_varint64(&p, buf + len, &io) && sm2c_varint64(&p, buf + len, &is));
    /* The index block is raw and starts with a full key: 0, keylen, vlen, key, handle. */
    p = buf + io;
    uint32_t shared = 0, unshared = 0, vlen = 0;
    assert_true(sm2c_varint32(&p, buf + len, &shared) && sm2c_varint32(&p, buf + len, &unshared) &&
                sm2c_varint32(&p, buf + len, &vlen));
    p += unshared;
    assert_true(sm2c_varint64(&p, buf + len, &doff) && sm2c_varint64(&p, buf + len, &dsize));
    int type = buf[doff + dsize];
    free(buf);
    return type;
}

static void real_models(void **state)
{
    (void)state;
    size_t len;
    char *inventory = (char *)slurp(MODELS "/INVENTORY.txt", &len);
    if (!inventory)
        skip();
    DIR *d = opendir(MODELS);
    assert_non_null(d);
    struct dirent *de;
    int models = 0, bundles = 0, tensors = 0, strings = 0;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
            continue;
        char dir[512];
        snprintf(dir, sizeof dir, "%s/%s", MODELS, de->d_name);
        int want = inventory_count(inventory, de->d_name);
        if (want == -2)
            continue;  /* not a model */
        models++;
        opened o = open_dir(dir);
        if (o.st != SM2C_OK)
            fail_msg("%s: %s", de->d_name, o.tc->diag.first);
        if (want < 0) {
            assert_false(o.b->present);
            close_opened(&o);
            continue;
        }
        bundles++;
        assert_true(o.b->present);
        if ((int)o.b->n_entries + 1 != want)  /* INVENTORY counts the header */
            fail_msg("%s: %zu entries + header, INVENTORY says %d", de->d_name, o.b->n_entries, want);
        for (size_t i = 0; i < o.b->n_entries; i++) {
            sm2c_tensor t;
            if (sm2c_bundle_read(&o.tc->ctx, o.b, &o.b->entries[i], &t) != SM2C_OK)
                fail_msg("%s: %s", de->d_name, o.tc->diag.first);
            tensors++;
            strings += t.dtype == SM2C_DT_STRING;
        }
        close_opened(&o);
    }
    closedir(d);
    free(inventory);
    print_message("real models: %d models, %d bundles, %d tensors read (%d string)\n", models,
                  bundles, tensors, strings);
    assert_true(bundles >= 20);
    /* Spot checks from INVENTORY.txt. */
    assert_int_equal(first_block_type("serving_half_plus_two_cpu"), 1);  /* Snappy */
    assert_int_equal(first_block_type("cppflow_load_model"), 0);
    opened o = open_dir(MODELS "/cppflow_load_model");
    assert_int_equal(o.b->n_entries + 1, 6);
    const sm2c_bundle_entry *e =
        sm2c_bundle_find(o.b, "layer_with_weights-1/kernel/.ATTRIBUTES/VARIABLE_VALUE");
    assert_non_null(e);
    sm2c_tensor t;
    assert_int_equal(sm2c_bundle_read(&o.tc->ctx, o.b, e, &t), SM2C_OK);
    assert_string_equal(sm2c_shape_str(o.tc->arena, &t.shape), "[5,1]");
    float v0;
    memcpy(&v0, t.data, 4);
    assert_true(v0 == 0.6856093406677246f);
    close_opened(&o);
    o = open_dir(MODELS "/serving_half_plus_two_cpu");
    assert_int_equal(sm2c_bundle_read(&o.tc->ctx, o.b, sm2c_bundle_find(o.b, "b"), &t), SM2C_OK);
    memcpy(&v0, t.data, 4);
    assert_true(v0 == 2.0f);
    close_opened(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_dtypes),
        cmocka_unit_test(two_shards),
        cmocka_unit_test(partitioned),
        cmocka_unit_test(strings_decoded),
        cmocka_unit_test(no_variables_dir),
        cmocka_unit_test(c1_not_an_sstable),
        cmocka_unit_test(c2_handle_out_of_range),
        cmocka_unit_test(c3_block_crc_and_compression),
        cmocka_unit_test(c4_keys_out_of_order),
        cmocka_unit_test(c5_header),
        cmocka_unit_test(c6_entry_location),
        cmocka_unit_test(c7_shapes),
        cmocka_unit_test(c7_strings),
        cmocka_unit_test(c8_data_crc),
        cmocka_unit_test(bool_bytes_checked),
        cmocka_unit_test(c9_partitioned),
        cmocka_unit_test(c10_lookup),
        cmocka_unit_test(f5_shards),
        cmocka_unit_test(f2_symlinks_refused),
        cmocka_unit_test(real_models),
    };
    return cmocka_run_group_tests_name("bundle", tests, NULL, NULL);
}
