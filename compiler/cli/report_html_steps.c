/*
** report_html_steps.c: an entry's step table in the HTML report: per step
** its op (the kernel on hover), node (cut to fit; the whole name on hover),
** the nodes fusion folded into it, its output, MACs, tasks, bytes moved, and
** when profiled its measured time as a bar against the slowest step.
*/
#include "cli/report_html.h"

#include <string.h>

#include "base/tensor.h"

#define NODE_CHARS 44

static const char *const control_names[] = { NULL, "if", "else", "end if", "loop", "break unless", "end loop" };

/* Nesting depth of step i's row: IF and LOOP open a level, their ends close it. */
static int32_t depth_step(const sm2c_step *s, int32_t *depth)
{
    int32_t d = *depth;
    if (s->control == SM2C_CTL_IF || s->control == SM2C_CTL_LOOP)
        (*depth)++;
    else if (s->control == SM2C_CTL_END_IF || s->control == SM2C_CTL_END_LOOP)
        d = --(*depth);
    else if (s->control == SM2C_CTL_ELSE)
        d--;
    return d < 0 ? 0 : d;
}

static void op_cell(FILE *f, const sm2c_step *s, int32_t depth)
{
    fputs("<td class=\"op\"", f);
    if (depth)
        fprintf(f, " style=\"padding-left:%.1fem\"", 0.4 + 0.8 * (depth > 8 ? 8 : depth));
    if (s->control) {
        int k = s->control > 0 && s->control <= SM2C_CTL_END_LOOP ? s->control : 0;
        fprintf(f, "><i>(%s)</i></td>", k ? control_names[k] : "control");
        return;
    }
    fputs(" title=\"", f);
    sm2c_html_text(f, s->kernel);
    fputs("\">", f);
    sm2c_html_text(f, s->op && *s->op ? s->op : s->kernel);
    fputs("</td>", f);
}

/* sm2c_step.fused: "+Op" per folded node, its node name on hover. */
static void fused_cell(FILE *f, const char *list)
{
    fputs("<td class=\"fz\">", f);
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ";"), sp = strcspn(p, " ");
        fputs("<span title=\"", f);
        fprintf(f, "%.*s", (int)(n - sp - 1), p + sp + 1);  /* node names need no escaping */
        fprintf(f, "\">+%.*s</span> ", (int)sp, p);
        p += n + (p[n] == ';');
    }
    fputs("</td>", f);
}

static void time_cell(FILE *f, double us, double slowest, double total)
{
    if (us < 0) {
        fputs("<td class=\"t\">&#8211;</td>", f);
        return;
    }
    fprintf(f, "<td class=\"t\" title=\"%.3f us, %.1f%% of the entry\"><span class=\"bar\" style=\"width:%.1f%%\">"
               "</span><span class=\"tv\">",
            us, total > 0 ? 100 * us / total : 0.0, slowest > 0 ? 100 * us / slowest : 0.0);
    sm2c_html_time(f, us);
    fputs("</span></td>", f);
}

static void row(FILE *f, const sm2c_entry *e, int32_t i, const sm2c_step_cost *k, int32_t depth, double slowest,
                double total, int timed)
{
    const sm2c_step *s = &e->steps[i];
    fprintf(f, "<tr%s><td>%d</td>", k->fused ? " class=\"fused\"" : "", (int)i);
    op_cell(f, s, depth);
    fputs("<td class=\"node\">", f);
    if (s->node && *s->node)
        sm2c_html_name(f, s->node, NODE_CHARS);
    fputs("</td>", f);
    fused_cell(f, k->fused);
    fputs("<td class=\"shape\">", f);
    if (k->out_buf >= 0) {
        fprintf(f, "%s ", sm2c_dtype_name(e->buffers[k->out_buf].dtype));
        sm2c_html_shape(f, &e->buffers[k->out_buf].shape);
    }
    fputs("</td><td>", f);
    sm2c_html_count(f, k->macs);
    fprintf(f, "</td><td>%d</td><td>", s->max_tasks > 1 ? (int)s->max_tasks : 1);
    sm2c_html_bytes(f, k->bytes_read);
    fputs("</td><td>", f);
    sm2c_html_bytes(f, k->bytes_written);
    fputs("</td>", f);
    if (timed)
        time_cell(f, k->time_us, slowest, total);
    fputs("</tr>\n", f);
}

void sm2c_html_steps(FILE *f, int32_t i, const sm2c_entry *e, const sm2c_entry_costs *c)
{
    int timed = c->time_us >= 0;
    double slowest = 0;
    for (int32_t s = 0; s < e->n_steps; s++)
        slowest = c->steps[s].time_us > slowest ? c->steps[s].time_us : slowest;
    fprintf(f, "<div class=\"tablewrap\"><table class=\"steps%s\" id=\"e%d-table\">\n<colgroup><col class=\"c-i\">"
               "<col class=\"c-op\"><col class=\"c-node\"><col class=\"c-fz\"><col class=\"c-shape\">"
               "<col class=\"c-n\"><col class=\"c-tasks\"><col class=\"c-n\"><col class=\"c-n\">%s</colgroup>\n"
               "<thead><tr><th>#</th><th>op</th><th>node</th><th title=\"nodes fused into this step\">fused</th>"
               "<th>output</th><th title=\"multiply-accumulates\">MACs</th><th title=\"most tasks on a context\">"
               "tasks</th><th>read</th><th>written</th>%s</tr></thead>\n<tbody>\n",
            timed ? " timed" : "", (int)i, timed ? "<col class=\"c-t\">" : "",
            timed ? "<th title=\"measured per call\">time</th>" : "");
    int32_t depth = 0;
    for (int32_t s = 0; s < e->n_steps; s++)
        row(f, e, s, &c->steps[s], depth_step(&e->steps[s], &depth), slowest, c->time_us, timed);
    fputs("</tbody></table></div>\n", f);
}
