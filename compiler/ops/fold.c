/*
** fold.c: constant folding with the runtime's own kernels.
** The node is lowered as usual into a scratch entry whose inputs are weights,
** and its steps run through exec.c: a folded value is exactly what the
** generated code would have computed.  Outputs larger than FOLD_MAX_BYTES stay
** computed at run time (they would only bloat the weights).
*/
#include "fold.h"

#include <stdlib.h>
#include <string.h>

#include "lower/exec.h"
#include "opdefs.h"

#define FOLD_MAX_BYTES ((int64_t)1 << 22)

static int64_t output_bytes(const sm2c_node *n)
{
    int64_t total = 0;
    for (int32_t i = 0; i < n->n_outputs; i++)
        total += sm2c_value_elements(n->outputs[i]) * (int64_t)sm2c_dtype_size(n->outputs[i]->dtype);
    return total;
}

/* Memory for every buffer of the scratch entry: weights point at their data. */
static void **buffer_memory(sm2c_ctx *c, const sm2c_program *p, const sm2c_entry *e)
{
    void **mem = sm2c_arena_array(c->arena, (size_t)e->n_buffers + 1, sizeof *mem);
    for (int32_t b = 0; b < e->n_buffers; b++) {
        const sm2c_buffer *buf = &e->buffers[b];
        mem[b] = buf->kind == SM2C_BUF_WEIGHT ? p->weights[buf->index].value.data
                                              : sm2c_arena_alloc(c->arena, (size_t)buf->nbytes + 16);
    }
    return mem;
}

static void take_outputs(sm2c_ctx *c, sm2c_node *n, const sm2c_lower *l, void **mem)
{
    for (int32_t i = 0; i < n->n_outputs; i++) {
        sm2c_value *v = n->outputs[i];
        int32_t b = l->buf_of[v->id];
        if (b < 0)
            continue;
        sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
        t->dtype = v->dtype;
        t->shape = v->shape;
        t->nelem = sm2c_value_elements(v);
        t->nbytes = (size_t)t->nelem * sm2c_dtype_size(v->dtype);
        t->data = sm2c_arena_alloc(c->arena, t->nbytes + 1);
        memcpy(t->data, mem[b], t->nbytes);
        v->constant = t;
    }
}

sm2c_status sm2c_fold_node(sm2c_ctx *c, sm2c_graph *g, sm2c_node *n)
{
    if (output_bytes(n) > FOLD_MAX_BYTES || n->cflow || n->tlist)
        return SM2C_OK;  /* control flow markers always run; list ops fold in their shape hooks */
    for (int32_t i = 0; i < n->n_outputs; i++)
        if (!sm2c_kernel_suffix(n->outputs[i]->dtype))
            return SM2C_OK;  /* no runtime type to compute it with */
    sm2c_program p = { 0 };
    sm2c_entry e = { 0 };
    sm2c_graph none = { 0 };
    sm2c_target here = sm2c_target_host();   /* folding runs on this machine */
    sm2c_lower l = { .c = c, .prog = &p, .entry = &e, .g = &none, .target = &here };
    l.buf_of = sm2c_arena_array(c->arena, (size_t)g->n_values + 1, sizeof *l.buf_of);
    for (int32_t i = 0; i <= g->n_values; i++)
        l.buf_of[i] = -1;
    /* Lowering errors here only mean "not foldable": lower it later, and say it then. */
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(c, &quiet);
    l.c = &qc;
    if (sm2c_lower_node(&l, n) != SM2C_OK || l.n_string_fills)
        return SM2C_OK;     /* ... or it reads a string constant, filled at run time */
    for (int32_t s = 0; s < e.n_steps; s++)
        if (!sm2c_exec_knows(e.steps[s].kernel))
            return SM2C_OK;
    void **mem = buffer_memory(c, &p, &e);
    sm2c_status st = sm2c_exec_steps(c, e.steps, e.n_steps, mem);
    if (st)
        return st;
    take_outputs(c, n, &l, mem);
    return SM2C_OK;
}
