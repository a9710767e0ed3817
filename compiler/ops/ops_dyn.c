/*
** ops_dyn.c: values whose size depends on the data (issue 17).
**
** Where, Unique and NonMaxSuppression make a value with one data-dependent dim
** (Where and Unique also of one: Where zeroes the rows past its input's count
** first, Unique reads up to it and its idx shares it):
** its static shape holds the bound (Where of N elements: [N, rank]), and at run
** time the op writes the actual size to an int64 count buffer
** (sm2c_lower_count).  The value's `dyn` points at the value that owns the
** count, `dyn_dim` says which dim it sizes.
**
** A consumer that works row by row along that dim runs on the whole bound and
** shares the count (elementwise ops with a broadcast operand, Cast, Reshape,
** Squeeze and ExpandDims that keep the dim whole, GatherV2 and GatherNd with
** data-dependent indices, MatMul over rows, Softmax along another dim).  Rows
** past the count hold unspecified values; before an op uses them as indices
** they are zeroed (sm2c_dyn_lower_inputs), so they are never out of range;
** likewise before a Sum, Any or EuclideanNorm over the dim, which is then exact
** (before an All they are set to true).
** Every other consumer is refused: "data-dependent shape reaches <op>".
**
** An entry output with such a dim is sized to the bound, and the entry gets
** one more output after the signature's: "<key>_count", an int64 scalar
** holding the actual size (sm2c_dyn_count_ports); rows past it are zero.
*/
#include "ops_dyn.h"

#include <string.h>

#include "ops_common.h"

int sm2c_dyn_outputs(const sm2c_node *n)
{
    for (int32_t i = 0; i < n->n_outputs; i++)
        if (n->outputs[i]->dyn && !n->outputs[i]->constant)
            return 1;
    return 0;
}

static sm2c_status refuse(sm2c_ctx *c, const sm2c_node *n, const char *why)
{
    return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "data-dependent shape reaches %s (%s)", n->op->name, why);
}

static void set_dyn(sm2c_node *n, int32_t k, const sm2c_value *root, int32_t dim)
{
    n->outputs[k]->dyn = root;
    n->outputs[k]->dyn_dim = dim;
}

/* Elementwise with broadcasting: every data-dependent input must land on the
** same output dim, and a static input must have 1 there (or not reach it). */
static sm2c_status broadcast_rule(sm2c_ctx *c, sm2c_node *n, const sm2c_value *root)
{
    int32_t out_rank = n->outputs[0]->shape.rank, at = -1;
    for (int32_t i = 0; i < n->n_inputs; i++) {
        const sm2c_value *v = n->inputs[i];
        if (!v->dyn)
            continue;
        int32_t d = v->dyn_dim + out_rank - v->shape.rank;
        if (at >= 0 && d != at)
            return refuse(c, n, "its operands' data-dependent dims do not line up");
        at = d;
    }
    for (int32_t i = 0; i < n->n_inputs; i++) {
        const sm2c_value *v = n->inputs[i];
        int32_t d = at - (out_rank - v->shape.rank);
        if (!v->dyn && d >= 0 && v->shape.dims[d] != 1)
            return refuse(c, n, "a static operand spans the data-dependent dim");
    }
    for (int32_t k = 0; k < n->n_outputs; k++)
        set_dyn(n, k, root, at);
    return SM2C_OK;
}

/* Reshape, Squeeze, ExpandDims: the dim must stay whole, with the same
** elements before it. */
static sm2c_status reshape_rule(sm2c_ctx *c, sm2c_node *n, const sm2c_value *root)
{
    const sm2c_value *in = n->inputs[0];
    const sm2c_shape *o = &n->outputs[0]->shape;
    int64_t before = 1, ob = 1;
    for (int32_t d = 0; d < in->dyn_dim; d++)
        before *= in->shape.dims[d];
    for (int32_t d = 0; d < o->rank; d++) {
        if (ob == before && o->dims[d] == in->shape.dims[in->dyn_dim]) {
            set_dyn(n, 0, root, d);
            return SM2C_OK;
        }
        ob *= o->dims[d];
    }
    return refuse(c, n, "the reshape splits or merges the data-dependent dim");
}

static int is_int_division(const sm2c_node *n)
{
    static const char *const ops[] = { "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Mod", "Div" };
    int dt = n->outputs[0]->dtype;
    if (dt == SM2C_DT_FLOAT || dt == SM2C_DT_DOUBLE || dt == SM2C_DT_HALF || dt == SM2C_DT_BFLOAT16)
        return 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(n->op->name, ops[i]) == 0)
            return 1;
    return 0;
}

static sm2c_status gather_rule(sm2c_ctx *c, sm2c_node *n, const sm2c_value *root)
{
    const sm2c_value *params = n->inputs[0], *idx = n->inputs[1];
    int64_t axis = 0, batch_dims = sm2c_attr_i(n, "batch_dims");
    if (n->n_inputs > 2) {
        const sm2c_tensor *t = n->inputs[2]->constant;
        if (!t || t->nelem != 1)
            return refuse(c, n, "its axis is not a constant");
        axis = sm2c_op_ints(c, t)[0];
    }
    if (axis < 0)
        axis += params->shape.rank;
    if (batch_dims < 0)
        batch_dims += idx->shape.rank;
    /* Rows picked along params' data-dependent dim: the indices are checked
    ** against its count (sm2c_dyn_lower_inputs). */
    int along = params->dyn && params->dyn_dim == axis;
    if (params->dyn && idx->dyn && !along)
        return refuse(c, n, "both params and indices are data-dependent");
    if (along && (batch_dims || (idx->dyn && idx->shape.rank != 1)))
        return refuse(c, n, "it gathers along the data-dependent dim with batch dims or a matrix of indices");
    if (idx->dyn) {
        if (idx->dyn_dim < batch_dims)
            return refuse(c, n, "the data-dependent dim is a batch dim");
        set_dyn(n, 0, idx->dyn, (int32_t)(axis + idx->dyn_dim - batch_dims));
        return SM2C_OK;
    }
    if (along)
        return SM2C_OK;     /* as many rows as the indices: static */
    if (params->dyn_dim < batch_dims)
        return refuse(c, n, "it gathers along the data-dependent dim");
    set_dyn(n, 0, root, params->dyn_dim < axis ? params->dyn_dim
                                               : (int32_t)(params->dyn_dim - 1 + idx->shape.rank - batch_dims));
    return SM2C_OK;
}

/* Reductions: over other dims the rows stay; over the data-dependent dim
** only those whose identity is all zero or all one bytes (Sum, Any,
** EuclideanNorm; All): the rows past the count are set to it first
** (sm2c_dyn_lower_inputs), so the bound's sum is the count's. */
static int reduces_zero_padded(const sm2c_node *n)
{
    return n->op->lower == lower_reduce && n->inputs[0]->dyn && n->outputs[0]->dyn == NULL;
}

/* Max or Min of int32 / int64: the rows past the count are set to the
** lowest / highest value first (dyn_fill.c), so the result is exact. */
static int int_extreme(const sm2c_node *n)
{
    int dt = n->inputs[0]->dtype;
    return (dt == SM2C_DT_INT32 || dt == SM2C_DT_INT64) &&
           (strcmp(n->op->name, "Max") == 0 || strcmp(n->op->name, "Min") == 0);
}

static sm2c_status reduce_rule(sm2c_ctx *c, sm2c_node *n, const sm2c_value *root)
{
    const sm2c_value *x = n->inputs[0];
    const sm2c_tensor *t = n->inputs[1]->constant;
    if (!x->dyn || !t)
        return refuse(c, n, "its axes have the data-dependent size");
    int64_t *axes = sm2c_op_ints(c, t);
    int keep = sm2c_attr_flag(n, "keep_dims"), over = 0;
    int32_t before = 0;
    for (int64_t i = 0; i < t->nelem; i++) {
        int64_t a = axes[i] < 0 ? axes[i] + x->shape.rank : axes[i];
        over |= a == x->dyn_dim;
        before += a < x->dyn_dim;
    }
    if (!over) {
        set_dyn(n, 0, root, keep ? x->dyn_dim : x->dyn_dim - before);
        return SM2C_OK;
    }
    if (strcmp(n->op->name, "Sum") != 0 && strcmp(n->op->name, "Any") != 0 &&
        strcmp(n->op->name, "EuclideanNorm") != 0 && strcmp(n->op->name, "All") != 0 && !int_extreme(n))
        return refuse(c, n, "it reduces over the data-dependent dim");
    return SM2C_OK;     /* a static result */
}

/* ConcatV2 and Pack of values that all share the count, along another dim. */
static sm2c_status concat_rule(sm2c_ctx *c, sm2c_node *n, const sm2c_value *root)
{
    int pack = strcmp(n->op->name, "Pack") == 0;
    int32_t parts = pack ? n->n_inputs : n->n_inputs - 1, rank = n->inputs[0]->shape.rank;
    int64_t axis;
    if (pack) {
        axis = sm2c_attr_i(n, "axis");
    } else {
        const sm2c_tensor *t = n->inputs[parts]->constant;
        if (!t || t->nelem != 1)
            return refuse(c, n, "its axis is not a constant");
        axis = sm2c_op_ints(c, t)[0];
    }
    if (axis < 0)
        axis += rank + pack;
    for (int32_t i = 0; i < parts; i++)
        if (n->inputs[i]->dyn != root || n->inputs[i]->dyn_dim != n->inputs[0]->dyn_dim)
            return refuse(c, n, "a part without the same data-dependent size");
    int32_t d = n->inputs[0]->dyn_dim;
    if (!pack && axis == d)
        return refuse(c, n, "it joins along the data-dependent dim");
    set_dyn(n, 0, root, pack && axis <= d ? d + 1 : d);
    return SM2C_OK;
}

static sm2c_status dyn_rule(sm2c_ctx *c, sm2c_node *n, const sm2c_value *root);

sm2c_status sm2c_dyn_node(sm2c_ctx *c, sm2c_node *n)
{
    const sm2c_value *root = NULL;
    for (int32_t i = 0; i < n->n_inputs && !root; i++)
        root = n->inputs[i]->dyn;
    if (!root || strcmp(n->op->name, "Rank") == 0)
        return SM2C_OK;
    if (sm2c_dyn_shape_op(n)) {    /* computed at run time from the count */
        n->outputs[0]->constant = NULL;
        return SM2C_OK;
    }
    sm2c_status st = dyn_rule(c, n, root);
    /* A hook that folded its result from the static shape saw the bound
    ** (SparseReshape's output_shape comes from its shape inputs). */
    for (int32_t k = 0; !st && n->op->lower != lower_sparse_reshape && k < n->n_outputs; k++)
        if (n->outputs[k]->constant)
            st = refuse(c, n, "its result would be computed from the bound");
    return st;
}

/* SparseSegment*: data (Unique's gather) and the index/id pair may have
** counts of their own; the kernel reads each up to its count. */
static sm2c_status sparse_segment_rule(sm2c_ctx *c, sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *ix = n->inputs[1], *ids = n->inputs[2];
    if ((x->dyn && x->dyn_dim != 0) || ix->dyn != ids->dyn || (ix->dyn && (ix->dyn_dim || ids->dyn_dim)))
        return refuse(c, n, "its indices and segment_ids must share their data-dependent size");
    return SM2C_OK;     /* its result: static, or sized by a count of its own (the hook) */
}

/* SparseReshape (index rows, shapes static) and SparseFillEmptyRows (index
** rows and values with one count; its outputs are set by its hook). */
static sm2c_status sparse_rows_rule(sm2c_ctx *c, sm2c_node *n, const sm2c_value *root)
{
    const sm2c_value *x = n->inputs[0];
    int fill = n->op->lower == lower_sparse_fill_empty_rows;
    if (!x->dyn || x->dyn_dim != 0 || n->inputs[2]->dyn || (fill && n->inputs[3]->dyn) ||
        (fill ? !n->inputs[1]->dyn || n->inputs[1]->dyn_dim != 0 : n->inputs[1]->dyn != NULL))
        return refuse(c, n, "only its index rows (and values) may have the data-dependent size");
    if (!fill)
        set_dyn(n, 0, root, 0);
    return SM2C_OK;
}

static sm2c_status dyn_rule(sm2c_ctx *c, sm2c_node *n, const sm2c_value *root)
{
    if (n->op->lower == lower_sparse_segment)
        return sparse_segment_rule(c, n);
    if (n->op->lower == lower_gather)
        return gather_rule(c, n, root);
    if (n->op->lower == lower_ragged_to_tensor || n->op->lower == lower_bincount ||
        n->op->lower == lower_ragged_bincount || n->op->lower == lower_reduce_join)
        return SM2C_OK;     /* reads the values and row ids up to their count; a static result */
    if (n->op->lower == lower_where || n->op->lower == lower_unique)
        return SM2C_OK;     /* read up to the count; results with counts of their own (the hooks) */
    for (int32_t i = 0; i < n->n_inputs; i++)
        if (n->inputs[i]->dyn && n->inputs[i]->dyn != root)
            return refuse(c, n, "two different data-dependent sizes meet");
    const sm2c_opdef *op = n->op;
    const sm2c_value *x = n->inputs[0];
    if (op->lower == lower_sparse_to_dense) {   /* reads the indices up to the count */
        const sm2c_value *v = n->inputs[2];
        if (!x->dyn || x->dyn_dim != 0 || n->inputs[3]->dyn || (v->dyn ? v->dyn_dim != 0 : v->shape.rank != 0))
            return refuse(c, n, "only its index rows and values may have the data-dependent size");
        return SM2C_OK;     /* its result: static, or sized by a bounded output_shape */
    }
    if (op->lower == lower_sparse_reshape || op->lower == lower_sparse_fill_empty_rows)
        return sparse_rows_rule(c, n, root);
    if (sm2c_dyn_outputs(n) || n->n_outputs == 0)
        return refuse(c, n, "its input has a data-dependent size");
    if (op->lower == lower_unary || op->lower == lower_cast || op->lower == lower_logic_unary ||
        op->lower == lower_string_to_hash_bucket || op->lower == lower_lookup_table ||
        op->lower == lower_string_lower || op->lower == lower_regex_replace ||
        (op->lower == lower_fill && n->n_inputs == 1)) {
        set_dyn(n, 0, root, x->dyn_dim);
        return SM2C_OK;
    }
    if (op->lower == lower_softmax || op->lower == lower_lrn) {
        if (x->dyn_dim == x->shape.rank - 1)
            return refuse(c, n, "it normalizes along the data-dependent dim");
        set_dyn(n, 0, root, x->dyn_dim);
        return SM2C_OK;
    }
    if (op->lower == lower_binary || op->lower == lower_compare || op->lower == lower_select ||
        op->lower == lower_clip || op->lower == lower_approximate_equal) {
        if (is_int_division(n) && n->inputs[1]->dyn)
            return refuse(c, n, "an integer divisor with a data-dependent size");
        if (strcmp(op->name, "Select") == 0 && x->shape.rank != n->outputs[0]->shape.rank)
            return refuse(c, n, "a vector condition selects along the leading dim");
        return broadcast_rule(c, n, root);
    }
    if (op->lower == lower_bias_add) {
        if (!x->dyn || n->inputs[1]->dyn || sm2c_attr_str_is(n, "data_format", "NCHW") ||
            x->dyn_dim == x->shape.rank - 1)
            return refuse(c, n, "the bias runs along the data-dependent dim");
        set_dyn(n, 0, root, x->dyn_dim);
        return SM2C_OK;
    }
    if (op->lower == lower_alias && x->dyn)
        return reshape_rule(c, n, root);
    if (op->lower == lower_slice && x->dyn) {
        int32_t d = sm2c_slice_keeps_dim(c, n, x->dyn_dim);
        if (d < 0)
            return refuse(c, n, "it does not keep the data-dependent dim whole");
        set_dyn(n, 0, root, d);
        return SM2C_OK;
    }
    if (op->lower == lower_concat)
        return concat_rule(c, n, root);
    if (op->lower == lower_reduce)
        return reduce_rule(c, n, root);
    if (op->lower == lower_one_hot) {   /* each index becomes a row of depth values */
        int64_t axis = sm2c_attr_i(n, "axis");
        if (!x->dyn || n->inputs[1]->dyn || n->inputs[2]->dyn || n->inputs[3]->dyn)
            return refuse(c, n, "only its indices may have the data-dependent size");
        set_dyn(n, 0, root, axis < 0 || axis > x->dyn_dim ? x->dyn_dim : x->dyn_dim + 1);
        return SM2C_OK;
    }
    if (op->lower == lower_gather_nd) {
        const sm2c_value *idx = n->inputs[1];
        if (x->dyn || idx->dyn_dim == idx->shape.rank - 1)
            return refuse(c, n, "the data-dependent dim is not a row of indices");
        set_dyn(n, 0, root, idx->dyn_dim);
        return SM2C_OK;
    }
    if (op->lower == lower_matmul) {
        int ta = sm2c_attr_flag(n, "transpose_a"), tb = sm2c_attr_flag(n, "transpose_b");
        const sm2c_value *b = n->inputs[1];
        if (x->dyn && !b->dyn && x->dyn_dim == (ta ? 1 : 0)) {
            set_dyn(n, 0, root, 0);
            return SM2C_OK;
        }
        if (b->dyn && !x->dyn && b->dyn_dim == (tb ? 0 : 1)) {
            set_dyn(n, 0, root, 1);
            return SM2C_OK;
        }
        return refuse(c, n, "it sums over the data-dependent dim");
    }
    return refuse(c, n, "it is not row by row");
}

int sm2c_dyn_shape_op(const sm2c_node *n)
{
    return n->op->shape == shape_shape && n->n_inputs == 1 && n->inputs[0]->dyn &&
           (strcmp(n->op->name, "Shape") == 0 || strcmp(n->op->name, "Size") == 0);
}

sm2c_status sm2c_dyn_lower_shape(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    if (y->dtype != SM2C_DT_INT32 && y->dtype != SM2C_DT_INT64)
        return sm2c_lower_unsupported(l, n, "out_type must be int32 or int64");
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "dyn_shape", y->dtype), 6);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[1] = sm2c_arg_buf(sm2c_lower_count(l, x));
    s->args[2] = sm2c_arg_ints(l, x->shape.rank, x->shape.dims);
    s->args[3] = sm2c_arg_int(x->shape.rank);
    s->args[4] = sm2c_arg_int(x->dyn_dim);
    s->args[5] = sm2c_arg_int(strcmp(n->op->name, "Size") == 0);
    return SM2C_OK;
}

/* ---- lowering ----------------------------------------------------------------------- */

/* Rows [count, bound) of data-dependent value v's buffer set to bytes `fill`. */
static void clear_tail(sm2c_lower *l, const sm2c_node *n, int32_t buf, const sm2c_value *v, int fill)
{
    int64_t outer = 1, inner = sm2c_abi_elem_size(v->dtype);
    for (int32_t d = 0; d < v->dyn_dim; d++)
        outer *= v->shape.dims[d];
    for (int32_t d = v->dyn_dim + 1; d < v->shape.rank; d++)
        inner *= v->shape.dims[d];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_dyn_clear", 6);
    s->args[0] = sm2c_arg_buf(buf);
    s->args[1] = sm2c_arg_buf(sm2c_lower_count(l, v));
    s->args[2] = sm2c_arg_int(outer);
    s->args[3] = sm2c_arg_int(v->shape.dims[v->dyn_dim]);
    s->args[4] = sm2c_arg_int(inner);
    s->args[5] = sm2c_arg_int(fill);
}

/* Rows [count, bound) of int value v set to its dtype's lowest (Max) or highest (Min). */
static void fill_extreme(sm2c_lower *l, const sm2c_node *n, const sm2c_value *v)
{
    int64_t outer = 1, inner = 1;
    for (int32_t d = 0; d < v->dyn_dim; d++)
        outer *= v->shape.dims[d];
    for (int32_t d = v->dyn_dim + 1; d < v->shape.rank; d++)
        inner *= v->shape.dims[d];
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "dyn_fill_extreme", v->dtype), 6);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, v));
    s->args[1] = sm2c_arg_buf(sm2c_lower_count(l, v));
    s->args[2] = sm2c_arg_int(outer);
    s->args[3] = sm2c_arg_int(v->shape.dims[v->dyn_dim]);
    s->args[4] = sm2c_arg_int(inner);
    s->args[5] = sm2c_arg_int(strcmp(n->op->name, "Max") == 0);
}

/* GatherV2 along params' data-dependent dim: the indices (up to their own
** count) below params' count, as TensorFlow checks them. */
static void check_gather_rows(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *params = n->inputs[0], *idx = n->inputs[1];
    const sm2c_tensor *t = n->n_inputs > 2 ? n->inputs[2]->constant : NULL;
    if (!params->dyn || !t || t->nelem != 1)
        return;
    int64_t axis = sm2c_op_ints(l->c, t)[0];
    if ((axis < 0 ? axis + params->shape.rank : axis) != params->dyn_dim)
        return;
    const char *kernel = sm2c_op_kernel(l->c, "check_indices_dyn", idx->dtype);
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 4);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, idx));
    s->args[1] = sm2c_arg_int(sm2c_value_elements(idx));
    s->args[2] = idx->dyn ? sm2c_arg_buf(sm2c_lower_count(l, idx)) : sm2c_arg_null();
    s->args[3] = sm2c_arg_buf(sm2c_lower_count(l, params));
}

void sm2c_dyn_lower_inputs(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_opdef *op = n->op;
    if ((op->lower == lower_gather || op->lower == lower_gather_nd) && n->n_inputs > 1 && n->inputs[1]->dyn)
        clear_tail(l, n, sm2c_lower_buf(l, n->inputs[1]), n->inputs[1], 0);
    if (op->lower == lower_gather)
        check_gather_rows(l, n);
    if (op->lower == lower_where && n->inputs[0]->dyn)     /* rows past the count are not there */
        clear_tail(l, n, sm2c_lower_buf(l, n->inputs[0]), n->inputs[0], 0);
    if (reduces_zero_padded(n) && int_extreme(n))
        fill_extreme(l, n, n->inputs[0]);
    else if (reduces_zero_padded(n))
        clear_tail(l, n, sm2c_lower_buf(l, n->inputs[0]), n->inputs[0], strcmp(op->name, "All") == 0);
}

void sm2c_dyn_count_ports(sm2c_ctx *c, const sm2c_graph *g, sm2c_entry *e)
{
    int32_t n_dyn = 0;
    for (int32_t i = 0; i < g->n_outputs; i++)
        n_dyn += g->outputs[i].value->dyn != NULL && !g->outputs[i].value->constant;
    if (!n_dyn)
        return;
    sm2c_port *ports = sm2c_arena_array(c->arena, (size_t)(g->n_outputs + n_dyn) + 1, sizeof *ports);
    memcpy(ports, e->outputs, (size_t)g->n_outputs * sizeof *ports);
    int32_t k = g->n_outputs;
    for (int32_t i = 0; i < g->n_outputs; i++) {
        const sm2c_value *v = g->outputs[i].value;
        if (!v->dyn || v->constant)
            continue;
        ports[i].dynamic = 1 + v->dyn_dim;
        const char *key = sm2c_arena_printf(c->arena, "%s_count", ports[i].key);
        for (int clash = 1; clash;) {   /* unique among the keys */
            clash = 0;
            for (int32_t j = 0; j < k; j++)
                clash |= strcmp(ports[j].key, key) == 0;
            if (clash)
                key = sm2c_arena_printf(c->arena, "%s_count", key);
        }
        ports[k] = (sm2c_port){ key, sm2c_arena_printf(c->arena, "%s (count)", ports[i].tensor),
                                SM2C_DT_INT64, { 0, NULL }, -1, 0, 0, 1 + i, 0, 0.0f, 0 };
        k++;
    }
    e->outputs = ports;
    e->n_outputs = k;
}

void sm2c_dyn_lower_output(sm2c_lower *l, int32_t port)
{
    sm2c_entry *e = l->entry;
    int32_t of = e->outputs[port].count_of - 1;
    const sm2c_value *v = l->g->outputs[of].value;
    sm2c_step *s = sm2c_lower_step(l, NULL, "sm2c_rt_copy", 3);
    s->node = e->outputs[port].tensor;
    s->op = "output";
    s->args[0] = sm2c_arg_buf(sm2c_lower_output_buf(l, port));
    s->args[1] = sm2c_arg_buf(sm2c_lower_count(l, v));
    s->args[2] = sm2c_arg_int(8);
    int32_t before = e->n_steps;
    clear_tail(l, NULL, e->outputs[of].buf, v, 0);
    e->steps[before].node = e->outputs[of].tensor;
    e->steps[before].op = "output";
}

/* ---- Where and Unique ------------------------------------------------------------------ */

/* Where(x) with one argument: int64 [<= N, rank], the coordinates of the
** nonzero elements of x (N of them at most). */
sm2c_status shape_where(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    if (x->shape.rank < 1)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "Where of a scalar is not supported");
    int64_t dims[2] = { sm2c_value_elements(x), x->shape.rank };
    sm2c_op_set(c, n, 0, SM2C_DT_INT64, 2, dims);
    set_dyn(n, 0, n->outputs[0], 0);
    return SM2C_OK;
}

sm2c_status lower_where(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    const char *kernel = sm2c_op_kernel(l->c, "where", x->dtype);
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 6);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_count(l, n->outputs[0]));
    s->args[3] = sm2c_arg_int(sm2c_value_elements(x));
    s->args[4] = sm2c_arg_int(x->shape.rank);
    s->args[5] = sm2c_arg_ints(l, x->shape.rank, x->shape.dims);
    return SM2C_OK;
}

/* Unique(x): y [<= N] the distinct values in order of first occurrence, idx
** [N] (out_idx) where each element's value is in y. */
sm2c_status shape_unique(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    if (x->shape.rank != 1)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "x must be 1-D, not rank %d", x->shape.rank);
    if (n->n_inputs > 1) {  /* UniqueV2: axis [] or [0] (or [-1]) of a 1-D x */
        const sm2c_tensor *t = sm2c_op_const_input(c, n, 1, "axis");
        if (!t)
            return SM2C_ERR_UNSUPPORTED;
        if (t->nelem > 1 || (t->nelem == 1 && sm2c_op_ints(c, t)[0] != 0 && sm2c_op_ints(c, t)[0] != -1))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "axis must be [] or [0] for a 1-D x");
    }
    const Tensorflow__AttrValue *t = sm2c_attr(n, "out_idx");
    int idx_dt = t && t->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? sm2c_dtype_base((int)t->type)
                                                                         : SM2C_DT_INT32;
    if (idx_dt != SM2C_DT_INT32 && idx_dt != SM2C_DT_INT64)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "out_idx must be int32 or int64");
    sm2c_op_set(c, n, 0, x->dtype, 1, x->shape.dims);
    sm2c_op_set(c, n, 1, idx_dt, 1, x->shape.dims);
    set_dyn(n, 0, n->outputs[0], 0);
    if (x->dyn)     /* idx: one per element of x, up to x's count */
        set_dyn(n, 1, x->dyn, 0);
    return SM2C_OK;
}

sm2c_status lower_unique(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_unique_%s_%s",
                                           x->dtype == SM2C_DT_STRING ? "str" : sm2c_kernel_suffix(x->dtype),
                                           sm2c_kernel_suffix(n->outputs[1]->dtype));
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 6);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, x));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[1]));
    s->args[3] = sm2c_arg_buf(sm2c_lower_count(l, n->outputs[0]));
    s->args[4] = sm2c_arg_int(x->shape.dims[0]);
    s->args[5] = x->dyn ? sm2c_arg_buf(sm2c_lower_count(l, x)) : sm2c_arg_null();
    return SM2C_OK;
}
