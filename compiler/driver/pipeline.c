/*
** pipeline.c: the pass list (docs/design.md, "Pipeline"), read top to bottom.
*/
#include "pipeline.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "load/digest.h"
#include "import/functionalize.h"
#include "import/op_support.h"
#include "ir/ir_print.h"
#include "ops/opdefs.h"
#include "ops/ops_dyn.h"
#include "ops/ops_q8.h"
#include "base/fileio.h"
#include "base/model_base.h"
#include "base/keywords.h"
#include "base/sha256.h"
#include "optimize/passes.h"
#include "plan/plan.h"
#include "lower/half_weights.h"
#include "lower/split.h"
#include "lower/program_query.h"

static int is_ascii_alpha(char ch)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z');
}

char *sm2c_c_ident(sm2c_arena *a, const char *s)
{
    size_t n = strlen(s);
    if (n > 64)
        n = 64;
    char *out = sm2c_arena_alloc(a, n + 2), *p = out;
    /* isalnum() would depend on the locale; and a leading '_' is reserved (C11 7.1.3). */
    if (n == 0 || !is_ascii_alpha(s[0]))
        *p++ = 'x';
    for (size_t i = 0; i < n; i++) {
        char ch = is_ascii_alpha(s[i]) || (s[i] >= '0' && s[i] <= '9') ? s[i] : '_';
        if (ch == '_' && p > out && p[-1] == '_')
            continue;   /* no "__": reserved in C++, which reads the header */
        *p++ = ch;
    }
    *p = 0;
    return out;
}

/* Lowering: every live node that is not a compile-time constant, in order.
** *buf_of_out (may be NULL) gets the value id -> buffer id map. */
static sm2c_status lower_graph(sm2c_ctx *c, sm2c_graph *g, sm2c_program *p, sm2c_entry *e,
                               const sm2c_compile_opts *o, const int32_t **buf_of_out)
{
    sm2c_target here = sm2c_target_host();  /* without options: run on this machine */
    sm2c_lower l = { .c = c, .prog = p, .entry = e, .g = g, .target = o ? &o->target : &here };
    l.buf_of = sm2c_arena_array(c->arena, (size_t)g->n_values + 1, sizeof *l.buf_of);
    for (int32_t i = 0; i <= g->n_values; i++)
        l.buf_of[i] = -1;
    for (int32_t i = 0; i < e->n_outputs; i++)
        e->outputs[i].buf = -1;
    for (int32_t i = 0; i < g->n_inputs; i++)
        e->inputs[i].buf = sm2c_lower_buf(&l, g->inputs[i].value);
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const sm2c_node *n = g->nodes[i];
        if (n->dead)
            continue;
        sm2c_status st = sm2c_lower_node(&l, n);
        if (st)
            return st;
    }
    /* An output that is an input, a weight, an alias of either, or a second
    ** output of the same value gets a copy of its own. */
    for (int32_t i = 0; i < g->n_outputs; i++) {
        if (e->outputs[i].buf >= 0)
            continue;
        int32_t src = sm2c_lower_buf(&l, g->outputs[i].value);
        int32_t dst = sm2c_lower_output_buf(&l, i);
        sm2c_step *s = sm2c_lower_step(&l, NULL, "sm2c_rt_copy", 3);
        s->node = g->outputs[i].tensor;
        s->op = "output";
        s->args[0] = sm2c_arg_buf(dst);
        s->args[1] = sm2c_arg_buf(src);
        s->args[2] = sm2c_arg_int(e->buffers[dst].nbytes);
    }
    /* Data-dependent outputs: rows past the count zeroed, the count written. */
    for (int32_t i = g->n_outputs; i < e->n_outputs; i++)
        sm2c_dyn_lower_output(&l, i);
    sm2c_lower_finish_strings(&l);   /* string constants' fills first */
    if (buf_of_out)
        *buf_of_out = l.buf_of;
    return SM2C_OK;
}

/* ---- the program ------------------------------------------------------------- */

static sm2c_port port_of(const sm2c_port_value *pv)
{
    const sm2c_qparam *q = pv->value->quant;
    return (sm2c_port){ pv->key, pv->tensor, pv->value->dtype, pv->value->shape, -1, 0, 0, 0,
                        q != NULL, q ? q->scale : 0.0f, q ? q->zero_point : 0 };
}

static void fill_ports(sm2c_ctx *c, const sm2c_graph *g, sm2c_entry *e)
{
    e->n_inputs = g->n_inputs;
    e->n_outputs = g->n_outputs;
    e->inputs = sm2c_arena_array(c->arena, (size_t)g->n_inputs + 1, sizeof *e->inputs);
    e->outputs = sm2c_arena_array(c->arena, (size_t)g->n_outputs + 1, sizeof *e->outputs);
    for (int32_t i = 0; i < g->n_inputs; i++)
        e->inputs[i] = port_of(&g->inputs[i]);
    for (int32_t i = 0; i < g->n_outputs; i++)
        e->outputs[i] = port_of(&g->outputs[i]);
    sm2c_dyn_count_ports(c, g, e);
}

/* --max-batch: batched ports show their shape at max_batch rows. */
static sm2c_status batch_ports(sm2c_ctx *c, const sm2c_graph *g, sm2c_entry *e, int32_t max_batch)
{
    e->max_batch = max_batch;
    for (int32_t i = 0; i < e->n_inputs + e->n_outputs; i++) {
        int in = i < e->n_inputs;
        sm2c_port *pt = in ? &e->inputs[i] : &e->outputs[i - e->n_inputs];
        if (!(in ? g->inputs[i].batched : g->outputs[i - e->n_inputs].batched))
            continue;
        int64_t row = sm2c_shape_elements(&pt->shape, INT64_MAX / 8) * sm2c_abi_elem_size(pt->dtype);
        if (row < 0 || (row > 0 && max_batch > INT64_MAX / 8 / row))
            return sm2c_error(c->diag, SM2C_ERR_LIMIT, g->file, sm2c_arena_printf(c->arena, "signature '%s'", g->key),
                              "--max-batch %d: %s '%s' would exceed the size an argument can have", (int)max_batch,
                              in ? "input" : "output", pt->key);
        pt->batched = in ? g->inputs[i].batched : g->outputs[i - e->n_inputs].batched;
        pt->shape = sm2c_shape_make(c, pt->shape.rank, pt->shape.dims);
        pt->shape.dims[0] *= max_batch;
    }
    return SM2C_OK;
}

/* Inputs must have a dtype the C ABI can carry (before shapes are inferred):
** a fixed-size one, or strings (sm2c_string elements, which only the ops that
** parse them accept). */
static sm2c_status check_inputs(sm2c_ctx *c, const sm2c_graph *g)
{
    for (int32_t i = 0; i < g->n_inputs; i++)
        if (!sm2c_abi_elem_size(g->inputs[i].value->dtype))
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, g->file,
                              sm2c_arena_printf(c->arena, "signature '%s'", g->key),
                              "input '%s' has dtype %s, which sm2c cannot compile",
                              g->inputs[i].key, sm2c_dtype_name(g->inputs[i].value->dtype));
    return SM2C_OK;
}

/* A declared shape agrees with the inferred one where both know a dim.  A
** leading dim is not compared when the input shapes were chosen (--shape, or
** an unknown batch taken as 1): the signature describes other batch sizes. */
static int shape_agrees(const sm2c_shape *declared, const sm2c_shape *got, int batch_chosen)
{
    if (declared->rank < 0)
        return 1;
    if (declared->rank != got->rank)
        return 0;
    for (int32_t d = batch_chosen ? 1 : 0; d < got->rank; d++)
        if (declared->dims[d] >= 0 && got->dims[d] >= 0 && declared->dims[d] != got->dims[d])
            return 0;
    return 1;
}

static const char *shape_str(sm2c_ctx *c, const sm2c_shape *s)
{
    const char *t = "[";
    for (int32_t d = 0; d < s->rank; d++)
        t = sm2c_arena_printf(c->arena, "%s%s%lld", t, d ? "," : "", (long long)s->dims[d]);
    return sm2c_arena_printf(c->arena, "%s]", t);
}

/* Outputs need a static shape and a dtype the C ABI carries (after shapes
** are inferred: fixed-size, or strings as sm2c_string elements), and must be what the signature says they are (G11). */
static sm2c_status check_outputs(sm2c_ctx *c, const sm2c_graph *g, int batch_chosen)
{
    for (int32_t i = 0; i < g->n_outputs; i++) {
        const sm2c_port_value *pv = &g->outputs[i];
        const sm2c_value *v = pv->value;
        const char *w = sm2c_arena_printf(c->arena, "signature '%s'", g->key);
        if (v->shape.rank < 0 || sm2c_value_elements(v) < 0 || !sm2c_abi_elem_size(v->dtype))
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, g->file, w,
                              "output '%s' has dtype %s or no static shape", pv->key,
                              sm2c_dtype_name(v->dtype));
        if (pv->declared_dtype && sm2c_dtype_base(pv->declared_dtype) != v->dtype)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, g->file, w,
                              "output '%s' is declared %s but tensor '%s' is %s", pv->key,
                              sm2c_dtype_name(pv->declared_dtype), pv->tensor, sm2c_dtype_name(v->dtype));
        if (!shape_agrees(&pv->declared_shape, &v->shape, batch_chosen))
            return sm2c_error(c->diag, SM2C_ERR_INVALID, g->file, w,
                              "output '%s' is declared with shape %s but tensor '%s' has shape %s",
                              pv->key, shape_str(c, &pv->declared_shape), pv->tensor,
                              shape_str(c, &v->shape));
    }
    return SM2C_OK;
}

/* Whether any input's leading dim was chosen rather than declared. */
static int batch_chosen(const sm2c_graph *g, const sm2c_compile_opts *o)
{
    if (o->import.n_shapes > 0)
        return 1;
    for (int32_t i = 0; i < g->n_inputs; i++) {
        const sm2c_shape *s = &g->inputs[i].declared_shape;
        if (s->rank > 0 && s->dims[0] < 0)
            return 1;
    }
    return 0;
}

/* Whether g holds a FakeQuant whose range --quantize int8 can take. */
static int has_fake_quant(const sm2c_graph *g)
{
    for (int32_t i = 0; i < g->n_nodes; i++)
        if (!g->nodes[i]->dead && strncmp(g->nodes[i]->op->name, "FakeQuant", 9) == 0)
            return 1;
    return 0;
}

/* What --quantize int8 did to one entry, for the report. */
typedef struct quant_report {
    int32_t n_tensors, n_float;
    sm2c_qtensor *tensors;
    const char **float_nodes;
} quant_report;

/* A scratch lowering of g (the program as the build would run it) for the
** step interpreter. */
typedef struct scratch {
    sm2c_program p;
    sm2c_entry e;
    const int32_t *buf_of;
} scratch;

static sm2c_status lower_scratch(sm2c_ctx *c, sm2c_graph *g, const char *key, scratch *s)
{
    memset(s, 0, sizeof *s);
    s->p.name = "scratch";
    s->e.key = key;
    uint64_t *lowered = c->lowered;
    c->lowered = NULL;      /* the report counts what the real program lowers */
    fill_ports(c, g, &s->e);
    sm2c_status st = lower_graph(c, g, &s->p, &s->e, NULL, &s->buf_of); /* run on this machine */
    c->lowered = lowered;
    return st;
}

static void add_qtensor(sm2c_ctx *c, quant_report *r, const sm2c_value *v, const double *err, int32_t n_err)
{
    sm2c_qtensor *t = &r->tensors[r->n_tensors++];
    *t = (sm2c_qtensor){ v->name, v->quant->scale, v->quant->zero_point, v->quant->min, v->quant->max,
                         err && v->id < n_err ? err[v->id] : -1 };
    (void)c;
}

/* The int8 tensors in node order (inputs first) and the nodes left in float. */
static void collect_report(sm2c_ctx *c, const sm2c_graph *g, const double *err, int32_t n_err, quant_report *r)
{
    uint8_t *seen = sm2c_arena_alloc(c->arena, (size_t)g->n_values + 1);
    r->tensors = sm2c_arena_array(c->arena, (size_t)g->n_values + 1, sizeof *r->tensors);
    r->float_nodes = sm2c_arena_array(c->arena, (size_t)g->n_nodes + 1, sizeof *r->float_nodes);
    for (int32_t i = 0; i < g->n_inputs; i++)
        if (g->inputs[i].value->quant && !seen[g->inputs[i].value->id]++)
            add_qtensor(c, r, g->inputs[i].value, err, n_err);
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const sm2c_node *n = g->nodes[i];
        if (n->dead)
            continue;
        for (int32_t k = 0; k < n->n_outputs; k++)
            if (n->outputs[k]->quant && !seen[n->outputs[k]->id]++)
                add_qtensor(c, r, n->outputs[k], err, n_err);
        if (!n->q && n->n_outputs > 0 && !n->outputs[0]->constant)
            r->float_nodes[r->n_float++] = sm2c_arena_printf(c->arena, "%s (%s)", n->name, n->op->name);
    }
}

/* Per int8 value, mean |int8 - float| over the calibration data: the float
** scratch program against the int8 one. */
static sm2c_status measure_errors(sm2c_ctx *c, sm2c_graph *g, const char *key, const scratch *f,
                                  int32_t n_float_values, const sm2c_compile_opts *o, double **err)
{
    scratch q;
    sm2c_status st = lower_scratch(c, g, key, &q);
    if (st)
        return st;
    int32_t n = g->n_values + 1;
    int32_t *float_of = sm2c_arena_array(c->arena, (size_t)n, sizeof *float_of);
    const sm2c_qparam **quant_of = sm2c_arena_array(c->arena, (size_t)n, sizeof *quant_of);
    for (int32_t v = 0; v < n; v++)
        float_of[v] = v < n_float_values ? v : -1;
    for (int32_t i = 0; i < g->n_nodes; i++)
        for (int32_t k = 0; !g->nodes[i]->dead && k < g->nodes[i]->n_outputs; k++) {
            const sm2c_value *v = g->nodes[i]->outputs[k];
            quant_of[v->id] = v->quant;
            if (v->quant && g->nodes[i]->op == &sm2c_op_quantize_s8)
                float_of[v->id] = g->nodes[i]->inputs[0]->id;
        }
    for (int32_t i = 0; i < g->n_inputs; i++)
        quant_of[g->inputs[i].value->id] = g->inputs[i].value->quant;
    *err = sm2c_arena_array(c->arena, (size_t)n, sizeof **err);
    return sm2c_quant_errors(c, &f->p, &f->e, f->buf_of, &q.p, &q.e, q.buf_of, n, float_of, quant_of,
                             o->calibration, o->n_calibration, *err);
}

/* The passes by the names --dump-after takes, in pipeline order. */
static const char *const pass_names[] = { "import", "shape", "batch", "lnorm", "lstm", "hoist", "bnfold",
                                          "affinefold", "padfold", "fuse", "dce", "quantize", "dynamic" };
#define N_PASSES (int)(sizeof pass_names / sizeof *pass_names)

/* Whether `pass` is in the comma-separated list (or the list is "all"). */
static int in_list(const char *list, const char *pass)
{
    size_t len = strlen(pass);
    for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',') {
        size_t n = strcspn(p, ",");
        if ((n == len && !strncmp(p, pass, n)) || (n == 3 && !strncmp(p, "all", 3)))
            return 1;
    }
    return 0;
}

static sm2c_status check_dump_after(sm2c_ctx *c, const char *list)
{
    for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',') {
        size_t n = strcspn(p, ",");
        int found = n == 3 && !strncmp(p, "all", 3);
        for (int i = 0; i < N_PASSES && !found; i++)
            found = strlen(pass_names[i]) == n && !strncmp(p, pass_names[i], n);
        if (!found) {
            const char *names = "all";
            for (int i = 0; i < N_PASSES; i++)
                names = sm2c_arena_printf(c->arena, "%s, %s", names, pass_names[i]);
            return sm2c_error(c->diag, SM2C_ERR_USAGE, "sm2c", NULL,   /* as main.c's usage errors */
                              "--dump-after: unknown pass '%.*s' (the passes: %s)", (int)n, p, names);
        }
    }
    return SM2C_OK;
}

/* After each pass: --dump-after's print, then in debug builds the IR verifier
** (the shapes are known from shape inference on). */
static sm2c_status after_pass(sm2c_ctx *c, const sm2c_graph *g, const sm2c_compile_opts *o, const char *pass)
{
    if (o->dump_after && in_list(o->dump_after, pass))
        sm2c_ir_print(o->dump_to ? o->dump_to : stderr, g, pass);
#ifndef NDEBUG
    return sm2c_ir_verify(c, g, pass, strcmp(pass, "import") ? SM2C_VERIFY_TYPED : 0);
#else
    return SM2C_OK;
#endif
}

#define PASS(name, call) ((st = (call)) || (st = after_pass(c, g, o, name)))

/* --quantize-skip's patterns, marking those that match. */
static sm2c_quant_skip quant_skip(const sm2c_compile_opts *o)
{
    return (sm2c_quant_skip){ o->n_quantize_skip, o->quantize_skip, o->quantize_skip_used };
}

/* The full-integer modes, whose activations are calibrated (int8, int16x8). */
static int full_integer(const sm2c_compile_opts *o)
{
    return o->quantize == SM2C_QUANTIZE_INT8 || o->quantize == SM2C_QUANTIZE_INT16X8;
}

/* --quantize int8 (and int16x8): ranges from running the float program on the calibration
** data (a scratch lowering, as the float build would run it), or from the
** model's FakeQuant nodes; then the int8 rewrite, and with calibration data
** each int8 value's error against the float program's. */
static sm2c_status quantize_graph(sm2c_ctx *c, sm2c_graph *g, const sm2c_compile_opts *o, const char *key,
                                  quant_report *r)
{
    int32_t n_values = g->n_values + 1;
    sm2c_range *ranges = sm2c_arena_array(c->arena, (size_t)n_values, sizeof *ranges);
    sm2c_status st;
    scratch f;
    if (o->n_calibration) {
        if ((st = lower_scratch(c, g, key, &f)) ||
            (st = sm2c_calibrate(c, &f.p, &f.e, f.buf_of, n_values, o->calibration, o->n_calibration, ranges)))
            return st;
    } else if (!has_fake_quant(g))
        return sm2c_error(c->diag, SM2C_ERR_USAGE, g->file, sm2c_arena_printf(c->arena, "signature '%s'", key),
                          "--quantize %s needs --calibration KEY=FILE.npy (the model has no FakeQuant ranges)",
                          o->quantize == SM2C_QUANTIZE_INT16X8 ? "int16x8" : "int8");
    sm2c_quant_summary sum = { 0 };
    double *err = NULL;
    const sm2c_quant_opts qo = { o->io_int8, o->requantize_float, quant_skip(o),
                                 o->quantize == SM2C_QUANTIZE_INT16X8, o->weights_bits };
    if (PASS("quantize", sm2c_pass_quantize(c, g, ranges, n_values, &qo, &sum)) ||
        PASS("dce", sm2c_pass_dce(c, g)) ||
        (o->n_calibration && (st = measure_errors(c, g, key, &f, n_values, o, &err))))
        return st;
    collect_report(c, g, err, g->n_values + 1, r);
    return SM2C_OK;
}

/* What an entry point is made from: a signature, or a concrete function. */
typedef struct entry_spec {
    const char *key;
    const sm2c_concrete_fn *fn;     /* NULL for a signature */
} entry_spec;

/* One signature or function through the whole middle end into entry e. */
/* The modes whose contractions quantize their inputs, which leave a residual
** Add an op of its own, as TFLite's converter does. */
static int quantized_acts(const sm2c_compile_opts *o)
{
    return full_integer(o) || o->quantize == SM2C_QUANTIZE_DYNAMIC;
}

static sm2c_status compile_entry(sm2c_ctx *c, const sm2c_model *m, const sm2c_varmap *vm,
                                 const entry_spec *spec, const sm2c_compile_opts *o, sm2c_program *p,
                                 sm2c_entry *e)
{
    sm2c_graph *g;
    sm2c_status st;
    int32_t n_batched = 0, n_hybrid = 0;
    const sm2c_quant_skip skip = quant_skip(o);
    const char *key = spec->key;
    quant_report qr = { 0 };
    st = spec->fn ? sm2c_import_function(c, m, vm, spec->fn, key, &o->import, &g)
                  : sm2c_import_signature(c, m, vm, key, &o->import, &g);
    if (st || (st = after_pass(c, g, o, "import")) ||
        (st = check_inputs(c, g)) || PASS("shape", sm2c_pass_shape(c, g)) ||
        (o->max_batch && PASS("batch", sm2c_pass_batch(c, g, &o->import, &n_batched))) ||
        (st = check_outputs(c, g, batch_chosen(g, o))) ||
        (!full_integer(o) && (PASS("lnorm", sm2c_pass_lnorm(c, g)) || PASS("lstm", sm2c_pass_lstm(c, g)) ||
                                (!o->target.size_level && PASS("hoist", sm2c_pass_hoist(c, g))))) ||
        PASS("bnfold", sm2c_pass_bnfold(c, g)) || PASS("affinefold", sm2c_pass_affinefold(c, g)) ||
        PASS("padfold", sm2c_pass_padfold(c, g)) || PASS("fuse", sm2c_pass_fuse(c, g, !quantized_acts(o), !full_integer(o))) ||
        PASS("dce", sm2c_pass_dce(c, g)) ||
        (full_integer(o) && (st = quantize_graph(c, g, o, key, &qr))) ||
        (o->quantize == SM2C_QUANTIZE_DYNAMIC && PASS("dynamic", sm2c_pass_dynamic(c, g, &skip, o->weights_bits, &n_hybrid))))
        return st;
    e->key = key;
    if (spec->fn)
        e->function = sm2c_arena_printf(c->arena, "%s traced for %s", spec->fn->owner,
                                        spec->fn->input_signature ? spec->fn->input_signature : "?");
    fill_ports(c, g, e);
    e->quantized = full_integer(o);
    e->act_bits = o->quantize == SM2C_QUANTIZE_INT16X8 ? 16 : 8;
    e->n_qtensors = qr.n_tensors, e->qtensors = qr.tensors;
    e->n_float_nodes = qr.n_float, e->float_nodes = qr.float_nodes;
    if (n_batched && e->n_outputs > g->n_outputs)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, g->file, sm2c_arena_printf(c->arena, "signature '%s'", key),
                          "--max-batch: an output has a data-dependent shape");
    if (n_batched && (st = batch_ports(c, g, e, o->max_batch)))
        return st;
    if ((st = lower_graph(c, g, p, e, o, NULL)))
        return st;
    if (o->quantize == SM2C_QUANTIZE_FLOAT16)
        sm2c_entry_half_weights(c, p, e);
    if (o->weights_bits == 4 && quantized_acts(o))
        sm2c_entry_int4_weights(c, p, e);
    return sm2c_pass_plan_pools(c, e, o->placement.fast_arena);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The signature keys to compile, sorted: --signature's, else all but the
** init op's (none when only --function was given). */
static const char **signature_keys(sm2c_ctx *c, const sm2c_model *m, const sm2c_compile_opts *o,
                                   int32_t *n)
{
    const Tensorflow__MetaGraphDef *mg = m->meta_graph;
    const char **keys = sm2c_arena_array(c->arena, mg->n_signature_def + (size_t)o->n_signatures + 1,
                                         sizeof *keys);
    *n = 0;
    if (o->n_signatures)
        for (int32_t i = 0; i < o->n_signatures; i++)
            keys[(*n)++] = o->signatures[i];
    else if (!o->n_functions)
        for (size_t i = 0; i < mg->n_signature_def; i++)
            if (strcmp(mg->signature_def[i]->key, "__saved_model_init_op") != 0)
                keys[(*n)++] = mg->signature_def[i]->key;
    qsort(keys, (size_t)*n, sizeof *keys, cmp_str);
    return keys;
}

/* Add the concrete functions --function `want` names: all of a tf.function
** at that object path, else the one whose entry key it is. */
static sm2c_status add_functions(sm2c_ctx *c, const sm2c_model *m, const sm2c_varmap *vm,
                                 const char *want, entry_spec *specs, int32_t *n)
{
    int32_t before = *n;
    for (size_t i = 0; i < vm->n_fns; i++)
        if (sm2c_concrete_fn_is_function(&vm->fns[i]) && strcmp(vm->fns[i].owner, want) == 0)
            specs[(*n)++] = (entry_spec){ sm2c_concrete_fn_entry_key(c->arena, &vm->fns[i]), &vm->fns[i] };
    for (size_t i = 0; i < vm->n_fns && *n == before; i++)
        if (sm2c_concrete_fn_is_function(&vm->fns[i]) && strcmp(sm2c_concrete_fn_entry_key(c->arena, &vm->fns[i]), want) == 0)
            specs[(*n)++] = (entry_spec){ sm2c_concrete_fn_entry_key(c->arena, &vm->fns[i]), &vm->fns[i] };
    if (*n == before)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, NULL,
                          "no tf.function or concrete function '%s' (sm2c inspect lists them)", want);
    return SM2C_OK;
}

static int has_functions(const sm2c_varmap *vm)
{
    for (size_t i = 0; i < vm->n_fns; i++)
        if (sm2c_concrete_fn_is_function(&vm->fns[i]))
            return 1;
    return 0;
}

static int cmp_spec(const void *a, const void *b)
{
    return strcmp(((const entry_spec *)a)->key, ((const entry_spec *)b)->key);
}

/* Every entry to compile: the signatures, then the --function entries sorted by key. */
static sm2c_status entry_specs(sm2c_ctx *c, const sm2c_model *m, const sm2c_varmap *vm,
                               const sm2c_compile_opts *o, entry_spec **out, int32_t *n)
{
    int32_t n_sigs;
    const char **keys = signature_keys(c, m, o, &n_sigs);
    entry_spec *specs = sm2c_arena_array(c->arena, (size_t)n_sigs + vm->n_fns * (size_t)o->n_functions + 1,
                                         sizeof *specs);
    *n = 0;
    for (int32_t i = 0; i < n_sigs; i++)
        specs[(*n)++] = (entry_spec){ keys[i], NULL };
    for (int32_t i = 0; i < o->n_functions; i++) {
        sm2c_status st = add_functions(c, m, vm, o->functions[i], specs, n);
        if (st)
            return st;
    }
    qsort(specs + n_sigs, (size_t)(*n - n_sigs), sizeof *specs, cmp_spec);
    *out = specs;
    return SM2C_OK;
}

/* Entry i's input keys, each entry's in keys[i] (nk[i] of them). */
static sm2c_status input_keys(sm2c_ctx *c, const sm2c_model *m, const entry_spec *specs, int32_t n,
                              const char ****keys, int32_t **nk)
{
    *keys = sm2c_arena_array(c->arena, (size_t)n + 1, sizeof **keys);
    *nk = sm2c_arena_array(c->arena, (size_t)n + 1, sizeof **nk);
    for (int32_t i = 0; i < n; i++) {
        sm2c_status st = sm2c_import_input_keys(c, m, specs[i].fn, specs[i].key, &(*keys)[i], &(*nk)[i]);
        if (st)
            return st;
    }
    return SM2C_OK;
}

/* What a key may be, for an error: "a, b" (the keys once each), and with
** several entries ", or per signature sig.a, sig2.b". */
static const char *valid_keys(sm2c_ctx *c, const entry_spec *specs, int32_t n, const char ***keys,
                              const int32_t *nk)
{
    const char *plain = NULL, *per = NULL;
    sm2c_strmap *seen = sm2c_strmap_new(c->arena, 16);
    for (int32_t i = 0; i < n; i++)
        for (int32_t k = 0; k < nk[i]; k++) {
            if (!sm2c_strmap_get(seen, keys[i][k])) {
                sm2c_strmap_put(seen, keys[i][k], (void *)1);
                plain = plain ? sm2c_arena_printf(c->arena, "%s, %s", plain, keys[i][k]) : keys[i][k];
            }
            per = sm2c_arena_printf(c->arena, "%s%s%s.%s", per ? per : "", per ? ", " : "", specs[i].key,
                                    keys[i][k]);
        }
    if (!plain)
        return "none: the selected signatures take no inputs";
    return n > 1 ? sm2c_arena_printf(c->arena, "%s, or per signature %s", plain, per) : plain;
}

/* Every --shape and run input names an input of a selected entry: KEY of
** any, SIG.KEY of entry SIG (docs: strict inputs); else a usage error that
** names the valid keys. */
static sm2c_status check_shape_keys(sm2c_ctx *c, const sm2c_model *m, const entry_spec *specs, int32_t n,
                                    const sm2c_import_opts *io)
{
    const char ***keys;
    int32_t *nk;
    sm2c_status st = io->n_shapes ? input_keys(c, m, specs, n, &keys, &nk) : SM2C_OK;
    for (int32_t s = 0; !st && s < io->n_shapes; s++) {
        const sm2c_shape_opt *so = &io->shapes[s];
        int found = 0;
        for (int32_t i = 0; i < n && !found; i++)
            for (int32_t k = 0; k < nk[i] && !found; k++)
                found = sm2c_shape_opt_names(so, specs[i].key, keys[i][k]);
        if (found)
            continue;
        const char *valid = valid_keys(c, specs, n, keys, nk);
        if (so->implied)
            return sm2c_error(c->diag, SM2C_ERR_USAGE, "sm2c", NULL, "--input %s=%s: no input '%s' in the "
                              "selected entry (its inputs: %s)", so->key, so->from ? so->from : "FILE", so->key,
                              valid);
        return sm2c_error(c->diag, SM2C_ERR_USAGE, "sm2c", NULL, "--shape %s=...: no selected signature has an "
                          "input '%s' (the keys: %s)", so->key, so->key, valid);
    }
    return st;
}

/* `base`, or base_2, base_3, ... : the first not in `taken`, which it joins. */
static const char *unique_name(sm2c_ctx *c, sm2c_strmap *taken, const char *base)
{
    const char *name = base;
    for (int k = 2; sm2c_strmap_get(taken, name); k++)
        name = sm2c_arena_printf(c->arena, "%s_%d", base, k);
    sm2c_strmap_put(taken, name, (void *)1);
    return name;
}

/* Unique C names for the entries. */
static void name_entries(sm2c_ctx *c, sm2c_program *p)
{
    sm2c_strmap *taken = sm2c_strmap_new(c->arena, (size_t)p->n_entries + 1);
    for (int32_t i = 0; i < p->n_entries; i++)
        p->entries[i].c_name = unique_name(c, taken, sm2c_c_ident(c->arena, p->entries[i].key));
}

/* ---- state ------------------------------------------------------------------- */

/* Which variables the entries write: a quiet import of each (errors are
** reported by the real one) records the targets of write ops. */
static sm2c_strmap *written_variables(sm2c_ctx *c, const sm2c_model *m, const sm2c_varmap *vm,
                                      const entry_spec *specs, int32_t n, const sm2c_compile_opts *o)
{
    sm2c_import_opts io = o->import;
    io.written = sm2c_strmap_new(c->arena, 16);
    io.state_keys = NULL;
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(c, &quiet);
    for (int32_t i = 0; i < n; i++) {
        sm2c_graph *g;
        if (specs[i].fn)
            sm2c_import_function(&qc, m, vm, specs[i].fn, specs[i].key, &io, &g);
        else
            sm2c_import_signature(&qc, m, vm, specs[i].key, &io, &g);
    }
    return sm2c_strmap_count(io.written) ? io.written : NULL;
}

static int cmp_state(const void *a, const void *b)
{
    return strcmp(((const sm2c_state *)a)->key, ((const sm2c_state *)b)->key);
}

/* States in key order (the state struct's layout), buffers renumbered. */
static void sort_states(sm2c_ctx *c, sm2c_program *p)
{
    if (!p->n_states)
        return;     /* qsort's base may not be NULL */
    sm2c_state *old = sm2c_arena_array(c->arena, (size_t)p->n_states, sizeof *old);
    memcpy(old, p->states, (size_t)p->n_states * sizeof *old);
    qsort(p->states, (size_t)p->n_states, sizeof *p->states, cmp_state);
    for (int32_t k = 0; k < p->n_entries; k++)
        for (int32_t b = 0; b < p->entries[k].n_buffers; b++) {
            sm2c_buffer *buf = &p->entries[k].buffers[b];
            if (buf->kind != SM2C_BUF_STATE)
                continue;
            for (int32_t i = 0; i < p->n_states; i++)
                if (strcmp(p->states[i].key, old[buf->index].key) == 0) {
                    buf->index = i;
                    break;
                }
        }
}

/* Member names of the state struct: the checkpoint key without TF2's
** "/.ATTRIBUTES/VARIABLE_VALUE", made a unique C identifier. */
static void name_states(sm2c_ctx *c, sm2c_program *p)
{
    static const char suffix[] = "/.ATTRIBUTES/VARIABLE_VALUE";
    sm2c_strmap *taken = sm2c_strmap_new(c->arena, (size_t)p->n_states + 1);
    for (int32_t i = 0; i < p->n_states; i++) {
        const char *key = p->states[i].key;
        size_t n = strlen(key), sn = sizeof suffix - 1;
        if (n > sn && strcmp(key + n - sn, suffix) == 0)
            key = sm2c_arena_strndup(c->arena, key, n - sn);
        const char *base = sm2c_c_ident(c->arena, key);
        if (sm2c_is_keyword(base))
            base = sm2c_arena_printf(c->arena, "%s_v", base);
        p->states[i].c_name = unique_name(c, taken, base);
    }
}

/* The calibration data shapes the output too: "calibration KEY <sha256>" per
** input, of its float32 values. */
static const char *calibration_digests(sm2c_ctx *c, const sm2c_compile_opts *o, const char *digests)
{
    for (int32_t i = 0; i < o->n_calibration; i++) {
        sm2c_sha256 h;
        char hex[65];
        sm2c_sha256_init(&h);
        sm2c_sha256_update(&h, o->calibration[i].data.data, o->calibration[i].data.nbytes);
        sm2c_sha256_hex(&h, hex);
        digests = sm2c_arena_printf(c->arena, "%scalibration %s %s\n", digests ? digests : "",
                                    o->calibration[i].key, hex);
    }
    return digests;
}

static const char *default_name(sm2c_ctx *c, const char *dir)
{
    char *name = sm2c_c_ident(c->arena, sm2c_model_base(c->arena, dir));
    for (char *q = name; *q; q++)
        *q = (char)tolower((unsigned char)*q);
    return name;
}

/* --requantize float is a choice of --quantize int8's host kernels (without
** --quantize it changes nothing, as --io int8): a Cortex-M's int8 kernels
** (CMSIS-NN's scheme) requantize in fixed point. */
static sm2c_status check_requantize_float(sm2c_ctx *c, const sm2c_model *m, const sm2c_compile_opts *o)
{
    if (o->quantize == SM2C_QUANTIZE_INT8 && o->target.cortex_m)
        return sm2c_error(c->diag, SM2C_ERR_USAGE, m->dir, NULL,
                          "--requantize float: a Cortex-M target's int8 kernels requantize in fixed point "
                          "only (drop the option)");
    return SM2C_OK;
}

/* A --quantize-skip pattern that named no node is a mistake (a typo, or a
** name the graph does not have), not a request to do nothing. */
static sm2c_status check_quantize_skip(sm2c_ctx *c, const sm2c_model *m, const sm2c_compile_opts *o)
{
    for (int32_t i = 0; i < o->n_quantize_skip; i++)
        if (!o->quantize_skip_used[i])
            return sm2c_error(c->diag, SM2C_ERR_USAGE, m->file, NULL, "--quantize-skip '%s' matches no node the "
                              "quantization would change (--dump-after fuse lists the nodes; '*' matches any run of "
                              "characters)", o->quantize_skip[i]);
    return SM2C_OK;
}

sm2c_status sm2c_compile_program(sm2c_ctx *c, sm2c_model *m, const sm2c_compile_opts *o,
                                 sm2c_program **out)
{
    sm2c_program *p = sm2c_arena_alloc(c->arena, sizeof *p);
    *out = p;
    p->name = o->name ? o->name : default_name(c, m->dir);
    p->source = m->dir;
    p->source_name = sm2c_path_base(c->arena, m->dir);  /* no paths in the output (rule 14) */
    p->command = o->command ? o->command : "";
    sm2c_varmap *vm;
    p->placement = o->placement;
    char why[256];
    if (sm2c_placement_problem(&o->placement, why, sizeof why))
        return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL, "%s", why);
    sm2c_status st = o->dump_after ? check_dump_after(c, o->dump_after) : SM2C_OK;
    if (!st && o->requantize_float)
        st = check_requantize_float(c, m, o);
    if (!st)
        st = sm2c_check_function_names(c, m);
    if (!st)
        st = sm2c_model_check_attrs(c, m);
    if (!st)
        st = sm2c_functionalize(c, m);   /* TF1 Switch/Merge and while frames -> If and While */
    if (!st)
        st = sm2c_input_digests(c, m, &p->input_digests);
    if (!st && full_integer(o))
        p->input_digests = calibration_digests(c, o, p->input_digests);
    if (!st)
        st = sm2c_varmap_build(c, m, &vm);
    if (st)
        return st;
    int32_t n;
    entry_spec *specs;
    if ((st = entry_specs(c, m, vm, o, &specs, &n)) || (st = check_shape_keys(c, m, specs, n, &o->import)))
        return st;
    sm2c_compile_opts with_state = *o;
    with_state.import.one_row = o->max_batch > 0;
    with_state.quantize_skip_used = sm2c_arena_alloc(c->arena, (size_t)o->n_quantize_skip + 1);
    memset(with_state.quantize_skip_used, 0, (size_t)o->n_quantize_skip + 1);
    with_state.import.state_keys = written_variables(c, m, vm, specs, n, &with_state);
    o = &with_state;
    p->entries = sm2c_arena_array(c->arena, (size_t)n + 1, sizeof *p->entries);
    sm2c_status first = SM2C_OK;
    const char *failed = NULL;      /* the keys of the entries that failed */
    for (int32_t i = 0; i < n; i++) {
        sm2c_entry *e = &p->entries[p->n_entries];
        memset(e, 0, sizeof *e);
        /* With --skip-failing, a signature that cannot be compiled is
        ** skipped with warnings, and the others still compile; a model's
        ** only signature fails with errors. */
        int demote = o->skip_failing && n > 1;
        int errors = c->diag->errors;
        c->diag->demote += demote;
        st = compile_entry(c, m, vm, &specs[i], o, p, e);
        c->diag->demote -= demote;
        if (st && demote && c->diag->errors > errors) {
            p->n_entries = 0;   /* corrupt input (an error even when demoting): nothing to write */
            return st;
        }
        if (st) {
            if (demote)
                sm2c_warning(c->diag, m->file, sm2c_arena_printf(c->arena, "signature '%s'", specs[i].key),
                             "not compiled (see above)");
            failed = failed ? sm2c_arena_printf(c->arena, "%s, %s", failed, specs[i].key) : specs[i].key;
            if (!first)
                first = st;
            continue;
        }
        if (e->arena_bytes > p->arena_bytes)
            p->arena_bytes = e->arena_bytes;
        if (e->fast_arena_bytes > p->fast_arena_bytes)
            p->fast_arena_bytes = e->fast_arena_bytes;
        p->n_entries++;
    }
    if (p->n_entries && (st = check_quantize_skip(c, m, &with_state))) {
        p->n_entries = 0;   /* nothing to write */
        return st;
    }
    name_entries(c, p);
    sort_states(c, p);
    name_states(c, p);
    sm2c_program_split(p, &o->target);
    if (o->max_batch && p->n_states) {
        p->n_entries = 0;   /* nothing to write */
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, m->file, NULL,
                          "--max-batch with written variables (state) is not supported yet: compile the "
                          "signatures that write variables without --max-batch");
    }
    if (o->max_batch && p->n_entries > 0 && !sm2c_program_any_batched(p)) {
        const char *w = p->n_entries == 1 ? sm2c_arena_printf(c->arena, "signature '%s'", p->entries[0].key) : NULL;
        p->n_entries = 0;   /* nothing to write */
        return sm2c_error(c->diag, SM2C_ERR_USAGE, m->file, w,
                          "--max-batch needs an input whose leading dim is unknown (-1); %s",
                          w ? "none has one" : "no signature that compiles has one");
    }
    if (p->n_entries == 0 && n > 1 && o->skip_failing)
        return sm2c_error(c->diag, first, m->file, NULL,
                          "none of the %d signatures could be compiled (the warnings above say why)", n);
    if (first && !o->skip_failing && n > 1 && p->n_entries < n) {
        int32_t compiled = p->n_entries;
        p->n_entries = 0;   /* nothing to write */
        return sm2c_error(c->diag, first, m->file, NULL, "%d of the %d signatures could not be compiled (%s; the "
                          "errors above say why); --skip-failing leaves them out and writes the others",
                          (int)(n - compiled), (int)n, failed);
    }
    if (p->n_entries == 0)
        return first ? first : sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, NULL, "no signature to compile%s",
                                          has_functions(vm) ? " (its tf.functions compile with --function PATH; "
                                                              "sm2c inspect lists them)" : "");
    return o->skip_failing ? SM2C_OK : first;
}
