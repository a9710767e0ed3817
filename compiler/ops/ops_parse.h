/*
** ops_parse.h: the features a ParseExample / ParseExampleV2 node reads
** (ops_parse.c), as `sm2c inspect --signature` lists them for a caller who
** must fill the tf.Example protos.
*/
#ifndef SM2C_OPS_PARSE_H
#define SM2C_OPS_PARSE_H

#include "ir/ir.h"

typedef struct sm2c_example_feature {
    sm2c_bytes key;
    int sparse;                  /* tf.io.VarLenFeature; else FixedLenFeature */
    int dtype;
    sm2c_shape shape;            /* dense: its fixed shape (rank -1 for sparse) */
    const sm2c_tensor *dflt;     /* dense: the default, NULL or empty when required */
} sm2c_example_feature;

/* The dense then sparse features of ParseExample(V2) node n, read as the
** lowering reads them (its keys and defaults constants).  An error (on c's
** diagnostics) when the node is malformed. */
sm2c_status sm2c_parse_example_features(sm2c_ctx *c, const sm2c_node *n, sm2c_example_feature **out,
                                        int32_t *n_out);

#endif
