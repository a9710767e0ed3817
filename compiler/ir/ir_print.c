/*
** ir_print.c: the graph IR as stable text, for --dump-after and golden tests.
**
**   entry "serving_default" {
**     input %0:f32[1,8,8,3] "x"
**     const %4:f32[3,3,3,16] = [0.1, -0.2, 0.3, 0.4, ...] #1a2b3c4d
**     %12:f32[1,8,8,16] = Conv2D(%0, %4) {padding="SAME" strides=[1,1,1,1]} bias=%5 act=relu ; "m/conv/Conv2D"
**     output "y" = %12
**   }
**
** Values are named by id, which import and the passes assign in a
** deterministic order; attrs are sorted by name; floats print with %.6g
** (%.9g for quantization scales and a Softmax's in_scale); a constant shows its first values and a
** short SHA-256 of its bytes, never the whole tensor.
*/
#include "ir_print.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "sm2c_rt.h"

#define PREVIEW 4       /* values shown of a larger constant */
#define SMALL 8         /* a constant this small is shown whole */
#define LIST_MAX 16     /* elements shown of a list attr */
#define STR_MAX 40      /* bytes shown of a string */

static const char *dtype_short(int dt)
{
    switch (dt) {
    case SM2C_DT_INVALID: return "?";
    case SM2C_DT_FLOAT: return "f32";
    case SM2C_DT_DOUBLE: return "f64";
    case SM2C_DT_HALF: return "f16";
    case SM2C_DT_BFLOAT16: return "bf16";
    case SM2C_DT_INT8: return "i8";
    case SM2C_DT_INT16: return "i16";
    case SM2C_DT_INT32: return "i32";
    case SM2C_DT_INT64: return "i64";
    case SM2C_DT_UINT8: return "u8";
    case SM2C_DT_UINT16: return "u16";
    case SM2C_DT_UINT32: return "u32";
    case SM2C_DT_UINT64: return "u64";
    case SM2C_DT_BOOL: return "bool";
    case SM2C_DT_STRING: return "str";
    case SM2C_DT_RESOURCE: return "resource";
    case SM2C_DT_VARIANT: return "variant";
    default: return sm2c_dtype_name(dt);
    }
}

static void print_dims(FILE *f, const sm2c_shape *s)
{
    if (s->rank < 0) {
        fputs("[*]", f);
        return;
    }
    fputc('[', f);
    for (int32_t i = 0; i < s->rank; i++) {
        if (i)
            fputc(',', f);
        if (s->dims[i] < 0)
            fputc('?', f);
        else
            fprintf(f, "%lld", (long long)s->dims[i]);
    }
    fputc(']', f);
}

/* A quoted string, escaped; at most `max` bytes of it. */
static void print_quoted(FILE *f, const uint8_t *s, size_t len, size_t max)
{
    fputc('"', f);
    for (size_t i = 0; i < len && i < max; i++) {
        if (s[i] == '"' || s[i] == '\\')
            fprintf(f, "\\%c", s[i]);
        else if (s[i] < 32 || s[i] > 126)
            fprintf(f, "\\x%02x", s[i]);
        else
            fputc(s[i], f);
    }
    fputs(len > max ? "...\"" : "\"", f);
}

static void print_str(FILE *f, const uint8_t *s, size_t len)
{
    print_quoted(f, s, len, STR_MAX);
}

static void print_name(FILE *f, const char *s)
{
    print_quoted(f, (const uint8_t *)s, strlen(s), SIZE_MAX);
}

/* %12:f32[1,8] with the value's quantization and data-dependent size, if any. */
static void print_decl(FILE *f, const sm2c_value *v)
{
    fprintf(f, "%%%d:%s", (int)v->id, dtype_short(v->dtype));
    print_dims(f, &v->shape);
    if (v->quant)
        fprintf(f, "{q scale=%.9g zp=%d}", (double)v->quant->scale, (int)v->quant->zero_point);
    if (v->dyn)
        fprintf(f, "{dyn dim=%d count=%%%d}", (int)v->dyn_dim, (int)v->dyn->id);
    if (v->bound)
        fprintf(f, "{bound dim=%d}", (int)v->bound_dim);
}

/* Element i of a numeric tensor; 0 when the dtype has no preview. */
static int print_elem(FILE *f, const sm2c_tensor *t, int64_t i)
{
    const void *d = t->data;
    switch (t->dtype) {
    case SM2C_DT_FLOAT: fprintf(f, "%.6g", (double)((const float *)d)[i]); return 1;
    case SM2C_DT_DOUBLE: fprintf(f, "%.6g", ((const double *)d)[i]); return 1;
    case SM2C_DT_INT8: fprintf(f, "%d", ((const int8_t *)d)[i]); return 1;
    case SM2C_DT_UINT8: fprintf(f, "%u", ((const uint8_t *)d)[i]); return 1;
    case SM2C_DT_INT16: fprintf(f, "%d", ((const int16_t *)d)[i]); return 1;
    case SM2C_DT_UINT16: fprintf(f, "%u", ((const uint16_t *)d)[i]); return 1;
    case SM2C_DT_INT32: fprintf(f, "%ld", (long)((const int32_t *)d)[i]); return 1;
    case SM2C_DT_UINT32: fprintf(f, "%lu", (unsigned long)((const uint32_t *)d)[i]); return 1;
    case SM2C_DT_INT64: fprintf(f, "%lld", (long long)((const int64_t *)d)[i]); return 1;
    case SM2C_DT_UINT64: fprintf(f, "%llu", (unsigned long long)((const uint64_t *)d)[i]); return 1;
    case SM2C_DT_BOOL: fputs(((const uint8_t *)d)[i] ? "true" : "false", f); return 1;
    default: return 0;
    }
}

static void print_hash(FILE *f, const sm2c_tensor *t)
{
    sm2c_sha256 s;
    char hex[65];
    sm2c_sha256_init(&s);
    if (t->dtype == SM2C_DT_STRING) {
        for (int64_t i = 0; t->strings && i < t->nelem; i++) {
            uint64_t len = t->strings[i].len;
            sm2c_sha256_update(&s, &len, sizeof len);
            sm2c_sha256_update(&s, t->strings[i].data, t->strings[i].len);
        }
    } else if (t->data)
        sm2c_sha256_update(&s, t->data, t->nbytes);
    sm2c_sha256_hex(&s, hex);
    fprintf(f, " #%.8s", hex);
}

/* A constant's first values, and a hash of the rest. */
static void print_tensor(FILE *f, const sm2c_tensor *t)
{
    int64_t shown = t->nelem <= SMALL ? t->nelem : PREVIEW;
    fputc('[', f);
    for (int64_t i = 0; i < shown; i++) {
        if (i)
            fputs(", ", f);
        if (t->dtype == SM2C_DT_STRING && t->strings)
            print_str(f, t->strings[i].data, t->strings[i].len);
        else if (!t->data || !print_elem(f, t, i)) {
            fputs("...", f);
            shown = t->nelem + 1;   /* no preview of this dtype: the hash says it */
            break;
        }
    }
    if (shown < t->nelem)
        fputs(", ...", f);
    fputc(']', f);
    if (shown != t->nelem)
        print_hash(f, t);
}

static void print_attr_shape(FILE *f, const Tensorflow__TensorShapeProto *s)
{
    if (!s || s->unknown_rank) {
        fputs("[*]", f);
        return;
    }
    fputc('[', f);
    for (size_t i = 0; i < s->n_dim; i++)
        fprintf(f, i ? ",%lld" : "%lld", (long long)s->dim[i]->size);
    fputc(']', f);
}

/* A list attr: whichever field it has, at most LIST_MAX elements. */
static void print_list(FILE *f, const Tensorflow__AttrValue__ListValue *l)
{
    size_t n = l->n_i ? l->n_i : l->n_f ? l->n_f : l->n_type ? l->n_type : l->n_b ? l->n_b
             : l->n_s ? l->n_s : l->n_shape ? l->n_shape : l->n_func ? l->n_func : l->n_tensor;
    fputc('[', f);
    for (size_t i = 0; i < n && i < LIST_MAX; i++) {
        if (i)
            fputc(',', f);
        if (l->n_i)
            fprintf(f, "%lld", (long long)l->i[i]);
        else if (l->n_f)
            fprintf(f, "%.6g", (double)l->f[i]);
        else if (l->n_type)
            fputs(dtype_short(l->type[i]), f);
        else if (l->n_b)
            fputs(l->b[i] ? "true" : "false", f);
        else if (l->n_s)
            print_str(f, l->s[i].data, l->s[i].len);
        else if (l->n_shape)
            print_attr_shape(f, l->shape[i]);
        else if (l->n_func)
            fprintf(f, "@%s", l->func[i]->name);
        else
            fputs("tensor", f);
    }
    fputs(n > LIST_MAX ? ",...]" : "]", f);
}

static void print_attr_value(FILE *f, const Tensorflow__AttrValue *a)
{
    switch (a->value_case) {
    case TENSORFLOW__ATTR_VALUE__VALUE_S: print_str(f, a->s.data, a->s.len); break;
    case TENSORFLOW__ATTR_VALUE__VALUE_I: fprintf(f, "%lld", (long long)a->i); break;
    case TENSORFLOW__ATTR_VALUE__VALUE_F: fprintf(f, "%.6g", (double)a->f); break;
    case TENSORFLOW__ATTR_VALUE__VALUE_B: fputs(a->b ? "true" : "false", f); break;
    case TENSORFLOW__ATTR_VALUE__VALUE_TYPE: fputs(dtype_short(a->type), f); break;
    case TENSORFLOW__ATTR_VALUE__VALUE_SHAPE: print_attr_shape(f, a->shape); break;
    case TENSORFLOW__ATTR_VALUE__VALUE_TENSOR: fputs("tensor", f); break;
    case TENSORFLOW__ATTR_VALUE__VALUE_LIST: print_list(f, a->list); break;
    case TENSORFLOW__ATTR_VALUE__VALUE_FUNC: fprintf(f, "@%s", a->func ? a->func->name : "?"); break;
    case TENSORFLOW__ATTR_VALUE__VALUE_PLACEHOLDER: fprintf(f, "$%s", a->placeholder); break;
    default: fputs("none", f); break;
    }
}

static int cmp_attr(const void *a, const void *b)
{
    return strcmp((*(Tensorflow__NodeDef__AttrEntry *const *)a)->key,
                  (*(Tensorflow__NodeDef__AttrEntry *const *)b)->key);
}

/* The node's explicit attrs, sorted by name; TensorFlow's internal ones
** (leading '_') left out. */
static void print_attrs(FILE *f, const Tensorflow__NodeDef *def)
{
    size_t n = 0;
    Tensorflow__NodeDef__AttrEntry **sorted = malloc((def->n_attr + 1) * sizeof *sorted);
    if (!sorted)
        return;
    for (size_t i = 0; i < def->n_attr; i++)
        if (def->attr[i]->key[0] != '_' && def->attr[i]->value)
            sorted[n++] = def->attr[i];
    qsort(sorted, n, sizeof *sorted, cmp_attr);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s%s=", i ? " " : " {", sorted[i]->key);
        print_attr_value(f, sorted[i]->value);
    }
    if (n)
        fputc('}', f);
    free(sorted);
}

static void print_act(FILE *f, const sm2c_node *n)
{
    switch (n->act) {
    case SM2C_RT_ACT_NONE: return;
    case SM2C_RT_ACT_RELU: fputs(" act=relu", f); return;
    case SM2C_RT_ACT_RELU6: fputs(" act=relu6", f); return;
    case SM2C_RT_ACT_LEAKY_RELU: fprintf(f, " act=leaky_relu(%.6g)", (double)n->act_a); return;
    case SM2C_RT_ACT_CLIP: fprintf(f, " act=clip(%.6g,%.6g)", (double)n->act_a, (double)n->act_b); return;
    case SM2C_RT_ACT_SIGMOID: fputs(" act=sigmoid", f); return;
    case SM2C_RT_ACT_HARD_SWISH: fputs(" act=hard_swish", f); return;
    default: fprintf(f, " act=%d", (int)n->act); return;
    }
}

static void print_ints(FILE *f, const int32_t *v, int32_t n)
{
    fputc('[', f);
    for (int32_t i = 0; i < n; i++)
        fprintf(f, i ? ",%ld" : "%ld", (long)v[i]);
    fputc(']', f);
}

/* An int8 node's kernel parameters: per-channel arrays shown when short,
** else hashed. */
static void print_q(FILE *f, const sm2c_qnode *q)
{
    fprintf(f, " q{ch=%d", (int)q->n_channels);
    if (q->n_channels > 0 && q->multiplier && q->shift) {
        if (q->n_channels <= PREVIEW) {
            fputs(" mult=", f);
            print_ints(f, q->multiplier, q->n_channels);
            fputs(" shift=", f);
            print_ints(f, q->shift, q->n_channels);
        } else {
            sm2c_sha256 s;
            char hex[65];
            sm2c_sha256_init(&s);
            sm2c_sha256_update(&s, q->multiplier, (size_t)q->n_channels * sizeof *q->multiplier);
            sm2c_sha256_update(&s, q->shift, (size_t)q->n_channels * sizeof *q->shift);
            sm2c_sha256_hex(&s, hex);
            fprintf(f, " mult,shift=#%.8s", hex);
        }
    }
    fprintf(f, " act=[%ld,%ld]", (long)q->act_min, (long)q->act_max);
    int32_t elt = 0;
    for (int i = 0; i < 12; i++)
        elt |= q->elt[i];
    if (elt) {
        fputs(" elt=", f);
        print_ints(f, q->elt, 12);
    }
    fputc('}', f);
}

static int op_is(const sm2c_node *n, const char *name)
{
    return strcmp(n->op->name, name) == 0;
}

/* Control-flow markers (import/cflow.h): a Begin opens a region, the
** middle marker ends one and opens the next, an End closes it. */
static int opens(const sm2c_node *n)
{
    return n->cflow && (op_is(n, "IfBegin") || op_is(n, "LoopBegin"));
}

static int middle(const sm2c_node *n)
{
    return n->cflow && (op_is(n, "IfElse") || op_is(n, "LoopCond"));
}

static int closes(const sm2c_node *n)
{
    return n->cflow && (op_is(n, "IfEnd") || op_is(n, "LoopEnd"));
}

static void print_node(FILE *f, const sm2c_node *n, int depth)
{
    fprintf(f, "%*s", 2 * depth + 2, "");
    for (int32_t k = 0; k < n->n_outputs; k++) {
        fputs(k ? ", " : "", f);
        print_decl(f, n->outputs[k]);
    }
    fprintf(f, "%s%s(", n->n_outputs ? " = " : "", n->op->name);
    for (int32_t k = 0; k < n->n_inputs; k++)
        fprintf(f, k ? ", %%%d" : "%%%d", (int)n->inputs[k]->id);
    fputc(')', f);
    if (n->def && !middle(n) && !closes(n))
        print_attrs(f, n->def);
    if (n->bias)
        fprintf(f, " bias=%%%d", (int)n->bias->id);
    if (n->residual)
        fprintf(f, " residual=%%%d", (int)n->residual->id);
    if (n->in_scaled)
        fprintf(f, " in_scale=%.9g", (double)n->in_scale);
    print_act(f, n);
    if (n->pad[0] || n->pad[1] || n->pad[2] || n->pad[3])
        fprintf(f, " pad=[%lld,%lld,%lld,%lld]", (long long)n->pad[0], (long long)n->pad[1],
                (long long)n->pad[2], (long long)n->pad[3]);
    if (n->widened_from)
        fprintf(f, " widened_from=%s", dtype_short(n->widened_from));
    if (n->q)
        print_q(f, n->q);
    if (n->hybrid)  /* --quantize dynamic: how many scales, and what a scale of the input covers */
        fprintf(f, " hybrid{ch=%d%s}", (int)n->hybrid->n_channels, n->hybrid->sum ? " rows" : " images");
    for (int32_t k = 0; k < n->n_outputs; k++)
        if (n->outputs[k]->constant) {
            fprintf(f, n->n_outputs > 1 ? " folded%d=" : " folded=", (int)k);
            print_tensor(f, n->outputs[k]->constant);
        }
    fputs(" ; ", f);
    print_name(f, n->name);
    fputc('\n', f);
}

static void mark(unsigned char *seen, const sm2c_graph *g, const sm2c_value *v)
{
    if (v && v->id >= 0 && v->id < g->n_values)
        seen[v->id] = 1;
}

/* The values nodes read that no printed node makes, but for entry inputs:
** state handles and constants, by id. */
static void print_sources(FILE *f, const sm2c_graph *g, const sm2c_value **by_id, const unsigned char *used)
{
    for (int32_t id = 0; id < g->n_values; id++) {
        const sm2c_value *v = by_id[id];
        if (!v || !used[id] || (v->node && !v->node->dead))
            continue;
        if (v->input >= 0 && !v->constant)
            continue;   /* printed with the entry's inputs */
        if (v->state) {
            fputs("  state ", f);
            print_decl(f, v);
            fprintf(f, " var=");
            print_name(f, v->state->key);
            if (v->state->init) {
                fprintf(f, " init=%s", dtype_short(v->state->init->dtype));
                print_dims(f, &v->state->init->shape);
            }
        } else if (v->constant) {
            fputs("  const ", f);
            print_decl(f, v);
            fputs(" = ", f);
            print_tensor(f, v->constant);
        } else {
            fputs("  undefined ", f);   /* the verifier says why */
            print_decl(f, v);
        }
        fputc('\n', f);
    }
}

void sm2c_ir_print(FILE *f, const sm2c_graph *g, const char *after)
{
    int32_t live = 0;
    for (int32_t i = 0; i < g->n_nodes; i++)
        live += !g->nodes[i]->dead;
    fprintf(f, "; %s%s%s%d nodes", after ? "after " : "", after ? after : "", after ? ": " : "", (int)live);
    if (live < g->n_nodes)
        fprintf(f, " (%d dead not shown)", (int)(g->n_nodes - live));
    fputs("\nentry ", f);
    print_name(f, g->key);
    fputs(" {\n", f);
    for (int32_t k = 0; k < g->n_inputs; k++) {
        fputs("  input ", f);
        print_name(f, g->inputs[k].key);
        if (g->inputs[k].value) {
            fputs(" = ", f);
            print_decl(f, g->inputs[k].value);
        }
        fputc('\n', f);
    }
    /* Which values to declare ahead: a value table by id, and the ones read. */
    const sm2c_value **by_id = calloc((size_t)g->n_values + 1, sizeof *by_id);
    unsigned char *used = calloc((size_t)g->n_values + 1, 1);
    if (by_id && used) {
        for (int32_t k = 0; k < g->n_inputs; k++) {
            mark(used, g, g->inputs[k].value);
            if (g->inputs[k].value && g->inputs[k].value->id < g->n_values)
                by_id[g->inputs[k].value->id] = g->inputs[k].value;
        }
        for (int32_t i = 0; i < g->n_nodes; i++) {
            const sm2c_node *n = g->nodes[i];
            for (int32_t k = 0; !n->dead && k < n->n_inputs; k++) {
                mark(used, g, n->inputs[k]);
                if (n->inputs[k]->id >= 0 && n->inputs[k]->id < g->n_values)
                    by_id[n->inputs[k]->id] = n->inputs[k];
            }
            const sm2c_value *extra[2] = { n->bias, n->residual };
            for (int k = 0; !n->dead && k < 2; k++)
                if (extra[k] && extra[k]->id >= 0 && extra[k]->id < g->n_values) {
                    mark(used, g, extra[k]);
                    by_id[extra[k]->id] = extra[k];
                }
        }
        for (int32_t k = 0; k < g->n_outputs; k++) {
            const sm2c_value *v = g->outputs[k].value;
            if (v && v->id >= 0 && v->id < g->n_values) {
                used[v->id] = 1;
                by_id[v->id] = v;
            }
        }
        print_sources(f, g, by_id, used);
    }
    free(by_id);
    free(used);
    int depth = 0;
    const char *function = "";
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const sm2c_node *n = g->nodes[i];
        if (n->dead)
            continue;
        if ((middle(n) || closes(n)) && depth > 0)
            depth--;
        /* the call path once where it changes, not on every node */
        if (strcmp(n->function ? n->function : "", function)) {
            function = n->function ? n->function : "";
            fprintf(f, "%*s; in %s\n", 2 * depth + 2, "", function[0] ? function : "the entry's graph");
        }
        print_node(f, n, depth);
        if (opens(n) || middle(n))
            depth++;
    }
    for (int32_t k = 0; k < g->n_outputs; k++) {
        fputs("  output ", f);
        print_name(f, g->outputs[k].key);
        if (g->outputs[k].value)
            fprintf(f, " = %%%d", (int)g->outputs[k].value->id);
        fputc('\n', f);
    }
    fputs("}\n", f);
}
