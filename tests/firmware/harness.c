/*
** harness.c: one inference on the Cortex-M4F, reported over semihosting.
**
** fw_case.h (written by the test) includes the generated header and gives
** FW_ENTRY, FW_IN_ELEMENTS, FW_OUT_ELEMENTS, FW_STACK_BOUND (the header's
** stack bound) and fw_input_bits, the input as float bit patterns.  The
** stack below main's frame is painted, the entry point runs between two
** marker functions (the instruction-counting plugin's begin and end), and
** the lowest word that lost its paint gives the stack the call used.
** FW_SETUP, when fw_case.h defines it, runs first, outside the count and the
** painted stack (an interpreter's one-time setup: bench/embedded's TFLite
** Micro build).
** Prints "status S", "out XXXXXXXX..." (output bit patterns, no float
** formatting so no library code joins the link) and "stack N bound B".
** With FW_IO_INT8 (a model compiled with --io int8, as MLPerf Tiny times
** its int8 models: on int8 data) the harness quantizes the input and
** dequantizes the output itself, outside the count, as the model's own
** Quantize and Dequantize would (FW_IN_SCALE, FW_IN_ZERO_POINT and the
** output's from the generated header), so the printed bits are the
** float-I/O build's.
*/
#include <stdint.h>

#include "fw_case.h"
#include "semihost.h"

#define PAINT 0xC5A3C5A3u

extern uint32_t _stack_bottom[];

#ifdef FW_IO_INT8
typedef int8_t fw_value;
#else
typedef float fw_value;
#endif
static fw_value input[FW_IN_ELEMENTS] __attribute__((aligned(64)));
static fw_value output[FW_OUT_ELEMENTS] __attribute__((aligned(64)));

/* The input element the entry point takes: with FW_IO_INT8, TFLite's
** quantization (the runtime's sm2c_rt_quantize_f32_s8: round x / scale, halves
** away from zero, plus the zero point, saturated). */
static fw_value fw_in(float x)
{
#ifdef FW_IO_INT8
    const float v = x / FW_IN_SCALE;
    int32_t t = 0;
    if (v > 1e6f || v < -1e6f)
        t = v > 0 ? 1000000 : -1000000;
    else if (v == v) {
        const float f = v - (float)(t = (int32_t)v);
        t += (f >= 0.5f) - (f <= -0.5f);
    }
    t += FW_IN_ZERO_POINT;
    return (int8_t)(t < -128 ? -128 : t > 127 ? 127 : t);
#else
    return x;
#endif
}

/* An output element as the float the float-I/O build gives (its Dequantize). */
static float fw_out(fw_value y)
{
#ifdef FW_IO_INT8
    return FW_OUT_SCALE * (float)((int32_t)y - FW_OUT_ZERO_POINT);
#else
    return y;
#endif
}

/* Where the plugin starts and stops counting; never inlined, never merged. */
__attribute__((noinline, used)) void fw_mark_begin(void)
{
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline, used)) void fw_mark_end(void)
{
    __asm__ volatile("nop" ::: "memory");
}

static inline __attribute__((always_inline)) uint32_t *stack_pointer(void)
{
    uint32_t *sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

static void put_hex(char *s, uint32_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 4)
        s[i] = "0123456789abcdef"[v & 15u];
}

static void put_dec(const char *label, uint32_t v)
{
    char s[32], *p = s + sizeof s - 1;
    *p = 0;
    *--p = '\n';
    do {
        *--p = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    semihost_write(label);
    semihost_write(p);
}

int main(void)
{
    char line[16];
    int32_t status;
    uint32_t *sp, *p;

    for (uint32_t i = 0; i < FW_IN_ELEMENTS; i++) {
        union { uint32_t u; float f; } w = { fw_input_bits[i] };
        input[i] = fw_in(w.f);
    }
#ifdef FW_SETUP
    FW_SETUP();
#endif
    sp = stack_pointer();
    for (p = _stack_bottom; p < sp; p++)        /* registers only: main's frame is above sp */
        *(volatile uint32_t *)p = PAINT;
    fw_mark_begin();
    status = FW_ENTRY(input, output);
    fw_mark_end();
    for (p = _stack_bottom; p < sp && *p == PAINT; p++)
        ;
    put_dec("status ", (uint32_t)status);
    for (uint32_t i = 0; i < FW_OUT_ELEMENTS; i++) {
        union { float f; uint32_t u; } w = { fw_out(output[i]) };
        put_hex(line, w.u);
        line[8] = '\n';
        line[9] = 0;
        semihost_write("out ");
        semihost_write(line);
    }
    put_dec("stack ", (uint32_t)((char *)sp - (char *)p));
    put_dec("bound ", (uint32_t)FW_STACK_BOUND);
    return status == 0 ? 0 : 1;
}
