/*
** ops_einsum.c: Einsum with one operand (a transpose) or two (a batched
** matrix product), lowered to strided copies and the batch-matmul kernel.
**
** For "A,B->Y" every label is sorted into batch (in A, B and Y), contracted
** (in A and B only), free in A (A and Y) or free in B (B and Y).  One batch
** matmul multiplies A as [batch, freeA, contracted] by B as [batch,
** contracted, freeB] into [batch, freeA, freeB].  On float32 it reads each
** operand and writes Y where they are, with strides
** (sm2c_rt_batch_matmul_strided_f32), when that layout is a view of them:
** the free labels and the contracted labels each merge into one index of a
** single stride (any batch labels do, as each entry has its own offset), and
** Y's freeB labels are its innermost.  An operand that is no such view is
** copied to that layout first, a Y that is none gets the product in scratch
** and a last copy (as float64 always does, with sm2c_rt_batch_matmul_f64).
** This covers what Keras EinsumDense and MultiHeadAttention emit
** ("abc,cd->abd", "aecd,abcd->acbe", ...), the attention ones with no copy.
** A label summed within one operand only ("bij,bjk->b": i, k) is summed out
** of that operand first (a reduction), so what is left is one of the above.
** Not supported, each with its own error: ellipses, a label repeated within
** an operand (diagonals), and broadcasting of size-1 dims.
*/
#include "ops_common.h"

#include <stdio.h>

#define EIN_MAX SM2C_RT_MAX_RANK

typedef struct einsum {
    int32_t n_in;
    char in[2][EIN_MAX + 1], out[EIN_MAX + 1];
    int64_t size[128];     /* dim of each label */
} einsum;

static sm2c_status parse_labels(sm2c_ctx *c, const sm2c_node *n, const char *s, size_t len,
                                char *out)
{
    if (len > EIN_MAX)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "an Einsum operand has more than %d labels",
                             EIN_MAX);
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch == '.')
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "Einsum ellipses ('...') are not supported");
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "Einsum label '%c' is not a letter", ch);
        if (memchr(s, ch, i))
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "Einsum label '%c' repeats within an "
                                 "operand (diagonals are not supported)", ch);
        out[i] = ch;
    }
    out[len] = 0;
    return SM2C_OK;
}

static sm2c_status parse_einsum(sm2c_ctx *c, const sm2c_node *n, einsum *e)
{
    const char *eq = sm2c_attr_str(c, n, "equation");
    const char *arrow = eq ? strstr(eq, "->") : NULL;
    if (!arrow)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "Einsum needs an explicit '->' output");
    const char *comma = memchr(eq, ',', (size_t)(arrow - eq));
    e->n_in = comma ? 2 : 1;
    if (e->n_in != n->n_inputs)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "equation '%s' has %d operands, the node %d",
                             eq, e->n_in, n->n_inputs);
    sm2c_status st = parse_labels(c, n, eq, (size_t)((comma ? comma : arrow) - eq), e->in[0]);
    if (!st && comma)
        st = parse_labels(c, n, comma + 1, (size_t)(arrow - comma - 1), e->in[1]);
    if (!st)
        st = parse_labels(c, n, arrow + 2, strlen(arrow + 2), e->out);
    if (st)
        return st;
    for (int i = 0; i < 128; i++)
        e->size[i] = -1;
    for (int32_t k = 0; k < e->n_in; k++) {
        const sm2c_shape *s = &n->inputs[k]->shape;
        if ((size_t)s->rank != strlen(e->in[k]))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "operand %d has rank %d but %zu labels", k,
                                 s->rank, strlen(e->in[k]));
        for (int32_t i = 0; i < s->rank; i++) {
            int64_t *sz = &e->size[(unsigned char)e->in[k][i]];
            if (*sz >= 0 && *sz != s->dims[i])
                return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "Einsum label '%c' has sizes %lld and "
                                     "%lld (broadcasting is not supported)", e->in[k][i],
                                     (long long)*sz, (long long)s->dims[i]);
            *sz = s->dims[i];
        }
    }
    for (const char *p = e->out; *p; p++) {
        int in_any = 0;
        for (int32_t k = 0; k < e->n_in; k++)
            in_any |= strchr(e->in[k], *p) != NULL;
        if (!in_any)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "output label '%c' is in no operand", *p);
    }
    return SM2C_OK;
}

sm2c_status shape_einsum(sm2c_ctx *c, sm2c_node *n)
{
    einsum e;
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || (st = parse_einsum(c, n, &e)))
        return st;
    if (e.n_in == 2 && n->inputs[0]->dtype != n->inputs[1]->dtype)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "operands have different dtypes");
    int64_t dims[EIN_MAX];
    int32_t r = (int32_t)strlen(e.out);
    for (int32_t i = 0; i < r; i++)
        dims[i] = e.size[(unsigned char)e.out[i]];
    sm2c_op_set(c, n, 0, n->inputs[0]->dtype, r, dims);
    return SM2C_OK;
}

/* Copy buffer `src` with labels `from` into a buffer laid out as `to` (same
** label set); the result is `dst` when given (>= 0), else src itself when
** nothing moves, else a scratch buffer. */
static int32_t relayout(sm2c_lower *l, const sm2c_node *n, const einsum *e, int32_t src,
                        const char *from, const char *to, int32_t dst, int dtype)
{
    int32_t r = (int32_t)strlen(to);
    if (dst < 0 && strcmp(from, to) == 0)
        return src;
    int64_t fdims[EIN_MAX] = { 0 }, fstr[EIN_MAX], dims[EIN_MAX] = { 0 }, sstr[EIN_MAX], dstr[EIN_MAX];
    for (int32_t i = 0; i < r; i++) {
        fdims[i] = e->size[(unsigned char)from[i]];
        dims[i] = e->size[(unsigned char)to[i]];
    }
    sm2c_shape fs = { r, fdims }, ts = sm2c_shape_make(l->c, r, dims);
    sm2c_op_strides(&fs, fstr);
    sm2c_op_strides(&ts, dstr);
    for (int32_t i = 0; i < r; i++)
        sstr[i] = fstr[strchr(from, to[i]) - from];
    if (dst < 0)
        dst = sm2c_lower_scratch(l, dtype, &ts, n->name);
    sm2c_op_copy(l, n, src, 0, sstr, dst, 0, dstr, r, dims, dtype);
    return dst;
}

/* Append label ch to the label string s (never longer than EIN_MAX). */
static void add_label(char *s, char ch)
{
    size_t len = strlen(s);
    if (len < EIN_MAX)
        s[len] = ch, s[len + 1] = 0;
}

static int64_t label_product(const einsum *e, const char *labels)
{
    int64_t p = 1;
    for (; *labels; labels++)
        p *= e->size[(unsigned char)*labels];
    return p;
}

/* Operand k's labels that neither the output nor the other operand has
** (`own`, summed within it), and the others (`kept`: in the output's order
** for one operand, else in the operand's). */
static void split_own(const einsum *e, int32_t k, char *own, char *kept)
{
    own[0] = kept[0] = 0;
    for (const char *p = e->in[k]; *p; p++)
        if (!strchr(e->out, *p) && (e->n_in == 1 || !strchr(e->in[1 - k], *p)))
            add_label(own, *p);
        else if (e->n_in == 2)
            add_label(kept, *p);
    for (const char *p = e->out; e->n_in == 1 && *p; p++)
        add_label(kept, *p);
}

/* Operand k summed over its own labels: laid out as kept + own, then reduced
** into `dst` (>= 0) or a scratch buffer; e->in[k] becomes `kept`.  src itself
** when it has no own labels. */
static int32_t sum_own(sm2c_lower *l, const sm2c_node *n, einsum *e, int32_t k, int32_t src, int32_t dst)
{
    char own[EIN_MAX + 1], kept[EIN_MAX + 1], both[EIN_MAX + 1];
    split_own(e, k, own, kept);
    if (!own[0])
        return src;
    memcpy(both, kept, strlen(kept));   /* kept and own are disjoint labels of one operand */
    memcpy(both + strlen(kept), own, strlen(own) + 1);
    int32_t t = relayout(l, n, e, src, e->in[k], both, -1, SM2C_DT_FLOAT);
    int64_t kdims[EIN_MAX] = { 0 };
    for (size_t i = 0; i < strlen(kept); i++)
        kdims[i] = e->size[(unsigned char)kept[i]];
    sm2c_shape ks = sm2c_shape_make(l->c, (int32_t)strlen(kept), kdims);
    if (dst < 0)
        dst = sm2c_lower_scratch(l, SM2C_DT_FLOAT, &ks, n->name);
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_reduce_sum_f32", 5);
    s->args[0] = sm2c_arg_buf(t);
    s->args[1] = sm2c_arg_buf(dst);
    s->args[2] = sm2c_arg_int(label_product(e, kept));
    s->args[3] = sm2c_arg_int(label_product(e, own));
    s->args[4] = sm2c_arg_int(1);
    memcpy(e->in[k], kept, strlen(kept) + 1);
    return dst;
}

static int has_own_labels(const einsum *e)
{
    char own[EIN_MAX + 1], kept[EIN_MAX + 1];
    int any = 0;
    for (int32_t k = 0; k < e->n_in; k++) {
        split_own(e, k, own, kept);
        any |= own[0] != 0;
    }
    return any;
}

/* Row-major strides of a buffer laid out as labels `have`. */
static void label_strides(const einsum *e, const char *have, int64_t *str)
{
    int64_t st = 1;
    for (int32_t i = (int32_t)strlen(have) - 1; i >= 0; i--) {
        str[i] = st;
        st *= e->size[(unsigned char)have[i]];
    }
}

/* The one stride of labels `group` (a subset of `have`) read as a single
** row-major index, when they merge: each label's stride is the next one's
** times its size (a label of size 1 has no stride to match); -1 when they do
** not.  1 for a group of one element, so that it counts as contiguous. */
static int64_t group_stride(const einsum *e, const char *have, const char *group)
{
    int64_t str[EIN_MAX], stride = 1, next = -1;
    label_strides(e, have, str);
    for (int32_t i = (int32_t)strlen(group) - 1; i >= 0; i--) {
        int64_t sz = e->size[(unsigned char)group[i]];
        int64_t st = str[strchr(have, group[i]) - have];
        if (sz == 1)
            continue;
        if (next >= 0 && st != next)
            return -1;
        if (next < 0)
            stride = st;
        next = st * sz;
    }
    return stride;
}

/* A buffer with labels `have` read as [batch][rows][cols]: the rows' and the
** columns' strides; 0 when either group does not merge. */
static int view_strides(const einsum *e, const char *have, const char *rows, const char *cols,
                        int64_t *rs, int64_t *cs)
{
    *rs = group_stride(e, have, rows);
    *cs = group_stride(e, have, cols);
    return *rs >= 0 && *cs >= 0;
}

/* The product's result can be written where Y is: its columns (freeB) are
** Y's innermost elements, as the kernel writes them. */
static int out_viewable(const einsum *e, const char *have, const char *rows, const char *cols)
{
    int64_t rs, cs;
    return view_strides(e, have, rows, cols, &rs, &cs) && cs == 1;
}

/* The first element of each batch entry (batch labels in row-major order)
** in a buffer with labels `have`. */
static int64_t *view_offsets(sm2c_lower *l, const einsum *e, const char *have, const char *batch, int64_t nb)
{
    int64_t str[EIN_MAX], *off = sm2c_arena_array(l->c->arena, (size_t)(nb ? nb : 1), sizeof *off);
    label_strides(e, have, str);
    for (int64_t j = 0; j < nb; j++) {
        int64_t rem = j, o = 0;
        for (int32_t i = (int32_t)strlen(batch) - 1; i >= 0; i--) {
            int64_t sz = e->size[(unsigned char)batch[i]];
            o += rem % sz * str[strchr(have, batch[i]) - have];
            rem /= sz;
        }
        off[j] = o;
    }
    return off;
}

/* Elements copied to multiply A (labels a, free fa) by B (labels b, free
** fb): each operand not already [batch, free, contracted] or [batch,
** contracted, free], and the product if [batch, fa, fb] is not the output;
** with strides (float32), only those that are no such view. */
static int64_t copy_cost(const einsum *e, const char *a, const char *b, const char *batch,
                         const char *fa, const char *fb, const char *con, int strided)
{
    char la[3 * EIN_MAX + 1], lb[3 * EIN_MAX + 1], lz[3 * EIN_MAX + 1];
    int64_t rs, cs;
    snprintf(la, sizeof la, "%s%s%s", batch, fa, con);
    snprintf(lb, sizeof lb, "%s%s%s", batch, con, fb);
    snprintf(lz, sizeof lz, "%s%s%s", batch, fa, fb);
    int copy_a = strided ? !view_strides(e, a, fa, con, &rs, &cs) : strcmp(a, la) != 0;
    int copy_b = strided ? !view_strides(e, b, con, fb, &rs, &cs) : strcmp(b, lb) != 0;
    int copy_y = strided ? !out_viewable(e, e->out, fa, fb) : strcmp(lz, e->out) != 0;
    return (copy_a ? label_product(e, a) : 0) + (copy_b ? label_product(e, b) : 0) +
           (copy_y ? label_product(e, lz) : 0);
}

/* Whether B times A copies fewer elements than A times B: attention's
** "aecd,abcd->acbe" (keys, queries) gives its scores [a, c, b, e] directly
** from queries times keys, where keys times queries needs a transposing copy
** of the whole score tensor.  Each output element is the same sum of the
** same products (in the same order), so the results do not change. */
static int swap_pays(const einsum *e, const char *batch, const char *fa, const char *fb, const char *con,
                     int strided)
{
    return copy_cost(e, e->in[1], e->in[0], batch, fb, fa, con, strided) <
           copy_cost(e, e->in[0], e->in[1], batch, fa, fb, con, strided);
}

/* Scratch for the product laid out as labels lz. */
static int32_t product_scratch(sm2c_lower *l, const sm2c_node *n, const einsum *e, const char *lz, int dt)
{
    int64_t zdims[EIN_MAX] = { 0 };
    for (size_t i = 0; i < strlen(lz); i++)
        zdims[i] = e->size[(unsigned char)lz[i]];
    sm2c_shape zs = sm2c_shape_make(l->c, (int32_t)strlen(lz), zdims);
    return sm2c_lower_scratch(l, dt, &zs, n->name);
}

/* Float64: A and B copied to [batch, fa, con] and [batch, con, fb] (unless
** already so), their batch matmul, and a copy of [batch, fa, fb] to Y's
** order unless it is that. */
static void product_copied(sm2c_lower *l, const sm2c_node *n, const einsum *e, int32_t in0, int32_t in1,
                           const char *batch, const char *fa, const char *fb, const char *con)
{
    const sm2c_value *y = n->outputs[0];
    int dt = y->dtype;
    /* Each is at most one operand's labels (EIN_MAX); sized for the three
    ** parts so that gcc sees no truncation. */
    char la[3 * EIN_MAX + 1], lb[3 * EIN_MAX + 1], lz[3 * EIN_MAX + 1];
    snprintf(la, sizeof la, "%s%s%s", batch, fa, con);
    snprintf(lb, sizeof lb, "%s%s%s", batch, con, fb);
    snprintf(lz, sizeof lz, "%s%s%s", batch, fa, fb);
    int32_t a = relayout(l, n, e, in0, e->in[0], la, -1, dt);
    int32_t b = relayout(l, n, e, in1, e->in[1], lb, -1, dt);
    int direct = strcmp(lz, e->out) == 0;
    int64_t nb = label_product(e, batch), m = label_product(e, fa), k = label_product(e, con);
    int64_t nn = label_product(e, fb);
    int32_t z = direct ? sm2c_lower_buf(l, y) : product_scratch(l, n, e, lz, dt);
    int64_t *aoff = sm2c_arena_array(l->c->arena, (size_t)(nb ? nb : 1), sizeof *aoff);
    int64_t *boff = sm2c_arena_array(l->c->arena, (size_t)(nb ? nb : 1), sizeof *boff);
    for (int64_t j = 0; j < nb; j++)
        aoff[j] = j * m * k, boff[j] = j * k * nn;
    sm2c_step *s = sm2c_lower_step(l, n, sm2c_op_kernel(l->c, "batch_matmul", dt), 11);
    s->args[0] = sm2c_arg_buf(a);
    s->args[1] = sm2c_arg_buf(b);
    s->args[2] = sm2c_arg_buf(z);
    s->args[3] = sm2c_arg_int(nb);
    s->args[4] = sm2c_arg_ints(l, (int32_t)nb, aoff);
    s->args[5] = sm2c_arg_ints(l, (int32_t)nb, boff);
    s->args[6] = sm2c_arg_int(m);
    s->args[7] = sm2c_arg_int(k);
    s->args[8] = sm2c_arg_int(nn);
    s->args[9] = sm2c_arg_int(0);
    s->args[10] = sm2c_arg_int(0);
    if (!direct)
        relayout(l, n, e, z, lz, e->out, sm2c_lower_buf(l, y), dt);
}

/* An operand of the product read in place: its buffer, batch offsets and
** row and column strides. */
typedef struct ein_view {
    int32_t buf;
    int64_t *off, rs, cs;
} ein_view;

/* Buffer `src` with labels `have` as [batch][rows][cols]: in place when it
** is such a view, else copied to that layout (`canon`) first. */
static ein_view operand_view(sm2c_lower *l, const sm2c_node *n, const einsum *e, int32_t src,
                             const char *have, const char *batch, const char *rows, const char *cols,
                             const char *canon)
{
    ein_view v = { src, NULL, 0, 0 };
    if (!view_strides(e, have, rows, cols, &v.rs, &v.cs)) {
        v.buf = relayout(l, n, e, src, have, canon, -1, SM2C_DT_FLOAT);
        have = canon;
        view_strides(e, have, rows, cols, &v.rs, &v.cs);
    }
    v.off = view_offsets(l, e, have, batch, label_product(e, batch));
    return v;
}

/* Float32: one strided batch matmul that reads A and B and writes Y where
** they are when it can (operand_view, out_viewable), with copies for the
** rest; the same sums, bit for bit, as on copies. */
static void product_strided(sm2c_lower *l, const sm2c_node *n, const einsum *e, int32_t in0, int32_t in1,
                            const char *batch, const char *fa, const char *fb, const char *con)
{
    const sm2c_value *y = n->outputs[0];
    char la[3 * EIN_MAX + 1], lb[3 * EIN_MAX + 1], lz[3 * EIN_MAX + 1];
    snprintf(la, sizeof la, "%s%s%s", batch, fa, con);
    snprintf(lb, sizeof lb, "%s%s%s", batch, con, fb);
    snprintf(lz, sizeof lz, "%s%s%s", batch, fa, fb);
    ein_view va = operand_view(l, n, e, in0, e->in[0], batch, fa, con, la);
    ein_view vb = operand_view(l, n, e, in1, e->in[1], batch, con, fb, lb);
    int direct = out_viewable(e, e->out, fa, fb);
    const char *zl = direct ? e->out : lz;
    int32_t z = direct ? sm2c_lower_buf(l, y) : product_scratch(l, n, e, lz, SM2C_DT_FLOAT);
    ein_view vz = operand_view(l, n, e, z, zl, batch, fa, fb, zl);
    int64_t nb = label_product(e, batch);
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_batch_matmul_strided_f32", 16);
    s->args[0] = sm2c_arg_buf(va.buf);
    s->args[1] = sm2c_arg_buf(vb.buf);
    s->args[2] = sm2c_arg_buf(z);
    s->args[3] = sm2c_arg_int(nb);
    s->args[4] = sm2c_arg_ints(l, (int32_t)nb, va.off);
    s->args[5] = sm2c_arg_ints(l, (int32_t)nb, vb.off);
    s->args[6] = sm2c_arg_ints(l, (int32_t)nb, vz.off);
    s->args[7] = sm2c_arg_int(label_product(e, fa));
    s->args[8] = sm2c_arg_int(label_product(e, con));
    s->args[9] = sm2c_arg_int(label_product(e, fb));
    s->args[10] = sm2c_arg_int(va.rs);
    s->args[11] = sm2c_arg_int(va.cs);
    s->args[12] = sm2c_arg_int(vb.rs);
    s->args[13] = sm2c_arg_int(vb.cs);
    s->args[14] = sm2c_arg_int(vz.rs);
    /* a B with columns apart is packed a tile at a time, as a transposed one */
    s->args[15] = sm2c_lower_matmul_pack(l, SM2C_DT_FLOAT, vb.cs != 1);
    if (!direct)
        relayout(l, n, e, z, lz, e->out, sm2c_lower_buf(l, y), SM2C_DT_FLOAT);
}

sm2c_status lower_einsum(sm2c_lower *l, const sm2c_node *n)
{
    einsum e;
    sm2c_status st = parse_einsum(l->c, n, &e);
    if (st)
        return st;
    const sm2c_value *y = n->outputs[0];
    int dt = y->dtype;
    if (has_own_labels(&e) && dt != SM2C_DT_FLOAT)
        return sm2c_lower_unsupported(l, n, "Einsum summing a label within one operand on %s is not supported",
                                      sm2c_dtype_name(dt));
    if (e.n_in == 1) {
        int32_t src = sm2c_lower_buf(l, n->inputs[0]);
        char own[EIN_MAX + 1], kept[EIN_MAX + 1];
        split_own(&e, 0, own, kept);
        if (own[0])
            sum_own(l, n, &e, 0, src, sm2c_lower_buf(l, y));
        else
            relayout(l, n, &e, src, e.in[0], e.out, sm2c_lower_buf(l, y), dt);
        return SM2C_OK;
    }
    if (dt != SM2C_DT_FLOAT && dt != SM2C_DT_DOUBLE)
        return sm2c_lower_unsupported(l, n, "Einsum on %s is not supported", sm2c_dtype_name(dt));
    int32_t in0 = sum_own(l, n, &e, 0, sm2c_lower_buf(l, n->inputs[0]), -1);
    int32_t in1 = sum_own(l, n, &e, 1, sm2c_lower_buf(l, n->inputs[1]), -1);
    char batch[EIN_MAX + 1] = "", fa[EIN_MAX + 1] = "", fb[EIN_MAX + 1] = "", con[EIN_MAX + 1] = "";
    for (const char *p = e.out; *p; p++)
        if (strchr(e.in[0], *p) && strchr(e.in[1], *p))
            add_label(batch, *p);
    for (const char *p = e.in[0]; *p; p++) {
        if (!strchr(e.in[1], *p))
            add_label(fa, *p);
        else if (!strchr(e.out, *p))
            add_label(con, *p);
    }
    for (const char *p = e.in[1]; *p; p++)
        if (!strchr(e.in[0], *p))
            add_label(fb, *p);
    if (swap_pays(&e, batch, fa, fb, con, dt == SM2C_DT_FLOAT)) {
        char t[EIN_MAX + 1];
        int32_t tb = in0;
        in0 = in1, in1 = tb;
        memcpy(t, e.in[0], sizeof t), memcpy(e.in[0], e.in[1], sizeof t), memcpy(e.in[1], t, sizeof t);
        memcpy(t, fa, sizeof t), memcpy(fa, fb, sizeof t), memcpy(fb, t, sizeof t);
    }
    if (dt == SM2C_DT_FLOAT)
        product_strided(l, n, &e, in0, in1, batch, fa, fb, con);
    else
        product_copied(l, n, &e, in0, in1, batch, fa, fb, con);
    return SM2C_OK;
}
