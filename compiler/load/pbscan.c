/*
** pbscan.c: checking binary protobuf before protobuf-c decodes it, and map
** keys after (docs/reliability.md P1-P5).
**
** protobuf-c's unpack() recurses once per nested message, fails without
** saying why, and silently cuts strings at a NUL.  So sm2c_pb_prescan() walks
** the bytes first, following our descriptors with an explicit stack: every
** key, varint, length prefix, fixed-size value and packed payload, the
** nesting depth, the contents of string fields, and the memory unpack() will
** take.  Unknown fields are skipped whole, never descended.  Every check
** matches or is stricter than what protobuf-c 1.4 accepts, so after a clean
** prescan unpack() can only fail on a real out-of-memory.
**
** After unpacking, check_maps() walks the message tree (again with an
** explicit stack, as deep as the prescan allowed) and rejects duplicate keys
** in map fields, which protobuf-c would keep as two entries.
*/
#include "pbwire.h"
#include "wire.h"
#include "base/deep.h"
#include "base/grow.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every string field of the real models is valid UTF-8, as proto3 requires. */
#define CHECK_UTF8 1

enum { WT_VARINT = 0, WT_64BIT = 1, WT_LEN = 2, WT_32BIT = 5 };

/* ---- growable memory for the scanners (bounded by the input) ------------- */

/* ---- field paths for diagnostics: meta_graphs[0].graph_def.node[17].name -- */

typedef struct pathbuf {
    char *s;
    size_t len, cap;
} pathbuf;

static void path_add(pathbuf *p, const char *fmt, ...) SM2C_PRINTF(2, 3);
static void path_add(pathbuf *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    p->s = sm2c_grow(p->s, &p->cap, p->len + (size_t)n + 1, 1);
    va_start(ap, fmt);
    vsnprintf(p->s + p->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    p->len += (size_t)n;
}

/* A map field: repeated "...Entry" messages with exactly key = 1, value = 2. */
static int is_map_field(const ProtobufCFieldDescriptor *f)
{
    if (f->label != PROTOBUF_C_LABEL_REPEATED || f->type != PROTOBUF_C_TYPE_MESSAGE)
        return 0;
    const ProtobufCMessageDescriptor *e = f->descriptor;
    size_t n = strlen(e->short_name);
    return n >= 5 && strcmp(e->short_name + n - 5, "Entry") == 0 && e->n_fields == 2 &&
           e->fields[0].id == 1 && e->fields[1].id == 2 &&
           strcmp(e->fields[0].name, "key") == 0 && strcmp(e->fields[1].name, "value") == 0;
}

/* One step: ".name", "[index]" for repeated fields, or ["key"] for map
** entries whose string key is known.  Long keys are cut. */
static void path_elem(pathbuf *p, const ProtobufCFieldDescriptor *f, size_t index,
                      const char *key, size_t key_len)
{
    path_add(p, "%s%s", p->len ? "." : "", f->name);
    if (key && is_map_field(f))
        path_add(p, "[\"%.*s%s\"]", (int)(key_len > 64 ? 64 : key_len), key,
                 key_len > 64 ? "..." : "");
    else if (f->label == PROTOBUF_C_LABEL_REPEATED)
        path_add(p, "[%zu]", index);
}

/* Keep a 10,000-deep path readable: its head and its tail. */
static const char *path_str(pathbuf *p)
{
    if (!p->s)
        return "";
    if (p->len > 400) {
        memmove(p->s + 120, "...", 3);
        memmove(p->s + 123, p->s + p->len - 260, 260);
        p->len = 383;
        p->s[p->len] = 0;
    }
    return p->s;
}

/* ---- the prescan ----------------------------------------------------------- */

typedef struct frame {
    const ProtobufCMessageDescriptor *desc;
    const ProtobufCFieldDescriptor *field; /* field of the parent; NULL at the root */
    size_t index;                          /* element index when `field` is repeated */
    size_t end;                            /* offset one past this message */
    size_t counts;                         /* desc->n_fields element counters in scan.counts */
    size_t key_off, key_len;               /* string key of a map entry, for paths */
    int has_key;
} frame;

typedef struct scan {
    sm2c_ctx *c;
    const char *display;
    const uint8_t *buf;
    size_t pos;
    frame *frames;
    size_t nframes, cap_frames;
    size_t *counts;
    size_t ncounts, cap_counts;
    uint64_t decoded, budget;              /* bytes unpack() will allocate, and the cap */
} scan;

static void frame_path(const scan *s, pathbuf *p)
{
    for (size_t i = 1; i < s->nframes; i++) {
        const frame *f = &s->frames[i];
        path_elem(p, f->field, f->index, f->has_key ? (const char *)s->buf + f->key_off : NULL,
                  f->key_len);
    }
}

static sm2c_status fail(scan *s, sm2c_status kind, size_t off, const char *fmt, ...)
    SM2C_PRINTF(4, 5);
static sm2c_status fail(scan *s, sm2c_status kind, size_t off, const char *fmt, ...)
{
    char reason[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    if (kind == SM2C_ERR_LIMIT)
        return sm2c_error(s->c->diag, kind, s->display, NULL, "%s", reason);
    return sm2c_error(s->c->diag, kind, s->display, NULL, "protobuf parse error at offset %zu: %s",
                      off, reason);
}

/* "in meta_graphs[0].graph_def.node[3].op", "in field 9 of <path or type>",
** or for a bad key (num 0) just "in <path or type>". */
static sm2c_status fail_at_field(scan *s, sm2c_status kind, size_t off,
                                 const ProtobufCFieldDescriptor *f, uint32_t num,
                                 const char *what)
{
    pathbuf p = {0};
    frame_path(s, &p);
    const frame *top = &s->frames[s->nframes - 1];
    sm2c_status st;
    if (f) {
        path_elem(&p, f, s->counts[top->counts + (size_t)(f - top->desc->fields)], NULL, 0);
        st = fail(s, kind, off, "%s in %s", what, path_str(&p));
    } else if (num) {
        st = fail(s, kind, off, "%s in field %u of %s", what, num,
                  p.len ? path_str(&p) : top->desc->name);
    } else {
        st = fail(s, kind, off, "%s in %s", what, p.len ? path_str(&p) : top->desc->name);
    }
    free(p.s);
    return st;
}

/* Reads a varint of at most `max` bytes below `end`: 0, or 1 when
** unterminated, 2 when longer than `max`. */
static int read_varint(const uint8_t *buf, size_t *pos, size_t end, int max, uint64_t *out)
{
    uint64_t v = 0;
    size_t p = *pos;
    for (int i = 0; i < max; i++, p++) {
        if (p >= end)
            return 1;
        if (i < 10)
            v |= (uint64_t)(buf[p] & 0x7f) << (7 * i);
        if (!(buf[p] & 0x80)) {
            *pos = p + 1;
            *out = v;
            return 0;
        }
    }
    return 2;
}

static int wire_type_of(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_SFIXED32: case PROTOBUF_C_TYPE_FIXED32: case PROTOBUF_C_TYPE_FLOAT:
        return WT_32BIT;
    case PROTOBUF_C_TYPE_SFIXED64: case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_DOUBLE:
        return WT_64BIT;
    case PROTOBUF_C_TYPE_STRING: case PROTOBUF_C_TYPE_BYTES: case PROTOBUF_C_TYPE_MESSAGE:
        return WT_LEN;
    default:
        return WT_VARINT;
    }
}

static const char *type_name(ProtobufCType t)
{
    static const char *const names[] = {
        "int32", "sint32", "sfixed32", "int64", "sint64", "sfixed64", "uint32", "fixed32",
        "uint64", "fixed64", "float", "double", "bool", "enum", "string", "bytes", "message",
    };
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

static sm2c_status check_string(scan *s, const ProtobufCFieldDescriptor *f, size_t off,
                                size_t n)
{
    const uint8_t *p = s->buf + off;
    const uint8_t *nul = memchr(p, 0, n);
    const char *what = NULL;
    size_t at = 0;
    if (nul) {
        what = "contains NUL byte";
        at = (size_t)(nul - p);
    } else if (CHECK_UTF8 && (at = sm2c_utf8_invalid_at(p, n)) < n) {
        what = "is not valid UTF-8: bad byte";
    }
    if (!what)
        return SM2C_OK;
    pathbuf pb = {0};
    frame_path(s, &pb);
    const frame *top = &s->frames[s->nframes - 1];
    path_elem(&pb, f, s->counts[top->counts + (size_t)(f - top->desc->fields)], NULL, 0);
    sm2c_status st = fail(s, SM2C_ERR_INVALID, off, "%s %s at position %zu", path_str(&pb),
                          what, at);
    free(pb.s);
    return st;
}

/* A packed run of a repeated scalar: whole elements only; counts them. */
static const char *check_packed(const scan *s, ProtobufCType t, size_t off, size_t n,
                                size_t *bad, size_t *count)
{
    int wt = wire_type_of(t);
    *bad = off;
    *count = wt == WT_32BIT ? n / 4 : n / 8;
    if (wt == WT_32BIT && n % 4)
        return "packed fixed32 payload is not a multiple of 4 bytes";
    if (wt == WT_64BIT && n % 8)
        return "packed fixed64 payload is not a multiple of 8 bytes";
    if (wt != WT_VARINT)
        return NULL;
    size_t p = off, end = off + n;
    for (*count = 0; p < end; ++*count) {
        uint64_t v;
        *bad = p;
        int r = read_varint(s->buf, &p, end, 10, &v);
        if (r)
            return r == 1 ? "unterminated varint in packed payload"
                          : "varint longer than 10 bytes in packed payload";
    }
    return NULL;
}

/* ---- what unpack() will allocate --------------------------------------------- */

/* protobuf-c allocates every message, array and string on its own, plus 32
** bytes per field while scanning, and the arena never frees: a file of empty
** messages decodes to ~50 times its size.  So the prescan adds it up and
** stops at a budget.  The estimate runs 1.7-2x above what real models
** then use, and 9-20x their file size for graphs without weights. */
static uint64_t decode_budget(const sm2c_limits *l)
{
    return l->decoded_bytes > 0 ? (uint64_t)l->decoded_bytes : 0;
}

/* Bytes of one element of a repeated field in protobuf-c's arrays. */
static uint64_t elem_size(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_DOUBLE:
    case PROTOBUF_C_TYPE_STRING: case PROTOBUF_C_TYPE_MESSAGE:
        return 8;
    case PROTOBUF_C_TYPE_BYTES:
        return sizeof(ProtobufCBinaryData);
    default:
        return 4;
    }
}

static sm2c_status charge(scan *s, size_t at, uint64_t bytes)
{
    s->decoded += bytes;
    if (s->decoded <= s->budget)
        return SM2C_OK;
    return fail(s, SM2C_ERR_LIMIT, at,
                "decoding needs more than %llu MiB of memory at offset %zu "
                "(--limit decoded-bytes=N raises it)",
                (unsigned long long)(s->budget >> 20), at);
}

/* One occurrence of field `f` (NULL: unknown) holding `n` payload bytes and
** `count` elements when packed. */
static sm2c_status charge_field(scan *s, size_t at, const ProtobufCFieldDescriptor *f, size_t n,
                                size_t count)
{
    uint64_t bytes = 32;  /* protobuf-c's ScannedMember */
    if (!f)
        return charge(s, at, bytes + n + sizeof(ProtobufCMessageUnknownField) + 16);
    if (f->label == PROTOBUF_C_LABEL_REPEATED)
        bytes += elem_size(f->type) * count;
    if (f->type == PROTOBUF_C_TYPE_MESSAGE)
        bytes += ((const ProtobufCMessageDescriptor *)f->descriptor)->sizeof_message + 16;
    else if (f->type == PROTOBUF_C_TYPE_STRING || f->type == PROTOBUF_C_TYPE_BYTES)
        bytes += n + 16;
    return charge(s, at, bytes);
}

static void push(scan *s, const ProtobufCMessageDescriptor *desc,
                 const ProtobufCFieldDescriptor *f, size_t index, size_t end)
{
    s->frames = sm2c_grow(s->frames, &s->cap_frames, s->nframes + 1, sizeof *s->frames);
    s->counts = sm2c_grow(s->counts, &s->cap_counts, s->ncounts + desc->n_fields, sizeof *s->counts);
    frame *fr = &s->frames[s->nframes++];
    memset(fr, 0, sizeof *fr);
    fr->desc = desc;
    fr->field = f;
    fr->index = index;
    fr->end = end;
    fr->counts = s->ncounts;
    memset(s->counts + s->ncounts, 0, desc->n_fields * sizeof *s->counts);
    s->ncounts += desc->n_fields;
}

static void pop(scan *s)
{
    s->ncounts = s->frames[--s->nframes].counts;
}

/* A length-delimited field we know: descend into messages, check strings and
** packed runs.  `key_at` is where the field began, `off`/`n` its payload. */
static sm2c_status scan_len_field(scan *s, const ProtobufCFieldDescriptor *f, size_t key_at,
                                  size_t off, size_t n)
{
    frame *top = &s->frames[s->nframes - 1];
    size_t *count = &s->counts[top->counts + (size_t)(f - top->desc->fields)];
    if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
        int64_t limit = s->c->limits->nesting_depth;
        if ((int64_t)s->nframes > limit) {
            pathbuf p = {0};
            frame_path(s, &p);
            path_elem(&p, f, *count, NULL, 0);
            sm2c_status st =
                fail(s, SM2C_ERR_LIMIT, key_at,
                     "message nesting depth %zu exceeds limit %lld at offset %zu in %s",
                     s->nframes, (long long)limit, key_at, path_str(&p));
            free(p.s);
            return st;
        }
        size_t index = (*count)++;
        s->pos = off;  /* descend: the new frame ends where the payload ends */
        push(s, f->descriptor, f, index, off + n);
        return charge_field(s, key_at, f, n, 1);
    }
    if (f->type == PROTOBUF_C_TYPE_STRING) {
        sm2c_status st = check_string(s, f, off, n);
        if (st != SM2C_OK)
            return st;
        if (f->id == 1 && top->field && is_map_field(top->field)) {
            top->has_key = 1;
            top->key_off = off;
            top->key_len = n;
        }
    }
    size_t elems = 1;
    if (f->type != PROTOBUF_C_TYPE_STRING && f->type != PROTOBUF_C_TYPE_BYTES) {
        size_t bad;
        const char *why = check_packed(s, f->type, off, n, &bad, &elems);
        if (why)
            return fail_at_field(s, SM2C_ERR_INVALID, bad, f, 0, why);
    }
    (*count)++;
    s->pos = off + n;
    return charge_field(s, key_at, f, n, elems);
}

/* The payload of a length-delimited field: [*off, *off + *n). */
static sm2c_status scan_length(scan *s, size_t end, const ProtobufCFieldDescriptor *f,
                               uint32_t num, size_t *off, size_t *n)
{
    size_t at = s->pos, p = s->pos;
    uint64_t v = 0;
    int r = read_varint(s->buf, &p, end, 10, &v);
    if (r)
        return fail_at_field(s, SM2C_ERR_INVALID, at, f, num,
                             r == 1 ? "unterminated length prefix"
                                    : "length prefix longer than 10 bytes");
    char what[160];
    if (v > INT_MAX) {
        snprintf(what, sizeof what, "length %llu exceeds INT_MAX", (unsigned long long)v);
        return fail_at_field(s, SM2C_ERR_INVALID, at, f, num, what);
    }
    if (p - at > 5)  /* protobuf-c reads at most 5 bytes of a length */
        return fail_at_field(s, SM2C_ERR_INVALID, at, f, num, "length prefix longer than 5 bytes");
    if (v > end - p) {
        snprintf(what, sizeof what, "length %llu runs past the end of the %s (%zu bytes left)",
                 (unsigned long long)v, s->nframes > 1 ? "enclosing message" : "data", end - p);
        return fail_at_field(s, SM2C_ERR_INVALID, at, f, num, what);
    }
    *off = p;
    *n = (size_t)v;
    return SM2C_OK;
}

/* The value of one field after its key: check it and step over it, or
** descend.  `f` is NULL for unknown fields. */
static sm2c_status scan_value(scan *s, size_t key_at, const ProtobufCFieldDescriptor *f,
                              uint32_t num, int wt)
{
    size_t end = s->frames[s->nframes - 1].end;
    char what[160];
    if (wt != WT_VARINT && wt != WT_64BIT && wt != WT_LEN && wt != WT_32BIT) {
        snprintf(what, sizeof what, "wire type %d %s", wt,
                 wt == 3 || wt == 4 ? "(group) is not supported" : "is not valid");
        return fail_at_field(s, SM2C_ERR_INVALID, key_at, NULL, num, what);
    }
    if (f && wt != wire_type_of(f->type) &&
        !(wt == WT_LEN && f->label == PROTOBUF_C_LABEL_REPEATED &&
          wire_type_of(f->type) != WT_LEN)) {
        snprintf(what, sizeof what, "wire type %d does not match the declared type %s%s", wt,
                 f->label == PROTOBUF_C_LABEL_REPEATED ? "repeated " : "", type_name(f->type));
        return fail_at_field(s, SM2C_ERR_INVALID, key_at, f, num, what);
    }
    size_t at = s->pos, need;
    uint64_t v;
    switch (wt) {
    case WT_VARINT: {
        int r = read_varint(s->buf, &s->pos, end, 10, &v);
        if (r)
            return fail_at_field(s, SM2C_ERR_INVALID, at, f, num,
                                 r == 1 ? "unterminated varint" : "varint longer than 10 bytes");
        break;
    }
    case WT_64BIT:
    case WT_32BIT:
        need = wt == WT_64BIT ? 8 : 4;
        if (end - s->pos < need) {
            snprintf(what, sizeof what, "%s value truncated (%zu of %zu bytes)",
                     need == 8 ? "fixed64" : "fixed32", end - s->pos, need);
            return fail_at_field(s, SM2C_ERR_INVALID, at, f, num, what);
        }
        s->pos += need;
        break;
    case WT_LEN: {
        size_t off = 0, n = 0;
        sm2c_status st = scan_length(s, end, f, num, &off, &n);
        if (st != SM2C_OK)
            return st;
        if (f)
            return scan_len_field(s, f, key_at, off, n);
        s->pos = off + n;  /* unknown: skipped whole, never descended */
        return charge_field(s, key_at, NULL, s->pos - key_at, 0);
    }
    default:
        sm2c_unreachable();
    }
    if (f) {
        frame *top = &s->frames[s->nframes - 1];
        s->counts[top->counts + (size_t)(f - top->desc->fields)]++;
    }
    return charge_field(s, key_at, f, s->pos - key_at, 1);
}

/* One field of the innermost message. */
static sm2c_status scan_field(scan *s)
{
    frame *top = &s->frames[s->nframes - 1];
    size_t at = s->pos;
    uint64_t key;
    int r = read_varint(s->buf, &s->pos, top->end, 5, &key);
    if (r)
        return fail_at_field(s, SM2C_ERR_INVALID, at, NULL, 0,
                             r == 1 ? "unterminated field key" : "field key longer than 5 bytes");
    if (key > UINT32_MAX)
        return fail_at_field(s, SM2C_ERR_INVALID, at, NULL, 0, "field number too large");
    uint32_t num = (uint32_t)(key >> 3);
    if (num == 0)
        return fail_at_field(s, SM2C_ERR_INVALID, at, NULL, 0, "tag with field number 0");
    const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(top->desc, num);
    return scan_value(s, at, f, num, (int)(key & 7));
}

sm2c_status sm2c_pb_prescan(sm2c_ctx *c, const char *display, const uint8_t *buf, size_t len,
                            const ProtobufCMessageDescriptor *desc)
{
    scan s = {.c = c, .display = display, .buf = buf, .budget = decode_budget(c->limits)};
    if (len > INT_MAX)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, display, NULL,
                          "protobuf message of %zu bytes exceeds 2 GiB - 1", len);
    push(&s, desc, NULL, 0, len);
    sm2c_status st = charge(&s, 0, desc->sizeof_message + 16);
    while (st == SM2C_OK && s.nframes > 0) {
        if (s.pos == s.frames[s.nframes - 1].end)
            pop(&s);
        else
            st = scan_field(&s);
    }
    free(s.frames);
    free(s.counts);
    return st;
}

/* ---- duplicate map keys, after unpacking ----------------------------------- */

/* A message being walked: next field `fi`, next element `ei` of that field. */
typedef struct walk {
    const ProtobufCMessage *msg;
    unsigned fi;
    size_t ei;
} walk;

typedef struct mapkey {
    const char *s;   /* string keys */
    uint64_t v;      /* integer keys, as their bits */
    size_t index;
} mapkey;

static int mapkey_cmp(const void *a, const void *b)
{
    const mapkey *x = a, *y = b;
    int r = 0;
    if (x->s)
        r = strcmp(x->s, y->s);
    else if (x->v != y->v)
        r = x->v < y->v ? -1 : 1;
    if (r == 0 && x->index != y->index)
        r = x->index < y->index ? -1 : 1;
    return r;
}

static const ProtobufCFieldDescriptor *entry_key_field(const ProtobufCMessage *entry)
{
    return &entry->descriptor->fields[0];
}

static mapkey read_key(const ProtobufCMessage *entry, size_t index)
{
    const ProtobufCFieldDescriptor *kf = entry_key_field(entry);
    const char *p = (const char *)entry + kf->offset;
    mapkey k = {.index = index};
    switch (kf->type) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *s;
        memcpy(&s, p, sizeof s);
        k.s = s ? s : "";
        break;
    }
    case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64:
        memcpy(&k.v, p, sizeof k.v);
        break;
    case PROTOBUF_C_TYPE_BOOL: {
        protobuf_c_boolean b;
        memcpy(&b, p, sizeof b);
        k.v = b != 0;
        break;
    }
    default: {
        uint32_t u;
        memcpy(&u, p, sizeof u);
        k.v = u;
        break;
    }
    }
    return k;
}

static int key_is_signed(ProtobufCType t)
{
    return t == PROTOBUF_C_TYPE_INT32 || t == PROTOBUF_C_TYPE_SINT32 ||
           t == PROTOBUF_C_TYPE_SFIXED32 || t == PROTOBUF_C_TYPE_INT64 ||
           t == PROTOBUF_C_TYPE_SINT64 || t == PROTOBUF_C_TYPE_SFIXED64;
}

static const ProtobufCMessage *const *repeated_msgs(const ProtobufCMessage *m,
                                                    const ProtobufCFieldDescriptor *f, size_t *n)
{
    const char *base = (const char *)m;
    const ProtobufCMessage *const *arr;
    memcpy(n, base + f->quantifier_offset, sizeof *n);
    memcpy(&arr, base + f->offset, sizeof arr);
    return arr;
}

static void walk_path(const walk *w, size_t n, pathbuf *p)
{
    for (size_t i = 1; i < n; i++) {
        const ProtobufCFieldDescriptor *f = &w[i - 1].msg->descriptor->fields[w[i - 1].fi];
        const char *key = NULL;
        if (is_map_field(f) && entry_key_field(w[i].msg)->type == PROTOBUF_C_TYPE_STRING)
            key = read_key(w[i].msg, 0).s;
        path_elem(p, f, w[i - 1].ei - 1, key, key ? strlen(key) : 0);
    }
}

/* The entries of one map field, sorted: report the earliest repeat. */
static sm2c_status check_map(sm2c_ctx *c, const char *display, const walk *w, size_t nw,
                             const ProtobufCFieldDescriptor *f)
{
    size_t n;
    const ProtobufCMessage *const *e = repeated_msgs(w[nw - 1].msg, f, &n);
    if (n < 2)
        return SM2C_OK;
    size_t cap = 0;
    mapkey *k = sm2c_grow(NULL, &cap, n, sizeof *k);
    for (size_t i = 0; i < n; i++)
        k[i] = read_key(e[i], i);
    qsort(k, n, sizeof *k, mapkey_cmp);
    const mapkey *dup = NULL;
    for (size_t i = 1; i < n; i++) {
        mapkey a = k[i - 1], b = k[i];
        a.index = b.index = 0;
        if (mapkey_cmp(&a, &b) == 0 && (!dup || k[i].index < dup->index))
            dup = &k[i];
    }
    sm2c_status st = SM2C_OK;
    if (dup) {
        pathbuf p = {0};
        walk_path(w, nw, &p);
        path_add(&p, "%s%s", p.len ? "." : "", f->name);
        ProtobufCType kt = entry_key_field(e[0])->type;
        if (dup->s)
            st = sm2c_error(c->diag, SM2C_ERR_INVALID, display, NULL,
                            "duplicate key '%.200s' in %s", dup->s, path_str(&p));
        else if (key_is_signed(kt))
            st = sm2c_error(c->diag, SM2C_ERR_INVALID, display, NULL, "duplicate key %lld in %s",
                            kt == PROTOBUF_C_TYPE_INT64 || kt == PROTOBUF_C_TYPE_SINT64 ||
                                    kt == PROTOBUF_C_TYPE_SFIXED64
                                ? (long long)(int64_t)dup->v
                                : (long long)(int32_t)(uint32_t)dup->v,
                            path_str(&p));
        else
            st = sm2c_error(c->diag, SM2C_ERR_INVALID, display, NULL, "duplicate key %llu in %s",
                            (unsigned long long)dup->v, path_str(&p));
        free(p.s);
    }
    free(k);
    return st;
}

/* The next child message of the innermost walk entry, or NULL when it has no
** more.  Map fields are checked when their first entry is reached. */
static const ProtobufCMessage *next_child(sm2c_ctx *c, const char *display, walk *w, size_t nw,
                                          sm2c_status *st)
{
    walk *top = &w[nw - 1];
    const ProtobufCMessageDescriptor *d = top->msg->descriptor;
    for (; top->fi < d->n_fields; top->fi++, top->ei = 0) {
        const ProtobufCFieldDescriptor *f = &d->fields[top->fi];
        if (f->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        const char *base = (const char *)top->msg;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n;
            const ProtobufCMessage *const *arr = repeated_msgs(top->msg, f, &n);
            if (top->ei == 0 && is_map_field(f) && (*st = check_map(c, display, w, nw, f)))
                return NULL;
            if (top->ei < n)
                return arr[top->ei++];
            continue;
        }
        if (top->ei++ > 0)
            continue;
        if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
            uint32_t which;
            memcpy(&which, base + f->quantifier_offset, sizeof which);
            if (which != f->id)
                continue;
        }
        const ProtobufCMessage *sub;
        memcpy(&sub, base + f->offset, sizeof sub);
        if (sub)
            return sub;
    }
    return NULL;
}

static sm2c_status check_maps(sm2c_ctx *c, const char *display, const ProtobufCMessage *root)
{
    size_t n = 0, cap = 0;
    walk *w = sm2c_grow(NULL, &cap, 1, sizeof *w);
    w[n++] = (walk){root, 0, 0};
    sm2c_status st = SM2C_OK;
    while (n > 0 && st == SM2C_OK) {
        const ProtobufCMessage *child = next_child(c, display, w, n, &st);
        if (child) {
            w = sm2c_grow(w, &cap, n + 1, sizeof *w);
            w[n++] = (walk){child, 0, 0};
        } else {
            n--;
        }
    }
    free(w);
    return st;
}

/* protobuf-c's unpack() recurses once per nested message: its frames take
** under 1.5 KiB a level (measured: a Debug build overflows 8 MiB between 6,000
** and 12,000 levels).  Up to the default limit's tenfold it runs here; past
** that on a stack sized by the limit (base/deep.h). */
enum { UNPACK_INLINE_DEPTH = 1000, UNPACK_LEVEL_BYTES = 2048 };

typedef struct unpack_job {
    const ProtobufCMessageDescriptor *desc;
    ProtobufCAllocator a;
    const uint8_t *buf;
    size_t len;
    ProtobufCMessage *m;
} unpack_job;

static void unpack(void *p)
{
    unpack_job *j = p;
    static const uint8_t empty[1];
    j->m = protobuf_c_message_unpack(j->desc, &j->a, j->len, j->len ? j->buf : empty);
}

sm2c_status sm2c_pb_unpack(sm2c_ctx *c, const char *display, const ProtobufCMessageDescriptor *desc,
                           const uint8_t *buf, size_t len, ProtobufCMessage **out)
{
    *out = NULL;
    sm2c_status st = sm2c_pb_prescan(c, display, buf, len, desc);
    if (st != SM2C_OK)
        return st;
    unpack_job j = { desc, sm2c_arena_pb_allocator(c->arena), buf, len, NULL };
    size_t stack = sm2c_deep_stack(c->limits->nesting_depth, UNPACK_INLINE_DEPTH, UNPACK_LEVEL_BYTES);
    if (sm2c_deep_call(stack, unpack, &j))
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, display, NULL,
                          "--limit nesting-depth=%lld needs a stack of %zu MiB to decode, which could not "
                          "be reserved (lower the limit)", (long long)c->limits->nesting_depth, stack >> 20);
    ProtobufCMessage *m = j.m;
    if (!m)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, display, NULL,
                          "protobuf parse error: cannot decode %s (%zu bytes)", desc->name, len);
    if ((st = check_maps(c, display, m)) != SM2C_OK)
        return st;
    *out = m;
    return SM2C_OK;
}
