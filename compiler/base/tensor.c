/*
** tensor.c: the dtype table and shape helpers.
*/
#include "tensor.h"

#include <stdio.h>
#include <string.h>

typedef struct dtype_info {
    const char *enum_name;
    const char *name;
    size_t size;
} dtype_info;

static const dtype_info dtypes[SM2C_DT_LAST + 1] = {
    [SM2C_DT_INVALID] = { "DT_INVALID", "invalid", 0 },
    [SM2C_DT_FLOAT] = { "DT_FLOAT", "float32", 4 },
    [SM2C_DT_DOUBLE] = { "DT_DOUBLE", "float64", 8 },
    [SM2C_DT_INT32] = { "DT_INT32", "int32", 4 },
    [SM2C_DT_UINT8] = { "DT_UINT8", "uint8", 1 },
    [SM2C_DT_INT16] = { "DT_INT16", "int16", 2 },
    [SM2C_DT_INT8] = { "DT_INT8", "int8", 1 },
    [SM2C_DT_STRING] = { "DT_STRING", "string", 0 },
    [SM2C_DT_COMPLEX64] = { "DT_COMPLEX64", "complex64", 8 },
    [SM2C_DT_INT64] = { "DT_INT64", "int64", 8 },
    [SM2C_DT_BOOL] = { "DT_BOOL", "bool", 1 },
    [SM2C_DT_QINT8] = { "DT_QINT8", "qint8", 1 },
    [SM2C_DT_QUINT8] = { "DT_QUINT8", "quint8", 1 },
    [SM2C_DT_QINT32] = { "DT_QINT32", "qint32", 4 },
    [SM2C_DT_BFLOAT16] = { "DT_BFLOAT16", "bfloat16", 2 },
    [SM2C_DT_QINT16] = { "DT_QINT16", "qint16", 2 },
    [SM2C_DT_QUINT16] = { "DT_QUINT16", "quint16", 2 },
    [SM2C_DT_UINT16] = { "DT_UINT16", "uint16", 2 },
    [SM2C_DT_COMPLEX128] = { "DT_COMPLEX128", "complex128", 16 },
    [SM2C_DT_HALF] = { "DT_HALF", "float16", 2 },
    [SM2C_DT_RESOURCE] = { "DT_RESOURCE", "resource", 0 },
    [SM2C_DT_VARIANT] = { "DT_VARIANT", "variant", 0 },
    [SM2C_DT_UINT32] = { "DT_UINT32", "uint32", 4 },
    [SM2C_DT_UINT64] = { "DT_UINT64", "uint64", 8 },
    [SM2C_DT_FLOAT8_E5M2] = { "DT_FLOAT8_E5M2", "float8_e5m2", 1 },
    [SM2C_DT_FLOAT8_E4M3FN] = { "DT_FLOAT8_E4M3FN", "float8_e4m3fn", 1 },
    [SM2C_DT_FLOAT8_E4M3FNUZ] = { "DT_FLOAT8_E4M3FNUZ", "float8_e4m3fnuz", 1 },
    [SM2C_DT_FLOAT8_E4M3B11FNUZ] = { "DT_FLOAT8_E4M3B11FNUZ", "float8_e4m3b11fnuz", 1 },
    [SM2C_DT_FLOAT8_E5M2FNUZ] = { "DT_FLOAT8_E5M2FNUZ", "float8_e5m2fnuz", 1 },
    [SM2C_DT_INT4] = { "DT_INT4", "int4", 0 },
    [SM2C_DT_UINT4] = { "DT_UINT4", "uint4", 0 },
    [SM2C_DT_INT2] = { "DT_INT2", "int2", 0 },
    [SM2C_DT_UINT2] = { "DT_UINT2", "uint2", 0 },
    [SM2C_DT_FLOAT4_E2M1FN] = { "DT_FLOAT4_E2M1FN", "float4_e2m1fn", 0 },
};

int sm2c_dtype_base(int dt)
{
    if (dt > SM2C_DT_REF_OFFSET && dt <= SM2C_DT_REF_OFFSET + SM2C_DT_LAST)
        return dt - SM2C_DT_REF_OFFSET;
    return dt;
}

int sm2c_dtype_known(int dt)
{
    int b = sm2c_dtype_base(dt);
    return b >= 0 && b <= SM2C_DT_LAST && (b != 0 || dt == 0);
}

const char *sm2c_dtype_enum_name(int dt)
{
    static const char *ref_names[SM2C_DT_LAST + 1];
    static char refbuf[SM2C_DT_LAST + 1][32];
    static char unknown[32];
    if (!sm2c_dtype_known(dt)) {
        snprintf(unknown, sizeof unknown, "DT_%d", dt);
        return unknown;
    }
    int b = sm2c_dtype_base(dt);
    if (b == dt)
        return dtypes[b].enum_name;
    if (!ref_names[b]) {
        snprintf(refbuf[b], sizeof refbuf[b], "%s_REF", dtypes[b].enum_name);
        ref_names[b] = refbuf[b];
    }
    return ref_names[b];
}

const char *sm2c_dtype_name(int dt)
{
    static char refbuf[SM2C_DT_LAST + 1][32];
    if (!sm2c_dtype_known(dt))
        return sm2c_dtype_enum_name(dt);
    int b = sm2c_dtype_base(dt);
    if (b == dt)
        return dtypes[b].name;
    if (!refbuf[b][0])
        snprintf(refbuf[b], sizeof refbuf[b], "%s_ref", dtypes[b].name);
    return refbuf[b];
}

size_t sm2c_dtype_size(int dt)
{
    int b = sm2c_dtype_base(dt);
    if (b < 0 || b > SM2C_DT_LAST)
        return 0;
    return dtypes[b].size;
}

int64_t sm2c_shape_elements(const sm2c_shape *s, int64_t cap)
{
    if (s->rank < 0)
        return -1;
    for (int32_t i = 0; i < s->rank; i++)
        if (s->dims[i] < 0)
            return -1;
    for (int32_t i = 0; i < s->rank; i++)
        if (s->dims[i] == 0)
            return 0;
    int64_t n = 1;
    for (int32_t i = 0; i < s->rank; i++) {
        if (s->dims[i] > cap / n)
            return -2;
        n *= s->dims[i];
    }
    return n > cap ? -2 : n;
}

char *sm2c_shape_str(sm2c_arena *a, const sm2c_shape *s)
{
    if (s->rank < 0)
        return sm2c_arena_strdup(a, "<unknown rank>");
    size_t cap = 3 + (size_t)s->rank * 21;
    char *buf = sm2c_arena_alloc(a, cap), *p = buf;
    *p++ = '[';
    for (int32_t i = 0; i < s->rank; i++)
        p += snprintf(p, cap - (size_t)(p - buf), "%s%lld", i ? "," : "", (long long)s->dims[i]);
    *p++ = ']';
    *p = 0;
    return buf;
}

sm2c_ctx sm2c_ctx_quiet(const sm2c_ctx *c, sm2c_diag *quiet)
{
    sm2c_diag_init(quiet);
    quiet->fn = sm2c_diag_discard;
    quiet->quiet_notes = 1;
    sm2c_ctx qc = *c;
    qc.diag = quiet;
    return qc;
}
