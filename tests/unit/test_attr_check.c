/*
** test_attr_check.c: attribute value checks (docs/reliability.md N5, N6, N8) and
** attr type confusion, on NodeDefs built in the test.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sm2c_test.h"
#include "load/attr_check.h"

/* The test being run; the builders below allocate from its arena. */
static test_ctx *T;

/* Every diagnostic line of the test, one per line. */
static char lines[16384];

static void collect(void *user, const char *line)
{
    (void)user;
    size_t used = strlen(lines);
    snprintf(lines + used, sizeof lines - used, "%s\n", line);
}

static int setup(void **state)
{
    T = test_ctx_new();
    T->diag.fn = collect;
    lines[0] = 0;
    *state = T;
    return 0;
}

static int teardown(void **state)
{
    test_ctx_free(*state);
    T = NULL;
    return 0;
}

#define assert_lines_contain(needle)                                                  \
    do {                                                                              \
        if (!strstr(lines, (needle)))                                                 \
            fail_msg("diagnostics \"%s\" lack \"%s\"", lines, (needle));              \
    } while (0)

static void *alloc(size_t n)
{
    return sm2c_arena_alloc(T->arena, n);
}

/* ---- AttrValue builders ------------------------------------------------------ */

static Tensorflow__AttrValue *attr_new(int value_case)
{
    Tensorflow__AttrValue *v = alloc(sizeof *v);
    tensorflow__attr_value__init(v);
    v->value_case = (Tensorflow__AttrValue__ValueCase)value_case;
    return v;
}

static Tensorflow__AttrValue *I(int64_t i)
{
    Tensorflow__AttrValue *v = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_I);
    v->i = i;
    return v;
}

static Tensorflow__AttrValue *F(float f)
{
    Tensorflow__AttrValue *v = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_F);
    v->f = f;
    return v;
}

static Tensorflow__AttrValue *B(int b)
{
    Tensorflow__AttrValue *v = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_B);
    v->b = b;
    return v;
}

static Tensorflow__AttrValue *S(const char *s)
{
    Tensorflow__AttrValue *v = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_S);
    v->s.data = (uint8_t *)sm2c_arena_strdup(T->arena, s);
    v->s.len = strlen(s);
    return v;
}

static Tensorflow__AttrValue *TY(int dt)
{
    Tensorflow__AttrValue *v = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_TYPE);
    v->type = (Tensorflow__DataType)dt;
    return v;
}

static Tensorflow__AttrValue__ListValue *list_new(Tensorflow__AttrValue **out)
{
    *out = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_LIST);
    Tensorflow__AttrValue__ListValue *l = alloc(sizeof *l);
    tensorflow__attr_value__list_value__init(l);
    (*out)->list = l;
    return l;
}

static Tensorflow__AttrValue *ints_attr(size_t n, const int64_t *v)
{
    Tensorflow__AttrValue *a;
    Tensorflow__AttrValue__ListValue *l = list_new(&a);
    l->n_i = n;
    l->i = alloc(n * sizeof *l->i + 1);
    memcpy(l->i, v, n * sizeof *v);
    return a;
}

static Tensorflow__AttrValue *floats_attr(size_t n, const float *v)
{
    Tensorflow__AttrValue *a;
    Tensorflow__AttrValue__ListValue *l = list_new(&a);
    l->n_f = n;
    l->f = alloc(n * sizeof *l->f + 1);
    memcpy(l->f, v, n * sizeof *v);
    return a;
}

static Tensorflow__AttrValue *types_attr(size_t n, const int *v)
{
    Tensorflow__AttrValue *a;
    Tensorflow__AttrValue__ListValue *l = list_new(&a);
    l->n_type = n;
    l->type = alloc(n * sizeof *l->type + 1);
    for (size_t i = 0; i < n; i++)
        l->type[i] = (Tensorflow__DataType)v[i];
    return a;
}

#define COUNT(type, ...) (sizeof((type[]){ __VA_ARGS__ }) / sizeof(type))
#define INTS(...) ints_attr(COUNT(int64_t, __VA_ARGS__), (int64_t[]){ __VA_ARGS__ })
#define FLOATS(...) floats_attr(COUNT(float, __VA_ARGS__), (float[]){ __VA_ARGS__ })
#define TYPES(...) types_attr(COUNT(int, __VA_ARGS__), (int[]){ __VA_ARGS__ })

/* ---- TensorProto builders ---------------------------------------------------- */

static Tensorflow__TensorProto *tensor(int dtype, size_t rank, const int64_t *dims)
{
    Tensorflow__TensorProto *p = alloc(sizeof *p);
    tensorflow__tensor_proto__init(p);
    p->dtype = (Tensorflow__DataType)dtype;
    Tensorflow__TensorShapeProto *s = alloc(sizeof *s);
    tensorflow__tensor_shape_proto__init(s);
    s->n_dim = rank;
    s->dim = alloc((rank + 1) * sizeof *s->dim);
    for (size_t i = 0; i < rank; i++) {
        s->dim[i] = alloc(sizeof *s->dim[i]);
        tensorflow__tensor_shape_proto__dim__init(s->dim[i]);
        s->dim[i]->size = dims[i];
    }
    p->tensor_shape = s;
    return p;
}

/* An int32 vector [n] (or a scalar when `scalar`). */
static Tensorflow__TensorProto *i32(int scalar, size_t n, const int32_t *v)
{
    int64_t dim = (int64_t)n;
    Tensorflow__TensorProto *p = tensor(SM2C_DT_INT32, scalar ? 0 : 1, &dim);
    p->n_int_val = n;
    p->int_val = alloc(n * sizeof *v + 1);
    memcpy(p->int_val, v, n * sizeof *v);
    return p;
}

static Tensorflow__TensorProto *i64(int scalar, size_t n, const int64_t *v)
{
    int64_t dim = (int64_t)n;
    Tensorflow__TensorProto *p = tensor(SM2C_DT_INT64, scalar ? 0 : 1, &dim);
    p->n_int64_val = n;
    p->int64_val = alloc(n * sizeof *v + 1);
    memcpy(p->int64_val, v, n * sizeof *v);
    return p;
}

static Tensorflow__TensorProto *f32(int scalar, size_t n, const float *v)
{
    int64_t dim = (int64_t)n;
    Tensorflow__TensorProto *p = tensor(SM2C_DT_FLOAT, scalar ? 0 : 1, &dim);
    p->n_float_val = n;
    p->float_val = alloc(n * sizeof *v + 1);
    memcpy(p->float_val, v, n * sizeof *v);
    return p;
}

#define I32V(...) i32(0, COUNT(int32_t, __VA_ARGS__), (int32_t[]){ __VA_ARGS__ })
#define I32S(x) i32(1, 1, (int32_t[]){ x })
#define I64S(x) i64(1, 1, (int64_t[]){ x })
#define F32V(...) f32(0, COUNT(float, __VA_ARGS__), (float[]){ __VA_ARGS__ })
#define F32S(x) f32(1, 1, (float[]){ x })
/* A float tensor of zeros with the given shape (only its shape matters). */
#define ZEROS(...) tensor(SM2C_DT_FLOAT, COUNT(int64_t, __VA_ARGS__), (int64_t[]){ __VA_ARGS__ })

/* ---- NodeDef builders -------------------------------------------------------- */

/* node("c", "Conv2D", "x,w,^dep", "strides", INTS(1,2,2,1), ..., NULL) */
static Tensorflow__NodeDef *node(const char *name, const char *op, const char *inputs, ...)
{
    Tensorflow__NodeDef *n = alloc(sizeof *n);
    tensorflow__node_def__init(n);
    n->name = sm2c_arena_strdup(T->arena, name);
    n->op = sm2c_arena_strdup(T->arena, op);
    n->input = alloc(16 * sizeof *n->input);
    for (const char *p = inputs; *p;) {
        size_t len = strcspn(p, ",");
        n->input[n->n_input++] = sm2c_arena_strndup(T->arena, p, len);
        p += len + (p[len] == ',');
    }
    n->attr = alloc(16 * sizeof *n->attr);
    va_list ap;
    va_start(ap, inputs);
    for (const char *key; (key = va_arg(ap, const char *));) {
        Tensorflow__NodeDef__AttrEntry *e = alloc(sizeof *e);
        tensorflow__node_def__attr_entry__init(e);
        e->key = sm2c_arena_strdup(T->arena, key);
        e->value = va_arg(ap, Tensorflow__AttrValue *);
        n->attr[n->n_attr++] = e;
    }
    va_end(ap);
    return n;
}

static Tensorflow__NodeDef *cnode(const char *name, Tensorflow__TensorProto *value)
{
    Tensorflow__AttrValue *v = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_TENSOR);
    v->tensor = value;
    return node(name, "Const", "", "value", v, "dtype", TY((int)value->dtype), NULL);
}

static Tensorflow__NodeDef *placeholder(const char *name)
{
    return node(name, "Placeholder", "", "dtype", TY(SM2C_DT_FLOAT), NULL);
}

/* A float Placeholder (or another op taking a `shape` attr, like
** PlaceholderWithDefault) with a static shape; -1 is an unknown dim. */
static Tensorflow__NodeDef *shaped(const char *name, const char *op, const char *inputs,
                                   size_t rank, const int64_t *dims)
{
    Tensorflow__AttrValue *v = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_SHAPE);
    v->shape = tensor(SM2C_DT_FLOAT, rank, dims)->tensor_shape;
    return node(name, op, inputs, "dtype", TY(SM2C_DT_FLOAT), "shape", v, NULL);
}

#define PH(name, ...) shaped(name, "Placeholder", "", COUNT(int64_t, __VA_ARGS__), \
                             (int64_t[]){ __VA_ARGS__ })

#define GRAPH(...) (Tensorflow__NodeDef *[]){ __VA_ARGS__ }, COUNT(Tensorflow__NodeDef *, __VA_ARGS__)

static void reset_diag(void)
{
    sm2c_diag_init(&T->diag);
    T->diag.fn = collect;
    lines[0] = 0;
}

static sm2c_status check(Tensorflow__NodeDef **nodes, size_t n)
{
    return sm2c_check_graph_attrs(&T->ctx, "saved_model.pb", NULL, nodes, n);
}

static sm2c_status check_fn(const char *function, Tensorflow__NodeDef **nodes, size_t n)
{
    return sm2c_check_graph_attrs(&T->ctx, "saved_model.pb", function, nodes, n);
}

/* One bad node: exactly one error, with this status and text. */
#define EXPECT_ONE(status, text, ...)                                                 \
    do {                                                                              \
        reset_diag();                                                                 \
        assert_int_equal(check(GRAPH(__VA_ARGS__)), (status));                        \
        assert_error_contains(T, (text));                                             \
        if (T->diag.errors != 1)                                                      \
            fail_msg("expected one error, got %d:\n%s", T->diag.errors, lines);       \
    } while (0)

static Tensorflow__NodeDef *conv(const char *op, Tensorflow__AttrValue *strides,
                                 Tensorflow__AttrValue *padding)
{
    return node("c", op, "x,w", "T", TY(SM2C_DT_FLOAT), "strides", strides, "padding",
                padding, NULL);
}

/* ---- valid nodes -------------------------------------------------------------- */

static void accepts_typical_graph(void **state)
{
    (void)state;
    Tensorflow__NodeDef *g[] = {
        placeholder("x"), cnode("w", ZEROS(3, 3, 1, 8)),
        node("c", "Conv2D", "x,w", "T", TY(SM2C_DT_FLOAT), "strides", INTS(1, 2, 2, 1),
             "padding", S("SAME"), "data_format", S("NHWC"), "dilations", INTS(1, 1, 1, 1),
             "explicit_paddings", ints_attr(0, (int64_t[]){ 0 }), "use_cudnn_on_gpu", B(1), NULL),
        node("p", "MaxPool", "c", "ksize", INTS(1, 2, 2, 1), "strides", INTS(1, 2, 2, 1),
             "padding", S("VALID"), "data_format", S("NHWC"), NULL),
        node("d", "DepthwiseConv2dNative", "p,w", "strides", INTS(1, 1, 1, 1), "padding",
             S("EXPLICIT"), "explicit_paddings", INTS(0, 0, 1, 1, 1, 1, 0, 0), NULL),
        node("c3", "Conv3D", "x,w", "strides", INTS(1, 1, 2, 2, 1), "padding", S("SAME"),
             "data_format", S("NCDHW"), NULL),
        node("ap3", "AvgPool3D", "x", "ksize", INTS(1, 2, 2, 2, 1), "strides",
             INTS(1, 2, 2, 2, 1), "padding", S("VALID"), NULL),
        cnode("t_in", ZEROS(2, 3, 4)), cnode("perm", I32V(0, 2, 1)),
        node("t", "Transpose", "t_in,perm", "T", TY(SM2C_DT_FLOAT), "Tperm", TY(SM2C_DT_INT32),
             NULL),
        cnode("shape", I32V(-1, 784)),
        node("r", "Reshape", "x,shape:0", "T", TY(SM2C_DT_FLOAT), "Tshape", TY(SM2C_DT_INT32),
             NULL),
        cnode("r_in", ZEROS(2, 392)), node("r2", "Reshape", "r_in,shape", NULL),
        cnode("axis", I32S(-1)),
        node("cat", "ConcatV2", "t_in,t_in,axis,^x", "N", I(2), "T", TY(SM2C_DT_FLOAT),
             "Tidx", TY(SM2C_DT_INT32), NULL),
        node("add", "AddN", "x,x,x", "N", I(3), "T", TY(SM2C_DT_FLOAT), NULL),
        node("pk", "Pack", "t_in,t_in", "N", I(2), "axis", I(-4), NULL),
        node("idn", "IdentityN", "x,axis", "T", TYPES(SM2C_DT_FLOAT, SM2C_DT_INT32), NULL),
        cnode("params", ZEROS(10, 4)), cnode("idx", I32V(0, 9, 3)), cnode("zero", I32S(0)),
        node("g", "GatherV2", "params,idx,zero", "batch_dims", I(0), NULL),
        cnode("r0", I64S(0)), cnode("r10", I64S(10)), cnode("r1", I64S(1)),
        node("range", "Range", "r0,r10,r1", "Tidx", TY(SM2C_DT_INT64), NULL),
        cnode("dims", I32V(2, 3)), node("fill", "Fill", "dims,x", NULL),
        cnode("mult", I32V(2, 2)), cnode("tile_in", ZEROS(3, 3)),
        node("tile", "Tile", "tile_in,mult", NULL),
        cnode("qmin", F32S(-1.0f)), cnode("qmax", F32S(1.0f)),
        node("q", "QuantizeV2", "x,qmin,qmax", "T", TY(SM2C_DT_QUINT8), "mode",
             S("MIN_COMBINED"), "round_mode", S("HALF_AWAY_FROM_ZERO"), NULL),
        node("fq", "FakeQuantWithMinMaxArgs", "x", "min", F(-6.0f), "max", F(6.0f), "num_bits",
             I(8), "narrow_range", B(0), NULL),
        cnode("split_in", ZEROS(4, 2)),
        node("split", "Split", "zero,split_in", "num_split", I(2), NULL),
        node("up", "Unpack", "split_in", "num", I(4), "axis", I(0), NULL),
        cnode("depth", I32S(10)), node("oh", "OneHot", "idx,depth,qmin,qmax", "axis", I(-1), NULL),
        node("ph", "Placeholder", "", "dtype", TY(SM2C_DT_FLOAT), NULL),
        node("bias", "BiasAdd", "x,x", "data_format", S("NCHW"), NULL),
        node("s2d", "SpaceToDepth", "x", "block_size", I(2), NULL),
    };
    assert_int_equal(check(g, sizeof g / sizeof g[0]), SM2C_OK);
    if (T->diag.errors)
        fail_msg("unexpected errors:\n%s", lines);
}

/* Function bodies name outputs "n:output:0"; absent attrs are fine. */
static void accepts_function_body_and_absent_attrs(void **state)
{
    (void)state;
    assert_int_equal(check_fn("__inference_f_12", GRAPH(
        node("c", "Conv2D", "x,w", NULL), node("m", "MaxPool", "c:output:0", NULL),
        cnode("perm", I32V(1, 0)),
        node("t", "Transpose", "m:output:0,perm:output:0", NULL),
        node("a", "AddN", "", NULL), node("u", "SomeUnknownOp", "a", "strides", INTS(0),
                                           NULL))), SM2C_OK);
    /* SomeUnknownOp's strides are list(int) and may be anything. */
    assert_int_equal(T->diag.errors, 0);
}

static void accepts_placeholder_attr_values(void **state)
{
    (void)state;
    Tensorflow__AttrValue *ph = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_PLACEHOLDER);
    ph->placeholder = "T";
    assert_int_equal(check(GRAPH(node("c", "Conv2D", "x,w", "T", ph, "strides",
                                      INTS(1, 1, 1, 1), "padding", S("VALID"), NULL))),
                     SM2C_OK);
}

/* ---- N5: windows ------------------------------------------------------------- */

static void stride_zero(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID,
               "saved_model.pb: 'c' (Conv2D): error: attr 'strides' entry 1 is 0 (must be >= 1)",
               conv("Conv2D", INTS(1, 0, 2, 1), S("SAME")));
}

static void stride_negative(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'strides' entry 2 is -1 (must be >= 1)",
               conv("Conv3D", INTS(1, 1, -1, 1, 1), S("VALID")));
}

static void stride_huge(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_LIMIT, "attr 'strides' entry 1 is 9223372036854775807, over the element limit",
               conv("Conv2D", INTS(1, INT64_MAX, 1, 1), S("SAME")));
}

static void strides_wrong_length(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'strides' has 3 entries, Conv2D needs 4",
               conv("Conv2D", INTS(1, 2, 1), S("SAME")));
}

static void strides_wrong_length_3d(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'strides' has 4 entries, Conv3D needs 5",
               conv("Conv3D", INTS(1, 2, 2, 1), S("SAME")));
}

static void dilation_zero(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'d' (DepthwiseConv2dNative): error: attr 'dilations' entry 2 is 0",
               node("d", "DepthwiseConv2dNative", "x,w", "strides", INTS(1, 1, 1, 1),
                    "dilations", INTS(1, 1, 0, 1), "padding", S("SAME"), NULL));
}

static void backprop_input_stride(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'c' (Conv2DBackpropInput): error: attr 'strides' entry 3 is -2",
               conv("Conv2DBackpropInput", INTS(1, 1, 1, -2), S("SAME")));
}

static void ksize_zero(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (MaxPool): error: attr 'ksize' entry 1 is 0",
               node("p", "MaxPool", "x", "ksize", INTS(1, 0, 2, 1), "strides",
                    INTS(1, 2, 2, 1), "padding", S("VALID"), NULL));
}

static void ksize_avg_pool(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (AvgPool): error: attr 'ksize' has 2 entries, AvgPool needs 4",
               node("p", "AvgPool", "x", "ksize", INTS(2, 2), "strides", INTS(1, 1, 1, 1),
                    NULL));
}

static void ksize_pool3d(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (MaxPool3D): error: attr 'ksize' entry 4 is -1",
               node("p", "MaxPool3D", "x", "ksize", INTS(1, 2, 2, 2, -1), "strides",
                    INTS(1, 1, 1, 1, 1), "padding", S("SAME"), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (AvgPool3D): error: attr 'ksize' has 4 entries, AvgPool3D needs 5",
               node("p", "AvgPool3D", "x", "ksize", INTS(1, 2, 2, 1), NULL));
}

static void max_pool_v2_const_ksize(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (MaxPoolV2): error: input 'ksize' entry 2 is 0",
               cnode("k", I32V(1, 2, 0, 1)), cnode("s", I32V(1, 1, 1, 1)),
               node("p", "MaxPoolV2", "x,k,s", "padding", S("SAME"), NULL));
}

static void padding_unknown(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID,
               "attr 'padding' is \"FULL\", expected SAME, VALID or EXPLICIT",
               conv("Conv2D", INTS(1, 1, 1, 1), S("FULL")));
}

static void padding_explicit_not_allowed(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (AvgPool): error: padding EXPLICIT is not allowed for AvgPool",
               node("p", "AvgPool", "x", "padding", S("EXPLICIT"), NULL));
}

static void explicit_paddings_negative(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'explicit_paddings' entry 3 is -1",
               node("c", "Conv2D", "x,w", "padding", S("EXPLICIT"), "explicit_paddings",
                    INTS(0, 0, 1, -1, 1, 1, 0, 0), NULL));
}

static void explicit_paddings_odd(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'explicit_paddings' has an odd number of entries (5)",
               node("c", "Conv2D", "x,w", "padding", S("EXPLICIT"), "explicit_paddings",
                    INTS(0, 0, 1, 1, 1), NULL));
}

static void explicit_paddings_wrong_length(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'explicit_paddings' has 6 entries, padding EXPLICIT needs 8",
               node("c", "MaxPool", "x", "padding", S("EXPLICIT"), "explicit_paddings",
                    INTS(0, 0, 1, 1, 1, 1), NULL));
}

static void explicit_paddings_without_explicit(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'explicit_paddings' is set but padding is not EXPLICIT",
               node("c", "Conv2D", "x,w", "padding", S("SAME"), "explicit_paddings",
                    INTS(0, 0, 1, 1, 1, 1, 0, 0), NULL));
}

static void data_format_unknown(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'data_format' is \"NCWH\", expected one of NHWC, NCHW",
               node("c", "Conv2D", "x,w", "data_format", S("NCWH"), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'c' (Conv3D): error: attr 'data_format' is \"NHWC\", expected one of NDHWC, NCDHW",
               node("c", "Conv3D", "x,w", "data_format", S("NHWC"), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'b' (BiasAdd): error: attr 'data_format' is \"\"",
               node("b", "BiasAdd", "x,y", "data_format", S(""), NULL));
}

static void block_size_one(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'block_size' is 1 (must be >= 2)",
               node("d", "DepthToSpace", "x", "block_size", I(1), NULL));
}

/* ---- N5: permutations, reshapes, axes ---------------------------------------- */

static void perm_duplicate(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID,
               "'t' (Transpose): error: perm [0,0,1] is not a permutation (0 appears twice)",
               cnode("perm", I32V(0, 0, 1)), node("t", "Transpose", "x,perm", NULL));
}

static void perm_out_of_range(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "perm [0,3,1] is not a permutation (3 is out of range)",
               cnode("perm", I32V(0, 3, 1)), node("t", "Transpose", "x,perm:0", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "perm [-1,0] is not a permutation (-1 is out of range)",
               cnode("perm", I32V(-1, 0)), node("t", "Transpose", "x,perm", NULL));
}

/* Through Identity, in a function body, and against the input's rank. */
static void perm_identity_and_rank(void **state)
{
    (void)state;
    assert_int_equal(check_fn("__inference_f_7", GRAPH(
        cnode("perm", I32V(1, 1)), node("id", "Identity", "perm:output:0", NULL),
        node("t", "Transpose", "x,id:output:0", NULL))), SM2C_ERR_INVALID);
    assert_error_contains(T, "saved_model.pb: __inference_f_7: 't' (Transpose): error: perm [1,1] "
                             "is not a permutation (1 appears twice)");
    EXPECT_ONE(SM2C_ERR_INVALID, "perm [0,2,1] has 3 entries but the input has rank 2",
               cnode("in", ZEROS(2, 3)), cnode("perm", I32V(0, 2, 1)),
               node("t", "Transpose", "in,perm", NULL));
}

static void reshape_two_minus_ones(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'r' (Reshape): error: shape [-1,-1] has more than one -1",
               cnode("s", I32V(-1, -1)), node("r", "Reshape", "x,s", NULL));
}

static void reshape_negative_dim(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "shape [2,-3] has a negative entry",
               cnode("s", I32V(2, -3)), node("r", "Reshape", "x,s", NULL));
}

static void reshape_size_mismatch(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "cannot reshape 6 elements to shape [4,2]",
               cnode("in", ZEROS(2, 3)), cnode("s", I32V(4, 2)),
               node("r", "Reshape", "in,s", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "cannot reshape 6 elements to shape [4,-1]",
               cnode("in", ZEROS(2, 3)), cnode("s", I32V(4, -1)),
               node("r", "Reshape", "in,s", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "shape [0,-1] has a -1 next to a 0",
               cnode("in", ZEROS(0, 3)), cnode("s", I32V(0, -1)),
               node("r", "Reshape", "in,s", NULL));
}

static void reshape_overflow(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_LIMIT, "shape [65536,65536,-1] has more than 2147483647 elements",
               cnode("s", I32V(65536, 65536, -1)), node("r", "Reshape", "x,s", NULL));
}

static void concat_axis_out_of_range(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'cat' (ConcatV2): error: axis 2 is out of range for rank 2",
               cnode("a", ZEROS(2, 3)), cnode("axis", I32S(2)),
               node("cat", "ConcatV2", "a,a,axis", "N", I(2), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "axis -3 is out of range for rank 2",
               cnode("a", ZEROS(2, 3)), cnode("axis", I32S(-3)),
               node("cat", "Concat", "axis,a,a", "N", I(2), NULL));
}

static void pack_unpack_axis(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (Pack): error: attr 'axis' 3 is out of range for rank 3",
               cnode("a", ZEROS(2, 3)), node("p", "Pack", "a,a", "N", I(2), "axis", I(3), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'u' (Unpack): error: attr 'axis' -3 is out of range for rank 2",
               cnode("a", ZEROS(2, 3)), node("u", "Unpack", "a", "num", I(2), "axis", I(-3), NULL));
}

static void split_num_split(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'s' (Split): error: attr 'num_split' is 0 (must be >= 1)",
               node("s", "Split", "axis,x", "num_split", I(0), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'num_split' is -2 (must be >= 1)",
               node("s", "SplitV", "x,sizes,axis", "num_split", I(-2), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "dim 1 (size 3) is not divisible by num_split 2",
               cnode("in", ZEROS(4, 3)), cnode("axis", I32S(1)),
               node("s", "Split", "axis,in", "num_split", I(2), NULL));
}

static void unpack_num(void **state)
{
    (void)state;
    /* TensorFlow allows num = 0 (unpacking an empty axis); a negative count is nonsense. */
    EXPECT_ONE(SM2C_ERR_INVALID, "'u' (Unpack): error: attr 'num' is -1 (must be >= 0)",
               node("u", "Unpack", "x", "num", I(-1), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'num' is 3 but the unpacked dim has size 2",
               cnode("a", ZEROS(2, 5)), node("u", "Unpack", "a", "num", I(3), NULL));
}

static void one_hot_depth(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'oh' (OneHot): error: depth is -1 (must be >= 0)",
               cnode("depth", I32S(-1)), node("oh", "OneHot", "i,depth,on,off", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'axis' is -2 (must be >= -1)",
               node("oh", "OneHot", "i,depth,on,off", "axis", I(-2), NULL));
}

/* ---- N5: output sizes and groups, from static shapes -------------------------- */

static Tensorflow__NodeDef *conv_valid(const char *op, Tensorflow__AttrValue *strides)
{
    return node("c", op, "x,w", "strides", strides, "padding", S("VALID"), NULL);
}

static void conv_output_valid(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "saved_model.pb: 'c' (Conv2D): error: output dim H would be <= 0 "
               "(input 3, effective kernel 5, stride 1, VALID)",
               PH("x", 1, 3, 3, 1), cnode("w", ZEROS(5, 5, 1, 8)),
               conv_valid("Conv2D", INTS(1, 1, 1, 1)));
    /* Dilation widens the kernel: (3 - 1) * 5 + 1 = 11 > 10. */
    EXPECT_ONE(SM2C_ERR_INVALID, "output dim W would be <= 0 (input 10, effective kernel 11, "
               "stride 1, VALID)",
               PH("x", 1, 10, 10, 1), cnode("w", ZEROS(3, 3, 1, 1)),
               node("c", "Conv2D", "x,w", "strides", INTS(1, 1, 1, 1), "dilations",
                    INTS(1, 1, 5, 1), "padding", S("VALID"), NULL));
    /* Through Identity, a PlaceholderWithDefault input and a Placeholder filter;
    ** TF's truncating division gives 0 here: (2 - 5 + 2) / 2. */
    EXPECT_ONE(SM2C_ERR_INVALID, "'c' (DepthwiseConv2dNative): error: output dim H would be <= 0 "
               "(input 2, effective kernel 5, stride 2, VALID)",
               cnode("d", ZEROS(1, 2, 9, 3)),
               shaped("x0", "PlaceholderWithDefault", "d", 4, (int64_t[]){ 1, 2, 9, 3 }),
               node("x", "Identity", "x0", NULL), PH("w", 5, 5, 3, 2),
               conv_valid("DepthwiseConv2dNative", INTS(1, 2, 2, 1)));
    EXPECT_ONE(SM2C_ERR_INVALID, "'c' (Conv3D): error: output dim W would be <= 0 (input 4, "
               "effective kernel 5, stride 1, VALID)",
               PH("x", 1, 4, 4, 4, 2), cnode("w", ZEROS(3, 3, 5, 2, 4)),
               conv_valid("Conv3D", INTS(1, 1, 1, 1, 1)));
}

static void conv_output_nchw(void **state)
{
    (void)state;
    /* [1,1,3,8] is C=1, H=3, W=8 in NCHW: a 2x5 kernel fits. */
    assert_int_equal(check(GRAPH(PH("x", 1, 1, 3, 8), cnode("w", ZEROS(2, 5, 1, 4)),
                                 node("c", "Conv2D", "x,w", "strides", INTS(1, 1, 1, 1),
                                      "padding", S("VALID"), "data_format", S("NCHW"),
                                      NULL))), SM2C_OK);
    assert_int_equal(T->diag.errors, 0);
    /* The same shapes in NHWC: H=1 is too small for kh=2. */
    EXPECT_ONE(SM2C_ERR_INVALID, "output dim H would be <= 0 (input 1, effective kernel 2, "
               "stride 1, VALID)",
               PH("x", 1, 1, 3, 8), cnode("w", ZEROS(2, 5, 8, 4)),
               node("c", "Conv2D", "x,w", "strides", INTS(1, 1, 1, 1), "padding", S("VALID"),
                    "data_format", S("NHWC"), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "output dim W would be <= 0 (input 3, effective kernel 5, "
               "stride 1, VALID)",
               PH("x", 1, 1, 8, 3), cnode("w", ZEROS(2, 5, 1, 4)),
               node("c", "Conv2D", "x,w", "strides", INTS(1, 1, 1, 1), "padding", S("VALID"),
                    "data_format", S("NCHW"), NULL));
    /* NCDHW: D is dim 2. */
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (AvgPool3D): error: output dim D would be <= 0 (input 3, "
               "effective kernel 4, stride 1, VALID)",
               PH("x", 1, 2, 3, 4, 4),
               node("p", "AvgPool3D", "x", "ksize", INTS(1, 1, 4, 2, 2), "strides",
                    INTS(1, 1, 1, 1, 1), "padding", S("VALID"), "data_format", S("NCDHW"),
                    NULL));
}

static void conv_output_explicit(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "output dim H would be <= 0 (input 2, padding 1+1, effective "
               "kernel 5, stride 1, EXPLICIT)",
               PH("x", 1, 2, 2, 1), cnode("w", ZEROS(5, 5, 1, 1)),
               node("c", "Conv2D", "x,w", "strides", INTS(1, 1, 1, 1), "padding",
                    S("EXPLICIT"), "explicit_paddings", INTS(0, 0, 1, 1, 2, 2, 0, 0), NULL));
    /* Padding makes room: 2 + 2 + 2 - 5 + 1 = 2. */
    assert_int_equal(check(GRAPH(PH("x", 1, 2, 2, 1), cnode("w", ZEROS(5, 5, 1, 1)),
                                 node("c", "Conv2D", "x,w", "strides", INTS(1, 1, 1, 1),
                                      "padding", S("EXPLICIT"), "explicit_paddings",
                                      INTS(0, 0, 2, 2, 2, 2, 0, 0), NULL))), SM2C_OK);
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (MaxPool): error: output dim W would be <= 0 (input 2, "
               "padding 0+0, effective kernel 3, stride 1, EXPLICIT)",
               cnode("y", ZEROS(1, 4, 2, 1)),
               node("p", "MaxPool", "y", "ksize", INTS(1, 1, 3, 1), "strides", INTS(1, 1, 1, 1),
                    "padding", S("EXPLICIT"), "explicit_paddings", INTS(0, 0, 0, 0, 0, 0, 0, 0),
                    NULL));
}

static void pool_output(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (MaxPool): error: output dim H would be <= 0 (input 4, "
               "effective kernel 5, stride 2, VALID)",
               PH("x", 1, 4, 4, 3),
               node("p", "MaxPool", "x", "ksize", INTS(1, 5, 5, 1), "strides", INTS(1, 2, 2, 1),
                    "padding", S("VALID"), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (AvgPool): error: output dim W would be <= 0 (input 1, "
               "effective kernel 2, stride 1, VALID)",
               PH("x", 1, 3, 8, 1),
               node("p", "AvgPool", "x", "ksize", INTS(1, 1, 1, 2), "strides", INTS(1, 1, 1, 1),
                    "padding", S("VALID"), "data_format", S("NCHW"), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (MaxPool3D): error: output dim H would be <= 0",
               PH("x", 1, 4, 1, 4, 2),
               node("p", "MaxPool3D", "x", "ksize", INTS(1, 2, 2, 2, 1), "strides",
                    INTS(1, 1, 1, 1, 1), "padding", S("VALID"), NULL));
}

static void window_output_overflow(void **state)
{
    (void)state;
    const int64_t big = (int64_t)1 << 62;
    /* (2^62 - 1) * 3 + 1 does not fit. */
    EXPECT_ONE(SM2C_ERR_INVALID, "'c' (Conv2D): error: output dim H overflows int64 (input 5, "
               "kernel 4611686018427387904, dilation 3, stride 1)",
               PH("x", 1, 5, 5, 1), PH("w", big, 1, 1, 1),
               node("c", "Conv2D", "x,w", "strides", INTS(1, 1, 1, 1), "dilations",
                    INTS(1, 3, 1, 1), "padding", S("VALID"), NULL));
    /* in - k + stride: INT64_MAX - 1 + 2. */
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (MaxPool): error: output dim W overflows int64 (input "
               "9223372036854775807, kernel 1, dilation 1, stride 2)",
               PH("x", 1, 1, INT64_MAX, 1),
               node("p", "MaxPool", "x", "ksize", INTS(1, 1, 1, 1), "strides", INTS(1, 1, 2, 1),
                    "padding", S("VALID"), NULL));
    /* in + padding. */
    EXPECT_ONE(SM2C_ERR_INVALID, "output dim H overflows int64 (input 9223372036854775807, "
               "kernel 1, dilation 1, stride 1)",
               PH("x", 1, INT64_MAX, 1, 1), cnode("w", ZEROS(1, 1, 1, 1)),
               node("c", "Conv2D", "x,w", "strides", INTS(1, 1, 1, 1), "padding",
                    S("EXPLICIT"), "explicit_paddings", INTS(0, 0, 0, 1, 0, 0, 0, 0), NULL));
    /* Huge but representable: 2^62 wide, kernel 3, VALID is fine. */
    assert_int_equal(check(GRAPH(PH("x", 1, big, 3, 1), cnode("w", ZEROS(3, 3, 1, 1)),
                                 conv_valid("Conv2D", INTS(1, 1, 1, 1)))), SM2C_OK);
}

static void filter_zero_dims(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'c' (Conv2D): error: filter shape [0,3,1,8] has a zero "
               "spatial dim",
               PH("x", 1, 4, 4, 1), cnode("w", ZEROS(0, 3, 1, 8)),
               node("c", "Conv2D", "x,w", "strides", INTS(1, 1, 1, 1), "padding", S("SAME"),
                    NULL));
    /* No division by the zero in-channel count. */
    EXPECT_ONE(SM2C_ERR_INVALID, "'c' (Conv3D): error: filter shape [1,1,1,0,4] has 0 input "
               "channels",
               PH("x", 1, 4, 4, 4, 2), cnode("w", ZEROS(1, 1, 1, 0, 4)),
               node("c", "Conv3D", "x,w", "strides", INTS(1, 1, 1, 1, 1), "padding", S("SAME"),
                    NULL));
}

static void conv_groups(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'c' (Conv2D): error: input has 5 channels, not a multiple of "
               "the filter's 2 input channels",
               PH("x", 1, 8, 8, 5), cnode("w", ZEROS(3, 3, 2, 4)),
               conv("Conv2D", INTS(1, 1, 1, 1), S("SAME")));
    EXPECT_ONE(SM2C_ERR_INVALID, "filter has 6 output channels, not a multiple of the group "
               "count 4 (8 input channels / 2 per group)",
               PH("x", 1, 8, 8, 8), cnode("w", ZEROS(3, 3, 2, 6)),
               conv("Conv2D", INTS(1, 1, 1, 1), S("SAME")));
    /* NCDHW: channels are dim 1. */
    EXPECT_ONE(SM2C_ERR_INVALID, "'c' (Conv3D): error: input has 6 channels, not a multiple of "
               "the filter's 4 input channels",
               PH("x", 1, 6, 4, 4, 4), cnode("w", ZEROS(1, 1, 1, 4, 8)),
               node("c", "Conv3D", "x,w", "strides", INTS(1, 1, 1, 1, 1), "padding", S("SAME"),
                    "data_format", S("NCDHW"), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "input has 0 channels: the group count would be 0 (filter has "
               "2 input channels)",
               PH("x", 1, 8, 8, 0), cnode("w", ZEROS(3, 3, 2, 4)),
               conv("Conv2D", INTS(1, 1, 1, 1), S("SAME")));
}

/* Valid and unknown cases stay silent. */
static void window_shapes_silent(void **state)
{
    (void)state;
    Tensorflow__AttrValue *unknown_rank = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_SHAPE);
    unknown_rank->shape = tensor(SM2C_DT_FLOAT, 0, NULL)->tensor_shape;
    unknown_rank->shape->unknown_rank = 1;
    Tensorflow__NodeDef *g[] = {
        PH("tiny", 1, 1, 1, 1), cnode("w5", ZEROS(5, 5, 1, 8)),
        /* SAME never shrinks below 1. */
        node("same", "Conv2D", "tiny,w5", "strides", INTS(1, 1, 1, 1), "padding", S("SAME"),
             NULL),
        node("psame", "MaxPool", "tiny", "ksize", INTS(1, 5, 5, 1), "strides",
             INTS(1, 2, 2, 1), "padding", S("SAME"), NULL),
        /* Unknown dims, no shape attr, unknown rank, a non-Const producer. */
        PH("batch", -1, 3, 3, 1), placeholder("noshape"),
        node("ur", "Placeholder", "", "dtype", TY(SM2C_DT_FLOAT), "shape", unknown_rank, NULL),
        node("relu", "Relu", "tiny", NULL),
        node("c1", "Conv2D", "batch,w5", "strides", INTS(1, 1, 1, 1), "padding", S("VALID"),
             NULL),
        node("c2", "Conv2D", "noshape,w5", "strides", INTS(1, 1, 1, 1), "padding", S("VALID"),
             NULL),
        node("c3", "Conv2D", "ur,w5", "strides", INTS(1, 1, 1, 1), "padding", S("VALID"), NULL),
        node("c4", "Conv2D", "relu,w5", "strides", INTS(1, 1, 1, 1), "padding", S("VALID"),
             NULL),
        PH("wq", 5, -1, 1, 8),
        node("c5", "Conv2D", "tiny,wq", "strides", INTS(1, 1, 1, 1), "padding", S("VALID"),
             NULL),
        /* No padding or strides: required attrs, nothing to compute. */
        node("c6", "Conv2D", "tiny,w5", "strides", INTS(1, 1, 1, 1), NULL),
        node("c7", "Conv2D", "tiny,w5", "padding", S("VALID"), NULL),
        /* Input 0 of a backprop is a size vector, not an image. */
        cnode("sizes", I32V(1, 3, 3, 1)),
        node("bp", "Conv2DBackpropInput", "sizes,w5,tiny", "strides", INTS(1, 1, 1, 1),
             "padding", S("VALID"), NULL),
        /* A fitting VALID window, grouped convolutions that divide. */
        PH("x", 1, 8, 8, 8), cnode("w", ZEROS(3, 3, 2, 8)), cnode("w1", ZEROS(3, 3, 8, 3)),
        node("ok", "Conv2D", "x,w", "strides", INTS(1, 2, 2, 1), "padding", S("VALID"),
             NULL),
        node("dense", "Conv2D", "x,w1", "strides", INTS(1, 1, 1, 1), "padding", S("VALID"),
             NULL),
        PH("xc", 1, 6, 5, 5), cnode("wc", ZEROS(3, 3, 3, 4)),
        node("nchw", "Conv2D", "xc,wc", "strides", INTS(1, 1, 1, 1), "padding", S("VALID"),
             "data_format", S("NCHW"), NULL),
        /* Depthwise filters are [kh,kw,in,mult]: no group rule. */
        cnode("wd", ZEROS(3, 3, 8, 3)),
        node("dw", "DepthwiseConv2dNative", "x,wd", "strides", INTS(1, 1, 1, 1), "padding",
             S("VALID"), NULL),
        /* Ranks that do not fit the op are the shape pass's. */
        cnode("w3", ZEROS(9, 9, 9, 1, 1)),
        node("rk", "Conv2D", "x,w3", "strides", INTS(1, 1, 1, 1), "padding", S("VALID"), NULL),
        node("vc", "MaxPool", "x", "ksize", INTS(1, 9, 9, 1), "strides", INTS(1, 1, 1, 1),
             "padding", S("VALID"), "data_format", S("NCHW_VECT_C"), NULL),
    };
    assert_int_equal(check(g, sizeof g / sizeof g[0]), SM2C_OK);
    if (T->diag.errors)
        fail_msg("unexpected errors:\n%s", lines);
}

/* ---- N6: per-axis quantization ranges ----------------------------------------- */

static void per_axis_count(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'q' (QuantizeV2): error: min_range has 4 values but input dim "
               "1 has size 3",
               PH("x", 2, 3), cnode("mn", F32V(0, 0, 0, 0)), cnode("mx", F32V(1, 1, 1, 1)),
               node("q", "QuantizeV2", "x,mn,mx", "axis", I(1), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'q' (Dequantize): error: min_range has 2 values but input dim "
               "0 has size 5",
               cnode("x", ZEROS(5, 3)), cnode("mn", F32V(0, 0)), cnode("mx", F32V(1, 1)),
               node("q", "Dequantize", "x,mn,mx", "axis", I(0), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'q' (QuantizeAndDequantizeV4): error: input_min has 3 values "
               "but input dim 0 has size 4",
               PH("x", 4, 2), cnode("mn", F32V(0, 0, 0)), cnode("mx", F32V(1, 1, 1)),
               node("q", "QuantizeAndDequantizeV4", "x,mn,mx", "axis", I(0), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'q' (QuantizeAndDequantizeV2): error: input_min has 3 values "
               "but input dim 1 has size 2",
               PH("x", 4, 2), cnode("mn", F32V(0, 0, 0)), cnode("mx", F32V(1, 1, 1)),
               node("q", "QuantizeAndDequantizeV2", "x,mn,mx", "axis", I(1), NULL));
    /* Per channel means the last dim, even for one value. */
    EXPECT_ONE(SM2C_ERR_INVALID, "'fq' (FakeQuantWithMinMaxVarsPerChannel): error: min has 3 "
               "values but input dim 2 has size 5",
               PH("x", 2, 2, 5), cnode("mn", F32V(0, 0, 0)), cnode("mx", F32V(1, 1, 1)),
               node("fq", "FakeQuantWithMinMaxVarsPerChannel", "x,mn,mx", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "min has 1 values but input dim 1 has size 4",
               PH("x", 2, 4), cnode("mn", F32V(0)), cnode("mx", F32V(1)),
               node("fq", "FakeQuantWithMinMaxVarsPerChannel", "x,mn,mx", NULL));
}

static void per_axis_axis(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'q' (QuantizeV2): error: attr 'axis' is 2, out of range for "
               "an input of rank 2",
               PH("x", 2, 3), node("q", "QuantizeV2", "x,mn,mx", "axis", I(2), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'q' (QuantizeAndDequantizeV3): error: attr 'axis' is 0, out "
               "of range for an input of rank 0",
               shaped("x", "Placeholder", "", 0, NULL),
               node("q", "QuantizeAndDequantizeV3", "x,mn,mx,bits", "axis", I(0), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'q' (QuantizeAndDequantizeV2): error: attr 'axis' is -3 (must "
               "be >= -1)",
               PH("x", 2, 3), node("q", "QuantizeAndDequantizeV2", "x,mn,mx", "axis", I(-3), NULL));
    /* Per-tensor (axis -1, given or by default) takes one value. */
    EXPECT_ONE(SM2C_ERR_INVALID, "min_range has 3 values but attr 'axis' is -1 (per-tensor: one "
               "value)",
               cnode("mn", F32V(0, 0, 0)), cnode("mx", F32V(1, 1, 1)),
               node("q", "QuantizeV2", "x,mn,mx", "axis", I(-1), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'q' (Dequantize): error: min_range has 2 values but attr "
               "'axis' is -1",
               cnode("mn", F32V(0, 0)), cnode("mx", F32V(1, 1)),
               node("q", "Dequantize", "x,mn,mx", NULL));
    /* Ranges of different sizes: one error, from the pairwise check. */
    EXPECT_ONE(SM2C_ERR_INVALID, "min_range has 3 values but max_range has 4",
               PH("x", 2, 3), cnode("mn", F32V(0, 0, 0)), cnode("mx", F32V(1, 1, 1, 1)),
               node("q", "QuantizeV2", "x,mn,mx", "axis", I(1), NULL));
}

static void per_axis_silent(void **state)
{
    (void)state;
    Tensorflow__AttrValue *ph_axis = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_PLACEHOLDER);
    ph_axis->placeholder = "axis";
    Tensorflow__NodeDef *g[] = {
        PH("x", 2, 3), cnode("s0", F32S(-1.0f)), cnode("s1", F32S(1.0f)),
        cnode("v0", F32V(-1, -1, -1)), cnode("v1", F32V(1, 1, 1)),
        cnode("u0", F32V(-1, -1, -1, -1)), cnode("u1", F32V(1, 1, 1, 1)),
        /* Per-tensor. */
        node("q1", "QuantizeV2", "x,s0,s1", NULL),
        node("q2", "QuantizeV2", "x,s0,s1", "axis", I(-1), NULL),
        node("q3", "QuantizeAndDequantizeV4", "x,s0,s1", "axis", I(-1), NULL),
        /* Per-axis with the right count; one value on an axis is left alone. */
        node("q4", "QuantizeV2", "x,v0,v1", "axis", I(1), NULL),
        node("q5", "Dequantize", "x,s0,s1", "axis", I(0), NULL),
        node("q6", "QuantizeAndDequantizeV2", "x,v0,v1", "axis", I(1), NULL),
        /* Unknown input shape, non-Const ranges. */
        PH("unk", -1, 3), placeholder("m"),
        node("q7", "QuantizeV2", "unk,u0,u1", "axis", I(0), NULL),
        node("q8", "QuantizeV2", "noshape,u0,u1", "axis", I(5), NULL),
        node("q9", "QuantizeV2", "x,m,m", "axis", I(0), NULL),
        node("fq1", "FakeQuantWithMinMaxVarsPerChannel", "x,v0,v1", NULL),
        node("fq2", "FakeQuantWithMinMaxVarsPerChannel", "unk,u0,u1", NULL),
        node("fq3", "FakeQuantWithMinMaxVarsPerChannel", "x,m,m", NULL),
        /* An axis bound at call time is not the per-tensor default. */
        node("q10", "QuantizeV2", "x,u0,u1", "axis", ph_axis, NULL),
        /* The plain FakeQuantWithMinMaxVars has no per-channel rule here. */
        node("fq4", "FakeQuantWithMinMaxVars", "x,s0,s1", NULL),
    };
    assert_int_equal(check(g, sizeof g / sizeof g[0]), SM2C_OK);
    if (T->diag.errors)
        fail_msg("unexpected errors:\n%s", lines);
}

/* ---- N6: quantization -------------------------------------------------------- */

static void fake_quant_args_range(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'fq' (FakeQuantWithMinMaxArgs): error: min 1 must be less than max 1",
               node("fq", "FakeQuantWithMinMaxArgs", "x", "min", F(1.0f), "max", F(1.0f), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "min 2 must be less than max -1",
               node("fq", "FakeQuantWithMinMaxArgs", "x", "min", F(2.0f), "max", F(-1.0f), NULL));
    /* Only max given: min is TF's default -6. */
    EXPECT_ONE(SM2C_ERR_INVALID, "min -6 must be less than max -7",
               node("fq", "FakeQuantWithMinMaxArgs", "x", "max", F(-7.0f), NULL));
}

static void fake_quant_args_not_finite(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "min nan and max 6 must be finite",
               node("fq", "FakeQuantWithMinMaxArgs", "x", "min", F(NAN), "max", F(6.0f), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "must be finite",
               node("fq", "FakeQuantWithMinMaxArgs", "x", "min", F(-INFINITY), NULL));
}

static void fake_quant_num_bits(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'num_bits' is 1 (must be 2..16)",
               node("fq", "FakeQuantWithMinMaxArgs", "x", "num_bits", I(1), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'num_bits' is 17 (must be 2..16)",
               node("fq", "FakeQuantWithMinMaxVars", "x,mn,mx", "num_bits", I(17), NULL));
}

static void fake_quant_vars_const_range(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'fq' (FakeQuantWithMinMaxVars): error: min 2 must be at most max 1",
               cnode("mn", F32S(2.0f)), cnode("mx", F32S(1.0f)),
               node("fq", "FakeQuantWithMinMaxVars", "x,mn,mx", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "min has 2 values but max has 3",
               cnode("mn", F32V(0, 0)), cnode("mx", F32V(1, 1, 1)),
               node("fq", "FakeQuantWithMinMaxVarsPerChannel", "x,mn,mx", NULL));
}

static void quantize_v2_range(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'q' (QuantizeV2): error: min_range nan and max_range 1 must be finite",
               cnode("mn", F32S(NAN)), cnode("mx", F32S(1.0f)),
               node("q", "QuantizeV2", "x,mn,mx", "T", TY(SM2C_DT_QUINT8), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'q' (Dequantize): error: min_range 3 must be at most max_range -3",
               cnode("mn", F32S(3.0f)), cnode("mx", F32S(-3.0f)),
               node("q", "Dequantize", "x,mn,mx", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'mode' is \"BOGUS\", not a known mode",
               node("q", "QuantizeV2", "x,mn,mx", "mode", S("BOGUS"), NULL));
}

static void uniform_scales(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'u' (UniformQuantize): error: scale 1 is 0 (must be positive and finite)",
               cnode("s", F32V(0.5f, 0.0f)), cnode("z", I32V(0, 0)),
               node("u", "UniformQuantize", "x,s,z", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "scale 0 is -0.25",
               cnode("s", F32V(-0.25f)), node("u", "UniformDequantize", "x,s,z", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "2 scales but 1 zero points",
               cnode("s", F32V(0.5f, 0.5f)), cnode("z", I32V(0)),
               node("u", "UniformQuantize", "x,s,z", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "zero point 0 is 200, outside -128..127",
               cnode("s", F32V(0.5f)), cnode("z", I32V(200)),
               node("u", "UniformQuantize", "x,s,z", "quantization_min_val", I(-128),
                    "quantization_max_val", I(127), NULL));
}

/* ---- N8: constant indices and sizes ------------------------------------------- */

static void gather_index_out_of_range(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'g' (GatherV2): error: indices[1] = 99 is not in [0, 10)",
               cnode("params", ZEROS(10, 4)), cnode("idx", I32V(0, 99)),
               cnode("axis", I32S(0)), node("g", "GatherV2", "params,idx,axis", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "indices[0] = 4 is not in [0, 4)",
               cnode("params", ZEROS(10, 4)), cnode("idx", I32V(4)),
               cnode("axis", I32S(-1)), node("g", "GatherV2", "params,idx,axis", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'g' (Gather): error: indices[2] = 10 is not in [0, 10)",
               cnode("params", ZEROS(10)), cnode("idx", I32V(1, 2, 10)),
               node("g", "Gather", "params,idx", NULL));
}

static void gather_negative_index_and_axis(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "indices[0] = -1 is negative",
               cnode("idx", I32V(-1)), node("g", "GatherV2", "params,idx,axis", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "axis 2 is out of range for params of rank 2",
               cnode("params", ZEROS(10, 4)), cnode("idx", I32V(0)),
               cnode("axis", I32S(2)), node("g", "GatherV2", "params,idx,axis", NULL));
}

static void range_overflow(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_LIMIT, "'r' (Range): error: Range gives 1099511627776 elements, over the limit",
               cnode("a", I64S(0)), cnode("b", I64S((int64_t)1 << 40)), cnode("d", I64S(1)),
               node("r", "Range", "a,b,d", NULL));
    /* The full int64 span, computed without signed overflow. */
    EXPECT_ONE(SM2C_ERR_LIMIT, "Range gives 18446744073709551616 elements",
               cnode("a", I64S(INT64_MIN)), cnode("b", I64S(INT64_MAX)), cnode("d", I64S(1)),
               node("r", "Range", "a,b,d", NULL));
    EXPECT_ONE(SM2C_ERR_LIMIT, "over the limit",
               cnode("a", F32S(0.0f)), cnode("b", F32S(1e30f)), cnode("d", F32S(1e-30f)),
               node("r", "Range", "a,b,d", NULL));
}

static void range_bad_delta(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "Range with start 0, limit 10 and delta 0 is empty or endless",
               cnode("a", I32S(0)), cnode("b", I32S(10)), cnode("d", I32S(0)),
               node("r", "Range", "a,b,d", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "Range with start 5, limit 1 and delta 1",
               cnode("a", I32S(5)), cnode("b", I32S(1)), cnode("d", I32S(1)),
               node("r", "Range", "a,b,d", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "Range arguments must be finite",
               cnode("a", F32S(0.0f)), cnode("b", F32S(INFINITY)), cnode("d", F32S(1.0f)),
               node("r", "Range", "a,b,d", NULL));
}

static void fill_overflow(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_LIMIT, "'f' (Fill): error: dims [65536,65536] has more than 2147483647 elements",
               cnode("dims", I32V(65536, 65536)), node("f", "Fill", "dims,v", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "dims [2,-1] has a negative entry",
               cnode("dims", I32V(2, -1)), node("f", "Fill", "dims,v", NULL));
    /* A zero dim makes any product safe. */
    assert_int_equal(check(GRAPH(cnode("dims", I32V(0, 2147483647, 2147483647)),
                                 node("f", "Fill", "dims,v", NULL))), SM2C_OK);
    EXPECT_ONE(SM2C_ERR_LIMIT, "'b' (BroadcastTo): error: shape [4096,4096,4096]",
               cnode("s", I32V(4096, 4096, 4096)), node("b", "BroadcastTo", "x,s", NULL));
}

static void tile_overflow(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_LIMIT, "'t' (Tile): error: tiling by [65536,65536] gives more than 2147483647 elements",
               cnode("in", ZEROS(2, 2)), cnode("m", I32V(65536, 65536)),
               node("t", "Tile", "in,m", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "multiples [1,-2] has a negative entry",
               cnode("m", I32V(1, -2)), node("t", "Tile", "x,m", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "multiples has 3 entries but the input has rank 2",
               cnode("in", ZEROS(2, 2)), cnode("m", I32V(1, 1, 1)),
               node("t", "Tile", "in,m", NULL));
}

/* ---- variadic counts and list lengths ------------------------------------------ */

static void n_mismatch(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID,
               "'a' (AddN): error: attr 'N' is 3 but the node has 2 data inputs (expected 3)",
               node("a", "AddN", "x,y,^z", "N", I(3), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'N' is 2 but the node has 2 data inputs (expected 3)",
               node("c", "ConcatV2", "x,y", "N", I(2), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'p' (Pack): error: attr 'N' is 1 but the node has 2 data inputs",
               node("p", "Pack", "x,y", "N", I(1), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'i' (IdentityN): error: attr 'T' lists 1 types but the node has 2 data inputs",
               node("i", "IdentityN", "x,y", "T", TYPES(SM2C_DT_FLOAT), NULL));
}

static void n_too_small(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'N' is 1 (must be >= 2)",
               node("c", "ConcatV2", "x,axis", "N", I(1), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'N' is -1 (must be >= 1)",
               node("a", "AddN", "x", "N", I(-1), NULL));
}

static void n_over_limit(void **state)
{
    (void)state;
    T->limits.list_length = 4;
    EXPECT_ONE(SM2C_ERR_LIMIT, "attr 'N' is 5, over the limit of 4 (--limit list-length=N)",
               node("a", "AddN", "x,x,x,x,x", "N", I(5), NULL));
}

static void list_over_limit(void **state)
{
    (void)state;
    T->limits.list_length = 4;
    EXPECT_ONE(SM2C_ERR_LIMIT, "'u' (SomeOp): error: attr 'sizes' has 5 entries, over the limit of 4",
               node("u", "SomeOp", "x", "sizes", INTS(1, 2, 3, 4, 5), NULL));
}

/* ---- attr type confusion ------------------------------------------------------ */

static void strides_as_floats(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID,
               "'c' (Conv2D): error: attr 'strides': expected list(int), got float list",
               conv("Conv2D", FLOATS(1, 2, 2, 1), S("SAME")));
}

static void type_as_string(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'T': expected type, got string",
               node("c", "Conv2D", "x,w", "T", S("float"), NULL));
    /* On an op we do not know, T may be a type or a list of types, not a string. */
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'T': expected type or list(type), got string",
               node("w", "While", "x", "T", S("float"), NULL));
}

static void other_confusions(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'padding': expected string, got int",
               node("c", "MaxPool", "x", "padding", I(1), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'N': expected int, got float",
               node("a", "AddN", "x", "N", F(1.0f), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'k' (Const): error: attr 'value': expected tensor, got int",
               node("k", "Const", "", "value", I(3), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'T': expected list(type), got type",
               node("i", "IdentityN", "x", "T", TY(SM2C_DT_FLOAT), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'min': expected float, got string",
               node("fq", "FakeQuantWithMinMaxArgs", "x", "min", S("-6"), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'num_split': expected int, got no value",
               node("s", "Split", "a,x", "num_split", attr_new(0), NULL));
}

static void mixed_list(void **state)
{
    (void)state;
    Tensorflow__AttrValue *v = INTS(1, 1, 1, 1);
    v->list->n_f = 1;
    v->list->f = alloc(sizeof(float));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'strides': expected list(int), got mixed list",
               conv("Conv2D", v, S("SAME")));
}

static void invalid_dtype_values(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'dtype' is DT_INVALID, not a valid dtype",
               node("p", "Placeholder", "", "dtype", TY(SM2C_DT_INVALID), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'T' entry 1 is DT_99, not a valid dtype",
               node("i", "IdentityN", "x,y", "T", TYPES(SM2C_DT_FLOAT, 99), NULL));
}

static void more_counts_and_formats(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'s' (ShapeN): error: attr 'N' is 3 but the node has 1 data inputs",
               node("s", "ShapeN", "x", "N", I(3), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'d' (DynamicStitch): error: attr 'N' is 2 but the node has 2 data inputs (expected 4)",
               node("d", "DynamicStitch", "i,v", "N", I(2), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'bn' (FusedBatchNormV3): error: attr 'data_format' is \"NWC\"",
               node("bn", "FusedBatchNormV3", "x,s,o,m,v", "data_format", S("NWC"), NULL));
    assert_int_equal(check(GRAPH(node("bn", "FusedBatchNorm", "x", "data_format", S("NDHWC"),
                                      NULL))), SM2C_OK);
}

static void more_quantization(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_INVALID, "'r' (UniformRequantize): error: scale 0 is inf",
               cnode("s", F32V(INFINITY)), node("r", "UniformRequantize", "x,a,b,s,z", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'quantization_axis' is -2 (must be >= -1)",
               node("u", "UniformQuantize", "x,s,z", "quantization_axis", I(-2), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "'q' (QuantizeV2): error: attr 'axis' is -5 (must be >= -1)",
               node("q", "QuantizeV2", "x,a,b", "axis", I(-5), NULL));
}

static void rank_limits_on_vectors(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_LIMIT, "perm has 17 entries, over the rank limit of 16",
               cnode("perm", I32V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)),
               node("t", "Transpose", "x,perm", NULL));
    EXPECT_ONE(SM2C_ERR_LIMIT, "dims has 17 entries, over the rank limit of 16",
               cnode("d", I32V(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)),
               node("f", "Fill", "d,v", NULL));
    /* Long lists are cut in the message. */
    T->limits.rank = 32;
    EXPECT_ONE(SM2C_ERR_INVALID, "perm [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,...] is not a "
               "permutation (0 appears twice)",
               cnode("perm", I32V(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0)),
               node("t", "Transpose", "x,perm", NULL));
}

static void more_limits(void **state)
{
    (void)state;
    EXPECT_ONE(SM2C_ERR_LIMIT, "'oh' (OneHot): error: depth 4294967296 is over the element limit",
               cnode("depth", I64S((int64_t)1 << 32)), node("oh", "OneHot", "i,depth,a,b", NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "Range with start 1, limit 0 and delta 0.5",
               cnode("a", F32S(1.0f)), cnode("b", F32S(0.0f)), cnode("d", F32S(0.5f)),
               node("r", "Range", "a,b,d", NULL));
}

static void describes_every_kind(void **state)
{
    (void)state;
    Tensorflow__AttrValue *sh = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_SHAPE);
    Tensorflow__AttrValue *te = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_TENSOR);
    Tensorflow__AttrValue *fu = attr_new(TENSORFLOW__ATTR_VALUE__VALUE_FUNC);
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'padding': expected string, got bool",
               node("p", "MaxPool", "x", "padding", B(1), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'padding': expected string, got shape",
               node("p", "MaxPool", "x", "padding", sh, NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'padding': expected string, got tensor",
               node("p", "MaxPool", "x", "padding", te, NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'padding': expected string, got func",
               node("p", "MaxPool", "x", "padding", fu, NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr '_output_shapes': expected list(shape), got int list",
               node("p", "Foo", "x", "_output_shapes", INTS(1), NULL));
    EXPECT_ONE(SM2C_ERR_INVALID, "attr 'shape': expected shape, got empty list",
               node("p", "Placeholder", "", "shape", ints_attr(0, (int64_t[]){ 0 }), NULL));
}

/* ---- reporting ---------------------------------------------------------------- */

static void reports_every_problem(void **state)
{
    (void)state;
    sm2c_status st = check_fn("__inference_serve_512", GRAPH(
        conv("Conv2D", INTS(1, 0, 1, 1), S("FULL")),
        node("a", "AddN", "x", "N", I(2), NULL),
        placeholder("ok"),
        node("r", "Range", "a,b,d", "Tidx", S("int32"), NULL)));
    assert_int_equal(st, SM2C_ERR_INVALID);
    assert_int_equal(T->diag.errors, 4);
    assert_error_contains(T, "saved_model.pb: __inference_serve_512: 'c' (Conv2D): error: "
                             "attr 'strides' entry 1 is 0");
    assert_lines_contain("__inference_serve_512: 'c' (Conv2D): error: attr 'padding' is \"FULL\"");
    assert_lines_contain("__inference_serve_512: 'a' (AddN): error: attr 'N' is 2 but");
    assert_lines_contain("__inference_serve_512: 'r' (Range): error: attr 'Tidx': expected type, got string");
}

/* The first error's status is returned even when a later one differs. */
static void returns_first_status(void **state)
{
    (void)state;
    T->limits.list_length = 2;
    assert_int_equal(check(GRAPH(node("a", "AddN", "x", "N", I(3), NULL),
                                 conv("Conv2D", INTS(1, 0, 1, 1), S("SAME")))),
                     SM2C_ERR_LIMIT);
    assert_int_equal(T->diag.errors, 3);   /* N, the strides length, the zero */
}

/* Broken Consts are the importer's to report; odd input names are skipped. */
static void tolerates_broken_inputs(void **state)
{
    (void)state;
    Tensorflow__TensorProto *bad = tensor(SM2C_DT_INT32, 1, (int64_t[]){ 3 });
    static uint8_t ten[10];
    bad->tensor_content.data = ten;
    bad->tensor_content.len = sizeof ten;
    Tensorflow__NodeDef *dup = cnode("perm", I32V(0, 0));
    assert_int_equal(check(GRAPH(
        cnode("perm", bad), dup, node("t", "Transpose", "x,perm", NULL),
        node("t2", "Transpose", "x,missing", NULL),
        cnode("p2", I32V(0, 0)), node("t3", "Transpose", "x,p2:1", NULL),
        node("t4", "Transpose", "x,^p2", NULL),
        node("s", "Reshape", "x,x", NULL),
        node("cyc", "Identity", "cyc", NULL), node("t5", "Transpose", "x,cyc", NULL),
        NULL)), SM2C_OK);
    assert_int_equal(T->diag.errors, 0);
}

static void empty_graph(void **state)
{
    (void)state;
    assert_int_equal(check(NULL, 0), SM2C_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T_(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
        T_(accepts_typical_graph), T_(accepts_function_body_and_absent_attrs),
        T_(accepts_placeholder_attr_values),
        T_(stride_zero), T_(stride_negative), T_(stride_huge), T_(strides_wrong_length),
        T_(strides_wrong_length_3d), T_(dilation_zero), T_(backprop_input_stride),
        T_(ksize_zero), T_(ksize_avg_pool), T_(ksize_pool3d), T_(max_pool_v2_const_ksize),
        T_(padding_unknown), T_(padding_explicit_not_allowed), T_(explicit_paddings_negative),
        T_(explicit_paddings_odd), T_(explicit_paddings_wrong_length),
        T_(explicit_paddings_without_explicit), T_(data_format_unknown), T_(block_size_one),
        T_(perm_duplicate), T_(perm_out_of_range), T_(perm_identity_and_rank),
        T_(reshape_two_minus_ones), T_(reshape_negative_dim), T_(reshape_size_mismatch),
        T_(reshape_overflow), T_(concat_axis_out_of_range), T_(pack_unpack_axis),
        T_(split_num_split), T_(unpack_num), T_(one_hot_depth),
        T_(fake_quant_args_range), T_(fake_quant_args_not_finite), T_(fake_quant_num_bits),
        T_(fake_quant_vars_const_range), T_(quantize_v2_range), T_(uniform_scales),
        T_(gather_index_out_of_range), T_(gather_negative_index_and_axis),
        T_(range_overflow), T_(range_bad_delta), T_(fill_overflow), T_(tile_overflow),
        T_(n_mismatch), T_(n_too_small), T_(n_over_limit), T_(list_over_limit),
        T_(strides_as_floats), T_(type_as_string), T_(other_confusions), T_(mixed_list),
        T_(invalid_dtype_values), T_(reports_every_problem), T_(returns_first_status),
        T_(tolerates_broken_inputs), T_(empty_graph), T_(more_counts_and_formats),
        T_(more_quantization), T_(rank_limits_on_vectors), T_(more_limits),
        T_(describes_every_kind),
        T_(conv_output_valid), T_(conv_output_nchw), T_(conv_output_explicit), T_(pool_output),
        T_(window_output_overflow), T_(filter_zero_dims), T_(conv_groups),
        T_(window_shapes_silent), T_(per_axis_count), T_(per_axis_axis), T_(per_axis_silent),
#undef T_
    };
    return cmocka_run_group_tests_name("attr_check", tests, NULL, NULL);
}
