/*
** c_special.h: the kernels the C backend calls through shape-specialised layer
** functions.  For each distinct layer (kernel plus every argument that is not
** a buffer: the window, the activation, a missing bias) model.c gets one
** static function calling SM2C_RT_SPECIAL_<kernel>, which the kernel's runtime
** family defines: on a scalar FPU the loop nest inlined with the layer's
** constants (small code on a Cortex-M), elsewhere the kernel itself.
*/
#ifndef SM2C_CODEGEN_C_SPECIAL_H
#define SM2C_CODEGEN_C_SPECIAL_H

#include <stddef.h>

#include "lower/program.h"

typedef struct sm2c_c_special {
    const char *kernel; /* sm2c_rt_* name */
    const char *family; /* the runtime family file model.c includes */
    const char *params; /* per argument: 'c' const float *, 'm' float *, '-' not a buffer */
    int act_arg;        /* the argument holding the fused SM2C_RT_ACT_* kind, or -1 */
} sm2c_c_special;

/* The entry for kernel, or NULL when it has no specialised form. */
const sm2c_c_special *sm2c_c_special_of(const char *kernel);

/* The specialised form of a step, when its arguments fit the table's:
** buffers where it has buffer parameters (or NULL for a missing input),
** constants elsewhere; NULL otherwise. */
const sm2c_c_special *sm2c_c_special_form(const sm2c_step *st);

/* Whether two such steps share one layer function: the same kernel and the
** same arguments wherever these are not buffers. */
int sm2c_c_special_same_layer(const sm2c_step *a, const sm2c_step *b);

/* The activation (SM2C_RT_ACT_*) a specialised step fuses: SM2C_RT_ACT_NONE
** when its kernel fuses none. */
int32_t sm2c_c_special_act(const sm2c_step *st, const sm2c_c_special *sp);

/* The whole table (*n entries), for the tests. */
const sm2c_c_special *sm2c_c_special_table(size_t *n);

#endif
