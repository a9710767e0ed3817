/*
** pass_batch.c: --max-batch N.  requires: shape (the graph is imported and
** shaped at one row: an unknown leading dim is taken as 1).
**
** The entry is compiled for one row and run once per row (program.h,
** sm2c_entry.max_batch), so that is right only when every row of the outputs
** depends on the same row of the inputs alone.  This pass proves that with one
** forward walk that gives every value a kind:
**   UNIFORM  does not depend on the batched inputs (weights, shape constants);
**   ROW      its leading dim is k at one row and B*k at B rows, batch-major:
**            the k leading slices of row r depend only on input row r, and
**            B rows are the one-row results one after another (k is 1 but for
**            shape code that folds rows into the leading dim, as tf.tensordot
**            does: [B,T,C] -> [B*T,C] -> MatMul -> [B,T,U]);
**   SIZE     a compile-time integer derived from the batch size (Shape of a
**            ROW value): per element, whether it is independent of the batch,
**            the batch times its one-row value (Shape(x)[0], its products with
**            fixed dims), or something else.  It was folded at batch 1, so it
**            may only be used where "the leading dim, whatever the batch" is
**            meant: the leading element of a Reshape, Fill or BroadcastTo
**            shape, the end of a leading slice.  Anywhere else it is the batch
**            size read as data, and an error.
** Every op that sees a ROW value has a rule below; an op without one, or one
** that mixes rows (a reduction over axis 0, a transpose or reshape that moves
** the batch, training batch norm, ...), is an error naming the op and node.
*/
#include "passes.h"

#include <stdarg.h>
#include <stdio.h>

#include "import/import.h"
#include "ops/ops_common.h"

enum { K_UNIFORM, K_ROW, K_SIZE };
enum { T_FIXED, T_BATCH, T_OTHER };     /* SIZE element tags; T_BATCH: B times its value */

typedef struct bval {
    uint8_t kind;
    int32_t n;          /* SIZE: element count of tag[] */
    uint8_t *tag;       /* SIZE: per element T_*; NULL means all T_OTHER */
} bval;

typedef struct bctx {
    sm2c_ctx *c;
    sm2c_graph *g;
    bval *v;            /* by value id */
} bctx;

#define SIZE_TAGS_MAX 64    /* SIZE values longer than this are tracked as a whole */

static bval *bv(bctx *b, const sm2c_value *v)
{
    return &b->v[v->id];
}

static int kind_of(bctx *b, const sm2c_node *n, int32_t i)
{
    return i < n->n_inputs ? bv(b, n->inputs[i])->kind : K_UNIFORM;
}

static int op_is(const sm2c_node *n, const char *name)
{
    return strcmp(n->op->name, name) == 0;
}

SM2C_PRINTF(3, 4)
static sm2c_status refuse(bctx *b, const sm2c_node *n, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return sm2c_op_error(b->c, n, SM2C_ERR_UNSUPPORTED, "--max-batch: %s", what);
}

/* Output k is ROW: it needs a leading dim to carry the batch. */
static sm2c_status set_row(bctx *b, const sm2c_node *n, int32_t k)
{
    const sm2c_value *o = n->outputs[k];
    if (o->shape.rank < 1 || o->shape.dims[0] < 1)
        return refuse(b, n, "output %d (shape %s) does not keep the batch as its leading dim", k,
                      sm2c_shape_str(b->c->arena, &o->shape));
    bv(b, o)->kind = K_ROW;
    return SM2C_OK;
}

static sm2c_status set_rows(bctx *b, const sm2c_node *n)
{
    sm2c_status st = SM2C_OK;
    for (int32_t k = 0; k < n->n_outputs && !st; k++)
        st = set_row(b, n, k);
    return st;
}

/* ---- constant operands ---------------------------------------------------- */

/* Input i's ints, when it is a compile-time integer constant; count in *n. */
static const int64_t *const_ints(bctx *b, const sm2c_node *n, int32_t i, int64_t *count)
{
    if (i >= n->n_inputs || !n->inputs[i]->constant)
        return NULL;
    const sm2c_tensor *t = n->inputs[i]->constant;
    if (t->dtype != SM2C_DT_INT32 && t->dtype != SM2C_DT_INT64)
        return NULL;
    *count = t->nelem;
    return sm2c_op_ints(b->c, t);
}

/* axis in [-rank, rank) -> [0, rank), or -1. */
static int64_t norm_axis(int64_t axis, int32_t rank)
{
    if (axis < 0)
        axis += rank;
    return axis >= 0 && axis < rank ? axis : -1;
}

/* Whether the constant axes in input i include the leading
** dim of a rank-`rank` value; unknown axes count as including it. */
static int axes_include_0(bctx *b, const sm2c_node *n, int32_t i, int32_t rank)
{
    int64_t count = 0;
    const int64_t *ax = const_ints(b, n, i, &count);
    if (!ax)
        return 1;
    for (int64_t k = 0; k < count; k++)
        if (norm_axis(ax[k], rank) <= 0)
            return 1;
    return 0;
}

/* A shape operand whose element 0 must mean "the batch": a SIZE value whose
** element 0 is the batch and the others fixed, or a constant whose element 0
** is -1 (inferred) when `minus_one_ok`. */
static int batch_leading_shape(bctx *b, const sm2c_node *n, int32_t i, int minus_one_ok)
{
    const bval *s = bv(b, n->inputs[i]);
    if (s->kind == K_SIZE) {
        if (!s->tag || s->n < 1 || s->tag[0] != T_BATCH)
            return 0;
        for (int32_t k = 1; k < s->n; k++)
            if (s->tag[k] != T_FIXED)
                return 0;
        return 1;
    }
    int64_t count = 0;
    const int64_t *d = s->kind == K_UNIFORM ? const_ints(b, n, i, &count) : NULL;
    return minus_one_ok && d && count >= 1 && d[0] == -1;
}

/* ---- SIZE values: shape arithmetic on the batch size ------------------------ */

static void set_size(bctx *b, const sm2c_value *o, const uint8_t *tag, int32_t n)
{
    bval *r = bv(b, o);
    int any = 0;
    for (int32_t k = 0; tag && k < n; k++)
        any |= tag[k] != T_FIXED;
    if (tag && !any) {
        r->kind = K_UNIFORM;
        return;
    }
    r->kind = K_SIZE;
    r->n = tag ? n : 0;
    if (tag) {
        r->tag = sm2c_arena_alloc(b->c->arena, (size_t)n + 1);
        memcpy(r->tag, tag, (size_t)n);
    }
}

/* Input i's tags as elements (T_FIXED for a constant); NULL when unknown. */
static const uint8_t *tags_of(bctx *b, const sm2c_node *n, int32_t i, int32_t *count)
{
    const sm2c_value *v = n->inputs[i];
    const bval *s = bv(b, v);
    int64_t elems = sm2c_value_elements(v);
    if (elems < 0 || elems > SIZE_TAGS_MAX || v->shape.rank > 1)
        return NULL;
    *count = (int32_t)elems;
    if (s->kind == K_SIZE)
        return s->tag && s->n == elems ? s->tag : NULL;
    return s->kind == K_UNIFORM ? sm2c_arena_alloc(b->c->arena, (size_t)elems + 1) : NULL;
}

/* Elements picked by a 1-D StridedSlice or Slice from count elements, into
** idx; -1 when the selection is not one this pass follows. */
static int32_t strided_pick(bctx *b, const sm2c_node *n, int32_t count, int32_t *idx)
{
    int64_t nb, ne, ns = 1;
    const int64_t *bg = const_ints(b, n, 1, &nb), *en = const_ints(b, n, 2, &ne);
    const int64_t *st = op_is(n, "Slice") ? NULL : const_ints(b, n, 3, &ns);
    if (!bg || !en || nb != 1 || ne != 1 || (!op_is(n, "Slice") && (!st || ns != 1)))
        return -1;
    int64_t begin = bg[0] < 0 ? bg[0] + count : bg[0], end, stride = st ? st[0] : 1;
    if (op_is(n, "Slice")) {
        end = en[0] < 0 ? count : begin + en[0];
    } else {
        if (sm2c_attr_i(n, "ellipsis_mask") || sm2c_attr_i(n, "new_axis_mask") || stride == 0)
            return -1;
        if (sm2c_attr_i(n, "shrink_axis_mask") & 1)
            return begin >= 0 && begin < count ? (idx[0] = (int32_t)begin, 1) : -1;
        end = en[0] < 0 ? en[0] + count : en[0];
        if (sm2c_attr_i(n, "begin_mask") & 1)
            begin = stride > 0 ? 0 : count - 1;
        if (sm2c_attr_i(n, "end_mask") & 1)
            end = stride > 0 ? count : -1;
        begin = begin < -1 ? -1 : begin > count ? count : begin;
        end = end < -1 ? -1 : end > count ? count : end;
    }
    int32_t k = 0;
    for (int64_t i = begin; stride > 0 ? i < end : i > end; i += stride) {
        if (i < 0 || i >= count || k >= SIZE_TAGS_MAX)
            return -1;
        idx[k++] = (int32_t)i;
    }
    return k;
}

/* B*x times a fixed y is B*(xy); B*x times B*y is not proportional to B. */
static uint8_t tag_product(uint8_t x, uint8_t y)
{
    return x == T_FIXED ? y : y == T_FIXED ? x : T_OTHER;
}

/* Prod of a 1-D value over its axis, or Mul of two values of one length (or a
** scalar and a vector): tags into tag, their count, or -1. */
static int32_t size_product(bctx *b, const sm2c_node *n, uint8_t *tag)
{
    int32_t na = 0, nb = 0;
    const uint8_t *ta = tags_of(b, n, 0, &na), *tb = n->n_inputs > 1 ? tags_of(b, n, 1, &nb) : NULL;
    if (!ta || !tb)
        return -1;
    if (op_is(n, "Prod")) {
        if (n->inputs[0]->shape.rank != 1 || axes_include_0(b, n, 1, 1) != 1)
            return -1;
        tag[0] = T_FIXED;
        for (int32_t k = 0; k < na; k++)
            tag[0] = tag_product(tag[0], ta[k]);
        return 1;
    }
    int32_t total = na > nb ? na : nb;
    if (na != nb && na != 1 && nb != 1)
        return -1;
    for (int32_t k = 0; k < total; k++)
        tag[k] = tag_product(ta[na == 1 ? 0 : k], tb[nb == 1 ? 0 : k]);
    return total;
}

/* GatherV2 of a 1-D value with constant indices on axis 0 (tf.tensordot
** picks dims of a shape this way). */
static int32_t size_gather(bctx *b, const sm2c_node *n, const uint8_t *in, int32_t count, uint8_t *tag)
{
    int64_t ni = 0, na = 0;
    const int64_t *idx = const_ints(b, n, 1, &ni), *ax = const_ints(b, n, 2, &na);
    if (!idx || !ax || na != 1 || ax[0] != 0 || n->inputs[0]->shape.rank != 1 || ni > SIZE_TAGS_MAX)
        return -1;
    for (int64_t k = 0; k < ni; k++) {
        if (idx[k] < 0 || idx[k] >= count)
            return -1;
        tag[k] = in[idx[k]];
    }
    return (int32_t)ni;
}

/* A compile-time node reading SIZE values: follow the elements through the
** moves and products shape code makes (slice, gather, pack, concat, cast,
** prod, mul); anything else gives an integer that depends on the batch some
** other way. */
static void size_node(bctx *b, const sm2c_node *n)
{
    uint8_t tag[SIZE_TAGS_MAX];
    int32_t count = 0, total = 0, idx[SIZE_TAGS_MAX];
    const uint8_t *in = n->n_inputs ? tags_of(b, n, 0, &count) : NULL;
    int ok = 0;
    if (in && (op_is(n, "Cast") || op_is(n, "Identity")))
        memcpy(tag, in, (size_t)(total = count)), ok = 1;
    else if (in && (op_is(n, "StridedSlice") || op_is(n, "Slice")) && n->inputs[0]->shape.rank == 1) {
        total = strided_pick(b, n, count, idx);
        for (int32_t k = 0; k < total; k++)
            tag[k] = in[idx[k]];
        ok = total >= 0;
    } else if (in && op_is(n, "GatherV2")) {
        ok = (total = size_gather(b, n, in, count, tag)) >= 0;
    } else if (op_is(n, "Prod") || op_is(n, "Mul")) {
        ok = (total = size_product(b, n, tag)) >= 0;
    } else if ((op_is(n, "Pack") && sm2c_attr_i(n, "axis") == 0) || op_is(n, "ConcatV2")) {
        int32_t last = op_is(n, "ConcatV2") ? n->n_inputs - 1 : n->n_inputs;
        ok = !op_is(n, "ConcatV2") || n->outputs[0]->shape.rank == 1;
        for (int32_t i = 0; i < last && ok; i++) {
            const uint8_t *t = tags_of(b, n, i, &count);
            ok = t && total + count <= SIZE_TAGS_MAX;
            if (ok)
                memcpy(tag + total, t, (size_t)count), total += count;
        }
    }
    ok = ok && total == sm2c_value_elements(n->outputs[0]);
    for (int32_t k = 0; k < n->n_outputs; k++)
        set_size(b, n->outputs[k], ok && k == 0 ? tag : NULL, total);
}

/* Shape or Size of a ROW value. */
static sm2c_status rule_shape(bctx *b, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    uint8_t tag[SIZE_TAGS_MAX];
    if (op_is(n, "Rank")) {
        bv(b, n->outputs[0])->kind = K_UNIFORM;
        return SM2C_OK;
    }
    int shape = op_is(n, "Shape") && x->shape.rank <= SIZE_TAGS_MAX;
    for (int32_t k = 0; shape && k < x->shape.rank; k++)
        tag[k] = k == 0 ? T_BATCH : T_FIXED;
    set_size(b, n->outputs[0], shape ? tag : NULL, shape ? x->shape.rank : 0);
    return SM2C_OK;
}

/* ---- rules for ops that see ROW values -------------------------------------- */

/* Broadcasting elementwise ops: every ROW input has the output's rank, every
** other input broadcasts along the leading dim (lower rank, or leading 1). */
static sm2c_status rule_elementwise(bctx *b, const sm2c_node *n)
{
    int32_t rank = n->outputs[0]->shape.rank;
    for (int32_t i = 0; i < n->n_inputs; i++) {
        const sm2c_value *x = n->inputs[i];
        int k = bv(b, x)->kind;
        if (k == K_SIZE)
            return refuse(b, n, "input %d is computed from the batch size (it would be read as data)", i);
        if (k == K_ROW && x->shape.rank != rank)
            return refuse(b, n, "input %d of rank %d is broadcast against rank %d, which moves the batch dim",
                          i, x->shape.rank, rank);
        if (k == K_ROW && x->shape.dims[0] != n->outputs[0]->shape.dims[0])
            return refuse(b, n, "input %d is broadcast along the batch dim", i);
        if (k == K_UNIFORM && x->shape.rank == rank && rank > 0 && x->shape.dims[0] != 1)
            return refuse(b, n, "input %d has a fixed leading dim %lld where the batch goes", i,
                          (long long)x->shape.dims[0]);
    }
    return set_rows(b, n);
}

/* Ops whose data input `d` keeps the batch leading and whose other inputs
** must not depend on the batch (convolutions, pools, resizes, ...). */
static sm2c_status rule_leading(bctx *b, const sm2c_node *n, int32_t d)
{
    for (int32_t i = 0; i < n->n_inputs; i++)
        if (i != d && kind_of(b, n, i) != K_UNIFORM)
            return refuse(b, n, "input %d depends on the batch, and rows would be mixed", i);
    return set_rows(b, n);
}

/* Reductions, arg-extrema, scans, reverses: input 1 holds the axes. */
static sm2c_status rule_axes(bctx *b, const sm2c_node *n)
{
    if (axes_include_0(b, n, 1, n->inputs[0]->shape.rank))
        return refuse(b, n, "it works across the batch dim (axis 0)");
    return rule_leading(b, n, 0);
}

static sm2c_status rule_matmul(bctx *b, const sm2c_node *n)
{
    if (kind_of(b, n, 0) != K_ROW || sm2c_attr_flag(n, "transpose_a"))
        return refuse(b, n, "the batch is not the row dim of its left operand");
    return rule_leading(b, n, 0);
}

static sm2c_status rule_batch_matmul(bctx *b, const sm2c_node *n)
{
    if (n->inputs[0]->shape.rank >= 3 || n->inputs[1]->shape.rank >= 3)
        return rule_elementwise(b, n);  /* the batch is a broadcast batch dim */
    if (kind_of(b, n, 0) != K_ROW || sm2c_attr_flag(n, "adj_x"))
        return refuse(b, n, "the batch is not the row dim of its left operand");
    return rule_leading(b, n, 0);
}

static sm2c_status rule_batch_norm(bctx *b, const sm2c_node *n)
{
    if (sm2c_attr_flag(n, "is_training"))
        return refuse(b, n, "training-mode batch norm takes its statistics over the whole batch");
    for (int32_t i = 1; i < n->n_inputs; i++)
        if (kind_of(b, n, i) != K_UNIFORM)
            return refuse(b, n, "input %d depends on the batch", i);
    for (int32_t k = 1; k < n->n_outputs; k++)
        bv(b, n->outputs[k])->kind = K_UNIFORM;
    return set_row(b, n, 0);
}

/* Conv2DBackpropInput and friends: input 0 is the output shape. */
static sm2c_status rule_backprop_input(bctx *b, const sm2c_node *n)
{
    if (!batch_leading_shape(b, n, 0, 0))
        return refuse(b, n, "its output shape (input 0) must take the batch from the input's shape");
    if (kind_of(b, n, 1) != K_UNIFORM || kind_of(b, n, 2) != K_ROW)
        return refuse(b, n, "only its input 2 may depend on the batch");
    return set_rows(b, n);
}

static sm2c_status rule_reshape(bctx *b, const sm2c_node *n)
{
    if (kind_of(b, n, 0) != K_ROW || !batch_leading_shape(b, n, 1, 1))
        return refuse(b, n, "it does not keep the batch as the leading dim (its shape must start with -1 "
                            "or the input's batch)");
    return set_row(b, n, 0);
}

/* Fill(dims, value), BroadcastTo(input, shape): a batch-leading shape. */
static sm2c_status rule_fill(bctx *b, const sm2c_node *n)
{
    int32_t s = op_is(n, "Fill") ? 0 : 1, d = 1 - s;
    const sm2c_shape *in = &n->inputs[d]->shape, *out = &n->outputs[0]->shape;
    int ok = batch_leading_shape(b, n, s, 0) && kind_of(b, n, d) != K_SIZE &&
             (kind_of(b, n, d) == K_UNIFORM || (in->rank == out->rank && in->dims[0] == out->dims[0]));
    if (!ok)
        return refuse(b, n, "its shape must take the batch from a batched input's shape");
    return set_row(b, n, 0);
}

static sm2c_status rule_transpose(bctx *b, const sm2c_node *n)
{
    int64_t count = 0;
    const int64_t *perm = const_ints(b, n, 1, &count);
    if (!perm || count < 1 || norm_axis(perm[0], n->inputs[0]->shape.rank) != 0)
        return refuse(b, n, "it moves the batch dim");
    return rule_leading(b, n, 0);
}

static sm2c_status rule_expand_dims(bctx *b, const sm2c_node *n)
{
    int64_t count = 0;
    const int64_t *ax = const_ints(b, n, 1, &count);
    if (!ax || count != 1 || norm_axis(ax[0], n->inputs[0]->shape.rank + 1) <= 0)
        return refuse(b, n, "it inserts a dim before the batch");
    return rule_leading(b, n, 0);
}

static sm2c_status rule_squeeze(bctx *b, const sm2c_node *n)
{
    const int64_t *dims;
    size_t count = 0;
    sm2c_attr_ints(n, "squeeze_dims", &dims, &count);
    if (count == 0)
        return refuse(b, n, "without squeeze_dims it would drop the batch dim at batch 1 only");
    for (size_t k = 0; k < count; k++)
        if (norm_axis(dims[k], n->inputs[0]->shape.rank) <= 0)
            return refuse(b, n, "it squeezes the batch dim");
    return rule_leading(b, n, 0);
}

/* ConcatV2 (axis last) and Pack (attr axis): every value input batched. */
static sm2c_status rule_join(bctx *b, const sm2c_node *n)
{
    int concat = op_is(n, "ConcatV2");
    int32_t last = concat ? n->n_inputs - 1 : n->n_inputs, rank = n->outputs[0]->shape.rank;
    int64_t count = 0, axis = sm2c_attr_i(n, "axis");
    const int64_t *ax = concat ? const_ints(b, n, last, &count) : &axis;
    if (!ax || (concat && kind_of(b, n, last) != K_UNIFORM) || norm_axis(ax[0], rank) <= 0)
        return refuse(b, n, "it joins along the batch dim");
    for (int32_t i = 0; i < last; i++)
        if (kind_of(b, n, i) != K_ROW)
            return refuse(b, n, "input %d is not batched, so it cannot be joined row by row", i);
    return set_rows(b, n);
}

/* Unpack (attr axis), Split (axis input 0, value 1), SplitV (value, sizes, axis). */
static sm2c_status rule_split(bctx *b, const sm2c_node *n)
{
    int32_t d = op_is(n, "Split") ? 1 : 0, rank = n->inputs[d]->shape.rank;
    int64_t count = 0, axis = sm2c_attr_i(n, "axis");
    const int64_t *ax = op_is(n, "Unpack") ? &axis : const_ints(b, n, op_is(n, "Split") ? 0 : 2, &count);
    if (!ax || norm_axis(ax[0], rank) <= 0)
        return refuse(b, n, "it splits along the batch dim");
    return rule_leading(b, n, d);
}

/* Pad, PadV2, MirrorPad: no padding on the batch dim. */
static sm2c_status rule_pad(bctx *b, const sm2c_node *n)
{
    int64_t count = 0;
    const int64_t *p = const_ints(b, n, 1, &count);
    if (!p || count < 2 || p[0] != 0 || p[1] != 0)
        return refuse(b, n, "it pads the batch dim");
    return rule_leading(b, n, 0);
}

static sm2c_status rule_tile(bctx *b, const sm2c_node *n)
{
    int64_t count = 0;
    const int64_t *m = const_ints(b, n, 1, &count);
    if (!m || count < 1 || m[0] != 1)
        return refuse(b, n, "it tiles the batch dim");
    return rule_leading(b, n, 0);
}

/* Input i (a slice's end or size) is the batch's share of the leading dim:
** element 0 is B times its one-row value, and that is the whole dim; the
** others do not depend on the batch. */
static int whole_leading(bctx *b, const sm2c_node *n, int32_t i)
{
    int64_t count = 0;
    const int64_t *v = const_ints(b, n, i, &count);
    return batch_leading_shape(b, n, i, 0) && v && count >= 1 && v[0] == n->inputs[0]->shape.dims[0];
}

/* Slice and StridedSlice must take every row. */
static sm2c_status rule_slice(bctx *b, const sm2c_node *n)
{
    int64_t nb = 0, ne = 0, ns = 0;
    const int64_t *bg = const_ints(b, n, 1, &nb), *en = const_ints(b, n, 2, &ne);
    int ok;
    if (op_is(n, "Slice")) {
        ok = bg && nb >= 1 && bg[0] == 0 && ((en && ne >= 1 && en[0] == -1) || whole_leading(b, n, 2));
    } else {
        const int64_t *st = const_ints(b, n, 3, &ns);
        int64_t bm = sm2c_attr_i(n, "begin_mask"), em = sm2c_attr_i(n, "end_mask");
        ok = !(sm2c_attr_i(n, "ellipsis_mask") & 1) && !(sm2c_attr_i(n, "new_axis_mask") & 1) &&
             !(sm2c_attr_i(n, "shrink_axis_mask") & 1) && st && ns >= 1 && st[0] == 1 &&
             ((bm & 1) || (bg && nb >= 1 && bg[0] == 0)) &&
             ((em & 1) || whole_leading(b, n, 2));
        if (!ok && (sm2c_attr_i(n, "ellipsis_mask") & 1) && !sm2c_attr_i(n, "new_axis_mask") && st &&
            ns - 1 < n->inputs[0]->shape.rank)
            ok = 1;     /* x[..., k:]: the ellipsis spans at least the batch dim */
    }
    if (!ok || kind_of(b, n, 1) == K_SIZE || kind_of(b, n, 3) == K_SIZE)
        return refuse(b, n, "it does not take every row (the batch dim must be sliced whole)");
    for (int32_t i = 1; i < n->n_inputs; i++)
        if (kind_of(b, n, i) == K_ROW)
            return refuse(b, n, "its bounds depend on the batch data");
    return set_rows(b, n);
}

/* GatherV2 / ResourceGather: batched params gathered on a later axis, or
** fixed params (an embedding table) indexed by batched indices on axis 0. */
static sm2c_status rule_gather(bctx *b, const sm2c_node *n)
{
    int resource = op_is(n, "ResourceGather");
    int64_t count = 0, zero = 0, bd = sm2c_attr_i(n, "batch_dims");
    const int64_t *ax = resource ? &zero : const_ints(b, n, 2, &count);
    int pk = kind_of(b, n, 0), ik = kind_of(b, n, 1);
    if (!ax || pk == K_SIZE || ik == K_SIZE || kind_of(b, n, 2) != K_UNIFORM)
        return refuse(b, n, "its axis must be constant and its inputs not computed from the batch size");
    int64_t axis = norm_axis(ax[0], n->inputs[0]->shape.rank);
    int ok = (pk == K_ROW && ik == K_UNIFORM && axis > 0 && bd == 0) ||
             (pk == K_UNIFORM && ik == K_ROW && axis == 0 && bd == 0) ||
             (pk == K_ROW && ik == K_ROW && axis > 0 && bd >= 1);
    if (!ok)
        return refuse(b, n, "it gathers across rows (axis %lld, batch_dims %lld)", (long long)ax[0], (long long)bd);
    return set_row(b, n, 0);
}

static sm2c_status rule_gather_nd(bctx *b, const sm2c_node *n)
{
    if (kind_of(b, n, 0) != K_UNIFORM || n->inputs[1]->shape.rank < 2 || sm2c_attr_i(n, "batch_dims"))
        return refuse(b, n, "it gathers across rows");
    return set_row(b, n, 0);
}

static sm2c_status rule_one_hot(bctx *b, const sm2c_node *n)
{
    int64_t axis = sm2c_attr_i(n, "axis");
    if (!sm2c_attr(n, "axis"))
        axis = -1;
    if (norm_axis(axis, n->inputs[0]->shape.rank + 1) <= 0)
        return refuse(b, n, "its new axis goes before the batch dim");
    return rule_leading(b, n, 0);
}

/* Einsum: the output's first label is every batched operand's first label,
** and no other operand has it (so it is neither summed nor broadcast). */
static sm2c_status rule_einsum(bctx *b, const sm2c_node *n)
{
    const char *eq = sm2c_attr_str(b->c, n, "equation");
    const char *arrow = eq ? strstr(eq, "->") : NULL;
    if (!arrow || !arrow[2] || strchr(eq, '.'))
        return refuse(b, n, "only an Einsum with explicit labels and output is followed");
    char label = arrow[2];
    const char *operand = eq;
    for (int32_t i = 0; i < n->n_inputs; i++) {
        size_t len = strcspn(operand, ",-");
        int has = memchr(operand, label, len) != NULL;
        int k = kind_of(b, n, i);
        if (k == K_SIZE || (k == K_ROW && operand[0] != label) || (k == K_UNIFORM && has))
            return refuse(b, n, "equation '%s' does not keep label '%c' as the batch", eq, label);
        operand += len + (operand[len] == ',');
    }
    return set_row(b, n, 0);
}

static sm2c_status rule_band_part(bctx *b, const sm2c_node *n)
{
    if (n->inputs[0]->shape.rank < 3)
        return refuse(b, n, "the batch is one of its matrix dims");
    return rule_leading(b, n, 0);
}

/* ---- the rule table ----------------------------------------------------------- */

typedef struct rule {
    const char *op;
    sm2c_status (*fn)(bctx *b, const sm2c_node *n);
    int32_t data;       /* for rule_leading: the batched data input */
} rule;

static const rule rules[] = {
    { "MatMul", rule_matmul, 0 }, { "BatchMatMul", rule_batch_matmul, 0 },
    { "BatchMatMulV2", rule_batch_matmul, 0 }, { "BatchMatMulV3", rule_batch_matmul, 0 },
    { "Conv2D", NULL, 0 }, { "DepthwiseConv2dNative", NULL, 0 }, { "MaxPool", NULL, 0 },
    { "AvgPool", NULL, 0 }, { "MaxPoolV2", NULL, 0 }, { "Conv3D", NULL, 0 }, { "MaxPool3D", NULL, 0 },
    { "AvgPool3D", NULL, 0 }, { "ResizeBilinear", NULL, 0 }, { "ResizeNearestNeighbor", NULL, 0 },
    { "ParseExample", NULL, 0 }, { "ParseExampleV2", NULL, 0 },   /* each serialized Example is a row */
    { "SpaceToDepth", NULL, 0 }, { "DepthToSpace", NULL, 0 },
    { "FusedBatchNorm", rule_batch_norm, 0 }, { "FusedBatchNormV2", rule_batch_norm, 0 },
    { "FusedBatchNormV3", rule_batch_norm, 0 },
    { "Conv2DBackpropInput", rule_backprop_input, 0 }, { "Conv3DBackpropInputV2", rule_backprop_input, 0 },
    { "DepthwiseConv2dNativeBackpropInput", rule_backprop_input, 0 },
    { "Sum", rule_axes, 0 }, { "Mean", rule_axes, 0 }, { "Max", rule_axes, 0 }, { "Min", rule_axes, 0 },
    { "Prod", rule_axes, 0 }, { "All", rule_axes, 0 }, { "Any", rule_axes, 0 },
    { "EuclideanNorm", rule_axes, 0 }, { "ArgMax", rule_axes, 0 }, { "ArgMin", rule_axes, 0 },
    { "Cumsum", rule_axes, 0 }, { "Cumprod", rule_axes, 0 }, { "ReverseV2", rule_axes, 0 },
    { "Reshape", rule_reshape, 0 }, { "Fill", rule_fill, 0 }, { "BroadcastTo", rule_fill, 0 },
    { "Transpose", rule_transpose, 0 }, { "ExpandDims", rule_expand_dims, 0 },
    { "Squeeze", rule_squeeze, 0 }, { "ConcatV2", rule_join, 0 }, { "Pack", rule_join, 0 },
    { "Unpack", rule_split, 0 }, { "Split", rule_split, 0 }, { "SplitV", rule_split, 0 },
    { "Pad", rule_pad, 0 }, { "PadV2", rule_pad, 0 }, { "MirrorPad", rule_pad, 0 },
    { "Tile", rule_tile, 0 }, { "Slice", rule_slice, 0 }, { "StridedSlice", rule_slice, 0 },
    { "GatherV2", rule_gather, 0 }, { "ResourceGather", rule_gather, 0 },
    { "GatherNd", rule_gather_nd, 0 }, { "OneHot", rule_one_hot, 0 },
    { "MatrixBandPart", rule_band_part, 0 }, { "Einsum", rule_einsum, 0 },
    { "Shape", rule_shape, 0 }, { "Size", rule_shape, 0 }, { "Rank", rule_shape, 0 },
};

/* The op table's ELEMENTWISE and ROWWISE ops need no rule of their own; a
** row-wise op works along the last axis, which on a rank-1 value is the batch. */
static sm2c_status apply_rule(bctx *b, const sm2c_node *n)
{
    uint32_t f = n->op->flags;
    if ((f & SM2C_OPF_ROWWISE) && n->inputs[0]->shape.rank < 2)
        return refuse(b, n, "it works along the last axis, which is the batch dim here");
    if (f & SM2C_OPF_ELEMENTWISE)
        return rule_elementwise(b, n);
    if (f & SM2C_OPF_ROWWISE)
        return rule_leading(b, n, 0);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (op_is(n, rules[i].op))
            return rules[i].fn ? rules[i].fn(b, n) : rule_leading(b, n, rules[i].data);
    return refuse(b, n, "sm2c does not know that %s keeps batch rows apart", n->op->name);
}

static int all_outputs_constant(const sm2c_node *n)
{
    for (int32_t k = 0; k < n->n_outputs; k++)
        if (!n->outputs[k]->constant)
            return 0;
    return 1;
}

/* Fill, BroadcastTo and the backprop-input ops turn a SIZE shape into a ROW
** value even with no ROW input, folded or not (zeros of one row are a row). */
static int makes_rows_from_size(const sm2c_node *n)
{
    return op_is(n, "Fill") || op_is(n, "BroadcastTo") || op_is(n, "Conv2DBackpropInput") || op_is(n, "Conv3DBackpropInputV2") ||
           op_is(n, "DepthwiseConv2dNativeBackpropInput");
}

static sm2c_status classify_node(bctx *b, const sm2c_node *n)
{
    int row = 0, size = 0;
    for (int32_t i = 0; i < n->n_inputs; i++) {
        row |= kind_of(b, n, i) == K_ROW;
        size |= kind_of(b, n, i) == K_SIZE;
    }
    if (row || (size && makes_rows_from_size(n)))
        return apply_rule(b, n);
    if (size && !all_outputs_constant(n))
        return refuse(b, n, "it reads the batch size as data (compiled at one row, it would be wrong "
                            "for other batches)");
    if (size)
        size_node(b, n);
    return SM2C_OK;     /* UNIFORM: zero-initialised */
}

/* ---- ports ------------------------------------------------------------------------ */

/* The --shape the user gave for input `key` of entry `entry` (KEY or SIG.KEY), or NULL. */
static const sm2c_shape *given_shape(const sm2c_import_opts *io, const char *entry, const char *key)
{
    const sm2c_shape_opt *s = sm2c_shape_opt_find(io, entry, key);
    return s && !s->implied ? &s->shape : NULL;
}

/* An input is batched when its signature leaves the leading dim unknown (or
** the rank, and --shape KEY=-1,... gives the rest; or it is a string input of
** unknown rank, serialized protos) and no --shape fixes it;
** their count in *n. */
static sm2c_status mark_inputs(bctx *b, const sm2c_import_opts *io, int32_t *count)
{
    sm2c_graph *g = b->g;
    int32_t n = 0;
    for (int32_t i = 0; i < g->n_inputs; i++) {
        sm2c_port_value *pv = &g->inputs[i];
        const sm2c_shape *given = given_shape(io, g->key, pv->key);
        int open = given && given->rank >= 1 && given->dims[0] < 0;
        /* serialized protos of unknown rank are a vector of rows (import.c) */
        int protos = pv->value->dtype == SM2C_DT_STRING && pv->declared_shape.rank < 0 && !given;
        if (!(pv->declared_shape.rank >= 1 && pv->declared_shape.dims[0] < 0) &&
            !(pv->declared_shape.rank < 0 && open) && !protos)
            continue;
        if (given && !open)
            return sm2c_error(b->c->diag, SM2C_ERR_USAGE, g->file,
                              sm2c_arena_printf(b->c->arena, "signature '%s' input '%s'", g->key, pv->key),
                              "both --shape and --max-batch set its unknown leading dim (give it as -1: "
                              "--shape %s=-1,...)", pv->key);
        pv->batched = 1;
        bv(b, pv->value)->kind = K_ROW;
        n++;
    }
    *count = n;
    return SM2C_OK;
}

static sm2c_status mark_outputs(bctx *b)
{
    sm2c_graph *g = b->g;
    for (int32_t i = 0; i < g->n_outputs; i++) {
        sm2c_port_value *pv = &g->outputs[i];
        int k = bv(b, pv->value)->kind;
        const char *w = sm2c_arena_printf(b->c->arena, "signature '%s' output '%s'", g->key, pv->key);
        if (k == K_SIZE)
            return sm2c_error(b->c->diag, SM2C_ERR_UNSUPPORTED, g->file, w,
                              "--max-batch: it is computed from the batch size");
        if (k == K_ROW && pv->declared_shape.rank >= 1 && pv->declared_shape.dims[0] >= 0)
            return sm2c_error(b->c->diag, SM2C_ERR_INVALID, g->file, w,
                              "--max-batch: it carries the batch, but the signature declares its "
                              "leading dim as %lld", (long long)pv->declared_shape.dims[0]);
        pv->batched = k == K_ROW ? (int32_t)pv->value->shape.dims[0] : 0;
    }
    return SM2C_OK;
}

sm2c_status sm2c_pass_batch(sm2c_ctx *c, sm2c_graph *g, const sm2c_import_opts *io, int32_t *n_batched)
{
    bctx b = { c, g, sm2c_arena_array(c->arena, (size_t)g->n_values + 1, sizeof *b.v) };
    sm2c_status st = mark_inputs(&b, io, n_batched);
    if (!st && *n_batched == 0)
        return SM2C_OK;     /* nothing to batch: the entry stays as it is */
    for (int32_t i = 0; i < g->n_nodes && !st; i++)
        if (!g->nodes[i]->dead)
            st = classify_node(&b, g->nodes[i]);
    return st ? st : mark_outputs(&b);
}
