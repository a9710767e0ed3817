/*
** tensor_proto.c: TensorShapeProto and TensorProto to sm2c_shape / sm2c_tensor.
**
** Follows TensorFlow's Tensor::FromProto (tensorflow/core/framework/tensor.cc):
** raw little-endian `tensor_content`, or else the typed *_val list of the
** dtype, where a short list repeats its last value and an empty one means
** zeros.  We are stricter than TF where TF silently drops or truncates data:
** over-long lists, lists of the wrong kind, both forms at once, odd complex
** lists and out-of-range narrow integers are errors.
**
** Values are moved as bit patterns, never through float arithmetic, so NaN
** payloads, -0.0, subnormals and infinities survive exactly.  The decoded data
** is stored little-endian whatever the host is.
*/
#include "tensor_proto.h"

#include <math.h>
#include <string.h>

#define TF_MAX_RANK 254   /* TensorShape::IsValid */

/* ---- shapes ----------------------------------------------------------------- */

sm2c_status sm2c_shape_from_proto(sm2c_ctx *c, const char *display, const char *where,
                                  const Tensorflow__TensorShapeProto *p, sm2c_shape *out)
{
    out->rank = 0;
    out->dims = NULL;
    if (!p)
        return SM2C_OK;   /* an absent shape message is a scalar */
    if (p->unknown_rank) {
        if (p->n_dim > 0)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                              "shape has unknown_rank set and %zu dims", p->n_dim);
        out->rank = -1;
        return SM2C_OK;
    }
    if (p->n_dim > TF_MAX_RANK)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                          "shape has rank %zu, TensorFlow allows at most %d", p->n_dim,
                          TF_MAX_RANK);
    if ((int64_t)p->n_dim > c->limits->rank)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, display, where,
                          "shape has rank %zu, over the limit of %lld (--limit rank=N)",
                          p->n_dim, (long long)c->limits->rank);
    int64_t *dims = sm2c_arena_array(c->arena, p->n_dim ? p->n_dim : 1, sizeof *dims);
    for (size_t i = 0; i < p->n_dim; i++) {
        int64_t d = p->dim[i] ? p->dim[i]->size : 0;
        if (d < -1)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                              "shape dim %zu is %lld (must be >= -1)", i, (long long)d);
        dims[i] = d;
    }
    out->rank = (int32_t)p->n_dim;
    out->dims = dims;
    return SM2C_OK;
}

/* ---- value lists ------------------------------------------------------------ */

/* The typed lists of a TensorProto.  A complex element takes two list items. */
typedef enum vlist {
    VL_NONE, VL_HALF, VL_FLOAT, VL_DOUBLE, VL_INT, VL_STRING, VL_SCOMPLEX, VL_INT64,
    VL_BOOL, VL_DCOMPLEX, VL_RESOURCE, VL_UINT32, VL_UINT64, VL_FLOAT8, VL_COUNT
} vlist;

static const char *const vlist_names[VL_COUNT] = {
    "", "half_val", "float_val", "double_val", "int_val", "string_val", "scomplex_val",
    "int64_val", "bool_val", "dcomplex_val", "resource_handle_val", "uint32_val",
    "uint64_val", "float8_val",
};

/* Items in list `k` (not elements: complex lists hold two items per element). */
static size_t vlist_items(const Tensorflow__TensorProto *p, vlist k)
{
    switch (k) {
    case VL_HALF: return p->n_half_val;
    case VL_FLOAT: return p->n_float_val;
    case VL_DOUBLE: return p->n_double_val;
    case VL_INT: return p->n_int_val;
    case VL_STRING: return p->n_string_val;
    case VL_SCOMPLEX: return p->n_scomplex_val;
    case VL_INT64: return p->n_int64_val;
    case VL_BOOL: return p->n_bool_val;
    case VL_DCOMPLEX: return p->n_dcomplex_val;
    case VL_RESOURCE: return p->n_resource_handle_val;
    case VL_UINT32: return p->n_uint32_val;
    case VL_UINT64: return p->n_uint64_val;
    case VL_FLOAT8: return p->float8_val.len;
    default: return 0;
    }
}

/* The list TensorFlow reads for a (base) dtype; VL_NONE when there is none. */
static vlist vlist_for(int dt)
{
    switch (dt) {
    case SM2C_DT_FLOAT: return VL_FLOAT;
    case SM2C_DT_DOUBLE: return VL_DOUBLE;
    case SM2C_DT_INT32: case SM2C_DT_UINT8: case SM2C_DT_INT16: case SM2C_DT_INT8:
    case SM2C_DT_UINT16: case SM2C_DT_QINT8: case SM2C_DT_QUINT8: case SM2C_DT_QINT16:
    case SM2C_DT_QUINT16: case SM2C_DT_QINT32:
        return VL_INT;
    case SM2C_DT_HALF: case SM2C_DT_BFLOAT16: return VL_HALF;
    case SM2C_DT_STRING: return VL_STRING;
    case SM2C_DT_COMPLEX64: return VL_SCOMPLEX;
    case SM2C_DT_COMPLEX128: return VL_DCOMPLEX;
    case SM2C_DT_INT64: return VL_INT64;
    case SM2C_DT_BOOL: return VL_BOOL;
    case SM2C_DT_UINT32: return VL_UINT32;
    case SM2C_DT_UINT64: return VL_UINT64;
    case SM2C_DT_FLOAT8_E5M2: case SM2C_DT_FLOAT8_E4M3FN: case SM2C_DT_FLOAT8_E4M3FNUZ:
    case SM2C_DT_FLOAT8_E4M3B11FNUZ: case SM2C_DT_FLOAT8_E5M2FNUZ:
        return VL_FLOAT8;
    default: return VL_NONE;
    }
}

/* The range int_val must respect for a narrow dtype (TF would truncate). */
static int int_range(int dt, int64_t *lo, int64_t *hi)
{
    switch (dt) {
    case SM2C_DT_INT8: case SM2C_DT_QINT8: *lo = INT8_MIN; *hi = INT8_MAX; return 1;
    case SM2C_DT_UINT8: case SM2C_DT_QUINT8: *lo = 0; *hi = UINT8_MAX; return 1;
    case SM2C_DT_INT16: case SM2C_DT_QINT16: *lo = INT16_MIN; *hi = INT16_MAX; return 1;
    case SM2C_DT_UINT16: case SM2C_DT_QUINT16: *lo = 0; *hi = UINT16_MAX; return 1;
    default: return 0;
    }
}

static void store_le(uint8_t *dst, uint64_t v, size_t size)
{
    for (size_t i = 0; i < size; i++)
        dst[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t load_le(const uint8_t *src, size_t size)
{
    uint64_t v = 0;
    for (size_t i = 0; i < size; i++)
        v |= (uint64_t)src[i] << (8 * i);
    return v;
}

/* Bits of list item i, read through memcpy so no float load can touch a NaN. */
static uint64_t item_bits(const Tensorflow__TensorProto *p, vlist k, size_t i)
{
    uint32_t u32;
    uint64_t u64;
    switch (k) {
    case VL_HALF: return (uint16_t)p->half_val[i];
    case VL_FLOAT: memcpy(&u32, &p->float_val[i], 4); return u32;
    case VL_SCOMPLEX: memcpy(&u32, &p->scomplex_val[i], 4); return u32;
    case VL_DOUBLE: memcpy(&u64, &p->double_val[i], 8); return u64;
    case VL_DCOMPLEX: memcpy(&u64, &p->dcomplex_val[i], 8); return u64;
    case VL_INT: return (uint64_t)(int64_t)p->int_val[i];
    case VL_INT64: return (uint64_t)p->int64_val[i];
    case VL_BOOL: return p->bool_val[i] != 0;
    case VL_UINT32: return p->uint32_val[i];
    case VL_UINT64: return p->uint64_val[i];
    case VL_FLOAT8: return p->float8_val.data[i];
    default: sm2c_unreachable();
    }
}

/* Reject list items TF would silently truncate. */
static sm2c_status check_item(sm2c_ctx *c, const char *display, const char *where,
                              const Tensorflow__TensorProto *p, vlist k, int dt, size_t i)
{
    int64_t lo, hi, v;
    if (k == VL_HALF) {
        v = p->half_val[i];
        lo = 0;
        hi = UINT16_MAX;
    } else if (k == VL_INT && int_range(dt, &lo, &hi)) {
        v = p->int_val[i];
    } else {
        return SM2C_OK;
    }
    if (v < lo || v > hi)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                          "%s[%zu] = %lld is out of range for %s (%lld..%lld)", vlist_names[k], i,
                          (long long)v, sm2c_dtype_name(dt), (long long)lo, (long long)hi);
    return SM2C_OK;
}

/* Only the dtype's own list may be non-empty, and never next to tensor_content. */
static sm2c_status check_lists(sm2c_ctx *c, const char *display, const char *where,
                               const Tensorflow__TensorProto *p, int dt, vlist want)
{
    int content = p->tensor_content.len > 0;
    for (int k = VL_NONE + 1; k < VL_COUNT; k++) {
        if (vlist_items(p, (vlist)k) == 0)
            continue;
        if (content)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                              "constant has both tensor_content and %s", vlist_names[k]);
        if (k != (int)want)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                              "%s given for a constant of dtype %s (expected %s)", vlist_names[k],
                              sm2c_dtype_name(dt), want ? vlist_names[want] : "tensor_content");
    }
    return SM2C_OK;
}

/* ---- tensors ---------------------------------------------------------------- */

static sm2c_status check_dtype(sm2c_ctx *c, const char *display, const char *where, int dt)
{
    if (!sm2c_dtype_known(dt) || sm2c_dtype_base(dt) == SM2C_DT_INVALID)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                          "constant has invalid dtype %s", sm2c_dtype_enum_name(dt));
    int b = sm2c_dtype_base(dt);
    if (vlist_for(b) == VL_NONE)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, display, where,
                          "dtype %s not supported in a constant", sm2c_dtype_name(dt));
    return SM2C_OK;
}

/* The shape of a constant: known, and within the element limit. */
static sm2c_status const_shape(sm2c_ctx *c, const char *display, const char *where,
                               const Tensorflow__TensorProto *p, sm2c_tensor *out)
{
    sm2c_status st = sm2c_shape_from_proto(c, display, where, p->tensor_shape, &out->shape);
    if (st != SM2C_OK)
        return st;
    if (out->shape.rank < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                          "constant has an unknown rank");
    int64_t n = sm2c_shape_elements(&out->shape, c->limits->elements);
    if (n == -1)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                          "constant has shape %s with an unknown dim",
                          sm2c_shape_str(c->arena, &out->shape));
    if (n == -2)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, display, where,
                          "constant shape %s has more than %lld elements (--limit elements=N)",
                          sm2c_shape_str(c->arena, &out->shape), (long long)c->limits->elements);
    out->nelem = n;
    return SM2C_OK;
}

/* Copy string_val into the arena; elements past the list share the last string. */
static sm2c_status decode_strings(sm2c_ctx *c, const char *display, const char *where,
                                  const Tensorflow__TensorProto *p, sm2c_tensor *t)
{
    size_t n = (size_t)t->nelem, have = p->n_string_val;
    if (p->tensor_content.len > 0)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, display, where,
                          "tensor_content in a string constant is not supported");
    if (have > n)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                          "string_val has %zu values, shape %s string has only %zu elements",
                          have, sm2c_shape_str(c->arena, &t->shape), n);
    t->strings = sm2c_arena_array(c->arena, n ? n : 1, sizeof *t->strings);
    for (size_t i = 0; i < have; i++) {
        uint8_t *d = sm2c_arena_alloc(c->arena, p->string_val[i].len);
        if (p->string_val[i].len)
            memcpy(d, p->string_val[i].data, p->string_val[i].len);
        t->strings[i].data = d;
        t->strings[i].len = p->string_val[i].len;
    }
    for (size_t i = have; i < n; i++) {
        if (have)
            t->strings[i] = t->strings[have - 1];
        else
            t->strings[i].data = sm2c_arena_alloc(c->arena, 1);
    }
    return SM2C_OK;
}

/* Fill t->data from list k: item bits stored little-endian, then the last
** element repeated (the zeroed arena already gives zeros for an empty list). */
static sm2c_status decode_list(sm2c_ctx *c, const char *display, const char *where,
                               const Tensorflow__TensorProto *p, vlist k, sm2c_tensor *t)
{
    size_t per = (k == VL_SCOMPLEX || k == VL_DCOMPLEX) ? 2 : 1;
    size_t items = vlist_items(p, k), esize = sm2c_dtype_size(t->dtype), isize = esize / per;
    if (items % per)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                          "%s has %zu items, not a whole number of complex pairs",
                          vlist_names[k], items);
    size_t have = items / per, n = (size_t)t->nelem;
    if (have > n)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                          "%s has %zu values, shape %s %s has only %zu elements",
                          vlist_names[k], have, sm2c_shape_str(c->arena, &t->shape),
                          sm2c_dtype_name(t->dtype), n);
    uint8_t *d = t->data;
    for (size_t i = 0; i < items; i++) {
        sm2c_status st = check_item(c, display, where, p, k, t->dtype, i);
        if (st != SM2C_OK)
            return st;
        store_le(d + i * isize, item_bits(p, k, i), isize);
    }
    for (size_t i = have; have && i < n; i++)
        memcpy(d + i * esize, d + (have - 1) * esize, esize);
    return SM2C_OK;
}

static sm2c_status decode_content(sm2c_ctx *c, const char *display, const char *where,
                                  const Tensorflow__TensorProto *p, sm2c_tensor *t)
{
    if (p->tensor_content.len != t->nbytes)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, display, where,
                          "tensor_content has %zu bytes, shape %s %s needs %zu",
                          p->tensor_content.len, sm2c_shape_str(c->arena, &t->shape),
                          sm2c_dtype_name(t->dtype), t->nbytes);
    memcpy(t->data, p->tensor_content.data, t->nbytes);
    /* A bool byte other than 0/1 is UB once it is a C bool; TF reads it as true. */
    if (t->dtype == SM2C_DT_BOOL)
        for (size_t i = 0; i < t->nbytes; i++)
            ((uint8_t *)t->data)[i] = ((uint8_t *)t->data)[i] != 0;
    return SM2C_OK;
}

sm2c_status sm2c_tensor_from_proto(sm2c_ctx *c, const char *display, const char *where,
                                   const Tensorflow__TensorProto *p, sm2c_tensor *out)
{
    memset(out, 0, sizeof *out);
    sm2c_status st = check_dtype(c, display, where, (int)p->dtype);
    if (st != SM2C_OK)
        return st;
    out->dtype = sm2c_dtype_base((int)p->dtype);
    vlist want = vlist_for(out->dtype);
    if ((st = const_shape(c, display, where, p, out)) != SM2C_OK ||
        (st = check_lists(c, display, where, p, out->dtype, want)) != SM2C_OK)
        return st;
    /* nelem <= limits->elements, but one listed value can stand for all of
    ** them: bound the bytes we would allocate, not only the count. */
    size_t esize = want == VL_STRING ? sizeof(sm2c_bytes) : sm2c_dtype_size(out->dtype);
    if ((uint64_t)out->nelem > SIZE_MAX / esize ||
        (int64_t)((uint64_t)out->nelem * esize) > c->limits->const_bytes)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, display, where,
                          "constant of %lld elements needs more than %lld bytes "
                          "(--limit const-bytes=N raises it)",
                          (long long)out->nelem, (long long)c->limits->const_bytes);
    if (want == VL_STRING)
        return decode_strings(c, display, where, p, out);
    out->nbytes = (size_t)out->nelem * esize;
    out->data = sm2c_arena_alloc(c->arena, out->nbytes);
    if (p->tensor_content.len > 0)
        return decode_content(c, display, where, p, out);
    return decode_list(c, display, where, p, want, out);
}

/* ---- half, bfloat16 and float8 ---------------------------------------------- */

static float float_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

float sm2c_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f)   /* Inf, or NaN with its payload moved to the top */
        return float_from_bits(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {    /* zero or subnormal: exact as man * 2^-24 */
        float f = ldexpf((float)man, -24);
        return sign ? -f : f;
    }
    return float_from_bits(sign | ((exp + 112) << 23) | (man << 13));
}

float sm2c_bfloat16_to_float(uint16_t b)
{
    return float_from_bits((uint32_t)b << 16);
}

/* The float8 formats as (exponent bits, bias, fnuz).  "fnuz" formats have no
** infinities or -0 and use 0x80 as their only NaN; E4M3FN has no infinities
** and uses S.1111.111 as NaN; E5M2 is IEEE-like (the top byte of a half). */
static double float8_to_double(int dt, uint8_t v)
{
    int ebits, bias, fnuz = 0;
    switch (dt) {
    case SM2C_DT_FLOAT8_E5M2: return sm2c_half_to_float((uint16_t)(v << 8));
    case SM2C_DT_FLOAT8_E4M3FN: ebits = 4; bias = 7; break;
    case SM2C_DT_FLOAT8_E4M3FNUZ: ebits = 4; bias = 8; fnuz = 1; break;
    case SM2C_DT_FLOAT8_E4M3B11FNUZ: ebits = 4; bias = 11; fnuz = 1; break;
    default: ebits = 5; bias = 16; fnuz = 1; break;   /* E5M2FNUZ */
    }
    int mbits = 7 - ebits, exp = (v >> mbits) & ((1 << ebits) - 1), man = v & ((1 << mbits) - 1);
    int neg = v >> 7;
    if (fnuz && v == 0x80)
        return NAN;
    if (!fnuz && (v & 0x7f) == 0x7f)
        return copysign(NAN, neg ? -1.0 : 1.0);
    double mag = exp ? ldexp(1.0 + man / (double)(1 << mbits), exp - bias)
                     : ldexp(man / (double)(1 << mbits), 1 - bias);
    return neg ? -mag : mag;
}

/* ---- accessors -------------------------------------------------------------- */

/* Bits of element i (the real part of a complex) and their byte count. */
static uint64_t element_bits(const sm2c_tensor *t, int64_t i, size_t *size)
{
    size_t stride = sm2c_dtype_size(t->dtype);
    SM2C_ASSERT(t->data && stride > 0 && i >= 0 && i < t->nelem);
    int complex = t->dtype == SM2C_DT_COMPLEX64 || t->dtype == SM2C_DT_COMPLEX128;
    *size = complex ? stride / 2 : stride;
    return load_le((const uint8_t *)t->data + (size_t)i * stride, *size);
}

int sm2c_tensor_is_integer(int dtype)
{
    switch (sm2c_dtype_base(dtype)) {
    case SM2C_DT_INT8: case SM2C_DT_INT16: case SM2C_DT_INT32: case SM2C_DT_INT64:
    case SM2C_DT_UINT8: case SM2C_DT_UINT16: case SM2C_DT_UINT32: case SM2C_DT_UINT64:
    case SM2C_DT_QINT8: case SM2C_DT_QUINT8: case SM2C_DT_QINT16: case SM2C_DT_QUINT16:
    case SM2C_DT_QINT32:
        return 1;
    default:
        return 0;
    }
}

static int is_signed_int(int dt)
{
    switch (dt) {
    case SM2C_DT_INT8: case SM2C_DT_INT16: case SM2C_DT_INT32: case SM2C_DT_INT64:
    case SM2C_DT_QINT8: case SM2C_DT_QINT16: case SM2C_DT_QINT32:
        return 1;
    default:
        return 0;
    }
}

/* Sign-extend the low `size` bytes. */
static int64_t sign_extend(uint64_t v, size_t size)
{
    if (size == 8)
        return v > (uint64_t)INT64_MAX ? -(int64_t)(~v) - 1 : (int64_t)v;
    uint64_t m = (uint64_t)1 << (8 * size - 1);
    return (int64_t)((v ^ m)) - (int64_t)m;
}

int64_t sm2c_tensor_get_i64(const sm2c_tensor *t, int64_t i)
{
    SM2C_ASSERT(sm2c_tensor_is_integer(t->dtype) || t->dtype == SM2C_DT_BOOL);
    size_t size;
    uint64_t v = element_bits(t, i, &size);
    if (is_signed_int(t->dtype))
        return sign_extend(v, size);
    return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;   /* uint64 saturates */
}

uint64_t sm2c_tensor_get_u64(const sm2c_tensor *t, int64_t i)
{
    SM2C_ASSERT(sm2c_tensor_is_integer(t->dtype) || t->dtype == SM2C_DT_BOOL);
    size_t size;
    uint64_t v = element_bits(t, i, &size);
    if (is_signed_int(t->dtype)) {
        int64_t s = sign_extend(v, size);
        return s < 0 ? 0 : (uint64_t)s;   /* negative saturates at 0 */
    }
    return v;
}

double sm2c_tensor_get_f64(const sm2c_tensor *t, int64_t i)
{
    size_t size;
    uint64_t v = element_bits(t, i, &size);
    double d;
    switch (t->dtype) {
    case SM2C_DT_FLOAT: case SM2C_DT_COMPLEX64:
        return float_from_bits((uint32_t)v);
    case SM2C_DT_DOUBLE: case SM2C_DT_COMPLEX128:
        memcpy(&d, &v, sizeof d);
        return d;
    case SM2C_DT_HALF: return sm2c_half_to_float((uint16_t)v);
    case SM2C_DT_BFLOAT16: return sm2c_bfloat16_to_float((uint16_t)v);
    case SM2C_DT_BOOL: return v != 0;
    case SM2C_DT_FLOAT8_E5M2: case SM2C_DT_FLOAT8_E4M3FN: case SM2C_DT_FLOAT8_E4M3FNUZ:
    case SM2C_DT_FLOAT8_E4M3B11FNUZ: case SM2C_DT_FLOAT8_E5M2FNUZ:
        return float8_to_double(t->dtype, (uint8_t)v);
    default:
        if (is_signed_int(t->dtype))
            return (double)sign_extend(v, size);
        return (double)v;
    }
}
