/*
** cflow.c: If, Case and While (and StatelessIf, StatelessCase,
** StatelessWhile) -> the marker nodes of cflow.h: import, shapes, lowering.
**
** Branches and bodies are inlined by the inline pass (import_inline.c) as
** scopes whose arguments are bound to the marker's values, so they are plain
** IR between the markers.  Loop-carried values keep one static shape: the
** body must give back what it was given (else a clear error naming the loop).
** A TensorList handle among the values travels as its data and length
** (tlist.c), two carried values.
*/
#include "cflow.h"

#include <string.h>

#include "import_internal.h"
#include "ops/ops_common.h"

/* ---- marker ops ---------------------------------------------------------------- */

static sm2c_status shape_if_begin(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_none(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_if_end(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_loop_begin(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_loop_cond(sm2c_ctx *c, sm2c_node *n);
static sm2c_status shape_loop_end(sm2c_ctx *c, sm2c_node *n);
static sm2c_status lower_if_begin(sm2c_lower *l, const sm2c_node *n);
static sm2c_status lower_if_else(sm2c_lower *l, const sm2c_node *n);
static sm2c_status lower_if_end(sm2c_lower *l, const sm2c_node *n);
static sm2c_status lower_loop_begin(sm2c_lower *l, const sm2c_node *n);
static sm2c_status lower_loop_cond(sm2c_lower *l, const sm2c_node *n);
static sm2c_status lower_loop_end(sm2c_lower *l, const sm2c_node *n);

static const sm2c_opdef marker_ops[] = {
    { "IfBegin", 1, "", "", shape_if_begin, lower_if_begin, UINT64_MAX, 0, 0 },
    { "IfElse", -1, "", "", shape_none, lower_if_else, UINT64_MAX, 0, 0 },
    { "IfEnd", -1, "output", "", shape_if_end, lower_if_end, UINT64_MAX, 0, 0 },
    { "LoopBegin", -1, "output", "", shape_loop_begin, lower_loop_begin, UINT64_MAX, 0, 0 },
    { "LoopCond", 1, "", "", shape_loop_cond, lower_loop_cond, UINT64_MAX, 0, 0 },
    { "LoopEnd", -1, "output", "", shape_loop_end, lower_loop_end, UINT64_MAX, 0, 0 },
};
enum { OP_IF_BEGIN, OP_IF_ELSE, OP_IF_END, OP_LOOP_BEGIN, OP_LOOP_COND, OP_LOOP_END };

int sm2c_import_cflow_op(const char *op)
{
    /* TF1's Switch/Merge and while frames arrive here as If and While
    ** (functionalize.c). */
    static const char *const ops[] = { "If", "StatelessIf", "Case", "StatelessCase", "While",
                                       "StatelessWhile", NULL };
    for (size_t i = 0; ops[i]; i++)
        if (strcmp(op, ops[i]) == 0)
            return 1;
    return sm2c_tlist_op(op);
}

/* ---- shapes --------------------------------------------------------------------- */

static const char *shape_text(sm2c_ctx *c, const sm2c_shape *s)
{
    if (s->rank < 0)
        return "unknown";
    const char *t = "[";
    for (int32_t d = 0; d < s->rank; d++)
        t = sm2c_arena_printf(c->arena, "%s%s%lld", t, d ? "," : "", (long long)s->dims[d]);
    return sm2c_arena_printf(c->arena, "%s]", t);
}

static int is_static(const sm2c_value *v)
{
    return v->shape.rank >= 0 && sm2c_value_elements(v) >= 0 && sm2c_dtype_size(v->dtype) > 0;
}

static sm2c_status shape_none(sm2c_ctx *c, sm2c_node *n)
{
    (void)c;
    (void)n;
    return SM2C_OK;
}

static sm2c_status scalar_condition(sm2c_ctx *c, const sm2c_node *n, const sm2c_value *v)
{
    if (!is_static(v) || sm2c_value_elements(v) != 1 ||
        (v->dtype != SM2C_DT_BOOL && v->dtype != SM2C_DT_INT32))
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                             "the condition must be a bool or int32 scalar (it is %s %s)",
                             sm2c_dtype_name(v->dtype), shape_text(c, &v->shape));
    return SM2C_OK;
}

static sm2c_status shape_if_begin(sm2c_ctx *c, sm2c_node *n)
{
    return scalar_condition(c, n, n->inputs[0]);
}

/* Output k takes then-result k's type; else-result k must agree. */
static sm2c_status shape_if_end(sm2c_ctx *c, sm2c_node *n)
{
    const sm2c_node *mid = n->cflow->middle;
    for (int32_t k = 0; k < n->n_outputs; k++) {
        const sm2c_value *a = mid->inputs[k], *b = n->inputs[k];
        if (!is_static(a) || !is_static(b) || a->dtype != b->dtype || !sm2c_shape_equal(&a->shape, &b->shape))
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                                 "output %d is %s %s in one branch and %s %s in the other; sm2c needs "
                                 "one static type", k, sm2c_dtype_name(a->dtype), shape_text(c, &a->shape),
                                 sm2c_dtype_name(b->dtype), shape_text(c, &b->shape));
        sm2c_op_set(c, n, k, a->dtype, a->shape.rank, a->shape.dims);
    }
    return SM2C_OK;
}

static sm2c_status shape_loop_begin(sm2c_ctx *c, sm2c_node *n)
{
    for (int32_t k = 0; k < n->n_inputs; k++) {
        const sm2c_value *v = n->inputs[k];
        if (!is_static(v))
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                                 "loop-carried value %d (%s) has no static shape or a dtype sm2c cannot "
                                 "carry (%s)", k, v->name ? v->name : "?", sm2c_dtype_name(v->dtype));
        sm2c_op_set(c, n, k, v->dtype, v->shape.rank, v->shape.dims);
    }
    return SM2C_OK;
}

static sm2c_status shape_loop_cond(sm2c_ctx *c, sm2c_node *n)
{
    return scalar_condition(c, n, n->inputs[0]);
}

/* What the body gives back must be what it was given: one static shape on
** every iteration. */
static sm2c_status shape_loop_end(sm2c_ctx *c, sm2c_node *n)
{
    const sm2c_node *begin = n->cflow->begin;
    for (int32_t k = 0; k < n->n_outputs; k++) {
        const sm2c_value *v = begin->outputs[k], *r = n->inputs[k];
        if (!is_static(r) || r->dtype != v->dtype || !sm2c_shape_equal(&r->shape, &v->shape))
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                                 "loop-carried value %d ('%s') enters the loop as %s %s but the body returns "
                                 "%s %s: its shape must be static and the same on every iteration",
                                 k, begin->inputs[k]->name ? begin->inputs[k]->name : "?",
                                 sm2c_dtype_name(v->dtype), shape_text(c, &v->shape),
                                 sm2c_dtype_name(r->dtype), shape_text(c, &r->shape));
        sm2c_op_set(c, n, k, v->dtype, v->shape.rank, v->shape.dims);
    }
    return SM2C_OK;
}

/* ---- lowering ----------------------------------------------------------------- */

static sm2c_step *control_step(sm2c_lower *l, const sm2c_node *n, int32_t kind, int32_t n_args)
{
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_control", n_args);
    s->control = kind;
    s->imm = -1;
    return s;
}

static void copy_step(sm2c_lower *l, const sm2c_node *n, int32_t dst, int32_t src)
{
    if (dst == src)
        return;
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_copy", 3);
    s->args[0] = sm2c_arg_buf(dst);
    s->args[1] = sm2c_arg_buf(src);
    s->args[2] = sm2c_arg_int(l->entry->buffers[dst].nbytes);
}

static sm2c_status lower_if_begin(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_step *s = control_step(l, n, SM2C_CTL_IF, 1);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->imm = n->cflow->case_value;
    return SM2C_OK;
}

/* Each branch writes the If's outputs. */
static void branch_results(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_node *end = n->cflow->end;
    for (int32_t k = 0; k < n->n_inputs; k++)
        copy_step(l, n, sm2c_lower_buf(l, end->outputs[k]), sm2c_lower_buf(l, n->inputs[k]));
}

static sm2c_status lower_if_else(sm2c_lower *l, const sm2c_node *n)
{
    branch_results(l, n);
    control_step(l, n, SM2C_CTL_ELSE, 0);
    return SM2C_OK;
}

static sm2c_status lower_if_end(sm2c_lower *l, const sm2c_node *n)
{
    branch_results(l, n);
    control_step(l, n, SM2C_CTL_END_IF, 0);
    return SM2C_OK;
}

static sm2c_status lower_loop_begin(sm2c_lower *l, const sm2c_node *n)
{
    for (int32_t k = 0; k < n->n_outputs; k++)
        copy_step(l, n, sm2c_lower_buf(l, n->outputs[k]), sm2c_lower_buf(l, n->inputs[k]));
    sm2c_shape scalar = { 0 };
    int32_t counter = sm2c_lower_scratch(l, SM2C_DT_INT32, &scalar, "loop counter");
    n->cflow->counter_buf = counter;
    sm2c_step *s = control_step(l, n, SM2C_CTL_LOOP, 1);
    s->args[0] = sm2c_arg_buf(counter);
    return SM2C_OK;
}

static sm2c_status lower_loop_cond(sm2c_lower *l, const sm2c_node *n)
{
    sm2c_step *s = control_step(l, n, SM2C_CTL_BREAK_UNLESS, 2);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(n->cflow->counter_buf);
    s->imm = n->cflow->cap;
    return SM2C_OK;
}

/* Body results go back into the carried buffers.  A result that is another
** carried value (a swap) is saved first, so no copy reads a buffer already
** overwritten. */
static sm2c_status lower_loop_end(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_node *begin = n->cflow->begin;
    int32_t *src = sm2c_arena_array(l->c->arena, (size_t)n->n_inputs + 1, sizeof *src);
    for (int32_t k = 0; k < n->n_inputs; k++) {
        src[k] = sm2c_lower_buf(l, n->inputs[k]);
        for (int32_t j = 0; j < begin->n_outputs; j++)
            if (j != k && src[k] == sm2c_lower_buf(l, begin->outputs[j])) {
                const sm2c_buffer *b = &l->entry->buffers[src[k]];
                int32_t t = sm2c_lower_scratch(l, b->dtype, &b->shape, "loop swap");
                copy_step(l, n, t, src[k]);
                src[k] = t;
                break;
            }
    }
    for (int32_t k = 0; k < n->n_inputs; k++)
        copy_step(l, n, sm2c_lower_buf(l, begin->outputs[k]), src[k]);
    sm2c_step *s = control_step(l, n, SM2C_CTL_END_LOOP, 1);
    s->args[0] = sm2c_arg_buf(n->cflow->counter_buf);
    for (int32_t k = 0; k < n->n_outputs; k++)
        sm2c_lower_alias(l, n->outputs[k], begin->outputs[k]);
    return SM2C_OK;
}

/* ---- import --------------------------------------------------------------------- */

/* Values with every list handle replaced by its data and length.  Resource
** handles (read-only variables, constants here) are not carried: branches and
** bodies see the handle itself. */
static sm2c_value **flatten(importer *im, sm2c_value **vals, int32_t n, int32_t *n_flat)
{
    sm2c_value **out = sm2c_arena_array(im->c->arena, 2 * (size_t)n + 1, sizeof *out);
    *n_flat = 0;
    for (int32_t k = 0; k < n; k++) {
        if (vals[k]->dtype == SM2C_DT_RESOURCE)
            continue;
        if (vals[k]->list_data) {
            out[(*n_flat)++] = vals[k]->list_data;
            out[(*n_flat)++] = vals[k]->list_len;
        } else {
            out[(*n_flat)++] = vals[k];
        }
    }
    return out;
}

/* The inverse of flatten, for values shaped like `like`: list handles again. */
static sm2c_value **unflatten(importer *im, sm2c_value **flat, sm2c_value **like, int32_t n)
{
    sm2c_value **out = sm2c_arena_array(im->c->arena, (size_t)n + 1, sizeof *out);
    for (int32_t k = 0, f = 0; k < n; k++) {
        if (like[k]->dtype == SM2C_DT_RESOURCE) {
            out[k] = like[k];
        } else if (like[k]->list_data) {
            sm2c_value *h = sm2c_value_new(im->c, im->g, SM2C_DT_VARIANT, like[k]->name);
            h->list_data = flat[f++];
            h->list_len = flat[f++];
            h->tlist = like[k]->tlist;
            out[k] = h;
        } else {
            out[k] = flat[f++];
        }
    }
    return out;
}

static sm2c_cflow *new_cflow(importer *im, sm2c_cflow_kind kind)
{
    sm2c_cflow *cf = sm2c_arena_alloc(im->c->arena, sizeof *cf);
    cf->kind = kind;
    cf->case_value = -1;
    cf->counter_buf = -1;
    cf->trips = -1;
    return cf;
}

static sm2c_node *marker(importer *im, scope *s, int32_t i, sm2c_cflow *cf, int op, sm2c_value **ins,
                         int32_t n_ins, int32_t n_outs)
{
    sm2c_node *n = sm2c_node_new(im->c, im->g, &marker_ops[op], s->nodes[i], s->path, n_ins, ins, n_outs);
    n->cflow = cf;
    return n;
}

static const char *func_attr(const Tensorflow__NodeDef *nd, const char *name)
{
    const Tensorflow__AttrValue *a = sm2c_node_attr(nd, name);
    return a && a->value_case == TENSORFLOW__ATTR_VALUE__VALUE_FUNC && a->func ? a->func->name : NULL;
}

/* Inline function fname with args bound to `args`; its results in *res. */
static sm2c_status inline_fn(importer *im, scope *s, int32_t i, const char *fname, sm2c_value **args,
                             int32_t n_args, sm2c_value ***res, int32_t *n_res)
{
    sm2c_status st = sm2c_import_call(im, s, i, fname, args, n_args);
    if (st)
        return st;
    *res = s->outs[i];
    *n_res = s->n_outs[i];
    for (int32_t k = 0; k < *n_res; k++)
        if (!(*res)[k])
            return SM2C_ERR_INVALID;
    return SM2C_OK;
}

/* A branch's results flattened; the handles must pair with the other branch's. */
static sm2c_status branch(importer *im, scope *s, int32_t i, const char *fname, sm2c_value **args,
                          int32_t n_args, sm2c_value ***res, int32_t *n_res)
{
    if (!fname)
        return sm2c_import_bad(im, s, s->nodes[i], SM2C_ERR_INVALID, "%s", "a branch is not a function");
    return inline_fn(im, s, i, fname, args, n_args, res, n_res);
}

static sm2c_status same_results(importer *im, scope *s, int32_t i, sm2c_value **a, int32_t na,
                                sm2c_value **b, int32_t nb)
{
    int same = na == nb;
    for (int32_t k = 0; same && k < na; k++)
        same = !a[k]->list_data == !b[k]->list_data && (a[k]->dtype == SM2C_DT_RESOURCE) == (b[k]->dtype == SM2C_DT_RESOURCE);
    return same ? SM2C_OK
                : sm2c_import_bad(im, s, s->nodes[i], SM2C_ERR_INVALID, "%s",
                                  "its branches return different numbers or kinds of values");
}

/* Branch fnames[0..n) chosen by ins[0]: If (n == 2, then first) or a Case
** chain (branch k when ins[0] == k, the last one otherwise). */
static sm2c_status import_branches(importer *im, scope *s, int32_t i, const char *const *fnames, int32_t n,
                                   int is_case, sm2c_value **ins, int32_t n_ins)
{
    sm2c_value **args = ins + 1;
    int32_t n_args = n_ins - 1;
    int32_t levels = n - 1;
    sm2c_cflow **cfs = sm2c_arena_array(im->c->arena, (size_t)levels + 1, sizeof *cfs);
    sm2c_value ***then_res = sm2c_arena_array(im->c->arena, (size_t)levels + 1, sizeof *then_res);
    int32_t n_res = 0, n_last = 0;
    sm2c_status st;
    for (int32_t k = 0; k < levels; k++) {
        cfs[k] = new_cflow(im, SM2C_CF_IF);
        cfs[k]->case_value = is_case ? k : -1;
        cfs[k]->begin = marker(im, s, i, cfs[k], OP_IF_BEGIN, ins, 1, 0);
        if ((st = branch(im, s, i, fnames[is_case ? k : 0], args, n_args, &then_res[k], &n_res)))
            return st;
        if (k && (st = same_results(im, s, i, then_res[0], n_res, then_res[k], n_res)))
            return st;
        int32_t nf;
        sm2c_value **flat = flatten(im, then_res[k], n_res, &nf);
        cfs[k]->middle = marker(im, s, i, cfs[k], OP_IF_ELSE, flat, nf, 0);
    }
    sm2c_value **res;
    if ((st = branch(im, s, i, fnames[n - 1], args, n_args, &res, &n_last)) ||
        (st = same_results(im, s, i, then_res[0], n_res, res, n_last)))
        return st;
    for (int32_t k = levels - 1; k >= 0; k--) {
        int32_t nf;
        sm2c_value **flat = flatten(im, res, n_res, &nf);
        cfs[k]->end = marker(im, s, i, cfs[k], OP_IF_END, flat, nf, nf);
        res = unflatten(im, cfs[k]->end->outputs, then_res[k], n_res);
    }
    sm2c_import_set_outputs(im, s, i, res, n_res);
    return SM2C_OK;
}

static sm2c_status import_if(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    const char *fnames[2] = { func_attr(nd, "then_branch"), func_attr(nd, "else_branch") };
    if (n_ins < 1)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "%s", "has no condition input");
    return import_branches(im, s, i, fnames, 2, 0, ins, n_ins);
}

static sm2c_status import_case(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    const Tensorflow__AttrValue *b = sm2c_node_attr(nd, "branches");
    if (n_ins < 1 || !b || b->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !b->list ||
        b->list->n_func < 1)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "%s", "needs a branch index and a 'branches' list");
    const char **fnames = sm2c_arena_array(im->c->arena, b->list->n_func + 1, sizeof *fnames);
    for (size_t k = 0; k < b->list->n_func; k++)
        fnames[k] = b->list->func[k]->name;
    if (b->list->n_func == 1) {   /* one branch: always taken */
        sm2c_value **res;
        int32_t n_res;
        sm2c_status st = branch(im, s, i, fnames[0], ins + 1, n_ins - 1, &res, &n_res);
        if (!st)
            sm2c_import_set_outputs(im, s, i, res, n_res);
        return st;
    }
    return import_branches(im, s, i, fnames, (int32_t)b->list->n_func, 1, ins, n_ins);
}


/* ---- static trip counts ------------------------------------------------------- */

static int const_scalar(const sm2c_value *v, int64_t *out)
{
    const sm2c_tensor *t = v->constant;
    if (!t || t->nelem != 1 || (t->dtype != SM2C_DT_INT32 && t->dtype != SM2C_DT_INT64))
        return 0;
    *out = t->dtype == SM2C_DT_INT32 ? *(const int32_t *)t->data : *(const int64_t *)t->data;
    return 1;
}

/* A loop-invariant integer: a constant, or a carried value the body passes
** through unchanged whose initial value is a constant.  Values derived from
** static shapes (tf.shape(x)[0], tf.size(x)) are folded first. */
static int invariant(importer *im, sm2c_value *v, const sm2c_node *begin, sm2c_value **res, int64_t *out)
{
    if (v->node == begin && v->index < begin->n_inputs && res[v->index] == v)
        v = begin->inputs[v->index];
    if (!v->constant && v->node && !v->node->cflow)
        sm2c_import_infer_ahead(im->c, im->g, v);
    return const_scalar(v, out);
}

static int op_named(const sm2c_value *v, const char *a, const char *b)
{
    return v->node && v->node->def &&
           (strcmp(v->node->def->op, a) == 0 || (b && strcmp(v->node->def->op, b) == 0));
}

/* Runs of `for (i = a; i < b; i += d)`, d > 0, all known: the shape AutoGraph
** gives loops over tf.range and while_v2 its maximum_iterations counter.  The
** condition may be that comparison and'ed with others.  -1 when not this. */
static int64_t range_trips(importer *im, const sm2c_value *c, const sm2c_node *begin, sm2c_value **res,
                           int32_t n_res, int depth)
{
    if (op_named(c, "LogicalAnd", NULL) && depth < 8) {
        int64_t x = range_trips(im, c->node->inputs[0], begin, res, n_res, depth + 1);
        int64_t y = range_trips(im, c->node->inputs[1], begin, res, n_res, depth + 1);
        return x < 0 ? y : y < 0 || x < y ? x : y;
    }
    if (!op_named(c, "Less", NULL) || c->node->n_inputs != 2)
        return -1;
    const sm2c_value *i = c->node->inputs[0];
    int64_t a, b, d;
    if (i->node != begin || i->index >= n_res || !const_scalar(begin->inputs[i->index], &a) ||
        !invariant(im, c->node->inputs[1], begin, res, &b))
        return -1;
    const sm2c_value *next = res[i->index];
    if (!op_named(next, "AddV2", "Add") || next->node->n_inputs != 2)
        return -1;
    sm2c_value *step = next->node->inputs[0] == i ? next->node->inputs[1]
                           : next->node->inputs[1] == i ? next->node->inputs[0] : NULL;
    if (!step || !invariant(im, step, begin, res, &d) || d <= 0)
        return -1;
    return b <= a ? 0 : (b - a + d - 1) / d;
}

static sm2c_status import_while(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    const char *cond = func_attr(nd, "cond"), *body = func_attr(nd, "body");
    if (!cond || !body)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "%s", "needs function attrs 'cond' and 'body'");
    sm2c_cflow *cf = new_cflow(im, SM2C_CF_LOOP);
    cf->cap = im->c->limits->loop_iterations;
    if (cf->cap > INT32_MAX)
        cf->cap = INT32_MAX;
    int32_t nf;
    sm2c_value **flat = flatten(im, ins, n_ins, &nf);
    cf->begin = marker(im, s, i, cf, OP_LOOP_BEGIN, flat, nf, nf);
    sm2c_value **carried = unflatten(im, cf->begin->outputs, ins, n_ins);
    sm2c_value **res;
    int32_t n_res;
    sm2c_status st = inline_fn(im, s, i, cond, carried, n_ins, &res, &n_res);
    if (st)
        return st;
    if (n_res != 1 || res[0]->list_data)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "cond '%s' must return one value", cond);
    cf->middle = marker(im, s, i, cf, OP_LOOP_COND, res, 1, 0);
    cf->outer = im->loop;
    im->loop = cf;
    st = inline_fn(im, s, i, body, carried, n_ins, &res, &n_res);
    im->loop = cf->outer;
    if (st)
        return st;
    int same = n_res == n_ins;
    for (int32_t k = 0; same && k < n_ins; k++)
        same = !res[k]->list_data == !ins[k]->list_data &&
               (ins[k]->dtype != SM2C_DT_RESOURCE || res[k] == ins[k]);
    if (!same)
        return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID,
                               "body '%s' does not return one value of the same kind per loop value", body);
    int32_t nr;
    sm2c_value **flat_res = flatten(im, res, n_res, &nr);
    cf->end = marker(im, s, i, cf, OP_LOOP_END, flat_res, nr, nr);
    /* while_v2's maximum_iterations is this form too: counter < max, and'ed. */
    cf->trips = range_trips(im, cf->middle->inputs[0], cf->begin, flat_res, nr, 0);
    if (cf->trips >= 0 && cf->trips < cf->cap)
        cf->cap = cf->trips;
    sm2c_import_set_outputs(im, s, i, unflatten(im, cf->end->outputs, ins, n_ins), n_ins);
    return SM2C_OK;
}

/* ---- Keras RNN implementations ------------------------------------------------ */

static const char *fn_attr_str(sm2c_ctx *c, const Tensorflow__FunctionDef *f, const char *key)
{
    for (size_t k = 0; k < f->n_attr; k++)
        if (strcmp(f->attr[k]->key, key) == 0 && f->attr[k]->value &&
            f->attr[k]->value->value_case == TENSORFLOW__ATTR_VALUE__VALUE_S)
            return sm2c_arena_strndup(c->arena, (const char *)f->attr[k]->value->s.data,
                                      f->attr[k]->value->s.len);
    return NULL;
}

const char *sm2c_import_cpu_variant(importer *im, const char *fname)
{
    const Tensorflow__FunctionDef *f = fname ? sm2c_strmap_get(im->m->functions, fname) : NULL;
    const char *impl = f ? fn_attr_str(im->c, f, "api_implements") : NULL;
    const char *dev = f ? fn_attr_str(im->c, f, "api_preferred_device") : NULL;
    const Tensorflow__FunctionDefLibrary *lib = im->m->graph->library;
    if (!impl || !dev || strcmp(dev, "CPU") == 0 || !lib || !f->signature)
        return fname;
    for (size_t k = 0; k < lib->n_function; k++) {
        const Tensorflow__FunctionDef *g = lib->function[k];
        const char *gi = fn_attr_str(im->c, g, "api_implements");
        const char *gd = fn_attr_str(im->c, g, "api_preferred_device");
        if (gi && gd && strcmp(gi, impl) == 0 && strcmp(gd, "CPU") == 0 && g->signature &&
            g->signature->n_input_arg == f->signature->n_input_arg &&
            g->signature->n_output_arg == f->signature->n_output_arg)
            return g->signature->name;
    }
    return fname;
}

int sm2c_import_cflow(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins, sm2c_status *st)
{
    const char *op = s->nodes[i]->op;
    if (strcmp(op, "If") == 0 || strcmp(op, "StatelessIf") == 0)
        *st = import_if(im, s, i, ins, n_ins);
    else if (strcmp(op, "Case") == 0 || strcmp(op, "StatelessCase") == 0)
        *st = import_case(im, s, i, ins, n_ins);
    else if (strcmp(op, "While") == 0 || strcmp(op, "StatelessWhile") == 0)
        *st = import_while(im, s, i, ins, n_ins);
    else
        return 0;
    return 1;
}
