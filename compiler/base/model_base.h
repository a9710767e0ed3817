/*
** model_base.h: the directory name a SavedModel's default --name comes from.
*/
#ifndef SM2C_MODEL_BASE_H
#define SM2C_MODEL_BASE_H

#include "arena.h"

/* The last component of the model directory `dir` ("a/digits/" -> "digits",
** "." -> the working directory's name), or, when that is a version number as
** TF Serving lays models out ("export/1"), its parent's ("export"); read from
** the absolute path with "." and ".." removed textually, as Python's
** os.path.abspath does (the Python package mirrors it).  In the arena. */
const char *sm2c_model_base(sm2c_arena *a, const char *dir);

#endif
