/* test_movement.c: sm2c_rt_copy_strided, sm2c_rt_fill and sm2c_rt_copy against
** a naive reference; every comparison is bit-exact. */
#include "sm2c_test.h"
#include "sm2c_rt.h"
#include "ktest.h"

/* The reference: decompose every linear index of the box. */
static void ref_copy_strided(const unsigned char *x, int32_t x_off, const int32_t *xs,
                             unsigned char *y, int32_t y_off, const int32_t *ys, int32_t rank,
                             const int32_t *dims, int32_t es)
{
    long total = 1, lin;
    int32_t k;
    for (k = 0; k < rank; k++)
        total *= dims[k];
    for (lin = 0; lin < total; lin++) {
        long rem = lin, xo = x_off, yo = y_off;
        for (k = rank - 1; k >= 0; k--) {
            long i = rem % dims[k];
            rem /= dims[k];
            xo += i * xs[k];
            yo += i * ys[k];
        }
        memcpy(y + yo * es, x + xo * es, (size_t)es);
    }
}

static void fill_pattern(unsigned char *p, size_t n, ktest_rng *r)
{
    size_t i;
    for (i = 0; i < n; i++)
        p[i] = (unsigned char)ktest_next(r);
}

/* Runs kernel and reference on copies of one destination, compares all bytes
** (so bytes outside the box must stay untouched too). */
static void check_copy(const void *x, int32_t x_off, const int32_t *xs, size_t y_bytes,
                       int32_t y_off, const int32_t *ys, int32_t rank, const int32_t *dims,
                       int32_t es, ktest_rng *r)
{
    unsigned char *got = malloc(y_bytes + 1), *want = malloc(y_bytes + 1);
    fill_pattern(got, y_bytes, r);
    memcpy(want, got, y_bytes);
    sm2c_rt_copy_strided(x, x_off, xs, got, y_off, ys, rank, dims, es);
    ref_copy_strided(x, x_off, xs, want, y_off, ys, rank, dims, es);
    if (memcmp(got, want, y_bytes) != 0) {
        size_t i;
        for (i = 0; i < y_bytes && got[i] == want[i]; i++)
            ;
        fail_msg("rank %d es %d: byte %zu differs (want %u got %u)", rank, es, i, want[i], got[i]);
    }
    free(got);
    free(want);
}

static void test_transpose(void **state)
{
    /* [2,3,4,5] -> perm (3,1,0,2), every element size. */
    static const int32_t es_list[] = {1, 2, 4, 8, 16, 3, 12};
    const int32_t sd[4] = {2, 3, 4, 5}, perm[4] = {3, 1, 0, 2};
    int32_t ss[4], dims[4], xs[4], ys[4];
    ktest_rng r = {0x1234};
    unsigned char x[120 * 16];
    int32_t k, e;
    (void)state;
    ss[3] = 1;
    for (k = 2; k >= 0; k--)
        ss[k] = ss[k + 1] * sd[k + 1];
    for (k = 0; k < 4; k++) {
        dims[k] = sd[perm[k]];
        xs[k] = ss[perm[k]];
    }
    ys[3] = 1;
    for (k = 2; k >= 0; k--)
        ys[k] = ys[k + 1] * dims[k + 1];
    fill_pattern(x, sizeof x, &r);
    for (e = 0; e < (int32_t)(sizeof es_list / sizeof es_list[0]); e++)
        check_copy(x, 0, xs, (size_t)120 * es_list[e], 0, ys, 4, dims, es_list[e], &r);
}

static void test_reverse_and_slices(void **state)
{
    float x[24], y[24];
    int32_t i;
    /* ReverseV2 of a [24] vector: x_off at the end, stride -1. */
    const int32_t d1[1] = {24}, xr[1] = {-1}, y1[1] = {1};
    /* [4,6] reversed on axis 1, sliced to columns 1..4 with step 2 on axis 0. */
    const int32_t d2[2] = {2, 4}, xs2[2] = {12, -1}, ys2[2] = {4, 1};
    (void)state;
    for (i = 0; i < 24; i++)
        x[i] = (float)i - 0.5f;
    sm2c_rt_copy_strided(x, 23, xr, y, 0, y1, 1, d1, 4);
    for (i = 0; i < 24; i++)
        ktest_check_bits32(x[23 - i], y[i], "reverse", i);
    memset(y, 0, sizeof y);
    sm2c_rt_copy_strided(x, 4, xs2, y, 0, ys2, 2, d2, 4);
    {
        const float want[8] = {x[4], x[3], x[2], x[1], x[16], x[15], x[14], x[13]};
        for (i = 0; i < 8; i++)
            ktest_check_bits32(want[i], y[i], "slice", i);
    }
}

static void test_concat_tile_broadcast(void **state)
{
    /* Concat along axis 1: a [2,3] and b [2,2] into y [2,5]. */
    const float a[6] = {1, 2, 3, 4, 5, 6}, b[4] = {-1, -2, -3, -4};
    const float want[10] = {1, 2, 3, -1, -2, 4, 5, 6, -3, -4};
    const int32_t da[2] = {2, 3}, sa[2] = {3, 1}, db[2] = {2, 2}, sb[2] = {2, 1}, ys[2] = {5, 1};
    /* BroadcastTo [3] -> [4,3] (stride 0) and Tile [2] x3 -> [3,2]. */
    const float v[3] = {7.5f, -0.0f, 1e-45f};
    const int32_t dbc[2] = {4, 3}, xbc[2] = {0, 1}, ybc[2] = {3, 1};
    const int32_t dsc[1] = {5}, xsc[1] = {0}, ysc[1] = {1};
    float y[12];
    int32_t i;
    (void)state;
    sm2c_rt_copy_strided(a, 0, sa, y, 0, ys, 2, da, 4);
    sm2c_rt_copy_strided(b, 0, sb, y, 3, ys, 2, db, 4);
    for (i = 0; i < 10; i++)
        ktest_check_bits32(want[i], y[i], "concat", i);
    sm2c_rt_copy_strided(v, 0, xbc, y, 0, ybc, 2, dbc, 4);
    for (i = 0; i < 12; i++)
        ktest_check_bits32(v[i % 3], y[i], "broadcast", i);
    /* a scalar broadcast over a vector */
    sm2c_rt_copy_strided(v, 1, xsc, y, 0, ysc, 1, dsc, 4);
    for (i = 0; i < 5; i++)
        ktest_check_bits32(-0.0f, y[i], "scalar", i);
}

static void test_rank0_and_empty(void **state)
{
    const double x[2] = {3.25, -1.0};
    double y[2] = {0, 0};
    const int32_t dz[2] = {3, 0}, s[2] = {1, 1};
    (void)state;
    sm2c_rt_copy_strided(x, 1, NULL, y, 1, NULL, 0, NULL, 8);
    assert_true(y[0] == 0.0 && y[1] == -1.0);
    sm2c_rt_copy_strided(x, 0, s, y, 0, s, 2, dz, 8);
    assert_true(y[0] == 0.0 && y[1] == -1.0);
}

/* Random views of rank 0-4: permutation, reversal, broadcast, step, and a
** destination embedded in a larger tensor at an offset (Concat, Pad). */
static void test_random_views(void **state)
{
    ktest_rng r = {0xC0FFEE};
    int iter;
    (void)state;
    for (iter = 0; iter < 3000; iter++) {
        const int32_t es_opts[5] = {1, 2, 4, 8, 16};
        const int32_t es = es_opts[ktest_int(&r, 0, 4)];
        const int32_t rank = ktest_int(&r, 0, 4);
        int32_t sd[4], ss[4], dims[4], xs[4], ys[4], perm[4], yalloc[4], ypad[4];
        int32_t k, x_off = 0, y_off = 0;
        long xn = 1, yn = 1;
        unsigned char *x;
        for (k = 0; k < rank; k++) {
            sd[k] = ktest_int(&r, 1, 5);
            perm[k] = k;
            xn *= sd[k];
        }
        for (k = rank - 1; k > 0; k--) { /* Fisher-Yates */
            int32_t j = ktest_int(&r, 0, k), t = perm[k];
            perm[k] = perm[j];
            perm[j] = t;
        }
        for (k = rank - 1; k >= 0; k--)
            ss[k] = k == rank - 1 ? 1 : ss[k + 1] * sd[k + 1];
        for (k = 0; k < rank; k++) {
            const int32_t kind = ktest_int(&r, 0, 5);
            dims[k] = sd[perm[k]];
            xs[k] = ss[perm[k]];
            if (kind == 0) { /* reverse */
                x_off += (dims[k] - 1) * xs[k];
                xs[k] = -xs[k];
            } else if (kind == 1) { /* broadcast */
                dims[k] = ktest_int(&r, 1, 4);
                xs[k] = 0;
            } else if (kind == 2 && dims[k] > 2) { /* step 2 */
                dims[k] = (dims[k] + 1) / 2;
                xs[k] *= 2;
            }
            if (ktest_int(&r, 0, 9) == 0)
                dims[k] = 0; /* sometimes empty */
        }
        for (k = 0; k < rank; k++) {
            ypad[k] = ktest_int(&r, 0, 2);
            yalloc[k] = dims[k] + ypad[k];
            yn *= yalloc[k];
        }
        for (k = rank - 1; k >= 0; k--)
            ys[k] = k == rank - 1 ? 1 : ys[k + 1] * yalloc[k + 1];
        for (k = 0; k < rank; k++)
            y_off += ktest_int(&r, 0, ypad[k]) * ys[k];
        x = malloc((size_t)(xn * es));
        fill_pattern(x, (size_t)(xn * es), &r);
        check_copy(x, x_off, xs, (size_t)(yn * es), y_off, ys, rank, dims, es, &r);
        free(x);
    }
}

static void test_fill_and_copy(void **state)
{
    const unsigned char v16[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    unsigned char buf[16 * 40 + 8];
    static const int32_t es_list[] = {1, 2, 4, 8, 16, 3};
    int32_t e, n, i;
    (void)state;
    for (e = 0; e < 6; e++) {
        for (n = 0; n <= 37; n++) {
            const int32_t es = es_list[e];
            memset(buf, 0xEE, sizeof buf);
            sm2c_rt_fill(buf, v16, es, n);
            for (i = 0; i < n * es; i++)
                if (buf[i] != v16[i % es])
                    fail_msg("fill es %d n %d: byte %d", es, n, i);
            for (; i < (int32_t)sizeof buf; i++)
                assert_int_equal(buf[i], 0xEE);
        }
    }
    {
        const float nanp = ktest_from_bits32(0x7fc00123u);
        float y[3];
        sm2c_rt_fill(y, &nanp, 4, 3);
        for (i = 0; i < 3; i++)
            assert_int_equal(ktest_bits32(y[i]), 0x7fc00123u);
    }
    memset(buf, 0, sizeof buf);
    sm2c_rt_copy(buf, v16, 16);
    assert_memory_equal(buf, v16, 16);
    sm2c_rt_copy(buf, buf, 16); /* x == y: nothing */
    assert_memory_equal(buf, v16, 16);
    sm2c_rt_copy(buf + 16, v16, 0);
    assert_int_equal(buf[16], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_reverse_and_slices),
        cmocka_unit_test(test_concat_tile_broadcast),
        cmocka_unit_test(test_rank0_and_empty),
        cmocka_unit_test(test_random_views),
        cmocka_unit_test(test_fill_and_copy),
    };
    return cmocka_run_group_tests_name("movement", tests, NULL, NULL);
}
