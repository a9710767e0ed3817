/*
** savedmodel.h: loading a SavedModel directory.
**
** sm2c_model_load() reads saved_model.pb (or saved_model.pbtxt), picks the
** MetaGraphDef by tag set, validates versions and limits, indexes the graph and
** the function library, and opens the checkpoint under variables/.
*/
#ifndef SM2C_SAVEDMODEL_H
#define SM2C_SAVEDMODEL_H

#include "bundle.h"
#include "saved_model.pb-c.h"
#include "base/strmap.h"
#include "base/tensor.h"

/* The newest GraphDef version sm2c understands (TF_GRAPH_DEF_VERSION of the
** TensorFlow release we test against, 2.21). */
#define SM2C_GRAPH_DEF_VERSION 2200

typedef struct sm2c_model {
    const char *dir;            /* the export directory as the user named it */
    const char *file;           /* "<dir>/saved_model.pb(txt)", for diagnostics */
    int text_format;
    size_t file_bytes;
    int dirfd;
    Tensorflow__SavedModel *saved_model;
    Tensorflow__MetaGraphDef *meta_graph;  /* the chosen one */
    size_t meta_graph_index;
    Tensorflow__GraphDef *graph;           /* meta_graph->graph_def, never NULL */
    sm2c_strmap *nodes;                    /* main-graph node name -> NodeDef */
    sm2c_strmap *node_index;               /* main-graph node name -> its index + 1 (built
                                              once: every entry's import looks names up here) */
    sm2c_strmap *functions;                /* library function name -> FunctionDef */
    sm2c_strmap *signatures;               /* signature key -> SignatureDef */
    sm2c_bundle *bundle;                   /* present = 0 without variables/ */
} sm2c_model;

/* `tag_set` is comma-separated ("serve", "train,serve"); NULL picks the only
** MetaGraphDef, or else the one tagged exactly "serve". */
sm2c_status sm2c_model_load(sm2c_ctx *c, const char *dir, const char *tag_set,
                            sm2c_model **out);
void sm2c_model_close(sm2c_model *m);

/* The same checks on saved_model.pb (or, with text_format, .pbtxt) bytes held
** in memory, without a directory: no assets are looked at and there is no
** checkpoint (bundle->present = 0).  For the fuzz targets, which must not
** touch the filesystem per input; `display` names the bytes in diagnostics. */
sm2c_status sm2c_model_load_bytes(sm2c_ctx *c, const char *display, const uint8_t *data,
                                  size_t len, int text_format, const char *tag_set,
                                  sm2c_model **out);

/* Check the attribute values of every node of the main graph and of every
** library function (docs/reliability.md N5, N6, N8); reports all problems. */
sm2c_status sm2c_model_check_attrs(sm2c_ctx *c, const sm2c_model *m);

/* The tags of meta graph i as "a,b" in the arena. */
char *sm2c_model_tags_str(sm2c_ctx *c, const Tensorflow__MetaGraphDef *mg);

/* The node of a tensor name "node", "node:3" or "^node" in the main graph;
** NULL if absent.  *index gets the output index (0 when none). */
Tensorflow__NodeDef *sm2c_model_tensor_node(const sm2c_model *m, const char *tensor,
                                            long *index);

#endif
