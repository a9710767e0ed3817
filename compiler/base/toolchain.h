/*
** toolchain.h: running the system's C compiler and linker (sm2c run, --emit so).
** Processes are started with fork/execvp, never through a shell.
*/
#ifndef SM2C_TOOLCHAIN_H
#define SM2C_TOOLCHAIN_H

#include "tensor.h"

/* The C compiler command: `cc` if given, else $CC, else "cc". */
const char *sm2c_cc(const char *cc);

/* An argv with the words of `cc` first and room for `extra` more entries; *n is
** the count used so far.  The caller appends and NULL-terminates. */
char **sm2c_cc_argv(sm2c_ctx *c, const char *cc, int extra, int *n);

/* Run argv, wait, and report a non-zero exit as one error naming `what`. */
sm2c_status sm2c_spawn(sm2c_ctx *c, char *const *argv, const char *what);

/* Run argv and wait: *status is its exit status, or 128 + the signal that
** ended it.  An error (naming `what`) only when it cannot be started. */
sm2c_status sm2c_spawn_status(sm2c_ctx *c, char *const *argv, const char *what, int *status);

/* Run every argvs[i], at most `jobs` at once, and wait for all of them.  A
** non-zero exit is one error naming `what`, as sm2c_spawn reports it. */
sm2c_status sm2c_spawn_all(sm2c_ctx *c, char **const *argvs, int n, int jobs, const char *what);

/* The processors online (at least 1): how many compiles to run at once. */
int sm2c_cpu_count(void);

/* A fresh private directory under $TMPDIR (or /tmp), and its removal. */
char *sm2c_tmpdir(sm2c_ctx *c, const char *prefix);
void sm2c_rmtree(const char *dir);

/* Names of the regular files in dir ending in `suffix`, sorted, NULL-terminated. */
char **sm2c_list_files(sm2c_ctx *c, const char *dir, const char *suffix, int *count);

#endif
