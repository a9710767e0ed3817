/*
** inspect_show.h: `sm2c inspect DIR --signature KEY`, one signature the way
** `saved_model_cli show --signature_def KEY` shows it (inputs and outputs with
** key, dtype, shape and tensor), then the tf.Example features its protos must
** hold and whether sm2c compiles it.
*/
#ifndef SM2C_INSPECT_SHOW_H
#define SM2C_INSPECT_SHOW_H

#include <stdio.h>

#include "load/savedmodel.h"
#include "ops/ops_parse.h"

typedef struct sm2c_show_sig {
    const char *key;
    const Tensorflow__SignatureDef *def;
    const char *why;                     /* NULL: compiles */
    int32_t n_features;
    const sm2c_example_feature *features;
} sm2c_show_sig;

/* The SignatureDef of m called key, or NULL after an error naming the valid keys. */
const Tensorflow__SignatureDef *sm2c_show_find(sm2c_ctx *c, const sm2c_model *m, const char *key);

void sm2c_show_text(sm2c_ctx *c, FILE *f, const sm2c_show_sig *s);

#endif
