/*
** run_objects.c: the runtime's objects of `sm2c run` (run_objects.h).  A
** source whose includes cannot all be found in the build directory gets no
** key: it is compiled every time, which is slower but never stale.
*/
#define _GNU_SOURCE
#include "run_objects.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>

#include "base/fileio.h"
#include "base/toolchain.h"
#include "run_cache.h"

#define MAX_FILES 64   /* a source and its headers; the runtime's reach about 12 */

typedef struct file_set {
    const char *names[MAX_FILES];
    int n;
} file_set;

/* The name in a line `#include "name"`, else NULL. */
static const char *quoted_include(sm2c_ctx *c, const char *line)
{
    line += strspn(line, " \t");
    if (*line++ != '#')
        return NULL;
    line += strspn(line, " \t");
    if (strncmp(line, "include", 7))
        return NULL;
    line += 7;
    line += strspn(line, " \t");
    if (*line++ != '"')
        return NULL;
    size_t len = strcspn(line, "\"\n");
    return line[len] == '"' ? sm2c_arena_strndup(c->arena, line, len) : NULL;
}

/* Adds `name` of `dir` to the digest and then, depth first, every file it
** includes (those inside #if too: more than it reads, never less).  0 when one
** of them is not a file of `dir`. */
static int digest_file(sm2c_ctx *c, const char *dir, const char *name, file_set *seen, sm2c_sha256 *s)
{
    for (int i = 0; i < seen->n; i++)
        if (!strcmp(seen->names[i], name))
            return 1;
    if (seen->n == MAX_FILES || strchr(name, '/'))
        return 0;
    seen->names[seen->n++] = name;
    const char *path = sm2c_path_join(c->arena, dir, name);
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(c, &quiet);
    sm2c_buf b;
    if (sm2c_read_file(&qc, AT_FDCWD, path, path, INT64_MAX, &b))
        return 0;
    uint64_t len = b.len;
    sm2c_sha256_update(s, name, strlen(name) + 1);
    sm2c_sha256_update(s, &len, sizeof len);
    sm2c_sha256_update(s, b.data, b.len);
    for (const char *line = (const char *)b.data; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *inc = quoted_include(c, line);
        if (inc && !digest_file(c, dir, inc, seen, s))
            return 0;
    }
    return 1;
}

/* The object's key, or NULL when it has none. */
static char *object_key(sm2c_ctx *c, const char *dir, const char *source, const char *how)
{
    sm2c_sha256 s;
    file_set seen = { .n = 0 };
    sm2c_run_cache_seed(&s, how);
    if (!digest_file(c, dir, source, &seen, &s))
        return NULL;
    char *key = sm2c_arena_alloc(c->arena, 65);
    sm2c_sha256_hex(&s, key);
    return key;
}

/* cc ... -c dir/source -o obj */
static char **compile_argv(sm2c_ctx *c, char **cc, int n_cc, const char *dir, const char *source, const char *obj)
{
    char **argv = sm2c_arena_array(c->arena, (size_t)n_cc + 5, sizeof *argv);
    memcpy(argv, cc, (size_t)n_cc * sizeof *argv);
    argv[n_cc] = "-c";
    argv[n_cc + 1] = (char *)sm2c_path_join(c->arena, dir, source);
    argv[n_cc + 2] = "-o";
    argv[n_cc + 3] = (char *)obj;
    argv[n_cc + 4] = NULL;
    return argv;
}

sm2c_status sm2c_run_objects(sm2c_ctx *c, const char *dir, char **sources, int n, char **cc, int n_cc,
                             const char *how, const char *cache, char **objs)
{
    char ***jobs = sm2c_arena_array(c->arena, (size_t)n + 1, sizeof *jobs);
    char **keys = sm2c_arena_array(c->arena, (size_t)n + 1, sizeof *keys);
    int n_jobs = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(sources[i]);
        objs[i] = sm2c_arena_printf(c->arena, "%s/%.*s.o", dir, (int)(len - 2), sources[i]);
        keys[i] = cache ? object_key(c, dir, sources[i], how) : NULL;
        if (!keys[i] || !sm2c_run_cache_fetch(c, cache, SM2C_RUN_CACHE_OBJECT, keys[i], objs[i]))
            jobs[n_jobs++] = compile_argv(c, cc, n_cc, dir, sources[i], objs[i]);
        else
            keys[i] = NULL;   /* fetched: nothing to store */
    }
    int cpus = sm2c_cpu_count();
    sm2c_status st = sm2c_spawn_all(c, jobs, n_jobs, cpus < n_jobs ? cpus : n_jobs, "building the generated code");
    for (int i = 0; i < n && !st; i++)
        if (keys[i])
            sm2c_run_cache_store(c, cache, SM2C_RUN_CACHE_OBJECT, keys[i], objs[i]);
    return st;
}
