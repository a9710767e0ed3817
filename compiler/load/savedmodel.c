/*
** savedmodel.c: the directory, the SavedModel proto and the choice of
** MetaGraphDef (docs/savedmodel-format.md section 0; docs/reliability.md F1-F7, P7, G12).
*/
#define _GNU_SOURCE
#include "savedmodel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attr_check.h"
#include "callgraph.h"
#include "base/fileio.h"
#include "pbwire.h"

/* Hard cap from protobuf itself: sizes are int32. */
#define PROTOBUF_MAX_BYTES (((int64_t)1 << 31) - 1)

static const char *join(sm2c_ctx *c, const char *dir, const char *name)
{
    return sm2c_path_join(c->arena, dir, name);
}

static sm2c_status open_export_dir(sm2c_ctx *c, sm2c_model *m)
{
    /* The directory the user names may itself be a symlink; nothing inside it may. */
    m->dirfd = open(m->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (m->dirfd < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->dir, NULL,
                          "cannot open the SavedModel directory: %s", strerror(errno));
    return SM2C_OK;
}

/* Which file holds the proto: TF tries saved_model.pb, then saved_model.pbtxt (F1). */
static sm2c_status find_model_file(sm2c_ctx *c, sm2c_model *m, const char **name)
{
    if (sm2c_exists(m->dirfd, "saved_model.pb")) {
        *name = "saved_model.pb";
        return SM2C_OK;
    }
    if (sm2c_exists(m->dirfd, "saved_model.pbtxt")) {
        *name = "saved_model.pbtxt";
        m->text_format = 1;
        return SM2C_OK;
    }
    if (sm2c_exists(m->dirfd, "saved_model.cpb"))
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, join(c, m->dir, "saved_model.cpb"), NULL,
                          "chunked SavedModel (proto splitter format) is not supported");
    return sm2c_error(c->diag, SM2C_ERR_INVALID, m->dir, NULL,
                      "no saved_model.pb or saved_model.pbtxt in this directory");
}

static int64_t model_cap(const sm2c_ctx *c)
{
    return c->limits->model_bytes < PROTOBUF_MAX_BYTES ? c->limits->model_bytes
                                                        : PROTOBUF_MAX_BYTES;
}

/* The bytes of saved_model.pb(txt), whichever way they were obtained -> m->saved_model. */
static sm2c_status decode_saved_model(sm2c_ctx *c, sm2c_model *m, sm2c_buf buf)
{
    m->file_bytes = buf.len;
    if (buf.len == 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, NULL, "file is empty");
    sm2c_status st;
    if (m->text_format) {
        sm2c_buf wire;
        st = sm2c_pbtext_to_wire(c, m->file, (const char *)buf.data, buf.len,
                                 &tensorflow__saved_model__descriptor, &wire);
        if (st)
            return st;
        buf = wire;
    }
    ProtobufCMessage *msg;
    st = sm2c_pb_unpack(c, m->file, &tensorflow__saved_model__descriptor, buf.data, buf.len, &msg);
    m->saved_model = (Tensorflow__SavedModel *)msg;
    return st;
}

static sm2c_status read_saved_model(sm2c_ctx *c, sm2c_model *m)
{
    const char *name = NULL;
    sm2c_status st = find_model_file(c, m, &name);
    if (st)
        return st;
    m->file = join(c, m->dir, name);
    sm2c_buf buf;
    if ((st = sm2c_read_file(c, m->dirfd, name, m->file, model_cap(c), &buf)))
        return st;
    return decode_saved_model(c, m, buf);
}

/* Parse "a,b" into a sorted, de-duplicated list of tags. */
static size_t parse_tags(sm2c_ctx *c, const char *s, char ***out)
{
    size_t n = 1;
    for (const char *p = s; *p; p++)
        n += *p == ',';
    char **tags = sm2c_arena_array(c->arena, n, sizeof *tags);
    size_t k = 0;
    for (const char *p = s;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len)
            tags[k++] = sm2c_arena_strndup(c->arena, p, len);
        if (!e)
            break;
        p = e + 1;
    }
    *out = tags;
    return k;
}

static int has_tag(char **tags, size_t n, const char *t)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(tags[i], t) == 0)
            return 1;
    return 0;
}

/* TF compares tag *sets*: same members, order and repeats ignored. */
static int tags_equal(const Tensorflow__MetaGraphDef *mg, char **want, size_t n_want)
{
    const Tensorflow__MetaGraphDef__MetaInfoDef *info = mg->meta_info_def;
    char **have = info ? info->tags : NULL;
    size_t n_have = info ? info->n_tags : 0;
    for (size_t i = 0; i < n_have; i++)
        if (!has_tag(want, n_want, have[i]))
            return 0;
    for (size_t i = 0; i < n_want; i++)
        if (!has_tag(have, n_have, want[i]))
            return 0;
    return 1;
}

char *sm2c_model_tags_str(sm2c_ctx *c, const Tensorflow__MetaGraphDef *mg)
{
    const Tensorflow__MetaGraphDef__MetaInfoDef *info = mg->meta_info_def;
    size_t len = 1;
    for (size_t i = 0; info && i < info->n_tags; i++)
        len += strlen(info->tags[i]) + 1;
    char *s = sm2c_arena_alloc(c->arena, len);
    for (size_t i = 0; info && i < info->n_tags; i++) {
        if (i)
            strcat(s, ",");
        strcat(s, info->tags[i]);
    }
    return s;
}

static sm2c_status no_tag_match(sm2c_ctx *c, sm2c_model *m, const char *tag_set, int many)
{
    const Tensorflow__SavedModel *sm = m->saved_model;
    char *present = sm2c_arena_strdup(c->arena, "");
    for (size_t i = 0; i < sm->n_meta_graphs; i++)
        present = sm2c_arena_printf(c->arena, "%s%s[%s]", present, i ? " " : "",
                                    sm2c_model_tags_str(c, sm->meta_graphs[i]));
    return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, NULL,
                      "%s MetaGraphDef has the tag set [%s]; tag sets present: %s",
                      many ? "more than one" : "no", tag_set, present);
}

static sm2c_status choose_meta_graph(sm2c_ctx *c, sm2c_model *m, const char *tag_set)
{
    const Tensorflow__SavedModel *sm = m->saved_model;
    if (sm->n_meta_graphs == 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, NULL, "no MetaGraphDef in the file");
    if (!tag_set && sm->n_meta_graphs == 1) {
        m->meta_graph_index = 0;
        return SM2C_OK;
    }
    char **want;
    size_t n_want = parse_tags(c, tag_set ? tag_set : "serve", &want);
    size_t found = 0;
    for (size_t i = 0; i < sm->n_meta_graphs; i++) {
        if (tags_equal(sm->meta_graphs[i], want, n_want)) {
            if (found++)
                return no_tag_match(c, m, tag_set ? tag_set : "serve", 1);
            m->meta_graph_index = i;
        }
    }
    if (!found)
        return no_tag_match(c, m, tag_set ? tag_set : "serve", 0);
    return SM2C_OK;
}

static sm2c_status check_versions(sm2c_ctx *c, sm2c_model *m)
{
    int64_t v = m->saved_model->saved_model_schema_version;
    /* 0 is an absent field (proto3 default); TF writes 1. */
    if (v != 0 && v != 1)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, m->file, "saved_model_schema_version",
                          "schema version %lld is not supported; expected 1", (long long)v);
    const Tensorflow__VersionDef *vd = m->graph->versions;
    if (!vd)
        return SM2C_OK;
    if (vd->min_consumer > SM2C_GRAPH_DEF_VERSION)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, m->file, "graph_def.versions",
                          "the graph needs GraphDef version %d or newer; sm2c reads up to %d",
                          vd->min_consumer, SM2C_GRAPH_DEF_VERSION);
    for (size_t i = 0; i < vd->n_bad_consumers; i++)
        if (vd->bad_consumers[i] == SM2C_GRAPH_DEF_VERSION)
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, m->file, "graph_def.versions",
                              "the graph lists GraphDef version %d as a bad consumer",
                              SM2C_GRAPH_DEF_VERSION);
    return SM2C_OK;
}

static sm2c_status check_name(sm2c_ctx *c, sm2c_model *m, const char *where, const char *name)
{
    if (name[0] == 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, where, "empty name");
    if ((int64_t)strlen(name) > c->limits->name_length)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, m->file, where,
                          "name is %zu bytes, more than the limit of %lld (--limit name-length=N)",
                          strlen(name), (long long)c->limits->name_length);
    return SM2C_OK;
}

/* An op name is a name too (G12): a 1 MiB one is refused here, before any
** message or listing would carry it (issue 32, class 7). */
static sm2c_status check_op_names(sm2c_ctx *c, sm2c_model *m, const char *where, Tensorflow__NodeDef **nodes,
                                  size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((int64_t)strlen(nodes[i]->op) > c->limits->name_length)
            return sm2c_error(c->diag, SM2C_ERR_LIMIT, m->file, sm2c_arena_printf(c->arena, "%s.node%s[%zu].op", where,
                              strcmp(where, "graph_def") ? "_def" : "", i),
                              "op name is %zu bytes, more than the limit of %lld (--limit name-length=N)",
                              strlen(nodes[i]->op), (long long)c->limits->name_length);
    return SM2C_OK;
}

static sm2c_status index_nodes(sm2c_ctx *c, sm2c_model *m)
{
    const Tensorflow__GraphDef *g = m->graph;
    if ((int64_t)g->n_node > c->limits->graph_nodes)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, m->file, "graph_def",
                          "%zu nodes, more than the limit of %lld (--limit graph-nodes=N)",
                          g->n_node, (long long)c->limits->graph_nodes);
    sm2c_status ost = check_op_names(c, m, "graph_def", g->node, g->n_node);
    if (ost)
        return ost;
    m->nodes = sm2c_strmap_new(c->arena, g->n_node);
    m->node_index = sm2c_strmap_new(c->arena, g->n_node);
    const Tensorflow__MetaGraphDef *mg = m->meta_graph;
    m->signatures = sm2c_strmap_new(c->arena, mg->n_signature_def);
    for (size_t i = 0; i < mg->n_signature_def; i++)
        if (mg->signature_def[i]->value)
            sm2c_strmap_put(m->signatures, mg->signature_def[i]->key, mg->signature_def[i]->value);
    for (size_t i = 0; i < g->n_node; i++) {
        const char *where = sm2c_arena_printf(c->arena, "graph_def.node[%zu]", i);
        sm2c_status st = check_name(c, m, where, g->node[i]->name);
        if (st)
            return st;
        if (sm2c_strmap_put(m->nodes, g->node[i]->name, g->node[i]))
            return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, where,
                              "duplicate node name '%s'", g->node[i]->name);
        sm2c_strmap_put(m->node_index, g->node[i]->name, (void *)(intptr_t)(i + 1));
    }
    return SM2C_OK;
}

static sm2c_status index_functions(sm2c_ctx *c, sm2c_model *m)
{
    const Tensorflow__FunctionDefLibrary *lib = m->graph->library;
    size_t n = lib ? lib->n_function : 0;
    if ((int64_t)n > c->limits->functions)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, m->file, "graph_def.library",
                          "%zu functions, more than the limit of %lld (--limit functions=N)", n,
                          (long long)c->limits->functions);
    m->functions = sm2c_strmap_new(c->arena, n);
    for (size_t i = 0; i < n; i++) {
        Tensorflow__FunctionDef *f = lib->function[i];
        const char *where = sm2c_arena_printf(c->arena, "graph_def.library.function[%zu]", i);
        if (!f->signature)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, where, "function has no signature");
        sm2c_status st = check_name(c, m, where, f->signature->name);
        if (st)
            return st;
        if ((int64_t)f->n_node_def > c->limits->graph_nodes)
            return sm2c_error(c->diag, SM2C_ERR_LIMIT, m->file, f->signature->name,
                              "%zu nodes, more than the limit of %lld (--limit graph-nodes=N)",
                              f->n_node_def, (long long)c->limits->graph_nodes);
        if ((st = check_op_names(c, m, where, f->node_def, f->n_node_def)))
            return st;
        if (sm2c_strmap_put(m->functions, f->signature->name, f))
            return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, where,
                              "duplicate function name '%s'", f->signature->name);
    }
    return SM2C_OK;
}

/* An asset path must stay beneath assets/: relative, no "..", no symlinks (F4). */
static sm2c_status check_asset_path(sm2c_ctx *c, sm2c_model *m, const char *where,
                                    const char *name)
{
    if (name[0] == 0 || name[0] == '/')
        return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, where,
                          "asset filename '%s' is not a relative path under assets/", name);
    for (const char *p = name; *p;) {
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if ((len == 2 && p[0] == '.' && p[1] == '.') || len == 0)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, where,
                              "asset filename '%s' leaves assets/", name);
        p += len + (e != NULL);
    }
    if (m->dirfd < 0)
        return SM2C_OK; /* loaded from bytes: there is no assets/ to look into */
    int fd = sm2c_open_dir(m->dirfd, "assets");
    if (fd < 0)
        return errno == ENOENT ? SM2C_OK
            : sm2c_error(c->diag, SM2C_ERR_INVALID, join(c, m->dir, "assets"), NULL,
                         "is not a directory (symlinks are not followed)");
    /* Walk component by component without following symlinks. */
    char *path = sm2c_arena_strdup(c->arena, name), *save = NULL;
    sm2c_status st = SM2C_OK;
    for (char *part = strtok_r(path, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
        struct stat sb;
        if (fstatat(fd, part, &sb, AT_SYMLINK_NOFOLLOW) != 0)
            break; /* missing assets are TensorFlow's problem at run time, not ours */
        if (S_ISLNK(sb.st_mode)) {
            st = sm2c_error(c->diag, SM2C_ERR_INVALID, m->file, where,
                            "asset '%s' goes through a symlink", name);
            break;
        }
        if (!S_ISDIR(sb.st_mode))
            break;
        int next = sm2c_open_dir(fd, part);
        close(fd);
        if ((fd = next) < 0)
            return st;
    }
    close(fd);
    return st;
}

static sm2c_status check_assets(sm2c_ctx *c, sm2c_model *m)
{
    const Tensorflow__MetaGraphDef *mg = m->meta_graph;
    for (size_t i = 0; i < mg->n_asset_file_def; i++) {
        const char *where = sm2c_arena_printf(c->arena, "asset_file_def[%zu]", i);
        sm2c_status st = check_asset_path(c, m, where, mg->asset_file_def[i]->filename);
        if (st)
            return st;
    }
    return SM2C_OK;
}

/* Everything checked on the decoded proto, before the checkpoint is opened. */
static sm2c_status check_proto(sm2c_ctx *c, sm2c_model *m, const char *tag_set)
{
    sm2c_status st;
    if ((st = choose_meta_graph(c, m, tag_set)))
        return st;
    m->meta_graph = m->saved_model->meta_graphs[m->meta_graph_index];
    m->graph = m->meta_graph->graph_def;
    if (!m->graph) {
        static Tensorflow__GraphDef empty = TENSORFLOW__GRAPH_DEF__INIT;
        m->graph = &empty;
    }
    if ((st = check_versions(c, m)) || (st = index_nodes(c, m)) ||
        (st = index_functions(c, m)) || (st = sm2c_check_call_graph(c, m)) || (st = check_assets(c, m)))
        return st;
    return SM2C_OK;
}

sm2c_status sm2c_model_load(sm2c_ctx *c, const char *dir, const char *tag_set,
                            sm2c_model **out)
{
    sm2c_model *m = sm2c_arena_alloc(c->arena, sizeof *m);
    m->dir = sm2c_arena_strdup(c->arena, dir);
    m->dirfd = -1;
    *out = m;
    sm2c_status st;
    if ((st = open_export_dir(c, m)) || (st = read_saved_model(c, m)) ||
        (st = check_proto(c, m, tag_set)))
        return st;
    return sm2c_bundle_open(c, m->dirfd, m->dir, &m->bundle);
}

sm2c_status sm2c_model_load_bytes(sm2c_ctx *c, const char *display, const uint8_t *data,
                                  size_t len, int text_format, const char *tag_set,
                                  sm2c_model **out)
{
    sm2c_model *m = sm2c_arena_alloc(c->arena, sizeof *m);
    m->dir = m->file = sm2c_arena_strdup(c->arena, display);
    m->dirfd = -1;
    m->text_format = text_format;
    m->bundle = sm2c_bundle_absent(c, display);
    *out = m;
    if ((int64_t)len > model_cap(c))
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, display, NULL,
                          "%zu bytes, more than the limit of %lld (--limit model-bytes=N)", len,
                          (long long)model_cap(c));
    /* NUL-terminated like sm2c_read_file's buffers (the text parser may rely on it). */
    sm2c_buf buf = { sm2c_arena_alloc(c->arena, len + 1), len };
    if (len)
        memcpy(buf.data, data, len);
    sm2c_status st = decode_saved_model(c, m, buf);
    return st ? st : check_proto(c, m, tag_set);
}

void sm2c_model_close(sm2c_model *m)
{
    if (!m)
        return;
    if (m->bundle)
        sm2c_bundle_close(m->bundle);
    if (m->dirfd >= 0)
        close(m->dirfd);
    m->dirfd = -1;
}

Tensorflow__NodeDef *sm2c_model_tensor_node(const sm2c_model *m, const char *tensor, long *index)
{
    if (tensor[0] == '^')
        tensor++;
    *index = 0;
    const char *colon = strrchr(tensor, ':');
    if (!colon)
        return sm2c_strmap_get(m->nodes, tensor);
    char *end;
    errno = 0;
    long k = strtol(colon + 1, &end, 10);
    if (*end || colon[1] == 0 || colon[1] == '-' || colon[1] == '+' || errno)
        return NULL;
    char *name = strndup(tensor, (size_t)(colon - tensor));
    if (!name)
        return NULL;
    Tensorflow__NodeDef *n = sm2c_strmap_get(m->nodes, name);
    free(name);
    *index = k;
    return n;
}

sm2c_status sm2c_model_check_attrs(sm2c_ctx *c, const sm2c_model *m)
{
    sm2c_status first = sm2c_check_graph_attrs(c, m->file, NULL, m->graph->node, m->graph->n_node);
    const Tensorflow__FunctionDefLibrary *lib = m->graph->library;
    for (size_t i = 0; lib && i < lib->n_function; i++) {
        const Tensorflow__FunctionDef *f = lib->function[i];
        sm2c_status st = sm2c_check_graph_attrs(c, m->file, f->signature->name, f->node_def,
                                                f->n_node_def);
        if (!first)
            first = st;
    }
    return first;
}
