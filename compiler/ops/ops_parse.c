/*
** ops_parse.c: ParseExample and ParseExampleV2, the tf.Example parsing of TF
** Serving's classify and regress signatures and of Estimator / TFX exports.
** The input is a batch of serialized tf.Example protos (a string input:
** sm2c_string elements); each dense feature (float32 or int64, a fixed
** dense_shape, a constant default or none = required) is one checked step of
** runtime/parse_example.c, which returns SM2C_RT_ERR_EXAMPLE on a malformed
** proto or a feature TensorFlow would reject.
**
** A sparse feature (tf.io.VarLenFeature, float32, int64 or string: its values
** point into the serialized input) has outputs whose
** size depends on the data (ops_dyn.c): indices [B * M, rank + 1] and values
** [B * M] hold at most M = --limit sparse-values values per example (B the
** batch), with a run-time count; dense_shape [rank + 1] is (B, the most values
** an example has), its bound (B, M) recorded on the value (sm2c_value.bound)
** for SparseToDense.  An example with more than M values is
** SM2C_RT_ERR_EXAMPLE at run time (runtime/parse_example_sparse.c).  Ragged
** features are refused.
**
**   ParseExample   (serialized, names, sparse_keys x Nsparse, dense_keys x Ndense,
**                   dense_defaults x Ndense): each key a scalar string
**   ParseExampleV2 (serialized, names, sparse_keys, dense_keys, ragged_keys,
**                   dense_defaults x len(Tdense)): the keys as string vectors
** Outputs: sparse_indices, sparse_values, sparse_shapes (one per sparse key),
** dense_values (one per dense key; V2 adds ragged values and splits).
*/
#include "ops_common.h"
#include "ops_parse.h"

typedef struct parse_cfg {
    int32_t n_sparse, n_dense, n_ragged;
    int32_t first_default;             /* input index of dense_defaults[0] */
    int32_t first_dense_out;           /* output index of dense_values[0] */
    const sm2c_bytes **keys;           /* n_dense */
    const sm2c_bytes **sparse_keys;    /* n_sparse */
    const Tensorflow__AttrValue__ListValue *types, *shapes, *sparse_types;
} parse_cfg;

static int32_t list_count(const sm2c_node *n, const char *attr)
{
    const Tensorflow__AttrValue *a = sm2c_attr(n, attr);
    if (!a || a->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !a->list)
        return 0;
    return (int32_t)(a->list->n_type > a->list->n_shape ? a->list->n_type : a->list->n_shape);
}

/* One string of a constant string input (element k). */
static const sm2c_bytes *key_of(sm2c_ctx *c, const sm2c_node *n, int32_t input, int64_t k)
{
    const sm2c_tensor *t = sm2c_op_const_input(c, n, input, "feature keys");
    if (!t)
        return NULL;
    if (t->dtype != SM2C_DT_STRING || !t->strings || k >= t->nelem) {
        sm2c_op_error(c, n, SM2C_ERR_INVALID, "input %d (feature keys) is not a string tensor of %lld or more",
                      input, (long long)(k + 1));
        return NULL;
    }
    return &t->strings[k];
}

static sm2c_status parse_config(sm2c_ctx *c, const sm2c_node *n, parse_cfg *p)
{
    int v2 = strcmp(n->op->name, "ParseExampleV2") == 0;
    const Tensorflow__AttrValue *ty = sm2c_attr(n, "Tdense"), *sh = sm2c_attr(n, "dense_shapes");
    const Tensorflow__AttrValue *sty = sm2c_attr(n, "sparse_types");
    memset(p, 0, sizeof *p);
    p->types = ty && ty->value_case == TENSORFLOW__ATTR_VALUE__VALUE_LIST ? ty->list : NULL;
    p->sparse_types = sty && sty->value_case == TENSORFLOW__ATTR_VALUE__VALUE_LIST ? sty->list : NULL;
    p->shapes = sh && sh->value_case == TENSORFLOW__ATTR_VALUE__VALUE_LIST ? sh->list : NULL;
    p->n_dense = p->types ? (int32_t)p->types->n_type : 0;
    if (v2) {
        p->n_sparse = (int32_t)sm2c_attr_i(n, "num_sparse");
        p->n_ragged = list_count(n, "ragged_value_types");
        p->first_default = 5;
    } else {
        p->n_sparse = (int32_t)sm2c_attr_i(n, "Nsparse");
        if (sm2c_attr_i(n, "Ndense") != p->n_dense)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "Ndense %lld but Tdense has %d types",
                                 (long long)sm2c_attr_i(n, "Ndense"), (int)p->n_dense);
        p->first_default = 2 + p->n_sparse + p->n_dense;
    }
    if (p->n_sparse < 0 || p->n_sparse > SM2C_OPDEF_MAX_LIST)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "%d sparse features", (int)p->n_sparse);
    if (p->n_ragged)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                             "%d ragged features: only dense (tf.io.FixedLenFeature) and sparse "
                             "(tf.io.VarLenFeature) features compile", (int)p->n_ragged);
    if ((p->sparse_types ? (int32_t)p->sparse_types->n_type : 0) != p->n_sparse)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "sparse_types must have one type per sparse key");
    if (!p->shapes || (int32_t)p->shapes->n_shape != p->n_dense)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "dense_shapes must have one shape per dense key");
    if (n->n_inputs != p->first_default + p->n_dense)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects %d inputs, got %d",
                             (int)(p->first_default + p->n_dense), (int)n->n_inputs);
    if (n->n_outputs != 3 * p->n_sparse + p->n_dense)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "has %d outputs for %d sparse and %d dense features",
                             (int)n->n_outputs, (int)p->n_sparse, (int)p->n_dense);
    p->first_dense_out = 3 * p->n_sparse;
    p->sparse_keys = sm2c_arena_array(c->arena, (size_t)p->n_sparse + 1, sizeof *p->sparse_keys);
    for (int32_t j = 0; j < p->n_sparse; j++) {
        p->sparse_keys[j] = v2 ? key_of(c, n, 2, j) : key_of(c, n, 2 + j, 0);
        if (!p->sparse_keys[j])
            return SM2C_ERR_UNSUPPORTED;
        if (p->sparse_keys[j]->len > INT32_MAX / 2)
            return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "sparse feature key %d is too long", (int)j);
    }
    p->keys = sm2c_arena_array(c->arena, (size_t)p->n_dense + 1, sizeof *p->keys);
    for (int32_t j = 0; j < p->n_dense; j++) {
        p->keys[j] = v2 ? key_of(c, n, 3, j) : key_of(c, n, 2 + p->n_sparse + j, 0);
        if (!p->keys[j])
            return SM2C_ERR_UNSUPPORTED;
        if (p->keys[j]->len > INT32_MAX / 2)
            return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "feature key %d is too long", (int)j);
    }
    if (n->inputs[0]->dtype != SM2C_DT_STRING)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "serialized is %s, not string",
                             sm2c_dtype_name(n->inputs[0]->dtype));
    return SM2C_OK;
}

/* Dense feature j: its dtype, dims and element count; errors for what the
** kernel cannot parse. */
static sm2c_status dense_of(sm2c_ctx *c, const sm2c_node *n, const parse_cfg *p, int32_t j, int *dtype,
                            sm2c_shape *shape, int64_t *count)
{
    const Tensorflow__TensorShapeProto *sp = p->shapes->shape[j];
    *dtype = (int)p->types->type[j];
    if (*dtype != SM2C_DT_FLOAT && *dtype != SM2C_DT_INT64)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "dense feature '%.*s' is %s: float32 and int64 compile",
                             (int)p->keys[j]->len, (const char *)p->keys[j]->data, sm2c_dtype_name(*dtype));
    sm2c_status st = sm2c_shape_from_proto(c, n->file, n->name, sp, shape);
    if (st)
        return st;
    *count = sm2c_shape_elements(shape, INT32_MAX);
    if (*count < 0)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                             "dense feature '%.*s' has shape %s: a fixed shape compiles (no variable length)",
                             (int)p->keys[j]->len, (const char *)p->keys[j]->data,
                             sm2c_shape_str(c->arena, shape));
    const sm2c_value *d = n->inputs[p->first_default + j];
    if (d->dtype != *dtype)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "default of dense feature %d is %s, not %s", (int)j,
                             sm2c_dtype_name(d->dtype), sm2c_dtype_name(*dtype));
    if (!d->constant)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "default of dense feature '%.*s' is not a constant",
                             (int)p->keys[j]->len, (const char *)p->keys[j]->data);
    if (d->constant->nelem != 0 && d->constant->nelem != *count)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                             "default of dense feature '%.*s' has %lld values for shape %s",
                             (int)p->keys[j]->len, (const char *)p->keys[j]->data,
                             (long long)d->constant->nelem, sm2c_shape_str(c->arena, shape));
    return SM2C_OK;
}

/* Sparse feature j: its dtype and the most values one example may have. */
static sm2c_status sparse_of(sm2c_ctx *c, const sm2c_node *n, const parse_cfg *p, int32_t j, int *dtype,
                             int64_t *max_per)
{
    const sm2c_shape *ser = &n->inputs[0]->shape;
    *dtype = (int)p->sparse_types->type[j];
    *max_per = c->limits->sparse_values;
    if (*dtype != SM2C_DT_FLOAT && *dtype != SM2C_DT_INT64 && *dtype != SM2C_DT_STRING)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "sparse feature '%.*s' is %s: float32, int64 and string "
                             "compile",
                             (int)p->sparse_keys[j]->len, (const char *)p->sparse_keys[j]->data,
                             sm2c_dtype_name(*dtype));
    if (ser->rank > 1)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "sparse features of serialized %s: a scalar or a "
                             "vector compiles", sm2c_shape_str(c->arena, ser));
    int64_t batch = sm2c_shape_elements(ser, INT32_MAX);
    if (*max_per < 0 || *max_per > INT32_MAX || (batch && *max_per > INT32_MAX / batch))
        return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "sparse feature '%.*s': %lld examples of at most %lld "
                             "values (--limit sparse-values) are too many", (int)p->sparse_keys[j]->len,
                             (const char *)p->sparse_keys[j]->data, (long long)batch, (long long)*max_per);
    return SM2C_OK;
}

/* indices [B * M, rank + 1] and values [B * M] sharing a count; dense_shape
** [rank + 1] bounded by (B, M). */
static sm2c_status shape_sparse(sm2c_ctx *c, sm2c_node *n, const parse_cfg *p, int32_t j)
{
    int dtype;
    int64_t max_per;
    sm2c_status st = sparse_of(c, n, p, j, &dtype, &max_per);
    if (st)
        return st;
    const sm2c_shape *ser = &n->inputs[0]->shape;
    int64_t batch = sm2c_shape_elements(ser, INT32_MAX), rank = ser->rank;
    int64_t idx_dims[2] = { batch * max_per, rank + 1 }, rank1 = rank + 1;
    int64_t *bound = sm2c_arena_array(c->arena, 2, sizeof *bound);
    bound[0] = rank ? batch : max_per;
    bound[rank] = max_per;
    sm2c_op_set(c, n, j, SM2C_DT_INT64, 2, idx_dims);
    sm2c_op_set(c, n, p->n_sparse + j, dtype, 1, idx_dims);
    sm2c_op_set(c, n, 2 * p->n_sparse + j, SM2C_DT_INT64, 1, &rank1);
    sm2c_value *ix = n->outputs[j], *vals = n->outputs[p->n_sparse + j], *shape = n->outputs[2 * p->n_sparse + j];
    ix->dyn = vals->dyn = ix;
    ix->dyn_dim = vals->dyn_dim = 0;
    shape->bound = bound;
    shape->bound_dim = (int32_t)rank;
    return SM2C_OK;
}

sm2c_status shape_parse_example(sm2c_ctx *c, sm2c_node *n)
{
    parse_cfg p;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = parse_config(c, n, &p)))
        return st;
    const sm2c_shape *ser = &n->inputs[0]->shape;
    if (strcmp(n->op->name, "ParseExample") == 0 && ser->rank != 1)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "serialized must be a vector, not %s",
                             sm2c_shape_str(c->arena, ser));
    if (sm2c_shape_elements(ser, INT32_MAX) < 0)
        return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "too many serialized examples");
    for (int32_t j = 0; j < p.n_sparse; j++)
        if ((st = shape_sparse(c, n, &p, j)))
            return st;
    for (int32_t j = 0; j < p.n_dense; j++) {
        int dtype;
        sm2c_shape fs;
        int64_t count, dims[SM2C_RT_MAX_RANK];
        if ((st = dense_of(c, n, &p, j, &dtype, &fs, &count)))
            return st;
        if (ser->rank + fs.rank > SM2C_RT_MAX_RANK)
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "dense feature %d has too many dims", (int)j);
        int64_t total = sm2c_shape_elements(ser, INT32_MAX);
        if (count && total > INT32_MAX / count)
            return sm2c_op_error(c, n, SM2C_ERR_LIMIT, "dense feature %d has too many values", (int)j);
        int32_t r = 0;
        for (int32_t d = 0; d < ser->rank; d++)
            dims[r++] = ser->dims[d];
        for (int32_t d = 0; d < fs.rank; d++)
            dims[r++] = fs.dims[d];
        sm2c_op_set(c, n, p.first_dense_out + j, dtype, r, dims);
    }
    return SM2C_OK;
}

/* A feature key as one int64 per byte (the kernels read int32_t). */
static sm2c_arg key_arg(sm2c_lower *l, const sm2c_bytes *k)
{
    int32_t key_len = (int32_t)k->len;
    int64_t *key = sm2c_arena_array(l->c->arena, (size_t)key_len + 1, sizeof *key);
    for (int32_t i = 0; i < key_len; i++)
        key[i] = k->data[i];
    return key_len ? sm2c_arg_ints(l, key_len, key) : sm2c_arg_null();
}

static sm2c_status lower_sparse(sm2c_lower *l, const sm2c_node *n, const parse_cfg *p, int32_t j)
{
    int dtype;
    int64_t max_per;
    sm2c_status st = sparse_of(l->c, n, p, j, &dtype, &max_per);
    if (st)
        return st;
    const sm2c_value *ix = n->outputs[j];
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_parse_example_sparse", 11);
    s->checked = 1;
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_int(sm2c_shape_elements(&n->inputs[0]->shape, INT32_MAX));
    s->args[2] = sm2c_arg_int(n->inputs[0]->shape.rank);
    s->args[3] = key_arg(l, p->sparse_keys[j]);
    s->args[4] = sm2c_arg_int((int64_t)p->sparse_keys[j]->len);
    s->args[5] = sm2c_arg_int(dtype);
    s->args[6] = sm2c_arg_int(max_per);
    s->args[7] = sm2c_arg_buf(sm2c_lower_buf(l, ix));
    s->args[8] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[p->n_sparse + j]));
    s->args[9] = sm2c_arg_buf(sm2c_lower_count(l, ix));
    s->args[10] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[2 * p->n_sparse + j]));
    return SM2C_OK;
}

sm2c_status lower_parse_example(sm2c_lower *l, const sm2c_node *n)
{
    parse_cfg p;
    sm2c_status st = parse_config(l->c, n, &p);
    if (st)
        return st;
    int64_t batch = sm2c_shape_elements(&n->inputs[0]->shape, INT32_MAX);
    for (int32_t j = 0; j < p.n_sparse; j++)
        if ((st = lower_sparse(l, n, &p, j)))
            return st;
    for (int32_t j = 0; j < p.n_dense; j++) {
        int dtype;
        sm2c_shape fs;
        int64_t count;
        if ((st = dense_of(l->c, n, &p, j, &dtype, &fs, &count)))
            return st;
        const sm2c_value *out = n->outputs[p.first_dense_out + j];
        const sm2c_value *d = n->inputs[p.first_default + j];
        sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_parse_example_dense", 8);
        s->checked = 1;
        s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
        s->args[1] = sm2c_arg_int(batch);
        s->args[2] = key_arg(l, p.keys[j]);
        s->args[3] = sm2c_arg_int((int64_t)p.keys[j]->len);
        s->args[4] = sm2c_arg_int(dtype);
        s->args[5] = sm2c_arg_int(count);
        s->args[6] = d->constant->nelem ? sm2c_arg_buf(sm2c_lower_buf(l, d)) : sm2c_arg_null();
        s->args[7] = sm2c_arg_buf(sm2c_lower_buf(l, out));
    }
    return SM2C_OK;
}

sm2c_status sm2c_parse_example_features(sm2c_ctx *c, const sm2c_node *n, sm2c_example_feature **out,
                                        int32_t *n_out)
{
    parse_cfg p;
    sm2c_status st = parse_config(c, n, &p);
    if (st)
        return st;
    sm2c_example_feature *f = sm2c_arena_array(c->arena, (size_t)(p.n_dense + p.n_sparse) + 1, sizeof *f);
    for (int32_t j = 0; j < p.n_dense; j++) {
        f[j].key = *p.keys[j];
        f[j].dtype = (int)p.types->type[j];
        if ((st = sm2c_shape_from_proto(c, n->file, n->name, p.shapes->shape[j], &f[j].shape)))
            return st;
        f[j].dflt = n->inputs[p.first_default + j]->constant;
    }
    for (int32_t j = 0; j < p.n_sparse; j++) {
        sm2c_example_feature *s = &f[p.n_dense + j];
        s->key = *p.sparse_keys[j];
        s->sparse = 1;
        s->dtype = (int)p.sparse_types->type[j];
        s->shape.rank = -1;
    }
    *out = f;
    *n_out = p.n_dense + p.n_sparse;
    return SM2C_OK;
}
