/*
** lower.c: buffers and steps for the lowering hooks (lower.h).
*/
#include "lower.h"


#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *sm2c_kernel_suffix(int dtype)
{
    switch (sm2c_dtype_base(dtype)) {
    case SM2C_DT_FLOAT: return "f32";
    case SM2C_DT_DOUBLE: return "f64";
    case SM2C_DT_INT32: return "i32";
    case SM2C_DT_INT64: return "i64";
    case SM2C_DT_UINT8: return "u8";
    case SM2C_DT_BOOL: return "b";
    case SM2C_DT_HALF: return "f16";
    case SM2C_DT_BFLOAT16: return "bf16";
    case SM2C_DT_INT8: return "i8";
    case SM2C_DT_INT16: return "i16";
    case SM2C_DT_UINT16: return "u16";
    case SM2C_DT_UINT32: return "u32";
    case SM2C_DT_UINT64: return "u64";
    case SM2C_DT_COMPLEX64: return "c64";
    default: return NULL;
    }
}

sm2c_status sm2c_lower_unsupported(sm2c_lower *l, const sm2c_node *n, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sm2c_error(l->c->diag, SM2C_ERR_UNSUPPORTED, n->file, sm2c_node_where(l->c, n), "%s", msg);
}


static int32_t new_buffer(sm2c_lower *l, sm2c_bufkind kind, int dtype, const sm2c_shape *shape,
                          const char *name)
{
    sm2c_entry *e = l->entry;
    if (e->n_buffers == l->cap_bufs) {
        int32_t cap = l->cap_bufs ? l->cap_bufs * 2 : 64;
        sm2c_buffer *b = sm2c_arena_array(l->c->arena, (size_t)cap, sizeof *b);
        if (e->n_buffers)
            memcpy(b, e->buffers, (size_t)e->n_buffers * sizeof *b);
        e->buffers = b;
        l->cap_bufs = cap;
    }
    sm2c_buffer *b = &e->buffers[e->n_buffers];
    b->kind = kind;
    b->dtype = dtype;
    b->shape = *shape;
    int64_t n = sm2c_shape_elements(shape, INT64_MAX), size = sm2c_abi_elem_size(dtype);
    /* checked: shape inference keeps values within int32 bytes (value_size.c),
    ** but a buffer's shape may come from elsewhere; past int64 it is sized 0
    ** and the int32 argument check refuses the steps using it */
    b->nbytes = n > 0 && size > 0 && n <= INT64_MAX / size ? n * size : 0;
    b->name = name;
    b->index = -1;
    b->pinned = 0;
    return e->n_buffers++;
}

int32_t sm2c_program_weight(sm2c_arena *a, sm2c_program *p, const sm2c_tensor *t, const sm2c_shape *shape,
                            const char *name)
{
    int32_t w = -1;
    /* Equal bytes are one weight, whichever signature or node they came from:
    ** each signature reads its variables itself, and constants repeat. */
    for (int32_t i = 0; i < p->n_weights && w < 0; i++)
        if (sm2c_shape_equal(&p->weights[i].value.shape, shape) &&
            p->weights[i].value.dtype == t->dtype &&
            p->weights[i].value.nbytes == t->nbytes &&
            (p->weights[i].value.data == t->data || t->nbytes == 0 ||
             memcmp(p->weights[i].value.data, t->data, t->nbytes) == 0))
            w = i;
    if (w < 0) {
        sm2c_weight *ws = sm2c_arena_array(a, (size_t)p->n_weights + 1, sizeof *ws);
        if (p->n_weights)
            memcpy(ws, p->weights, (size_t)p->n_weights * sizeof *ws);
        ws[p->n_weights].name = name;
        ws[p->n_weights].value = *t;
        ws[p->n_weights].value.shape = *shape;
        p->weights = ws;
        w = p->n_weights++;
    }
    return w;
}

/* The weight holding tensor t (viewed with `shape`), added when new. */
static int32_t weight_index(sm2c_lower *l, const sm2c_tensor *t, const sm2c_shape *shape, const char *name)
{
    return sm2c_program_weight(l->c->arena, l->prog, t, shape, name);
}

static int32_t weight_buffer(sm2c_lower *l, const sm2c_value *v)
{
    int32_t w = weight_index(l, v->constant, &v->shape, v->name);
    int32_t b = new_buffer(l, SM2C_BUF_WEIGHT, v->constant->dtype, &v->shape, v->name);
    l->entry->buffers[b].index = w;
    return b;
}

/* A weight buffer for tensor t (a vector the lowering made). */
static int32_t weight_of(sm2c_lower *l, sm2c_tensor *t, const char *name)
{
    int32_t b = new_buffer(l, SM2C_BUF_WEIGHT, t->dtype, &t->shape, name);
    l->entry->buffers[b].index = weight_index(l, t, &t->shape, name);
    return b;
}

static sm2c_tensor *vector_tensor(sm2c_lower *l, int dtype, int64_t n, size_t elem)
{
    sm2c_tensor *t = sm2c_arena_alloc(l->c->arena, sizeof *t);
    int64_t dims[1] = { n };
    t->dtype = dtype;
    t->shape = sm2c_shape_make(l->c, 1, dims);
    t->nelem = n;
    t->nbytes = (size_t)n * elem;
    t->data = sm2c_arena_alloc(l->c->arena, t->nbytes + 8);
    return t;
}

/* A string constant: its bytes (at least one, so the array is never empty)
** and each element's end offset are weights with no pointers in them, which
** both backends emit as plain arrays; a string_const step points the
** elements of an arena buffer at them.  The step is kept apart (a hook may
** be holding the step it is filling in) and put first when the entry is
** done (sm2c_lower_finish_strings): only constants some step reads get one. */
static int32_t string_const_buffer(sm2c_lower *l, const sm2c_value *v)
{
    const sm2c_tensor *t = v->constant;
    int64_t total = 0;
    for (int64_t i = 0; i < t->nelem; i++)
        total += (int64_t)t->strings[i].len;
    sm2c_tensor *bytes = vector_tensor(l, SM2C_DT_UINT8, total ? total : 1, 1);
    sm2c_tensor *ends = vector_tensor(l, SM2C_DT_INT64, t->nelem ? t->nelem : 1, sizeof(int64_t));
    uint8_t *at = bytes->data;
    memset(bytes->data, 0, bytes->nbytes);
    memset(ends->data, 0, ends->nbytes);
    for (int64_t i = 0; i < t->nelem; i++) {
        if (t->strings[i].len)
            memcpy(at, t->strings[i].data, t->strings[i].len);
        at += t->strings[i].len;
        ((int64_t *)ends->data)[i] = (int64_t)(at - (uint8_t *)bytes->data);
    }
    const char *name = v->name ? v->name : "string constant";
    int32_t b = new_buffer(l, SM2C_BUF_ARENA, SM2C_DT_STRING, &v->shape, name);
    int32_t wb = weight_of(l, bytes, sm2c_arena_printf(l->c->arena, "%s (bytes)", name));
    int32_t we = weight_of(l, ends, sm2c_arena_printf(l->c->arena, "%s (ends)", name));
    sm2c_step *fills = sm2c_arena_array(l->c->arena, (size_t)l->n_string_fills + 1, sizeof *fills);
    if (l->n_string_fills)
        memcpy(fills, l->string_fills, (size_t)l->n_string_fills * sizeof *fills);
    l->string_fills = fills;
    sm2c_step *s = &fills[l->n_string_fills++];
    s->kernel = "sm2c_rt_string_const";
    s->n_args = 4;
    s->args = sm2c_arena_array(l->c->arena, 4, sizeof *s->args);
    s->node = name;
    s->op = "Const";
    s->function = "";
    s->args[0] = sm2c_arg_buf(b);
    s->args[1] = sm2c_arg_buf(wb);
    s->args[2] = sm2c_arg_buf(we);
    s->args[3] = sm2c_arg_int(t->nelem);
    return b;
}

/* The state buffer of a written variable's handle: program->states gets the
** variable when new, its checkpoint value a weight (shared with equal ones). */
static int32_t state_buffer(sm2c_lower *l, const sm2c_value *v)
{
    sm2c_program *p = l->prog;
    const sm2c_tensor *init = v->state->init;
    int32_t k = 0;
    while (k < p->n_states && strcmp(p->states[k].key, v->state->key) != 0)
        k++;
    if (k == p->n_states) {
        sm2c_state *st = sm2c_arena_array(l->c->arena, (size_t)p->n_states + 1, sizeof *st);
        if (p->n_states)
            memcpy(st, p->states, (size_t)p->n_states * sizeof *st);
        st[k] = (sm2c_state){ v->state->key, init->dtype, init->shape, (int64_t)init->nbytes,
                              weight_index(l, init, &init->shape, v->state->key), NULL };
        p->states = st;
        p->n_states++;
    }
    int32_t b = new_buffer(l, SM2C_BUF_STATE, init->dtype, &init->shape, v->state->key);
    l->entry->buffers[b].index = k;
    return b;
}

/* The entry output this value is, if it has not been given to another yet. */
static int32_t output_port(sm2c_lower *l, const sm2c_value *v)
{
    for (int32_t i = 0; i < l->g->n_outputs; i++)
        if (l->g->outputs[i].value == v && l->entry->outputs[i].buf < 0)
            return i;
    return -1;
}

int32_t sm2c_lower_buf(sm2c_lower *l, const sm2c_value *v)
{
    /* Values made during lowering (fill constants) have no id and no cache slot. */
    if (v->id >= 0 && l->buf_of[v->id] >= 0)
        return l->buf_of[v->id];
    int32_t b;
    if (v->state) {
        b = state_buffer(l, v);
    } else if (v->constant && v->constant->dtype == SM2C_DT_STRING) {
        b = string_const_buffer(l, v);
    } else if (v->constant) {
        b = weight_buffer(l, v);
    } else if (v->input >= 0) {
        b = new_buffer(l, SM2C_BUF_INPUT, v->dtype, &v->shape, v->name);
        l->entry->buffers[b].index = v->input;
    } else {
        int32_t port = output_port(l, v);
        b = new_buffer(l, port >= 0 ? SM2C_BUF_OUTPUT : SM2C_BUF_ARENA, v->dtype, &v->shape, v->name);
        if (port >= 0) {
            l->entry->buffers[b].index = port;
            l->entry->outputs[port].buf = b;
        }
    }
    if (v->id >= 0)
        l->buf_of[v->id] = b;
    return b;
}

int32_t sm2c_lower_output_buf(sm2c_lower *l, int32_t port)
{
    int32_t b;
    if (port >= l->g->n_outputs) {  /* a count output (ops_dyn.c): int64 scalar */
        sm2c_shape scalar = { 0, NULL };
        b = new_buffer(l, SM2C_BUF_OUTPUT, SM2C_DT_INT64, &scalar, l->entry->outputs[port].key);
    } else {
        const sm2c_value *v = l->g->outputs[port].value;
        b = new_buffer(l, SM2C_BUF_OUTPUT, v->dtype, &v->shape, l->g->outputs[port].tensor);
    }
    l->entry->buffers[b].index = port;
    l->entry->outputs[port].buf = b;
    return b;
}

int32_t sm2c_lower_count(sm2c_lower *l, const sm2c_value *v)
{
    const sm2c_value *root = v->dyn;
    if (!l->count_of) {
        l->count_of = sm2c_arena_array(l->c->arena, (size_t)l->g->n_values + 1, sizeof *l->count_of);
        for (int32_t i = 0; i <= l->g->n_values; i++)
            l->count_of[i] = -1;
    }
    if (l->count_of[root->id] < 0) {
        sm2c_shape scalar = { 0, NULL };
        l->count_of[root->id] = new_buffer(l, SM2C_BUF_ARENA, SM2C_DT_INT64, &scalar,
                                           sm2c_arena_printf(l->c->arena, "%s (count)", root->name ? root->name : "?"));
    }
    return l->count_of[root->id];
}

void sm2c_lower_alias(sm2c_lower *l, const sm2c_value *v, const sm2c_value *src)
{
    l->buf_of[v->id] = sm2c_lower_buf(l, src);
}

/* The shape is copied: callers build it in their own frame. */
int32_t sm2c_lower_scratch(sm2c_lower *l, int dtype, const sm2c_shape *shape, const char *name)
{
    sm2c_shape kept = sm2c_shape_make(l->c, shape->rank, shape->dims);
    return new_buffer(l, SM2C_BUF_ARENA, dtype, &kept, name);
}

/* What fusion folded into n, as sm2c_step.fused spells it; NULL when nothing. */
static const char *absorbed_names(sm2c_arena *a, const sm2c_node *n)
{
    const char *s = NULL;
    for (const sm2c_node *d = n->absorbed; d; d = d->absorbed) {
        const char *op = d->def ? d->def->op : d->op->name;
        s = s ? sm2c_arena_printf(a, "%s;%s %s", s, op, d->name) : sm2c_arena_printf(a, "%s %s", op, d->name);
    }
    return s;
}

sm2c_step *sm2c_lower_step(sm2c_lower *l, const sm2c_node *n, const char *kernel, int32_t n_args)
{
    sm2c_entry *e = l->entry;
    if (e->n_steps == l->cap_steps) {
        int32_t cap = l->cap_steps ? l->cap_steps * 2 : 64;
        sm2c_step *s = sm2c_arena_array(l->c->arena, (size_t)cap, sizeof *s);
        if (e->n_steps)
            memcpy(s, e->steps, (size_t)e->n_steps * sizeof *s);
        e->steps = s;
        l->cap_steps = cap;
    }
    sm2c_step *s = &e->steps[e->n_steps++];
    s->kernel = sm2c_arena_strdup(l->c->arena, kernel);
    s->n_args = n_args;
    s->args = sm2c_arena_array(l->c->arena, (size_t)n_args, sizeof *s->args);
    s->node = n ? n->name : "";
    s->value_node = n ? n->value_node : NULL;
    s->op = n ? (n->def ? n->def->op : n->op->name) : "";
    s->function = n ? n->function : "";
    s->fused = n ? absorbed_names(l->c->arena, n) : NULL;
    return s;
}

void sm2c_lower_finish_strings(sm2c_lower *l)
{
    sm2c_entry *e = l->entry;
    if (!l->n_string_fills)
        return;
    int32_t n = l->n_string_fills + e->n_steps;
    sm2c_step *steps = sm2c_arena_array(l->c->arena, (size_t)n, sizeof *steps);
    memcpy(steps, l->string_fills, (size_t)l->n_string_fills * sizeof *steps);
    if (e->n_steps)
        memcpy(steps + l->n_string_fills, e->steps, (size_t)e->n_steps * sizeof *steps);
    e->steps = steps;
    e->n_steps = l->cap_steps = n;
    l->n_string_fills = 0;
}

sm2c_arg sm2c_arg_buf(int32_t buf)
{
    sm2c_arg a = { .kind = SM2C_ARG_BUF, .buf = buf };
    return a;
}

sm2c_arg sm2c_arg_int(int64_t i)
{
    sm2c_arg a = { .kind = SM2C_ARG_INT, .i = i };
    return a;
}

sm2c_arg sm2c_arg_float(float f)
{
    sm2c_arg a = { .kind = SM2C_ARG_FLOAT, .f = f };
    return a;
}

void sm2c_lower_act(sm2c_step *s, int32_t at, const sm2c_node *n)
{
    s->args[at] = sm2c_arg_int(n->act);
    s->args[at + 1] = sm2c_arg_float(n->act_a);
    s->args[at + 2] = sm2c_arg_float(n->act_b);
}

sm2c_arg sm2c_arg_null(void)
{
    sm2c_arg a = { .kind = SM2C_ARG_NULL };
    return a;
}

sm2c_arg sm2c_arg_ints(sm2c_lower *l, int32_t n, const int64_t *vals)
{
    int32_t *v = sm2c_arena_array(l->c->arena, n > 0 ? (size_t)n : 1, sizeof *v);
    for (int32_t i = 0; i < n; i++) {
        /* Kernels take int32 arrays; the caller (sm2c_lower_node) refuses the
        ** node if a value did not fit, rather than run it truncated. */
        if (vals[i] < INT32_MIN || vals[i] > INT32_MAX) {
            if (!l->ints_overflow)
                l->ints_overflow = vals[i];
            v[i] = 0;
        } else {
            v[i] = (int32_t)vals[i];
        }
    }
    sm2c_arg a = { .kind = SM2C_ARG_INTS, .n = n, .ints = v };
    return a;
}
