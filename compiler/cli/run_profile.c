/*
** run_profile.c: `sm2c run --profile` (run_hooks.h): the driver's hook that
** times each step, and the medians sm2c reads back from it.
*/
#define _POSIX_C_SOURCE 200809L   /* AT_FDCWD */
#include "run_hooks.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"

/* The hook (the prototype NAME.h declares), timing with CLOCK_MONOTONIC.
** Times of one step within one call add up (a loop's iterations); calls
** after sm2c_run_hook_done (the _r and context checks) are not timed. */
static const char hook_source[] =
    "/* sm2c run --profile / --dump-intermediates: the step hook (model.h) */\n"
    "#define _POSIX_C_SOURCE 199309L\n"
    "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <time.h>\n\n"
    "#define HOOK_STEPS %d\n#define HOOK_CALLS %lldL\n#define HOOK_DUMP %d\n"
    "static double *hook_ns;\nstatic long hook_call = -1;\nstatic struct timespec hook_t0;\n"
    "static char hook_dir[4096];\n\n"
    "void sm2c_run_hook(const char *entry, int32_t step, const char *kernel, const char *node,\n"
    "                   int32_t end, const void *output, int64_t output_bytes)\n{\n"
    "    struct timespec t;\n    (void)entry, (void)kernel, (void)node;\n"
    "    if (hook_call < 0 || step < 0 || step >= HOOK_STEPS)\n        return;\n"
    "    clock_gettime(CLOCK_MONOTONIC, &t);\n"
    "    if (!end) {\n        hook_t0 = t;\n        return;\n    }\n"
    "    hook_ns[hook_call * HOOK_STEPS + step] += (double)(t.tv_sec - hook_t0.tv_sec) * 1e9 +\n"
    "                                             (double)(t.tv_nsec - hook_t0.tv_nsec);\n"
    "    if (HOOK_DUMP && output && hook_call == HOOK_CALLS - 1) {\n"
    "        char path[4200];\n        FILE *f;\n"
    "        snprintf(path, sizeof path, \"%%s/step%%d.raw\", hook_dir, (int)step);\n"
    "        f = fopen(path, \"wb\");\n"
    "        if (!f || fwrite(output, 1, (size_t)output_bytes, f) != (size_t)output_bytes || fclose(f)) {\n"
    "            fprintf(stderr, \"driver: cannot write %%s\\n\", path);\n            exit(2);\n        }\n    }\n}\n\n"
    "static void sm2c_run_hook_start(const char *argv0)\n{\n"
    "    const char *slash = strrchr(argv0, '/');\n"
    "    size_t n = slash ? (size_t)(slash - argv0) : 1;\n"
    "    if (n >= sizeof hook_dir) { fprintf(stderr, \"driver: path too long\\n\"); exit(2); }\n"
    "    memcpy(hook_dir, slash ? argv0 : \".\", n);\n    hook_dir[n] = 0;\n"
    "    hook_ns = calloc((size_t)HOOK_CALLS * HOOK_STEPS + 1, sizeof *hook_ns);\n"
    "    if (!hook_ns) { fprintf(stderr, \"driver: out of memory\\n\"); exit(2); }\n}\n\n"
    "static void sm2c_run_hook_call(long r)\n{\n    hook_call = r;\n}\n\n"
    "static void sm2c_run_hook_done(void)\n{\n"
    "    char path[4200];\n    FILE *f;\n    size_t n = (size_t)HOOK_CALLS * HOOK_STEPS;\n"
    "    hook_call = -1;\n"
    "    snprintf(path, sizeof path, \"%%s/prof.raw\", hook_dir);\n    f = fopen(path, \"wb\");\n"
    "    if (!f || (n && fwrite(hook_ns, sizeof *hook_ns, n, f) != n) || fclose(f)) {\n"
    "        fprintf(stderr, \"driver: cannot write %%s\\n\", path);\n        exit(2);\n    }\n"
    "    free(hook_ns);\n}\n\n";

const char *sm2c_run_hook_source(sm2c_ctx *c, const sm2c_entry *e, int64_t repeat, int dump)
{
    return sm2c_arena_printf(c->arena, hook_source, (int)e->n_steps, (long long)repeat, dump ? 1 : 0);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of n values (sorted in place); the mean of the middle two for even n. */
static double median(double *v, int64_t n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

sm2c_status sm2c_run_read_profile(sm2c_ctx *c, const char *dir, const sm2c_entry *e, int64_t repeat, int32_t rows,
                                  sm2c_run_profile *out)
{
    const char *path = sm2c_arena_printf(c->arena, "%s/prof.raw", dir);
    sm2c_buf raw;
    sm2c_status st = sm2c_read_file(c, AT_FDCWD, path, path, INT64_MAX, &raw);
    if (st)
        return st;
    size_t want = (size_t)repeat * (size_t)e->n_steps * sizeof(double);
    if (raw.len != want)
        return sm2c_error(c->diag, SM2C_ERR_INTERNAL, path, NULL, "holds %zu bytes, not %zu", raw.len, want);
    double *all = sm2c_arena_array(c->arena, want / sizeof(double) + 1, sizeof *all);
    double *one = sm2c_arena_array(c->arena, (size_t)repeat + 1, sizeof *one);
    double *us = sm2c_arena_array(c->arena, (size_t)e->n_steps + 1, sizeof *us);
    memcpy(all, raw.data, want);
    for (int32_t s = 0; s < e->n_steps; s++) {
        for (int64_t r = 0; r < repeat; r++)
            one[r] = all[r * e->n_steps + s];
        us[s] = e->steps[s].control ? -1.0 : median(one, repeat) / 1e3;
    }
    out->step_us = us;
    out->calls = repeat;
    out->rows = rows > 0 ? rows : 1;
    return SM2C_OK;
}
