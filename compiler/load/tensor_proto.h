/*
** tensor_proto.h: TensorShapeProto and TensorProto to sm2c_shape / sm2c_tensor,
** with TensorFlow's rules (Tensor::FromProto) and our limits.
*/
#ifndef SM2C_TENSOR_PROTO_H
#define SM2C_TENSOR_PROTO_H

#include "base/tensor.h"
#include "tensor.pb-c.h"

/* `display`/`where` name the file and the place for diagnostics.
** Rejects unknown_rank with dims, dims < -1, rank > limits->rank. */
sm2c_status sm2c_shape_from_proto(sm2c_ctx *c, const char *display, const char *where,
                                  const Tensorflow__TensorShapeProto *p, sm2c_shape *out);

/* Decode a constant.  The shape must be fully known and within limits;
** tensor_content must be exactly nelem * size; typed *_val lists follow TF's
** repeat-the-last-value rule (empty = zeros), a list longer than nelem is
** rejected, and both tensor_content and a *_val list is rejected. */
sm2c_status sm2c_tensor_from_proto(sm2c_ctx *c, const char *display, const char *where,
                                   const Tensorflow__TensorProto *p, sm2c_tensor *out);

/* Element i of a numeric or bool tensor as a double (half, bfloat16 widened). */
double sm2c_tensor_get_f64(const sm2c_tensor *t, int64_t i);
/* Element i of an integer tensor exactly (int64/uint64 in their own types). */
int sm2c_tensor_is_integer(int dtype);
int64_t sm2c_tensor_get_i64(const sm2c_tensor *t, int64_t i);
uint64_t sm2c_tensor_get_u64(const sm2c_tensor *t, int64_t i);

/* IEEE half and bfloat16 bit patterns to float. */
float sm2c_half_to_float(uint16_t h);
float sm2c_bfloat16_to_float(uint16_t b);

#endif
