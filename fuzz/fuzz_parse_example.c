/*
** fuzz_parse_example.c: the tf.Example parsers of ParseExample
** (runtime/parse_example.c, sm2c_rt_parse_example_dense, and
** runtime/parse_example_sparse.c, sm2c_rt_parse_example_sparse) on arbitrary
** bytes.
**
** Input: byte 0 picks the dense type (bit 0: float / int64), whether the
** feature has a default (bit 1), its value count (bits 2-4: 0..7) and the key
** (bits 5-7: "x", "r", "", "xy", or the bytes of the next key-length byte);
** the rest is split into up to 4 serialized protos, each preceded by a length
** byte.  Every proto is copied to a buffer of exactly its size and the output
** has exactly n * count elements, so any read or write out of bounds is an
** ASan report.
** Oracle: the status is SM2C_RT_OK or SM2C_RT_ERR_EXAMPLE; the same input
** parses to the same status and (on success) the same values twice; a
** successful parse with a default leaves the default's bytes in the rows of
** examples that lack the feature (checked indirectly: a default-less parse
** that succeeds gives the same values).  The sparse parse of the same
** feature with at most `count` values per example (outputs of exactly that
** bound) returns OK or SM2C_RT_ERR_EXAMPLE; on OK its count is within the
** bound, its index rows are (example, position) in order, dense_shape is (n,
** the most values); where the default-less dense parse succeeds, it succeeds
** too with every example's count values, the same ones.
*/
#include "fuzz_common.h"
#include "sm2c_rt.h"

#define MAX_EXAMPLES 4

static void check_sparse(const sm2c_string *ex, int32_t n, const int32_t *kp, int32_t key_len, int32_t dtype,
                         int32_t count, const unsigned char *dense)
{
    size_t es = dtype == 1 ? sizeof(float) : sizeof(int64_t), bound = (size_t)n * (size_t)count;
    int64_t *idx = malloc(bound ? bound * 2 * sizeof *idx : 1), got = -1, shape[2] = { -1, -1 };
    unsigned char *vals = malloc(bound ? bound * es : 1);
    FUZZ_CHECK(idx && vals, "out of memory");
    int32_t st = sm2c_rt_parse_example_sparse(ex, n, 1, kp, key_len, dtype, count, idx, vals, &got, shape);
    FUZZ_CHECK(st == SM2C_RT_OK || st == SM2C_RT_ERR_EXAMPLE, "sparse status %d", (int)st);
    if (dense)
        FUZZ_CHECK(st == SM2C_RT_OK, "the dense parse succeeds, the sparse one not");
    if (st == SM2C_RT_OK) {
        FUZZ_CHECK(got >= 0 && (size_t)got <= bound, "sparse count %lld", (long long)got);
        FUZZ_CHECK(shape[0] == n && shape[1] >= 0 && shape[1] <= count, "dense_shape");
        for (int64_t k = 0; k < got; k++) {
            FUZZ_CHECK(idx[2 * k] >= 0 && idx[2 * k] < n && idx[2 * k + 1] >= 0 && idx[2 * k + 1] < shape[1],
                       "index row %lld", (long long)k);
            if (k)
                FUZZ_CHECK(idx[2 * k] > idx[2 * k - 2] ||
                           (idx[2 * k] == idx[2 * k - 2] && idx[2 * k + 1] == idx[2 * k - 1] + 1),
                           "index rows out of order");
        }
        if (dense)
            FUZZ_CHECK((size_t)got == bound && (!bound || memcmp(vals, dense, bound * es) == 0),
                       "sparse values differ from the dense parse");
    }
    free(idx);
    free(vals);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t cfg = data[0];
    int32_t dtype = cfg & 1 ? 9 : 1;
    int has_default = (cfg >> 1) & 1;
    int32_t count = (cfg >> 2) & 7;
    static const char *const keys[4] = { "x", "r", "", "xy" };
    int32_t key[8], key_len;
    size_t at = 1;
    int which = cfg >> 5;
    if (which < 4) {
        key_len = (int32_t)strlen(keys[which]);
        for (int32_t i = 0; i < key_len; i++)
            key[i] = (uint8_t)keys[which][i];
    } else {
        key_len = at < size ? data[at++] % 9 : 0;
        for (int32_t i = 0; i < key_len; i++)
            key[i] = at < size ? data[at++] : 0;
    }
    sm2c_string ex[MAX_EXAMPLES];
    uint8_t *copies[MAX_EXAMPLES] = { NULL };
    int32_t n = 0;
    while (at < size && n < MAX_EXAMPLES) {
        size_t len = data[at++];
        if (len > size - at)
            len = size - at;
        copies[n] = malloc(len ? len : 1);
        FUZZ_CHECK(copies[n] != NULL, "out of memory");
        memcpy(copies[n], data + at, len);
        ex[n].data = len ? copies[n] : NULL;
        ex[n].len = (int64_t)len;
        at += len;
        n++;
    }
    size_t es = dtype == 1 ? sizeof(float) : sizeof(int64_t);
    size_t out_bytes = (size_t)n * (size_t)count * es;
    unsigned char *out1 = malloc(out_bytes ? out_bytes : 1), *out2 = malloc(out_bytes ? out_bytes : 1);
    unsigned char *out3 = malloc(out_bytes ? out_bytes : 1);
    unsigned char deflt[7 * sizeof(int64_t)];
    FUZZ_CHECK(out1 && out2 && out3, "out of memory");
    for (size_t i = 0; i < sizeof deflt; i++)
        deflt[i] = (unsigned char)(0xa0 + i);
    unsigned char *dflt = count ? malloc((size_t)count * es) : NULL;
    if (dflt)
        memcpy(dflt, deflt, (size_t)count * es);
    const void *dp = has_default ? (const void *)(dflt ? dflt : deflt) : NULL;
    const int32_t *kp = key_len ? key : NULL;

    int32_t s1 = sm2c_rt_parse_example_dense(ex, n, kp, key_len, dtype, count, dp, out1);
    int32_t s2 = sm2c_rt_parse_example_dense(ex, n, kp, key_len, dtype, count, dp, out2);
    FUZZ_CHECK(s1 == SM2C_RT_OK || s1 == SM2C_RT_ERR_EXAMPLE, "status %d", (int)s1);
    FUZZ_CHECK(s1 == s2, "status %d then %d", (int)s1, (int)s2);
    if (s1 == SM2C_RT_OK)
        FUZZ_CHECK(!out_bytes || memcmp(out1, out2, out_bytes) == 0, "two parses differ");
    /* Without the default: fails where a row needed it, else the same values. */
    int32_t s3 = sm2c_rt_parse_example_dense(ex, n, kp, key_len, dtype, count, NULL, out3);
    FUZZ_CHECK(s3 == SM2C_RT_OK || s3 == SM2C_RT_ERR_EXAMPLE, "status %d", (int)s3);
    if (s3 == SM2C_RT_OK) {
        FUZZ_CHECK(s1 == SM2C_RT_OK, "parses without a default but not with one");
        FUZZ_CHECK(!out_bytes || memcmp(out1, out3, out_bytes) == 0, "the default changed present values");
    }
    check_sparse(ex, n, kp, key_len, dtype, count, s3 == SM2C_RT_OK ? out3 : NULL);
    for (int32_t i = 0; i < n; i++)
        free(copies[i]);
    free(out1);
    free(out2);
    free(out3);
    free(dflt);
    return 0;
}
