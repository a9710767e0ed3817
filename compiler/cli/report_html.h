/*
** report_html.h: what the files of `--report FILE.html` (report.h) share:
** escaping, names cut to fit a cell (the whole name on hover), sizes in
** human units (the exact figure on hover), the page's style and script.
*/
#ifndef SM2C_REPORT_HTML_H
#define SM2C_REPORT_HTML_H

#include "cli/report.h"

/* s with <, >, & and " escaped for text and attribute values. */
void sm2c_html_text(FILE *f, const char *s);
/* `[d0,d1,...]`. */
void sm2c_html_shape(FILE *f, const sm2c_shape *s);
/* s in a span; when longer than `max` characters, its start and end with
** an ellipsis between and the whole name in the title attribute. */
void sm2c_html_name(FILE *f, const char *s, int max);
/* bytes as "12.3 KiB" (exact when below 1 KiB), in a span titled with the exact count. */
void sm2c_html_bytes(FILE *f, int64_t bytes);
/* The same without the span (inside SVG text). */
void sm2c_html_bytes_plain(FILE *f, int64_t bytes);
/* a count as "1.23 M" (exact when below 10000), in a span titled with the exact count. */
void sm2c_html_count(FILE *f, int64_t n);
/* microseconds as "12.3 µs" or "4.56 ms". */
void sm2c_html_time(FILE *f, double us);
/* A fill per buffer that neighbours tell apart: hues by the golden angle. */
void sm2c_html_fill(FILE *f, int32_t b);

/* The page's inline style sheet and script (report_html_assets.c): lines,
** NULL-terminated; sm2c_html_lines writes them. */
extern const char *const sm2c_html_style[];
extern const char *const sm2c_html_script[];
void sm2c_html_lines(FILE *f, const char *const *lines);

/* Per entry i: the memory plan (report_html_plan.c) and the step table
** (report_html_steps.c); element ids start "e<i>". */
void sm2c_html_plan(FILE *f, int32_t i, const sm2c_entry *e, const sm2c_entry_costs *c);
void sm2c_html_steps(FILE *f, int32_t i, const sm2c_entry *e, const sm2c_entry_costs *c);

#endif
