/*
** ops_ragged.c: RaggedTensorToTensor of one ragged dim (a RaggedTensor's
** to_tensor()), partitioned by ROW_SPLITS or by FIRST_DIM_SIZE +
** VALUE_ROWIDS, the two forms TensorFlow exports.  The result's rows are the
** shape's first dim, else the partition's row count; its columns the shape's
** second dim, else the longest row of a constant partition: a longer row is
** cut, a shorter one padded with the default.  Given neither, the columns
** depend on the data: the result is laid out at the bound the values give
** (no row is longer) with a count of its own, the longest row's length
** (ARCHITECTURE.md, "Data-dependent shapes").  The partition is checked by
** the kernel at run time.
*/
#include "ops_common.h"
#include "ops_text.h"

/* The partition of RaggedTensorToTensor(shape, values, default_value, partitions...). */
typedef struct ragged {
    int by_rowids;              /* VALUE_ROWIDS, else ROW_SPLITS */
    const sm2c_value *part;     /* the splits or the row ids */
    int64_t rows_in;            /* rows of the ragged tensor */
    int64_t dims[SM2C_RT_MAX_RANK];  /* the result's shape */
    int32_t rank;
    int counted;                /* dims[1] is a bound, the columns a run-time count */
} ragged;

/* Whether list(string) attr `name` of n is exactly the n_want strings of want. */
static int attr_strings_are(const sm2c_node *n, const char *name, int32_t n_want, const char *const *want)
{
    const Tensorflow__AttrValue *a = sm2c_attr(n, name);
    if (!a || !a->list || a->list->n_s != (size_t)n_want)
        return 0;
    for (int32_t i = 0; i < n_want; i++)
        if (a->list->s[i].len != strlen(want[i]) || memcmp(a->list->s[i].data, want[i], a->list->s[i].len) != 0)
            return 0;
    return 1;
}

static sm2c_status ragged_partition(sm2c_ctx *c, const sm2c_node *n, ragged *r)
{
    static const char *const splits[] = { "ROW_SPLITS" }, *const rowids[] = { "FIRST_DIM_SIZE", "VALUE_ROWIDS" };
    const sm2c_value *v = n->inputs[1];
    r->by_rowids = n->n_inputs == 5 && attr_strings_are(n, "row_partition_types", 2, rowids);
    if (!r->by_rowids && !(n->n_inputs == 4 && attr_strings_are(n, "row_partition_types", 1, splits)))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                             "only one ragged dim, as ROW_SPLITS or FIRST_DIM_SIZE + VALUE_ROWIDS, is supported");
    r->part = n->inputs[r->by_rowids ? 4 : 3];
    if (r->part->dtype != SM2C_DT_INT32 && r->part->dtype != SM2C_DT_INT64)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "row partition of type %s",
                             sm2c_dtype_name(r->part->dtype));
    if (v->shape.rank < 1 || r->part->shape.rank != 1 ||
        (r->by_rowids ? r->part->shape.dims[0] != v->shape.dims[0] : r->part->shape.dims[0] < 1))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "row partition %s does not fit values %s",
                             sm2c_shape_str(c->arena, &r->part->shape), sm2c_shape_str(c->arena, &v->shape));
    if (!r->by_rowids) {
        r->rows_in = r->part->shape.dims[0] - 1;
        return SM2C_OK;
    }
    const sm2c_tensor *t = sm2c_op_const_input(c, n, 3, "first_dim_size");
    if (!t)
        return SM2C_ERR_UNSUPPORTED;
    r->rows_in = t->nelem == 1 ? sm2c_tensor_get_i64(t, 0) : -1;
    if (r->rows_in < 0 || r->rows_in > INT32_MAX)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "first_dim_size must be a scalar >= 0");
    return SM2C_OK;
}

/* The longest row of a constant partition (TensorFlow's column count when the
** shape gives none), or -1 when the partition is known only at run time. */
static int64_t longest_row(const ragged *r)
{
    const sm2c_tensor *t = r->part->constant;
    int64_t most = 0, run = 0;
    if (!t)
        return -1;
    for (int64_t i = 0; i < t->nelem; i++) {
        int64_t v = sm2c_tensor_get_i64(t, i);
        if (!r->by_rowids)
            run = i > 0 ? v - sm2c_tensor_get_i64(t, i - 1) : 0;
        else
            run = i > 0 && v == sm2c_tensor_get_i64(t, i - 1) ? run + 1 : 1;
        most = run > most ? run : most;
    }
    return most;
}

/* The result's shape: shape's dims where given (>= 0), else the ragged tensor's. */
static sm2c_status ragged_of(sm2c_ctx *c, const sm2c_node *n, ragged *r)
{
    sm2c_status st = ragged_partition(c, n, r);
    const sm2c_tensor *t = st ? NULL : sm2c_op_const_input(c, n, 0, "shape");
    if (!t)
        return st ? st : SM2C_ERR_UNSUPPORTED;
    const sm2c_value *v = n->inputs[1], *d = n->inputs[2];
    int64_t *s = sm2c_op_ints(c, t);
    r->rank = v->shape.rank + 1;
    int unknown = n->inputs[0]->shape.rank == 0 && s[0] == -1;
    if (r->rank > SM2C_RT_MAX_RANK || (!unknown && t->nelem != r->rank))
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "shape %s does not fit values %s with one ragged dim",
                             sm2c_shape_str(c->arena, &n->inputs[0]->shape), sm2c_shape_str(c->arena, &v->shape));
    for (int32_t i = 0; i < r->rank; i++) {
        int64_t given = unknown ? -1 : s[i];
        r->dims[i] = given >= 0 ? given : i == 0 ? r->rows_in : i == 1 ? -1 : v->shape.dims[i - 1];
        if (i >= 2 && r->dims[i] != v->shape.dims[i - 1])
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "shape dim %d (%lld) differs from the values' %lld", i,
                                 (long long)r->dims[i], (long long)v->shape.dims[i - 1]);
    }
    if (r->dims[1] < 0)
        r->dims[1] = longest_row(r);
    r->counted = r->dims[1] < 0;
    if (r->counted)     /* no row is longer than the values */
        r->dims[1] = v->shape.dims[0];
    if (d->dtype != v->dtype || (sm2c_value_elements(d) != 1 && sm2c_value_elements(d) != sm2c_value_elements(v) /
                                 (v->shape.dims[0] > 0 ? v->shape.dims[0] : 1)))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "default_value %s must be a scalar or one value's shape",
                             sm2c_shape_str(c->arena, &d->shape));
    return SM2C_OK;
}

sm2c_status shape_ragged_to_tensor(sm2c_ctx *c, sm2c_node *n)
{
    if (n->n_inputs > 1 && n->inputs[1] && n->inputs[1]->dyn)   /* tokens with a count: ops_text.c */
        return sm2c_shape_ragged_rowids_dyn(c, n);
    ragged r;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = ragged_of(c, n, &r)))
        return st;
    sm2c_op_set(c, n, 0, n->inputs[1]->dtype, r.rank, r.dims);
    if (r.counted) {    /* a data-dependent size (ARCHITECTURE.md): its own count */
        n->outputs[0]->dyn = n->outputs[0];
        n->outputs[0]->dyn_dim = 1;
    }
    return SM2C_OK;
}

sm2c_status lower_ragged_to_tensor(sm2c_lower *l, const sm2c_node *n)
{
    if (n->inputs[1]->dyn)
        return sm2c_lower_ragged_rowids_dyn(l, n);
    ragged r;
    sm2c_status st = ragged_of(l->c, n, &r);
    if (st)
        return st;
    const sm2c_value *v = n->inputs[1], *d = n->inputs[2];
    int64_t inner = 1;
    for (int32_t i = 1; i < v->shape.rank; i++)
        inner *= v->shape.dims[i];
    const char *kernel = sm2c_arena_printf(l->c->arena, "sm2c_rt_ragged_to_tensor_%s",
                                           r.part->dtype == SM2C_DT_INT32 ? "i32" : "i64");
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 13);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, v));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, d));
    s->args[2] = sm2c_arg_int(sm2c_value_elements(d) == 1 ? 1 : inner);
    s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, r.part));
    s->args[4] = sm2c_arg_int(r.by_rowids ? r.rows_in : r.part->shape.dims[0]);
    s->args[5] = sm2c_arg_int(r.by_rowids);
    s->args[6] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[7] = sm2c_arg_int(r.dims[0]);
    s->args[8] = sm2c_arg_int(r.dims[1]);
    s->args[9] = sm2c_arg_int(v->shape.dims[0]);
    s->args[10] = sm2c_arg_int(inner);
    s->args[11] = sm2c_arg_int((int64_t)sm2c_abi_elem_size(v->dtype));
    s->args[12] = r.counted ? sm2c_arg_buf(sm2c_lower_count(l, n->outputs[0])) : sm2c_arg_null();
    return SM2C_OK;
}
