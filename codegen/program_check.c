/*
** program_check.c: validate a lowered program before a backend emits it.  A
** malformed program is a bug in the lowering (an internal error); a dtype or
** feature the backend cannot express is unsupported.  Shared by both backends.
*/
#include "program_check.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "mangle.h"

typedef struct checker {
    sm2c_ctx *c;
    const sm2c_program *p;
    const char *backend;
    int (*size)(int dtype);
} checker;

static sm2c_status bug(const checker *e, const char *fmt, ...) SM2C_PRINTF(2, 3);
static sm2c_status bug(const checker *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sm2c_status st = sm2c_verror(e->c->diag, SM2C_ERR_INTERNAL, e->p->name,
                                 strcmp(e->backend, "C") == 0 ? "emit c" : "emit llvm", fmt, ap);
    va_end(ap);
    return st;
}

static int kernel_name_ok(const char *k)
{
    if (!k || strncmp(k, "sm2c_rt_", 8) != 0 || !k[8])
        return 0;
    for (const char *q = k + 8; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_'))
            return 0;
    return 1;
}

static sm2c_status check_buffer(const checker *e, const sm2c_entry *en, const sm2c_buffer *b, int32_t id)
{
    const sm2c_program *p = e->p;
    int size = e->size(b->dtype);
    if (!size)
        return sm2c_error(e->c->diag, SM2C_ERR_UNSUPPORTED, p->name, en->key,
                          "buffer %d has dtype %s, which the %s backend cannot express", id,
                          sm2c_dtype_name(b->dtype), e->backend);
    switch (b->kind) {
    case SM2C_BUF_INPUT:
        if (b->index < 0 || b->index >= en->n_inputs)
            return bug(e, "entry %s: buffer %d names input %d of %d", en->key, id, b->index,
                       en->n_inputs);
        break;
    case SM2C_BUF_OUTPUT:
        if (b->index < 0 || b->index >= en->n_outputs)
            return bug(e, "entry %s: buffer %d names output %d of %d", en->key, id, b->index,
                       en->n_outputs);
        break;
    case SM2C_BUF_ARENA: {
        int64_t pool = b->fast ? p->fast_arena_bytes : p->arena_bytes;   /* --fast-arena's pool */
        if (b->fast && p->placement.fast_arena <= 0)
            return bug(e, "entry %s: arena buffer %d is in a fast arena the program has not", en->key, id);
        if (b->offset < 0 || b->nbytes < 0 || b->offset > pool || b->nbytes > pool - b->offset ||
            b->offset % size != 0)
            return bug(e, "entry %s: arena buffer %d [%lld, +%lld) is outside the %lld-byte %sarena "
                       "or misaligned", en->key, id, (long long)b->offset, (long long)b->nbytes,
                       (long long)pool, b->fast ? "fast " : "");
        break;
    }
    case SM2C_BUF_WEIGHT:
        if (b->index < 0 || b->index >= p->n_weights)
            return bug(e, "entry %s: buffer %d names weight %d of %d", en->key, id, b->index,
                       p->n_weights);
        if (sm2c_dtype_base(p->weights[b->index].value.dtype) != sm2c_dtype_base(b->dtype))
            return bug(e, "entry %s: buffer %d is %s but weight %d is %s", en->key, id,
                       sm2c_dtype_name(b->dtype), b->index,
                       sm2c_dtype_name(p->weights[b->index].value.dtype));
        break;
    case SM2C_BUF_STATE:
        if (b->index < 0 || b->index >= p->n_states)
            return bug(e, "entry %s: buffer %d names state %d of %d", en->key, id, b->index, p->n_states);
        if (sm2c_dtype_base(p->states[b->index].dtype) != sm2c_dtype_base(b->dtype) ||
            p->states[b->index].nbytes != b->nbytes)
            return bug(e, "entry %s: buffer %d is not the variable of state %d", en->key, id, b->index);
        break;
    default:
        return bug(e, "entry %s: buffer %d has kind %d", en->key, id, (int)b->kind);
    }
    return SM2C_OK;
}

static sm2c_status check_ports(const checker *e, const sm2c_entry *en, const sm2c_port *ports, int32_t n)
{
    if (n > 0 && !ports)
        return bug(e, "entry %s: missing ports", en->key);
    for (int32_t i = 0; i < n; i++) {
        const sm2c_port *pt = &ports[i];
        if (!pt->key)
            return bug(e, "entry %s: port %d has no key", en->key, i);
        if (!e->size(pt->dtype))
            return sm2c_error(e->c->diag, SM2C_ERR_UNSUPPORTED, e->p->name, en->key,
                              "argument '%s' has dtype %s, which the %s backend cannot express",
                              pt->key, sm2c_dtype_name(pt->dtype), e->backend);
        if (pt->shape.rank < 0 || (pt->shape.rank > 0 && !pt->shape.dims) ||
            sm2c_shape_elements(&pt->shape, INT64_MAX / 8) < 0)
            return bug(e, "entry %s: argument '%s' has no static shape", en->key, pt->key);
    }
    return SM2C_OK;
}

/* A condition or counter of a control step: an arena, input or output
** scalar of the right dtype. */
static int control_scalar(const sm2c_entry *en, const sm2c_step *sp, int32_t a, int bool_ok)
{
    if (a >= sp->n_args || sp->args[a].kind != SM2C_ARG_BUF || sp->args[a].buf < 0 ||
        sp->args[a].buf >= en->n_buffers)
        return 0;
    const sm2c_buffer *b = &en->buffers[sp->args[a].buf];
    return sm2c_shape_elements(&b->shape, INT64_MAX) == 1 &&
           (b->dtype == SM2C_DT_INT32 || (bool_ok && b->dtype == SM2C_DT_BOOL));
}

/* Control steps nest properly (program.h): every IF has one ELSE and an
** END_IF, every LOOP one BREAK_UNLESS and an END_LOOP, at most
** SM2C_CTL_MAX_DEPTH deep; conditions and counters are scalars. */
static sm2c_status check_control(const checker *e, const sm2c_entry *en)
{
    int32_t open[SM2C_CTL_MAX_DEPTH], seen[SM2C_CTL_MAX_DEPTH], depth = 0;
    for (int32_t s = 0; s < en->n_steps; s++) {
        const sm2c_step *sp = &en->steps[s];
        int32_t ctl = sp->control;
        if (ctl == SM2C_CTL_NONE)
            continue;
        int ok = 1;
        if (ctl == SM2C_CTL_IF || ctl == SM2C_CTL_LOOP) {
            ok = depth < SM2C_CTL_MAX_DEPTH && sp->n_args == 1 &&
                 control_scalar(en, sp, 0, ctl == SM2C_CTL_IF) &&
                 (ctl == SM2C_CTL_IF ? sp->imm >= -1 && sp->imm <= INT32_MAX : 1);
            if (ok) {
                open[depth] = ctl;
                seen[depth++] = 0;
            }
        } else if (ctl == SM2C_CTL_ELSE || ctl == SM2C_CTL_BREAK_UNLESS) {
            int want = ctl == SM2C_CTL_ELSE ? SM2C_CTL_IF : SM2C_CTL_LOOP;
            ok = depth > 0 && open[depth - 1] == want && !seen[depth - 1] &&
                 (ctl == SM2C_CTL_ELSE ? sp->n_args == 0
                                       : sp->n_args == 2 && control_scalar(en, sp, 0, 1) &&
                                         control_scalar(en, sp, 1, 0) && sp->imm >= 0 && sp->imm <= INT32_MAX);
            if (ok)
                seen[depth - 1] = 1;
        } else if (ctl == SM2C_CTL_END_IF || ctl == SM2C_CTL_END_LOOP) {
            int want = ctl == SM2C_CTL_END_IF ? SM2C_CTL_IF : SM2C_CTL_LOOP;
            ok = depth > 0 && open[depth - 1] == want && seen[depth - 1];
            depth -= ok;
        } else {
            ok = 0;
        }
        if (!ok)
            return bug(e, "entry %s: control step %d (kind %d) is malformed or badly nested", en->key, s,
                       (int)ctl);
    }
    if (depth)
        return bug(e, "entry %s: %d control constructs are not closed", en->key, (int)depth);
    return SM2C_OK;
}

sm2c_status sm2c_program_check(sm2c_ctx *c, const sm2c_program *p, const char *backend,
                               int (*elem_size)(int dtype))
{
    checker chk = { c, p, backend, elem_size }, *e = &chk;
    if (!p->name || !sm2c_mangle_is_ident(p->name))
        return sm2c_error(c->diag, SM2C_ERR_INTERNAL, p->name ? p->name : "(unnamed)", NULL,
                          "program name is not a C identifier");
    if (strncmp(p->name, "sm2c_", 5) == 0 || strcmp(p->name, "sm2c") == 0 ||
        strncmp(p->name, "SM2C_", 5) == 0 || strcmp(p->name, "SM2C") == 0)
        return sm2c_error(e->c->diag, SM2C_ERR_USAGE, p->name, NULL,
                          "the name '%s' is reserved for sm2c itself; choose another --name",
                          p->name);
    if (p->n_entries <= 0 || !p->entries)
        return bug(e, "the program has no entry points");
    if (p->arena_bytes < 0 || p->n_weights < 0 || (p->n_weights > 0 && !p->weights))
        return bug(e, "negative arena size or weight count");
    for (int32_t i = 0; i < p->n_weights; i++) {
        const sm2c_tensor *v = &p->weights[i].value;
        int size = e->size(v->dtype);
        if (!size)
            return sm2c_error(e->c->diag, SM2C_ERR_UNSUPPORTED, p->name, p->weights[i].name,
                              "constant of dtype %s cannot be emitted", sm2c_dtype_name(v->dtype));
        if (v->nelem < 0 || (uint64_t)v->nelem > SIZE_MAX / 8 ||
            v->nbytes != (size_t)v->nelem * (size_t)size || (v->nelem > 0 && !v->data))
            return bug(e, "weight %d: %lld elements but %zu bytes", i, (long long)v->nelem,
                       v->nbytes);
    }
    /* Public names: the fixed ones and one function per entry, all distinct. */
    sm2c_nameset pub;
    sm2c_nameset_init(&pub, c->arena);
    static const char *const fixed[] = { "signatures", "n_signatures", "tensor_info",
                                         "signature_info" };
    for (size_t i = 0; i < 4; i++)
        sm2c_nameset_add(&pub, sm2c_arena_printf(c->arena, "%s_%s", p->name, fixed[i]));
    for (int32_t k = 0; k < p->n_entries; k++) {
        const sm2c_entry *en = &p->entries[k];
        if (!en->key || !en->c_name || !sm2c_mangle_is_ident(en->c_name))
            return bug(e, "entry %d: missing key or C name", k);
        const char *fn = sm2c_arena_printf(c->arena, "%s_%s", p->name, en->c_name);
        if (!sm2c_nameset_add(&pub, fn))
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, p->name, en->key,
                              "function name %s is used twice", fn);
        if (en->n_inputs < 0 || en->n_outputs < 0 || en->n_buffers < 0 || en->n_steps < 0 ||
            (en->n_buffers > 0 && !en->buffers) || (en->n_steps > 0 && !en->steps))
            return bug(e, "entry %s: negative counts", en->key);
        sm2c_status st = check_ports(e, en, en->inputs, en->n_inputs);
        if (!st)
            st = check_ports(e, en, en->outputs, en->n_outputs);
        if (!st)
            st = check_control(e, en);
        if (st)
            return st;
        for (int32_t s = 0; s < en->n_steps; s++) {
            const sm2c_step *sp = &en->steps[s];
            if (!kernel_name_ok(sp->kernel))
                return bug(e, "entry %s: step %d calls a kernel that is not sm2c_rt_[a-z0-9_]+",
                           en->key, s);
            if (sp->n_args < 0 || (sp->n_args > 0 && !sp->args))
                return bug(e, "entry %s: step %d has no arguments", en->key, s);
            for (int32_t a = 0; a < sp->n_args; a++) {
                const sm2c_arg *ar = &sp->args[a];
                if (ar->kind == SM2C_ARG_BUF) {
                    if (ar->buf < 0 || ar->buf >= en->n_buffers)
                        return bug(e, "entry %s: step %d names buffer %d of %d", en->key, s,
                                   ar->buf, en->n_buffers);
                    st = check_buffer(e, en, &en->buffers[ar->buf], ar->buf);
                    if (st)
                        return st;
                } else if (ar->kind == SM2C_ARG_INTS) {
                    if (ar->n < 0 || (ar->n > 0 && !ar->ints))
                        return bug(e, "entry %s: step %d has a bad int array", en->key, s);
                } else if (ar->kind == SM2C_ARG_INT) {
                    /* Every integer parameter of the runtime is an int32_t. */
                    if (ar->i < INT32_MIN || ar->i > INT32_MAX)
                        return bug(e, "entry %s: step %d argument %d (%lld) does not fit int32",
                                   en->key, s, a, (long long)ar->i);
                } else if (ar->kind != SM2C_ARG_NULL && ar->kind != SM2C_ARG_FLOAT) {
                    return bug(e, "entry %s: step %d argument %d has kind %d", en->key, s, a,
                               (int)ar->kind);
                }
            }
        }
    }
    return SM2C_OK;
}
