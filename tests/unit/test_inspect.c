/*
** test_inspect.c: the report, and that a failure writes nothing but one error.
*/
#include "sm2c_test.h"
#include "test_fs.h"

#include "cli/inspect.h"
#include "saved_model.pb-c.h"

#define SAMPLE SM2C_TEST_DATA "/../samples/half_plus_two"
#define MODELS SM2C_TEST_DATA "/data/models"

/* Run inspect into a memory stream; returns the text (caller frees). */
static char *inspect(test_ctx *t, const char *dir, int json, sm2c_status *st)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    sm2c_inspect_opts o = { .json = json, .max_values = 16 };
    *st = sm2c_inspect(&t->ctx, dir, &o, f);
    fclose(f);
    return text;
}

static void report_sections(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    sm2c_status st;
    char *text = inspect(t, MODELS "/tf2_module", 0, &st);
    if (st)
        fail_msg("%s", t->diag.first);
    const char *want[] = {
        "tensorflow: 2.21.0", "'scale' method tensorflow/serving/predict",
        "x: float32 [3]  <- scale_x:0", "'ints' method tensorflow/serving/predict", "(--function poly)",
        "v2: int64 [2,2] -> v2/.ATTRIBUTES/VARIABLE_VALUE = [4, 5, 6, 7]",
        "nested/w: float64 [] -> nested/w/.ATTRIBUTES/VARIABLE_VALUE = [0.25]",
        "Ops reachable from the signatures", "Unsupported ops:",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(text, want[i]))
            fail_msg("report lacks \"%s\":\n%s", want[i], text);
    free(text);
    test_ctx_free(t);
}

static void tf1_report(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    sm2c_status st;
    char *text = inspect(t, MODELS "/tf1_saver", 1, &st);
    assert_int_equal(st, SM2C_OK);
    assert_non_null(strstr(text, "\"checkpoint_key\": \"model/kernel\""));
    assert_non_null(strstr(text, "\"object_based\": false"));
    assert_non_null(strstr(text, "\"MatMul\": 1"));
    free(text);
    test_ctx_free(t);
}

/* A Conv2D with a zero stride inside a function: one error naming the file,
** the function and the node, and no report at all. */
static void bad_attr_fails_cleanly(void **state)
{
    (void)state;
    Tensorflow__SavedModel sm = TENSORFLOW__SAVED_MODEL__INIT;
    Tensorflow__MetaGraphDef mg = TENSORFLOW__META_GRAPH_DEF__INIT, *mgs[] = { &mg };
    Tensorflow__GraphDef g = TENSORFLOW__GRAPH_DEF__INIT;
    Tensorflow__FunctionDefLibrary lib = TENSORFLOW__FUNCTION_DEF_LIBRARY__INIT;
    Tensorflow__FunctionDef fn = TENSORFLOW__FUNCTION_DEF__INIT, *fns[] = { &fn };
    Tensorflow__OpDef sig = TENSORFLOW__OP_DEF__INIT;
    Tensorflow__NodeDef conv = TENSORFLOW__NODE_DEF__INIT, *nodes[] = { &conv };
    Tensorflow__NodeDef__AttrEntry e = TENSORFLOW__NODE_DEF__ATTR_ENTRY__INIT, *attrs[] = { &e };
    Tensorflow__AttrValue v;
    tensorflow__attr_value__init(&v); /* the INIT macro trips -Wmissing-braces */
    Tensorflow__AttrValue__ListValue list = TENSORFLOW__ATTR_VALUE__LIST_VALUE__INIT;
    int64_t strides[] = { 1, 0, 0, 1 };
    list.n_i = 4;
    list.i = strides;
    v.value_case = TENSORFLOW__ATTR_VALUE__VALUE_LIST;
    v.list = &list;
    e.key = "strides";
    e.value = &v;
    conv.name = "conv";
    conv.op = "Conv2D";
    conv.n_attr = 1;
    conv.attr = attrs;
    sig.name = "__inference_f_1";
    fn.signature = &sig;
    fn.n_node_def = 1;
    fn.node_def = nodes;
    lib.n_function = 1;
    lib.function = fns;
    g.library = &lib;
    mg.graph_def = &g;
    sm.saved_model_schema_version = 1;
    sm.n_meta_graphs = 1;
    sm.meta_graphs = mgs;

    char *d = fs_tmpdir();
    size_t len = protobuf_c_message_get_packed_size(&sm.base);
    uint8_t *buf = malloc(len);
    protobuf_c_message_pack(&sm.base, buf);
    fs_write(d, "saved_model.pb", buf, len);
    free(buf);

    test_ctx *t = test_ctx_new();
    sm2c_status st;
    char *text = inspect(t, d, 0, &st);
    assert_int_equal(st, SM2C_ERR_INVALID);
    assert_int_equal(t->diag.errors, 1);
    assert_string_equal(text, "");
    assert_error_contains(t, "/saved_model.pb: __inference_f_1: 'conv' (Conv2D): error: ");
    assert_error_contains(t, "strides");
    free(text);
    test_ctx_free(t);
    fs_rm_rf(d);
}

/* F6: names that look like paths or carry terminal escapes reach no file name
** and no raw control byte reaches the report. */
static void hostile_names(void **state)
{
    (void)state;
    Tensorflow__SavedModel sm = TENSORFLOW__SAVED_MODEL__INIT;
    Tensorflow__MetaGraphDef mg = TENSORFLOW__META_GRAPH_DEF__INIT, *mgs[] = { &mg };
    Tensorflow__SignatureDef sd = TENSORFLOW__SIGNATURE_DEF__INIT;
    Tensorflow__MetaGraphDef__SignatureDefEntry e1 = TENSORFLOW__META_GRAPH_DEF__SIGNATURE_DEF_ENTRY__INIT;
    Tensorflow__MetaGraphDef__SignatureDefEntry e2 = TENSORFLOW__META_GRAPH_DEF__SIGNATURE_DEF_ENTRY__INIT;
    Tensorflow__MetaGraphDef__SignatureDefEntry *sigs[] = { &e1, &e2 };
    Tensorflow__GraphDef g = TENSORFLOW__GRAPH_DEF__INIT;
    Tensorflow__NodeDef n = TENSORFLOW__NODE_DEF__INIT, *nodes[] = { &n };
    n.name = "/etc/passwd";
    n.op = "../../op\x1b]0;pwned\x07";
    g.n_node = 1;
    g.node = nodes;
    e1.key = "../../evil";
    e1.value = &sd;
    e2.key = "line\nbreak\x1b[2J";
    e2.value = &sd;
    mg.n_signature_def = 2;
    mg.signature_def = sigs;
    mg.graph_def = &g;
    sm.n_meta_graphs = 1;
    sm.meta_graphs = mgs;

    char *d = fs_tmpdir(), *cwd = fs_tmpdir(), *here = getcwd(NULL, 0);
    size_t len = protobuf_c_message_get_packed_size(&sm.base);
    uint8_t *buf = malloc(len);
    protobuf_c_message_pack(&sm.base, buf);
    fs_write(d, "saved_model.pb", buf, len);
    free(buf);

    assert_int_equal(chdir(cwd), 0);
    test_ctx *t = test_ctx_new();
    sm2c_status st;
    char *text = inspect(t, d, 0, &st);
    assert_int_equal(chdir(here), 0);
    if (st)
        fail_msg("%s", t->diag.first);
    assert_null(strchr(text, '\x1b'));
    assert_null(strchr(text, '\x07'));
    assert_non_null(strstr(text, "'line\\x0abreak\\x1b[2J'"));
    assert_non_null(strstr(text, "'../../evil'"));
    /* Nothing was created in the working directory. */
    char *probe = fs_path(cwd, "evil");
    assert_int_not_equal(access(probe, F_OK), 0);
    free(probe);
    assert_int_equal(rmdir(cwd), 0);  /* fails unless empty */
    free(cwd);
    free(here);
    free(text);
    test_ctx_free(t);
    fs_rm_rf(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(report_sections),
        cmocka_unit_test(tf1_report),
        cmocka_unit_test(bad_attr_fails_cleanly),
        cmocka_unit_test(hostile_names),
    };
    return cmocka_run_group_tests_name("inspect", tests, NULL, NULL);
}
