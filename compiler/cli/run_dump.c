/*
** run_dump.c: `sm2c run --dump-intermediates DIR` (run_hooks.h).  The
** driver's hook saved each step's output as raw bytes (stepN.raw in the
** build directory, the last call's); here they become DIR/<node>.npy, named
** by the TensorFlow node whose value the step computes, and DIR/index.json
** maps step -> node -> file.
*/
#define _POSIX_C_SOURCE 200809L   /* open_memstream, access */
#include "run_hooks.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/publish.h"
#include "cli/json.h"
#include "npy.h"

/* A node name as a file name: [A-Za-z0-9._-] kept, '/' as "__", anything
** else '_', never starting with '.', at most 200 bytes. */
static const char *node_file_base(sm2c_ctx *c, const char *node)
{
    size_t n = strlen(node);
    char *s = sm2c_arena_alloc(c->arena, 2 * n + 2), *q = s;
    if (*node == '.' || !*node)
        *q++ = '_';
    for (const char *p = node; *p && q - s < 200; p++) {
        char ch = *p;
        if (ch == '/') {
            *q++ = '_';
            *q++ = '_';
        } else {
            int keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                       ch == '.' || ch == '_' || ch == '-';
            *q++ = keep ? ch : '_';
        }
    }
    *q = 0;
    return s;
}

/* "<base>.npy", or "<base>_<k>.npy" when an earlier file has that name. */
static const char *unique_name(sm2c_ctx *c, const char *base, const sm2c_outfile *files, int32_t n)
{
    const char *name = sm2c_arena_printf(c->arena, "%s.npy", base);
    for (int k = 1;; k++) {
        int clash = 0;
        for (int32_t j = 0; j < n && !clash; j++)
            clash = strcmp(files[j].name, name) == 0;
        if (!clash)
            return name;
        name = sm2c_arena_printf(c->arena, "%s_%d.npy", base, k);
    }
}

/* Step s's output as a .npy file, from the raw bytes the hook saved. */
static sm2c_status step_file(sm2c_ctx *c, const char *dir, const sm2c_entry *e, int32_t s, int32_t b,
                             const char *outdir, sm2c_outfile *f)
{
    const sm2c_buffer *buf = &e->buffers[b];
    const char *path = sm2c_arena_printf(c->arena, "%s/step%d.raw", dir, (int)s);
    sm2c_buf raw;
    sm2c_status st = sm2c_read_file(c, AT_FDCWD, path, path, INT64_MAX, &raw);
    if (st)
        return st;
    sm2c_tensor t = { .dtype = sm2c_dtype_base(buf->dtype), .shape = buf->shape,
                      .nelem = sm2c_shape_elements(&buf->shape, INT64_MAX), .nbytes = raw.len, .data = raw.data };
    if ((int64_t)raw.len != buf->nbytes)
        return sm2c_error(c->diag, SM2C_ERR_INTERNAL, path, e->steps[s].node, "holds %zu bytes, not the %lld of "
                          "the step's output", raw.len, (long long)buf->nbytes);
    sm2c_buf npy;
    if ((st = sm2c_npy_encode(c, sm2c_path_join(c->arena, outdir, f->name), &t, &npy)))
        return st;
    f->data = (const char *)npy.data;
    f->len = npy.len;
    return SM2C_OK;
}

/* 1 when step s wrote a buffer whose bytes the hook saved: a kernel step with
** an output that is no string (strings point into the workspace). */
static int dumped(const sm2c_entry *e, int32_t s, int32_t *b)
{
    *b = sm2c_step_output(e, s);
    return *b >= 0 && sm2c_dtype_base(e->buffers[*b].dtype) != SM2C_DT_STRING;
}

static void index_step(sm2c_json *j, const sm2c_entry *e, int32_t s, int32_t b, const char *file)
{
    const sm2c_step *st = &e->steps[s];
    sm2c_json_object(j);
    sm2c_json_field_int(j, "step", s);
    sm2c_json_key(j, "node");   /* null for a helper step of its node */
    if (sm2c_step_writes_value(e, s))
        sm2c_json_str(j, sm2c_step_value_node(st));
    else
        sm2c_json_null(j);
    sm2c_json_field_str(j, "step_node", st->node ? st->node : "");
    sm2c_json_field_str(j, "op", st->op ? st->op : "");
    sm2c_json_field_str(j, "kernel", st->kernel);
    sm2c_json_key(j, "file");
    if (file)
        sm2c_json_str(j, file);
    else
        sm2c_json_null(j);
    sm2c_json_field_str(j, "dtype", sm2c_dtype_name(e->buffers[b].dtype));
    sm2c_json_key(j, "shape");
    sm2c_json_array(j);
    for (int32_t d = 0; d < e->buffers[b].shape.rank; d++)
        sm2c_json_int(j, e->buffers[b].shape.dims[d]);
    sm2c_json_end(j);
    sm2c_json_end(j);
}

/* index.json: the entry, then per kernel step with an output its node (the
** TensorFlow node whose value it writes; null for a helper step, whose file
** is <node>.stepN.npy), the node it was lowered from, op, kernel, file (null
** when the step did not run: a branch not taken), dtype and shape. */
static sm2c_status write_index(sm2c_ctx *c, const sm2c_entry *e, const char **file_of, sm2c_outfile *f)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, NULL, NULL, "--dump-intermediates: out of memory");
    sm2c_json j;
    sm2c_json_init(&j, m);
    sm2c_json_object(&j);
    sm2c_json_field_str(&j, "entry", e->key);
    sm2c_json_key(&j, "steps");
    sm2c_json_array(&j);
    for (int32_t s = 0, b; s < e->n_steps; s++)
        if (dumped(e, s, &b))
            index_step(&j, e, s, b, file_of[s]);
    sm2c_json_end(&j);
    sm2c_json_end(&j);
    fputc('\n', m);
    fclose(m);
    f->name = "index.json";
    f->data = sm2c_arena_strndup(c->arena, text, len);
    f->len = len;
    free(text);
    return SM2C_OK;
}

sm2c_status sm2c_run_collect_intermediates(sm2c_ctx *c, const char *dir, const sm2c_entry *e, const char *outdir)
{
    sm2c_outfile *files = sm2c_arena_array(c->arena, (size_t)e->n_steps + 2, sizeof *files);
    const char **file_of = sm2c_arena_array(c->arena, (size_t)e->n_steps + 1, sizeof *file_of);
    int32_t n = 0;
    for (int32_t s = 0, b; s < e->n_steps; s++) {
        const char *raw = sm2c_arena_printf(c->arena, "%s/step%d.raw", dir, (int)s);
        if (!dumped(e, s, &b) || access(raw, F_OK) != 0)
            continue;   /* no output, or never ran */
        const char *base = node_file_base(c, sm2c_step_value_node(&e->steps[s]));
        if (!sm2c_step_writes_value(e, s))
            base = sm2c_arena_printf(c->arena, "%s.step%d", base, (int)s);
        files[n].name = unique_name(c, base, files, n);
        sm2c_status st = step_file(c, dir, e, s, b, outdir, &files[n]);
        if (st)
            return st;
        file_of[s] = files[n++].name;
    }
    sm2c_status st = write_index(c, e, file_of, &files[n]);
    return st ? st : sm2c_publish(c, outdir, NULL, files, (size_t)n + 1);
}
