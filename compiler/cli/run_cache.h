/*
** run_cache.h: `sm2c run`'s build cache.  A build is keyed by the SHA-256 of
** everything the C compiler reads and how it is called: every file the
** compile wrote into the build directory (so the model files' digests, the
** compile options and the compiler's version, which decide those files, are
** all in the key), the driver, $CC and the link flags, and sm2c's version.
** An entry is one file, CACHE/run/<key>: a header with the SHA-256 of the
** driver program that follows it; a corrupt or truncated entry is found by
** that digest and rebuilt, never run.  The runtime's objects are kept the
** same way in CACHE/obj (run_objects.h), so that a model the cache has not
** seen compiles only its own files.  CACHE is $XDG_CACHE_HOME/sm2c, else
** $HOME/.cache/sm2c.
*/
#ifndef SM2C_RUN_CACHE_H
#define SM2C_RUN_CACHE_H

#include "base/sha256.h"
#include "base/tensor.h"

/* The cache directory, or NULL when neither $XDG_CACHE_HOME nor $HOME is set. */
const char *sm2c_run_cache_dir(sm2c_ctx *c);

/* Start a key: sm2c's version and `how`. */
void sm2c_run_cache_seed(sm2c_sha256 *s, const char *how);

/* The key of the build in `builddir` (its regular files, by name and
** content) with `how` (the compiler command and flags). */
sm2c_status sm2c_run_cache_key(sm2c_ctx *c, const char *builddir, const char *how, char key[65]);

/* The kinds of entry: programs (CACHE/run, written back executable) and
** object files (CACHE/obj). */
typedef enum { SM2C_RUN_CACHE_PROGRAM, SM2C_RUN_CACHE_OBJECT } sm2c_run_cache_kind;

/* 1 when the entry exists and is intact: then written to `dest`.  0 otherwise
** (a corrupt entry is noted and removed). */
int sm2c_run_cache_fetch(sm2c_ctx *c, const char *cache, sm2c_run_cache_kind kind, const char *key,
                         const char *dest);

/* Store the file at `path` under key; a failure is a warning only. */
void sm2c_run_cache_store(sm2c_ctx *c, const char *cache, sm2c_run_cache_kind kind, const char *key,
                          const char *path);

#endif
