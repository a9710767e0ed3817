/*
** fuzz_shape_math.c (docs/reliability.md section 8, target 8): random int64 dims
** and attributes -> broadcast, conv/pool output sizes, reshape inference,
** Slice and StridedSlice resolution and element counts (shape_math.h,
** sm2c_shape_elements).
** Oracle: the same formulas evaluated in __int128, where nothing overflows:
** a checked step reports OVERFLOW exactly when its exact value leaves int64,
** and otherwise the results are equal.
*/
#include "fuzz_common.h"
#include "base/shape_math.h"

__extension__ typedef __int128 i128;

static int fits(i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static int64_t next_i64(reader *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)(r->n ? (r->n--, *r->p++) : 0) << (8 * i);
    /* Small values are what shapes mostly hold: the top byte scales them. */
    switch (v >> 61) {
    case 0: case 1: case 2: return (int64_t)(v & 0xff) - 2;
    case 3: return (int64_t)(v & 0xffff);
    default: return (int64_t)v;
    }
}

static void check_window(reader *r)
{
    int same = (int)(next_i64(r) & 1);
    int64_t in = next_i64(r), k = next_i64(r), dil = next_i64(r), stride = next_i64(r), out = 0, pad = 0;
    sm2c_dims_status st = sm2c_window_out_size(same, in, k, dil, stride, &out, &pad);
    if (in < 0 || k <= 0 || dil <= 0 || stride <= 0) {
        FUZZ_CHECK(st == SM2C_DIMS_BAD, "window with bad arguments gave %d", st);
        return;
    }
    i128 eff = (i128)(k - 1) * dil, o, need;
    int ovf = !fits(eff) || !fits(eff += 1);
    if (!same) {
        i128 t = (i128)in - eff;
        ovf = ovf || !fits(t) || !fits(t += stride);
        o = ovf ? 0 : t / stride;
        need = 0;
    } else {
        i128 t = (i128)in + (stride - 1);
        ovf = ovf || !fits(t);
        o = t / stride;
        need = (o - 1) * stride;
        ovf = ovf || !fits(need) || !fits(need += eff) || !fits(need -= in);
    }
    FUZZ_CHECK((st == SM2C_DIMS_OVERFLOW) == ovf, "window(%d, %lld, %lld, %lld, %lld): status %d",
               same, (long long)in, (long long)k, (long long)dil, (long long)stride, st);
    if (ovf)
        return;
    FUZZ_CHECK((st == SM2C_DIMS_BAD) == (o < 0), "window out %lld, status %d", (long long)o, st);
    if (st == SM2C_DIMS_OK)
        FUZZ_CHECK(out == (int64_t)o && pad == (int64_t)(need > 0 ? need / 2 : 0),
                   "window(%d, %lld, %lld, %lld, %lld) = %lld pad %lld", same, (long long)in,
                   (long long)k, (long long)dil, (long long)stride, (long long)out, (long long)pad);
}

static void check_reshape(reader *r)
{
    int32_t rank = (int32_t)((uint64_t)next_i64(r) % 7);
    int64_t total = next_i64(r), dims[8], orig[8];
    int unknown = -1, bad = 0, zero = 0;
    for (int32_t i = 0; i < rank; i++) {
        orig[i] = dims[i] = next_i64(r);
        if (dims[i] == -1 && unknown < 0)
            unknown = i;
        else if (dims[i] < 0)
            bad = 1;
        else
            zero |= dims[i] == 0;
    }
    sm2c_dims_status st = sm2c_reshape_infer(total, rank, dims);
    if (bad) {
        FUZZ_CHECK(st == SM2C_DIMS_BAD, "reshape with a bad dim gave %d", st);
        return;
    }
    i128 known = 1;
    int ovf = 0;
    for (int32_t i = 0; i < rank && !zero && !ovf; i++)
        if (i != unknown)
            ovf = !fits(known *= orig[i]);
    if (zero)
        known = 0, ovf = 0;
    FUZZ_CHECK((st == SM2C_DIMS_OVERFLOW) == ovf, "reshape overflow status %d", st);
    if (ovf)
        return;
    i128 inferred = unknown >= 0 ? (known ? total / known : 0) : 1;
    int ok = (unknown >= 0 ? known * inferred : known) == total;
    FUZZ_CHECK((st == SM2C_DIMS_OK) == ok, "reshape of %lld: status %d", (long long)total, st);
    if (ok && unknown >= 0)
        FUZZ_CHECK(dims[unknown] == (int64_t)inferred, "inferred %lld", (long long)dims[unknown]);
}

static void check_slice(reader *r)
{
    int64_t dim = next_i64(r), b = next_i64(r), size = next_i64(r), out = -7;
    sm2c_dims_status st = sm2c_slice_dim(dim, b, size, &out);
    i128 z = size == -1 ? (i128)dim - b : size;
    int ok = dim >= 0 && b >= 0 && b <= dim && z >= 0 && z <= (i128)dim - b;
    FUZZ_CHECK((st == SM2C_DIMS_OK) == ok, "slice(%lld, %lld, %lld): status %d", (long long)dim,
               (long long)b, (long long)size, st);
    if (ok)
        FUZZ_CHECK(out == (int64_t)z, "slice size %lld", (long long)out);
}

static i128 clamp(i128 v, i128 lo, i128 hi) { return v < lo ? lo : v > hi ? hi : v; }

static void check_strided(reader *r)
{
    int64_t dim = next_i64(r), b = next_i64(r), e = next_i64(r), stride = next_i64(r);
    int64_t masks = next_i64(r), begin = -7, size = -7;
    int bm = (int)(masks & 1), em = (int)(masks >> 1 & 1);
    sm2c_dims_status st = sm2c_strided_dim(dim, b, e, stride, bm, em, &begin, &size);
    FUZZ_CHECK((st == SM2C_DIMS_OK) == (dim >= 0 && stride != 0), "strided status %d", st);
    if (st)
        return;
    i128 lo = stride > 0 ? 0 : -1, hi = stride > 0 ? dim : (i128)dim - 1;
    i128 B = bm ? (stride > 0 ? lo : hi) : clamp(b < 0 ? (i128)b + dim : b, lo, hi);
    i128 E = em ? (stride > 0 ? hi : lo) : clamp(e < 0 ? (i128)e + dim : e, lo, hi);
    i128 span = stride > 0 ? E - B : B - E, mag = stride > 0 ? (i128)stride : -(i128)stride;
    i128 n = span <= 0 ? 0 : (span + mag - 1) / mag;
    FUZZ_CHECK(begin == (int64_t)B && size == (int64_t)n,
               "strided(%lld, %lld, %lld, %lld, %d, %d) = %lld +%lld, want %lld +%lld",
               (long long)dim, (long long)b, (long long)e, (long long)stride, bm, em,
               (long long)begin, (long long)size, (long long)B, (long long)n);
    FUZZ_CHECK(size <= dim && (size == 0 || (begin >= 0 && begin < dim)), "slice leaves the dim");
}

static void check_broadcast(reader *r)
{
    int64_t a[8] = { 0 }, b[8] = { 0 }, out[8] = { 0 };
    int32_t ra = (int32_t)((uint64_t)next_i64(r) % 6), rb = (int32_t)((uint64_t)next_i64(r) % 6);
    for (int32_t i = 0; i < ra; i++)
        a[i] = next_i64(r);
    for (int32_t i = 0; i < rb; i++)
        b[i] = next_i64(r);
    sm2c_dims_status st = sm2c_broadcast_dims(ra, a, rb, b, out);
    int32_t rank = ra > rb ? ra : rb;
    int ok = 1;
    for (int32_t i = 0; i < rank && ok; i++) {
        int64_t da = i - (rank - ra) >= 0 ? a[i - (rank - ra)] : 1;
        int64_t db = i - (rank - rb) >= 0 ? b[i - (rank - rb)] : 1;
        ok = da >= 0 && db >= 0 && (da == db || da == 1 || db == 1);
        if (ok && st == SM2C_DIMS_OK)
            FUZZ_CHECK(out[i] == (da == 1 ? db : da), "broadcast dim %d", i);
    }
    FUZZ_CHECK((st == SM2C_DIMS_OK) == ok, "broadcast status %d", st);
}

static void check_elements(reader *r)
{
    int64_t dims[17], cap = next_i64(r);
    if (cap < 1)
        cap = INT32_MAX;
    sm2c_shape s = { (int32_t)((uint64_t)next_i64(r) % 18) - 1, dims };
    int unknown = s.rank < 0, zero = 0;
    for (int32_t i = 0; i < s.rank; i++) {
        dims[i] = next_i64(r);
        unknown |= dims[i] < 0;
        zero |= dims[i] == 0;
    }
    i128 n = 1;
    for (int32_t i = 0; i < s.rank && !unknown && !zero && n <= cap; i++)
        n *= dims[i];       /* stops once past cap, so never beyond 2^126 */
    int64_t want = unknown ? -1 : zero ? 0 : n > cap ? -2 : (int64_t)n;
    int64_t got = sm2c_shape_elements(&s, cap);
    FUZZ_CHECK(got == want, "elements = %lld, want %lld", (long long)got, (long long)want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static void (*const checks[])(reader *) = { check_window, check_reshape, check_slice,
                                                 check_strided, check_broadcast, check_elements };
    reader r = { data, size };
    while (r.n > 0) {
        uint8_t which = *r.p++;
        r.n--;
        checks[which % (sizeof checks / sizeof *checks)](&r);
    }
    return 0;
}
