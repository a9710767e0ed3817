/*
** c_names.c: the C backend's names: C element types, globals, macro stems and
** parameters, all chosen before any text is written (mangle.c keeps them apart).
*/
#include "emit_c_internal.h"

#include <string.h>

static const ctype ctypes[] = {
    { SM2C_DT_FLOAT, "float", K_F32, 4 },       { SM2C_DT_DOUBLE, "double", K_F64, 8 },
    { SM2C_DT_INT32, "int32_t", K_SINT, 4 },    { SM2C_DT_INT64, "int64_t", K_SINT, 8 },
    { SM2C_DT_UINT8, "uint8_t", K_UINT, 1 },    { SM2C_DT_INT8, "int8_t", K_SINT, 1 },
    { SM2C_DT_INT16, "int16_t", K_SINT, 2 },    { SM2C_DT_UINT16, "uint16_t", K_UINT, 2 },
    { SM2C_DT_UINT32, "uint32_t", K_UINT, 4 },  { SM2C_DT_UINT64, "uint64_t", K_UINT, 8 },
    { SM2C_DT_BOOL, "uint8_t", K_UINT, 1 },     { SM2C_DT_HALF, "uint16_t", K_BITS16, 2 },
    { SM2C_DT_BFLOAT16, "uint16_t", K_BITS16, 2 },
    /* entry inputs only: ParseExample's serialized protos (the header checks the size) */
    { SM2C_DT_STRING, "sm2c_string", K_UINT, SM2C_STRING_ELEM_SIZE },
    /* complex64: float pairs (re, im), so its C element type is float */
    { SM2C_DT_COMPLEX64, "float", K_F32, 8 },
};

const ctype *sm2c_c_ctype_of(int dtype)
{
    int dt = sm2c_dtype_base(dtype);
    for (size_t i = 0; i < sizeof ctypes / sizeof *ctypes; i++)
        if (ctypes[i].dtype == dt)
            return &ctypes[i];
    return NULL;
}

const char *sm2c_c_global(emitter *e, const char *base)
{
    const char *n = sm2c_mangle_unique(&e->globals, base, "x_");
    e->gnames = sm2c_grow(e->gnames, &e->cap_gnames, e->n_gnames + 1, sizeof *e->gnames);
    e->gnames[e->n_gnames++] = n;
    return n;
}

static int public_global(emitter *e, const char *n)
{
    if (!sm2c_nameset_add(&e->globals, n))
        return 0;
    e->gnames = sm2c_grow(e->gnames, &e->cap_gnames, e->n_gnames + 1, sizeof *e->gnames);
    e->gnames[e->n_gnames++] = n;
    return 1;
}

const char *sm2c_c_upper(emitter *e, const char *s)
{
    return sm2c_mangle_sanitize(e->c->arena, s, 1, SM2C_MANGLE_MAX);
}

/* A macro stem <NAME>_<CNAME>_<KEY> whose derived macros are all free. */
static const char *macro_stem(emitter *e, const sm2c_entry *en, const char *key)
{
    static const char *const sfx[] = { "_SIZE", "_ELEMENTS", "_RANK", "_SHAPE", "_ROW_SIZE",
                                       "_ROW_ELEMENTS", "_SCALE", "_ZERO_POINT" };
    const size_t n_sfx = sizeof sfx / sizeof sfx[0];
    sm2c_arena *a = e->c->arena;
    const char *base = sm2c_arena_printf(a, "%s_%s_%s", e->NAME, sm2c_c_upper(e, en->c_name),
                                         sm2c_c_upper(e, key));
    for (int i = 1;; i++) {
        const char *stem = i == 1 ? base : sm2c_arena_printf(a, "%s_%d", base, i);
        int free_ = 1;
        for (size_t k = 0; k < n_sfx && free_; k++)
            free_ = !sm2c_nameset_has(&e->macros, sm2c_arena_printf(a, "%s%s", stem, sfx[k]));
        if (!free_)
            continue;
        for (size_t k = 0; k < n_sfx; k++)
            sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s%s", stem, sfx[k]));
        return stem;
    }
}

const char *sm2c_c_ints_name(emitter *e, const sm2c_arg *ar)
{
    for (size_t i = 0; i < e->n_ints; i++)
        if (e->ints[i].n == ar->n &&
            (ar->n == 0 || memcmp(e->ints[i].v, ar->ints, (size_t)ar->n * 4) == 0))
            return e->ints[i].name;
    e->ints = sm2c_grow(e->ints, &e->cap_ints, e->n_ints + 1, sizeof *e->ints);
    ints_const *k = &e->ints[e->n_ints];
    k->n = ar->n;
    k->v = ar->ints;
    k->name = sm2c_c_global(e, sm2c_arena_printf(e->c->arena, "%s_k%zu", e->p->name, e->n_ints));
    e->n_ints++;
    return k->name;
}

const char *sm2c_c_float_name(emitter *e, uint32_t bits)
{
    for (size_t i = 0; i < e->n_floats; i++)
        if (e->floats[i].bits == bits)
            return e->floats[i].name;
    e->floats = sm2c_grow(e->floats, &e->cap_floats, e->n_floats + 1, sizeof *e->floats);
    float_const *f = &e->floats[e->n_floats];
    f->bits = bits;
    f->name = sm2c_c_global(e, sm2c_arena_printf(e->c->arena, "%s_f%zu", e->p->name, e->n_floats));
    e->n_floats++;
    return f->name;
}

/* Stateful programs: the public init/reset and per entry <fn>_r, the static
** default state and its flag; the arena always exists (it is the default
** workspace). */
static sm2c_status assign_state_names(emitter *e)
{
    const sm2c_program *p = e->p;
    sm2c_arena *a = e->c->arena;
    static const char *const fixed[] = { "state", "init", "reset", "state_table", "state_info",
                                         "variable_info", "state_variables", "runs_r", "writes_state",
                                         "init_any" };
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        if (!public_global(e, sm2c_arena_printf(a, "%s_%s", p->name, fixed[i])))
            return sm2c_error(e->c->diag, SM2C_ERR_UNSUPPORTED, p->name, NULL,
                              "name %s_%s is used twice (an entry has that name)", p->name, fixed[i]);
    sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_STATE_SIZE", e->NAME));
    sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_WORKSPACE_SIZE", e->NAME));
    e->fn_r = sm2c_arena_array(a, (size_t)p->n_entries + 1, sizeof *e->fn_r);
    for (int32_t k = 0; k < p->n_entries; k++) {
        e->fn_r[k] = sm2c_arena_printf(a, "%s_r", e->en[k].fn);
        if (!public_global(e, e->fn_r[k]))
            return sm2c_error(e->c->diag, SM2C_ERR_UNSUPPORTED, p->name, p->entries[k].key,
                              "function name %s is used twice", e->fn_r[k]);
    }
    e->run_r = sm2c_arena_array(a, (size_t)p->n_entries + 1, sizeof *e->run_r);
    for (int32_t k = 0; k < p->n_entries; k++)
        e->run_r[k] = sm2c_c_global(e, sm2c_arena_printf(a, "%s_run_r%d", p->name, k));
    e->state_dims = sm2c_arena_array(a, (size_t)p->n_states + 1, sizeof *e->state_dims);
    for (int32_t i = 0; i < p->n_states; i++)
        if (p->states[i].shape.rank > 0)
            e->state_dims[i] = sm2c_c_global(e, sm2c_arena_printf(a, "%s_sd%d", p->name, i));
    e->default_state = sm2c_c_global(e, sm2c_arena_printf(a, "%s_default_state", p->name));
    e->state_ready = sm2c_c_global(e, sm2c_arena_printf(a, "%s_state_ready", p->name));
    return SM2C_OK;
}

/* The context type and functions (every program), named after the others so
** that no earlier name changes. */
static sm2c_status assign_ctx_names(emitter *e)
{
    const sm2c_program *p = e->p;
    sm2c_arena *a = e->c->arena;
    static const char *const fixed[] = { "ctx", "ctx_init", "ctx_reset", "ctx_info", "ctx_table", "ctx_init_any",
                                         "ctx_reset_any", "runs_ctx", "runbs_ctx" };
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        if (!public_global(e, sm2c_arena_printf(a, "%s_%s", p->name, fixed[i])))
            return sm2c_error(e->c->diag, SM2C_ERR_UNSUPPORTED, p->name, NULL,
                              "name %s_%s is used twice (an entry has that name)", p->name, fixed[i]);
    sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_WORKSPACE_SIZE", e->NAME));
    sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_WORKSPACE_ALIGN", e->NAME));
    sm2c_nameset_add(&e->macros, "SM2C_RT_PAR_DEFINED");
    size_t n = (size_t)p->n_entries + 1;
    e->fn_ctx = sm2c_arena_array(a, n, sizeof *e->fn_ctx);
    e->row_ctx = sm2c_arena_array(a, n, sizeof *e->row_ctx);
    e->run_ctx = sm2c_arena_array(a, n, sizeof *e->run_ctx);
    e->runb_ctx = sm2c_arena_array(a, n, sizeof *e->runb_ctx);
    for (int32_t k = 0; k < p->n_entries; k++) {
        e->fn_ctx[k] = sm2c_arena_printf(a, "%s_ctx", e->en[k].fn);
        if (!public_global(e, e->fn_ctx[k]))
            return sm2c_error(e->c->diag, SM2C_ERR_UNSUPPORTED, p->name, p->entries[k].key,
                              "function name %s is used twice", e->fn_ctx[k]);
        e->run_ctx[k] = sm2c_c_global(e, sm2c_arena_printf(a, "%s_run_ctx%d", p->name, k));
        if (p->entries[k].max_batch) {
            e->row_ctx[k] = sm2c_c_global(e, sm2c_arena_printf(a, "%s_row_ctx", e->en[k].fn));
            e->runb_ctx[k] = sm2c_c_global(e, sm2c_arena_printf(a, "%s_runb_ctx%d", p->name, k));
        }
    }
    e->any_split = sm2c_program_any_split(p);
    return SM2C_OK;
}

/* --fast-arena: whether the plan put some buffer of some entry there. */
static int any_fast(const sm2c_program *p)
{
    for (int32_t k = 0; k < p->n_entries; k++)
        if (sm2c_c_uses_pool(&p->entries[k], 1))
            return 1;
    return 0;
}

sm2c_status sm2c_c_assign_names(emitter *e)
{
    const sm2c_program *p = e->p;
    sm2c_arena *a = e->c->arena;
    sm2c_nameset_init(&e->globals, a);
    sm2c_nameset_init(&e->macros, a);
    e->NAME = sm2c_mangle_sanitize(a, p->name, 1, (size_t)-1);
    sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_H_", e->NAME));
    sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_ARENA_SIZE", e->NAME));
    sm2c_nameset_add(&e->macros, "SM2C_ALIGN");

    static const char *const fixed[] = { "signatures", "n_signatures", "tensor_info",
                                         "signature_info" };
    for (size_t i = 0; i < 4; i++)
        public_global(e, sm2c_arena_printf(a, "%s_%s", p->name, fixed[i]));
    if (sm2c_program_any_batched(p)) {
        public_global(e, sm2c_arena_printf(a, "%s_batches", p->name));
        public_global(e, sm2c_arena_printf(a, "%s_batch_info", p->name));
    }
    e->en = sm2c_arena_array(a, (size_t)p->n_entries, sizeof *e->en);
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        e->en[k].fn = sm2c_arena_printf(a, "%s_%s", p->name, en->c_name);
        if (!public_global(e, e->en[k].fn))
            return sm2c_error(e->c->diag, SM2C_ERR_UNSUPPORTED, p->name, en->key,
                              "function name %s is used twice", e->en[k].fn);
    }

    /* Internal (static) symbols: weights in index order, then per entry. */
    int any_arena = 0;
    e->wname = sm2c_arena_array(a, (size_t)p->n_weights + 1, sizeof *e->wname);
    e->wbits = sm2c_arena_array(a, (size_t)p->n_weights + 1, sizeof *e->wbits);
    for (int32_t w = 0; w < p->n_weights; w++) {
        if (sm2c_program_uses_weight(p, w))
            e->wname[w] = sm2c_c_global(e, sm2c_arena_printf(a, "%s_w%d", p->name, w));
        int kind = sm2c_c_ctype_of(p->weights[w].value.dtype)->kind;
        if (!e->wname[w])
            e->wbits[w] = 0;
        else if (e->weights_tu)
            e->wbits[w] = (uint8_t)sm2c_c_packed_weight(&p->weights[w].value);
        else
            e->wbits[w] = (kind == K_F32 || kind == K_F64) && sm2c_c_weight_has_nonfinite(&p->weights[w].value);
    }
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        for (int32_t s = 0; s < en->n_steps; s++)
            for (int32_t i = 0; i < en->steps[s].n_args; i++) {
                const sm2c_arg *ar = &en->steps[s].args[i];
                if (ar->kind == SM2C_ARG_INTS)
                    sm2c_c_ints_name(e, ar);
                else if (ar->kind == SM2C_ARG_FLOAT) {
                    uint32_t bits;
                    memcpy(&bits, &ar->f, 4);
                    if (!float_bits_finite(bits))
                        sm2c_c_float_name(e, bits);
                } else if (ar->kind == SM2C_ARG_BUF &&
                           en->buffers[ar->buf].kind == SM2C_BUF_ARENA)
                    any_arena = 1;
            }
    }
    sm2c_c_assign_layers(e);
    if (p->n_states) {
        sm2c_status st = assign_state_names(e);
        if (st)
            return st;
    }
    if (any_arena || p->n_states)
        e->arena = sm2c_c_global(e, sm2c_arena_printf(a, "%s_arena", p->name));
    if (sm2c_c_fast(e) && (any_fast(p) || p->n_states)) {
        e->fast_arena = sm2c_c_global(e, sm2c_arena_printf(a, "%s_fast_arena", p->name));
        sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_FAST_ARENA_SIZE", e->NAME));
        sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_FAST_WORKSPACE_SIZE", e->NAME));
    }

    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        entry_names *n = &e->en[k];
        n->in = sm2c_arena_array(a, (size_t)en->n_inputs + 1, sizeof *n->in);
        n->out = sm2c_arena_array(a, (size_t)en->n_outputs + 1, sizeof *n->out);
        n->in_stem = sm2c_arena_array(a, (size_t)en->n_inputs + 1, sizeof *n->in_stem);
        n->out_stem = sm2c_arena_array(a, (size_t)en->n_outputs + 1, sizeof *n->out_stem);
        n->in_dims = sm2c_arena_array(a, (size_t)en->n_inputs + 1, sizeof *n->in_dims);
        n->out_dims = sm2c_arena_array(a, (size_t)en->n_outputs + 1, sizeof *n->out_dims);
        for (int32_t i = 0; i < en->n_inputs; i++) {
            n->in_stem[i] = macro_stem(e, en, en->inputs[i].key);
            if (en->inputs[i].shape.rank > 0)
                n->in_dims[i] = sm2c_c_global(e, sm2c_arena_printf(a, "%s_d%d_i%d", p->name, k, i));
        }
        for (int32_t i = 0; i < en->n_outputs; i++) {
            n->out_stem[i] = macro_stem(e, en, en->outputs[i].key);
            if (en->outputs[i].shape.rank > 0)
                n->out_dims[i] = sm2c_c_global(e, sm2c_arena_printf(a, "%s_d%d_o%d", p->name, k, i));
        }
        if (en->n_inputs)
            n->in_info = sm2c_c_global(e, sm2c_arena_printf(a, "%s_inputs%d", p->name, k));
        if (en->n_outputs)
            n->out_info = sm2c_c_global(e, sm2c_arena_printf(a, "%s_outputs%d", p->name, k));
        n->run = sm2c_c_global(e, sm2c_arena_printf(a, "%s_run%d", p->name, k));
        if (en->max_batch) {
            n->row = sm2c_c_global(e, sm2c_arena_printf(a, "%s_row", n->fn));
            n->run_batch = sm2c_c_global(e, sm2c_arena_printf(a, "%s_runb%d", p->name, k));
            sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_%s_MAX_BATCH", e->NAME,
                                                           sm2c_c_upper(e, en->c_name)));
        }
    }

    sm2c_status st = assign_ctx_names(e);
    if (st)
        return st;

    /* Parameters: lowercase keys, clear of every global and of the locals t<id>. */
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        entry_names *n = &e->en[k];
        sm2c_nameset scope;   /* inside the globals, without copying them per entry */
        sm2c_nameset_init_in(&scope, a, &e->globals);
        for (int32_t b = 0; b < en->n_buffers; b++)
            sm2c_nameset_add(&scope, sm2c_arena_printf(a, "t%d", b));
        for (int32_t s = 0; s < en->n_steps; s++)
            sm2c_nameset_add(&scope, en->steps[s].kernel);
        if (p->n_states) {  /* the _r variant's own parameters */
            sm2c_nameset_add(&scope, "state");
            sm2c_nameset_add(&scope, "workspace");
            if (sm2c_c_fast(e))
                sm2c_nameset_add(&scope, "fast_workspace");
        }
        sm2c_nameset_add(&scope, "ctx");    /* the context entry's */
        if (en->max_batch) {
            n->batch = sm2c_mangle_unique(&scope, "batch", "x_");
            sm2c_nameset_add(&scope, "row");
            sm2c_nameset_add(&scope, "status");
        }
        for (int32_t i = 0; i < en->n_inputs; i++)
            n->in[i] = sm2c_mangle_unique(
                &scope, sm2c_mangle_sanitize(a, en->inputs[i].key, -1, SM2C_MANGLE_MAX), "x_");
        for (int32_t i = 0; i < en->n_outputs; i++)
            n->out[i] = sm2c_mangle_unique(
                &scope, sm2c_mangle_sanitize(a, en->outputs[i].key, -1, SM2C_MANGLE_MAX), "x_");
    }
    return SM2C_OK;
}
