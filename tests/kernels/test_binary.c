/* test_binary.c: the broadcasting binary kernels of binary_<dtype>.c against a
** naive reference.  Float add/sub/mul/div/squared_difference within 1 ULP of
** the correctly rounded result (computed in double, which rounds innocuously
** to float); Maximum/Minimum bit-exact with TensorFlow's NaN rules; integers
** bit-exact with two's complement wraparound. */
#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MAX, OP_MIN, OP_SQD, NOPS };
static const char *const op_names[NOPS] = {"add", "sub", "mul", "div", "maximum", "minimum",
                                           "squared_difference"};

/* TF (Eigen PropagateNaN, measured on TF 2.21): NaN in a wins, then NaN in b,
** ties give b. */
static float ref_max32(float a, float b)
{
    return isnan(a) ? a : isnan(b) ? b : a > b ? a : b;
}
static float ref_min32(float a, float b)
{
    return isnan(a) ? a : isnan(b) ? b : a < b ? a : b;
}

static float ref_f32(int op, float a, float b)
{
    const double da = a, db = b;
    switch (op) {
    case OP_ADD: return (float)(da + db);
    case OP_SUB: return (float)(da - db);
    case OP_MUL: return (float)(da * db);
    case OP_DIV: return (float)(da / db);
    case OP_MAX: return ref_max32(a, b);
    case OP_MIN: return ref_min32(a, b);
    default: {
        const float d = (float)(da - db);
        return (float)((double)d * d);
    }
    }
}

static double ref_f64(int op, double a, double b)
{
    switch (op) {
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    case OP_DIV: return a / b;
    case OP_MAX: return isnan(a) ? a : isnan(b) ? b : a > b ? a : b;
    default: return isnan(a) ? a : isnan(b) ? b : a < b ? a : b;
    }
}

/* Wraparound reference computed in 64 bits, then reduced mod 2^32. */
static int32_t ref_i32(int op, int32_t a, int32_t b)
{
    int64_t v;
    uint32_t u;
    switch (op) {
    case OP_ADD: v = (int64_t)a + b; break;
    case OP_SUB: v = (int64_t)a - b; break;
    case OP_MUL: v = (int64_t)a * b; break;
    case OP_MAX: return a > b ? a : b;
    default: return a < b ? a : b;
    }
    u = (uint32_t)((uint64_t)v & 0xffffffffu);
    return u >= 0x80000000u ? (int32_t)(u - 0x80000000u) - 2147483647 - 1 : (int32_t)u;
}

static int64_t ref_i64(int op, int64_t a, int64_t b)
{
    uint64_t u;
    switch (op) {
    case OP_ADD: u = (uint64_t)a + (uint64_t)b; break;
    case OP_SUB: u = (uint64_t)a - (uint64_t)b; break;
    case OP_MUL: u = (uint64_t)a * (uint64_t)b; break;
    case OP_MAX: return a > b ? a : b;
    default: return a < b ? a : b;
    }
    return u >= 0x8000000000000000ull ? (int64_t)(u - 0x8000000000000000ull) - INT64_MAX - 1
                                      : (int64_t)u;
}

typedef void (*bin_f32)(const float *, const float *, float *, int32_t, const int32_t *,
                        const int32_t *, const int32_t *);
typedef void (*bin_f64)(const double *, const double *, double *, int32_t, const int32_t *,
                        const int32_t *, const int32_t *);
typedef void (*bin_i32)(const int32_t *, const int32_t *, int32_t *, int32_t, const int32_t *,
                        const int32_t *, const int32_t *);
typedef void (*bin_i64)(const int64_t *, const int64_t *, int64_t *, int32_t, const int32_t *,
                        const int32_t *, const int32_t *);

static const bin_f32 k_f32[NOPS] = {sm2c_rt_add_f32, sm2c_rt_sub_f32, sm2c_rt_mul_f32,
                                    sm2c_rt_div_f32, sm2c_rt_maximum_f32, sm2c_rt_minimum_f32,
                                    sm2c_rt_squared_difference_f32};
static const bin_f64 k_f64[OP_SQD] = {sm2c_rt_add_f64, sm2c_rt_sub_f64, sm2c_rt_mul_f64,
                                      sm2c_rt_div_f64, sm2c_rt_maximum_f64, sm2c_rt_minimum_f64};
static const bin_i32 k_i32[NOPS] = {sm2c_rt_add_i32, sm2c_rt_sub_i32, sm2c_rt_mul_i32, NULL,
                                    sm2c_rt_maximum_i32, sm2c_rt_minimum_i32, NULL};
static const bin_i64 k_i64[NOPS] = {sm2c_rt_add_i64, sm2c_rt_sub_i64, sm2c_rt_mul_i64, NULL,
                                    sm2c_rt_maximum_i64, sm2c_rt_minimum_i64, NULL};

/* A broadcasting case: output dims, and per operand its shape (each dim either
** the output's or 1) giving dense strides with 0 on broadcast dims. */
typedef struct bcase {
    int32_t rank, n, na, nb;
    int32_t dims[4], sa[4], sb[4];
} bcase;

static void make_case(bcase *c, ktest_rng *r, int32_t rank)
{
    int32_t k, a_full[4], b_full[4], pa = 1, pb = 1;
    c->rank = rank;
    c->n = 1;
    for (k = 0; k < rank; k++) {
        c->dims[k] = ktest_int(r, 1, 6);
        if (ktest_int(r, 0, 15) == 0)
            c->dims[k] = 0;
        c->n *= c->dims[k];
        a_full[k] = ktest_int(r, 0, 2) != 0;
        b_full[k] = ktest_int(r, 0, 2) != 0;
    }
    if (ktest_int(r, 0, 5) == 0) /* scalar operand */
        for (k = 0; k < rank; k++)
            b_full[k] = 0;
    for (k = rank - 1; k >= 0; k--) {
        c->sa[k] = a_full[k] && c->dims[k] != 1 ? pa : 0;
        c->sb[k] = b_full[k] && c->dims[k] != 1 ? pb : 0;
        if (a_full[k])
            pa *= c->dims[k];
        if (b_full[k])
            pb *= c->dims[k];
    }
    c->na = pa;
    c->nb = pb;
}

/* Offsets of output element `lin` in a and b. */
static void case_offsets(const bcase *c, long lin, long *oa, long *ob)
{
    int32_t k;
    *oa = *ob = 0;
    for (k = c->rank - 1; k >= 0; k--) {
        long i = lin % c->dims[k];
        lin /= c->dims[k];
        *oa += i * c->sa[k];
        *ob += i * c->sb[k];
    }
}

static float rand_f32(ktest_rng *r)
{
    if (ktest_int(r, 0, 19) == 0)
        return ktest_from_bits32(ktest_special32[ktest_int(r, 0, KTEST_NSPECIAL32 - 1)]);
    return ktest_f32(r, -100.0f, 100.0f);
}

static void test_f32_random_broadcast(void **state)
{
    ktest_rng r = {42};
    uint32_t max_ulp = 0;
    int iter, op;
    (void)state;
    for (iter = 0; iter < 2000; iter++) {
        bcase c;
        float a[1296 + 1], b[1296 + 1], y[1296 + 1];
        long i, oa, ob;
        make_case(&c, &r, ktest_int(&r, 0, 4));
        for (i = 0; i < c.na; i++)
            a[i] = rand_f32(&r);
        for (i = 0; i < c.nb; i++)
            b[i] = rand_f32(&r);
        for (op = 0; op < NOPS; op++) {
            k_f32[op](a, b, y, c.rank, c.dims, c.sa, c.sb);
            for (i = 0; i < c.n; i++) {
                float want;
                case_offsets(&c, i, &oa, &ob);
                want = ref_f32(op, a[oa], b[ob]);
                if (op == OP_MAX || op == OP_MIN) {
                    ktest_check_bits32(want, y[i], op_names[op], i);
                } else {
                    uint32_t d = ktest_check_ulp32(want, y[i], 1, op_names[op], i);
                    max_ulp = d > max_ulp ? d : max_ulp;
                }
            }
        }
    }
    print_message("f32 random broadcast: max %u ulp\n", max_ulp);
}

static void test_f32_special_values(void **state)
{
    const int n = KTEST_NSPECIAL32;
    float a[KTEST_NSPECIAL32 * KTEST_NSPECIAL32], b[KTEST_NSPECIAL32 * KTEST_NSPECIAL32],
        y[KTEST_NSPECIAL32 * KTEST_NSPECIAL32];
    int32_t dims[1] = {n * n};
    const int32_t s1[1] = {1};
    int i, j, op;
    (void)state;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            a[i * n + j] = ktest_from_bits32(ktest_special32[i]);
            b[i * n + j] = ktest_from_bits32(ktest_special32[j]);
        }
    for (op = 0; op < NOPS; op++) {
        k_f32[op](a, b, y, 1, dims, s1, s1);
        for (i = 0; i < n * n; i++) {
            const float want = ref_f32(op, a[i], b[i]);
            if (op == OP_MAX || op == OP_MIN)
                ktest_check_bits32(want, y[i], op_names[op], i);
            else
                ktest_check_ulp32(want, y[i], 1, op_names[op], i);
        }
    }
    /* Spot checks of TF's results written out. */
    {
        const float nan = ktest_from_bits32(0x7fc00000u), nneg = ktest_from_bits32(0xffc00000u);
        const float pa[6] = {nan, 1.0f, nneg, 0.0f, -0.0f, -INFINITY};
        const float pb[6] = {nneg, nan, 1.0f, -0.0f, 0.0f, 0.0f};
        const uint32_t want_max[6] = {0x7fc00000u, 0x7fc00000u, 0xffc00000u, 0x80000000u, 0x0u, 0x0u};
        const uint32_t want_min[6] = {0x7fc00000u, 0x7fc00000u, 0xffc00000u, 0x80000000u, 0x0u,
                                      0xff800000u};
        dims[0] = 6;
        sm2c_rt_maximum_f32(pa, pb, y, 1, dims, s1, s1);
        for (i = 0; i < 6; i++)
            assert_int_equal(ktest_bits32(y[i]), want_max[i]);
        sm2c_rt_minimum_f32(pa, pb, y, 1, dims, s1, s1);
        for (i = 0; i < 6; i++)
            assert_int_equal(ktest_bits32(y[i]), want_min[i]);
    }
    {
        const float inf = INFINITY, one = 1.0f, three = 3.0f;
        const int32_t d1[1] = {1};
        /* SquaredDifference(Inf, Inf) is NaN, as TF. */
        sm2c_rt_squared_difference_f32(&inf, &inf, y, 1, d1, s1, s1);
        assert_true(isnan(y[0]));
        sm2c_rt_squared_difference_f32(&one, &three, y, 1, d1, s1, s1);
        assert_true(y[0] == 4.0f);
        sm2c_rt_div_f32(&one, &a[0], y, 1, d1, s1, s1); /* 1 / +0 */
        assert_true(y[0] == INFINITY);
    }
}

/* The long unit-stride and scalar fast paths, and y aliasing a or b. */
static void test_f32_fast_paths_and_alias(void **state)
{
    enum { N = 1003 };
    static float a[N], b[N], y[N], c[N];
    const int32_t dims[1] = {N}, s1[1] = {1}, s0[1] = {0};
    ktest_rng r = {7};
    int i, op;
    (void)state;
    for (i = 0; i < N; i++) {
        a[i] = ktest_f32(&r, -10, 10);
        b[i] = ktest_f32(&r, -10, 10);
    }
    for (op = 0; op < NOPS; op++) {
        k_f32[op](a, b, y, 1, dims, s1, s1);
        for (i = 0; i < N; i++)
            ktest_check_ulp32(ref_f32(op, a[i], b[i]), y[i], op >= OP_MAX && op <= OP_MIN ? 0 : 1,
                              "unit", i);
        k_f32[op](a, b + 5, y, 1, dims, s1, s0);
        for (i = 0; i < N; i++)
            ktest_check_ulp32(ref_f32(op, a[i], b[5]), y[i], 1, "b scalar", i);
        k_f32[op](a + 9, b, y, 1, dims, s0, s1);
        for (i = 0; i < N; i++)
            ktest_check_ulp32(ref_f32(op, a[9], b[i]), y[i], 1, "a scalar", i);
        /* in place: y == a, then y == b */
        memcpy(c, a, sizeof c);
        k_f32[op](c, b, c, 1, dims, s1, s1);
        for (i = 0; i < N; i++)
            ktest_check_ulp32(ref_f32(op, a[i], b[i]), c[i], 1, "alias a", i);
        memcpy(c, b, sizeof c);
        k_f32[op](a, c, c, 1, dims, s1, s1);
        for (i = 0; i < N; i++)
            ktest_check_ulp32(ref_f32(op, a[i], b[i]), c[i], 1, "alias b", i);
        memcpy(c, a, sizeof c);
        k_f32[op](c, b + 3, c, 1, dims, s1, s0);
        for (i = 0; i < N; i++)
            ktest_check_ulp32(ref_f32(op, a[i], b[3]), c[i], 1, "alias a, b scalar", i);
    }
    /* rank 0 */
    sm2c_rt_add_f32(a, b, y, 0, NULL, NULL, NULL);
    ktest_check_ulp32(ref_f32(OP_ADD, a[0], b[0]), y[0], 0, "rank0", 0);
}

static void test_f64_random_broadcast(void **state)
{
    ktest_rng r = {4242};
    int iter, op;
    (void)state;
    for (iter = 0; iter < 1000; iter++) {
        bcase c;
        double a[1297], b[1297], y[1297];
        long i, oa, ob;
        make_case(&c, &r, ktest_int(&r, 0, 4));
        for (i = 0; i < c.na; i++)
            a[i] = ktest_int(&r, 0, 30) == 0 ? NAN : (double)ktest_f32(&r, -1e3f, 1e3f) / 3.0;
        for (i = 0; i < c.nb; i++)
            b[i] = ktest_int(&r, 0, 30) == 0 ? -INFINITY : (double)ktest_f32(&r, -1e3f, 1e3f) / 7.0;
        for (op = 0; op < OP_SQD; op++) {
            k_f64[op](a, b, y, c.rank, c.dims, c.sa, c.sb);
            for (i = 0; i < c.n; i++) {
                double want;
                case_offsets(&c, i, &oa, &ob);
                want = ref_f64(op, a[oa], b[ob]);
                if (isnan(want) ? !isnan(y[i]) : ktest_ulp64(want, y[i]) > (op >= OP_MAX ? 0u : 1u))
                    fail_msg("f64 %s[%ld]: want %a got %a", op_names[op], i, want, y[i]);
                if (op >= OP_MAX && ktest_bits64(want) != ktest_bits64(y[i]))
                    fail_msg("f64 %s[%ld]: bits", op_names[op], i);
            }
        }
    }
}

static void test_int_random_broadcast(void **state)
{
    ktest_rng r = {99};
    int iter, op;
    (void)state;
    for (iter = 0; iter < 1000; iter++) {
        bcase c;
        int32_t a[1297], b[1297], y[1297];
        int64_t a6[1297], b6[1297], y6[1297];
        long i, oa, ob;
        make_case(&c, &r, ktest_int(&r, 0, 4));
        for (i = 0; i < c.na; i++) {
            a[i] = (int32_t)(ktest_next(&r) >> 32) >> ktest_int(&r, 0, 31);
            a6[i] = (int64_t)(ktest_next(&r) >> 1) * (ktest_int(&r, 0, 1) ? 1 : -1) >> ktest_int(&r, 0, 62);
        }
        for (i = 0; i < c.nb; i++) {
            b[i] = (int32_t)(ktest_next(&r) >> 32) >> ktest_int(&r, 0, 31);
            b6[i] = (int64_t)(ktest_next(&r) >> 1) * (ktest_int(&r, 0, 1) ? 1 : -1) >> ktest_int(&r, 0, 62);
        }
        for (op = 0; op < NOPS; op++) {
            if (!k_i32[op])
                continue;
            k_i32[op](a, b, y, c.rank, c.dims, c.sa, c.sb);
            k_i64[op](a6, b6, y6, c.rank, c.dims, c.sa, c.sb);
            for (i = 0; i < c.n; i++) {
                case_offsets(&c, i, &oa, &ob);
                if (y[i] != ref_i32(op, a[oa], b[ob]))
                    fail_msg("i32 %s[%ld]: %d %d -> %d", op_names[op], i, a[oa], b[ob], y[i]);
                if (y6[i] != ref_i64(op, a6[oa], b6[ob]))
                    fail_msg("i64 %s[%ld]", op_names[op], i);
            }
        }
    }
}

static void test_int_wraparound(void **state)
{
    const int32_t d4[1] = {4}, s1[1] = {1};
    const int32_t a[4] = {INT32_MAX, INT32_MIN, 65536, INT32_MIN};
    const int32_t b[4] = {1, 1, 65536, -1};
    const int64_t a6[4] = {INT64_MAX, INT64_MIN, 4294967296LL, INT64_MIN};
    const int64_t b6[4] = {1, 1, 4294967296LL, -1};
    int32_t y[4];
    int64_t y6[4];
    (void)state;
    sm2c_rt_add_i32(a, b, y, 1, d4, s1, s1);
    assert_int_equal(y[0], INT32_MIN); /* INT32_MAX + 1, as TF */
    sm2c_rt_sub_i32(a, b, y, 1, d4, s1, s1);
    assert_int_equal(y[1], INT32_MAX); /* INT32_MIN - 1 */
    assert_int_equal(y[3], INT32_MIN + 1);
    sm2c_rt_mul_i32(a, b, y, 1, d4, s1, s1);
    assert_int_equal(y[2], 0);         /* 65536 * 65536, TF gives 0 */
    assert_int_equal(y[3], INT32_MIN); /* INT32_MIN * -1 */
    assert_int_equal(y[0], INT32_MAX);
    sm2c_rt_add_i64(a6, b6, y6, 1, d4, s1, s1);
    assert_true(y6[0] == INT64_MIN);
    sm2c_rt_sub_i64(a6, b6, y6, 1, d4, s1, s1);
    assert_true(y6[1] == INT64_MAX);
    sm2c_rt_mul_i64(a6, b6, y6, 1, d4, s1, s1);
    assert_true(y6[2] == 0 && y6[3] == INT64_MIN);
    sm2c_rt_maximum_i32(a, b, y, 1, d4, s1, s1);
    assert_true(y[0] == INT32_MAX && y[1] == 1 && y[3] == -1);
    sm2c_rt_minimum_i64(a6, b6, y6, 1, d4, s1, s1);
    assert_true(y6[0] == 1 && y6[1] == INT64_MIN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_random_broadcast),
        cmocka_unit_test(test_f32_special_values),
        cmocka_unit_test(test_f32_fast_paths_and_alias),
        cmocka_unit_test(test_f64_random_broadcast),
        cmocka_unit_test(test_int_random_broadcast),
        cmocka_unit_test(test_int_wraparound),
    };
    return cmocka_run_group_tests_name("binary", tests, NULL, NULL);
}
