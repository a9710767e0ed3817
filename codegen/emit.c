/*
** emit.c: the output forms (emit.h).  LLVM outputs are made in a private
** temporary directory and published with the header through the C backend's
** safe publishing step, so a failure leaves the output directory as it was.
*/
#define _GNU_SOURCE
#include "emit.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "emit_c.h"
#include "base/fileio.h"
#include "base/toolchain.h"
#include "lower/split.h"

#define SM2C_EMIT_NAME(kind, name, ext, llvm) name,
#define SM2C_EMIT_EXT(kind, name, ext, llvm) ext,
#define SM2C_EMIT_LLVM(kind, name, ext, llvm) llvm,
static const char *const emit_names[] = { SM2C_EMIT_KINDS(SM2C_EMIT_NAME) };
static const char *const emit_exts[] = { SM2C_EMIT_KINDS(SM2C_EMIT_EXT) };
static const sm2c_llvm_kind emit_llvm_forms[] = { SM2C_EMIT_KINDS(SM2C_EMIT_LLVM) };
#undef SM2C_EMIT_NAME
#undef SM2C_EMIT_EXT
#undef SM2C_EMIT_LLVM
_Static_assert(sizeof emit_names / sizeof emit_names[0] == SM2C_EMIT_N_KINDS, "one name per kind");

int sm2c_emit_kind_parse(const char *s, sm2c_emit_kind *out)
{
    for (int i = 0; i < SM2C_EMIT_N_KINDS; i++)
        if (strcmp(s, emit_names[i]) == 0)
            return *out = (sm2c_emit_kind)i, 1;
    return 0;
}

const char *sm2c_emit_kind_extension(sm2c_emit_kind kind)
{
    return emit_exts[kind];
}

/* Publish header + `file` from `dir` (+ the runtime sources when asked). */
static sm2c_status publish_with(sm2c_ctx *c, const sm2c_program *p, const char *dir,
                                const char *file, int with_runtime, const char *outdir)
{
    const char *path = sm2c_path_join(c->arena, dir, file);
    sm2c_buf data;
    sm2c_status st = sm2c_read_file(c, AT_FDCWD, path, path, INT64_MAX, &data);
    if (st)
        return st;
    sm2c_extra_file extra = { file, data.data, data.len };
    return sm2c_emit_c_files(c, p, outdir, 0, with_runtime, &extra, 1);
}

/* Compile each runtime source in dir for a shared object, several at once. */
static sm2c_status compile_runtime(sm2c_ctx *c, const char *dir, const char *cc)
{
    int n;
    char **files = sm2c_list_files(c, dir, ".c", &n);
    char ***jobs = sm2c_arena_array(c->arena, (size_t)n + 1, sizeof *jobs);
    for (int i = 0; i < n; i++) {
        int k;
        char **argv = jobs[i] = sm2c_cc_argv(c, cc, 12, &k);
        argv[k++] = "-std=c99";
        argv[k++] = "-O2";
        argv[k++] = "-fPIC";
        argv[k++] = "-ffp-contract=off";
        argv[k++] = sm2c_arena_printf(c->arena, "-I%s", dir);
        argv[k++] = "-c";
        argv[k++] = (char *)sm2c_path_join(c->arena, dir, files[i]);
        argv[k++] = "-o";
        argv[k++] = sm2c_arena_printf(c->arena, "%s/%s.rt.o", dir, files[i]);
        argv[k] = NULL;
    }
    int cpus = sm2c_cpu_count();
    return sm2c_spawn_all(c, jobs, n, cpus < n ? cpus : n, "compiling the runtime for the shared object");
}

/* name.o + runtime objects -> name.so exporting only name_* and the pool (a version script). */
static sm2c_status link_shared(sm2c_ctx *c, const sm2c_program *p, const char *dir, const char *cc)
{
    const char *map = sm2c_path_join(c->arena, dir, "exports.map");
    FILE *f = fopen(map, "w");
    /* The runtime's pool too, when a step splits (NAME.h declares it). */
    const char *pool = sm2c_program_any_split(p) ? " sm2c_rt_pool_*;" : "";
    if (!f || fprintf(f, "{\n  global: %s_*;%s\n  local: *;\n};\n", p->name, pool) < 0 || fclose(f) != 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, map, NULL, "cannot write the version script");
    int n, k;
    char **objs = sm2c_list_files(c, dir, ".rt.o", &n);
    char **argv = sm2c_cc_argv(c, cc, n + 12, &k);
    argv[k++] = "-shared";
    argv[k++] = "-o";
    argv[k++] = sm2c_arena_printf(c->arena, "%s/%s.%s", dir, p->name, emit_exts[SM2C_EMIT_SO]);
    argv[k++] = sm2c_arena_printf(c->arena, "%s/%s.%s", dir, p->name, emit_exts[SM2C_EMIT_OBJ]);
    for (int i = 0; i < n; i++)
        argv[k++] = (char *)sm2c_path_join(c->arena, dir, objs[i]);
    argv[k++] = "-lm";
    argv[k++] = sm2c_arena_printf(c->arena, "-Wl,--version-script=%s", map);
    argv[k] = NULL;
    return sm2c_spawn(c, argv, "linking the shared object");
}

static sm2c_status emit_llvm_form(sm2c_ctx *c, const sm2c_program *p, sm2c_emit_kind kind,
                                  const sm2c_target *t, const char *cc, const char *dir,
                                  const char *outdir)
{
    /* Shared objects need PIC; so do host objects, which today's toolchains
    ** link into position-independent executables by default.  Cross objects
    ** (microcontrollers) keep the target's default, static code. */
    sm2c_llvm_opts opts = { .target = *t, .pic = kind == SM2C_EMIT_SO || !t->triple || !t->triple[0] };
    const char *obj = sm2c_arena_printf(c->arena, "%s.%s", p->name,
                                        emit_exts[kind == SM2C_EMIT_SO ? SM2C_EMIT_OBJ : kind]);
    /* A shared object is built from the header and runtime sources in the
    ** private dir, written first (an output goes into an empty directory). */
    sm2c_status st = kind == SM2C_EMIT_SO ? sm2c_emit_c_files(c, p, dir, 0, 1, NULL, 0) : SM2C_OK;
    if (!st)
        st = sm2c_emit_llvm(c, p, &opts, emit_llvm_forms[kind], sm2c_path_join(c->arena, dir, obj));
    if (st)
        return st;
    if (kind != SM2C_EMIT_SO)
        return publish_with(c, p, dir, obj, 1, outdir);
    if ((st = compile_runtime(c, dir, cc)) || (st = link_shared(c, p, dir, cc)))
        return st;
    return publish_with(c, p, dir, sm2c_arena_printf(c->arena, "%s.%s", p->name, emit_exts[kind]), 0,
                       outdir);
}

sm2c_status sm2c_emit(sm2c_ctx *c, const sm2c_program *p, sm2c_emit_kind kind,
                      const sm2c_target *t, const char *cc, const char *outdir)
{
    if (kind == SM2C_EMIT_C)
        return sm2c_emit_c(c, p, outdir);
    if (p->profile)
        return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL, "--profile: the profiling hooks are the C "
                          "backend's only; use --emit c (and build with -DNAME_PROFILE=hook, NAME.h)");
    if (kind == SM2C_EMIT_SO && !sm2c_target_has_shared_objects(t))
        return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, NULL, "--emit so: a bare-metal target (%s) has no "
                          "shared objects (use --emit obj, or c)", t->triple ? t->triple : t->cpu);
    char *dir = sm2c_tmpdir(c, "sm2c-emit");
    if (!dir)
        return SM2C_ERR_INVALID;
    sm2c_status st = emit_llvm_form(c, p, kind, t, cc, dir, outdir);
    sm2c_rmtree(dir);
    return st;
}
