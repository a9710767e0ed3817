/*
** tlist.c: TensorList ops (what AutoGraph emits for TensorArray and for
** values accumulated in loops) -> a data value [max_len, element...] and an
** int32 length value per list, with the internal List* ops below.
**
** The lists one Reserve/EmptyTensorList/FromTensor starts form a family:
** every SetItem, PushBack and loop iteration makes a new handle of the same
** family.  The family collects, while the graph is imported, what bounds the
** list: its element shape (any static element_shape input of its ops) and the
** pushes (each PushBack counts once, or the product of the static trip bounds
** of the While bodies around it).  A list without a bound is a clear error.
*/
#include <stdint.h>
#include <string.h>

#include "cflow.h"
#include "import_internal.h"
#include "ops/ops_common.h"
#include "ops/fold.h"

typedef struct sm2c_tlist {
    int elem_dtype;
    sm2c_shape elem_shape;      /* rank -1 until an op gives it; dims -1 where unknown */
    sm2c_value **items;         /* what SetItem and PushBack store, to complete elem_shape */
    int32_t n_items, cap_items;
    sm2c_graph *g;              /* for folding while completing elem_shape */
    struct sm2c_cflow **sites;  /* per PushBack or growing SetItem: the loop it runs in, or NULL */
    const char **site_where;    /* and that op, for errors */
    int32_t n_sites, cap_sites;
    int64_t fixed_max;          /* EmptyTensorList max_num_elements, -1 when none */
    int ahead;                  /* its shape is being worked out ahead (breaks cycles) */
} sm2c_tlist;

static sm2c_status shape_reserve(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_len_of(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_get(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_set(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_push(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_pop(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_stack(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_elem_shape(sm2c_ctx *c, sm2c_node *n);
static sm2c_status lower_none(sm2c_lower *l, const sm2c_node *n);
static sm2c_status lower_reserve(sm2c_lower *l, const sm2c_node *n);
static sm2c_status shape_set_grow(sm2c_ctx *c, sm2c_node *n);
static sm2c_status lower_set_grow(sm2c_lower *l, const sm2c_node *n);
static sm2c_status lower_get(sm2c_lower *l, const sm2c_node *n);
static sm2c_status lower_set(sm2c_lower *l, const sm2c_node *n);
static sm2c_status lower_push(sm2c_lower *l, const sm2c_node *n);
static sm2c_status lower_pop(sm2c_lower *l, const sm2c_node *n);
static sm2c_status lower_stack(sm2c_lower *l, const sm2c_node *n);

static const sm2c_opdef list_ops[] = {
    { "TensorListReserve", -1, "handle", "", shape_reserve, lower_reserve, UINT64_MAX, 0, 0 },
    { "TensorListLength", 1, "length", "", shape_len_of, lower_none, UINT64_MAX, 0, 0 },
    { "TensorListGetItem", 3, "item", "", shape_get, lower_get, UINT64_MAX, 0, 0 },
    { "TensorListSetItem", 4, "output_handle", "", shape_set, lower_set, UINT64_MAX, 0, 0 },
    { "TensorListPushBack", 3, "output_handle,length", "", shape_push, lower_push, UINT64_MAX, 0, 0 },
    { "TensorListPopBack", 2, "length,tensor", "", shape_pop, lower_pop, UINT64_MAX, 0, 0 },
    { "TensorListStack", 2, "tensor", "", shape_stack, lower_stack, UINT64_MAX, 0, 0 },
    { "TensorListElementShape", 1, "element_shape", "", shape_elem_shape, lower_none, UINT64_MAX, 0, 0 },
    { "TensorListSetItem", 4, "output_handle,length", "", shape_set_grow, lower_set_grow, UINT64_MAX, 0, 0 },
};
enum { L_RESERVE, L_LEN_OF, L_GET, L_SET, L_PUSH, L_POP, L_STACK, L_ELEM_SHAPE, L_SET_GROW };

static const char *const tf_ops[] = { "TensorListReserve", "EmptyTensorList", "TensorListFromTensor",
                                      "TensorListSetItem", "TensorListGetItem", "TensorListStack",
                                      "TensorListLength", "TensorListElementShape", "TensorListPushBack",
                                      "TensorListPopBack", NULL };

int sm2c_tlist_op(const char *op)
{
    for (size_t i = 0; tf_ops[i]; i++)
        if (strcmp(op, tf_ops[i]) == 0)
            return 1;
    return 0;
}

/* "node:tensor:0" of a TensorListPopBack is its output 1. */
int32_t sm2c_tlist_output_index(const char *op, const char *arg, int32_t k)
{
    if (strcmp(op, "TensorListPopBack") == 0)
        return strcmp(arg, "output_handle") == 0 ? k : strcmp(arg, "tensor") == 0 ? 1 + k : -1;
    return k;
}

/* ---- shapes --------------------------------------------------------------------- */

static int64_t const_int(const sm2c_value *v)
{
    const sm2c_tensor *t = v->constant;
    if (!t || t->nelem != 1)
        return -1;
    return t->dtype == SM2C_DT_INT32 ? *(const int32_t *)t->data
         : t->dtype == SM2C_DT_INT64 ? *(const int64_t *)t->data : -1;
}

/* Shape of v worked out ahead of the forward walk (the items a list stores
** come after the list is made), quietly: any failure just leaves it unknown.
** A carried value of a loop needs only its own initial value. */
#define AHEAD_MAX_DEPTH 200
static void infer_ahead(sm2c_ctx *c, sm2c_graph *g, sm2c_value *v, int depth);

void sm2c_import_infer_ahead(sm2c_ctx *c, sm2c_graph *g, sm2c_value *v)
{
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(c, &quiet);
    infer_ahead(&qc, g, v, 0);
}

static void infer_ahead(sm2c_ctx *c, sm2c_graph *g, sm2c_value *v, int depth)
{
    sm2c_node *n = v->node;
    if (v->shape.rank >= 0 || !n || depth > AHEAD_MAX_DEPTH)
        return;
    if (n->op == &list_ops[L_RESERVE]) {
        /* Another list, made before the forward walk reaches it (the lower
        ** layer of stacked RNNs); not this list again through its loop. */
        if (!n->tlist->ahead)
            shape_reserve(c, n);
        return;
    }
    if (n->cflow) {
        /* A loop keeps the shapes of its carried values: what leaves it (a
        ** lower layer's sequence, read by the RNN stacked on it) has the
        ** shape of what went in. */
        const sm2c_node *begin = n->cflow->begin;
        int loop_out = n->cflow->kind == SM2C_CF_LOOP && n == n->cflow->end;
        if ((n != begin && !loop_out) || v->index >= begin->n_inputs)
            return;
        sm2c_value *in = begin->inputs[v->index];
        infer_ahead(c, g, in, depth + 1);
        v->dtype = in->dtype;
        v->shape = in->shape;
        return;
    }
    int consts = n->n_inputs > 0;
    for (int32_t k = 0; k < n->n_inputs; k++) {
        infer_ahead(c, g, n->inputs[k], depth + 1);
        if (n->inputs[k]->shape.rank < 0)
            return;
        consts &= n->inputs[k]->constant != NULL;
    }
    if (n->op->shape(c, n) == SM2C_OK && consts)
        sm2c_fold_node(c, g, n);
}

/* Unknown dims of the element shape from the items stored. */
static void complete_from_items(sm2c_ctx *c, sm2c_tlist *tl)
{
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(c, &quiet);
    for (int32_t i = 0; i < tl->n_items; i++) {
        sm2c_value *it = tl->items[i];
        infer_ahead(&qc, tl->g, it, 0);
        if (it->shape.rank < 0 || sm2c_value_elements(it) < 0 ||
            (tl->elem_shape.rank >= 0 && it->shape.rank != tl->elem_shape.rank))
            continue;
        if (tl->elem_shape.rank < 0) {
            tl->elem_shape = sm2c_shape_make(c, it->shape.rank, it->shape.dims);
            return;
        }
        for (int32_t d = 0; d < it->shape.rank; d++)
            if (tl->elem_shape.dims[d] < 0)
                tl->elem_shape.dims[d] = it->shape.dims[d];
        return;
    }
}

static int shape_known(const sm2c_shape *s)
{
    for (int32_t d = 0; d < s->rank; d++)
        if (s->dims[d] < 0)
            return 0;
    return s->rank >= 0;
}

/* Lists up to this size start as constant zeros (a weight); larger ones are
** filled at run time rather than stored in the program. */
#define ZEROS_MAX_BYTES 4096

/* The most elements the list can hold: max_num_elements, else num_elements
** plus, per PushBack or growing SetItem, the runs of the loops around it. */
static sm2c_status list_bound(sm2c_ctx *c, const sm2c_node *n, int64_t base, int64_t *max)
{
    const sm2c_tlist *tl = n->tlist;
    int64_t cap = c->limits->elements + 1;   /* saturates: reported over the limit */
    *max = tl->fixed_max >= 0 ? tl->fixed_max : base;
    for (int32_t k = 0; k < tl->n_sites && tl->fixed_max < 0; k++) {
        int64_t runs = 1;
        for (const sm2c_cflow *cf = tl->sites[k]; cf; cf = cf->outer) {
            if (cf->trips < 0)
                return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                                     "the TensorList length is not bounded: %s adds to it in While '%s', "
                                     "whose trip count is not static (no constant maximum_iterations, not a "
                                     "loop over a constant tf.range)", tl->site_where[k], cf->begin->name);
            runs = cf->trips && runs > cap / cf->trips ? cap : runs * cf->trips;
        }
        *max = *max + runs > cap ? cap : *max + runs;
    }
    return SM2C_OK;
}

/* Data: zeros [max_len, element...]. */
static sm2c_status shape_reserve(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_tlist *tl = n->tlist;
    if (!shape_known(&tl->elem_shape) && !tl->ahead) {
        tl->ahead = 1;
        complete_from_items(c, tl);
        tl->ahead = 0;
    }
    if (!shape_known(&tl->elem_shape))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                             "the element shape of this TensorList is not static (neither the "
                             "element_shape inputs of its ops nor the items stored give every dim)");
    int64_t base = 0;
    if (n->n_inputs == 1) {
        base = const_int(n->inputs[0]);
        if (base < 0)
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                                 "the TensorList length is not bounded: num_elements is not a "
                                 "compile-time constant");
    }
    int64_t max;
    sm2c_status st = list_bound(c, n, base, &max);
    if (st)
        return st;
    if (max > c->limits->elements)
        return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "the TensorList may hold %lld elements, over the limit "
                             "(--limit elements=N)", (long long)max);
    int64_t dims[SM2C_RT_MAX_RANK + 1];
    if (tl->elem_shape.rank + 1 > SM2C_RT_MAX_RANK)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "the TensorList element rank is too large");
    dims[0] = max;
    for (int32_t d = 0; d < tl->elem_shape.rank; d++)
        dims[d + 1] = tl->elem_shape.dims[d];
    sm2c_op_set(c, n, 0, tl->elem_dtype, tl->elem_shape.rank + 1, dims);
    sm2c_value *y = n->outputs[0];
    int64_t count = sm2c_value_elements(y);
    if (count < 0 || !sm2c_dtype_size(y->dtype))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "TensorList of %s", sm2c_dtype_name(y->dtype));
    if (count * (int64_t)sm2c_dtype_size(y->dtype) > ZEROS_MAX_BYTES)
        return SM2C_OK;   /* lower_reserve fills it */
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    t->dtype = y->dtype;
    t->shape = y->shape;
    t->nelem = count;
    t->nbytes = (size_t)count * sm2c_dtype_size(y->dtype);
    t->data = sm2c_arena_alloc(c->arena, t->nbytes + 1);
    y->constant = t;
    return SM2C_OK;
}

static sm2c_status lower_reserve(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_fill", 4);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, sm2c_op_scalar(l, y->dtype, 0)));
    s->args[2] = sm2c_arg_int((int64_t)sm2c_dtype_size(y->dtype));
    s->args[3] = sm2c_arg_int(sm2c_value_elements(y));
    return SM2C_OK;
}

/* Length of a list made from a tensor: its leading dim. */
static sm2c_status shape_len_of(sm2c_ctx *c, sm2c_node *n)
{
    const sm2c_value *x = n->inputs[0];
    if (x->shape.rank < 1 || x->shape.dims[0] < 0)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "the tensor needs a static shape of rank >= 1");
    sm2c_op_set(c, n, 0, SM2C_DT_INT32, 0, NULL);
    n->outputs[0]->constant = sm2c_op_int_tensor(c, SM2C_DT_INT32, 0, &x->shape.dims[0], 1);
    return SM2C_OK;
}

static sm2c_status need_list(sm2c_ctx *c, const sm2c_node *n)
{
    const sm2c_value *d = n->inputs[0], *len = n->inputs[1];
    if (d->shape.rank < 1 || sm2c_value_elements(d) < 0 || !sm2c_dtype_size(d->dtype))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "the TensorList has no static shape");
    if (len->dtype != SM2C_DT_INT32 || len->shape.rank != 0)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "the TensorList length must be an int32 scalar");
    return SM2C_OK;
}

static sm2c_status set_element(sm2c_ctx *c, sm2c_node *n, int32_t k)
{
    const sm2c_value *d = n->inputs[0];
    sm2c_op_set(c, n, k, d->dtype, d->shape.rank - 1, d->shape.dims + 1);
    return SM2C_OK;
}

static sm2c_status need_index(sm2c_ctx *c, const sm2c_node *n, const sm2c_value *idx)
{
    if (idx->dtype != SM2C_DT_INT32 || sm2c_value_elements(idx) != 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "the index must be an int32 scalar");
    return SM2C_OK;
}

/* An item must be one element of the list, same dtype and shape. */
static sm2c_status need_item(sm2c_ctx *c, const sm2c_node *n, const sm2c_value *item)
{
    const sm2c_value *d = n->inputs[0];
    sm2c_shape el = { d->shape.rank - 1, d->shape.dims + 1 };
    if (item->dtype != d->dtype || !sm2c_shape_equal(&item->shape, &el))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                             "the item (%s, rank %d) does not match the TensorList's element type (%s, rank %d) "
                             "or shape", sm2c_dtype_name(item->dtype), item->shape.rank,
                             sm2c_dtype_name(d->dtype), el.rank);
    return SM2C_OK;
}

static sm2c_status shape_get(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = need_list(c, n);
    if (!st)
        st = need_index(c, n, n->inputs[2]);
    return st ? st : set_element(c, n, 0);
}

static sm2c_status shape_set(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = need_list(c, n);
    if (!st)
        st = need_index(c, n, n->inputs[2]);
    if (!st)
        st = need_item(c, n, n->inputs[3]);
    if (!st)
        sm2c_op_set(c, n, 0, n->inputs[0]->dtype, n->inputs[0]->shape.rank, n->inputs[0]->shape.dims);
    return st;
}

static sm2c_status shape_set_grow(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = shape_set(c, n);
    if (!st)
        sm2c_op_set(c, n, 1, SM2C_DT_INT32, 0, NULL);
    return st;
}

static sm2c_status shape_push(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = need_list(c, n);
    if (!st)
        st = need_item(c, n, n->inputs[2]);
    if (!st) {
        sm2c_op_set(c, n, 0, n->inputs[0]->dtype, n->inputs[0]->shape.rank, n->inputs[0]->shape.dims);
        sm2c_op_set(c, n, 1, SM2C_DT_INT32, 0, NULL);
    }
    return st;
}

static sm2c_status shape_pop(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = need_list(c, n);
    if (!st) {
        sm2c_op_set(c, n, 0, SM2C_DT_INT32, 0, NULL);
        set_element(c, n, 1);
    }
    return st;
}

/* Rows: the num_elements attr when set (it must fit), else max_len. */
static sm2c_status shape_stack(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = need_list(c, n);
    if (st)
        return st;
    const sm2c_value *d = n->inputs[0];
    int64_t rows = d->shape.dims[0], want;
    if (sm2c_attr_int(n, "num_elements", &want) && want >= 0) {
        if (want > rows)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "num_elements %lld exceeds the list's bound %lld",
                                 (long long)want, (long long)rows);
        rows = want;
    }
    int64_t dims[SM2C_RT_MAX_RANK + 1];
    dims[0] = rows;
    for (int32_t k = 1; k < d->shape.rank; k++)
        dims[k] = d->shape.dims[k];
    sm2c_op_set(c, n, 0, d->dtype, d->shape.rank, dims);
    return SM2C_OK;
}

static sm2c_status shape_elem_shape(sm2c_ctx *c, sm2c_node *n)
{
    const sm2c_value *d = n->inputs[0];
    if (d->shape.rank < 1)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "the TensorList has no static shape");
    const Tensorflow__AttrValue *st = sm2c_attr(n, "shape_type");
    int dt = st && st->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? sm2c_dtype_base((int)st->type)
                                                                       : SM2C_DT_INT32;
    int64_t len = d->shape.rank - 1;
    sm2c_op_set(c, n, 0, dt, 1, &len);
    n->outputs[0]->constant = sm2c_op_int_tensor(c, dt, 1, d->shape.dims + 1, len);
    return SM2C_OK;
}

/* ---- lowering ------------------------------------------------------------------- */

static sm2c_status lower_none(sm2c_lower *l, const sm2c_node *n)
{
    return sm2c_lower_unsupported(l, n, "internal: a compile-time TensorList value reached lowering");
}

static int32_t item_bytes(const sm2c_value *d)
{
    return (int32_t)(sm2c_value_elements(d) / d->shape.dims[0] * (int64_t)sm2c_dtype_size(d->dtype));
}

/* A list carried by a loop and written by its only user: the write goes into
** the carried buffer itself (the loop's end then has nothing to copy back),
** instead of a copy of the whole list per iteration. */
static void write_in_place(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *d = n->inputs[0], *out = n->outputs[0];
    if (!d->node || !d->node->cflow || d->node != d->node->cflow->begin || out->id < 0 ||
        l->buf_of[out->id] >= 0)
        return;
    int32_t users = 0;
    for (int32_t i = 0; i < l->g->n_nodes; i++) {
        const sm2c_node *m = l->g->nodes[i];
        for (int32_t k = 0; k < m->n_inputs && !m->dead; k++)
            users += m->inputs[k] == d;
    }
    for (int32_t p = 0; p < l->g->n_outputs; p++)
        users += l->g->outputs[p].value == out;   /* never: the loop's outputs are others */
    if (users == 1)
        sm2c_lower_alias(l, out, d);
}

static sm2c_step *checked_step(sm2c_lower *l, const sm2c_node *n, const char *kernel, int32_t n_args)
{
    sm2c_step *s = sm2c_lower_step(l, n, kernel, n_args);
    s->checked = 1;
    return s;
}

static sm2c_status lower_get(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *d = n->inputs[0];
    if (d->shape.dims[0] == 0)
        return sm2c_lower_unsupported(l, n, "GetItem on a TensorList that is always empty");
    sm2c_step *s = checked_step(l, n, "sm2c_rt_list_get", 5);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, d));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->args[4] = sm2c_arg_int(item_bytes(d));
    return SM2C_OK;
}

static sm2c_status lower_set(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *d = n->inputs[0];
    if (d->shape.dims[0] == 0)
        return sm2c_lower_unsupported(l, n, "SetItem on a TensorList that is always empty");
    write_in_place(l, n);
    sm2c_step *s = checked_step(l, n, "sm2c_rt_list_set", 7);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, d));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->args[4] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[3]));
    s->args[5] = sm2c_arg_int(item_bytes(d));
    s->args[6] = sm2c_arg_int(l->entry->buffers[s->args[1].buf].nbytes);
    return SM2C_OK;
}

static sm2c_status lower_push(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *d = n->inputs[0];
    if (d->shape.dims[0] == 0)
        return sm2c_lower_unsupported(l, n, "PushBack on a TensorList bounded to no elements");
    write_in_place(l, n);
    sm2c_step *s = checked_step(l, n, "sm2c_rt_list_push", 7);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[1]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, d));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[4] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->args[5] = sm2c_arg_int(item_bytes(d));
    s->args[6] = sm2c_arg_int(d->shape.dims[0]);
    return SM2C_OK;
}

static sm2c_status lower_set_grow(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *d = n->inputs[0];
    if (d->shape.dims[0] == 0)
        return sm2c_lower_unsupported(l, n, "SetItem on a TensorList bounded to no elements");
    write_in_place(l, n);
    sm2c_step *s = checked_step(l, n, "sm2c_rt_list_set_grow", 8);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[1]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, d));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[4] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[2]));
    s->args[5] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[3]));
    s->args[6] = sm2c_arg_int(item_bytes(d));
    s->args[7] = sm2c_arg_int(d->shape.dims[0]);
    return SM2C_OK;
}

static sm2c_status lower_pop(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *d = n->inputs[0];
    if (d->shape.dims[0] == 0)
        return sm2c_lower_unsupported(l, n, "PopBack on a TensorList that is always empty");
    sm2c_step *s = checked_step(l, n, "sm2c_rt_list_pop", 5);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[1]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, d));
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[4] = sm2c_arg_int(item_bytes(d));
    return SM2C_OK;
}

static sm2c_status lower_stack(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    sm2c_step *s = checked_step(l, n, "sm2c_rt_list_stack", 5);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
    s->args[3] = sm2c_arg_int(y->shape.dims[0]);
    s->args[4] = sm2c_arg_int(sm2c_value_elements(y) * (int64_t)sm2c_dtype_size(y->dtype));
    return SM2C_OK;
}

/* ---- import --------------------------------------------------------------------- */

/* A fully known element_shape input becomes the family's element shape. */
static sm2c_status hint(importer *im, scope *s, int32_t i, sm2c_tlist *tl, const sm2c_value *es)
{
    const sm2c_tensor *t = es->constant;
    if (!t || t->shape.rank != 1 || (t->dtype != SM2C_DT_INT32 && t->dtype != SM2C_DT_INT64))
        return SM2C_OK;
    int64_t dims[SM2C_RT_MAX_RANK];
    if (t->nelem > SM2C_RT_MAX_RANK)
        return SM2C_OK;
    for (int64_t d = 0; d < t->nelem; d++) {
        dims[d] = t->dtype == SM2C_DT_INT32 ? ((const int32_t *)t->data)[d] : ((const int64_t *)t->data)[d];
        if (dims[d] < -1)
            dims[d] = -1;
    }
    if (tl->elem_shape.rank < 0) {
        tl->elem_shape = sm2c_shape_make(im->c, (int32_t)t->nelem, dims);
        return SM2C_OK;
    }
    int agree = tl->elem_shape.rank == (int32_t)t->nelem;
    for (int32_t d = 0; agree && d < tl->elem_shape.rank; d++) {
        int64_t *have = &tl->elem_shape.dims[d];
        agree = *have < 0 || dims[d] < 0 || *have == dims[d];
        if (*have < 0)
            *have = dims[d];
    }
    if (!agree)
        return sm2c_import_bad(im, s, s->nodes[i], SM2C_ERR_UNSUPPORTED, "%s",
                               "its element_shape disagrees with another op on the same TensorList");
    return SM2C_OK;
}

static int attr_type(const Tensorflow__NodeDef *nd, const char *name)
{
    const Tensorflow__AttrValue *a = sm2c_node_attr(nd, name);
    return a && a->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? sm2c_dtype_base((int)a->type) : 0;
}

static sm2c_value *handle(importer *im, const char *name, sm2c_value *data, sm2c_value *len, sm2c_tlist *tl)
{
    sm2c_value *h = sm2c_value_new(im->c, im->g, SM2C_DT_VARIANT, name);
    h->list_data = data;
    h->list_len = len;
    h->tlist = tl;
    return h;
}

static void add_item(importer *im, sm2c_tlist *tl, sm2c_value *item)
{
    if (tl->n_items == tl->cap_items) {
        int32_t cap = tl->cap_items ? 2 * tl->cap_items : 4;
        sm2c_value **v = sm2c_arena_array(im->c->arena, (size_t)cap, sizeof *v);
        if (tl->n_items)
            memcpy(v, tl->items, (size_t)tl->n_items * sizeof *v);
        tl->items = v;
        tl->cap_items = cap;
    }
    tl->items[tl->n_items++] = item;
}

static sm2c_node *list_node(importer *im, scope *s, int32_t i, int op, sm2c_value **ins, int32_t n_ins,
                            int32_t n_outs, sm2c_tlist *tl)
{
    sm2c_node *n = sm2c_node_new(im->c, im->g, &list_ops[op], s->nodes[i], s->path, n_ins, ins, n_outs);
    n->tlist = tl;
    return n;
}

static sm2c_status new_list(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    sm2c_tlist *tl = sm2c_arena_alloc(im->c->arena, sizeof *tl);
    tl->elem_dtype = attr_type(nd, "element_dtype");
    tl->elem_shape.rank = -1;
    tl->fixed_max = -1;
    tl->g = im->g;
    sm2c_status st = hint(im, s, i, tl, ins[0]);
    if (st)
        return st;
    sm2c_value *len;
    sm2c_node *n;
    if (strcmp(nd->op, "TensorListReserve") == 0) {
        n = list_node(im, s, i, L_RESERVE, &ins[1], 1, 1, tl);
        len = ins[1];
    } else {
        tl->fixed_max = ins[1]->constant ? const_int(ins[1]) : -1;
        n = list_node(im, s, i, L_RESERVE, NULL, 0, 1, tl);
        int64_t zero = 0;
        len = sm2c_value_const(im->c, im->g, sm2c_op_int_tensor(im->c, SM2C_DT_INT32, 0, &zero, 1), nd->name);
    }
    sm2c_value *h = handle(im, nd->name, n->outputs[0], len, tl);
    sm2c_import_set_outputs(im, s, i, &h, 1);
    return SM2C_OK;
}

static sm2c_status from_tensor(importer *im, scope *s, int32_t i, sm2c_value **ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    sm2c_tlist *tl = sm2c_arena_alloc(im->c->arena, sizeof *tl);
    tl->elem_dtype = attr_type(nd, "element_dtype");
    tl->elem_shape.rank = -1;
    tl->fixed_max = -1;
    tl->g = im->g;
    sm2c_node *n = list_node(im, s, i, L_LEN_OF, ins, 1, 1, tl);
    sm2c_value *h = handle(im, nd->name, ins[0], n->outputs[0], tl);
    sm2c_import_set_outputs(im, s, i, &h, 1);
    return SM2C_OK;
}

/* A PushBack (or growing SetItem) adds at most one element per run of the
** code around it: the loops' static trip counts bound it (shape_reserve). */
static void add_site(importer *im, scope *s, int32_t i, sm2c_tlist *tl)
{
    if (tl->n_sites == tl->cap_sites) {
        int32_t cap = tl->cap_sites ? 2 * tl->cap_sites : 4;
        sm2c_cflow **v = sm2c_arena_array(im->c->arena, (size_t)cap, sizeof *v);
        const char **w = sm2c_arena_array(im->c->arena, (size_t)cap, sizeof *w);
        if (tl->n_sites) {
            memcpy(v, tl->sites, (size_t)tl->n_sites * sizeof *v);
            memcpy(w, tl->site_where, (size_t)tl->n_sites * sizeof *w);
        }
        tl->sites = v;
        tl->site_where = w;
        tl->cap_sites = cap;
    }
    tl->sites[tl->n_sites] = im->loop;
    tl->site_where[tl->n_sites++] = sm2c_import_where(im, s, s->nodes[i]);
}

/* Ops on an existing list: ins[0] is its handle. */
static sm2c_status list_op(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    const char *op = nd->op;
    sm2c_value *h = ins[0];
    if (!h->list_data)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED, "%s",
                               "its list does not come from TensorListReserve, EmptyTensorList or "
                               "TensorListFromTensor in the same graph");
    sm2c_tlist *tl = h->tlist;
    sm2c_value *in3[4] = { h->list_data, h->list_len, n_ins > 1 ? ins[1] : NULL, n_ins > 2 ? ins[2] : NULL };
    sm2c_status st = SM2C_OK;
    sm2c_value *out[2];
    if (strcmp(op, "TensorListLength") == 0) {
        out[0] = h->list_len;
    } else if (strcmp(op, "TensorListElementShape") == 0) {
        out[0] = list_node(im, s, i, L_ELEM_SHAPE, in3, 1, 1, tl)->outputs[0];
    } else if (strcmp(op, "TensorListGetItem") == 0) {
        if (!(st = hint(im, s, i, tl, ins[2])))
            out[0] = list_node(im, s, i, L_GET, in3, 3, 1, tl)->outputs[0];
    } else if (strcmp(op, "TensorListStack") == 0) {
        if (!(st = hint(im, s, i, tl, ins[1])))
            out[0] = list_node(im, s, i, L_STACK, in3, 2, 1, tl)->outputs[0];
    } else if (strcmp(op, "TensorListSetItem") == 0) {
        const Tensorflow__AttrValue *rz = sm2c_node_attr(nd, "resize_if_index_out_of_bounds");
        add_item(im, tl, ins[2]);
        if (rz && rz->value_case == TENSORFLOW__ATTR_VALUE__VALUE_B && rz->b) {
            /* A dynamic-size TensorArray: counted like a PushBack per run. */
            add_site(im, s, i, tl);
            sm2c_node *n = list_node(im, s, i, L_SET_GROW, in3, 4, 2, tl);
            out[0] = handle(im, nd->name, n->outputs[0], n->outputs[1], tl);
        } else {
            out[0] = handle(im, nd->name, list_node(im, s, i, L_SET, in3, 4, 1, tl)->outputs[0], h->list_len,
                            tl);
        }
    } else if (strcmp(op, "TensorListPushBack") == 0) {
        add_site(im, s, i, tl);
        add_item(im, tl, ins[1]);
        sm2c_node *n = list_node(im, s, i, L_PUSH, in3, 3, 2, tl);
        out[0] = handle(im, nd->name, n->outputs[0], n->outputs[1], tl);
    } else {   /* TensorListPopBack */
        if ((st = hint(im, s, i, tl, ins[1])))
            return st;
        sm2c_node *n = list_node(im, s, i, L_POP, in3, 2, 2, tl);
        out[0] = handle(im, nd->name, h->list_data, n->outputs[0], tl);
        out[1] = n->outputs[1];
        sm2c_import_set_outputs(im, s, i, out, 2);
        return SM2C_OK;
    }
    if (!st)
        sm2c_import_set_outputs(im, s, i, out, 1);
    return st;
}

int sm2c_import_tlist(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins, sm2c_status *st)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    if (!sm2c_tlist_op(nd->op))
        return 0;
    static const struct { const char *op; int32_t n; } arity[] = {
        { "TensorListReserve", 2 }, { "EmptyTensorList", 2 }, { "TensorListFromTensor", 2 },
        { "TensorListSetItem", 3 }, { "TensorListGetItem", 3 }, { "TensorListStack", 2 },
        { "TensorListLength", 1 }, { "TensorListElementShape", 1 }, { "TensorListPushBack", 2 },
        { "TensorListPopBack", 2 },
    };
    for (size_t k = 0; k < sizeof arity / sizeof arity[0]; k++)
        if (strcmp(arity[k].op, nd->op) == 0 && n_ins != arity[k].n) {
            *st = sm2c_error(im->c->diag, SM2C_ERR_INVALID, im->m->file, sm2c_import_where(im, s, nd),
                             "expects %d inputs, got %d", arity[k].n, n_ins);
            return 1;
        }
    if (strcmp(nd->op, "TensorListReserve") == 0 || strcmp(nd->op, "EmptyTensorList") == 0)
        *st = new_list(im, s, i, ins, n_ins);
    else if (strcmp(nd->op, "TensorListFromTensor") == 0)
        *st = from_tensor(im, s, i, ins);
    else
        *st = list_op(im, s, i, ins, n_ins);
    return 1;
}
