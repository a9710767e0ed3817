/*
** test_npy.c: the .npy reader on files numpy wrote (tests/data/npy, from
** tests/models/gen_npy.py), the writer byte for byte against numpy's own files
** for the same arrays, and hand-made bad files (truncated, bad magic, Fortran
** order, big-endian, object and record dtypes, wrong data length, huge shapes).
*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/npy.h"
#include "sm2c_test.h"
#include "test_fs.h"

#define NPY_DIR SM2C_TEST_DATA "/data/npy"

static int setup(void **state)
{
    *state = test_ctx_new();
    return 0;
}

static int teardown(void **state)
{
    test_ctx_free(*state);
    return 0;
}

static sm2c_status read_data(test_ctx *t, const char *name, sm2c_tensor *out)
{
    char *p = fs_path(NPY_DIR, name);
    sm2c_status st = sm2c_npy_read(&t->ctx, p, out);
    free(p);
    return st;
}

static void assert_shape(const sm2c_tensor *x, int32_t rank, const int64_t *dims)
{
    assert_int_equal(x->shape.rank, rank);
    for (int32_t i = 0; i < rank; i++)
        assert_int_equal(x->shape.dims[i], dims[i]);
}

/* Write `x` to a scratch file and compare the bytes with numpy's `name`. */
static void assert_writes_like(test_ctx *t, const sm2c_tensor *x, const char *name)
{
    char *dir = fs_tmpdir();
    char *out = fs_path(dir, "out.npy");
    assert_int_equal(sm2c_npy_write(&t->ctx, out, x), SM2C_OK);
    char *ref = fs_path(NPY_DIR, name);
    size_t got_len, ref_len;
    unsigned char *got = fs_read(out, &got_len);
    unsigned char *want = fs_read(ref, &ref_len);
    if (got_len != ref_len || memcmp(got, want, got_len) != 0)
        fail_msg("writing %s: %zu bytes differ from numpy's %zu (header \"%.*s\")", name,
                 got_len, ref_len, got_len > 10 ? (int)(got_len - 10 < 128 ? got_len - 10 : 128) : 0,
                 (const char *)got + 10);
    /* And we read back what we wrote. */
    sm2c_tensor back;
    assert_int_equal(sm2c_npy_read(&t->ctx, out, &back), SM2C_OK);
    assert_int_equal(back.dtype, x->dtype);
    assert_int_equal(back.nbytes, x->nbytes);
    assert_memory_equal(back.data, x->data, x->nbytes ? x->nbytes : 0);
    free(got);
    free(want);
    free(ref);
    free(out);
    fs_rm_rf(dir);
}

/* ---- files numpy wrote ------------------------------------------------------------ */

static void every_dtype(void **state)
{
    test_ctx *t = *state;
    static const struct { const char *file; int dtype; } cases[] = {
        { "f2.npy", SM2C_DT_HALF },   { "f4.npy", SM2C_DT_FLOAT },  { "f8.npy", SM2C_DT_DOUBLE },
        { "i1.npy", SM2C_DT_INT8 },   { "i2.npy", SM2C_DT_INT16 },  { "i4.npy", SM2C_DT_INT32 },
        { "i8.npy", SM2C_DT_INT64 },  { "u1.npy", SM2C_DT_UINT8 },  { "u2.npy", SM2C_DT_UINT16 },
        { "u4.npy", SM2C_DT_UINT32 }, { "u8.npy", SM2C_DT_UINT64 }, { "b1.npy", SM2C_DT_BOOL },
    };
    static const int64_t dims[] = { 2, 3 };
    /* float16 1..6: sign 0, exponent 15 + e, mantissa. */
    static const uint16_t half[6] = { 0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600 };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        sm2c_tensor x;
        assert_int_equal(read_data(t, cases[k].file, &x), SM2C_OK);
        assert_int_equal(x.dtype, cases[k].dtype);
        assert_shape(&x, 2, dims);
        assert_int_equal(x.nelem, 6);
        assert_int_equal(x.nbytes, 6 * sm2c_dtype_size(x.dtype));
        for (int i = 0; i < 6; i++) {
            double v = 0;
            switch (x.dtype) {
            case SM2C_DT_HALF: assert_int_equal(((uint16_t *)x.data)[i], half[i]); v = i + 1; break;
            case SM2C_DT_FLOAT: v = ((float *)x.data)[i]; break;
            case SM2C_DT_DOUBLE: v = ((double *)x.data)[i]; break;
            case SM2C_DT_INT8: v = ((int8_t *)x.data)[i]; break;
            case SM2C_DT_INT16: v = ((int16_t *)x.data)[i]; break;
            case SM2C_DT_INT32: v = ((int32_t *)x.data)[i]; break;
            case SM2C_DT_INT64: v = (double)((int64_t *)x.data)[i]; break;
            case SM2C_DT_UINT8: v = ((uint8_t *)x.data)[i]; break;
            case SM2C_DT_UINT16: v = ((uint16_t *)x.data)[i]; break;
            case SM2C_DT_UINT32: v = ((uint32_t *)x.data)[i]; break;
            case SM2C_DT_UINT64: v = (double)((uint64_t *)x.data)[i]; break;
            case SM2C_DT_BOOL: v = ((uint8_t *)x.data)[i]; break;
            }
            double want = x.dtype == SM2C_DT_BOOL ? i % 2 : i + 1;
            if (v != want)
                fail_msg("%s[%d] = %g, want %g", cases[k].file, i, v, want);
        }
        assert_writes_like(t, &x, cases[k].file);
    }
}

static void negative_int64(void **state)
{
    test_ctx *t = *state;
    sm2c_tensor x;
    assert_int_equal(read_data(t, "neg_i8.npy", &x), SM2C_OK);
    static const int64_t dims[] = { 6 };
    assert_shape(&x, 1, dims);
    for (int i = 0; i < 6; i++)
        assert_int_equal(((int64_t *)x.data)[i], i - 3);
    assert_writes_like(t, &x, "neg_i8.npy");
}

static void scalar(void **state)
{
    test_ctx *t = *state;
    sm2c_tensor x;
    assert_int_equal(read_data(t, "scalar.npy", &x), SM2C_OK);
    assert_int_equal(x.dtype, SM2C_DT_FLOAT);
    assert_int_equal(x.shape.rank, 0);
    assert_int_equal(x.nelem, 1);
    assert_true(((float *)x.data)[0] == 2.5f);
    assert_writes_like(t, &x, "scalar.npy");
}

static void empty(void **state)
{
    test_ctx *t = *state;
    sm2c_tensor x;
    assert_int_equal(read_data(t, "empty.npy", &x), SM2C_OK);
    static const int64_t d1[] = { 0 };
    assert_shape(&x, 1, d1);
    assert_int_equal(x.nelem, 0);
    assert_int_equal(x.nbytes, 0);
    assert_writes_like(t, &x, "empty.npy");

    assert_int_equal(read_data(t, "empty_2d.npy", &x), SM2C_OK);
    static const int64_t d2[] = { 3, 0 };
    assert_int_equal(x.dtype, SM2C_DT_INT32);
    assert_shape(&x, 2, d2);
    assert_int_equal(x.nelem, 0);
    assert_writes_like(t, &x, "empty_2d.npy");
}

static void three_d_and_versions(void **state)
{
    test_ctx *t = *state;
    sm2c_tensor cube, v2, vec, v3;
    static const int64_t dims[] = { 2, 3, 4 };
    assert_int_equal(read_data(t, "cube.npy", &cube), SM2C_OK);
    assert_shape(&cube, 3, dims);
    for (int i = 0; i < 24; i++)
        assert_true(((float *)cube.data)[i] == (float)i * 0.5f);
    assert_writes_like(t, &cube, "cube.npy");

    assert_int_equal(read_data(t, "v2_cube.npy", &v2), SM2C_OK);
    assert_shape(&v2, 3, dims);
    assert_memory_equal(v2.data, cube.data, cube.nbytes);
    assert_writes_like(t, &v2, "cube.npy");   /* we always write 1.0 */

    static const int64_t vdims[] = { 5 };
    assert_int_equal(read_data(t, "vec.npy", &vec), SM2C_OK);
    assert_int_equal(read_data(t, "v3_vec.npy", &v3), SM2C_OK);
    assert_shape(&v3, 1, vdims);
    assert_memory_equal(v3.data, vec.data, vec.nbytes);
    assert_true(((float *)v3.data)[0] == -2.0f);
    assert_writes_like(t, &v3, "vec.npy");
}

static void refused_by_numpy_files(void **state)
{
    test_ctx *t = *state;
    static const struct { const char *file; sm2c_status st; const char *msg; } cases[] = {
        { "fortran.npy", SM2C_ERR_UNSUPPORTED, "Fortran-order" },
        { "big_endian.npy", SM2C_ERR_UNSUPPORTED, "big-endian" },
        { "object.npy", SM2C_ERR_UNSUPPORTED, "object arrays" },
        { "record.npy", SM2C_ERR_UNSUPPORTED, "structured" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        test_ctx *u = test_ctx_new();
        sm2c_tensor x;
        assert_int_equal(read_data(u, cases[k].file, &x), cases[k].st);
        assert_error_contains(u, cases[k].msg);
        assert_error_contains(u, cases[k].file);   /* the line names the file */
        assert_int_equal(u->diag.errors, 1);
        test_ctx_free(u);
    }
    (void)t;
}

/* Bytes arrays: 'S' (NUL padding dropped, as numpy reads it) and object arrays
** of bytes read from their pickle as data (memo references included); a
** pickle naming any other global is refused, never run. */
static void bytes_arrays(void **state)
{
    test_ctx *t = *state;
    sm2c_tensor x;
    int64_t d3[1] = { 3 }, d22[2] = { 2, 2 };
    assert_int_equal(read_data(t, "bytes_s.npy", &x), SM2C_OK);
    assert_int_equal(x.dtype, SM2C_DT_STRING);
    assert_shape(&x, 1, d3);
    assert_int_equal(x.strings[0].len, 2);
    assert_memory_equal(x.strings[0].data, "ab", 2);
    assert_int_equal(x.strings[1].len, 0);
    assert_int_equal(x.strings[2].len, 4);
    assert_memory_equal(x.strings[2].data, "wxyz", 4);
    static const char *const files[] = { "object_bytes.npy", "object_bytes_p3.npy" };
    for (size_t k = 0; k < 2; k++) {
        assert_int_equal(read_data(t, files[k], &x), SM2C_OK);
        assert_int_equal(x.dtype, SM2C_DT_STRING);
        assert_shape(&x, 2, d22);
        assert_int_equal(x.strings[0].len, 1);
        assert_memory_equal(x.strings[0].data, "a", 1);
        assert_int_equal(x.strings[1].len, 2);   /* a trailing NUL kept */
        assert_memory_equal(x.strings[1].data, "a\0", 2);
        assert_int_equal(x.strings[2].len, 0);
        assert_int_equal(x.strings[3].len, 1);   /* a memo reference to b"a" */
        assert_memory_equal(x.strings[3].data, "a", 1);
    }
    test_ctx *u = test_ctx_new();
    assert_int_equal(read_data(u, "object_global.npy", &x), SM2C_ERR_UNSUPPORTED);
    assert_error_contains(u, "a global other than numpy");
    assert_error_contains(u, "object_global.npy");
    test_ctx_free(u);
}

/* ---- hand-made bad files ------------------------------------------------------------ */

/* A version-1.0 file with header dict `dict` (padded as numpy pads) and `len` data bytes. */
static void write_npy(const char *dir, const char *name, const char *dict, const void *data,
                      size_t len)
{
    size_t dl = strlen(dict);
    size_t hlen = dl + 1;
    size_t pad = 64 - (10 + hlen) % 64;
    size_t total = 10 + hlen + pad + len;
    unsigned char *b = malloc(total);
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    b[8] = (unsigned char)((hlen + pad) & 0xff);
    b[9] = (unsigned char)((hlen + pad) >> 8);
    memcpy(b + 10, dict, dl);
    memset(b + 10 + dl, ' ', pad);
    b[10 + dl + pad] = '\n';
    if (len)
        memcpy(b + 10 + hlen + pad, data, len);
    fs_write(dir, name, b, total);
    free(b);
}

static sm2c_status read_tmp(test_ctx *t, const char *dir, const char *name, sm2c_tensor *x)
{
    char *p = fs_path(dir, name);
    sm2c_status st = sm2c_npy_read(&t->ctx, p, x);
    free(p);
    return st;
}

static void truncated(void **state)
{
    (void)state;
    size_t len;
    char *ref = fs_path(NPY_DIR, "cube.npy");
    unsigned char *b = fs_read(ref, &len);
    char *dir = fs_tmpdir();
    /* Every proper prefix of a valid file is refused, without a crash. */
    for (size_t n = 0; n < len; n++) {
        test_ctx *t = test_ctx_new();
        fs_write(dir, "cut.npy", b, n);
        sm2c_tensor x;
        sm2c_status st = read_tmp(t, dir, "cut.npy", &x);
        if (st == SM2C_OK)
            fail_msg("a prefix of %zu bytes was accepted", n);
        assert_int_equal(t->diag.errors, 1);
        assert_error_contains(t, "cut.npy");
        if (n == 0)
            assert_error_contains(t, "magic");
        if (n >= 128)
            assert_error_contains(t, "needs 96 bytes, the file has");
        test_ctx_free(t);
    }
    /* One byte too many is refused as well. */
    test_ctx *t = test_ctx_new();
    unsigned char *more = malloc(len + 1);
    memcpy(more, b, len);
    more[len] = 0;
    fs_write(dir, "long.npy", more, len + 1);
    sm2c_tensor x;
    assert_int_equal(read_tmp(t, dir, "long.npy", &x), SM2C_ERR_INVALID);
    assert_error_contains(t, "needs 96 bytes, the file has 97");
    test_ctx_free(t);
    free(more);
    free(b);
    free(ref);
    fs_rm_rf(dir);
}

static void bad_magic_and_version(void **state)
{
    (void)state;
    size_t len;
    char *ref = fs_path(NPY_DIR, "vec.npy");
    unsigned char *b = fs_read(ref, &len);
    char *dir = fs_tmpdir();
    static const struct { size_t at; unsigned char byte; sm2c_status st; const char *msg; } cases[] = {
        { 0, 0x92, SM2C_ERR_INVALID, "magic" },
        { 1, 'n', SM2C_ERR_INVALID, "magic" },
        { 6, 4, SM2C_ERR_UNSUPPORTED, "version 4.0" },
        { 6, 0, SM2C_ERR_UNSUPPORTED, "version 0.0" },
        { 7, 1, SM2C_ERR_UNSUPPORTED, "version 1.1" },
        { 9, 0x7f, SM2C_ERR_INVALID, "truncated" },         /* header longer than the file */
        { 8, 0x70, SM2C_ERR_INVALID, "newline" },           /* header ends early */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        test_ctx *t = test_ctx_new();
        unsigned char saved = b[cases[k].at];
        b[cases[k].at] = cases[k].byte;
        fs_write(dir, "bad.npy", b, len);
        b[cases[k].at] = saved;
        sm2c_tensor x;
        assert_int_equal(read_tmp(t, dir, "bad.npy", &x), cases[k].st);
        assert_error_contains(t, cases[k].msg);
        assert_error_contains(t, "bad.npy");
        test_ctx_free(t);
    }
    free(b);
    free(ref);
    fs_rm_rf(dir);
}

static void bad_headers(void **state)
{
    (void)state;
    static const unsigned char data[64];
    static const struct { const char *dict; size_t len; sm2c_status st; const char *msg; } cases[] = {
        /* accepted variants first (st OK) */
        { "{'shape': (2,), 'fortran_order': False, 'descr': '<f4'}", 8, SM2C_OK, "" },
        { "{\"descr\": \"<i4\", \"shape\": (1, 2,), \"fortran_order\": False,}", 8, SM2C_OK, "" },
        { "{'descr': '|i1', 'fortran_order': False, 'shape': (3,)}", 3, SM2C_OK, "" },
        { "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", 8, SM2C_ERR_UNSUPPORTED,
          "Fortran-order" },
        { "{'descr': '>i8', 'fortran_order': False, 'shape': (1,), }", 8, SM2C_ERR_UNSUPPORTED,
          "big-endian" },
        { "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", 8, SM2C_ERR_UNSUPPORTED,
          "object arrays" },
        { "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", 4,
          SM2C_ERR_UNSUPPORTED, "structured" },
        { "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", 8, SM2C_OK, "" },
        { "{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", 16, SM2C_ERR_UNSUPPORTED,
          "dtype '<c16'" },
        { "{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }", 12, SM2C_ERR_UNSUPPORTED,
          "dtype '<U3'" },
        { "{'descr': '|f4', 'fortran_order': False, 'shape': (1,), }", 4, SM2C_ERR_UNSUPPORTED,
          "dtype '|f4'" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 4, SM2C_ERR_INVALID,
          "needs 8 bytes, the file has 4" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 12, SM2C_ERR_INVALID,
          "needs 8 bytes, the file has 12" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (3037000500, 3037000500), }", 0,
          SM2C_ERR_LIMIT, "elements" },
        { "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", 0,
          SM2C_ERR_LIMIT, "elements" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", 0,
          SM2C_ERR_LIMIT, "64 bits" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4611686018427387904), }", 0,
          SM2C_OK, "" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }",
          4, SM2C_ERR_LIMIT, "dimensions" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", 0, SM2C_ERR_INVALID,
          "non-negative" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (2), }", 8, SM2C_ERR_INVALID,
          "not a tuple" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': [2], }", 8, SM2C_ERR_INVALID,
          "not a tuple" },
        { "{'descr': '<f4', 'fortran_order': False, }", 4, SM2C_ERR_INVALID, "lacks 'shape'" },
        { "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4,
          SM2C_ERR_INVALID, "twice" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (), 'extra': 1}", 4,
          SM2C_ERR_INVALID, "unexpected key 'extra'" },
        { "{'descr': '<f4', 'fortran_order': 0, 'shape': (), }", 4, SM2C_ERR_INVALID,
          "True or False" },
        { "{'descr': '<f4', 'fortran_order': Falsey, 'shape': (), }", 4, SM2C_ERR_INVALID,
          "True or False" },
        { "{'descr': '<f4' 'fortran_order': False, 'shape': (), }", 4, SM2C_ERR_INVALID,
          "expected" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': ()} x", 4, SM2C_ERR_INVALID,
          "after the header dict" },
        { "('descr', '<f4')", 4, SM2C_ERR_INVALID, "dict" },
        { "{'descr': '<f\\x34', 'fortran_order': False, 'shape': (), }", 4, SM2C_ERR_INVALID,
          "'descr' is not a string" },
        { "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", 2, SM2C_ERR_INVALID,
          "not 0 or 1" },
    };
    char *dir = fs_tmpdir();
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        test_ctx *t = test_ctx_new();
        unsigned char buf[64];
        memcpy(buf, data, sizeof buf);
        if (strstr(cases[k].dict, "|b1"))
            buf[1] = 2;
        write_npy(dir, "h.npy", cases[k].dict, buf, cases[k].len);
        sm2c_tensor x;
        sm2c_status st = read_tmp(t, dir, "h.npy", &x);
        if (st != cases[k].st)
            fail_msg("%s: status %d, want %d (%s)", cases[k].dict, st, cases[k].st, t->diag.first);
        if (st != SM2C_OK) {
            assert_error_contains(t, cases[k].msg);
            assert_error_contains(t, "h.npy");
            assert_int_equal(t->diag.errors, 1);
        }
        test_ctx_free(t);
    }
    fs_rm_rf(dir);
}

static void limits_raise(void **state)
{
    /* A huge shape becomes a clear limit error, and the limit can be lowered. */
    test_ctx *t = *state;
    t->limits.elements = 5;
    sm2c_tensor x;
    assert_int_equal(read_data(t, "f4.npy", &x), SM2C_ERR_LIMIT);
    assert_error_contains(t, "--limit elements");
}

static void write_errors(void **state)
{
    test_ctx *t = *state;
    char *dir = fs_tmpdir();
    char *out = fs_path(dir, "s.npy");
    int64_t dims[1] = { 1 };
    sm2c_tensor s = { .dtype = SM2C_DT_STRING, .shape = { 1, dims }, .nelem = 1 };
    assert_int_equal(sm2c_npy_write(&t->ctx, out, &s), SM2C_ERR_UNSUPPORTED);
    assert_error_contains(t, "string");
    free(out);
    sm2c_diag_init(&t->diag);
    t->diag.fn = test_diag_sink;
    out = fs_path(dir, "missing/x.npy");
    float v = 1;
    sm2c_tensor f = { .dtype = SM2C_DT_FLOAT, .shape = { 1, dims }, .nelem = 1, .nbytes = 4,
                      .data = &v };
    assert_int_equal(sm2c_npy_write(&t->ctx, out, &f), SM2C_ERR_INVALID);
    assert_error_contains(t, "missing/x.npy");
    free(out);
    fs_rm_rf(dir);
}

static void long_shape_written(void **state)
{
    /* Rank 16 with wide dims still pads to 64 and reads back. */
    test_ctx *t = *state;
    int64_t dims[16];
    for (int i = 0; i < 16; i++)
        dims[i] = i == 0 ? 0 : 1234567890123LL;
    sm2c_tensor x = { .dtype = SM2C_DT_UINT8, .shape = { 16, dims }, .nelem = 0, .nbytes = 0,
                      .data = NULL };
    char *dir = fs_tmpdir();
    char *out = fs_path(dir, "w.npy");
    assert_int_equal(sm2c_npy_write(&t->ctx, out, &x), SM2C_OK);
    size_t len;
    unsigned char *b = fs_read(out, &len);
    assert_int_equal(len % 64, 0);
    free(b);
    sm2c_tensor back;
    t->limits.elements = INT64_MAX;
    assert_int_equal(sm2c_npy_read(&t->ctx, out, &back), SM2C_OK);
    assert_int_equal(back.shape.rank, 16);
    assert_int_equal(back.shape.dims[15], 1234567890123LL);
    free(out);
    fs_rm_rf(dir);
}

/* ---- every committed .npy file (e2e cases, samples) reads ---------------------------- */

static int committed_seen;

static int read_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    size_t n = strlen(path);
    if (flag != FTW_F || n < 4 || strcmp(path + n - 4, ".npy") != 0)
        return 0;
    test_ctx *t = test_ctx_new();
    sm2c_tensor x;
    if (sm2c_npy_read(&t->ctx, path, &x) != SM2C_OK)
        fail_msg("%s", t->diag.first);
    assert_true(x.dtype == SM2C_DT_FLOAT || x.dtype == SM2C_DT_INT32 ||
                x.dtype == SM2C_DT_INT64);
    assert_true(x.nelem > 0);
    committed_seen++;
    test_ctx_free(t);
    return 0;
}

static void committed_files(void **state)
{
    (void)state;
    committed_seen = 0;
    nftw(SM2C_TEST_DATA "/data/e2e", read_one, 16, FTW_PHYS);
    nftw(SM2C_TEST_DATA "/../samples/digits", read_one, 16, FTW_PHYS);
    /* There are e2e cases only once tests/models/gen_e2e.py has been run. */
    if (access(SM2C_TEST_DATA "/data/e2e/mlp/case.json", F_OK) == 0)
        assert_true(committed_seen >= 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(every_dtype, setup, teardown),
        cmocka_unit_test_setup_teardown(negative_int64, setup, teardown),
        cmocka_unit_test_setup_teardown(scalar, setup, teardown),
        cmocka_unit_test_setup_teardown(empty, setup, teardown),
        cmocka_unit_test_setup_teardown(three_d_and_versions, setup, teardown),
        cmocka_unit_test_setup_teardown(refused_by_numpy_files, setup, teardown),
        cmocka_unit_test_setup_teardown(bytes_arrays, setup, teardown),
        cmocka_unit_test(truncated),
        cmocka_unit_test(bad_magic_and_version),
        cmocka_unit_test(bad_headers),
        cmocka_unit_test_setup_teardown(limits_raise, setup, teardown),
        cmocka_unit_test_setup_teardown(write_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(long_shape_written, setup, teardown),
        cmocka_unit_test(committed_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
