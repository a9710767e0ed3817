/*
** test_varmap.c: both variable mappings on models written by TensorFlow 2.21
** (tests/models/gen_models.py), where names repeat or differ from the keys.
*/
#include "sm2c_test.h"

#include "load/savedmodel.h"
#include "load/varmap.h"

#define MODELS SM2C_TEST_DATA "/data/models"

typedef struct loaded {
    test_ctx *t;
    sm2c_model *m;
    sm2c_varmap *vm;
} loaded;

static loaded load(const char *dir)
{
    loaded l = { test_ctx_new(), NULL, NULL };
    if (sm2c_model_load(&l.t->ctx, dir, NULL, &l.m) != SM2C_OK ||
        sm2c_varmap_build(&l.t->ctx, l.m, &l.vm) != SM2C_OK)
        fail_msg("%s: %s", dir, l.t->diag.first);
    return l;
}

static void unload(loaded *l)
{
    sm2c_model_close(l->m);
    test_ctx_free(l->t);
}

static const sm2c_variable *by_path(const sm2c_varmap *vm, const char *path)
{
    for (size_t i = 0; i < vm->n_vars; i++)
        if (strcmp(vm->vars[i].path, path) == 0)
            return &vm->vars[i];
    fail_msg("no variable at path %s", path);
    return NULL;
}

static const sm2c_concrete_fn *fn_owned_by(const sm2c_varmap *vm, const char *kind,
                                           const char *owner, int nth)
{
    for (size_t i = 0; i < vm->n_fns; i++) {
        const sm2c_concrete_fn *f = &vm->fns[i];
        if (f->owner_kind && strcmp(f->owner_kind, kind) == 0 && strcmp(f->owner, owner) == 0 &&
            nth-- == 0)
            return f;
    }
    return NULL;
}

/* Two variables are both named "Variable": only the object graph tells them apart. */
static void tf2_repeated_names(void **state)
{
    (void)state;
    loaded l = load(MODELS "/tf2_module");
    assert_true(l.vm->object_based);
    assert_int_equal(l.vm->n_vars, 3);
    const sm2c_variable *v1 = by_path(l.vm, "v1"), *v2 = by_path(l.vm, "v2");
    const sm2c_variable *w = by_path(l.vm, "nested/w");
    assert_string_equal(v1->name, "Variable");
    assert_string_equal(v2->name, "Variable");
    assert_string_equal(v1->checkpoint_key, "v1/.ATTRIBUTES/VARIABLE_VALUE");
    assert_string_equal(v2->checkpoint_key, "v2/.ATTRIBUTES/VARIABLE_VALUE");
    assert_string_equal(w->checkpoint_key, "nested/w/.ATTRIBUTES/VARIABLE_VALUE");
    assert_int_equal(v1->dtype, SM2C_DT_FLOAT);
    assert_int_equal(v2->dtype, SM2C_DT_INT64);
    assert_int_equal(w->dtype, SM2C_DT_DOUBLE);
    assert_int_equal(v2->shape.rank, 2);
    assert_int_equal(v2->shape.dims[0], 2);
    unload(&l);
}

/* Signature functions capture what bound_inputs says, in that order. */
static void tf2_captures_and_owners(void **state)
{
    (void)state;
    loaded l = load(MODELS "/tf2_module");
    const sm2c_concrete_fn *scale = fn_owned_by(l.vm, "signature", "scale", 0);
    const sm2c_concrete_fn *ints = fn_owned_by(l.vm, "signature", "ints", 0);
    assert_non_null(scale);
    assert_non_null(ints);
    /* scale's wrapper captures v1 and the constant table. */
    int saw_v1 = 0, saw_const = 0;
    for (size_t k = 0; k < scale->n_captures; k++) {
        const sm2c_capture *cap = &scale->captures[k];
        if (cap->variable && strcmp(cap->variable->path, "v1") == 0)
            saw_v1 = 1;
        if (strcmp(cap->kind, "constant") == 0) {
            saw_const = 1;
            assert_non_null(cap->constant_op);
        }
    }
    assert_true(saw_v1);
    assert_true(saw_const);
    assert_int_equal(ints->n_captures, 1);
    assert_string_equal(ints->captures[0].variable->path, "v2");
    assert_non_null(strstr(ints->input_signature, "int64[2]"));
    /* poly was traced for two shapes: two concrete functions of one tf.function. */
    const sm2c_concrete_fn *p0 = fn_owned_by(l.vm, "function", "poly", 0);
    const sm2c_concrete_fn *p1 = fn_owned_by(l.vm, "function", "poly", 1);
    assert_non_null(p0);
    assert_non_null(p1);
    assert_true(strstr(p0->input_signature, "[2]") || strstr(p1->input_signature, "[2]"));
    assert_true(strstr(p0->input_signature, "[3,1]") || strstr(p1->input_signature, "[3,1]"));
    unload(&l);
}

/* Keras 3's export saves every weight as two variable objects (`variables/N`
** and `_all_variables/N`), each with its own key; both map, with equal shapes. */
static void tf2_keras_export(void **state)
{
    (void)state;
    loaded l = load(MODELS "/keras_dense");
    assert_int_equal(l.vm->n_vars, 8);
    for (size_t i = 0; i < l.vm->n_vars; i++) {
        const sm2c_variable *v = &l.vm->vars[i];
        assert_non_null(v->checkpoint_key);
        char *want = sm2c_arena_printf(l.t->arena, "%s/.ATTRIBUTES/VARIABLE_VALUE", v->path);
        assert_string_equal(v->checkpoint_key, want);
        const sm2c_bundle_entry *e = sm2c_bundle_find(l.m->bundle, v->checkpoint_key);
        assert_non_null(e);
        assert_int_equal(e->shape.rank, v->shape.rank);
    }
    assert_int_equal(by_path(l.vm, "_all_variables/3")->shape.dims[0], 3);
    assert_int_equal(by_path(l.vm, "variables/3")->shape.dims[0], 1);
    /* The serving signature captures the weights it uses. */
    const sm2c_concrete_fn *serve = fn_owned_by(l.vm, "signature", "serve", 0);
    assert_non_null(serve);
    assert_int_equal(serve->n_captures, 4);
    for (size_t k = 0; k < serve->n_captures; k++)
        assert_non_null(serve->captures[k].variable);
    unload(&l);
}

/* The Saver maps "weights" to key "model/kernel": only the graph says so. */
static void tf1_keys_from_restore_graph(void **state)
{
    (void)state;
    loaded l = load(MODELS "/tf1_saver");
    assert_false(l.vm->object_based);
    assert_int_equal(l.vm->n_vars, 3);
    const sm2c_variable *w = by_path(l.vm, "weights"), *b = by_path(l.vm, "bias");
    const sm2c_variable *u = by_path(l.vm, "unsaved");
    assert_string_equal(w->checkpoint_key, "model/kernel");
    assert_string_equal(b->checkpoint_key, "model/offset");
    assert_null(u->checkpoint_key);
    assert_string_equal(w->node->op, "VariableV2");
    assert_string_equal(b->node->op, "VarHandleOp");
    assert_int_equal(w->shape.rank, 2);
    unload(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tf2_repeated_names),
        cmocka_unit_test(tf2_captures_and_owners),
        cmocka_unit_test(tf2_keras_export),
        cmocka_unit_test(tf1_keys_from_restore_graph),
    };
    return cmocka_run_group_tests_name("varmap", tests, NULL, NULL);
}
