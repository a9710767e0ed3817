/*
** c_weights.c: the C backend's weights: inline literals, NAME_weights.c (strings
** or hex words) and, for --weights obj, NAME_weights.o through LLVM.
*/
#define _GNU_SOURCE
#include "emit_c_internal.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/fileio.h"
#include "base/toolchain.h"

#define LINE_MAX_COLS 100   /* wrap weight initialisers here */

int sm2c_c_weight_has_nonfinite(const sm2c_tensor *v0)
{
    sm2c_tensor sv = scalar_view(v0);
    const sm2c_tensor *v = &sv;
    const ctype *t = sm2c_c_ctype_of(v->dtype);
    const uint8_t *d = v->data;
    for (int64_t i = 0; i < v->nelem; i++) {
        if (t->kind == K_F32 && !float_bits_finite((uint32_t)load_le(d + 4 * i, 4)))
            return 1;
        if (t->kind == K_F64 && !double_bits_finite(load_le(d + 8 * i, 8)))
            return 1;
    }
    return 0;
}

/* Characters of byte d[i] in a string literal (see string_byte). */
static size_t string_cost(const uint8_t *d, size_t i, size_t n)
{
    uint8_t ch = d[i];
    if (ch >= 0x20 && ch < 0x7f)
        return ch == '\\' || ch == '"' || ch == '?' ? 2 : 1;
    int next_digit = i + 1 < n && d[i + 1] >= '0' && d[i + 1] <= '7';
    return next_digit || ch >= 64 ? 4 : ch >= 8 ? 3 : 2;
}

int sm2c_c_packed_weight(const sm2c_tensor *v0)
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
        sm2c_text_putc(w->b, ',');
        w->col++;
    }
    if (w->first || w->col + 1 + n > LINE_MAX_COLS) {
        sm2c_text_puts(w->b, w->first ? "    " : "\n    ");
        w->col = 4;
    } else {
        sm2c_text_putc(w->b, ' ');
        w->col++;
    }
    sm2c_text_puts(w->b, item);
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
    const ctype *t = sm2c_c_ctype_of(v->dtype);
    long long dim = v->nelem > 0 ? (long long)v->nelem : 1;
    if (!e->wbits[wi]) {
        sm2c_text_printf(b, "const %s ", t->c);
        return;
    }
    sm2c_text_puts(b, "const union ");
    if (e->weights_tu)
        sm2c_text_printf(b, "%s_u ", e->wname[wi]);
    if (e->wbits[wi] == WEIGHT_STRING)
        sm2c_text_printf(b, "{\n    unsigned char b[%zu];\n    %s f[%lld];\n} ", v->nbytes, t->c, dim);
    else
        sm2c_text_printf(b, "{\n    uint%d_t u[%lld];\n    %s f[%lld];\n} ", t->size * 8, dim, t->c, dim);
}

/* One byte of a string literal: printable ASCII as itself (\\, \" and \? escaped,
** so no trigraph forms), others as the shortest octal escape that the next
** byte cannot extend. */
static void string_byte(sbuf *b, const uint8_t *d, size_t i, size_t n)
{
    uint8_t ch = d[i];
    size_t cost = string_cost(d, i, n);
    if (cost == 1)
        sm2c_text_putc(b, (char)ch);
    else if (ch >= 0x20 && ch < 0x7f)
        sm2c_text_printf(b, "\\%c", ch);
    else
        sm2c_text_printf(b, cost == 4 ? "\\%03o" : "\\%o", ch);
}

/* Bytes as adjacent string literals of about 100 columns (one literal to the
** compiler; an escape never spans two). */
static void emit_string_values(sbuf *b, const sm2c_tensor *v)
{
    const uint8_t *d = v->data;
    size_t col = 0;
    sm2c_text_putc(b, '"');
    for (size_t i = 0; i < v->nbytes; i++) {
        if (col >= LINE_MAX_COLS - 6) {
            sm2c_text_puts(b, "\"\n\"");
            col = 0;
        }
        size_t before = b->len;
        string_byte(b, d, i, v->nbytes);
        col += b->len - before;
    }
    sm2c_text_puts(b, "\"\n");
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
            sm2c_text_putc(b, '\n');
            col = 0;
        }
        sm2c_text_putn(b, item, (size_t)n);
        col += (size_t)n;
    }
    sm2c_text_putc(b, '\n');
}

/* An extern declaration of weight wi, for NAME.c when the weights are apart. */
void sm2c_c_emit_weight_decl(emitter *e, int32_t wi)
{
    sm2c_tensor sv = scalar_view(&e->p->weights[wi].value);
    const sm2c_tensor *v = &sv;
    sm2c_text_puts(&e->s, "extern ");
    weight_type(e, &e->s, wi);
    sm2c_text_puts(&e->s, e->wname[wi]);
    if (!e->wbits[wi])
        sm2c_text_printf(&e->s, "[%lld]", v->nelem > 0 ? (long long)v->nelem : 1LL);
    sm2c_text_puts(&e->s, ";\n");
}

static void emit_weight_packed(emitter *e, int32_t wi)
{
    const sm2c_weight *wt = &e->p->weights[wi];
    sbuf *b = &e->w;
    int string = e->wbits[wi] == WEIGHT_STRING;
    sm2c_text_puts(b, "/* \"");
    sm2c_c_comment(b, wt->name);
    sm2c_text_printf(b, "\" %s", sm2c_dtype_name(wt->value.dtype));
    sm2c_c_shape_text(b, &wt->value.shape);
    sm2c_text_puts(b, string ? "; its little-endian bytes, read through `f` */\n"
                      : "; its elements' bit patterns, read through `f` */\n");
    sm2c_c_section(e, b, SM2C_SECTION_WEIGHTS);
    sm2c_text_puts(b, "SM2C_ALIGN ");
    weight_type(e, b, wi);
    if (string) {
        sm2c_text_printf(b, "%s = {\n", e->wname[wi]);
        emit_string_values(b, &wt->value);
        sm2c_text_puts(b, "};\n\n");
        return;
    }
    sm2c_text_printf(b, "%s = { {\n", e->wname[wi]);
    sm2c_tensor sv = scalar_view(&wt->value);
    emit_packed_values(b, &sv, sm2c_c_ctype_of(sv.dtype)->size);
    sm2c_text_puts(b, "} };\n\n");
}

void sm2c_c_emit_weight(emitter *e, int32_t wi)
{
    const sm2c_weight *wt = &e->p->weights[wi];
    sm2c_tensor view = scalar_view(&wt->value);
    const sm2c_tensor *v = &view;
    const ctype *t = sm2c_c_ctype_of(v->dtype);
    sbuf *b = e->weights_tu ? &e->w : &e->s;
    const char *storage = e->weights_tu ? "" : "static ";
    int64_t n = v->nelem;
    int64_t dim = n > 0 ? n : 1;
    int bits = e->wbits[wi];
    const uint8_t *d = v->data;
    char item[64];

    sm2c_text_puts(b, "/* \"");
    sm2c_c_comment(b, wt->name);
    sm2c_text_printf(b, "\" %s", sm2c_dtype_name(wt->value.dtype));
    sm2c_c_shape_text(b, &v->shape);
    if (bits)
        sm2c_text_printf(b, "; holds NaN or Inf, so it is stored as IEEE-754 bit patterns in `u`\n"
                            " * and read through `f` (type punning through a union, C99 6.5.2.3)");
    else if (t->kind == K_BITS16)
        sm2c_text_puts(b, "; raw 16-bit patterns");
    sm2c_text_puts(b, " */\n");
    if (bits) {
        sm2c_text_puts(b, storage);
        sm2c_c_section(e, b, SM2C_SECTION_WEIGHTS);
        sm2c_text_puts(b, "SM2C_ALIGN ");
        weight_type(e, b, wi);
        sm2c_text_printf(b, "%s = { {\n", e->wname[wi]);
    } else {
        sm2c_text_puts(b, storage);
        sm2c_c_section(e, b, SM2C_SECTION_WEIGHTS);
        sm2c_text_printf(b, "SM2C_ALIGN const %s %s[%lld] = {\n", t->c, e->wname[wi], (long long)dim);
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
    sm2c_text_puts(b, bits ? "\n} };\n\n" : "\n};\n\n");
}

const char sm2c_c_align_macro[] =
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
void sm2c_c_emit_weights_source(emitter *e)
{
    sbuf *b = &e->w;
    sm2c_c_banner(e, b);
    sm2c_text_puts(b, "#include <stdint.h>\n\n");
    sm2c_text_puts(b, sm2c_c_align_macro);
    sm2c_c_emit_section_macro(e, b);
    int strings = 0, wide = 0;
    for (int32_t w = 0; w < e->p->n_weights; w++)
        if (e->wname[w] && e->wbits[w] == WEIGHT_STRING) {
            strings = 1;
            wide |= sm2c_dtype_size(e->p->weights[w].value.dtype) > 1;
        }
    if (wide)
        sm2c_text_printf(b, "/* Some weights are their bytes in little-endian order. */\n"
                            "#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && "
                            "__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__\n"
                            "#error \"sm2c: %s_weights.c is for little-endian targets; use --weights obj\"\n"
                            "#endif\n\n", e->p->name);
    if (strings)
        sm2c_text_puts(b, "/* Whole tensors as one string literal each: longer than the 4095 characters\n"
                          " * C99 promises, which GCC and clang take. */\n"
                          "#if defined(__GNUC__)\n#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n"
                          "#endif\n\n");
    for (int32_t w = 0; w < e->p->n_weights; w++) {
        if (!e->wname[w])
            continue;
        if (e->wbits[w])
            emit_weight_packed(e, w);
        else
            sm2c_c_emit_weight(e, w);
    }
}

/* NAME_weights.o through LLVM, made in a private directory and read back. */
sm2c_status sm2c_c_weights_object(emitter *e, const sm2c_target *t, sm2c_extra_file *out)
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
