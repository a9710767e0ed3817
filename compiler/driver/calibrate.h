/*
** calibrate.h: --quantize int8's calibration (calibrate.c): the float program
** of an entry, lowered as it would be compiled, runs inside the compiler on
** the calibration inputs through the runtime's own kernels (lower/exec.c, the
** constant folder's interpreter), and each value's min and max are recorded.
*/
#ifndef SM2C_CALIBRATE_H
#define SM2C_CALIBRATE_H

#include "lower/program.h"
#include "optimize/quant.h"

/* One --calibration KEY=FILE.npy, read by the front end. */
typedef struct sm2c_calibration {
    const char *key;            /* the entry's input key */
    const char *file;           /* for diagnostics */
    sm2c_tensor data;           /* N samples stacked along the leading dim */
} sm2c_calibration;

/* Run entry e of program p (lowered from graph values 0..n_values, value id ->
** buffer id in buf_of) on every sample, widening ranges[value id]. */
sm2c_status sm2c_calibrate(sm2c_ctx *c, const sm2c_program *p, const sm2c_entry *e, const int32_t *buf_of,
                           int32_t n_values, const sm2c_calibration *cal, int32_t n_cal, sm2c_range *ranges);

/* Mean |dequantized int8 - float| of each int8 value of the quantized entry eq
** (value id -> buffer qbuf_of) against the float entry ef (fbuf_of) on the
** same samples: err[id] (-1 where not measured).  float_of[id] names the float
** value an int8 value stands for (itself, or what its QuantizeS8 read), -1 for
** none; quant_of[id] is its scale and zero point. */
sm2c_status sm2c_quant_errors(sm2c_ctx *c, const sm2c_program *pf, const sm2c_entry *ef, const int32_t *fbuf_of,
                              const sm2c_program *pq, const sm2c_entry *eq, const int32_t *qbuf_of,
                              int32_t n_values, const int32_t *float_of, const sm2c_qparam *const *quant_of,
                              const sm2c_calibration *cal, int32_t n_cal, double *err);

#endif
