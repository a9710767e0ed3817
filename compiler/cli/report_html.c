/*
** report_html.c: `--report FILE.html` (report.h), one self-contained page
** per program: for each entry a summary, an SVG picture of its memory plan
** (each arena buffer a rectangle over the steps it lives x its bytes in the
** arena, the steps where the plan reaches its peak shaded) and a table of its
** steps.  No script, no external resource.
*/
#include "cli/report.h"

#include "base/tensor.h"
#include "sm2c_rt.h"

#define PLOT_W 960
#define PLOT_H 360
#define MARGIN_L 90
#define MARGIN_B 30

static void text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static void shape(FILE *f, const sm2c_shape *s)
{
    fputc('[', f);
    for (int32_t i = 0; i < s->rank; i++)
        fprintf(f, "%s%lld", i ? "," : "", (long long)s->dims[i]);
    fputc(']', f);
}

/* A fill per buffer that neighbours tell apart: hues by the golden angle. */
static void fill(FILE *f, int32_t b)
{
    fprintf(f, "hsl(%d,62%%,%d%%)", (int)((b * 137) % 360), 52 + (b % 3) * 8);
}

/* The highest arena byte a live buffer reaches at step s. */
static int64_t extent_at(const sm2c_entry *e, const sm2c_entry_costs *c, int32_t s)
{
    int64_t top = 0;
    for (int32_t b = 0; b < e->n_buffers; b++) {
        const sm2c_buffer *buf = &e->buffers[b];
        if (buf->kind == SM2C_BUF_ARENA && c->first[b] >= 0 && c->first[b] <= s && s <= c->last[b] &&
            buf->offset + buf->nbytes > top)
            top = buf->offset + buf->nbytes;
    }
    return top;
}

static void plot(FILE *f, const sm2c_entry *e, const sm2c_entry_costs *c)
{
    int64_t arena = e->arena_bytes;
    if (arena <= 0 || e->n_steps == 0) {
        fputs("<p class=\"none\">No intermediates in the arena.</p>\n", f);
        return;
    }
    int64_t peak = 0;
    for (int32_t s = 0; s < e->n_steps; s++) {
        int64_t t = extent_at(e, c, s);
        peak = t > peak ? t : peak;
    }
    double sx = (double)PLOT_W / e->n_steps, sy = (double)PLOT_H / (double)arena;
    fprintf(f, "<svg class=\"plan\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"memory plan\">\n",
            MARGIN_L + PLOT_W + 10, PLOT_H + MARGIN_B + 10, MARGIN_L + PLOT_W + 10, PLOT_H + MARGIN_B + 10);
    fprintf(f, "<rect x=\"%d\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f7f7f7\" stroke=\"#999\"/>\n",
            MARGIN_L, PLOT_W, PLOT_H);
    for (int32_t s = 0; s < e->n_steps; s++)  /* where the plan reaches its peak: shaded, and marked below */
        if (extent_at(e, c, s) == peak)
            fprintf(f, "<rect class=\"peak\" x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"%d\" fill=\"#fdd\"/>"
                       "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"4\" fill=\"#d00\"/>\n",
                    MARGIN_L + s * sx, sx, PLOT_H, MARGIN_L + s * sx, PLOT_H + 1, sx);
    for (int32_t b = 0; b < e->n_buffers; b++) {
        const sm2c_buffer *buf = &e->buffers[b];
        if (buf->kind != SM2C_BUF_ARENA || c->first[b] < 0)
            continue;
        double x = MARGIN_L + c->first[b] * sx, w = (c->last[b] - c->first[b] + 1) * sx;
        double h = (double)buf->nbytes * sy, y = PLOT_H - (double)(buf->offset + buf->nbytes) * sy;
        fprintf(f, "<rect class=\"buf\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"", x, y, w,
                h < 0.5 ? 0.5 : h);
        fill(f, b);
        fputs("\" stroke=\"#333\" stroke-width=\"0.5\"><title>", f);
        text(f, buf->name);
        fprintf(f, " %s ", sm2c_dtype_name(buf->dtype));
        shape(f, &buf->shape);
        fprintf(f, ": %lld bytes at offset %lld, steps %d..%d</title></rect>\n", (long long)buf->nbytes,
                (long long)buf->offset, (int)c->first[b], (int)c->last[b]);
    }
    fprintf(f, "<text x=\"%d\" y=\"12\" text-anchor=\"end\" font-size=\"11\">%lld B</text>\n", MARGIN_L - 4,
            (long long)arena);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"11\">0</text>\n", MARGIN_L - 4, PLOT_H);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">step 0</text>\n", MARGIN_L, PLOT_H + 16);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"11\">step %d</text>\n",
            MARGIN_L + PLOT_W, PLOT_H + 16, (int)e->n_steps - 1);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">steps &#8594;  "
               "(arena offset &#8593;; red: the steps at the peak, %lld bytes)</text>\n</svg>\n",
            MARGIN_L + PLOT_W / 2, PLOT_H + 28, (long long)peak);
}

static void step_table(FILE *f, const sm2c_entry *e, const sm2c_entry_costs *c)
{
    fputs("<table class=\"steps\">\n<tr><th>#</th><th>op</th><th>node</th><th>output shape</th>"
          "<th>MACs</th><th>tasks</th><th>bytes read</th><th>bytes written</th></tr>\n", f);
    for (int32_t i = 0; i < e->n_steps; i++) {
        const sm2c_step *s = &e->steps[i];
        const sm2c_step_cost *k = &c->steps[i];
        fprintf(f, "<tr><td>%d</td><td>", (int)i);
        text(f, s->op ? s->op : s->control ? "(control)" : s->kernel);
        fputs("</td><td>", f);
        text(f, s->node);
        fputs("</td><td>", f);
        if (k->out_buf >= 0) {
            fprintf(f, "%s ", sm2c_dtype_name(e->buffers[k->out_buf].dtype));
            shape(f, &e->buffers[k->out_buf].shape);
        }
        fprintf(f, "</td><td>%lld</td><td>%d</td><td>%lld</td><td>%lld</td></tr>\n", (long long)k->macs,
                s->max_tasks > 1 ? (int)s->max_tasks : 1, (long long)k->bytes_read, (long long)k->bytes_written);
    }
    fputs("</table>\n", f);
}

static void entry(FILE *f, sm2c_arena *a, const sm2c_entry *e)
{
    sm2c_entry_costs c;
    sm2c_entry_costs_compute(a, e, &c);
    fputs("<section class=\"entry\">\n<h2>", f);
    text(f, e->key);
    fputs("</h2>\n<table class=\"summary\">", f);
    fprintf(f, "<tr><th>arena</th><td>%lld bytes (intermediates %lld bytes)</td></tr>"
               "<tr><th>weights read</th><td>%lld bytes</td></tr><tr><th>state</th><td>%lld bytes%s</td></tr>"
               "<tr><th>stack</th><td>%d bytes at most</td></tr><tr><th>MACs</th><td>%lld%s</td></tr>"
               "<tr><th>steps</th><td>%d</td></tr></table>\n",
            (long long)e->arena_bytes, (long long)e->naive_bytes, (long long)c.weight_bytes,
            (long long)c.state_bytes, e->writes_state ? ", written" : "", SM2C_RT_STACK_BYTES,
            (long long)c.macs, e->max_batch ? " per row" : "", (int)e->n_steps);
    plot(f, e, &c);
    step_table(f, e, &c);
    fputs("</section>\n", f);
}

void sm2c_report_html(FILE *f, sm2c_arena *a, const sm2c_program *p)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>sm2c report: ", f);
    text(f, p->name);
    fputs("</title>\n<style>body{font:14px sans-serif;margin:1em 2em}table{border-collapse:collapse;"
          "margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
          "table.steps td:nth-child(n+5){text-align:right}svg{display:block;margin:.5em 0}"
          ".none{color:#666}</style></head><body>\n<h1>sm2c report: ", f);
    text(f, p->name);
    fprintf(f, "</h1>\n<p>%d entr%s; arena %lld bytes; weights %d tensors, %lld bytes; state %lld bytes.</p>\n",
            (int)p->n_entries, p->n_entries == 1 ? "y" : "ies", (long long)p->arena_bytes, (int)p->n_weights,
            (long long)sm2c_program_weight_bytes(p), (long long)sm2c_program_state_bytes(p));
    for (int32_t i = 0; i < p->n_entries; i++)
        entry(f, a, &p->entries[i]);
    fputs("</body></html>\n", f);
}
