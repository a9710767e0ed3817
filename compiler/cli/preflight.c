/*
** preflight.c: the pre-flight check of a command's output paths and the
** all-or-nothing --report file (preflight.h).
*/
#define _GNU_SOURCE
#include "preflight.h"

#include "base/out_path.h"
#include "base/publish.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Two output options naming one path (or a directory and a file in it
** being both OUT and a report is fine; the same path twice is not). */
static sm2c_status distinct(sm2c_ctx *c, const char *a_opt, const char *a, const char *b_opt, const char *b)
{
    struct stat sa, sb;
    if (!a || !b)
        return SM2C_OK;
    int same = !strcmp(a, b) || (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
                                 sa.st_ino == sb.st_ino);
    return same ? sm2c_error(c->diag, SM2C_ERR_USAGE, b, NULL, "%s and %s name the same path", a_opt, b_opt)
                : SM2C_OK;
}

sm2c_status sm2c_preflight(sm2c_ctx *c, const sm2c_cli_outputs *o)
{
    sm2c_status st = SM2C_OK;
    int run = !strcmp(o->command, "run");
    const char *out_opt = run ? "--outdir" : "-o";
    if (o->out)
        st = sm2c_out_path_check(c, out_opt, o->out, SM2C_OUT_DIR, o->model);
    if (!st && o->report && sm2c_report_in_out(o->report, o->out))
        st = sm2c_out_path_check(c, "--report", o->report, SM2C_OUT_FILE_IN_OUT, o->model);
    else if (!st && o->report)
        st = sm2c_out_path_check(c, "--report", o->report, SM2C_OUT_FILE, o->model);
    if (!st && o->state_out)
        st = sm2c_out_path_check(c, "--state-out", o->state_out, SM2C_OUT_DIR, o->model);
    if (!st)
        st = distinct(c, out_opt, o->out, "--report", o->report);
    if (!st)
        st = distinct(c, out_opt, o->out, "--state-out", o->state_out);
    return st;
}

/* The directory part of `path` without trailing slashes ("." for none). */
static size_t dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    while (n > 1 && path[n - 1] == '/')
        n--;
    return slash && n == 0 ? 1 : n;
}

int sm2c_report_in_out(const char *report, const char *out)
{
    if (!report || !out)
        return 0;
    size_t n = dir_len(report), m = strlen(out);
    while (m > 1 && out[m - 1] == '/')
        m--;
    if (n == m && !strncmp(report, out, n))
        return 1;
    struct stat a, b;
    char *d = n ? strndup(report, n) : strdup(".");
    int same = d && stat(d, &a) == 0 && stat(out, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    free(d);
    return same;
}

sm2c_status sm2c_report_file_stage(sm2c_ctx *c, sm2c_report_file *r)
{
    size_t n = dir_len(r->path);
    const char *dir = strchr(r->path, '/') ? sm2c_arena_strndup(c->arena, r->path, n) : ".";
    char *tmp = sm2c_arena_printf(c->arena, "%s/.sm2c-report-XXXXXX", dir);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, r->path, NULL, "cannot write: %s", strerror(errno));
    mode_t mask = umask(0);     /* the mode fopen would have given */
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
    int bad = sm2c_write_all(fd, r->data, r->len), err = errno;
    if (close(fd) != 0 && !bad)
        bad = 1, err = errno;
    if (bad) {
        unlink(tmp);
        return sm2c_error(c->diag, SM2C_ERR_INVALID, r->path, NULL, "cannot write: %s", strerror(err));
    }
    r->tmp = tmp;
    return SM2C_OK;
}

sm2c_status sm2c_report_file_commit(sm2c_ctx *c, sm2c_report_file *r)
{
    sm2c_status st = r->tmp ? SM2C_OK : sm2c_report_file_stage(c, r);
    if (st)
        return st;
    if (rename(r->tmp, r->path) != 0) {
        int err = errno;
        sm2c_report_file_discard(r);
        return sm2c_error(c->diag, SM2C_ERR_INVALID, r->path, NULL, "cannot rename into place: %s", strerror(err));
    }
    r->tmp = NULL;
    return SM2C_OK;
}

void sm2c_report_file_discard(sm2c_report_file *r)
{
    if (r->tmp)
        unlink(r->tmp);
    r->tmp = NULL;
}
