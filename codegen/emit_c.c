/*
** emit_c.c: the C backend, program -> <name>.h + <name>.c + runtime files.
**
** Two halves: text generation (deterministic, into memory) and publishing
** (a temporary directory inside the output directory, then renames).
** Identifiers come from mangle.c; file names only from p->name and the fixed
** runtime names.  See docs/design.md "Generated code contract" and docs/reliability.md
** section 6 (rules 1, 10, 11, 12, 14) and F7.
*/
#define _GNU_SOURCE
#include "emit_c.h"

#include "program_check.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "c_text.h"
#include "mangle.h"
#include "base/fileio.h"
#include "base/publish.h"
#include "base/toolchain.h"
#include "rt_embed.h"
#include "rt_select.h"
#include "rt_stack.h"
#include "sm2c_rt.h"
#include "codegen/c_special.h"

#ifndef SM2C_VERSION
#define SM2C_VERSION "0.0.0"
#endif

#define LINE_MAX_COLS 100   /* wrap weight initialisers here */

/* ---- a growable text buffer ------------------------------------------------ */

typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

static void sb_putn(sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        SM2C_ASSERT(q != NULL);
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

static void sb_puts(sbuf *b, const char *s)
{
    sb_putn(b, s, strlen(s));
}

static void sb_putc(sbuf *b, char ch)
{
    sb_putn(b, &ch, 1);
}

SM2C_PRINTF(2, 3)
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    SM2C_ASSERT(n >= 0);
    if ((size_t)n < sizeof small) {
        sb_putn(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    SM2C_ASSERT(big != NULL);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_putn(b, big, (size_t)n);
    free(big);
}

/* Model text inside a block comment (c_text.c says what is kept). */
static void sb_comment(sbuf *b, const char *s)
{
    char text[SM2C_C_COMMENT_CAP];
    sm2c_c_comment_text(text, s);
    sb_puts(b, text);
}

/* A C string literal: octal escapes for anything not plainly printable, and
** '?' escaped after '?' (no trigraphs). */
static void sb_cstring(sbuf *b, const char *s)
{
    sb_putc(b, '"');
    char prev = 0;
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            sb_printf(b, "\\%c", ch);
        else if (ch == '?' && prev == '?')
            sb_puts(b, "\\?");
        else if (ch < 0x20 || ch > 0x7e)
            sb_printf(b, "\\%03o", ch);
        else
            sb_putc(b, (char)ch);
        prev = (char)ch;
    }
    sb_putc(b, '"');
}

/* ---- dtypes ------------------------------------------------------------------- */

enum { K_F32, K_F64, K_SINT, K_UINT, K_BITS16 };

typedef struct ctype {
    int dtype;
    const char *c;      /* C element type */
    int kind;
    int size;
} ctype;

static const ctype ctypes[] = {
    { SM2C_DT_FLOAT, "float", K_F32, 4 },       { SM2C_DT_DOUBLE, "double", K_F64, 8 },
    { SM2C_DT_INT32, "int32_t", K_SINT, 4 },    { SM2C_DT_INT64, "int64_t", K_SINT, 8 },
    { SM2C_DT_UINT8, "uint8_t", K_UINT, 1 },    { SM2C_DT_INT8, "int8_t", K_SINT, 1 },
    { SM2C_DT_INT16, "int16_t", K_SINT, 2 },    { SM2C_DT_UINT16, "uint16_t", K_UINT, 2 },
    { SM2C_DT_UINT32, "uint32_t", K_UINT, 4 },  { SM2C_DT_UINT64, "uint64_t", K_UINT, 8 },
    { SM2C_DT_BOOL, "uint8_t", K_UINT, 1 },     { SM2C_DT_HALF, "uint16_t", K_BITS16, 2 },
    { SM2C_DT_BFLOAT16, "uint16_t", K_BITS16, 2 },
    /* entry inputs only: ParseExample's serialized protos (the header checks the size) */
    { SM2C_DT_STRING, "sm2c_string", K_UINT, SM2C_STRING_ELEM_SIZE },
    /* complex64: float pairs (re, im), so its C element type is float */
    { SM2C_DT_COMPLEX64, "float", K_F32, 8 },
};

static const ctype *ctype_of(int dtype)
{
    int dt = sm2c_dtype_base(dtype);
    for (size_t i = 0; i < sizeof ctypes / sizeof *ctypes; i++)
        if (ctypes[i].dtype == dt)
            return &ctypes[i];
    return NULL;
}

/* Floats per element: 2 for complex64 (re, im), else 1. */
static int lanes_of(int dtype)
{
    return sm2c_dtype_base(dtype) == SM2C_DT_COMPLEX64 ? 2 : 1;
}

/* A complex64 tensor read as the float32 tensor of its parts (the same
** bytes): what the weight writers print. */
static sm2c_tensor scalar_view(const sm2c_tensor *v)
{
    sm2c_tensor t = *v;
    if (lanes_of(v->dtype) == 2) {
        t.dtype = SM2C_DT_FLOAT;
        t.nelem = v->nelem * 2;
    }
    return t;
}

/* Bytes of an element the C backend can express (program_check.c). */
static int c_elem_size(int dtype)
{
    const ctype *t = ctype_of(dtype);
    return t ? (int)t->size : 0;
}

static uint64_t load_le(const uint8_t *p, int size)
{
    uint64_t v = 0;
    for (int i = size - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* ---- exact literals ------------------------------------------------------------ */

static int float_bits_finite(uint32_t u)
{
    return (u & 0x7f800000u) != 0x7f800000u;
}

static int double_bits_finite(uint64_t u)
{
    return (u & UINT64_C(0x7ff0000000000000)) != UINT64_C(0x7ff0000000000000);
}

static float bits_to_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static double bits_to_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* ---- the emitter ------------------------------------------------------------------ */

typedef struct ints_const {
    int32_t n;
    const int32_t *v;
    const char *name;
} ints_const;

typedef struct float_const {
    uint32_t bits;
    const char *name;
} float_const;

/* A shape-specialised layer function (c_special.h): one per distinct kernel
** and non-buffer arguments (sm2c_c_special_same_layer); its parameters are
** the buffer arguments. */
typedef struct layer_fn {
    const char *name;
    const sm2c_c_special *sp;
    int32_t entry, step;        /* the first step it serves: its baked arguments */
} layer_fn;

typedef struct entry_names {
    const char *fn;             /* <name>_<c_name> */
    const char **in, **out;     /* parameter names */
    const char **in_stem, **out_stem;   /* macro stems */
    const char **in_dims, **out_dims;   /* metadata dims arrays or NULL */
    const char *in_info, *out_info, *run;
    const char *row, *run_batch;    /* --max-batch: the one-row function and its metadata runner */
    const char *batch;              /* --max-batch: the batch parameter's name */
} entry_names;

typedef struct emitter {
    sm2c_ctx *c;
    const sm2c_program *p;
    const char *NAME;           /* p->name uppercased */
    sm2c_nameset globals, macros;
    const char **gnames;        /* every global, in registration order */
    size_t n_gnames, cap_gnames;
    const char **wname;         /* per weight: its C name, NULL when unused */
    uint8_t *wbits;             /* per weight: stored as a bit-pattern union (WEIGHT_WORDS or,
                                ** in a weights translation unit, WEIGHT_STRING), else 0 */
    int weights_tu;             /* weights in NAME_weights.c (or an object), extern here */
    sbuf w;                     /* NAME_weights.c when weights_tu */
    const char *arena;          /* NULL when no step uses it */
    ints_const *ints;
    size_t n_ints, cap_ints;
    float_const *floats;
    size_t n_floats, cap_floats;
    entry_names *en;
    sbuf h, s;
    const char *state_ready;    /* stateful programs: the default state's "set" flag, */
    const char *default_state;  /* the default state, */
    const char **fn_r;          /* and per entry its reentrant function; else NULL */
    const char **run_r;         /* per entry: its metadata wrapper of fn_r */
    const char **state_dims;    /* per state: its dims array, NULL for a scalar */
    layer_fn *layers;
    size_t n_layers, cap_layers;
    int32_t **layer_of;         /* per entry and step: its layer function, or -1 */
    int header_only;            /* the LLVM backend's header: its code calls every kernel */
} emitter;

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * elem);
    SM2C_ASSERT(q != NULL);
    *cap = n;
    return q;
}

static const char *global(emitter *e, const char *base)
{
    const char *n = sm2c_mangle_unique(&e->globals, base, "x_");
    e->gnames = grow(e->gnames, &e->cap_gnames, e->n_gnames + 1, sizeof *e->gnames);
    e->gnames[e->n_gnames++] = n;
    return n;
}

static int public_global(emitter *e, const char *n)
{
    if (!sm2c_nameset_add(&e->globals, n))
        return 0;
    e->gnames = grow(e->gnames, &e->cap_gnames, e->n_gnames + 1, sizeof *e->gnames);
    e->gnames[e->n_gnames++] = n;
    return 1;
}

/* ---- names ----------------------------------------------------------------------------- */

static const char *upper(emitter *e, const char *s)
{
    return sm2c_mangle_sanitize(e->c->arena, s, 1, SM2C_MANGLE_MAX);
}

/* A macro stem <NAME>_<CNAME>_<KEY> whose derived macros are all free. */
static const char *macro_stem(emitter *e, const sm2c_entry *en, const char *key)
{
    static const char *const sfx[] = { "_SIZE", "_ELEMENTS", "_RANK", "_SHAPE", "_ROW_SIZE",
                                       "_ROW_ELEMENTS", "_SCALE", "_ZERO_POINT" };
    const size_t n_sfx = sizeof sfx / sizeof sfx[0];
    sm2c_arena *a = e->c->arena;
    const char *base = sm2c_arena_printf(a, "%s_%s_%s", e->NAME, upper(e, en->c_name),
                                         upper(e, key));
    for (int i = 1;; i++) {
        const char *stem = i == 1 ? base : sm2c_arena_printf(a, "%s_%d", base, i);
        int free_ = 1;
        for (size_t k = 0; k < n_sfx && free_; k++)
            free_ = !sm2c_nameset_has(&e->macros, sm2c_arena_printf(a, "%s%s", stem, sfx[k]));
        if (!free_)
            continue;
        for (size_t k = 0; k < n_sfx; k++)
            sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s%s", stem, sfx[k]));
        return stem;
    }
}

static int any_batched(const sm2c_program *p)
{
    for (int32_t k = 0; k < p->n_entries; k++)
        if (p->entries[k].max_batch)
            return 1;
    return 0;
}

static int has_loop(const sm2c_entry *en)
{
    for (int32_t s = 0; s < en->n_steps; s++)
        if (en->steps[s].control == SM2C_CTL_LOOP)
            return 1;
    return 0;
}

/* Whether a step calls a kernel whose name starts with `prefix`. */
static int calls_kernel(const sm2c_entry *en, const char *prefix)
{
    for (int32_t s = 0; s < en->n_steps; s++)
        if (en->steps[s].kernel && strncmp(en->steps[s].kernel, prefix, strlen(prefix)) == 0)
            return 1;
    return 0;
}

static int used_as(const sm2c_entry *en, int kind, int32_t index)
{
    for (int32_t s = 0; s < en->n_steps; s++)
        for (int32_t a = 0; a < en->steps[s].n_args; a++) {
            const sm2c_arg *ar = &en->steps[s].args[a];
            if (ar->kind == SM2C_ARG_BUF && (int)en->buffers[ar->buf].kind == kind &&
                en->buffers[ar->buf].index == index)
                return 1;
        }
    return 0;
}

static int arena_buf_used(const sm2c_entry *en, int32_t id)
{
    for (int32_t s = 0; s < en->n_steps; s++)
        for (int32_t a = 0; a < en->steps[s].n_args; a++)
            if (en->steps[s].args[a].kind == SM2C_ARG_BUF && en->steps[s].args[a].buf == id)
                return 1;
    return 0;
}

static int weight_has_nonfinite(const sm2c_tensor *v0)
{
    sm2c_tensor sv = scalar_view(v0);
    const sm2c_tensor *v = &sv;
    const ctype *t = ctype_of(v->dtype);
    const uint8_t *d = v->data;
    for (int64_t i = 0; i < v->nelem; i++) {
        if (t->kind == K_F32 && !float_bits_finite((uint32_t)load_le(d + 4 * i, 4)))
            return 1;
        if (t->kind == K_F64 && !double_bits_finite(load_le(d + 8 * i, 8)))
            return 1;
    }
    return 0;
}

/* How NAME_weights.c writes a weight's bytes: one string literal (fast to
** compile: a compiler keeps it as one object) while that takes under 3 bytes
** of C per byte, else for 4- and 8-byte elements hex words of their bits (2.8
** bytes of C per byte); either in a union read through its element-typed member. */
enum { WEIGHT_LITERALS = 0, WEIGHT_WORDS = 1, WEIGHT_STRING = 2 };

/* Characters of byte d[i] in a string literal (see string_byte). */
static size_t string_cost(const uint8_t *d, size_t i, size_t n)
{
    uint8_t ch = d[i];
    if (ch >= 0x20 && ch < 0x7f)
        return ch == '\\' || ch == '"' || ch == '?' ? 2 : 1;
    int next_digit = i + 1 < n && d[i + 1] >= '0' && d[i + 1] <= '7';
    return next_digit || ch >= 64 ? 4 : ch >= 8 ? 3 : 2;
}

static int packed_weight(const sm2c_tensor *v0)
{
    sm2c_tensor sv = scalar_view(v0);
    const sm2c_tensor *v = &sv;
    int size = (int)sm2c_dtype_size(v->dtype);
    if (v->nelem <= 0 || (size != 1 && size != 2 && size != 4 && size != 8))
        return WEIGHT_LITERALS;
    size_t n = v->nbytes, cost = 0;
    for (size_t i = 0; i < n; i++)
        cost += string_cost(v->data, i, n);
    /* Strings, with their quotes and line breaks (3 in 100 columns), while they
    ** stay under 3 bytes of C per byte; else hex words (2.8). */
    return size < 4 || cost <= n / 100 * 290 + n % 100 * 29 / 10 ? WEIGHT_STRING : WEIGHT_WORDS;
}

static const char *ints_name(emitter *e, const sm2c_arg *ar)
{
    for (size_t i = 0; i < e->n_ints; i++)
        if (e->ints[i].n == ar->n &&
            (ar->n == 0 || memcmp(e->ints[i].v, ar->ints, (size_t)ar->n * 4) == 0))
            return e->ints[i].name;
    e->ints = grow(e->ints, &e->cap_ints, e->n_ints + 1, sizeof *e->ints);
    ints_const *k = &e->ints[e->n_ints];
    k->n = ar->n;
    k->v = ar->ints;
    k->name = global(e, sm2c_arena_printf(e->c->arena, "%s_k%zu", e->p->name, e->n_ints));
    e->n_ints++;
    return k->name;
}

static const char *float_name(emitter *e, uint32_t bits)
{
    for (size_t i = 0; i < e->n_floats; i++)
        if (e->floats[i].bits == bits)
            return e->floats[i].name;
    e->floats = grow(e->floats, &e->cap_floats, e->n_floats + 1, sizeof *e->floats);
    float_const *f = &e->floats[e->n_floats];
    f->bits = bits;
    f->name = global(e, sm2c_arena_printf(e->c->arena, "%s_f%zu", e->p->name, e->n_floats));
    e->n_floats++;
    return f->name;
}

static void assign_layers(emitter *e);

static int is_state_init(const sm2c_program *p, int32_t w)
{
    for (int32_t i = 0; i < p->n_states; i++)
        if (p->states[i].init_weight == w)
            return 1;
    return 0;
}

/* Stateful programs: the public init/reset and per entry <fn>_r, the static
** default state and its flag; the arena always exists (it is the default
** workspace). */
static sm2c_status assign_state_names(emitter *e)
{
    const sm2c_program *p = e->p;
    sm2c_arena *a = e->c->arena;
    static const char *const fixed[] = { "state", "init", "reset", "state_table", "state_info",
                                         "variable_info", "state_variables", "runs_r", "writes_state",
                                         "init_any" };
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        if (!public_global(e, sm2c_arena_printf(a, "%s_%s", p->name, fixed[i])))
            return sm2c_error(e->c->diag, SM2C_ERR_UNSUPPORTED, p->name, NULL,
                              "name %s_%s is used twice (an entry has that name)", p->name, fixed[i]);
    sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_STATE_SIZE", e->NAME));
    sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_WORKSPACE_SIZE", e->NAME));
    e->fn_r = sm2c_arena_array(a, (size_t)p->n_entries + 1, sizeof *e->fn_r);
    for (int32_t k = 0; k < p->n_entries; k++) {
        e->fn_r[k] = sm2c_arena_printf(a, "%s_r", e->en[k].fn);
        if (!public_global(e, e->fn_r[k]))
            return sm2c_error(e->c->diag, SM2C_ERR_UNSUPPORTED, p->name, p->entries[k].key,
                              "function name %s is used twice", e->fn_r[k]);
    }
    e->run_r = sm2c_arena_array(a, (size_t)p->n_entries + 1, sizeof *e->run_r);
    for (int32_t k = 0; k < p->n_entries; k++)
        e->run_r[k] = global(e, sm2c_arena_printf(a, "%s_run_r%d", p->name, k));
    e->state_dims = sm2c_arena_array(a, (size_t)p->n_states + 1, sizeof *e->state_dims);
    for (int32_t i = 0; i < p->n_states; i++)
        if (p->states[i].shape.rank > 0)
            e->state_dims[i] = global(e, sm2c_arena_printf(a, "%s_sd%d", p->name, i));
    e->default_state = global(e, sm2c_arena_printf(a, "%s_default_state", p->name));
    e->state_ready = global(e, sm2c_arena_printf(a, "%s_state_ready", p->name));
    return SM2C_OK;
}

static sm2c_status assign_names(emitter *e)
{
    const sm2c_program *p = e->p;
    sm2c_arena *a = e->c->arena;
    sm2c_nameset_init(&e->globals, a);
    sm2c_nameset_init(&e->macros, a);
    e->NAME = sm2c_mangle_sanitize(a, p->name, 1, (size_t)-1);
    sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_H_", e->NAME));
    sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_ARENA_SIZE", e->NAME));
    sm2c_nameset_add(&e->macros, "SM2C_ALIGN");

    static const char *const fixed[] = { "signatures", "n_signatures", "tensor_info",
                                         "signature_info" };
    for (size_t i = 0; i < 4; i++)
        public_global(e, sm2c_arena_printf(a, "%s_%s", p->name, fixed[i]));
    if (any_batched(p)) {
        public_global(e, sm2c_arena_printf(a, "%s_batches", p->name));
        public_global(e, sm2c_arena_printf(a, "%s_batch_info", p->name));
    }
    e->en = sm2c_arena_array(a, (size_t)p->n_entries, sizeof *e->en);
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        e->en[k].fn = sm2c_arena_printf(a, "%s_%s", p->name, en->c_name);
        if (!public_global(e, e->en[k].fn))
            return sm2c_error(e->c->diag, SM2C_ERR_UNSUPPORTED, p->name, en->key,
                              "function name %s is used twice", e->en[k].fn);
    }

    /* Internal (static) symbols: weights in index order, then per entry. */
    int any_arena = 0;
    e->wname = sm2c_arena_array(a, (size_t)p->n_weights + 1, sizeof *e->wname);
    e->wbits = sm2c_arena_array(a, (size_t)p->n_weights + 1, sizeof *e->wbits);
    for (int32_t w = 0; w < p->n_weights; w++) {
        for (int32_t k = 0; k < p->n_entries && !e->wname[w]; k++)
            if (used_as(&p->entries[k], SM2C_BUF_WEIGHT, w) || is_state_init(p, w))
                e->wname[w] = global(e, sm2c_arena_printf(a, "%s_w%d", p->name, w));
        int kind = ctype_of(p->weights[w].value.dtype)->kind;
        if (!e->wname[w])
            e->wbits[w] = 0;
        else if (e->weights_tu)
            e->wbits[w] = (uint8_t)packed_weight(&p->weights[w].value);
        else
            e->wbits[w] = (kind == K_F32 || kind == K_F64) && weight_has_nonfinite(&p->weights[w].value);
    }
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        for (int32_t s = 0; s < en->n_steps; s++)
            for (int32_t i = 0; i < en->steps[s].n_args; i++) {
                const sm2c_arg *ar = &en->steps[s].args[i];
                if (ar->kind == SM2C_ARG_INTS)
                    ints_name(e, ar);
                else if (ar->kind == SM2C_ARG_FLOAT) {
                    uint32_t bits;
                    memcpy(&bits, &ar->f, 4);
                    if (!float_bits_finite(bits))
                        float_name(e, bits);
                } else if (ar->kind == SM2C_ARG_BUF &&
                           en->buffers[ar->buf].kind == SM2C_BUF_ARENA)
                    any_arena = 1;
            }
    }
    assign_layers(e);
    if (p->n_states) {
        sm2c_status st = assign_state_names(e);
        if (st)
            return st;
    }
    if (any_arena || p->n_states)
        e->arena = global(e, sm2c_arena_printf(a, "%s_arena", p->name));

    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        entry_names *n = &e->en[k];
        n->in = sm2c_arena_array(a, (size_t)en->n_inputs + 1, sizeof *n->in);
        n->out = sm2c_arena_array(a, (size_t)en->n_outputs + 1, sizeof *n->out);
        n->in_stem = sm2c_arena_array(a, (size_t)en->n_inputs + 1, sizeof *n->in_stem);
        n->out_stem = sm2c_arena_array(a, (size_t)en->n_outputs + 1, sizeof *n->out_stem);
        n->in_dims = sm2c_arena_array(a, (size_t)en->n_inputs + 1, sizeof *n->in_dims);
        n->out_dims = sm2c_arena_array(a, (size_t)en->n_outputs + 1, sizeof *n->out_dims);
        for (int32_t i = 0; i < en->n_inputs; i++) {
            n->in_stem[i] = macro_stem(e, en, en->inputs[i].key);
            if (en->inputs[i].shape.rank > 0)
                n->in_dims[i] = global(e, sm2c_arena_printf(a, "%s_d%d_i%d", p->name, k, i));
        }
        for (int32_t i = 0; i < en->n_outputs; i++) {
            n->out_stem[i] = macro_stem(e, en, en->outputs[i].key);
            if (en->outputs[i].shape.rank > 0)
                n->out_dims[i] = global(e, sm2c_arena_printf(a, "%s_d%d_o%d", p->name, k, i));
        }
        if (en->n_inputs)
            n->in_info = global(e, sm2c_arena_printf(a, "%s_inputs%d", p->name, k));
        if (en->n_outputs)
            n->out_info = global(e, sm2c_arena_printf(a, "%s_outputs%d", p->name, k));
        n->run = global(e, sm2c_arena_printf(a, "%s_run%d", p->name, k));
        if (en->max_batch) {
            n->row = global(e, sm2c_arena_printf(a, "%s_row", n->fn));
            n->run_batch = global(e, sm2c_arena_printf(a, "%s_runb%d", p->name, k));
            sm2c_nameset_add(&e->macros, sm2c_arena_printf(a, "%s_%s_MAX_BATCH", e->NAME,
                                                           upper(e, en->c_name)));
        }
    }

    /* Parameters: lowercase keys, clear of every global and of the locals t<id>. */
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        entry_names *n = &e->en[k];
        sm2c_nameset scope;
        sm2c_nameset_init(&scope, a);
        for (size_t g = 0; g < e->n_gnames; g++)
            sm2c_nameset_add(&scope, e->gnames[g]);
        for (int32_t b = 0; b < en->n_buffers; b++)
            sm2c_nameset_add(&scope, sm2c_arena_printf(a, "t%d", b));
        for (int32_t s = 0; s < en->n_steps; s++)
            sm2c_nameset_add(&scope, en->steps[s].kernel);
        if (p->n_states) {  /* the _r variant's own parameters */
            sm2c_nameset_add(&scope, "state");
            sm2c_nameset_add(&scope, "workspace");
        }
        if (en->max_batch) {
            n->batch = sm2c_mangle_unique(&scope, "batch", "x_");
            sm2c_nameset_add(&scope, "row");
            sm2c_nameset_add(&scope, "status");
        }
        for (int32_t i = 0; i < en->n_inputs; i++)
            n->in[i] = sm2c_mangle_unique(
                &scope, sm2c_mangle_sanitize(a, en->inputs[i].key, -1, SM2C_MANGLE_MAX), "x_");
        for (int32_t i = 0; i < en->n_outputs; i++)
            n->out[i] = sm2c_mangle_unique(
                &scope, sm2c_mangle_sanitize(a, en->outputs[i].key, -1, SM2C_MANGLE_MAX), "x_");
    }
    return SM2C_OK;
}

/* ---- the header --------------------------------------------------------------------- */

static void banner(emitter *e, sbuf *b)
{
    sb_puts(b, "/* Generated by sm2c " SM2C_VERSION " from ");
    sb_comment(b, e->p->source_name ? e->p->source_name : e->p->source);
    sb_puts(b, ". DO NOT EDIT.\n * Command: ");
    sb_comment(b, e->p->command);
    if (e->p->input_digests && *e->p->input_digests) {
        sb_puts(b, "\n * Inputs (SHA-256):");
        for (const char *l = e->p->input_digests; *l;) {
            const char *nl = strchr(l, '\n');
            size_t len = nl ? (size_t)(nl - l) : strlen(l);
            sb_puts(b, "\n *   ");
            sb_comment(b, sm2c_arena_strndup(e->c->arena, l, len));
            l += len + (nl != NULL);
        }
    }
    sb_puts(b, "\n */\n");
}

static void shape_text(sbuf *b, const sm2c_shape *s)
{
    sb_putc(b, '[');
    for (int32_t i = 0; i < s->rank; i++)
        sb_printf(b, "%s%lld", i ? "," : "", (long long)s->dims[i]);
    sb_putc(b, ']');
}

static int64_t port_bytes(const sm2c_port *pt)
{
    return sm2c_shape_elements(&pt->shape, INT64_MAX / 8) * ctype_of(pt->dtype)->size;
}

static void port_macros(sbuf *b, const sm2c_port *pt, const char *stem)
{
    int64_t n = sm2c_shape_elements(&pt->shape, INT64_MAX / 8);
    if (pt->batched && pt->shape.dims[0] > 0) {
        int64_t rows = pt->shape.dims[0] / pt->batched;     /* max_batch */
        sb_printf(b, "#define %s_ROW_SIZE %lld /* bytes of one row; _SIZE is at the maximum batch */\n", stem,
                  (long long)(port_bytes(pt) / rows));
        sb_printf(b, "#define %s_ROW_ELEMENTS %lld\n", stem, (long long)(n / rows));
    }
    sb_printf(b, "#define %s_SIZE %lld /* bytes, %s", stem, (long long)port_bytes(pt),
              sm2c_dtype_name(pt->dtype));
    shape_text(b, &pt->shape);
    sb_puts(b, " */\n");
    sb_printf(b, "#define %s_ELEMENTS %lld\n", stem, (long long)n);
    sb_printf(b, "#define %s_RANK %d\n", stem, pt->shape.rank);
    if (pt->quantized) {    /* --io int8 */
        char lit[64];
        sm2c_c_real_literal(lit, sizeof lit, (double)pt->scale, 1);
        sb_printf(b, "#define %s_SCALE %s /* real = _SCALE * (q - _ZERO_POINT) */\n", stem, lit);
        sb_printf(b, "#define %s_ZERO_POINT %d\n", stem, (int)pt->zero_point);
    }
    if (pt->dynamic)
        sb_printf(b, "#define %s_DYNAMIC_DIM %d /* its size: _count at run time, at most _BOUND */\n"
                     "#define %s_BOUND %lld\n", stem, pt->dynamic - 1, stem,
                  (long long)pt->shape.dims[pt->dynamic - 1]);
    if (pt->shape.rank > 0) {
        sb_printf(b, "#define %s_SHAPE {", stem);
        for (int32_t i = 0; i < pt->shape.rank; i++)
            sb_printf(b, "%s%lld", i ? ", " : "", (long long)pt->shape.dims[i]);
        sb_puts(b, "}\n");
    }
}

static void port_doc(sbuf *b, const sm2c_port *pt, const char *param, const char *dir)
{
    sb_printf(b, " *   %-12s %s key \"", param, dir);
    sb_comment(b, pt->key);
    sb_puts(b, "\", tensor \"");
    sb_comment(b, pt->tensor);
    sb_printf(b, "\", %s", sm2c_dtype_name(pt->dtype));
    shape_text(b, &pt->shape);
    sb_printf(b, ", %lld bytes%s%s\n", (long long)port_bytes(pt), pt->batched ? " at most (batched)" : "",
              lanes_of(pt->dtype) == 2 ? ", each element two floats (re, im)" : "");
    if (pt->dynamic)
        sb_printf(b, " *                  dim %d holds at most %lld (the bound; _SIZE is at the bound): the\n"
                     " *                  actual size depends on the data and goes to its _count output;\n"
                     " *                  the rest of the buffer is zeroed\n",
                  pt->dynamic - 1, (long long)pt->shape.dims[pt->dynamic - 1]);
    if (pt->count_of)
        sb_puts(b, " *                  the count: the actual size of the data-dependent dim above\n");
    if (sm2c_dtype_base(pt->dtype) == SM2C_DT_STRING && !strcmp(dir, "->"))
        sb_puts(b, " *                (an array of sm2c_string the entry fills: each element points at\n"
                   " *                 bytes in the model's constants, in an input, or in the static\n"
                   " *                 arena, valid until the next call of any entry of this model;\n"
                   " *                 copy them to keep them)\n");
    else if (sm2c_dtype_base(pt->dtype) == SM2C_DT_STRING)
        sb_puts(b, " *                (an array of sm2c_string: each element's bytes and length)\n");
}

static int has_string_port(const sm2c_program *p)
{
    for (int32_t k = 0; k < p->n_entries; k++)
        for (int32_t i = 0; i < p->entries[k].n_inputs + p->entries[k].n_outputs; i++) {
            const sm2c_entry *en = &p->entries[k];
            const sm2c_port *pt = i < en->n_inputs ? &en->inputs[i] : &en->outputs[i - en->n_inputs];
            if (sm2c_dtype_base(pt->dtype) == SM2C_DT_STRING)
                return 1;
        }
    return 0;
}

/* The string element type, under the guard runtime/include/sm2c_rt.h uses, so
** that several models' headers and the runtime's declare it once. */
static void string_type(sbuf *b)
{
    sb_printf(b, "/* A string tensor element (TensorFlow DT_STRING, tensor_info dtype 7): `len`\n"
                 " * bytes at `data`, any bytes, not NUL-terminated (data may be NULL when len\n"
                 " * is 0).  A string argument is an array of these, %d bytes each; an input's\n"
                 " * bytes must stay valid during the call; an output's elements point at bytes\n"
                 " * the model owns (its constants, the static arena) or at an input's bytes,\n"
                 " * valid until the next call of any entry of this model. */\n"
                 "#ifndef SM2C_STRING_DEFINED\n#define SM2C_STRING_DEFINED\n"
                 "typedef struct sm2c_string {\n    const uint8_t *data;\n    int64_t len;\n} sm2c_string;\n"
                 "typedef char sm2c_string_is_%d_bytes[sizeof(sm2c_string) == %d ? 1 : -1];\n"
                 "#endif\n\n",
              SM2C_STRING_ELEM_SIZE, SM2C_STRING_ELEM_SIZE, SM2C_STRING_ELEM_SIZE);
}

/* --max-batch: what the batch argument means, and the limit macro. */
static void batch_doc(emitter *e, sbuf *b, int32_t k)
{
    const sm2c_entry *en = &e->p->entries[k];
    if (!en->max_batch)
        return;
    sb_printf(b, " * Batched (--max-batch): `%s` is the number of rows, 1 to %s_%s_MAX_BATCH.\n"
                 " * The arguments marked batched hold `%s` rows, one after another: their\n"
                 " * leading dim is `%s` times its _ROW_SIZE share (shape and _SIZE above\n"
                 " * are at the maximum); the others are the same for every batch.  Returns\n"
                 " * -3 when `%s` is out of range.\n", e->en[k].batch, e->en[k].batch, e->NAME, upper(e, en->c_name), e->en[k].batch,
              e->en[k].batch);
}

/* The parameter list of entry k, the one place that prints it: `batch` first
** when the entry is batched and `with_batch` (its one-row function has none). */
static void params(emitter *e, sbuf *b, int32_t k, int with_batch)
{
    const sm2c_entry *en = &e->p->entries[k];
    const entry_names *n = &e->en[k];
    int batch = en->max_batch && with_batch;
    if (batch)
        sb_printf(b, "int32_t %s%s", n->batch, en->n_inputs + en->n_outputs ? ", " : "");
    for (int32_t i = 0; i < en->n_inputs; i++)
        sb_printf(b, "%sconst %s *%s", i ? ", " : "", ctype_of(en->inputs[i].dtype)->c, n->in[i]);
    for (int32_t i = 0; i < en->n_outputs; i++)
        sb_printf(b, "%s%s *%s", i + en->n_inputs ? ", " : "", ctype_of(en->outputs[i].dtype)->c,
                  n->out[i]);
    if (en->n_inputs + en->n_outputs == 0 && !batch)
        sb_puts(b, "void");
}

static void prototype(emitter *e, sbuf *b, int32_t k)
{
    sb_printf(b, "int32_t %s(", e->en[k].fn);
    params(e, b, k, 1);
    sb_putc(b, ')');
}

/* int32_t <fn>_r(<name>_state *state, void *workspace, inputs..., outputs...) */
static void prototype_r(emitter *e, sbuf *b, int32_t k)
{
    const sm2c_entry *en = &e->p->entries[k];
    const entry_names *n = &e->en[k];
    sb_printf(b, "int32_t %s(%s_state *state, void *workspace", e->fn_r[k], e->p->name);
    for (int32_t i = 0; i < en->n_inputs; i++)
        sb_printf(b, ", const %s *%s", ctype_of(en->inputs[i].dtype)->c, n->in[i]);
    for (int32_t i = 0; i < en->n_outputs; i++)
        sb_printf(b, ", %s *%s", ctype_of(en->outputs[i].dtype)->c, n->out[i]);
    sb_putc(b, ')');
}

/* The state struct, its sizes and init/reset (stateful programs only). */
static void state_header(emitter *e, sbuf *b)
{
    const sm2c_program *p = e->p;
    const char *nm = p->name;
    sb_printf(b, "/* State: the variables the entry points write, one member each, shared by\n"
                 " * every entry point.  Each starts at its checkpoint value: the entry points\n"
                 " * without _r use a static default state that holds those values until the\n"
                 " * first write, so a caller that never calls %s_reset or %s_init gets\n"
                 " * TensorFlow's behaviour.  The _r variants take the state and the workspace\n"
                 " * (scratch memory) from the caller: they are reentrant, and two states are\n"
                 " * independent models.  A state must be set by %s_init before its first use. */\n",
              nm, nm, nm);
    sb_printf(b, "typedef struct %s_state {\n", nm);
    for (int32_t i = 0; i < p->n_states; i++) {
        const sm2c_state *st = &p->states[i];
        int64_t n = sm2c_shape_elements(&st->shape, INT64_MAX / 8);
        sb_printf(b, "    %s %s[%lld]; /* \"", ctype_of(st->dtype)->c, st->c_name,
                  (long long)(n > 0 ? n : 1) * lanes_of(st->dtype));
        sb_comment(b, st->key);
        sb_printf(b, "\" %s", sm2c_dtype_name(st->dtype));
        shape_text(b, &st->shape);
        sb_puts(b, " */\n");
    }
    sb_printf(b, "} %s_state;\n\n", nm);
    sb_printf(b, "/* Bytes of a state, and of the workspace an _r entry point needs (aligned\n"
                 " * to 8 bytes at least; 64 is best). */\n"
                 "#define %s_STATE_SIZE sizeof(%s_state)\n#define %s_WORKSPACE_SIZE %s_ARENA_SIZE\n\n",
              e->NAME, nm, e->NAME, e->NAME);
    sb_printf(b, "/* Sets *state to the checkpoint values. */\nvoid %s_init(%s_state *state);\n", nm, nm);
    sb_printf(b, "/* Puts the static default state back to the checkpoint values. */\nvoid %s_reset(void);\n\n", nm);
}

/* The state's metadata, for generic callers: its variables and where they
** are, init/reset, and per signature whether it writes state and its _r. */
static void state_metadata_header(emitter *e, sbuf *b)
{
    const char *nm = e->p->name;
    sb_printf(b,
              "/* State metadata (models whose entry points write variables), for generic\n"
              " * callers: each variable's checkpoint key, dtype, shape, size and byte offset\n"
              " * in %s_state, and per signature of %s_signatures (same order) whether it\n"
              " * writes state and its _r variant taking (state, workspace, inputs, outputs). */\n"
              "typedef struct %s_variable_info {\n"
              "    const char *key;        /* checkpoint key */\n"
              "    int32_t dtype;\n"
              "    int32_t rank;\n"
              "    const int64_t *dims;    /* rank entries; NULL for a scalar */\n"
              "    int64_t size_bytes;\n"
              "    int64_t offset;         /* bytes into %s_state */\n"
              "} %s_variable_info;\n\n"
              "typedef struct %s_state_info {\n"
              "    int64_t state_size, workspace_size;\n"
              "    int32_t n_variables;\n"
              "    const %s_variable_info *variables;\n"
              "    void (*init)(void *state);\n"
              "    void (*reset)(void);\n"
              "    const int32_t *writes_state;\n"
              "    int32_t (*const *run_r)(void *state, void *workspace, void *const *inputs,\n"
              "                            void *const *outputs);\n"
              "} %s_state_info;\n\n"
              "extern const %s_state_info %s_state_table;\n\n",
              nm, nm, nm, nm, nm, nm, nm, nm, nm, nm);
}

/* The function the steps go in: the entry point, or for a batched entry its
** one-row function. */
static void steps_prototype(emitter *e, sbuf *b, int32_t k)
{
    if (!e->p->entries[k].max_batch) {
        prototype(e, b, k);
        return;
    }
    sb_printf(b, "/* One row of %s (pass_batch.c proved the rows independent). */\n"
                 "static int32_t %s(", e->en[k].fn, e->en[k].row);
    params(e, b, k, 0);
    sb_putc(b, ')');
}

/* --max-batch: a table parallel to <name>_signatures, only when some entry is
** batched, so that the layout of the older tables never changes. */
static void batch_table_decl(emitter *e, sbuf *b)
{
    const char *nm = e->p->name;
    if (!any_batched(e->p))
        return;
    sb_printf(b,
              "/* --max-batch: entry k of %s_batches describes %s_signatures[k].  A batched\n"
              " * signature's `run` runs max_batch rows (its tensor_info dims and size_bytes\n"
              " * are at max_batch); run_batch takes the batch, 1..max_batch, first. */\n"
              "typedef struct %s_batch_info {\n"
              "    int32_t max_batch;      /* 0: not batched, the other fields are NULL */\n"
              "    const int32_t *inputs_batched, *outputs_batched;  /* per argument: 0, or k when\n"
              "                               its leading dim is k * batch (k is 1 but where the\n"
              "                               model folds rows into the leading dim) */\n"
              "    int32_t (*run_batch)(int32_t batch, void *const *inputs, void *const *outputs);\n"
              "} %s_batch_info;\n\n"
              "extern const %s_batch_info %s_batches[];\n\n", nm, nm, nm, nm, nm, nm);
}

static void emit_header(emitter *e)
{
    const sm2c_program *p = e->p;
    const char *nm = p->name;
    sbuf *b = &e->h;
    banner(e, b);
    sb_printf(b, "#ifndef %s_H_\n#define %s_H_\n\n#include <stdint.h>\n\n", e->NAME, e->NAME);
    sb_puts(b, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    if (has_string_port(p))
        string_type(b);
    sb_printf(b, "/* Static scratch memory shared by all entry points, bytes.  The entry points\n"
                 " * are not reentrant: they use one static arena, so calls must not overlap\n"
                 " * (from threads or interrupts). */\n#define %s_ARENA_SIZE %lld\n\n",
              e->NAME, (long long)p->arena_bytes);
    if (p->n_states)
        state_header(e, b);
    sb_printf(b, "/* Stack a call to an entry point may use, bytes, kernels included (no\n"
                 " * recursion, no variable-length arrays; large temporaries live in the\n"
                 " * arena): the deepest kernel call chain as gcc compiles the runtime (-Os\n"
                 " * for Cortex-M, -O2 elsewhere), measured when sm2c was built, plus the\n"
                 " * generated function's frame and a quarter more. */\n"
                 "#if defined(__arm__) || defined(__thumb__)\n#define %s_STACK_SIZE %d\n"
                 "#else\n#define %s_STACK_SIZE %d\n#endif\n\n",
              e->NAME, sm2c_stack_bound(p, SM2C_STACK_CORTEX_M4, !e->header_only), e->NAME,
              sm2c_stack_bound(p, SM2C_STACK_X86_64, !e->header_only));
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        const entry_names *n = &e->en[k];
        sb_puts(b, en->function ? "/* Function \"" : "/* Signature \"");
        sb_comment(b, en->key);
        if (en->function) {
            sb_puts(b, "\" (tf.function ");
            sb_comment(b, en->function);
            sb_puts(b, ");\n *");
        } else {
            sb_puts(b, "\";");
        }
        sb_puts(b, " arguments in order (inputs, then outputs, each sorted by key):\n");
        for (int32_t i = 0; i < en->n_inputs; i++)
            port_doc(b, &en->inputs[i], n->in[i], "<-");
        for (int32_t i = 0; i < en->n_outputs; i++)
            port_doc(b, &en->outputs[i], n->out[i], "->");
        batch_doc(e, b, k);
        sb_puts(b, " * Buffers need only their element type's alignment (64 bytes is best).\n"
                   " * Returns 0 on success, otherwise a negative error code: -1 when an\n"
                   " * index input is out of range, -2 when an input value has no defined\n"
                   " * result; outputs are then unspecified.\n");
        if (has_loop(en))
            sb_puts(b, " * -4 when a loop runs more times than its cap (sm2c --limit\n"
                       " * loop-iterations, or the loop's static trip count).\n");
        if (calls_kernel(en, "sm2c_rt_check_finite"))
            sb_puts(b, " * -5 when a CheckNumerics finds a NaN or an infinity.\n");
        if (calls_kernel(en, "sm2c_rt_check_true"))
            sb_puts(b, " * -6 when an Assert's condition is false.\n");
        if (calls_kernel(en, "sm2c_rt_parse_example"))
            sb_puts(b, " * -7 when a serialized tf.Example is malformed, lacks a feature that has\n"
                       " * no default, or has a feature of the wrong kind or number of values.\n");
        sb_printf(b, " * Not reentrant: uses one static arena of %s_ARENA_SIZE bytes. */\n", e->NAME);
        for (int32_t i = 0; i < en->n_inputs; i++)
            port_macros(b, &en->inputs[i], n->in_stem[i]);
        for (int32_t i = 0; i < en->n_outputs; i++)
            port_macros(b, &en->outputs[i], n->out_stem[i]);
        if (p->n_states)
            sb_printf(b, "/* %s state.  %s_r is the same on a caller's state and workspace. */\n",
                      en->writes_state ? "Writes" : "Reads but does not write", n->fn);
        if (en->max_batch)
            sb_printf(b, "#define %s_%s_MAX_BATCH %d\n", e->NAME, upper(e, en->c_name), (int)en->max_batch);
        prototype(e, b, k);
        sb_puts(b, ";\n");
        if (p->n_states) {
            prototype_r(e, b, k);
            sb_puts(b, ";\n");
        }
        sb_putc(b, '\n');
    }
    sb_printf(b,
              "/* Metadata: every signature, for callers that drive a model generically\n"
              " * (dlopen, FFI).  `run` takes the argument pointers in the order above. */\n"
              "typedef struct %s_tensor_info {\n"
              "    const char *key;\n"
              "    int32_t dtype;          /* TensorFlow DataType: 1 float32, 2 float64, 3 int32, 7 string, 8 complex64 (float pairs), 9 int64, ... */\n"
              "                            /* 7: an array of sm2c_string (16 bytes each); as an output,\n"
              "                               the caller gives the array and the entry points each\n"
              "                               element at bytes valid until the next call */\n"
              "    int32_t rank;\n"
              "    const int64_t *dims;    /* rank entries; NULL for a scalar */\n"
              "    int64_t size_bytes;\n"
              "    int32_t dynamic_dim;    /* -1, or the dim whose size depends on the data: dims and\n"
              "                               size_bytes give its bound, and the entry writes the\n"
              "                               actual size to an int64 count output; the count outputs\n"
              "                               follow the signature's outputs, one per such output\n"
              "                               in order (key \"<key>_count\", dynamic_dim -1) */\n"
              "    float scale;            /* --io int8: an int8 tensor, real = scale * (q - zero_point);\n"
              "                               0 for any other tensor */\n"
              "    int32_t zero_point;\n"
              "} %s_tensor_info;\n\n"
              "typedef struct %s_signature_info {\n"
              "    const char *key;\n"
              "    int32_t n_inputs, n_outputs;\n"
              "    const %s_tensor_info *inputs, *outputs;\n"
              "    int32_t (*run)(void *const *inputs, void *const *outputs);\n"
              "} %s_signature_info;\n\n"
              "extern const %s_signature_info %s_signatures[];\n"
              "extern const int32_t %s_n_signatures;\n\n",
              nm, nm, nm, nm, nm, nm, nm, nm);
    if (p->n_states)
        state_metadata_header(e, b);
    batch_table_decl(e, b);
    sb_printf(b, "#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s_H_ */\n", e->NAME);
}

/* ---- the source ---------------------------------------------------------------------- */

/* Appends items to an initialiser, wrapping lines. */
typedef struct wrap {
    sbuf *b;
    size_t col;
    int first;
} wrap;

static void wrap_item(wrap *w, const char *item)
{
    size_t n = strlen(item);
    if (!w->first) {
        sb_putc(w->b, ',');
        w->col++;
    }
    if (w->first || w->col + 1 + n > LINE_MAX_COLS) {
        sb_puts(w->b, w->first ? "    " : "\n    ");
        w->col = 4;
    } else {
        sb_putc(w->b, ' ');
        w->col++;
    }
    sb_puts(w->b, item);
    w->col += n;
    w->first = 0;
}

/* The type of weight wi's object up to (not including) its name: a union
** with a tag (so that NAME.c and NAME_weights.c declare the same type) for
** bit-pattern storage, else the element type. */
static void weight_type(emitter *e, sbuf *b, int32_t wi)
{
    sm2c_tensor sv = scalar_view(&e->p->weights[wi].value);
    const sm2c_tensor *v = &sv;
    const ctype *t = ctype_of(v->dtype);
    long long dim = v->nelem > 0 ? (long long)v->nelem : 1;
    if (!e->wbits[wi]) {
        sb_printf(b, "const %s ", t->c);
        return;
    }
    sb_puts(b, "const union ");
    if (e->weights_tu)
        sb_printf(b, "%s_u ", e->wname[wi]);
    if (e->wbits[wi] == WEIGHT_STRING)
        sb_printf(b, "{\n    unsigned char b[%zu];\n    %s f[%lld];\n} ", v->nbytes, t->c, dim);
    else
        sb_printf(b, "{\n    uint%d_t u[%lld];\n    %s f[%lld];\n} ", t->size * 8, dim, t->c, dim);
}

/* One byte of a string literal: printable ASCII as itself (\\, \" and \? escaped,
** so no trigraph forms), others as the shortest octal escape that the next
** byte cannot extend. */
static void string_byte(sbuf *b, const uint8_t *d, size_t i, size_t n)
{
    uint8_t ch = d[i];
    size_t cost = string_cost(d, i, n);
    if (cost == 1)
        sb_putc(b, (char)ch);
    else if (ch >= 0x20 && ch < 0x7f)
        sb_printf(b, "\\%c", ch);
    else
        sb_printf(b, cost == 4 ? "\\%03o" : "\\%o", ch);
}

/* Bytes as adjacent string literals of about 100 columns (one literal to the
** compiler; an escape never spans two). */
static void emit_string_values(sbuf *b, const sm2c_tensor *v)
{
    const uint8_t *d = v->data;
    size_t col = 0;
    sb_putc(b, '"');
    for (size_t i = 0; i < v->nbytes; i++) {
        if (col >= LINE_MAX_COLS - 6) {
            sb_puts(b, "\"\n\"");
            col = 0;
        }
        size_t before = b->len;
        string_byte(b, d, i, v->nbytes);
        col += b->len - before;
    }
    sb_puts(b, "\"\n");
}

/* A weights translation unit's definitions: hex words, commas only, ~100 columns. */
static void emit_packed_values(sbuf *b, const sm2c_tensor *v, int size)
{
    const uint8_t *d = v->data;
    size_t col = 0;
    for (int64_t i = 0; i < v->nelem; i++) {
        uint64_t u = load_le(d + (size_t)i * (size_t)size, size);
        char item[24];
        int n = u ? snprintf(item, sizeof item, "0x%" PRIx64 ",", u) : snprintf(item, sizeof item, "0,");
        if (col + (size_t)n > LINE_MAX_COLS) {
            sb_putc(b, '\n');
            col = 0;
        }
        sb_putn(b, item, (size_t)n);
        col += (size_t)n;
    }
    sb_putc(b, '\n');
}

/* An extern declaration of weight wi, for NAME.c when the weights are apart. */
static void emit_weight_decl(emitter *e, int32_t wi)
{
    sm2c_tensor sv = scalar_view(&e->p->weights[wi].value);
    const sm2c_tensor *v = &sv;
    sb_puts(&e->s, "extern ");
    weight_type(e, &e->s, wi);
    sb_puts(&e->s, e->wname[wi]);
    if (!e->wbits[wi])
        sb_printf(&e->s, "[%lld]", v->nelem > 0 ? (long long)v->nelem : 1LL);
    sb_puts(&e->s, ";\n");
}

static void emit_weight_packed(emitter *e, int32_t wi)
{
    const sm2c_weight *wt = &e->p->weights[wi];
    sbuf *b = &e->w;
    int string = e->wbits[wi] == WEIGHT_STRING;
    sb_puts(b, "/* \"");
    sb_comment(b, wt->name);
    sb_printf(b, "\" %s", sm2c_dtype_name(wt->value.dtype));
    shape_text(b, &wt->value.shape);
    sb_puts(b, string ? "; its little-endian bytes, read through `f` */\nSM2C_ALIGN "
                      : "; its elements' bit patterns, read through `f` */\nSM2C_ALIGN ");
    weight_type(e, b, wi);
    if (string) {
        sb_printf(b, "%s = {\n", e->wname[wi]);
        emit_string_values(b, &wt->value);
        sb_puts(b, "};\n\n");
        return;
    }
    sb_printf(b, "%s = { {\n", e->wname[wi]);
    sm2c_tensor sv = scalar_view(&wt->value);
    emit_packed_values(b, &sv, ctype_of(sv.dtype)->size);
    sb_puts(b, "} };\n\n");
}

static void emit_weight(emitter *e, int32_t wi)
{
    const sm2c_weight *wt = &e->p->weights[wi];
    sm2c_tensor view = scalar_view(&wt->value);
    const sm2c_tensor *v = &view;
    const ctype *t = ctype_of(v->dtype);
    sbuf *b = e->weights_tu ? &e->w : &e->s;
    const char *storage = e->weights_tu ? "" : "static ";
    int64_t n = v->nelem;
    int64_t dim = n > 0 ? n : 1;
    int bits = e->wbits[wi];
    const uint8_t *d = v->data;
    char item[64];

    sb_puts(b, "/* \"");
    sb_comment(b, wt->name);
    sb_printf(b, "\" %s", sm2c_dtype_name(wt->value.dtype));
    shape_text(b, &v->shape);
    if (bits)
        sb_printf(b, "; holds NaN or Inf, so it is stored as IEEE-754 bit patterns in `u`\n"
                     " * and read through `f` (type punning through a union, C99 6.5.2.3)");
    else if (t->kind == K_BITS16)
        sb_puts(b, "; raw 16-bit patterns");
    sb_puts(b, " */\n");
    if (bits) {
        sb_printf(b, "%sSM2C_ALIGN ", storage);
        weight_type(e, b, wi);
        sb_printf(b, "%s = { {\n", e->wname[wi]);
    } else {
        sb_printf(b, "%sSM2C_ALIGN const %s %s[%lld] = {\n", storage, t->c, e->wname[wi],
                  (long long)dim);
    }
    wrap w = { b, 0, 1 };
    if (n == 0)
        wrap_item(&w, "0");
    for (int64_t i = 0; i < n; i++) {
        uint64_t u = load_le(d + (size_t)i * (size_t)t->size, t->size);
        if (bits)
            sm2c_c_bits_literal(item, sizeof item, u, t->kind == K_F32);
        else if (t->kind == K_F32)
            sm2c_c_real_literal(item, sizeof item, (double)bits_to_float((uint32_t)u), 1);
        else if (t->kind == K_F64)
            sm2c_c_real_literal(item, sizeof item, bits_to_double(u), 0);
        else if (t->kind == K_BITS16)
            snprintf(item, sizeof item, "0x%04x", (unsigned)u);
        else if (t->kind == K_UINT)
            snprintf(item, sizeof item, "%" PRIu64 "%s", u, t->size >= 4 ? "u" : "");
        else {
            int64_t sv = (int64_t)u;    /* sign-extend from t->size bytes */
            if (t->size < 8 && (u >> (t->size * 8 - 1)) & 1)
                sv = (int64_t)(u | ~((UINT64_C(1) << (t->size * 8)) - 1));
            sm2c_c_sint_literal(item, sizeof item, sv);
        }
        wrap_item(&w, item);
    }
    sb_puts(b, bits ? "\n} };\n\n" : "\n};\n\n");
}

static void arg_text(emitter *e, sbuf *b, int32_t k, const sm2c_arg *ar)
{
    const sm2c_entry *en = &e->p->entries[k];
    char item[64];
    switch (ar->kind) {
    case SM2C_ARG_BUF: {
        const sm2c_buffer *bf = &en->buffers[ar->buf];
        if (bf->kind == SM2C_BUF_INPUT)
            sb_puts(b, e->en[k].in[bf->index]);
        else if (bf->kind == SM2C_BUF_OUTPUT)
            sb_puts(b, e->en[k].out[bf->index]);
        else if (bf->kind == SM2C_BUF_ARENA)
            sb_printf(b, "t%d", ar->buf);
        else if (bf->kind == SM2C_BUF_STATE)
            sb_printf(b, "state->%s", e->p->states[bf->index].c_name);
        else {
            sb_puts(b, e->wname[bf->index]);
            if (e->wbits[bf->index])
                sb_puts(b, ".f");
        }
        break;
    }
    case SM2C_ARG_NULL:
        sb_puts(b, "NULL");
        break;
    case SM2C_ARG_INT:
        sm2c_c_sint_literal(item, sizeof item, ar->i);
        sb_puts(b, item);
        break;
    case SM2C_ARG_FLOAT: {
        uint32_t bits;
        memcpy(&bits, &ar->f, 4);
        if (float_bits_finite(bits)) {
            sm2c_c_real_literal(item, sizeof item, (double)ar->f, 1);
            sb_puts(b, item);
        } else {
            sb_printf(b, "%s.f", float_name(e, bits));
        }
        break;
    }
    case SM2C_ARG_INTS:
        sb_puts(b, ints_name(e, ar));
        break;
    }
}

static int used_as_kind(const sm2c_entry *en, int kind)
{
    for (int32_t s = 0; s < en->n_steps; s++)
        for (int32_t a = 0; a < en->steps[s].n_args; a++) {
            const sm2c_arg *ar = &en->steps[s].args[a];
            if (ar->kind == SM2C_ARG_BUF && (int)en->buffers[ar->buf].kind == kind)
                return 1;
        }
    return 0;
}

/* ---- shape-specialised layers (c_special.h) ------------------------------------------ */

/* One layer function per distinct kernel and baked arguments, named while
** the other globals are, so that parameters keep clear of them. */
static void assign_layers(emitter *e)
{
    sm2c_arena *a = e->c->arena;
    e->layer_of = sm2c_arena_array(a, (size_t)e->p->n_entries + 1, sizeof *e->layer_of);
    for (int32_t k = 0; k < e->p->n_entries; k++) {
        const sm2c_entry *en = &e->p->entries[k];
        e->layer_of[k] = sm2c_arena_array(a, (size_t)en->n_steps + 1, sizeof **e->layer_of);
        for (int32_t s = 0; s < en->n_steps; s++) {
            const sm2c_step *st = &en->steps[s];
            const sm2c_c_special *sp = sm2c_c_special_form(st);
            size_t i;
            e->layer_of[k][s] = -1;
            if (!sp)
                continue;
            for (i = 0; i < e->n_layers; i++) {
                const layer_fn *l = &e->layers[i];
                if (sm2c_c_special_same_layer(&e->p->entries[l->entry].steps[l->step], st))
                    break;
            }
            if (i == e->n_layers) {
                e->layers = grow(e->layers, &e->cap_layers, e->n_layers + 1, sizeof *e->layers);
                e->layers[i].name = global(e, sm2c_arena_printf(a, "%s_layer%zu", e->p->name, i));
                e->layers[i].sp = sp;
                e->layers[i].entry = k, e->layers[i].step = s;
                e->n_layers++;
            }
            e->layer_of[k][s] = (int32_t)i;
        }
    }
}

/* The families whose SM2C_RT_SPECIAL_ macros the layers use, each once. */
static void emit_layer_includes(emitter *e, sbuf *b)
{
    if (!e->n_layers)
        return;
    sb_puts(b, "/* On a scalar FPU the shape-specialised layers below inline the runtime's\n"
               " * loop nests; these includes define no kernel (SM2C_RT_ONLY, rt_select.h). */\n"
               "#include \"rt_target.h\"\n#if SM2C_RT_SCALAR_CORE\n#define SM2C_RT_ONLY 1\n");
    for (size_t i = 0; i < e->n_layers; i++) {
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= strcmp(e->layers[j].sp->family, e->layers[i].sp->family) == 0;
        if (!seen)
            sb_printf(b, "#include \"%s\"\n", e->layers[i].sp->family);
    }
    sb_puts(b, "#endif\n\n");
}

/* The call's arguments: the function's parameters for buffers, the rest baked. */
static void layer_args(emitter *e, sbuf *b, const layer_fn *l, const sm2c_step *st)
{
    for (int32_t a = 0; a < st->n_args; a++) {
        if (a)
            sb_puts(b, ", ");
        if (st->args[a].kind == SM2C_ARG_BUF)
            sb_printf(b, "a%d", a);
        else
            arg_text(e, b, l->entry, &st->args[a]);
    }
}

static void emit_layers(emitter *e, sbuf *b)
{
    for (size_t i = 0; i < e->n_layers; i++) {
        const layer_fn *l = &e->layers[i];
        const sm2c_step *st = &e->p->entries[l->entry].steps[l->step];
        int any = 0;
        sb_printf(b, "/* %s for one layer shape: on a scalar FPU its loop nest with the shape\n"
                     " * folded in, elsewhere the kernel. */\nstatic void %s(", st->kernel, l->name);
        for (int32_t a = 0; a < st->n_args; a++)
            if (st->args[a].kind == SM2C_ARG_BUF) {
                sb_printf(b, "%s%sfloat *a%d", any ? ", " : "", l->sp->params[a] == 'c' ? "const " : "", a);
                any = 1;
            }
        sb_printf(b, "%s)\n{\n#if SM2C_RT_SCALAR_CORE\n    SM2C_RT_SPECIAL_%s(", any ? "" : "void",
                  st->kernel + strlen("sm2c_rt_"));
        layer_args(e, b, l, st);
        sb_printf(b, ");\n#else\n    %s(", st->kernel);
        layer_args(e, b, l, st);
        sb_puts(b, ");\n#endif\n}\n\n");
    }
}

/* <fn>(args): <fn>_r on the default state (set at the first call) and the arena. */
static void emit_static_entry(emitter *e, int32_t k)
{
    const sm2c_entry *en = &e->p->entries[k];
    const entry_names *n = &e->en[k];
    sbuf *b = &e->s;
    prototype(e, b, k);
    sb_printf(b, "\n{\n    if (!%s)\n        %s_reset();\n    return %s(&%s, %s", e->state_ready, e->p->name,
              e->fn_r[k], e->default_state, e->arena);
    for (int32_t i = 0; i < en->n_inputs; i++)
        sb_printf(b, ", %s", n->in[i]);
    for (int32_t i = 0; i < en->n_outputs; i++)
        sb_printf(b, ", %s", n->out[i]);
    sb_puts(b, ");\n}\n\n");
}

/* Weight w as an expression of its element type's pointer. */
static void weight_text(emitter *e, sbuf *b, int32_t w)
{
    sb_puts(b, e->wname[w]);
    if (e->wbits[w])
        sb_puts(b, ".f");
}

/* init, reset, the default state and its flag. */
static void emit_state(emitter *e)
{
    const sm2c_program *p = e->p;
    sbuf *b = &e->s;
    sb_printf(b, "static SM2C_ALIGN %s_state %s;\nstatic uint8_t %s;\n\n", p->name, e->default_state,
              e->state_ready);
    sb_printf(b, "void %s_init(%s_state *state)\n{\n", p->name, p->name);
    for (int32_t i = 0; i < p->n_states; i++) {
        sb_printf(b, "    sm2c_rt_copy(state->%s, ", p->states[i].c_name);
        weight_text(e, b, p->states[i].init_weight);
        sb_printf(b, ", %lld);\n", (long long)p->states[i].nbytes);
    }
    sb_puts(b, "}\n\n");
    sb_printf(b, "void %s_reset(void)\n{\n    %s_init(&%s);\n    %s = 1;\n}\n\n", p->name, p->name,
              e->default_state, e->state_ready);
}

/* Four spaces per level, the function body being level 0. */
static const char *indent(int depth)
{
    static const char spaces[] = "                                                                "
                                 "                                                                "
                                 "                                                                "
                                 "                                                                    ";
    int n = 4 * (depth + 1);
    if (n > (int)sizeof spaces - 1)
        n = (int)sizeof spaces - 1;
    return spaces + sizeof spaces - 1 - n;
}

/* The comment before a step: its TF node, op and function (where in the model it came from). */
static void step_comment(sbuf *b, const char *ind, const sm2c_step *sp)
{
    sb_printf(b, "%s/* ", ind);
    sb_comment(b, sp->node);
    sb_puts(b, " (");
    sb_comment(b, sp->op);
    sb_putc(b, ')');
    if (sp->function && *sp->function) {
        sb_puts(b, " in ");
        sb_comment(b, sp->function);
    }
    sb_puts(b, " */");
}

/* A structured control step (program.h) as plain C: if/else and for (;;). */
static void emit_control(emitter *e, sbuf *b, int32_t k, const sm2c_step *sp, int *depth)
{
    if (sp->control == SM2C_CTL_ELSE || sp->control == SM2C_CTL_END_IF || sp->control == SM2C_CTL_END_LOOP)
        (*depth)--;
    const char *ind = indent(*depth);
    step_comment(b, ind, sp);
    sb_putc(b, '\n');
    char lit[64];
    switch (sp->control) {
    case SM2C_CTL_IF:
        sb_printf(b, "%sif (*", ind);
        arg_text(e, b, k, &sp->args[0]);
        sm2c_c_sint_literal(lit, sizeof lit, sp->imm);
        if (sp->imm < 0)
            sb_puts(b, " != 0) {\n");
        else
            sb_printf(b, " == %s) {\n", lit);
        (*depth)++;
        break;
    case SM2C_CTL_ELSE:
        sb_printf(b, "%s} else {\n", ind);
        (*depth)++;
        break;
    case SM2C_CTL_LOOP:
        sb_printf(b, "%s*", ind);
        arg_text(e, b, k, &sp->args[0]);
        sb_printf(b, " = 0;\n%sfor (;;) {\n", ind);
        (*depth)++;
        break;
    case SM2C_CTL_BREAK_UNLESS:
        sm2c_c_sint_literal(lit, sizeof lit, sp->imm);
        sb_printf(b, "%sif (*", ind);
        arg_text(e, b, k, &sp->args[0]);
        sb_printf(b, " == 0)\n%s    break;\n%sif (*", ind, ind);
        arg_text(e, b, k, &sp->args[1]);
        sb_printf(b, " >= %s)\n%s    return SM2C_RT_ERR_ITERATIONS;\n%s++*", lit, ind, ind);
        arg_text(e, b, k, &sp->args[1]);
        sb_puts(b, ";\n");
        break;
    default:    /* SM2C_CTL_END_IF, SM2C_CTL_END_LOOP */
        sb_printf(b, "%s}\n", ind);
        break;
    }
}

static int has_checked_step(const sm2c_entry *en)
{
    for (int32_t s = 0; s < en->n_steps; s++)
        if (en->steps[s].checked)
            return 1;
    return 0;
}

/* Argument i of entry k at row `row`: batched ports advance one row per row. */
static void row_arg(emitter *e, sbuf *b, int32_t k, int32_t i)
{
    const sm2c_entry *en = &e->p->entries[k];
    int in = i < en->n_inputs;
    const sm2c_port *pt = in ? &en->inputs[i] : &en->outputs[i - en->n_inputs];
    const char *name = in ? e->en[k].in[i] : e->en[k].out[i - en->n_inputs];
    int64_t rows = en->max_batch;
    if (pt->batched && rows > 0)
        sb_printf(b, "%s + (size_t)row * %lld", name,
                  (long long)(sm2c_shape_elements(&pt->shape, INT64_MAX / 8) / rows));
    else
        sb_puts(b, name);
}

/* --max-batch: the entry point checks the batch and runs the one-row
** function on each row in turn. */
static void emit_batch_loop(emitter *e, int32_t k)
{
    const sm2c_entry *en = &e->p->entries[k];
    const entry_names *n = &e->en[k];
    sbuf *b = &e->s;
    if (!en->max_batch)
        return;
    prototype(e, b, k);
    sb_printf(b, "\n{\n    int32_t row;\n    if (%s < 1 || %s > %s_%s_MAX_BATCH)\n"
                 "        return SM2C_RT_ERR_BATCH;\n    for (row = 0; row < %s; row++) {\n"
                 "        int32_t status = %s(", n->batch, n->batch, e->NAME, upper(e, en->c_name),
              n->batch, n->row);
    for (int32_t i = 0; i < en->n_inputs + en->n_outputs; i++) {
        if (i)
            sb_puts(b, ", ");
        row_arg(e, b, k, i);
    }
    sb_puts(b, ");\n        if (status != SM2C_RT_OK)\n            return status;\n    }\n"
               "    return 0;\n}\n\n");
}

static void emit_entry(emitter *e, int32_t k)
{
    const sm2c_entry *en = &e->p->entries[k];
    const entry_names *n = &e->en[k];
    sbuf *b = &e->s;
    if (e->p->n_states)
        prototype_r(e, b, k);   /* --max-batch programs have no state */
    else
        steps_prototype(e, b, k);
    sb_puts(b, "\n{\n");
    int locals = 0;
    if (has_checked_step(en)) {
        sb_puts(b, "    int32_t status;\n");
        locals = 1;
    }
    for (int32_t id = 0; id < en->n_buffers; id++) {
        const sm2c_buffer *bf = &en->buffers[id];
        if (bf->kind != SM2C_BUF_ARENA || !arena_buf_used(en, id))
            continue;
        const char *ct = ctype_of(bf->dtype)->c;
        if (e->p->n_states)
            sb_printf(b, "    %s *t%d = (%s *)(void *)((uint8_t *)workspace + %lld); /* \"", ct, id, ct,
                      (long long)bf->offset);
        else
            sb_printf(b, "    %s *t%d = (%s *)(void *)(%s + %lld); /* \"", ct, id, ct, e->arena,
                      (long long)bf->offset);
        sb_comment(b, bf->name);
        sb_printf(b, "\" %s", sm2c_dtype_name(bf->dtype));
        shape_text(b, &bf->shape);
        sb_puts(b, " */\n");
        locals = 1;
    }
    for (int32_t i = 0; i < en->n_inputs; i++)
        if (!used_as(en, SM2C_BUF_INPUT, i)) {
            sb_printf(b, "    (void)%s;\n", n->in[i]);
            locals = 1;
        }
    for (int32_t i = 0; i < en->n_outputs; i++)
        if (!used_as(en, SM2C_BUF_OUTPUT, i)) {
            sb_printf(b, "    (void)%s;\n", n->out[i]);
            locals = 1;
        }
    if (e->p->n_states && !used_as_kind(en, SM2C_BUF_STATE)) {
        sb_puts(b, "    (void)state;\n");
        locals = 1;
    }
    if (e->p->n_states && !used_as_kind(en, SM2C_BUF_ARENA)) {
        sb_puts(b, "    (void)workspace;\n");
        locals = 1;
    }
    if (locals)
        sb_putc(b, '\n');
    int depth = 0;
    for (int32_t s = 0; s < en->n_steps; s++) {
        const sm2c_step *sp = &en->steps[s];
        const char *ind = indent(depth);
        if (sp->control) {
            emit_control(e, b, k, sp, &depth);
            continue;
        }
        step_comment(b, ind, sp);
        if (e->layer_of[k][s] >= 0) {   /* its layer function takes the buffers */
            int any = 0;
            sb_printf(b, "\n%s%s(", ind, e->layers[e->layer_of[k][s]].name);
            for (int32_t a = 0; a < sp->n_args; a++)
                if (sp->args[a].kind == SM2C_ARG_BUF) {
                    if (any++)
                        sb_puts(b, ", ");
                    arg_text(e, b, k, &sp->args[a]);
                }
            sb_puts(b, ");\n");
            continue;
        }
        sb_printf(b, "\n%s%s%s(", ind, sp->checked ? "status = " : "", sp->kernel);
        for (int32_t a = 0; a < sp->n_args; a++) {
            if (a)
                sb_puts(b, ", ");
            arg_text(e, b, k, &sp->args[a]);
        }
        if (sp->checked)
            sb_printf(b, ");\n%sif (status != SM2C_RT_OK)\n%s    return status;\n", ind, ind);
        else
            sb_puts(b, ");\n");
    }
    sb_puts(b, "    return 0;\n}\n\n");
    if (e->p->n_states)
        emit_static_entry(e, k);
    emit_batch_loop(e, k);
}

/* <name>_state_table: see state_metadata_header. */
static void emit_state_metadata(emitter *e)
{
    const sm2c_program *p = e->p;
    const char *nm = p->name;
    sbuf *b = &e->s;
    sb_putc(b, '\n');
    for (int32_t i = 0; i < p->n_states; i++) {
        const sm2c_state *st = &p->states[i];
        if (st->shape.rank <= 0)
            continue;
        sb_printf(b, "static const int64_t %s[%d] = {", e->state_dims[i], st->shape.rank);
        for (int32_t j = 0; j < st->shape.rank; j++)
            sb_printf(b, "%s%lld", j ? ", " : "", (long long)st->shape.dims[j]);
        sb_puts(b, "};\n");
    }
    sb_printf(b, "static const %s_variable_info %s_state_variables[%d] = {\n", nm, nm, p->n_states);
    for (int32_t i = 0; i < p->n_states; i++) {
        const sm2c_state *st = &p->states[i];
        sb_puts(b, "    { ");
        sb_cstring(b, st->key);
        sb_printf(b, ", %d, %d, ", sm2c_dtype_base(st->dtype), st->shape.rank);
        sb_puts(b, e->state_dims[i] ? e->state_dims[i] : "NULL");
        sb_printf(b, ", %lld, (int64_t)offsetof(%s_state, %s) },\n", (long long)st->nbytes, nm, st->c_name);
    }
    sb_puts(b, "};\n");
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        sb_printf(b, "\nstatic int32_t %s(void *state, void *workspace, void *const *inputs, "
                     "void *const *outputs)\n{\n", e->run_r[k]);
        if (!en->n_inputs)
            sb_puts(b, "    (void)inputs;\n");
        if (!en->n_outputs)
            sb_puts(b, "    (void)outputs;\n");
        sb_printf(b, "    return %s((%s_state *)state, workspace", e->fn_r[k], nm);
        for (int32_t i = 0; i < en->n_inputs; i++)
            sb_printf(b, ", (const %s *)inputs[%d]", ctype_of(en->inputs[i].dtype)->c, i);
        for (int32_t i = 0; i < en->n_outputs; i++)
            sb_printf(b, ", (%s *)outputs[%d]", ctype_of(en->outputs[i].dtype)->c, i);
        sb_puts(b, ");\n}\n");
    }
    sb_printf(b, "\nstatic int32_t (*const %s_runs_r[%d])(void *, void *, void *const *, void *const *) = {\n",
              nm, p->n_entries);
    for (int32_t k = 0; k < p->n_entries; k++)
        sb_printf(b, "    %s,\n", e->run_r[k]);
    sb_printf(b, "};\nstatic const int32_t %s_writes_state[%d] = {", nm, p->n_entries);
    for (int32_t k = 0; k < p->n_entries; k++)
        sb_printf(b, "%s%d", k ? ", " : "", p->entries[k].writes_state);
    sb_printf(b, "};\n\nstatic void %s_init_any(void *state)\n{\n    %s_init((%s_state *)state);\n}\n\n",
              nm, nm, nm);
    sb_printf(b, "const %s_state_info %s_state_table = {\n    %s_STATE_SIZE, %s_WORKSPACE_SIZE, %d, "
                 "%s_state_variables,\n    %s_init_any, %s_reset, %s_writes_state, %s_runs_r\n};\n",
              nm, nm, e->NAME, e->NAME, p->n_states, nm, nm, nm, nm, nm);
}

/* The metadata's `run` (batched entries at max_batch rows), or with
** `batched` its `run_batch`, taking the batch first. */
static void emit_runner(emitter *e, int32_t k, int batched)
{
    const sm2c_entry *en = &e->p->entries[k];
    const entry_names *n = &e->en[k];
    sbuf *b = &e->s;
    if (batched && !en->max_batch)
        return;
    sb_printf(b, "\nstatic int32_t %s(%svoid *const *inputs, void *const *outputs)\n{\n",
              batched ? n->run_batch : n->run, batched ? "int32_t batch, " : "");
    if (!en->n_inputs)
        sb_puts(b, "    (void)inputs;\n");
    if (!en->n_outputs)
        sb_puts(b, "    (void)outputs;\n");
    sb_printf(b, "    return %s(", n->fn);
    if (batched)
        sb_printf(b, "batch%s", en->n_inputs + en->n_outputs ? ", " : "");
    else if (en->max_batch)
        sb_printf(b, "%d%s", (int)en->max_batch, en->n_inputs + en->n_outputs ? ", " : "");
    for (int32_t i = 0; i < en->n_inputs; i++)
        sb_printf(b, "%s(const %s *)inputs[%d]", i ? ", " : "",
                  ctype_of(en->inputs[i].dtype)->c, i);
    for (int32_t i = 0; i < en->n_outputs; i++)
        sb_printf(b, "%s(%s *)outputs[%d]", i + en->n_inputs ? ", " : "",
                  ctype_of(en->outputs[i].dtype)->c, i);
    sb_puts(b, ");\n}\n\n");
}

static const char *batched_flags(emitter *e, const sm2c_port *ports, int32_t n, const char *base)
{
    if (n == 0)
        return "NULL";
    const char *name = global(e, base);
    sb_printf(&e->s, "static const int32_t %s[%d] = {", name, n);
    for (int32_t i = 0; i < n; i++)
        sb_printf(&e->s, "%s%d", i ? ", " : "", (int)ports[i].batched);
    sb_puts(&e->s, "};\n");
    return name;
}

static void batch_table(emitter *e)
{
    const sm2c_program *p = e->p;
    if (!any_batched(p))
        return;
    const char **rows = sm2c_arena_array(e->c->arena, (size_t)p->n_entries + 1, sizeof *rows);
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        if (!en->max_batch) {
            rows[k] = "{ 0, NULL, NULL, NULL }";
            continue;
        }
        const char *bi = batched_flags(e, en->inputs, en->n_inputs, sm2c_arena_printf(e->c->arena, "%s_bi%d", p->name, k));
        const char *bo = batched_flags(e, en->outputs, en->n_outputs, sm2c_arena_printf(e->c->arena, "%s_bo%d", p->name, k));
        rows[k] = sm2c_arena_printf(e->c->arena, "{ %d, %s, %s, %s }", (int)en->max_batch, bi, bo, e->en[k].run_batch);
    }
    sb_printf(&e->s, "const %s_batch_info %s_batches[%d] = {\n", p->name, p->name, p->n_entries);
    for (int32_t k = 0; k < p->n_entries; k++)
        sb_printf(&e->s, "    %s,\n", rows[k]);
    sb_puts(&e->s, "};\n");
}

static void emit_metadata(emitter *e)
{
    const sm2c_program *p = e->p;
    sbuf *b = &e->s;
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        const entry_names *n = &e->en[k];
        for (int pass = 0; pass < 2; pass++) {
            const sm2c_port *ports = pass ? en->outputs : en->inputs;
            int32_t np = pass ? en->n_outputs : en->n_inputs;
            const char **dims = pass ? n->out_dims : n->in_dims;
            for (int32_t i = 0; i < np; i++) {
                if (!dims[i])
                    continue;
                sb_printf(b, "static const int64_t %s[%d] = {", dims[i], ports[i].shape.rank);
                for (int32_t j = 0; j < ports[i].shape.rank; j++)
                    sb_printf(b, "%s%lld", j ? ", " : "", (long long)ports[i].shape.dims[j]);
                sb_puts(b, "};\n");
            }
            if (!np)
                continue;
            sb_printf(b, "static const %s_tensor_info %s[%d] = {\n", p->name,
                      pass ? n->out_info : n->in_info, np);
            for (int32_t i = 0; i < np; i++) {
                sb_puts(b, "    { ");
                sb_cstring(b, ports[i].key);
                char scale[64];
                sm2c_c_real_literal(scale, sizeof scale, (double)ports[i].scale, 1);
                sb_printf(b, ", %d, %d, %s, %lld, %d, %s, %d },\n", sm2c_dtype_base(ports[i].dtype),
                          ports[i].shape.rank, dims[i] ? dims[i] : "NULL",
                          (long long)port_bytes(&ports[i]), (int)ports[i].dynamic - 1, scale,
                          (int)ports[i].zero_point);
            }
            sb_puts(b, "};\n");
        }
        emit_runner(e, k, 0);
        emit_runner(e, k, 1);
    }
    sb_printf(b, "const %s_signature_info %s_signatures[%d] = {\n", p->name, p->name,
              p->n_entries);
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        const entry_names *n = &e->en[k];
        sb_puts(b, "    { ");
        sb_cstring(b, en->key);
        sb_printf(b, ", %d, %d, %s, %s, %s },\n", en->n_inputs, en->n_outputs,
                  n->in_info ? n->in_info : "NULL", n->out_info ? n->out_info : "NULL", n->run);
    }
    sb_printf(b, "};\nconst int32_t %s_n_signatures = %d;\n", p->name, p->n_entries);
    if (p->n_states)
        emit_state_metadata(e);
    batch_table(e);
}

static const char align_macro[] =
    "/* Weights and the arena are 64-byte aligned (reliability.md rule 1). */\n"
    "#ifndef SM2C_ALIGN\n"
    "#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L\n"
    "#define SM2C_ALIGN _Alignas(64)\n"
    "#elif defined(__GNUC__) || defined(__clang__)\n"
    "#define SM2C_ALIGN __attribute__((aligned(64)))\n"
    "#elif defined(_MSC_VER)\n"
    "#define SM2C_ALIGN __declspec(align(64))\n"
    "#else\n"
    "#define SM2C_ALIGN\n"
    "#endif\n"
    "#endif\n\n";

/* NAME_weights.c: every used weight, with external linkage, apart from the
** code so that a change to the code does not recompile them. */
static void emit_weights_source(emitter *e)
{
    sbuf *b = &e->w;
    banner(e, b);
    sb_puts(b, "#include <stdint.h>\n\n");
    sb_puts(b, align_macro);
    int strings = 0, wide = 0;
    for (int32_t w = 0; w < e->p->n_weights; w++)
        if (e->wname[w] && e->wbits[w] == WEIGHT_STRING) {
            strings = 1;
            wide |= sm2c_dtype_size(e->p->weights[w].value.dtype) > 1;
        }
    if (wide)
        sb_printf(b, "/* Some weights are their bytes in little-endian order. */\n"
                     "#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && "
                     "__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__\n"
                     "#error \"sm2c: %s_weights.c is for little-endian targets; use --weights obj\"\n"
                     "#endif\n\n", e->p->name);
    if (strings)
        sb_puts(b, "/* Whole tensors as one string literal each: longer than the 4095 characters\n"
                   " * C99 promises, which GCC and clang take. */\n"
                   "#if defined(__GNUC__)\n#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n"
                   "#endif\n\n");
    for (int32_t w = 0; w < e->p->n_weights; w++) {
        if (!e->wname[w])
            continue;
        if (e->wbits[w])
            emit_weight_packed(e, w);
        else
            emit_weight(e, w);
    }
}

static void emit_source(emitter *e)
{
    const sm2c_program *p = e->p;
    sbuf *b = &e->s;
    banner(e, b);
    sb_printf(b, "#include \"%s.h\"\n#include \"sm2c_rt.h\"\n\n", p->name);
    emit_layer_includes(e, b);
    sb_puts(b,
            "#if defined(__FAST_MATH__)\n"
            "#error \"sm2c: do not build generated code with -ffast-math: results would differ from TensorFlow\"\n"
            "#endif\n\n");
    sb_puts(b, align_macro);
    if (e->weights_tu) {
        emit_weights_source(e);
        sb_printf(b, "/* The weights, defined in %s_weights.c (or its object). */\n", p->name);
    }
    for (int32_t w = 0; w < p->n_weights; w++)
        if (e->wname[w]) {
            if (e->weights_tu)
                emit_weight_decl(e, w);
            else
                emit_weight(e, w);
        }
    if (e->weights_tu)
        sb_putc(b, '\n');
    for (size_t i = 0; i < e->n_ints; i++) {
        const ints_const *k = &e->ints[i];
        char item[64];
        sb_printf(b, "static const int32_t %s[%d] = {", k->name, k->n > 0 ? k->n : 1);
        if (k->n == 0)
            sb_puts(b, "0");
        for (int32_t j = 0; j < k->n; j++) {
            sm2c_c_sint_literal(item, sizeof item, k->v[j]);
            sb_printf(b, "%s%s", j ? ", " : "", item);
        }
        sb_puts(b, "};\n");
    }
    if (e->n_ints)
        sb_putc(b, '\n');
    for (size_t i = 0; i < e->n_floats; i++)
        sb_printf(b, "/* %s as its bit pattern (NaN payloads and infinities have no literal) */\n"
                     "static const union {\n    uint32_t u;\n    float f;\n} %s = { 0x%08" PRIx32
                     "u };\n\n",
                  isnan(bits_to_float(e->floats[i].bits)) ? "NaN" : "Infinity",
                  e->floats[i].name, e->floats[i].bits);
    if (e->arena)
        sb_printf(b, "static SM2C_ALIGN uint8_t %s[%s_ARENA_SIZE > 0 ? %s_ARENA_SIZE : 1];\n\n",
                  e->arena, e->NAME, e->NAME);
    emit_layers(e, b);
    if (p->n_states)
        emit_state(e);
    for (int32_t k = 0; k < p->n_entries; k++)
        emit_entry(e, k);
    emit_metadata(e);
}

static void emitter_free(emitter *e)
{
    free(e->gnames);
    free(e->ints);
    free(e->floats);
    free(e->layers);
    free(e->h.p);
    free(e->s.p);
    free(e->w.p);
}

/* Fills e->h and e->s. */
static sm2c_status generate(emitter *e)
{
    sm2c_status st = sm2c_program_check(e->c, e->p, "C", c_elem_size);
    if (!st)
        st = assign_names(e);
    if (st)
        return st;
    emit_header(e);
    /* Float constants are named while the source is written; none are added
    ** later than assign_names, which already walked every argument. */
    emit_source(e);
    return SM2C_OK;
}

sm2c_status sm2c_emit_c_text(sm2c_ctx *c, const sm2c_program *p, char **header, char **source)
{
    emitter e;
    memset(&e, 0, sizeof e);
    e.c = c;
    e.p = p;
    sm2c_status st = generate(&e);
    if (!st) {
        *header = sm2c_arena_strndup(c->arena, e.h.p, e.h.len);
        *source = sm2c_arena_strndup(c->arena, e.s.p, e.s.len);
    }
    emitter_free(&e);
    return st;
}

/* ---- output files ------------------------------------------------------------------ */

/* NAME.h and NAME.c may not take the name of a runtime file (any runtime file,
** so that whether a name is refused does not depend on the model). */
static sm2c_status check_name_clash(sm2c_ctx *c, const char *name, const char *hname, const char *cname)
{
    for (size_t i = 0; i < sm2c_embedded_runtime_count; i++) {
        const char *f = sm2c_embedded_runtime[i].name;
        if (strcmp(f, hname) == 0 || strcmp(f, cname) == 0)
            return sm2c_error(c->diag, SM2C_ERR_USAGE, name, NULL,
                              "the name '%s' clashes with the runtime file %s; choose another --name", name, f);
    }
    for (size_t k = 0; k < sm2c_rt_kernel_count; k++)
        if (sm2c_rt_kernels[k].wrapper && strcmp(sm2c_rt_kernels[k].name, name) == 0)
            return sm2c_error(c->diag, SM2C_ERR_USAGE, name, NULL,
                              "the name '%s' clashes with the runtime file %s.c; choose another --name", name, name);
    return SM2C_OK;
}

/* Publishes what e generated: the header, the source (with_source), the
** runtime files its kernels need (with_runtime) and the extra files. */
static sm2c_status publish_files(emitter *e, const char *outdir, int with_source, int with_runtime,
                                 const sm2c_extra_file *extra, size_t n_extra)
{
    sm2c_ctx *c = e->c;
    const sm2c_program *p = e->p;
    sm2c_status st = SM2C_OK;
    sm2c_outfile *rt = NULL;
    size_t n_rt = 0;
    if (with_runtime) {
        const char **kernels;
        size_t nk = sm2c_program_kernels(c, p, &kernels);
        st = sm2c_runtime_select(c, kernels, nk, &rt, &n_rt);
    }
    const char *hname = sm2c_arena_printf(c->arena, "%s.h", p->name);
    const char *cname = sm2c_arena_printf(c->arena, "%s.c", p->name);
    if (!st)
        st = check_name_clash(c, p->name, hname, cname);
    if (!st) {
        sm2c_outfile *files = sm2c_arena_array(c->arena, n_rt + n_extra + 2, sizeof *files);
        size_t n = 0;
        files[n++] = (sm2c_outfile){ hname, e->h.p, e->h.len };
        if (with_source)
            files[n++] = (sm2c_outfile){ cname, e->s.p, e->s.len };
        for (size_t i = 0; i < n_rt; i++)
            files[n++] = rt[i];
        for (size_t i = 0; i < n_extra; i++)
            files[n++] = (sm2c_outfile){ extra[i].name, extra[i].data, extra[i].len };
        st = sm2c_publish(c, outdir, p->source, files, n);
    }
    return st;
}

sm2c_status sm2c_emit_c_files(sm2c_ctx *c, const sm2c_program *p, const char *outdir,
                              int with_source, int with_runtime, const sm2c_extra_file *extra,
                              size_t n_extra)
{
    emitter e;
    memset(&e, 0, sizeof e);
    e.c = c;
    e.p = p;
    e.header_only = !with_source;
    sm2c_status st = generate(&e);
    if (!st)
        st = publish_files(&e, outdir, with_source, with_runtime, extra, n_extra);
    emitter_free(&e);
    return st;
}

int sm2c_weights_form_parse(const char *s, sm2c_weights_form *out)
{
#define SM2C_WEIGHTS_NAME(form, name) name,
    static const char *const names[] = { SM2C_WEIGHTS_FORMS(SM2C_WEIGHTS_NAME) };
#undef SM2C_WEIGHTS_NAME
    for (int i = 0; i < SM2C_WEIGHTS_N_FORMS; i++)
        if (strcmp(s, names[i]) == 0)
            return *out = (sm2c_weights_form)i, 1;
    return 0;
}

/* NAME_weights.o through LLVM, made in a private directory and read back. */
static sm2c_status weights_object(emitter *e, const sm2c_target *t, sm2c_extra_file *out)
{
    sm2c_ctx *c = e->c;
    char *dir = sm2c_tmpdir(c, "sm2c-weights");
    if (!dir)
        return SM2C_ERR_INVALID;
    const char *name = sm2c_arena_printf(c->arena, "%s_weights.o", e->p->name);
    const char *path = sm2c_path_join(c->arena, dir, name);
    sm2c_buf data;
    sm2c_llvm_opts o = { .target = *t };
    sm2c_status st = sm2c_emit_llvm_weights(c, e->p, &o, e->wname, path);
    if (!st)
        st = sm2c_read_file(c, AT_FDCWD, path, path, INT64_MAX, &data);
    sm2c_rmtree(dir);
    if (!st)
        *out = (sm2c_extra_file){ name, data.data, data.len };
    return st;
}

sm2c_status sm2c_emit_c_weights_apart(sm2c_ctx *c, const sm2c_program *p, sm2c_weights_form form,
                                      const sm2c_target *t, const char *outdir)
{
    if (form == SM2C_WEIGHTS_INLINE)
        return sm2c_emit_c(c, p, outdir);
    emitter e;
    memset(&e, 0, sizeof e);
    e.c = c;
    e.p = p;
    e.weights_tu = 1;
    sm2c_extra_file weights = { sm2c_arena_printf(c->arena, "%s_weights.c", p->name), NULL, 0 };
    sm2c_status st = generate(&e);
    if (!st && form == SM2C_WEIGHTS_OBJ)
        st = weights_object(&e, t, &weights);
    else if (!st)
        weights.data = e.w.p, weights.len = e.w.len;
    if (!st)
        st = publish_files(&e, outdir, 1, 1, &weights, 1);
    emitter_free(&e);
    return st;
}

sm2c_status sm2c_emit_c(sm2c_ctx *c, const sm2c_program *p, const char *outdir)
{
    return sm2c_emit_c_files(c, p, outdir, 1, 1, NULL, 0);
}

sm2c_status sm2c_emit_runtime(sm2c_ctx *c, const char *const *kernels, size_t n, const char *outdir)
{
    sm2c_outfile *files;
    size_t nf = 0;
    sm2c_status st = SM2C_OK;
    if (n == 0)
        nf = sm2c_runtime_all_files(c, &files);
    for (size_t i = 0; i < n && !st; i++)
        if (!sm2c_runtime_has_kernel(kernels[i]))
            st = sm2c_error(c->diag, SM2C_ERR_USAGE, kernels[i], NULL,
                            "no runtime kernel has this name (`sm2c runtime --list` lists them)");
    if (n > 0 && !st)
        st = sm2c_runtime_select(c, kernels, n, &files, &nf);
    return st ? st : sm2c_publish(c, outdir, NULL, files, nf);
}
