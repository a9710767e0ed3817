/*
** c_entry.c: the C backend's code: shape-specialised layer functions, state
** init/reset, and each entry's body with its control flow and batch loop.
*/
#include "emit_c_internal.h"

#include <string.h>

/* Per buffer, 1 when a step passes it: one walk over the steps, not one per
** buffer (an entry of n steps has about n buffers). */
static unsigned char *bufs_used(emitter *e, const sm2c_entry *en)
{
    unsigned char *used = sm2c_arena_array(e->c->arena, (size_t)en->n_buffers + 1, 1);
    for (int32_t s = 0; s < en->n_steps; s++)
        for (int32_t a = 0; a < en->steps[s].n_args; a++)
            if (en->steps[s].args[a].kind == SM2C_ARG_BUF)
                used[en->steps[s].args[a].buf] = 1;
    return used;
}

static void arg_text(emitter *e, sbuf *b, int32_t k, const sm2c_arg *ar)
{
    const sm2c_entry *en = &e->p->entries[k];
    char item[64];
    switch (ar->kind) {
    case SM2C_ARG_BUF: {
        const sm2c_buffer *bf = &en->buffers[ar->buf];
        if (bf->kind == SM2C_BUF_INPUT)
            sm2c_text_puts(b, e->en[k].in[bf->index]);
        else if (bf->kind == SM2C_BUF_OUTPUT)
            sm2c_text_puts(b, e->en[k].out[bf->index]);
        else if (bf->kind == SM2C_BUF_ARENA)
            sm2c_text_printf(b, "t%d", ar->buf);
        else if (bf->kind == SM2C_BUF_STATE)
            sm2c_text_printf(b, "%s%s", e->ctx_body ? "ctx->state." : "state->", e->p->states[bf->index].c_name);
        else {
            sm2c_text_puts(b, e->wname[bf->index]);
            if (e->wbits[bf->index])
                sm2c_text_puts(b, ".f");
        }
        break;
    }
    case SM2C_ARG_NULL:
        sm2c_text_puts(b, "NULL");
        break;
    case SM2C_ARG_INT:
        sm2c_c_sint_literal(item, sizeof item, ar->i);
        sm2c_text_puts(b, item);
        break;
    case SM2C_ARG_FLOAT: {
        uint32_t bits;
        memcpy(&bits, &ar->f, 4);
        if (float_bits_finite(bits)) {
            sm2c_c_real_literal(item, sizeof item, (double)ar->f, 1);
            sm2c_text_puts(b, item);
        } else {
            sm2c_text_printf(b, "%s.f", sm2c_c_float_name(e, bits));
        }
        break;
    }
    case SM2C_ARG_INTS:
        sm2c_text_puts(b, sm2c_c_ints_name(e, ar));
        break;
    }
}

/* An argument's C expression, for c_profile.c. */
void sm2c_c_arg_text(emitter *e, sbuf *b, int32_t k, const sm2c_arg *ar)
{
    arg_text(e, b, k, ar);
}

/* ---- shape-specialised layers (c_special.h) ------------------------------------------ */

/* One layer function per distinct kernel and baked arguments, named while
** the other globals are, so that parameters keep clear of them. */
void sm2c_c_assign_layers(emitter *e)
{
    sm2c_arena *a = e->c->arena;
    e->layer_of = sm2c_arena_array(a, (size_t)e->p->n_entries + 1, sizeof *e->layer_of);
    for (int32_t k = 0; k < e->p->n_entries; k++) {
        const sm2c_entry *en = &e->p->entries[k];
        e->layer_of[k] = sm2c_arena_array(a, (size_t)en->n_steps + 1, sizeof **e->layer_of);
        for (int32_t s = 0; s < en->n_steps; s++) {
            const sm2c_step *st = &en->steps[s];
            const sm2c_c_special *sp = sm2c_c_special_form(st);
            size_t i;
            e->layer_of[k][s] = -1;
            if (!sp)
                continue;
            for (i = 0; i < e->n_layers; i++) {
                const layer_fn *l = &e->layers[i];
                if (sm2c_c_special_same_layer(&e->p->entries[l->entry].steps[l->step], st))
                    break;
            }
            if (i == e->n_layers) {
                e->layers = sm2c_grow(e->layers, &e->cap_layers, e->n_layers + 1, sizeof *e->layers);
                e->layers[i].name = sm2c_c_global(e, sm2c_arena_printf(a, "%s_layer%zu", e->p->name, i));
                e->layers[i].sp = sp;
                e->layers[i].entry = k, e->layers[i].step = s;
                e->n_layers++;
            }
            e->layer_of[k][s] = (int32_t)i;
        }
    }
}

/* The families whose SM2C_RT_SPECIAL_ macros the layers use, each once. */
void sm2c_c_emit_layer_includes(emitter *e, sbuf *b)
{
    if (!e->n_layers)
        return;
    sm2c_text_puts(b, "/* On a scalar FPU the shape-specialised layers below inline the runtime's\n"
                      " * loop nests; these includes define no kernel (SM2C_RT_ONLY, rt_select.h). */\n"
                      "#include \"rt_target.h\"\n#if SM2C_RT_SCALAR_CORE\n#define SM2C_RT_ONLY 1\n");
    for (size_t i = 0; i < e->n_layers; i++) {
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= strcmp(e->layers[j].sp->family, e->layers[i].sp->family) == 0;
        if (!seen)
            sm2c_text_printf(b, "#include \"%s\"\n", e->layers[i].sp->family);
    }
    sm2c_text_puts(b, "#endif\n\n");
}

/* The call's arguments: the function's parameters for buffers, the rest baked. */
static void layer_args(emitter *e, sbuf *b, const layer_fn *l, const sm2c_step *st)
{
    for (int32_t a = 0; a < st->n_args; a++) {
        if (a)
            sm2c_text_puts(b, ", ");
        if (st->args[a].kind == SM2C_ARG_BUF)
            sm2c_text_printf(b, "a%d", a);
        else
            arg_text(e, b, l->entry, &st->args[a]);
    }
}

void sm2c_c_emit_layers(emitter *e, sbuf *b)
{
    for (size_t i = 0; i < e->n_layers; i++) {
        const layer_fn *l = &e->layers[i];
        const sm2c_step *st = &e->p->entries[l->entry].steps[l->step];
        int any = 0;
        sm2c_text_printf(b, "/* %s for one layer shape: on a scalar FPU its loop nest with the shape\n"
                            " * folded in, elsewhere the kernel. */\nstatic void %s(", st->kernel, l->name);
        for (int32_t a = 0; a < st->n_args; a++)
            if (st->args[a].kind == SM2C_ARG_BUF) {
                sm2c_text_printf(b, "%s%sfloat *a%d", any ? ", " : "", l->sp->params[a] == 'c' ? "const " : "", a);
                any = 1;
            }
        sm2c_text_printf(b, "%s)\n{\n#if SM2C_RT_SCALAR_CORE\n    SM2C_RT_SPECIAL_%s(", any ? "" : "void",
                         st->kernel + strlen("sm2c_rt_"));
        layer_args(e, b, l, st);
        sm2c_text_printf(b, ");\n#else\n    %s(", st->kernel);
        layer_args(e, b, l, st);
        sm2c_text_puts(b, ");\n#endif\n}\n\n");
    }
}

/* ---- state, entry bodies, control ------------------------------------------------ */

/* <fn>(args): <fn>_r on the default state (set at the first call) and the arena. */
static void emit_static_entry(emitter *e, int32_t k)
{
    const sm2c_entry *en = &e->p->entries[k];
    const entry_names *n = &e->en[k];
    sbuf *b = &e->s;
    sm2c_c_prototype(e, b, k);
    sm2c_text_printf(b, "\n{\n    if (!%s)\n        %s_reset();\n    return %s(&%s, %s", e->state_ready, e->p->name,
                     e->fn_r[k], e->default_state, e->arena);
    if (sm2c_c_fast(e))
        sm2c_text_printf(b, ", %s", e->fast_arena);
    for (int32_t i = 0; i < en->n_inputs; i++)
        sm2c_text_printf(b, ", %s", n->in[i]);
    for (int32_t i = 0; i < en->n_outputs; i++)
        sm2c_text_printf(b, ", %s", n->out[i]);
    sm2c_text_puts(b, ");\n}\n\n");
}

/* Weight w as an expression of its element type's pointer. */
static void weight_text(emitter *e, sbuf *b, int32_t w)
{
    sm2c_text_puts(b, e->wname[w]);
    if (e->wbits[w])
        sm2c_text_puts(b, ".f");
}

/* init, reset, the default state and its flag. */
void sm2c_c_emit_state(emitter *e)
{
    const sm2c_program *p = e->p;
    sbuf *b = &e->s;
    sm2c_text_puts(b, "static ");
    sm2c_c_section(e, b, SM2C_SECTION_STATE);
    sm2c_text_printf(b, "SM2C_ALIGN %s_state %s;\nstatic uint8_t %s;\n\n", p->name, e->default_state,
                     e->state_ready);
    sm2c_text_printf(b, "void %s_init(%s_state *state)\n{\n", p->name, p->name);
    for (int32_t i = 0; i < p->n_states; i++) {
        sm2c_text_printf(b, "    sm2c_rt_copy(state->%s, ", p->states[i].c_name);
        weight_text(e, b, p->states[i].init_weight);
        sm2c_text_printf(b, ", %lld);\n", (long long)p->states[i].nbytes);
    }
    sm2c_text_puts(b, "}\n\n");
    sm2c_text_printf(b, "void %s_reset(void)\n{\n    %s_init(&%s);\n    %s = 1;\n}\n\n", p->name, p->name,
                     e->default_state, e->state_ready);
}

/* Four spaces per level, the function body being level 0. */
static const char *indent(int depth)
{
    static const char spaces[] = "                                                                "
                                 "                                                                "
                                 "                                                                "
                                 "                                                                    ";
    int n = 4 * (depth + 1);
    if (n > (int)sizeof spaces - 1)
        n = (int)sizeof spaces - 1;
    return spaces + sizeof spaces - 1 - n;
}

/* The comment before a step: its TF node, op and function (where in the model it came from). */
static void step_comment(sbuf *b, const char *ind, const sm2c_step *sp)
{
    sm2c_text_printf(b, "%s/* ", ind);
    sm2c_c_comment(b, sp->node);
    sm2c_text_puts(b, " (");
    sm2c_c_comment(b, sp->op);
    sm2c_text_putc(b, ')');
    if (sp->function && *sp->function) {
        sm2c_text_puts(b, " in ");
        sm2c_c_comment(b, sp->function);
    }
    sm2c_text_puts(b, " */");
}

/* A structured control step (program.h) as plain C: if/else and for (;;). */
static void emit_control(emitter *e, sbuf *b, int32_t k, const sm2c_step *sp, int *depth)
{
    if (sp->control == SM2C_CTL_ELSE || sp->control == SM2C_CTL_END_IF || sp->control == SM2C_CTL_END_LOOP)
        (*depth)--;
    const char *ind = indent(*depth);
    step_comment(b, ind, sp);
    sm2c_text_putc(b, '\n');
    char lit[64];
    switch (sp->control) {
    case SM2C_CTL_IF:
        sm2c_text_printf(b, "%sif (*", ind);
        arg_text(e, b, k, &sp->args[0]);
        sm2c_c_sint_literal(lit, sizeof lit, sp->imm);
        if (sp->imm < 0)
            sm2c_text_puts(b, " != 0) {\n");
        else
            sm2c_text_printf(b, " == %s) {\n", lit);
        (*depth)++;
        break;
    case SM2C_CTL_ELSE:
        sm2c_text_printf(b, "%s} else {\n", ind);
        (*depth)++;
        break;
    case SM2C_CTL_LOOP:
        sm2c_text_printf(b, "%s*", ind);
        arg_text(e, b, k, &sp->args[0]);
        sm2c_text_printf(b, " = 0;\n%sfor (;;) {\n", ind);
        (*depth)++;
        break;
    case SM2C_CTL_BREAK_UNLESS:
        sm2c_c_sint_literal(lit, sizeof lit, sp->imm);
        sm2c_text_printf(b, "%sif (*", ind);
        arg_text(e, b, k, &sp->args[0]);
        sm2c_text_printf(b, " == 0)\n%s    break;\n%sif (*", ind, ind);
        arg_text(e, b, k, &sp->args[1]);
        sm2c_text_printf(b, " >= %s)\n%s    return SM2C_RT_ERR_ITERATIONS;\n%s++*", lit, ind, ind);
        arg_text(e, b, k, &sp->args[1]);
        sm2c_text_puts(b, ";\n");
        break;
    default:    /* SM2C_CTL_END_IF, SM2C_CTL_END_LOOP */
        sm2c_text_printf(b, "%s}\n", ind);
        break;
    }
}

static int has_checked_step(const sm2c_entry *en)
{
    for (int32_t s = 0; s < en->n_steps; s++)
        if (en->steps[s].checked)
            return 1;
    return 0;
}

/* Argument i of entry k at row `row`: batched ports advance one row per row. */
static void row_arg(emitter *e, sbuf *b, int32_t k, int32_t i)
{
    const sm2c_entry *en = &e->p->entries[k];
    int in = i < en->n_inputs;
    const sm2c_port *pt = in ? &en->inputs[i] : &en->outputs[i - en->n_inputs];
    const char *name = in ? e->en[k].in[i] : e->en[k].out[i - en->n_inputs];
    int64_t rows = en->max_batch;
    if (pt->batched && rows > 0)
        sm2c_text_printf(b, "%s + (size_t)row * %lld", name,
                         (long long)(sm2c_shape_elements(&pt->shape, INT64_MAX / 8) / rows));
    else
        sm2c_text_puts(b, name);
}

/* --max-batch: the entry point checks the batch and runs the one-row
** function on each row in turn. */
static void emit_batch_loop(emitter *e, int32_t k)
{
    const sm2c_entry *en = &e->p->entries[k];
    const entry_names *n = &e->en[k];
    sbuf *b = &e->s;
    if (!en->max_batch)
        return;
    if (e->ctx_body)
        sm2c_c_prototype_ctx(e, b, k);
    else
        sm2c_c_prototype(e, b, k);
    sm2c_text_printf(b, "\n{\n    int32_t row;\n    if (%s < 1 || %s > %s_%s_MAX_BATCH)\n"
                        "        return SM2C_RT_ERR_BATCH;\n    for (row = 0; row < %s; row++) {\n"
                        "        int32_t status = %s(%s", n->batch, n->batch, e->NAME, sm2c_c_upper(e, en->c_name),
                     n->batch, e->ctx_body ? e->row_ctx[k] : n->row,
                     e->ctx_body ? (en->n_inputs + en->n_outputs ? "ctx, " : "ctx") : "");
    for (int32_t i = 0; i < en->n_inputs + en->n_outputs; i++) {
        if (i)
            sm2c_text_puts(b, ", ");
        row_arg(e, b, k, i);
    }
    sm2c_text_puts(b, ");\n        if (status != SM2C_RT_OK)\n            return status;\n    }\n"
                      "    return 0;\n}\n\n");
}

/* 1 when the context body of entry k reads the context: arena buffers, state or a split step. */
static int ctx_used(const sm2c_entry *en)
{
    for (int32_t s = 0; s < en->n_steps; s++)
        if (en->steps[s].max_tasks > 1)
            return 1;
    return sm2c_entry_uses(en, SM2C_BUF_ARENA, -1) || sm2c_entry_uses(en, SM2C_BUF_STATE, -1);
}

/* The call of kernel step s (its comment and newline written). */
static void emit_step_call(emitter *e, sbuf *b, int32_t k, int32_t s, const char *ind)
{
    const sm2c_entry *en = &e->p->entries[k];
    const sm2c_step *sp = &en->steps[s];
    if (e->ctx_body && sp->max_tasks > 1) {     /* split into tasks (lower/split.c) */
        sm2c_text_printf(b, "%s%s_par(&ctx->par, %d", ind, sp->kernel, (int)sp->max_tasks);
        for (int32_t a = 0; a < sp->n_args; a++) {
            sm2c_text_puts(b, ", ");
            arg_text(e, b, k, &sp->args[a]);
        }
        sm2c_text_puts(b, ");\n");
        return;
    }
    /* its layer function takes the buffers; a context body calls the kernel, so that
    ** each layer function keeps its one caller and a scalar core's -Os inlines it */
    if (e->layer_of[k][s] >= 0 && !e->ctx_body) {
        int any = 0;
        sm2c_text_printf(b, "%s%s(", ind, e->layers[e->layer_of[k][s]].name);
        for (int32_t a = 0; a < sp->n_args; a++)
            if (sp->args[a].kind == SM2C_ARG_BUF) {
                if (any++)
                    sm2c_text_puts(b, ", ");
                arg_text(e, b, k, &sp->args[a]);
            }
        sm2c_text_puts(b, ");\n");
        return;
    }
    sm2c_text_printf(b, "%s%s%s(", ind, sp->checked ? "status = " : "", sp->kernel);
    for (int32_t a = 0; a < sp->n_args; a++) {
        if (a)
            sm2c_text_puts(b, ", ");
        arg_text(e, b, k, &sp->args[a]);
    }
    if (sp->checked)
        sm2c_text_printf(b, ");\n%sif (status != SM2C_RT_OK)\n%s    return status;\n", ind, ind);
    else
        sm2c_text_puts(b, ");\n");
}

/* The steps of entry k as a function body: the entry point (or its one-row
** function, or the stateful _r) on the static arena, or with e->ctx_body the
** context entry point, which calls the _par form of the steps that split. */
static void emit_body(emitter *e, int32_t k)
{
    const sm2c_entry *en = &e->p->entries[k];
    const entry_names *n = &e->en[k];
    sbuf *b = &e->s;
    if (e->ctx_body)
        sm2c_c_steps_prototype_ctx(e, b, k);
    else if (e->p->n_states)
        sm2c_c_prototype_r(e, b, k);   /* --max-batch programs have no state */
    else
        sm2c_c_steps_prototype(e, b, k);
    sm2c_text_puts(b, "\n{\n");
    int locals = 0;
    if (has_checked_step(en)) {
        sm2c_text_puts(b, "    int32_t status;\n");
        locals = 1;
    }
    const unsigned char *used = bufs_used(e, en);
    for (int32_t id = 0; id < en->n_buffers; id++) {
        const sm2c_buffer *bf = &en->buffers[id];
        if (bf->kind != SM2C_BUF_ARENA || !used[id])
            continue;
        const char *ct = sm2c_c_ctype_of(bf->dtype)->c;
        if (e->ctx_body || e->p->n_states)
            sm2c_text_printf(b, "    %s *t%d = (%s *)(void *)((uint8_t *)%s + %lld); /* \"", ct, id, ct,
                             e->ctx_body ? (bf->fast ? "ctx->fast_workspace" : "ctx->workspace")
                                         : (bf->fast ? "fast_workspace" : "workspace"),
                             (long long)bf->offset);
        else
            sm2c_text_printf(b, "    %s *t%d = (%s *)(void *)(%s + %lld); /* \"", ct, id, ct,
                             bf->fast ? e->fast_arena : e->arena, (long long)bf->offset);
        sm2c_c_comment(b, bf->name);
        sm2c_text_printf(b, "\" %s", sm2c_dtype_name(bf->dtype));
        sm2c_c_shape_text(b, &bf->shape);
        sm2c_text_puts(b, " */\n");
        locals = 1;
    }
    for (int32_t i = 0; i < en->n_inputs; i++)
        if (!sm2c_entry_uses(en, SM2C_BUF_INPUT, i)) {
            sm2c_text_printf(b, "    (void)%s;\n", n->in[i]);
            locals = 1;
        }
    for (int32_t i = 0; i < en->n_outputs; i++)
        if (!sm2c_entry_uses(en, SM2C_BUF_OUTPUT, i)) {
            sm2c_text_printf(b, "    (void)%s;\n", n->out[i]);
            locals = 1;
        }
    if (e->ctx_body && !ctx_used(en)) {
        sm2c_text_puts(b, "    (void)ctx;\n");
        locals = 1;
    }
    if (!e->ctx_body && e->p->n_states && !sm2c_entry_uses(en, SM2C_BUF_STATE, -1)) {
        sm2c_text_puts(b, "    (void)state;\n");
        locals = 1;
    }
    if (!e->ctx_body && e->p->n_states && !sm2c_c_uses_pool(en, 0)) {
        sm2c_text_puts(b, "    (void)workspace;\n");
        locals = 1;
    }
    if (!e->ctx_body && e->p->n_states && sm2c_c_fast(e) && !sm2c_c_uses_pool(en, 1)) {
        sm2c_text_puts(b, "    (void)fast_workspace;\n");
        locals = 1;
    }
    if (locals)
        sm2c_text_putc(b, '\n');
    int depth = 0;
    for (int32_t s = 0; s < en->n_steps; s++) {
        const sm2c_step *sp = &en->steps[s];
        const char *ind = indent(depth);
        if (sp->control) {
            emit_control(e, b, k, sp, &depth);
            continue;
        }
        step_comment(b, ind, sp);
        sm2c_text_putc(b, '\n');
        sm2c_c_emit_profile_call(e, b, k, s, ind, 0);
        emit_step_call(e, b, k, s, ind);
        sm2c_c_emit_profile_call(e, b, k, s, ind, 1);
    }
    sm2c_text_puts(b, "    return 0;\n}\n\n");
}

void sm2c_c_emit_entry(emitter *e, int32_t k)
{
    emit_body(e, k);
    if (e->p->n_states)
        emit_static_entry(e, k);
    emit_batch_loop(e, k);
}

/* <fn>_ctx: the steps on the context (after every static entry point, whose
** code stays as it was). */
void sm2c_c_emit_entry_ctx(emitter *e, int32_t k)
{
    e->ctx_body = 1;
    emit_body(e, k);
    emit_batch_loop(e, k);
    e->ctx_body = 0;
}

/* ctx_init and ctx_reset. */
void sm2c_c_emit_ctx(emitter *e)
{
    const char *nm = e->p->name;
    sbuf *b = &e->s;
    if (sm2c_c_fast(e))
        sm2c_text_printf(b, "void %s_ctx_init(%s_ctx *ctx, void *workspace, void *fast_workspace)\n{\n"
                            "    ctx->workspace = workspace;\n    ctx->fast_workspace = fast_workspace;\n", nm, nm);
    else
        sm2c_text_printf(b, "void %s_ctx_init(%s_ctx *ctx, void *workspace)\n{\n    ctx->workspace = workspace;\n",
                         nm, nm);
    sm2c_text_puts(b, "    ctx->par.parallel_for = NULL;\n    ctx->par.pool = NULL;\n    ctx->par.threads = 0;\n");
    if (e->p->n_states)
        sm2c_text_printf(b, "    %s_init(&ctx->state);\n", nm);
    sm2c_text_printf(b, "}\n\nvoid %s_ctx_reset(%s_ctx *ctx)\n{\n", nm, nm);
    if (e->p->n_states)
        sm2c_text_printf(b, "    %s_init(&ctx->state);\n}\n\n", nm);
    else
        sm2c_text_puts(b, "    (void)ctx;\n}\n\n");
}
