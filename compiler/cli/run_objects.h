/*
** run_objects.h: `sm2c run`'s runtime sources compiled one object each,
** several at once, and kept in the build cache (run_cache.h).  An object's key
** is the SHA-256 of the compiler command, the source and every header it
** includes (`#include "..."`, followed through the build directory), so a
** second model compiles only its own files and the driver: under the
** sanitizers a runtime build takes most of a minute, a model's own file
** about a second.
*/
#ifndef SM2C_RUN_OBJECTS_H
#define SM2C_RUN_OBJECTS_H

#include "base/tensor.h"

/* Compile sources[0..n) of `dir` to objects with the command `cc` (its words
** up to the source: compiler, flags, -I), `how` being its text for the key;
** `cache` may be NULL (nothing read or stored).  objs[i] is the path of
** sources[i]'s object in `dir`. */
sm2c_status sm2c_run_objects(sm2c_ctx *c, const char *dir, char **sources, int n, char **cc, int n_cc,
                             const char *how, const char *cache, char **objs);

#endif
