/*
** emit_c_internal.h: what the C backend's files share (emit_c.c, c_names.c,
** c_header.c, c_weights.c, c_entry.c, c_tables.c): the emitter, C element
** types, and the functions one file writes for another.
*/
#ifndef SM2C_EMIT_C_INTERNAL_H
#define SM2C_EMIT_C_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "emit_c.h"
#include "c_text.h"
#include "mangle.h"
#include "base/grow.h"
#include "lower/program_query.h"
#include "lower/split.h"
#include "sm2c_rt.h"
#include "codegen/c_special.h"

/* ---- text and dtypes ------------------------------------------------------------ */

typedef sm2c_text sbuf;

enum { K_F32, K_F64, K_SINT, K_UINT, K_BITS16 };

typedef struct ctype {
    int dtype;
    const char *c;      /* C element type */
    int kind;
    int size;
} ctype;

/* ---- the emitter ------------------------------------------------------------------ */

/* How NAME_weights.c writes a weight's bytes: one string literal (fast to
** compile: a compiler keeps it as one object) while that takes under 3 bytes
** of C per byte, else for 4- and 8-byte elements hex words of their bits (2.8
** bytes of C per byte); either in a union read through its element-typed member. */
enum { WEIGHT_LITERALS = 0, WEIGHT_WORDS = 1, WEIGHT_STRING = 2 };

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
    const char *fast_arena;     /* --fast-arena: the static fast arena; NULL when no step
                                ** uses it and no _r entry passes it */
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
    const char **fn_ctx;        /* per entry: its context entry point <fn>_ctx, */
    const char **row_ctx;       /* (--max-batch) the one-row function it loops over, */
    const char **run_ctx, **runb_ctx;   /* and its metadata runners */
    int any_split;              /* some step splits (lower/split.c) */
    int ctx_body;               /* the body being written takes a context: arena buffers
                                ** are in ctx->workspace, state in ctx->state */
    int header_only;            /* the LLVM backend's header: its code calls every kernel */
    /* For the header's build note (c_header.c), set before generate(): */
    const char *code_file;      /* header_only: the LLVM output (NAME.o, .ll, .bc, .so) */
    int weights_obj;            /* weights_tu: NAME_weights.o, not .c */
} emitter;

/* ---- exact literals and element bytes ---------------------------------------------- */

/* Floats per element: 2 for complex64 (re, im), else 1. */
static inline int lanes_of(int dtype)
{
    return sm2c_dtype_base(dtype) == SM2C_DT_COMPLEX64 ? 2 : 1;
}

/* A complex64 tensor read as the float32 tensor of its parts (the same
** bytes): what the weight writers print. */
static inline sm2c_tensor scalar_view(const sm2c_tensor *v)
{
    sm2c_tensor t = *v;
    if (lanes_of(v->dtype) == 2) {
        t.dtype = SM2C_DT_FLOAT;
        t.nelem = v->nelem * 2;
    }
    return t;
}

static inline uint64_t load_le(const uint8_t *p, int size)
{
    uint64_t v = 0;
    for (int i = size - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static inline int float_bits_finite(uint32_t u)
{
    return (u & 0x7f800000u) != 0x7f800000u;
}

static inline int double_bits_finite(uint64_t u)
{
    return (u & UINT64_C(0x7ff0000000000000)) != UINT64_C(0x7ff0000000000000);
}

static inline float bits_to_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline double bits_to_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* ---- across files --------------------------------------------------------------- */

/* emit_c.c */
void sm2c_c_comment(sbuf *b, const char *s);

/* c_names.c: C element types and every name the generated files use */
const ctype *sm2c_c_ctype_of(int dtype);
const char *sm2c_c_global(emitter *e, const char *base);
const char *sm2c_c_upper(emitter *e, const char *s);
const char *sm2c_c_ints_name(emitter *e, const sm2c_arg *ar);
const char *sm2c_c_float_name(emitter *e, uint32_t bits);
sm2c_status sm2c_c_assign_names(emitter *e);

/* c_header.c: NAME.h */
void sm2c_c_banner(emitter *e, sbuf *b);
void sm2c_c_shape_text(sbuf *b, const sm2c_shape *s);
void sm2c_c_prototype(emitter *e, sbuf *b, int32_t k);
void sm2c_c_prototype_r(emitter *e, sbuf *b, int32_t k);
void sm2c_c_prototype_ctx(emitter *e, sbuf *b, int32_t k);
void sm2c_c_steps_prototype_ctx(emitter *e, sbuf *b, int32_t k);
void sm2c_c_steps_prototype(emitter *e, sbuf *b, int32_t k);
void sm2c_c_emit_header(emitter *e);

/* c_weights.c: the weights inline, in NAME_weights.c, or as an object */
int sm2c_c_weight_has_nonfinite(const sm2c_tensor *v0);
int sm2c_c_packed_weight(const sm2c_tensor *v0);
void sm2c_c_emit_weight_decl(emitter *e, int32_t wi);
void sm2c_c_emit_weight(emitter *e, int32_t wi);
void sm2c_c_emit_weights_source(emitter *e);
sm2c_status sm2c_c_weights_object(emitter *e, const sm2c_target *t, sm2c_extra_file *out);
extern const char sm2c_c_align_macro[];

/* c_entry.c: layer functions, state, entry bodies and control */
void sm2c_c_assign_layers(emitter *e);
void sm2c_c_emit_layer_includes(emitter *e, sbuf *b);
void sm2c_c_emit_layers(emitter *e, sbuf *b);
void sm2c_c_emit_state(emitter *e);
void sm2c_c_emit_entry(emitter *e, int32_t k);
void sm2c_c_emit_ctx(emitter *e);
void sm2c_c_emit_entry_ctx(emitter *e, int32_t k);

/* c_tables.c: metadata, runners, state and batch tables */
void sm2c_c_emit_metadata(emitter *e);
void sm2c_c_cstring(sbuf *b, const char *s);
void sm2c_c_arg_text(emitter *e, sbuf *b, int32_t k, const sm2c_arg *ar);
/* c_sections.c: --section's SM2C_SECTION macro, and the attribute that
** starts a placed definition (nothing for a class without a section) */
void sm2c_c_emit_section_macro(emitter *e, sbuf *b);
/* --fast-arena: 1 when the ABI has a fast workspace beside the workspace */
int sm2c_c_fast(const emitter *e);
/* 1 when a step of en passes an arena buffer of that pool (fast: the fast arena) */
int sm2c_c_uses_pool(const sm2c_entry *en, int fast);
/* The generic callers' one workspace block: the workspace, then at this
** 64-aligned offset the fast workspace (c_tables.c) */
const char *sm2c_c_fast_split(emitter *e);
void sm2c_c_section(emitter *e, sbuf *b, sm2c_section_class k);
/* c_profile.c: --profile's hooks (nothing without it) */
void sm2c_c_emit_profile_header(emitter *e, sbuf *b);
void sm2c_c_emit_profile_macro(emitter *e, sbuf *b);
void sm2c_c_emit_profile_call(emitter *e, sbuf *b, int32_t k, int32_t s, const char *ind, int end);

#endif
