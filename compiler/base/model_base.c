/*
** model_base.c: the directory name a SavedModel's default --name comes from
** (model_base.h).  The CLI, `sm2c run` and the Python package (_model_base)
** all derive it this way; CMake's default name is its target's.
*/
#define _POSIX_C_SOURCE 200809L   /* getcwd */
#include "model_base.h"

#include <string.h>
#include <unistd.h>

#include "fileio.h"

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

/* The absolute form of dir with "", "." and ".." components resolved
** textually; NULL when the working directory is unknown. */
static char *absolute(sm2c_arena *a, const char *dir)
{
    char cwd[4096];
    const char *full = dir;
    if (dir[0] != '/') {
        if (!getcwd(cwd, sizeof cwd))
            return NULL;
        full = sm2c_arena_printf(a, "%s/%s", cwd, dir);
    }
    size_t n = strlen(full);
    char *out = sm2c_arena_alloc(a, n + 2), *o = out;
    *o = 0;
    for (const char *p = full; *p;) {
        while (*p == '/')
            p++;
        size_t len = strcspn(p, "/");
        if (len == 0 || (len == 1 && p[0] == '.')) {
            /* nothing */
        } else if (len == 2 && p[0] == '.' && p[1] == '.') {
            while (o > out && *--o != '/')
                ;
            *o = 0;
        } else {
            *o++ = '/';
            memcpy(o, p, len);
            o += len;
            *o = 0;
        }
        p += len;
    }
    return out;
}

const char *sm2c_model_base(sm2c_arena *a, const char *dir)
{
    char *abs = absolute(a, dir);
    if (!abs || !*abs)
        return sm2c_path_base(a, dir);   /* no working directory, or "/" */
    char *slash = strrchr(abs, '/');
    if (!all_digits(slash + 1) || slash == abs)
        return slash + 1;                /* "/1" has no parent to name it */
    *slash = 0;
    return strrchr(abs, '/') + 1;
}
