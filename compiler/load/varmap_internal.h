/* varmap_internal.h: pieces of varmap shared between its files. */
#ifndef SM2C_VARMAP_INTERNAL_H
#define SM2C_VARMAP_INTERNAL_H

#include "saved_object_graph.pb-c.h"
#include "varmap.h"

sm2c_status sm2c_varmap_build_tf1(sm2c_ctx *c, const sm2c_model *m, sm2c_varmap *vm);

/* sm2c_varmap_build with the checkpoint's object graph given (NULL: none)
** instead of read from the bundle, so that the object-graph fuzz target can
** feed both graphs directly. */
sm2c_status sm2c_varmap_build_objects(sm2c_ctx *c, const sm2c_model *m,
                                      const Tensorflow__TrackableObjectGraph *tg,
                                      sm2c_varmap **out);

/* A StructuredValue (input signatures) as Python-like text:
** "((x: float32[-1,5]), {training: False})". */
const char *sm2c_structured_str(sm2c_ctx *c, const Tensorflow__StructuredValue *v);

#endif
