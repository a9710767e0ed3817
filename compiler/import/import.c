/*
** import.c: TensorFlow graphs and function bodies -> IR (docs/design.md, "Import").
**
** A scope is the main graph or one instantiation of a function body.  Nodes a
** scope needs are ordered by an iterative depth-first search (cycles are
** errors, docs/reliability.md G4), then imported in that order.  Identity-like
** ops become aliases and NoOps vanish here; calls are instantiated by the
** inline pass (import_inline.c) and variables resolved by the capture pass
** (import_capture.c), both run as the walk meets them.
*/
#include "import_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/deep.h"
#include "base/grow.h"
#include "ops/opdefs.h"
#include "load/tensor_proto.h"

/* ---- errors --------------------------------------------------------------------- */

const char *sm2c_import_where(importer *im, const scope *s, const Tensorflow__NodeDef *nd)
{
    if (s->path[0])
        return sm2c_arena_printf(im->c->arena, "%s: '%s' (%s)", s->path, nd->name, nd->op);
    return sm2c_arena_printf(im->c->arena, "'%s' (%s)", nd->name, nd->op);
}

sm2c_status sm2c_import_bad(importer *im, const scope *s, const Tensorflow__NodeDef *nd,
                       sm2c_status kind, const char *fmt, const char *arg)
{
    const char *where = nd ? sm2c_import_where(im, s, nd) : s->path;
    if (!where[0])      /* the main graph's own outputs: the entry's (never an empty "where") */
        where = sm2c_arena_printf(im->c->arena, "signature '%s'", im->g && im->g->key ? im->g->key : "?");
    return sm2c_error(im->c->diag, kind, im->m->file, where, fmt, arg);
}

/* ---- tensor names --------------------------------------------------------------- */

static int32_t node_index(const scope *s, const char *name)
{
    void *v = sm2c_strmap_get(s->index, name);
    if (!v && s->base_index)
        v = sm2c_strmap_get(s->base_index, name);
    return v ? (int32_t)((intptr_t)v - 1) : -1;
}

/* What a node input reference turned out to be (docs/reliability.md G1, G2). */
enum { REF_OK = 1, REF_CONTROL = 0, REF_MALFORMED = -1, REF_NO_NODE = -2, REF_NO_OUTPUT = -3 };

/* An output index: decimal digits only, no sign, at most INT32_MAX. */
static int parse_index(const char *num, int32_t *k)
{
    if (!*num || strlen(num) > 10)
        return 0;
    int64_t v = 0;
    for (const char *p = num; *p; p++) {
        if (*p < '0' || *p > '9')
            return 0;
        v = v * 10 + (*p - '0');
    }
    if (v > INT32_MAX)
        return 0;
    *k = (int32_t)v;
    return 1;
}

/* "node", "node:k" (graph) or "node:arg:k" (function body) -> node index and
** flat output; "^node" is a control input, whose node must exist too. */
static int parse_ref(importer *im, const scope *s, const char *ref, int32_t *node, int32_t *out)
{
    int control = ref[0] == '^';
    char *copy = sm2c_arena_strdup(im->c->arena, ref + control);
    char *first = control ? NULL : strchr(copy, ':');
    *out = 0;
    if (first) {
        *first = 0;
        char *second = strchr(first + 1, ':');
        int32_t k;
        if (!parse_index(second ? second + 1 : first + 1, &k) || !*copy || (second && second == first + 1))
            return REF_MALFORMED;
        *out = k;
        if (second) {
            *second = 0;
            *node = node_index(s, copy);
            if (*node < 0)
                return REF_NO_NODE;
            const sm2c_opdef *op = sm2c_opdef_find(s->nodes[*node]->op);
            /* Known ops map the arg name to a flat index; calls and lists use k. */
            if (op && strchr(op->outputs, ','))
                *out = sm2c_opdef_output_index_of(op, s->nodes[*node], first + 1, k);
            else if (!op)
                *out = sm2c_tlist_output_index(s->nodes[*node]->op, first + 1, k);
            return *out >= 0 ? REF_OK : REF_NO_OUTPUT;
        }
    }
    if (!*copy)
        return REF_MALFORMED;
    *node = node_index(s, copy);
    if (*node < 0)
        return REF_NO_NODE;
    return control ? REF_CONTROL : REF_OK;
}

/* The one-line error for a reference parse_ref could not resolve. */
static sm2c_status bad_ref(importer *im, const scope *s, const Tensorflow__NodeDef *nd,
                           const char *ref, int rc)
{
    const char *why = rc == REF_MALFORMED ? "malformed (expected node, node:k or ^node)"
                      : rc == REF_NO_NODE ? "no such node"
                                          : "names an output the node does not have";
    if (!nd)    /* a function's ret, or a signature output */
        return sm2c_import_bad(im, s, NULL, SM2C_ERR_INVALID, "%s",
                               sm2c_arena_printf(im->c->arena, "returns '%s': %s", ref, why));
    size_t slot = 0;
    while (slot < nd->n_input && nd->input[slot] != ref)
        slot++;
    return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "%s",
                           sm2c_arena_printf(im->c->arena, "%s %zu '%s': %s",
                                             ref[0] == '^' ? "control input" : "input", slot, ref, why));
}

/* The value of a data input reference in scope s (its producer already imported). */
sm2c_value *sm2c_import_resolve(importer *im, scope *s, const Tensorflow__NodeDef *nd, const char *ref)
{
    if (s->args) {
        sm2c_value *arg = sm2c_strmap_get(s->args, ref);
        if (arg)
            return arg;
    }
    int32_t node, out;
    int rc = parse_ref(im, s, ref, &node, &out);
    if (rc == REF_OK && s->outs[node] && out >= s->n_outs[node] && im->failed)
        return sm2c_value_new(im->c, im->g, 0, ref);  /* past a stand-in for an op already reported */
    if (rc != REF_OK || !s->outs[node] || out >= s->n_outs[node]) {
        bad_ref(im, s, nd, ref, rc == REF_OK ? REF_NO_OUTPUT : rc);
        return NULL;
    }
    return s->outs[node][out];
}

/* ---- ordering ----------------------------------------------------------------- */

typedef struct frame {
    int32_t node;
    size_t next_input;
} frame;

/* Push node `i` if it is new; 0 on a cycle. */
static int visit(unsigned char *color, frame *stack, size_t *top, int32_t i)
{
    if (color[i] == 2)
        return 1;
    if (color[i] == 1)
        return 0;
    color[i] = 1;
    stack[(*top)++] = (frame){ i, 0 };
    return 1;
}

static int is_fed(const importer *im, const scope *s, int32_t node)
{
    return !s->parent && sm2c_strmap_get(im->fed, s->nodes[node]->name) != NULL;
}

/* "cycle: a <- b <- c <- a" (each node takes the next as an input), from the
** DFS stack: the frames from `dep` up to the top.  At most 8 names. */
static const char *cycle_text(importer *im, const scope *s, const frame *stack, size_t top,
                              int32_t dep)
{
    size_t from = top;
    while (from > 0 && stack[from - 1].node != dep)
        from--;
    from = from ? from - 1 : 0;
    const char *t = "cycle:";
    for (size_t k = from; k < top; k++) {
        if (k - from == 8) {
            t = sm2c_arena_printf(im->c->arena, "%s <- ...", t);
            break;
        }
        t = sm2c_arena_printf(im->c->arena, "%s%s '%s'", t, k > from ? " <-" : "", s->nodes[stack[k].node]->name);
    }
    return sm2c_arena_printf(im->c->arena, "%s <- '%s' (each takes the next as an input)", t,
                             s->nodes[dep]->name);
}

/* An Assert's data inputs only make its message, which generated code does
** not print: input k >= 1 that is not a control input. */
static int is_assert_message(const Tensorflow__NodeDef *nd, size_t k)
{
    return k >= 1 && nd->input[k][0] != '^' && strcmp(nd->op, "Assert") == 0;
}

static sm2c_status walk_nodes(importer *im, scope *s, const char *const *roots, size_t n_roots,
                              unsigned char *color, frame *stack, int32_t *order, size_t *count);

/* Depth-first postorder of the nodes the references in `roots` need; a fed
** node is a leaf.  *order is malloc'd. */
static sm2c_status order_nodes(importer *im, scope *s, const char *const *roots, size_t n_roots,
                               int32_t **order, size_t *count)
{
    /* On the heap and freed by the caller: the main scope's are sized by the
    ** whole graph, and an arena would keep them for every entry (quadratic
    ** in a model whose signatures each read one node). */
    unsigned char *color = sm2c_xcalloc(s->n_nodes + 1, 1);
    frame *stack = sm2c_xcalloc(s->n_nodes + 1, sizeof *stack);
    *order = sm2c_xcalloc(s->n_nodes + 1, sizeof **order);
    *count = 0;
    sm2c_status st = walk_nodes(im, s, roots, n_roots, color, stack, *order, count);
    free(color);
    free(stack);
    return st;
}

static sm2c_status walk_nodes(importer *im, scope *s, const char *const *roots, size_t n_roots,
                              unsigned char *color, frame *stack, int32_t *order, size_t *count)
{
    size_t top = 0;
    for (size_t r = 0; r < n_roots; r++) {
        int32_t node, out;
        if ((s->args && sm2c_strmap_get(s->args, roots[r])) || parse_ref(im, s, roots[r], &node, &out) != 1)
            continue;
        visit(color, stack, &top, node);
        while (top) {
            frame *f = &stack[top - 1];
            const Tensorflow__NodeDef *nd = s->nodes[f->node];
            if (f->next_input == nd->n_input || is_fed(im, s, f->node)) {
                color[f->node] = 2;
                order[(*count)++] = f->node;
                top--;
                continue;
            }
            const char *in = nd->input[f->next_input++];
            if ((s->args && sm2c_strmap_get(s->args, in)) || is_assert_message(nd, f->next_input - 1))
                continue;
            int32_t dep;
            int rc = parse_ref(im, s, in, &dep, &out);
            if (rc < 0)
                return bad_ref(im, s, nd, in, rc);
            if (rc == REF_CONTROL && !sm2c_import_follow_control(s->nodes[dep]))
                continue;  /* a control edge to a pure node orders nothing observable */
            if (!visit(color, stack, &top, dep))
                return sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "%s",
                                       cycle_text(im, s, stack, top, dep));
        }
    }
    return SM2C_OK;
}

/* ---- variables and constants ------------------------------------------------------ */

static sm2c_value *const_value(importer *im, const scope *s, const Tensorflow__NodeDef *nd)
{
    const Tensorflow__AttrValue *a = sm2c_node_attr(nd, "value");
    if (!a || a->value_case != TENSORFLOW__ATTR_VALUE__VALUE_TENSOR) {
        sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "%s has no tensor 'value' attr", "Const");
        return NULL;
    }
    sm2c_tensor *t = sm2c_arena_alloc(im->c->arena, sizeof *t);
    if (sm2c_tensor_from_proto(im->c, im->m->file, sm2c_import_where(im, s, nd), a->tensor, t) != SM2C_OK)
        return NULL;
    return sm2c_value_const(im->c, im->g, t, nd->name);
}

/* ---- one node ------------------------------------------------------------------- */


static int is_alias_op(const char *op)
{
    static const char *const ops[] = { "Identity", "StopGradient", "Snapshot", "PreventGradient",
                                       "EnsureShape", "IdentityN", NULL };
    for (size_t i = 0; ops[i]; i++)
        if (strcmp(op, ops[i]) == 0)
            return 1;
    return 0;
}

int sm2c_import_handles(const char *op)
{
    static const char *const ops[] = { "NoOp", "Const", "Placeholder", "PlaceholderWithDefault",
                                       "VarHandleOp", "VariableV2", "Variable", "ReadVariableOp",
                                       "StatefulPartitionedCall", "PartitionedCall", NULL };
    for (size_t i = 0; ops[i]; i++)
        if (strcmp(op, ops[i]) == 0)
            return 1;
    return is_alias_op(op) || sm2c_import_resource_supported(op) || sm2c_import_state_supported(op) ||
           sm2c_import_cflow_op(op) || sm2c_import_table_handles(op);
}

void sm2c_import_set_outputs(importer *im, scope *s, int32_t i, sm2c_value **vals, int32_t n)
{
    s->n_outs[i] = n;
    s->outs[i] = sm2c_arena_array(im->c->arena, (size_t)n + 1, sizeof **s->outs);
    for (int32_t k = 0; k < n; k++)
        s->outs[i][k] = vals[k];
}

/* Ops the importer resolves itself: aliases, constants, placeholders, variables. */
static int import_special(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins,
                          sm2c_status *st)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    const char *op = nd->op;
    sm2c_value *v = NULL;
    *st = SM2C_OK;
    if (is_alias_op(op)) {
        sm2c_import_set_outputs(im, s, i, ins, n_ins);
        return 1;
    }
    if (strcmp(op, "NoOp") == 0) {
        sm2c_import_set_outputs(im, s, i, NULL, 0);
        return 1;
    }
    if (strcmp(op, "Const") == 0) {
        v = const_value(im, s, nd);
    } else if (strcmp(op, "Placeholder") == 0 || strcmp(op, "PlaceholderWithDefault") == 0) {
        if (n_ins == 1)
            v = ins[0];  /* PlaceholderWithDefault that the signature does not feed */
        if (!v) {
            *st = sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "placeholder '%s' is not fed by the signature",
                      nd->name);
            return 1;
        }
    } else if (sm2c_import_variable(im, s, i, ins, n_ins, &v, st)) {
        if (!v)
            return 1;  /* reported */
    } else if (sm2c_import_resource_op(im, s, i, ins, n_ins, st)) {
        return 1;
    } else if (sm2c_import_state_op(im, s, i, ins, n_ins, st)) {
        return 1;
    } else {
        return 0;
    }
    if (!v && !*st)
        *st = SM2C_ERR_INVALID;
    if (v)
        sm2c_import_set_outputs(im, s, i, &v, 1);
    return 1;
}

/* Ops that act on the host (files, Python, the console, the filesystem):
** never emulated in generated code (docs/reliability.md G10). */
static int is_host_op(const char *op)
{
    static const char *const ops[] = {
        "ReadFile", "WriteFile", "PyFunc", "PyFuncStateless", "EagerPyFunc", "MatchingFiles",
        "SaveV2", "Save", "SaveSlices", "RestoreV2", "Restore", "RestoreSlice", "MergeV2Checkpoints",
        "Print", "PrintV2", "ShardedFilename", "ShardedFilenames", "WholeFileReader",
        "WholeFileReaderV2", "TextLineReader", "TextLineReaderV2", "FixedLengthRecordReader",
        "FixedLengthRecordReaderV2", "TFRecordReader", "TFRecordReaderV2", "ReaderReadV2",
        "ImmutableConst", "LoadAndRemapMatrix", "DebugIdentity", "DebugIdentityV2",
        "WriteSummary", "WriteScalarSummary", "WriteHistogramSummary", "WriteImageSummary",
        "WriteAudioSummary", "WriteGraphSummary", "WriteRawProtoSummary", "CreateSummaryFileWriter",
        "FlushSummaryWriter", "CloseSummaryWriter", "ExperimentalWriteFile", NULL
    };
    for (size_t i = 0; ops[i]; i++)
        if (strcmp(op, ops[i]) == 0)
            return 1;
    return 0;
}

/* An op with no entry in the table: reported, and stood in for so that the
** rest of the graph is still checked.  `missing` is the op sm2c lacks (the
** node's own op unless it is rewritten into another). */
void sm2c_import_unsupported(importer *im, scope *s, int32_t i, const char *missing)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    sm2c_status st;
    if (is_host_op(nd->op))
        st = sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED,
                             "op '%s' cannot be compiled (host side effect)", nd->op);
    else if (!nd->op[0])
        st = sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "%s", "the op name is empty");
    else if (sm2c_import_is_other_write(nd->op))
        st = sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED,
                             "op '%s' writes a variable, which sm2c does not support (the write "
                             "would be lost)", nd->op);
    else if (strcmp(missing, nd->op) != 0)
        st = sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED, "%s",
                             sm2c_arena_printf(im->c->arena, "op '%s' is imported as '%s', which is not "
                                               "supported", nd->op, missing));
    else
        st = sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED, "op '%s' is not supported", nd->op);
    if (!im->failed)
        im->failed = st;
    sm2c_value *dummy[8];
    for (int k = 0; k < 8; k++)
        dummy[k] = sm2c_value_new(im->c, im->g, 0, nd->name);
    sm2c_import_set_outputs(im, s, i, dummy, 8);
}

static sm2c_status import_node(importer *im, scope *s, int32_t i)
{
    const Tensorflow__NodeDef *nd = s->nodes[i];
    if (is_fed(im, s, i)) {
        sm2c_value *v = sm2c_strmap_get(im->fed, nd->name);
        sm2c_import_set_outputs(im, s, i, &v, 1);
        return SM2C_OK;
    }
    sm2c_value **ins = sm2c_arena_array(im->c->arena, nd->n_input + 1, sizeof *ins);
    int32_t n_ins = 0;
    for (size_t k = 0; k < nd->n_input; k++) {
        if (nd->input[k][0] == '^' || is_assert_message(nd, k))
            continue;
        if (!(ins[n_ins++] = sm2c_import_resolve(im, s, nd, nd->input[k])))
            return SM2C_ERR_INVALID;
    }
    sm2c_import_ref_reads(im, s, i, ins, n_ins);
    sm2c_status st;
    if (sm2c_import_table_op(im, s, i, ins, n_ins, &st))
        return st;
    if (import_special(im, s, i, ins, n_ins, &st))
        return st;
    if (sm2c_import_cflow(im, s, i, ins, n_ins, &st) || sm2c_import_tlist(im, s, i, ins, n_ins, &st))
        return st;
    const char *fname;
    if (sm2c_import_is_call(im, nd, &fname))
        return sm2c_import_call(im, s, i, fname, ins, n_ins);
    const sm2c_opdef *op = sm2c_opdef_find(nd->op);
    if (!op) {
        sm2c_import_unsupported(im, s, i, nd->op);
        return SM2C_OK;
    }
    if (op->n_inputs >= 0 && n_ins != op->n_inputs)
        return sm2c_error(im->c->diag, SM2C_ERR_INVALID, im->m->file, sm2c_import_where(im, s, nd),
                          "expects %d inputs, got %d", op->n_inputs, n_ins);
    int32_t n_outs = sm2c_opdef_output_count(op, nd);
    if (n_outs < 0)
        return sm2c_error(im->c->diag, SM2C_ERR_INVALID, im->m->file, sm2c_import_where(im, s, nd),
                          "the length of its output list must be an int attr in [1, %d]",
                          SM2C_OPDEF_MAX_LIST);
    if (sm2c_import_widen(im, s, i, op, ins, n_ins, n_outs))
        return SM2C_OK;
    sm2c_node *n = sm2c_node_new(im->c, im->g, op, nd, s->path, n_ins, ins, n_outs);
    sm2c_import_set_outputs(im, s, i, n->outputs, n->n_outputs);
    return SM2C_OK;
}

sm2c_status sm2c_import_scope(importer *im, scope *s, const char *const *roots, size_t n)
{
    if ((int64_t)s->n_nodes > im->c->limits->graph_nodes)
        return sm2c_import_bad(im, s, NULL, SM2C_ERR_LIMIT, "too many nodes%s (--limit graph-nodes=N)", "");
    s->index = sm2c_strmap_new(im->c->arena, s->n_nodes - s->n_base);
    for (size_t i = s->n_base; i < s->n_nodes; i++)
        if (node_index(s, s->nodes[i]->name) >= 0 ||
            sm2c_strmap_put(s->index, s->nodes[i]->name, (void *)(intptr_t)(i + 1)))
            return sm2c_import_bad(im, s, s->nodes[i], SM2C_ERR_INVALID, "duplicate node name '%s'",
                       s->nodes[i]->name);
    if (s->heap) {
        s->outs = sm2c_xcalloc(s->n_nodes + 1, sizeof *s->outs);
        s->n_outs = sm2c_xcalloc(s->n_nodes + 1, sizeof *s->n_outs);
    } else {
        s->outs = sm2c_arena_array(im->c->arena, s->n_nodes + 1, sizeof *s->outs);
        s->n_outs = sm2c_arena_array(im->c->arena, s->n_nodes + 1, sizeof *s->n_outs);
    }
    int32_t *order;
    size_t count;
    sm2c_status st = order_nodes(im, s, roots, n, &order, &count);
    for (size_t k = 0; k < count && !st; k++)
        st = import_node(im, s, order[k]);
    free(order);
    return st;
}

/* ---- the signature ------------------------------------------------------------------ */

int sm2c_shape_opt_names(const sm2c_shape_opt *s, const char *entry, const char *key)
{
    size_t n = strlen(entry);
    return strcmp(s->key, key) == 0 ||
           (!s->implied && strncmp(s->key, entry, n) == 0 && s->key[n] == '.' && strcmp(s->key + n + 1, key) == 0);
}

const sm2c_shape_opt *sm2c_shape_opt_find(const sm2c_import_opts *o, const char *entry, const char *key)
{
    const sm2c_shape_opt *plain = NULL, *implied = NULL;
    for (int32_t i = 0; o && i < o->n_shapes; i++) {
        const sm2c_shape_opt *s = &o->shapes[i];
        if (!sm2c_shape_opt_names(s, entry, key))
            continue;
        if (s->implied)
            implied = implied ? implied : s;
        else if (strcmp(s->key, key) != 0)
            return s;           /* SIG.KEY */
        else
            plain = plain ? plain : s;
    }
    return plain ? plain : implied;
}

sm2c_status sm2c_import_input_keys(sm2c_ctx *c, const sm2c_model *m, const sm2c_concrete_fn *fn,
                                   const char *key, const char ***keys, int32_t *n)
{
    *n = 0;
    if (fn) {
        const Tensorflow__FunctionDef *f = sm2c_strmap_get(m->functions, fn->name);
        size_t n_args = f && f->signature && f->signature->n_input_arg >= fn->n_captures
                            ? f->signature->n_input_arg - fn->n_captures : 0;
        *keys = sm2c_arena_array(c->arena, n_args + 1, sizeof **keys);
        for (size_t k = 0; k < n_args; k++)
            (*keys)[(*n)++] = f->signature->input_arg[k]->name;
        return SM2C_OK;
    }
    for (size_t i = 0; i < m->meta_graph->n_signature_def; i++) {
        const Tensorflow__SignatureDef *sd = m->meta_graph->signature_def[i]->value;
        if (strcmp(m->meta_graph->signature_def[i]->key, key) != 0 || !sd)
            continue;
        *keys = sm2c_arena_array(c->arena, sd->n_inputs + 1, sizeof **keys);
        for (size_t k = 0; k < sd->n_inputs; k++)
            (*keys)[(*n)++] = sd->inputs[k]->key;
        return SM2C_OK;
    }
    return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, NULL, "no signature '%s'", key);
}

/* --max-batch under `sm2c run`: the run input's shape, but one row when the
** signature leaves the leading dim unknown (that input is batched). */
static sm2c_status one_row_shape(importer *im, sm2c_shape *declared, const sm2c_shape_opt *opt)
{
    int batched = declared->rank >= 1 && declared->dims[0] < 0 && opt->shape.rank == declared->rank;
    *declared = sm2c_shape_make(im->c, opt->shape.rank, opt->shape.dims);
    if (batched)
        declared->dims[0] = 1;
    return SM2C_OK;
}

/* Whether shape `got` is one `declared` allows: its rank, and every known dim. */
static int shape_allows(const sm2c_shape *declared, const sm2c_shape *got)
{
    if (declared->rank < 0)
        return 1;
    if (declared->rank != got->rank)
        return 0;
    for (int32_t d = 0; d < got->rank; d++)
        if (declared->dims[d] >= 0 && declared->dims[d] != got->dims[d])
            return 0;
    return 1;
}

/* Whether placeholder ph's own shape attr allows `got`: TensorFlow feeds
** what the placeholder takes, even where the signature's metadata says
** otherwise (serving_half_plus_three declares a scalar for a [N,1] input). */
static int placeholder_allows(importer *im, const Tensorflow__NodeDef *ph, const sm2c_shape *got)
{
    const Tensorflow__AttrValue *a = ph ? sm2c_node_attr(ph, "shape") : NULL;
    if (!a || a->value_case != TENSORFLOW__ATTR_VALUE__VALUE_SHAPE || !a->shape)
        return 0;
    sm2c_diag quiet;
    sm2c_ctx qc = sm2c_ctx_quiet(im->c, &quiet);
    sm2c_shape s;
    return sm2c_shape_from_proto(&qc, im->m->file, NULL, a->shape, &s) == SM2C_OK && s.rank >= 0 &&
           shape_allows(&s, got);
}

/* A --shape (or a run input's shape) must have the declared rank and every
** dim the signature declares (a given -1, an open leading dim, only where it
** is unknown), unless the graph's placeholder itself takes that shape. */
static sm2c_status check_against_declared(importer *im, const char *w, const char *key, const Tensorflow__NodeDef *ph,
                                          const sm2c_shape *declared, const sm2c_shape_opt *opt)
{
    const sm2c_shape *got = &opt->shape;
    if (shape_allows(declared, got) || placeholder_allows(im, ph, got))
        return SM2C_OK;
    const char *decl = sm2c_shape_str(im->c->arena, declared), *given = sm2c_shape_str(im->c->arena, got);
    if (opt->implied)
        return sm2c_error(im->c->diag, SM2C_ERR_INVALID, opt->from, w,
                          "--input %s holds shape %s, but the signature declares %s (-1: any size)", key, given,
                          decl);
    return sm2c_error(im->c->diag, SM2C_ERR_USAGE, im->m->file, w,
                      "--shape %s gives %s, but the signature declares %s (-1: any size): %s", opt->key, given,
                      decl, declared->rank == got->rank ? "a declared dim differs" : "the rank differs");
}

/* The unknown dims of `out` that need a --shape, as text ("dim 1, dim 2" or
** "unknown rank"); NULL when there are none. */
static const char *missing_dims(importer *im, const sm2c_shape *out)
{
    if (out->rank < 0)
        return "unknown rank";
    const char *t = NULL;
    for (int32_t d = 1; d < out->rank; d++)
        if (out->dims[d] < 0)
            t = sm2c_arena_printf(im->c->arena, "%s%sdim %d", t ? t : "", t ? ", " : "", (int)d);
    return t;
}

/* The static shape of input `key`: --shape, else the signature's shape with a
** leading unknown dim taken as 1.  Unknown dims past the leading one (or an
** unknown rank) are added to *missing, for bind_inputs to report at once. */
static sm2c_status input_shape(importer *im, const char *sig, const char *key,
                               const Tensorflow__TensorInfo *ti, const Tensorflow__NodeDef *ph,
                               const sm2c_import_opts *o, sm2c_shape *out, const char **missing)
{
    const char *w = sm2c_arena_printf(im->c->arena, "signature '%s' input '%s'", sig, key);
    const sm2c_shape_opt *opt = sm2c_shape_opt_find(o, sig, key);
    static const Tensorflow__TensorShapeProto scalar = TENSORFLOW__TENSOR_SHAPE_PROTO__INIT;
    sm2c_status st = sm2c_shape_from_proto(im->c, im->m->file, w,
                                           ti->tensor_shape ? ti->tensor_shape : &scalar, out);
    if (st)
        return st;
    sm2c_shape unknown_rank = { -1, NULL };   /* no shape in the TensorInfo: nothing declared */
    if (opt && (st = check_against_declared(im, w, key, ph, ti->tensor_shape ? out : &unknown_rank, opt)))
        return st;
    if (opt && !(opt->implied && o->one_row)) {
        *out = opt->shape;
        if (out->rank >= 1 && out->dims[0] < 0) {  /* --shape KEY=-1,...: the leading dim stays open */
            *out = sm2c_shape_make(im->c, out->rank, out->dims);
            out->dims[0] = 1;
        }
        return SM2C_OK;
    }
    if (opt)
        return one_row_shape(im, out, opt);
    const char *unknown = missing_dims(im, out);
    if (unknown) {
        const char *shape = out->rank < 0 ? ""
                                          : sm2c_arena_printf(im->c->arena, " %s", sm2c_shape_str(im->c->arena, out));
        *missing = sm2c_arena_printf(im->c->arena, "%s%s'%s'%s (%s)", *missing ? *missing : "",
                                     *missing ? ", " : "", key, shape, unknown);
        return SM2C_OK;     /* bind_inputs reports it with the others */
    }
    if (out->rank >= 1 && out->dims[0] < 0) {
        *out = sm2c_shape_make(im->c, out->rank, out->dims);
        out->dims[0] = 1;
        if (!o || !o->one_row)    /* --max-batch: one row is the plan, not a guess */
            sm2c_note(im->c->diag, im->m->file, w, "unknown leading dim taken as 1 (--shape %s=... to change)", key);
    }
    return SM2C_OK;
}

/* The TensorInfo's dtype and shape, to check against the graph (G11). */
static sm2c_status declare_port(importer *im, const char *sig, const char *kind,
                                sm2c_port_value *pv, const Tensorflow__TensorInfo *ti)
{
    pv->declared_dtype = (int)ti->dtype;
    pv->declared_shape.rank = -1;
    if (!ti->tensor_shape)
        return SM2C_OK;
    const char *w = sm2c_arena_printf(im->c->arena, "signature '%s' %s '%s'", sig, kind, pv->key);
    return sm2c_shape_from_proto(im->c, im->m->file, w, ti->tensor_shape, &pv->declared_shape);
}

/* The node of tensor `name`: one of the entry's synthetic nodes, or the main graph's. */
static const Tensorflow__NodeDef *tensor_node(importer *im, const char *name, long *idx)
{
    const Tensorflow__NodeDef *nd = sm2c_model_tensor_node(im->m, name, idx);
    for (size_t k = 0; im->extra && k < im->extra->n_nodes; k++) {
        size_t n = strlen(im->extra->nodes[k]->name);
        if (strncmp(name, im->extra->nodes[k]->name, n) == 0 && (!name[n] || name[n] == ':')) {
            *idx = name[n] ? strtol(name + n + 1, NULL, 10) : 0;
            return im->extra->nodes[k];
        }
    }
    return nd;
}

static int cmp_port(const void *a, const void *b)
{
    return strcmp(((const sm2c_port_value *)a)->key, ((const sm2c_port_value *)b)->key);
}

static sm2c_status bind_inputs(importer *im, const char *key, const Tensorflow__SignatureDef *sd,
                               const sm2c_import_opts *o)
{
    sm2c_graph *g = im->g;
    g->n_inputs = (int32_t)sd->n_inputs;
    g->inputs = sm2c_arena_array(im->c->arena, sd->n_inputs + 1, sizeof *g->inputs);
    for (size_t i = 0; i < sd->n_inputs; i++) {
        g->inputs[i].key = sd->inputs[i]->key;
        const Tensorflow__TensorInfo *ti = sd->inputs[i]->value;
        if (!ti || ti->encoding_case != TENSORFLOW__TENSOR_INFO__ENCODING_NAME)
            return sm2c_error(im->c->diag, SM2C_ERR_UNSUPPORTED, im->m->file, key,
                              "input '%s' is not a plain tensor (sparse or composite)", g->inputs[i].key);
        g->inputs[i].tensor = ti->name;
    }
    qsort(g->inputs, (size_t)g->n_inputs, sizeof *g->inputs, cmp_port);
    const char *missing = NULL;     /* inputs with unknown dims and no --shape */
    for (int32_t i = 0; i < g->n_inputs; i++) {
        long idx;
        const Tensorflow__TensorInfo *ti = NULL;
        for (size_t k = 0; k < sd->n_inputs; k++)
            if (strcmp(sd->inputs[k]->key, g->inputs[i].key) == 0)
                ti = sd->inputs[k]->value;
        const Tensorflow__NodeDef *ph = tensor_node(im, g->inputs[i].tensor, &idx);
        const char *w = sm2c_arena_printf(im->c->arena, "signature '%s'", key);
        if (!ph || idx != 0)
            return sm2c_error(im->c->diag, SM2C_ERR_INVALID, im->m->file, w,
                              "input '%s' names tensor '%s', which is not in the graph",
                              g->inputs[i].key, g->inputs[i].tensor);
        sm2c_status st = declare_port(im, key, "input", &g->inputs[i], ti);
        if (st)
            return st;
        const Tensorflow__AttrValue *dt = sm2c_node_attr(ph, "dtype");
        int dtype = dt && dt->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? (int)dt->type
                                                                             : (int)ti->dtype;
        /* A string placeholder under a signature that declares another dtype
        ** (serving_half_plus_three's regress): TF Serving's classify and regress
        ** feed it serialized tf.Examples whatever the metadata says, so the
        ** graph wins, with a warning, and the metadata's shape is ignored too. */
        int wrong_metadata = ti->dtype != TENSORFLOW__DATA_TYPE__DT_INVALID && (int)ti->dtype != dtype &&
                             sm2c_dtype_base(dtype) == SM2C_DT_STRING;
        if (wrong_metadata) {
            sm2c_warning(im->c->diag, im->m->file, w,
                         "input '%s' is declared %s but tensor '%s' is string: compiled as a string "
                         "input (serialized protos), as TensorFlow Serving feeds it",
                         g->inputs[i].key, sm2c_dtype_name((int)ti->dtype), g->inputs[i].tensor);
            Tensorflow__TensorInfo *copy = sm2c_arena_alloc(im->c->arena, sizeof *copy);
            *copy = *ti;
            copy->dtype = TENSORFLOW__DATA_TYPE__DT_STRING;
            copy->tensor_shape = NULL;
            ti = copy;
            g->inputs[i].declared_dtype = SM2C_DT_STRING;
            g->inputs[i].declared_shape.rank = -1;
        }
        if (ti->dtype != TENSORFLOW__DATA_TYPE__DT_INVALID && (int)ti->dtype != dtype)
            return sm2c_error(im->c->diag, SM2C_ERR_INVALID, im->m->file, w,
                              "input '%s' is declared %s but tensor '%s' is %s", g->inputs[i].key,
                              sm2c_dtype_name((int)ti->dtype), g->inputs[i].tensor, sm2c_dtype_name(dtype));
        sm2c_value *v = sm2c_value_new(im->c, g, sm2c_dtype_base(dtype), g->inputs[i].tensor);
        const sm2c_shape_opt *so = sm2c_shape_opt_find(o, key, g->inputs[i].key);
        if (v->dtype == SM2C_DT_STRING && (!so || (so->implied && o->one_row)) &&
            (!ti->tensor_shape || ti->tensor_shape->unknown_rank)) {
            /* A batch of serialized protos of unknown rank (TF1 serving
            ** exports): a vector, its length chosen as for a leading -1. */
            Tensorflow__TensorShapeProto__Dim minus_one = TENSORFLOW__TENSOR_SHAPE_PROTO__DIM__INIT;
            Tensorflow__TensorShapeProto__Dim *dims[1] = { &minus_one };
            Tensorflow__TensorShapeProto vec = TENSORFLOW__TENSOR_SHAPE_PROTO__INIT;
            Tensorflow__TensorInfo t = *ti;
            minus_one.size = -1;
            vec.n_dim = 1;
            vec.dim = dims;
            t.tensor_shape = &vec;
            if ((st = input_shape(im, key, g->inputs[i].key, &t, ph, o, &v->shape, &missing)))
                return st;
        } else if ((st = input_shape(im, key, g->inputs[i].key, ti, ph, o, &v->shape, &missing))) {
            return st;
        }
        v->input = i;
        g->inputs[i].value = v;
        sm2c_strmap_put(im->fed, ph->name, v);
    }
    if (missing)
        return sm2c_error(im->c->diag, SM2C_ERR_INVALID, im->m->file,
                          sm2c_arena_printf(im->c->arena, "signature '%s'", key),
                          "unknown dims need --shape KEY=d0,d1,... (or --shape %s.KEY=...): %s", key, missing);
    return SM2C_OK;
}

static sm2c_status bind_outputs(importer *im, const char *key, const Tensorflow__SignatureDef *sd,
                                scope *top)
{
    sm2c_graph *g = im->g;
    g->n_outputs = (int32_t)sd->n_outputs;
    g->outputs = sm2c_arena_array(im->c->arena, sd->n_outputs + 1, sizeof *g->outputs);
    const char **roots = sm2c_arena_array(im->c->arena, sd->n_outputs + 1, sizeof *roots);
    for (size_t i = 0; i < sd->n_outputs; i++) {
        const Tensorflow__TensorInfo *ti = sd->outputs[i]->value;
        if (!ti || ti->encoding_case != TENSORFLOW__TENSOR_INFO__ENCODING_NAME)
            return sm2c_error(im->c->diag, SM2C_ERR_UNSUPPORTED, im->m->file, key,
                              "output '%s' is not a plain tensor", sd->outputs[i]->key);
        g->outputs[i].key = sd->outputs[i]->key;
        g->outputs[i].tensor = roots[i] = ti->name;
        long idx;
        if (!tensor_node(im, ti->name, &idx))
            return sm2c_error(im->c->diag, SM2C_ERR_INVALID, im->m->file,
                              sm2c_arena_printf(im->c->arena, "signature '%s'", key),
                              "output '%s' names tensor '%s', which is not in the graph",
                              g->outputs[i].key, ti->name);
        sm2c_status st = declare_port(im, key, "output", &g->outputs[i], ti);
        if (st)
            return st;
    }
    qsort(g->outputs, (size_t)g->n_outputs, sizeof *g->outputs, cmp_port);
    /* The table initializers first: a lookup needs its table filled. */
    size_t n_init;
    const char **init = sm2c_import_table_roots(im, &n_init);
    const char **all = sm2c_arena_array(im->c->arena, n_init + sd->n_outputs + 1, sizeof *all);
    if (n_init)
        memcpy(all, init, n_init * sizeof *all);
    memcpy(all + n_init, roots, sd->n_outputs * sizeof *all);
    sm2c_status st = sm2c_import_scope(im, top, all, n_init + sd->n_outputs);
    if (st || im->failed)
        return st ? st : im->failed;
    for (int32_t i = 0; i < g->n_outputs; i++)
        if (!(g->outputs[i].value = sm2c_import_ref_value(im, top, g->outputs[i].tensor,
                                                          sm2c_import_resolve(im, top, NULL, g->outputs[i].tensor))))
            return SM2C_ERR_INVALID;
    return SM2C_OK;
}

/* The walk recurses once per call level (scope, node, call, scope, ...; a
** branch or loop body is a call too): under 1 KiB a level in a Debug build
** (8 MiB overflowed between 16,000 and 30,000 levels).  Up to the default
** limit it runs here; past that on a stack sized by the limit (base/deep.h). */
enum { IMPORT_INLINE_DEPTH = 64, IMPORT_LEVEL_BYTES = 4096 };

typedef struct entry_job {
    importer *im;
    const char *key;
    const Tensorflow__SignatureDef *sd;
    const sm2c_import_opts *opts;
    scope *top;
    sm2c_status st;
} entry_job;

static void import_entry_job(void *p)
{
    entry_job *j = p;
    j->st = bind_inputs(j->im, j->key, j->sd, j->opts);
    if (!j->st)
        j->st = bind_outputs(j->im, j->key, j->sd, j->top);
}

sm2c_status sm2c_import_entry(sm2c_ctx *c, const sm2c_model *m, const sm2c_varmap *vm, const char *key,
                              const Tensorflow__SignatureDef *sd, const sm2c_entry_nodes *extra,
                              const sm2c_import_opts *opts, sm2c_graph **out)
{
    sm2c_graph *g = sm2c_arena_alloc(c->arena, sizeof *g);
    g->key = key;
    g->file = m->file;
    importer im = { .c = c, .m = m, .vm = vm, .g = g, .extra = extra, .opts = opts };
    im.state_vars = sm2c_strmap_new(c->arena, 16);
    im.fed = sm2c_strmap_new(c->arena, 16);
    im.handle_vars = sm2c_strmap_new(c->arena, 64);
    im.var_values = sm2c_strmap_new(c->arena, 64);
    sm2c_import_bind_assets(&im);
    if (vm->object_based)
        sm2c_import_bind_tf2_captures(&im);
    else
        sm2c_import_bind_tf1_variables(&im);
    scope top = { .path = "", .nodes = m->graph->node, .n_nodes = m->graph->n_node,
                  .base_index = m->node_index, .n_base = m->node_index ? m->graph->n_node : 0,
                  .heap = 1 };
    if (extra && extra->n_nodes) {
        /* The main graph and then the synthetic nodes, one scope. */
        top.n_nodes = m->graph->n_node + extra->n_nodes;
        top.nodes = sm2c_arena_array(c->arena, top.n_nodes, sizeof *top.nodes);
        memcpy(top.nodes, m->graph->node, m->graph->n_node * sizeof *top.nodes);
        memcpy(top.nodes + m->graph->n_node, extra->nodes, extra->n_nodes * sizeof *top.nodes);
        for (size_t k = 0; k < extra->n_nodes; k++)
            if (extra->vars[k])
                sm2c_strmap_put(im.handle_vars, extra->nodes[k]->name, (void *)extra->vars[k]);
    }
    entry_job j = { &im, key, sd, opts, &top, SM2C_OK };
    size_t stack = sm2c_deep_stack(c->limits->call_depth, IMPORT_INLINE_DEPTH, IMPORT_LEVEL_BYTES);
    sm2c_status st = SM2C_OK;
    if (sm2c_deep_call(stack, import_entry_job, &j))
        st = sm2c_error(c->diag, SM2C_ERR_LIMIT, m->file, key,
                        "--limit call-depth=%lld needs a stack of %zu MiB to import, which could not be "
                        "reserved (lower the limit)", (long long)c->limits->call_depth, stack >> 20);
    else
        st = j.st;
    free(top.outs);
    free(top.n_outs);
    *out = g;
    return st;
}

sm2c_status sm2c_import_signature(sm2c_ctx *c, const sm2c_model *m, const sm2c_varmap *vm,
                                  const char *key, const sm2c_import_opts *opts, sm2c_graph **out)
{
    const Tensorflow__SignatureDef *sd = m->signatures ? sm2c_strmap_get(m->signatures, key) : NULL;
    if (!sd)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, NULL, "no signature '%s'", key);
    return sm2c_import_entry(c, m, vm, key, sd, NULL, opts, out);
}
