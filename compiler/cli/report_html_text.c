/*
** report_html_text.c: escaping and the short forms of names and figures
** that the HTML report's cells show (report_html.h).
*/
#include "cli/report_html.h"

#include <string.h>

void sm2c_html_text(FILE *f, const char *s)
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

void sm2c_html_shape(FILE *f, const sm2c_shape *s)
{
    fputc('[', f);
    for (int32_t i = 0; i < s->rank; i++)
        fprintf(f, "%s%lld", i ? "," : "", (long long)s->dims[i]);
    fputc(']', f);
}

/* Bytes [from, from + n) of s, escaped; n counts bytes, so a cut never
** splits a UTF-8 sequence (it moves to the sequence's start). */
static void text_part(FILE *f, const char *s, size_t from, size_t n)
{
    while (from > 0 && ((unsigned char)s[from] & 0xC0) == 0x80)
        from--, n++;
    size_t end = from + n;
    while (s[end] && ((unsigned char)s[end] & 0xC0) == 0x80)
        end--;
    for (size_t k = from; k < end; k++) {
        char one[2] = { s[k], 0 };
        sm2c_html_text(f, one);
        if (s[k] == '/')
            fputs("<wbr>", f);  /* a long name wraps after a scope before it breaks a word */
    }
}

void sm2c_html_name(FILE *f, const char *s, int max)
{
    size_t n = s ? strlen(s) : 0, keep = max > 8 ? (size_t)max : 8;
    if (n <= keep) {
        fputs("<span class=\"nm\">", f);
        text_part(f, s, 0, n);
        fputs("</span>", f);
        return;
    }
    size_t head = keep / 3, tail = keep - head - 1;
    fputs("<span class=\"nm cut\" title=\"", f);
    sm2c_html_text(f, s);
    fputs("\">", f);
    text_part(f, s, 0, head);
    fputs("&#8230;", f);
    text_part(f, s, n - tail, tail);
    fputs("</span>", f);
}

static void scaled(FILE *f, double v, const char *const *units, double step)
{
    int u = 0;
    while (v >= step && units[u + 1])
        v /= step, u++;
    fprintf(f, v < 10 ? "%.2f%s" : v < 100 ? "%.1f%s" : "%.0f%s", v, units[u]);
}

void sm2c_html_bytes_plain(FILE *f, int64_t bytes)
{
    static const char *const units[] = { " B", " KiB", " MiB", " GiB", " TiB", NULL };
    if (bytes < 1024)
        fprintf(f, "%lld B", (long long)bytes);
    else
        scaled(f, (double)bytes, units, 1024);
}

void sm2c_html_bytes(FILE *f, int64_t bytes)
{
    fprintf(f, "<span title=\"%lld bytes\">", (long long)bytes);
    sm2c_html_bytes_plain(f, bytes);
    fputs("</span>", f);
}

void sm2c_html_count(FILE *f, int64_t n)
{
    static const char *const units[] = { "", " k", " M", " G", " T", NULL };
    fprintf(f, "<span title=\"%lld\">", (long long)n);
    if (n < 10000)
        fprintf(f, "%lld", (long long)n);
    else
        scaled(f, (double)n, units, 1000);
    fputs("</span>", f);
}

void sm2c_html_time(FILE *f, double us)
{
    if (us < 1000)
        fprintf(f, us < 10 ? "%.2f &#181;s" : "%.1f &#181;s", us);
    else
        fprintf(f, us < 1e6 ? "%.2f ms" : "%.0f ms", us / 1000);
}

void sm2c_html_fill(FILE *f, int32_t b)
{
    fprintf(f, "hsl(%d,62%%,%d%%)", (int)((b * 137) % 360), 52 + (b % 3) * 8);
}

void sm2c_html_lines(FILE *f, const char *const *lines)
{
    for (; *lines; lines++)
        fputs(*lines, f);
}
