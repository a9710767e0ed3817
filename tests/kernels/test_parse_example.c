/* test_parse_example.c: sm2c_rt_parse_example_dense on hand-made tf.Example
** protos.  The expected results of the well-formed and quirky cases are what
** TensorFlow 2.21's tf.io.parse_example gives on the same bytes (x: float
** [2] with default [9, 9]; r: int64 [] required); the malformed ones
** (truncated varints, lengths past the end, wrong wire types, huge lengths,
** nested garbage) must give SM2C_RT_ERR_EXAMPLE.  Every proto is copied into a
** buffer of exactly its size, so a read past its end is a sanitizer error. */
#include <stdlib.h>

#include "sm2c_test.h"
#include "sm2c_rt.h"

typedef struct pb {
    uint8_t b[512];
    size_t n;
} pb;

static void put(pb *p, const void *d, size_t n)
{
    assert_true(p->n + n <= sizeof p->b);
    memcpy(p->b + p->n, d, n);
    p->n += n;
}

static void varint(pb *p, uint64_t v)
{
    do {
        uint8_t byte = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v)
            byte |= 0x80;
        put(p, &byte, 1);
    } while (v);
}

/* Field f, wire type 2, holding q. */
static pb ld(uint32_t f, const pb *q)
{
    pb p = { { 0 }, 0 };
    varint(&p, (uint64_t)f << 3 | 2);
    varint(&p, q->n);
    put(&p, q->b, q->n);
    return p;
}

static pb cat(const pb *a, const pb *b)
{
    pb p = *a;
    put(&p, b->b, b->n);
    return p;
}

static pb raw(const char *s, size_t n)
{
    pb p = { { 0 }, 0 };
    put(&p, s, n);
    return p;
}

/* FloatList / Int64List Features, packed or not. */
static pb floats(const float *v, int n, int packed)
{
    pb list = { { 0 }, 0 }, vals = { { 0 }, 0 };
    for (int i = 0; i < n; i++) {
        uint32_t u;
        uint8_t le[4];
        memcpy(&u, &v[i], 4);
        for (int k = 0; k < 4; k++)
            le[k] = (uint8_t)(u >> (8 * k));
        if (!packed)
            varint(&list, 1 << 3 | 5);
        put(packed ? &vals : &list, le, 4);
    }
    if (packed)
        list = ld(1, &vals);
    return ld(2, &list);
}

static pb ints(const int64_t *v, int n, int packed)
{
    pb list = { { 0 }, 0 }, vals = { { 0 }, 0 };
    for (int i = 0; i < n; i++) {
        if (!packed)
            varint(&list, 1 << 3 | 0);
        varint(packed ? &vals : &list, (uint64_t)v[i]);
    }
    if (packed)
        list = ld(1, &vals);
    return ld(3, &list);
}

static pb entry(const char *key, const pb *feature)
{
    pb k = raw(key, strlen(key)), e = ld(1, &k), v = ld(2, feature);
    e = cat(&e, &v);
    return ld(1, &e);
}

/* Example { features { entries } } */
static pb example(const pb *entries)
{
    return ld(1, entries);
}

static const int32_t KEY_X[1] = { 'x' }, KEY_R[1] = { 'r' };

/* Parses x (float [2], default 9, 9) and r (int64, required) from one proto
** copied to an exact-size buffer; returns the worse status. */
static int32_t parse(const pb *p, float x[2], int64_t *r)
{
    uint8_t *copy = malloc(p->n ? p->n : 1);
    const float dx[2] = { 9, 9 };
    assert_non_null(copy);
    memcpy(copy, p->b, p->n);
    sm2c_string s = { p->n ? copy : NULL, (int64_t)p->n };
    int32_t a = sm2c_rt_parse_example_dense(&s, 1, KEY_X, 1, 1, 2, dx, x);
    int32_t b = sm2c_rt_parse_example_dense(&s, 1, KEY_R, 1, 9, 1, NULL, r);
    free(copy);
    return a ? a : b;
}

static const float F12[2] = { 1, 2 }, F34[2] = { 3, 4 }, F123[3] = { 1, 2, 3 };
static const int64_t I5[1] = { 5 }, I12[2] = { 1, 2 };

static pb base_r(void)
{
    pb f = ints(I5, 1, 1);
    return entry("r", &f);
}

static void expect_ok(const pb *p, float x0, float x1, int64_t r)
{
    float x[2] = { 0, 0 };
    int64_t got = 0;
    assert_int_equal(parse(p, x, &got), SM2C_RT_OK);
    assert_true(x[0] == x0 && x[1] == x1);
    assert_int_equal(got, r);
}

static void expect_err(const pb *p)
{
    float x[2];
    int64_t r;
    assert_int_equal(parse(p, x, &r), SM2C_RT_ERR_EXAMPLE);
}

static void test_well_formed(void **state)
{
    (void)state;
    pb r = base_r(), fx = floats(F12, 2, 1), x = entry("x", &fx), es = cat(&r, &x), ex = example(&es);
    expect_ok(&ex, 1, 2, 5);
    /* unpacked lists */
    pb ru = ints(I5, 1, 0), fu = floats(F12, 2, 0), re = entry("r", &ru), xe = entry("x", &fu);
    es = cat(&re, &xe);
    ex = example(&es);
    expect_ok(&ex, 1, 2, 5);
    /* x missing: its default */
    ex = example(&r);
    expect_ok(&ex, 9, 9, 5);
    /* x with no kind (an empty Feature): the default, as in TensorFlow */
    pb empty = { { 0 }, 0 }, xe0 = entry("x", &empty);
    es = cat(&r, &xe0);
    ex = example(&es);
    expect_ok(&ex, 9, 9, 5);
    /* a repeated key: the last entry wins, earlier ones are not read */
    pb f34 = floats(F34, 2, 1), x34 = entry("x", &f34), ibad = ints(I5, 1, 1), xbad = entry("x", &ibad);
    es = cat(&r, &x);
    es = cat(&es, &x34);
    ex = example(&es);
    expect_ok(&ex, 3, 4, 5);
    es = cat(&r, &xbad);
    es = cat(&es, &x34);
    ex = example(&es);
    expect_ok(&ex, 3, 4, 5);
    /* two `features` fields merge; an unknown Example field is skipped */
    pb e1 = example(&r), e2 = example(&x);
    ex = cat(&e1, &e2);
    expect_ok(&ex, 1, 2, 5);
    pb unk = { { 0 }, 0 };
    varint(&unk, 2 << 3 | 0);
    varint(&unk, 7);
    es = cat(&r, &x);
    ex = example(&es);
    ex = cat(&ex, &unk);
    expect_ok(&ex, 1, 2, 5);
    /* bytes after a Feature's list, and a packed run's odd tail, are ignored */
    pb tail = raw("\x0a\x00", 2), fxt = cat(&fx, &tail), xt = entry("x", &fxt);
    es = cat(&r, &xt);
    ex = example(&es);
    expect_ok(&ex, 1, 2, 5);
    /* a 10-byte varint: -1 */
    pb neg = raw("\x1a\x0c\x0a\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 14), rn = entry("r", &neg);
    es = cat(&rn, &x);
    ex = example(&es);
    expect_ok(&ex, 1, 2, -1);
}

static void test_semantic_errors(void **state)
{
    (void)state;
    pb r = base_r(), fx = floats(F12, 2, 1), x = entry("x", &fx), ex;
    /* r required and missing (also in an empty proto) */
    ex = example(&x);
    expect_err(&ex);
    ex.n = 0;
    expect_err(&ex);
    /* x given as int64; r given as float */
    pb xi = ints(I12, 2, 1), xie = entry("x", &xi), es = cat(&r, &xie);
    ex = example(&es);
    expect_err(&ex);
    pb rf = floats(F12, 1, 1), rfe = entry("r", &rf);
    es = cat(&rfe, &x);
    ex = example(&es);
    expect_err(&ex);
    /* wrong counts, packed and unpacked */
    pb f3 = floats(F123, 3, 1), x3 = entry("x", &f3), f1 = floats(F12, 1, 0), x1 = entry("x", &f1);
    es = cat(&r, &x3);
    ex = example(&es);
    expect_err(&ex);
    es = cat(&r, &x1);
    ex = example(&es);
    expect_err(&ex);
    /* the last of two entries has the wrong kind */
    es = cat(&r, &x);
    es = cat(&es, &xie);
    ex = example(&es);
    expect_err(&ex);
    /* a bytes_list for x */
    pb bl = raw("\x0a\x03\x0a\x01z", 5), xb = entry("x", &bl);
    es = cat(&r, &xb);
    ex = example(&es);
    expect_err(&ex);
}

static void test_malformed(void **state)
{
    (void)state;
    pb r = base_r(), fx = floats(F12, 2, 1), x = entry("x", &fx), es = cat(&r, &x), good = example(&es), ex;
    /* every strict prefix: an error or a parse, never a read past the end */
    for (size_t n = 0; n < good.n; n++) {
        float xx[2];
        int64_t rr;
        ex = good;
        ex.n = n;
        (void)parse(&ex, xx, &rr);
    }
    /* truncated: the last byte cut */
    ex = good;
    ex.n--;
    expect_err(&ex);
    /* a truncated varint (continuation bit on the last byte) */
    ex = raw("\x0a\x80", 2);
    expect_err(&ex);
    /* an 11-byte varint value */
    pb over = raw("\x1a\x0d\x0a\x0b\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 15), ro = entry("r", &over);
    es = cat(&ro, &x);
    ex = example(&es);
    expect_err(&ex);
    /* a length past the end; a huge length */
    ex = raw("\x0a\x05\x0a\x03", 4);
    expect_err(&ex);
    ex = raw("\x0a\xff\xff\xff\xff\xff\xff\xff\xff\x7f\x0a", 11);
    expect_err(&ex);
    pb huge_list = raw("\x12\xff\xff\xff\xff\x0f\x0a", 7), xh = entry("x", &huge_list);
    es = cat(&r, &xh);
    ex = example(&es);
    expect_err(&ex);
    /* wrong wire types: Features entry as a varint; unknown field in Features
    ** or in an entry; an entry without its key; a group in the Example */
    ex = raw("\x0a\x02\x08\x01", 4);
    expect_err(&ex);
    pb junk = raw("\x10\x07", 2), rj = cat(&r, &junk);
    ex = example(&rj);
    expect_err(&ex);
    pb k = raw("x", 1), ke = ld(1, &k), ve = ld(2, &fx), kv = cat(&ke, &ve), extra = raw("\x18\x01", 2);
    kv = cat(&kv, &extra);
    pb bad_entry = ld(1, &kv);
    es = cat(&r, &bad_entry);
    ex = example(&es);
    expect_err(&ex);
    pb nokey = ld(1, &ve);
    es = cat(&r, &nokey);
    ex = example(&es);
    expect_err(&ex);
    es = cat(&r, &x);
    ex = example(&es);
    pb group = raw("\x13\x14", 2);
    ex = cat(&ex, &group);
    expect_err(&ex);
    /* a packed float run shorter than the count; a mixed list */
    pb mixed = raw("\x12\x0b\x0a\x04\x00\x00\x80\x3f\x0d\x00\x00\x00\x40", 13), xm = entry("x", &mixed);
    es = cat(&r, &xm);
    ex = example(&es);
    expect_err(&ex);
    /* nested garbage where the Feature should be */
    pb garbage = raw("\x12\x03\xff\xff\xff", 5), xg = entry("x", &garbage);
    es = cat(&r, &xg);
    ex = example(&es);
    expect_err(&ex);
    /* a negative length, or NULL data with a length */
    sm2c_string s = { good.b, -1 };
    float xx[2];
    assert_int_equal(sm2c_rt_parse_example_dense(&s, 1, KEY_X, 1, 1, 2, NULL, xx), SM2C_RT_ERR_EXAMPLE);
    s.data = NULL;
    s.len = 3;
    assert_int_equal(sm2c_rt_parse_example_dense(&s, 1, KEY_X, 1, 1, 2, NULL, xx), SM2C_RT_ERR_EXAMPLE);
}

static void test_batch(void **state)
{
    (void)state;
    /* three examples; the second lacks x, the defaults fill its row */
    pb r = base_r(), fx = floats(F12, 2, 1), x = entry("x", &fx), es = cat(&r, &x);
    pb a = example(&es), b = example(&r), c = example(&es);
    sm2c_string s[3] = { { a.b, (int64_t)a.n }, { b.b, (int64_t)b.n }, { c.b, (int64_t)c.n } };
    const float dx[2] = { 9, 8 };
    float y[6];
    int64_t rr[3];
    const float want[6] = { 1, 2, 9, 8, 1, 2 };
    assert_int_equal(sm2c_rt_parse_example_dense(s, 3, KEY_X, 1, 1, 2, dx, y), SM2C_RT_OK);
    assert_memory_equal(y, want, sizeof want);
    assert_int_equal(sm2c_rt_parse_example_dense(s, 3, KEY_R, 1, 9, 1, NULL, rr), SM2C_RT_OK);
    assert_true(rr[0] == 5 && rr[1] == 5 && rr[2] == 5);
    /* x required: example 1 fails the batch */
    assert_int_equal(sm2c_rt_parse_example_dense(s, 3, KEY_X, 1, 1, 2, NULL, y), SM2C_RT_ERR_EXAMPLE);
    /* a key that matches no feature, with a default */
    const int32_t key_zz[2] = { 'z', 'z' };
    assert_int_equal(sm2c_rt_parse_example_dense(s, 3, key_zz, 2, 1, 2, dx, y), SM2C_RT_OK);
    assert_true(y[0] == 9 && y[5] == 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_well_formed),
        cmocka_unit_test(test_semantic_errors),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_batch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
