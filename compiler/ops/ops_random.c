/*
** ops_random.c: the stateless random ops on TensorFlow's Philox stream
** (runtime/random.c), bit-exact with TensorFlow's CPU kernels.
**
**  - StatelessRandomGetKeyCounter(Alg) turn a seed pair (int32/int64 [2])
**    into the generator's key (uint64 [1]) and counter (uint64 [2]); the alg
**    output, and StatelessRandomGetAlg's, is the constant 1 (Philox: what TF
**    picks on CPU).
**  - The V2 fills (StatelessRandomUniformV2, ...NormalV2, TruncatedNormalV2,
**    UniformIntV2, UniformFullIntV2) take shape, key, counter, alg; alg must be
**    a constant, 1 (Philox) or 3 (auto-select, Philox on CPU).  ThreeFry (2)
**    is refused, as TF's CPU kernels refuse it.
**  - The V1 fills (StatelessRandomUniform, ...Normal, TruncatedNormal,
**    UniformInt) take shape and seed: a key_counter step into scratch first.
**  - The stateful ops (RandomUniform, RandomStandardNormal, TruncatedNormal,
**    RandomUniformInt) keep their generator in the model's state, one per node
**    and entry (TF: one per kernel instance), uint64[3] = key, counter,
**    starting at TF's PhiloxRandom(seed, seed2): key seed, counter [0, seed2].
**    Each run reserves n * 256 Philox calls for its n outputs, as TF's
**    GuardedPhiloxRandom does, so consecutive calls continue TF's stream.
**    seed = seed2 = 0, where TF seeds from the OS at random, is the literal
**    key 0 and counter 0: deterministic, documented in `sm2c ops` notes.
** The shape is a compile-time constant; seeds, keys and counters may be run-time
** values.  A constant seed folds the whole op into a constant (fold.c).
*/
#include "ops_common.h"

#define RNG_ALG_PHILOX 1
#define RNG_ALG_AUTO_SELECT 3

enum { SEED_INPUT, KEY_COUNTER_INPUTS, STATEFUL };

typedef struct random_form {
    const char *op;
    const char *kernel;     /* sm2c_rt_random_<kernel>_<dtype> */
    int source;             /* a seed at input 1, key, counter, alg at 1-3, or state */
    int bounds;             /* input of minval (maxval follows); 0: none */
    unsigned dtypes;        /* SM2C_OPT_* the kernel has */
    const char *dtype_attr; /* the output type's attr */
} random_form;

static const random_form forms[] = {
    { "StatelessRandomUniform", "uniform", SEED_INPUT, 0, SM2C_OPT_FLOAT, "dtype" },
    { "StatelessRandomNormal", "normal", SEED_INPUT, 0, SM2C_OPT_FLOAT, "dtype" },
    { "StatelessTruncatedNormal", "truncated_normal", SEED_INPUT, 0, SM2C_OPT_FLOAT, "dtype" },
    { "StatelessRandomUniformInt", "uniform_int", SEED_INPUT, 2, SM2C_OPT_INT, "dtype" },
    { "StatelessRandomUniformV2", "uniform", KEY_COUNTER_INPUTS, 0, SM2C_OPT_FLOAT, "dtype" },
    { "StatelessRandomNormalV2", "normal", KEY_COUNTER_INPUTS, 0, SM2C_OPT_FLOAT, "dtype" },
    { "StatelessTruncatedNormalV2", "truncated_normal", KEY_COUNTER_INPUTS, 0, SM2C_OPT_FLOAT, "dtype" },
    { "StatelessRandomUniformIntV2", "uniform_int", KEY_COUNTER_INPUTS, 4, SM2C_OPT_INT, "dtype" },
    { "StatelessRandomUniformFullIntV2", "full_int", KEY_COUNTER_INPUTS, 0, SM2C_OPT_INT, "dtype" },
    { "RandomUniform", "uniform", STATEFUL, 0, SM2C_OPT_FLOAT, "dtype" },
    { "RandomStandardNormal", "normal", STATEFUL, 0, SM2C_OPT_FLOAT, "dtype" },
    { "TruncatedNormal", "truncated_normal", STATEFUL, 0, SM2C_OPT_FLOAT, "dtype" },
    { "RandomUniformInt", "uniform_int", STATEFUL, 1, SM2C_OPT_INT, "Tout" },
};

static const random_form *form_of(const sm2c_node *n)
{
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
        if (strcmp(n->op->name, forms[i].op) == 0)
            return &forms[i];
    return NULL;
}

/* The output dtype: the form's attr (TF's default float32 when stripped). */
static int out_dtype(const sm2c_node *n, const random_form *f)
{
    const Tensorflow__AttrValue *t = sm2c_attr(n, f->dtype_attr);
    if (t && t->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE)
        return sm2c_dtype_base((int)t->type);
    return SM2C_DT_FLOAT;
}

/* Input i must be a 1-D vector of `len` values of dtype dt (SM2C_DT_INVALID:
** int32 or int64). */
static sm2c_status check_vector(sm2c_ctx *c, const sm2c_node *n, int32_t i, const char *what, int dt,
                                int64_t len)
{
    const sm2c_value *x = n->inputs[i];
    int ok_type = dt == SM2C_DT_INVALID ? x->dtype == SM2C_DT_INT32 || x->dtype == SM2C_DT_INT64
                                        : x->dtype == dt;
    if (!ok_type || x->shape.rank != 1 || x->shape.dims[0] != len)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "%s must be a %s vector of %lld, got %s %s", what,
                             dt == SM2C_DT_INVALID ? "int32 or int64" : sm2c_dtype_name(dt),
                             (long long)len, sm2c_dtype_name(x->dtype), sm2c_shape_str(c->arena, &x->shape));
    return SM2C_OK;
}

sm2c_status shape_random_key_counter(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = check_vector(c, n, 0, "the seed", SM2C_DT_INVALID, 2)))
        return st;
    int64_t one = 1, two = 2;
    sm2c_op_set(c, n, 0, SM2C_DT_UINT64, 1, &one);
    sm2c_op_set(c, n, 1, SM2C_DT_UINT64, 1, &two);
    if (n->n_outputs > 2) {     /* StatelessRandomGetKeyCounterAlg */
        int64_t alg = RNG_ALG_PHILOX;
        sm2c_op_set(c, n, 2, SM2C_DT_INT32, 0, NULL);
        n->outputs[2]->constant = sm2c_op_int_tensor(c, SM2C_DT_INT32, 0, &alg, 1);
    }
    return SM2C_OK;
}

sm2c_status lower_random_key_counter(sm2c_lower *l, const sm2c_node *n)
{
    const char *k = sm2c_op_kernel(l->c, "random_key_counter", n->inputs[0]->dtype);
    sm2c_step *s = sm2c_lower_step(l, n, k, 3);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[1]));
    return SM2C_OK;
}

sm2c_status shape_random_get_alg(sm2c_ctx *c, sm2c_node *n)
{
    int64_t alg = RNG_ALG_PHILOX;
    sm2c_op_set(c, n, 0, SM2C_DT_INT32, 0, NULL);
    n->outputs[0]->constant = sm2c_op_int_tensor(c, SM2C_DT_INT32, 0, &alg, 1);
    return SM2C_OK;
}

sm2c_status lower_random_get_alg(sm2c_lower *l, const sm2c_node *n)
{
    (void)l, (void)n;   /* its output is a constant: nothing runs */
    return SM2C_OK;
}

/* Checks the inputs of a fill and sets its output shape in dims (rank). */
static sm2c_status fill_params(sm2c_ctx *c, const sm2c_node *n, const random_form *f, int32_t *rank,
                               int64_t *dims)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    int dt = out_dtype(n, f);
    /* float16 too for the float fills (SM2C_OPT_* has no bit for it). */
    int half = dt == SM2C_DT_HALF && (f->dtypes & SM2C_OPT_FLOAT);
    if (!half && !(sm2c_op_type_bit(dt) & f->dtypes))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "%s with dtype %s is not supported (see `sm2c ops`)",
                             n->op->name, sm2c_dtype_name(dt));
    const sm2c_tensor *shape = sm2c_op_const_input(c, n, 0, "shape");
    if (!shape)
        return SM2C_ERR_UNSUPPORTED;
    if (shape->shape.rank > 1 || shape->nelem > SM2C_RT_MAX_RANK)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "shape must be a vector of at most %d sizes",
                             SM2C_RT_MAX_RANK);
    int64_t *v = sm2c_op_ints(c, shape);
    int64_t total = 1;
    for (int64_t i = 0; i < shape->nelem; i++) {
        if (v[i] < 0 || (v[i] > 0 && total > INT32_MAX / v[i]))
            return sm2c_op_error(c, n, v[i] < 0 ? SM2C_ERR_INVALID : SM2C_ERR_LIMIT,
                                 "shape size %lld is negative or the output has more than 2^31-1 values",
                                 (long long)v[i]);
        total *= v[i];
        dims[i] = v[i];
    }
    *rank = (int32_t)shape->nelem;
    if (f->source == SEED_INPUT) {
        if ((st = check_vector(c, n, 1, "the seed", SM2C_DT_INVALID, 2)))
            return st;
    } else if (f->source == KEY_COUNTER_INPUTS) {
        if ((st = check_vector(c, n, 1, "the key", SM2C_DT_UINT64, 1)) ||
            (st = check_vector(c, n, 2, "the counter", SM2C_DT_UINT64, 2)))
            return st;
        const sm2c_tensor *alg = sm2c_op_const_input(c, n, 3, "alg");
        if (!alg)
            return SM2C_ERR_UNSUPPORTED;
        if (alg->nelem != 1)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "alg must be a scalar");
        int64_t a = sm2c_op_ints(c, alg)[0];
        if (a != RNG_ALG_PHILOX && a != RNG_ALG_AUTO_SELECT)
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "algorithm %lld is not supported (Philox, 1, "
                                 "and auto-select, 3, are; TensorFlow's CPU kernels refuse the others)",
                                 (long long)a);
    }
    if (f->bounds) {
        int32_t at = f->bounds;
        for (int32_t i = at; i < at + 2; i++)
            if (n->inputs[i]->dtype != dt || sm2c_value_elements(n->inputs[i]) != 1)
                return sm2c_op_error(c, n, SM2C_ERR_INVALID, "%s must be a %s scalar",
                                     i == at ? "minval" : "maxval", sm2c_dtype_name(dt));
    }
    return SM2C_OK;
}

/* A stateful op's generator: a state value of its own, keyed by node, entry
** and call path (never a checkpoint key: those have no '|'), starting at
** TF's PhiloxRandom(seed, seed2). */
static const sm2c_value *generator_state(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_ctx *c = l->c;
    int64_t three = 3;
    uint64_t *init = sm2c_arena_array(c->arena, 3, sizeof *init);
    init[0] = (uint64_t)sm2c_attr_i(n, "seed");
    init[1] = 0;
    init[2] = (uint64_t)sm2c_attr_i(n, "seed2");
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    memset(t, 0, sizeof *t);
    t->dtype = SM2C_DT_UINT64;
    t->shape = sm2c_shape_make(c, 1, &three);
    t->nelem = 3;
    t->nbytes = 3 * sizeof *init;
    t->data = init;
    sm2c_state_var *var = sm2c_arena_alloc(c->arena, sizeof *var);
    memset(var, 0, sizeof *var);
    var->key = sm2c_arena_printf(c->arena, "random|%s|%s|%s", n->name ? n->name : "",
                                 l->entry->key ? l->entry->key : "", n->function ? n->function : "");
    var->init = t;
    sm2c_value *v = sm2c_arena_alloc(c->arena, sizeof *v);
    memset(v, 0, sizeof *v);
    v->id = -1;
    v->input = -1;
    v->dtype = SM2C_DT_UINT64;
    v->shape = t->shape;
    v->state = var;
    v->name = var->key;
    return v;
}

sm2c_status shape_random(sm2c_ctx *c, sm2c_node *n)
{
    const random_form *f = form_of(n);
    int64_t dims[SM2C_RT_MAX_RANK];
    int32_t rank = 0;
    sm2c_status st = f ? fill_params(c, n, f, &rank, dims) : SM2C_ERR_INTERNAL;
    if (st)
        return st;
    sm2c_op_set(c, n, 0, out_dtype(n, f), rank, dims);
    return SM2C_OK;
}

sm2c_status lower_random(sm2c_lower *l, const sm2c_node *n)
{
    const random_form *f = form_of(n);
    int64_t dims[SM2C_RT_MAX_RANK];
    int32_t rank = 0;
    sm2c_status st = f ? fill_params(l->c, n, f, &rank, dims) : SM2C_ERR_INTERNAL;
    if (st)
        return st;
    int32_t key, counter;
    int32_t nelem = (int32_t)sm2c_value_elements(n->outputs[0]);
    if (f->source == KEY_COUNTER_INPUTS) {
        key = sm2c_lower_buf(l, n->inputs[1]);
        counter = sm2c_lower_buf(l, n->inputs[2]);
    } else {
        int64_t one = 1, two = 2;
        sm2c_shape s1 = sm2c_shape_make(l->c, 1, &one), s2 = sm2c_shape_make(l->c, 1, &two);
        key = sm2c_lower_scratch(l, SM2C_DT_UINT64, &s1, "key");
        counter = sm2c_lower_scratch(l, SM2C_DT_UINT64, &s2, "counter");
        sm2c_step *s;
        if (f->source == SEED_INPUT) {
            s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "random_key_counter", n->inputs[1]->dtype), 3);
            s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[1]));
        } else {
            s = sm2c_lower_step(l, n, "sm2c_rt_random_reserve", 4);
            s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, generator_state(l, n)));
            s->args[3] = sm2c_arg_int(nelem);
            l->entry->writes_state = 1;
        }
        s->args[1] = sm2c_arg_buf(key);
        s->args[2] = sm2c_arg_buf(counter);
    }
    const char *k = sm2c_op_kernel(l->c, sm2c_arena_printf(l->c->arena, "random_%s", f->kernel), out_dtype(n, f));
    sm2c_step *s = sm2c_lower_step(l, n, k, f->bounds ? 6 : 4);
    s->args[0] = sm2c_arg_buf(key);
    s->args[1] = sm2c_arg_buf(counter);
    if (f->bounds) {
        int32_t at = f->bounds;
        s->args[2] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[at]));
        s->args[3] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[at + 1]));
        s->checked = 1;     /* minval >= maxval is an error, as in TF */
    }
    s->args[f->bounds ? 4 : 2] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[f->bounds ? 5 : 3] = sm2c_arg_int(nelem);
    return SM2C_OK;
}
