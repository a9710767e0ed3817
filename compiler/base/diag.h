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
    int demote;               /* > 0: errors print as warnings and are not counted */
    int corrupt;              /* > 0: reading input data, whose errors other than
                                 "unsupported" are never demoted (corrupt input) */
    sm2c_status first_status;
    char first[2048];         /* the first error line, for tests and callers */
} sm2c_diag;

void sm2c_diag_init(sm2c_diag *d);
/* A sink that drops every line (for trial runs whose failure is not an error). */
void sm2c_diag_discard(void *user, const char *line);

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
** `--limit NAME=VALUE`. */
typedef struct sm2c_limits {
    int64_t model_bytes;      /* size of saved_model.pb(txt) */
    int64_t nesting_depth;    /* protobuf message nesting */
    int64_t decoded_bytes;    /* memory protobuf-c may allocate for one message
                                 (a file of empty messages decodes to ~50x its size) */
    int64_t graph_nodes;      /* nodes per graph or function */
    int64_t functions;        /* functions in the library */
    int64_t call_depth;       /* nested calls when inlining */
    int64_t rank;             /* tensor rank */
    int64_t elements;         /* elements per tensor */
    int64_t const_bytes;      /* bytes of one decoded constant (a one-value list can
                                 stand for billions of elements) */
    int64_t list_length;      /* variadic N and list attrs */
    int64_t name_length;      /* bytes in one name */
    int64_t shards;           /* checkpoint data shards */
    int64_t block_bytes;      /* one decompressed SSTable block */
    int64_t file_bytes;       /* any other file read whole (index, shard) */
    int64_t loop_iterations;  /* runs of a loop body without a smaller static bound before the
                                 generated code returns SM2C_RT_ERR_ITERATIONS */
    int64_t sparse_values;    /* values of one sparse feature in one tf.Example (ParseExample):
                                 the static bound of its outputs; more at run time is
                                 SM2C_RT_ERR_EXAMPLE */
} sm2c_limits;

void sm2c_limits_default(sm2c_limits *l);
/* Set the limit called `name`; 0 when the name is unknown. */
int sm2c_limits_set(sm2c_limits *l, const char *name, int64_t value);
/* Names of all limits, NULL-terminated, in the order of the struct. */
extern const char *const sm2c_limit_names[];

#endif
