/*
** c_tables.c: the C backend's metadata tables: tensor and signature info, the
** generic runners, and the state and batch tables.
*/
#include "emit_c_internal.h"

#include <string.h>

/* A C string literal: octal escapes for anything not plainly printable, and
** '?' escaped after '?' (no trigraphs). */
void sm2c_c_cstring(sbuf *b, const char *s)
{
    sm2c_text_putc(b, '"');
    char prev = 0;
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            sm2c_text_printf(b, "\\%c", ch);
        else if (ch == '?' && prev == '?')
            sm2c_text_puts(b, "\\?");
        else if (ch < 0x20 || ch > 0x7e)
            sm2c_text_printf(b, "\\%03o", ch);
        else
            sm2c_text_putc(b, (char)ch);
        prev = (char)ch;
    }
    sm2c_text_putc(b, '"');
}

/* The runners' arguments: each of entry en's inputs and outputs cast from the
** pointer arrays, a ", " before each but the first unless `lead`. */
static void cast_args(sbuf *b, const sm2c_entry *en, int lead)
{
    for (int32_t i = 0; i < en->n_inputs; i++)
        sm2c_text_printf(b, "%s(const %s *)inputs[%d]", lead || i ? ", " : "",
                         sm2c_c_ctype_of(en->inputs[i].dtype)->c, i);
    for (int32_t i = 0; i < en->n_outputs; i++)
        sm2c_text_printf(b, "%s(%s *)outputs[%d]", lead || i + en->n_inputs ? ", " : "",
                         sm2c_c_ctype_of(en->outputs[i].dtype)->c, i);
}

/* A runner's body starts by marking the arrays an entry without inputs or outputs ignores. */
static void unused_arrays(sbuf *b, const sm2c_entry *en)
{
    if (!en->n_inputs)
        sm2c_text_puts(b, "    (void)inputs;\n");
    if (!en->n_outputs)
        sm2c_text_puts(b, "    (void)outputs;\n");
}

/* The workspace a generic caller gives: NAME_WORKSPACE_SIZE, or with a fast
** arena one block holding both (sm2c_c_fast_split). */
static const char *generic_workspace_size(emitter *e)
{
    if (!sm2c_c_fast(e))
        return sm2c_arena_printf(e->c->arena, "%s_WORKSPACE_SIZE", e->NAME);
    return sm2c_arena_printf(e->c->arena, "%s + %s_FAST_WORKSPACE_SIZE", sm2c_c_fast_split(e), e->NAME);
}

/* <name>_state_table: see state_metadata_header. */
static void emit_state_metadata(emitter *e)
{
    const sm2c_program *p = e->p;
    const char *nm = p->name;
    sbuf *b = &e->s;
    sm2c_text_putc(b, '\n');
    for (int32_t i = 0; i < p->n_states; i++) {
        const sm2c_state *st = &p->states[i];
        if (st->shape.rank <= 0)
            continue;
        sm2c_text_printf(b, "static const int64_t %s[%d] = {", e->state_dims[i], st->shape.rank);
        for (int32_t j = 0; j < st->shape.rank; j++)
            sm2c_text_printf(b, "%s%lld", j ? ", " : "", (long long)st->shape.dims[j]);
        sm2c_text_puts(b, "};\n");
    }
    sm2c_text_printf(b, "static const %s_variable_info %s_state_variables[%d] = {\n", nm, nm, p->n_states);
    for (int32_t i = 0; i < p->n_states; i++) {
        const sm2c_state *st = &p->states[i];
        sm2c_text_puts(b, "    { ");
        sm2c_c_cstring(b, st->key);
        sm2c_text_printf(b, ", %d, %d, ", sm2c_dtype_base(st->dtype), st->shape.rank);
        sm2c_text_puts(b, e->state_dims[i] ? e->state_dims[i] : "NULL");
        sm2c_text_printf(b, ", %lld, (int64_t)offsetof(%s_state, %s) },\n", (long long)st->nbytes, nm, st->c_name);
    }
    sm2c_text_puts(b, "};\n");
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        sm2c_text_printf(b, "\nstatic int32_t %s(void *state, void *workspace, void *const *inputs, "
                            "void *const *outputs)\n{\n", e->run_r[k]);
        unused_arrays(b, en);
        sm2c_text_printf(b, "    return %s((%s_state *)state, workspace", e->fn_r[k], nm);
        if (sm2c_c_fast(e))
            sm2c_text_printf(b, ", (uint8_t *)workspace + %s", sm2c_c_fast_split(e));
        cast_args(b, en, 1);
        sm2c_text_puts(b, ");\n}\n");
    }
    sm2c_text_printf(b, "\nstatic int32_t (*const %s_runs_r[%d])(void *, void *, void *const *, void *const *) = {\n",
                     nm, p->n_entries);
    for (int32_t k = 0; k < p->n_entries; k++)
        sm2c_text_printf(b, "    %s,\n", e->run_r[k]);
    sm2c_text_printf(b, "};\nstatic const int32_t %s_writes_state[%d] = {", nm, p->n_entries);
    for (int32_t k = 0; k < p->n_entries; k++)
        sm2c_text_printf(b, "%s%d", k ? ", " : "", p->entries[k].writes_state);
    sm2c_text_printf(b, "};\n\nstatic void %s_init_any(void *state)\n{\n    %s_init((%s_state *)state);\n}\n\n",
                     nm, nm, nm);
    sm2c_text_printf(b, "const %s_state_info %s_state_table = {\n    %s_STATE_SIZE, %s, %d, "
                        "%s_state_variables,\n    %s_init_any, %s_reset, %s_writes_state, %s_runs_r\n};\n",
                     nm, nm, e->NAME, generic_workspace_size(e), p->n_states, nm, nm, nm, nm, nm);
}

/* The metadata's `run` (batched entries at max_batch rows), or with
** `batched` its `run_batch`, taking the batch first; with `with_ctx` the
** context table's, which take the context before them and call <fn>_ctx. */
static void emit_runner(emitter *e, int32_t k, int batched, int with_ctx)
{
    const sm2c_entry *en = &e->p->entries[k];
    const entry_names *n = &e->en[k];
    sbuf *b = &e->s;
    if (batched && !en->max_batch)
        return;
    const char *name = with_ctx ? (batched ? e->runb_ctx[k] : e->run_ctx[k]) : (batched ? n->run_batch : n->run);
    sm2c_text_printf(b, "\nstatic int32_t %s(%s%svoid *const *inputs, void *const *outputs)\n{\n", name,
                     with_ctx ? "void *ctx, " : "", batched ? "int32_t batch, " : "");
    unused_arrays(b, en);
    if (with_ctx)
        sm2c_text_printf(b, "    return %s((%s_ctx *)ctx", e->fn_ctx[k], e->p->name);
    else
        sm2c_text_printf(b, "    return %s(", n->fn);
    int lead = with_ctx;
    if (batched || en->max_batch) {
        sm2c_text_puts(b, lead ? ", " : "");
        if (batched)
            sm2c_text_puts(b, "batch");
        else
            sm2c_text_printf(b, "%d", (int)en->max_batch);
        lead = 1;
    }
    cast_args(b, en, lead);
    sm2c_text_puts(b, ");\n}\n\n");
}

/* <name>_ctx_table: see ctx_metadata_header. */
static void emit_ctx_metadata(emitter *e)
{
    const sm2c_program *p = e->p;
    const char *nm = p->name;
    sbuf *b = &e->s;
    for (int32_t k = 0; k < p->n_entries; k++) {
        emit_runner(e, k, 0, 1);
        emit_runner(e, k, 1, 1);
    }
    sm2c_text_printf(b, "static void %s_ctx_init_any(void *ctx, void *workspace)\n{\n"
                        "    %s_ctx_init((%s_ctx *)ctx, workspace", nm, nm, nm);
    if (sm2c_c_fast(e))
        sm2c_text_printf(b, ", (uint8_t *)workspace + %s", sm2c_c_fast_split(e));
    sm2c_text_printf(b, ");\n}\n\n"
                        "static void %s_ctx_reset_any(void *ctx)\n{\n    %s_ctx_reset((%s_ctx *)ctx);\n}\n\n",
                     nm, nm, nm);
    sm2c_text_printf(b, "static int32_t (*const %s_runs_ctx[%d])(void *, void *const *, void *const *) = {\n",
                     nm, p->n_entries);
    for (int32_t k = 0; k < p->n_entries; k++)
        sm2c_text_printf(b, "    %s,\n", e->run_ctx[k]);
    sm2c_text_printf(b, "};\nstatic int32_t (*const %s_runbs_ctx[%d])(void *, int32_t, void *const *, "
                        "void *const *) = {\n", nm, p->n_entries);
    for (int32_t k = 0; k < p->n_entries; k++)
        sm2c_text_printf(b, "    %s,\n", e->runb_ctx[k] ? e->runb_ctx[k] : "NULL");
    const char *state_offset = p->n_states ? sm2c_arena_printf(e->c->arena, "(int64_t)offsetof(%s_ctx, state)", nm)
                                           : "-1";
    sm2c_text_printf(b, "};\n\nconst %s_ctx_info %s_ctx_table = {\n    (int64_t)sizeof(%s_ctx), %s, "
                        "%s_WORKSPACE_ALIGN,\n    (int64_t)offsetof(%s_ctx, par), %s,\n    %s_ctx_init_any, "
                        "%s_ctx_reset_any, %s_runs_ctx, %s_runbs_ctx\n};\n",
                     nm, nm, nm, generic_workspace_size(e), e->NAME, nm, state_offset, nm, nm, nm, nm);
}

static const char *batched_flags(emitter *e, const sm2c_port *ports, int32_t n, const char *base)
{
    if (n == 0)
        return "NULL";
    const char *name = sm2c_c_global(e, base);
    sm2c_text_printf(&e->s, "static const int32_t %s[%d] = {", name, n);
    for (int32_t i = 0; i < n; i++)
        sm2c_text_printf(&e->s, "%s%d", i ? ", " : "", (int)ports[i].batched);
    sm2c_text_puts(&e->s, "};\n");
    return name;
}

static void batch_table(emitter *e)
{
    const sm2c_program *p = e->p;
    if (!sm2c_program_any_batched(p))
        return;
    const char **rows = sm2c_arena_array(e->c->arena, (size_t)p->n_entries + 1, sizeof *rows);
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        if (!en->max_batch) {
            rows[k] = "{ 0, NULL, NULL, NULL }";
            continue;
        }
        const char *bi = batched_flags(e, en->inputs, en->n_inputs, sm2c_arena_printf(e->c->arena, "%s_bi%d", p->name, k));
        const char *bo = batched_flags(e, en->outputs, en->n_outputs, sm2c_arena_printf(e->c->arena, "%s_bo%d", p->name, k));
        rows[k] = sm2c_arena_printf(e->c->arena, "{ %d, %s, %s, %s }", (int)en->max_batch, bi, bo, e->en[k].run_batch);
    }
    sm2c_text_printf(&e->s, "const %s_batch_info %s_batches[%d] = {\n", p->name, p->name, p->n_entries);
    for (int32_t k = 0; k < p->n_entries; k++)
        sm2c_text_printf(&e->s, "    %s,\n", rows[k]);
    sm2c_text_puts(&e->s, "};\n");
}

void sm2c_c_emit_metadata(emitter *e)
{
    const sm2c_program *p = e->p;
    sbuf *b = &e->s;
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        const entry_names *n = &e->en[k];
        for (int pass = 0; pass < 2; pass++) {
            const sm2c_port *ports = pass ? en->outputs : en->inputs;
            int32_t np = pass ? en->n_outputs : en->n_inputs;
            const char **dims = pass ? n->out_dims : n->in_dims;
            for (int32_t i = 0; i < np; i++) {
                if (!dims[i])
                    continue;
                sm2c_text_printf(b, "static const int64_t %s[%d] = {", dims[i], ports[i].shape.rank);
                for (int32_t j = 0; j < ports[i].shape.rank; j++)
                    sm2c_text_printf(b, "%s%lld", j ? ", " : "", (long long)ports[i].shape.dims[j]);
                sm2c_text_puts(b, "};\n");
            }
            if (!np)
                continue;
            sm2c_text_printf(b, "static const %s_tensor_info %s[%d] = {\n", p->name,
                             pass ? n->out_info : n->in_info, np);
            for (int32_t i = 0; i < np; i++) {
                sm2c_text_puts(b, "    { ");
                sm2c_c_cstring(b, ports[i].key);
                char scale[64];
                sm2c_c_real_literal(scale, sizeof scale, (double)ports[i].scale, 1);
                sm2c_text_printf(b, ", %d, %d, %s, %lld, %d, %s, %d },\n", sm2c_dtype_base(ports[i].dtype),
                                 ports[i].shape.rank, dims[i] ? dims[i] : "NULL",
                                 (long long)sm2c_port_bytes(&ports[i]), (int)ports[i].dynamic - 1, scale,
                                 (int)ports[i].zero_point);
            }
            sm2c_text_puts(b, "};\n");
        }
        emit_runner(e, k, 0, 0);
        emit_runner(e, k, 1, 0);
    }
    sm2c_text_printf(b, "const %s_signature_info %s_signatures[%d] = {\n", p->name, p->name,
                     p->n_entries);
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        const entry_names *n = &e->en[k];
        sm2c_text_puts(b, "    { ");
        sm2c_c_cstring(b, en->key);
        sm2c_text_printf(b, ", %d, %d, %s, %s, %s },\n", en->n_inputs, en->n_outputs,
                         n->in_info ? n->in_info : "NULL", n->out_info ? n->out_info : "NULL", n->run);
    }
    sm2c_text_printf(b, "};\nconst int32_t %s_n_signatures = %d;\n", p->name, p->n_entries);
    if (p->n_states)
        emit_state_metadata(e);
    batch_table(e);
    emit_ctx_metadata(e);
}
