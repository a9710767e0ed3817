/*
** eltwise_s8.c: int8 elementwise kernels (--quantize int8).
**
** Add of two same-shaped int8 tensors, as TFLite's reference int8 Add computes
** it (both inputs rescaled to twice the larger input scale, lifted by 2^20,
** summed, rescaled to the output).  q[] holds TFLite's ArithmeticParams:
**   [0] -in1_zp  [1] -in2_zp  [2] out_zp  [3] left_shift (20)
**   [4] in1_mult [5] in1_shift [6] in2_mult [7] in2_shift [8] out_mult [9] out_shift
**   [10] act_min [11] act_max
** |x - zp| <= 255, so the lifted value stays below 2^28 and the sum below 2^29.
**
** Mul, as TFLite's reference int8 Mul: y = requant((a - a_zp) * (b - b_zp)) + out_zp.
** q[]: [0] -a_zp [1] -b_zp [2] out_zp [3] mult [4] shift [5] act_min [6] act_max.
** |product| <= 256 * 256 = 2^16 and the compiler keeps shift <= 15, so the
** lifted product fits int32 (TFLite's form would overflow beyond).
**
** sm2c_rt_add_s8_frq is Add in float (--requantize float; below).
**
** Clamp: Relu and Relu6 on an int8 value whose output keeps its scale and
** zero point, y = min(max(x, lo), hi).
**
** Add runs on 16 lanes (AVX-512 VNNI builds) or 8 (AVX2) on x86-64 through
** q8_vec.h's requantization, which gives q8_math.h's bits.
**
** The _bcast forms broadcast as the float binary kernels do (y has `rank` dims
** `dims`, a read at sum(i[k] * sa[k]), b at sum(i[k] * sb[k])), with the same
** arithmetic per element, as TFLite's BroadcastAdd6DSlow and BroadcastMul6DSlow.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dsp_s8.h"
#include "q8_m.h"
#include "q8_math.h"
#include "q8_vec.h"
#include "rt_select.h"
#include "sm2c_rt.h"

static inline int8_t sm2c_rt__add1_s8(int32_t a, int32_t b, const int32_t *q)
{
    const int32_t lift = (int32_t)(UINT32_C(1) << q[3]);
    const int32_t sa = sm2c_rt__requant((q[0] + a) * lift, q[4], q[5]);
    const int32_t sb = sm2c_rt__requant((q[1] + b) * lift, q[6], q[7]);
    return sm2c_rt__clamp_s8(sm2c_rt__requant(sa + sb, q[8], q[9]) + q[2], q[10], q[11]);
}

static inline int8_t sm2c_rt__mul1_s8(int32_t a, int32_t b, const int32_t *q)
{
    return sm2c_rt__clamp_s8(sm2c_rt__requant((q[0] + a) * (q[1] + b), q[3], q[4]) + q[2], q[5], q[6]);
}

#if SM2C_RT_WANT(add_s8) || SM2C_RT_WANT(add_bcast_s8)
#if SM2C_RT_VNNI || SM2C_RT_S8_AVX2
/* The inputs' rescaling on vectors, sm2c_rt__requant((q0 + a) * 2^L, m, s)
** for int8 a, takes a short exact form when 9 <= L <= 22, m >= 0, s <= 0
** and d = q0 + a stays within [-255, 255] (TFLite's int8 Add: L = 20).  With
** m = mh * 2^(31-L) + ml, the doubling high multiply of d * 2^L by m,
** floor((d * m + 2^(30-L)) / 2^(31-L)), is d * mh + floor((d * ml +
** 2^(30-L)) / 2^(31-L)): |d * mh| < 2^30 and |d * ml| < 2^30, so two 32-bit
** multiplies give it where the general form takes the 64-bit products of
** the even and the odd lanes.  The rounding shift right by -s follows. */
static int add_short_form(const int32_t *q)
{
    return q[3] >= 9 && q[3] <= 22 && q[4] >= 0 && q[6] >= 0 && q[5] <= 0 && q[7] <= 0 && q[0] >= -127 &&
           q[0] <= 128 && q[1] >= -127 && q[1] <= 128;
}

/* One input's constants for the short form, m and s its multiplier and
** shift: with d = a + zp, h that high multiply and e = -s, the rounding
** shift RoundingDivideByPOT(h, e) is floor((h + 2^(e-1) - [h < 0]) / 2^e)
** (h itself when e = 0), and an integer added inside a floor passes through
** it, so the two steps are one:
**
**     (d mh + 2^(e-1) - [d < 0] + floor((d ml + 2^(r-1)) / 2^r)) >> e
**
** with [d < 0] for [h < 0]: they differ only where h = 0, which both
** round to 0 when e >= 1.  zp folds into the constants, a * mh + k2 and
** a * ml + k1, and d < 0 is a < nz = -zp: 9 operations where the two
** steps take 12.  Every term stays within int32 (|d| <= 255, mh < 2^L,
** ml < 2^r, 2^(e-1) <= 2^30). */
typedef struct {
    int32_t mh, ml, k1, k2, nz, r, e, sgn;
} add_lift;

static add_lift add_lift_of(int32_t zp, int32_t L, int32_t m, int32_t s)
{
    const int32_t r = 31 - L, e = s < -31 ? 31 : -s, mh = m >> r, ml = m & ((INT32_C(1) << r) - 1);
    add_lift c = {mh, ml, zp * ml + (INT32_C(1) << (r - 1)), zp * mh + (e ? INT32_C(1) << (e - 1) : 0), -zp,
                  r, e, e > 0};
    return c;
}
#endif

#if SM2C_RT_VNNI
/* add_lift on 16 lanes of int8 values a (widened). */
SM2C_RT_TARGET_VNNI static inline __m512i add_lift512(__m512i a, const add_lift *c)
{
    const __m512i lo = _mm512_add_epi32(_mm512_mullo_epi32(a, _mm512_set1_epi32(c->ml)), _mm512_set1_epi32(c->k1));
    const __m512i hi = _mm512_add_epi32(_mm512_mullo_epi32(a, _mm512_set1_epi32(c->mh)), _mm512_set1_epi32(c->k2));
    __m512i x = _mm512_add_epi32(hi, _mm512_srav_epi32(lo, _mm512_set1_epi32(c->r)));
    const __mmask16 neg = _mm512_mask_cmplt_epi32_mask((__mmask16)(c->sgn ? 0xFFFF : 0), a, _mm512_set1_epi32(c->nz));
    x = _mm512_mask_sub_epi32(x, neg, x, _mm512_set1_epi32(1));
    return _mm512_srav_epi32(x, _mm512_set1_epi32(c->e));
}

/* sm2c_rt__add1_s8 on 16 lanes; the whole vectors of n, and returns how many. */
SM2C_RT_TARGET_VNNI static int32_t add_s8_512(const int8_t *a, const int8_t *b, int8_t *y, int32_t n,
                                              const int32_t *q)
{
    const __m512i zo = _mm512_set1_epi32(q[2]);
    const __m512i mo = _mm512_set1_epi32(q[8]), so = _mm512_set1_epi32(q[9]);
    const __m512i lo = _mm512_set1_epi32(q[10]), hi = _mm512_set1_epi32(q[11]);
    int32_t i = 0;
    if (add_short_form(q)) {
        const add_lift ca = add_lift_of(q[0], q[3], q[4], q[5]), cb = add_lift_of(q[1], q[3], q[6], q[7]);
        /* the output's requantization prepared once (q8_prep: the left shift
        ** and the INT32_MIN case only where they can occur) */
        int32_t mult[16], shift[16];
        for (int j = 0; j < 16; j++)
            mult[j] = q[8], shift[j] = q[9];
        const q8_out out = {NULL, mult, shift, q[2], q[10], q[11], NULL, 0};
        q8_prep512 rq;
        q8_prep(&rq, 0, 16, &out);
        for (; i + 16 <= n; i += 16) {
            const __m512i va = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(a + i)));
            const __m512i vb = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + i)));
            q8_apply512(_mm512_add_epi32(add_lift512(va, &ca), add_lift512(vb, &cb)), &rq, &out, y + i);
        }
        return i;
    }
    const __m512i za = _mm512_set1_epi32(q[0]), zb = _mm512_set1_epi32(q[1]);
    const __m512i ma = _mm512_set1_epi32(q[4]), sa = _mm512_set1_epi32(q[5]);
    const __m512i mb = _mm512_set1_epi32(q[6]), sb = _mm512_set1_epi32(q[7]);
    for (; i + 16 <= n; i += 16) {
        const __m512i va = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(a + i)));
        const __m512i vb = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + i)));
        const __m512i ra = q8_requant512(_mm512_slli_epi32(_mm512_add_epi32(va, za), (unsigned)q[3]), ma, sa);
        const __m512i rb = q8_requant512(_mm512_slli_epi32(_mm512_add_epi32(vb, zb), (unsigned)q[3]), mb, sb);
        __m512i v = _mm512_add_epi32(q8_requant512(_mm512_add_epi32(ra, rb), mo, so), zo);
        v = _mm512_max_epi32(_mm512_min_epi32(v, hi), lo);
        _mm_storeu_si128((__m128i *)(void *)(y + i), _mm512_cvtepi32_epi8(v));
    }
    return i;
}
#endif

#if SM2C_RT_S8_AVX2
/* add_lift512 on 8 lanes. */
SM2C_RT_TARGET_S8_AVX2 static inline __m256i add_lift256(__m256i a, const add_lift *c)
{
    const __m256i lo = _mm256_add_epi32(_mm256_mullo_epi32(a, _mm256_set1_epi32(c->ml)), _mm256_set1_epi32(c->k1));
    const __m256i hi = _mm256_add_epi32(_mm256_mullo_epi32(a, _mm256_set1_epi32(c->mh)), _mm256_set1_epi32(c->k2));
    const __m256i x = _mm256_add_epi32(hi, _mm256_srav_epi32(lo, _mm256_set1_epi32(c->r)));
    /* the compare gives -1 where a < nz */
    const __m256i neg = _mm256_and_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(c->nz), a), _mm256_set1_epi32(-c->sgn));
    return _mm256_srav_epi32(_mm256_add_epi32(x, neg), _mm256_set1_epi32(c->e));
}

/* add_s8_512 on 8 lanes. */
SM2C_RT_TARGET_S8_AVX2 static int32_t add_s8_256(const int8_t *a, const int8_t *b, int8_t *y, int32_t n,
                                                 const int32_t *q)
{
    const __m256i za = _mm256_set1_epi32(q[0]), zb = _mm256_set1_epi32(q[1]), zo = _mm256_set1_epi32(q[2]);
    const __m256i ma = _mm256_set1_epi32(q[4]), sa = _mm256_set1_epi32(q[5]);
    const __m256i mb = _mm256_set1_epi32(q[6]), sb = _mm256_set1_epi32(q[7]);
    const __m256i mo = _mm256_set1_epi32(q[8]), so = _mm256_set1_epi32(q[9]);
    const __m256i lo = _mm256_set1_epi32(q[10]), hi = _mm256_set1_epi32(q[11]);
    const __m128i lift = _mm_cvtsi32_si128(q[3]);
    const __m256i bytes = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                           0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const int short_form = add_short_form(q);
    add_lift ca = {0, 0, 0, 0, 0, 0, 0, 0}, cb = ca;
    if (short_form)
        ca = add_lift_of(q[0], q[3], q[4], q[5]), cb = add_lift_of(q[1], q[3], q[6], q[7]);
    int32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i va = _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(a + i)));
        const __m256i vb = _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(b + i)));
        __m256i ra, rb;
        if (short_form) {
            ra = add_lift256(va, &ca), rb = add_lift256(vb, &cb);
        } else {
            ra = q8_requant256(_mm256_sll_epi32(_mm256_add_epi32(va, za), lift), ma, sa);
            rb = q8_requant256(_mm256_sll_epi32(_mm256_add_epi32(vb, zb), lift), mb, sb);
        }
        __m256i v = _mm256_add_epi32(q8_requant256(_mm256_add_epi32(ra, rb), mo, so), zo);
        v = _mm256_max_epi32(_mm256_min_epi32(v, hi), lo);
        v = _mm256_shuffle_epi8(v, bytes);
        const uint32_t w0 = (uint32_t)_mm256_extract_epi32(v, 0), w1 = (uint32_t)_mm256_extract_epi32(v, 4);
        memcpy(y + i, &w0, 4);
        memcpy(y + i + 4, &w1, 4);
    }
    return i;
}
#endif

#endif

#if SM2C_RT_WANT(add_s8) || SM2C_RT_WANT(add_bcast_s8) || SM2C_RT_WANT(add_lut_s8)
/* Whether q's three rescalings all take q8_m.h's short form: shifts in
** [-31, 0], no multiplier INT32_MIN; the lifted inputs stay below 2^28 and
** their sum below 2^29 (above), within its 2^30.  (TFLite gives the input
** of the larger scale the multiplier 2^30 and the shift 0.) */
static int add_fast_s8(const int32_t *q)
{
    for (int k = 4; k <= 8; k += 2)
        if (q[k + 1] > 0 || q[k + 1] < -31 || q[k] == INT32_MIN)
            return 0;
    return q[3] >= 0 && q[3] <= 20;
}

/* A rescaling of add_fast_s8's: the high multiply, then the rounding shift
** right by e (none when e = 0: rnd = 0 and sgn = 0, else 2^(e-1) and 1). */
typedef struct {
    int32_t m, e, rnd, sgn;
} add_rq;

static inline add_rq add_rq_of(int32_t m, int32_t shift)
{
    const add_rq r = { m, -shift, (int32_t)((UINT32_C(1) << -shift) >> 1), shift < 0 };
    return r;
}

static SM2C_RT_ALWAYS_INLINE int32_t add_rq_apply(int32_t x, const add_rq *r)
{
    const int32_t h = q8m_high(x, r->m);
    return (h + r->rnd - (int32_t)(((uint32_t)h >> 31) & (uint32_t)r->sgn)) >> r->e;
}

#endif

#if SM2C_RT_WANT(add_s8) || SM2C_RT_WANT(add_bcast_s8)
/* s[j] (+)= the rescaled lifted input (z + a[j]) * 2^L, j < n: one pass of
** add_fast_run_s8's, few live values, which gcc keeps in registers. */
static SM2C_RT_NOINLINE void add_rq_in(const int8_t *a, int32_t n, int32_t z, int32_t L, const add_rq *rp,
                                       int32_t *s, int acc)
{
    const add_rq r = *rp;
    for (int32_t j = 0; j < n; j++)
        s[j] = (acc ? s[j] : 0) + add_rq_apply((z + a[j]) * (1 << L), &r);
}

static SM2C_RT_NOINLINE void add_rq_out(const int32_t *s, int32_t n, const add_rq *rp, int32_t zo, int32_t lo,
                                        int32_t hi, int8_t *y)
{
    const add_rq r = *rp;
    for (int32_t j = 0; j < n; j++) {
        int32_t v = add_rq_apply(s[j], &r) + zo;
        v = v < lo ? lo : v;
        y[j] = (int8_t)(v > hi ? hi : v);
    }
}

/* Elements [i, n) of a + b in that form (add_fast_s8(q)), a scalar core's
** loop (sm2c_rt__requant's saturation tests cost about 40 cycles a call on
** a Cortex-M4, three calls an element): by chunks, each input's rescaling
** and the output's a pass of their own. */
static void add_fast_run_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t i, int32_t n, const int32_t *q)
{
    const add_rq ra = add_rq_of(q[4], q[5]), rb = add_rq_of(q[6], q[7]), ro = add_rq_of(q[8], q[9]);
    int32_t s[32];
    for (; i < n; i += 32) {
        const int32_t k = n - i < 32 ? n - i : 32;
        add_rq_in(a + i, k, q[0], q[3], &ra, s, 0);
        add_rq_in(b + i, k, q[1], q[3], &rb, s, 1);
        add_rq_out(s, k, &ro, q[2], q[10], q[11], y + i);
    }
}

/* n elements of a + b, on the widest path this CPU runs. */
static void add_run_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *q)
{
    int32_t i = 0;
#if SM2C_RT_VNNI
    if (sm2c_rt__have_vnni())
        i = add_s8_512(a, b, y, n, q);
    else
#endif
    {
#if SM2C_RT_S8_AVX2
        if (sm2c_rt__have_s8_avx2())
            i = add_s8_256(a, b, y, n, q);
#endif
    }
    if (add_fast_s8(q)) {
        add_fast_run_s8(a, b, y, i, n, q);
        return;
    }
    for (; i < n; i++)
        y[i] = sm2c_rt__add1_s8(a[i], b[i], q);
}
#endif

#if SM2C_RT_WANT(add_table_s8)
/* An int8 Add's rescaling of input `which` (0: a, 1: b) for every int8
** value v, t[v + 128]: sm2c_rt__add1_s8's own expression, so that
** sm2c_rt_add_lut_s8 over the compiler's tables gives its bits. */
void sm2c_rt_add_table_s8(const int32_t *q, int32_t which, int32_t *t)
{
    const int32_t lift = (int32_t)(UINT32_C(1) << q[3]);
    for (int32_t v = -128; v < 128; v++)
        t[v + 128] = sm2c_rt__requant((q[which] + v) * lift, q[4 + 2 * which], q[5 + 2 * which]);
}
#endif

#if SM2C_RT_WANT(add_lut_s8)
/* sm2c_rt_add_s8 for a scalar core: each input's rescaling looked up in a
** table of 256 (ta, tb: sm2c_rt_add_table_s8's, made by the compiler), the
** sum's alone computed, by add_fast_s8's form where it holds. */
void sm2c_rt_add_lut_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *ta,
                        const int32_t *tb, const int32_t *q)
{
    ta += 128, tb += 128;
#if SM2C_RT_DSP_ASM && defined(__thumb2__)
    /* the common case in assembly (gcc 12 at -Os spills the C loop's
    ** values: 44 est. cycles an element, here 19): a right shift of 1 to
    ** 31, the clamp [-128, 127] by SSAT */
    if (add_fast_s8(q) && q[9] < 0 && q[10] == -128 && q[11] == 127 && n > 0) {
        const int32_t m = q[8], e = -q[9], rnd = (int32_t)((UINT32_C(1) << e) >> 1), zo = q[2];
        const int8_t *const end = a + n;
        int32_t u, v;
        /* volatile: its effect is the stores, which no output shows */
        __asm__ volatile("1:\n\t"
                "ldrsb %[u], [%[a]], #1\n\t"
                "ldrsb %[v], [%[b]], #1\n\t"
                "ldr %[u], [%[ta], %[u], lsl #2]\n\t"
                "ldr %[v], [%[tb], %[v], lsl #2]\n\t"
                "add %[u], %[u], %[v]\n\t"
                "lsls %[u], %[u], #1\n\t"
                "smmulr %[u], %[u], %[m]\n\t"
                "sub %[u], %[u], %[u], lsr #31\n\t"
                "add %[u], %[u], %[rnd]\n\t"
                "asr %[u], %[u], %[e]\n\t"
                "add %[u], %[u], %[zo]\n\t"
                "ssat %[u], #8, %[u]\n\t"
                "strb %[u], [%[y]], #1\n\t"
                "cmp %[a], %[end]\n\t"
                "bne 1b"
                : [a] "+r"(a), [b] "+r"(b), [y] "+r"(y), [u] "=&r"(u), [v] "=&r"(v)
                : [ta] "r"(ta), [tb] "r"(tb), [m] "r"(m), [rnd] "r"(rnd), [e] "r"(e), [zo] "r"(zo), [end] "r"(end)
                : "cc", "memory");
        return;
    }
#endif
    if (add_fast_s8(q)) {
        const add_rq r = add_rq_of(q[8], q[9]);
        const int32_t zo = q[2], lo = q[10], hi = q[11];
        for (int32_t i = 0; i < n; i++) {
            const int32_t v = add_rq_apply(ta[a[i]] + tb[b[i]], &r) + zo;
            y[i] = (int8_t)(v < lo ? lo : v > hi ? hi : v);
        }
        return;
    }
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__clamp_s8(sm2c_rt__requant(ta[a[i]] + tb[b[i]], q[8], q[9]) + q[2], q[10], q[11]);
}
#endif

#if SM2C_RT_WANT(add_s8)
void sm2c_rt_add_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *q)
{
    add_run_s8(a, b, y, n, q);
}
#endif

#if SM2C_RT_WANT(add_s8_frq)
/*
** The float Add (--requantize float): y = round((a - za) * ka + (b - zb) * kb),
** clamped, + zo.  The compiler gives ka and kb (in_scale / out_scale) 15
** significant bits, so each product of a 9-bit integer is exact and the sum
** rounds once: a fused multiply-add gives the same bits as a multiply and an
** add, whatever a compiler contracts, on every path.
*/
static inline int8_t add1_frq(int32_t a, int32_t b, const int32_t *q, float ka, float kb)
{
    const float ta = (float)(a + q[0]) * ka, tb = (float)(b + q[1]) * kb;
    return q8_round_c(ta + tb, q[2], q[10], q[11]);
}

#if SM2C_RT_VNNI
SM2C_RT_TARGET_VNNI static int32_t add_frq512(const int8_t *a, const int8_t *b, int8_t *y, int32_t n,
                                              const int32_t *q, float ka, float kb)
{
    const __m512i za = _mm512_set1_epi32(q[0]), zb = _mm512_set1_epi32(q[1]);
    const __m512 fa = _mm512_set1_ps(ka), fb = _mm512_set1_ps(kb);
    const int32_t zo = q[2], lo = q[10], hi = q[11];   /* read once: a store to y may alias q, as far as C knows */
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512i va = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(a + i)));
        const __m512i vb = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + i)));
        const __m512 ta = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(va, za)), fa);
        const __m512 tb = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(vb, zb)), fb);
        const __m512i v = q8_round512(_mm512_add_ps(ta, tb), zo, lo, hi);
        _mm_storeu_si128((__m128i *)(void *)(y + i), _mm512_cvtepi32_epi8(v));
    }
    return i;
}
#endif

#if SM2C_RT_S8_AVX2
SM2C_RT_TARGET_S8_AVX2 static int32_t add_frq256(const int8_t *a, const int8_t *b, int8_t *y, int32_t n,
                                                 const int32_t *q, float ka, float kb)
{
    const __m256i za = _mm256_set1_epi32(q[0]), zb = _mm256_set1_epi32(q[1]);
    const __m256 fa = _mm256_set1_ps(ka), fb = _mm256_set1_ps(kb);
    const int32_t zo = q[2], lo = q[10], hi = q[11];   /* read once: a store to y may alias q */
    int32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        int64_t wa, wb;
        memcpy(&wa, a + i, 8), memcpy(&wb, b + i, 8);
        const __m256i va = _mm256_cvtepi8_epi32(_mm_cvtsi64_si128(wa));
        const __m256i vb = _mm256_cvtepi8_epi32(_mm_cvtsi64_si128(wb));
        const __m256 ta = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(va, za)), fa);
        const __m256 tb = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(vb, zb)), fb);
        const __m256i v = q8_round256(_mm256_add_ps(ta, tb), zo, lo, hi);
        /* 8 int32 in [-128, 127] to 8 bytes */
        const __m128i w16 = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        const int64_t out = _mm_cvtsi128_si64(_mm_packs_epi16(w16, w16));
        memcpy(y + i, &out, 8);
    }
    return i;
}
#endif

void sm2c_rt_add_s8_frq(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *q, float ka,
                        float kb)
{
    int32_t i = 0;
#if SM2C_RT_VNNI
    if (sm2c_rt__have_vnni())
        i = add_frq512(a, b, y, n, q, ka, kb);
#endif
#if SM2C_RT_S8_AVX2
    if (i == 0 && sm2c_rt__have_s8_avx2())
        i = add_frq256(a, b, y, n, q, ka, kb);
#endif
    for (; i < n; i++)
        y[i] = add1_frq(a[i], b[i], q, ka, kb);
}
#endif

#if SM2C_RT_WANT(mul_s8)
void sm2c_rt_mul_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *q)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__mul1_s8(a[i], b[i], q);
}
#endif

#if SM2C_RT_WANT(add_bcast_s8) || SM2C_RT_WANT(mul_bcast_s8)
/* y[i] = f(a[.], b[.]) over the broadcast index space, last dim fastest. */
static inline int8_t sm2c_rt__f1_s8(int32_t a, int32_t b, const int32_t *q, int mul)
{
    return mul ? sm2c_rt__mul1_s8(a, b, q) : sm2c_rt__add1_s8(a, b, q);
}

/* Elements from which a call with one operand a single value looks its
** results up in a table of the 256 the other can give (the same values).
** Hosts only, as softmax_s8.c's table: a Cortex-M keeps its stack bound. */
#if defined(__x86_64__) || defined(__aarch64__)
#define SM2C_RT__BCAST_TABLE 1
enum { BCAST_TABLE_MIN = 1024 };
#else
#define SM2C_RT__BCAST_TABLE 0
#endif

static inline void sm2c_rt__bcast_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t rank,
                                     const int32_t *dims, const int32_t *sa, const int32_t *sb,
                                     const int32_t *q, int mul)
{
    int32_t idx[SM2C_RT_MAX_RANK] = { 0 };
    ptrdiff_t n = 1, oa = 0, ob = 0;
    int a_one = 1, b_one = 1;
    for (int32_t k = 0; k < rank; k++) {
        n *= dims[k];
        a_one &= sa[k] == 0 || dims[k] == 1;
        b_one &= sb[k] == 0 || dims[k] == 1;
    }
#if SM2C_RT__BCAST_TABLE
    int8_t table[256];
    const int tabled = n >= BCAST_TABLE_MIN && (a_one || b_one);
    if (tabled) /* y = table[the other operand's byte] */
        for (int32_t v = 0; v < 256; v++)
            table[v] = b_one ? sm2c_rt__f1_s8(v - 128, b[0], q, mul) : sm2c_rt__f1_s8(a[0], v - 128, q, mul);
#else
    const int8_t *table = NULL;
    const int tabled = 0;
    (void)a_one, (void)b_one;
#endif
    /* runs along the last dim */
    const int32_t last = rank - 1, run = rank > 0 ? dims[last] : 1;
    const ptrdiff_t ra = rank > 0 ? sa[last] : 0, rb = rank > 0 ? sb[last] : 0;
    for (ptrdiff_t i = 0; i < n; i += run) {
        if (tabled && b_one) {
            for (int32_t j = 0; j < run; j++)
                y[i + j] = table[a[oa + j * ra] + 128];
        } else if (tabled) {
            for (int32_t j = 0; j < run; j++)
                y[i + j] = table[b[ob + j * rb] + 128];
#if SM2C_RT_WANT(add_bcast_s8)
        } else if (!mul && ra == 1 && rb == 1) {
            add_run_s8(a + oa, b + ob, y + i, run, q);
#endif
        } else {
            for (int32_t j = 0; j < run; j++)
                y[i + j] = sm2c_rt__f1_s8(a[oa + j * ra], b[ob + j * rb], q, mul);
        }
        for (int32_t k = last - 1; k >= 0; k--) {
            oa += sa[k], ob += sb[k];
            if (++idx[k] < dims[k])
                break;
            oa -= (ptrdiff_t)sa[k] * dims[k], ob -= (ptrdiff_t)sb[k] * dims[k];
            idx[k] = 0;
        }
    }
}

#endif

#if SM2C_RT_WANT(add_bcast_s8)
void sm2c_rt_add_bcast_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t rank, const int32_t *dims,
                          const int32_t *sa, const int32_t *sb, const int32_t *q)
{
    sm2c_rt__bcast_s8(a, b, y, rank, dims, sa, sb, q, 0);
}
#endif

#if SM2C_RT_WANT(mul_bcast_s8)
void sm2c_rt_mul_bcast_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t rank, const int32_t *dims,
                          const int32_t *sa, const int32_t *sb, const int32_t *q)
{
    sm2c_rt__bcast_s8(a, b, y, rank, dims, sa, sb, q, 1);
}
#endif

#if SM2C_RT_WANT(clamp_s8)
void sm2c_rt_clamp_s8(const int8_t *x, int8_t *y, int32_t n, int32_t lo, int32_t hi)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = sm2c_rt__clamp_s8(x[i], lo, hi);
}
#endif
