/*
** test_compile.c: import, the passes and the plan, on models TensorFlow wrote
** (tests/data/e2e) and on small graphs built here for the error paths.
*/
#include "sm2c_test.h"
#include "test_fs.h"

#include "codegen/emit_c.h"
#include "driver/pipeline.h"
#include "lower/lower.h"
#include "saved_model.pb-c.h"
#include "sm2c_rt.h"

#define E2E SM2C_TEST_DATA "/data/e2e"

typedef struct compiled {
    test_ctx *t;
    sm2c_model *m;
    sm2c_program *p;
    sm2c_status st;
} compiled;

static compiled compile(const char *dir, const char *sig, const sm2c_shape_opt *shapes, int n_shapes)
{
    compiled r = { test_ctx_new(), NULL, NULL, SM2C_OK };
    sm2c_compile_opts o = { .name = "m", .n_signatures = sig ? 1 : 0, .signatures = &sig };
    o.import.n_shapes = n_shapes;
    o.import.shapes = shapes;
    r.st = sm2c_model_load(&r.t->ctx, dir, NULL, &r.m);
    if (!r.st)
        r.st = sm2c_compile_program(&r.t->ctx, r.m, &o, &r.p);
    return r;
}

/* --max-batch: compiled at one row, ports at max_batch rows, k slices per row. */
static compiled compile_batched(const char *dir, int32_t max_batch)
{
    compiled r = { test_ctx_new(), NULL, NULL, SM2C_OK };
    const char *sig = "serving_default";
    sm2c_compile_opts o = { .name = "m", .n_signatures = 1, .signatures = &sig, .max_batch = max_batch };
    r.st = sm2c_model_load(&r.t->ctx, dir, NULL, &r.m);
    if (!r.st)
        r.st = sm2c_compile_program(&r.t->ctx, r.m, &o, &r.p);
    return r;
}

static void done(compiled *r)
{
    sm2c_model_close(r->m);
    test_ctx_free(r->t);
}

static int count_kernel(const sm2c_entry *e, const char *kernel)
{
    int n = 0;
    for (int32_t s = 0; s < e->n_steps; s++)
        n += strcmp(e->steps[s].kernel, kernel) == 0;
    return n;
}

static const sm2c_step *first_step(const sm2c_entry *e, const char *kernel)
{
    for (int32_t s = 0; s < e->n_steps; s++)
        if (strcmp(e->steps[s].kernel, kernel) == 0)
            return &e->steps[s];
    return NULL;
}

static void batched_ports(void **state)
{
    (void)state;
    compiled r = compile_batched(SM2C_TEST_DATA "/data/batch/two_io/model", 7);
    assert_int_equal(r.st, SM2C_OK);
    const sm2c_entry *e = &r.p->entries[0];
    assert_int_equal(e->max_batch, 7);
    /* inputs a, b batched (one row each), scale not */
    assert_int_equal(e->inputs[0].batched, 1);
    assert_int_equal(e->inputs[0].shape.dims[0], 7);
    assert_int_equal(e->inputs[2].batched, 0);
    assert_int_equal(e->inputs[2].shape.dims[0], 2);
    /* outputs folded [2*batch, 3], mix, norm batched; scale2 not */
    assert_string_equal(e->outputs[0].key, "folded");
    assert_int_equal(e->outputs[0].batched, 2);
    assert_int_equal(e->outputs[0].shape.dims[0], 14);
    assert_int_equal(e->outputs[1].batched, 1);
    assert_int_equal(e->outputs[3].batched, 0);
    /* the program computes one row */
    assert_int_equal(e->buffers[e->inputs[0].buf].shape.dims[0], 1);
    assert_int_equal(e->buffers[e->outputs[0].buf].shape.dims[0], 2);
    done(&r);
    /* a row-mixing model is refused, naming the op */
    r = compile_batched(SM2C_TEST_DATA "/data/batch_bad/row_mixing/model", 4);
    assert_int_equal(r.st, SM2C_ERR_UNSUPPORTED);
    done(&r);
}

/* Keras Dense(relu): MatMul + BiasAdd + Relu become one matmul step with bias
** and act; at one row (the default batch) it is the matrix-vector kernel, its
** _small form for these layers of few multiply-adds (ops_nn.c). */
static void fuses_dense_relu(void **state)
{
    (void)state;
    compiled r = compile(E2E "/mlp/model", "serving_default", NULL, 0);
    if (r.st)
        fail_msg("%s", r.t->diag.first);
    const sm2c_entry *e = &r.p->entries[0];
    assert_int_equal(count_kernel(e, "sm2c_rt_matvec_small_f32"), 3);
    assert_int_equal(count_kernel(e, "sm2c_rt_matmul_f32"), 0);
    assert_int_equal(count_kernel(e, "sm2c_rt_bias_add_f32"), 0);
    assert_int_equal(count_kernel(e, "sm2c_rt_relu_f32"), 0);
    const sm2c_step *mm = first_step(e, "sm2c_rt_matvec_small_f32");
    assert_int_equal(mm->args[2].kind, SM2C_ARG_BUF);   /* bias */
    assert_int_equal(mm->args[6].i, 1);                  /* SM2C_RT_ACT_RELU */
    assert_true(e->arena_bytes <= e->naive_bytes);
    done(&r);
    /* Five rows: the tiled matmul, B read as it is, so no packing scratch. */
    int64_t dims[2] = { 5, 8 };
    sm2c_shape_opt opt = { "x", { 2, dims }, 0, NULL };
    r = compile(E2E "/mlp/model", "serving_default", &opt, 1);
    if (r.st)
        fail_msg("%s", r.t->diag.first);
    e = &r.p->entries[0];
    assert_int_equal(count_kernel(e, "sm2c_rt_matmul_f32"), 3);
    assert_int_equal(count_kernel(e, "sm2c_rt_matvec_small_f32"), 0);
    mm = first_step(e, "sm2c_rt_matmul_f32");
    assert_int_equal(mm->args[9].i, 1);                  /* SM2C_RT_ACT_RELU */
    assert_int_equal(mm->args[12].kind, SM2C_ARG_NULL);  /* pack */
    done(&r);
}

/* Keras 3 adds a one-unit Dense layer's bias with AddV2: fused all the same,
** so the sine model is three (small) matrix-vector steps and nothing else. */
static void fuses_add_bias(void **state)
{
    (void)state;
    compiled r = compile(SM2C_TEST_DATA "/data/firmware/sine/model", "serving_default", NULL, 0);
    if (r.st)
        fail_msg("%s", r.t->diag.first);
    const sm2c_entry *e = &r.p->entries[0];
    assert_int_equal(e->n_steps, 3);
    assert_int_equal(count_kernel(e, "sm2c_rt_matvec_small_f32"), 3);
    assert_int_equal(e->steps[2].args[2].kind, SM2C_ARG_BUF);   /* the AddV2's bias */
    done(&r);
}

/* Keras 3 batch norm is x * s + t once folded: s folds into the filter, t
** becomes the bias, the Relu the activation; DS-CNN keeps its 11 layers, and
** its first reads a zero-padded copy of the input (conv_pad.c: a fill and a
** copy) and, run by the vector conv blocks with 64 output channels, a filter
** packed in panels (conv_pack.c); its 1x1 layers, matmuls, read HWIO. */
static void folds_keras3_batch_norm(void **state)
{
    (void)state;
    compiled r = compile(SM2C_TEST_DATA "/data/firmware/ds_cnn/model", "serving_default", NULL, 0);
    if (r.st)
        fail_msg("%s", r.t->diag.first);
    const sm2c_entry *e = &r.p->entries[0];
    assert_int_equal(count_kernel(e, "sm2c_rt_mul_f32") + count_kernel(e, "sm2c_rt_add_f32") +
                         count_kernel(e, "sm2c_rt_relu_f32"), 0);
    assert_int_equal(count_kernel(e, "sm2c_rt_conv2d_f32"), 4);
    assert_int_equal(count_kernel(e, "sm2c_rt_conv2d_packed_f32"), 1);
    assert_int_equal(count_kernel(e, "sm2c_rt_depthwise_conv2d_f32"), 4);
    const sm2c_step *conv = first_step(e, "sm2c_rt_conv2d_packed_f32");
    assert_int_equal(conv->args[2].kind, SM2C_ARG_BUF);  /* the folded offset, as bias */
    assert_int_equal(conv->args[5].i, 1);                /* SM2C_RT_ACT_RELU */
    /* its 64x12 Dense layer is past the _small matvec's size */
    assert_int_equal(count_kernel(e, "sm2c_rt_matvec_f32"), 1);
    assert_int_equal(count_kernel(e, "sm2c_rt_pad_copy_f32"), 1);
    assert_int_equal(e->n_steps, 13);
    done(&r);
}

/* Keras 3 LayerNormalization (Mean, SquaredDifference, Mean, AddV2, Rsqrt,
** Mul, Neg, Mul, AddV2, Mul, AddV2) is one layer-norm step over the last
** axis, with or without gamma and beta; the small transformer encoder's two
** layer norms go from 22 steps to 2.  tf_keras's form (FusedBatchNormV3 on
** a reshaped tensor) is not matched. */
static void fuses_layer_norm(void **state)
{
    (void)state;
    static const char *const one_step[] = { "keras_LayerNormalization", "keras_LayerNormalization_eps",
                                            "keras_LayerNormalization_nocenter",
                                            "keras_LayerNormalization_noscale",
                                            "keras_LayerNormalization_plain" };
    for (size_t i = 0; i < sizeof one_step / sizeof one_step[0]; i++) {
        char dir[256];
        snprintf(dir, sizeof dir, "%s/data/ops/%s/model", SM2C_TEST_DATA, one_step[i]);
        compiled r = compile(dir, "serving_default", NULL, 0);
        if (r.st)
            fail_msg("%s: %s", one_step[i], r.t->diag.first);
        const sm2c_entry *e = &r.p->entries[0];
        assert_int_equal(e->n_steps, 1);
        assert_string_equal(e->steps[0].kernel, "sm2c_rt_layer_norm_f32");
        if (i == 0) {   /* [3, 5, 8], epsilon 1e-3 */
            assert_true(e->steps[0].args[3].f == 1e-3f);
            assert_int_equal(e->steps[0].args[5].i, 15);
            assert_int_equal(e->steps[0].args[6].i, 8);
        }
        done(&r);
    }
    compiled r = compile(SM2C_TEST_DATA "/data/ops/arch_transformer_encoder/model", "serving_default", NULL, 0);
    if (r.st)
        fail_msg("%s", r.t->diag.first);
    const sm2c_entry *e = &r.p->entries[0];
    assert_int_equal(count_kernel(e, "sm2c_rt_layer_norm_f32"), 2);
    assert_int_equal(count_kernel(e, "sm2c_rt_reduce_mean_f32") + count_kernel(e, "sm2c_rt_rsqrt_f32"), 0);
    /* the attention Einsums copy nothing (ops_einsum.c); the Dense and
    ** EinsumDense biases (and the Dense's Relu) join their MatMul through the
    ** Reshape after it (pass_fuse.c): only the two residual Adds remain */
    assert_int_equal(count_kernel(e, "sm2c_rt_bias_add_f32"), 0);
    assert_int_equal(count_kernel(e, "sm2c_rt_add_f32"), 2);
    assert_int_equal(count_kernel(e, "sm2c_rt_relu_f32"), 0);
    /* the scores' Mul by 1/sqrt(key_dim) joins the Softmax (pass_fuse_scale.c) */
    assert_int_equal(count_kernel(e, "sm2c_rt_mul_f32"), 0);
    assert_int_equal(count_kernel(e, "sm2c_rt_softmax_scaled_f32"), 1);
    assert_int_equal(e->n_steps, 13);
    done(&r);
    r = compile(SM2C_TEST_DATA "/data/ops/keras_LayerNormalization/model", "tfkeras", NULL, 0);
    if (r.st)
        fail_msg("%s", r.t->diag.first);
    assert_int_equal(count_kernel(&r.p->entries[0], "sm2c_rt_layer_norm_f32"), 0);
    done(&r);
}

/* Attention scores "aecd,abcd->acbe" (keys, queries): queries times keys
** gives the output's order directly, so the one strided batch matmul reads
** both operands where they are (keys packed per tile, their columns being
** apart) and writes the output: no copy (keys times queries would have
** needed the product copied). */
static void einsum_picks_operand_order(void **state)
{
    (void)state;
    compiled r = compile(SM2C_TEST_DATA "/data/ops/Einsum_aecd_abcd/model", NULL, NULL, 0);
    if (r.st)
        fail_msg("%s", r.t->diag.first);
    const sm2c_entry *e = &r.p->entries[0];
    assert_int_equal(e->n_steps, 1);
    assert_string_equal(e->steps[0].kernel, "sm2c_rt_batch_matmul_strided_f32");
    assert_int_equal(e->steps[0].args[15].kind, SM2C_ARG_BUF);   /* pack: B's columns are apart */
    assert_int_equal(count_kernel(e, "sm2c_rt_copy_strided"), 0);
    done(&r);
}

/* Conv + BiasAdd + FusedBatchNormV3 + ReLU and DepthwiseConv + BN + ReLU6:
** no batch norm and no separate activation remain. */
static void folds_batch_norm(void **state)
{
    (void)state;
    compiled r = compile(E2E "/bn_fold/model", NULL, NULL, 0);
    if (r.st)
        fail_msg("%s", r.t->diag.first);
    const sm2c_entry *e = &r.p->entries[0];
    assert_int_equal(count_kernel(e, "sm2c_rt_batch_norm_f32"), 0);
    assert_int_equal(count_kernel(e, "sm2c_rt_relu_f32") + count_kernel(e, "sm2c_rt_relu6_f32"), 0);
    assert_int_equal(first_step(e, "sm2c_rt_conv2d_f32")->args[5].i, 1);
    assert_int_equal(first_step(e, "sm2c_rt_depthwise_conv2d_f32")->args[5].i, 2);
    done(&r);
}

/* Issue 14: each activation after a kernel and its BiasAdd becomes the
** kernel's act and parameters, leaving one step (the cases of
** tests/models/ops_fused.py). */
static void fuses_new_activations(void **state)
{
    static const struct {
        const char *name, *kernel;
        int32_t at, act;
        float a, b;
    } cases[] = {
        { "Conv2D_fused_leaky_relu", "sm2c_rt_conv2d_f32", 5, SM2C_RT_ACT_LEAKY_RELU, 0.1f, 0.0f },
        { "Conv2D_fused_clip_by_value", "sm2c_rt_conv2d_f32", 5, SM2C_RT_ACT_CLIP, -0.5f, 0.75f },
        { "Conv2D_fused_min_max", "sm2c_rt_conv2d_f32", 5, SM2C_RT_ACT_CLIP, -0.5f, 0.75f },
        { "Conv2D_fused_max_min", "sm2c_rt_conv2d_f32", 5, SM2C_RT_ACT_CLIP, -1.0f, 0.5f },
        { "Conv2D_fused_sigmoid", "sm2c_rt_conv2d_f32", 5, SM2C_RT_ACT_SIGMOID, 0.0f, 0.0f },
        { "Conv2D_fused_hard_swish", "sm2c_rt_conv2d_f32", 5, SM2C_RT_ACT_HARD_SWISH, 0.0f, 0.0f },
        { "Conv2D_fused_hard_swish_tf", "sm2c_rt_conv2d_f32", 5, SM2C_RT_ACT_HARD_SWISH, 0.0f, 0.0f },
        { "DepthwiseConv2dNative_fused_hard_swish", "sm2c_rt_depthwise_conv2d_f32", 5,
          SM2C_RT_ACT_HARD_SWISH, 0.0f, 0.0f },
        { "MatMul_fused_min_max", "sm2c_rt_matmul_f32", 9, SM2C_RT_ACT_CLIP, -0.5f, 0.75f },
        { "BiasAdd_fused_sigmoid", "sm2c_rt_bias_add_f32", 6, SM2C_RT_ACT_SIGMOID, 0.0f, 0.0f },
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char dir[256];
        snprintf(dir, sizeof dir, "%s/data/ops/%s/model", SM2C_TEST_DATA, cases[i].name);
        compiled r = compile(dir, "serving_default", NULL, 0);
        if (r.st)
            fail_msg("%s: %s", cases[i].name, r.t->diag.first);
        const sm2c_entry *e = &r.p->entries[0];
        const sm2c_step *s = first_step(e, cases[i].kernel);
        /* one step, and for a small-channel Conv2D the zero-padded copy of
        ** its input ahead of it (conv_pad.c: one padded copy) */
        int32_t copy = count_kernel(e, "sm2c_rt_pad_copy_f32");
        if (e->n_steps - copy != 1 || !s)
            fail_msg("%s: %d steps", cases[i].name, (int)e->n_steps);
        assert_int_equal(s->args[cases[i].at].i, cases[i].act);
        assert_true(s->args[cases[i].at + 1].f == cases[i].a);
        assert_true(s->args[cases[i].at + 2].f == cases[i].b);
        done(&r);
    }
}

/* Keras' Flatten computes its target shape from Shape/StridedSlice/Pack:
** all of it folds to constants, and no step is left for it. */
static void folds_shape_arithmetic(void **state)
{
    (void)state;
    compiled r = compile(E2E "/cnn/model", "serving_default", NULL, 0);
    if (r.st)
        fail_msg("%s", r.t->diag.first);
    for (int32_t s = 0; s < r.p->entries[0].n_steps; s++) {
        const char *op = r.p->entries[0].steps[s].op;
        assert_true(strcmp(op, "Shape") && strcmp(op, "Pack") && strcmp(op, "StridedSlice"));
    }
    done(&r);
}

/* The leading unknown dim defaults to 1; --shape overrides; other unknown dims need it. */
static void unknown_dims(void **state)
{
    (void)state;
    compiled r = compile(E2E "/mlp/model", "serving_default", NULL, 0);
    assert_int_equal(r.st, SM2C_OK);
    assert_int_equal(r.p->entries[0].inputs[0].shape.dims[0], 1);
    done(&r);
    int64_t dims[2] = { 5, 8 };
    sm2c_shape_opt opt = { "x", { 2, dims }, 0, NULL };
    r = compile(E2E "/mlp/model", "serving_default", &opt, 1);
    assert_int_equal(r.st, SM2C_OK);
    assert_int_equal(r.p->entries[0].inputs[0].shape.dims[0], 5);
    assert_int_equal(r.p->entries[0].outputs[0].shape.dims[0], 5);
    done(&r);
    /* ints' int64_ops: a is [2, -1], an unknown dim that is not leading. */
    r = compile(E2E "/ints/model", "int64_ops", NULL, 0);
    assert_int_equal(r.st, SM2C_ERR_INVALID);
    assert_error_contains(r.t, "signature 'int64_ops': error: unknown dims need --shape KEY=d0,d1,... "
                               "(or --shape int64_ops.KEY=...): 'a' [2,-1] (dim 1)");
    done(&r);
}

/* Same model, same options: byte-identical C. */
static void deterministic(void **state)
{
    (void)state;
    char *text[2][2];
    for (int k = 0; k < 2; k++) {
        compiled r = compile(E2E "/cnn/model", NULL, NULL, 0);
        assert_int_equal(r.st, SM2C_OK);
        assert_int_equal(sm2c_emit_c_text(&r.t->ctx, r.p, &text[k][0], &text[k][1]), SM2C_OK);
        text[k][0] = strdup(text[k][0]);
        text[k][1] = strdup(text[k][1]);
        done(&r);
    }
    assert_string_equal(text[0][0], text[1][0]);
    assert_string_equal(text[0][1], text[1][1]);
    for (int k = 0; k < 2; k++)
        free(text[k][0]), free(text[k][1]);
}

/* ---- small graphs for the error paths --------------------------------------------- */

typedef struct graph_model {
    Tensorflow__SavedModel sm;
    Tensorflow__MetaGraphDef mg, *mgs[1];
    Tensorflow__GraphDef g;
    Tensorflow__SignatureDef sd;
    Tensorflow__MetaGraphDef__SignatureDefEntry se, *ses[1];
    Tensorflow__SignatureDef__InputsEntry ie, *ies[1];
    Tensorflow__SignatureDef__OutputsEntry oe, *oes[1];
    Tensorflow__TensorInfo in, out;
    Tensorflow__NodeDef nodes[4], *np[4];
    Tensorflow__NodeDef__AttrEntry dtype_e, *attrs[1];
    Tensorflow__AttrValue dtype_v;
    Tensorflow__FunctionDefLibrary lib;
    Tensorflow__FunctionDef fn, *fns[1];
    Tensorflow__OpDef sig;
    Tensorflow__OpDef__ArgDef arg, ret_arg, *args[1], *rets[1];
    Tensorflow__FunctionDef__RetEntry re, *res[1];
    Tensorflow__NodeDef body, *bodies[1];
    Tensorflow__NodeDef__AttrEntry f_e, *f_attrs[1];
    Tensorflow__AttrValue f_v;
    Tensorflow__NameAttrList f_name;
    char *inputs[2];
} graph_model;

/* x (Placeholder float) -> `op`(x [, x]) -> signature "s" output "y". */
static void graph_init(graph_model *m, const char *op, int n_inputs)
{
    memset(m, 0, sizeof *m);
    tensorflow__saved_model__init(&m->sm);
    tensorflow__meta_graph_def__init(&m->mg);
    tensorflow__graph_def__init(&m->g);
    tensorflow__signature_def__init(&m->sd);
    tensorflow__meta_graph_def__signature_def_entry__init(&m->se);
    tensorflow__signature_def__inputs_entry__init(&m->ie);
    tensorflow__signature_def__outputs_entry__init(&m->oe);
    tensorflow__tensor_info__init(&m->in);
    tensorflow__tensor_info__init(&m->out);
    tensorflow__attr_value__init(&m->dtype_v);
    tensorflow__node_def__attr_entry__init(&m->dtype_e);
    for (int i = 0; i < 4; i++) {
        tensorflow__node_def__init(&m->nodes[i]);
        m->np[i] = &m->nodes[i];
    }
    m->dtype_v.value_case = TENSORFLOW__ATTR_VALUE__VALUE_TYPE;
    m->dtype_v.type = TENSORFLOW__DATA_TYPE__DT_FLOAT;
    m->dtype_e.key = "dtype";
    m->dtype_e.value = &m->dtype_v;
    m->attrs[0] = &m->dtype_e;
    m->nodes[0].name = "x";
    m->nodes[0].op = "Placeholder";
    m->nodes[0].n_attr = 1;
    m->nodes[0].attr = m->attrs;
    m->inputs[0] = m->inputs[1] = "x";
    m->nodes[1].name = "y";
    m->nodes[1].op = (char *)op;
    m->nodes[1].n_input = (size_t)n_inputs;
    m->nodes[1].input = m->inputs;
    m->g.n_node = 2;
    m->g.node = m->np;
    m->in.encoding_case = TENSORFLOW__TENSOR_INFO__ENCODING_NAME;
    m->in.name = "x:0";
    m->in.dtype = TENSORFLOW__DATA_TYPE__DT_FLOAT;
    m->out.encoding_case = TENSORFLOW__TENSOR_INFO__ENCODING_NAME;
    m->out.name = "y:0";
    m->ie.key = "x";
    m->ie.value = &m->in;
    m->ies[0] = &m->ie;
    m->oe.key = "y";
    m->oe.value = &m->out;
    m->oes[0] = &m->oe;
    m->sd.n_inputs = 1;
    m->sd.inputs = m->ies;
    m->sd.n_outputs = 1;
    m->sd.outputs = m->oes;
    m->se.key = "s";
    m->se.value = &m->sd;
    m->ses[0] = &m->se;
    m->mg.n_signature_def = 1;
    m->mg.signature_def = m->ses;
    m->mg.graph_def = &m->g;
    m->mgs[0] = &m->mg;
    m->sm.saved_model_schema_version = 1;
    m->sm.n_meta_graphs = 1;
    m->sm.meta_graphs = m->mgs;
}

/* A library function "f" whose body calls "f" again. */
static void add_recursive_function(graph_model *m)
{
    tensorflow__function_def_library__init(&m->lib);
    tensorflow__function_def__init(&m->fn);
    tensorflow__op_def__init(&m->sig);
    tensorflow__op_def__arg_def__init(&m->arg);
    tensorflow__op_def__arg_def__init(&m->ret_arg);
    tensorflow__function_def__ret_entry__init(&m->re);
    tensorflow__node_def__init(&m->body);
    tensorflow__node_def__attr_entry__init(&m->f_e);
    tensorflow__attr_value__init(&m->f_v);
    tensorflow__name_attr_list__init(&m->f_name);
    m->arg.name = "a";
    m->arg.type = TENSORFLOW__DATA_TYPE__DT_FLOAT;   /* a real dtype: the check is for recursion */
    m->args[0] = &m->arg;
    m->ret_arg.name = "r";
    m->ret_arg.type = TENSORFLOW__DATA_TYPE__DT_FLOAT;
    m->rets[0] = &m->ret_arg;
    m->sig.name = "f";
    m->sig.n_input_arg = 1;
    m->sig.input_arg = m->args;
    m->sig.n_output_arg = 1;
    m->sig.output_arg = m->rets;
    m->f_name.name = "f";
    m->f_v.value_case = TENSORFLOW__ATTR_VALUE__VALUE_FUNC;
    m->f_v.func = &m->f_name;
    m->f_e.key = "f";
    m->f_e.value = &m->f_v;
    m->f_attrs[0] = &m->f_e;
    static char *body_in[] = { "a" };
    m->body.name = "call";
    m->body.op = "PartitionedCall";
    m->body.n_input = 1;
    m->body.input = body_in;
    m->body.n_attr = 1;
    m->body.attr = m->f_attrs;
    m->bodies[0] = &m->body;
    m->re.key = "r";
    m->re.value = "call:output:0";
    m->res[0] = &m->re;
    m->fn.signature = &m->sig;
    m->fn.n_node_def = 1;
    m->fn.node_def = m->bodies;
    m->fn.n_ret = 1;
    m->fn.ret = m->res;
    m->fns[0] = &m->fn;
    m->lib.n_function = 1;
    m->lib.function = m->fns;
    m->g.library = &m->lib;
    /* The graph calls f too. */
    m->nodes[1].op = "PartitionedCall";
    m->nodes[1].n_attr = 1;
    m->nodes[1].attr = m->f_attrs;
}

static compiled compile_graph(graph_model *m, char **dir)
{
    *dir = fs_tmpdir();
    int64_t one[2] = { 1, 4 };
    static sm2c_shape_opt opt;
    opt.key = "x";
    opt.shape = (sm2c_shape){ 2, one };
    size_t len = protobuf_c_message_get_packed_size(&m->sm.base);
    uint8_t *buf = malloc(len);
    protobuf_c_message_pack(&m->sm.base, buf);
    fs_write(*dir, "saved_model.pb", buf, len);
    free(buf);
    return compile(*dir, "s", &opt, 1);
}

static void wrong_arity(void **state)
{
    (void)state;
    graph_model m;
    graph_init(&m, "Conv2D", 1);
    char *dir;
    compiled r = compile_graph(&m, &dir);
    assert_int_equal(r.st, SM2C_ERR_INVALID);
    assert_error_contains(r.t, "saved_model.pb: 'y' (Conv2D): error: expects 2 inputs, got 1");
    done(&r);
    fs_rm_rf(dir);
}

static void unsupported_op(void **state)
{
    (void)state;
    graph_model m;
    graph_init(&m, "FrobnicateV7", 1);
    char *dir;
    compiled r = compile_graph(&m, &dir);
    assert_int_equal(r.st, SM2C_ERR_UNSUPPORTED);
    assert_error_contains(r.t, "'y' (FrobnicateV7): error: op 'FrobnicateV7' is not supported");
    done(&r);
    fs_rm_rf(dir);
}

static void recursive_function(void **state)
{
    (void)state;
    graph_model m;
    graph_init(&m, "Relu", 1);
    add_recursive_function(&m);
    char *dir;
    compiled r = compile_graph(&m, &dir);
    assert_int_equal(r.st, SM2C_ERR_INVALID);
    assert_error_contains(r.t, "function 'f': error: is recursive (f -> f)");
    done(&r);
    fs_rm_rf(dir);
}

/* The small graph compiles when the op is fine: the error paths are not the only path. */
static void small_graph_compiles(void **state)
{
    (void)state;
    graph_model m;
    graph_init(&m, "AddV2", 2);
    char *dir;
    compiled r = compile_graph(&m, &dir);
    if (r.st)
        fail_msg("%s", r.t->diag.first);
    assert_int_equal(r.p->n_entries, 1);
    assert_int_equal(count_kernel(&r.p->entries[0], "sm2c_rt_add_f32"), 1);
    done(&r);
    fs_rm_rf(dir);
}

/* An int array argument that does not fit the kernels' int32 is flagged for
** sm2c_lower_node to refuse, never passed on truncated. */
static void int_array_overflow_flagged(void **state)
{
    (void)state;
    test_ctx *t = test_ctx_new();
    sm2c_lower l = { .c = &t->ctx };
    const int64_t ok[2] = { 3, INT32_MAX }, big[2] = { 3, INT64_C(1) << 40 };
    sm2c_arg a = sm2c_arg_ints(&l, 2, ok);
    assert_int_equal(l.ints_overflow, 0);
    assert_int_equal(a.ints[1], INT32_MAX);
    a = sm2c_arg_ints(&l, 2, big);
    assert_true(l.ints_overflow == (INT64_C(1) << 40));
    assert_int_equal(a.ints[0], 3);
    test_ctx_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fuses_dense_relu),
        cmocka_unit_test(fuses_add_bias),
        cmocka_unit_test(folds_keras3_batch_norm),
        cmocka_unit_test(fuses_layer_norm),
        cmocka_unit_test(einsum_picks_operand_order),
        cmocka_unit_test(batched_ports),
        cmocka_unit_test(folds_batch_norm),
        cmocka_unit_test(fuses_new_activations),
        cmocka_unit_test(folds_shape_arithmetic),
        cmocka_unit_test(unknown_dims),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(wrong_arity),
        cmocka_unit_test(unsupported_op),
        cmocka_unit_test(recursive_function),
        cmocka_unit_test(small_graph_compiles),
        cmocka_unit_test(int_array_overflow_flagged),
    };
    return cmocka_run_group_tests_name("compile", tests, NULL, NULL);
}
