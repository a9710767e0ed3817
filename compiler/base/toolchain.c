/*
** toolchain.c: the system C compiler and linker, driven without a shell.
*/
#define _GNU_SOURCE
#include "toolchain.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *sm2c_cc(const char *cc)
{
    if (cc && cc[0])
        return cc;
    const char *env = getenv("CC");
    return env && env[0] ? env : "cc";
}

char **sm2c_cc_argv(sm2c_ctx *c, const char *cc, int extra, int *n)
{
    char *words = sm2c_arena_strdup(c->arena, sm2c_cc(cc)), *save = NULL;
    int count = 1;
    for (const char *p = words; *p; p++)
        count += *p == ' ';
    char **argv = sm2c_arena_array(c->arena, (size_t)(count + extra + 1), sizeof *argv);
    *n = 0;
    for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
        argv[(*n)++] = w;
    return argv;
}

/* fork and exec argv; the child reports a failed exec and exits 127. */
static pid_t start(char *const *argv, const char *what)
{
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "sm2c: %s: cannot run %s: %s\n", what, argv[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

/* A wait status as a shell gives it: the exit status, or 128 + the signal. */
static int exit_status(int ws)
{
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : 255;
}

sm2c_status sm2c_spawn_status(sm2c_ctx *c, char *const *argv, const char *what, int *status)
{
    fflush(NULL);
    pid_t pid = start(argv, what);
    if (pid < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, NULL, what, "cannot start: %s", strerror(errno));
    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        if (errno != EINTR)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, NULL, what, "wait failed: %s", strerror(errno));
    *status = exit_status(ws);
    return SM2C_OK;
}

sm2c_status sm2c_spawn(sm2c_ctx *c, char *const *argv, const char *what)
{
    int status;
    sm2c_status st = sm2c_spawn_status(c, argv, what, &status);
    if (!st && status != 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, NULL, what, "%s failed (status %d)", argv[0],
                          status > 128 ? -1 : status);
    return st;
}

sm2c_status sm2c_spawn_all(sm2c_ctx *c, char **const *argvs, int n, int jobs, const char *what)
{
    int running = 0, next = 0, status = 0, start_errno = 0;
    const char *failed = NULL;   /* the command of the first failure */
    fflush(NULL);
    while (running || (next < n && !failed)) {
        if (next < n && !failed && running < jobs) {
            if (start(argvs[next], what) < 0)
                start_errno = errno, failed = argvs[next][0];
            else
                running++;
            next++;
            continue;
        }
        int ws;
        if (wait(&ws) < 0) {
            if (errno == EINTR)
                continue;
            return sm2c_error(c->diag, SM2C_ERR_INVALID, NULL, what, "wait failed: %s", strerror(errno));
        }
        running--;
        int st = exit_status(ws);
        if (st && !failed)
            status = st, failed = argvs[0][0];
    }
    if (start_errno)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, NULL, what, "cannot start: %s", strerror(start_errno));
    if (failed)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, NULL, what, "%s failed (status %d)", failed,
                          status > 128 ? -1 : status);
    return SM2C_OK;
}

int sm2c_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

char *sm2c_tmpdir(sm2c_ctx *c, const char *prefix)
{
    const char *tmp = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
    char *dir = sm2c_arena_printf(c->arena, "%s/%s-XXXXXX", tmp, prefix);
    if (!mkdtemp(dir)) {
        sm2c_error(c->diag, SM2C_ERR_INVALID, dir, NULL, "cannot create: %s", strerror(errno));
        return NULL;
    }
    return dir;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

void sm2c_rmtree(const char *dir)
{
    if (dir)
        nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

char **sm2c_list_files(sm2c_ctx *c, const char *dir, const char *suffix, int *count)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, alphasort);
    char **out = sm2c_arena_array(c->arena, n > 0 ? (size_t)n + 1 : 1, sizeof *out);
    *count = 0;
    size_t sl = strlen(suffix);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(ents[i]->d_name);
        if (ents[i]->d_type == DT_REG && len > sl && strcmp(ents[i]->d_name + len - sl, suffix) == 0)
            out[(*count)++] = sm2c_arena_strdup(c->arena, ents[i]->d_name);
        free(ents[i]);
    }
    if (n > 0)
        free(ents);
    out[*count] = NULL;
    return out;
}
