/*
** emit_c.h: the C backend.
**
** Writes the lowered program as portable C99 into a directory: <name>.h (the
** API: prototypes, size macros, the metadata table), <name>.c (weights, the
** arena, one function per entry point) and exactly the runtime files those
** entry points call (rt_select.c), so that `cc -std=c99 -I OUT OUT/[all .c
** files] -lm` builds.
**
** Output is deterministic (same program, same bytes) and published safely
** (docs/reliability.md F7): everything is written into a fresh temporary directory
** inside OUT with O_CREAT|O_EXCL|O_NOFOLLOW and then renamed into place; a
** symlink or directory where an output file goes is refused, OUT itself must
** not be a symlink, and on failure OUT is left as it was.
*/
#ifndef SM2C_EMIT_C_H
#define SM2C_EMIT_C_H

#include "emit_llvm.h"
#include "lower/program.h"
#include "base/tensor.h"

/* Emit `p` into directory `outdir` (created if missing, one level).  Errors are
** reported through c->diag: SM2C_ERR_INTERNAL for an inconsistent program,
** SM2C_ERR_UNSUPPORTED for what the backend cannot express (state, string
** tensors), SM2C_ERR_INVALID for filesystem failures. */
sm2c_status sm2c_emit_c(sm2c_ctx *c, const sm2c_program *p, const char *outdir);

/* The runtime into outdir (`sm2c runtime`): with no kernels, every source
** and header, so that one runtime library can serve several models; else
** exactly the files those kernels need (what a program calling them gets). */
sm2c_status sm2c_emit_runtime(sm2c_ctx *c, const char *const *kernels, size_t n, const char *outdir);

/* A file published beside the generated ones (an LLVM output). */
typedef struct sm2c_extra_file {
    const char *name;       /* a fixed name chosen by sm2c, never from the model */
    const void *data;
    size_t len;
} sm2c_extra_file;

/* sm2c_emit_c with choices: the header always; <name>.c when with_source; the
** runtime sources when with_runtime; and `extra` files, all published in the
** same safe step. */
sm2c_status sm2c_emit_c_files(sm2c_ctx *c, const sm2c_program *p, const char *outdir,
                              int with_source, int with_runtime, const sm2c_extra_file *extra,
                              size_t n_extra);

/* The two generated files only, as NUL-terminated text in the arena (no
** runtime, no filesystem): for golden tests and the LLVM cross-check. */
/* --weights: where the C backend puts the weights.  INLINE: in NAME.c, as
** readable literals; C: in NAME_weights.c, so that the code recompiles without
** them, each tensor a string literal of its little-endian bytes (fast to
** compile) or, where that would take 3 bytes of C per byte or more, hex words
** of its elements' bits (2.8); OBJ: NAME_weights.o for the --target, written
** through LLVM (the code stays C).  Both define NAME_w<k> with external
** linkage; NAME.c declares them. */
#define SM2C_WEIGHTS_FORMS(X) X(INLINE, "inline") X(C, "c") X(OBJ, "obj")

typedef enum sm2c_weights_form {
#define SM2C_WEIGHTS_ENUM(form, name) SM2C_WEIGHTS_##form,
    SM2C_WEIGHTS_FORMS(SM2C_WEIGHTS_ENUM)
#undef SM2C_WEIGHTS_ENUM
    SM2C_WEIGHTS_N_FORMS
} sm2c_weights_form;

/* "inline", "c", "obj" (SM2C_WEIGHTS_FORMS); 0 when unknown. */
int sm2c_weights_form_parse(const char *s, sm2c_weights_form *out);

sm2c_status sm2c_emit_c_weights_apart(sm2c_ctx *c, const sm2c_program *p, sm2c_weights_form form,
                                      const sm2c_target *t, const char *outdir);

sm2c_status sm2c_emit_c_text(sm2c_ctx *c, const sm2c_program *p, char **header,
                             char **source);

#endif
