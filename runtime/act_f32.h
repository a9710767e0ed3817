/*
** act_f32.h: the fused activations of sm2c_rt.h (private to the runtime).
**
** TensorFlow's Relu and Relu6 use cwiseMax/cwiseMin<Eigen::PropagateNaN>
** (tensorflow/core/kernels/relu_op_functor.h): NaN stays NaN, Relu(-0) is +0,
** Relu(+Inf) is +Inf, Relu6(+Inf) is 6.  fmaxf/fminf would drop the NaN
** (reliability.md rule 7); comparisons written so that NaN fails them keep it.
** LeakyRelu is the functor's select (x > 0 ? x : x * alpha), clip is
** ClipByValue's min-then-max (clip.c), Sigmoid is unary_f32.c's and
** hard-swish is Keras's x * (relu6(x + 3) / 6), each rounded as TF does.
*/
#ifndef SM2C_RT_ACT_F32_H
#define SM2C_RT_ACT_F32_H

#include <math.h>
#include <stdint.h>

#include "rt_select.h" /* SM2C_RT_ALWAYS_INLINE */
#include "rt_target.h" /* SM2C_RT_SCALAR_CORE */
#include "sm2c_rt.h"
#include "vmath_f32.h"

/* A kernel's activation inside the runtime: the kind and its two float
** parameters travel together so that helpers keep one `act` argument, a
** pointer (by value, gcc -O0 copies it at every call site of the unrolled
** blocks: 2 KB more stack in the AVX-512 convolution). */
typedef struct sm2c_rt__act {
    int32_t kind;   /* SM2C_RT_ACT_* */
    float a, b;     /* LeakyRelu: alpha; clip: lo, hi; else unused */
} sm2c_rt__act;

/* One comparison each: NaN fails every comparison, so it falls through to v;
** -0 <= 0 gives +0. */
static inline float sm2c_rt__relu(float v)
{
    return v <= 0.0f ? 0.0f : v;
}

static inline float sm2c_rt__relu6(float v)
{
    return v <= 0.0f ? 0.0f : v > 6.0f ? 6.0f : v;
}

static inline float sm2c_rt__leaky_relu(float v, float alpha)
{
    return v > 0.0f ? v : v * alpha;
}

/* lo <= hi (the compiler fuses only such bounds); NaN fails both tests. */
static inline float sm2c_rt__clip(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static inline float sm2c_rt__hard_swish(float v)
{
    return v * (sm2c_rt__relu6(v + 3.0f) / 6.0f);
}

/* act(v) for the kinds of more than a comparison or two. */
#if SM2C_RT_SCALAR_CORE && defined(__GNUC__)
__attribute__((noinline, unused)) static float /* see sm2c_rt__act1 */
#else
static inline float
#endif
sm2c_rt__act1_other(float v, const sm2c_rt__act *act)
{
    switch (act->kind) {
    case SM2C_RT_ACT_LEAKY_RELU:
        return sm2c_rt__leaky_relu(v, act->a);
    case SM2C_RT_ACT_CLIP:
        return sm2c_rt__clip(v, act->a, act->b);
    case SM2C_RT_ACT_SIGMOID:
        return sm2c_rt__sigmoid(v);
    case SM2C_RT_ACT_HARD_SWISH:
        return sm2c_rt__hard_swish(v);
    default:
        return v;
    }
}

/* act(v) for one value.  Relu and Relu6 inline, the others a call on a
** scalar core: with Sigmoid's exp inside, gcc -Os no longer inlined the
** whole switch, so every output of a specialised layer paid a call and the
** switch (DS-CNN's firmware: 1.5 KB more code, issue 15's goal lost). */
static inline float sm2c_rt__act1(float v, const sm2c_rt__act *act)
{
    switch (act->kind) {
    case SM2C_RT_ACT_NONE:
        return v;
    case SM2C_RT_ACT_RELU:
        return sm2c_rt__relu(v);
    case SM2C_RT_ACT_RELU6:
        return sm2c_rt__relu6(v);
    default:
        return sm2c_rt__act1_other(v, act);
    }
}

/* Forced inline on optimised vector-core builds: a portable build's target
** clones (simd_f32.h) could not inline it, and its out-of-line copy, built
** for the baseline ISA at -O2, ran Relu as a branch per element (26% of the
** transformer's portable time).  Scalar cores keep a plain inline for code
** size, and -O0 builds for their stack. */
#if SM2C_RT_SCALAR_CORE || !defined(__OPTIMIZE__)
#define SM2C_RT__ACT_INLINE inline
#else
#define SM2C_RT__ACT_INLINE SM2C_RT_ALWAYS_INLINE
#endif

/* y[0..n) = act(y[0..n)): one loop per kind, so each vectorises. */
static SM2C_RT__ACT_INLINE void sm2c_rt__act_f32(float *y, int32_t n, const sm2c_rt__act *act)
{
    const float a = act->a, b = act->b; /* y cannot change them: loops vectorise */
    int32_t i;

    switch (act->kind) {
    case SM2C_RT_ACT_RELU:
        for (i = 0; i < n; i++)
            y[i] = sm2c_rt__relu(y[i]);
        break;
    case SM2C_RT_ACT_RELU6:
        for (i = 0; i < n; i++)
            y[i] = sm2c_rt__relu6(y[i]);
        break;
    case SM2C_RT_ACT_LEAKY_RELU:
        for (i = 0; i < n; i++)
            y[i] = sm2c_rt__leaky_relu(y[i], a);
        break;
    case SM2C_RT_ACT_CLIP:
        for (i = 0; i < n; i++)
            y[i] = sm2c_rt__clip(y[i], a, b);
        break;
    case SM2C_RT_ACT_SIGMOID:
        for (i = 0; i < n; i++)
            y[i] = sm2c_rt__sigmoid(y[i]);
        break;
    case SM2C_RT_ACT_HARD_SWISH:
        for (i = 0; i < n; i++)
            y[i] = sm2c_rt__hard_swish(y[i]);
        break;
    default:
        break;
    }
}

#endif
