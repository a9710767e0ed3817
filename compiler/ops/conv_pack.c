/*
** conv_pack.c: a float Conv2D filter laid out in panels of 16 output
** channels at compile time, for the layers the vector conv blocks run.
**
** A block of the conv kernel (runtime/conv_block_f32.h) reads, per input
** channel, its 16 or 32 output channels' filter values: in HWIO that is 64
** or 128 bytes every OC * 4 bytes, a strided walk through a filter that on
** ResNet50's late layers is 2-9 MB and read once per call, faster than the
** prefetcher follows.  In panels [OC/16][KH][KW][C][16] (sm2c_rt.h,
** sm2c_rt_conv2d_packed_f32) a block reads one or two sequential streams:
** the 3x3 512-channel layer at 7x7 took 2.00 ms instead of 3.29 with a cold
** filter (bench, AVX-512).  The same values, in another order, so the
** weights do not grow, and the sums and their order are the HWIO kernel's.
** Only where the runtime says the blocks take the layer
** (sm2c_rt_conv2d_f32_packs): 1x1 layers it runs as a matmul read HWIO.
** Not at --opt Os/Oz nor for a scalar core (Cortex-M), as conv_pad.c: a
** scalar core's loops read HWIO, the packed kernel is more code, and a
** firmware build (Os, as bench/embedded's) stays as it was, whatever target
** its C was compiled for.
*/
#include "ops_common.h"

enum { PANEL = 16 };

int sm2c_conv_packs_filter(const sm2c_lower *l, const sm2c_value *f, const int64_t *p, int residual)
{
    int32_t q[SM2C_RT_WIN_PARAMS];
    const sm2c_tensor *t = f->constant;

    if (!sm2c_target_has_vectors(l->target) || l->target->size_level || !t ||
        t->dtype != SM2C_DT_FLOAT || t->shape.rank != 4 || p[SM2C_RT_WIN_OC] % PANEL ||
        t->shape.dims[3] != p[SM2C_RT_WIN_OC] || p[SM2C_RT_WIN_FC] != p[SM2C_RT_WIN_C])
        return 0;
    for (int i = 0; i < SM2C_RT_WIN_PARAMS; i++)
        q[i] = (int32_t)p[i]; /* the window fits int32 (ops_nn.c checks) */
    return sm2c_rt_conv2d_f32_packs(q, residual);
}

sm2c_value *sm2c_conv_pack_filter(sm2c_lower *l, const sm2c_value *f)
{
    const sm2c_tensor *t = f->constant;
    const int64_t oc = t->shape.dims[3], taps = oc > 0 ? t->nelem / oc : 0;
    sm2c_tensor *r = sm2c_arena_alloc(l->c->arena, sizeof *r);
    *r = *t;
    r->data = sm2c_arena_alloc(l->c->arena, t->nbytes + 1);
    const float *src = t->data;
    float *dst = r->data;
    /* w[tap, o] (tap = (kh*KW + kw)*C + ic) to panel o / 16, row tap, lane o % 16 */
    for (int64_t o = 0; o < oc; o++)
        for (int64_t k = 0; k < taps; k++)
            dst[(o / PANEL * taps + k) * PANEL + o % PANEL] = src[k * oc + o];
    return sm2c_op_constant(l, r, sm2c_arena_printf(l->c->arena, "%s/packed", f->name ? f->name : "filter"));
}
