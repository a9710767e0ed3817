/*
** report_html.c: `--report FILE.html` (report.h), one self-contained page
** per program (no external resource; an inline style sheet and script):
** a summary first (entry points, inputs, outputs, arena, weights, state,
** the one stack figure, the header's, MACs, and measured time when
** profiled), a table of contents, then per entry its own figures, its
** memory plan (report_html_plan.c) and its step table (report_html_steps.c).
** Opened with the fragment #selfcheck, the script also checks what the
** browser shows and writes its findings into the page (tests/cli/report_browser.sh).
*/
#include "cli/report_html.h"

#include "base/tensor.h"
#include "codegen/mangle.h"

static void ports(FILE *f, const char *cls, const sm2c_port *p, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        fprintf(f, "<span class=\"port %s\">", cls);
        sm2c_html_name(f, p[i].key, 40);
        fprintf(f, " <span class=\"ty\">%s ", sm2c_dtype_name(p[i].dtype));
        sm2c_html_shape(f, &p[i].shape);
        fputs("</span></span> ", f);
    }
    if (!n)
        fputs("<span class=\"none\">none</span>", f);
}

/* One row per entry inside a summary cell: the entry's key, then what `what` writes. */
static void per_entry_start(FILE *f, const sm2c_program *p, int32_t i)
{
    fputs("<div class=\"pe\">", f);
    if (p->n_entries > 1) {
        fprintf(f, "<a class=\"ek\" href=\"#e%d\">", (int)i);
        sm2c_html_name(f, p->entries[i].key, 32);
        fputs("</a> ", f);
    }
}

static void number(FILE *f, const char *key, const char *entry, long long v)
{
    fprintf(f, "<span class=\"num\" data-k=\"%s\"", key);
    if (entry) {
        fputs(" data-e=\"", f);
        sm2c_html_text(f, entry);
        fputc('"', f);
    }
    fprintf(f, ">%lld</span>", v);
}

static void summary_sizes(FILE *f, const sm2c_program *p, const sm2c_report_opts *o, const char *NAME)
{
    fputs("<tr><th>arena</th><td>", f);
    number(f, "arena", NULL, (long long)p->arena_bytes);
    fputs(" bytes (", f);
    sm2c_html_bytes_plain(f, p->arena_bytes);
    fputs("; <code>", f);
    sm2c_html_text(f, NAME);
    fputs("_ARENA_SIZE</code>, shared by the entry points)</td></tr>\n<tr><th>weights</th><td>", f);
    number(f, "weights", NULL, (long long)sm2c_program_weight_bytes(p));
    fprintf(f, " bytes (");
    sm2c_html_bytes_plain(f, sm2c_program_weight_bytes(p));
    fprintf(f, " in %d tensors)</td></tr>\n<tr><th>state</th><td>", (int)p->n_weights);
    number(f, "state", NULL, (long long)sm2c_program_state_bytes(p));
    fprintf(f, " bytes (%d variables)</td></tr>\n<tr><th>stack</th><td>", (int)p->n_states);
    number(f, "stack", NULL, o->stack_bytes);
    fputs(" bytes (<code>", f);
    sm2c_html_text(f, NAME);
    fputs("_STACK_SIZE</code> for ", f);
    sm2c_html_text(f, o->stack_target);
    fputs(", kernels included)</td></tr>\n", f);
}

static void summary(FILE *f, const sm2c_program *p, const sm2c_entry_costs *c, const sm2c_report_opts *o,
                    const char *NAME)
{
    fputs("<section id=\"summary\"><h2>Summary</h2>\n<table class=\"summary\">\n<tr><th>entry points</th><td>", f);
    number(f, "entries", NULL, p->n_entries);
    fputs("</td></tr>\n<tr><th>inputs</th><td>", f);
    for (int32_t i = 0; i < p->n_entries; i++) {
        per_entry_start(f, p, i);
        ports(f, "in", p->entries[i].inputs, p->entries[i].n_inputs);
        fputs("</div>", f);
    }
    fputs("</td></tr>\n<tr><th>outputs</th><td>", f);
    for (int32_t i = 0; i < p->n_entries; i++) {
        per_entry_start(f, p, i);
        ports(f, "out", p->entries[i].outputs, p->entries[i].n_outputs);
        fputs("</div>", f);
    }
    fputs("</td></tr>\n", f);
    summary_sizes(f, p, o, NAME);
    fputs("<tr><th>MACs per call</th><td>", f);
    for (int32_t i = 0; i < p->n_entries; i++) {
        per_entry_start(f, p, i);
        number(f, "macs", p->entries[i].key, (long long)c[i].macs);
        fputs(p->entries[i].max_batch ? " per row" : "", f);
        fputs("</div>", f);
    }
    fputs("</td></tr>\n", f);
    int timed = 0;
    for (int32_t i = 0; i < p->n_entries; i++)
        timed |= c[i].time_us >= 0;
    if (timed) {
        fputs("<tr><th>measured time</th><td>", f);
        for (int32_t i = 0; i < p->n_entries; i++) {
            per_entry_start(f, p, i);
            if (c[i].time_us >= 0) {
                fputs("<span class=\"num\" data-k=\"time\" data-e=\"", f);
                sm2c_html_text(f, p->entries[i].key);
                fputs("\">", f);
                sm2c_html_time(f, c[i].time_us);
                fputs("</span>", f);
            } else
                fputs("<span class=\"none\">not measured</span>", f);
            fputs(" per call</div>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table></section>\n", f);
}

static void toc(FILE *f, const sm2c_program *p, const sm2c_entry_costs *c)
{
    fputs("<nav id=\"toc\"><h2>Contents</h2><ol>\n", f);
    for (int32_t i = 0; i < p->n_entries; i++) {
        fprintf(f, "<li><a href=\"#e%d\">", (int)i);
        sm2c_html_name(f, p->entries[i].key, 48);
        fprintf(f, "</a>: %d steps, %d fused; <a href=\"#e%d-plan\">memory plan</a>, <a href=\"#e%d-table\">steps</a>"
                   "</li>\n",
                (int)p->entries[i].n_steps, (int)c[i].n_fused, (int)i, (int)i);
    }
    fputs("</ol></nav>\n", f);
}

static void entry(FILE *f, int32_t i, const sm2c_entry *e, const sm2c_entry_costs *c)
{
    fprintf(f, "<section class=\"entry\" id=\"e%d\">\n<h2>", (int)i);
    sm2c_html_name(f, e->key, 60);
    fputs(e->function ? " <span class=\"ty\">(function)</span>" : "", f);
    fputs("</h2>\n<p class=\"facts\">arena ", f);
    sm2c_html_bytes(f, e->arena_bytes);
    fputs(" (intermediates ", f);
    sm2c_html_bytes(f, e->naive_bytes);
    fputs(" unplanned); weights read ", f);
    sm2c_html_bytes(f, c->weight_bytes);
    fputs("; state ", f);
    sm2c_html_bytes(f, c->state_bytes);
    fprintf(f, "%s; ", e->writes_state ? ", written" : "");
    sm2c_html_count(f, c->macs);
    fprintf(f, " MACs%s; %d steps, %d with fused ops", e->max_batch ? " per row" : "", (int)e->n_steps,
            (int)c->n_fused);
    if (c->time_us >= 0) {
        fputs("; measured ", f);
        sm2c_html_time(f, c->time_us);
        fputs(" per call", f);
    }
    fprintf(f, ".</p>\n<h3>Memory plan</h3>\n");
    sm2c_html_plan(f, i, e, c);
    fputs("<h3>Steps</h3>\n", f);
    sm2c_html_steps(f, i, e, c);
    fputs("</section>\n", f);
}

void sm2c_report_html(FILE *f, sm2c_arena *a, const sm2c_program *p, const sm2c_report_opts *o)
{
    sm2c_entry_costs *c = sm2c_arena_array(a, p->n_entries > 0 ? (size_t)p->n_entries : 1, sizeof *c);
    for (int32_t i = 0; i < p->n_entries; i++)
        sm2c_entry_costs_compute(a, &p->entries[i], o->step_us ? o->step_us[i] : NULL, &c[i]);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width\"><title>sm2c report: ",
          f);
    sm2c_html_text(f, p->name);
    fputs("</title>\n<style>", f);
    sm2c_html_lines(f, sm2c_html_style);
    fputs("</style></head><body>\n<h1>sm2c report: ", f);
    sm2c_html_text(f, p->name);
    fputs("</h1>\n", f);
    /* NAME of the header's NAME_ARENA_SIZE, as codegen/c_names.c makes it */
    summary(f, p, c, o, sm2c_mangle_sanitize(a, p->name, 1, (size_t)-1));
    toc(f, p, c);
    for (int32_t i = 0; i < p->n_entries; i++)
        entry(f, i, &p->entries[i], &c[i]);
    fputs("<pre id=\"selfcheck\" hidden></pre>\n<script>", f);
    sm2c_html_lines(f, sm2c_html_script);
    fputs("</script>\n</body></html>\n", f);
}
