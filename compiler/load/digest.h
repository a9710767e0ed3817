/*
** digest.h: the SHA-256 of every file a compile read, for the generated code's
** banner (docs/reliability.md rule 14: outputs record exactly what they came from).
*/
#ifndef SM2C_DIGEST_H
#define SM2C_DIGEST_H

#include "savedmodel.h"

/* "saved_model.pb <hex>\nvariables/variables.index <hex>\n..." in the arena:
** the model file, then the checkpoint's index and shards when present.
** Names are relative to the SavedModel directory. */
sm2c_status sm2c_input_digests(sm2c_ctx *c, const sm2c_model *m, const char **out);

#endif
