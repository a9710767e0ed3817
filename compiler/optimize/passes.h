/*
** passes.h: the middle end, in the order pipeline.c runs it.
*/
#ifndef SM2C_PASSES_H
#define SM2C_PASSES_H

#include "ir/ir.h"
#include "lower/lower.h"

/* Shapes and dtypes of every value, folding nodes whose inputs are all
** constant (pass_shape.c). */
sm2c_status sm2c_pass_shape(sm2c_ctx *c, sm2c_graph *g);
/* Every output of n within the element limit and int32 counts (value_size.c);
** pass_shape calls it after each node's shape hook. */
sm2c_status sm2c_check_value_sizes(sm2c_ctx *c, const sm2c_node *n);
/* The same for the entry's inputs (a --shape, a signature's shape). */
sm2c_status sm2c_check_port_sizes(sm2c_ctx *c, const sm2c_graph *g);
/* --max-batch: which ports carry the batch, after proving that each row of
** the outputs depends only on the same row of the inputs (pass_batch.c);
** *n_batched is 0 when no input has an unknown leading dim. */
struct sm2c_import_opts;
sm2c_status sm2c_pass_batch(sm2c_ctx *c, sm2c_graph *g, const struct sm2c_import_opts *io,
                            int32_t *n_batched);
/* Keras 3's LayerNormalization over the last axis into one LayerNorm node
** (pass_lnorm.c). */
sm2c_status sm2c_pass_lnorm(sm2c_ctx *c, sm2c_graph *g);
/* The elementwise ops of Keras's LSTMCell into an LstmState and an LstmOutput
** node (pass_lstm.c). */
sm2c_status sm2c_pass_lstm(sm2c_ctx *c, sm2c_graph *g);
/* A loop's MatMul of each step of an unchanged TensorList by a constant into
** one product before the loop (pass_hoist.c). */
sm2c_status sm2c_pass_hoist(sm2c_ctx *c, sm2c_graph *g);
/* Inference batch norm after a convolution into its filter and bias (pass_bnfold.c). */
sm2c_status sm2c_pass_bnfold(sm2c_ctx *c, sm2c_graph *g);
/* A per-channel Mul and Add after a convolution or MatMul (Keras 3's batch
** norm) into its weights and bias (pass_affinefold.c). */
sm2c_status sm2c_pass_affinefold(sm2c_ctx *c, sm2c_graph *g);
/* A zero Pad into the padding of the convolution reading it (pass_padfold.c). */
sm2c_status sm2c_pass_padfold(sm2c_ctx *c, sm2c_graph *g);
/* MatMul/Conv2D/DepthwiseConv2dNative + BiasAdd + an activation into one node;
** BiasAdd + an activation likewise (pass_fuse.c).  residual 0 leaves a Conv2D's
** residual Add alone (--quantize int8: it is an int8 Add of its own, as in TFLite).
** softmax_scale: also a Mul by a constant into the Softmax after it
** (pass_fuse_scale.c; float Softmaxes: not --quantize int8). */
sm2c_status sm2c_pass_fuse(sm2c_ctx *c, sm2c_graph *g, int residual, int softmax_scale);
/* pass_fuse_act.c: the activation computed from n's float output alone, if
** any, becomes n's `act` (n has none yet); 1 when one was fused.
** clamps_only (--quantize int8): only Relu, Relu6 and clip, which the int8
** kernels apply as clamps; Sigmoid and hard-swish stay nodes of their own,
** which have int8 kernels (TFLite's tables), and LeakyRelu stays too. */
int sm2c_fuse_act(sm2c_graph *g, sm2c_node *n, int clamps_only);
/* The same for an elementwise activation after `reshape`, the sole user of
** n's output (pass_fuse.c's bias through a Reshape): n takes it, and the
** Reshape's output stands for the activation's. */
int sm2c_fuse_act_after_reshape(sm2c_graph *g, sm2c_node *n, sm2c_node *reshape, int clamps_only);
/* A Mul by a constant scalar before a Softmax into the Softmax's in_scale
** (pass_fuse_scale.c). */
void sm2c_fuse_softmax_scale(sm2c_graph *g);
/* Mark nodes that no output needs, and nodes computed at compile time (pass_dce.c). */
sm2c_status sm2c_pass_dce(sm2c_ctx *c, sm2c_graph *g);

/* --quantize dynamic: MatMul, Conv2D and depthwise nodes with a constant
** filter of SM2C_DYNAMIC_MIN_WEIGHTS elements or more get an int8 filter and
** an sm2c_hybrid (pass_dynamic.c), but those `skip` names; *n_hybrid counts them.  Requires fuse
** (without residuals) and dce.  weights_bits 4 (--weights-bits 4) gives the
** MatMul and Conv2D filters int4 values (sm2c_quantize_weights_s4); a
** depthwise keeps int8 ones, as TFLite's hybrid depthwise takes no INT4 filter. */
#define SM2C_DYNAMIC_MIN_WEIGHTS 1024   /* TFLite's converter: smaller filters stay float */
struct sm2c_quant_skip;
sm2c_status sm2c_pass_dynamic(sm2c_ctx *c, sm2c_graph *g, const struct sm2c_quant_skip *skip, int32_t weights_bits,
                              int32_t *n_hybrid);
/* For the rewriting passes (rewrite.c): how many live nodes and graph outputs
** read v; the one live node reading v when that is its only use (else NULL);
** a new constant value with one use. */
int sm2c_uses_of(const sm2c_graph *g, const sm2c_value *v);
sm2c_node *sm2c_sole_user(const sm2c_graph *g, const sm2c_value *v);
sm2c_value *sm2c_new_const(sm2c_ctx *c, sm2c_graph *g, sm2c_tensor *t, const char *name);
/* v is a float constant of one element (any rank): 1 and its value in *f. */
int sm2c_scalar_const(const sm2c_value *v, float *f);
/* Replace every use of `from` by `to` (inputs and graph outputs). */
void sm2c_replace_uses(sm2c_graph *g, sm2c_value *from, sm2c_value *to);
/* Fusion folded `dead` into n: mark it dead and chain it on n's `absorbed`. */
void sm2c_absorb_node(sm2c_node *n, sm2c_node *dead);

#endif
