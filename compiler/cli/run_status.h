/*
** run_status.h: the driver `sm2c run` builds exits with a status that says
** how the generated entry point failed; this turns it into words.  An entry
** point's error code rc (runtime/include/sm2c_rt.h, SM2C_RT_ERR_*) is exit
** status SM2C_RUN_EXIT_RC - rc.
*/
#ifndef SM2C_RUN_STATUS_H
#define SM2C_RUN_STATUS_H

#include "base/arena.h"

#define SM2C_RUN_EXIT_RC 64

/* What SM2C_RT_ERR_* code rc means, e.g. "an index input is out of range". */
const char *sm2c_rt_status_words(int rc);

/* The driver's exit status (sm2c_spawn_status) as one line of words, naming
** no path: "the generated entry returned -1 (an index input is out of range)",
** "the generated code crashed (signal 11)". */
const char *sm2c_run_status_words(sm2c_arena *a, int status);

#endif
