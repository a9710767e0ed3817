/*
** output_manifest.h: publishing a compile's output so that it replaces the
** previous output in that directory whole (issue 31), never a user's files.
*/
#ifndef SM2C_OUTPUT_MANIFEST_H
#define SM2C_OUTPUT_MANIFEST_H

#include "publish.h"

/* The manifest every compile output holds: its name, then one file per line. */
#define SM2C_MANIFEST ".sm2c-output"

/* Publish `files` (see sm2c_publish) with the manifest SM2C_MANIFEST naming
** them and `name` (the --name).  When outdir already holds a manifest, the
** files it lists that this output does not hold are removed after the new
** ones are in place (a previous model's runtime files do not linger).  In
** an outdir without a manifest (a user's directory, or an output of an sm2c
** before manifests) nothing is removed: the output is written beside what is
** there.  A manifest sm2c did not write is refused. */
sm2c_status sm2c_publish_output(sm2c_ctx *c, const char *outdir, const char *source, const char *name,
                                const sm2c_outfile *files, size_t nfiles);

#endif
