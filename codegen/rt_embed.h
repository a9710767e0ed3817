/*
** rt_embed.h: the runtime sources built into sm2c, and the exact kernel map.
**
** cmake/runtime_map.py generates both at build time from runtime/ itself: it
** compiles every runtime file and reads the kernels each defines and calls
** with nm (macro-generated kernels included), and the headers each needs from
** the compiler's dependency output.  codegen/rt_select.c uses the map to copy
** exactly the files a program's kernels need.
*/
#ifndef SM2C_RT_EMBED_H
#define SM2C_RT_EMBED_H

#include <stddef.h>
#include <stdint.h>

typedef struct sm2c_embedded_file {
    const char *name;             /* as shipped: "sm2c_rt.h", "matmul_f64.c", "binary_f32.inc" */
    const unsigned char *data;    /* `len` bytes (plus a NUL not counted) */
    size_t len;
    int family;                   /* runtime/NAME.c defining several kernels, shipped as NAME.inc */
} sm2c_embedded_file;

/* Headers, then single-kernel sources, then families; one entry with name NULL ends it. */
extern const sm2c_embedded_file sm2c_embedded_runtime[];
extern const size_t sm2c_embedded_runtime_count;

typedef struct sm2c_rt_kernel {
    const char *name;             /* "sm2c_rt_add_f32" */
    const int16_t *needs;         /* sm2c_embedded_runtime indices: its source, then its headers; -1 ends */
    const int16_t *calls;         /* sm2c_rt_kernels indices of the kernels it calls; -1 ends */
    const unsigned char *wrapper; /* a family's kernel: the text of NAME.c selecting it (rt_select.h) */
    size_t wrapper_len;
} sm2c_rt_kernel;

/* Sorted by name; one entry with name NULL ends it. */
extern const sm2c_rt_kernel sm2c_rt_kernels[];
extern const size_t sm2c_rt_kernel_count;

#endif
