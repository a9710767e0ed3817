/*
** test_tensor_proto.c: TensorShapeProto / TensorProto decoding (N1-N4, N7).
*/
#include <math.h>
#include <stdlib.h>

#include "sm2c_test.h"
#include "load/tensor_proto.h"

#define DISPLAY "saved_model.pb"
#define WHERE "Const 'w'"

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

/* A shape from `n` dims, in the test arena. */
static Tensorflow__TensorShapeProto *shape_of(test_ctx *t, size_t n, const int64_t *dims)
{
    Tensorflow__TensorShapeProto *s = sm2c_arena_alloc(t->arena, sizeof *s);
    tensorflow__tensor_shape_proto__init(s);
    s->n_dim = n;
    s->dim = sm2c_arena_array(t->arena, n ? n : 1, sizeof *s->dim);
    for (size_t i = 0; i < n; i++) {
        s->dim[i] = sm2c_arena_alloc(t->arena, sizeof *s->dim[i]);
        tensorflow__tensor_shape_proto__dim__init(s->dim[i]);
        s->dim[i]->size = dims[i];
    }
    return s;
}

#define SHAPE(t, ...) \
    shape_of((t), sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t), (int64_t[]){ __VA_ARGS__ })

static Tensorflow__TensorProto *proto(test_ctx *t, int dtype, Tensorflow__TensorShapeProto *s)
{
    Tensorflow__TensorProto *p = sm2c_arena_alloc(t->arena, sizeof *p);
    tensorflow__tensor_proto__init(p);
    p->dtype = (Tensorflow__DataType)dtype;
    p->tensor_shape = s;
    return p;
}

/* Set a typed list from a compound literal: LIST(p, float_val, 1.0f, 2.0f). */
#define LIST(p, field, ...)                                                              \
    do {                                                                                 \
        static __typeof__(*(p)->field) items_[] = { __VA_ARGS__ };                       \
        (p)->n_##field = sizeof items_ / sizeof items_[0];                               \
        (p)->field = items_;                                                             \
    } while (0)

static sm2c_status decode(test_ctx *t, const Tensorflow__TensorProto *p, sm2c_tensor *out)
{
    return sm2c_tensor_from_proto(&t->ctx, DISPLAY, WHERE, p, out);
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float f32_from(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static double f64_from(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static uint64_t le(const sm2c_tensor *x, size_t i, size_t size)
{
    const uint8_t *b = (const uint8_t *)x->data + i * size;
    uint64_t v = 0;
    for (size_t j = 0; j < size; j++)
        v |= (uint64_t)b[j] << (8 * j);
    return v;
}

/* ---- shapes ---------------------------------------------------------------- */

static void shape_absent_is_scalar(void **state)
{
    test_ctx *t = *state;
    sm2c_shape s;
    assert_int_equal(sm2c_shape_from_proto(&t->ctx, DISPLAY, WHERE, NULL, &s), SM2C_OK);
    assert_int_equal(s.rank, 0);
}

static void shape_dims_and_unknown(void **state)
{
    test_ctx *t = *state;
    sm2c_shape s;
    assert_int_equal(sm2c_shape_from_proto(&t->ctx, DISPLAY, WHERE, SHAPE(t, -1, 28, 0), &s),
                     SM2C_OK);
    assert_int_equal(s.rank, 3);
    assert_int_equal(s.dims[0], -1);
    assert_int_equal(s.dims[1], 28);
    assert_int_equal(s.dims[2], 0);
    Tensorflow__TensorShapeProto *u = SHAPE(t, 1);
    u->n_dim = 0;
    u->unknown_rank = 1;
    assert_int_equal(sm2c_shape_from_proto(&t->ctx, DISPLAY, WHERE, u, &s), SM2C_OK);
    assert_int_equal(s.rank, -1);
    assert_int_equal(t->diag.errors, 0);
}

static void shape_unknown_rank_with_dims(void **state)
{
    test_ctx *t = *state;
    sm2c_shape s;
    Tensorflow__TensorShapeProto *u = SHAPE(t, 2, 3);
    u->unknown_rank = 1;
    assert_int_equal(sm2c_shape_from_proto(&t->ctx, DISPLAY, WHERE, u, &s), SM2C_ERR_INVALID);
    assert_error_contains(t, "saved_model.pb: Const 'w': error: shape has unknown_rank set and 2 dims");
}

static void shape_dim_below_minus_one(void **state)
{
    test_ctx *t = *state;
    sm2c_shape s;
    assert_int_equal(sm2c_shape_from_proto(&t->ctx, DISPLAY, WHERE, SHAPE(t, 3, -2), &s),
                     SM2C_ERR_INVALID);
    assert_error_contains(t, "shape dim 1 is -2 (must be >= -1)");
}

static void shape_rank_over_limit(void **state)
{
    test_ctx *t = *state;
    sm2c_shape s;
    int64_t dims[300];
    for (size_t i = 0; i < 300; i++)
        dims[i] = 1;
    assert_int_equal(sm2c_shape_from_proto(&t->ctx, DISPLAY, WHERE, shape_of(t, 17, dims), &s),
                     SM2C_ERR_LIMIT);
    assert_error_contains(t, "shape has rank 17, over the limit of 16");
    assert_int_equal(sm2c_shape_from_proto(&t->ctx, DISPLAY, WHERE, shape_of(t, 16, dims), &s),
                     SM2C_OK);
    /* Beyond TensorFlow's own maximum even with the limit raised. */
    t->limits.rank = 1000;
    assert_int_equal(sm2c_shape_from_proto(&t->ctx, DISPLAY, WHERE, shape_of(t, 300, dims), &s),
                     SM2C_ERR_INVALID);
    assert_int_equal(t->diag.errors, 2);
}

/* ---- tensor_content (N1) ----------------------------------------------------- */

static void content_float(void **state)
{
    test_ctx *t = *state;
    static const uint8_t bytes[12] = { 0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, 0x01, 0, 0, 0 };
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_FLOAT, SHAPE(t, 3));
    p->tensor_content.len = sizeof bytes;
    p->tensor_content.data = (uint8_t *)bytes;
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_int_equal(x.dtype, SM2C_DT_FLOAT);
    assert_int_equal(x.nelem, 3);
    assert_int_equal(x.nbytes, 12);
    assert_memory_equal(x.data, bytes, 12);
    assert_true(sm2c_tensor_get_f64(&x, 0) == 1.0);
    assert_true(sm2c_tensor_get_f64(&x, 1) == -2.0);
    assert_true(sm2c_tensor_get_f64(&x, 2) == (double)f32_from(1));   /* smallest subnormal */
    /* The tensor owns its data: it does not alias the proto. */
    assert_ptr_not_equal(x.data, bytes);
}

static void content_size_mismatch(void **state)
{
    test_ctx *t = *state;
    static uint8_t bytes[10];
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_FLOAT, SHAPE(t, 3));
    p->tensor_content.len = sizeof bytes;
    p->tensor_content.data = bytes;
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_error_contains(t, "saved_model.pb: Const 'w': error: tensor_content has 10 bytes, "
                             "shape [3] float32 needs 12");
    /* Too long is as wrong as too short, and any bytes for an empty tensor. */
    static uint8_t more[16];
    p->tensor_content.len = sizeof more;
    p->tensor_content.data = more;
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    p->tensor_shape = SHAPE(t, 0);
    p->tensor_content.len = 4;
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_int_equal(t->diag.errors, 3);
}

static void content_every_dtype(void **state)
{
    test_ctx *t = *state;
    static const int dtypes[] = {
        SM2C_DT_FLOAT, SM2C_DT_DOUBLE, SM2C_DT_INT32, SM2C_DT_UINT8, SM2C_DT_INT16,
        SM2C_DT_INT8, SM2C_DT_COMPLEX64, SM2C_DT_INT64, SM2C_DT_QINT8, SM2C_DT_QUINT8,
        SM2C_DT_QINT32, SM2C_DT_BFLOAT16, SM2C_DT_QINT16, SM2C_DT_QUINT16, SM2C_DT_UINT16,
        SM2C_DT_COMPLEX128, SM2C_DT_HALF, SM2C_DT_UINT32, SM2C_DT_UINT64,
        SM2C_DT_FLOAT8_E5M2, SM2C_DT_FLOAT8_E4M3FN, SM2C_DT_FLOAT8_E4M3FNUZ,
        SM2C_DT_FLOAT8_E4M3B11FNUZ, SM2C_DT_FLOAT8_E5M2FNUZ,
    };
    uint8_t bytes[3 * 16];
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (uint8_t)(i * 37 + 11);
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
        size_t size = sm2c_dtype_size(dtypes[d]);
        Tensorflow__TensorProto *p = proto(t, dtypes[d], SHAPE(t, 3));
        p->tensor_content.len = 3 * size;
        p->tensor_content.data = bytes;
        sm2c_tensor x;
        assert_int_equal(decode(t, p, &x), SM2C_OK);
        assert_int_equal(x.dtype, dtypes[d]);
        assert_int_equal(x.nbytes, 3 * size);
        assert_memory_equal(x.data, bytes, 3 * size);
    }
    assert_int_equal(t->diag.errors, 0);
}

static void content_bool_normalised(void **state)
{
    test_ctx *t = *state;
    static uint8_t bytes[3] = { 0, 1, 2 };
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_BOOL, SHAPE(t, 3));
    p->tensor_content.len = 3;
    p->tensor_content.data = bytes;
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_memory_equal(x.data, ((uint8_t[]){ 0, 1, 1 }), 3);
}

static void content_string_unsupported(void **state)
{
    test_ctx *t = *state;
    static uint8_t bytes[4] = "abcd";
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_STRING, SHAPE(t, 1));
    p->tensor_content.len = 4;
    p->tensor_content.data = bytes;
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_ERR_UNSUPPORTED);
    assert_error_contains(t, "tensor_content in a string constant is not supported");
}

/* ---- typed lists ------------------------------------------------------------ */

static void list_float_double(void **state)
{
    test_ctx *t = *state;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_FLOAT, SHAPE(t, 2));
    LIST(p, float_val, 1.5f, -2.0f);
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_int_equal(le(&x, 0, 4), f32_bits(1.5f));
    assert_int_equal(le(&x, 1, 4), f32_bits(-2.0f));
    p = proto(t, SM2C_DT_DOUBLE, SHAPE(t, 2));
    LIST(p, double_val, 0.1, -1e300);
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_true(sm2c_tensor_get_f64(&x, 0) == 0.1);
    assert_true(sm2c_tensor_get_f64(&x, 1) == -1e300);
}

/* int_val carries every narrow integer and quantized type. */
static void list_int_val_dtypes(void **state)
{
    test_ctx *t = *state;
    static const struct { int dt; int32_t a, b; } cases[] = {
        { SM2C_DT_INT32, INT32_MIN, INT32_MAX }, { SM2C_DT_UINT8, 0, 255 },
        { SM2C_DT_INT16, -32768, 32767 }, { SM2C_DT_INT8, -128, 127 },
        { SM2C_DT_UINT16, 65535, 1 }, { SM2C_DT_QINT8, -5, 5 }, { SM2C_DT_QUINT8, 200, 7 },
        { SM2C_DT_QINT16, -300, 300 }, { SM2C_DT_QUINT16, 60000, 0 },
        { SM2C_DT_QINT32, -100000, 100000 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Tensorflow__TensorProto *p = proto(t, cases[i].dt, SHAPE(t, 2));
        int32_t *v = sm2c_arena_array(t->arena, 2, sizeof *v);
        v[0] = cases[i].a;
        v[1] = cases[i].b;
        p->n_int_val = 2;
        p->int_val = v;
        sm2c_tensor x;
        assert_int_equal(decode(t, p, &x), SM2C_OK);
        assert_int_equal(x.nbytes, 2 * sm2c_dtype_size(cases[i].dt));
        assert_int_equal(sm2c_tensor_get_i64(&x, 0), cases[i].a);
        assert_int_equal(sm2c_tensor_get_i64(&x, 1), cases[i].b);
    }
    assert_int_equal(t->diag.errors, 0);
}

static void list_int_val_out_of_range(void **state)
{
    test_ctx *t = *state;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_UINT8, SHAPE(t, 2));
    LIST(p, int_val, 1, 256);
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_error_contains(t, "int_val[1] = 256 is out of range for uint8 (0..255)");
    p = proto(t, SM2C_DT_INT8, SHAPE(t, 1));
    LIST(p, int_val, -129);
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_int_equal(t->diag.errors, 2);
}

static void list_half_bfloat16(void **state)
{
    test_ctx *t = *state;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_HALF, SHAPE(t, 3));
    LIST(p, half_val, 0x3c00, 0xfc00, 0x7c01);
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_int_equal(x.nbytes, 6);
    assert_int_equal(le(&x, 0, 2), 0x3c00);
    assert_int_equal(le(&x, 1, 2), 0xfc00);
    assert_int_equal(le(&x, 2, 2), 0x7c01);   /* signalling NaN pattern kept */
    assert_true(sm2c_tensor_get_f64(&x, 0) == 1.0);
    assert_true(isinf(sm2c_tensor_get_f64(&x, 1)) && sm2c_tensor_get_f64(&x, 1) < 0);
    assert_true(isnan(sm2c_tensor_get_f64(&x, 2)));
    p = proto(t, SM2C_DT_BFLOAT16, SHAPE(t, 2));
    LIST(p, half_val, 0x3f80, 0xffc1);
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_int_equal(le(&x, 0, 2), 0x3f80);
    assert_int_equal(le(&x, 1, 2), 0xffc1);
    assert_true(sm2c_tensor_get_f64(&x, 0) == 1.0);
}

static void list_half_out_of_range(void **state)
{
    test_ctx *t = *state;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_HALF, SHAPE(t, 2));
    LIST(p, half_val, 0x3c00, 70000);
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_error_contains(t, "half_val[1] = 70000 is out of range for float16 (0..65535)");
    p = proto(t, SM2C_DT_BFLOAT16, SHAPE(t, 1));
    LIST(p, half_val, -1);
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_int_equal(t->diag.errors, 2);
}

static void list_wide_ints_and_bool(void **state)
{
    test_ctx *t = *state;
    sm2c_tensor x;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_INT64, SHAPE(t, 2));
    LIST(p, int64_val, INT64_MIN, INT64_MAX);
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_true(sm2c_tensor_get_i64(&x, 0) == INT64_MIN);
    assert_true(sm2c_tensor_get_i64(&x, 1) == INT64_MAX);
    assert_true(sm2c_tensor_get_u64(&x, 0) == 0);   /* negative saturates */
    p = proto(t, SM2C_DT_UINT32, SHAPE(t, 2));
    LIST(p, uint32_val, UINT32_MAX, 7);
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_true(sm2c_tensor_get_u64(&x, 0) == UINT32_MAX);
    assert_true(sm2c_tensor_get_i64(&x, 1) == 7);
    p = proto(t, SM2C_DT_UINT64, SHAPE(t, 2));
    LIST(p, uint64_val, UINT64_MAX, 3);
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_true(sm2c_tensor_get_u64(&x, 0) == UINT64_MAX);
    assert_true(sm2c_tensor_get_i64(&x, 0) == INT64_MAX);   /* saturates */
    p = proto(t, SM2C_DT_BOOL, SHAPE(t, 3));
    LIST(p, bool_val, 1, 0, 5);
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_memory_equal(x.data, ((uint8_t[]){ 1, 0, 1 }), 3);
    assert_true(sm2c_tensor_get_f64(&x, 0) == 1.0);
}

static void list_complex(void **state)
{
    test_ctx *t = *state;
    sm2c_tensor x;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_COMPLEX64, SHAPE(t, 3));
    LIST(p, scomplex_val, 1.0f, 2.0f, 3.0f, 4.0f);
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_int_equal(x.nbytes, 24);
    const float want[6] = { 1, 2, 3, 4, 3, 4 };   /* the last pair repeats */
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(le(&x, i, 4), f32_bits(want[i]));
    assert_true(sm2c_tensor_get_f64(&x, 1) == 3.0);   /* real part */
    p = proto(t, SM2C_DT_COMPLEX128, SHAPE(t, 1));
    LIST(p, dcomplex_val, -0.5, 0.25);
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_int_equal(x.nbytes, 16);
    assert_true(f64_from(le(&x, 0, 8)) == -0.5 && f64_from(le(&x, 1, 8)) == 0.25);
    p = proto(t, SM2C_DT_COMPLEX64, SHAPE(t, 2));
    LIST(p, scomplex_val, 1.0f, 2.0f, 3.0f);
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_error_contains(t, "scomplex_val has 3 items, not a whole number of complex pairs");
}

static void list_strings(void **state)
{
    test_ctx *t = *state;
    static uint8_t ab[] = "ab", nul[] = { 'x', 0, 'y' };
    static ProtobufCBinaryData vals[2];
    vals[0].data = ab;
    vals[0].len = 2;
    vals[1].data = nul;
    vals[1].len = 3;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_STRING, SHAPE(t, 4));
    p->n_string_val = 2;
    p->string_val = vals;
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_int_equal(x.nelem, 4);
    assert_null(x.data);
    assert_int_equal(x.strings[0].len, 2);
    assert_memory_equal(x.strings[0].data, "ab", 2);
    for (size_t i = 1; i < 4; i++) {   /* the last string repeats, embedded NUL kept */
        assert_int_equal(x.strings[i].len, 3);
        assert_memory_equal(x.strings[i].data, nul, 3);
    }
    ab[0] = 'z';   /* copied, not aliased */
    assert_memory_equal(x.strings[0].data, "ab", 2);
    p = proto(t, SM2C_DT_STRING, SHAPE(t, 2));
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_int_equal(x.strings[0].len, 0);
    assert_int_equal(x.strings[1].len, 0);
    p = proto(t, SM2C_DT_STRING, SHAPE(t, 1));
    p->n_string_val = 2;
    p->string_val = vals;
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_error_contains(t, "string_val has 2 values, shape [1] string has only 1 elements");
}

static void list_float8(void **state)
{
    test_ctx *t = *state;
    static uint8_t b[2] = { 0x38, 0x3c };
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_FLOAT8_E4M3FN, SHAPE(t, 3));
    p->float8_val.data = b;
    p->float8_val.len = 2;
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_memory_equal(x.data, ((uint8_t[]){ 0x38, 0x3c, 0x3c }), 3);
    assert_true(sm2c_tensor_get_f64(&x, 0) == 1.0);
    assert_true(sm2c_tensor_get_f64(&x, 1) == 1.5);
    p = proto(t, SM2C_DT_FLOAT8_E5M2, SHAPE(t, 2));
    p->float8_val.data = b;
    p->float8_val.len = 2;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_true(sm2c_tensor_get_f64(&x, 1) == 1.0);   /* 0x3c: the top byte of half 1.0 */
}

/* TF's rule: a short list repeats its last value. */
static void short_list_repeats(void **state)
{
    test_ctx *t = *state;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_FLOAT, SHAPE(t, 5));
    LIST(p, float_val, 1.0f, 2.0f);
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    const float want[5] = { 1, 2, 2, 2, 2 };
    for (size_t i = 0; i < 5; i++)
        assert_true(sm2c_tensor_get_f64(&x, (int64_t)i) == want[i]);
    /* A single value broadcasts, as for zeros initialisers of shape [32]. */
    p = proto(t, SM2C_DT_INT16, SHAPE(t, 4, 8));
    LIST(p, int_val, -3);
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    for (int64_t i = 0; i < 32; i++)
        assert_int_equal(sm2c_tensor_get_i64(&x, i), -3);
}

static void empty_list_zeros(void **state)
{
    test_ctx *t = *state;
    static const int dtypes[] = { SM2C_DT_FLOAT, SM2C_DT_INT32, SM2C_DT_INT64, SM2C_DT_HALF,
                                  SM2C_DT_COMPLEX128, SM2C_DT_BOOL, SM2C_DT_UINT64 };
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
        Tensorflow__TensorProto *p = proto(t, dtypes[d], SHAPE(t, 2, 3));
        sm2c_tensor x;
        assert_int_equal(decode(t, p, &x), SM2C_OK);
        assert_int_equal(x.nbytes, 6 * sm2c_dtype_size(dtypes[d]));
        for (size_t i = 0; i < x.nbytes; i++)
            assert_int_equal(((uint8_t *)x.data)[i], 0);
    }
    /* And an empty tensor of shape [0] with no values at all. */
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_FLOAT, SHAPE(t, 0));
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_int_equal(x.nelem, 0);
    assert_int_equal(x.nbytes, 0);
}

/* N2: stricter than TF, which truncates. */
static void over_long_list(void **state)
{
    test_ctx *t = *state;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_FLOAT, SHAPE(t, 2));
    LIST(p, float_val, 1.0f, 2.0f, 3.0f);
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_error_contains(t, "float_val has 3 values, shape [2] float32 has only 2 elements");
    p = proto(t, SM2C_DT_INT32, SHAPE(t, 0));
    LIST(p, int_val, 1);
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_int_equal(t->diag.errors, 2);
}

static void both_forms_rejected(void **state)
{
    test_ctx *t = *state;
    static uint8_t bytes[8];
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_FLOAT, SHAPE(t, 2));
    p->tensor_content.len = 8;
    p->tensor_content.data = bytes;
    LIST(p, float_val, 1.0f);
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_error_contains(t, "constant has both tensor_content and float_val");
}

static void wrong_list_rejected(void **state)
{
    test_ctx *t = *state;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_INT32, SHAPE(t, 1));
    LIST(p, float_val, 1.0f);
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_error_contains(t, "float_val given for a constant of dtype int32 (expected int_val)");
    /* half_val is not for float32, int64_val is not for int32 */
    p = proto(t, SM2C_DT_FLOAT, SHAPE(t, 1));
    LIST(p, half_val, 0x3c00);
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    p = proto(t, SM2C_DT_INT32, SHAPE(t, 1));
    LIST(p, int64_val, 1);
    assert_int_equal(decode(t, p, &x), SM2C_ERR_INVALID);
    assert_int_equal(t->diag.errors, 3);
}

/* ---- dtypes (N4) ------------------------------------------------------------ */

static void bad_dtypes(void **state)
{
    test_ctx *t = *state;
    sm2c_tensor x;
    assert_int_equal(decode(t, proto(t, SM2C_DT_INVALID, NULL), &x), SM2C_ERR_INVALID);
    assert_error_contains(t, "constant has invalid dtype DT_INVALID");
    test_ctx *u = test_ctx_new();
    assert_int_equal(sm2c_tensor_from_proto(&u->ctx, DISPLAY, "Const 'x'",
                                            proto(u, SM2C_DT_VARIANT, NULL), &x),
                     SM2C_ERR_UNSUPPORTED);
    assert_error_contains(u, "Const 'x': error: dtype variant not supported in a constant");
    test_ctx_free(u);
    assert_int_equal(decode(t, proto(t, SM2C_DT_RESOURCE, NULL), &x), SM2C_ERR_UNSUPPORTED);
    assert_int_equal(decode(t, proto(t, SM2C_DT_INT4, NULL), &x), SM2C_ERR_UNSUPPORTED);
    assert_int_equal(decode(t, proto(t, 77, NULL), &x), SM2C_ERR_INVALID);
    assert_int_equal(decode(t, proto(t, SM2C_DT_REF_OFFSET, NULL), &x), SM2C_ERR_INVALID);
    assert_int_equal(t->diag.errors, 5);
}

static void ref_dtype_is_base(void **state)
{
    test_ctx *t = *state;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_FLOAT + SM2C_DT_REF_OFFSET, NULL);
    LIST(p, float_val, 4.0f);
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_int_equal(x.dtype, SM2C_DT_FLOAT);
    assert_int_equal(x.shape.rank, 0);
    assert_int_equal(x.nelem, 1);
}

/* ---- shapes of constants (N3) ------------------------------------------------ */

static void const_shape_must_be_known(void **state)
{
    test_ctx *t = *state;
    sm2c_tensor x;
    assert_int_equal(decode(t, proto(t, SM2C_DT_FLOAT, SHAPE(t, -1, 3)), &x), SM2C_ERR_INVALID);
    assert_error_contains(t, "constant has shape [-1,3] with an unknown dim");
    Tensorflow__TensorShapeProto *u = SHAPE(t, 1);
    u->n_dim = 0;
    u->unknown_rank = 1;
    assert_int_equal(decode(t, proto(t, SM2C_DT_FLOAT, u), &x), SM2C_ERR_INVALID);
    u = SHAPE(t, 1, 2);
    u->unknown_rank = 1;
    assert_int_equal(decode(t, proto(t, SM2C_DT_FLOAT, u), &x), SM2C_ERR_INVALID);
    assert_int_equal(t->diag.errors, 3);
}

static void huge_shapes(void **state)
{
    test_ctx *t = *state;
    const int64_t big = (int64_t)1 << 32;
    sm2c_tensor x;
    /* A zero dim anywhere makes the product 0, with no overflow on the way. */
    assert_int_equal(decode(t, proto(t, SM2C_DT_FLOAT, SHAPE(t, 0, big, big)), &x), SM2C_OK);
    assert_int_equal(x.nelem, 0);
    assert_int_equal(x.nbytes, 0);
    assert_int_equal(decode(t, proto(t, SM2C_DT_FLOAT, SHAPE(t, big, big, 0)), &x), SM2C_OK);
    assert_int_equal(x.nelem, 0);
    assert_int_equal(t->diag.errors, 0);
    const int64_t half = (int64_t)1 << 31;
    assert_int_equal(decode(t, proto(t, SM2C_DT_FLOAT, SHAPE(t, half, half)), &x), SM2C_ERR_LIMIT);
    assert_error_contains(t, "constant shape [2147483648,2147483648] has more than 2147483647 "
                             "elements");
    /* Even a product that wraps int64 is caught. */
    assert_int_equal(decode(t, proto(t, SM2C_DT_INT8, SHAPE(t, big, big, big)), &x),
                     SM2C_ERR_LIMIT);
    /* Just at the limit is fine (but do not allocate it: lower the limit). */
    t->limits.elements = 6;
    assert_int_equal(decode(t, proto(t, SM2C_DT_INT8, SHAPE(t, 2, 3)), &x), SM2C_OK);
    assert_int_equal(decode(t, proto(t, SM2C_DT_INT8, SHAPE(t, 7)), &x), SM2C_ERR_LIMIT);
    assert_int_equal(t->diag.errors, 3);
}

/* One listed value may stand for every element: the bytes are bounded, not
** only the count, so a tiny Const cannot make us allocate gigabytes. */
static void broadcast_bytes_limit(void **state)
{
    test_ctx *t = *state;
    sm2c_tensor x;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_FLOAT, SHAPE(t, INT32_MAX));
    LIST(p, float_val, 1.0f);
    assert_int_equal(decode(t, p, &x), SM2C_ERR_LIMIT);
    assert_error_contains(t, "needs more than 1073741824 bytes (--limit const-bytes=N");
    Tensorflow__TensorProto *q = proto(t, SM2C_DT_STRING, SHAPE(t, 1 << 28));
    assert_int_equal(decode(t, q, &x), SM2C_ERR_LIMIT);
    t->limits.const_bytes = 16;
    assert_int_equal(decode(t, proto(t, SM2C_DT_FLOAT, SHAPE(t, 4)), &x), SM2C_OK);
    assert_int_equal(decode(t, proto(t, SM2C_DT_FLOAT, SHAPE(t, 5)), &x), SM2C_ERR_LIMIT);
}

static void rank_over_limit(void **state)
{
    test_ctx *t = *state;
    int64_t dims[17] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    sm2c_tensor x;
    assert_int_equal(decode(t, proto(t, SM2C_DT_FLOAT, shape_of(t, 17, dims)), &x),
                     SM2C_ERR_LIMIT);
    assert_error_contains(t, "shape has rank 17, over the limit of 16 (--limit rank=N)");
}

/* ---- bit-exact special values (N7) ------------------------------------------- */

static void float_specials_bit_exact(void **state)
{
    test_ctx *t = *state;
    static const uint32_t bits[] = {
        0x7fa00001u,   /* signalling NaN with payload */
        0xffc12345u,   /* negative quiet NaN with payload */
        0x80000000u,   /* -0.0 */
        0x00000001u,   /* smallest subnormal */
        0x807fffffu,   /* largest negative subnormal */
        0x7f800000u,   /* +Inf */
        0xff800000u,   /* -Inf */
    };
    enum { N = sizeof bits / sizeof bits[0] };
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_FLOAT, SHAPE(t, N));
    float *f = sm2c_arena_array(t->arena, N, sizeof *f);
    memcpy(f, bits, sizeof bits);
    p->n_float_val = N;
    p->float_val = f;
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(le(&x, i, 4), bits[i]);
    assert_true(signbit(sm2c_tensor_get_f64(&x, 2)) && sm2c_tensor_get_f64(&x, 2) == 0);
    assert_true(sm2c_tensor_get_f64(&x, 3) > 0);
    /* The same through tensor_content. */
    p = proto(t, SM2C_DT_FLOAT, SHAPE(t, N));
    p->tensor_content.data = (uint8_t *)x.data;
    p->tensor_content.len = x.nbytes;
    sm2c_tensor y;
    assert_int_equal(decode(t, p, &y), SM2C_OK);
    assert_memory_equal(y.data, x.data, x.nbytes);
}

static void double_specials_bit_exact(void **state)
{
    test_ctx *t = *state;
    static const uint64_t bits[] = {
        0x7ff0000000000001u, 0xfff8dead0000beefu, 0x8000000000000000u,
        0x0000000000000001u, 0x7ff0000000000000u, 0xfff0000000000000u,
    };
    enum { N = sizeof bits / sizeof bits[0] };
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_DOUBLE, SHAPE(t, N));
    double *d = sm2c_arena_array(t->arena, N, sizeof *d);
    memcpy(d, bits, sizeof bits);
    p->n_double_val = N;
    p->double_val = d;
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    for (size_t i = 0; i < N; i++)
        assert_true(le(&x, i, 8) == bits[i]);
    /* Complex parts too. */
    p = proto(t, SM2C_DT_COMPLEX128, SHAPE(t, 3));
    p->n_dcomplex_val = N;
    p->dcomplex_val = d;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    for (size_t i = 0; i < N; i++)
        assert_true(le(&x, i, 8) == bits[i]);
}

static void half_conversions(void **state)
{
    (void)state;
    assert_true(sm2c_half_to_float(0x3c00) == 1.0f);
    assert_true(sm2c_half_to_float(0xc000) == -2.0f);
    assert_true(sm2c_half_to_float(0x7bff) == 65504.0f);
    assert_true(sm2c_half_to_float(0x0001) == ldexpf(1.0f, -24));   /* smallest subnormal */
    assert_true(sm2c_half_to_float(0x03ff) == ldexpf(1023.0f, -24));
    assert_true(sm2c_half_to_float(0x0400) == ldexpf(1.0f, -14));   /* smallest normal */
    float nz = sm2c_half_to_float(0x8000);
    assert_true(nz == 0 && signbit(nz));
    assert_true(isinf(sm2c_half_to_float(0x7c00)) && sm2c_half_to_float(0x7c00) > 0);
    assert_true(isinf(sm2c_half_to_float(0xfc00)) && sm2c_half_to_float(0xfc00) < 0);
    /* The NaN payload moves to the top of the float mantissa. */
    assert_int_equal(f32_bits(sm2c_half_to_float(0x7e01)), 0x7fc02000u);
    assert_true(sm2c_bfloat16_to_float(0x3f80) == 1.0f);
    assert_true(sm2c_bfloat16_to_float(0xc040) == -3.0f);
    assert_int_equal(f32_bits(sm2c_bfloat16_to_float(0x8001)), 0x80010000u);
    assert_int_equal(f32_bits(sm2c_bfloat16_to_float(0x7f81)), 0x7f810000u);
}

static void float8_formats(void **state)
{
    (void)state;
    sm2c_tensor x = { .dtype = SM2C_DT_FLOAT8_E4M3FNUZ, .nelem = 1, .nbytes = 1 };
    uint8_t b = 0x40;   /* E4M3FNUZ: bias 8, so 0x40 is 1.0 */
    x.data = &b;
    assert_true(sm2c_tensor_get_f64(&x, 0) == 1.0);
    b = 0x80;           /* the only NaN of the fnuz formats */
    assert_true(isnan(sm2c_tensor_get_f64(&x, 0)));
    x.dtype = SM2C_DT_FLOAT8_E4M3B11FNUZ;
    b = 0x58;           /* bias 11: 2^0 */
    assert_true(sm2c_tensor_get_f64(&x, 0) == 1.0);
    x.dtype = SM2C_DT_FLOAT8_E5M2FNUZ;
    b = 0x40;           /* bias 16: 2^0 */
    assert_true(sm2c_tensor_get_f64(&x, 0) == 1.0);
    b = 0x01;           /* subnormal: 1/4 * 2^-15 */
    assert_true(sm2c_tensor_get_f64(&x, 0) == ldexp(1.0, -17));
    x.dtype = SM2C_DT_FLOAT8_E4M3FN;
    b = 0xff;           /* S.1111.111 is NaN, keeping its sign */
    assert_true(isnan(sm2c_tensor_get_f64(&x, 0)) && signbit(sm2c_tensor_get_f64(&x, 0)));
    b = 0xfe;           /* the largest finite: -448 */
    assert_true(sm2c_tensor_get_f64(&x, 0) == -448.0);
}

static void integers_as_f64(void **state)
{
    test_ctx *t = *state;
    Tensorflow__TensorProto *p = proto(t, SM2C_DT_INT8, SHAPE(t, 2));
    LIST(p, int_val, -5, 100);
    sm2c_tensor x;
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_true(sm2c_tensor_get_f64(&x, 0) == -5.0);
    p = proto(t, SM2C_DT_UINT16, SHAPE(t, 1));
    LIST(p, int_val, 65535);
    assert_int_equal(decode(t, p, &x), SM2C_OK);
    assert_true(sm2c_tensor_get_f64(&x, 0) == 65535.0);
    assert_true(sm2c_tensor_get_i64(&x, 0) == 65535);
}

static void is_integer(void **state)
{
    (void)state;
    assert_true(sm2c_tensor_is_integer(SM2C_DT_INT32));
    assert_true(sm2c_tensor_is_integer(SM2C_DT_UINT64));
    assert_true(sm2c_tensor_is_integer(SM2C_DT_QUINT8));
    assert_true(sm2c_tensor_is_integer(SM2C_DT_INT64 + SM2C_DT_REF_OFFSET));
    assert_false(sm2c_tensor_is_integer(SM2C_DT_FLOAT));
    assert_false(sm2c_tensor_is_integer(SM2C_DT_BOOL));
    assert_false(sm2c_tensor_is_integer(SM2C_DT_STRING));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
        T(shape_absent_is_scalar), T(shape_dims_and_unknown), T(shape_unknown_rank_with_dims),
        T(shape_dim_below_minus_one), T(shape_rank_over_limit), T(content_float),
        T(content_size_mismatch), T(content_every_dtype), T(content_bool_normalised),
        T(content_string_unsupported), T(list_float_double), T(list_int_val_dtypes),
        T(list_int_val_out_of_range), T(list_half_bfloat16), T(list_half_out_of_range),
        T(list_wide_ints_and_bool), T(list_complex), T(list_strings), T(list_float8),
        T(short_list_repeats), T(empty_list_zeros), T(over_long_list), T(both_forms_rejected),
        T(wrong_list_rejected), T(bad_dtypes), T(ref_dtype_is_base),
        T(const_shape_must_be_known), T(huge_shapes), T(broadcast_bytes_limit), T(rank_over_limit),
        T(float_specials_bit_exact), T(double_specials_bit_exact), T(half_conversions),
        T(float8_formats), T(integers_as_f64), T(is_integer),
#undef T
    };
    return cmocka_run_group_tests_name("tensor_proto", tests, NULL, NULL);
}
