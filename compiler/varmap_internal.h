/* varmap_internal.h: pieces of varmap shared between its files. */
#ifndef SM2C_VARMAP_INTERNAL_H
#define SM2C_VARMAP_INTERNAL_H

#include "saved_object_graph.pb-c.h"
#include "varmap.h"

sm2c_status sm2c_varmap_build_tf1(sm2c_ctx *c, const sm2c_model *m, sm2c_varmap *vm);

/* A StructuredValue (input signatures) as Python-like text:
** "((x: float32[-1,5]), {training: False})". */
const char *sm2c_structured_str(sm2c_ctx *c, const Tensorflow__StructuredValue *v);

#endif
