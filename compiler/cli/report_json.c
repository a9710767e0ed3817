/*
** report_json.c: `--report FILE.json` (report.h), machine-readable; the
** schema is docs/report.schema.json and "format" its version.
*/
#include "cli/report.h"

#include <string.h>

#include "base/tensor.h"
#include "cli/json.h"
#include "plan/fast_pool.h"

#ifndef SM2C_VERSION
#define SM2C_VERSION "0.0.0"
#endif

static const char *const buffer_kinds[] = { "input", "output", "arena", "weight", "state" };
static const char *const control_names[] = { NULL, "if", "else", "end_if", "loop", "break_unless",
                                             "end_loop" };

static void shape_field(sm2c_json *j, const char *key, const sm2c_shape *s)
{
    sm2c_json_key(j, key);
    sm2c_json_array(j);
    for (int32_t i = 0; i < s->rank; i++)
        sm2c_json_int(j, s->dims[i]);
    sm2c_json_end(j);
}

static void str_or_null(sm2c_json *j, const char *key, const char *s)
{
    sm2c_json_key(j, key);
    if (s)
        sm2c_json_str(j, s);
    else
        sm2c_json_null(j);
}

static void ports(sm2c_json *j, const char *key, const sm2c_port *p, int32_t n)
{
    sm2c_json_key(j, key);
    sm2c_json_array(j);
    for (int32_t i = 0; i < n; i++) {
        sm2c_json_object(j);
        sm2c_json_field_str(j, "key", p[i].key);
        sm2c_json_field_str(j, "dtype", sm2c_dtype_name(p[i].dtype));
        shape_field(j, "shape", &p[i].shape);
        sm2c_json_field_int(j, "buffer", p[i].buf);
        sm2c_json_field_int(j, "batched", p[i].batched);
        sm2c_json_end(j);
    }
    sm2c_json_end(j);
}

/* sm2c_step.fused as [{"op", "node"}, ...]. */
static void fused(sm2c_json *j, sm2c_arena *a, const char *list)
{
    sm2c_json_key(j, "fused");
    sm2c_json_array(j);
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ";"), sp = strcspn(p, " ");
        sm2c_json_object(j);
        sm2c_json_field_str(j, "op", sm2c_arena_printf(a, "%.*s", (int)sp, p));
        sm2c_json_field_str(j, "node", sm2c_arena_printf(a, "%.*s", (int)(n - sp - 1), p + sp + 1));
        sm2c_json_end(j);
        p += n + (p[n] == ';');
    }
    sm2c_json_end(j);
}

static void step(sm2c_json *j, sm2c_arena *a, const sm2c_entry *e, int32_t i, const sm2c_step_cost *c)
{
    const sm2c_step *s = &e->steps[i];
    sm2c_json_object(j);
    sm2c_json_field_int(j, "index", i);
    str_or_null(j, "op", s->op);
    str_or_null(j, "node", s->node);
    str_or_null(j, "function", s->function && *s->function ? s->function : NULL);
    str_or_null(j, "kernel", s->control ? NULL : s->kernel);
    str_or_null(j, "control", s->control > 0 && s->control <= SM2C_CTL_END_LOOP ? control_names[s->control]
                                                                                : NULL);
    if (c->out_buf >= 0) {
        const sm2c_buffer *b = &e->buffers[c->out_buf];
        shape_field(j, "output_shape", &b->shape);
        sm2c_json_field_str(j, "output_dtype", sm2c_dtype_name(b->dtype));
    } else {
        str_or_null(j, "output_shape", NULL);
        str_or_null(j, "output_dtype", NULL);
    }
    sm2c_json_field_int(j, "macs", c->macs);
    sm2c_json_field_int(j, "max_tasks", s->max_tasks > 1 ? s->max_tasks : 1);
    sm2c_json_field_int(j, "bytes_read", c->bytes_read);
    sm2c_json_field_int(j, "bytes_written", c->bytes_written);
    fused(j, a, c->fused);
    if (c->time_us >= 0) {
        sm2c_json_key(j, "time_us");
        sm2c_json_double(j, c->time_us, 6);
    }
    sm2c_json_key(j, "buffers");
    sm2c_json_array(j);
    for (int32_t k = 0; k < s->n_args; k++)
        if (s->args[k].kind == SM2C_ARG_BUF)
            sm2c_json_int(j, s->args[k].buf);
    sm2c_json_end(j);
    sm2c_json_end(j);
}

static void buffer(sm2c_json *j, const sm2c_program *p, const sm2c_entry *e, int32_t b,
                   const sm2c_entry_costs *c, const double *score)
{
    const sm2c_buffer *buf = &e->buffers[b];
    sm2c_json_object(j);
    sm2c_json_field_int(j, "id", b);
    sm2c_json_field_str(j, "kind", buffer_kinds[buf->kind]);
    str_or_null(j, "name", buf->name);
    sm2c_json_field_str(j, "dtype", sm2c_dtype_name(buf->dtype));
    shape_field(j, "shape", &buf->shape);
    sm2c_json_field_int(j, "bytes", buf->nbytes);
    sm2c_json_key(j, "offset");
    if (buf->kind == SM2C_BUF_ARENA)
        sm2c_json_int(j, buf->offset);
    else
        sm2c_json_null(j);
    sm2c_json_field_int(j, "first_step", c->first[b]);
    sm2c_json_field_int(j, "last_step", c->last[b]);
    sm2c_report_pools_buffer_json(j, p, e, b, score);
    sm2c_json_end(j);
}

/* --quantize int8: the int8 tensors and the nodes left in float. */
static void int8_section(sm2c_json *j, const sm2c_entry *e)
{
    sm2c_json_key(j, "int8");   /* the full-integer modes' section (its name from int8's) */
    sm2c_json_object(j);
    sm2c_json_field_int(j, "activation_bits", e->act_bits);
    sm2c_json_key(j, "tensors");
    sm2c_json_array(j);
    for (int32_t i = 0; i < e->n_qtensors; i++) {
        const sm2c_qtensor *t = &e->qtensors[i];
        sm2c_json_object(j);
        sm2c_json_field_str(j, "name", t->name);
        sm2c_json_key(j, "scale");
        sm2c_json_double(j, t->scale, 9);
        sm2c_json_field_int(j, "zero_point", t->zero_point);
        sm2c_json_key(j, "min");
        sm2c_json_double(j, t->min, 9);
        sm2c_json_key(j, "max");
        sm2c_json_double(j, t->max, 9);
        sm2c_json_key(j, "mean_abs_error");
        if (t->error >= 0)
            sm2c_json_double(j, t->error, 6);
        else
            sm2c_json_null(j);
        sm2c_json_end(j);
    }
    sm2c_json_end(j);
    sm2c_json_key(j, "float_nodes");
    sm2c_json_array(j);
    for (int32_t i = 0; i < e->n_float_nodes; i++)
        sm2c_json_str(j, e->float_nodes[i]);
    sm2c_json_end(j);
    sm2c_json_end(j);
}

static void entry(sm2c_json *j, sm2c_arena *a, const sm2c_program *p, const sm2c_entry *e,
                  const sm2c_report_opts *o, const double *step_us)
{
    sm2c_entry_costs c;
    sm2c_entry_costs_compute(a, e, step_us, &c);
    sm2c_json_object(j);
    sm2c_json_field_str(j, "key", e->key);
    str_or_null(j, "function", e->function);
    sm2c_json_field_str(j, "c_name", e->c_name);
    sm2c_json_field_int(j, "max_batch", e->max_batch);
    sm2c_json_key(j, "writes_state");
    sm2c_json_bool(j, e->writes_state);
    sm2c_json_field_int(j, "arena_bytes", e->arena_bytes);
    sm2c_json_field_int(j, "intermediate_bytes", e->naive_bytes);
    if (p->placement.fast_arena > 0)
        sm2c_json_field_int(j, "fast_arena_bytes", e->fast_arena_bytes);
    sm2c_json_field_int(j, "weight_bytes", c.weight_bytes);
    sm2c_json_field_int(j, "state_bytes", c.state_bytes);
    sm2c_json_field_int(j, "stack_bytes", o->stack_bytes);
    sm2c_json_field_int(j, "macs", c.macs);
    if (c.time_us >= 0) {
        sm2c_json_key(j, "time_us");
        sm2c_json_double(j, c.time_us, 6);
    }
    ports(j, "inputs", e->inputs, e->n_inputs);
    ports(j, "outputs", e->outputs, e->n_outputs);
    sm2c_json_key(j, "steps");
    sm2c_json_array(j);
    for (int32_t i = 0; i < e->n_steps; i++)
        step(j, a, e, i, &c.steps[i]);
    sm2c_json_end(j);
    sm2c_json_key(j, "buffers");
    sm2c_json_array(j);
    double *score = sm2c_arena_array(a, (size_t)e->n_buffers + 1, sizeof *score);
    sm2c_fast_pool_scores(e, score);
    for (int32_t b = 0; b < e->n_buffers; b++)
        buffer(j, p, e, b, &c, score);
    sm2c_json_end(j);
    if (e->quantized)
        int8_section(j, e);
    sm2c_json_end(j);
}

void sm2c_report_json(FILE *f, sm2c_arena *a, const sm2c_program *p, const sm2c_report_opts *o)
{
    sm2c_json j;
    sm2c_json_init(&j, f);
    sm2c_json_object(&j);
    sm2c_json_field_int(&j, "format", 2);
    sm2c_json_field_str(&j, "sm2c_version", SM2C_VERSION);
    sm2c_json_field_str(&j, "name", p->name);
    sm2c_json_field_int(&j, "arena_bytes", p->arena_bytes);
    if (p->placement.fast_arena > 0) {
        sm2c_json_field_int(&j, "fast_arena_bytes", p->fast_arena_bytes);
        sm2c_json_field_int(&j, "fast_arena_limit", p->placement.fast_arena);
    }
    sm2c_json_field_int(&j, "stack_bytes", o->stack_bytes);
    sm2c_json_field_str(&j, "stack_target", o->stack_target);
    sm2c_json_field_int(&j, "weight_bytes", sm2c_program_weight_bytes(p));
    sm2c_json_field_int(&j, "weight_tensors", p->n_weights);
    sm2c_json_field_int(&j, "state_bytes", sm2c_program_state_bytes(p));
    sm2c_json_key(&j, "state");
    sm2c_json_array(&j);
    for (int32_t i = 0; i < p->n_states; i++) {
        sm2c_json_object(&j);
        sm2c_json_field_str(&j, "key", p->states[i].key);
        sm2c_json_field_str(&j, "c_name", p->states[i].c_name);
        sm2c_json_field_str(&j, "dtype", sm2c_dtype_name(p->states[i].dtype));
        shape_field(&j, "shape", &p->states[i].shape);
        sm2c_json_field_int(&j, "bytes", p->states[i].nbytes);
        sm2c_json_end(&j);
    }
    sm2c_json_end(&j);
    sm2c_json_key(&j, "entries");
    sm2c_json_array(&j);
    for (int32_t i = 0; i < p->n_entries; i++)
        entry(&j, a, p, &p->entries[i], o, o->step_us ? o->step_us[i] : NULL);
    sm2c_json_end(&j);
    sm2c_json_end(&j);
    fputc('\n', f);
}
