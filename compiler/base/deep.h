/*
** deep.h: running a walk whose depth the input sets on a stack sized for it.
**
** protobuf-c's unpack() recurses once per nested message and the importer
** once per call level (a call instantiates the callee's body inside the
** caller's walk).  Their depth is bounded by limits the user may raise
** (`nesting-depth`, `call-depth`), so the main thread's stack (8 MiB by
** default) is not enough by itself: past a depth it can surely hold, the walk
** runs on a thread whose stack is sized from the limit, and a limit whose
** stack cannot be had is an error naming it, never a crash
** (docs/reliability.md 10).
*/
#ifndef SM2C_DEEP_H
#define SM2C_DEEP_H

#include <stddef.h>
#include <stdint.h>

/* Stack bytes a walk of `depth` levels of `per_level` bytes each needs, with
** room for what runs above and below it; 0 when the caller's own stack holds
** it (depth within `inline_depth`).  Saturates rather than overflows. */
size_t sm2c_deep_stack(int64_t depth, int64_t inline_depth, size_t per_level);

/* fn(arg) on the calling thread when `stack` is 0, else on a new thread with
** a stack of `stack` bytes, waited for.  0 on success; -1 when the thread or
** its stack could not be had (fn has not run). */
int sm2c_deep_call(size_t stack, void (*fn)(void *), void *arg);

#endif
