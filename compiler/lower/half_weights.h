/*
** half_weights.h: --quantize float16, TFLite's float16 quantization on the
** lowered program (docs/design.md, "Quantization").
*/
#ifndef SM2C_HALF_WEIGHTS_H
#define SM2C_HALF_WEIGHTS_H

#include <stdint.h>

#include "base/tensor.h"
#include "lower/program.h"

/* Float32 weights of at least this many elements are stored as binary16 and
** widened before use; smaller ones (biases, scales: their bytes are few, and
** a widening step would cost more than it saves) keep float32 storage of the
** rounded values, so that every weight computes as its float16 value. */
#define SM2C_HALF_STORE_MIN 256

/* Rewrites entry e of p (lowered, not yet planned): each float32 weight its
** steps read (but one an output is a copy of) becomes its value rounded to
** binary16 as TFLite's converter rounds it (clamped to +-65504, then to
** nearest even): stored as binary16 when it has SM2C_HALF_STORE_MIN elements or
** more, with a step sm2c_rt_widen_f16_f32 into an arena buffer before the
** steps that read it (before the outermost loop or branch holding them),
** else stored rounded in float32.  Adds weights to p: the originals stay,
** unread (so not emitted) unless a state starts from one, for later entries'
** lowering to find by their bytes. */
void sm2c_entry_half_weights(sm2c_ctx *c, sm2c_program *p, sm2c_entry *e);

/* --weights-bits 4: int8 weights of at least this many elements whose values
** fit int4 are stored packed; smaller ones (a step costs more than the bytes
** it saves) stay int8. */
#define SM2C_INT4_STORE_MIN 64

/* Rewrites entry e of p (lowered, not yet planned): each int8 weight its steps
** read (but one an output is a copy of) with SM2C_INT4_STORE_MIN elements or
** more, all in [-8, 7], becomes a uint8 weight of its values two to a byte
** (TFLite's INT4 order, the low nibble first), with a step
** sm2c_rt_widen_s4_s8 into an int8 arena buffer before the steps that read it
** (before the outermost loop or branch holding them). */
void sm2c_entry_int4_weights(sm2c_ctx *c, sm2c_program *p, sm2c_entry *e);

#endif
