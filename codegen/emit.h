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

/* One row per form, X(KIND, --emit name, extension of the file it adds, the
** LLVM form that writes that file): the enum, the parser and the file names
** come from it.  `so` is an LLVM object linked by $CC; `c` uses no LLVM form. */
#define SM2C_EMIT_KINDS(X)                    \
    X(C, "c", "c", SM2C_LLVM_IR)              \
    X(LLVM_IR, "llvm-ir", "ll", SM2C_LLVM_IR) \
    X(LLVM_BC, "llvm-bc", "bc", SM2C_LLVM_BC) \
    X(OBJ, "obj", "o", SM2C_LLVM_OBJ)         \
    X(SO, "so", "so", SM2C_LLVM_OBJ)

typedef enum sm2c_emit_kind {
#define SM2C_EMIT_ENUM(kind, name, ext, llvm) SM2C_EMIT_##kind,
    SM2C_EMIT_KINDS(SM2C_EMIT_ENUM)
#undef SM2C_EMIT_ENUM
    SM2C_EMIT_N_KINDS
} sm2c_emit_kind;

/* "c", "llvm-ir", "llvm-bc", "obj", "so"; 0 when unknown. */
int sm2c_emit_kind_parse(const char *s, sm2c_emit_kind *out);
/* The extension of the file the form adds beside the header: "c", "ll", ... */
const char *sm2c_emit_kind_extension(sm2c_emit_kind kind);

/* Writes p for target t (the one p was compiled for: its triple, cpu,
** features and optimisation level make the LLVM forms).  `cc` is the C
** compiler for the `so` form (NULL: $CC, else cc). */
sm2c_status sm2c_emit(sm2c_ctx *c, const sm2c_program *p, sm2c_emit_kind kind,
                      const sm2c_target *t, const char *cc, const char *outdir);

#endif
