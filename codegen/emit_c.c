/*
** emit_c.c: the C backend, program -> <name>.h + <name>.c + runtime files.
**
** Two halves: text generation (deterministic, into memory) and publishing
** (a temporary directory inside the output directory, then renames).
** Identifiers come from mangle.c; file names only from p->name and the fixed
** runtime names.  See docs/design.md "Generated code contract" and docs/reliability.md
** section 6 (rules 1, 10, 11, 12, 14) and F7.  This file drives the backend
** and publishes; emit_c_internal.h lists the files that write the text.
*/
#define _GNU_SOURCE
#include "emit_c_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_check.h"
#include "base/output_manifest.h"
#include "rt_embed.h"
#include "rt_select.h"

/* Model text inside a block comment (c_text.c says what is kept). */
void sm2c_c_comment(sbuf *b, const char *s)
{
    char text[SM2C_C_COMMENT_CAP];
    sm2c_c_comment_text(text, s);
    sm2c_text_puts(b, text);
}

static void emit_source(emitter *e)
{
    const sm2c_program *p = e->p;
    sbuf *b = &e->s;
    sm2c_c_banner(e, b);
    sm2c_text_printf(b, "#include \"%s.h\"\n#include \"sm2c_rt.h\"\n\n", p->name);
    sm2c_c_emit_layer_includes(e, b);
    sm2c_text_puts(b,
                   "#if defined(__FAST_MATH__)\n"
                   "#error \"sm2c: do not build generated code with -ffast-math: results would differ from TensorFlow\"\n"
                   "#endif\n\n");
    sm2c_text_puts(b, sm2c_c_align_macro);
    sm2c_c_emit_section_macro(e, b);
    if (e->weights_tu) {
        sm2c_c_emit_weights_source(e);
        sm2c_text_printf(b, "/* The weights, defined in %s_weights.c (or its object). */\n", p->name);
    }
    for (int32_t w = 0; w < p->n_weights; w++)
        if (e->wname[w]) {
            if (e->weights_tu)
                sm2c_c_emit_weight_decl(e, w);
            else
                sm2c_c_emit_weight(e, w);
        }
    if (e->weights_tu)
        sm2c_text_putc(b, '\n');
    for (size_t i = 0; i < e->n_ints; i++) {
        const ints_const *k = &e->ints[i];
        char item[64];
        sm2c_text_printf(b, "static const int32_t %s[%d] = {", k->name, k->n > 0 ? k->n : 1);
        if (k->n == 0)
            sm2c_text_puts(b, "0");
        for (int32_t j = 0; j < k->n; j++) {
            sm2c_c_sint_literal(item, sizeof item, k->v[j]);
            sm2c_text_printf(b, "%s%s", j ? ", " : "", item);
        }
        sm2c_text_puts(b, "};\n");
    }
    if (e->n_ints)
        sm2c_text_putc(b, '\n');
    for (size_t i = 0; i < e->n_floats; i++)
        sm2c_text_printf(b, "/* %s as its bit pattern (NaN payloads and infinities have no literal) */\n"
                            "static const union {\n    uint32_t u;\n    float f;\n} %s = { 0x%08" PRIx32
                            "u };\n\n",
                         isnan(bits_to_float(e->floats[i].bits)) ? "NaN" : "Infinity",
                         e->floats[i].name, e->floats[i].bits);
    if (e->arena) {
        sm2c_text_puts(b, "static ");
        sm2c_c_section(e, b, SM2C_SECTION_ARENA);
        sm2c_text_printf(b, "SM2C_ALIGN uint8_t %s[%s_ARENA_SIZE > 0 ? %s_ARENA_SIZE : 1];\n\n",
                         e->arena, e->NAME, e->NAME);
    }
    if (e->fast_arena) {
        sm2c_text_puts(b, "static ");
        sm2c_c_section(e, b, SM2C_SECTION_FAST_ARENA);
        sm2c_text_printf(b, "SM2C_ALIGN uint8_t %s[%s_FAST_ARENA_SIZE > 0 ? %s_FAST_ARENA_SIZE : 1];\n\n",
                         e->fast_arena, e->NAME, e->NAME);
    }
    sm2c_c_emit_profile_macro(e, b);
    sm2c_c_emit_layers(e, b);
    if (p->n_states)
        sm2c_c_emit_state(e);
    for (int32_t k = 0; k < p->n_entries; k++)
        sm2c_c_emit_entry(e, k);
    sm2c_c_emit_ctx(e);
    for (int32_t k = 0; k < p->n_entries; k++)
        sm2c_c_emit_entry_ctx(e, k);
    sm2c_c_emit_metadata(e);
}

static void emitter_free(emitter *e)
{
    free(e->gnames);
    free(e->ints);
    free(e->floats);
    free(e->layers);
    sm2c_text_free(&e->h);
    sm2c_text_free(&e->s);
    sm2c_text_free(&e->w);
}

/* Fills e->h and e->s. */
static sm2c_status generate(emitter *e)
{
    sm2c_status st = sm2c_program_check(e->c, e->p, "C", sm2c_backend_elem_size);
    if (!st)
        st = sm2c_c_assign_names(e);
    if (st)
        return st;
    sm2c_c_emit_header(e);
    /* Float constants are named while the source is written; none are added
    ** later than assign_names, which already walked every argument. */
    emit_source(e);
    return SM2C_OK;
}

sm2c_status sm2c_emit_c_text(sm2c_ctx *c, const sm2c_program *p, char **header, char **source)
{
    emitter e;
    memset(&e, 0, sizeof e);
    e.c = c;
    e.p = p;
    sm2c_status st = generate(&e);
    if (!st) {
        *header = sm2c_arena_strndup(c->arena, e.h.p, e.h.len);
        *source = sm2c_arena_strndup(c->arena, e.s.p, e.s.len);
    }
    emitter_free(&e);
    return st;
}

/* ---- output files ------------------------------------------------------------------ */

/* NAME.h and NAME.c may not take the name of a runtime file (any runtime file,
** so that whether a name is refused does not depend on the model). */
static sm2c_status check_name_clash(sm2c_ctx *c, const char *name, const char *hname, const char *cname)
{
    for (size_t i = 0; i < sm2c_embedded_runtime_count; i++) {
        const char *f = sm2c_embedded_runtime[i].name;
        if (strcmp(f, hname) == 0 || strcmp(f, cname) == 0)
            return sm2c_error(c->diag, SM2C_ERR_USAGE, name, NULL,
                              "the name '%s' clashes with the runtime file %s; choose another --name", name, f);
    }
    for (size_t k = 0; k < sm2c_rt_kernel_count; k++)
        if (sm2c_rt_kernels[k].wrapper && strcmp(sm2c_rt_kernels[k].name, name) == 0)
            return sm2c_error(c->diag, SM2C_ERR_USAGE, name, NULL,
                              "the name '%s' clashes with the runtime file %s.c; choose another --name", name, name);
    return SM2C_OK;
}

/* Publishes what e generated: the header, the source (with_source), the
** runtime files its kernels need (with_runtime) and the extra files. */
static sm2c_status publish_files(emitter *e, const char *outdir, int with_source, int with_runtime,
                                 const sm2c_extra_file *extra, size_t n_extra)
{
    sm2c_ctx *c = e->c;
    const sm2c_program *p = e->p;
    sm2c_status st = SM2C_OK;
    sm2c_outfile *rt = NULL;
    size_t n_rt = 0;
    if (with_runtime) {
        const char **kernels;
        size_t nk = sm2c_program_kernels(c, p, &kernels);
        st = sm2c_runtime_select(c, kernels, nk, &rt, &n_rt);
    }
    const char *hname = sm2c_arena_printf(c->arena, "%s.h", p->name);
    const char *cname = sm2c_arena_printf(c->arena, "%s.c", p->name);
    if (!st)
        st = check_name_clash(c, p->name, hname, cname);
    if (!st) {
        sm2c_outfile *files = sm2c_arena_array(c->arena, n_rt + n_extra + 2, sizeof *files);
        size_t n = 0;
        files[n++] = (sm2c_outfile){ hname, e->h.p, e->h.len };
        if (with_source)
            files[n++] = (sm2c_outfile){ cname, e->s.p, e->s.len };
        for (size_t i = 0; i < n_rt; i++)
            files[n++] = rt[i];
        for (size_t i = 0; i < n_extra; i++)
            files[n++] = (sm2c_outfile){ extra[i].name, extra[i].data, extra[i].len };
        st = sm2c_publish_output(c, outdir, p->source, p->name, files, n);
    }
    return st;
}

sm2c_status sm2c_emit_c_files(sm2c_ctx *c, const sm2c_program *p, const char *outdir,
                              int with_source, int with_runtime, const sm2c_extra_file *extra,
                              size_t n_extra)
{
    emitter e;
    memset(&e, 0, sizeof e);
    e.c = c;
    e.p = p;
    e.header_only = !with_source;
    e.code_file = !with_source && n_extra ? extra[0].name : NULL;
    sm2c_status st = generate(&e);
    if (!st)
        st = publish_files(&e, outdir, with_source, with_runtime, extra, n_extra);
    emitter_free(&e);
    return st;
}

int sm2c_weights_form_parse(const char *s, sm2c_weights_form *out)
{
#define SM2C_WEIGHTS_NAME(form, name) name,
    static const char *const names[] = { SM2C_WEIGHTS_FORMS(SM2C_WEIGHTS_NAME) };
#undef SM2C_WEIGHTS_NAME
    for (int i = 0; i < SM2C_WEIGHTS_N_FORMS; i++)
        if (strcmp(s, names[i]) == 0)
            return *out = (sm2c_weights_form)i, 1;
    return 0;
}

sm2c_status sm2c_emit_c_weights_apart(sm2c_ctx *c, const sm2c_program *p, sm2c_weights_form form,
                                      const sm2c_target *t, const char *outdir)
{
    if (form == SM2C_WEIGHTS_INLINE)
        return sm2c_emit_c(c, p, outdir);
    emitter e;
    memset(&e, 0, sizeof e);
    e.c = c;
    e.p = p;
    e.weights_tu = 1;
    e.weights_obj = form == SM2C_WEIGHTS_OBJ;
    sm2c_extra_file weights = { sm2c_arena_printf(c->arena, "%s_weights.c", p->name), NULL, 0 };
    sm2c_status st = generate(&e);
    if (!st && form == SM2C_WEIGHTS_OBJ)
        st = sm2c_c_weights_object(&e, t, &weights);
    else if (!st)
        weights.data = e.w.p, weights.len = e.w.len;
    if (!st)
        st = publish_files(&e, outdir, 1, 1, &weights, 1);
    emitter_free(&e);
    return st;
}

sm2c_status sm2c_emit_c(sm2c_ctx *c, const sm2c_program *p, const char *outdir)
{
    return sm2c_emit_c_files(c, p, outdir, 1, 1, NULL, 0);
}

sm2c_status sm2c_emit_runtime(sm2c_ctx *c, const char *const *kernels, size_t n, const char *outdir)
{
    sm2c_outfile *files;
    size_t nf = 0;
    sm2c_status st = SM2C_OK;
    if (n == 0)
        nf = sm2c_runtime_all_files(c, &files);
    for (size_t i = 0; i < n && !st; i++)
        if (!sm2c_runtime_has_kernel(kernels[i]))
            st = sm2c_error(c->diag, SM2C_ERR_USAGE, kernels[i], NULL,
                            "no runtime kernel has this name (`sm2c runtime --list` lists them)");
    if (n > 0 && !st)
        st = sm2c_runtime_select(c, kernels, n, &files, &nf);
    return st ? st : sm2c_publish(c, outdir, NULL, files, nf);
}
