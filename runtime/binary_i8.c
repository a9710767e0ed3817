/* binary_i8.c: broadcasting binary ops on int8, wrapping (binary_impl.h). */
#include "binary_impl.h"

SM2C_RT__INT_OPS(int8_t, uint8_t, INT8_MAX, i8)
SM2C_RT__BINARY_COMMON(int8_t, i8)
