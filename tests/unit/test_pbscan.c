/*
** test_pbscan.c: sm2c_pb_prescan() and sm2c_pb_unpack() on crafted bytes
** (docs/reliability.md P1-P6), a protobuf-c round trip, and every real
** saved_model.pb under ../shared/models.
*/
#define _POSIX_C_SOURCE 200809L
#include "sm2c_test.h"

#include <stdlib.h>

#include "load/pbwire.h"
#include "test_pb.h"
#include "saved_model.pb-c.h"
#include "tensor_bundle.pb-c.h"

#include "pb_inventory.h"

/* ---- building wire bytes ----------------------------------------------------- */

/* Bytes are prepended, so that nesting wraps everything built so far. */
typedef struct rb {
    uint8_t *buf;
    size_t cap, pos;  /* content is buf[pos, cap) */
} rb;

static rb rb_new(size_t cap)
{
    rb b = {malloc(cap), cap, cap};
    assert_non_null(b.buf);
    return b;
}

static size_t rb_len(const rb *b) { return b->cap - b->pos; }
static const uint8_t *rb_data(const rb *b) { return b->buf + b->pos; }

static void rb_bytes(rb *b, const void *d, size_t n)
{
    assert_true(n <= b->pos);
    b->pos -= n;
    memcpy(b->buf + b->pos, d, n);
}

static void rb_varint(rb *b, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;
    do {
        tmp[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
        v >>= 7;
    } while (v);
    rb_bytes(b, tmp, n);
}

/* Wrap all content so far as length-delimited field `field`. */
static void rb_wrap(rb *b, uint32_t field)
{
    rb_varint(b, rb_len(b));
    rb_varint(b, (uint64_t)field << 3 | 2);
}

/* Prepend field `field` holding string/bytes `s` of length n. */
static void rb_string(rb *b, uint32_t field, const char *s, size_t n)
{
    rb_bytes(b, s, n);
    rb_varint(b, n);
    rb_varint(b, (uint64_t)field << 3 | 2);
}

/* ---- helpers ---------------------------------------------------------------- */

static ProtobufCMessage *unpack(test_ctx *t, const ProtobufCMessageDescriptor *d, const void *buf,
                                size_t len)
{
    return unpack_or_null(&t->ctx, "saved_model.pb", d, buf, len);
}

/* Expect a failed unpack whose first error contains `needle`. */
static void expect_error(const ProtobufCMessageDescriptor *d, const void *buf, size_t len,
                         sm2c_status kind, const char *needle)
{
    test_ctx *t = test_ctx_new();
    ProtobufCMessage *m = unpack(t, d, buf, len);
    if (m)
        fail_msg("accepted; wanted \"%s\"", needle);
    assert_int_equal(t->diag.errors, 1);
    assert_int_equal(t->diag.first_status, kind);
    assert_error_contains(t, needle);
    test_ctx_free(t);
}

#define EXPECT(desc, bytes, kind, needle) \
    expect_error(&(desc), (bytes), sizeof(bytes) - 1, (kind), (needle))
#define SM tensorflow__saved_model__descriptor

/* ---- P1: wire-level garbage ---------------------------------------------------- */

static void test_random_bytes(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15u;
    int failed = 0;
    for (int i = 0; i < 2000; i++) {
        uint8_t buf[96];
        size_t n = 1 + i % 96;
        for (size_t j = 0; j < n; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            buf[j] = (uint8_t)x;
        }
        test_ctx *t = test_ctx_new();
        if (!unpack(t, &SM, buf, n)) {
            failed++;
            assert_int_equal(t->diag.errors, 1);
            if (!strstr(t->diag.first, "saved_model.pb: error: protobuf parse error at offset ") &&
                !strstr(t->diag.first, "message nesting depth") &&
                !strstr(t->diag.first, "duplicate key"))
                fail_msg("odd error: %s", t->diag.first);
        }
        test_ctx_free(t);
    }
    assert_true(failed > 1900);
    EXPECT(SM, "\xff\xff\xff\xff\xff\xff", SM2C_ERR_INVALID,
           "protobuf parse error at offset 0: field key longer than 5 bytes");
}

static void test_tag_zero(void **state)
{
    (void)state;
    EXPECT(SM, "\x00", SM2C_ERR_INVALID,
           "saved_model.pb: error: protobuf parse error at offset 0: tag with field number 0 "
           "in tensorflow.SavedModel");
    EXPECT(SM, "\x08\x01\x02\x00", SM2C_ERR_INVALID,
           "protobuf parse error at offset 2: tag with field number 0");
    /* field 0 spelled in two bytes; protobuf-c would take it as an unknown field */
    EXPECT(SM, "\x80\x00", SM2C_ERR_INVALID, "at offset 0: tag with field number 0");
    /* a key beyond 32 bits */
    EXPECT(SM, "\x80\x80\x80\x80\x10", SM2C_ERR_INVALID, "at offset 0: field number too large");
    EXPECT(SM, "\x12\x02\x12\x00\x12\x01\x00", SM2C_ERR_INVALID,
           "at offset 6: tag with field number 0 in meta_graphs[1]");
}

static void test_wire_types(void **state)
{
    (void)state;
    EXPECT(SM, "\x08\x01\x7b", SM2C_ERR_INVALID,
           "at offset 2: wire type 3 (group) is not supported in field 15 of tensorflow.SavedModel");
    EXPECT(SM, "\x7c", SM2C_ERR_INVALID, "at offset 0: wire type 4 (group) is not supported");
    EXPECT(SM, "\x7e", SM2C_ERR_INVALID, "at offset 0: wire type 6 is not valid");
    EXPECT(SM, "\x0f", SM2C_ERR_INVALID, "at offset 0: wire type 7 is not valid in field 1");
    /* inside a nested message the path is named */
    EXPECT(SM, "\x12\x02\x12\x00\x12\x01\x0b", SM2C_ERR_INVALID,
           "at offset 6: wire type 3 (group) is not supported in field 1 of meta_graphs[1]");
}

static void test_varints(void **state)
{
    (void)state;
    EXPECT(SM, "\x08\x80\x80", SM2C_ERR_INVALID,
           "at offset 1: unterminated varint in saved_model_schema_version");
    EXPECT(SM, "\x08\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", SM2C_ERR_INVALID,
           "at offset 1: varint longer than 10 bytes in saved_model_schema_version");
    EXPECT(SM, "\x78\xff", SM2C_ERR_INVALID, "at offset 1: unterminated varint in field 15");
    EXPECT(SM, "\x08", SM2C_ERR_INVALID, "at offset 1: unterminated varint");
    EXPECT(SM, "\x88", SM2C_ERR_INVALID, "at offset 0: unterminated field key");
    /* ten bytes are fine, even with bits beyond 64 (protobuf-c ignores them) */
    test_ctx *t = test_ctx_new();
    const uint8_t ten[] = "\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01";
    Tensorflow__SavedModel *m = (Tensorflow__SavedModel *)unpack(t, &SM, ten, sizeof ten - 1);
    assert_non_null(m);
    assert_int_equal(m->saved_model_schema_version, -1);
    test_ctx_free(t);
}

static void test_lengths(void **state)
{
    (void)state;
    EXPECT(SM, "\x12\x64\x00\x00\x00", SM2C_ERR_INVALID,
           "at offset 1: length 100 runs past the end of the data (3 bytes left) in meta_graphs[0]");
    /* past the end of the enclosing message, though not of the data */
    EXPECT(SM, "\x12\x03\x12\x05\x00\x00\x00\x00\x00\x00", SM2C_ERR_INVALID,
           "at offset 3: length 5 runs past the end of the enclosing message (1 bytes left) "
           "in meta_graphs[0].graph_def");
    EXPECT(SM, "\x12\xff\xff\xff\xff\x0f", SM2C_ERR_INVALID,
           "at offset 1: length 4294967295 exceeds INT_MAX in meta_graphs[0]");
    EXPECT(SM, "\x7a\x80\x80\x80\x80\x08", SM2C_ERR_INVALID,
           "at offset 1: length 2147483648 exceeds INT_MAX in field 15");
    EXPECT(SM, "\x12\x80\x80\x80\x80\x80\x00", SM2C_ERR_INVALID,
           "at offset 1: length prefix longer than 5 bytes");
    EXPECT(SM, "\x12\x80", SM2C_ERR_INVALID, "at offset 1: unterminated length prefix");
}

static void test_type_mismatch(void **state)
{
    (void)state;
    EXPECT(SM, "\x10\x01", SM2C_ERR_INVALID,
           "at offset 0: wire type 0 does not match the declared type repeated message "
           "in meta_graphs[0]");
    EXPECT(SM, "\x0a\x01\x01", SM2C_ERR_INVALID,
           "wire type 2 does not match the declared type int64 in saved_model_schema_version");
    EXPECT(tensorflow__saver_def__descriptor, "\x35\x00\x00", SM2C_ERR_INVALID,
           "at offset 1: fixed32 value truncated (2 of 4 bytes) in keep_checkpoint_every_n_hours");
    EXPECT(SM, "\x79\x00\x00\x00", SM2C_ERR_INVALID,
           "at offset 1: fixed64 value truncated (3 of 8 bytes) in field 15");
    EXPECT(tensorflow__bundle_entry_proto__descriptor, "\x30\x01", SM2C_ERR_INVALID,
           "wire type 0 does not match the declared type fixed32 in crc32c");
}

static void test_packed(void **state)
{
    (void)state;
    /* TensorProto.float_val (5): packed and unpacked forms are both fine */
    const uint8_t both[] = "\x2a\x08\x00\x00\x80\x3f\x00\x00\x00\x40"  /* packed [1, 2] */
                           "\x2d\x00\x00\x40\x40"                      /* unpacked 3 */
                           "\x3a\x03\x01\x7f\x05"                      /* int_val packed */
                           "\x38\x09";                                 /* int_val unpacked */
    test_ctx *t = test_ctx_new();
    Tensorflow__TensorProto *tp = (Tensorflow__TensorProto *)unpack(
        t, &tensorflow__tensor_proto__descriptor, both, sizeof both - 1);
    assert_non_null(tp);
    assert_int_equal(tp->n_float_val, 3);
    assert_true(tp->float_val[2] == 3.0f);
    assert_int_equal(tp->n_int_val, 4);
    assert_int_equal(tp->int_val[1], 127);
    assert_int_equal(tp->int_val[3], 9);
    test_ctx_free(t);

    EXPECT(tensorflow__tensor_proto__descriptor, "\x2a\x06\x00\x00\x80\x3f\x00\x00",
           SM2C_ERR_INVALID,
           "at offset 2: packed fixed32 payload is not a multiple of 4 bytes in float_val[0]");
    EXPECT(tensorflow__tensor_proto__descriptor, "\x3a\x02\x01\x80", SM2C_ERR_INVALID,
           "at offset 3: unterminated varint in packed payload in int_val[0]");
    /* a packed run for a non-repeated scalar is a mismatch */
    EXPECT(tensorflow__tensor_proto__descriptor, "\x1a\x01\x01", SM2C_ERR_INVALID,
           "wire type 2 does not match the declared type int32 in version_number");
}

/* ---- P2: nesting ------------------------------------------------------------------ */

/* AttrValue.list.func.attr["a"].value, `cycles` times: 4 message levels each. */
static rb attr_chain(int cycles, int extra_level)
{
    rb b = rb_new((size_t)cycles * 40 + 64);
    if (extra_level)
        rb_wrap(&b, 7);  /* shape {} inside the innermost AttrValue */
    for (int i = 0; i < cycles; i++) {
        rb_wrap(&b, 2);              /* AttrEntry.value */
        rb_string(&b, 1, "a", 1);    /* AttrEntry.key */
        rb_wrap(&b, 2);              /* NameAttrList.attr */
        rb_string(&b, 1, "f", 1);    /* NameAttrList.name */
        rb_wrap(&b, 9);              /* ListValue.func */
        rb_wrap(&b, 1);              /* AttrValue.list */
    }
    return b;
}

static void test_nesting_attr_value(void **state)
{
    (void)state;
    rb b = attr_chain(2500, 0);  /* 10,000 levels */
    test_ctx *t = test_ctx_new();
    assert_null(unpack(t, &tensorflow__attr_value__descriptor, rb_data(&b), rb_len(&b)));
    assert_int_equal(t->diag.first_status, SM2C_ERR_LIMIT);
    assert_error_contains(t, "saved_model.pb: error: message nesting depth 101 exceeds limit 100 at offset ");
    assert_error_contains(t, " in list.func[0].attr[\"a\"].value.list.func[0]");
    test_ctx_free(t);
    free(b.buf);

    /* exactly 100 levels pass; one more does not */
    b = attr_chain(25, 0);
    t = test_ctx_new();
    assert_non_null(unpack(t, &tensorflow__attr_value__descriptor, rb_data(&b), rb_len(&b)));
    test_ctx_free(t);
    free(b.buf);
    b = attr_chain(25, 1);
    t = test_ctx_new();
    assert_null(unpack(t, &tensorflow__attr_value__descriptor, rb_data(&b), rb_len(&b)));
    assert_error_contains(t, "message nesting depth 101 exceeds limit 100");
    assert_error_contains(t, ".value.shape");
    test_ctx_free(t);

    /* the limit is a setting */
    t = test_ctx_new();
    t->limits.nesting_depth = 101;
    assert_non_null(unpack(t, &tensorflow__attr_value__descriptor, rb_data(&b), rb_len(&b)));
    test_ctx_free(t);
    free(b.buf);
}

static void test_nesting_structured_value(void **state)
{
    (void)state;
    rb b = rb_new(10000 * 12);
    for (int i = 0; i < 5000; i++) {
        rb_wrap(&b, 1);   /* ListValue.values */
        rb_wrap(&b, 51);  /* StructuredValue.list_value */
    }
    test_ctx *t = test_ctx_new();
    assert_null(unpack(t, &tensorflow__structured_value__descriptor, rb_data(&b), rb_len(&b)));
    assert_int_equal(t->diag.first_status, SM2C_ERR_LIMIT);
    assert_error_contains(t, "message nesting depth 101 exceeds limit 100 at offset ");
    assert_error_contains(t, "list_value.values[0].list_value");
    test_ctx_free(t);
    free(b.buf);
}

/* Unknown fields are skipped whole, so nesting inside them does not count. */
static void test_nesting_in_unknown_fields(void **state)
{
    (void)state;
    rb b = rb_new(10000 * 8 + 64);
    for (int i = 0; i < 10000; i++)
        rb_wrap(&b, 99);
    rb_wrap(&b, 7);       /* MetaGraphDef.object_graph_def */
    rb_wrap(&b, 2);       /* SavedModel.meta_graphs */
    rb_varint(&b, 1);
    rb_varint(&b, 1 << 3); /* saved_model_schema_version: 1 */
    test_ctx *t = test_ctx_new();
    Tensorflow__SavedModel *m = (Tensorflow__SavedModel *)unpack(t, &SM, rb_data(&b), rb_len(&b));
    assert_non_null(m);
    assert_int_equal(t->diag.errors, 0);
    assert_int_equal(m->n_meta_graphs, 1);
    assert_non_null(m->meta_graphs[0]->object_graph_def);
    assert_int_equal(m->meta_graphs[0]->object_graph_def->base.n_unknown_fields, 1);
    test_ctx_free(t);
    free(b.buf);
}

/* ---- P3: memory stays bounded by the input ------------------------------------------ */

/* 2 million empty nodes in 4 MB would make protobuf-c allocate ~200 MB. */
static void test_decode_budget(void **state)
{
    (void)state;
    size_t n = 2000000;
    uint8_t *buf = malloc(2 * n);
    assert_non_null(buf);
    for (size_t i = 0; i < n; i++)
        buf[2 * i] = 0x0a, buf[2 * i + 1] = 0x00;  /* node {} */
    test_ctx *t = test_ctx_new();
    t->limits.decoded_bytes = (int64_t)68 << 20;
    assert_null(unpack(t, &tensorflow__graph_def__descriptor, buf, 2 * n));
    assert_int_equal(t->diag.first_status, SM2C_ERR_LIMIT);
    assert_error_contains(t, "saved_model.pb: error: decoding needs more than 68 MiB of memory at offset ");
    assert_error_contains(t, "(--limit decoded-bytes=N raises it)");
    test_ctx_free(t);
    free(buf);
}

/* ---- P4: strings ------------------------------------------------------------------ */

static void test_nul_in_name(void **state)
{
    (void)state;
    rb node1 = rb_new(64);
    rb_string(&node1, 1, "a\0b", 3);
    rb g = rb_new(256);
    rb_bytes(&g, rb_data(&node1), rb_len(&node1));
    rb_varint(&g, rb_len(&node1));
    rb_varint(&g, 1 << 3 | 2);          /* node[1] */
    rb_bytes(&g, "\x0a\x04\x0a\x02ok", 6);  /* node[0] { name: "ok" } */
    rb_wrap(&g, 2);                     /* MetaGraphDef.graph_def */
    rb_wrap(&g, 2);                     /* SavedModel.meta_graphs */
    test_ctx *t = test_ctx_new();
    assert_null(unpack(t, &SM, rb_data(&g), rb_len(&g)));
    assert_int_equal(t->diag.first_status, SM2C_ERR_INVALID);
    assert_error_contains(t, "protobuf parse error at offset 14: "
                             "meta_graphs[0].graph_def.node[1].name contains NUL byte at position 1");
    test_ctx_free(t);
    free(node1.buf);
    free(g.buf);

    /* in repeated strings and map keys too; bytes fields may hold NULs */
    EXPECT(tensorflow__node_def__descriptor, "\x1a\x01x\x1a\x02y\x00", SM2C_ERR_INVALID,
           "input[1] contains NUL byte at position 1");
    EXPECT(tensorflow__node_def__descriptor, "\x2a\x03\x0a\x01\x00", SM2C_ERR_INVALID,
           "attr[0].key contains NUL byte at position 0");
    test_ctx *t2 = test_ctx_new();
    assert_non_null(unpack(t2, &tensorflow__attr_value__descriptor, "\x12\x02\x00\x01", 4));
    test_ctx_free(t2);
}

static void test_invalid_utf8(void **state)
{
    (void)state;
    EXPECT(tensorflow__node_def__descriptor, "\x12\x03" "A\xc3\x28", SM2C_ERR_INVALID,
           "op is not valid UTF-8: bad byte at position 1");
    EXPECT(tensorflow__node_def__descriptor, "\x0a\x03\xed\xa0\x80", SM2C_ERR_INVALID,
           "name is not valid UTF-8");  /* a surrogate */
    EXPECT(tensorflow__node_def__descriptor, "\x0a\x02\xc0\x80", SM2C_ERR_INVALID,
           "name is not valid UTF-8");  /* overlong NUL */
    test_ctx *t = test_ctx_new();
    Tensorflow__NodeDef *n = (Tensorflow__NodeDef *)unpack(
        t, &tensorflow__node_def__descriptor, "\x0a\x07\xc3\xa9\xe2\x9c\x93\x41\x42", 9);
    assert_non_null(n);
    assert_string_equal(n->name, "\xc3\xa9\xe2\x9c\x93" "AB");
    test_ctx_free(t);
}

/* ---- P5: duplicate map keys ------------------------------------------------------- */

static void test_duplicate_attr(void **state)
{
    (void)state;
    Tensorflow__AttrValue v;
    tensorflow__attr_value__init(&v);
    v.value_case = TENSORFLOW__ATTR_VALUE__VALUE_TYPE;
    v.type = TENSORFLOW__DATA_TYPE__DT_FLOAT;
    Tensorflow__NodeDef__AttrEntry e[3] = {
        TENSORFLOW__NODE_DEF__ATTR_ENTRY__INIT, TENSORFLOW__NODE_DEF__ATTR_ENTRY__INIT,
        TENSORFLOW__NODE_DEF__ATTR_ENTRY__INIT,
    };
    e[0].key = "T", e[1].key = "N", e[2].key = "T";
    e[0].value = e[1].value = e[2].value = &v;
    Tensorflow__NodeDef__AttrEntry *ep[3] = {&e[0], &e[1], &e[2]};
    Tensorflow__NodeDef node = TENSORFLOW__NODE_DEF__INIT;
    node.name = "add";
    node.op = "Add";
    node.n_attr = 3;
    node.attr = ep;
    Tensorflow__NodeDef *np[2] = {&node, &node};
    Tensorflow__GraphDef g = TENSORFLOW__GRAPH_DEF__INIT;
    g.n_node = 2;
    g.node = np;
    uint8_t buf[512];
    size_t n = tensorflow__graph_def__pack(&g, buf);
    test_ctx *t = test_ctx_new();
    assert_null(unpack(t, &tensorflow__graph_def__descriptor, buf, n));
    assert_int_equal(t->diag.first_status, SM2C_ERR_INVALID);
    assert_error_contains(t, "saved_model.pb: error: duplicate key 'T' in node[0].attr");
    test_ctx_free(t);

    node.n_attr = 2;  /* T and N: fine */
    n = tensorflow__graph_def__pack(&g, buf);
    t = test_ctx_new();
    assert_non_null(unpack(t, &tensorflow__graph_def__descriptor, buf, n));
    test_ctx_free(t);
}

static void test_duplicate_signature(void **state)
{
    (void)state;
    Tensorflow__SignatureDef sig = TENSORFLOW__SIGNATURE_DEF__INIT;
    Tensorflow__MetaGraphDef__SignatureDefEntry e[2] = {
        TENSORFLOW__META_GRAPH_DEF__SIGNATURE_DEF_ENTRY__INIT,
        TENSORFLOW__META_GRAPH_DEF__SIGNATURE_DEF_ENTRY__INIT,
    };
    e[0].key = e[1].key = "serving_default";
    e[0].value = e[1].value = &sig;
    Tensorflow__MetaGraphDef__SignatureDefEntry *ep[2] = {&e[0], &e[1]};
    Tensorflow__MetaGraphDef mg = TENSORFLOW__META_GRAPH_DEF__INIT;
    mg.n_signature_def = 2;
    mg.signature_def = ep;
    Tensorflow__MetaGraphDef *mgp[1] = {&mg};
    Tensorflow__SavedModel sm = TENSORFLOW__SAVED_MODEL__INIT;
    sm.n_meta_graphs = 1;
    sm.meta_graphs = mgp;
    uint8_t buf[512];
    size_t n = tensorflow__saved_model__pack(&sm, buf);
    test_ctx *t = test_ctx_new();
    assert_null(unpack(t, &SM, buf, n));
    assert_error_contains(t, "duplicate key 'serving_default' in meta_graphs[0].signature_def");
    test_ctx_free(t);

    /* deeper: a duplicate input key, named through the map entry above it */
    Tensorflow__TensorInfo ti = TENSORFLOW__TENSOR_INFO__INIT;
    Tensorflow__SignatureDef__InputsEntry in[2] = {
        TENSORFLOW__SIGNATURE_DEF__INPUTS_ENTRY__INIT, TENSORFLOW__SIGNATURE_DEF__INPUTS_ENTRY__INIT,
    };
    in[0].key = in[1].key = "x";
    in[0].value = in[1].value = &ti;
    Tensorflow__SignatureDef__InputsEntry *inp[2] = {&in[0], &in[1]};
    sig.n_inputs = 2;
    sig.inputs = inp;
    mg.n_signature_def = 1;
    n = tensorflow__saved_model__pack(&sm, buf);
    t = test_ctx_new();
    assert_null(unpack(t, &SM, buf, n));
    assert_error_contains(t, "duplicate key 'x' in "
                             "meta_graphs[0].signature_def[\"serving_default\"].value.inputs");
    test_ctx_free(t);
}

static void test_duplicate_other_maps(void **state)
{
    (void)state;
    /* SavedObjectGraph.concrete_functions: entries {key: "f"} twice */
    EXPECT(tensorflow__saved_object_graph__descriptor, "\x12\x03\x0a\x01" "f" "\x12\x03\x0a\x01" "f",
           SM2C_ERR_INVALID, "duplicate key 'f' in concrete_functions");
    /* FunctionDef.resource_arg_unique_id, a map<uint32, uint32>; a missing key is 0 */
    EXPECT(tensorflow__function_def__descriptor,
           "\x42\x04\x08\x01\x10\x02" "\x42\x02\x10\x03" "\x42\x02\x08\x01",
           SM2C_ERR_INVALID, "duplicate key 1 in resource_arg_unique_id");
    EXPECT(tensorflow__function_def__descriptor, "\x42\x00\x42\x02\x08\x00", SM2C_ERR_INVALID,
           "duplicate key 0 in resource_arg_unique_id");
    /* maps inside lists inside maps: NameAttrList.attr under AttrValue.list.func */
    EXPECT(tensorflow__attr_value__descriptor,
           "\x0a\x0a\x4a\x08\x12\x02\x0a\x00\x12\x02\x0a\x00", SM2C_ERR_INVALID,
           "duplicate key '' in list.func[0].attr");
}

/* ---- P6: unknown enum values and fields ---------------------------------------------- */

static void test_unknown_enum_and_fields(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    /* dtype 9999, then unknown fields of every wire type */
    const uint8_t tp_bytes[] = "\x08\x8f\x4e"
                               "\xf8\x07\x05" "\xf9\x07\x01\x02\x03\x04\x05\x06\x07\x08"
                               "\xfa\x07\x02\x00\x00" "\xfd\x07\x01\x02\x03\x04";
    Tensorflow__TensorProto *tp = (Tensorflow__TensorProto *)unpack(
        t, &tensorflow__tensor_proto__descriptor, tp_bytes, sizeof tp_bytes - 1);
    assert_non_null(tp);
    assert_int_equal(tp->dtype, 9999);
    assert_int_equal(tp->base.n_unknown_fields, 4);
    Tensorflow__BundleHeaderProto *h = (Tensorflow__BundleHeaderProto *)unpack(
        t, &tensorflow__bundle_header_proto__descriptor, "\x10\x07", 2);
    assert_non_null(h);
    assert_int_equal(h->endianness, 7);
    assert_int_equal(t->diag.errors, 0);
    test_ctx_free(t);
}

/* ---- round trip and edge cases ---------------------------------------------------------- */

static void test_round_trip(void **state)
{
    (void)state;
    Tensorflow__TensorShapeProto__Dim d0 = TENSORFLOW__TENSOR_SHAPE_PROTO__DIM__INIT;
    d0.size = -1;
    Tensorflow__TensorShapeProto__Dim d1 = TENSORFLOW__TENSOR_SHAPE_PROTO__DIM__INIT;
    d1.size = 3;
    Tensorflow__TensorShapeProto__Dim *dims[2] = {&d0, &d1};
    Tensorflow__TensorShapeProto shp = TENSORFLOW__TENSOR_SHAPE_PROTO__INIT;
    shp.n_dim = 2;
    shp.dim = dims;
    float fv[3] = {1.5f, -0.0f, 3e38f};
    Tensorflow__TensorProto tp = TENSORFLOW__TENSOR_PROTO__INIT;
    tp.dtype = TENSORFLOW__DATA_TYPE__DT_FLOAT;
    tp.tensor_shape = &shp;
    tp.n_float_val = 3;
    tp.float_val = fv;
    tp.tensor_content = (ProtobufCBinaryData){4, (uint8_t *)"\0\1\2\377"};
    Tensorflow__AttrValue av;
    tensorflow__attr_value__init(&av);
    av.value_case = TENSORFLOW__ATTR_VALUE__VALUE_TENSOR;
    av.tensor = &tp;
    Tensorflow__NodeDef__AttrEntry ae = TENSORFLOW__NODE_DEF__ATTR_ENTRY__INIT;
    ae.key = "value";
    ae.value = &av;
    Tensorflow__NodeDef__AttrEntry *aep = &ae;
    char *inputs[2] = {"x", "^y"};
    Tensorflow__NodeDef node = TENSORFLOW__NODE_DEF__INIT;
    node.name = "w";
    node.op = "Const";
    node.n_input = 2;
    node.input = inputs;
    node.n_attr = 1;
    node.attr = &aep;
    Tensorflow__NodeDef *np = &node;
    Tensorflow__GraphDef g = TENSORFLOW__GRAPH_DEF__INIT;
    g.n_node = 1;
    g.node = &np;
    char *tags[1] = {"serve"};
    Tensorflow__MetaGraphDef__MetaInfoDef info = TENSORFLOW__META_GRAPH_DEF__META_INFO_DEF__INIT;
    info.n_tags = 1;
    info.tags = tags;
    Tensorflow__MetaGraphDef mg = TENSORFLOW__META_GRAPH_DEF__INIT;
    mg.meta_info_def = &info;
    mg.graph_def = &g;
    Tensorflow__MetaGraphDef *mgp = &mg;
    Tensorflow__SavedModel sm = TENSORFLOW__SAVED_MODEL__INIT;
    sm.saved_model_schema_version = 1;
    sm.n_meta_graphs = 1;
    sm.meta_graphs = &mgp;

    size_t n = tensorflow__saved_model__get_packed_size(&sm);
    uint8_t *a = malloc(n), *b = malloc(n);
    assert_int_equal(tensorflow__saved_model__pack(&sm, a), n);
    test_ctx *t = test_ctx_new();
    assert_int_equal(sm2c_pb_prescan(&t->ctx, "x.pb", a, n, &SM), SM2C_OK);
    ProtobufCMessage *m = unpack(t, &SM, a, n);
    assert_non_null(m);
    assert_int_equal(protobuf_c_message_get_packed_size(m), n);
    assert_int_equal(protobuf_c_message_pack(m, b), n);
    assert_memory_equal(a, b, n);
    const Tensorflow__SavedModel *u = (const Tensorflow__SavedModel *)m;
    const Tensorflow__NodeDef *un = u->meta_graphs[0]->graph_def->node[0];
    assert_string_equal(un->input[1], "^y");
    assert_int_equal(un->attr[0]->value->tensor->tensor_content.len, 4);
    assert_int_equal(un->attr[0]->value->tensor->tensor_shape->dim[0]->size, -1);
    test_ctx_free(t);
    free(a);
    free(b);
}

static void test_empty_and_truncated(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    Tensorflow__SavedModel *m = (Tensorflow__SavedModel *)unpack(t, &SM, NULL, 0);
    assert_non_null(m);
    assert_int_equal(m->n_meta_graphs, 0);
    test_ctx_free(t);
    /* a valid message cut short at every byte never crashes */
    const uint8_t full[] = "\x08\x01\x12\x0f\x0a\x07\x22\x05serve\x12\x04\x0a\x02\x0a\x00";
    for (size_t cut = 1; cut < sizeof full - 1; cut++) {
        t = test_ctx_new();
        if (!unpack(t, &SM, full, cut))
            assert_error_contains(t, "protobuf parse error at offset ");
        test_ctx_free(t);
    }
    t = test_ctx_new();
    m = (Tensorflow__SavedModel *)unpack(t, &SM, full, sizeof full - 1);
    assert_non_null(m);
    assert_string_equal(m->meta_graphs[0]->meta_info_def->tags[0], "serve");
    test_ctx_free(t);
}

/* ---- real models --------------------------------------------------------------------- */

typedef struct real_run {
    char *inventory;
    int checked;
} real_run;

static void check_real_pb(const char *model, const char *path, void *user)
{
    real_run *r = user;
    test_ctx *t = test_ctx_new();
    sm2c_buf buf;
    assert_int_equal(sm2c_read_file(&t->ctx, AT_FDCWD, path, path, t->limits.model_bytes, &buf),
                     SM2C_OK);
    Tensorflow__SavedModel *m = (Tensorflow__SavedModel *)unpack_or_null(&t->ctx, path, &SM,
                                                                        buf.data, buf.len);
    if (!m)
        fail_msg("%s: %s", model, t->diag.first);
    inv_model want;
    if (inv_load(r->inventory, model, &want)) {
        inv_check(&want, m, model);
        r->checked++;
    }
    test_ctx_free(t);
}

static void test_real_models(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    sm2c_buf inv;
    t->diag.quiet_notes = 1;
    if (sm2c_read_file(&t->ctx, AT_FDCWD, MODELS_DIR "/INVENTORY.txt", "INVENTORY.txt",
                       1 << 24, &inv) != SM2C_OK) {
        test_ctx_free(t);
        skip();
    }
    real_run r = {(char *)inv.data, 0};
    int n = inv_each_model("saved_model.pb", check_real_pb, &r);
    print_message("%d real saved_model.pb files unpacked, %d checked against INVENTORY.txt\n", n,
                  r.checked);
    assert_true(n > 0);
    assert_int_equal(r.checked, n);
    test_ctx_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_bytes),
        cmocka_unit_test(test_tag_zero),
        cmocka_unit_test(test_wire_types),
        cmocka_unit_test(test_varints),
        cmocka_unit_test(test_lengths),
        cmocka_unit_test(test_type_mismatch),
        cmocka_unit_test(test_packed),
        cmocka_unit_test(test_nesting_attr_value),
        cmocka_unit_test(test_nesting_structured_value),
        cmocka_unit_test(test_nesting_in_unknown_fields),
        cmocka_unit_test(test_decode_budget),
        cmocka_unit_test(test_nul_in_name),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_duplicate_attr),
        cmocka_unit_test(test_duplicate_signature),
        cmocka_unit_test(test_duplicate_other_maps),
        cmocka_unit_test(test_unknown_enum_and_fields),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_empty_and_truncated),
        cmocka_unit_test(test_real_models),
    };
    return cmocka_run_group_tests_name("pbscan", tests, NULL, NULL);
}
