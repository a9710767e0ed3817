/*
** test_pbtext.c: sm2c_pbtext_to_wire(): the text-format syntax TensorFlow
** writes, errors with line:col, the nesting limit, fixtures written by
** TensorFlow's own python protobuf (tests/models/gen_pbtext.py), and every
** real saved_model.pbtxt under ../shared/models.
*/
#define _POSIX_C_SOURCE 200809L
#include "sm2c_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "load/pbwire.h"
#include "test_pb.h"
#include "saved_model.pb-c.h"

#include "pb_inventory.h"

#define SM tensorflow__saved_model__descriptor

/* Text -> wire -> unpacked message; NULL (with the error in t->diag) on failure. */
static ProtobufCMessage *parse(test_ctx *t, const ProtobufCMessageDescriptor *d, const char *text)
{
    sm2c_buf wire;
    if (sm2c_pbtext_to_wire(&t->ctx, "t.pbtxt", text, strlen(text), d, &wire) != SM2C_OK)
        return NULL;
    return unpack_or_null(&t->ctx, "t.pbtxt", d, wire.data, wire.len);
}

static void expect_error(const ProtobufCMessageDescriptor *d, const char *text, sm2c_status kind,
                         const char *needle)
{
    test_ctx *t = test_ctx_new();
    if (parse(t, d, text))
        fail_msg("accepted \"%s\"; wanted \"%s\"", text, needle);
    assert_int_equal(t->diag.errors, 1);
    assert_int_equal(t->diag.first_status, kind);
    assert_error_contains(t, needle);
    test_ctx_free(t);
}

/* ---- syntax ------------------------------------------------------------------------ */

static void test_basic(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    Tensorflow__SavedModel *m = (Tensorflow__SavedModel *)parse(t, &SM,
        "saved_model_schema_version: 1\n"
        "meta_graphs {\n"
        "  meta_info_def { tags: \"serve\" tags: 'gpu' tensorflow_version: \"2.21.0\" }\n"
        "  graph_def { node { name: \"x\" op: \"Placeholder\" } node: { name: \"y\" } }\n"
        "}\n"
        "meta_graphs < saver_def < version: V2 max_to_keep: -5 sharded: true > >\n");
    assert_non_null(m);
    assert_int_equal(m->saved_model_schema_version, 1);
    assert_int_equal(m->n_meta_graphs, 2);
    Tensorflow__MetaGraphDef *mg = m->meta_graphs[0];
    assert_int_equal(mg->meta_info_def->n_tags, 2);
    assert_string_equal(mg->meta_info_def->tags[1], "gpu");
    assert_int_equal(mg->graph_def->n_node, 2);
    assert_string_equal(mg->graph_def->node[0]->op, "Placeholder");
    assert_string_equal(mg->graph_def->node[1]->name, "y");
    Tensorflow__SaverDef *sd = m->meta_graphs[1]->saver_def;
    assert_int_equal(sd->version, TENSORFLOW__SAVER_DEF__CHECKPOINT_FORMAT_VERSION__V2);
    assert_int_equal(sd->max_to_keep, -5);
    assert_true(sd->sharded);
    test_ctx_free(t);

    /* empty input, only comments: the empty message */
    t = test_ctx_new();
    m = (Tensorflow__SavedModel *)parse(t, &SM, "  # nothing here\n\n# at all");
    assert_non_null(m);
    assert_int_equal(m->n_meta_graphs, 0);
    test_ctx_free(t);
}

static void test_escapes(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    Tensorflow__TensorProto *tp = (Tensorflow__TensorProto *)parse(t,
        &tensorflow__tensor_proto__descriptor,
        "tensor_content: \"\\377\\000\\1\\12\\x41\\x4a\\xf\\n\\t\\r\\\"\\'\\\\\\a\\b\\f\\v\\?\"\n"
        "  'single \"quoted\"' \"\\u00e9\\U0001F600\"\n"
        "string_val: \"\" string_val: 'a#b' # not a comment inside quotes\n");
    assert_non_null(tp);
    static const char want[] = "\377\000\001\n\x41\x4a\x0f\n\t\r\"'\\\a\b\f\v?"
                               "single \"quoted\"\xc3\xa9\xf0\x9f\x98\x80";
    assert_int_equal(tp->tensor_content.len, sizeof want - 1);
    assert_memory_equal(tp->tensor_content.data, want, sizeof want - 1);
    assert_int_equal(tp->n_string_val, 2);
    assert_int_equal(tp->string_val[0].len, 0);
    assert_memory_equal(tp->string_val[1].data, "a#b", 3);
    test_ctx_free(t);
}

static void test_numbers(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    Tensorflow__TensorProto *tp = (Tensorflow__TensorProto *)parse(t,
        &tensorflow__tensor_proto__descriptor,
        "int_val: [1, -2, 0x10, 010, 2147483647, -2147483648]\n"
        "float_val: [1e-05, inf, -inf, nan, 1.5f, 2, .5, -0.0, 3.4028235e+38, -Infinity, 1E3]\n"
        "double_val: 0.1 double_val: -1e-300; double_val: 5e-324,\n"
        "int64_val: -9223372036854775808 int64_val: 0x7fffffffffffffff\n"
        "uint64_val: 18446744073709551615 uint32_val: 4294967295\n"
        "bool_val: [true, f, 1, False, t, 0]\n"
        "half_val: []\n"
        "version_number: -1\n");
    assert_non_null(tp);
    static const int32_t ints[] = {1, -2, 16, 8, INT32_MAX, INT32_MIN};
    assert_int_equal(tp->n_int_val, 6);
    assert_memory_equal(tp->int_val, ints, sizeof ints);
    assert_int_equal(tp->n_float_val, 11);
    assert_true(tp->float_val[0] == 1e-05f);
    assert_true(isinf(tp->float_val[1]) && tp->float_val[1] > 0);
    assert_true(isinf(tp->float_val[2]) && tp->float_val[2] < 0);
    assert_true(isnan(tp->float_val[3]));
    assert_true(tp->float_val[4] == 1.5f && tp->float_val[5] == 2.0f && tp->float_val[6] == 0.5f);
    assert_true(tp->float_val[7] == 0.0f && signbit(tp->float_val[7]));
    assert_true(tp->float_val[8] == 3.4028234663852886e38f);  /* rounds to FLT_MAX */
    assert_true(isinf(tp->float_val[9]) && tp->float_val[9] < 0);
    assert_true(tp->float_val[10] == 1000.0f);
    assert_int_equal(tp->n_double_val, 3);
    assert_true(tp->double_val[0] == 0.1 && tp->double_val[1] == -1e-300 &&
                tp->double_val[2] == 5e-324);
    assert_true(tp->int64_val[0] == INT64_MIN && tp->int64_val[1] == INT64_MAX);
    assert_true(tp->uint64_val[0] == UINT64_MAX && tp->uint32_val[0] == UINT32_MAX);
    static const protobuf_c_boolean bools[] = {1, 0, 1, 0, 1, 0};
    assert_int_equal(tp->n_bool_val, 6);
    assert_memory_equal(tp->bool_val, bools, sizeof bools);
    assert_int_equal(tp->n_half_val, 0);
    assert_int_equal(tp->version_number, -1);
    test_ctx_free(t);

    /* sint64 is zig-zag on the wire */
    t = test_ctx_new();
    Tensorflow__StructuredValue *sv = (Tensorflow__StructuredValue *)parse(t,
        &tensorflow__structured_value__descriptor, "int64_value: -3");
    assert_non_null(sv);
    assert_int_equal(sv->kind_case, TENSORFLOW__STRUCTURED_VALUE__KIND_INT64_VALUE);
    assert_int_equal(sv->int64_value, -3);
    test_ctx_free(t);
}

static void test_lists_of_messages(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    Tensorflow__GraphDef *g = (Tensorflow__GraphDef *)parse(t, &tensorflow__graph_def__descriptor,
        "node: [{ name: 'a' }, < name: 'b' >, {}]\n"
        "node: []\n"
        "node { name: 'c' input: ['a', 'b:1', '^x'] }\n");
    assert_non_null(g);
    assert_int_equal(g->n_node, 4);
    assert_string_equal(g->node[1]->name, "b");
    assert_string_equal(g->node[2]->name, "");
    assert_int_equal(g->node[3]->n_input, 3);
    assert_string_equal(g->node[3]->input[2], "^x");
    test_ctx_free(t);
}

static void test_maps_and_enums(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    Tensorflow__NodeDef *n = (Tensorflow__NodeDef *)parse(t, &tensorflow__node_def__descriptor,
        "name: \"add\"  # the node\n"
        "attr { key: \"T\" value { type: DT_FLOAT } }\n"
        "attr: { value: { type: 19 } key: 'U' }\n"
        "attr < key: \"V\" value < type: 9999 > >,\n"
        "attr { key: \"list\" value { list { type: [DT_INT32, DT_HALF_REF] i: -1 s: 'x' } } };\n"
        "attr { key: \"shape\" value { shape { dim { size: -1 } dim { size: 3 name: 'c' } } } }\n"
        "attr { key: \"empty\" }\n");
    assert_non_null(n);
    assert_int_equal(n->n_attr, 6);
    assert_string_equal(n->attr[0]->key, "T");
    assert_int_equal(n->attr[0]->value->type, TENSORFLOW__DATA_TYPE__DT_FLOAT);
    assert_string_equal(n->attr[1]->key, "U");
    assert_int_equal(n->attr[1]->value->type, TENSORFLOW__DATA_TYPE__DT_HALF);
    assert_int_equal(n->attr[2]->value->type, 9999);  /* unknown values are checked later */
    Tensorflow__AttrValue__ListValue *l = n->attr[3]->value->list;
    assert_int_equal(l->n_type, 2);
    assert_int_equal(l->type[1], TENSORFLOW__DATA_TYPE__DT_HALF_REF);
    assert_int_equal(l->i[0], -1);
    assert_int_equal(n->attr[4]->value->shape->dim[0]->size, -1);
    assert_string_equal(n->attr[4]->value->shape->dim[1]->name, "c");
    assert_null(n->attr[5]->value);
    test_ctx_free(t);

    /* integer keys */
    t = test_ctx_new();
    Tensorflow__FunctionDef *f = (Tensorflow__FunctionDef *)parse(t,
        &tensorflow__function_def__descriptor,
        "resource_arg_unique_id { key: 4294967295 value: 7 }\n"
        "arg_attr { key: 1 value { attr { key: '_user_specified_name' value { s: 'x' } } } }\n"
        "ret { key: 'out' value: 'Identity:output:0' }\n");
    assert_non_null(f);
    assert_int_equal(f->resource_arg_unique_id[0]->key, UINT32_MAX);
    assert_int_equal(f->arg_attr[0]->value->n_attr, 1);
    assert_string_equal(f->ret[0]->value, "Identity:output:0");
    test_ctx_free(t);

    /* enums declared in TF's variable.proto, spelled by name */
    t = test_ctx_new();
    Tensorflow__SavedVariable *v = (Tensorflow__SavedVariable *)parse(t,
        &tensorflow__saved_variable__descriptor,
        "dtype: DT_FLOAT synchronization: VARIABLE_SYNCHRONIZATION_ON_READ\n"
        "aggregation: VARIABLE_AGGREGATION_ONLY_FIRST_REPLICA name: 'v'\n");
    assert_non_null(v);
    assert_int_equal(v->synchronization, TENSORFLOW__VARIABLE_SYNCHRONIZATION__VARIABLE_SYNCHRONIZATION_ON_READ);
    assert_int_equal(v->aggregation, TENSORFLOW__VARIABLE_AGGREGATION__VARIABLE_AGGREGATION_ONLY_FIRST_REPLICA);
    test_ctx_free(t);

    /* duplicate keys are caught after translation */
    expect_error(&tensorflow__node_def__descriptor,
                 "attr { key: 'T' value { b: true } }\nattr { key: 'T' value { b: false } }",
                 SM2C_ERR_INVALID, "t.pbtxt: error: duplicate key 'T' in attr");
}

/* ---- errors -------------------------------------------------------------------------- */

static void test_errors(void **state)
{
    (void)state;
    const ProtobufCMessageDescriptor *nd = &tensorflow__node_def__descriptor;
    expect_error(nd, "name: 'x'\n  nme: 'y'", SM2C_ERR_INVALID,
                 "t.pbtxt:2:3: error: unknown field 'nme' in message tensorflow.NodeDef");
    expect_error(&SM, "meta_graphs {\n  graph_def {\n    node { name: 'a' }\n  }\n",
                 SM2C_ERR_INVALID,
                 "t.pbtxt:5:1: error: unexpected end of input: '{' opened at 1:13 is not closed");
    expect_error(nd, "name: 'a' }", SM2C_ERR_INVALID, "t.pbtxt:1:11: error: unexpected '}'");
    expect_error(nd, "attr { key: 'a' >", SM2C_ERR_INVALID,
                 "t.pbtxt:1:17: error: found '>' where '{' opened at 1:6 needs '}'");
    expect_error(nd, "name 'a'", SM2C_ERR_INVALID,
                 "t.pbtxt:1:6: error: expected ':' after field 'name', found ''a''");
    expect_error(nd, "name { }", SM2C_ERR_INVALID,
                 "1:6: error: expected ':' after field 'name', found '{'");
    expect_error(nd, "attr: 3", SM2C_ERR_INVALID,
                 "1:7: error: expected '{' after message field 'attr', found '3'");
    expect_error(nd, "name: 3", SM2C_ERR_INVALID, "1:7: error: expected a string for field 'name'");
    expect_error(nd, "name: 'a\nb'", SM2C_ERR_INVALID, "t.pbtxt:1:7: error: unterminated string");
    expect_error(nd, "name: 'a' name: 'b'", SM2C_ERR_INVALID,
                 "1:11: error: non-repeated field 'name' is given more than once");
    expect_error(nd, "name: ['a']", SM2C_ERR_INVALID,
                 "1:7: error: list given for non-repeated field 'name'");
    expect_error(nd, "input: ['a' 3]", SM2C_ERR_INVALID,
                 "1:13: error: expected ',' or ']' in list, found '3'");
    expect_error(nd, "input: ['a',]", SM2C_ERR_INVALID,
                 "1:13: error: expected a string for field 'input'");
    expect_error(nd, "name: 'a\\0b'", SM2C_ERR_INVALID,
                 "1:7: error: string field 'name' contains NUL byte at position 1");
    expect_error(nd, "name: 'a\\xc3('", SM2C_ERR_INVALID,
                 "1:7: error: string field 'name' is not valid UTF-8: bad byte at position 1");
    expect_error(nd, "name: 'a\\400'", SM2C_ERR_INVALID,
                 "octal escape \\400 is larger than one byte");
    expect_error(nd, "name: 'a\\q'", SM2C_ERR_INVALID, "unknown escape '\\q' in string");
    expect_error(nd, "name: '\\x'", SM2C_ERR_INVALID, "\\x escape without hex digits");
    expect_error(nd, "name: '\\ud800'", SM2C_ERR_INVALID, "not a Unicode scalar value");
    expect_error(nd, "name: 'a' @", SM2C_ERR_INVALID,
                 "t.pbtxt:1:11: error: unexpected character '@'");
    expect_error(nd, "name: 'a' \x01", SM2C_ERR_INVALID, "1:11: error: unexpected byte 0x01");
    expect_error(nd, "[type.googleapis.com/tensorflow.NodeDef] { name: 'a' }", SM2C_ERR_UNSUPPORTED,
                 "t.pbtxt:1:1: error: extension or Any expansion "
                 "'[type.googleapis.com/tensorflow.NodeDef]' is not supported");

    const ProtobufCMessageDescriptor *av = &tensorflow__attr_value__descriptor;
    expect_error(av, "s: 'a'\ni: 1", SM2C_ERR_INVALID,
                 "2:1: error: field 'i' is given along with 's' of the same oneof");
    expect_error(av, "type: DT_BOGUS", SM2C_ERR_INVALID,
                 "1:7: error: unknown value DT_BOGUS for enum tensorflow.DataType of field 'type'");
    expect_error(av, "b: yes", SM2C_ERR_INVALID,
                 "1:4: error: expected true or false for bool field 'b'");
    expect_error(av, "f: one", SM2C_ERR_INVALID,
                 "1:4: error: expected a number for float field 'f'");
    expect_error(av, "f: 0x1p3", SM2C_ERR_INVALID, "expected a number for float field 'f'");
    expect_error(av, "i: 1.5", SM2C_ERR_INVALID, "1:4: error: expected an integer for field 'i'");
    expect_error(av, "i: 9223372036854775808", SM2C_ERR_INVALID,
                 "integer 9223372036854775808 out of range for field 'i'");
    expect_error(av, "i: 99999999999999999999", SM2C_ERR_INVALID, "out of range for field 'i'");

    const ProtobufCMessageDescriptor *tp = &tensorflow__tensor_proto__descriptor;
    expect_error(tp, "int_val: 2147483648", SM2C_ERR_INVALID,
                 "integer 2147483648 out of range for field 'int_val'");
    expect_error(tp, "int_val: -2147483649", SM2C_ERR_INVALID, "out of range for field 'int_val'");
    expect_error(tp, "uint32_val: -1", SM2C_ERR_INVALID,
                 "1:14: error: negative value for unsigned field 'uint32_val'");
    expect_error(tp, "uint32_val: 4294967296", SM2C_ERR_INVALID,
                 "out of range for field 'uint32_val'");
    expect_error(tp, "int_val: 019", SM2C_ERR_INVALID, "expected an integer for field 'int_val'");
    expect_error(tp, "dtype: -DT_FLOAT", SM2C_ERR_INVALID, "unknown value DT_FLOAT for enum");
}

/* ---- nesting ----------------------------------------------------------------------------- */

/* AttrValue text: `cycles` x "list { func { attr { value {", 4 levels each. */
static char *attr_chain_text(int cycles, const char *inner)
{
    static const char open[] = "list { func { attr { key: 'a' value {\n";
    static const char close[] = "} } } }\n";
    size_t n = (size_t)cycles * (sizeof open + sizeof close) + strlen(inner) + 1;
    char *s = malloc(n), *p = s;
    assert_non_null(s);
    for (int i = 0; i < cycles; i++)
        p += sprintf(p, "%s", open);
    p += sprintf(p, "%s", inner);
    for (int i = 0; i < cycles; i++)
        p += sprintf(p, "%s", close);
    return s;
}

static void test_nesting(void **state)
{
    (void)state;
    const ProtobufCMessageDescriptor *av = &tensorflow__attr_value__descriptor;
    char *s = attr_chain_text(2500, "");  /* 10,000 levels */
    expect_error(av, s, SM2C_ERR_LIMIT,
                 "t.pbtxt:26:6: error: message nesting depth 101 exceeds limit 100");
    free(s);

    /* exactly 100 levels pass, 101 do not */
    s = attr_chain_text(25, "b: true");
    test_ctx *t = test_ctx_new();
    assert_non_null(parse(t, av, s));
    test_ctx_free(t);
    free(s);
    s = attr_chain_text(25, "shape { }");
    expect_error(av, s, SM2C_ERR_LIMIT, "t.pbtxt:26:7: error: message nesting depth 101 exceeds limit 100");
    free(s);

    /* StructuredValue.list_value.values, 2 levels each */
    size_t n = 5000;
    char *sv = malloc(n * 40 + 1), *p = sv;
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "list_value { values {");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "} }");
    expect_error(&tensorflow__structured_value__descriptor, sv, SM2C_ERR_LIMIT,
                 "message nesting depth 101 exceeds limit 100");
    free(sv);
}

/* Messages over 127 and 16383 bytes get multi-byte length prefixes. */
static void test_long_messages(void **state)
{
    (void)state;
    size_t n = 3000;
    char *s = malloc(n * 40 + 64), *p = s;
    p += sprintf(p, "meta_graphs { graph_def {");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, " node { name: 'n%zu' op: 'Const' }", i);
    p += sprintf(p, " } meta_info_def { tags: 'serve' } }");
    test_ctx *t = test_ctx_new();
    Tensorflow__SavedModel *m = (Tensorflow__SavedModel *)parse(t, &SM, s);
    assert_non_null(m);
    assert_int_equal(m->meta_graphs[0]->graph_def->n_node, n);
    assert_string_equal(m->meta_graphs[0]->graph_def->node[2999]->name, "n2999");
    assert_string_equal(m->meta_graphs[0]->meta_info_def->tags[0], "serve");
    test_ctx_free(t);
    free(s);
}

/* ---- TensorFlow's own text format ------------------------------------------------------ */

/* Map entries sorted by key, since TensorFlow's python text_format and its
** deterministic serialization disagree on the order ("f" < "flag" only in
** the text).  Test data is small, so recursion is fine here. */
static int entry_cmp(const void *a, const void *b)
{
    const ProtobufCMessage *x = *(const ProtobufCMessage *const *)a;
    const ProtobufCMessage *y = *(const ProtobufCMessage *const *)b;
    const ProtobufCFieldDescriptor *k = &x->descriptor->fields[0];
    const char *px = (const char *)x + k->offset, *py = (const char *)y + k->offset;
    if (k->type == PROTOBUF_C_TYPE_STRING)
        return strcmp(*(char *const *)px, *(char *const *)py);
    uint64_t u = 0, v = 0;
    size_t size = k->type == PROTOBUF_C_TYPE_INT64 || k->type == PROTOBUF_C_TYPE_UINT64 ? 8 : 4;
    memcpy(&u, px, size);
    memcpy(&v, py, size);
    return u < v ? -1 : u > v;
}

static void sort_maps(ProtobufCMessage *m)
{
    const ProtobufCMessageDescriptor *d = m->descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        char *base = (char *)m;
        if (f->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(size_t *)(base + f->quantifier_offset);
            ProtobufCMessage **e = *(ProtobufCMessage ***)(base + f->offset);
            const char *sn = ((const ProtobufCMessageDescriptor *)f->descriptor)->short_name;
            if (strlen(sn) > 5 && strcmp(sn + strlen(sn) - 5, "Entry") == 0)
                if (n > 1)
                    qsort(e, n, sizeof *e, entry_cmp);
            for (size_t j = 0; j < n; j++)
                sort_maps(e[j]);
        } else if (!(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) ||
                   *(uint32_t *)(base + f->quantifier_offset) == f->id) {
            ProtobufCMessage *sub = *(ProtobufCMessage **)(base + f->offset);
            if (sub)
                sort_maps(sub);
        }
    }
}

static uint8_t *pack(const ProtobufCMessage *m, size_t *n)
{
    *n = protobuf_c_message_get_packed_size(m);
    uint8_t *b = malloc(*n + 1);
    assert_non_null(b);
    assert_int_equal(protobuf_c_message_pack(m, b), *n);
    return b;
}

static void check_fixture(const char *name, const ProtobufCMessageDescriptor *d)
{
    char txt[512], pb[512];
    snprintf(txt, sizeof txt, "%s/data/pbtext/%s.pbtxt", SM2C_TEST_DATA, name);
    snprintf(pb, sizeof pb, "%s/data/pbtext/%s.pb", SM2C_TEST_DATA, name);
    test_ctx *t = test_ctx_new();
    sm2c_buf text, bin, wire;
    assert_int_equal(sm2c_read_file(&t->ctx, AT_FDCWD, txt, txt, 1 << 24, &text), SM2C_OK);
    assert_int_equal(sm2c_read_file(&t->ctx, AT_FDCWD, pb, pb, 1 << 24, &bin), SM2C_OK);
    if (sm2c_pbtext_to_wire(&t->ctx, txt, (const char *)text.data, text.len, d, &wire) != SM2C_OK)
        fail_msg("%s", t->diag.first);
    ProtobufCMessage *ours = unpack_or_null(&t->ctx, txt, d, wire.data, wire.len);
    ProtobufCMessage *theirs = unpack_or_null(&t->ctx, pb, d, bin.data, bin.len);
    if (!ours || !theirs)
        fail_msg("%s: %s", name, t->diag.first);
    sort_maps(ours);
    sort_maps(theirs);
    size_t n1, n2;
    uint8_t *a = pack(ours, &n1), *b = pack(theirs, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    free(a);
    free(b);
    test_ctx_free(t);
}

static void test_tensorflow_fixtures(void **state)
{
    (void)state;
    check_fixture("meta_graph_basic", &SM);
    check_fixture("object_graph", &SM);
    check_fixture("tensors", &SM);
    check_fixture("unicode_utf8", &SM);
    check_fixture("metagraph_small", &tensorflow__meta_graph_def__descriptor);
}

/* ---- real models ------------------------------------------------------------------------ */

typedef struct real_run {
    char *inventory;
    int checked;
} real_run;

static void check_real_pbtxt(const char *model, const char *path, void *user)
{
    real_run *r = user;
    test_ctx *t = test_ctx_new();
    sm2c_buf text, wire;
    assert_int_equal(sm2c_read_file(&t->ctx, AT_FDCWD, path, path, t->limits.model_bytes, &text),
                     SM2C_OK);
    if (sm2c_pbtext_to_wire(&t->ctx, path, (const char *)text.data, text.len, &SM, &wire) != SM2C_OK)
        fail_msg("%s", t->diag.first);
    Tensorflow__SavedModel *m = (Tensorflow__SavedModel *)unpack_or_null(&t->ctx, path, &SM,
                                                                        wire.data, wire.len);
    if (!m)
        fail_msg("%s: %s", model, t->diag.first);
    inv_model want;
    assert_true(inv_load(r->inventory, model, &want));
    inv_check(&want, m, model);
    r->checked++;
    test_ctx_free(t);
}

static void test_real_models(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    sm2c_buf inv;
    if (sm2c_read_file(&t->ctx, AT_FDCWD, MODELS_DIR "/INVENTORY.txt", "INVENTORY.txt",
                       1 << 24, &inv) != SM2C_OK) {
        test_ctx_free(t);
        skip();
    }
    real_run r = {(char *)inv.data, 0};
    int n = inv_each_model("saved_model.pbtxt", check_real_pbtxt, &r);
    print_message("%d real saved_model.pbtxt files parsed and checked against INVENTORY.txt\n", n);
    assert_true(n >= 3);
    assert_int_equal(r.checked, n);

    /* spot check from the brief */
    inv_model k;
    assert_true(inv_load(r.inventory, "tfdeploy_keras_multiple_1_13_1_pbtxt", &k));
    assert_int_equal(k.meta_graphs, 1);
    assert_int_equal(k.nodes, 8);
    assert_int_equal(k.nsig, 1);
    assert_string_equal(k.sig[0].key, "serving_default");
    assert_string_equal(k.sig[0].inputs, "input1,input2,");
    test_ctx_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_lists_of_messages),
        cmocka_unit_test(test_maps_and_enums),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_long_messages),
        cmocka_unit_test(test_tensorflow_fixtures),
        cmocka_unit_test(test_real_models),
    };
    return cmocka_run_group_tests_name("pbtext", tests, NULL, NULL);
}
