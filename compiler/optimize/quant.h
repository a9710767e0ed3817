/*
** quant.h: the arithmetic of --quantize int8 at compile time (quant_params.c),
** which pass_quantize.c uses: TFLite's choice of scale and zero point, of
** per-channel weight scales, and of requantization multipliers.
*/
#ifndef SM2C_QUANT_H
#define SM2C_QUANT_H

#include "ir/ir.h"

/* A float range seen by calibration or given by a FakeQuant; known 0 when
** nothing set it. */
typedef struct sm2c_range {
    float min, max;
    int32_t known;
} sm2c_range;

/* Per-tensor asymmetric int8 parameters for [min, max] widened to hold 0, as
** TFLite's converter nudges them.  0 for a range that gives no valid scale
** (non-finite bounds): the catalog's N6 rule, checked here. */
int sm2c_qparam_from_range(float min, float max, sm2c_qparam *out);

/* The 16x8 scheme's symmetric int16 parameters for [min, max] widened to hold
** 0, as TFLite's quantizer computes them (GetSymmetricQuantizationParams):
** zero point 0, scale max(|min|, |max|) / 32767 in float.  0 as above. */
int sm2c_qparam16_from_range(float min, float max, sm2c_qparam *out);

/* TFLite's QuantizeMultiplier: real = m * 2^shift with m a Q31 value in
** [2^30, 2^31) (0 for real 0). */
void sm2c_quantize_multiplier(double real, int32_t *m, int32_t *shift);

/* Quantize a float weight tensor symmetrically per channel, the channel of
** flat index i being (i / inner) % n_channels, to int8 in [-127, 127]: q[] and
** the channel scales (max |w| / 127, 1 for an all-zero channel). */
void sm2c_quantize_weights(const float *w, int64_t n, int32_t n_channels, int64_t inner, int8_t *q,
                           float *scales);

/* The same as TFLite's dynamic-range quantizer computes it (its MLIR pass,
** GetUniformQuantizedPerAxisTypeForWeight and quantizeF32ToInt8): per channel
** the scale 2 * max|w| / 254 in double (a range under 1e-6 widened to
** +-5e-7), each weight w / scale in double rounded half away from zero and
** clamped to [-127, 127]; scales[] gets the scales as floats, as the model
** stores them. */
void sm2c_quantize_weights_drq(const float *w, int64_t n, int32_t n_channels, int64_t inner, int8_t *q,
                               float *scales);
/* int4 weights (--weights-bits 4), as Google's ai-edge-quantizer computes them
** for TFLite's INT4 tensors (uniform_quantize_tensor.py: symmetric, not narrow
** below 8 bits): per channel the scale max(max|w|, 1e-9) / 7 in float, each
** weight w / scale in float rounded to nearest even (np.rint) and clamped to
** [-8, 7] (a max|w| weight gives 7, so -8 only by rounding, never in practice);
** the values are stored in int8 q[]. */
void sm2c_quantize_weights_s4(const float *w, int64_t n, int32_t n_channels, int64_t inner, int8_t *q,
                              float *scales);
/* The quantized value of real x under p, saturated to int8 ([lo, hi]). */
int32_t sm2c_quantize_one(float x, const sm2c_qparam *p);
int32_t sm2c_quantize_one_in(float x, const sm2c_qparam *p, int32_t lo, int32_t hi);

/* TFLite's int8 Mean over r values (reduce.cc Prepare, reduce.h): in_scale /
** out_scale as a multiplier, 1 / r folded in. */
void sm2c_mean_params(float in_scale, float out_scale, int64_t r, int32_t *m, int32_t *shift);

/* TFLite's reference int8 Softmax parameters for beta 1 (activations.cc
** Prepare: PreprocessSoftmaxScaling, CalculateInputRadius); 0 when the input
** scale gives no valid left shift. */
int sm2c_softmax_params(float in_scale, int32_t *m, int32_t *left_shift, int32_t *diff_min);

/* TFLite's int8 lookup table of an elementwise function (LUTPopulate): for
** each q in [-128, 127], table[q + 128] = the output quantization of f(the
** input's real value of q), all in float as TFLite computes it. */
enum { SM2C_LUT_LOGISTIC, SM2C_LUT_TANH };
void sm2c_lut_table(int fn, const sm2c_qparam *in, const sm2c_qparam *out, int8_t *table);

/* The two tables of TFLite's int16 Softmax (activations.cc Prepare,
** LUTPopulate<int16_t>): exp on [-10, 0] and 1 / (1 + x) on [0, 1], each 512
** intervals of a symmetric int16 input, outputs on [-1, 1], 513 values. */
enum { SM2C_LUT16_SIZE = 513, SM2C_LUT16_EXP = 0, SM2C_LUT16_RECIP = 1 };
void sm2c_lut16_table(int fn, int16_t *table);

/* TFLite's reference int8 HardSwish (hard_swish.h, with activations.cc's
** Prepare) evaluated at compile time on every input value into a table as
** sm2c_lut_table's; 0 when TFLite would refuse the scales (output multiplier
** above 1). */
int sm2c_hard_swish_table(const sm2c_qparam *in, const sm2c_qparam *out, int8_t *table);

/* What pass_quantize.c did, for the compile report. */
typedef struct sm2c_quant_summary {
    int32_t int8_nodes, float_nodes, fake_quant;
} sm2c_quant_summary;

/* --quantize-skip: shell patterns (base/glob.h) of the node names to keep
** float; used[i] is set when pattern i matches a node (may be NULL). */
typedef struct sm2c_quant_skip {
    int32_t n;
    const char *const *patterns;
    uint8_t *used;
} sm2c_quant_skip;

/* 1 when a pattern of k (NULL: none) matches n's name or the name of a node
** fusion folded into n (its BiasAdd, its Relu), marking each that does. */
int sm2c_quant_skipped(const sm2c_quant_skip *k, const sm2c_node *n);

/* The choices --quantize int8 leaves to the user. */
typedef struct sm2c_quant_opts {
    int32_t io_int8;        /* --io int8: the graph's float inputs and outputs with
                               a range become int8, else they stay float */
    int32_t float_requant;  /* --requantize float: Conv2D, depthwise and fully
                               connected requantize in float (sm2c_qnode.scale) */
    sm2c_quant_skip skip;   /* --quantize-skip: these stay float */
    int32_t int16;          /* --quantize int16x8: TFLite's 16x8 scheme (int16
                               activations, zero point 0; int64 biases) */
    int32_t weights_bits;   /* --weights-bits: 4 gives Conv2D, depthwise and MatMul
                               int4 weights (sm2c_quantize_weights_s4); else 8 */
} sm2c_quant_opts;

/* --quantize int8 on graph g (pass_quantize.c): ranges[0..n_ranges) by value
** id (FakeQuant nodes overwrite theirs). */
sm2c_status sm2c_pass_quantize(sm2c_ctx *c, sm2c_graph *g, sm2c_range *ranges, int32_t n_ranges,
                               const sm2c_quant_opts *qo, sm2c_quant_summary *sum);

#endif
