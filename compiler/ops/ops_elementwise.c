/*
** ops_elementwise.c: broadcasting binary ops, unary ops, Cast and BiasAdd.
*/
#include "ops_common.h"

/* ---- binary ------------------------------------------------------------------ */

/* Each binary op: its kernel, the dtypes it has kernels for, and those for
** which the kernel is checked (integer division: a zero divisor). */
typedef struct binary_op {
    const char *tf, *kernel;
    unsigned types, checked;
} binary_op;

static const binary_op binary_ops[] = {
    { "Add", "add", SM2C_OPT_NUM | SM2C_OPT_INTS, 0 }, { "AddV2", "add", SM2C_OPT_NUM | SM2C_OPT_INTS, 0 },
    { "Sub", "sub", SM2C_OPT_NUM | SM2C_OPT_INTS, 0 }, { "Mul", "mul", SM2C_OPT_NUM | SM2C_OPT_INTS, 0 },
    { "RealDiv", "div", SM2C_OPT_FLOAT, 0 }, { "Maximum", "maximum", SM2C_OPT_NUM | SM2C_OPT_INTS, 0 },
    { "Minimum", "minimum", SM2C_OPT_NUM | SM2C_OPT_INTS, 0 },
    { "SquaredDifference", "squared_difference", SM2C_OPT_NUM, 0 },
    { "Pow", "pow", SM2C_OPT_FLOAT | SM2C_OPT_SINT, SM2C_OPT_SINT },   /* a negative integer exponent */
    { "FloorDiv", "floor_div", SM2C_OPT_FLOAT | SM2C_OPT_INTS, SM2C_OPT_INTS },
    { "FloorMod", "floor_mod", SM2C_OPT_FLOAT | SM2C_OPT_INTS, SM2C_OPT_INTS },
    { "Atan2", "atan2", SM2C_OPT_FLOAT, 0 }, { "Xdivy", "xdivy", SM2C_OPT_FLOAT, 0 },
    { "DivNoNan", "div_no_nan", SM2C_OPT_FLOAT, 0 },
    /* logic family: integer division, bits, Xlogy */
    { "TruncateDiv", "truncate_div", SM2C_OPT_FLOAT | SM2C_OPT_INTS, SM2C_OPT_INTS },
    { "TruncateMod", "truncate_mod", SM2C_OPT_FLOAT | SM2C_OPT_INT, SM2C_OPT_INT },
    { "Mod", "truncate_mod", SM2C_OPT_FLOAT | SM2C_OPT_INT, SM2C_OPT_INT },
    { "BitwiseAnd", "bitwise_and", SM2C_OPT_INTS, 0 }, { "BitwiseOr", "bitwise_or", SM2C_OPT_INTS, 0 },
    { "BitwiseXor", "bitwise_xor", SM2C_OPT_INTS, 0 }, { "LeftShift", "left_shift", SM2C_OPT_INTS, 0 },
    { "RightShift", "right_shift", SM2C_OPT_INTS, 0 },
    { "Xlogy", "xlogy", SM2C_OPT_FLOAT, 0 }, { "Xlog1py", "xlog1py", SM2C_OPT_FLOAT, 0 },
    /* training gradients (ops_grad.c): (y or features, dy) -> dx */
    { "TanhGrad", "tanh_grad", SM2C_OPT_F32, 0 }, { "SigmoidGrad", "sigmoid_grad", SM2C_OPT_F32, 0 },
    { "ReluGrad", "relu_grad", SM2C_OPT_F32, 0 }, { "Relu6Grad", "relu6_grad", SM2C_OPT_F32, 0 },
};

static const binary_op *find_binary(const char *tf)
{
    for (size_t i = 0; i < sizeof binary_ops / sizeof *binary_ops; i++)
        if (strcmp(binary_ops[i].tf, tf) == 0)
            return &binary_ops[i];
    return NULL;
}

sm2c_status shape_binary(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || n->n_inputs != 2)
        return st ? st : sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects 2 inputs, got %d", n->n_inputs);
    const sm2c_shape *a = &n->inputs[0]->shape, *b = &n->inputs[1]->shape;
    if (n->inputs[0]->dtype != n->inputs[1]->dtype)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "inputs have dtypes %s and %s",
                             sm2c_dtype_name(n->inputs[0]->dtype), sm2c_dtype_name(n->inputs[1]->dtype));
    int32_t rank = a->rank > b->rank ? a->rank : b->rank;
    int64_t dims[SM2C_RT_MAX_RANK];
    if (sm2c_broadcast_dims(a->rank, a->dims, b->rank, b->dims, dims))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "shapes %s and %s do not broadcast",
                             sm2c_shape_str(c->arena, a), sm2c_shape_str(c->arena, b));
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, rank, dims);
    if (n->inputs[0]->dtype == SM2C_DT_STRING)
        return sm2c_shape_string_concat(c, n);
    sm2c_fold_clamped_min(c, n);
    return SM2C_OK;
}

void sm2c_op_broadcast_strides(const sm2c_shape *in, const sm2c_shape *out, int64_t *strides)
{
    int64_t own[SM2C_RT_MAX_RANK];
    sm2c_op_strides(in, own);
    for (int32_t i = 0; i < out->rank; i++) {
        int32_t k = i - (out->rank - in->rank);
        strides[i] = k >= 0 && in->dims[k] != 1 ? own[k] : 0;
    }
}

/* Merge adjacent dims where both operands stay contiguous, so the kernel's
** rank-1 fast path catches the common cases (same shape, scalar operand). */
static int32_t coalesce(int32_t rank, int64_t *dims, int64_t *sa, int64_t *sb)
{
    int32_t r = 0;
    for (int32_t i = 0; i < rank; i++) {
        if (r > 0 && sa[r - 1] == sa[i] * dims[i] && sb[r - 1] == sb[i] * dims[i]) {
            dims[r - 1] *= dims[i];
            sa[r - 1] = sa[i];
            sb[r - 1] = sb[i];
            continue;
        }
        dims[r] = dims[i], sa[r] = sa[i], sb[r] = sb[i];
        r++;
    }
    return r;
}

/* The step kernel(a, b -> y) over y's shape, a and b read at strides sa and sb
** (0 where they broadcast); sa and sb are changed. */
static sm2c_step *strided_binary_step(sm2c_lower *l, const sm2c_node *n, const char *kernel,
                                      int32_t a, int64_t *sa, int32_t b, int64_t *sb, int32_t y,
                                      const sm2c_shape *shape)
{
    int64_t dims[SM2C_RT_MAX_RANK];
    int32_t rank = shape->rank;
    for (int32_t i = 0; i < rank; i++)
        dims[i] = shape->dims[i];
    rank = coalesce(rank, dims, sa, sb);
    if (rank == 0) {
        rank = 1;
        dims[0] = 1, sa[0] = sb[0] = 1;
    }
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 7);
    s->args[0] = sm2c_arg_buf(a);
    s->args[1] = sm2c_arg_buf(b);
    s->args[2] = sm2c_arg_buf(y);
    s->args[3] = sm2c_arg_int(rank);
    s->args[4] = sm2c_arg_ints(l, rank, dims);
    s->args[5] = sm2c_arg_ints(l, rank, sa);
    s->args[6] = sm2c_arg_ints(l, rank, sb);
    return s;
}

sm2c_step *sm2c_op_binary_step(sm2c_lower *l, const sm2c_node *n, const char *kernel,
                               const sm2c_value *a, const sm2c_value *b, int32_t y,
                               const sm2c_shape *shape)
{
    int64_t sa[SM2C_RT_MAX_RANK], sb[SM2C_RT_MAX_RANK];
    sm2c_op_broadcast_strides(&a->shape, shape, sa);
    sm2c_op_broadcast_strides(&b->shape, shape, sb);
    return strided_binary_step(l, n, kernel, sm2c_lower_buf(l, a), sa, sm2c_lower_buf(l, b), sb, y, shape);
}

sm2c_status lower_binary(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    if (y->dtype == SM2C_DT_COMPLEX64)
        return sm2c_lower_complex_binary(l, n);
    if (y->dtype == SM2C_DT_STRING && strcmp(n->op->name, "Add") == 0)
        return sm2c_lower_string_concat(l, n);
    const binary_op *op = find_binary(n->op->name);
    unsigned t = sm2c_op_type_bit(y->dtype);
    if (!op || !(op->types & t))
        return sm2c_lower_unsupported(l, n, "%s on %s is not supported", n->op->name,
                                      sm2c_dtype_name(y->dtype));
    sm2c_step *s = sm2c_op_binary_step(l, n, sm2c_op_kernel(l->c, op->kernel, y->dtype),
                                       n->inputs[0], n->inputs[1], sm2c_lower_buf(l, y), &y->shape);
    s->checked = (op->checked & t) != 0;
    return SM2C_OK;
}

/* ---- unary ---------------------------------------------------------------------- */

sm2c_status shape_unary(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || n->n_inputs < 1)
        return st ? st : sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects an input");
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, n->inputs[0]->shape.rank, n->inputs[0]->shape.dims);
    return SM2C_OK;
}

static const char *unary_kernel_op(const char *tf)
{
    static const char *const map[][2] = {
        { "Relu", "relu" }, { "Relu6", "relu6" }, { "Sigmoid", "sigmoid" }, { "Tanh", "tanh" },
        { "Neg", "neg" }, { "Abs", "abs" }, { "Square", "square" }, { "Sqrt", "sqrt" }, { "Rsqrt", "rsqrt" },
        { "Exp", "exp" }, { "Log", "log" },
        { "Floor", "floor" }, { "Ceil", "ceil" }, { "Round", "round" }, { "Rint", "rint" },
        { "Sin", "sin" }, { "Cos", "cos" }, { "Tan", "tan" }, { "Asin", "asin" }, { "Acos", "acos" },
        { "Atan", "atan" }, { "Sinh", "sinh" }, { "Cosh", "cosh" }, { "Asinh", "asinh" },
        { "Acosh", "acosh" }, { "Atanh", "atanh" }, { "Erf", "erf" }, { "Erfc", "erfc" },
        { "Expm1", "expm1" }, { "Log1p", "log1p" }, { "Erfinv", "erfinv" }, { "Sign", "sign" },
        { "Reciprocal", "reciprocal" }, { "Inv", "reciprocal" }, { "Softplus", "softplus" },
        { "Softsign", "softsign" }, { "Elu", "elu" }, { "Selu", "selu" }, { "LeakyRelu", "leaky_relu" },
        { "Lgamma", "lgamma" }, { "Digamma", "digamma" },
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(map[i][0], tf) == 0)
            return map[i][1];
    return NULL;
}

/* Whether unary_int.c has op tf on dtype: Neg, Abs and Sign on signed
** integers, Square, Relu and Relu6 on every integer width. */
static int int_unary(const char *tf, int dtype)
{
    unsigned t = sm2c_op_type_bit(dtype);
    if (!strcmp(tf, "Square") || !strcmp(tf, "Relu") || !strcmp(tf, "Relu6"))
        return (t & SM2C_OPT_INTS) != 0;
    return (t & SM2C_OPT_SINT) && (!strcmp(tf, "Neg") || !strcmp(tf, "Abs") || !strcmp(tf, "Sign"));
}

sm2c_status lower_unary(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    int leaky = strcmp(n->op->name, "LeakyRelu") == 0;
    if (y->dtype == SM2C_DT_COMPLEX64)
        return sm2c_lower_complex_unary(l, n);
    if (y->dtype != SM2C_DT_FLOAT && y->dtype != SM2C_DT_DOUBLE && !int_unary(n->op->name, y->dtype))
        return sm2c_lower_unsupported(l, n, "%s on %s is not supported", n->op->name,
                                      sm2c_dtype_name(y->dtype));
    const char *kernel = unary_kernel_op(n->op->name);
    if (!kernel)    /* a row in ops.def without its entry in unary_kernel_op */
        return sm2c_lower_unsupported(l, n, "%s has no kernel in unary_kernel_op", n->op->name);
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, kernel, y->dtype), leaky ? 4 : 3);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[2] = sm2c_arg_int(sm2c_value_elements(y));
    if (leaky) {
        float alpha = 0.2f;
        sm2c_attr_float(n, "alpha", &alpha);
        s->args[3] = sm2c_arg_float(alpha);
    }
    return SM2C_OK;
}

/* ---- Cast --------------------------------------------------------------------------- */

/* A sparse feature's dense_shape cast between int64 and int32 (the
** tf.Transform layer's Shape/Cast) keeps its bound, so that a slice of it
** without the bound dim still folds (ops_shape.c, slice_bound).  The bound's
** elements (batch and values per example) fit an int32. */
static void keep_bound(sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    sm2c_value *y = n->outputs[0];
    int ints = (x->dtype == SM2C_DT_INT32 || x->dtype == SM2C_DT_INT64) &&
               (y->dtype == SM2C_DT_INT32 || y->dtype == SM2C_DT_INT64);
    if (!x->bound || x->constant || x->shape.rank != 1 || !ints)
        return;
    for (int64_t i = 0; i < x->shape.dims[0]; i++)
        if (x->bound[i] > INT32_MAX)
            return;
    y->bound = x->bound;
    y->bound_dim = x->bound_dim;
}

sm2c_status shape_cast(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = shape_unary(c, n);
    if (st)
        return st;
    const Tensorflow__AttrValue *to = sm2c_attr(n, "DstT");
    if (!to || to->value_case != TENSORFLOW__ATTR_VALUE__VALUE_TYPE)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "has no DstT attr");
    n->outputs[0]->dtype = sm2c_dtype_base((int)to->type);
    keep_bound(n);
    return SM2C_OK;
}

sm2c_status lower_cast(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    const char *from = sm2c_kernel_suffix(x->dtype), *to = sm2c_kernel_suffix(y->dtype);
    if (x->dtype == y->dtype) {
        sm2c_lower_alias(l, y, x);   /* string to string too: TensorFlow's identity */
        return SM2C_OK;
    }
    if (!from || !to || (y->dtype == SM2C_DT_COMPLEX64 && x->dtype != SM2C_DT_FLOAT))
        /* only float32 -> complex64 (ops_signal.c); TensorFlow casts strings to strings alone */
        return sm2c_lower_unsupported(l, n, "Cast from %s to %s is not supported",
                                      sm2c_dtype_name(x->dtype), sm2c_dtype_name(y->dtype));
    int narrow = y->dtype == SM2C_DT_HALF || y->dtype == SM2C_DT_BFLOAT16;
    if (narrow && sm2c_attr_flag(n, "Truncate"))
        return sm2c_lower_unsupported(l, n, "Cast to %s with Truncate=true is not supported "
                                      "(only round to nearest even)", sm2c_dtype_name(y->dtype));
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_arena_printf(l->c->arena, "sm2c_rt_cast_%s_%s", from, to), 3);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[2] = sm2c_arg_int(sm2c_value_elements(y));
    return SM2C_OK;
}

/* ---- BiasAdd ----------------------------------------------------------------------- */

sm2c_status shape_bias_add(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = shape_unary(c, n);
    if (st || n->n_inputs != 2)
        return st ? st : sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects 2 inputs");
    const sm2c_shape *x = &n->inputs[0]->shape, *b = &n->inputs[1]->shape;
    int nchw = sm2c_attr_str_is(n, "data_format", "NCHW");
    int32_t cdim = nchw ? 1 : x->rank - 1;
    if (b->rank != 1 || x->rank < 2 || x->dims[cdim] != b->dims[0])
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "bias %s does not match input %s",
                             sm2c_shape_str(c->arena, b), sm2c_shape_str(c->arena, x));
    return SM2C_OK;
}

/* BiasAdd on integers (wrapping as TensorFlow's) and double: the Add of the
** bias read at stride 1 along the channel dim and 0 elsewhere (no activation
** to fuse: pass_fuse.c fuses float ones only). */
static sm2c_status lower_bias_add_by_add(sm2c_lower *l, const sm2c_node *n, int32_t cdim)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    int64_t sx[SM2C_RT_MAX_RANK], sb[SM2C_RT_MAX_RANK];
    sm2c_op_strides(&x->shape, sx);
    for (int32_t i = 0; i < x->shape.rank; i++)
        sb[i] = i == cdim ? 1 : 0;
    strided_binary_step(l, n, sm2c_op_kernel(l->c, "add", y->dtype), sm2c_lower_buf(l, x), sx,
                        sm2c_lower_buf(l, n->inputs[1]), sb, sm2c_lower_buf(l, y), &y->shape);
    return SM2C_OK;
}

sm2c_status lower_bias_add(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    int nchw = sm2c_attr_str_is(n, "data_format", "NCHW");
    if ((sm2c_op_type_bit(y->dtype) & SM2C_OPT_INTS) || y->dtype == SM2C_DT_DOUBLE)
        return lower_bias_add_by_add(l, n, nchw ? 1 : x->shape.rank - 1);
    if (y->dtype != SM2C_DT_FLOAT)
        return sm2c_lower_unsupported(l, n, "BiasAdd on %s is not supported", sm2c_dtype_name(y->dtype));
    int64_t ch = n->inputs[1]->shape.dims[0], total = sm2c_value_elements(x);
    int64_t inner = 1;
    if (nchw)
        for (int32_t i = 2; i < x->shape.rank; i++)
            inner *= x->shape.dims[i];
    int64_t outer = ch && inner ? total / (ch * inner) : 0;
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_bias_add_f32", 9);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[3] = sm2c_arg_int(outer);
    s->args[4] = sm2c_arg_int(ch);
    s->args[5] = sm2c_arg_int(inner);
    sm2c_lower_act(s, 6, n);
    return SM2C_OK;
}
