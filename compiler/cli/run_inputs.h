/*
** run_inputs.h: `sm2c run`'s inputs between the command line and the driver:
** which given array feeds which input of the entry, the --max-batch batch
** they share, their check against the compiled dtypes and shapes, and a
** string input's bytes for the driver.  fuzz/fuzz_run_inputs.c drives these
** with arbitrary arrays and entries.
*/
#ifndef SM2C_RUN_INPUTS_H
#define SM2C_RUN_INPUTS_H

#include "base/fileio.h"
#include "lower/program.h"
#include "run.h"

/* --max-batch: a port's shape at `batch` rows (batched ports), else its shape. */
sm2c_shape sm2c_run_shape(sm2c_ctx *c, const sm2c_port *p, int32_t batch);

/* The batch of the given arrays (arrays[k] is o->inputs[k]'s): the leading dim
** every batched input shares, 1 to e->max_batch; 0 when e has no batch. */
sm2c_status sm2c_run_batch(sm2c_ctx *c, const sm2c_entry *e, const sm2c_run_opts *o, const sm2c_tensor *arrays,
                           int32_t *batch);

/* Every input of e given once, with the compiled dtype and shape at `batch`,
** and no given key that names no input: checked before anything is built. */
sm2c_status sm2c_run_check_inputs(sm2c_ctx *c, const sm2c_entry *e, const sm2c_run_opts *o,
                                  const sm2c_tensor *arrays, int32_t batch);

/* The array given for entry input i (after sm2c_run_check_inputs: never NULL). */
const sm2c_tensor *sm2c_run_input_array(const sm2c_entry *e, int32_t i, const sm2c_run_opts *o,
                                        const sm2c_tensor *arrays);

/* A string tensor as the driver's load_strings reads it: nelem int64 lengths
** (host order: the driver runs here), then the bytes one after another. */
sm2c_buf sm2c_run_string_bytes(sm2c_ctx *c, const sm2c_tensor *t);

#endif
