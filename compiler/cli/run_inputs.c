/*
** run_inputs.c: `sm2c run`'s inputs checked against the compiled entry
** (run_inputs.h).
*/
#include "run_inputs.h"

#include <string.h>

sm2c_shape sm2c_run_shape(sm2c_ctx *c, const sm2c_port *p, int32_t batch)
{
    if (!p->batched)
        return p->shape;
    sm2c_shape s = sm2c_shape_make(c, p->shape.rank, p->shape.dims);
    s.dims[0] = (int64_t)batch * p->batched;
    return s;
}

sm2c_status sm2c_run_batch(sm2c_ctx *c, const sm2c_entry *e, const sm2c_run_opts *o, const sm2c_tensor *arrays,
                           int32_t *batch)
{
    *batch = 0;
    for (int32_t i = 0; e->max_batch && i < e->n_inputs; i++) {
        for (int32_t k = 0; e->inputs[i].batched && k < o->n_inputs; k++) {
            if (strcmp(o->inputs[k].key, e->inputs[i].key) != 0 || arrays[k].shape.rank < 1)
                continue;
            int64_t rows = arrays[k].shape.dims[0];
            if (rows < 1 || rows > e->max_batch || (*batch && rows != *batch))
                return sm2c_error(c->diag, SM2C_ERR_INVALID, o->inputs[k].path, NULL,
                                  "holds %lld rows; batched inputs must share a batch of 1 to %d "
                                  "(--max-batch)%s", (long long)rows, (int)e->max_batch,
                                  *batch ? sm2c_arena_printf(c->arena, ", and an earlier one has %d",
                                                             (int)*batch) : "");
            *batch = (int32_t)rows;
        }
    }
    return SM2C_OK;
}

/* The index of the given input named `key`, or -1. */
static int32_t given_index(const sm2c_run_opts *o, const char *key)
{
    for (int32_t k = 0; k < o->n_inputs; k++)
        if (strcmp(o->inputs[k].key, key) == 0)
            return k;
    return -1;
}

static int32_t port_index(const sm2c_entry *e, const char *key)
{
    for (int32_t i = 0; i < e->n_inputs; i++)
        if (strcmp(e->inputs[i].key, key) == 0)
            return i;
    return -1;
}

/* The given keys that name no input of e, as "a, b", or NULL. */
static const char *unmatched_keys(sm2c_ctx *c, const sm2c_entry *e, const sm2c_run_opts *o)
{
    const char *t = NULL;
    for (int32_t k = 0; k < o->n_inputs; k++)
        if (port_index(e, o->inputs[k].key) < 0)
            t = sm2c_arena_printf(c->arena, "%s%s%s", t ? t : "", t ? ", " : "", o->inputs[k].key);
    return t;
}

/* The keys of e's inputs, as "a, b". */
static const char *input_keys(sm2c_ctx *c, const sm2c_entry *e)
{
    const char *t = "";
    for (int32_t i = 0; i < e->n_inputs; i++)
        t = sm2c_arena_printf(c->arena, "%s%s%s", t, i ? ", " : "", e->inputs[i].key);
    return *t ? t : "none";
}

static sm2c_status check_input(sm2c_ctx *c, const sm2c_entry *e, const sm2c_port *p, const sm2c_run_opts *o,
                               const sm2c_tensor *arrays, int32_t batch)
{
    int32_t k = given_index(o, p->key);
    if (k < 0) {
        const char *wrong = unmatched_keys(c, e, o);
        return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL,
                          "missing --input %s=FILE.npy (or --input_exprs %s=LITERAL)%s%s%s", p->key, p->key,
                          wrong ? " (given keys that match no input: " : "", wrong ? wrong : "", wrong ? ")" : "");
    }
    const sm2c_tensor *t = &arrays[k];
    sm2c_shape want = sm2c_run_shape(c, p, batch);
    if (t->dtype != sm2c_dtype_base(p->dtype) || !sm2c_shape_equal(&t->shape, &want))
        return sm2c_error(c->diag, SM2C_ERR_INVALID, o->inputs[k].path, NULL,
                          "holds %s %s, but input '%s' is %s %s", sm2c_dtype_name(t->dtype),
                          sm2c_shape_str(c->arena, &t->shape), p->key, sm2c_dtype_name(p->dtype),
                          sm2c_shape_str(c->arena, &want));
    return SM2C_OK;
}

sm2c_status sm2c_run_check_inputs(sm2c_ctx *c, const sm2c_entry *e, const sm2c_run_opts *o,
                                  const sm2c_tensor *arrays, int32_t batch)
{
    for (int32_t i = 0; i < e->n_inputs; i++) {
        sm2c_status st = check_input(c, e, &e->inputs[i], o, arrays, batch);
        if (st)
            return st;
    }
    for (int32_t k = 0; k < o->n_inputs; k++) {
        if (given_index(o, o->inputs[k].key) != k)
            return sm2c_error(c->diag, SM2C_ERR_USAGE, o->inputs[k].path, NULL, "input '%s' is given twice",
                              o->inputs[k].key);
        if (port_index(e, o->inputs[k].key) < 0)
            return sm2c_error(c->diag, SM2C_ERR_USAGE, o->inputs[k].path, NULL,
                              "'%s' names no input of '%s' (its inputs: %s)", o->inputs[k].key, e->key,
                              input_keys(c, e));
    }
    return SM2C_OK;
}

const sm2c_tensor *sm2c_run_input_array(const sm2c_entry *e, int32_t i, const sm2c_run_opts *o,
                                        const sm2c_tensor *arrays)
{
    int32_t k = given_index(o, e->inputs[i].key);
    return k < 0 ? NULL : &arrays[k];
}

sm2c_buf sm2c_run_string_bytes(sm2c_ctx *c, const sm2c_tensor *t)
{
    size_t n = (size_t)t->nelem, total = n * 8;
    for (size_t i = 0; i < n; i++)
        total += t->strings[i].len;
    uint8_t *b = sm2c_arena_alloc(c->arena, total ? total : 1), *at = b + n * 8;
    for (size_t i = 0; i < n; i++) {
        int64_t len = (int64_t)t->strings[i].len;
        memcpy(b + i * 8, &len, 8);
        if (len)
            memcpy(at, t->strings[i].data, (size_t)len);
        at += len;
    }
    return (sm2c_buf){ b, total };
}
