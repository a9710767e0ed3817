/*
** report_costs.c: the analysis behind --report (report.h): per step its
** multiply-accumulates and bytes moved, per buffer its lifetime.
*/
#include "cli/report.h"

#include <string.h>

#include "codegen/rt_stack.h"

sm2c_report_format sm2c_report_format_of(const char *path)
{
    size_t n = strlen(path);
    if (n >= 5 && !strcmp(path + n - 5, ".json"))
        return SM2C_REPORT_JSON;
    if (n >= 5 && !strcmp(path + n - 5, ".html"))
        return SM2C_REPORT_HTML;
    return SM2C_REPORT_TEXT;
}

static int written_by_first_use(const sm2c_buffer *b)
{
    return b->kind == SM2C_BUF_ARENA || b->kind == SM2C_BUF_OUTPUT;
}

/* A step that writes no new buffer works in place (y may equal x): by the
** runtime's argument order, its output is its last arena, output or state
** buffer argument. */
static void in_place_output(const sm2c_entry *e, const sm2c_step *s, sm2c_step_cost *c)
{
    for (int32_t k = s->n_args - 1; k >= 0; k--) {
        if (s->args[k].kind != SM2C_ARG_BUF)
            continue;
        const sm2c_buffer *buf = &e->buffers[s->args[k].buf];
        if (buf->kind == SM2C_BUF_ARENA || buf->kind == SM2C_BUF_OUTPUT || buf->kind == SM2C_BUF_STATE) {
            c->out_buf = s->args[k].buf;
            c->bytes_written += buf->nbytes;
            c->bytes_read -= buf->nbytes;  /* counted as read above: it is the kernel's y */
            return;
        }
    }
}

void sm2c_report_opts_init(sm2c_report_opts *o, const sm2c_program *p, const sm2c_target *t, int c_layers)
{
    int target = sm2c_stack_target_of(t);
    memset(o, 0, sizeof *o);
    o->stack_bytes = sm2c_stack_bound(p, target, c_layers);
    o->stack_target = sm2c_stack_target_name(target);
}

/* The measured times: each step's, and their sum when any is measured. */
static void add_times(const sm2c_entry *e, const double *step_us, sm2c_entry_costs *out)
{
    out->time_us = -1;
    for (int32_t i = 0; i < e->n_steps; i++) {
        out->steps[i].time_us = step_us && step_us[i] >= 0 ? step_us[i] : -1;
        if (out->steps[i].time_us >= 0)
            out->time_us = (out->time_us < 0 ? 0 : out->time_us) + out->steps[i].time_us;
    }
}

void sm2c_entry_costs_compute(sm2c_arena *a, const sm2c_entry *e, const double *step_us, sm2c_entry_costs *out)
{
    memset(out, 0, sizeof *out);
    size_t nb = e->n_buffers > 0 ? (size_t)e->n_buffers : 1;
    out->steps = sm2c_arena_array(a, e->n_steps > 0 ? (size_t)e->n_steps : 1, sizeof *out->steps);
    out->first = sm2c_arena_array(a, nb, sizeof *out->first);
    out->last = sm2c_arena_array(a, nb, sizeof *out->last);
    for (int32_t b = 0; b < e->n_buffers; b++)
        out->first[b] = out->last[b] = -1;
    for (int32_t i = 0; i < e->n_steps; i++) {
        const sm2c_step *s = &e->steps[i];
        sm2c_step_cost *c = &out->steps[i];
        c->out_buf = -1;
        c->macs = sm2c_step_macs(s);
        c->fused = s->fused && (i + 1 == e->n_steps || !e->steps[i + 1].node || !s->node ||
                                strcmp(e->steps[i + 1].node, s->node) != 0)
                       ? s->fused
                       : NULL;
        out->n_fused += c->fused != NULL;
        out->macs += c->macs;
        for (int32_t k = 0; k < s->n_args; k++) {
            if (s->args[k].kind != SM2C_ARG_BUF)
                continue;
            int32_t b = s->args[k].buf;
            const sm2c_buffer *buf = &e->buffers[b];
            int first_use = out->first[b] < 0;
            if (first_use)
                out->first[b] = i;
            out->last[b] = i;
            if (first_use && written_by_first_use(buf)) {
                c->bytes_written += buf->nbytes;
                if (c->out_buf < 0)
                    c->out_buf = b;
            } else {
                c->bytes_read += buf->nbytes;
            }
        }
        if (c->out_buf < 0)
            in_place_output(e, s, c);
    }
    for (int32_t b = 0; b < e->n_buffers; b++) {
        if (out->first[b] < 0)
            continue;
        if (e->buffers[b].kind == SM2C_BUF_WEIGHT)
            out->weight_bytes += e->buffers[b].nbytes;
        else if (e->buffers[b].kind == SM2C_BUF_STATE)
            out->state_bytes += e->buffers[b].nbytes;
    }
    add_times(e, step_us, out);
}

/* The speed-up the split allows at `threads` threads, counting multiply-adds
** (and pool taps) only: the work over the sum of each step's work divided by
** the tasks it gets. */
static double split_bound(const sm2c_entry *e, int32_t threads)
{
    double total = 0, span = 0;
    for (int32_t i = 0; i < e->n_steps; i++) {
        const sm2c_step *s = &e->steps[i];
        int64_t work = sm2c_step_work(s);
        int32_t tasks = s->max_tasks > 1 ? s->max_tasks : 1;
        total += (double)work;
        span += (double)work / (tasks < threads ? tasks : threads);
    }
    return span > 0 ? total / span : 1.0;
}

void sm2c_report_split_text(FILE *f, const sm2c_entry *e)
{
    int32_t n_split = 0, most = 1;
    int64_t total = 0, split = 0, largest = 0;
    for (int32_t i = 0; i < e->n_steps; i++) {
        const sm2c_step *s = &e->steps[i];
        int64_t work = sm2c_step_work(s);
        total += work;
        if (work > largest)
            largest = work;
        if (s->max_tasks > 1) {
            n_split++;
            split += work;
            if (s->max_tasks > most)
                most = s->max_tasks;
        }
    }
    fprintf(f, "threads %s: %d of %d steps split (at most %d tasks), %.1f%% of %lld multiply-adds and taps; "
               "largest step %.1f%%; speed-up bound 2 threads %.2fx, 16 %.2fx, 64 %.2fx\n",
            e->key, (int)n_split, (int)e->n_steps, (int)most, total ? 100.0 * (double)split / (double)total : 0.0,
            (long long)total, total ? 100.0 * (double)largest / (double)total : 0.0, split_bound(e, 2),
            split_bound(e, 16), split_bound(e, 64));
    for (int32_t i = 0; i < e->n_steps; i++) {
        const sm2c_step *s = &e->steps[i];
        int64_t work, rows = sm2c_step_split_rows(s, &work);
        if (s->max_tasks > 1)
            fprintf(f, "split %s step %d %s (%s): %s, %lld rows, %lld multiply-adds or taps, up to %d tasks\n",
                    e->key, (int)i, s->node ? s->node : "?", s->op ? s->op : "?", s->kernel, (long long)rows,
                    (long long)work, (int)s->max_tasks);
    }
}
