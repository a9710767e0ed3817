/*
** test_savedmodel.c: loading SavedModel directories, and every filesystem-level
** and version-level bad input (docs/reliability.md F1-F5, P7, G3, G12).
*/
#include "sm2c_test.h"
#include "test_fs.h"

#include <sys/socket.h>

#include "load/savedmodel.h"
#include "load/varmap.h"

#define MODELS SM2C_TEST_DATA "/data/models"
#define SAMPLE SM2C_TEST_DATA "/../samples/half_plus_two"
#define BAD SM2C_TEST_DATA "/data/bad"

static sm2c_status load(test_ctx *t, const char *dir, const char *tags, sm2c_model **m)
{
    sm2c_status st = sm2c_model_load(&t->ctx, dir, tags, m);
    return st;
}

/* A SavedModel built from a message, written as saved_model.pb into dir. */
static void write_model(const char *dir, const Tensorflow__SavedModel *sm)
{
    size_t len = protobuf_c_message_get_packed_size(&sm->base);
    uint8_t *buf = malloc(len + 1);
    protobuf_c_message_pack(&sm->base, buf);
    fs_write(dir, "saved_model.pb", buf, len);
    free(buf);
}

/* One meta graph with the given tags and nothing else. */
typedef struct small_model {
    Tensorflow__SavedModel sm;
    Tensorflow__MetaGraphDef mg, mg2;
    Tensorflow__MetaGraphDef *mgs[2];
    Tensorflow__MetaGraphDef__MetaInfoDef info, info2;
    Tensorflow__GraphDef graph;
    Tensorflow__VersionDef versions;
    char *tags[2];
} small_model;

static void small_model_init(small_model *s)
{
    tensorflow__saved_model__init(&s->sm);
    tensorflow__meta_graph_def__init(&s->mg);
    tensorflow__meta_graph_def__init(&s->mg2);
    tensorflow__meta_graph_def__meta_info_def__init(&s->info);
    tensorflow__meta_graph_def__meta_info_def__init(&s->info2);
    tensorflow__graph_def__init(&s->graph);
    tensorflow__version_def__init(&s->versions);
    s->sm.saved_model_schema_version = 1;
    s->tags[0] = "serve";
    s->tags[1] = "gpu";
    s->info.n_tags = 1;
    s->info.tags = s->tags;
    s->mg.meta_info_def = &s->info;
    s->mg.graph_def = &s->graph;
    s->graph.versions = &s->versions;
    s->versions.producer = 1000;
    s->mgs[0] = &s->mg;
    s->mgs[1] = &s->mg2;
    s->sm.n_meta_graphs = 1;
    s->sm.meta_graphs = s->mgs;
}

static void loads_real_models(void **state)
{
    (void)state;
    const char *dirs[] = { SAMPLE, MODELS "/tf2_module", MODELS "/tf1_saver", MODELS "/keras_dense" };
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        test_ctx *t = test_ctx_new();
        sm2c_model *m;
        if (load(t, dirs[i], NULL, &m) != SM2C_OK)
            fail_msg("%s: %s", dirs[i], t->diag.first);
        assert_non_null(m->meta_graph);
        assert_true(m->bundle->present);
        assert_false(m->text_format);
        sm2c_model_close(m);
        test_ctx_free(t);
    }
}

static void expect_error(const char *dir, const char *tags, sm2c_status want, const char *needle)
{
    test_ctx *t = test_ctx_new();
    sm2c_model *m;
    sm2c_status st = load(t, dir, tags, &m);
    if (st == SM2C_OK) {
        /* Some problems only show when the variables are mapped. */
        sm2c_varmap *vm;
        st = sm2c_varmap_build(&t->ctx, m, &vm);
    }
    sm2c_model_close(m);
    if (st != want)
        fail_msg("status %d, want %d; first error: %s", st, want, t->diag.first);
    assert_error_contains(t, needle);
    /* One line, naming a file or directory. */
    assert_null(strchr(t->diag.first, '\n'));
    assert_true(strncmp(t->diag.first, "/", 1) == 0);
    test_ctx_free(t);
}

static void f1_no_model_file(void **state)
{
    (void)state;
    char *d = fs_tmpdir();
    expect_error(d, NULL, SM2C_ERR_INVALID, "no saved_model.pb or saved_model.pbtxt");
    fs_write(d, "saved_model.cpb", "x", 1);
    expect_error(d, NULL, SM2C_ERR_UNSUPPORTED, "chunked SavedModel");
    fs_rm_rf(d);
    expect_error("/nonexistent/sm2c/dir", NULL, SM2C_ERR_INVALID, "cannot open the SavedModel directory");
}

static void f2_not_regular_files(void **state)
{
    (void)state;
    char *d = fs_tmpdir();
    char *pb = fs_path(d, "saved_model.pb");
    /* A symlink to a good model is still refused. */
    assert_int_equal(symlink(SAMPLE "/saved_model.pb", pb), 0);
    expect_error(d, NULL, SM2C_ERR_INVALID, "is a symlink");
    unlink(pb);
    /* A FIFO must not hang. */
    assert_int_equal(mkfifo(pb, 0644), 0);
    expect_error(d, NULL, SM2C_ERR_INVALID, "is a FIFO");
    unlink(pb);
    assert_int_equal(mkdir(pb, 0755), 0);
    expect_error(d, NULL, SM2C_ERR_INVALID, "is a directory");
    rmdir(pb);
    free(pb);
    fs_rm_rf(d);
}

static void f2_symlinked_variables(void **state)
{
    (void)state;
    char *d = fs_tmpdir();
    fs_copy(SAMPLE "/saved_model.pb", d, "saved_model.pb");
    char *vars = fs_path(d, "variables");
    assert_int_equal(symlink(SAMPLE "/variables", vars), 0);
    expect_error(d, NULL, SM2C_ERR_INVALID, "variables");
    unlink(vars);
    free(vars);
    fs_mkdir(d, "variables");
    fs_copy(SAMPLE "/variables/variables.data-00000-of-00001", d,
            "variables/variables.data-00000-of-00001");
    char *idx = fs_path(d, "variables/variables.index");
    assert_int_equal(symlink(SAMPLE "/variables/variables.index", idx), 0);
    expect_error(d, NULL, SM2C_ERR_INVALID, "is a symlink");
    free(idx);
    fs_rm_rf(d);
}

static void f3_size_problems(void **state)
{
    (void)state;
    char *d = fs_tmpdir();
    fs_write(d, "saved_model.pb", "", 0);
    expect_error(d, NULL, SM2C_ERR_INVALID, "file is empty");
    /* Truncated: half of a real file. */
    size_t len;
    unsigned char *buf = fs_read(SAMPLE "/saved_model.pb", &len);
    fs_write(d, "saved_model.pb", buf, len / 2);
    expect_error(d, NULL, SM2C_ERR_INVALID, "saved_model.pb");
    fs_write(d, "saved_model.pb", buf, len);
    free(buf);
    /* Over the size limit. */
    test_ctx *t = test_ctx_new();
    t->limits.model_bytes = 100;
    sm2c_model *m;
    assert_int_equal(sm2c_model_load(&t->ctx, d, NULL, &m), SM2C_ERR_LIMIT);
    assert_error_contains(t, "more than the limit of 100");
    sm2c_model_close(m);
    test_ctx_free(t);
    fs_rm_rf(d);
}

static void f4_asset_paths(void **state)
{
    (void)state;
    const char *bad[] = { "../../etc/passwd", "/etc/passwd", "a/../../x", "" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *d = fs_tmpdir();
        small_model s;
        small_model_init(&s);
        Tensorflow__AssetFileDef asset = TENSORFLOW__ASSET_FILE_DEF__INIT;
        Tensorflow__AssetFileDef *assets[] = { &asset };
        asset.filename = (char *)bad[i];
        s.mg.n_asset_file_def = 1;
        s.mg.asset_file_def = assets;
        write_model(d, &s.sm);
        expect_error(d, NULL, SM2C_ERR_INVALID, "asset");
        fs_rm_rf(d);
    }
    /* A symlink inside assets/ that points outside. */
    char *d = fs_tmpdir();
    small_model s;
    small_model_init(&s);
    Tensorflow__AssetFileDef asset = TENSORFLOW__ASSET_FILE_DEF__INIT;
    Tensorflow__AssetFileDef *assets[] = { &asset };
    asset.filename = "vocab.txt";
    s.mg.n_asset_file_def = 1;
    s.mg.asset_file_def = assets;
    write_model(d, &s.sm);
    fs_mkdir(d, "assets");
    char *link = fs_path(d, "assets/vocab.txt");
    assert_int_equal(symlink("/etc/passwd", link), 0);
    free(link);
    expect_error(d, NULL, SM2C_ERR_INVALID, "goes through a symlink");
    fs_rm_rf(d);
}

static void f5_variables_missing(void **state)
{
    (void)state;
    const char *models[] = { SAMPLE, MODELS "/tf1_saver" };
    for (size_t i = 0; i < 2; i++) {
        char *d = fs_tmpdir();
        char *pb = fs_path(models[i], "saved_model.pb");
        fs_copy(pb, d, "saved_model.pb");
        free(pb);
        expect_error(d, NULL, SM2C_ERR_INVALID, "no variables/ directory");
        fs_rm_rf(d);
    }
}

/* The graph of one model with the checkpoint TensorFlow wrote for another
** (tests/models/gen_models.py): C10. */
static void c10_checkpoint_disagrees_with_graph(void **state)
{
    (void)state;
    expect_error(BAD "/c10_shape", NULL, SM2C_ERR_INVALID,
                 "variables/variables.index: variable 'weights': error: has shape [3,1] in the "
                 "checkpoint but [2,1] in the graph");
    expect_error(BAD "/c10_dtype", NULL, SM2C_ERR_INVALID,
                 "has dtype float64 in the checkpoint but float32 in the graph");
    expect_error(BAD "/c10_missing_key", NULL, SM2C_ERR_INVALID,
                 "variable 'weights': error: the checkpoint has no entry 'model/kernel'");
}

static void p7_versions_and_tags(void **state)
{
    (void)state;
    char *d = fs_tmpdir();
    small_model s;
    small_model_init(&s);
    s.sm.saved_model_schema_version = 2;
    write_model(d, &s.sm);
    expect_error(d, NULL, SM2C_ERR_UNSUPPORTED, "schema version 2");
    s.sm.saved_model_schema_version = 1;

    s.versions.min_consumer = SM2C_GRAPH_DEF_VERSION + 1;
    write_model(d, &s.sm);
    expect_error(d, NULL, SM2C_ERR_UNSUPPORTED, "needs GraphDef version");
    s.versions.min_consumer = 0;
    int32_t bad[] = { SM2C_GRAPH_DEF_VERSION };
    s.versions.n_bad_consumers = 1;
    s.versions.bad_consumers = bad;
    write_model(d, &s.sm);
    expect_error(d, NULL, SM2C_ERR_UNSUPPORTED, "bad consumer");
    s.versions.n_bad_consumers = 0;

    write_model(d, &s.sm);
    expect_error(d, "train", SM2C_ERR_INVALID, "no MetaGraphDef has the tag set [train]; tag sets present: [serve]");

    /* Two meta graphs: [serve] and [serve,gpu]; order of tags does not matter. */
    s.info2.n_tags = 2;
    s.info2.tags = s.tags;
    s.mg2.meta_info_def = &s.info2;
    s.sm.n_meta_graphs = 2;
    write_model(d, &s.sm);
    test_ctx *t = test_ctx_new();
    sm2c_model *m;
    assert_int_equal(sm2c_model_load(&t->ctx, d, "gpu,serve", &m), SM2C_OK);
    assert_int_equal(m->meta_graph_index, 1);
    sm2c_model_close(m);
    assert_int_equal(sm2c_model_load(&t->ctx, d, NULL, &m), SM2C_OK);
    assert_int_equal(m->meta_graph_index, 0);
    sm2c_model_close(m);
    test_ctx_free(t);
    /* Several with the same tag set. */
    s.info2.n_tags = 1;
    write_model(d, &s.sm);
    expect_error(d, "serve", SM2C_ERR_INVALID, "more than one MetaGraphDef has the tag set [serve]");
    s.sm.n_meta_graphs = 0;
    write_model(d, &s.sm);
    expect_error(d, NULL, SM2C_ERR_INVALID, "no MetaGraphDef");
    fs_rm_rf(d);
}

static void g3_duplicates_and_g12_limits(void **state)
{
    (void)state;
    char *d = fs_tmpdir();
    small_model s;
    small_model_init(&s);
    Tensorflow__NodeDef a = TENSORFLOW__NODE_DEF__INIT, b = TENSORFLOW__NODE_DEF__INIT;
    Tensorflow__NodeDef *nodes[] = { &a, &b };
    a.name = b.name = "x";
    a.op = b.op = "Placeholder";
    s.graph.n_node = 2;
    s.graph.node = nodes;
    write_model(d, &s.sm);
    expect_error(d, NULL, SM2C_ERR_INVALID, "duplicate node name 'x'");

    b.name = "y";
    write_model(d, &s.sm);
    test_ctx *t = test_ctx_new();
    t->limits.graph_nodes = 1;
    sm2c_model *m;
    assert_int_equal(sm2c_model_load(&t->ctx, d, NULL, &m), SM2C_ERR_LIMIT);
    assert_error_contains(t, "--limit graph-nodes");
    sm2c_model_close(m);
    test_ctx_free(t);

    t = test_ctx_new();
    t->limits.name_length = 0;
    assert_int_equal(sm2c_model_load(&t->ctx, d, NULL, &m), SM2C_ERR_LIMIT);
    assert_error_contains(t, "--limit name-length");
    sm2c_model_close(m);
    test_ctx_free(t);

    /* Duplicate function names in the library. */
    Tensorflow__FunctionDefLibrary lib = TENSORFLOW__FUNCTION_DEF_LIBRARY__INIT;
    Tensorflow__FunctionDef f = TENSORFLOW__FUNCTION_DEF__INIT;
    Tensorflow__OpDef sig = TENSORFLOW__OP_DEF__INIT;
    Tensorflow__FunctionDef *fns[] = { &f, &f };
    sig.name = "fn";
    f.signature = &sig;
    lib.n_function = 2;
    lib.function = fns;
    s.graph.library = &lib;
    write_model(d, &s.sm);
    expect_error(d, NULL, SM2C_ERR_INVALID, "duplicate function name 'fn'");
    fs_rm_rf(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads_real_models),
        cmocka_unit_test(f1_no_model_file),
        cmocka_unit_test(f2_not_regular_files),
        cmocka_unit_test(f2_symlinked_variables),
        cmocka_unit_test(f3_size_problems),
        cmocka_unit_test(f4_asset_paths),
        cmocka_unit_test(f5_variables_missing),
        cmocka_unit_test(c10_checkpoint_disagrees_with_graph),
        cmocka_unit_test(p7_versions_and_tags),
        cmocka_unit_test(g3_duplicates_and_g12_limits),
    };
    return cmocka_run_group_tests_name("savedmodel", tests, NULL, NULL);
}
