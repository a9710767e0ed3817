/*
** dw_plane_s8.c: int8 depthwise of multiplier 1, a 3x3 window, dilation 1
** and a stride of 1 or 2 along W, the form for Cortex-M (ops_q8.c chooses
** it for a Cortex-M target).
**
** Over the input's channels-last layout a depthwise sum is one product per
** instruction (SMLABB/SMLATT, conv_m_s8.h).  Here one channel at a time is
** copied into plane (arena scratch) as int16 x - in_zp, its rows padded
** with zeros (the padding's x is in_zp), so that two taps along W are one
** word and SMLAD takes two products at once.  Two output pixels at a time,
** per window row: stride 1 reads the words (x0, x1) and (x2, x3), and
**     p0 += x0 w0 + x1 w1 (SMLAD) + x2 w2 (SMLABB),
**     p1 += x1 w0 (SMLATB) + x2 w1 + x3 w2 (SMLADX over (w2, w1)),
** stride 2 the words (x0, x1), (x2, x3) and (x4, x5), p1 like p0 two
** taps on; the filter row is the register pair (w0, w1), (w2, w1).  A row
** of outputs is summed into row sums (scratch) and then requantized through
** q8_m.h (the short way inline when the layer takes it), the channel's
** constants read once.  Every window is whole in the plane, so no tap is
** tested.  Sums are exact integers: TFLite's reference bits on every path
** (tests/kernels/q8_m4.sh runs test_q8.c with and without the DSP
** extension).
**
** The scratch (int16): 4 * pairs values of row sums (int32, first, so they
** are 4-byte aligned), then the plane, HP rows of WP values, where
**     pairs = ceil(OW / 2), WP = 2 * SW * pairs + 4, HP = (OH - 1) * SH + 3;
** a row's last pair may read and sum a pixel past OW (never stored).
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dsp_s8.h"
#include "q8_m.h"
#include "sm2c_rt.h"

/* A channel's work as the row loops read it (the assembly's offsets):
** the plane's row stride in bytes, per window row r the int16 pairs
** (w0, w1) and (w2, w1); the row being summed and the row sums; then what
** the requantization of a row takes (mode 2: q8m_fast's constants). */
typedef struct {
    int32_t row_bytes;          /* 0 */
    uint32_t w[6];              /* 4 */
    const int16_t *xr;          /* 28: the window's top row of the output row */
    int32_t *sums;              /* 32 */
    int32_t pairs, rows;        /* 36, 40: pairs >= 1 a row; output rows left */
    int32_t row_step;           /* 44: SH * row_bytes */
    int8_t *y;                  /* 48: the output row's first value */
    int32_t y_row, C, OW;       /* 52, 56, 60: bytes from row to row, pixel to pixel; OW */
    int32_t b, m, rnd, e, zp;   /* 64 .. 80: bias, multiplier, 2^(e-1), right shift, out_zp */
    int32_t lo, hi;             /* 84, 88 */
} dwp_chan;

#if SM2C_RT_DSP_ASM && defined(__thumb2__)
/* The channel in assembly: the pair loop holds fourteen registers, the six
** filter words among them, which inline assembly cannot claim from gcc.
** Each output row: its pairs summed into the row sums, then the sums
** requantized (q8m_fast, then SSAT when the clamp is [-128, 127]) and
** stored C bytes apart.  (r0: the dwp_chan; [sp] the row sums' end,
** [sp, #4] the dwp_chan.) */
#define DWP_ROW_START                                                                                          \
    ".syntax unified\n\t"                                                                                      \
    "push {r4-r11, lr}\n\t"                                                                                    \
    "sub sp, sp, #8\n\t"                                                                                       \
    "str r0, [sp, #4]\n"                                                                                       \
    "2:\n\t"                                                                                                   \
    "ldr r0, [sp, #4]\n\t"                                                                                     \
    "ldr r12, [r0]\n\t"                                                                                        \
    "add r3, r0, #4\n\t"                                                                                       \
    "ldm r3, {r4-r9}\n\t"                                                                                      \
    "ldr r1, [r0, #32]\n\t"                                                                                    \
    "ldr r2, [r0, #36]\n\t"                                                                                    \
    "add r2, r1, r2, lsl #3\n\t"                                                                               \
    "str r2, [sp]\n\t"                                                                                         \
    "ldr r0, [r0, #28]\n\t"                                                                                    \
    "add lr, r0, #4\n"                                                                                         \
    "1:\n\t"
/* Sum S plus the bias requantized and saturated to int8, r6 holding 2 *
** bias: SM2C_RT_ASM_RQ's doubling of S + bias as one ADD (the same bits
** modulo 2^32, which q8m_fast's short way keeps exact). */
#define DWP_RQ_SSAT(S)                                                                                         \
    "add " S ", r6, " S ", lsl #1\n\t"                                                                          \
    "smmulr " S ", " S ", r7\n\t"                                                                               \
    "sub " S ", " S ", " S ", lsr #31\n\t"                                                                      \
    "add " S ", " S ", r8\n\t"                                                                                  \
    "asr " S ", " S ", r9\n\t"                                                                                  \
    "add " S ", " S ", r10\n\t"                                                                                 \
    "ssat " S ", #8, " S "\n\t"
/* The row's outputs: r4 C, r5 OW, r6 bias, r7 m, r8 rnd, r9 e, r10 zp, r11
** lo, r12 hi; with the clamp [-128, 127] four a turn by LDM, then one by one. */
#define DWP_ROW_END                                                                                            \
    "strd r2, r3, [r1], #8\n\t"                                                                                \
    "ldr r2, [sp]\n\t"                                                                                         \
    "cmp r1, r2\n\t"                                                                                           \
    "bne 1b\n\t"                                                                                               \
    "ldr r0, [sp, #4]\n\t"                                                                                     \
    "add r1, r0, #56\n\t"                                                                                      \
    "ldm r1, {r4-r12}\n\t"                                                                                     \
    "ldr r1, [r0, #32]\n\t"                                                                                    \
    "ldr r2, [r0, #48]\n\t"                                                                                    \
    "cmn r11, #128\n\t"                                                                                        \
    "bne 4f\n\t"                                                                                               \
    "cmp r12, #127\n\t"                                                                                        \
    "bne 4f\n"                                                                                                 \
    "3:\n\t"                                                                                                   \
    "lsl r6, r6, #1\n\t" /* 2 * bias, the doubling of q8m_fast shared */                                       \
    "subs r5, r5, #4\n\t"                                                                                      \
    "blt 6f\n"                                                                                                 \
    "7:\n\t"                                                                                                   \
    "ldm r1!, {r3, r11, r12, lr}\n\t" DWP_RQ_SSAT("r3") DWP_RQ_SSAT("r11") DWP_RQ_SSAT("r12")                \
        DWP_RQ_SSAT("lr") "strb r3, [r2]\n\t"                                                                  \
    "add r2, r2, r4\n\t"                                                                                       \
    "strb r11, [r2]\n\t"                                                                                       \
    "add r2, r2, r4\n\t"                                                                                       \
    "strb r12, [r2]\n\t"                                                                                       \
    "add r2, r2, r4\n\t"                                                                                       \
    "strb lr, [r2]\n\t"                                                                                        \
    "add r2, r2, r4\n\t"                                                                                       \
    "subs r5, r5, #4\n\t"                                                                                      \
    "bge 7b\n"                                                                                                 \
    "6:\n\t"                                                                                                   \
    "adds r5, r5, #4\n\t"                                                                                      \
    "beq 5f\n"                                                                                                 \
    "8:\n\t"                                                                                                   \
    "ldr r3, [r1], #4\n\t" DWP_RQ_SSAT("r3") "strb r3, [r2]\n\t"                                              \
    "add r2, r2, r4\n\t"                                                                                       \
    "subs r5, r5, #1\n\t"                                                                                      \
    "bne 8b\n\t"                                                                                               \
    "b 5f\n"                                                                                                   \
    "4:\n\t"                                                                                                   \
    "ldr r3, [r1], #4\n\t"                                                                                     \
    "add r3, r3, r6\n\t"                                                                                       \
    SM2C_RT_ASM_RQ("r3", "r7", "r8", "r9")                                                                  \
    "add r3, r3, r10\n\t"                                                                                      \
    SM2C_RT_ASM_CLAMP("r3", "r11", "r12")                                                                   \
    "strb r3, [r2]\n\t"                                                                                        \
    "add r2, r2, r4\n\t"                                                                                       \
    "subs r5, r5, #1\n\t"                                                                                      \
    "bne 4b\n"                                                                                                 \
    "5:\n\t"                                                                                                   \
    "ldr r1, [r0, #28]\n\t" /* the next output row */                                                          \
    "ldr r2, [r0, #44]\n\t"                                                                                    \
    "add r1, r1, r2\n\t"                                                                                       \
    "str r1, [r0, #28]\n\t"                                                                                    \
    "ldr r1, [r0, #48]\n\t"                                                                                    \
    "ldr r2, [r0, #52]\n\t"                                                                                    \
    "add r1, r1, r2\n\t"                                                                                       \
    "str r1, [r0, #48]\n\t"                                                                                    \
    "ldr r1, [r0, #40]\n\t"                                                                                    \
    "subs r1, r1, #1\n\t"                                                                                      \
    "str r1, [r0, #40]\n\t"                                                                                    \
    "bne 2b\n\t"                                                                                               \
    "add sp, sp, #8\n\t"                                                                                       \
    "pop {r4-r11, pc}"

/* Stride 1: r0 the window's top row, lr two taps on; r12 the row stride. */
SM2C_RT_NAKED_STACK(dwp_chan_s1, 44) /* r4-r11, lr and two words */
__attribute__((naked, noinline)) static void dwp_chan_s1(dwp_chan *j __attribute__((unused)))
{
    __asm__(DWP_ROW_START
            "ldr r10, [r0]\n\t" /* row 0: (x0, x1) */
            "ldr r11, [lr]\n\t" /* (x2, x3) */
            "smuad r2, r10, r4\n\t"
            "smultb r3, r10, r4\n\t"
            "smlabb r2, r11, r5, r2\n\t"
            "smladx r3, r11, r5, r3\n\t"
            "ldr r10, [r0, r12]\n\t" /* row 1 */
            "ldr r11, [lr, r12]\n\t"
            "smlad r2, r10, r6, r2\n\t"
            "smlatb r3, r10, r6, r3\n\t"
            "smlabb r2, r11, r7, r2\n\t"
            "smladx r3, r11, r7, r3\n\t"
            "ldr r10, [r0, r12, lsl #1]\n\t" /* row 2 */
            "ldr r11, [lr, r12, lsl #1]\n\t"
            "smlad r2, r10, r8, r2\n\t"
            "smlatb r3, r10, r8, r3\n\t"
            "smlabb r2, r11, r9, r2\n\t"
            "smladx r3, r11, r9, r3\n\t"
            "adds r0, r0, #4\n\t"
            "adds lr, lr, #4\n\t" DWP_ROW_END);
}

/* Stride 2: (x0, x1), (x2, x3) by LDRD and (x4, x5) from r0, row by row. */
SM2C_RT_NAKED_STACK(dwp_chan_s2, 44) /* r4-r11, lr and two words */
__attribute__((naked, noinline)) static void dwp_chan_s2(dwp_chan *j __attribute__((unused)))
{
    __asm__(DWP_ROW_START
            "ldrd r10, r11, [r0]\n\t" /* row 0 */
            "ldr lr, [r0, #8]\n\t"
            "smuad r2, r10, r4\n\t"
            "smlabb r2, r11, r5, r2\n\t"
            "smuad r3, r11, r4\n\t"
            "smlabb r3, lr, r5, r3\n\t"
            "add r0, r0, r12\n\t" /* row 1 */
            "ldrd r10, r11, [r0]\n\t"
            "ldr lr, [r0, #8]\n\t"
            "smlad r2, r10, r6, r2\n\t"
            "smlabb r2, r11, r7, r2\n\t"
            "smlad r3, r11, r6, r3\n\t"
            "smlabb r3, lr, r7, r3\n\t"
            "add r0, r0, r12\n\t" /* row 2 */
            "ldrd r10, r11, [r0]\n\t"
            "ldr lr, [r0, #8]\n\t"
            "smlad r2, r10, r8, r2\n\t"
            "smlabb r2, r11, r9, r2\n\t"
            "smlad r3, r11, r8, r3\n\t"
            "smlabb r3, lr, r9, r3\n\t"
            "sub r0, r0, r12, lsl #1\n\t"
            "adds r0, r0, #8\n\t" DWP_ROW_END);
}
#undef DWP_ROW_START
#undef DWP_ROW_END
#undef DWP_RQ_SSAT
#endif

/* The pair's halves: lo, hi as int16 values of a word. */
static inline int32_t dwp_lo(uint32_t v)
{
    return (int16_t)(v & 0xffff);
}

static inline int32_t dwp_hi(uint32_t v)
{
    return (int16_t)(v >> 16);
}

/* The row sums of the 2 * pairs outputs of j's row (window stride sw). */
static void dwp_row(const dwp_chan *j, int32_t sw)
{
    const ptrdiff_t wp = j->row_bytes / 2;
    for (int32_t i = 0; i < 2 * j->pairs; i++) {
        int32_t s = 0;
        for (int32_t r = 0; r < 3; r++) {
            const int16_t *t = j->xr + r * wp + (ptrdiff_t)i * sw;
            s += t[0] * dwp_lo(j->w[2 * r]) + t[1] * dwp_hi(j->w[2 * r]) + t[2] * dwp_lo(j->w[2 * r + 1]);
        }
        memcpy(j->sums + i, &s, sizeof s);
    }
}

/* The outputs of j's row from its row sums (mode: q8m_mode of the layer). */
static void dwp_store(const dwp_chan *j, int32_t shift, int mode)
{
    int8_t *y = j->y;
    q8m_rq r;
    q8m_prep(&r, j->m, shift, mode);
    for (int32_t i = 0; i < j->OW; i++, y += j->C) {
        int32_t s;
        memcpy(&s, j->sums + i, sizeof s);
        *y = q8m_out(&r, s + j->b, j->zp, j->lo, j->hi);
    }
}

/* Channel c's filter taps (filter [3, 3, C, 1]) as int16 pairs. */
static void dwp_filter_of(const int8_t *w, int32_t C, int32_t c, dwp_chan *j)
{
    for (int32_t r = 0; r < 3; r++) {
        const uint32_t w0 = (uint16_t)w[(3 * r) * C + c], w1 = (uint16_t)w[(3 * r + 1) * C + c];
        const uint32_t w2 = (uint16_t)w[(3 * r + 2) * C + c];
        j->w[2 * r] = w0 | w1 << 16;
        j->w[2 * r + 1] = w2 | w1 << 16;
    }
}

/* Channel c of an image into the plane's inside as x - zp (the rest stays
** 0): `rows` rows of n values from xs, C bytes apart, xrow bytes from row
** to row; d at the first, wp values from row to row (the assembly's
** offsets). */
typedef struct {
    const int8_t *xs;      /* 0 */
    int32_t rows, n, C;    /* 4, 8, 12: rows, n >= 1 */
    int32_t xrow, zp;      /* 16, 20 */
    int16_t *d;            /* 24 */
    int32_t d_row;         /* 28: wp * 2, bytes */
} dwp_copy;

#if SM2C_RT_DSP_ASM && defined(__thumb2__)
/* In assembly: gcc 12 at -Os spends about 40 cycles a row around the loop,
** and DS-CNN's rows are 5 values. */
SM2C_RT_NAKED_STACK(dwp_fill_rows, 36) /* r4-r11, lr */
__attribute__((naked, noinline)) static void dwp_fill_rows(const dwp_copy *f __attribute__((unused)))
{
    __asm__(".syntax unified\n\t"
            "push {r4-r11, lr}\n\t"
            "ldm r0, {r1-r8}\n\t" /* xs rows n C xrow zp d d_row */
            "add r9, r4, r4, lsl #1\n"
            "1:\n\t"
            "mov r10, r1\n\t"
            "mov r11, r7\n\t"
            "subs r12, r3, #4\n\t"
            "blt 3f\n"
            "2:\n\t"
            "ldrsb r0, [r10]\n\t"
            "ldrsb lr, [r10, r4]\n\t"
            "sub r0, r0, r6\n\t"
            "strh r0, [r11]\n\t"
            "sub lr, lr, r6\n\t"
            "strh lr, [r11, #2]\n\t"
            "ldrsb r0, [r10, r4, lsl #1]\n\t"
            "ldrsb lr, [r10, r9]\n\t"
            "sub r0, r0, r6\n\t"
            "strh r0, [r11, #4]\n\t"
            "sub lr, lr, r6\n\t"
            "strh lr, [r11, #6]\n\t"
            "add r10, r10, r4, lsl #2\n\t"
            "adds r11, r11, #8\n\t"
            "subs r12, r12, #4\n\t"
            "bge 2b\n"
            "3:\n\t"
            "adds r12, r12, #4\n\t"
            "beq 5f\n"
            "4:\n\t"
            "ldrsb r0, [r10]\n\t"
            "add r10, r10, r4\n\t"
            "sub r0, r0, r6\n\t"
            "strh r0, [r11], #2\n\t"
            "subs r12, r12, #1\n\t"
            "bne 4b\n"
            "5:\n\t"
            "add r1, r1, r5\n\t"
            "add r7, r7, r8\n\t"
            "subs r2, r2, #1\n\t"
            "bne 1b\n\t"
            "pop {r4-r11, pc}");
}
#else
static void dwp_fill_rows(const dwp_copy *f)
{
    const int8_t *xs = f->xs;
    int16_t *d = f->d;
    for (int32_t r = 0; r < f->rows; r++, xs += f->xrow, d += f->d_row / 2)
        for (int32_t i = 0; i < f->n; i++)
            d[i] = (int16_t)(xs[(ptrdiff_t)i * f->C] - f->zp);
}
#endif

static void dwp_fill(const int8_t *x, const int32_t *p, int32_t c, int32_t zp, int32_t hp, int32_t wp,
                     int16_t *plane)
{
    const int32_t H = p[SM2C_RT_WIN_H], W = p[SM2C_RT_WIN_W], C = p[SM2C_RT_WIN_C];
    const int32_t PT = p[SM2C_RT_WIN_PT], PL = p[SM2C_RT_WIN_PL];
    const int32_t r1 = H + PT < hp ? H + PT : hp, q1 = W + PL < wp ? W + PL : wp;
    if (r1 > PT && q1 > PL) {
        const dwp_copy f = { x + c, r1 - PT, q1 - PL, C, W * C, zp, plane + (ptrdiff_t)PT * wp + PL, 2 * wp };
        dwp_fill_rows(&f);
    }
}

/* Channel c's output rows, its plane filled. */
static void dwp_channel(dwp_chan *j, int32_t sw, int32_t shift, int mode)
{
#if SM2C_RT_DSP_ASM && defined(__thumb2__)
    if (mode == 2) {
        if (sw == 1)
            dwp_chan_s1(j);
        else
            dwp_chan_s2(j);
        return;
    }
#endif
    for (; j->rows > 0; j->rows--, j->xr += j->row_step / 2, j->y += j->y_row) {
        dwp_row(j, sw);
        dwp_store(j, shift, mode);
    }
}

void sm2c_rt_depthwise_plane_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, const int32_t *p,
                                const int32_t *mult, const int32_t *shift, int32_t in_zp, int32_t out_zp,
                                int32_t act_min, int32_t act_max, int16_t *scratch)
{
    const int32_t C = p[SM2C_RT_WIN_C], OH = p[SM2C_RT_WIN_OH], OW = p[SM2C_RT_WIN_OW];
    const int32_t SH = p[SM2C_RT_WIN_SH], SW = p[SM2C_RT_WIN_SW];
    const int32_t pairs = (OW + 1) / 2, wp = 2 * SW * pairs + 4, hp = (OH - 1) * SH + 3;
    int16_t *plane = scratch + 4 * pairs;
    const int mode = q8m_mode(9, bias, mult, shift, C);
    if (OH <= 0 || OW <= 0)
        return;
    memset(plane, 0, (size_t)hp * (size_t)wp * sizeof *plane);
    for (int32_t n = 0; n < p[SM2C_RT_WIN_N]; n++) {
        const int8_t *xn = x + (ptrdiff_t)n * p[SM2C_RT_WIN_H] * p[SM2C_RT_WIN_W] * C;
        for (int32_t c = 0; c < C; c++) {
            dwp_chan j;
            j.row_bytes = 2 * wp;
            dwp_filter_of(w, C, c, &j);
            j.xr = plane, j.sums = (int32_t *)(void *)scratch, j.pairs = pairs, j.rows = OH;
            j.row_step = SH * j.row_bytes;
            j.y = y + (ptrdiff_t)n * OH * OW * C + c, j.y_row = OW * C, j.C = C, j.OW = OW;
            j.b = bias ? bias[c] : 0, j.m = mult[c], j.e = -shift[c], j.zp = out_zp;
            j.rnd = mode == 2 ? (int32_t)((UINT32_C(1) << j.e) >> 1) : 0;
            j.lo = act_min, j.hi = act_max;
            dwp_fill(xn, p, c, in_zp, hp, wp, plane);
            dwp_channel(&j, SW, shift[c], mode);
        }
    }
}
