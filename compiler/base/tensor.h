/*
** tensor.h: dtypes, shapes and dense tensors as the compiler holds them.
**
** Dtypes are TensorFlow's DataType numbers (types.proto); `*_REF` types are the
** base value + 100 and mean the same element type.
*/
#ifndef SM2C_TENSOR_H
#define SM2C_TENSOR_H

#include <stdint.h>
#include <stddef.h>

#include "arena.h"
#include "diag.h"

typedef struct sm2c_ctx {
    sm2c_arena *arena;
    sm2c_diag *diag;
    const sm2c_limits *limits;
    uint64_t *lowered;      /* optional, for --report: per op table entry, a bit per dtype lowered */
} sm2c_ctx;

/* A copy of c whose diagnostics go into *quiet and are discarded: for an
** attempt whose failure is not an error (folding, a trial import). */
sm2c_ctx sm2c_ctx_quiet(const sm2c_ctx *c, sm2c_diag *quiet);

enum {
    SM2C_DT_INVALID = 0, SM2C_DT_FLOAT = 1, SM2C_DT_DOUBLE = 2, SM2C_DT_INT32 = 3,
    SM2C_DT_UINT8 = 4, SM2C_DT_INT16 = 5, SM2C_DT_INT8 = 6, SM2C_DT_STRING = 7,
    SM2C_DT_COMPLEX64 = 8, SM2C_DT_INT64 = 9, SM2C_DT_BOOL = 10, SM2C_DT_QINT8 = 11,
    SM2C_DT_QUINT8 = 12, SM2C_DT_QINT32 = 13, SM2C_DT_BFLOAT16 = 14, SM2C_DT_QINT16 = 15,
    SM2C_DT_QUINT16 = 16, SM2C_DT_UINT16 = 17, SM2C_DT_COMPLEX128 = 18, SM2C_DT_HALF = 19,
    SM2C_DT_RESOURCE = 20, SM2C_DT_VARIANT = 21, SM2C_DT_UINT32 = 22, SM2C_DT_UINT64 = 23,
    SM2C_DT_FLOAT8_E5M2 = 24, SM2C_DT_FLOAT8_E4M3FN = 25, SM2C_DT_FLOAT8_E4M3FNUZ = 26,
    SM2C_DT_FLOAT8_E4M3B11FNUZ = 27, SM2C_DT_FLOAT8_E5M2FNUZ = 28, SM2C_DT_INT4 = 29,
    SM2C_DT_UINT4 = 30, SM2C_DT_INT2 = 31, SM2C_DT_UINT2 = 32, SM2C_DT_FLOAT4_E2M1FN = 33,
    SM2C_DT_LAST = 33,
    SM2C_DT_REF_OFFSET = 100
};

/* The element type without `_REF`; values outside the enum are returned unchanged. */
int sm2c_dtype_base(int dt);
/* 1 for DataType values TensorFlow defines (with or without _REF). */
int sm2c_dtype_known(int dt);
/* TensorFlow's enum name, "DT_FLOAT", "DT_FLOAT_REF"; "DT_<n>" for unknown values
** (into a static buffer for those, so not reentrant for unknown values). */
const char *sm2c_dtype_enum_name(int dt);
/* Python-style short name: "float32", "int64", "string", "float32_ref". */
const char *sm2c_dtype_name(int dt);
/* Bytes per element of a fixed-size dtype (bool 1, half 2); 0 for string,
** resource, variant, sub-byte and unknown dtypes. */
size_t sm2c_dtype_size(int dt);

/* A shape: rank -1 means unknown rank; a dim of -1 means unknown size. */
typedef struct sm2c_shape {
    int32_t rank;
    int64_t *dims;
} sm2c_shape;

/* Number of elements; -1 when a dim or the rank is unknown, -2 when the product
** exceeds `cap` (checked in a fixed order with a zero short-circuit). */
int64_t sm2c_shape_elements(const sm2c_shape *s, int64_t cap);
/* "[2,3]", "[]" (scalar), "[-1,5]", "<unknown rank>" in the arena. */
char *sm2c_shape_str(sm2c_arena *a, const sm2c_shape *s);

typedef struct sm2c_bytes {
    const uint8_t *data;
    size_t len;
} sm2c_bytes;

/* A dense tensor.  Numeric data is little-endian row-major in `data`;
** strings are an array of sm2c_bytes in `strings`. */
typedef struct sm2c_tensor {
    int dtype;
    sm2c_shape shape;
    int64_t nelem;
    size_t nbytes;           /* bytes of `data` for fixed-size dtypes */
    void *data;
    sm2c_bytes *strings;     /* DT_STRING only */
} sm2c_tensor;

#endif
