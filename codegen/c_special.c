/*
** c_special.c: the table of c_special.h.  Each family names the macros
** SM2C_RT_SPECIAL_<kernel> (runtime/conv_f32.c, runtime/pool_f32.c,
** runtime/matvec_f32.c).
*/
#include "codegen/c_special.h"

#include <string.h>

#include "sm2c_rt.h"

static const sm2c_c_special specials[] = {
    { "sm2c_rt_avg_pool_f32", "pool_f32.inc", "cm-", -1 },
    { "sm2c_rt_conv2d_add_f32", "conv_f32.inc", "ccccm----", 5 },
    { "sm2c_rt_conv2d_f32", "conv_f32.inc", "cccm----", 4 },
    { "sm2c_rt_depthwise_conv2d_f32", "conv_f32.inc", "cccm----", 4 },
    { "sm2c_rt_matvec_f32", "matvec_f32.inc", "cccm-----", 6 },
    { "sm2c_rt_matvec_small_f32", "matvec_f32.inc", "cccm-----", 6 },
    { "sm2c_rt_matvec_t_f32", "matvec_f32.inc", "cccm-----", 6 },
    { "sm2c_rt_matvec_t_small_f32", "matvec_f32.inc", "cccm-----", 6 },
    { "sm2c_rt_max_pool_f32", "pool_f32.inc", "cm-", -1 },
};

const sm2c_c_special *sm2c_c_special_of(const char *kernel)
{
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        if (strcmp(specials[i].kernel, kernel) == 0)
            return &specials[i];
    return NULL;
}

const sm2c_c_special *sm2c_c_special_form(const sm2c_step *st)
{
    const sm2c_c_special *sp = st->control ? NULL : sm2c_c_special_of(st->kernel);
    if (!sp || st->checked || (size_t)st->n_args != strlen(sp->params))
        return NULL;
    for (int32_t a = 0; a < st->n_args; a++) {
        int buf = st->args[a].kind == SM2C_ARG_BUF;
        char kind = sp->params[a];
        if (kind == '-' ? buf : !buf && !(kind == 'c' && st->args[a].kind == SM2C_ARG_NULL))
            return NULL;
    }
    return sp;
}

int sm2c_c_special_same_layer(const sm2c_step *a, const sm2c_step *b)
{
    if (strcmp(a->kernel, b->kernel) || a->n_args != b->n_args)
        return 0;
    for (int32_t i = 0; i < a->n_args; i++) {
        const sm2c_arg *x = &a->args[i], *y = &b->args[i];
        if (x->kind != y->kind || (x->kind == SM2C_ARG_INT && x->i != y->i) ||
            (x->kind == SM2C_ARG_FLOAT && memcmp(&x->f, &y->f, sizeof x->f)) ||
            (x->kind == SM2C_ARG_INTS &&
             (x->n != y->n || (x->n && memcmp(x->ints, y->ints, (size_t)x->n * sizeof *x->ints)))))
            return 0;
    }
    return 1;
}

int32_t sm2c_c_special_act(const sm2c_step *st, const sm2c_c_special *sp)
{
    if (sp->act_arg < 0 || sp->act_arg >= st->n_args || st->args[sp->act_arg].kind != SM2C_ARG_INT)
        return SM2C_RT_ACT_NONE;
    return (int32_t)st->args[sp->act_arg].i;
}

const sm2c_c_special *sm2c_c_special_table(size_t *n)
{
    *n = sizeof specials / sizeof specials[0];
    return specials;
}
