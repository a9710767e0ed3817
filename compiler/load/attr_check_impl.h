/*
** attr_check_impl.h: what the attribute checks share (attr_check.c: the
** reporting, attr and Const-input helpers and the op table;
** attr_check_window.c: windows, padding and output sizes;
** attr_check_ops.c: counts, axes, permutations, sizes, gathers and
** quantization ranges).  Private to those three files.
*/
#ifndef SM2C_ATTR_CHECK_IMPL_H
#define SM2C_ATTR_CHECK_IMPL_H

#include "attr_check.h"
#include "tensor_proto.h"

typedef struct chk {
    sm2c_ctx *c;
    const char *display, *function;
    Tensorflow__NodeDef **nodes;
    size_t n;
    size_t *slots, mask;              /* name -> node index + 1, built on first use */
    sm2c_tensor **values;             /* decoded Const values by node index */
    unsigned char *tried;
    const Tensorflow__NodeDef *node;  /* the node being checked */
    const char *where;                /* built on the first error of a node */
    sm2c_status first;
} chk;

typedef enum akind {
    AK_INT, AK_FLOAT, AK_BOOL, AK_STRING, AK_TYPE, AK_SHAPE, AK_TENSOR,
    AK_LIST_INT, AK_LIST_TYPE, AK_LIST_SHAPE, AK_TYPE_OR_LIST
} akind;

/* ---- attr_check.c: reporting, attrs, inputs and their Const producers ---- */

const char *ac_str(const char *s);
void ac_report(chk *k, sm2c_status kind, const char *fmt, ...) SM2C_PRINTF(3, 4);
const char *ac_fmt_ints(chk *k, const sm2c_tensor *t);
const Tensorflow__AttrValue *ac_find_attr(const Tensorflow__NodeDef *n, const char *name);
const Tensorflow__AttrValue *ac_get(chk *k, const char *name, int value_case);
int ac_get_int(chk *k, const char *name, int64_t *out);
int ac_get_float(chk *k, const char *name, float *out);
const ProtobufCBinaryData *ac_get_str(chk *k, const char *name);
int ac_str_is(const ProtobufCBinaryData *s, const char *want);
int ac_list_matches(const Tensorflow__AttrValue__ListValue *l, akind kind);
int ac_number_attr(chk *k, const char *name, int64_t min, int64_t *out);
size_t ac_data_inputs(const Tensorflow__NodeDef *n);
const sm2c_tensor *ac_const_value(chk *k, size_t i);
int ac_const_shape(chk *k, size_t i, sm2c_shape *out);
const sm2c_tensor *ac_const_ints(chk *k, size_t i);
int ac_const_int(chk *k, size_t i, int64_t *out);
const sm2c_tensor *ac_const_numbers(chk *k, size_t i);
int ac_static_shape(chk *k, size_t i, sm2c_shape *out);

/* ---- attr_check_window.c: one per op of the table ------------------------ */

void ac_check_conv2d(chk *k);
void ac_check_conv2d_backprop(chk *k);
void ac_check_depthwise(chk *k);
void ac_check_conv3d(chk *k);
void ac_check_max_pool(chk *k);
void ac_check_avg_pool(chk *k);
void ac_check_pool3d(chk *k);
void ac_check_max_pool_v2(chk *k);
void ac_check_bias_add(chk *k);
void ac_check_batch_norm(chk *k);
void ac_check_space_depth(chk *k);

/* ---- attr_check_ops.c: one per op of the table --------------------------- */

void ac_check_add_n(chk *k);
void ac_check_shape_n(chk *k);
void ac_check_stitch(chk *k);
void ac_check_identity_n(chk *k);
void ac_check_concat_v2(chk *k);
void ac_check_concat(chk *k);
void ac_check_pack(chk *k);
void ac_check_unpack(chk *k);
void ac_check_split(chk *k);
void ac_check_one_hot(chk *k);
void ac_check_strided_slice(chk *k);
void ac_check_transpose(chk *k);
void ac_check_reshape(chk *k);
void ac_check_fill(chk *k);
void ac_check_broadcast_to(chk *k);
void ac_check_tile(chk *k);
void ac_check_range(chk *k);
void ac_check_gather(chk *k);
void ac_check_fake_quant_args(chk *k);
void ac_check_fake_quant_vars(chk *k);
void ac_check_fake_quant_per_channel(chk *k);
void ac_check_quantize_dequantize(chk *k);
void ac_check_quantize(chk *k);
void ac_check_uniform(chk *k);
void ac_check_requantize(chk *k);

#endif
