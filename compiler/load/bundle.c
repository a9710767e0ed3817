/*
** bundle.c: the TensorFlow tensor bundle (docs/savedmodel-format.md 3, docs/reliability.md
** C1-C10 and F5).
**
** Opening reads and validates everything but the tensor data: the index
** SSTable, the header, every entry against the shard file sizes.  Reading a
** tensor then preads its bytes, verifies the CRC and decodes strings or
** reassembles the slices of a partitioned variable.
**
** Keys of slice entries start with a NUL byte (OrderedCode's encoding of the
** number 0, see EncodeTensorNameSlice); they are kept apart from the tensor
** entries that sm2c_bundle.entries lists.
*/
#include "bundle.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/fileio.h"
#include "sstable.h"
#include "tensor_bundle.pb-c.h"
#include "tensor_proto.h"
#include "wire.h"

/* TensorFlow's kTensorBundleVersion and kTensorBundleMinProducer. */
#define BUNDLE_VERSION 1
#define BUNDLE_MIN_PRODUCER 0

/* The public struct is the first member, so a sm2c_bundle * is also one of these. */
typedef struct bundle_impl {
    sm2c_bundle pub;
    int vars_dirfd;             /* variables/, opened without following symlinks */
    const char *vars_display;   /* "<dir>/variables" */
    int *shard_fds;             /* num_shards descriptors, -1 when closed */
    int64_t *shard_sizes;
    const char **shard_display; /* "<dir>/variables/variables.data-0000S-of-0000N" */
    size_t n_slice_entries;     /* entries whose key encodes a slice, sorted */
    sm2c_bundle_entry *slice_entries;
} bundle_impl;

/* ---- keys and messages ----------------------------------------------------- */

/* A key as diagnostics show it: slice keys are binary, so escape what is not
** printable ASCII in them; names keep their UTF-8. */
static const char *key_display(sm2c_arena *a, const char *key, size_t len)
{
    int binary = len > 0 && key[0] == 0;
    char *out = sm2c_arena_alloc(a, len * 4 + 1), *p = out;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)key[i];
        if (ch < 0x20 || ch == 0x7f || (binary && ch >= 0x80))
            p += sprintf(p, "\\x%02x", ch);
        else
            *p++ = (char)ch;
    }
    *p = 0;
    return out;
}

static const char *where_of(sm2c_ctx *c, const sm2c_bundle_entry *e)
{
    return sm2c_arena_printf(c->arena, "variable '%s'", key_display(c->arena, e->key, e->key_len));
}

static int key_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
    int d = memcmp(a, b, alen < blen ? alen : blen);
    if (d)
        return d;
    return alen < blen ? -1 : alen > blen;
}

static const sm2c_bundle_entry *find_bytes(const sm2c_bundle_entry *v, size_t n, const char *key,
                                           size_t len)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int d = key_cmp(v[mid].key, v[mid].key_len, key, len);
        if (d == 0)
            return &v[mid];
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const sm2c_bundle_entry *sm2c_bundle_find(const sm2c_bundle *b, const char *key)
{
    if (!b->present)
        return NULL;
    return find_bytes(b->entries, b->n_entries, key, strlen(key));
}

/* ---- OrderedCode (tensorflow/core/lib/strings/ordered_code.cc) -------------- */

typedef struct keybuf {
    uint8_t *data;
    size_t len;
} keybuf;

static void put(keybuf *k, const void *p, size_t n)
{
    memcpy(k->data + k->len, p, n);
    k->len += n;
}

/* Length byte, then the big-endian value without leading zero bytes. */
static void write_num_increasing(keybuf *k, uint64_t v)
{
    uint8_t buf[9];
    int n = 0;
    for (; v; v >>= 8)
        buf[8 - n++] = (uint8_t)(v & 0xff);
    buf[8 - n] = (uint8_t)n;
    put(k, buf + 8 - n, (size_t)n + 1);
}

/* 0x00 and 0xff are escaped; "\0\1" ends the string. */
static void write_string(keybuf *k, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        uint8_t ch = (uint8_t)s[i];
        if (ch == 0x00)
            put(k, "\x00\xff", 2);
        else if (ch == 0xff)
            put(k, "\xff\x00", 2);
        else
            put(k, &ch, 1);
    }
    put(k, "\x00\x01", 2);
}

/* Sign bit, then as many copies of it as extra bytes follow, then the value. */
static void write_signed_num_increasing(keybuf *k, int64_t v)
{
    static const uint8_t header[11][2] = {
        { 0, 0 }, { 0x80, 0 }, { 0xc0, 0 }, { 0xe0, 0 }, { 0xf0, 0 }, { 0xf8, 0 },
        { 0xfc, 0 }, { 0xfe, 0 }, { 0xff, 0 }, { 0xff, 0x80 }, { 0xff, 0xc0 },
    };
    uint64_t x = v < 0 ? ~(uint64_t)v : (uint64_t)v;
    if (x < 64) {
        uint8_t b = (uint8_t)(0x80 ^ (uint8_t)(uint64_t)v);
        put(k, &b, 1);
        return;
    }
    int bits = 0;  /* x < 2^63, so at most 63 */
    for (uint64_t t = x; t; t >>= 1)
        bits++;
    int len = bits / 7 + 1;  /* TensorFlow's kBitsToLength */
    uint8_t buf[10];
    uint8_t sign = v < 0 ? 0xff : 0x00;
    buf[0] = buf[1] = sign;
    for (int i = 0; i < 8; i++)
        buf[2 + i] = (uint8_t)((uint64_t)v >> (56 - 8 * i));
    uint8_t *begin = buf + 10 - len;
    begin[0] ^= header[len][0];
    begin[1] ^= header[len][1];
    put(k, begin, (size_t)len);
}

/* EncodeTensorNameSlice (saved_tensor_slice_util.cc). */
static keybuf slice_key(sm2c_arena *a, const sm2c_bundle_entry *e, const sm2c_slice_extent *ext)
{
    keybuf k;
    size_t worst = 9 + 2 * e->key_len + 2 + 9 + (size_t)e->shape.rank * 20;
    k.data = sm2c_arena_alloc(a, worst);
    k.len = 0;
    write_num_increasing(&k, 0);
    write_string(&k, e->key, e->key_len);
    write_num_increasing(&k, (uint64_t)e->shape.rank);
    for (int32_t d = 0; d < e->shape.rank; d++) {
        write_signed_num_increasing(&k, ext[d].start);
        write_signed_num_increasing(&k, ext[d].length);
    }
    return k;
}

/* ---- opening ---------------------------------------------------------------- */

static sm2c_status check_header(sm2c_ctx *c, const char *file,
                                const Tensorflow__BundleHeaderProto *h)
{
    const char *where = "header";
    if (h->endianness == TENSORFLOW__BUNDLE_HEADER_PROTO__ENDIANNESS__BIG)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, file, where,
                          "unsupported bundle: big-endian; only little-endian data is read");
    if (h->endianness != TENSORFLOW__BUNDLE_HEADER_PROTO__ENDIANNESS__LITTLE)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                          "unknown endianness %d; expected 0 (LITTLE)", (int)h->endianness);
    const Tensorflow__VersionDef *v = h->version;
    if (v && v->producer < BUNDLE_MIN_PRODUCER)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, file, where,
                          "bundle version: producer %d is older than the oldest supported (%d)",
                          v->producer, BUNDLE_MIN_PRODUCER);
    if (v && v->min_consumer > BUNDLE_VERSION)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, file, where,
                          "bundle version: needs a reader of version >= %d; sm2c reads version %d",
                          v->min_consumer, BUNDLE_VERSION);
    for (size_t i = 0; v && i < v->n_bad_consumers; i++)
        if (v->bad_consumers[i] == BUNDLE_VERSION)
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, file, where,
                              "bundle version: reader version %d is listed in bad_consumers",
                              BUNDLE_VERSION);
    if (h->num_shards <= 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                          "BundleHeader.num_shards=%d; expected at least 1", h->num_shards);
    if (h->num_shards > c->limits->shards)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, file, where,
                          "BundleHeader.num_shards=%d, more than the limit of %" PRId64
                          " (--limit shards=N raises it)", h->num_shards, c->limits->shards);
    return SM2C_OK;
}

/* Open every data shard.  The count is capped already, and the loop stops at
** the first missing file, so a huge num_shards never means a huge loop. */
static sm2c_status open_shards(sm2c_ctx *c, bundle_impl *b)
{
    int32_t n = b->pub.num_shards;
    b->shard_fds = sm2c_arena_array(c->arena, (size_t)n, sizeof *b->shard_fds);
    b->shard_sizes = sm2c_arena_array(c->arena, (size_t)n, sizeof *b->shard_sizes);
    b->shard_display = sm2c_arena_array(c->arena, (size_t)n, sizeof *b->shard_display);
    for (int32_t i = 0; i < n; i++)
        b->shard_fds[i] = -1;
    for (int32_t i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "variables.data-%05d-of-%05d", (int)i, (int)n);
        b->shard_display[i] = sm2c_arena_printf(c->arena, "%s/%s", b->vars_display, name);
        if (!sm2c_exists(b->vars_dirfd, name))
            return sm2c_error(c->diag, SM2C_ERR_INVALID, b->shard_display[i], NULL,
                              "%s missing (BundleHeader.num_shards=%d)", name, (int)n);
        b->shard_fds[i] = sm2c_open_file(c, b->vars_dirfd, name, b->shard_display[i],
                                         &b->shard_sizes[i]);
        if (b->shard_fds[i] < 0)
            return SM2C_ERR_INVALID;
    }
    return SM2C_OK;
}

/* A saved tensor's shape: on top of the usual rules, fully known. */
static sm2c_status entry_shape(sm2c_ctx *c, const char *file, const char *where,
                               const Tensorflow__TensorShapeProto *p, sm2c_shape *out)
{
    sm2c_status st = sm2c_shape_from_proto(c, file, where, p, out);
    if (st)
        return st;
    if (out->rank < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                          "shape has unknown rank; a saved tensor has a known shape");
    for (int32_t i = 0; i < out->rank; i++)
        if (out->dims[i] < 0)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                              "dimension %d is %" PRId64 "; saved tensors have sizes >= 0",
                              (int)i, out->dims[i]);
    return SM2C_OK;
}

static sm2c_status entry_elements(sm2c_ctx *c, const char *file, const char *where,
                                  const sm2c_shape *s, int64_t *nelem)
{
    *nelem = sm2c_shape_elements(s, c->limits->elements);
    if (*nelem == -2)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, file, where,
                          "shape %s has more than %" PRId64 " elements "
                          "(--limit elements=N raises it)",
                          sm2c_shape_str(c->arena, s), c->limits->elements);
    SM2C_ASSERT(*nelem >= 0);
    return SM2C_OK;
}

/* shard_id, offset and size against the shard file; the size against the
** shape.  Nothing is allocated from these numbers before this passes. */
static sm2c_status check_location(sm2c_ctx *c, const bundle_impl *b, const char *file,
                                  const char *where, const sm2c_bundle_entry *e, int64_t nelem)
{
    if (e->shard_id < 0 || e->shard_id >= b->pub.num_shards)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                          "shard_id %d out of range; the bundle has %d shard(s)",
                          e->shard_id, b->pub.num_shards);
    if (e->offset < 0 || e->size < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                          "negative %s %" PRId64, e->offset < 0 ? "offset" : "size",
                          e->offset < 0 ? e->offset : e->size);
    int64_t shard_size = b->shard_sizes[e->shard_id];
    if (e->offset > shard_size || e->size > shard_size - e->offset)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                          "offset %" PRId64 " + size %" PRId64 " past the end of shard %d (%" PRId64
                          " bytes)", e->offset, e->size, e->shard_id, shard_size);
    int dt = sm2c_dtype_base(e->dtype);
    size_t esize = sm2c_dtype_size(dt);
    if (esize) {
        if (nelem > INT64_MAX / (int64_t)esize || e->size != nelem * (int64_t)esize)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                              "size %" PRId64 " does not match %s %s (%" PRId64
                              " elements of %zu bytes)",
                              e->size, sm2c_dtype_name(dt), sm2c_shape_str(c->arena, &e->shape),
                              nelem, esize);
    } else if (dt == SM2C_DT_STRING) {
        /* Each element needs a length varint (>= 1 byte), then the 4-byte checksum. */
        if (e->size == 0 ? nelem != 0 : e->size < 4 || nelem > e->size - 4)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                              "size %" PRId64 " is too small for %" PRId64 " strings",
                              e->size, nelem);
    }
    return SM2C_OK;
}

/* The extents of one TensorSliceProto: as many as the rank, inside the shape. */
static sm2c_status decode_slice(sm2c_ctx *c, const char *file, const char *where, size_t j,
                                const sm2c_shape *s, const Tensorflow__TensorSliceProto *p,
                                sm2c_slice_extent **out)
{
    if (p->n_extent != (size_t)s->rank)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                          "slice %zu has rank %zu but the tensor has rank %d", j, p->n_extent,
                          (int)s->rank);
    sm2c_slice_extent *ext = sm2c_arena_array(c->arena, p->n_extent ? p->n_extent : 1, sizeof *ext);
    for (size_t d = 0; d < p->n_extent; d++) {
        const Tensorflow__TensorSliceProto__Extent *x = p->extent[d];
        int full = x->has_length_case != TENSORFLOW__TENSOR_SLICE_PROTO__EXTENT__HAS_LENGTH_LENGTH;
        int64_t start = x->start, length = full ? -1 : x->length;
        int64_t dim = s->dims[d];
        int bad = start < 0 ||
                  (full ? start != 0 : length < 0 || start > dim || length > dim - start);
        if (bad)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where,
                              "slice %zu dimension %zu: extent start %" PRId64 " length %" PRId64
                              " is outside [0, %" PRId64 ")", j, d, start, length, dim);
        ext[d] = (sm2c_slice_extent){ start, length };
    }
    *out = ext;
    return SM2C_OK;
}

static sm2c_status decode_entry(sm2c_ctx *c, bundle_impl *b, const sm2c_sstable_entry *se,
                                sm2c_bundle_entry *e)
{
    const char *file = b->pub.index_path;
    e->key = (const char *)se->key;
    e->key_len = se->key_len;
    const char *where = where_of(c, e);
    ProtobufCAllocator alloc = sm2c_arena_pb_allocator(c->arena);
    Tensorflow__BundleEntryProto *p =
        tensorflow__bundle_entry_proto__unpack(&alloc, se->value_len, se->value);
    if (!p)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where, "malformed BundleEntryProto");
    e->dtype = (int)p->dtype;
    if (!sm2c_dtype_known(e->dtype) || e->dtype == SM2C_DT_INVALID)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where, "unknown dtype %d", e->dtype);
    sm2c_status st = entry_shape(c, file, where, p->shape, &e->shape);
    int64_t nelem;
    if (!st)
        st = entry_elements(c, file, where, &e->shape, &nelem);
    if (st)
        return st;
    e->shard_id = p->shard_id;
    e->offset = p->offset;
    e->size = p->size;
    e->crc32c = p->crc32c;
    if (p->n_slices > (size_t)INT32_MAX)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, file, where, "too many slices");
    e->n_slices = (int32_t)p->n_slices;
    if (e->n_slices == 0)
        return check_location(c, b, file, where, e, nelem);
    /* A partitioned variable: its own shard/offset/size are unused (3.2). */
    e->slices = sm2c_arena_array(c->arena, p->n_slices, sizeof *e->slices);
    for (size_t j = 0; j < p->n_slices; j++)
        if ((st = decode_slice(c, file, where, j, &e->shape, p->slices[j], &e->slices[j])))
            return st;
    return SM2C_OK;
}

static sm2c_status decode_header(sm2c_ctx *c, bundle_impl *b, const sm2c_sstable_entry *v,
                                 size_t n)
{
    const char *file = b->pub.index_path;
    if (n == 0 || v[0].key_len != 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, NULL,
                          "missing bundle header (the entry with the empty key)");
    ProtobufCAllocator alloc = sm2c_arena_pb_allocator(c->arena);
    Tensorflow__BundleHeaderProto *h =
        tensorflow__bundle_header_proto__unpack(&alloc, v[0].value_len, v[0].value);
    if (!h)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, "header", "malformed BundleHeaderProto");
    sm2c_status st = check_header(c, file, h);
    if (st)
        return st;
    b->pub.num_shards = h->num_shards;
    b->pub.endianness = (int32_t)h->endianness;
    b->pub.version_producer = h->version ? h->version->producer : 0;
    return SM2C_OK;
}

/* Split the entries after the header into tensors and slices (both stay sorted). */
static sm2c_status decode_entries(sm2c_ctx *c, bundle_impl *b, const sm2c_sstable_entry *v,
                                  size_t n)
{
    size_t n_slices = 0;
    for (size_t i = 1; i < n; i++)
        n_slices += v[i].key_len > 0 && v[i].key[0] == 0;
    b->pub.n_entries = n - 1 - n_slices;
    b->n_slice_entries = n_slices;
    b->pub.entries = sm2c_arena_array(c->arena, b->pub.n_entries + 1, sizeof *b->pub.entries);
    b->slice_entries = sm2c_arena_array(c->arena, n_slices + 1, sizeof *b->slice_entries);
    size_t t = 0, s = 0;
    for (size_t i = 1; i < n; i++) {
        int is_slice = v[i].key[0] == 0;
        sm2c_bundle_entry *e = is_slice ? &b->slice_entries[s++] : &b->pub.entries[t++];
        sm2c_status st = decode_entry(c, b, &v[i], e);
        if (st)
            return st;
        if (is_slice && e->n_slices)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, b->pub.index_path, where_of(c, e),
                              "a slice entry is itself partitioned");
    }
    return SM2C_OK;
}

static sm2c_status open_index(sm2c_ctx *c, bundle_impl *b)
{
    sm2c_buf buf;
    sm2c_status st = sm2c_read_file(c, b->vars_dirfd, "variables.index", b->pub.index_path,
                                    c->limits->file_bytes, &buf);
    sm2c_sstable_entry *v;
    size_t n;
    if (!st)
        st = sm2c_sstable_read(c, b->pub.index_path, buf.data, buf.len, &v, &n);
    if (!st)
        st = decode_header(c, b, v, n);
    if (!st)
        st = open_shards(c, b);
    if (!st)
        st = decode_entries(c, b, v, n);
    return st;
}

sm2c_bundle *sm2c_bundle_absent(sm2c_ctx *c, const char *display)
{
    bundle_impl *b = sm2c_arena_alloc(c->arena, sizeof *b);
    b->vars_dirfd = -1;
    b->vars_display = sm2c_path_join(c->arena, display, "variables");
    b->pub.index_path = sm2c_arena_printf(c->arena, "%s/variables.index", b->vars_display);
    return &b->pub;
}

sm2c_status sm2c_bundle_open(sm2c_ctx *c, int dirfd, const char *display, sm2c_bundle **out)
{
    bundle_impl *b = (bundle_impl *)sm2c_bundle_absent(c, display);
    *out = &b->pub;
    int fd = sm2c_open_dir(dirfd, "variables");
    int err = errno;
    if (fd < 0 && err == ENOENT)
        return SM2C_OK;  /* a model without variables */
    if (fd < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, b->vars_display, NULL,
                          "cannot open directory: %s%s", strerror(err),
                          err == ELOOP || err == ENOTDIR ? " (symlinks are not followed)" : "");
    b->vars_dirfd = fd;
    /* TensorFlow's loader, too, restores nothing when there is no index. */
    if (!sm2c_exists(fd, "variables.index")) {
        sm2c_bundle_close(&b->pub);
        return SM2C_OK;
    }
    b->pub.present = 1;
    sm2c_status st = open_index(c, b);
    if (st)
        sm2c_bundle_close(&b->pub);
    return st;
}

void sm2c_bundle_close(sm2c_bundle *pub)
{
    if (!pub)
        return;
    bundle_impl *b = (bundle_impl *)pub;
    for (int32_t i = 0; b->shard_fds && i < pub->num_shards; i++) {
        if (b->shard_fds[i] >= 0)
            close(b->shard_fds[i]);
        b->shard_fds[i] = -1;
    }
    if (b->vars_dirfd >= 0)
        close(b->vars_dirfd);
    b->vars_dirfd = -1;
}

/* ---- reading ---------------------------------------------------------------- */

static sm2c_status checksum_mismatch(sm2c_ctx *c, const bundle_impl *b, const sm2c_bundle_entry *e,
                                     uint32_t computed)
{
    return sm2c_error(c->diag, SM2C_ERR_INVALID, b->shard_display[e->shard_id], where_of(c, e),
                      "checksum mismatch (stored 0x%08x, computed 0x%08x) in shard %d [%" PRId64
                      ", +%" PRId64 ")", sm2c_crc32c_unmask(e->crc32c), computed, e->shard_id,
                      e->offset, e->size);
}

/* DT_STRING (WriteStringTensor): varint64 lengths, fixed32 masked CRC of the
** lengths (each as LE uint32, or uint64 when it does not fit), the bytes.
** The entry CRC runs through all three parts. */
static sm2c_status decode_strings(sm2c_ctx *c, const bundle_impl *b, const sm2c_bundle_entry *e,
                                  const uint8_t *data, int64_t nelem, sm2c_tensor *out)
{
    const char *file = b->shard_display[e->shard_id];
    const uint8_t *p = data, *end = data + e->size;
    sm2c_bytes *s = sm2c_arena_array(c->arena, nelem ? (size_t)nelem : 1, sizeof *s);
    uint32_t crc = 0;
    for (int64_t i = 0; i < nelem; i++) {
        uint64_t len;
        if (!sm2c_varint64(&p, end, &len))
            return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where_of(c, e),
                              "string %" PRId64 ": malformed length varint at byte %td", i,
                              p - data);
        uint8_t le[8];
        size_t w = len > UINT32_MAX ? 8 : 4;
        for (size_t k = 0; k < w; k++)
            le[k] = (uint8_t)(len >> (8 * k));
        crc = sm2c_crc32c_extend(crc, le, w);
        s[i].len = (size_t)len;
        if (len > (uint64_t)e->size)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where_of(c, e),
                              "string %" PRId64 " has length %" PRIu64 ", more than the %" PRId64
                              "-byte tensor", i, len, e->size);
    }
    if (e->size > 0) {
        if (end - p < 4)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where_of(c, e),
                              "string lengths leave no room for their checksum");
        uint32_t stored = sm2c_le32(p);
        if (sm2c_crc32c_unmask(stored) != crc)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where_of(c, e),
                              "string length checksum mismatch (stored 0x%08x, computed 0x%08x)",
                              sm2c_crc32c_unmask(stored), crc);
        crc = sm2c_crc32c_extend(crc, p, 4);
        p += 4;
    }
    /* total <= rest holds throughout, so the sum can never wrap. */
    uint64_t total = 0, rest = (uint64_t)(end - p);
    for (int64_t i = 0; i < nelem; i++) {
        if (s[i].len > rest - total)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where_of(c, e),
                              "string lengths add up to more than the %" PRIu64
                              " bytes that follow them", rest);
        s[i].data = p + total;
        total += s[i].len;
    }
    if (total != rest)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, file, where_of(c, e),
                          "string lengths add up to %" PRIu64 " but %" PRIu64 " bytes follow them",
                          total, rest);
    crc = sm2c_crc32c_extend(crc, p, (size_t)rest);
    if (sm2c_crc32c_unmask(e->crc32c) != crc)
        return checksum_mismatch(c, b, e, crc);
    out->strings = s;
    return SM2C_OK;
}

static sm2c_status check_bools(sm2c_ctx *c, const bundle_impl *b, const sm2c_bundle_entry *e,
                               const uint8_t *data)
{
    for (int64_t i = 0; i < e->size; i++)
        if (data[i] > 1)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, b->shard_display[e->shard_id],
                              where_of(c, e), "bool element %" PRId64 " has byte value %u", i,
                              (unsigned)data[i]);
    return SM2C_OK;
}

/* Read one unpartitioned entry (a tensor or a slice of one). */
static sm2c_status read_whole(sm2c_ctx *c, const bundle_impl *b, const sm2c_bundle_entry *e,
                              sm2c_tensor *out)
{
    int dt = sm2c_dtype_base(e->dtype);
    size_t esize = sm2c_dtype_size(dt);
    if (!esize && dt != SM2C_DT_STRING)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, b->pub.index_path, where_of(c, e),
                          "reading %s tensors is not supported", sm2c_dtype_name(dt));
    if (e->size > c->limits->file_bytes)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, b->shard_display[e->shard_id], where_of(c, e),
                          "tensor has %" PRId64 " bytes, more than the limit of %" PRId64
                          " (--limit file-bytes=N raises it)", e->size, c->limits->file_bytes);
    int64_t nelem = sm2c_shape_elements(&e->shape, c->limits->elements);
    SM2C_ASSERT(nelem >= 0);  /* checked when the bundle was opened */
    uint8_t *data = sm2c_arena_alloc(c->arena, (size_t)e->size + 1);
    sm2c_status st = sm2c_pread_exact(c, b->shard_fds[e->shard_id], b->shard_display[e->shard_id],
                                      data, (size_t)e->size, e->offset);
    if (st)
        return st;
    memset(out, 0, sizeof *out);
    out->dtype = dt;
    out->shape = e->shape;
    out->nelem = nelem;
    if (dt == SM2C_DT_STRING)
        return decode_strings(c, b, e, data, nelem, out);
    uint32_t crc = sm2c_crc32c(data, (size_t)e->size);
    if (sm2c_crc32c_unmask(e->crc32c) != crc)
        return checksum_mismatch(c, b, e, crc);
    if (dt == SM2C_DT_BOOL && (st = check_bools(c, b, e, data)))
        return st;
    out->data = data;
    out->nbytes = (size_t)e->size;
    return SM2C_OK;
}

/* ---- partitioned variables -------------------------------------------------- */

typedef struct assembly {
    sm2c_ctx *c;
    const bundle_impl *b;
    const sm2c_bundle_entry *e;
    const char *where;
    size_t esize;            /* bytes per element, sizeof(sm2c_bytes) for strings */
    uint8_t *dst;            /* nelem * esize */
    uint8_t *covered;        /* one bit per element */
    int64_t *strides;        /* row-major strides of the full tensor */
    int64_t *idx;            /* scratch: the index inside a slice */
} assembly;

static const char *slice_str(sm2c_arena *a, const sm2c_shape *s, const sm2c_slice_extent *x)
{
    size_t cap = 4 + (size_t)s->rank * 44;
    char *buf = sm2c_arena_alloc(a, cap), *p = buf;
    for (int32_t d = 0; d < s->rank; d++) {
        if (x[d].length < 0)
            p += snprintf(p, cap - (size_t)(p - buf), "%s-", d ? ":" : "");
        else
            p += snprintf(p, cap - (size_t)(p - buf), "%s%" PRId64 ",%" PRId64, d ? ":" : "",
                          x[d].start, x[d].length);
    }
    return buf;
}

/* The stored slice must have the slice's own shape and the tensor's dtype. */
static sm2c_status check_slice_entry(assembly *a, size_t j, const sm2c_slice_extent *x,
                                     const sm2c_bundle_entry *se)
{
    const sm2c_shape *full = &a->e->shape;
    int same = se->dtype == a->e->dtype && se->shape.rank == full->rank;
    for (int32_t d = 0; same && d < full->rank; d++)
        same = se->shape.dims[d] == (x[d].length < 0 ? full->dims[d] : x[d].length);
    if (!same)
        return sm2c_error(a->c->diag, SM2C_ERR_INVALID, a->b->pub.index_path, a->where,
                          "slice %zu (%s) is stored as %s %s", j,
                          slice_str(a->c->arena, full, x), sm2c_dtype_name(se->dtype),
                          sm2c_shape_str(a->c->arena, &se->shape));
    return SM2C_OK;
}

static const char *index_str(sm2c_arena *ar, const int64_t *idx, int32_t rank)
{
    sm2c_shape s = { rank, (int64_t *)idx };
    return sm2c_shape_str(ar, &s);
}

/* Copy slice j element by element, marking each target as covered. */
static sm2c_status place_slice(assembly *a, size_t j, const sm2c_slice_extent *x,
                               const sm2c_tensor *t)
{
    int32_t rank = a->e->shape.rank;
    const uint8_t *src = t->dtype == SM2C_DT_STRING ? (const uint8_t *)t->strings : t->data;
    memset(a->idx, 0, (size_t)(rank ? rank : 1) * sizeof *a->idx);
    for (int64_t i = 0; i < t->nelem; i++) {
        int64_t at = 0;
        for (int32_t d = 0; d < rank; d++)
            at += (x[d].length < 0 ? a->idx[d] : x[d].start + a->idx[d]) * a->strides[d];
        if (a->covered[at / 8] & (1u << (at % 8))) {
            for (int32_t d = 0; d < rank; d++)
                a->idx[d] += x[d].length < 0 ? 0 : x[d].start;
            return sm2c_error(a->c->diag, SM2C_ERR_INVALID, a->b->pub.index_path, a->where,
                              "slice %zu (%s) overlaps an earlier slice at element %s", j,
                              slice_str(a->c->arena, &a->e->shape, x),
                              index_str(a->c->arena, a->idx, rank));
        }
        a->covered[at / 8] |= (uint8_t)(1u << (at % 8));
        memcpy(a->dst + (size_t)at * a->esize, src + (size_t)i * a->esize, a->esize);
        for (int32_t d = rank - 1; d >= 0; d--) {  /* next index, row-major */
            if (++a->idx[d] < t->shape.dims[d])
                break;
            a->idx[d] = 0;
        }
    }
    return SM2C_OK;
}

static sm2c_status check_coverage(assembly *a, int64_t nelem)
{
    for (int64_t at = 0; at < nelem; at++) {
        if (a->covered[at / 8] & (1u << (at % 8)))
            continue;
        int64_t rest = at;
        for (int32_t d = 0; d < a->e->shape.rank; d++) {
            a->idx[d] = rest / a->strides[d];
            rest %= a->strides[d];
        }
        return sm2c_error(a->c->diag, SM2C_ERR_INVALID, a->b->pub.index_path, a->where,
                          "slices do not cover element %s",
                          index_str(a->c->arena, a->idx, a->e->shape.rank));
    }
    return SM2C_OK;
}

static sm2c_status read_one_slice(assembly *a, size_t j)
{
    const sm2c_slice_extent *x = a->e->slices[j];
    keybuf k = slice_key(a->c->arena, a->e, x);
    const sm2c_bundle_entry *se = find_bytes(a->b->slice_entries, a->b->n_slice_entries,
                                             (const char *)k.data, k.len);
    if (!se)
        return sm2c_error(a->c->diag, SM2C_ERR_INVALID, a->b->pub.index_path, a->where,
                          "slice %zu (%s) is missing from the bundle", j,
                          slice_str(a->c->arena, &a->e->shape, x));
    sm2c_tensor t;
    sm2c_status st = check_slice_entry(a, j, x, se);
    if (!st)
        st = read_whole(a->c, a->b, se, &t);
    if (!st)
        st = place_slice(a, j, x, &t);
    return st;
}

static sm2c_status read_partitioned(sm2c_ctx *c, const bundle_impl *b, const sm2c_bundle_entry *e,
                                    sm2c_tensor *out)
{
    int dt = sm2c_dtype_base(e->dtype);
    assembly a = { c, b, e, where_of(c, e), sm2c_dtype_size(dt), NULL, NULL, NULL, NULL };
    if (dt == SM2C_DT_STRING)
        a.esize = sizeof(sm2c_bytes);
    if (!a.esize)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, b->pub.index_path, a.where,
                          "reading %s tensors is not supported", sm2c_dtype_name(dt));
    int64_t nelem = sm2c_shape_elements(&e->shape, c->limits->elements);
    SM2C_ASSERT(nelem >= 0);
    /* Slices hold at least one byte per string, dtype-size bytes otherwise. */
    int64_t unit = dt == SM2C_DT_STRING ? 1 : (int64_t)a.esize;
    if (nelem > c->limits->file_bytes / unit)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, b->pub.index_path, a.where,
                          "partitioned tensor %s has more than %" PRId64 " bytes (--limit "
                          "file-bytes=N raises it)", sm2c_shape_str(c->arena, &e->shape),
                          c->limits->file_bytes);
    int32_t rank = e->shape.rank;
    a.dst = sm2c_arena_array(c->arena, nelem ? (size_t)nelem : 1, a.esize);
    a.covered = sm2c_arena_alloc(c->arena, (size_t)nelem / 8 + 1);
    a.strides = sm2c_arena_array(c->arena, rank ? (size_t)rank : 1, sizeof *a.strides);
    a.idx = sm2c_arena_array(c->arena, rank ? (size_t)rank : 1, sizeof *a.idx);
    int64_t stride = 1;  /* <= nelem, which is capped, so no overflow */
    for (int32_t d = rank - 1; d >= 0; d--) {
        a.strides[d] = stride;
        stride *= e->shape.dims[d] ? e->shape.dims[d] : 1;
    }
    sm2c_status st = SM2C_OK;
    for (size_t j = 0; !st && j < (size_t)e->n_slices; j++)
        st = read_one_slice(&a, j);
    if (!st)
        st = check_coverage(&a, nelem);
    if (st)
        return st;
    memset(out, 0, sizeof *out);
    out->dtype = dt;
    out->shape = e->shape;
    out->nelem = nelem;
    if (dt == SM2C_DT_STRING) {
        out->strings = (sm2c_bytes *)a.dst;
    } else {
        out->data = a.dst;
        out->nbytes = (size_t)nelem * a.esize;
    }
    return SM2C_OK;
}

sm2c_status sm2c_bundle_read(sm2c_ctx *c, const sm2c_bundle *pub, const sm2c_bundle_entry *e,
                             sm2c_tensor *out)
{
    const bundle_impl *b = (const bundle_impl *)pub;
    if (!pub->present || b->shard_fds == NULL)
        return sm2c_error(c->diag, SM2C_ERR_INTERNAL, pub->index_path, NULL,
                          "reading from a bundle that is not open");
    /* A bad checksum or a short shard is corrupt input: an error even while a
    ** signature's problems are warnings (diag.h). */
    c->diag->corrupt++;
    sm2c_status st = e->n_slices > 0 ? read_partitioned(c, b, e, out) : read_whole(c, b, e, out);
    c->diag->corrupt--;
    return st;
}
