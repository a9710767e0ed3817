/*
** run_hooks.h: what `sm2c run --profile` and `--dump-intermediates` add to a
** run.  The program is compiled with its profiling hooks (codegen/c_profile.c)
** and built with -DMODEL_PROFILE=sm2c_run_hook; the driver defines that hook,
** which times every step of the static entry point's calls and, for a dump,
** saves each step's output of the last call into the build directory.
*/
#ifndef SM2C_RUN_HOOKS_H
#define SM2C_RUN_HOOKS_H

#include "base/arena.h"
#include "base/diag.h"
#include "lower/program.h"
#include "lower/program_query.h"
#include "run.h"

/* The -D flag that turns the hooks on for the build. */
#define SM2C_RUN_HOOK_DEFINE "-DMODEL_PROFILE=sm2c_run_hook"

/* C text put before the driver: the hook, and sm2c_run_hook_call(r) (the
** static entry's call r starts), sm2c_run_hook_done(argv0) (the calls are
** over: write the times, DIR/prof.raw, beside the driver).  `dump`: the hook
** also writes step s's output of the last call as DIR/stepS.raw. */
const char *sm2c_run_hook_source(sm2c_ctx *c, const sm2c_entry *e, int64_t repeat, int dump);

/* Reads DIR/prof.raw: each step's time in each of the `repeat` calls (of
** `rows` rows each with --max-batch, else 1), into out: each step's median. */
sm2c_status sm2c_run_read_profile(sm2c_ctx *c, const char *dir, const sm2c_entry *e, int64_t repeat, int32_t rows,
                                  sm2c_run_profile *out);

/* --dump-intermediates: the saved step outputs as OUTDIR/<node>.npy and
** OUTDIR/index.json, published whole. */
sm2c_status sm2c_run_collect_intermediates(sm2c_ctx *c, const char *dir, const sm2c_entry *e,
                                           const char *outdir);

#endif
