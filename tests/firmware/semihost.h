/* semihost.h: the two ARM semihosting calls the harness needs (QEMU with
** -semihosting-config enable=on): write a string, end the run. */
#ifndef SEMIHOST_H
#define SEMIHOST_H

void semihost_write(const char *s);
void semihost_exit(int status) __attribute__((noreturn));

#endif
