/*
** rt_embed.h: the runtime sources built into sm2c.
**
** cmake/embed_runtime.cmake generates the table at build time from
** the .c and .h files of runtime/ and runtime/include/ (headers first, then
** sources, each group sorted by name).  The C backend copies the pieces a
** program needs next to the generated code.
*/
#ifndef SM2C_RT_EMBED_H
#define SM2C_RT_EMBED_H

#include <stddef.h>

typedef struct sm2c_embedded_file {
    const char *name;             /* base name, e.g. "sm2c_rt.h", "matmul_f32.c" */
    const unsigned char *data;    /* `len` bytes (plus a NUL not counted) */
    size_t len;
} sm2c_embedded_file;

/* sm2c_embedded_runtime_count entries, then one with name NULL. */
extern const sm2c_embedded_file sm2c_embedded_runtime[];
extern const size_t sm2c_embedded_runtime_count;

#endif
