/*
** act_f32.h: the fused activations of sm2c_rt.h (private to the runtime).
**
** TensorFlow's Relu and Relu6 use cwiseMax/cwiseMin<Eigen::PropagateNaN>
** (tensorflow/core/kernels/relu_op_functor.h): NaN stays NaN, Relu(-0) is +0,
** Relu(+Inf) is +Inf, Relu6(+Inf) is 6.  fmaxf/fminf would drop the NaN
** (reliability.md rule 7); comparisons written so that NaN fails them keep it.
*/
#ifndef SM2C_RT_ACT_F32_H
#define SM2C_RT_ACT_F32_H

#include <math.h>
#include <stdint.h>

#include "sm2c_rt.h"

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

/* act(v) for one value; act is one of SM2C_RT_ACT_*. */
static inline float sm2c_rt__act1(float v, int32_t act)
{
    if (act == SM2C_RT_ACT_RELU)
        return sm2c_rt__relu(v);
    if (act == SM2C_RT_ACT_RELU6)
        return sm2c_rt__relu6(v);
    return v;
}

/* y[0..n) = act(y[0..n)); act is one of SM2C_RT_ACT_*. */
static inline void sm2c_rt__act_f32(float *y, int32_t n, int32_t act)
{
    int32_t i;

    if (act == SM2C_RT_ACT_RELU) {
        for (i = 0; i < n; i++)
            y[i] = sm2c_rt__relu(y[i]);
    } else if (act == SM2C_RT_ACT_RELU6) {
        for (i = 0; i < n; i++)
            y[i] = sm2c_rt__relu6(y[i]);
    }
}

#endif
