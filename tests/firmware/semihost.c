/*
** semihost.c: SYS_WRITE0 and SYS_EXIT through the Thumb semihosting trap
** (bkpt 0xAB, operation in r0, argument in r1).
*/
#include "semihost.h"

#include <stdint.h>

static uintptr_t semihost_call(uintptr_t op, uintptr_t arg)
{
    register uintptr_t r0 __asm__("r0") = op;
    register uintptr_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void semihost_write(const char *s)
{
    semihost_call(0x04, (uintptr_t)s);             /* SYS_WRITE0 */
}

void semihost_exit(int status)
{
    /* SYS_EXIT with ADP_Stopped_ApplicationExit ends QEMU with status 0;
    ** ADP_Stopped_RunTimeErrorUnknown ends it with 1. */
    semihost_call(0x18, status == 0 ? 0x20026u : 0x20023u);
    for (;;)
        ;
}
