/*
** shape_math.c: checked shape arithmetic (shape_math.h).
*/
#include "shape_math.h"

sm2c_dims_status sm2c_broadcast_dims(int32_t ra, const int64_t *a, int32_t rb, const int64_t *b,
                                     int64_t *out)
{
    int32_t rank = ra > rb ? ra : rb;
    for (int32_t i = 0; i < rank; i++) {
        int32_t ia = i - (rank - ra), ib = i - (rank - rb);
        int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
        if (da < 0 || db < 0 || (da != db && da != 1 && db != 1))
            return SM2C_DIMS_BAD;
        out[i] = da == 1 ? db : da;
    }
    return SM2C_DIMS_OK;
}

sm2c_dims_status sm2c_window_out_size(int same, int64_t in, int64_t k, int64_t dil, int64_t stride,
                                      int64_t *out, int64_t *pad_before)
{
    if (in < 0 || k <= 0 || dil <= 0 || stride <= 0)
        return SM2C_DIMS_BAD;
    int64_t eff, t, o;
    if (__builtin_mul_overflow(k - 1, dil, &eff) || __builtin_add_overflow(eff, 1, &eff))
        return SM2C_DIMS_OVERFLOW;
    if (!same) {
        if (__builtin_sub_overflow(in, eff, &t) || __builtin_add_overflow(t, stride, &t))
            return SM2C_DIMS_OVERFLOW;
        *out = t / stride;
        *pad_before = 0;
        return *out >= 0 ? SM2C_DIMS_OK : SM2C_DIMS_BAD;
    }
    if (__builtin_add_overflow(in, stride - 1, &t))
        return SM2C_DIMS_OVERFLOW;
    o = t / stride;
    int64_t need;
    if (__builtin_mul_overflow(o - 1, stride, &need) || __builtin_add_overflow(need, eff, &need) ||
        __builtin_sub_overflow(need, in, &need))
        return SM2C_DIMS_OVERFLOW;
    *out = o;
    *pad_before = need > 0 ? need / 2 : 0;
    return SM2C_DIMS_OK;
}

sm2c_dims_status sm2c_reshape_infer(int64_t total, int32_t rank, int64_t *dims)
{
    int32_t unknown = -1, zero = 0;
    for (int32_t i = 0; i < rank; i++) {
        if (dims[i] == -1 && unknown < 0)
            unknown = i;
        else if (dims[i] < 0)
            return SM2C_DIMS_BAD;
        else
            zero |= dims[i] == 0;
    }
    int64_t known = 1;
    for (int32_t i = 0; i < rank && !zero; i++)
        if (i != unknown && __builtin_mul_overflow(known, dims[i], &known))
            return SM2C_DIMS_OVERFLOW;
    if (zero)
        known = 0;
    if (unknown >= 0) {
        dims[unknown] = known ? total / known : 0;
        known = known ? known * dims[unknown] : 0;  /* <= total: cannot overflow */
    }
    return known == total ? SM2C_DIMS_OK : SM2C_DIMS_BAD;
}

sm2c_dims_status sm2c_slice_dim(int64_t dim, int64_t b, int64_t size, int64_t *out_size)
{
    if (dim < 0 || b < 0 || b > dim)
        return SM2C_DIMS_BAD;
    if (size == -1)
        size = dim - b;
    if (size < 0 || size > dim - b)
        return SM2C_DIMS_BAD;
    *out_size = size;
    return SM2C_DIMS_OK;
}

sm2c_dims_status sm2c_strided_dim(int64_t dim, int64_t b, int64_t e, int64_t stride, int begin_mask,
                                  int end_mask, int64_t *begin, int64_t *size)
{
    if (dim < 0 || stride == 0)
        return SM2C_DIMS_BAD;
    int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? dim : dim - 1;
    if (begin_mask)
        b = stride > 0 ? lo : hi;
    else {
        b = b < 0 ? b + dim : b;
        b = b < lo ? lo : b > hi ? hi : b;
    }
    if (end_mask)
        e = stride > 0 ? hi : lo;
    else {
        e = e < 0 ? e + dim : e;
        e = e < lo ? lo : e > hi ? hi : e;
    }
    /* Both are now in [-1, dim]; the magnitude of INT64_MIN needs uint64. */
    int64_t span = stride > 0 ? e - b : b - e;
    uint64_t mag = stride > 0 ? (uint64_t)stride : 0 - (uint64_t)stride;
    *begin = b;
    *size = span <= 0 ? 0 : (int64_t)(((uint64_t)span - 1) / mag + 1);
    return SM2C_DIMS_OK;
}
