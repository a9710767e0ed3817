/* binary_i64.c: broadcasting binary ops on int64, wrapping (binary_impl.h). */
#include "binary_impl.h"

SM2C_RT__INT_OPS(int64_t, uint64_t, INT64_MAX, i64)
SM2C_RT__BINARY_COMMON(int64_t, i64)
