/* binary_i32.c: broadcasting binary ops on int32, wrapping (binary_impl.h). */
#include "binary_impl.h"

SM2C_RT__INT_OPS(int32_t, uint32_t, INT32_MAX, i32)
SM2C_RT__BINARY_COMMON(int32_t, i32)
