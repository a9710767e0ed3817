/*
** test_functionalize.c: TF1 control flow into If and While
** (compiler/functionalize.c).  The fixture is a text SavedModel TensorFlow
** wrote with control flow v1 (tests/models/gen_tf1.py): one tf.cond and one
** tf.while_loop.  The rewrite leaves no v1 control-flow op, keeps every
** tensor name the signature uses, and makes functions whose arity matches
** the new nodes; edited copies are malformed frames and conds, each with its
** one-line error.  That the rewritten graphs compute what TensorFlow computes
** is checked by the Control_tf1_* conformance cases.
*/
#include "sm2c_test.h"
#include "test_fs.h"

#include "import/functionalize.h"

#define FIXTURE SM2C_TEST_DATA "/data/catalog/tf1_control.pbtxt"

typedef struct edit {
    const char *from, *to;
} edit;

static char *fixture_text(const edit *edits, size_t n_edits)
{
    size_t n;
    char *text = (char *)fs_read(FIXTURE, &n);
    text[n] = 0;
    for (size_t k = 0; k < n_edits; k++) {
        const char *at = strstr(text, edits[k].from);
        if (!at)
            fail_msg("fixture lacks \"%s\"", edits[k].from);
        size_t head = (size_t)(at - text), nf = strlen(edits[k].from), nt = strlen(edits[k].to);
        char *out = malloc(strlen(text) - nf + nt + 1);
        memcpy(out, text, head);
        memcpy(out + head, edits[k].to, nt);
        strcpy(out + head + nt, at + nf);
        free(text);
        text = out;
    }
    return text;
}

/* Loads the (edited) fixture and functionalizes it. */
static sm2c_status functionalize(test_ctx *t, const edit *edits, size_t n_edits, sm2c_model **m, char **dir)
{
    char *text = fixture_text(edits, n_edits);
    *dir = fs_tmpdir();
    fs_write(*dir, "saved_model.pbtxt", text, strlen(text));
    free(text);
    sm2c_status st = sm2c_model_load(&t->ctx, *dir, NULL, m);
    assert_int_equal(st, SM2C_OK);
    return sm2c_functionalize(&t->ctx, *m);
}

static const Tensorflow__NodeDef *node(const sm2c_model *m, const char *name)
{
    const Tensorflow__NodeDef *nd = sm2c_strmap_get(m->nodes, name);
    if (!nd)
        fail_msg("no node '%s' after the rewrite", name);
    return nd;
}

static int count_op(const sm2c_model *m, const char *op)
{
    int n = 0;
    for (size_t i = 0; i < m->graph->n_node; i++)
        n += strcmp(m->graph->node[i]->op, op) == 0;
    return n;
}

static const Tensorflow__AttrValue *attr(const Tensorflow__NodeDef *nd, const char *key)
{
    for (size_t i = 0; i < nd->n_attr; i++)
        if (!strcmp(nd->attr[i]->key, key))
            return nd->attr[i]->value;
    fail_msg("node '%s' has no attr '%s'", nd->name, key);
    return NULL;
}

static const Tensorflow__FunctionDef *function(const sm2c_model *m, const Tensorflow__NodeDef *nd, const char *key)
{
    const Tensorflow__FunctionDef *fd = sm2c_strmap_get(m->functions, attr(nd, key)->func->name);
    if (!fd)
        fail_msg("'%s' of '%s' is not in the library", key, nd->name);
    return fd;
}

static void structure(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    sm2c_model *m;
    char *dir;
    assert_int_equal(functionalize(t, NULL, 0, &m, &dir), SM2C_OK);
    static const char *const v1_ops[] = { "Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond" };
    for (size_t i = 0; i < sizeof v1_ops / sizeof *v1_ops; i++)
        assert_int_equal(count_op(m, v1_ops[i]), 0);
    assert_int_equal(count_op(m, "If"), 1);
    assert_int_equal(count_op(m, "While"), 1);
    /* The signature's tensors keep their names: Merge and Exit read the new nodes. */
    const Tensorflow__NodeDef *merge = node(m, "cond/Merge"), *exit = node(m, "while/Exit_1");
    assert_string_equal(merge->op, "Identity");
    assert_string_equal(merge->input[0], "cond/If:0");
    assert_string_equal(exit->op, "Identity");
    assert_string_equal(exit->input[0], "while/While:1");
    /* If: predicate, then a Switch input per branch argument; one result per Merge. */
    const Tensorflow__NodeDef *in = node(m, "cond/If"), *w = node(m, "while/While");
    const Tensorflow__FunctionDef *then_fn = function(m, in, "then_branch"), *else_fn = function(m, in, "else_branch");
    assert_int_equal(then_fn->signature->n_input_arg, in->n_input - 1);
    assert_int_equal(else_fn->signature->n_input_arg, in->n_input - 1);
    assert_int_equal(then_fn->signature->n_output_arg, 1);
    /* While: loop variables i and acc, invariants n (cond) and x (body); cond gives a bool,
    ** body all four. */
    const Tensorflow__FunctionDef *cond = function(m, w, "cond"), *body = function(m, w, "body");
    assert_int_equal(w->n_input, 4);
    assert_int_equal(cond->signature->n_input_arg, 4);
    assert_int_equal(cond->signature->n_output_arg, 1);
    assert_int_equal(cond->signature->output_arg[0]->type, TENSORFLOW__DATA_TYPE__DT_BOOL);
    assert_int_equal(body->signature->n_output_arg, 4);
    assert_int_equal(attr(w, "T")->list->n_type, 4);
    /* A second run finds nothing to do. */
    size_t nodes = m->graph->n_node, fns = m->graph->library->n_function;
    assert_int_equal(sm2c_functionalize(&t->ctx, m), SM2C_OK);
    assert_int_equal(m->graph->n_node, nodes);
    assert_int_equal(m->graph->library->n_function, fns);
    sm2c_model_close(m);
    fs_rm_rf(dir);
    test_ctx_free(t);
}

static int body_has_op(const Tensorflow__FunctionDef *fd, const char *op)
{
    for (size_t i = 0; i < fd->n_node_def; i++)
        if (!strcmp(fd->node_def[i]->op, op))
            return 1;
    return 0;
}

/* Issue 32, class 6: Merge's inputs carry no order.  tf.cond writes
** Merge(false, true); Merge(true, false) is the same cond: the true branch
** (Mul, on the Switches' output 1) stays the If's then branch either way. */
static void merge_order(void **state)
{
    (void)state;
    static const edit swap = { "input: \"cond/sub\"\n      input: \"cond/mul\"",
                               "input: \"cond/mul\"\n      input: \"cond/sub\"" };
    for (int swapped = 0; swapped < 2; swapped++) {
        test_ctx *t = test_ctx_new();
        sm2c_model *m;
        char *dir;
        sm2c_status st = functionalize(t, &swap, (size_t)swapped, &m, &dir);
        if (st)
            fail_msg("Merge order %d: status %d (%s)", swapped, st, t->diag.first);
        const Tensorflow__NodeDef *in = node(m, "cond/If");
        const Tensorflow__FunctionDef *then_fn = function(m, in, "then_branch"), *else_fn = function(m, in, "else_branch");
        assert_true(body_has_op(then_fn, "Mul") && !body_has_op(then_fn, "Sub"));
        assert_true(body_has_op(else_fn, "Sub") && !body_has_op(else_fn, "Mul"));
        sm2c_model_close(m);
        fs_rm_rf(dir);
        test_ctx_free(t);
    }
}

typedef struct bad_case {
    const char *id;
    edit edits[2];
    const char *needle;
} bad_case;

static const bad_case bad_cases[] = {
    { "loop variable without NextIteration", { { "input: \"while/NextIteration_1\"", "input: \"x\"" } },
      "TF1 while frame 'while/while_context', node 'while/Enter_1' (Enter): error: is not a loop variable" },
    { "branch reads a tensor without a Switch", { { "input: \"cond/mul/Switch:1\"", "input: \"x\"" } },
      "node 'x' (Placeholder): error: is used inside it without passing through its Switch or Enter nodes" },
    { "branch reads the other side of its Switch", { { "input: \"cond/mul/Switch:1\"", "input: \"cond/mul/Switch\"" } },
      "node 'cond/mul/Switch' (Switch): error: output 0 is read on the wrong side of it" },
    { "Merge that joins no Switch", { { "input: \"cond/sub\"", "input: \"Sum\"" }, { "input: \"cond/mul\"", "input: \"Sum\"" } },
      "node 'cond/Merge' (Merge): error: it joins no Switch (not a tf.cond)" },
};

static void malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++) {
        const bad_case *bc = &bad_cases[i];
        test_ctx *t = test_ctx_new();
        sm2c_model *m;
        char *dir;
        size_t n = bc->edits[1].from ? 2 : 1;
        sm2c_status st = functionalize(t, bc->edits, n, &m, &dir);
        if (st != SM2C_ERR_UNSUPPORTED)
            fail_msg("%s: status %d, want %d (%s)", bc->id, st, SM2C_ERR_UNSUPPORTED, t->diag.first);
        if (!strstr(t->diag.first, bc->needle) || strchr(t->diag.first, '\n') ||
            !strstr(t->diag.first, "saved_model.pbtxt"))
            fail_msg("%s: error \"%s\" lacks \"%s\" (or the file, or spans lines)", bc->id, t->diag.first,
                     bc->needle);
        sm2c_model_close(m);
        fs_rm_rf(dir);
        test_ctx_free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(structure),
        cmocka_unit_test(malformed),
        cmocka_unit_test(merge_order),
    };
    return cmocka_run_group_tests_name("functionalize", tests, NULL, NULL);
}
