/*
** fuzz_tensorproto_decode.c (docs/reliability.md section 8, target 7): TensorProto
** bytes -> pre-scan and unpack -> dense tensor (tensor_content or the typed
** *_val lists with TensorFlow's repeat-the-last-value rule).
** Oracle: the output has exactly the checked element count of its shape, and
** elements x element-size bytes, every one of them readable (ASan).
*/
#include "fuzz_common.h"
#include "load/pbwire.h"
#include "load/tensor_proto.h"

static void check_tensor(const fuzz_ctx *f, const sm2c_tensor *t)
{
    int64_t n = sm2c_shape_elements(&t->shape, f->limits.elements);
    FUZZ_CHECK(n >= 0 && n == t->nelem, "nelem %lld, shape %s", (long long)t->nelem,
               sm2c_shape_str(f->arena, &t->shape));
    size_t es = sm2c_dtype_size(t->dtype);
    unsigned sum = 0;
    if (sm2c_dtype_base(t->dtype) == SM2C_DT_STRING) {
        FUZZ_CHECK(n == 0 || t->strings, "no strings for %lld elements", (long long)n);
        for (int64_t i = 0; i < n; i++)
            for (size_t k = 0; k < t->strings[i].len; k++)
                sum += t->strings[i].data[k];
    } else if (es) {
        FUZZ_CHECK(t->nbytes == (size_t)n * es, "%zu bytes for %lld x %zu", t->nbytes,
                   (long long)n, es);
        FUZZ_CHECK((int64_t)t->nbytes <= f->limits.const_bytes, "%zu bytes over the limit",
                   t->nbytes);
        for (size_t i = 0; i < t->nbytes; i++)
            sum += ((const uint8_t *)t->data)[i];
        for (int64_t i = 0; i < n && i < 64; i++)   /* the typed accessors on real data */
            (void)sm2c_tensor_get_f64(t, i);
    }
    (void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_ctx f;
    fuzz_begin(&f);
    ProtobufCMessage *msg;
    sm2c_status st = sm2c_pb_unpack(&f.c, "tensor", &tensorflow__tensor_proto__descriptor, data,
                                    size, &msg);
    sm2c_tensor t;
    if (!st)
        st = sm2c_tensor_from_proto(&f.c, "tensor", "value", (const Tensorflow__TensorProto *)msg, &t);
    if (!st)
        check_tensor(&f, &t);
    fuzz_end(&f, st);
    return 0;
}
