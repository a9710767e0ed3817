/*
** program_query.c: questions about a lowered program (program_query.h).
*/
#include "program_query.h"

#include <string.h>

int sm2c_backend_elem_size(int dtype)
{
    switch (sm2c_dtype_base(dtype)) {
    case SM2C_DT_FLOAT: case SM2C_DT_DOUBLE: case SM2C_DT_INT32: case SM2C_DT_INT64:
    case SM2C_DT_UINT8: case SM2C_DT_INT8: case SM2C_DT_INT16: case SM2C_DT_UINT16:
    case SM2C_DT_UINT32: case SM2C_DT_UINT64: case SM2C_DT_BOOL: case SM2C_DT_HALF:
    case SM2C_DT_BFLOAT16: case SM2C_DT_STRING:
    case SM2C_DT_COMPLEX64:     /* float pairs (re, im) */
        return (int)sm2c_abi_elem_size(dtype);
    default:
        return 0;
    }
}

int sm2c_program_any_batched(const sm2c_program *p)
{
    for (int32_t k = 0; k < p->n_entries; k++)
        if (p->entries[k].max_batch)
            return 1;
    return 0;
}

int sm2c_entry_uses(const sm2c_entry *en, int kind, int32_t index)
{
    for (int32_t s = 0; s < en->n_steps; s++)
        for (int32_t a = 0; a < en->steps[s].n_args; a++) {
            const sm2c_arg *ar = &en->steps[s].args[a];
            if (ar->kind == SM2C_ARG_BUF && (int)en->buffers[ar->buf].kind == kind &&
                (index < 0 || en->buffers[ar->buf].index == index))
                return 1;
        }
    return 0;
}

int sm2c_program_uses_weight(const sm2c_program *p, int32_t w)
{
    for (int32_t i = 0; i < p->n_states; i++)
        if (p->states[i].init_weight == w)
            return 1;
    for (int32_t k = 0; k < p->n_entries; k++)
        if (sm2c_entry_uses(&p->entries[k], SM2C_BUF_WEIGHT, w))
            return 1;
    return 0;
}

int64_t sm2c_entry_weight_bytes(const sm2c_program *p, const sm2c_entry *en)
{
    int64_t bytes = 0;
    for (int32_t w = 0; w < p->n_weights; w++)
        if (sm2c_entry_uses(en, SM2C_BUF_WEIGHT, w))
            bytes += (int64_t)p->weights[w].value.nbytes;
    return bytes;
}

int64_t sm2c_port_bytes(const sm2c_port *pt)
{
    return sm2c_shape_elements(&pt->shape, INT64_MAX / 8) * sm2c_backend_elem_size(pt->dtype);
}

int64_t sm2c_program_weight_bytes(const sm2c_program *p)
{
    int64_t n = 0;
    for (int32_t i = 0; i < p->n_weights; i++)
        if (sm2c_program_uses_weight(p, i))
            n += (int64_t)p->weights[i].value.nbytes;
    return n;
}

int64_t sm2c_program_state_bytes(const sm2c_program *p)
{
    int64_t n = 0;
    for (int32_t i = 0; i < p->n_states; i++)
        n += p->states[i].nbytes;
    return n;
}

/* 1 when a step before s references buffer b. */
static int used_before(const sm2c_entry *en, int32_t s, int32_t b)
{
    for (int32_t i = 0; i < s; i++)
        for (int32_t a = 0; a < en->steps[i].n_args; a++)
            if (en->steps[i].args[a].kind == SM2C_ARG_BUF && en->steps[i].args[a].buf == b)
                return 1;
    return 0;
}

int32_t sm2c_step_output(const sm2c_entry *en, int32_t s)
{
    const sm2c_step *st = &en->steps[s];
    if (st->control)
        return -1;
    for (int32_t a = 0; a < st->n_args; a++) {
        if (st->args[a].kind != SM2C_ARG_BUF)
            continue;
        int kind = en->buffers[st->args[a].buf].kind;
        if ((kind == SM2C_BUF_ARENA || kind == SM2C_BUF_OUTPUT) && !used_before(en, s, st->args[a].buf))
            return st->args[a].buf;
    }
    for (int32_t a = st->n_args - 1; a >= 0; a--) {
        if (st->args[a].kind != SM2C_ARG_BUF)
            continue;
        int kind = en->buffers[st->args[a].buf].kind;
        if (kind == SM2C_BUF_ARENA || kind == SM2C_BUF_OUTPUT || kind == SM2C_BUF_STATE)
            return st->args[a].buf;
    }
    return -1;
}

const char *sm2c_step_value_node(const sm2c_step *st)
{
    return st->value_node && *st->value_node ? st->value_node : st->node ? st->node : "";
}

static int same_text(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

int sm2c_step_writes_value(const sm2c_entry *en, int32_t s)
{
    if (sm2c_step_output(en, s) < 0)
        return 0;
    if (s + 1 >= en->n_steps)
        return 1;
    const sm2c_step *a = &en->steps[s], *b = &en->steps[s + 1];
    return b->control || !same_text(a->node, b->node) || !same_text(a->function, b->function);
}
