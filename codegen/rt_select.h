/*
** rt_select.h: the runtime files a set of kernels needs (rt_embed.h's map).
*/
#ifndef SM2C_CODEGEN_RT_SELECT_H
#define SM2C_CODEGEN_RT_SELECT_H

#include <stdio.h>

#include "base/publish.h"
#include "lower/program.h"

/* The runtime files that `kernels` (sm2c_rt_* names) and the kernels they
** call need, plus sm2c_rt.h, in a fixed order: embedded files in table order,
** then the kernel files of family members in name order.  *files is
** arena memory.  A name the runtime does not define is an internal error. */
sm2c_status sm2c_runtime_select(sm2c_ctx *c, const char *const *kernels, size_t n, sm2c_outfile **files,
                           size_t *nfiles);

/* Whether the runtime defines a kernel of this name. */
int sm2c_runtime_has_kernel(const char *name);

/* The kernels the program's steps call, each once (arena memory). */
size_t sm2c_program_kernels(sm2c_ctx *c, const sm2c_program *p, const char ***out);

/* Every kernel, one line each: its name, then the files a program calling
** it gets (`sm2c runtime --list`). */
sm2c_status sm2c_runtime_list(sm2c_ctx *c, FILE *out);

/* Every runtime file as its source (families as NAME.c defining all their
** kernels): `sm2c runtime`, for one runtime library serving several models. */
size_t sm2c_runtime_all_files(sm2c_ctx *c, sm2c_outfile **files);

#endif
