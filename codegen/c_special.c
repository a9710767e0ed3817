/*
** c_special.c: the table of c_special.h.  Each family names the macros
** SM2C_RT_SPECIAL_<kernel> (runtime/conv_f32.c, runtime/pool_f32.c,
** runtime/matvec_f32.c).
*/
#include "codegen/c_special.h"

#include <string.h>

static const sm2c_c_special specials[] = {
    { "sm2c_rt_avg_pool_f32", "pool_f32.inc", "cm-" },
    { "sm2c_rt_conv2d_add_f32", "conv_f32.inc", "ccccm--" },
    { "sm2c_rt_conv2d_f32", "conv_f32.inc", "cccm--" },
    { "sm2c_rt_depthwise_conv2d_f32", "conv_f32.inc", "cccm--" },
    { "sm2c_rt_matvec_f32", "matvec_f32.inc", "cccm---" },
    { "sm2c_rt_matvec_small_f32", "matvec_f32.inc", "cccm---" },
    { "sm2c_rt_matvec_t_f32", "matvec_f32.inc", "cccm---" },
    { "sm2c_rt_matvec_t_small_f32", "matvec_f32.inc", "cccm---" },
    { "sm2c_rt_max_pool_f32", "pool_f32.inc", "cm-" },
};

const sm2c_c_special *sm2c_c_special_of(const char *kernel)
{
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        if (strcmp(specials[i].kernel, kernel) == 0)
            return &specials[i];
    return NULL;
}

const sm2c_c_special *sm2c_c_special_table(size_t *n)
{
    *n = sizeof specials / sizeof specials[0];
    return specials;
}
