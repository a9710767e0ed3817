/*
** report_html_plan.c: an entry's memory plan in the HTML report.  An SVG
** picture: x the steps, y the arena's bytes, each arena buffer a rectangle
** over the steps it lives at its offset, labelled with its id and the end
** of its name (or its id alone where that does not fit), the steps where the plan reaches its peak
** shaded and marked red, byte and step axes; then a legend (colour, id,
** name, type, bytes, offset, steps).  The positions written here are those
** of zoom 1; the page's script (report_html_assets.c) lays the same
** elements out again at other zooms from their data-* attributes (a, b: the
** first and last step; o, n: offset and bytes; v: a tick's bytes).
*/
#include "cli/report_html.h"

#include <string.h>

#include "base/tensor.h"

#define PLOT_W 960
#define PLOT_H 360
#define MARGIN_L 74
#define MARGIN_T 8
#define MARGIN_B 44
#define LABEL_CHAR_W 6.2 /* px per character of a 10px label, a generous estimate */

typedef struct geom {
    double sx, sy;    /* px per step, px per byte */
} geom;

static double x_of(const geom *g, int32_t step) { return MARGIN_L + step * g->sx; }
static double y_of(const geom *g, int64_t byte) { return MARGIN_T + PLOT_H - (double)byte * g->sy; }

/* The highest arena byte a live buffer reaches at step s. */
static int64_t extent_at(const sm2c_entry *e, const sm2c_entry_costs *c, int32_t s)
{
    int64_t top = 0;
    for (int32_t b = 0; b < e->n_buffers; b++) {
        const sm2c_buffer *buf = &e->buffers[b];
        if (buf->kind == SM2C_BUF_ARENA && !buf->fast && c->first[b] >= 0 && c->first[b] <= s &&
            s <= c->last[b] && buf->offset + buf->nbytes > top)
            top = buf->offset + buf->nbytes;
    }
    return top;
}

/* The picture is the arena's: --fast-arena's buffers (offsets into the fast
** arena) are in the text and JSON reports. */
static int in_plan(const sm2c_entry *e, const sm2c_entry_costs *c, int32_t b)
{
    return e->buffers[b].kind == SM2C_BUF_ARENA && !e->buffers[b].fast && c->first[b] >= 0;
}

/* The end of a buffer's name its label shows: after the second last '/'
** ("dense_1/MatMul"), which tells a layer's buffers apart. */
static const char *short_name(const char *name)
{
    if (!name)
        return "";
    const char *end = name + strlen(name), *p = end;
    for (int slashes = 0; p > name; p--)
        if (p[-1] == '/' && ++slashes == 2)
            break;
    return p < end ? p : name;
}

/* Each step a transparent column naming the step on hover. */
static void step_columns(FILE *f, const sm2c_entry *e, const geom *g)
{
    for (int32_t s = 0; s < e->n_steps; s++) {
        const sm2c_step *st = &e->steps[s];
        fprintf(f, "<rect class=\"col\" data-a=\"%d\" data-b=\"%d\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\">"
                   "<title>step %d: ",
                (int)s, (int)s, x_of(g, s), MARGIN_T, g->sx, PLOT_H, (int)s);
        sm2c_html_text(f, st->control ? "(control)" : st->op && *st->op ? st->op : st->kernel);
        fputc(' ', f);
        sm2c_html_text(f, st->node);
        fputs("</title></rect>\n", f);
    }
}

static void peak_marks(FILE *f, const sm2c_entry *e, const sm2c_entry_costs *c, const geom *g, int64_t peak)
{
    for (int32_t s = 0; s < e->n_steps; s++)
        if (extent_at(e, c, s) == peak)
            fprintf(f, "<rect class=\"pk\" data-a=\"%d\" data-b=\"%d\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
                       "height=\"%d\"/><rect class=\"pkm\" data-a=\"%d\" data-b=\"%d\" x=\"%.2f\" y=\"%d\" "
                       "width=\"%.2f\" height=\"4\"/>\n",
                    (int)s, (int)s, x_of(g, s), MARGIN_T, g->sx, PLOT_H, (int)s, (int)s, x_of(g, s),
                    MARGIN_T + PLOT_H + 1, g->sx);
}

static void buffer_rect(FILE *f, int32_t i, const sm2c_entry *e, const sm2c_entry_costs *c, const geom *g,
                        int32_t b)
{
    const sm2c_buffer *buf = &e->buffers[b];
    double x = x_of(g, c->first[b]), w = (c->last[b] - c->first[b] + 1) * g->sx;
    double h = (double)buf->nbytes * g->sy, y = y_of(g, buf->offset + buf->nbytes);
    if (h < 1)
        h = 1;
    fprintf(f, "<g class=\"b\" id=\"e%d-b%d\"><rect data-a=\"%d\" data-b=\"%d\" data-o=\"%lld\" data-n=\"%lld\" "
               "x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"",
            (int)i, (int)b, (int)c->first[b], (int)c->last[b], (long long)buf->offset, (long long)buf->nbytes, x, y,
            w, h);
    sm2c_html_fill(f, b);
    fprintf(f, "\"><title>#%d ", (int)b);
    sm2c_html_text(f, buf->name);
    fprintf(f, "\n%s ", sm2c_dtype_name(buf->dtype));
    sm2c_html_shape(f, &buf->shape);
    fprintf(f, ", %lld bytes at offset %lld, steps %d..%d</title></rect>", (long long)buf->nbytes,
            (long long)buf->offset, (int)c->first[b], (int)c->last[b]);
    char id[16], name[96];
    snprintf(id, sizeof id, "%d", (int)b);
    snprintf(name, sizeof name, "%d %s", (int)b, short_name(buf->name));
    const char *label = h < 14 ? NULL : (double)strlen(name) * LABEL_CHAR_W + 4 <= w ? name
                                     : (double)strlen(id) * LABEL_CHAR_W + 4 <= w   ? id
                                                                                    : NULL;
    fprintf(f, "<text class=\"lbl\" x=\"%.2f\" y=\"%.2f\" data-s=\"%s\" data-l=\"", x + 2, y + (h > 24 ? 13 : h / 2 + 4),
            id);
    sm2c_html_text(f, name);
    fprintf(f, "\"%s>", label ? "" : " display=\"none\"");
    sm2c_html_text(f, label ? label : "");
    fputs("</text></g>\n", f);
}

/* Byte ticks at fifths of the arena, step ticks at every step (the script
** shows those that have room). */
static void axes(FILE *f, const sm2c_entry *e, const geom *g, int64_t arena)
{
    for (int k = 0; k <= 4; k++) {
        int64_t v = arena * k / 4;
        fprintf(f, "<g class=\"yt\" data-v=\"%lld\"><line x1=\"%d\" x2=\"%d\" y1=\"%.2f\" y2=\"%.2f\"/>"
                   "<text x=\"%d\" y=\"%.2f\">",
                (long long)v, MARGIN_L - 4, MARGIN_L, y_of(g, v), y_of(g, v), MARGIN_L - 6, y_of(g, v) + 4);
        sm2c_html_bytes_plain(f, v);
        fputs("</text></g>\n", f);
    }
    int32_t every = 1;
    while (every * g->sx < 36)
        every = every == 1 ? 2 : every == 2 ? 5 : every % 10 == 5 ? every * 2 : every * 5 / 2;
    for (int32_t s = 0; s < e->n_steps; s++)
        fprintf(f, "<text class=\"xt\" data-a=\"%d\" data-b=\"%d\" x=\"%.2f\" y=\"%d\"%s>%d</text>\n", (int)s, (int)s,
                x_of(g, s) + g->sx / 2, MARGIN_T + PLOT_H + 16, s % every ? " display=\"none\"" : "", (int)s);
    fprintf(f, "<text class=\"axis\" x=\"%d\" y=\"%d\">step &#8594;</text>\n", MARGIN_L, MARGIN_T + PLOT_H + 36);
}

static void legend(FILE *f, int32_t i, const sm2c_entry *e, const sm2c_entry_costs *c)
{
    fprintf(f, "<div class=\"legend\"><table class=\"lg\" id=\"e%d-legend\"><colgroup><col class=\"c-sw\">"
               "<col class=\"c-i\"><col><col class=\"c-shape\"><col class=\"c-n\"><col class=\"c-n\">"
               "<col class=\"c-n\"></colgroup>\n<thead><tr><th></th><th>#</th><th>buffer</th><th>type</th>"
               "<th>bytes</th><th>offset</th><th>steps</th></tr></thead><tbody>\n",
            (int)i);
    for (int32_t b = 0; b < e->n_buffers; b++) {
        if (!in_plan(e, c, b))
            continue;
        const sm2c_buffer *buf = &e->buffers[b];
        fprintf(f, "<tr data-b=\"e%d-b%d\"><td><span class=\"sw\" style=\"background:", (int)i, (int)b);
        sm2c_html_fill(f, b);
        fprintf(f, "\"></span></td><td>%d</td><td class=\"node\">", (int)b);
        sm2c_html_name(f, buf->name, 60);
        fprintf(f, "</td><td class=\"shape\">%s ", sm2c_dtype_name(buf->dtype));
        sm2c_html_shape(f, &buf->shape);
        fputs("</td><td>", f);
        sm2c_html_bytes(f, buf->nbytes);
        fputs("</td><td>", f);
        sm2c_html_bytes(f, buf->offset);
        fprintf(f, "</td><td>%d&#8211;%d</td></tr>\n", (int)c->first[b], (int)c->last[b]);
    }
    fputs("</tbody></table></div>\n", f);
}

void sm2c_html_plan(FILE *f, int32_t i, const sm2c_entry *e, const sm2c_entry_costs *c)
{
    int64_t arena = e->arena_bytes, peak = 0;
    if (arena <= 0 || e->n_steps == 0) {
        fputs("<p class=\"none\">No intermediates in the arena.</p>\n", f);
        return;
    }
    for (int32_t s = 0; s < e->n_steps; s++) {
        int64_t t = extent_at(e, c, s);
        peak = t > peak ? t : peak;
    }
    geom g = { (double)PLOT_W / e->n_steps, (double)PLOT_H / (double)arena };
    fprintf(f, "<div class=\"plan\" id=\"e%d-plan\" data-steps=\"%d\" data-arena=\"%lld\">\n"
               "<div class=\"zoom\">zoom steps <button type=\"button\" data-z=\"x-\">&#8722;</button>"
               "<button type=\"button\" data-z=\"x+\">+</button> bytes <button type=\"button\" data-z=\"y-\">"
               "&#8722;</button><button type=\"button\" data-z=\"y+\">+</button> <button type=\"button\" "
               "data-z=\"fit\">fit</button> <span class=\"zl\"></span> <span class=\"hint\">red: the steps at the "
               "peak, ",
            (int)i, (int)e->n_steps, (long long)arena);
    sm2c_html_bytes(f, peak);
    fprintf(f, "; hover a buffer or a legend row</span></div>\n<div class=\"planwrap\"><svg class=\"planimg\" "
               "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" data-l=\"%d\" data-t=\"%d\" "
               "data-w=\"%d\" data-h=\"%d\" data-mb=\"%d\" role=\"img\" aria-label=\"memory plan\">\n"
               "<rect class=\"bg\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
            MARGIN_L + PLOT_W + 10, MARGIN_T + PLOT_H + MARGIN_B, MARGIN_L, MARGIN_T, PLOT_W, PLOT_H, MARGIN_B,
            MARGIN_L, MARGIN_T, PLOT_W, PLOT_H);
    peak_marks(f, e, c, &g, peak);
    step_columns(f, e, &g);
    for (int32_t b = 0; b < e->n_buffers; b++)
        if (in_plan(e, c, b))
            buffer_rect(f, i, e, c, &g, b);
    axes(f, e, &g, arena);
    fputs("</svg></div>\n", f);
    legend(f, i, e, c);
    fputs("</div>\n", f);
}
