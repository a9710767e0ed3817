/*
** emit.h: every output form of `sm2c compile --emit`, on top of the C and LLVM
** backends.  Each form publishes the header; the others add:
**   c        <name>.c and the runtime sources
**   llvm-ir  <name>.ll and the runtime sources (compile them for the target)
**   llvm-bc  <name>.bc and the runtime sources
**   obj      <name>.o and the runtime sources
**   so       <name>.so: the object linked with the runtime by $CC, exporting
**            only the model's own symbols (<name>_*)
*/
#ifndef SM2C_EMIT_H
#define SM2C_EMIT_H

#include "emit_llvm.h"
#include "lower/program.h"

typedef enum sm2c_emit_kind {
    SM2C_EMIT_C, SM2C_EMIT_LLVM_IR, SM2C_EMIT_LLVM_BC, SM2C_EMIT_OBJ, SM2C_EMIT_SO
} sm2c_emit_kind;

/* "c", "llvm-ir", "llvm-bc", "obj", "so"; 0 when unknown. */
int sm2c_emit_kind_parse(const char *s, sm2c_emit_kind *out);

/* Writes p for target t (the one p was compiled for: its triple, cpu,
** features and optimisation level make the LLVM forms).  `cc` is the C
** compiler for the `so` form (NULL: $CC, else cc). */
sm2c_status sm2c_emit(sm2c_ctx *c, const sm2c_program *p, sm2c_emit_kind kind,
                      const sm2c_target *t, const char *cc, const char *outdir);

#endif
