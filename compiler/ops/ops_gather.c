/*
** ops_gather.c: ops that index with data: GatherV2, ResourceGather,
** GatherNd, ScatterNd, OneHot, InvertPermutation, ReverseSequence, and the
** selections TopKV2 and MatrixBandPart.  Indices that arrive at run time are
** checked by the kernels themselves (checked steps: the entry point returns
** SM2C_RT_ERR_INDEX, docs/reliability.md section 6 rule 4); constant indices are
** checked here, at compile time (catalog N8).
*/
#include "ops_common.h"

/* Product of dims[from, to). */
static int64_t span(const sm2c_shape *s, int32_t from, int32_t to)
{
    int64_t p = 1;
    for (int32_t i = from; i < to; i++)
        p *= s->dims[i];
    return p;
}

/* The index kernel suffix: int32 and int64 indices only. */
static const char *index_suffix(sm2c_ctx *c, const sm2c_node *n, const sm2c_value *idx)
{
    if (idx->dtype == SM2C_DT_INT32)
        return "i32";
    if (idx->dtype == SM2C_DT_INT64)
        return "i64";
    sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "indices of type %s", sm2c_dtype_name(idx->dtype));
    return NULL;
}

/* Every constant index i (at position j % k of its tuple) in [0, bound[j % k]). */
static sm2c_status check_const_indices(sm2c_ctx *c, const sm2c_node *n, const sm2c_value *idx,
                                       int32_t k, const int64_t *bound)
{
    if (!idx->constant)
        return SM2C_OK;
    for (int64_t i = 0; i < idx->constant->nelem; i++) {
        int64_t v = sm2c_tensor_get_i64(idx->constant, i), hi = bound[k > 0 ? i % k : 0];
        if (v < 0 || v >= hi)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "constant index %lld (element %lld) is not in [0, %lld)",
                                 (long long)v, (long long)i, (long long)hi);
    }
    return SM2C_OK;
}

/* ---- GatherV2 and ResourceGather ------------------------------------------------------- */

/* params [batch..., outer..., axis, inner...] and indices [batch..., n...]. */
typedef struct gather {
    const sm2c_value *params, *idx;
    int32_t batch_dims, axis;
} gather;

/* ResourceGather reads a saved variable: a constant behind a resource handle. */
static const sm2c_value *variable_params(sm2c_ctx *c, const sm2c_node *n)
{
    const sm2c_value *h = n->inputs[0];
    if (h->dtype != SM2C_DT_RESOURCE || !h->constant) {
        sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "reads a resource that is not a saved variable");
        return NULL;
    }
    sm2c_value *v = sm2c_arena_alloc(c->arena, sizeof *v);
    v->id = -1;
    v->dtype = h->constant->dtype;
    v->shape = h->constant->shape;
    v->constant = h->constant;
    v->input = -1;
    v->name = h->name;
    return v;
}

static sm2c_status gather_of(sm2c_ctx *c, const sm2c_node *n, gather *g)
{
    int resource = strcmp(n->op->name, "ResourceGather") == 0;
    g->params = resource ? variable_params(c, n) : n->inputs[0];
    g->idx = n->inputs[1];
    if (!g->params)
        return SM2C_ERR_UNSUPPORTED;
    int64_t axis = 0, b = sm2c_attr_i(n, "batch_dims");
    int32_t pr = g->params->shape.rank, ir = g->idx->shape.rank;
    if (!resource) {
        const sm2c_tensor *t = sm2c_op_const_input(c, n, 2, "axis");
        if (!t)
            return SM2C_ERR_UNSUPPORTED;
        if (t->nelem != 1)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "axis must be a scalar");
        axis = sm2c_tensor_get_i64(t, 0);
    }
    b = b < 0 ? b + ir : b;
    if (!sm2c_op_axis(c, n, axis, pr, &g->axis))
        return SM2C_ERR_INVALID;    /* reported: one message per fault */
    if (b < 0 || b > ir || b > g->axis)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "batch_dims %lld does not fit axis %lld and index rank %d",
                             (long long)sm2c_attr_i(n, "batch_dims"), (long long)axis, ir);
    g->batch_dims = (int32_t)b;
    for (int32_t i = 0; i < g->batch_dims; i++)
        if (g->params->shape.dims[i] != g->idx->shape.dims[i])
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "batch dim %d differs between params and indices", i);
    if (pr - 1 + ir - g->batch_dims > SM2C_RT_MAX_RANK)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "the result has too many dims");
    return index_suffix(c, n, g->idx) ? SM2C_OK : SM2C_ERR_UNSUPPORTED;
}

sm2c_status shape_gather(sm2c_ctx *c, sm2c_node *n)
{
    gather g;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = gather_of(c, n, &g)))
        return st;
    const sm2c_shape *p = &g.params->shape, *x = &g.idx->shape;
    int64_t dims[SM2C_RT_MAX_RANK];
    int32_t r = 0;
    for (int32_t i = 0; i < g.axis; i++)
        dims[r++] = p->dims[i];
    for (int32_t i = g.batch_dims; i < x->rank; i++)
        dims[r++] = x->dims[i];
    for (int32_t i = g.axis + 1; i < p->rank; i++)
        dims[r++] = p->dims[i];
    sm2c_op_set(c, n, 0, g.params->dtype, r, dims);
    return check_const_indices(c, n, g.idx, 1, &p->dims[g.axis]);
}

sm2c_status lower_gather(sm2c_lower *l, const sm2c_node *n)
{
    gather g;
    sm2c_status st = gather_of(l->c, n, &g);
    if (st)
        return st;
    const sm2c_shape *p = &g.params->shape, *x = &g.idx->shape;
    int64_t shape[5] = { span(p, 0, g.batch_dims), span(p, g.batch_dims, g.axis), p->dims[g.axis],
                         span(p, g.axis + 1, p->rank), span(x, g.batch_dims, x->rank) };
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_gather_%s", index_suffix(l->c, n, g.idx));
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 5);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, g.params));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, g.idx));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[3] = sm2c_arg_ints(l, 5, shape);
    s->args[4] = sm2c_arg_int(sm2c_abi_elem_size(g.params->dtype));
    return SM2C_OK;
}

/* ---- GatherNd and ScatterNd ------------------------------------------------------------ */

/* Index depth k: the last dim of indices, at most the rank of `into`. */
static sm2c_status index_depth(sm2c_ctx *c, const sm2c_node *n, const sm2c_value *idx, int32_t into_rank,
                               int32_t *k)
{
    const sm2c_shape *x = &idx->shape;
    if (x->rank < 1 || x->dims[x->rank - 1] > into_rank)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "indices %s do not index rank %d",
                             sm2c_shape_str(c->arena, x), into_rank);
    *k = (int32_t)x->dims[x->rank - 1];
    return index_suffix(c, n, idx) ? SM2C_OK : SM2C_ERR_UNSUPPORTED;
}

sm2c_status shape_gather_nd(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_shape *p = &n->inputs[0]->shape, *x = &n->inputs[1]->shape;
    int32_t k = 0;
    if (st || (st = index_depth(c, n, n->inputs[1], p->rank, &k)))
        return st;
    int64_t dims[2 * SM2C_RT_MAX_RANK];
    int32_t r = 0;
    for (int32_t i = 0; i < x->rank - 1; i++)
        dims[r++] = x->dims[i];
    for (int32_t i = k; i < p->rank; i++)
        dims[r++] = p->dims[i];
    if (r > SM2C_RT_MAX_RANK)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "the result has too many dims");
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, r, dims);
    return check_const_indices(c, n, n->inputs[1], k, p->dims);
}

sm2c_status lower_gather_nd(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *params = n->inputs[0], *idx = n->inputs[1];
    int32_t k = 0;
    sm2c_status st = index_depth(l->c, n, idx, params->shape.rank, &k);
    if (st)
        return st;
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_gather_nd_%s", index_suffix(l->c, n, idx));
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 8);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, params));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, idx));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[3] = sm2c_arg_int(span(&idx->shape, 0, idx->shape.rank - 1));
    s->args[4] = sm2c_arg_int(k);
    s->args[5] = sm2c_arg_ints(l, k, params->shape.dims);
    s->args[6] = sm2c_arg_int(span(&params->shape, k, params->shape.rank));
    s->args[7] = sm2c_arg_int(sm2c_abi_elem_size(params->dtype));
    return SM2C_OK;
}

/* ScatterNd(indices, updates, shape): updates = indices.shape[:-1] + shape[k:]. */
sm2c_status shape_scatter_nd(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_tensor *t = st ? NULL : sm2c_op_const_input(c, n, 2, "shape");
    if (!t)
        return st ? st : SM2C_ERR_UNSUPPORTED;
    int64_t *dims = sm2c_op_ints(c, t);
    const sm2c_value *idx = n->inputs[0], *u = n->inputs[1];
    int32_t k = 0, rank = (int32_t)t->nelem;
    if (t->nelem > SM2C_RT_MAX_RANK || (st = index_depth(c, n, idx, rank, &k)))
        return st ? st : sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "shape has too many dims");
    int ok = u->shape.rank == idx->shape.rank - 1 + rank - k;
    for (int32_t i = 0; ok && i < u->shape.rank; i++)
        ok = u->shape.dims[i] == (i < idx->shape.rank - 1 ? idx->shape.dims[i] : dims[i - (idx->shape.rank - 1) + k]);
    for (int32_t i = 0; ok && i < rank; i++)
        ok = dims[i] >= 0;
    if (!ok)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "updates %s do not match indices %s into shape %s",
                             sm2c_shape_str(c->arena, &u->shape), sm2c_shape_str(c->arena, &idx->shape),
                             sm2c_shape_str(c->arena, &(sm2c_shape){ rank, dims }));
    if (u->dtype != SM2C_DT_FLOAT && u->dtype != SM2C_DT_DOUBLE && u->dtype != SM2C_DT_STRING &&
        !(sm2c_op_type_bit(u->dtype) & (SM2C_OPT_INTS | SM2C_OPT_BOOL)))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "ScatterNd of %s", sm2c_dtype_name(u->dtype));
    sm2c_op_set(c, n, 0, u->dtype, rank, dims);
    if (u->dtype == SM2C_DT_STRING && (st = sm2c_shape_string_concat(c, n)))
        return st;   /* repeated indices concatenate: a text buffer of the output's size */
    return check_const_indices(c, n, idx, k, dims);
}

sm2c_status lower_scatter_nd(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *idx = n->inputs[0], *u = n->inputs[1], *y = n->outputs[0];
    int32_t k = (int32_t)idx->shape.dims[idx->shape.rank - 1];
    int str = u->dtype == SM2C_DT_STRING;
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_scatter_nd_%s_%s",
                                           str ? "str" : sm2c_kernel_suffix(u->dtype), index_suffix(l->c, n, idx));
    sm2c_step *s = sm2c_lower_step(l, n, kernel, str ? 9 : 7);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, idx));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, u));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[3] = sm2c_arg_int(span(&idx->shape, 0, idx->shape.rank - 1));
    s->args[4] = sm2c_arg_int(k);
    s->args[5] = sm2c_arg_ints(l, k, y->shape.dims);
    s->args[6] = sm2c_arg_int(span(&y->shape, k, y->shape.rank));
    if (str)
        sm2c_lower_string_text(l, n, s, 7);
    return SM2C_OK;
}

/* ---- OneHot ---------------------------------------------------------------------------- */

/* OneHot(indices, depth, on_value, off_value), the new dim at `axis`. */
static sm2c_status one_hot_of(sm2c_ctx *c, const sm2c_node *n, int32_t *axis, int64_t *depth)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    const sm2c_tensor *d = sm2c_op_const_input(c, n, 1, "depth");
    if (!d)
        return SM2C_ERR_UNSUPPORTED;
    int64_t a = sm2c_attr_i(n, "axis");
    *depth = d->nelem == 1 ? sm2c_tensor_get_i64(d, 0) : -1;
    if (*depth < 0 || *depth > INT32_MAX)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "depth must be a scalar >= 0");
    if (a == -1)
        a = x->rank;
    if (a < 0 || a > x->rank || x->rank >= SM2C_RT_MAX_RANK)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "axis %lld does not fit indices of rank %d", (long long)a,
                             x->rank);
    if (n->inputs[2]->shape.rank != 0 || n->inputs[3]->shape.rank != 0 ||
        n->inputs[2]->dtype != n->inputs[3]->dtype)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "on_value and off_value must be scalars of one type");
    *axis = (int32_t)a;
    return index_suffix(c, n, n->inputs[0]) ? SM2C_OK : SM2C_ERR_UNSUPPORTED;
}

sm2c_status shape_one_hot(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int32_t axis;
    int64_t depth, dims[SM2C_RT_MAX_RANK];
    if (st || (st = one_hot_of(c, n, &axis, &depth)))
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    for (int32_t i = 0, k = 0; i <= x->rank; i++)
        dims[i] = i == axis ? depth : x->dims[k++];
    sm2c_op_set(c, n, 0, n->inputs[2]->dtype, x->rank + 1, dims);
    return SM2C_OK;
}

sm2c_status lower_one_hot(sm2c_lower *l, const sm2c_node *n)
{
    int32_t axis;
    int64_t depth;
    sm2c_status st = one_hot_of(l->c, n, &axis, &depth);
    if (st)
        return st;
    const sm2c_value *idx = n->inputs[0], *y = n->outputs[0];
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_one_hot_%s", index_suffix(l->c, n, idx));
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 8);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, idx));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[3]));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[4] = sm2c_arg_int(span(&idx->shape, 0, axis));
    s->args[5] = sm2c_arg_int(depth);
    s->args[6] = sm2c_arg_int(span(&idx->shape, axis, idx->shape.rank));
    s->args[7] = sm2c_arg_int(sm2c_abi_elem_size(y->dtype));
    return SM2C_OK;
}

/* ---- TopKV2 ------------------------------------------------------------------------------- */

static sm2c_status top_k_of(sm2c_ctx *c, const sm2c_node *n, int64_t *k)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    const sm2c_tensor *t = sm2c_op_const_input(c, n, 1, "k");
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    *k = t->nelem == 1 ? sm2c_tensor_get_i64(t, 0) : -1;
    if (x->rank < 1 || *k < 0 || *k > x->dims[x->rank - 1])
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "k must be a scalar in [0, last dim] of a rank >= 1 input");
    if (!sm2c_attr_flag(n, "sorted"))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "sorted=false (TensorFlow's order is unspecified)");
    const Tensorflow__AttrValue *it = sm2c_attr(n, "index_type");
    if (it && it->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE && (int)it->type != SM2C_DT_INT32)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "index_type other than int32");
    int dt = n->inputs[0]->dtype;
    if (dt != SM2C_DT_FLOAT && dt != SM2C_DT_DOUBLE && !(sm2c_op_type_bit(dt) & SM2C_OPT_INTS))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "TopKV2 of %s", sm2c_dtype_name(dt));
    return SM2C_OK;
}

sm2c_status shape_top_k(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t k, dims[SM2C_RT_MAX_RANK];
    if (st || (st = top_k_of(c, n, &k)))
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    memcpy(dims, x->dims, (size_t)x->rank * sizeof *dims);
    dims[x->rank - 1] = k;
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, x->rank, dims);
    sm2c_op_set(c, n, 1, SM2C_DT_INT32, x->rank, dims);
    return SM2C_OK;
}

sm2c_status lower_top_k(sm2c_lower *l, const sm2c_node *n)
{
    int64_t k;
    sm2c_status st = top_k_of(l->c, n, &k);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "top_k", x->dtype), 6);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[1]));
    s->args[3] = sm2c_arg_int(span(&x->shape, 0, x->shape.rank - 1));
    s->args[4] = sm2c_arg_int(x->shape.dims[x->shape.rank - 1]);
    s->args[5] = sm2c_arg_int(k);
    return SM2C_OK;
}

/* ---- MatrixBandPart ----------------------------------------------------------------------- */

static sm2c_status band_of(sm2c_ctx *c, const sm2c_node *n, int64_t *lower, int64_t *upper)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    const sm2c_tensor *lo = sm2c_op_const_input(c, n, 1, "num_lower");
    const sm2c_tensor *hi = lo ? sm2c_op_const_input(c, n, 2, "num_upper") : NULL;
    if (!hi)
        return SM2C_ERR_UNSUPPORTED;
    if (x->rank < 2 || lo->nelem != 1 || hi->nelem != 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "needs a matrix and scalar num_lower, num_upper");
    *lower = sm2c_tensor_get_i64(lo, 0), *upper = sm2c_tensor_get_i64(hi, 0);
    if (*lower > x->dims[x->rank - 2] || *upper > x->dims[x->rank - 1])
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "num_lower %lld or num_upper %lld exceeds the matrix",
                             (long long)*lower, (long long)*upper);
    return SM2C_OK;
}

sm2c_status shape_band_part(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t lo = 0, hi = 0;
    if (st || (st = band_of(c, n, &lo, &hi)))
        return st;
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, n->inputs[0]->shape.rank, n->inputs[0]->shape.dims);
    return SM2C_OK;
}

sm2c_status lower_band_part(sm2c_lower *l, const sm2c_node *n)
{
    int64_t lo = 0, hi = 0;
    sm2c_status st = band_of(l->c, n, &lo, &hi);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    int32_t r = x->shape.rank;
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_band_part", 8);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_int(span(&x->shape, 0, r - 2));
    s->args[3] = sm2c_arg_int(x->shape.dims[r - 2]);
    s->args[4] = sm2c_arg_int(x->shape.dims[r - 1]);
    s->args[5] = sm2c_arg_int(lo < 0 ? -1 : lo);
    s->args[6] = sm2c_arg_int(hi < 0 ? -1 : hi);
    s->args[7] = sm2c_arg_int(sm2c_abi_elem_size(x->dtype));
    return SM2C_OK;
}

/* ---- InvertPermutation, ReverseSequence ---------------------------------------------------- */

sm2c_status shape_invert_permutation(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_value *x = n->inputs[0];
    if (st)
        return st;
    if (x->shape.rank != 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "needs a vector");
    if (!index_suffix(c, n, x))
        return SM2C_ERR_UNSUPPORTED;
    sm2c_op_set(c, n, 0, x->dtype, 1, x->shape.dims);
    return SM2C_OK;
}

sm2c_status lower_invert_permutation(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_invert_permutation_%s",
                                           index_suffix(l->c, n, x));
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 3);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_int(x->shape.dims[0]);
    return SM2C_OK;
}

/* The input as [p0, p1, p2, p3, p4] with batch and sequence dims at 1 and 3. */
static sm2c_status reverse_sequence_of(sm2c_ctx *c, const sm2c_node *n, int64_t *p)
{
    const sm2c_shape *x = &n->inputs[0]->shape, *lens = &n->inputs[1]->shape;
    int32_t bd, sd;
    if (!sm2c_op_axis(c, n, sm2c_attr_i(n, "batch_dim"), x->rank, &bd) ||
        !sm2c_op_axis(c, n, sm2c_attr_i(n, "seq_dim"), x->rank, &sd))
        return SM2C_ERR_INVALID;
    if (bd == sd || lens->rank != 1 || lens->dims[0] != x->dims[bd])
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "needs distinct batch and sequence dims and one length per batch");
    int32_t lo = bd < sd ? bd : sd, hi = bd < sd ? sd : bd;
    int64_t v[6] = { span(x, 0, lo), x->dims[lo], span(x, lo + 1, hi), x->dims[hi], span(x, hi + 1, x->rank),
                     sd < bd };
    memcpy(p, v, sizeof v);
    return index_suffix(c, n, n->inputs[1]) ? SM2C_OK : SM2C_ERR_UNSUPPORTED;
}

sm2c_status shape_reverse_sequence(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t p[6];
    if (st || (st = reverse_sequence_of(c, n, p)))
        return st;
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, n->inputs[0]->shape.rank, n->inputs[0]->shape.dims);
    return SM2C_OK;
}

sm2c_status lower_reverse_sequence(sm2c_lower *l, const sm2c_node *n)
{
    int64_t p[6];
    sm2c_status st = reverse_sequence_of(l->c, n, p);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_reverse_sequence_%s",
                                           index_suffix(l->c, n, n->inputs[1]));
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 5);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[3] = sm2c_arg_ints(l, 6, p);
    s->args[4] = sm2c_arg_int(sm2c_abi_elem_size(x->dtype));
    return SM2C_OK;
}
