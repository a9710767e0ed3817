/*
** core_portme.c: CoreMark's port functions for the firmware harness
** (core_portme.h).  start_time and stop_time call the markers the
** cycle-counting plugin starts and stops at; ee_printf writes over
** semihosting.
*/
#include <stdarg.h>
#include <stdio.h>

#include "coremark.h"
#include "semihost.h"

volatile ee_s32 seed1_volatile = 0x0;   /* the performance run's seeds */
volatile ee_s32 seed2_volatile = 0x0;
volatile ee_s32 seed3_volatile = 0x66;
volatile ee_s32 seed4_volatile = ITERATIONS;
volatile ee_s32 seed5_volatile = 0;

ee_u32 default_num_contexts = 1;

__attribute__((noinline, used)) void fw_mark_begin(void)
{
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline, used)) void fw_mark_end(void)
{
    __asm__ volatile("nop" ::: "memory");
}

void start_time(void)
{
    fw_mark_begin();
}

void stop_time(void)
{
    fw_mark_end();
}

/* No timer: the plugin gives the cycles. */
CORE_TICKS get_time(void)
{
    return 0;
}

secs_ret time_in_secs(CORE_TICKS ticks)
{
    return ticks;
}

void portable_init(core_portable *p, int *argc, char *argv[])
{
    (void)argc, (void)argv;
    p->portable_id = 1;
}

void portable_fini(core_portable *p)
{
    p->portable_id = 0;
}

int ee_printf(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    semihost_write(line);
    return n;
}
