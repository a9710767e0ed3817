/*
** rt_select.c: exactly the runtime files a program needs.
**
** The kernel map (rt_embed.h, made at build time by cmake/runtime_map.py) says
** for every kernel which file defines it, which headers that file includes and
** which kernels it calls.  A kernel of a family gets its own small file that
** compiles only it (runtime/rt_select.h), so the output holds no code the
** program does not call.
*/
#include "rt_select.h"

#include <stdlib.h>
#include <string.h>

#include "rt_embed.h"
#include "lower/split.h"

static int by_name(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const sm2c_rt_kernel *)elem)->name);
}

static const sm2c_rt_kernel *find_kernel(const char *name)
{
    return bsearch(name, sm2c_rt_kernels, sm2c_rt_kernel_count, sizeof sm2c_rt_kernels[0], by_name);
}

int sm2c_runtime_has_kernel(const char *name)
{
    return find_kernel(name) != NULL;
}

static int32_t file_index(const char *name)
{
    for (size_t i = 0; i < sm2c_embedded_runtime_count; i++)
        if (strcmp(sm2c_embedded_runtime[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}

/* Marks kernel k and, through a worklist, every kernel it calls. */
static void mark_calls(size_t k, unsigned char *used, size_t *work)
{
    size_t top = 0;
    used[k] = 1;
    work[top++] = k;
    while (top > 0) {
        const sm2c_rt_kernel *kr = &sm2c_rt_kernels[work[--top]];
        for (const int16_t *q = kr->calls; *q >= 0; q++)
            if (!used[*q]) {
                used[*q] = 1;
                work[top++] = (size_t)*q;
            }
    }
}

sm2c_status sm2c_runtime_select(sm2c_ctx *c, const char *const *kernels, size_t n, sm2c_outfile **files,
                           size_t *nfiles)
{
    size_t nk = sm2c_rt_kernel_count, nf = sm2c_embedded_runtime_count;
    unsigned char *used = sm2c_arena_array(c->arena, nk + 1, 1);
    unsigned char *need = sm2c_arena_array(c->arena, nf + 1, 1);
    size_t *work = sm2c_arena_array(c->arena, nk + 1, sizeof *work);
    for (size_t i = 0; i < n; i++) {
        const sm2c_rt_kernel *k = find_kernel(kernels[i]);
        if (!k)
            return sm2c_error(c->diag, SM2C_ERR_INTERNAL, kernels[i], NULL,
                              "the program calls a kernel no runtime file defines");
        mark_calls((size_t)(k - sm2c_rt_kernels), used, work);
    }
    int32_t header = file_index("sm2c_rt.h");  /* the generated code includes it */
    if (header >= 0)
        need[header] = 1;
    for (size_t k = 0; k < nk; k++)
        for (const int16_t *q = sm2c_rt_kernels[k].needs; used[k] && *q >= 0; q++)
            need[*q] = 1;
    sm2c_outfile *out = sm2c_arena_array(c->arena, nf + nk + 1, sizeof *out);
    size_t m = 0;
    for (size_t i = 0; i < nf; i++)
        if (need[i])
            out[m++] = (sm2c_outfile){ sm2c_embedded_runtime[i].name, (const char *)sm2c_embedded_runtime[i].data,
                                       sm2c_embedded_runtime[i].len };
    for (size_t k = 0; k < nk; k++)
        if (used[k] && sm2c_rt_kernels[k].wrapper)
            out[m++] = (sm2c_outfile){ sm2c_arena_printf(c->arena, "%s.c", sm2c_rt_kernels[k].name),
                                       (const char *)sm2c_rt_kernels[k].wrapper, sm2c_rt_kernels[k].wrapper_len };
    *files = out;
    *nfiles = m;
    return SM2C_OK;
}

/* v[0..n) plus `name` when it is not there yet. */
static size_t add_kernel(const char **v, size_t n, const char *name)
{
    size_t i = 0;
    while (i < n && strcmp(v[i], name) != 0)
        i++;
    if (i == n)
        v[n++] = name;
    return n;
}

size_t sm2c_program_kernels(sm2c_ctx *c, const sm2c_program *p, const char ***out)
{
    size_t cap = 2, n = 0;
    for (int32_t k = 0; k < p->n_entries; k++)
        cap += 2 * (size_t)p->entries[k].n_steps + 2;
    const char **v = sm2c_arena_array(c->arena, cap, sizeof *v);
    for (int32_t k = 0; k < p->n_entries; k++)
        for (int32_t s = 0; s < p->entries[k].n_steps; s++) {
            const sm2c_step *st = &p->entries[k].steps[s];
            if (st->control)
                continue;
            n = add_kernel(v, n, st->kernel);
            if (st->max_tasks > 1)  /* the context entry's call */
                n = add_kernel(v, n, sm2c_arena_printf(c->arena, "%s_par", st->kernel));
        }
    /* init and reset copy every state variable from its initial value, even
    ** when no step copies (a stateful random op's generator, say). */
    if (p->n_states)
        n = add_kernel(v, n, "sm2c_rt_copy");
    /* The pthread pool for callers without one of their own (POSIX only: the
    ** file compiles to nothing elsewhere). */
    if (sm2c_program_any_split(p)) {
        n = add_kernel(v, n, "sm2c_rt_pool_create");
        n = add_kernel(v, n, "sm2c_rt_pool_parallel_for");
    }
    *out = v;
    return n;
}

sm2c_status sm2c_runtime_list(sm2c_ctx *c, FILE *out)
{
    for (size_t k = 0; k < sm2c_rt_kernel_count; k++) {
        sm2c_outfile *files = NULL;
        size_t n = 0;
        const char *name = sm2c_rt_kernels[k].name;
        sm2c_status st = sm2c_runtime_select(c, &name, 1, &files, &n);
        if (st)
            return st;
        fprintf(out, "%s:", name);
        for (size_t i = 0; i < n; i++)
            fprintf(out, " %s", files[i].name);
        fputc('\n', out);
    }
    return SM2C_OK;
}

size_t sm2c_runtime_all_files(sm2c_ctx *c, sm2c_outfile **files)
{
    size_t n = sm2c_embedded_runtime_count;
    sm2c_outfile *out = sm2c_arena_array(c->arena, n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++) {
        const sm2c_embedded_file *f = &sm2c_embedded_runtime[i];
        const char *name = f->name;
        if (f->family)  /* NAME.inc as the source it is, defining every kernel */
            name = sm2c_arena_printf(c->arena, "%.*s.c", (int)(strlen(name) - 4), name);
        out[i] = (sm2c_outfile){ name, (const char *)f->data, f->len };
    }
    *files = out;
    return n;
}
