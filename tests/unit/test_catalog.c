/*
** test_catalog.c: the graph-level and function-level cases of the bad-input
** catalog (docs/reliability.md G1-G11, U1-U6), each with its status and its one-line
** diagnostic.  (F, P, C and N are in test_savedmodel, test_pbscan,
** test_sstable, test_bundle, test_tensor_proto and test_attr_check; G3 and G12 in
** test_savedmodel.)
**
** Every case is a small text-format SavedModel: tests/data/catalog/graph.pbtxt
** (x + c) or functions.pbtxt (a call of function f; g beside it), with a few
** edits applied, compiled through the library as `sm2c compile` does.  The
** object-graph cases (U6) edit a SavedModel TensorFlow wrote.
*/
#include "sm2c_test.h"
#include "test_fs.h"

#include "driver/pipeline.h"
#include "saved_model.pb-c.h"

#define CATALOG SM2C_TEST_DATA "/data/catalog"
#define TF2_MODULE SM2C_TEST_DATA "/data/models/tf2_module"

typedef struct edit {
    const char *from, *to;
} edit;

typedef struct bad_case {
    const char *id;
    const char *base;           /* graph.pbtxt or functions.pbtxt */
    edit edits[3];
    sm2c_status want;
    const char *needle;         /* in the first error line */
} bad_case;

static char *replace_once(const char *text, const edit *e)
{
    const char *at = strstr(text, e->from);
    if (!at)
        fail_msg("fixture lacks \"%s\"", e->from);
    size_t head = (size_t)(at - text), nf = strlen(e->from), nt = strlen(e->to);
    char *out = malloc(strlen(text) - nf + nt + 1);
    memcpy(out, text, head);
    memcpy(out + head, e->to, nt);
    strcpy(out + head + nt, at + nf);
    return out;
}

/* Load and compile every signature, as the CLI does. */
static sm2c_status compile_dir(test_ctx *t, const char *dir)
{
    sm2c_model *m = NULL;
    sm2c_program *p;
    sm2c_compile_opts o = { .name = "m" };
    sm2c_status st = sm2c_model_load(&t->ctx, dir, NULL, &m);
    if (!st)
        st = sm2c_compile_program(&t->ctx, m, &o, &p);
    sm2c_model_close(m);
    return st;
}

static void expect(test_ctx *t, const char *id, sm2c_status got, sm2c_status want, const char *needle)
{
    if (got != want)
        fail_msg("%s: status %d, want %d; first error: %s", id, got, want, t->diag.first);
    if (!strstr(t->diag.first, needle))
        fail_msg("%s: first error \"%s\" lacks \"%s\"", id, t->diag.first, needle);
    if (strchr(t->diag.first, '\n'))
        fail_msg("%s: the diagnostic spans lines", id);
    /* It names the file. */
    if (!strstr(t->diag.first, "saved_model.pb"))
        fail_msg("%s: \"%s\" does not name the file", id, t->diag.first);
}

static void run_case(const bad_case *bc)
{
    char *path = fs_path(CATALOG, bc->base);
    size_t n;
    char *text = (char *)fs_read(path, &n);
    text[n] = 0;
    for (int k = 0; k < 3 && bc->edits[k].from; k++) {
        char *next = replace_once(text, &bc->edits[k]);
        free(text);
        text = next;
    }
    char *d = fs_tmpdir();
    fs_write(d, "saved_model.pbtxt", text, strlen(text));
    test_ctx *t = test_ctx_new();
    expect(t, bc->id, compile_dir(t, d), bc->want, bc->needle);
    test_ctx_free(t);
    fs_rm_rf(d);
    free(text);
    free(path);
}

#define G "graph.pbtxt"
#define F "functions.pbtxt"
#define ADD_INPUT "input: \"c:0\""
#define T_FLOAT "attr { key: \"T\" value { type: DT_FLOAT } } }"
#define NEG_F "op: \"Neg\" input: \"a\""
#define ABS_G "op: \"Abs\" input: \"a\""
#define FG "func { name: \"g\" } "
#define FG10 FG FG FG FG FG FG FG FG FG FG
#define CASE_130 "node_def { name: \"i\" op: \"Const\" attr { key: \"dtype\" value { type: DT_INT32 } } " \
                 "attr { key: \"value\" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } } } " \
                 "node_def { name: \"n\" op: \"Case\" input: \"i:output:0\" input: \"a\" attr { key: " \
                 "\"branches\" value { list { " FG10 FG10 FG10 FG10 FG10 FG10 FG10 FG10 FG10 FG10 FG10 FG10 \
                 FG10 " } } }"
#define WHILE_G "op: \"While\" input: \"a\" attr { key: \"body\" value { func { name: \"g\" } } } " \
                "attr { key: \"cond\" value { func { name: \"g\" } } }"

static const bad_case graph_cases[] = {
    { "G1 missing node", G, { { ADD_INPUT, "input: \"foo:0\"" } }, SM2C_ERR_INVALID,
      "'y' (AddV2): error: input 1 'foo:0': no such node" },
    { "G1 missing control input", G, { { ADD_INPUT, ADD_INPUT " input: \"^foo\"" } }, SM2C_ERR_INVALID,
      "control input 2 '^foo': no such node" },
    { "G2 output index out of range", G, { { ADD_INPUT, "input: \"c:7\"" } }, SM2C_ERR_INVALID,
      "input 1 'c:7': names an output the node does not have" },
    { "G2 negative index", G, { { ADD_INPUT, "input: \"c:-1\"" } }, SM2C_ERR_INVALID,
      "input 1 'c:-1': malformed" },
    { "G2 overflowing index", G, { { ADD_INPUT, "input: \"c:99999999999999999999\"" } }, SM2C_ERR_INVALID,
      "input 1 'c:99999999999999999999': malformed" },
    { "G2 empty", G, { { ADD_INPUT, "input: \"\"" } }, SM2C_ERR_INVALID, "input 1 '': malformed" },
    { "G2 colon", G, { { ADD_INPUT, "input: \":\"" } }, SM2C_ERR_INVALID, "input 1 ':': malformed" },
    { "G2 no index", G, { { ADD_INPUT, "input: \"c:\"" } }, SM2C_ERR_INVALID, "input 1 'c:': malformed" },
    { "G2 bare caret", G, { { ADD_INPUT, "input: \"^\"" } }, SM2C_ERR_INVALID,
      "control input 1 '^': malformed" },
    { "G4 cycle", G,
      { { "input: \"x\" " ADD_INPUT, "input: \"x\" input: \"z\"" },
        { "  }\n  signature_def", "    node { name: \"z\" op: \"Neg\" input: \"y\" " T_FLOAT "\n  }\n  signature_def" } },
      SM2C_ERR_INVALID, "cycle: 'y' <- 'z' <- 'y'" },
    { "G5 empty op", G, { { "op: \"AddV2\"", "op: \"\"" } }, SM2C_ERR_INVALID, "'y' (): error: the op name is empty" },
    { "G5 unknown op", G, { { "op: \"AddV2\"", "op: \"FooBar\"" } }, SM2C_ERR_UNSUPPORTED,
      "'y' (FooBar): error: op 'FooBar' is not supported" },
    { "G6 arity", G, { { "input: \"x\" " ADD_INPUT, "input: \"x\"" } }, SM2C_ERR_INVALID,
      "'y' (AddV2): error: expects 2 inputs, got 1" },
    { "G7 variadic N", G,
      { { "op: \"AddV2\" input: \"x\" " ADD_INPUT "\n      " T_FLOAT,
          "op: \"AddN\" input: \"x\" " ADD_INPUT "\n      attr { key: \"N\" value { i: 250000000 } } " T_FLOAT } },
      SM2C_ERR_LIMIT, "'y' (AddN): error: attr 'N' is 250000000" },
    { "G8 attr of the wrong type", G, { { T_FLOAT, "attr { key: \"T\" value { s: \"float\" } } }" } },
      SM2C_ERR_INVALID, "attr 'T': expected type or list(type), got string" },
    { "G8 strides as floats", G,
      { { T_FLOAT, "attr { key: \"T\" value { type: DT_FLOAT } } attr { key: \"strides\" value { list { f: 1 } } } }" } },
      SM2C_ERR_INVALID, "attr 'strides': expected list(int), got float list" },
    { "G8 attr disagrees with the input", G, { { T_FLOAT, "attr { key: \"T\" value { type: DT_INT32 } } }" } },
      SM2C_ERR_INVALID, "attr 'T' is int32 but input 0 is float32" },
    { "G9 reference dtype", G, { { T_FLOAT, "attr { key: \"T\" value { type: DT_FLOAT_REF } } }" } },
      SM2C_ERR_INVALID, "attr 'T' is DT_FLOAT_REF, not a valid dtype (reference dtypes are not allowed)" },
    { "G9 resource where numbers are expected", G,
      { { "key: \"dtype\" value { type: DT_FLOAT } }\n      attr { key: \"shape\"",
          "key: \"dtype\" value { type: DT_RESOURCE } }\n      attr { key: \"shape\"" } },
      SM2C_ERR_INVALID, "input 'x' is declared float32 but tensor 'x:0' is resource" },
    { "G10 host side effect", G, { { "op: \"AddV2\"", "op: \"PyFunc\"" } }, SM2C_ERR_UNSUPPORTED,
      "'y' (PyFunc): error: op 'PyFunc' cannot be compiled (host side effect)" },
    { "G10 WriteFile", G, { { "op: \"AddV2\"", "op: \"WriteFile\"" } }, SM2C_ERR_UNSUPPORTED,
      "op 'WriteFile' cannot be compiled (host side effect)" },
    { "G11 missing tensor", G, { { "name: \"y:0\"", "name: \"nope:0\"" } }, SM2C_ERR_INVALID,
      "signature 'serving_default': error: output 'y' names tensor 'nope:0', which is not in the graph" },
    { "G11 output dtype", G, { { "name: \"y:0\" dtype: DT_FLOAT", "name: \"y:0\" dtype: DT_INT32" } },
      SM2C_ERR_INVALID, "output 'y' is declared int32 but tensor 'y:0' is float32" },
    { "G11 output shape", G,
      { { "name: \"y:0\" dtype: DT_FLOAT tensor_shape { dim { size: 2 } }",
          "name: \"y:0\" dtype: DT_FLOAT tensor_shape { dim { size: 3 } }" } },
      SM2C_ERR_INVALID, "output 'y' is declared with shape [3] but tensor 'y:0' has shape [2]" },
    { "op on a dtype the table does not list", G,
      { { "op: \"AddV2\" input: \"x\" " ADD_INPUT "\n      " T_FLOAT,
          "op: \"Cast\" input: \"n\" attr { key: \"SrcT\" value { type: DT_INT8 } } "
          "attr { key: \"DstT\" value { type: DT_FLOAT } } }\n"
          "    node { name: \"k\" op: \"Cast\" input: \"x\" attr { key: \"SrcT\" value { type: DT_FLOAT } } "
          "attr { key: \"DstT\" value { type: DT_INT8 } } }\n"
          "    node { name: \"n\" op: \"Sigmoid\" input: \"k\" attr { key: \"T\" value { type: DT_INT8 } } }" } },
      SM2C_ERR_UNSUPPORTED, "'n' (Sigmoid): error: Sigmoid on int8 is not supported (see `sm2c ops`)" },
    { "G11 input dtype", G, { { "name: \"x:0\" dtype: DT_FLOAT", "name: \"x:0\" dtype: DT_INT64" } },
      SM2C_ERR_INVALID, "input 'x' is declared int64 but tensor 'x:0' is float32" },
};

static const bad_case function_cases[] = {
    { "U1 self call", F, { { NEG_F, "op: \"f\" input: \"a\"" } }, SM2C_ERR_INVALID,
      "function 'f': error: is recursive (f -> f)" },
    { "U2 through PartitionedCall", F,
      { { NEG_F, "op: \"g\" input: \"a\"" },
        { ABS_G, "op: \"PartitionedCall\" input: \"a\" attr { key: \"f\" value { func { name: \"f\" } } }" } },
      SM2C_ERR_INVALID, "is recursive (f -> g -> f)" },
    { "U2 through While and a nested NameAttrList", F,
      { { NEG_F, WHILE_G },
        { ABS_G, ABS_G " attr { key: \"x\" value { list { func { name: \"h\" attr { key: \"inner\" "
                 "value { func { name: \"f\" } } } } } } }" } },
      SM2C_ERR_INVALID, "is recursive (f -> g -> f)" },
    { "U3 missing function", F, { { "func { name: \"f\" }", "func { name: \"nope\" }" } }, SM2C_ERR_INVALID,
      "'call' (StatefulPartitionedCall): error: calls function 'nope', which is not in the library" },
    { "U3 duplicate function", F, { { "name: \"g\" input_arg", "name: \"f\" input_arg" } }, SM2C_ERR_INVALID,
      "duplicate function name 'f'" },
    { "U3 function named like an op", F, { { "name: \"g\" input_arg", "name: \"Relu\" input_arg" } },
      SM2C_ERR_INVALID, "function 'Relu': error: has the name of the op 'Relu'" },
    { "U4 ret names a missing node", F, { { "value: \"n:y:0\"", "value: \"m:y:0\"" } }, SM2C_ERR_INVALID,
      "f: error: returns 'm:y:0': no such node" },
    { "U4 argument count", F, { { "input: \"x\"\n      attr { key: \"f\"", "input: \"x\" input: \"x\"\n      attr { key: \"f\"" } },
      SM2C_ERR_INVALID, "passes the wrong number of arguments to 'f'" },
    { "U4 type_attr names no attr", F,
      { { "input_arg { name: \"a\" type: DT_FLOAT }", "input_arg { name: \"a\" type_attr: \"T\" }" } },
      SM2C_ERR_INVALID, "function 'f': error: input 'a' has type_attr 'T', which is not an attr of the function" },
    { "U4 missing ret", F, { { "ret { key: \"b\" value: \"n:y:0\" }", "" } }, SM2C_ERR_INVALID,
      "function 'f' does not return all its outputs" },
    /* Loops compile with an iteration cap (tests/cli/control_flow.sh); here g's
    ** float32 [2] result cannot be a condition. */
    { "U5 While with body == cond", F, { { NEG_F, WHILE_G } }, SM2C_ERR_UNSUPPORTED,
      "f: 'n' (While): error: the condition must be a bool or int32 scalar (it is float32 [2])" },
    { "C1 If without branches", F, { { NEG_F, "op: \"If\" input: \"a\" input: \"a\"" } }, SM2C_ERR_INVALID,
      "f: 'n' (If): error: a branch is not a function" },
    { "C2 Case without a branch list", F, { { NEG_F, "op: \"Case\" input: \"a\" input: \"a\"" } },
      SM2C_ERR_INVALID, "f: 'n' (Case): error: needs a branch index and a 'branches' list" },
    { "C3 If on a vector", F,
      { { NEG_F, "op: \"StatelessIf\" input: \"a\" input: \"a\" attr { key: \"then_branch\" value { func { "
                 "name: \"g\" } } } attr { key: \"else_branch\" value { func { name: \"g\" } } }" } },
      SM2C_ERR_UNSUPPORTED, "f: 'n' (StatelessIf): error: the condition must be a bool or int32 scalar" },
    { "C5 Case nesting past the C limit", F, { { "node_def { name: \"n\" op: \"Neg\" input: \"a\"", CASE_130 } },
      SM2C_ERR_LIMIT, "f: 'n' (Case): error: control flow nests deeper than 120 levels" },
    { "C4 TensorList op on a plain tensor", F,
      { { NEG_F, "op: \"TensorListGetItem\" input: \"a\" input: \"a\" input: \"a\"" } }, SM2C_ERR_UNSUPPORTED,
      "f: 'n' (TensorListGetItem): error: its list does not come from TensorListReserve" },
};

static void graph_level(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof graph_cases / sizeof *graph_cases; i++)
        run_case(&graph_cases[i]);
}

static void function_level(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof function_cases / sizeof *function_cases; i++)
        run_case(&function_cases[i]);
}

/* U2's cousin: no recursion, but f0 calls f1 twice, f1 calls f2 twice, ... 40
** levels, under the call-depth cap.  Inlining must stop at the node limit
** instead of instantiating 2^40 bodies. */
static void exponential_inlining(void **state)
{
    (void)state;
    char *text = malloc(1 << 16);
    size_t n = (size_t)sprintf(text,
        "saved_model_schema_version: 1\nmeta_graphs { meta_info_def { tags: \"serve\" }\n"
        "graph_def { versions { producer: 1000 }\n"
        "node { name: \"x\" op: \"Placeholder\" attr { key: \"dtype\" value { type: DT_FLOAT } }"
        " attr { key: \"shape\" value { shape { dim { size: 1 } } } } }\n"
        "node { name: \"call\" op: \"f0\" input: \"x\" }\nlibrary {\n");
    for (int k = 0; k < 40; k++)
        n += (size_t)sprintf(text + n,
            "function { signature { name: \"f%d\" input_arg { name: \"a\" type: DT_FLOAT }"
            " output_arg { name: \"b\" type: DT_FLOAT } }\n"
            " node_def { name: \"p\" op: \"f%d\" input: \"a\" }\n"
            " node_def { name: \"q\" op: \"f%d\" input: \"p:b:0\" }\n"
            " ret { key: \"b\" value: \"q:b:0\" } }\n", k, k + 1, k + 1);
    n += (size_t)sprintf(text + n,
        "function { signature { name: \"f40\" input_arg { name: \"a\" type: DT_FLOAT }"
        " output_arg { name: \"b\" type: DT_FLOAT } }\n"
        " node_def { name: \"n\" op: \"Neg\" input: \"a\" attr { key: \"T\" value { type: DT_FLOAT } } }\n"
        " ret { key: \"b\" value: \"n:y:0\" } }\n}\n}\n"
        "signature_def { key: \"serving_default\" value {"
        " inputs { key: \"x\" value { name: \"x:0\" dtype: DT_FLOAT tensor_shape { dim { size: 1 } } } }"
        " outputs { key: \"y\" value { name: \"call:0\" dtype: DT_FLOAT tensor_shape { dim { size: 1 } } } } } }\n}\n");
    char *d = fs_tmpdir();
    fs_write(d, "saved_model.pbtxt", text, n);
    test_ctx *t = test_ctx_new();
    t->limits.graph_nodes = 100000;
    expect(t, "U2 exponential inlining", compile_dir(t, d), SM2C_ERR_LIMIT,
           "takes the graph past the node limit (--limit graph-nodes=N)");
    test_ctx_free(t);
    fs_rm_rf(d);
    free(text);
}

/* The unedited fixtures compile: the cases above fail for their edit only. */
static void fixtures_compile(void **state)
{
    (void)state;
    const char *bases[] = { G, F };
    for (size_t i = 0; i < 2; i++) {
        char *path = fs_path(CATALOG, bases[i]);
        char *d = fs_tmpdir();
        fs_copy(path, d, "saved_model.pbtxt");
        test_ctx *t = test_ctx_new();
        sm2c_status st = compile_dir(t, d);
        if (st)
            fail_msg("%s: %s", bases[i], t->diag.first);
        test_ctx_free(t);
        fs_rm_rf(d);
        free(path);
    }
}

/* ---- U6: the object graph of a SavedModel TensorFlow wrote ------------------- */

typedef void (*object_edit)(Tensorflow__SavedObjectGraph *g);

/* Copies tf2_module with its object graph edited; compiles; returns the status. */
static sm2c_status compile_edited(test_ctx *t, object_edit fn)
{
    char *src = fs_path(TF2_MODULE, "saved_model.pb");
    size_t n;
    unsigned char *bytes = fs_read(src, &n);
    Tensorflow__SavedModel *sm = tensorflow__saved_model__unpack(NULL, n, bytes);
    assert_non_null(sm);
    fn(sm->meta_graphs[0]->object_graph_def);
    size_t len = tensorflow__saved_model__get_packed_size(sm);
    uint8_t *out = malloc(len + 1);
    tensorflow__saved_model__pack(sm, out);
    char *d = fs_tmpdir();
    fs_copy_model(TF2_MODULE, d);
    fs_write(d, "saved_model.pb", out, len);
    sm2c_status st = compile_dir(t, d);
    fs_rm_rf(d);
    free(out);
    tensorflow__saved_model__free_unpacked(sm, NULL);
    free(bytes);
    free(src);
    return st;
}

static void child_out_of_range(Tensorflow__SavedObjectGraph *g) { g->nodes[0]->children[1]->node_id = 99; }
static void child_negative(Tensorflow__SavedObjectGraph *g) { g->nodes[3]->children[0]->node_id = -1; }
static void bound_input_out_of_range(Tensorflow__SavedObjectGraph *g)
{
    for (size_t i = 0; i < g->n_concrete_functions; i++)
        if (g->concrete_functions[i]->value->n_bound_inputs)
            g->concrete_functions[i]->value->bound_inputs[0] = 1000;
}
/* nested (3) -> root (0) -> nested: a cycle, which TensorFlow allows. */
static void child_cycle(Tensorflow__SavedObjectGraph *g) { g->nodes[3]->children[0]->node_id = 0; }
/* (Edits allocate with malloc: free_unpacked frees every field.) */
static void slot_variable_out_of_range(Tensorflow__SavedObjectGraph *g)
{
    Tensorflow__SlotVariableReference *ref = malloc(sizeof *ref);
    tensorflow__slot_variable_reference__init(ref);
    ref->original_variable_node_id = 1;
    ref->slot_variable_node_id = -5;
    g->nodes[0]->n_slot_variables = 1;
    g->nodes[0]->slot_variables = malloc(sizeof *g->nodes[0]->slot_variables);
    g->nodes[0]->slot_variables[0] = ref;
}
static void concrete_function_missing(Tensorflow__SavedObjectGraph *g)
{
    for (size_t i = 0; i < g->n_nodes; i++)
        if (g->nodes[i]->kind_case == TENSORFLOW__SAVED_OBJECT__KIND_FUNCTION &&
            g->nodes[i]->function->n_concrete_functions) {
            free(g->nodes[i]->function->concrete_functions[0]);
            g->nodes[i]->function->concrete_functions[0] = strdup("__inference_missing_1");
            return;
        }
}

static void object_graph(void **state)
{
    (void)state;
    static const struct {
        const char *id;
        object_edit fn;
        const char *needle;
    } cases[] = {
        { "U6 child out of range", child_out_of_range,
          "object_graph_def.nodes[0].children[1]: error: node id 99 out of range (the graph has 16 nodes)" },
        { "U6 negative child", child_negative,
          "object_graph_def.nodes[3].children[0]: error: node id -1 out of range" },
        { "U6 bound input out of range", bound_input_out_of_range, "].bound_inputs[0]: error: node id 1000 out of range" },
        { "U6 slot variable out of range", slot_variable_out_of_range,
          "object_graph_def.nodes[0].slot_variables[0]: error: node id -5 out of range" },
        { "U6 concrete function missing", concrete_function_missing,
          "names concrete function '__inference_missing_1', which is not in concrete_functions" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        test_ctx *t = test_ctx_new();
        expect(t, cases[i].id, compile_edited(t, cases[i].fn), SM2C_ERR_INVALID, cases[i].needle);
        test_ctx_free(t);
    }
    /* A cycle terminates (visited set) and the model still compiles. */
    test_ctx *t = test_ctx_new();
    sm2c_status st = compile_edited(t, child_cycle);
    if (st)
        fail_msg("cyclic object graph: %s", t->diag.first);
    test_ctx_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixtures_compile),
        cmocka_unit_test(graph_level),
        cmocka_unit_test(function_level),
        cmocka_unit_test(object_graph),
        cmocka_unit_test(exponential_inlining),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
