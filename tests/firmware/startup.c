/*
** startup.c: reset handler and vector table for the Cortex-M4F test harness.
** Copies .data, clears .bss, turns the FPU on (the code is built for the
** hard-float ABI) and calls main; main's status ends the QEMU run through
** semihosting.
*/
#include <stdint.h>
#include <string.h>

#include "semihost.h"

extern uint32_t _data_load[], _data_start[], _data_end[], _bss_start[], _bss_end[];
extern uint32_t _stack_top[];
int main(void);

void fw_reset(void);

static void fw_fault(void)
{
    semihost_write("fault\n");
    semihost_exit(1);
}

#define SCB_CPACR (*(volatile uint32_t *)0xE000ED88u)

void fw_reset(void)
{
    memcpy(_data_start, _data_load, (size_t)((char *)_data_end - (char *)_data_start));
    memset(_bss_start, 0, (size_t)((char *)_bss_end - (char *)_bss_start));
    SCB_CPACR |= 0xFu << 20;            /* CP10 and CP11: full access to the FPU */
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    semihost_exit(main());
}

/* Initial stack pointer, reset, then NMI, HardFault, MemManage, BusFault, UsageFault. */
__attribute__((section(".vectors"), used)) static void (*const vectors[8])(void) = {
    (void (*)(void))(uintptr_t)_stack_top, fw_reset, fw_fault, fw_fault, fw_fault, fw_fault, fw_fault,
    fw_fault,
};
