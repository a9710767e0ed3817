/*
** diag.h: status codes, diagnostics and resource limits.
**
** Library code never exits.  It reports one line per problem through a
** sm2c_diag sink and returns a sm2c_status, which the CLI turns into its exit
** code.  Lines read `file: where: error: what is wrong`.
*/
#ifndef SM2C_DIAG_H
#define SM2C_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SM2C_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Also the CLI's exit codes. */
typedef enum sm2c_status {
    SM2C_OK = 0,
    SM2C_ERR_INVALID = 1,     /* the input is malformed or cannot be read */
    SM2C_ERR_USAGE = 2,       /* bad command line */
    SM2C_ERR_UNSUPPORTED = 3, /* valid input using something sm2c does not do */
    SM2C_ERR_LIMIT = 4,       /* a resource limit was exceeded */
    SM2C_ERR_INTERNAL = 5     /* a bug in sm2c */
} sm2c_status;

const char *sm2c_status_name(sm2c_status s);

typedef void (*sm2c_diag_fn)(void *user, const char *line);

typedef struct sm2c_diag {
    sm2c_diag_fn fn;          /* NULL: print to stderr */
    void *user;
    int errors;
    int warnings;
    int quiet_notes;          /* drop notes (tests) */
    int demote;               /* > 0: errors print as warnings and are not counted,
                                 except usage errors (a --shape that contradicts the
                                 model is the user's to fix, never skipped) */
    int corrupt;              /* > 0: reading input data, whose errors other than
                                 "unsupported" are never demoted (corrupt input) */
    sm2c_status first_status;
    char first[2048];         /* the first error line, for tests and callers */
} sm2c_diag;

void sm2c_diag_init(sm2c_diag *d);
/* A sink that drops every line (for trial runs whose failure is not an error). */
void sm2c_diag_discard(void *user, const char *line);

/* src as one diagnostic line in dst[cap]: cut in the middle when too long,
** control characters (a newline from a name or a path) as '?'. */
void sm2c_one_line(char *dst, size_t cap, const char *src);

/* Report an error and return `kind`, so that `return sm2c_error(...)` reads well.
** `file` names the input file (or directory), `where` the place inside it
** (proto path, function, node); either may be NULL. */
sm2c_status sm2c_error(sm2c_diag *d, sm2c_status kind, const char *file,
                       const char *where, const char *fmt, ...) SM2C_PRINTF(5, 6);
sm2c_status sm2c_verror(sm2c_diag *d, sm2c_status kind, const char *file, const char *where,
                        const char *fmt, va_list ap);
void sm2c_warning(sm2c_diag *d, const char *file, const char *where,
                  const char *fmt, ...) SM2C_PRINTF(4, 5);
void sm2c_note(sm2c_diag *d, const char *file, const char *where,
               const char *fmt, ...) SM2C_PRINTF(4, 5);

/* Internal invariants; these are bugs, not diagnostics. */
#define SM2C_ASSERT(x) \
    ((x) ? (void)0 : sm2c_assert_fail(#x, __FILE__, __LINE__))
#define sm2c_unreachable() sm2c_assert_fail("unreachable", __FILE__, __LINE__)
_Noreturn void sm2c_assert_fail(const char *what, const char *file, int line);

/* Resource limits (docs/reliability.md section 10); every one can be raised by
** `--limit NAME=VALUE`.  One row per limit, X(NAME, field, default, help):
** the struct, the defaults, the names, sm2c_limits_set and --help-limits are
** all made from it, so adding a limit is one row. */
#define SM2C_LIMITS(X) \
    X("model-bytes", model_bytes, (int64_t)1 << 30, "size of saved_model.pb(txt)") \
    X("nesting-depth", nesting_depth, 100, "protobuf message nesting") \
    /* a file of empty messages decodes to ~50x its size */ \
    X("decoded-bytes", decoded_bytes, ((int64_t)4 << 30) + ((int64_t)64 << 20), \
      "memory protobuf-c may allocate for one message") \
    X("graph-nodes", graph_nodes, 1000000, "nodes per graph or function") \
    X("functions", functions, 100000, "functions in the library") \
    X("call-depth", call_depth, 64, "nested calls when inlining") \
    X("rank", rank, 16, "tensor rank") \
    X("elements", elements, INT32_MAX, "elements per tensor") \
    /* a one-value list can stand for billions of elements */ \
    X("const-bytes", const_bytes, (int64_t)1 << 30, "bytes of one decoded constant") \
    X("list-length", list_length, 100000, "variadic N and list attrs") \
    X("name-length", name_length, 4096, "bytes in one name") \
    X("shards", shards, 4096, "checkpoint data shards") \
    X("block-bytes", block_bytes, (int64_t)64 << 20, "one decompressed SSTable block") \
    X("file-bytes", file_bytes, ((int64_t)1 << 31) - 1, "any other file read whole (index, shard)") \
    X("loop-iterations", loop_iterations, 1000000, \
      "runs of a loop body with no smaller static bound (more: SM2C_RT_ERR_ITERATIONS)") \
    /* the static bound of ParseExample's sparse outputs */ \
    X("sparse-values", sparse_values, 64, \
      "values of one sparse feature per tf.Example (more: SM2C_RT_ERR_EXAMPLE)") \
    /* the static bound of a string a text op reads or writes (ops_text.c) */ \
    X("string-bytes", string_bytes, 1024, \
      "bytes of one string element a text op reads (more: SM2C_RT_ERR_STRING)")

typedef struct sm2c_limits {
#define SM2C_LIMIT_FIELD(name, field, dflt, help) int64_t field;
    SM2C_LIMITS(SM2C_LIMIT_FIELD)
#undef SM2C_LIMIT_FIELD
} sm2c_limits;

void sm2c_limits_default(sm2c_limits *l);
/* Set the limit called `name`; 0 when the name is unknown. */
int sm2c_limits_set(sm2c_limits *l, const char *name, int64_t value);
/* Names of all limits, NULL-terminated, in the order of the struct. */
extern const char *const sm2c_limit_names[];
/* --help-limits: each limit's name, default and what it bounds, one a line. */
void sm2c_limits_print(FILE *f);

#endif
