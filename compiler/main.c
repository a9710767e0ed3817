/*
** main.c: the sm2c command line, a thin layer over the library.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "inspect.h"

static const char usage[] =
    "usage: sm2c <command> [options]\n"
    "\n"
    "Compile a TensorFlow SavedModel to standalone C.\n"
    "\n"
    "commands:\n"
    "  inspect DIR [--tag_set TAGS] [--json] [--max-values N]\n"
    "        show what is inside: tags, signatures, concrete functions, variables\n"
    "        and their checkpoint keys, checkpoint entries (values of tensors with\n"
    "        at most N elements, default 16), reachable ops and which of them sm2c\n"
    "        cannot compile yet\n"
    "\n"
    "options for every command:\n"
    "  --limit NAME=VALUE   raise or lower a resource limit (see --help-limits)\n"
    "  --help, -h           this text\n"
    "  --version            the version\n"
    "\n"
    "exit status: 0 ok, 1 invalid input, 2 usage, 3 unsupported feature,\n"
    "             4 resource limit exceeded, 5 internal error\n";

typedef struct cli {
    const char *command;
    const char *dir;
    sm2c_inspect_opts inspect;
    sm2c_limits limits;
} cli;

static int usage_error(const char *fmt, const char *arg)
{
    fputs("sm2c: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (sm2c --help shows the usage)\n", stderr);
    return SM2C_ERR_USAGE;
}

static void print_limits(void)
{
    sm2c_limits l;
    sm2c_limits_default(&l);
    const int64_t values[] = {
        l.model_bytes, l.nesting_depth, l.decoded_bytes, l.graph_nodes, l.functions, l.call_depth, l.rank,
        l.elements, l.const_bytes, l.list_length, l.name_length, l.shards, l.block_bytes, l.file_bytes,
    };
    puts("resource limits (--limit NAME=VALUE):");
    for (size_t i = 0; sm2c_limit_names[i]; i++)
        printf("  %-14s %lld\n", sm2c_limit_names[i], (long long)values[i]);
}

static int parse_int(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < 0)
        return 0;
    *out = v;
    return 1;
}

static int parse_limit(cli *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    int64_t v;
    if (!eq || !parse_int(eq + 1, &v))
        return usage_error("--limit expects NAME=VALUE, got '%s'", arg);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
    if (!sm2c_limits_set(&o->limits, name, v))
        return usage_error("unknown limit '%s' (sm2c --help-limits lists them)", name);
    return 0;
}

/* Options that take a value; returns 1 when it consumed argv[*i + 1]. */
static int parse_option(cli *o, int argc, char **argv, int *i, int *err)
{
    const char *a = argv[*i];
    const char *next = *i + 1 < argc ? argv[*i + 1] : NULL;
    int64_t v;
    if (strcmp(a, "--json") == 0) {
        o->inspect.json = 1;
        return 0;
    }
    if (strcmp(a, "--tag_set") && strcmp(a, "--tag-set") && strcmp(a, "--limit") &&
        strcmp(a, "--max-values")) {
        *err = usage_error("unknown option '%s'", a);
        return 0;
    }
    if (!next) {
        *err = usage_error("%s needs a value", a);
        return 0;
    }
    ++*i;
    if (strcmp(a, "--limit") == 0)
        *err = parse_limit(o, next);
    else if (strcmp(a, "--max-values") == 0 && (!parse_int(next, &v) || v > 1000000))
        *err = usage_error("--max-values expects a count, got '%s'", next);
    else if (strcmp(a, "--max-values") == 0)
        o->inspect.max_values = (int)v;
    else
        o->inspect.tag_set = next;
    return 1;
}

static int parse_args(cli *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int err = 0;
        if (a[0] == '-' && a[1]) {
            parse_option(o, argc, argv, &i, &err);
            if (err)
                return err;
        } else if (!o->command) {
            o->command = a;
        } else if (!o->dir) {
            o->dir = a;
        } else {
            return usage_error("unexpected argument '%s'", a);
        }
    }
    if (!o->command)
        return usage_error("%s", "no command given");
    if (strcmp(o->command, "inspect") != 0)
        return usage_error("unknown command '%s'", o->command);
    if (!o->dir)
        return usage_error("%s needs a SavedModel directory", o->command);
    return 0;
}

static int run_inspect(cli *o)
{
    sm2c_diag diag;
    sm2c_diag_init(&diag);
    sm2c_ctx c = { sm2c_arena_new(), &diag, &o->limits };
    sm2c_status st = sm2c_inspect(&c, o->dir, &o->inspect, stdout);
    sm2c_arena_free(c.arena);
    if (fflush(stdout) != 0 && !st) {
        fprintf(stderr, "sm2c: error: cannot write the report: %s\n", strerror(errno));
        return SM2C_ERR_INVALID;
    }
    return st;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--help-limits") == 0) {
            print_limits();
            return 0;
        }
        if (strcmp(argv[i], "--version") == 0) {
            puts("sm2c " SM2C_VERSION);
            return 0;
        }
    }
    cli o = { 0 };
    o.inspect.max_values = 16;
    sm2c_limits_default(&o.limits);
    int err = parse_args(&o, argc, argv);
    if (err)
        return err;
    return run_inspect(&o);
}
