/*
** test_ir_verify.c: the IR verifier rejects each broken invariant on a
** hand-built graph, and the printer's text for that graph.
*/
#include "sm2c_test.h"

#include <stdio.h>

#include "ir/ir_print.h"
#include "sm2c_rt.h"

static const sm2c_opdef op_relu = { .name = "Relu", .n_inputs = 1, .outputs = "activations", .defaults = "" };
static const sm2c_opdef op_matmul = { .name = "MatMul", .n_inputs = 2, .outputs = "product", .defaults = "" };
static const sm2c_opdef op_if_begin = { .name = "IfBegin", .n_inputs = 1, .outputs = "", .defaults = "" };
static const sm2c_opdef op_if_end = { .name = "IfEnd", .n_inputs = -1, .outputs = "output", .defaults = "" };

static const int64_t dims_2x3[2] = { 2, 3 }, dims_3x3[2] = { 3, 3 }, dims_3[1] = { 3 };

/* x:[2,3] input; y = MatMul(x, w) with bias b; z = Relu(y); output z. */
typedef struct small {
    sm2c_graph g;
    sm2c_value *x, *w, *b, *y, *z;
    sm2c_node *mm, *relu;
} small;

static sm2c_tensor *const_f32(sm2c_ctx *c, int32_t rank, const int64_t *dims, float first)
{
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    t->dtype = SM2C_DT_FLOAT;
    t->shape = sm2c_shape_make(c, rank, dims);
    t->nelem = sm2c_shape_elements(&t->shape, INT64_MAX);
    t->nbytes = (size_t)t->nelem * sizeof(float);
    float *d = sm2c_arena_alloc(c->arena, t->nbytes);
    for (int64_t i = 0; i < t->nelem; i++)
        d[i] = first + (float)i;
    t->data = d;
    return t;
}

static void build(sm2c_ctx *c, small *s)
{
    memset(s, 0, sizeof *s);
    s->g.key = "serving_default";
    s->g.file = "model";
    s->x = sm2c_value_new(c, &s->g, SM2C_DT_FLOAT, "x:0");
    s->x->shape = sm2c_shape_make(c, 2, dims_2x3);
    s->x->input = 0;
    s->w = sm2c_value_const(c, &s->g, const_f32(c, 2, dims_3x3, 1), "w");
    s->b = sm2c_value_const(c, &s->g, const_f32(c, 1, dims_3, 0.5f), "b");
    sm2c_value *in[2] = { s->x, s->w };
    s->mm = sm2c_node_new(c, &s->g, &op_matmul, NULL, "", 2, in, 1);
    s->mm->name = "dense/MatMul";
    s->mm->bias = s->b;
    s->y = s->mm->outputs[0];
    s->y->dtype = SM2C_DT_FLOAT;
    s->y->shape = sm2c_shape_make(c, 2, dims_2x3);
    s->relu = sm2c_node_new(c, &s->g, &op_relu, NULL, "", 1, &s->y, 1);
    s->relu->name = "dense/Relu";
    s->z = s->relu->outputs[0];
    s->z->dtype = SM2C_DT_FLOAT;
    s->z->shape = s->y->shape;
    s->g.n_inputs = s->g.n_outputs = 1;
    s->g.inputs = sm2c_arena_alloc(c->arena, sizeof *s->g.inputs);
    s->g.inputs[0].key = "x";
    s->g.inputs[0].value = s->x;
    s->g.outputs = sm2c_arena_alloc(c->arena, sizeof *s->g.outputs);
    s->g.outputs[0].key = "z";
    s->g.outputs[0].value = s->z;
}

static void accepts_a_well_formed_graph(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    small s;
    build(&t->ctx, &s);
    assert_int_equal(sm2c_ir_verify(&t->ctx, &s.g, "import", 0), SM2C_OK);
    assert_int_equal(sm2c_ir_verify(&t->ctx, &s.g, "fuse", SM2C_VERIFY_TYPED), SM2C_OK);
    test_ctx_free(t);
}

static void expect(test_ctx *t, const sm2c_graph *g, int flags, const char *needle)
{
    assert_int_equal(sm2c_ir_verify(&t->ctx, g, "fuse", flags), SM2C_ERR_INTERNAL);
    assert_error_contains(t, "IR verifier, after pass 'fuse'");
    assert_error_contains(t, needle);
}

static void rejects_use_before_definition(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    small s;
    build(&t->ctx, &s);
    s.g.nodes[0] = s.relu, s.g.nodes[1] = s.mm;
    expect(t, &s.g, 0, "'dense/Relu' (Relu)");
    assert_error_contains(t, "input %3 is used before it is defined");
    test_ctx_free(t);
}

static void rejects_reading_a_dead_node(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    small s;
    build(&t->ctx, &s);
    s.mm->dead = 1;
    expect(t, &s.g, 0, "input %3 is made by dead node 'dense/MatMul'");
    test_ctx_free(t);
}

static void rejects_an_untyped_value_after_shape_inference(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    small s;
    build(&t->ctx, &s);
    s.y->shape.rank = -1;
    assert_int_equal(sm2c_ir_verify(&t->ctx, &s.g, "import", 0), SM2C_OK);
    expect(t, &s.g, SM2C_VERIFY_TYPED, "input %3 has no shape after shape inference");
    test_ctx_free(t);
}

static void rejects_dangling_and_duplicate_values(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    small s;
    build(&t->ctx, &s);
    s.g.n_values = 3;   /* z's and y's ids now out of range */
    expect(t, &s.g, 0, "id out of range");
    test_ctx_free(t);

    t = test_ctx_new();
    build(&t->ctx, &s);
    sm2c_value *stray = sm2c_value_new(&t->ctx, &s.g, SM2C_DT_FLOAT, "stray");
    stray->shape = s.b->shape;
    s.mm->bias = stray;   /* no producer, no input, no constant */
    expect(t, &s.g, 0, "bias %5 has no producer");
    test_ctx_free(t);

    t = test_ctx_new();
    build(&t->ctx, &s);
    s.z->id = s.y->id;
    expect(t, &s.g, 0, "two values have this id");
    test_ctx_free(t);

    t = test_ctx_new();
    build(&t->ctx, &s);
    s.g.outputs[0].value = s.y;
    s.relu->dead = 1;
    assert_int_equal(sm2c_ir_verify(&t->ctx, &s.g, "dce", 0), SM2C_OK);
    s.g.outputs[0].value = s.z;
    expect(t, &s.g, 0, "entry output 'z' %4 is made by dead node");
    test_ctx_free(t);
}

static void rejects_unbalanced_control_flow(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    small s;
    build(&t->ctx, &s);
    static char construct;   /* the markers' shared sm2c_cflow, opaque here */
    sm2c_node *begin = sm2c_node_new(&t->ctx, &s.g, &op_if_begin, NULL, "", 1, &s.z, 0);
    begin->cflow = (struct sm2c_cflow *)(void *)&construct;
    expect(t, &s.g, 0, "a control-flow construct is not closed");
    t->diag.first[0] = 0, t->diag.errors = 0;   /* the next error is the first again */
    sm2c_node *end = sm2c_node_new(&t->ctx, &s.g, &op_if_end, NULL, "", 1, &s.z, 1);
    end->cflow = begin->cflow;
    expect(t, &s.g, 0, "an end marker out of place");   /* no IfElse between */
    test_ctx_free(t);
}

static char *print(const sm2c_graph *g, const char *after)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    sm2c_ir_print(f, g, after);
    fclose(f);
    return text;
}

static void prints_stable_text(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    small s;
    build(&t->ctx, &s);
    s.mm->act = SM2C_RT_ACT_RELU6;
    s.relu->dead = 1;
    s.g.outputs[0].value = s.y;
    char *text = print(&s.g, "fuse");
    assert_string_equal(text,
        "; after fuse: 1 nodes (1 dead not shown)\n"
        "entry \"serving_default\" {\n"
        "  input \"x\" = %0:f32[2,3]\n"
        "  const %1:f32[3,3] = [1, 2, 3, 4, ...] #ab9c5f1b\n"
        "  const %2:f32[3] = [0.5, 1.5, 2.5]\n"
        "  %3:f32[2,3] = MatMul(%0, %1) bias=%2 act=relu6 ; \"dense/MatMul\"\n"
        "  output \"z\" = %3\n"
        "}\n");
    free(text);
    test_ctx_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepts_a_well_formed_graph),
        cmocka_unit_test(rejects_use_before_definition),
        cmocka_unit_test(rejects_reading_a_dead_node),
        cmocka_unit_test(rejects_an_untyped_value_after_shape_inference),
        cmocka_unit_test(rejects_dangling_and_duplicate_values),
        cmocka_unit_test(rejects_unbalanced_control_flow),
        cmocka_unit_test(prints_stable_text),
    };
    return cmocka_run_group_tests_name("ir_verify", tests, NULL, NULL);
}
