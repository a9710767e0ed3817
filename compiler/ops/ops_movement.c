/*
** ops_movement.c: data movement that is static once shapes are known:
** Unpack, Split, SplitV, Tile, MirrorPad, BroadcastTo, ReverseV2, Roll,
** SpaceToDepth, DepthToSpace, SpaceToBatchND, BatchToSpaceND, plus Range and
** BroadcastArgs, whose inputs must be constants.  Every move is one or more
** sm2c_rt_copy_strided boxes (a view of the input read with strides that may
** be zero or negative).
*/
#include "ops_common.h"

#include <math.h>

#define BOX_MAX (2 * SM2C_RT_MAX_RANK + 2)

/* A box copy with size-1 dims dropped and neighbours that are contiguous on
** both sides merged, so boxes of up to BOX_MAX dims (Tile, SpaceToBatchND)
** fit the kernel's SM2C_RT_MAX_RANK; an empty box copies nothing. */
static sm2c_status move(sm2c_lower *l, const sm2c_node *n, int32_t src, int64_t src_off,
                        const int64_t *ss, int32_t dst, int64_t dst_off, const int64_t *ds,
                        int32_t rank, const int64_t *dims, int dtype)
{
    int64_t d[BOX_MAX], a[BOX_MAX], b[BOX_MAX];
    int32_t r = 0;
    for (int32_t i = 0; i < rank; i++)
        if (dims[i] == 0)
            return SM2C_OK;
    for (int32_t i = 0; i < rank; i++) {
        if (dims[i] == 1)
            continue;
        if (r > 0 && a[r - 1] == ss[i] * dims[i] && b[r - 1] == ds[i] * dims[i]) {
            d[r - 1] *= dims[i];
            a[r - 1] = ss[i], b[r - 1] = ds[i];
            continue;
        }
        d[r] = dims[i], a[r] = ss[i], b[r] = ds[i];
        r++;
    }
    if (r > SM2C_RT_MAX_RANK)
        return sm2c_lower_unsupported(l, n, "moves a box of %d dims; the runtime handles %d", r,
                                      SM2C_RT_MAX_RANK);
    sm2c_op_copy(l, n, src, src_off, a, dst, dst_off, b, r, d, dtype);
    return SM2C_OK;
}

/* Row-major strides of dims. */
static void strides_of(int32_t rank, const int64_t *dims, int64_t *st)
{
    sm2c_shape s = { rank, (int64_t *)dims };
    sm2c_op_strides(&s, st);
}

/* Constant int input i as an arena array with its length; NULL when not constant. */
static int64_t *const_ints(sm2c_ctx *c, const sm2c_node *n, int32_t i, const char *what, int64_t *len)
{
    const sm2c_tensor *t = sm2c_op_const_input(c, n, i, what);
    if (!t)
        return NULL;
    *len = t->nelem;
    return sm2c_op_ints(c, t);
}

/* ---- Unpack, Split, SplitV ----------------------------------------------------------- */

/* How the input is cut along `axis`: sizes[k] for output k (Unpack: 1 each, dim dropped). */
typedef struct cut {
    int32_t axis;
    int32_t parts;
    int64_t *sizes;
    int drop;
} cut;

static sm2c_status unpack_cut(sm2c_ctx *c, const sm2c_node *n, cut *k)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    if (!sm2c_op_axis(c, n, sm2c_attr_i(n, "axis"), x->rank, &k->axis))
        return SM2C_ERR_INVALID;
    if (x->dims[k->axis] != n->n_outputs)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "num %d does not match dim %d of size %lld",
                             n->n_outputs, k->axis, (long long)x->dims[k->axis]);
    k->parts = n->n_outputs, k->drop = 1;
    k->sizes = sm2c_arena_array(c->arena, (size_t)k->parts, sizeof *k->sizes);
    for (int32_t i = 0; i < k->parts; i++)
        k->sizes[i] = 1;
    return SM2C_OK;
}

/* Split(split_dim, value) or SplitV(value, size_splits, split_dim). */
static sm2c_status split_cut(sm2c_ctx *c, const sm2c_node *n, cut *k)
{
    int v = strcmp(n->op->name, "SplitV") == 0;
    const sm2c_value *x = n->inputs[v ? 0 : 1];
    int64_t len, *ax = const_ints(c, n, v ? 2 : 0, "split_dim", &len);
    if (!ax)
        return SM2C_ERR_UNSUPPORTED;
    if (len != 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "split_dim must be a scalar axis");
    if (!sm2c_op_axis(c, n, ax[0], x->shape.rank, &k->axis))
        return SM2C_ERR_INVALID;    /* reported: one message per fault */
    int64_t dim = x->shape.dims[k->axis];
    k->parts = n->n_outputs, k->drop = 0;
    if (!v) {
        if (dim % k->parts)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "dim %d of size %lld does not split in %d",
                                 k->axis, (long long)dim, k->parts);
        k->sizes = sm2c_arena_array(c->arena, (size_t)k->parts, sizeof *k->sizes);
        for (int32_t i = 0; i < k->parts; i++)
            k->sizes[i] = dim / k->parts;
        return SM2C_OK;
    }
    if (!(k->sizes = const_ints(c, n, 1, "size_splits", &len)))
        return SM2C_ERR_UNSUPPORTED;
    int64_t known = 0;
    int32_t unknown = -1;
    for (int32_t i = 0; i < len; i++) {
        if (k->sizes[i] == -1 && unknown < 0)
            unknown = i;
        else if (k->sizes[i] < 0)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "size_splits has a bad size %lld",
                                 (long long)k->sizes[i]);
        else
            known += k->sizes[i];
    }
    if (unknown >= 0 && known <= dim)
        k->sizes[unknown] = dim - known, known = dim;
    if (len != k->parts || known != dim)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "size_splits do not add up to dim %d of size %lld",
                             k->axis, (long long)dim);
    return SM2C_OK;
}

static sm2c_status cut_of(sm2c_ctx *c, const sm2c_node *n, cut *k, const sm2c_value **x)
{
    int unpack = strcmp(n->op->name, "Unpack") == 0;
    *x = n->inputs[unpack || strcmp(n->op->name, "SplitV") == 0 ? 0 : 1];
    return unpack ? unpack_cut(c, n, k) : split_cut(c, n, k);
}

sm2c_status shape_split(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_value *x;
    cut k;
    if (st || (st = cut_of(c, n, &k, &x)))
        return st;
    for (int32_t p = 0; p < k.parts; p++) {
        int64_t dims[SM2C_RT_MAX_RANK];
        int32_t r = 0;
        for (int32_t i = 0; i < x->shape.rank; i++)
            if (i != k.axis || !k.drop)
                dims[r++] = i == k.axis ? k.sizes[p] : x->shape.dims[i];
        sm2c_op_set(c, n, p, x->dtype, r, dims);
    }
    return SM2C_OK;
}

sm2c_status lower_split(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x;
    cut k;
    sm2c_status st = cut_of(l->c, n, &k, &x);
    int64_t xs[SM2C_RT_MAX_RANK], ys[SM2C_RT_MAX_RANK], dims[SM2C_RT_MAX_RANK], offset = 0;
    sm2c_op_strides(&x->shape, xs);
    for (int32_t p = 0; p < k.parts && !st; p++) {
        for (int32_t i = 0; i < x->shape.rank; i++)
            dims[i] = i == k.axis ? k.sizes[p] : x->shape.dims[i];
        strides_of(x->shape.rank, dims, ys);
        st = move(l, n, sm2c_lower_buf(l, x), offset * xs[k.axis], xs, sm2c_lower_buf(l, n->outputs[p]), 0,
                  ys, x->shape.rank, dims, x->dtype);
        offset += k.sizes[p];
    }
    return st;
}

/* ---- Tile, BroadcastTo, ReverseV2 ------------------------------------------------------ */

sm2c_status shape_tile(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t len, *m = st ? NULL : const_ints(c, n, 1, "multiples", &len);
    if (!m)
        return st ? st : SM2C_ERR_UNSUPPORTED;
    const sm2c_shape *x = &n->inputs[0]->shape;
    if (len != x->rank)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "multiples has %lld entries for rank %d", (long long)len,
                             x->rank);
    int64_t dims[SM2C_RT_MAX_RANK];
    for (int32_t i = 0; i < x->rank; i++) {
        if (m[i] < 0 || (m[i] > 0 && x->dims[i] > INT32_MAX / m[i]))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "multiple %lld is out of range", (long long)m[i]);
        dims[i] = x->dims[i] * m[i];
    }
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, x->rank, dims);
    return SM2C_OK;
}

/* Output dim i is (repeat, x dim i): the repeat reads x again (stride 0). */
sm2c_status lower_tile(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    int64_t xs[SM2C_RT_MAX_RANK], ys[SM2C_RT_MAX_RANK], d[BOX_MAX], a[BOX_MAX], b[BOX_MAX];
    sm2c_op_strides(&x->shape, xs);
    sm2c_op_strides(&y->shape, ys);
    for (int32_t i = 0; i < x->shape.rank; i++) {
        d[2 * i] = x->shape.dims[i] ? y->shape.dims[i] / x->shape.dims[i] : 0;
        a[2 * i] = 0, b[2 * i] = x->shape.dims[i] * ys[i];
        d[2 * i + 1] = x->shape.dims[i], a[2 * i + 1] = xs[i], b[2 * i + 1] = ys[i];
    }
    int32_t yb = sm2c_lower_buf(l, y);
    return move(l, n, sm2c_lower_buf(l, x), 0, a, yb, 0, b, 2 * x->shape.rank, d, y->dtype);
}

sm2c_status shape_broadcast_to(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t len, *dims = st ? NULL : const_ints(c, n, 1, "shape", &len);
    if (!dims)
        return st ? st : SM2C_ERR_UNSUPPORTED;
    const sm2c_shape *x = &n->inputs[0]->shape;
    if (len > SM2C_RT_MAX_RANK || len < x->rank)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "cannot broadcast rank %d to rank %lld", x->rank,
                             (long long)len);
    for (int32_t i = 0; i < len; i++) {
        int32_t k = i - ((int32_t)len - x->rank);
        if (dims[i] < 0 || (k >= 0 && x->dims[k] != dims[i] && x->dims[k] != 1))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "cannot broadcast %s to %s",
                                 sm2c_shape_str(c->arena, x),
                                 sm2c_shape_str(c->arena, &(sm2c_shape){ (int32_t)len, dims }));
    }
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, (int32_t)len, dims);
    return SM2C_OK;
}

sm2c_status lower_broadcast_to(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    int64_t xs[SM2C_RT_MAX_RANK], ys[SM2C_RT_MAX_RANK], src[SM2C_RT_MAX_RANK];
    int32_t lead = y->shape.rank - x->shape.rank;
    sm2c_op_strides(&x->shape, xs);
    sm2c_op_strides(&y->shape, ys);
    for (int32_t i = 0; i < y->shape.rank; i++)
        src[i] = i < lead || x->shape.dims[i - lead] == 1 ? 0 : xs[i - lead];
    int32_t yb = sm2c_lower_buf(l, y);
    return move(l, n, sm2c_lower_buf(l, x), 0, src, yb, 0, ys, y->shape.rank, y->shape.dims, y->dtype);
}

static sm2c_status reverse_axes(sm2c_ctx *c, const sm2c_node *n, unsigned char *rev)
{
    int64_t len, *ax = const_ints(c, n, 1, "axis", &len);
    if (!ax)
        return SM2C_ERR_UNSUPPORTED;
    memset(rev, 0, SM2C_RT_MAX_RANK);
    for (int64_t i = 0; i < len; i++) {
        int32_t a;
        if (!sm2c_op_axis(c, n, ax[i], n->inputs[0]->shape.rank, &a))
            return SM2C_ERR_INVALID;
        if (rev[a]++)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "axis %d is listed twice", a);
    }
    return SM2C_OK;
}

sm2c_status shape_reverse(sm2c_ctx *c, sm2c_node *n)
{
    unsigned char rev[SM2C_RT_MAX_RANK];
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = reverse_axes(c, n, rev)))
        return st;
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, n->inputs[0]->shape.rank, n->inputs[0]->shape.dims);
    return SM2C_OK;
}

/* A reversed dim starts at its last element and steps back. */
sm2c_status lower_reverse(sm2c_lower *l, const sm2c_node *n)
{
    unsigned char rev[SM2C_RT_MAX_RANK];
    sm2c_status st = reverse_axes(l->c, n, rev);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    int64_t xs[SM2C_RT_MAX_RANK], src[SM2C_RT_MAX_RANK], off = 0;
    sm2c_op_strides(&x->shape, xs);
    for (int32_t i = 0; i < x->shape.rank; i++) {
        src[i] = rev[i] ? -xs[i] : xs[i];
        off += rev[i] && x->shape.dims[i] > 0 ? (x->shape.dims[i] - 1) * xs[i] : 0;
    }
    int32_t yb = sm2c_lower_buf(l, n->outputs[0]);
    return move(l, n, sm2c_lower_buf(l, x), off, src, yb, 0, xs, x->shape.rank, x->shape.dims, x->dtype);
}

/* ---- Roll ------------------------------------------------------------------------------ */

/* Roll(input, shift, axis), shift and axis constant scalars or vectors of one
** length: each dim's total shift (TensorFlow adds the shifts of an axis listed
** twice), taken modulo the dim into [0, dim). */
static sm2c_status roll_shifts(sm2c_ctx *c, const sm2c_node *n, int64_t *sh)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    int64_t ns = 0, na = 0, *s = const_ints(c, n, 1, "shift", &ns), *a = s ? const_ints(c, n, 2, "axis", &na) : NULL;
    if (!a)
        return SM2C_ERR_UNSUPPORTED;
    if (ns != na || n->inputs[1]->shape.rank > 1 || n->inputs[2]->shape.rank != n->inputs[1]->shape.rank)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "shift %s and axis %s must be scalars or vectors of one length",
                             sm2c_shape_str(c->arena, &n->inputs[1]->shape),
                             sm2c_shape_str(c->arena, &n->inputs[2]->shape));
    for (int32_t i = 0; i < x->rank; i++)
        sh[i] = 0;
    for (int64_t k = 0; k < ns; k++) {
        int32_t d;
        if (!sm2c_op_axis(c, n, a[k], x->rank, &d))
            return SM2C_ERR_INVALID;
        if (x->dims[d] > 0)
            sh[d] = (sh[d] + s[k] % x->dims[d] + x->dims[d]) % x->dims[d];
    }
    return SM2C_OK;
}

sm2c_status shape_roll(sm2c_ctx *c, sm2c_node *n)
{
    int64_t sh[SM2C_RT_MAX_RANK];
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = roll_shifts(c, n, sh)))
        return st;
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, n->inputs[0]->shape.rank, n->inputs[0]->shape.dims);
    return SM2C_OK;
}

/* Element i of a dim shifted by s lands at (i + s) mod dim: the input's first
** dim - s elements move to [s, dim), its last s to [0, s).  One box per
** combination of those two parts over the shifted dims. */
sm2c_status lower_roll(sm2c_lower *l, const sm2c_node *n)
{
    int64_t sh[SM2C_RT_MAX_RANK];
    sm2c_status st = roll_shifts(l->c, n, sh);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    int32_t rank = x->shape.rank, rolled[SM2C_RT_MAX_RANK], nr = 0;
    int32_t xb = sm2c_lower_buf(l, x), yb = sm2c_lower_buf(l, n->outputs[0]);
    int64_t xs[SM2C_RT_MAX_RANK], box[SM2C_RT_MAX_RANK];
    sm2c_op_strides(&x->shape, xs);
    for (int32_t i = 0; i < rank; i++)
        if (sh[i])
            rolled[nr++] = i;
    for (uint32_t m = 0; m < 1u << nr; m++) {
        int64_t src = 0, dst = 0;
        for (int32_t i = 0; i < rank; i++)
            box[i] = x->shape.dims[i];
        for (int32_t j = 0; j < nr; j++) {
            int32_t d = rolled[j];
            int wrap = (int)(m >> j & 1);
            box[d] = wrap ? sh[d] : x->shape.dims[d] - sh[d];
            src += wrap ? (x->shape.dims[d] - sh[d]) * xs[d] : 0;
            dst += wrap ? 0 : sh[d] * xs[d];
        }
        if ((st = move(l, n, xb, src, xs, yb, dst, xs, rank, box, x->dtype)))
            return st;
    }
    return SM2C_OK;
}

/* ---- MirrorPad ------------------------------------------------------------------------ */

static sm2c_status mirror_pads(sm2c_ctx *c, const sm2c_node *n, int64_t **pads, int *symmetric)
{
    const sm2c_shape *x = &n->inputs[0]->shape;
    int64_t len;
    *symmetric = sm2c_attr_str_is(n, "mode", "SYMMETRIC");
    if (!*symmetric && !sm2c_attr_str_is(n, "mode", "REFLECT"))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "mode must be REFLECT or SYMMETRIC");
    if (!(*pads = const_ints(c, n, 1, "paddings", &len)))
        return SM2C_ERR_UNSUPPORTED;
    if (len != 2 * (int64_t)x->rank)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "paddings must be [%d, 2]", x->rank);
    for (int32_t i = 0; i < 2 * x->rank; i++) {
        int64_t most = x->dims[i / 2] - (*symmetric ? 0 : 1);
        if ((*pads)[i] < 0 || (*pads)[i] > most)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "padding %lld of dim %d must be in [0, %lld] for %s",
                                 (long long)(*pads)[i], i / 2, (long long)(most < 0 ? 0 : most),
                                 *symmetric ? "SYMMETRIC" : "REFLECT");
    }
    return SM2C_OK;
}

sm2c_status shape_mirror_pad(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t *pads, dims[SM2C_RT_MAX_RANK];
    int sym;
    if (st || (st = mirror_pads(c, n, &pads, &sym)))
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    for (int32_t i = 0; i < x->rank; i++)
        dims[i] = x->dims[i] + pads[2 * i] + pads[2 * i + 1];
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, x->rank, dims);
    return SM2C_OK;
}

/* The input goes to the middle of y; then, dim by dim, each border is a
** reversed copy of y's own cells next to it (dims before d already padded,
** dims after d still only their middle part). */
sm2c_status lower_mirror_pad(sm2c_lower *l, const sm2c_node *n)
{
    int64_t *pads;
    int sym;
    sm2c_status st = mirror_pads(l->c, n, &pads, &sym);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    int32_t r = x->shape.rank, yb = sm2c_lower_buf(l, y);
    int64_t xs[SM2C_RT_MAX_RANK], ys[SM2C_RT_MAX_RANK], box[SM2C_RT_MAX_RANK], src[SM2C_RT_MAX_RANK];
    int64_t mid = 0;
    sm2c_op_strides(&x->shape, xs);
    sm2c_op_strides(&y->shape, ys);
    for (int32_t i = 0; i < r; i++)
        mid += pads[2 * i] * ys[i];
    st = move(l, n, sm2c_lower_buf(l, x), 0, xs, yb, mid, ys, r, x->shape.dims, y->dtype);
    for (int32_t d = 0; d < r && !st; d++) {
        int64_t base = 0, lo = pads[2 * d], hi = pads[2 * d + 1], dim = x->shape.dims[d];
        for (int32_t i = 0; i < r; i++) {
            box[i] = i < d ? y->shape.dims[i] : x->shape.dims[i];
            base += i > d ? pads[2 * i] * ys[i] : 0;
        }
        memcpy(src, ys, sizeof src);
        src[d] = -ys[d];
        box[d] = lo;  /* y[lo - 1 - j] = y[lo + 1 + j] (REFLECT) or y[lo + j] (SYMMETRIC) */
        st = move(l, n, yb, base + (2 * lo - (sym ? 1 : 0)) * ys[d], src, yb, base, ys, r, box, y->dtype);
        box[d] = hi;  /* y[lo + dim + j] = y[lo + dim - 2 - j] (REFLECT) or y[lo + dim - 1 - j] */
        if (!st)
            st = move(l, n, yb, base + (lo + dim - (sym ? 1 : 2)) * ys[d], src, yb, base + (lo + dim) * ys[d],
                      ys, r, box, y->dtype);
    }
    return st;
}

/* ---- SpaceToDepth, DepthToSpace ---------------------------------------------------------- */

static sm2c_status block_size(sm2c_ctx *c, const sm2c_node *n, int64_t *b)
{
    if (sm2c_attr_str_is(n, "data_format", "NCHW") || sm2c_attr_str_is(n, "data_format", "NCHW_VECT_C"))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "only data_format NHWC is supported");
    *b = sm2c_attr_i(n, "block_size");
    if (*b < 2 || n->inputs[0]->shape.rank != 4)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "needs a rank-4 input and block_size >= 2");
    return SM2C_OK;
}

sm2c_status shape_space_depth(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t b;
    if (st || (st = block_size(c, n, &b)))
        return st;
    const int64_t *x = n->inputs[0]->shape.dims;
    int64_t dims[4] = { x[0], x[1], x[2], x[3] };
    if (strcmp(n->op->name, "SpaceToDepth") == 0) {
        if (x[1] % b || x[2] % b)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "height and width must be multiples of %lld",
                                 (long long)b);
        dims[1] /= b, dims[2] /= b, dims[3] *= b * b;
    } else {
        if (x[3] % (b * b))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "depth must be a multiple of %lld", (long long)(b * b));
        dims[1] *= b, dims[2] *= b, dims[3] /= b * b;
    }
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, 4, dims);
    return SM2C_OK;
}

/* Both walk the box [N, H, (i), W, (j), C] of the space side: SpaceToDepth
** writes y[n, h, w, (i*b + j)*C + c] from x[n, h*b + i, w*b + j, c];
** DepthToSpace is the same box with the roles of x and y swapped. */
sm2c_status lower_space_depth(sm2c_lower *l, const sm2c_node *n)
{
    int64_t b;
    sm2c_status st = block_size(l->c, n, &b);
    if (st)
        return st;
    int to_depth = strcmp(n->op->name, "SpaceToDepth") == 0;
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    const int64_t *sp = (to_depth ? x : y)->shape.dims, *dp = (to_depth ? y : x)->shape.dims;
    int64_t box[6] = { sp[0], dp[1], b, dp[2], b, sp[3] };
    int64_t space[6], depth[6];
    strides_of(6, box, space);  /* the space side [N, H/b, b, W/b, b, C] is contiguous */
    int64_t c = sp[3];
    int64_t dd[6] = { dp[1] * dp[2] * dp[3], dp[2] * dp[3], b * c, dp[3], c, 1 };
    memcpy(depth, dd, sizeof depth);
    int32_t xb = sm2c_lower_buf(l, x), yb = sm2c_lower_buf(l, y);
    return to_depth ? move(l, n, xb, 0, space, yb, 0, depth, 6, box, y->dtype)
                    : move(l, n, xb, 0, depth, yb, 0, space, 6, box, y->dtype);
}

/* ---- SpaceToBatchND, BatchToSpaceND ------------------------------------------------------ */

/* block_shape [M] and paddings or crops [M, 2] (constants) of an input of rank 1 + M + rest. */
typedef struct blocks {
    int32_t m;
    int64_t *block, *pads;
    int padded;
} blocks;

static sm2c_status blocks_of(sm2c_ctx *c, const sm2c_node *n, blocks *k)
{
    int64_t lb, lp;
    const sm2c_shape *x = &n->inputs[0]->shape;
    if (!(k->block = const_ints(c, n, 1, "block_shape", &lb)) ||
        !(k->pads = const_ints(c, n, 2, "paddings", &lp)))
        return SM2C_ERR_UNSUPPORTED;
    if (lb < 1 || lb >= x->rank || lp != 2 * lb)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "block_shape [%lld] and paddings [%lld] do not fit rank %d",
                             (long long)lb, (long long)lp, x->rank);
    k->m = (int32_t)lb, k->padded = 0;
    for (int32_t i = 0; i < 2 * k->m; i++) {
        if (k->pads[i] < 0 || k->block[i / 2] < 1)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "block sizes must be positive, paddings not negative");
        k->padded |= k->pads[i] != 0;
    }
    return SM2C_OK;
}

sm2c_status shape_space_batch(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    blocks k;
    if (st || (st = blocks_of(c, n, &k)))
        return st;
    const sm2c_shape *x = &n->inputs[0]->shape;
    int to_batch = strcmp(n->op->name, "SpaceToBatchND") == 0;
    int64_t dims[SM2C_RT_MAX_RANK], prod = 1;
    memcpy(dims, x->dims, (size_t)x->rank * sizeof *dims);
    for (int32_t i = 0; i < k.m; i++) {
        int64_t d = x->dims[i + 1], b = k.block[i], p = k.pads[2 * i] + k.pads[2 * i + 1];
        prod *= b;
        if (to_batch ? (d + p) % b : d * b < p)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "dim %d of size %lld does not fit block %lld", i + 1,
                                 (long long)d, (long long)b);
        dims[i + 1] = to_batch ? (d + p) / b : d * b - p;
    }
    if (!to_batch && x->dims[0] % prod)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "batch %lld is not a multiple of %lld",
                             (long long)x->dims[0], (long long)prod);
    dims[0] = to_batch ? x->dims[0] * prod : x->dims[0] / prod;
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, x->rank, dims);
    return SM2C_OK;
}

/* The batch side [(o_1..o_M, B), s_1..s_M, rest] against the space side
** [B, s_1*b_1 + o_1, ..., rest]: a box over (o_1..o_M, B, s_1..s_M, rest)
** whose batch-side strides are contiguous.  st gets the space side's strides
** for a space tensor of dims `space`. */
static int32_t batch_box(const blocks *k, const sm2c_shape *batch_side, const int64_t *space,
                         int64_t *box, int64_t *bt, int64_t *st)
{
    int32_t rank = batch_side->rank, r = 0;
    int64_t ss[SM2C_RT_MAX_RANK];
    strides_of(rank, space, ss);
    for (int32_t i = 0; i < k->m; i++)
        box[r] = k->block[i], st[r++] = ss[i + 1];
    box[r] = space[0], st[r++] = ss[0];
    for (int32_t i = 1; i < rank; i++)
        box[r] = batch_side->dims[i], st[r++] = i <= k->m ? k->block[i - 1] * ss[i] : ss[i];
    strides_of(r, box, bt);
    return r;
}

/* Zero-padded copy of x into a scratch buffer of dims `padded`. */
static int32_t padded_copy(sm2c_lower *l, const sm2c_node *n, const blocks *k, int64_t *padded,
                           sm2c_status *st)
{
    const sm2c_value *x = n->inputs[0];
    /* The scratch buffer keeps its shape: the dims must outlive this frame. */
    sm2c_shape ps = sm2c_shape_make(l->c, x->shape.rank, padded);
    int32_t pb = sm2c_lower_scratch(l, x->dtype, &ps, "padded");
    int64_t xs[SM2C_RT_MAX_RANK], pst[SM2C_RT_MAX_RANK], off = 0;
    sm2c_op_strides(&x->shape, xs);
    strides_of(ps.rank, padded, pst);
    for (int32_t i = 0; i < k->m; i++)
        off += k->pads[2 * i] * pst[i + 1];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_fill", 4);
    s->args[0] = sm2c_arg_buf(pb);
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, sm2c_op_scalar(l, x->dtype, 0)));
    s->args[2] = sm2c_arg_int(sm2c_abi_elem_size(x->dtype));
    s->args[3] = sm2c_arg_int(sm2c_shape_elements(&ps, INT64_MAX));
    *st = move(l, n, sm2c_lower_buf(l, x), 0, xs, pb, off, pst, x->shape.rank, x->shape.dims, x->dtype);
    return pb;
}

sm2c_status lower_space_batch(sm2c_lower *l, const sm2c_node *n)
{
    blocks k;
    sm2c_status st = blocks_of(l->c, n, &k);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    int to_batch = strcmp(n->op->name, "SpaceToBatchND") == 0;
    const sm2c_value *space = to_batch ? x : y, *batch = to_batch ? y : x;
    int64_t full[SM2C_RT_MAX_RANK], box[BOX_MAX], bt[BOX_MAX], stt[BOX_MAX];
    memcpy(full, space->shape.dims, (size_t)space->shape.rank * sizeof *full);
    for (int32_t i = 0; i < k.m; i++)
        full[i + 1] += k.pads[2 * i] + k.pads[2 * i + 1];
    int32_t r = batch_box(&k, &batch->shape, full, box, bt, stt);
    int32_t xb = sm2c_lower_buf(l, x), yb = sm2c_lower_buf(l, y);
    if (to_batch) {
        int32_t src = k.padded ? padded_copy(l, n, &k, full, &st) : xb;
        return st ? st : move(l, n, src, 0, stt, yb, 0, bt, r, box, y->dtype);
    }
    if (!k.padded)
        return move(l, n, xb, 0, bt, yb, 0, stt, r, box, y->dtype);
    /* Crops: rebuild the full space tensor, then cut the window out of it. */
    sm2c_shape fs = sm2c_shape_make(l->c, y->shape.rank, full);
    int32_t fb = sm2c_lower_scratch(l, y->dtype, &fs, "uncropped");
    int64_t fst[SM2C_RT_MAX_RANK], ys[SM2C_RT_MAX_RANK], off = 0;
    if ((st = move(l, n, xb, 0, bt, fb, 0, stt, r, box, y->dtype)))
        return st;
    strides_of(fs.rank, full, fst);
    sm2c_op_strides(&y->shape, ys);
    for (int32_t i = 0; i < k.m; i++)
        off += k.pads[2 * i] * fst[i + 1];
    return move(l, n, fb, off, fst, yb, 0, ys, y->shape.rank, y->shape.dims, y->dtype);
}

/* ---- Range and BroadcastArgs: values of constants ------------------------------------------ */

/* The length TensorFlow gives: integers (|limit - start| + |delta| - 1) / |delta|,
** floats ceil(|(limit - start) / delta|) in the element type. */
static int range_length(const sm2c_tensor *s, const sm2c_tensor *e, const sm2c_tensor *d, int64_t *len)
{
    if (s->dtype == SM2C_DT_FLOAT || s->dtype == SM2C_DT_DOUBLE) {
        double a = sm2c_tensor_get_f64(s, 0), b = sm2c_tensor_get_f64(e, 0), k = sm2c_tensor_get_f64(d, 0);
        double v = s->dtype == SM2C_DT_FLOAT ? ceil(fabs((double)(((float)b - (float)a) / (float)k)))
                                             : ceil(fabs((b - a) / k));
        if (k == 0 || isnan(v) || (k > 0 ? a > b : a < b) || v > INT32_MAX)
            return 0;
        *len = (int64_t)v;
        return 1;
    }
    int64_t a = sm2c_tensor_get_i64(s, 0), b = sm2c_tensor_get_i64(e, 0), k = sm2c_tensor_get_i64(d, 0);
    if (k == 0 || (k > 0 ? a > b : a < b))
        return 0;
    uint64_t span = k > 0 ? (uint64_t)b - (uint64_t)a : (uint64_t)a - (uint64_t)b;
    uint64_t step = k > 0 ? (uint64_t)k : 0 - (uint64_t)k;
    uint64_t v = span / step + (span % step != 0);
    if (v > INT32_MAX)
        return 0;
    *len = (int64_t)v;
    return 1;
}

sm2c_status shape_range(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    const sm2c_tensor *t[3];
    static const char *const what[3] = { "start", "limit", "delta" };
    for (int32_t i = 0; i < 3 && !st; i++)
        if (!(t[i] = sm2c_op_const_input(c, n, i, what[i])))
            st = SM2C_ERR_UNSUPPORTED;
    if (st)
        return st;
    int64_t len;
    for (int32_t i = 0; i < 3; i++)
        if (t[i]->nelem != 1 || t[i]->dtype != t[0]->dtype)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "start, limit and delta must be scalars of one type");
    if (!sm2c_op_kernel(c, "range", t[0]->dtype) || t[0]->dtype == SM2C_DT_UINT8 || t[0]->dtype == SM2C_DT_BOOL)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "Range of %s", sm2c_dtype_name(t[0]->dtype));
    if (!range_length(t[0], t[1], t[2], &len))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "delta is 0, points away from limit, or the range is too long");
    sm2c_op_set(c, n, 0, t[0]->dtype, 1, &len);
    return SM2C_OK;
}

sm2c_status lower_range(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "range", y->dtype), 4);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[3] = sm2c_arg_int(sm2c_value_elements(y));
    return SM2C_OK;
}

/* BroadcastArgs(s0, s1): the broadcast shape of two constant shapes. */
sm2c_status shape_broadcast_args(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t l0, l1, *s0 = st ? NULL : const_ints(c, n, 0, "s0", &l0);
    int64_t *s1 = s0 ? const_ints(c, n, 1, "s1", &l1) : NULL;
    if (!s1)
        return st ? st : SM2C_ERR_UNSUPPORTED;
    int dt = n->inputs[0]->dtype;
    int64_t len = l0 > l1 ? l0 : l1;
    int64_t *out = sm2c_arena_array(c->arena, (size_t)len + 1, sizeof *out);
    for (int64_t i = 0; i < len; i++) {
        int64_t a = i - (len - l0) >= 0 ? s0[i - (len - l0)] : 1, b = i - (len - l1) >= 0 ? s1[i - (len - l1)] : 1;
        if (a != b && a != 1 && b != 1)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "shapes do not broadcast at dim %lld: %lld and %lld",
                                 (long long)i, (long long)a, (long long)b);
        out[i] = a == 1 ? b : a;
    }
    sm2c_op_set(c, n, 0, dt, 1, &len);
    n->outputs[0]->constant = sm2c_op_int_tensor(c, dt, 1, out, len);
    return SM2C_OK;
}
