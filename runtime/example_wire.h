/*
** example_wire.h: the protobuf wire format of a serialized tf.Example, read
** by ParseExample's kernels (parse_example.c: dense features,
** parse_example_sparse.c: sparse ones):
**
**   Example  { Features features = 1; }
**   Features { map<string, Feature> feature = 1; }   (entries: key = 1, value = 2)
**   Feature  { oneof kind { BytesList bytes_list = 1; FloatList float_list = 2;
**                           Int64List int64_list = 3; } }
**   FloatList { repeated float value = 1; }   (packed, wire type 2, or fixed32, 5)
**   Int64List { repeated int64 value = 1; }   (packed, wire type 2, or varint, 0)
**   BytesList { repeated bytes value = 1; }   (each length-delimited)
**
** As TensorFlow's parser (example_proto_fast_parsing.cc, checked against TF
** 2.21): unknown fields of Example are skipped and several `features` fields
** merge; a map entry is exactly a key then a value; when a key appears more
** than once the last entry wins (earlier ones are not read).  Malformed wire
** data (a truncated or over-long varint, a length past the end of its
** message, a wire type or field the format does not allow there) makes every
** reader return 0 (or -1); nothing is read outside the span it is given.
*/
#ifndef SM2C_RT_EXAMPLE_WIRE_H
#define SM2C_RT_EXAMPLE_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"

typedef struct pe_span {
    const uint8_t *p;
    size_t n;
} pe_span;

/* A varint of at most 10 bytes (64 bits), from s; advances s.  0 when truncated
** or over-long. */
static inline int pe_varint(pe_span *s, uint64_t *v)
{
    uint64_t r = 0;
    size_t i;
    for (i = 0; i < s->n && i < 10; i++) {
        uint8_t b = s->p[i];
        r |= (uint64_t)(b & 0x7f) << (7 * i);    /* a 10th byte's bits past 64 drop, as protobuf's */
        if (!(b & 0x80)) {
            s->p += i + 1;
            s->n -= i + 1;
            *v = r;
            return 1;
        }
    }
    return 0;
}

/* A length-delimited payload: its length varint, then that many bytes, cut
** from s into *out.  0 when the length runs past the end. */
static inline int pe_bytes(pe_span *s, pe_span *out)
{
    uint64_t len;
    if (!pe_varint(s, &len) || len > (uint64_t)s->n)
        return 0;
    out->p = s->p;
    out->n = (size_t)len;
    s->p += (size_t)len;
    s->n -= (size_t)len;
    return 1;
}

/* Skips the value of a field of wire type wt (0, 1, 2 or 5). */
static inline int pe_skip(pe_span *s, uint32_t wt)
{
    uint64_t v;
    pe_span t;
    switch (wt) {
    case 0: return pe_varint(s, &v);
    case 1:
    case 5: {
        size_t k = wt == 1 ? 8 : 4;
        if (s->n < k)
            return 0;
        s->p += k;
        s->n -= k;
        return 1;
    }
    case 2: return pe_bytes(s, &t);
    default: return 0;   /* groups (3, 4) and 6, 7 are not in tf.Example */
    }
}

/* The next tag: field number and wire type.  0 on a malformed tag. */
static inline int pe_tag(pe_span *s, uint32_t *field, uint32_t *wt)
{
    uint64_t t;
    if (!pe_varint(s, &t) || t > UINT32_MAX || (t >> 3) == 0)
        return 0;
    *field = (uint32_t)(t >> 3);
    *wt = (uint32_t)(t & 7);
    return 1;
}

/* The Feature value of the last map entry with key `key` in Example `ex`:
** 1 found, 0 absent, -1 malformed. */
static inline int pe_find(pe_span ex, const int32_t *key, int32_t key_len, pe_span *feature)
{
    int found = 0;
    while (ex.n) {
        uint32_t field, wt;
        pe_span feats;
        if (!pe_tag(&ex, &field, &wt))
            return -1;
        if (field != 1 || wt != 2) {
            if (!pe_skip(&ex, wt))
                return -1;
            continue;
        }
        if (!pe_bytes(&ex, &feats))
            return -1;
        while (feats.n) {       /* Features: only map entries (field 1) */
            pe_span entry, k, v;
            if (!pe_tag(&feats, &field, &wt) || field != 1 || wt != 2 || !pe_bytes(&feats, &entry))
                return -1;
            /* an entry is its key then its value, nothing else (as TensorFlow reads it) */
            if (!pe_tag(&entry, &field, &wt) || field != 1 || wt != 2 || !pe_bytes(&entry, &k) ||
                !pe_tag(&entry, &field, &wt) || field != 2 || wt != 2 || !pe_bytes(&entry, &v) || entry.n)
                return -1;
            if (k.n == (size_t)key_len) {
                size_t i;
                for (i = 0; i < k.n && k.p[i] == (uint8_t)key[i]; i++) {
                }
                if (i == k.n) {
                    *feature = v;
                    found = 1;
                }
            }
        }
    }
    return found;
}

/* Reads the list of Feature f, of TF dtype 1 (float), 9 (int64) or 7 (string,
** sparse features only: sm2c_string values pointing into f), into
** out[0, *got), at most max values.  0 when the kind is not `dtype`, there are
** more than max values, or the data is malformed.  As TensorFlow reads a list:
** the Feature's first byte is the kind's tag and what follows the list is
** ignored; a list is one packed run (bytes after it ignored; a float run's
** length rounded down to whole floats) or unpacked values only (floats: as
** many 5-byte fields as fit). */
/* BytesList { repeated bytes value = 1; }: each value a 0x0a field whose
** payload becomes an sm2c_string pointing into the example (no copy). */
static inline int pe_bytes_list(pe_span list, int32_t max, sm2c_string *out, int32_t *got)
{
    while (list.n) {
        pe_span v;
        if (list.p[0] != 0x0a || *got >= max)
            return 0;
        list.p++;
        list.n--;
        if (!pe_bytes(&list, &v))
            return 0;
        out[*got].data = v.p;
        out[*got].len = (int64_t)v.n;
        (*got)++;
    }
    return 1;
}

static inline int pe_list(pe_span f, int32_t dtype, int32_t max, void *out, int32_t *got)
{
    pe_span list;
    *got = 0;
    /* bytes_list = 1, float_list = 2, int64_list = 3 */
    if (!f.n || f.p[0] != (dtype == 7 ? 0x0a : dtype == 1 ? 0x12 : 0x1a))
        return 0;
    f.p++;
    f.n--;
    if (!pe_bytes(&f, &list))
        return 0;
    if (dtype == 7)
        return pe_bytes_list(list, max, (sm2c_string *)out, got);
    if (list.n && list.p[0] == 0x0a) {          /* packed: field 1, wire type 2 */
        pe_span packed;
        list.p++;
        list.n--;
        if (!pe_bytes(&list, &packed))
            return 0;
        if (dtype == 1) {
            if (packed.n / 4 > (size_t)max)
                return 0;
            for (; packed.n >= 4; packed.p += 4, packed.n -= 4) {
                uint32_t bits = (uint32_t)packed.p[0] | (uint32_t)packed.p[1] << 8 |
                                (uint32_t)packed.p[2] << 16 | (uint32_t)packed.p[3] << 24;
                memcpy((float *)out + (*got)++, &bits, sizeof bits);
            }
            return 1;
        }
        while (packed.n) {
            uint64_t u;
            int64_t v;
            if (!pe_varint(&packed, &u) || *got >= max)
                return 0;
            memcpy(&v, &u, sizeof v);
            ((int64_t *)out)[(*got)++] = v;
        }
        return 1;
    }
    if (dtype == 1) {                           /* unpacked floats: tag 0x0d, 4 bytes */
        size_t k, n = list.n / 5;
        if (n > (size_t)max)
            return 0;
        for (k = 0; k < n; k++) {
            const uint8_t *q = list.p + 5 * k;
            uint32_t bits = (uint32_t)q[1] | (uint32_t)q[2] << 8 | (uint32_t)q[3] << 16 | (uint32_t)q[4] << 24;
            if (q[0] != 0x0d)
                return 0;
            memcpy((float *)out + k, &bits, sizeof bits);
        }
        *got = (int32_t)n;
        return 1;
    }
    while (list.n) {                            /* unpacked int64: tag 0x08, a varint */
        uint64_t u;
        int64_t v;
        if (list.p[0] != 0x08)
            return 0;
        list.p++;
        list.n--;
        if (!pe_varint(&list, &u) || *got >= max)
            return 0;
        memcpy(&v, &u, sizeof v);
        ((int64_t *)out)[(*got)++] = v;
    }
    return 1;
}

/* Example i of a batch as a span; 0 when its length is invalid. */
static inline int pe_example(const sm2c_string *s, pe_span *ex)
{
    if (s->len < 0 || (s->len > 0 && !s->data) || (uint64_t)s->len > (uint64_t)SIZE_MAX)
        return 0;
    ex->p = s->data;
    ex->n = (size_t)s->len;
    return 1;
}

/* Feature `key` of serialized example s, as pe_find: 1 found (in *feature),
** 0 absent, -1 when the example or its features are malformed. */
static inline int pe_feature(const sm2c_string *s, const int32_t *key, int32_t key_len,
                             pe_span *feature)
{
    pe_span ex;

    if (!pe_example(s, &ex))
        return -1;
    return pe_find(ex, key, key_len, feature);
}

#endif
