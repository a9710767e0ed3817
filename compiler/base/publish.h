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

/* Is the directory `fd` the directory `src` (a SavedModel) or inside it?
** 0 when src is NULL or not a directory. */
int sm2c_dir_inside(int fd, const char *src);

/* Create `outdir` if needed and publish the files into it (see publish.c).
** `source` (may be NULL) is the input directory outdir must not be inside. */
sm2c_status sm2c_publish(sm2c_ctx *c, const char *outdir, const char *source,
                         const sm2c_outfile *files, size_t nfiles);

/* What a caller adds to publishing (output_manifest.c): `before` runs once
** the output directory passed the checks above, on its descriptor, and may
** refuse it (nothing is written then); `after` runs once every file is in
** place.  Either may be NULL. */
typedef struct sm2c_publish_hooks {
    sm2c_status (*before)(sm2c_ctx *c, int dirfd, const char *outdir, void *user);
    void (*after)(sm2c_ctx *c, int dirfd, void *user);
    void *user;
} sm2c_publish_hooks;

/* sm2c_publish with hooks (NULL: none). */
sm2c_status sm2c_publish_hooked(sm2c_ctx *c, const char *outdir, const char *source,
                                const sm2c_outfile *files, size_t nfiles, const sm2c_publish_hooks *hooks);

/* Writes all n bytes of p to fd (retrying on EINTR); 0, or -1 with errno set. */
int sm2c_write_all(int fd, const char *p, size_t n);

#endif
