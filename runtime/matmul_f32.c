/*
** matmul_f32.c: MatMul (with BiasAdd and a fused activation) and BatchMatMul.
**
** Reference semantics, which every path below computes bit for bit:
**
**     for i < m, j < n:
**         s = 0.0f;
**         for kk < k: s += A(i, kk) * B(kk, j);      (in increasing kk)
**         y[i*n + j] = act(s + bias[j]);
**
** Each output element is summed in the same order whatever the transposes and
** the blocking, so results do not depend on them.  The loops are blocked: a
** tile of MM_NB columns of y and MM_KB reduction steps, and within it blocks of
** MM_MR x MM_NR outputs whose accumulators stay in registers; the innermost
** loop runs over contiguous columns, which the C compiler vectorises (no
** fast-math needed: nothing is reassociated).
** Every form is one loop nest (mm_strided) over strided operands: A(i, kk)
** and B(kk, j) each have a row and a column stride, and y a row stride, so
** that an Einsum's operands and result are read and written where they are
** (sm2c_rt_batch_matmul_strided_f32) instead of copied.  A B whose columns
** are not contiguous (transposed) is packed, one MM_KB x MM_NB tile at a
** time, into scratch the caller gives (SM2C_RT_MATMUL_PACK_F32 floats,
** planned in the arena so the stack stays small on microcontrollers);
** without it, it is read in place as dot products.  A transposed A is read
** with strides (a few scalars per reduction step).  No heap, no VLAs, a few
** hundred bytes of stack.  One-row products have their own kernel,
** sm2c_rt_matvec_f32: no tiles, no copies, little code.
*/
#include <stddef.h>
#include <string.h>

#include "act_f32.h"
#include "sm2c_rt.h"
#include "rt_select.h"
#include "simd_act_f32.h"

enum {
    MM_NB = 64, /* columns of y per tile */
    MM_KB = 32, /* reduction steps per tile: the packed tile is 8 KB (SM2C_RT_MATMUL_PACK_F32) */
    MM_MR = 4,  /* rows of y per micro-kernel */
    MM_NR = 16  /* columns of y per micro-kernel: 4 x 16 accumulators */
};

/*
** The micro-kernel: a full MM_MR x MM_NR block of y,
**     y(r, j) += sum over kk < kb of A(r, kk) * bt[kk*ldb + j],
** with A(r, kk) = a[r*a_rs + kk*a_cs] and y(r, j) = y[r*ldy + j]; when `first`
** the block starts from 0 instead.  The accumulators are a small local array
** with constant bounds, so the compiler keeps them in vector registers.
*/
static void mm_micro(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs, const float *bt,
                     ptrdiff_t ldb, float *y, ptrdiff_t ldy, int32_t kb, int first)
{
    float acc[MM_MR][MM_NR];
    int32_t kk, j, r;

    for (r = 0; r < MM_MR; r++) {
        if (first)
            memset(acc[r], 0, sizeof acc[r]);
        else
            memcpy(acc[r], y + (ptrdiff_t)r * ldy, sizeof acc[r]);
    }
    for (kk = 0; kk < kb; kk++) {
        const float *b = bt + (ptrdiff_t)kk * ldb;
        const float *ak = a + (ptrdiff_t)kk * a_cs;
        const float a0 = ak[0], a1 = ak[a_rs], a2 = ak[2 * a_rs], a3 = ak[3 * a_rs];
        for (j = 0; j < MM_NR; j++) {
            const float bj = b[j];
            acc[0][j] += a0 * bj;
            acc[1][j] += a1 * bj;
            acc[2][j] += a2 * bj;
            acc[3][j] += a3 * bj;
        }
    }
    for (r = 0; r < MM_MR; r++)
        memcpy(y + (ptrdiff_t)r * ldy, acc[r], sizeof acc[r]);
}

/* The same for any block of rows x cols (cols <= MM_NB), one row at a time. */
static void mm_edge(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs, const float *bt,
                    ptrdiff_t ldb, float *y, ptrdiff_t ldy, int32_t rows, int32_t kb,
                    int32_t cols, int first)
{
    float row[MM_NB];
    int32_t i, kk, j;

    for (i = 0; i < rows; i++) {
        if (first)
            memset(row, 0, sizeof row);
        else
            memcpy(row, y + (ptrdiff_t)i * ldy, (size_t)cols * sizeof(float));
        for (kk = 0; kk < kb; kk++) {
            const float *b = bt + (ptrdiff_t)kk * ldb;
            const float ai = a[(ptrdiff_t)i * a_rs + (ptrdiff_t)kk * a_cs];
            for (j = 0; j < cols; j++)
                row[j] += ai * b[j];
        }
        memcpy(y + (ptrdiff_t)i * ldy, row, (size_t)cols * sizeof(float));
    }
}

/* One tile: y(i, 0..nb) for all i < m, over kb reduction steps. */
static inline void mm_tile(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs, const float *bt,
                    ptrdiff_t ldb, float *y, ptrdiff_t ldy, int32_t m, int32_t kb, int32_t nb,
                    int first)
{
    int32_t i, j;

    for (i = 0; i + MM_MR <= m; i += MM_MR) {
        const float *ai = a + (ptrdiff_t)i * a_rs;
        float *yi = y + (ptrdiff_t)i * ldy;
        for (j = 0; j + MM_NR <= nb; j += MM_NR)
            mm_micro(ai, a_rs, a_cs, bt + j, ldb, yi + j, ldy, kb, first);
        if (j < nb)
            mm_edge(ai, a_rs, a_cs, bt + j, ldb, yi + j, ldy, MM_MR, kb, nb - j, first);
    }
    if (i < m)
        mm_edge(a + (ptrdiff_t)i * a_rs, a_rs, a_cs, bt, ldb, y + (ptrdiff_t)i * ldy, ldy,
                m - i, kb, nb, first);
}

/* bias and the activation on one tile's columns j0..j0+nb of every row
** (row i at y + i*ldy). */
static inline void mm_finish(const float *bias, float *y, ptrdiff_t ldy, int32_t m, int32_t j0,
                             int32_t nb, const sm2c_rt__act *act)
{
    int32_t i, j;

    for (i = 0; i < m; i++) {
        float *row = y + (ptrdiff_t)i * ldy + j0;
        if (bias) {
            for (j = 0; j < nb; j++)
                row[j] += bias[j0 + j];
        }
        sm2c_rt__act_f32(row, nb, act);
    }
}

/*
** The vector tiles (simd_f32.h: on x86-64 chosen once per call, at run time
** in a portable build; NEON on AArch64): 4 rows of y times up to 4 vectors of
** columns, every
** accumulator a named register, with masked lanes past nb.  Each step is an
** FMA (a quarter faster than a multiply and an add on Zen 5), so these sums
** round once per step: within reliability.md's contraction tolerance, and
** the same in both backends, which call this code.  Unoptimised builds
** (-O0, where every intrinsic's temporaries take stack slots of their own)
** use at most 2 vectors of columns, to stay within the runtime's 8 KB
** stack budget.  On
** the tile that ends the reduction (`finish`) the bias and the activation are
** applied in the registers, as mm_finish would.  Rows past m repeat the last
** row: computed, never stored.
*/
typedef void (*mm_tile_fn)(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs, const float *bt,
                           ptrdiff_t ldb, float *y, ptrdiff_t ldy, int32_t m, int32_t kb,
                           int32_t nb, int first, int finish, const float *bias, const sm2c_rt__act *act);

#define MM_V4(M, r) M(r, 0) M(r, 1) M(r, 2) M(r, 3)
#define MM_V2(M, r) M(r, 0) M(r, 1)
#define MM_V1(M, r) M(r, 0)
/* Rows: M(x, r) for each row r of a tile. */
#define MM_R4(M, x) M(x, 0) M(x, 1) M(x, 2) M(x, 3)
#define MM_R8(M, x) MM_R4(M, x) M(x, 4) M(x, 5) M(x, 6) M(x, 7)
#define MM_ROW_PTRS(x, r)                                                                  \
    const ptrdiff_t o##r = (ptrdiff_t)(i + (r < rows ? r : rows - 1));                      \
    const float *a##r = a + o##r * a_rs;                                                    \
    float *y##r = y + o##r * ldy;

/* The tile of one ISA, NR rows at a time (R lists them), whose macros
** P##_MASK (declares the lane masks m0..), P##_INIT, P##_LOADB, P##_ROWV
** (a row's step) and P##_STORE make each step.  8 rows where a tile has
** 32 columns or fewer on AVX-512: 4 gave 8 accumulators or fewer, as many
** as an FMA's latency needs just to keep two units busy (a [128, 128] x
** [128, 32] product, the attention's probabilities times values, ran at
** 87% of the 64-column tiles' rate). */
#define MM_TILE_R(P, name, TARGET, V, R, NR)                                               \
    TARGET static void name(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs, const float *bt, \
                            ptrdiff_t ldb, float *y, ptrdiff_t ldy, int32_t m, int32_t kb,  \
                            int32_t nb, int first, int finish, const float *bias,           \
                            const sm2c_rt__act *act)                                       \
    {                                                                                      \
        int32_t i, kk;                                                                     \
        V(P##_MASK, 0)                                                                     \
        for (i = 0; i < m; i += NR) {                                                      \
            const int32_t rows = m - i < NR ? m - i : NR;                                  \
            R(MM_ROW_PTRS, _)                                                              \
            R(V, P##_INIT)                                                                 \
            for (kk = 0; kk < kb; kk++) {                                                  \
                const float *bk = bt + (ptrdiff_t)kk * ldb;                                \
                V(P##_LOADB, 0)                                                            \
                R(P##_ROWV, V)                                                             \
            }                                                                              \
            R(V, P##_STORE)                                                                \
        }                                                                                  \
    }
#define MM_TILE(P, name, TARGET, V) MM_TILE_R(P, name, TARGET, V, MM_R4, 4)

#if SM2C_RT_AVX512
#define MM512_MASK(r, v) const __mmask16 m##v = sm2c_rt__mask16(nb - 16 * (v));
#define MM512_INIT(r, v)                                                                   \
    __m512 c##r##v = first ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(m##v, y##r + 16 * (v));
#define MM512_LOADB(r, v) const __m512 b##v = _mm512_maskz_loadu_ps(m##v, bk + 16 * (v));
#define MM512_MAC(r, v) c##r##v = _mm512_fmadd_ps(ak, b##v, c##r##v);
#define MM512_STORE(r, v)                                                                  \
    if (r < rows) {                                                                        \
        if (finish) {                                                                      \
            if (bias)                                                                      \
                c##r##v = _mm512_add_ps(c##r##v, _mm512_maskz_loadu_ps(m##v, bias + 16 * (v))); \
            c##r##v = sm2c_rt__act512(c##r##v, act);                                       \
        }                                                                                  \
        _mm512_mask_storeu_ps(y##r + 16 * (v), m##v, c##r##v);                             \
    }
#define MM512_ROW(r, V)                                                                    \
    {                                                                                      \
        const __m512 ak = _mm512_set1_ps(a##r[(ptrdiff_t)kk * a_cs]);                       \
        V(MM512_MAC, r)                                                                    \
    }
#define MM512_ROWV(V, r) MM512_ROW(r, V)
#if defined(__OPTIMIZE__)
MM_TILE(MM512, mm_tile512_4, SM2C_RT_TARGET_AVX512, MM_V4)
MM_TILE_R(MM512, mm_tile512_8x2, SM2C_RT_TARGET_AVX512, MM_V2, MM_R8, 8)
MM_TILE_R(MM512, mm_tile512_8x1, SM2C_RT_TARGET_AVX512, MM_V1, MM_R8, 8)
#else /* -O0 keeps the frames small: 4 rows and 32 columns at most */
MM_TILE(MM512, mm_tile512_2, SM2C_RT_TARGET_AVX512, MM_V2)
MM_TILE(MM512, mm_tile512_1, SM2C_RT_TARGET_AVX512, MM_V1)
#endif

/* A whole tile (nb <= MM_NB = 64 columns) in one pass over its rows. */
SM2C_RT_TARGET_AVX512 static void mm_tile512(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs,
                                             const float *bt, ptrdiff_t ldb, float *y,
                                             ptrdiff_t ldy, int32_t m, int32_t kb, int32_t nb,
                                             int first, int finish, const float *bias,
                                             const sm2c_rt__act *act)
{
#if defined(__OPTIMIZE__)
    const mm_tile_fn f = nb > 32 ? mm_tile512_4 : nb > 16 ? mm_tile512_8x2 : mm_tile512_8x1;
    f(a, a_rs, a_cs, bt, ldb, y, ldy, m, kb, nb, first, finish, bias, act);
#else
    int32_t j;
    for (j = 0; j < nb; j += 32)
        (nb - j > 16 ? mm_tile512_2 : mm_tile512_1)(a, a_rs, a_cs, bt + j, ldb, y + j, ldy, m, kb,
                                                    nb - j, first, finish,
                                                    bias ? bias + j : bias, act);
#endif
}
#endif

#if SM2C_RT_AVX2
#define MM256_MASK(r, v) const __m256i m##v = sm2c_rt__mask8(nb - 8 * (v));
#define MM256_INIT(r, v)                                                                   \
    __m256 c##r##v = first ? _mm256_setzero_ps() : _mm256_maskload_ps(y##r + 8 * (v), m##v);
#define MM256_LOADB(r, v) const __m256 b##v = _mm256_maskload_ps(bk + 8 * (v), m##v);
#define MM256_MAC(r, v) c##r##v = _mm256_fmadd_ps(ak, b##v, c##r##v);
#define MM256_STORE(r, v)                                                                  \
    if (r < rows) {                                                                        \
        if (finish) {                                                                      \
            if (bias)                                                                      \
                c##r##v = _mm256_add_ps(c##r##v, _mm256_maskload_ps(bias + 8 * (v), m##v)); \
            c##r##v = sm2c_rt__act256(c##r##v, act);                                       \
        }                                                                                  \
        _mm256_maskstore_ps(y##r + 8 * (v), m##v, c##r##v);                                \
    }
#define MM256_ROW(r, V)                                                                    \
    {                                                                                      \
        const __m256 ak = _mm256_set1_ps(a##r[(ptrdiff_t)kk * a_cs]);                       \
        V(MM256_MAC, r)                                                                    \
    }
#define MM256_ROWV(V, r) MM256_ROW(r, V)
MM_TILE(MM256, mm_tile256_2, SM2C_RT_TARGET_AVX2, MM_V2)
MM_TILE(MM256, mm_tile256_1, SM2C_RT_TARGET_AVX2, MM_V1)

/* A tile in strips of 16 columns (sixteen ymm registers hold 4 x 16 sums). */
SM2C_RT_TARGET_AVX2 static void mm_tile256(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs,
                                           const float *bt, ptrdiff_t ldb, float *y,
                                           ptrdiff_t ldy, int32_t m, int32_t kb, int32_t nb,
                                           int first, int finish, const float *bias,
                                           const sm2c_rt__act *act)
{
    int32_t j;

    for (j = 0; j < nb; j += 16) {
        const mm_tile_fn f = nb - j > 8 ? mm_tile256_2 : mm_tile256_1;
        f(a, a_rs, a_cs, bt + j, ldb, y + j, ldy, m, kb, nb - j, first, finish,
          bias ? bias + j : bias, act);
    }
}
#endif

#if SM2C_RT_NEON
/* 4 rows x up to 4 vectors of 4 columns (16 accumulators of AArch64's 32
** registers).  NEON has no masked loads: a mask is the count of lanes to
** load (sm2c_rt__load128), a constant 4 in the full tiles (MM128F, every
** column of their 16 present), whose loads are then plain. */
#define MM128_MASK(r, v) const int32_t m##v = nb - 4 * (v);
#define MM128F_MASK(r, v)                                                                  \
    enum { m##v = 4 };                                                                     \
    (void)nb;
#define MM128_INIT(r, v)                                                                   \
    float32x4_t c##r##v = first ? vdupq_n_f32(0.0f) : sm2c_rt__load128(y##r + 4 * (v), m##v);
#define MM128_LOADB(r, v) const float32x4_t b##v = sm2c_rt__load128(bk + 4 * (v), m##v);
#define MM128_MAC(r, v) c##r##v = vfmaq_n_f32(c##r##v, b##v, ak);
#define MM128_STORE(r, v)                                                                  \
    if (r < rows) {                                                                        \
        if (finish) {                                                                      \
            if (bias)                                                                      \
                c##r##v = vaddq_f32(c##r##v, sm2c_rt__load128(bias + 4 * (v), m##v));      \
            c##r##v = sm2c_rt__act128(c##r##v, act);                                       \
        }                                                                                  \
        sm2c_rt__store128(y##r + 4 * (v), c##r##v, m##v);                                  \
    }
#define MM128_ROW(r, V)                                                                    \
    {                                                                                      \
        const float ak = a##r[(ptrdiff_t)kk * a_cs];                                       \
        V(MM128_MAC, r)                                                                    \
    }
#define MM128_ROWV(V, r) MM128_ROW(r, V)
#define MM128F_INIT MM128_INIT
#define MM128F_LOADB MM128_LOADB
#define MM128F_STORE MM128_STORE
#define MM128F_ROW MM128_ROW
#define MM128F_ROWV MM128_ROWV
MM_TILE(MM128F, mm_tile128_full, , MM_V4)
MM_TILE(MM128, mm_tile128_part, , MM_V4)
MM_TILE(MM128, mm_tile128_1, , MM_V1)

/* A tile in strips of 16 columns; the last strip's lanes past nb are 0. */
static void mm_tile128(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs, const float *bt,
                       ptrdiff_t ldb, float *y, ptrdiff_t ldy, int32_t m, int32_t kb, int32_t nb,
                       int first, int finish, const float *bias, const sm2c_rt__act *act)
{
    int32_t j;

    for (j = 0; j < nb; j += 16) {
        const mm_tile_fn f = nb - j >= 16 ? mm_tile128_full : nb - j > 4 ? mm_tile128_part
                                                                         : mm_tile128_1;
        f(a, a_rs, a_cs, bt + j, ldb, y + j, ldy, m, kb, nb - j, first, finish,
          bias ? bias + j : bias, act);
    }
}
#endif

/* The vector tile this CPU runs, or NULL for the C tile and mm_finish. */
static inline mm_tile_fn mm_simd_tile(void)
{
#if SM2C_RT_AVX512
    if (sm2c_rt__have_avx512())
        return mm_tile512;
#endif
#if SM2C_RT_AVX2
    if (sm2c_rt__have_avx2())
        return mm_tile256;
#endif
#if SM2C_RT_NEON
    return mm_tile128;
#else
    return NULL;
#endif
}

/* A strided B without scratch: each y(i, j) is a dot product of A's row i
** and B's column j, summed in increasing kk like every other path. */
static inline void mm_dot(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs, const float *b,
                          ptrdiff_t b_rs, ptrdiff_t b_cs, float *y, ptrdiff_t ldy, int32_t m,
                          int32_t k, int32_t n)
{
    int32_t i, j, kk;

    for (i = 0; i < m; i++) {
        const float *ai = a + (ptrdiff_t)i * a_rs;
        for (j = 0; j < n; j++) {
            const float *bj = b + (ptrdiff_t)j * b_cs;
            float s = 0.0f;
            for (kk = 0; kk < k; kk++)
                s += ai[(ptrdiff_t)kk * a_cs] * bj[(ptrdiff_t)kk * b_rs];
            y[(ptrdiff_t)i * ldy + j] = s;
        }
    }
}

#if SM2C_RT_AVX512
/* 16 x 16 floats transposed in registers: row t of src (src + t*ss) becomes
** column t of dst (rows ds apart).  Three rounds of in-lane unpacks and
** shuffles, then two of 128-bit lane shuffles. */
SM2C_RT_TARGET_AVX512 static void mm_transpose16(const float *src, ptrdiff_t ss, float *dst, ptrdiff_t ds)
{
    __m512 r[16], t[16];
    int32_t i;

    for (i = 0; i < 16; i++)
        r[i] = _mm512_loadu_ps(src + i * ss);
    for (i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    for (i = 0; i < 16; i += 4) {
        r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
        r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xEE);
        r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    for (i = 0; i < 4; i++) {
        t[i] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0x88);
        t[i + 4] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0xDD);
        t[i + 8] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0x88);
        t[i + 12] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0xDD);
    }
    for (i = 0; i < 4; i++) {
        r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
        r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xDD);
        r[i + 4] = _mm512_shuffle_f32x4(t[i + 4], t[i + 12], 0x88);
        r[i + 12] = _mm512_shuffle_f32x4(t[i + 4], t[i + 12], 0xDD);
    }
    for (i = 0; i < 16; i++)
        _mm512_storeu_ps(dst + i * ds, r[i]);
}
#endif

/* The whole 16 x 16 blocks of a transposed B's tile (b_rs == 1) moved by
** mm_transpose16, on a CPU with AVX-512 and a tile of whole blocks of
** steps; the columns from the returned one on are left to mm_pack's loop.
** Several times faster than that loop (4 us to 0.6 us for attention's keys,
** 64 us to 14 us for a 512 x 512 weight). */
static inline int32_t mm_pack_blocks(const float *b, ptrdiff_t b_cs, int32_t k0, int32_t kb, int32_t j0,
                                     int32_t nb, float *pack)
{
#if SM2C_RT_AVX512
    int32_t jj = 0, kk;
    if (kb % 16 == 0 && sm2c_rt__have_avx512()) {
        for (; jj + 16 <= nb; jj += 16) {
            const float *src = b + (ptrdiff_t)(j0 + jj) * b_cs + k0;
            for (kk = 0; kk < kb; kk += 16)
                mm_transpose16(src + kk, b_cs, pack + kk * MM_NB + jj, MM_NB);
        }
    }
    return jj;
#else
    (void)b, (void)b_cs, (void)k0, (void)kb, (void)j0, (void)nb, (void)pack;
    return 0;
#endif
}

/* B(kk, j) for kk in [k0, k0 + kb), j in [j0, j0 + nb) copied to pack[kk][j]
** (row stride MM_NB), so that the tiles read it as rows. */
static inline void mm_pack(const float *b, ptrdiff_t b_rs, ptrdiff_t b_cs, int32_t k0, int32_t kb,
                           int32_t j0, int32_t nb, float *pack)
{
    int32_t jj = b_rs == 1 ? mm_pack_blocks(b, b_cs, k0, kb, j0, nb, pack) : 0, kk;

    for (; jj < nb; jj++) {
        const float *src = b + (ptrdiff_t)(j0 + jj) * b_cs + (ptrdiff_t)k0 * b_rs;
        if (b_rs == 1) {    /* a transposed B: contiguous reads, as most are */
            for (kk = 0; kk < kb; kk++)
                pack[kk * MM_NB + jj] = src[kk];
        } else {
            for (kk = 0; kk < kb; kk++)
                pack[kk * MM_NB + jj] = src[(ptrdiff_t)kk * b_rs];
        }
    }
}

/* The in-place B tile after (j0, k0), to prefetch: the next reduction
** steps of these columns, else the first of the next columns; no rows after
** the last. */
typedef struct {
    const float *b;
    int32_t rows, cols;
} mm_next;

static inline mm_next mm_next_tile(const float *b, ptrdiff_t b_rs, int32_t j0, int32_t k0, int32_t k,
                                   int32_t n)
{
    mm_next t = { NULL, 0, 0 };

    if (k0 + MM_KB < k) {
        t.b = b + (ptrdiff_t)(k0 + MM_KB) * b_rs + j0;
        t.rows = k - k0 - MM_KB < MM_KB ? k - k0 - MM_KB : MM_KB;
        t.cols = n - j0 < MM_NB ? n - j0 : MM_NB;
    } else if (j0 + MM_NB < n) {
        t.b = b + j0 + MM_NB;
        t.rows = k < MM_KB ? k : MM_KB;
        t.cols = n - j0 - MM_NB < MM_NB ? n - j0 - MM_NB : MM_NB;
    }
    return t;
}

enum {
    MM_PF_ROWS = 16,              /* rows of y per call of a tile while the next B tile is fetched */
    MM_STREAM_BYTES = 512 * 1024  /* a smaller B stays in cache: no prefetch, one call per tile */
};

/*
** mm_strided's loop nest for a B read in place and too large to stay in
** cache between calls (MM_STREAM_BYTES or more): each tile runs MM_PF_ROWS
** rows at a time, and each part prefetches a share of the next B tile, so
** that a weight read from memory once per call arrives while the rows
** compute (simd_f32.h).  Rows are independent and each tile's sums are
** mm_strided's, so the bits are too.  A function of its own, not inlined:
** its frame then sits beside mm_pack's deeper chain, not on top of it (the
** x86-64 stack bound, rule 10).
*/
static SM2C_RT_NOINLINE void mm_streamed(mm_tile_fn simd, const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs,
                                         const float *b, ptrdiff_t ldb, const float *bias, float *y,
                                         ptrdiff_t ldy, int32_t m, int32_t k, int32_t n,
                                         const sm2c_rt__act *act)
{
    const int32_t parts = (m + MM_PF_ROWS - 1) / MM_PF_ROWS;
    int32_t i, j0, k0;

    for (j0 = 0; j0 < n; j0 += MM_NB) {
        const int32_t nb = n - j0 < MM_NB ? n - j0 : MM_NB;
        for (k0 = 0; k0 < k; k0 += MM_KB) {
            const int32_t kb = k - k0 < MM_KB ? k - k0 : MM_KB;
            const mm_next next = mm_next_tile(b, ldb, j0, k0, k, n);
            for (i = 0; i < m; i += MM_PF_ROWS) {
                const int32_t part = i / MM_PF_ROWS;
                int32_t r = next.rows * part / parts;
                for (; r < next.rows * (part + 1) / parts; r++)
                    sm2c_rt__prefetch_part(next.b + (ptrdiff_t)r * ldb, (size_t)next.cols * sizeof(float), 0, 1);
                simd(a + (ptrdiff_t)i * a_rs + (ptrdiff_t)k0 * a_cs, a_rs, a_cs, b + (ptrdiff_t)k0 * ldb + j0,
                     ldb, y + (ptrdiff_t)i * ldy + j0, ldy, m - i < MM_PF_ROWS ? m - i : MM_PF_ROWS, kb, nb,
                     k0 == 0, k0 + kb >= k, bias ? bias + j0 : bias, act);
            }
        }
    }
}

/*
** The one loop nest of every float product here: y(i, j) = act(sum over kk
** of A(i, kk) * B(kk, j) + bias[j]) with
**     A(i, kk) = a[i*a_rs + kk*a_cs], B(kk, j) = b[kk*b_rs + j*b_cs],
**     y(i, j) = y[i*ldy + j].
** B is read in place when its columns are contiguous (b_cs == 1), else
** packed one tile at a time into pack, or without pack read as dot products.
** Only where B comes from (and ldb) depends on its layout, so every layout
** sums each element in the same order.
*/
static inline void mm_strided(const float *a, ptrdiff_t a_rs, ptrdiff_t a_cs, const float *b,
                              ptrdiff_t b_rs, ptrdiff_t b_cs, const float *bias, float *y,
                              ptrdiff_t ldy, int32_t m, int32_t k, int32_t n,
                              const sm2c_rt__act *act, float *pack)
{
    const int in_place = b_cs == 1;
    const mm_tile_fn simd = mm_simd_tile();
    int32_t i, j0, k0;

    if (m <= 0 || n <= 0)
        return;
    if (simd && in_place && (int64_t)k * n * (int64_t)sizeof(float) >= MM_STREAM_BYTES) {
        mm_streamed(simd, a, a_rs, a_cs, b, b_rs, bias, y, ldy, m, k, n, act);
        return;
    }
    if (!in_place && !pack) {
        mm_dot(a, a_rs, a_cs, b, b_rs, b_cs, y, ldy, m, k, n);
        mm_finish(bias, y, ldy, m, 0, n, act);
        return;
    }
    for (j0 = 0; j0 < n; j0 += MM_NB) {
        const int32_t nb = n - j0 < MM_NB ? n - j0 : MM_NB;

        if (k <= 0) {
            for (i = 0; i < m; i++)
                memset(y + (ptrdiff_t)i * ldy + j0, 0, (size_t)nb * sizeof(float));
        }
        for (k0 = 0; k0 < k; k0 += MM_KB) {
            const int32_t kb = k - k0 < MM_KB ? k - k0 : MM_KB;
            const float *bt = b + (ptrdiff_t)k0 * b_rs + j0;
            ptrdiff_t ldb = b_rs;

            if (!in_place) {
                mm_pack(b, b_rs, b_cs, k0, kb, j0, nb, pack);
                bt = pack;
                ldb = MM_NB;
            }
            if (simd)
                simd(a + (ptrdiff_t)k0 * a_cs, a_rs, a_cs, bt, ldb, y + j0, ldy, m, kb, nb,
                     k0 == 0, k0 + kb >= k, bias ? bias + j0 : bias, act);
            else
                mm_tile(a + (ptrdiff_t)k0 * a_cs, a_rs, a_cs, bt, ldb, y + j0, ldy, m, kb, nb,
                        k0 == 0);
        }
        if (!simd || k <= 0)
            mm_finish(bias, y, ldy, m, j0, nb, act);
    }
}

#if SM2C_RT_WANT(matmul_f32)
void sm2c_rt_matmul_f32(const float *a, const float *b, const float *bias, float *y, int32_t m,
                        int32_t k, int32_t n, int32_t transpose_a, int32_t transpose_b,
                        int32_t kind, float act_a, float act_b, float *pack)
{
    const sm2c_rt__act act = { kind, act_a, act_b };

    /* A is a[m*k] or a[k*m], B b[k*n] or, transposed, b[n*k] */
    mm_strided(a, transpose_a ? 1 : k, transpose_a ? m : 1, b, transpose_b ? 1 : n,
               transpose_b ? k : 1, bias, y, n, m, k, n, &act, pack);
}
#endif

#if SM2C_RT_WANT(batch_matmul_f32)
void sm2c_rt_batch_matmul_f32(const float *a, const float *b, float *y, int32_t batch,
                              const int32_t *a_off, const int32_t *b_off, int32_t m, int32_t k,
                              int32_t n, int32_t adj_a, int32_t adj_b, float *pack)
{
    const ptrdiff_t y_step = (ptrdiff_t)m * n;
    int32_t j;

    for (j = 0; j < batch; j++)
        sm2c_rt_matmul_f32(a + a_off[j], b + b_off[j], NULL, y + (ptrdiff_t)j * y_step, m, k,
                           n, adj_a, adj_b, SM2C_RT_ACT_NONE, 0.0f, 0.0f, pack);
}
#endif

#if SM2C_RT_WANT(batch_matmul_strided_f32)
void sm2c_rt_batch_matmul_strided_f32(const float *a, const float *b, float *y, int32_t batch,
                                      const int32_t *a_off, const int32_t *b_off,
                                      const int32_t *y_off, int32_t m, int32_t k, int32_t n,
                                      int32_t a_rs, int32_t a_cs, int32_t b_rs, int32_t b_cs,
                                      int32_t y_rs, float *pack)
{
    const sm2c_rt__act act = { SM2C_RT_ACT_NONE, 0.0f, 0.0f };
    int32_t j;

    for (j = 0; j < batch; j++)
        mm_strided(a + a_off[j], a_rs, a_cs, b + b_off[j], b_rs, b_cs, NULL, y + y_off[j], y_rs,
                   m, k, n, &act, pack);
}
#endif
