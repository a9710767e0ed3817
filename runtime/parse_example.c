/*
** parse_example.c: ParseExample / ParseExampleV2 dense features, read from a
** batch of serialized tf.Example protos (the wire format and TensorFlow's
** reading rules: example_wire.h).  A missing feature, or one with no kind (an
** empty Feature), takes the default, or is an error when there is none (a
** required feature); a feature whose kind is not the dense type (an
** int64_list for a float feature) or whose value count is not the dense
** shape's is an error, as is malformed wire data.  Every error is
** SM2C_RT_ERR_EXAMPLE; nothing is read outside [data, data + len) of each
** string, and nothing is written outside out[0, n * count).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sm2c_rt.h"
#include "example_wire.h"

int32_t sm2c_rt_parse_example_dense(const sm2c_string *serialized, int32_t n, const int32_t *key,
                                    int32_t key_len, int32_t dtype, int32_t count,
                                    const void *deflt, void *out)
{
    size_t es = dtype == 1 ? sizeof(float) : sizeof(int64_t);
    int32_t i, got;
    if ((dtype != 1 && dtype != 9) || n < 0 || count < 0 || key_len < 0)
        return SM2C_RT_ERR_EXAMPLE;
    for (i = 0; i < n; i++) {
        pe_span f = { NULL, 0 };
        unsigned char *dst = (unsigned char *)out + (size_t)i * (size_t)count * es;
        int r;
        r = pe_feature(&serialized[i], key, key_len, &f);
        if (r < 0)
            return SM2C_RT_ERR_EXAMPLE;
        if (r == 0 || f.n == 0) {      /* absent, or a Feature of no kind: the default */
            if (!deflt)
                return SM2C_RT_ERR_EXAMPLE;    /* a required feature is missing */
            if (count)
                memcpy(dst, deflt, (size_t)count * es);
            continue;
        }
        if (!pe_list(f, dtype, count, dst, &got) || got != count)
            return SM2C_RT_ERR_EXAMPLE;
    }
    return SM2C_RT_OK;
}
