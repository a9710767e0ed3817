/*
** shape_math.h: the integer arithmetic of shape inference, checked.
**
** Dims and attributes come from the model, so every product and sum here can
** overflow int64; these functions report that instead of wrapping (signed
** overflow is undefined behaviour in C).  They are pure, so that the
** shape-math fuzz target can compare them with an __int128 oracle.
*/
#ifndef SM2C_SHAPE_MATH_H
#define SM2C_SHAPE_MATH_H

#include <stdint.h>

typedef enum sm2c_dims_status {
    SM2C_DIMS_OK = 0,
    SM2C_DIMS_BAD,        /* the arguments make no sense (negative size, no broadcast) */
    SM2C_DIMS_OVERFLOW    /* a step of the computation does not fit in int64 */
} sm2c_dims_status;

/* Numpy broadcasting of dims a[ra] and b[rb] into out[max(ra, rb)]. */
sm2c_dims_status sm2c_broadcast_dims(int32_t ra, const int64_t *a, int32_t rb, const int64_t *b,
                                     int64_t *out);

/* TensorFlow's GetWindowedOutputSizeVerbose for one spatial dim of size `in`
** (>= 0): kernel k and dilation dil and stride > 0; SAME or VALID padding.
** Steps, in order: eff = (k - 1) * dil + 1; VALID: out = (in - eff + stride)
** / stride; SAME: out = (in + stride - 1) / stride, need = (out - 1) * stride
** + eff - in, pad_before = max(need, 0) / 2.  A negative out is BAD. */
sm2c_dims_status sm2c_window_out_size(int same, int64_t in, int64_t k, int64_t dil, int64_t stride,
                                      int64_t *out, int64_t *pad_before);

/* Reshape to dims[rank] where one dim may be -1: that one is inferred from
** `total` elements (0 when the others multiply to 0).  BAD for any other
** negative dim or when the element counts differ; OVERFLOW when the known
** dims multiply past int64 (zero short-circuits). */
sm2c_dims_status sm2c_reshape_infer(int64_t total, int32_t rank, int64_t *dims);

/* One dim of Slice: begin b and size (-1: to the end) inside [0, dim]. */
sm2c_dims_status sm2c_slice_dim(int64_t dim, int64_t b, int64_t size, int64_t *out_size);

/* One dense dim of StridedSlice (strided_slice_op.cc canonicalisation):
** begin and end wrap once when negative and are clamped, or are taken from
** the masks; stride != 0 (any int64, INT64_MIN included).  *begin gets the
** first index, *size the number of elements. */
sm2c_dims_status sm2c_strided_dim(int64_t dim, int64_t b, int64_t e, int64_t stride, int begin_mask,
                                  int end_mask, int64_t *begin, int64_t *size);

#endif
