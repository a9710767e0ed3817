/*
** out_path.h: the pre-flight check of every path a command will write
** (issue 32, class 4).  A command checks all of its output paths (OUT,
** --outdir, --report, --state-out) before it writes or creates anything, so a
** path that cannot be used fails the command with nothing on disk.
*/
#ifndef SM2C_OUT_PATH_H
#define SM2C_OUT_PATH_H

#include "tensor.h"

typedef enum sm2c_out_kind {
    SM2C_OUT_DIR,       /* a directory sm2c creates (with its parents) or fills */
    SM2C_OUT_FILE,      /* a regular file sm2c creates or replaces; its directory must exist */
    SM2C_OUT_FILE_IN_OUT /* such a file in the output directory, which publishing creates */
} sm2c_out_kind;

/* Can `path` (given by option `opt`, for the message) be written as `kind`
** without writing inside `source` (the SavedModel directory; may be NULL)?
** Checks only: creates nothing.  An error names the path (or the option when
** the path is empty) and says why. */
sm2c_status sm2c_out_path_check(sm2c_ctx *c, const char *opt, const char *path, sm2c_out_kind kind,
                                const char *source);

#endif
