/*
** test_program.h: building lowered programs by hand, for the backend tests.
*/
#ifndef SM2C_TEST_PROGRAM_H
#define SM2C_TEST_PROGRAM_H

#include <string.h>

#include "lower/program.h"

static inline sm2c_shape shape(sm2c_arena *a, int32_t rank, const int64_t *d)
{
    sm2c_shape s = { rank, NULL };
    if (rank > 0) {
        s.dims = sm2c_arena_array(a, (size_t)rank, sizeof *s.dims);
        memcpy(s.dims, d, (size_t)rank * sizeof *d);
    }
    return s;
}

static inline sm2c_tensor tensor(sm2c_arena *a, int dtype, int32_t rank, const int64_t *d,
                          const void *data, size_t elem)
{
    sm2c_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.shape = shape(a, rank, d);
    t.nelem = sm2c_shape_elements(&t.shape, INT64_MAX);
    t.nbytes = (size_t)t.nelem * elem;
    t.data = sm2c_arena_alloc(a, t.nbytes + 1);
    memcpy(t.data, data, t.nbytes);
    return t;
}

static inline sm2c_buffer buffer(sm2c_arena *a, sm2c_bufkind kind, int dtype, int32_t rank,
                          const int64_t *d, int32_t index, int64_t offset, const char *name)
{
    sm2c_buffer b;
    memset(&b, 0, sizeof b);
    b.kind = kind;
    b.dtype = dtype;
    b.shape = shape(a, rank, d);
    b.nbytes = sm2c_shape_elements(&b.shape, INT64_MAX) * (int64_t)sm2c_dtype_size(dtype);
    b.index = index;
    b.offset = offset;
    b.name = name;
    return b;

#endif
