/*
** ops_logic.c: comparisons, logical ops, Select/SelectV2, IsNan/IsInf/
** IsFinite, ApproximateEqual, ClipByValue, AddN and Invert.  Bool tensors are
** uint8_t 0/1 (sm2c_rt.h).
*/
#include "ops_common.h"

/* ---- comparisons and LogicalAnd/LogicalOr: broadcasting, bool result ------ */

typedef struct logic_op {
    const char *tf, *kernel;
    unsigned types;     /* input dtypes with a kernel (SM2C_OPT_*) */
} logic_op;

static const logic_op compare_ops[] = {
    { "Equal", "equal", SM2C_OPT_NUM | SM2C_OPT_INTS | SM2C_OPT_BOOL },
    { "NotEqual", "not_equal", SM2C_OPT_NUM | SM2C_OPT_INTS | SM2C_OPT_BOOL },
    { "Less", "less", SM2C_OPT_NUM | SM2C_OPT_INTS },
    { "LessEqual", "less_equal", SM2C_OPT_NUM | SM2C_OPT_INTS },
    { "Greater", "greater", SM2C_OPT_NUM | SM2C_OPT_INTS },
    { "GreaterEqual", "greater_equal", SM2C_OPT_NUM | SM2C_OPT_INTS },
    { "LogicalAnd", "logical_and", SM2C_OPT_BOOL }, { "LogicalOr", "logical_or", SM2C_OPT_BOOL },
    { "LogicalNot", "logical_not", SM2C_OPT_BOOL },
    { "IsNan", "is_nan", SM2C_OPT_FLOAT }, { "IsInf", "is_inf", SM2C_OPT_FLOAT },
    { "IsFinite", "is_finite", SM2C_OPT_FLOAT },
    { "ApproximateEqual", "approximate_equal", SM2C_OPT_FLOAT },
    { "Invert", "invert", SM2C_OPT_INTS },
};

static const logic_op *find_logic(const char *tf)
{
    for (size_t i = 0; i < sizeof compare_ops / sizeof *compare_ops; i++)
        if (strcmp(compare_ops[i].tf, tf) == 0)
            return &compare_ops[i];
    return NULL;
}

/* The kernel for node n on its first input's dtype, or NULL after reporting. */
static const char *logic_kernel(sm2c_lower *l, const sm2c_node *n)
{
    const logic_op *op = find_logic(n->op->name);
    int dtype = n->inputs[0]->dtype;
    if (!op || !(op->types & sm2c_op_type_bit(dtype))) {
        sm2c_lower_unsupported(l, n, "%s on %s is not supported", n->op->name, sm2c_dtype_name(dtype));
        return NULL;
    }
    return sm2c_op_kernel(l->c, op->kernel, dtype);
}

sm2c_status shape_compare(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = shape_binary(c, n);
    if (!st)
        n->outputs[0]->dtype = SM2C_DT_BOOL;
    return st;
}

sm2c_status lower_compare(sm2c_lower *l, const sm2c_node *n)
{
    if (n->inputs[0]->dtype == SM2C_DT_STRING &&
        (strcmp(n->op->name, "Equal") == 0 || strcmp(n->op->name, "NotEqual") == 0))
        return sm2c_lower_string_compare(l, n);
    const char *k = logic_kernel(l, n);
    if (!k)
        return SM2C_ERR_UNSUPPORTED;
    const sm2c_value *y = n->outputs[0];
    sm2c_op_binary_step(l, n, k, n->inputs[0], n->inputs[1], sm2c_lower_buf(l, y), &y->shape);
    return SM2C_OK;
}

/* ---- elementwise unary into bool (IsNan, ...) or the same dtype (Invert, LogicalNot) */

sm2c_status shape_classify(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = shape_unary(c, n);
    if (!st)
        n->outputs[0]->dtype = SM2C_DT_BOOL;
    return st;
}

sm2c_status lower_logic_unary(sm2c_lower *l, const sm2c_node *n)
{
    const char *k = logic_kernel(l, n);
    if (!k)
        return SM2C_ERR_UNSUPPORTED;
    const sm2c_value *y = n->outputs[0];
    sm2c_step *s = sm2c_lower_step(l, n, k, 3);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[2] = sm2c_arg_int(sm2c_value_elements(y));
    return SM2C_OK;
}

/* ---- ApproximateEqual: same shapes, |x - y| < tolerance ------------------- */

sm2c_status shape_approximate_equal(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = shape_compare(c, n);
    if (st)
        return st;
    if (!sm2c_shape_equal(&n->inputs[0]->shape, &n->inputs[1]->shape))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "inputs have shapes %s and %s (must be equal)",
                             sm2c_shape_str(c->arena, &n->inputs[0]->shape),
                             sm2c_shape_str(c->arena, &n->inputs[1]->shape));
    return SM2C_OK;
}

sm2c_status lower_approximate_equal(sm2c_lower *l, const sm2c_node *n)
{
    const char *k = logic_kernel(l, n);
    if (!k)
        return SM2C_ERR_UNSUPPORTED;
    float tol = 1e-5f;
    sm2c_attr_float(n, "tolerance", &tol);
    const sm2c_value *y = n->outputs[0];
    sm2c_step *s = sm2c_lower_step(l, n, k, 5);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[3] = sm2c_arg_int(sm2c_value_elements(y));
    s->args[4] = sm2c_arg_float(tol);
    return SM2C_OK;
}

/* ---- Select and SelectV2 --------------------------------------------------- */

/* The broadcast shape of a and b into out; 0 when they do not broadcast. */
static int broadcast2(const sm2c_shape *a, const sm2c_shape *b, int32_t *rank, int64_t *out)
{
    int32_t r = a->rank > b->rank ? a->rank : b->rank;
    for (int32_t i = 0; i < r; i++) {
        int32_t ia = i - (r - a->rank), ib = i - (r - b->rank);
        int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
        if (da != db && da != 1 && db != 1)
            return 0;
        out[i] = da == 1 ? db : da;
    }
    *rank = r;
    return 1;
}

/* Select (v1): cond has t's shape, is a scalar, or is a vector over t's first
** dim (it picks rows).  Returns 1 and cond's strides as read over t's shape. */
static int select_v1_strides(const sm2c_shape *cond, const sm2c_shape *t, int64_t *sc)
{
    if (sm2c_shape_equal(cond, t)) {
        sm2c_op_strides(t, sc);
        return 1;
    }
    for (int32_t i = 0; i < t->rank; i++)
        sc[i] = 0;
    if (cond->rank == 0)
        return 1;
    if (cond->rank == 1 && t->rank >= 1 && cond->dims[0] == t->dims[0]) {
        sc[0] = 1;
        return 1;
    }
    return 0;
}

sm2c_status shape_select(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || n->n_inputs != 3)
        return st ? st : sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects 3 inputs, got %d", n->n_inputs);
    const sm2c_shape *cs = &n->inputs[0]->shape, *as = &n->inputs[1]->shape, *bs = &n->inputs[2]->shape;
    if (n->inputs[0]->dtype != SM2C_DT_BOOL || n->inputs[1]->dtype != n->inputs[2]->dtype)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects a bool condition and two values of one dtype");
    int64_t dims[SM2C_RT_MAX_RANK], tmp[SM2C_RT_MAX_RANK];
    int32_t rank = 0;
    int ok;
    if (strcmp(n->op->name, "Select") == 0) {
        ok = sm2c_shape_equal(as, bs) && select_v1_strides(cs, as, tmp);
        rank = as->rank;
        for (int32_t i = 0; i < rank; i++)
            dims[i] = as->dims[i];
    } else {
        sm2c_shape ab;
        ok = broadcast2(as, bs, &rank, dims);
        ab = sm2c_shape_make(c, rank, dims);
        ok = ok && broadcast2(cs, &ab, &rank, dims);
    }
    if (!ok)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "shapes %s, %s and %s do not fit",
                             sm2c_shape_str(c->arena, cs), sm2c_shape_str(c->arena, as),
                             sm2c_shape_str(c->arena, bs));
    sm2c_op_set(c, n, 0, n->inputs[1]->dtype, rank, dims);
    return SM2C_OK;
}

sm2c_status lower_select(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    const sm2c_shape *out = &y->shape;
    int64_t sc[SM2C_RT_MAX_RANK], sa[SM2C_RT_MAX_RANK], sb[SM2C_RT_MAX_RANK];
    static const int64_t one = 1, zero = 0;
    if (strcmp(n->op->name, "Select") == 0)
        select_v1_strides(&n->inputs[0]->shape, out, sc);
    else
        sm2c_op_broadcast_strides(&n->inputs[0]->shape, out, sc);
    sm2c_op_broadcast_strides(&n->inputs[1]->shape, out, sa);
    sm2c_op_broadcast_strides(&n->inputs[2]->shape, out, sb);
    int scalar = out->rank == 0;
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_select", 10);
    for (int32_t i = 0; i < 3; i++)
        s->args[i] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[i]));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[4] = sm2c_arg_int(sm2c_abi_elem_size(y->dtype));
    s->args[5] = sm2c_arg_int(scalar ? 1 : out->rank);
    s->args[6] = sm2c_arg_ints(l, scalar ? 1 : out->rank, scalar ? &one : out->dims);
    s->args[7] = sm2c_arg_ints(l, scalar ? 1 : out->rank, scalar ? &zero : sc);
    s->args[8] = sm2c_arg_ints(l, scalar ? 1 : out->rank, scalar ? &zero : sa);
    s->args[9] = sm2c_arg_ints(l, scalar ? 1 : out->rank, scalar ? &zero : sb);
    return SM2C_OK;
}

/* ---- ClipByValue: bounds are scalars or have t's shape --------------------- */

sm2c_status shape_clip(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || n->n_inputs != 3)
        return st ? st : sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects 3 inputs, got %d", n->n_inputs);
    const sm2c_shape *t = &n->inputs[0]->shape;
    for (int32_t i = 1; i < 3; i++) {
        const sm2c_shape *b = &n->inputs[i]->shape;
        if (n->inputs[i]->dtype != n->inputs[0]->dtype ||
            (sm2c_value_elements(n->inputs[i]) != 1 && !sm2c_shape_equal(b, t)))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "bound %d (%s %s) is neither a scalar nor "
                                 "of shape %s", i, sm2c_dtype_name(n->inputs[i]->dtype),
                                 sm2c_shape_str(c->arena, b), sm2c_shape_str(c->arena, t));
    }
    return shape_unary(c, n);
}

sm2c_status lower_clip(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    if (!(sm2c_op_type_bit(y->dtype) & (SM2C_OPT_NUM | SM2C_OPT_I8 | SM2C_OPT_I16 | SM2C_OPT_U8 | SM2C_OPT_U16)))
        return sm2c_lower_unsupported(l, n, "ClipByValue on %s is not supported", sm2c_dtype_name(y->dtype));
    int64_t count = sm2c_value_elements(y);
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "clip_by_value", y->dtype), 7);
    for (int32_t i = 0; i < 3; i++)
        s->args[i] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[i]));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[4] = sm2c_arg_int(count);
    s->args[5] = sm2c_arg_int(sm2c_value_elements(n->inputs[1]) == count && count != 1);
    s->args[6] = sm2c_arg_int(sm2c_value_elements(n->inputs[2]) == count && count != 1);
    return SM2C_OK;
}

/* ---- AddN: same shapes, summed left to right as TensorFlow's Add<N> functors */

sm2c_status shape_add_n(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || n->n_inputs < 1)
        return st ? st : sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects at least one input");
    for (int32_t i = 1; i < n->n_inputs; i++)
        if (n->inputs[i]->dtype != n->inputs[0]->dtype ||
            !sm2c_shape_equal(&n->inputs[i]->shape, &n->inputs[0]->shape))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input %d (%s %s) differs from input 0 "
                                 "(%s %s)", i, sm2c_dtype_name(n->inputs[i]->dtype),
                                 sm2c_shape_str(c->arena, &n->inputs[i]->shape),
                                 sm2c_dtype_name(n->inputs[0]->dtype),
                                 sm2c_shape_str(c->arena, &n->inputs[0]->shape));
    return shape_unary(c, n);
}

sm2c_status lower_add_n(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    if (!(sm2c_op_type_bit(y->dtype) & (SM2C_OPT_NUM | SM2C_OPT_INTS)))
        return sm2c_lower_unsupported(l, n, "AddN on %s is not supported", sm2c_dtype_name(y->dtype));
    int32_t yb = sm2c_lower_buf(l, y);
    int64_t count = sm2c_value_elements(y);
    if (n->n_inputs == 1) {
        sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_copy", 3);
        s->args[0] = sm2c_arg_buf(yb);
        s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
        s->args[2] = sm2c_arg_int(count * (int64_t)sm2c_dtype_size(y->dtype));
        return SM2C_OK;
    }
    /* y = x0 + x1, then y += x2, ...: y may alias an operand of its shape. */
    const char *k = sm2c_op_kernel(l->c, "add", y->dtype);
    sm2c_op_binary_step(l, n, k, n->inputs[0], n->inputs[1], yb, &y->shape);
    for (int32_t i = 2; i < n->n_inputs; i++) {
        sm2c_step *s = sm2c_op_binary_step(l, n, k, n->inputs[i], n->inputs[i], yb, &y->shape);
        s->args[0] = sm2c_arg_buf(yb);
    }
    return SM2C_OK;
}
