/*
** ops_common.c: helpers for the op hooks.
*/
#include "ops_common.h"

#include <stdarg.h>
#include <stdio.h>

sm2c_status sm2c_op_error(sm2c_ctx *c, const sm2c_node *n, sm2c_status kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sm2c_status st = sm2c_verror(c->diag, kind, n->file, sm2c_node_where(c, n), fmt, ap);
    va_end(ap);
    return st;
}

const sm2c_tensor *sm2c_op_const_input(sm2c_ctx *c, const sm2c_node *n, int32_t i, const char *what)
{
    if (i >= n->n_inputs) {
        sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects an input %d (%s)", i, what);
        return NULL;
    }
    const sm2c_tensor *t = n->inputs[i]->constant;
    if (!t)
        sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                      "input %d (%s) must be known at compile time", i, what);
    return t;
}

int64_t *sm2c_op_ints(sm2c_ctx *c, const sm2c_tensor *t)
{
    int64_t *v = sm2c_arena_array(c->arena, t->nelem > 0 ? (size_t)t->nelem : 1, sizeof *v);
    for (int64_t i = 0; i < t->nelem; i++)
        v[i] = sm2c_tensor_get_i64(t, i);
    return v;
}

sm2c_tensor *sm2c_op_int_tensor(sm2c_ctx *c, int dtype, int32_t rank, const int64_t *vals, int64_t n)
{
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    t->dtype = dtype;
    t->shape = sm2c_shape_make(c, rank, &n);
    t->nelem = n;
    t->nbytes = (size_t)n * sm2c_dtype_size(dtype);
    t->data = sm2c_arena_alloc(c->arena, t->nbytes + 1);
    for (int64_t i = 0; i < n; i++) {
        if (dtype == SM2C_DT_INT64)
            ((int64_t *)t->data)[i] = vals[i];
        else
            ((int32_t *)t->data)[i] = (int32_t)vals[i];
    }
    return t;
}

void sm2c_op_set(sm2c_ctx *c, sm2c_node *n, int32_t k, int dtype, int32_t rank, const int64_t *dims)
{
    n->outputs[k]->dtype = sm2c_dtype_base(dtype);
    n->outputs[k]->shape = sm2c_shape_make(c, rank, dims);
}

int sm2c_op_axis(sm2c_ctx *c, const sm2c_node *n, int64_t axis, int32_t rank, int32_t *out)
{
    if (axis < -(int64_t)rank || axis >= rank) {
        sm2c_op_error(c, n, SM2C_ERR_INVALID, "axis %lld is out of range for rank %d",
                      (long long)axis, rank);
        return 0;
    }
    *out = (int32_t)(axis < 0 ? axis + rank : axis);
    return 1;
}

void sm2c_op_strides(const sm2c_shape *s, int64_t *strides)
{
    int64_t st = 1;
    for (int32_t i = s->rank - 1; i >= 0; i--) {
        strides[i] = st;
        st *= s->dims[i];
    }
}

sm2c_status sm2c_op_need_shapes(sm2c_ctx *c, const sm2c_node *n)
{
    for (int32_t i = 0; i < n->n_inputs; i++) {
        const sm2c_value *v = n->inputs[i];
        if (v->shape.rank < 0 || sm2c_value_elements(v) < 0)
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                                 "input %d has no static shape", i);
        if (v->shape.rank > SM2C_RT_MAX_RANK)
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "input %d has rank %d; the runtime "
                                 "handles up to %d", i, v->shape.rank, SM2C_RT_MAX_RANK);
    }
    return SM2C_OK;
}

const char *sm2c_op_kernel(sm2c_ctx *c, const char *op, int dtype)
{
    const char *sfx = sm2c_kernel_suffix(dtype);
    return sfx ? sm2c_arena_printf(c->arena, "sm2c_rt_%s_%s", op, sfx) : NULL;
}

void sm2c_op_copy(sm2c_lower *l, const sm2c_node *n, int32_t src, int64_t src_off,
                  const int64_t *src_strides, int32_t dst, int64_t dst_off,
                  const int64_t *dst_strides, int32_t rank, const int64_t *dims, int dtype)
{
    static const int64_t one = 1;
    if (rank == 0) {
        rank = 1;
        dims = src_strides = dst_strides = &one;
    }
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_copy_strided", 9);
    s->args[0] = sm2c_arg_buf(src);
    s->args[1] = sm2c_arg_int(src_off);
    s->args[2] = sm2c_arg_ints(l, rank, src_strides);
    s->args[3] = sm2c_arg_buf(dst);
    s->args[4] = sm2c_arg_int(dst_off);
    s->args[5] = sm2c_arg_ints(l, rank, dst_strides);
    s->args[6] = sm2c_arg_int(rank);
    s->args[7] = sm2c_arg_ints(l, rank, dims);
    s->args[8] = sm2c_arg_int(sm2c_abi_elem_size(dtype));  /* strings: 16-byte sm2c_string elements */
}

/* The value 1 of dtype, in host byte order, into zeroed memory. */
static void set_one(void *dst, int dtype)
{
    float f = 1.0f;
    double d = 1.0;
    uint16_t h = 0x3c00, bf = 0x3f80;
    int16_t i16 = 1;
    int32_t i32 = 1;
    int64_t i64 = 1;
    uint8_t b = 1;
    const void *src = &b;
    switch (dtype) {
    case SM2C_DT_FLOAT: src = &f; break;
    case SM2C_DT_DOUBLE: src = &d; break;
    case SM2C_DT_HALF: src = &h; break;
    case SM2C_DT_BFLOAT16: src = &bf; break;
    default:
        switch (sm2c_dtype_size(dtype)) {
        case 2: src = &i16; break;
        case 4: src = &i32; break;
        case 8: src = &i64; break;
        }
    }
    memcpy(dst, src, sm2c_dtype_size(dtype));
}

sm2c_value *sm2c_op_scalar(sm2c_lower *l, int dtype, int value)
{
    sm2c_tensor *t = sm2c_arena_alloc(l->c->arena, sizeof *t);
    t->dtype = dtype;
    t->shape.rank = 0;
    t->shape.dims = NULL;
    t->nelem = 1;
    t->nbytes = sm2c_dtype_size(dtype);
    t->data = sm2c_arena_alloc(l->c->arena, t->nbytes + 1);
    memset(t->data, 0, t->nbytes + 1);
    if (dtype == SM2C_DT_STRING)    /* the empty string (no "one" of strings) */
        t->strings = sm2c_arena_array(l->c->arena, 1, sizeof *t->strings);
    else if (value)
        set_one(t->data, dtype);
    return sm2c_op_constant(l, t, value ? "one" : "zero");
}

sm2c_value *sm2c_op_constant(sm2c_lower *l, sm2c_tensor *t, const char *name)
{
    sm2c_value *v = sm2c_arena_alloc(l->c->arena, sizeof *v);
    v->id = -1;
    v->dtype = t->dtype;
    v->shape = t->shape;
    v->constant = t;
    v->input = -1;
    v->name = name;
    return v;
}

sm2c_tensor *sm2c_op_vector(sm2c_lower *l, int dtype, int64_t n)
{
    sm2c_tensor *t = sm2c_arena_alloc(l->c->arena, sizeof *t);
    t->dtype = dtype;
    t->shape = sm2c_shape_make(l->c, 1, &n);
    t->nelem = n;
    t->nbytes = (size_t)n * sm2c_dtype_size(dtype);
    t->data = sm2c_arena_alloc(l->c->arena, t->nbytes + 8);
    memset(t->data, 0, t->nbytes + 8);
    return t;
}

/* ---- logic family ---- */
unsigned sm2c_op_type_bit(int dtype)
{
    switch (sm2c_dtype_base(dtype)) {
    case SM2C_DT_FLOAT: return SM2C_OPT_F32;
    case SM2C_DT_DOUBLE: return SM2C_OPT_F64;
    case SM2C_DT_INT32: return SM2C_OPT_I32;
    case SM2C_DT_INT64: return SM2C_OPT_I64;
    case SM2C_DT_BOOL: return SM2C_OPT_BOOL;
    case SM2C_DT_INT8: return SM2C_OPT_I8;
    case SM2C_DT_INT16: return SM2C_OPT_I16;
    case SM2C_DT_UINT8: return SM2C_OPT_U8;
    case SM2C_DT_UINT16: return SM2C_OPT_U16;
    case SM2C_DT_UINT32: return SM2C_OPT_U32;
    case SM2C_DT_UINT64: return SM2C_OPT_U64;
    default: return 0;
    }
}
