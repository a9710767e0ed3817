/*
** publish.h: writing output files atomically and without following symlinks.
*/
#ifndef SM2C_PUBLISH_H
#define SM2C_PUBLISH_H

#include <stddef.h>

#include "tensor.h"

typedef struct sm2c_outfile {
    const char *name;   /* a plain file name chosen by sm2c, never by the model */
    const char *data;
    size_t len;
} sm2c_outfile;

/* Create `outdir` if needed and publish the files into it (see publish.c).
** `source` (may be NULL) is the input directory outdir must not be inside. */
sm2c_status sm2c_publish(sm2c_ctx *c, const char *outdir, const char *source,
                         const sm2c_outfile *files, size_t nfiles);

#endif
