/*
** fuzz_npy.c: .npy parsing (compiler/cli/npy.c, what `sm2c run --input` and
** `--calibration` read) on arbitrary bytes.
**
** Input: the bytes of a .npy file, copied to a buffer of exactly their size
** (a read past the end is an ASan report).
** Oracle: the library's status contract (fuzz_common.h); on success the
** tensor is consistent (elements = the shape's product, bytes = elements x
** the dtype's size; reading string elements is an ASan report if they point
** outside the input or the arena), bool elements are 0 or
** 1, and writing it and parsing what was written gives the same dtype, shape
** and bytes (strings: the same bytes up to trailing NULs, which the 'S' form
** that sm2c writes cannot hold).
*/
#include "fuzz_common.h"

#include "cli/npy.h"
#include "ir/ir.h"

static void check_tensor(const sm2c_tensor *t)
{
    int64_t n = 1;
    FUZZ_CHECK(t->shape.rank >= 0, "rank %d", (int)t->shape.rank);
    for (int32_t d = 0; d < t->shape.rank; d++) {
        FUZZ_CHECK(t->shape.dims[d] >= 0, "dim %d is %lld", (int)d, (long long)t->shape.dims[d]);
        FUZZ_CHECK(!t->shape.dims[d] || n <= INT64_MAX / t->shape.dims[d], "elements overflow");
        n *= t->shape.dims[d];
    }
    FUZZ_CHECK(n == t->nelem, "nelem %lld, shape gives %lld", (long long)t->nelem, (long long)n);
    if (t->dtype == SM2C_DT_STRING) {
        FUZZ_CHECK(t->strings || !n, "string tensor without elements");
        for (int64_t i = 0; i < n; i++) {
            const sm2c_bytes *s = &t->strings[i];
            FUZZ_CHECK(!s->len || s->data, "string %lld has no bytes", (long long)i);
        }
        return;
    }
    FUZZ_CHECK(t->nbytes == (size_t)n * sm2c_dtype_size(t->dtype), "nbytes %zu for %lld %s", t->nbytes,
               (long long)n, sm2c_dtype_name(t->dtype));
    FUZZ_CHECK(!t->nbytes || t->data, "no data");
    if (t->dtype == SM2C_DT_BOOL)
        for (size_t i = 0; i < t->nbytes; i++)
            FUZZ_CHECK(((const uint8_t *)t->data)[i] <= 1, "bool element %zu", i);
}

static size_t trimmed(const sm2c_bytes *s)
{
    size_t len = s->len;
    while (len && !s->data[len - 1])
        len--;
    return len;
}

static void check_same(const sm2c_tensor *a, const sm2c_tensor *b)
{
    FUZZ_CHECK(a->dtype == b->dtype, "dtype %d became %d", a->dtype, b->dtype);
    FUZZ_CHECK(sm2c_shape_equal(&a->shape, &b->shape), "shape changed");
    FUZZ_CHECK(a->nelem == b->nelem, "nelem changed");
    if (a->dtype != SM2C_DT_STRING) {
        FUZZ_CHECK(a->nbytes == b->nbytes && (!a->nbytes || !memcmp(a->data, b->data, a->nbytes)),
                   "data changed");
        return;
    }
    for (int64_t i = 0; i < a->nelem; i++) {
        size_t la = trimmed(&a->strings[i]), lb = trimmed(&b->strings[i]);
        FUZZ_CHECK(la == lb && (!la || !memcmp(a->strings[i].data, b->strings[i].data, la)),
                   "string %lld changed", (long long)i);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_ctx f;
    fuzz_begin(&f);
    uint8_t *in = malloc(size ? size : 1);
    FUZZ_CHECK(in, "out of memory");
    if (size)
        memcpy(in, data, size);
    sm2c_tensor t;
    sm2c_status st = sm2c_npy_parse(&f.c, "in.npy", in, size, &t);
    if (st == SM2C_OK) {
        check_tensor(&t);
        sm2c_buf out;
        sm2c_status wst = sm2c_npy_encode(&f.c, "out.npy", &t, &out);
        FUZZ_CHECK(wst == SM2C_OK, "a parsed tensor cannot be written: %s", f.diag.first);
        sm2c_tensor back;
        sm2c_status rst = sm2c_npy_parse(&f.c, "out.npy", out.data, out.len, &back);
        FUZZ_CHECK(rst == SM2C_OK, "what was written does not parse: %s", f.diag.first);
        check_same(&t, &back);
    }
    fuzz_end(&f, st);
    free(in);
    return 0;
}
