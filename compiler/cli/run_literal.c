/*
** run_literal.c: a Python literal of nested lists of numbers into a tensor.
** The nesting must be rectangular; every number must fit the dtype (an
** integer dtype takes integers only).
*/
#include "run_literal.h"
#include "ir/ir.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LITERAL_MAX_RANK 8

typedef struct lit {
    sm2c_ctx *c;
    const char *what, *text, *p;
    int32_t rank;               /* -1 until the first number sets it */
    int64_t dims[LITERAL_MAX_RANK];
    int64_t n, cap;
    double *f;                  /* every number as a double ... */
    int64_t *i;                 /* ... and, when integral, exactly */
    int *integral;              /* 0: not; 1: i is the value; 2: above INT64_MAX, i holds
                                   the uint64 bits */
} lit;

static sm2c_status bad(lit *l, const char *why)
{
    return sm2c_error(l->c->diag, SM2C_ERR_USAGE, l->what, NULL, "%s at offset %d of '%s'", why,
                      (int)(l->p - l->text), l->text);
}

static void skip_space(lit *l)
{
    while (isspace((unsigned char)*l->p))
        l->p++;
}

static void push(lit *l, double f, int64_t i, int integral)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        double *nf = sm2c_arena_array(l->c->arena, (size_t)l->cap, sizeof *nf);
        int64_t *ni = sm2c_arena_array(l->c->arena, (size_t)l->cap, sizeof *ni);
        int *nk = sm2c_arena_array(l->c->arena, (size_t)l->cap, sizeof *nk);
        if (l->n) {
            memcpy(nf, l->f, (size_t)l->n * sizeof *nf);
            memcpy(ni, l->i, (size_t)l->n * sizeof *ni);
            memcpy(nk, l->integral, (size_t)l->n * sizeof *nk);
        }
        l->f = nf, l->i = ni, l->integral = nk;
    }
    l->f[l->n] = f, l->i[l->n] = i, l->integral[l->n] = integral;
    l->n++;
}

static sm2c_status number(lit *l, int32_t depth)
{
    if (l->rank < 0)
        l->rank = depth;
    if (depth != l->rank)
        return bad(l, "a number where the nesting wants a list (the lists are not rectangular)");
    static const struct { const char *word; int v; } words[] = { { "True", 1 }, { "False", 0 }, { "true", 1 },
                                                               { "false", 0 } };
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (!strncmp(l->p, words[k].word, strlen(words[k].word))) {
            l->p += strlen(words[k].word);
            push(l, words[k].v, words[k].v, 1);
            return SM2C_OK;
        }
    char *end;
    errno = 0;
    double f = strtod(l->p, &end);
    if (end == l->p)
        return bad(l, "expected a number or '['");
    size_t len = (size_t)(end - l->p);
    int integral = strcspn(l->p, ".eEnNiI") >= len;
    int64_t i = 0;
    if (integral) {
        char *iend;
        errno = 0;
        i = strtoll(l->p, &iend, 10);
        if (errno == ERANGE && i == INT64_MAX) {   /* uint64's upper half, as run prints it */
            errno = 0;
            i = (int64_t)strtoull(l->p, &iend, 10);
            integral = 2;
        }
        if (iend != end)   /* strtod took more: 0x10, 0b1 */
            return bad(l, "only decimal numbers are accepted");
        if (errno)
            return bad(l, "an integer out of range");
    }
    l->p = end;
    push(l, f, i, integral);
    return SM2C_OK;
}

static sm2c_status value(lit *l, int32_t depth)
{
    skip_space(l);
    if (*l->p != '[')
        return number(l, depth);
    if (depth >= LITERAL_MAX_RANK)
        return bad(l, "lists nested deeper than 8");
    if (l->rank >= 0 && depth >= l->rank)
        return bad(l, "a list where the nesting wants a number (the lists are not rectangular)");
    l->p++;
    int64_t count = 0;
    skip_space(l);
    if (*l->p == ']') {
        l->p++;
        if (l->rank < 0)
            l->rank = depth + 1;
    } else {
        for (;;) {
            sm2c_status st = value(l, depth + 1);
            if (st)
                return st;
            count++;
            skip_space(l);
            if (*l->p == ',') {
                l->p++;
                skip_space(l);
                if (*l->p == ']') {   /* a trailing comma, as Python allows */
                    l->p++;
                    break;
                }
                continue;
            }
            if (*l->p != ']')
                return bad(l, "expected ',' or ']'");
            l->p++;
            break;
        }
    }
    if (l->dims[depth] < 0)
        l->dims[depth] = count;
    else if (l->dims[depth] != count)
        return bad(l, "lists of different lengths (the lists are not rectangular)");
    return SM2C_OK;
}

static int fits(int dt, double f, int64_t i, int integral)
{
    switch (dt) {
    case SM2C_DT_FLOAT: return !isfinite(f) || fabs(f) < 0x1.ffffffp+127;   /* rounds to at most FLT_MAX */
    case SM2C_DT_DOUBLE: return 1;
    case SM2C_DT_BOOL: return integral == 1 && (i == 0 || i == 1);
    case SM2C_DT_INT8: return integral == 1 && i >= -128 && i <= 127;
    case SM2C_DT_UINT8: return integral == 1 && i >= 0 && i <= 255;
    case SM2C_DT_INT16: return integral == 1 && i >= -32768 && i <= 32767;
    case SM2C_DT_UINT16: return integral == 1 && i >= 0 && i <= 65535;
    case SM2C_DT_INT32: return integral == 1 && i >= INT32_MIN && i <= INT32_MAX;
    case SM2C_DT_UINT32: return integral == 1 && i >= 0 && i <= (int64_t)UINT32_MAX;
    case SM2C_DT_INT64: return integral == 1;
    case SM2C_DT_UINT64: return (integral == 1 && i >= 0) || integral == 2;
    default: return 0;
    }
}

static void store(sm2c_tensor *t, int64_t k, double f, int64_t i)
{
    void *d = t->data;
    switch (t->dtype) {
    case SM2C_DT_FLOAT: ((float *)d)[k] = (float)f; break;
    case SM2C_DT_DOUBLE: ((double *)d)[k] = f; break;
    case SM2C_DT_BOOL: case SM2C_DT_UINT8: ((uint8_t *)d)[k] = (uint8_t)i; break;
    case SM2C_DT_INT8: ((int8_t *)d)[k] = (int8_t)i; break;
    case SM2C_DT_INT16: ((int16_t *)d)[k] = (int16_t)i; break;
    case SM2C_DT_UINT16: ((uint16_t *)d)[k] = (uint16_t)i; break;
    case SM2C_DT_INT32: ((int32_t *)d)[k] = (int32_t)i; break;
    case SM2C_DT_UINT32: ((uint32_t *)d)[k] = (uint32_t)i; break;
    case SM2C_DT_INT64: ((int64_t *)d)[k] = i; break;
    case SM2C_DT_UINT64: ((uint64_t *)d)[k] = (uint64_t)i; break;
    default: break;
    }
}

sm2c_status sm2c_literal_parse(sm2c_ctx *c, const char *what, const char *text, int dtype, sm2c_tensor *out)
{
    lit l = { .c = c, .what = what, .text = text, .p = text, .rank = -1 };
    for (int k = 0; k < LITERAL_MAX_RANK; k++)
        l.dims[k] = -1;
    int dt = sm2c_dtype_base(dtype);
    if (!fits(dt, 0, 0, 1))
        return sm2c_error(c->diag, SM2C_ERR_USAGE, what, NULL, "the input is %s: --input_exprs takes numeric "
                          "and bool inputs (give a .npy file with --input)", sm2c_dtype_name(dtype));
    sm2c_status st = value(&l, 0);
    if (st)
        return st;
    skip_space(&l);
    if (*l.p)
        return bad(&l, "unexpected text after the value");
    if (l.rank < 0)
        l.rank = 1;
    int64_t n = 1;
    for (int32_t k = 0; k < l.rank; k++)
        n *= l.dims[k] < 0 ? 0 : l.dims[k];
    memset(out, 0, sizeof *out);
    out->dtype = dt;
    out->shape = sm2c_shape_make(c, l.rank, l.dims);
    for (int32_t k = 0; k < l.rank; k++)
        out->shape.dims[k] = l.dims[k] < 0 ? 0 : l.dims[k];
    out->nelem = n;
    out->nbytes = (size_t)n * sm2c_dtype_size(dt);
    out->data = sm2c_arena_alloc(c->arena, out->nbytes ? out->nbytes : 1);
    for (int64_t k = 0; k < n; k++) {
        if (!fits(dt, l.f[k], l.i[k], l.integral[k]))
            return sm2c_error(c->diag, SM2C_ERR_USAGE, what, NULL, "value %lld (%.17g) does not fit the input's "
                              "dtype %s", (long long)k, l.f[k], sm2c_dtype_name(dtype));
        store(out, k, l.f[k], l.i[k]);
    }
    return SM2C_OK;
}
