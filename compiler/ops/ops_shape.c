/*
** ops_shape.c: shape ops and data movement.  Reshape, Squeeze and ExpandDims
** are aliases; everything that moves data becomes sm2c_rt_copy_strided steps.
*/
#include "ops_common.h"
#include "ops_dyn.h"

/* When the input is constant, so is the output of an alias op: same data. */
static void alias_constant(sm2c_ctx *c, sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    sm2c_value *y = n->outputs[0];
    if (!x->constant)
        return;
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    *t = *x->constant;
    t->shape = y->shape;
    y->constant = t;
}

/* ---- Reshape, Squeeze, ExpandDims ----------------------------------------------- */

sm2c_status shape_reshape(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_tensor *t = st ? NULL : sm2c_op_const_input(c, n, 1, "shape");
    if (!t)
        return st ? st : SM2C_ERR_UNSUPPORTED;
    int64_t *dims = sm2c_op_ints(c, t), total = sm2c_value_elements(n->inputs[0]);
    if (t->nelem > SM2C_RT_MAX_RANK)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "rank %lld is too large", (long long)t->nelem);
    for (int32_t i = 0; i < (int32_t)t->nelem; i++)
        if (dims[i] < -1)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "shape has a bad dim %lld", (long long)dims[i]);
    if (sm2c_reshape_infer(total, (int32_t)t->nelem, dims))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "cannot reshape %s (%lld elements) to %s",
                             sm2c_shape_str(c->arena, &n->inputs[0]->shape), (long long)total,
                             sm2c_shape_str(c->arena, &(sm2c_shape){ (int32_t)t->nelem, dims }));
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, (int32_t)t->nelem, dims);
    alias_constant(c, n);
    return SM2C_OK;
}

sm2c_status shape_squeeze(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    const int64_t *axes = NULL;
    size_t n_axes = 0;
    if (!sm2c_attr_ints(n, "squeeze_dims", &axes, &n_axes))
        sm2c_attr_ints(n, "axis", &axes, &n_axes);
    unsigned char drop[SM2C_RT_MAX_RANK] = { 0 };
    for (size_t i = 0; i < n_axes; i++) {
        int32_t a;
        if (!sm2c_op_axis(c, n, axes[i], x->rank, &a))
            return SM2C_ERR_INVALID;
        if (x->dims[a] != 1)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "cannot squeeze dim %d of size %lld", a,
                                 (long long)x->dims[a]);
        drop[a] = 1;
    }
    int64_t dims[SM2C_RT_MAX_RANK];
    int32_t r = 0;
    for (int32_t i = 0; i < x->rank; i++)
        if (!(n_axes ? drop[i] : x->dims[i] == 1))
            dims[r++] = x->dims[i];
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, r, dims);
    alias_constant(c, n);
    return SM2C_OK;
}

sm2c_status shape_expand_dims(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_tensor *t = st ? NULL : sm2c_op_const_input(c, n, 1, "axis");
    if (!t)
        return st ? st : SM2C_ERR_UNSUPPORTED;
    const sm2c_shape *x = &n->inputs[0]->shape;
    int32_t a;
    if (t->nelem != 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "axis has %lld values, not one", (long long)t->nelem);
    if (x->rank >= SM2C_RT_MAX_RANK)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "the result's rank %d is over %d", x->rank + 1,
                             SM2C_RT_MAX_RANK);
    if (!sm2c_op_axis(c, n, sm2c_tensor_get_i64(t, 0), x->rank + 1, &a))
        return SM2C_ERR_INVALID;    /* reported: one message per fault */
    int64_t dims[SM2C_RT_MAX_RANK];
    for (int32_t i = 0, k = 0; i <= x->rank; i++)
        dims[i] = i == a ? 1 : x->dims[k++];
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, x->rank + 1, dims);
    alias_constant(c, n);
    return SM2C_OK;
}

sm2c_status lower_alias(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_lower_alias(l, n->outputs[0], n->inputs[0]);
    return SM2C_OK;
}

/* Ops fully evaluated at compile time never reach lowering. */
sm2c_status lower_never(sm2c_lower *l, const sm2c_node *n)
{
    return sm2c_lower_unsupported(l, n, "should have been folded");
}

/* ---- Shape, Size, Rank: constants once shapes are static ---------------------------- */

sm2c_status shape_shape(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    const Tensorflow__AttrValue *ot = sm2c_attr(n, "out_type");
    int dt = ot && ot->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? (int)ot->type : SM2C_DT_INT32;
    int is_shape = strcmp(n->op->name, "Shape") == 0;
    int64_t len = x->rank;
    sm2c_op_set(c, n, 0, dt, is_shape ? 1 : 0, &len);
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    t->dtype = sm2c_dtype_base(dt);
    t->shape = n->outputs[0]->shape;
    t->nelem = is_shape ? x->rank : 1;
    t->nbytes = (size_t)t->nelem * sm2c_dtype_size(dt);
    t->data = sm2c_arena_alloc(c->arena, t->nbytes + 1);
    for (int64_t i = 0; i < t->nelem; i++) {
        int64_t v = is_shape ? x->dims[i]
                  : strcmp(n->op->name, "Size") == 0 ? sm2c_value_elements(n->inputs[0]) : x->rank;
        if (t->dtype == SM2C_DT_INT64)
            ((int64_t *)t->data)[i] = v;
        else
            ((int32_t *)t->data)[i] = (int32_t)v;
    }
    n->outputs[0]->constant = t;
    return SM2C_OK;
}

/* ---- Transpose ---------------------------------------------------------------------- */

sm2c_status shape_transpose(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_tensor *t = st ? NULL : sm2c_op_const_input(c, n, 1, "perm");
    if (!t)
        return st ? st : SM2C_ERR_UNSUPPORTED;
    const sm2c_shape *x = &n->inputs[0]->shape;
    int64_t *perm = sm2c_op_ints(c, t), dims[SM2C_RT_MAX_RANK];
    unsigned char seen[SM2C_RT_MAX_RANK] = { 0 };
    if (t->nelem != x->rank)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "perm has %lld entries for rank %d",
                             (long long)t->nelem, x->rank);
    for (int32_t i = 0; i < x->rank; i++) {
        if (perm[i] < 0 || perm[i] >= x->rank || seen[perm[i]]++)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "perm is not a permutation");
        dims[i] = x->dims[perm[i]];
    }
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, x->rank, dims);
    return SM2C_OK;
}

/* Whether transposing x by perm moves no element: the dims larger than 1
** keep their order (Keras's Tensordot transposes by the identity). */
static int moves_nothing(const sm2c_shape *x, const int64_t *perm)
{
    int64_t last = -1;
    for (int32_t i = 0; i < x->rank; i++) {
        if (x->dims[perm[i]] == 1)
            continue;
        if (perm[i] < last)
            return 0;
        last = perm[i];
    }
    return 1;
}

sm2c_status lower_transpose(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    int64_t *perm = sm2c_op_ints(l->c, n->inputs[1]->constant);
    int64_t xs[SM2C_RT_MAX_RANK], ys[SM2C_RT_MAX_RANK], src[SM2C_RT_MAX_RANK];
    if (moves_nothing(&x->shape, perm)) {     /* the same bytes: y is x */
        sm2c_lower_alias(l, y, x);
        return SM2C_OK;
    }
    sm2c_op_strides(&x->shape, xs);
    sm2c_op_strides(&y->shape, ys);
    for (int32_t i = 0; i < y->shape.rank; i++)
        src[i] = xs[perm[i]];
    sm2c_op_copy(l, n, sm2c_lower_buf(l, x), 0, src, sm2c_lower_buf(l, y), 0, ys, y->shape.rank,
                 y->shape.dims, y->dtype);
    return SM2C_OK;
}

/* ---- ConcatV2 and Pack ---------------------------------------------------------------- */

/* The inputs joined, and where: ConcatV2 has the axis as its last input. */
static sm2c_status join_axis(sm2c_ctx *c, const sm2c_node *n, int32_t *n_parts, int32_t *axis,
                             int *pack)
{
    *pack = strcmp(n->op->name, "Pack") == 0;
    *n_parts = *pack ? n->n_inputs : n->n_inputs - 1;
    if (*n_parts < 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "has nothing to join");
    int32_t rank = n->inputs[0]->shape.rank + (*pack ? 1 : 0);
    int64_t a;
    if (*pack) {
        a = sm2c_attr_i(n, "axis");
    } else {
        const sm2c_tensor *t = sm2c_op_const_input(c, n, n->n_inputs - 1, "axis");
        if (!t || t->nelem != 1)
            return t ? sm2c_op_error(c, n, SM2C_ERR_INVALID, "axis must be a scalar") : SM2C_ERR_UNSUPPORTED;
        a = sm2c_tensor_get_i64(t, 0);
    }
    return sm2c_op_axis(c, n, a, rank, axis) ? SM2C_OK : SM2C_ERR_INVALID;
}

sm2c_status shape_concat(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int32_t parts, axis;
    int pack;
    if (st || (st = join_axis(c, n, &parts, &axis, &pack)))
        return st;
    const sm2c_shape *x0 = &n->inputs[0]->shape;
    int64_t dims[SM2C_RT_MAX_RANK];
    for (int32_t i = 0; i < x0->rank; i++)
        dims[i] = x0->dims[i];
    dims[axis] = 0;
    for (int32_t p = 0; p < parts; p++) {
        const sm2c_shape *x = &n->inputs[p]->shape;
        int ok = x->rank == x0->rank && n->inputs[p]->dtype == n->inputs[0]->dtype;
        for (int32_t i = 0; ok && i < x->rank; i++)
            ok = i == axis || x->dims[i] == x0->dims[i];
        if (!ok)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input %d has shape %s, unlike input 0 %s",
                                 p, sm2c_shape_str(c->arena, x), sm2c_shape_str(c->arena, x0));
        dims[axis] += x->dims[axis];
    }
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, x0->rank, dims);
    return SM2C_OK;
}

sm2c_status shape_pack(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int32_t parts, axis;
    int pack;
    if (st || (st = join_axis(c, n, &parts, &axis, &pack)))
        return st;
    const sm2c_shape *x0 = &n->inputs[0]->shape;
    if (x0->rank + 1 > SM2C_RT_MAX_RANK)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "rank too large");
    for (int32_t p = 1; p < parts; p++)
        if (!sm2c_shape_equal(&n->inputs[p]->shape, x0) || n->inputs[p]->dtype != n->inputs[0]->dtype)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "inputs differ in shape or dtype");
    int64_t dims[SM2C_RT_MAX_RANK];
    for (int32_t i = 0, k = 0; i <= x0->rank; i++)
        dims[i] = i == axis ? parts : x0->dims[k++];
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, x0->rank + 1, dims);
    return SM2C_OK;
}

/* Each part is copied into its slab of the output along the axis. */
sm2c_status lower_concat(sm2c_lower *l, const sm2c_node *n)
{
    int32_t parts, axis;
    int pack;
    sm2c_status st = join_axis(l->c, n, &parts, &axis, &pack);
    if (st)
        return st;
    const sm2c_value *y = n->outputs[0];
    int64_t ys[SM2C_RT_MAX_RANK], offset = 0;
    sm2c_op_strides(&y->shape, ys);
    int32_t yb = sm2c_lower_buf(l, y);
    for (int32_t p = 0; p < parts; p++) {
        const sm2c_value *x = n->inputs[p];
        int64_t dims[SM2C_RT_MAX_RANK], xs[SM2C_RT_MAX_RANK], own[SM2C_RT_MAX_RANK];
        sm2c_op_strides(&x->shape, own);
        for (int32_t i = 0, k = 0; i < y->shape.rank; i++) {
            if (pack && i == axis) {
                dims[i] = 1, xs[i] = 0;
                continue;
            }
            dims[i] = x->shape.dims[k];
            xs[i] = own[k++];
        }
        if (sm2c_value_elements(x) > 0)
            sm2c_op_copy(l, n, sm2c_lower_buf(l, x), 0, xs, yb, offset * ys[axis], ys,
                         y->shape.rank, dims, y->dtype);
        offset += dims[axis];
    }
    return SM2C_OK;
}

/* ---- Slice and StridedSlice --------------------------------------------------------- */

/* A slice as the copy sees it: per input dim, begin, step and size; `keep`
** marks dims that stay in the output (shrunk ones do not). */
typedef struct slicing {
    int64_t begin[SM2C_RT_MAX_RANK], step[SM2C_RT_MAX_RANK], size[SM2C_RT_MAX_RANK];
    unsigned char keep[SM2C_RT_MAX_RANK];
    int32_t out_pos[SM2C_RT_MAX_RANK];  /* a kept dim's position in the output */
    int32_t out_rank;
    int64_t out_dims[SM2C_RT_MAX_RANK];
} slicing;

static sm2c_status plain_slice(sm2c_ctx *c, const sm2c_node *n, slicing *s)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    const sm2c_tensor *b = sm2c_op_const_input(c, n, 1, "begin"), *z = b ? sm2c_op_const_input(c, n, 2, "size") : NULL;
    if (!b || !z)
        return SM2C_ERR_UNSUPPORTED;
    if (b->nelem != x->rank || z->nelem != x->rank)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "begin and size need %d entries", x->rank);
    s->out_rank = x->rank;
    for (int32_t i = 0; i < x->rank; i++) {
        int64_t bi = sm2c_tensor_get_i64(b, i), zi = sm2c_tensor_get_i64(z, i);
        if (sm2c_slice_dim(x->dims[i], bi, zi, &zi))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "slice [%lld, +%lld) is outside dim %d of size %lld",
                                 (long long)bi, (long long)zi, i, (long long)x->dims[i]);
        s->begin[i] = bi, s->step[i] = 1, s->size[i] = zi, s->keep[i] = 1;
        s->out_dims[i] = zi;
        s->out_pos[i] = i;
    }
    return SM2C_OK;
}

static sm2c_status strided_slice(sm2c_ctx *c, const sm2c_node *n, slicing *s)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    const sm2c_tensor *tb = sm2c_op_const_input(c, n, 1, "begin");
    const sm2c_tensor *te = tb ? sm2c_op_const_input(c, n, 2, "end") : NULL;
    const sm2c_tensor *ts = te ? sm2c_op_const_input(c, n, 3, "strides") : NULL;
    if (!ts)
        return SM2C_ERR_UNSUPPORTED;
    int64_t len = tb->nelem;
    if (te->nelem != len || ts->nelem != len || len > 32)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "begin, end and strides differ in length");
    int64_t bmask = sm2c_attr_i(n, "begin_mask"), emask = sm2c_attr_i(n, "end_mask");
    int64_t ell = sm2c_attr_i(n, "ellipsis_mask"), newax = sm2c_attr_i(n, "new_axis_mask");
    int64_t shrink = sm2c_attr_i(n, "shrink_axis_mask");
    int32_t full = 0, after_ellipsis_new = 0, seen_ell = 0;
    for (int64_t i = 0; i < len; i++) {
        if ((ell >> i) & 1)
            seen_ell = 1;
        else if (seen_ell && ((newax >> i) & 1))
            after_ellipsis_new++;
    }
    if (!seen_ell)
        ell |= (int64_t)1 << len, len++;  /* an implicit ellipsis at the end */
    s->out_rank = 0;
    for (int64_t i = 0; i < len; i++) {
        if ((ell >> i) & 1) {
            int32_t next = x->rank - (int32_t)(len - 1 - i) + after_ellipsis_new;
            if (next > x->rank)
                next = x->rank;
            for (; full < next; full++) {
                s->begin[full] = 0, s->step[full] = 1, s->size[full] = x->dims[full], s->keep[full] = 1;
                s->out_pos[full] = s->out_rank;
                s->out_dims[s->out_rank++] = x->dims[full];
            }
            continue;
        }
        if ((newax >> i) & 1) {
            if (s->out_rank >= SM2C_RT_MAX_RANK)
                return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "rank too large");
            s->out_dims[s->out_rank++] = 1;
            continue;
        }
        if (full >= x->rank)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "indexes more dims than the input has");
        int64_t b = sm2c_tensor_get_i64(tb, i), e = sm2c_tensor_get_i64(te, i), st = sm2c_tensor_get_i64(ts, i);
        int64_t dim = x->dims[full];
        if (st == 0)    /* TensorFlow checks every dense dim's stride, shrunk ones too */
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "strides[%lld] is 0 (must be non-zero)", (long long)i);
        if ((shrink >> i) & 1) {
            int64_t k = b < 0 ? b + dim : b;
            if (k < 0 || k >= dim)
                return sm2c_op_error(c, n, SM2C_ERR_INVALID, "index %lld is out of range for dim %d of size %lld",
                                     (long long)b, full, (long long)dim);
            s->begin[full] = k, s->step[full] = 1, s->size[full] = 1, s->keep[full] = 0;
            full++;
            continue;
        }
        sm2c_strided_dim(dim, b, e, st, (bmask >> i) & 1, (emask >> i) & 1, &s->begin[full],
                         &s->size[full]);
        s->step[full] = st, s->keep[full] = 1;
        s->out_pos[full] = s->out_rank;
        s->out_dims[s->out_rank++] = s->size[full];
        full++;
    }
    return SM2C_OK;
}

static sm2c_status slicing_of(sm2c_ctx *c, const sm2c_node *n, slicing *s)
{
    memset(s, 0, sizeof *s);
    return strcmp(n->op->name, "Slice") == 0 ? plain_slice(c, n, s) : strided_slice(c, n, s);
}

/* A slice of a run-time vector within a bound (a sparse feature's
** dense_shape, sm2c_value.bound): elements other than bound_dim are known
** exactly, so a slice of them only is a constant (tf.Transform's
** [dense_shape[0], 1]); one keeping bound_dim keeps the bound. */
static void slice_bound(sm2c_ctx *c, sm2c_node *n, const slicing *s)
{
    const sm2c_value *x = n->inputs[0];
    sm2c_value *y = n->outputs[0];
    if (x->constant || !x->bound || x->shape.rank != 1 || s->out_rank > 1 ||
        (x->dtype != SM2C_DT_INT32 && x->dtype != SM2C_DT_INT64))
        return;
    int64_t k = s->keep[0] ? s->size[0] : 1, *vals = sm2c_arena_array(c->arena, (size_t)k + 1, sizeof *vals);
    int32_t at = -1;
    for (int64_t i = 0; i < k; i++) {
        int64_t e = s->begin[0] + i * s->step[0];
        vals[i] = x->bound[e];
        if (e == x->bound_dim)
            at = (int32_t)i;
    }
    if (at < 0) {
        y->constant = sm2c_op_int_tensor(c, x->dtype, s->out_rank, vals, k);
    } else if (s->out_rank == 1) {
        y->bound = vals;
        y->bound_dim = at;
    }
}

static sm2c_status shape_any_slice(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    slicing s;
    if (st || (st = slicing_of(c, n, &s)))
        return st;
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, s.out_rank, s.out_dims);
    slice_bound(c, n, &s);
    return SM2C_OK;
}

sm2c_status shape_slice(sm2c_ctx *c, sm2c_node *n) { return shape_any_slice(c, n); }
sm2c_status shape_strided_slice(sm2c_ctx *c, sm2c_node *n)
{
    return sm2c_dyn_slice(n) ? sm2c_shape_dyn_slice(c, n) : shape_any_slice(c, n);
}

int32_t sm2c_slice_keeps_dim(sm2c_ctx *c, const sm2c_node *n, int32_t dim)
{
    slicing s;
    if (sm2c_dyn_slice(n) || slicing_of(c, n, &s) || !s.keep[dim] || s.begin[dim] != 0 || s.step[dim] != 1 ||
        s.size[dim] != n->inputs[0]->shape.dims[dim])
        return -1;
    return s.out_pos[dim];
}

sm2c_status lower_slice(sm2c_lower *l, const sm2c_node *n)
{
    if (sm2c_dyn_slice(n))
        return sm2c_lower_dyn_slice(l, n);
    slicing s;
    sm2c_status st = slicing_of(l->c, n, &s);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    int64_t xs[SM2C_RT_MAX_RANK], src[SM2C_RT_MAX_RANK], dst[SM2C_RT_MAX_RANK], dims[SM2C_RT_MAX_RANK];
    sm2c_op_strides(&x->shape, xs);
    int64_t off = 0, stride = 1;
    int32_t r = 0;
    for (int32_t i = 0; i < x->shape.rank; i++) {
        off += s.begin[i] * xs[i];
        if (s.keep[i]) {
            src[r] = s.step[i] * xs[i];
            dims[r++] = s.size[i];
        }
    }
    for (int32_t i = r - 1; i >= 0; i--) {
        dst[i] = stride;
        stride *= dims[i];
    }
    if (sm2c_value_elements(y) > 0)
        sm2c_op_copy(l, n, sm2c_lower_buf(l, x), off, src, sm2c_lower_buf(l, y), 0, dst, r, dims, y->dtype);
    else
        sm2c_lower_buf(l, y);
    return SM2C_OK;
}

/* ---- Pad, PadV2, Fill, ZerosLike, OnesLike ---------------------------------------- */

sm2c_status shape_pad(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_tensor *p = st ? NULL : sm2c_op_const_input(c, n, 1, "paddings");
    if (!p)
        return st ? st : SM2C_ERR_UNSUPPORTED;
    const sm2c_shape *x = &n->inputs[0]->shape;
    if (p->nelem != 2 * (int64_t)x->rank)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "paddings must be [%d, 2]", x->rank);
    int64_t dims[SM2C_RT_MAX_RANK];
    for (int32_t i = 0; i < x->rank; i++) {
        int64_t a = sm2c_tensor_get_i64(p, 2 * i), b = sm2c_tensor_get_i64(p, 2 * i + 1);
        if (a < 0 || b < 0)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "negative padding");
        dims[i] = x->dims[i] + a + b;
    }
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, x->rank, dims);
    return SM2C_OK;
}

static void fill_step(sm2c_lower *l, const sm2c_node *n, int32_t y, int32_t value, int dtype, int64_t count)
{
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_fill", 4);
    s->args[0] = sm2c_arg_buf(y);
    s->args[1] = sm2c_arg_buf(value);
    s->args[2] = sm2c_arg_int(sm2c_abi_elem_size(dtype));
    s->args[3] = sm2c_arg_int(count);
}

sm2c_status lower_pad(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    const sm2c_tensor *p = n->inputs[1]->constant;
    int32_t yb = sm2c_lower_buf(l, y);
    int32_t vb = n->n_inputs > 2 ? sm2c_lower_buf(l, n->inputs[2]) : sm2c_lower_buf(l, sm2c_op_scalar(l, y->dtype, 0));
    fill_step(l, n, yb, vb, y->dtype, sm2c_value_elements(y));
    int64_t xs[SM2C_RT_MAX_RANK], ys[SM2C_RT_MAX_RANK], off = 0;
    sm2c_op_strides(&x->shape, xs);
    sm2c_op_strides(&y->shape, ys);
    for (int32_t i = 0; i < y->shape.rank; i++)
        off += sm2c_tensor_get_i64(p, 2 * i) * ys[i];
    if (sm2c_value_elements(x) > 0)
        sm2c_op_copy(l, n, sm2c_lower_buf(l, x), 0, xs, yb, off, ys, x->shape.rank, x->shape.dims, y->dtype);
    return SM2C_OK;
}

/* Fill(Shape(x), v) of a data-dependent x (feature columns' default values
** for a sparse input's values): x's bound shape, sharing x's count.  The
** whole bound is filled; rows past the count are what consumers ignore. */
static int fill_like_dyn(sm2c_ctx *c, sm2c_node *n)
{
    const sm2c_node *shape = n->inputs[0]->node;
    if (n->inputs[0]->constant || !shape || !sm2c_dyn_shape_op(shape) || strcmp(shape->op->name, "Shape") ||
        n->n_inputs != 2 || n->inputs[1]->shape.rank != 0)
        return 0;
    const sm2c_value *x = shape->inputs[0];
    sm2c_value *y = n->outputs[0];
    sm2c_op_set(c, n, 0, n->inputs[1]->dtype, x->shape.rank, x->shape.dims);
    y->dyn = x->dyn;
    y->dyn_dim = x->dyn_dim;
    return 1;
}

sm2c_status shape_fill(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (!st && strcmp(n->op->name, "Fill") == 0 && fill_like_dyn(c, n))
        return SM2C_OK;
    const sm2c_tensor *d = st ? NULL : sm2c_op_const_input(c, n, 0, "dims");
    if (!d)
        return st ? st : SM2C_ERR_UNSUPPORTED;
    if (d->nelem > SM2C_RT_MAX_RANK || n->n_inputs != 2 || n->inputs[1]->shape.rank != 0)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "needs dims and a scalar value");
    int64_t *dims = sm2c_op_ints(c, d);
    for (int64_t i = 0; i < d->nelem; i++)
        if (dims[i] < 0)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "negative dim");
    sm2c_op_set(c, n, 0, n->inputs[1]->dtype, (int32_t)d->nelem, dims);
    return SM2C_OK;
}

sm2c_status lower_fill(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    int32_t vb;
    if (strcmp(n->op->name, "Fill") == 0)
        vb = sm2c_lower_buf(l, n->inputs[1]);
    else
        vb = sm2c_lower_buf(l, sm2c_op_scalar(l, y->dtype, strcmp(n->op->name, "OnesLike") == 0));
    if (!sm2c_kernel_suffix(y->dtype) && y->dtype != SM2C_DT_FLOAT && y->dtype != SM2C_DT_STRING)
        return sm2c_lower_unsupported(l, n, "%s of %s", n->op->name, sm2c_dtype_name(y->dtype));
    fill_step(l, n, sm2c_lower_buf(l, y), vb, y->dtype, sm2c_value_elements(y));
    return SM2C_OK;
}
