/*
** test_matmul.c: sm2c_rt_matmul_f32, sm2c_rt_matvec(_t)_f32,
** sm2c_rt_batch_matmul_f32 and its strided form (against the plain one, bit
** for bit) against a
** naive double-precision reference (docs/reliability.md section 9: contractions,
** rtol = atol = max(1e-5, 2*K*eps)), plus TensorFlow's Relu/Relu6 NaN rules.
*/
#include "sm2c_test.h"

#include "sm2c_rt.h"
#include "kref.h"

/* Reference: Y = act(op(A) op(B) + bias) in double. */
static void ref_matmul(const float *a, const float *b, const float *bias, double *y, int32_t m,
                       int32_t k, int32_t n, int ta, int tb, int32_t act)
{
    int32_t i, j, kk;

    for (i = 0; i < m; i++) {
        for (j = 0; j < n; j++) {
            double s = 0.0;
            for (kk = 0; kk < k; kk++) {
                const double av = ta ? a[(size_t)kk * m + i] : a[(size_t)i * k + kk];
                const double bv = tb ? b[(size_t)j * k + kk] : b[(size_t)kk * n + j];
                s += av * bv;
            }
            if (bias)
                s += bias[j];
            y[(size_t)i * n + j] = kact(s, act);
        }
    }
}

/* Every layout and kernel sums each output in the same order.  The C paths
** multiply and add, so they agree bit for bit; on x86-64 and AArch64 matmul's
** vector tiles use FMA (matmul_f32.c) while a transposed B read in place and
** the transposed matvec stay in C, so there each result is checked against
** the reference within the contraction tolerance instead. */
#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(SM2C_RT_PORTABLE_ONLY) && \
    !defined(SM2C_RT_SCALAR_ONLY)
#define LAYOUTS_EXACT 0
#else
#define LAYOUTS_EXACT 1
#endif

static void klayouts_agree(const double *want, const float *y0, const float *y, size_t n,
                           double tol, const char *what)
{
    if (LAYOUTS_EXACT)
        kassert_same(y0, y, n, what);
    else
        kassert_close(want, y, n, tol, tol, what);
}

/* Scratch for packing a transposed B, as the compiler plans it in the arena. */
static float pack[SM2C_RT_MATMUL_PACK_F32];

static const int32_t shapes[][3] = {
    {1, 40, 70}, {1, 70, 1},
    /* one row across the vector paths' strips (matvec_f32.c) */
    {1, 33, 200}, {1, 5, 17}, {1, 9, 33}, {1, 3, 129}, {1, 2, 8}, {1, 7, 257},
    {1, 1, 1},  {3, 5, 7},    {2, 1, 9},   {17, 33, 65}, {4, 64, 64},
    {5, 70, 130}, {1, 100, 3}, {9, 31, 1}, {8, 129, 67}, {13, 7, 200},
    /* a B of 528 KB, which the tiles prefetch: 16-row parts, a short last block of k and n */
    {21, 520, 260},
};

static void check_matmul(int32_t m, int32_t k, int32_t n, uint64_t seed)
{
    const size_t sa = (size_t)m * k, sb = (size_t)k * n, sy = (size_t)m * n;
    float *a = calloc(sa + 1, sizeof *a), *b = calloc(sb + 1, sizeof *b);
    float *bias = calloc((size_t)n + 1, sizeof *bias);
    float *y = calloc(sy + 1, sizeof *y), *y0 = calloc(sy + 1, sizeof *y0);
    double *want = calloc(sy + 1, sizeof *want);
    const double tol = ktol_contraction(k);
    krng r = krng_new(seed);
    int ta, tb, act, with_bias;
    char what[96];

    krng_fill(&r, a, sa, -1.0f, 1.0f);
    krng_fill(&r, b, sb, -1.0f, 1.0f);
    krng_fill(&r, bias, (size_t)n, -0.5f, 0.5f);
    for (with_bias = 0; with_bias < 2; with_bias++) {
        for (act = SM2C_RT_ACT_NONE; act <= KACT_LAST; act++) {
            for (ta = 0; ta < 2; ta++) {
                for (tb = 0; tb < 2; tb++) {
                    /* Same numbers, stored transposed when asked. */
                    float *at = calloc(sa + 1, sizeof *at), *bt = calloc(sb + 1, sizeof *bt);
                    int32_t i, j;
                    for (i = 0; i < m; i++)
                        for (j = 0; j < k; j++)
                            at[ta ? (size_t)j * m + i : (size_t)i * k + j] = a[(size_t)i * k + j];
                    for (i = 0; i < k; i++)
                        for (j = 0; j < n; j++)
                            bt[tb ? (size_t)j * k + i : (size_t)i * n + j] = b[(size_t)i * n + j];
                    ref_matmul(at, bt, with_bias ? bias : NULL, want, m, k, n, ta, tb, act);
                    sm2c_rt_matmul_f32(at, bt, with_bias ? bias : NULL, y, m, k, n, ta, tb, KACT(act),
                                       pack);
                    snprintf(what, sizeof what, "matmul m=%d k=%d n=%d ta=%d tb=%d bias=%d act=%d",
                             (int)m, (int)k, (int)n, ta, tb, with_bias, act);
                    kassert_close(want, y, sy, tol, tol, what);
                    /* Every layout sums in the same order (see klayouts_agree). */
                    if (ta == 0 && tb == 0)
                        memcpy(y0, y, sy * sizeof *y);
                    else
                        klayouts_agree(want, y0, y, sy, tol, what);
                    /* A transposed B read in place (no scratch): the same bits. */
                    memset(y, 0x7f, sy * sizeof *y);
                    sm2c_rt_matmul_f32(at, bt, with_bias ? bias : NULL, y, m, k, n, ta, tb, KACT(act),
                                       NULL);
                    klayouts_agree(want, y0, y, sy, tol, what);
                    /* One row: the matrix-vector kernel, the same bits again. */
                    if (m == 1) {
                        memset(y, 0x7f, sy * sizeof *y);
                        if (tb)
                            sm2c_rt_matvec_t_f32(at, bt, with_bias ? bias : NULL, y, k, n, KACT(act));
                        else
                            sm2c_rt_matvec_f32(at, bt, with_bias ? bias : NULL, y, k, n, KACT(act));
                        klayouts_agree(want, y0, y, sy, tol, what);
                        /* and its _small form (one column at a time on a scalar FPU) */
                        memset(y, 0x7f, sy * sizeof *y);
                        if (tb)
                            sm2c_rt_matvec_t_small_f32(at, bt, with_bias ? bias : NULL, y, k, n, KACT(act));
                        else
                            sm2c_rt_matvec_small_f32(at, bt, with_bias ? bias : NULL, y, k, n, KACT(act));
                        klayouts_agree(want, y0, y, sy, tol, what);
                    }
                    free(at);
                    free(bt);
                }
            }
        }
    }
    free(a);
    free(b);
    free(bias);
    free(y);
    free(y0);
    free(want);
}

static void test_matmul_random(void **state)
{
    size_t s;
    (void)state;
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        check_matmul(shapes[s][0], shapes[s][1], shapes[s][2], 100 + s);
}

/* K = 0: the sum is empty, so y = act(bias) (or 0). */
static void test_matmul_empty_k(void **state)
{
    const float bias[3] = {-1.0f, 2.0f, 7.0f};
    float y[6];
    const float want_relu6[6] = {0.0f, 2.0f, 6.0f, 0.0f, 2.0f, 6.0f};
    const float zeros[6] = {0};
    (void)state;

    memset(y, 0x7f, sizeof y);
    sm2c_rt_matmul_f32(NULL, NULL, bias, y, 2, 0, 3, 0, 0, KACT(SM2C_RT_ACT_RELU6), NULL);
    kassert_same(want_relu6, y, 6, "k=0 relu6");
    memset(y, 0x7f, sizeof y);
    sm2c_rt_matmul_f32(NULL, NULL, NULL, y, 2, 0, 3, 1, 1, KACT(SM2C_RT_ACT_NONE), pack);
    kassert_same(zeros, y, 6, "k=0");
    /* m = 0 and n = 0 touch nothing. */
    sm2c_rt_matmul_f32(NULL, NULL, NULL, NULL, 0, 4, 3, 0, 0, KACT(SM2C_RT_ACT_NONE), NULL);
    sm2c_rt_matmul_f32(NULL, NULL, NULL, NULL, 3, 4, 0, 0, 0, KACT(SM2C_RT_ACT_NONE), NULL);
}

/*
** Fused activations with special values.  TensorFlow's Relu and Relu6 use
** cwiseMax/cwiseMin<Eigen::PropagateNaN> (core/kernels/relu_op_functor.h):
** checked against TF 2.21 CPU, Relu([nan,-inf,inf,-1,-0,3,7]) =
** [nan,0,inf,0,+0,3,7] and Relu6 = [nan,0,6,0,0,3,6].
*/
static void test_matmul_act_special(void **state)
{
    const float a[7] = {NAN, -INFINITY, INFINITY, -1.0f, -0.0f, 3.0f, 7.0f};
    const float one = 1.0f;
    /* The sum starts at +0 (as TF: MatMul([[-0]], [[1]]) = [[+0]]), so -0 -> +0. */
    const float want_none[7] = {NAN, -INFINITY, INFINITY, -1.0f, 0.0f, 3.0f, 7.0f};
    const float want_relu[7] = {NAN, 0.0f, INFINITY, 0.0f, 0.0f, 3.0f, 7.0f};
    const float want_relu6[7] = {NAN, 0.0f, 6.0f, 0.0f, 0.0f, 3.0f, 6.0f};
    float y[7];
    (void)state;

    /* [7,1] x [1,1]: y = 0 + a*1 = a, except -0. */
    sm2c_rt_matmul_f32(a, &one, NULL, y, 7, 1, 1, 0, 0, KACT(SM2C_RT_ACT_NONE), NULL);
    kassert_same(want_none, y, 7, "none");
    sm2c_rt_matmul_f32(a, &one, NULL, y, 7, 1, 1, 0, 0, KACT(SM2C_RT_ACT_RELU), NULL);
    kassert_same(want_relu, y, 7, "relu");
    sm2c_rt_matmul_f32(a, &one, NULL, y, 7, 1, 1, 1, 1, KACT(SM2C_RT_ACT_RELU6), pack);
    kassert_same(want_relu6, y, 7, "relu6");
}

/* The newer kinds on special values, through the tiles (a [21,1] column) and
** the one-row kernels (a [1,21] row, past a vector's lanes): LeakyRelu(0.2)
** scales -Inf, clip(-0.5, 0.75) clamps the infinities, sigmoid saturates to
** 0 and 1, hard-swish is NaN at -Inf (Inf * 0), as TF's ops compute them. */
static void test_matmul_new_act_special(void **state)
{
    enum { N = 21 };
    const float base[7] = {NAN, -INFINITY, INFINITY, 0.0f, -200.0f, 40.0f, -1.5f};
    const float want[4][7] = {
        {NAN, -INFINITY, INFINITY, 0.0f, -40.0f, 40.0f, -0.3f},
        {NAN, -0.5f, 0.75f, 0.0f, -0.5f, 0.75f, -0.5f},
        {NAN, 0.0f, 1.0f, 0.5f, 0.0f, 1.0f, 0.182425523806f},
        {NAN, NAN, INFINITY, 0.0f, -0.0f, 40.0f, -0.375f},
    };
    float a[N], y[N], wk[N], ones[N];
    int32_t act, i, path;
    (void)state;

    for (i = 0; i < N; i++)
        a[i] = base[i % 7], ones[i] = 1.0f;
    for (act = SM2C_RT_ACT_LEAKY_RELU; act <= KACT_LAST; act++) {
        for (i = 0; i < N; i++)
            wk[i] = want[act - SM2C_RT_ACT_LEAKY_RELU][i % 7];
        for (path = 0; path < 3; path++) {
            if (path == 0)
                sm2c_rt_matmul_f32(a, ones, NULL, y, N, 1, 1, 0, 0, KACT(act), NULL);
            else if (path == 1) /* x = [1], W = a as a [1, N] row: y = a */
                sm2c_rt_matvec_f32(ones, a, NULL, y, 1, N, KACT(act));
            else
                sm2c_rt_matvec_small_f32(ones, a, NULL, y, 1, N, KACT(act));
            for (i = 0; i < N; i++)
                if (act == SM2C_RT_ACT_SIGMOID && i % 7 == 6)
                    assert_true(fabsf(y[i] - wk[i]) <= 1e-6f);
                else
                    kassert_same(wk + i, y + i, 1, "matmul new act special");
        }
    }
}

/* A NaN in A poisons its row; Inf*0 is NaN; Inf sums stay Inf. */
static void test_matmul_nan_inf(void **state)
{
    const float a[2 * 2] = {NAN, 1.0f, INFINITY, 1.0f};
    const float b[2 * 2] = {0.0f, 1.0f, 1.0f, 1.0f};
    float y[4];
    (void)state;

    sm2c_rt_matmul_f32(a, b, NULL, y, 2, 2, 2, 0, 0, KACT(SM2C_RT_ACT_RELU), NULL);
    assert_true(isnan(y[0]) && isnan(y[1]));
    assert_true(isnan(y[2])); /* inf*0 + 1 */
    assert_true(isinf(y[3]) && y[3] > 0);
}

/* Batched with broadcasting: A is one matrix shared by every batch entry. */
static void test_batch_matmul(void **state)
{
    enum { B = 3, M = 5, K = 19, N = 70 };
    static float a[M * K], b[B * K * N], y[B * M * N];
    static double want[M * N];
    const int32_t a_off[B] = {0, 0, 0};
    const int32_t b_off[B] = {0, K * N, 2 * K * N};
    const double tol = ktol_contraction(K);
    krng r = krng_new(7);
    int adj_a, adj_b, j;
    (void)state;

    krng_fill(&r, a, M * K, -2.0f, 2.0f);
    krng_fill(&r, b, B * K * N, -2.0f, 2.0f);
    for (adj_a = 0; adj_a < 2; adj_a++) {
        for (adj_b = 0; adj_b < 2; adj_b++) {
            /* The data is read as op(A) [M,K] and op(B) [K,N] whatever the flags. */
            sm2c_rt_batch_matmul_f32(a, b, y, B, a_off, b_off, M, K, N, adj_a, adj_b,
                                     adj_b ? pack : NULL);
            for (j = 0; j < B; j++) {
                ref_matmul(a, b + b_off[j], NULL, want, M, K, N, adj_a, adj_b,
                           SM2C_RT_ACT_NONE);
                kassert_close(want, y + j * M * N, M * N, tol, tol, "batch_matmul");
            }
        }
    }
    /* Broadcast the other way, and batch 1 of a batch 2 buffer. */
    {
        const int32_t a2[2] = {0, 7}; /* any offset: a + 7 is another [2,K] */
        const int32_t b2[2] = {K * N, K * N};
        float y2[2 * 2 * N];
        double w2[2 * N];
        sm2c_rt_batch_matmul_f32(a, b, y2, 2, a2, b2, 2, K, N, 0, 0, NULL);
        for (j = 0; j < 2; j++) {
            ref_matmul(a + a2[j], b + b2[j], NULL, w2, 2, K, N, 0, 0, SM2C_RT_ACT_NONE);
            kassert_close(w2, y2 + j * 2 * N, 2 * N, tol, tol, "batch_matmul broadcast b");
        }
    }
}

/*
** The strided batch matmul (an Einsum's operands where they are) against the
** plain one on contiguous copies: the same bits.  The batch index sits
** between the rows and the columns, as in attention's [B, T, N, H]: A is
** a[i][j][kk], B is b[kk][j][c] or, transposed, b[c][j][kk] (packed), and y
** is y[i][j][c] with rows padded past n (y_rs > batch * n), the padding left
** as it was.
*/
static void check_batch_strided(int32_t batch, int32_t m, int32_t k, int32_t n, uint64_t seed)
{
    const int32_t pad = 3, ldy = n + pad;
    const size_t sa = (size_t)batch * m * k, sb = (size_t)batch * k * n;
    const size_t sy = (size_t)m * batch * ldy, sp = (size_t)batch * m * n;
    float *a = calloc(sa + 1, sizeof *a), *b = calloc(sb + 1, sizeof *b), *bt = calloc(sb + 1, sizeof *bt);
    float *ac = calloc(sa + 1, sizeof *ac), *bc = calloc(sb + 1, sizeof *bc);
    float *y = calloc(sy + 1, sizeof *y), *want = calloc(sp + 1, sizeof *want);
    int32_t *a_off = calloc((size_t)batch, sizeof *a_off), *b_off = calloc((size_t)batch, sizeof *b_off);
    int32_t *bt_off = calloc((size_t)batch, sizeof *bt_off), *y_off = calloc((size_t)batch, sizeof *y_off);
    int32_t *ca = calloc((size_t)batch, sizeof *ca), *cb = calloc((size_t)batch, sizeof *cb);
    krng r = krng_new(seed);
    int32_t i, j, kk, c, tb;
    float fill;
    char what[96];

    memset(&fill, 0x7f, sizeof fill);
    krng_fill(&r, a, sa, -1.0f, 1.0f);
    krng_fill(&r, b, sb, -1.0f, 1.0f);
    for (j = 0; j < batch; j++) {
        a_off[j] = j * k, b_off[j] = j * n, bt_off[j] = j * k, y_off[j] = j * ldy;
        ca[j] = j * m * k, cb[j] = j * k * n;
        for (i = 0; i < m; i++)
            for (kk = 0; kk < k; kk++)
                ac[ca[j] + i * k + kk] = a[((size_t)i * batch + j) * k + kk];
        for (kk = 0; kk < k; kk++)
            for (c = 0; c < n; c++) {
                const float v = b[((size_t)kk * batch + j) * n + c];
                bc[cb[j] + kk * n + c] = v;
                bt[((size_t)c * batch + j) * k + kk] = v;
            }
    }
    sm2c_rt_batch_matmul_f32(ac, bc, want, batch, ca, cb, m, k, n, 0, 0, NULL);
    for (tb = 0; tb < 2; tb++) {
        memset(y, 0x7f, sy * sizeof *y);
        if (tb)
            sm2c_rt_batch_matmul_strided_f32(a, bt, y, batch, a_off, bt_off, y_off, m, k, n, batch * k, 1,
                                             1, batch * k, batch * ldy, pack);
        else
            sm2c_rt_batch_matmul_strided_f32(a, b, y, batch, a_off, b_off, y_off, m, k, n, batch * k, 1,
                                             batch * n, 1, batch * ldy, NULL);
        snprintf(what, sizeof what, "batch_matmul_strided %dx%dx%dx%d tb=%d", (int)batch, (int)m, (int)k,
                 (int)n, (int)tb);
        for (j = 0; j < batch; j++)
            for (i = 0; i < m; i++) {
                const float *row = y + ((size_t)i * batch + j) * ldy;
                kassert_same(want + ((size_t)j * m + i) * n, row, (size_t)n, what);
                for (c = n; c < ldy; c++)
                    assert_true(memcmp(&row[c], &fill, sizeof fill) == 0);   /* not written */
            }
    }
    free(a), free(b), free(bt), free(ac), free(bc), free(y), free(want);
    free(a_off), free(b_off), free(bt_off), free(y_off), free(ca), free(cb);
}

static void test_batch_matmul_strided(void **state)
{
    static const int32_t cases[][4] = {
        {4, 128, 32, 128}, {3, 5, 37, 70}, {2, 17, 33, 65}, {1, 1, 1, 1}, {2, 9, 64, 130}, {5, 3, 7, 1},
    };
    size_t t;
    (void)state;

    for (t = 0; t < sizeof cases / sizeof cases[0]; t++)
        check_batch_strided(cases[t][0], cases[t][1], cases[t][2], cases[t][3], 100 + t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matmul_random),
        cmocka_unit_test(test_matmul_empty_k),
        cmocka_unit_test(test_matmul_act_special),
        cmocka_unit_test(test_matmul_new_act_special),
        cmocka_unit_test(test_matmul_nan_inf),
        cmocka_unit_test(test_batch_matmul),
        cmocka_unit_test(test_batch_matmul_strided),
    };
    return cmocka_run_group_tests_name("matmul", tests, NULL, NULL);
}
